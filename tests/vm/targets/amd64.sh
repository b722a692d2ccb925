# amd64 target: Debian's linux-image-amd64 paired with the headers of exactly
# the same version (the newest such pair), run by qemu-system-x86_64.
qemu=qemu-system-x86_64
qemu_mem=1024
busybox=/bin/busybox
userspace=1
guest_tests='*'
guest_tests_exclude='i386-* arm64-* dkms-* hunt-*'	# the 32-bit and arm64 scenarios run on their own targets, dkms-* in tests/dkms/run, hunt-* only when named (tests/vm/hunt-i386)
kver=
for img in $(ls /boot/vmlinuz-*-amd64 2>/dev/null | sort -rV); do
	v=${img#/boot/vmlinuz-}
	if [ -f "/usr/src/linux-headers-$v/Makefile" ]; then
		kver=$v
		break
	fi
done
[ -n "$kver" ] || die "no /boot/vmlinuz-*-amd64 with matching /usr/src/linux-headers-*: install linux-image-amd64 and linux-headers-amd64 (tests/install-deps)"
kimage=/boot/vmlinuz-$kver
kheaders=/usr/src/linux-headers-$kver
kmoddir=/lib/modules/$kver
[ -r "$kimage" ] || die "$kimage is not readable (run as root)"
