#!/bin/sh
# The 32-bit foundation: Debian's 686 kernel booted, e1000e probed and
# ioremapped BAR0 inside the module range (on i386 modules and ioremap
# share one range: the premise of the reuse scenario), both ftguard builds
# load, list e1000e's sites, check them clean against the 32-bit NOP, and
# unload.
. /tests/lib.sh

case "$(uname -m)" in
i?86) log "kernel $(uname -r) on $(uname -m)" ;;
*) fail "not a 32-bit x86 guest: $(uname -m)" ;;
esac
module_loaded e1000e || fail "e1000e not loaded"

find_nic
nic_bar0_ioremap
region=$NIC_MAP-$NIC_MAP_END
log "BAR0 $NIC_BAR0 of ${NIC##*/} ioremapped at $region"

for build in default fi; do
	if [ "$build" = fi ]; then load_ftguard fi; else load_ftguard; fi
	status=$FTG_DEBUGFS/status
	head -n 1 "$status" | grep -qx "ftguard-status 1" || fail "status header: $(head -n 1 "$status")"
	field() { awk -v k="$1" '$1 == k { print $2 }' "$status"; }
	expect_eq "fault_injection ($build build)" "$([ $build = fi ] && echo 1 || echo 0)" "$(field fault_injection)"
	mv=$(field modules_vaddr) me=$(field modules_end)
	vs=$(field vmalloc_start) ve=$(field vmalloc_end)
	log "modules $mv-$me vmalloc $vs-$ve"
	# busybox sh arithmetic is signed 64-bit here: 32-bit addresses fit.
	start=$(( ${region%-*} ))
	[ $(( mv )) -le "$start" ] && [ "$start" -lt $(( me )) ] ||
		fail "BAR0 mapping $region outside the module range $mv-$me"
	[ $(( vs )) -le $(( mv )) ] && [ $(( me )) -le $(( ve )) ] ||
		fail "module range $mv-$me not inside vmalloc $vs-$ve"

	n=$(awk '$4 == "e1000e"' "$FTG_DEBUGFS/sites" | wc -l)
	[ "$n" -gt 100 ] || fail "e1000e has only $n sites"
	log "e1000e sites: $n"
	# check every e1000e site: the 686 NOP (3e 8d 74 26 00) must match.
	exec 4<>"$FTG_DEBUGFS/control"
	echo "select-module e1000e" >&4 || fail "select-module e1000e refused"
	echo check >&4 || fail "check refused"
	read -r resp <&4
	log "check response: $resp"
	exec 4>&-
	result=$(sed -n 's/^result //p' "$FTG_DEBUGFS/check")
	set -- $result
	expect_eq "check verdict of e1000e's sites" ok "$1"
	expect_eq "sites checked" "$n" "$2"
	unload_ftguard
	module_loaded ftguard && fail "ftguard still loaded after rmmod ($build)"
done
pass
