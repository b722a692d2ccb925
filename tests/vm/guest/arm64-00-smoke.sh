#!/bin/sh
# The arm64 foundation: Debian's arm64 kernel booted on QEMU's virt
# machine, e1000e probed on its PCIe bus with BAR0 ioremapped in vmalloc
# space, and both ftguard builds load, list as many e1000e sites as the
# kernel has ftrace records for it, each at its function's record with the
# arm64 prologue's bytes, check them clean and unload.
. /tests/lib.sh
. /tests/arm64-lib.inc
kmod_setup

expect_eq "machine" aarch64 "$(uname -m)"
log "kernel $(uname -r)"
module_loaded e1000e || fail "e1000e not loaded"
find_nic
nic_bar0_ioremap
log "BAR0 $NIC_BAR0 of ${NIC##*/} ioremapped at $NIC_MAP-$NIC_MAP_END"
records=$(grep -c ' \[e1000e\]$' "$FTG_TRACEFS/available_filter_functions")
[ "$records" -gt 100 ] || fail "e1000e has only $records ftrace records"

for build in default fi; do
	if [ "$build" = fi ]; then load_ftguard fi; else load_ftguard; fi
	head -n 1 "$FTG_DEBUGFS/status" | grep -qx "ftguard-status 1" ||
		fail "status header: $(head -n 1 "$FTG_DEBUGFS/status")"
	expect_eq "fault_injection ($build build)" "$([ $build = fi ] && echo 1 || echo 0)" \
		"$(status fault_injection)"
	vs=$(status vmalloc_start) ve=$(status vmalloc_end)
	log "vmalloc $vs-$ve"
	# kernel addresses are negative to the shell's signed arithmetic,
	# which keeps their order
	[ $((vs)) -le $((NIC_MAP)) ] && [ $((NIC_MAP)) -lt $((ve)) ] ||
		fail "BAR0 mapping $NIC_MAP outside vmalloc $vs-$ve"

	arm64_sites_header
	awk '$4 == "e1000e"' "$FTG_DEBUGFS/sites" >/tmp/e1000e-sites
	expect_eq "e1000e sites = its ftrace records" "$records" "$(wc -l </tmp/e1000e-sites)"
	# every site: its prologue's bytes expected, nothing read yet, and
	# none inside the NIC's mapping (addresses of 16 hex digits compare
	# as strings)
	bad=$(awk -v lo="$NIC_MAP" -v hi="$NIC_MAP_END" \
		-v p4="$(arm64_expected 4)" -v p8="$(arm64_expected 8)" '
		BEGIN { lo = lo ""; hi = hi "" }
		{ ip = $1 ""; want = $8 == 4 ? p4 : $8 == 8 ? p8 : "" }
		want == "" || $9 != want || $10 != "-" || $2 != "unchecked" || $6 != 0 { print; next }
		length(ip) == length(lo) && ip >= lo && ip < hi { print "in BAR0: " $0 }' /tmp/e1000e-sites)
	[ -z "$bad" ] || fail "e1000e sites not as listed for arm64: $(echo "$bad" | head -n 3)"
	log "e1000e: $records sites, offsets $(awk '{ print "+" $8 }' /tmp/e1000e-sites | sort | uniq -c | tr -s ' \n' ' ')"

	exec 3<>"$FTG_DEBUGFS/control"
	echo "select-module e1000e" >&3 || fail "select-module e1000e: $(cat <&3)"
	echo check >&3 || fail "check refused: $(cat <&3)"
	cat <&3 >/tmp/check.txt
	exec 3>&-
	set -- $(sed -n 2p /tmp/check.txt)
	expect_eq "check of e1000e's sites" "result ok $records 0" "$1 $2 $3 $4"
	expect_eq "sites read once each" "$records" "$(awk '$4 == "e1000e" && $6 == 1' "$FTG_DEBUGFS/sites" | wc -l)"
	unload_ftguard
	module_loaded ftguard && fail "ftguard still loaded after rmmod ($build)"
done
pass
