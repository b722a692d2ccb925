# arm64 target: Debian's arm64 kernel (6.1, linux-image-arm64) on QEMU's
# virt machine under software emulation. Modules are cross-built against
# the arm64 headers with the host's kbuild programs. The guest gets
# busybox, the modules and /tests only (the ftguard programs are amd64
# builds); the host reads what the guest exports.
. "$here/targets/fetched.inc"
qemu=qemu-system-aarch64
qemu_package=qemu-system-arm
qemu_mem=1024
# -cpu max: pointer authentication and BTI, as on current arm64 servers
# (Debian's kernel turns both on when the CPU has them); pauth-impdef
# keeps TCG's pointer authentication cheap. No default NIC: the e1000e
# that run adds is the only one. The machine has one PL011, the console:
# the results go out through a PCI 16550, ttyS0 in the guest.
qemu_machine=(-M virt -cpu max,pauth-impdef=on -nic none)
console=ttyAMA0
results_tty=ttyS0
qemu_results() {
	results_args=(-chardev "file,id=ftgresults,path=$1"
		-device pci-serial,chardev=ftgresults)
}
userspace=0
guest_tests='arm64-*'
guest_tests_exclude=
# OBJCOPY: tests/modules/plant-names renames symbols in an arm64 object.
kmake="ARCH=arm64 CROSS_COMPILE=aarch64-linux-gnu- OBJCOPY=aarch64-linux-gnu-objcopy"
command -v aarch64-linux-gnu-gcc >/dev/null || die "aarch64-linux-gnu-gcc not found: install gcc-aarch64-linux-gnu"

fetched_kernel arm64 arm64 linux-image-arm64
