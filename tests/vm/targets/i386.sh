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

# host_checks OUTDIR TEST...: after the boot, the host reads what the
# guest tests exported, one PASS:/FAIL: line each check.
host_checks() {
	local out=$1 t
	shift
	for t in "$@"; do
		case $t in
		i386-e1000e-reuse) host_check_reuse "$out/$t" ;;
		i386-graph) host_check_graph "$out/$t" ;;
		esac
	done
}

# host_check_graph OUT: trace-cmd makes a trace.dat of the raw pages and
# formats i386-graph exported (`trace-cmd restore`) and reports it without
# a complaint, with as many graph entries and exits of each function as
# the guest's trace file showed.
host_check_graph() {
	local out=$1 raw=$1/raw f want got
	if ! command -v trace-cmd >/dev/null; then
		echo "SKIP: host-i386-graph (no trace-cmd on the host)"
		return 0
	fi
	if [ ! -f "$out/i386-graph-raw.tar.gz" ] || [ ! -f "$out/graph.txt" ]; then
		echo "FAIL: host-i386-graph: i386-graph exported no raw pages"
		return 0
	fi
	rm -rf "$raw"
	mkdir -p "$raw"
	tar xzf "$out/i386-graph-raw.tar.gz" -C "$raw" ||
		{ echo "FAIL: host-i386-graph: cannot unpack the raw pages"; return 0; }
	if ! trace-cmd restore -c -t "$raw" -k "$raw/kallsyms" -o "$out/head.dat" >"$out/restore.log" 2>&1 ||
		! trace-cmd restore -i "$out/head.dat" -o "$out/graph.dat" "$raw"/cpu*.raw >>"$out/restore.log" 2>&1; then
		echo "FAIL: host-i386-graph: trace-cmd restore failed (see $out/restore.log)"
		return 0
	fi
	if ! trace-cmd report -i "$out/graph.dat" >"$out/report.txt" 2>"$out/report.err" ||
		grep -Eiq 'warn|fail|error|bad|unknown' "$out/report.err"; then
		echo "FAIL: host-i386-graph: trace-cmd report complained (see $out/report.err)"
		return 0
	fi
	for f in graph_entry:fn_outer graph_exit:fn_outer graph_entry:fn_inner graph_exit:fn_inner \
		graph_entry:fn_a graph_exit:fn_a; do
		want=$(grep -c "${f%%:*}: func=${f#*:} " "$out/graph.txt")
		got=$(grep -cE "${f%%:*}: *func=${f#*:}[ +]" "$out/report.txt")
		if [ "$want" = 0 ] || [ "$got" != "$want" ]; then
			echo "FAIL: host-i386-graph: trace-cmd report shows $got ${f/:/ of }, the guest $want (see $out/report.txt)"
			return 0
		fi
	done
	echo "PASS: host-i386-graph (trace-cmd report of the 32-bit pages: the guest's $(wc -l < "$out/graph.txt") graph events)"
	# ftguard report nests the same file: outer { inner { fn_a(); } }
	if [ ! -x "$builddir/ftguard" ]; then
		echo "SKIP: host-i386-graph-report (no $builddir/ftguard)"
		return 0
	fi
	"$builddir/ftguard" report -i "$out/graph.dat" >"$out/ftguard-report.txt" 2>&1
	want=$(grep -c 'graph_entry: func=fn_inner ' "$out/graph.txt")
	for f in "1:|  fn_outer() {" "$want:|    fn_inner() {" "$want: us |      fn_a();" \
		"$want: us |    } /\* fn_inner \*/" "1: us |  } /\* fn_outer \*/"; do
		got=$(grep -c -- "${f#*:}\$" "$out/ftguard-report.txt")
		if [ "$got" != "${f%%:*}" ]; then
			echo "FAIL: host-i386-graph-report: ${got} lines '${f#*:}', want ${f%%:*} (see $out/ftguard-report.txt)"
			return 0
		fi
	done
	echo "PASS: host-i386-graph-report (ftguard report nests fn_outer, $want fn_inner and fn_a)"
}

# host_check_reuse OUT: the amd64 tools read the 32-bit snapshot that
# i386-e1000e-reuse exported (doc/reliability.md): map lists the freed
# init area and the ioremap over it as overlapping, check calls the
# planted site stale in that ioremap, map --at the planted address names
# both.
host_check_reuse() {
	local out=$1 t snap tool=$builddir/ftguard
	local init_region stale name
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
