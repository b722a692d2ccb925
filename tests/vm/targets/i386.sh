# i386 target: Debian's 32-bit kernel (686 flavour), where module space and
# ioremap space are one range, run by qemu-system-i386. The kernel, headers
# and a static i386 busybox are unpacked by tests/vm/fetch-i386 into
# $FTG_I386_PKGS (default tests/vm/build/i386-pkgs); if they are not there
# yet, it is run now (see that script for the one apt setting it changes).
# The guest gets busybox, the modules and /tests only: the ftguard programs
# are amd64 builds, and the host reads what the guest exports.
qemu=qemu-system-i386
qemu_mem=512
userspace=0
guest_tests='i386-*'
guest_tests_exclude=
i386_pkgs=${FTG_I386_PKGS:-$srcdir/tests/vm/build/i386-pkgs}
if [ ! -f "$i386_pkgs/target.env" ]; then
	note "no i386 kernel in $i386_pkgs yet: running tests/vm/fetch-i386"
	FTG_I386_PKGS=$i386_pkgs "$here/fetch-i386" || die "tests/vm/fetch-i386 failed"
fi
. "$i386_pkgs/target.env"
for f in "$kimage" "$kheaders/Makefile" "$busybox"; do
	[ -e "$f" ] || die "$f missing: rerun tests/vm/fetch-i386 --force"
done
# The headers' .config selects -m32 and the 686 flags itself; the host's
# gcc builds for it. A copied tree may hold amd64 objects: kbuild rebuilds
# them because their recorded command lines differ.
kmake=
# The harness links busybox's applets by asking the binary for its list; a
# host without 32-bit support cannot run the i386 one, so the list comes
# from the host's busybox when it is the same version (same Debian config).
busybox_version() { strings "$1" | grep -m 1 -o 'BusyBox v[^ ]* ([^)]*)'; }
if ! busybox_applets=$("$busybox" --list 2>/dev/null); then
	[ -x /bin/busybox ] || die "cannot run $busybox here and no /bin/busybox to list its applets (install busybox-static)"
	[ "$(busybox_version "$busybox")" = "$(busybox_version /bin/busybox)" ] ||
		die "$busybox is $(busybox_version "$busybox"), /bin/busybox $(busybox_version /bin/busybox): cannot take the applet list from it"
	busybox_applets=$(/bin/busybox --list)
fi
