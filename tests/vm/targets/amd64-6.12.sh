# amd64-6.12 target: Debian 12's 6.12 kernel (bookworm-security, the newest
# linux-image-6.12.*+deb12-amd64-unsigned), with everything the amd64 target
# runs. It differs from 6.1 where ftguard looks: X86_KERNEL_IBT (endbr64 or
# its sealing NOP before the ftrace record, at func+4), CALL_PADDING,
# module memory in several vmalloc areas, .ko.xz modules, and headers that
# build module BTF with pahole.
. "$here/targets/fetched.inc"
qemu=qemu-system-x86_64
qemu_mem=1024
userspace=1
guest_tests='*'
guest_tests_exclude='i386-* arm64-* dkms-* hunt-*'
fetched_kernel amd64-6.12 amd64 'linux-image-6.12.*+deb12-amd64-unsigned'
