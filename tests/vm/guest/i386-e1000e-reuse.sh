#!/bin/sh
# The 2008 failure class, live. On 32-bit x86 module space and ioremap space
# are one range, allocated lowest-fit: a module's freed __init area is the
# first place a driver's next ioremap goes. In 2008 a tracer kept the
# addresses of freed __init functions and later patched them: by then they
# were e1000e's device memory, and NICs lost their NVM.
#
# Here: ftg_initwait's __init functions are armed while its init runs, init
# finishes (ftguard must drop and disarm them at LIVE), the init area is
# freed, the NIC is bound so that its ioremap lands on the freed address
# (the test fails when it does not), that address is planted back as a site
# (fault-injection build) and ftguard must call it stale, refuse to arm it
# and never read it. The NIC must come out unharmed: a fresh probe (which
# validates the NVM checksum) binds it and its interface comes up.
# A snapshot of the moment of overlap goes back to the host for
# `ftguard map/check --root` (layout of doc/snapshot.md).
. /tests/lib.sh

IW=/sys/kernel/debug/ftg_initwait
TRACEFS=/sys/kernel/tracing
PAGE=4096

hex() { printf '0x%08x' $(( $1 )); }
# vm_layout NAME: the shared module/ioremap range now, logged and exported
vm_layout() {
	cp /proc/vmallocinfo "/tmp/vmallocinfo-$1.txt"
	export_file "/tmp/vmallocinfo-$1.txt"
	log "vmallocinfo $1:"
	grep -E 'module|ioremap|e1000' /proc/vmallocinfo | sed 's/^/#   /'
}

# ---- the NIC, found by device id ----------------------------------------------
find_nic
nic=$NIC
bdf=${nic##*/}
drv=/sys/bus/pci/drivers/e1000e
# Its BARs as "start end" in decimal (sysfs resource: first six lines).
bars=$(head -n 6 "$nic/resource" | while read -r s e f; do
	[ $(( s )) -ne 0 ] && echo "$(( s )) $(( e ))"
done)
# nic_regions: "start end caller" of every ioremap of one of the NIC's BARs
nic_regions() {
	grep ' ioremap' /proc/vmallocinfo | while read -r range size caller rest; do
		phys=$(echo "$rest" | sed -n 's/.*phys=\(0x[0-9a-fA-F]*\).*/\1/p')
		[ -n "$phys" ] || continue
		echo "$bars" | while read -r lo hi; do
			[ $(( phys )) -ge "$lo" ] && [ $(( phys )) -le "$hi" ] &&
				echo "${range%-*} ${range#*-} $caller"
		done
	done
}
log "NIC $bdf, BARs: $(echo "$bars" | while read -r lo hi; do printf '%s-%s ' "$(hex "$lo")" "$(hex "$hi")"; done)"

# ---- ftguard first: its own allocations settle before the layout matters ---
load_ftguard fi
vm_layout 1-before-initwait

# On failure, leave no held init, planted site or module behind for the
# tests after this one (fail() exits; this runs on any exit).
kmod_setup -c '[ -e "$IW/release" ] && echo 1 >"$IW/release" 2>/dev/null
	[ -n "${insmod_pid:-}" ] && wait "$insmod_pid" 2>/dev/null
	[ -e "$FTG_DEBUGFS/control" ] && echo unplant >"$FTG_DEBUGFS/control" 2>/dev/null
	test -e "$nic/driver" || echo "$bdf" >"$drv/bind" 2>/dev/null' ftg_initwait

# ---- 1. init runs: arm its __init functions --------------------------------------
insmod /lib/ftguard/test/ftg_initwait.ko hold_ms=60000 &
insmod_pid=$!
wait_for 30 test -e "$IW/release" || fail "ftg_initwait did not reach its held init"
set -- $(grep '^ftg_initwait ' "$FTG_DEBUGFS/modules")
expect_eq "ftg_initwait state while init runs" coming "$2"
init_base=$(hex "$5")
init_region=$(grep "^$init_base-" /proc/vmallocinfo | cut -d' ' -f1)
[ -n "$init_region" ] || fail "no vmalloc area starts at init_base $init_base"
init_end=$(hex "${init_region#*-}")
log "ftg_initwait init area $init_region (init text $(( $6 )) bytes), sections .init.text $(cat /sys/module/ftg_initwait/sections/.init.text)"
vm_layout 2-init-held

init_sites=$(awk '$4 == "ftg_initwait" && $3 == "init" { print $1 " " $7 }' "$FTG_DEBUGFS/sites")
log "init sites: $(echo "$init_sites" | tr '\n' ' ')"
INIT_FNS="initwait_tick initwait_hold ftg_initwait_init initwait_page_a initwait_page_b"
for f in $INIT_FNS; do
	echo "$init_sites" | grep -q " $f\$" || fail "__init function $f is not an init site"
done
# __init functions on neighbouring pages, at least two (see ftg_initwait.c)
pages=$(echo "$init_sites" | while read -r a _; do echo $(( a / PAGE )); done | sort -un)
npages=$(echo "$pages" | wc -l)
[ "$npages" -ge 2 ] || fail "__init functions on $npages page(s), not two or more"
expect_eq "pages holding __init functions are contiguous" $(( npages - 1 )) \
	"$(( $(echo "$pages" | tail -n 1) - $(echo "$pages" | head -n 1) ))"
core_site=$(awk '$4 == "ftg_initwait" && $7 == "release_write" { print $1 }' "$FTG_DEBUGFS/sites")
[ -n "$core_site" ] || fail "release_write is not a core site"
tick=$(echo "$init_sites" | awk '$2 == "initwait_tick" { print $1 }')

exec 4<>"$FTG_DEBUGFS/control"
echo "select $(echo "$init_sites" | cut -d' ' -f1 | tr '\n' ' ')$core_site" >&4 || fail "select refused"
if ! echo arm >&4; then
	read -r resp <&4
	fail "arming the held init sites refused: $resp"
fi
read -r resp <&4
log "arm: $resp"
expect_eq "armed sites" 6 "$(status armed_sites)"
wait_for 10 sh -c "[ \$(awk -v a=$tick '\$1 == a { print \$5 }' $FTG_DEBUGFS/sites) -gt 0 ]" ||
	fail "initwait_tick armed but never hit"
log "initwait_tick hits while armed: $(awk -v a="$tick" '$1 == a { print $5 }' "$FTG_DEBUGFS/sites")"
grep -q '^initwait_tick' "$TRACEFS/enabled_functions" || fail "initwait_tick not in enabled_functions"

# ---- 2. init finishes: ftguard lets go of the init sites at LIVE -------------
echo >"$FTG_INSTANCE/trace"
echo 1 >"$IW/release" || fail "release write failed"
wait "$insmod_pid" || fail "insmod ftg_initwait failed"
set -- $(grep '^ftg_initwait ' "$FTG_DEBUGFS/modules")
expect_eq "ftg_initwait state after init" live "$2"
expect_eq "its init text" dropped "$7"
expect_eq "init sites left" 0 "$(awk '$4 == "ftg_initwait" && $3 == "init"' "$FTG_DEBUGFS/sites" | wc -l)"
for f in $INIT_FNS; do
	expect_eq "$f drop events (init-free)" 1 \
		"$(grep -c " site: .* name=$f action=drop reason=init-free\$" "$FTG_INSTANCE/trace")"
done
expect_eq "armed sites after LIVE" 1 "$(status armed_sites)"
expect_eq "enabled_functions after LIVE" "release_write" \
	"$(cut -d' ' -f1 "$TRACEFS/enabled_functions" | tr '\n' ' ' | sed 's/ $//')"
echo disarm >&4 || fail "disarm refused"
exec 4>&-
expect_eq "armed after disarm" 0 "$(status armed)"
wait_for 10 sh -c "! grep -q '^$init_base-' /proc/vmallocinfo" || fail "init area $init_base never freed"
log "init area $init_region freed"
vm_layout 3-init-freed

# ---- 3. the NIC probes again: its ioremap lands on the freed init area -----
# Unbinding frees its mappings lazily: they stay reserved until the next
# purge, so each new probe maps the lowest holes still free. Small holes
# below the init area (left by short-lived kernel allocations) are taken
# first; re-probing walks up through them, as driver churn on a live system
# would, until a probe maps the freed init area. A fixed number of probes:
# the test fails if the reuse has not happened by then.
MAX_PROBES=16
# reused_sites: "addr name start-end caller" for every freed init function
# whose address lies in one of the NIC's mapped pages (the guard page of a
# vmalloc area is not mapped).
reused_sites() {
	echo "$init_sites" | while read -r a name; do
		echo "$regions" | while read -r s e c; do
			[ $(( a )) -ge $(( s )) ] && [ $(( a )) -lt $(( e - PAGE )) ] && echo "$a $name $s-$e $c"
		done
	done
}
probe=0
hits=
while [ -z "$hits" ]; do
	[ "$probe" -lt "$MAX_PROBES" ] || fail "no freed __init function address lies in the NIC's ioremap after $MAX_PROBES probes (init $init_region): the reuse did not happen"
	probe=$(( probe + 1 ))
	echo "$bdf" >"$drv/unbind" || fail "unbind $bdf"
	echo "$bdf" >"$drv/bind" || fail "bind $bdf (probe $probe)"
	wait_for 20 test -e "$nic/driver" || fail "e1000e did not bind $bdf (probe $probe)"
	regions=$(nic_regions)
	[ -n "$regions" ] || fail "no ioremap of the NIC's BARs in /proc/vmallocinfo"
	log "probe $probe: NIC mapped at $(echo "$regions" | cut -d' ' -f1,2 | tr ' \n' '- ')"
	hits=$(reused_sites)
done
vm_layout 4-bound
echo "$regions" | while read -r s e c; do log "NIC mapping $s-$e by $c"; done
echo "$hits" | while read -r a name r c; do log "REUSE (probe $probe): freed $name at $a is now inside $r ($c)"; done
set -- $(echo "$hits" | head -n 1)
stale_addr=$1 stale_name=$2

# ---- 4. the old address planted back: stale, never armed, never read --------
exec 5<>"$FTG_DEBUGFS/control"
echo "plant stale $stale_addr $stale_name" >&5 || fail "plant stale refused"
echo "select $stale_addr" >&5 || fail "select of the planted site refused"
echo check >&5 || fail "check command failed"
verdict=$(awk -v a="$stale_addr" '$1 == a { print $2 }' "$FTG_DEBUGFS/check")
log "check: $(grep '^result' "$FTG_DEBUGFS/check"); $(grep "^$stale_addr " "$FTG_DEBUGFS/check")"
case "$verdict" in
stale|foreign) ;;
*) fail "check calls the planted $stale_addr '$verdict', not stale/foreign" ;;
esac
echo arm 2>/dev/null >&5 && fail "arming the planted ioremap address was accepted"
read -r resp <&5
log "arm refused: $resp"
case "$resp" in "error ESTALE"*) ;; *) fail "arm refused for the wrong reason: $resp" ;; esac
expect_eq "armed" 0 "$(status armed)"
expect_eq "state of the planted site" "$verdict" "$(awk -v a="$stale_addr" '$1 == a { print $2 }' "$FTG_DEBUGFS/sites")"
expect_eq "reads of the planted site's text" 0 "$(awk -v a="$stale_addr" '$1 == a { print $6 }' "$FTG_DEBUGFS/sites")"
grep -q "^$stale_name" "$TRACEFS/enabled_functions" && fail "$stale_name in enabled_functions"
expect_eq "enabled_functions" 0 "$(wc -l <"$TRACEFS/enabled_functions")"

# The moment of overlap, for the host (doc/snapshot.md layout).
snap=/tmp/snapshot
mkdir -p "$snap/proc" "$snap/debug/ftguard" "$snap/tracing"
for f in kallsyms modules vmallocinfo; do cat "/proc/$f" >"$snap/proc/$f"; done
for m in /sys/module/*/sections; do
	[ -d "$m" ] || continue
	out=$snap$m
	mkdir -p "$out"
	for s in "$m"/.[!.]* "$m"/*; do
		[ -f "$s" ] && cat "$s" >"$out/${s##*/}"
	done
done
for f in status sites modules check; do cat "$FTG_DEBUGFS/$f" >"$snap/debug/ftguard/$f"; done
for f in available_filter_functions enabled_functions touched_functions; do
	[ -r "$TRACEFS/$f" ] && cat "$TRACEFS/$f" >"$snap/tracing/$f"
done
printf 'ftguard-snapshot 1\narch i386\ncreated %s\nrelease %s\nmachine %s\nversion %s\n' \
	"$(date +%s)" "$(uname -r)" "$(uname -m)" "$(uname -v)" >"$snap/ftguard-snapshot"
(cd "$snap" && tar czf /tmp/i386-reuse-snapshot.tar.gz .) || fail "snapshot tar failed"
export_file /tmp/i386-reuse-snapshot.tar.gz
printf 'init_region %s\nstale_site %s %s\n' "$init_region" "$stale_addr" "$stale_name" >/tmp/addresses.txt
echo "$regions" | sed 's/^/nic_region /' >>/tmp/addresses.txt
export_file /tmp/addresses.txt

echo unplant >&5 || fail "unplant refused"
exec 5>&-

# ---- 5. the NIC is unharmed: a fresh probe passes and the link comes up -----
echo "$bdf" >"$drv/unbind" || fail "unbind $bdf after the scenario"
echo "$bdf" >"$drv/bind" || fail "rebind $bdf: probe failed"
wait_for 20 test -e "$nic/driver" || fail "e1000e did not rebind $bdf"
dmesg | grep -q 'NVM Checksum Is Not Valid' && fail "e1000e reports a bad NVM checksum"
ifname=$(ls "$nic/net" 2>/dev/null | head -n 1)
[ -n "$ifname" ] || fail "no network interface on $bdf"
ip link set "$ifname" up || fail "ip link set $ifname up"
wait_for 10 sh -c "[ \$(( \$(cat /sys/class/net/$ifname/flags) & 1 )) -eq 1 ]" || fail "$ifname not up"
log "$ifname up after rebind: $(ip -o link show "$ifname" | sed "s/ *\\\\.*//")"
ip link set "$ifname" down

# ---- leave the system as found -------------------------------------------------
rmmod ftg_initwait || fail "rmmod ftg_initwait"
unload_ftguard
insmod_pid=
pass
