# i386 target: Debian's 32-bit kernel (686 flavour), where module space and
# ioremap space are one range, run by qemu-system-i386. The kernel, headers
# and a static i386 busybox are unpacked by tests/vm/fetch-kernel (as
# tests/vm/fetch-i386 does) into $FTG_I386_PKGS (default
# tests/vm/build/i386-pkgs) the first time; see fetch-kernel for the one apt
# setting it changes.
# The guest gets busybox, the modules and /tests only: the ftguard programs
# are amd64 builds, and the host reads what the guest exports.
. "$here/targets/fetched.inc"
qemu=qemu-system-i386
qemu_mem=512
userspace=0
guest_tests='i386-*'
guest_tests_exclude=
fetched_kernel i386 i386 linux-image-686 "${FTG_I386_PKGS:-}"
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

# host_checks OUTDIR TEST...: after the boot, the amd64 tools read the
# 32-bit snapshot that i386-e1000e-reuse exported (doc/reliability.md): map
# lists the freed init area and the ioremap over it as overlapping, check
# calls the planted site stale in that ioremap, map --at the planted
# address names both. One PASS:/FAIL: line each.
host_checks() {
	local out=$1/i386-e1000e-reuse t ran=0 snap tool=$builddir/ftguard
	local init_region stale name
	shift
	for t in "$@"; do [ "$t" = i386-e1000e-reuse ] && ran=1; done
	[ "$ran" = 1 ] || return 0
	if [ ! -x "$tool" ]; then
		echo "SKIP: host-i386-snapshot (no $tool: build the userspace first)"
		return 0
	fi
	if [ ! -f "$out/i386-reuse-snapshot.tar.gz" ] || [ ! -f "$out/addresses.txt" ]; then
		echo "FAIL: host-i386-snapshot: i386-e1000e-reuse exported no snapshot"
		return 0
	fi
	snap=$out/snapshot
	rm -rf "$snap"
	mkdir -p "$snap"
	tar xzf "$out/i386-reuse-snapshot.tar.gz" -C "$snap" ||
		{ echo "FAIL: host-i386-snapshot: cannot unpack it"; return 0; }
	init_region=$(awk '$1 == "init_region" { print $2 }' "$out/addresses.txt")
	read -r stale name <<<"$(awk '$1 == "stale_site" { print $2, $3 }' "$out/addresses.txt")"

	# map: the init-freed area of ftg_initwait and an ioremap of the NIC
	# listed as an overlapping pair
	"$tool" --root "$snap" map >"$out/host-map.txt" 2>&1
	if awk -v init="${init_region%-*}" '
		/^overlapping regions:/ { in_ov = 1; next }
		in_ov && /^$/ { in_ov = 0 }
		in_ov && /^  [^ ]/ { a = $0; next }
		in_ov && /^    overlaps / {
			pair = a " | " $0
			if (pair ~ /init-freed +- +ftg_initwait/ && pair ~ / ioremap / &&
			    index(pair, init " ")) found = 1
		}
		END { exit !found }' "$out/host-map.txt"; then
		echo "PASS: host-i386-map (init area $init_region and an ioremap overlap)"
	else
		echo "FAIL: host-i386-map: no init-freed ftg_initwait region at ${init_region%-*} overlapping an ioremap (see $out/host-map.txt)"
	fi

	# check: exit 1, the planted site stale in the ioremap
	"$tool" --root "$snap" check >"$out/host-check.txt" 2>&1
	t=$?
	if [ "$t" = 1 ] && grep -q "$stale.*stale.*ioremap" "$out/host-check.txt"; then
		echo "PASS: host-i386-check ($name at $stale stale in ioremap)"
	else
		echo "FAIL: host-i386-check: exit $t, no 'stale ... ioremap' for $stale (see $out/host-check.txt)"
	fi

	# map --at the planted address: the ioremap and the freed init text
	"$tool" --root "$snap" map --at "$stale" >"$out/host-map-at.txt" 2>&1
	t=$?
	if [ "$t" = 0 ] && grep -q ' ioremap ' "$out/host-map-at.txt" &&
		grep -q ' init-freed .*ftg_initwait' "$out/host-map-at.txt"; then
		echo "PASS: host-i386-map-at ($stale: ioremap over freed init text)"
	else
		echo "FAIL: host-i386-map-at: exit $t, not both the ioremap and ftg_initwait's freed init at $stale (see $out/host-map-at.txt)"
	fi
}
