#!/bin/sh
# The foundation works: ftguard.ko loads, shows up in /proc/modules, its
# events are in tracefs, e1000e probed and ioremapped BAR0, rmmod works.
. /tests/lib.sh

grep -q . /proc/modules || fail "/proc/modules empty"
module_loaded e1000e || fail "e1000e not loaded"
nic=
for d in /sys/bus/pci/devices/*; do
	[ "$(cat "$d/vendor"):$(cat "$d/device")" = "0x8086:0x10d3" ] && nic=$d
done
[ -n "$nic" ] || fail "no 8086:10d3 PCI device"
wait_for 20 test -e "$nic/driver" || fail "e1000e did not bind ${nic##*/}"
log "e1000e bound to ${nic##*/}"
# BAR0 start from sysfs; vmallocinfo prints phys= zero-padded to 16 digits.
bar0=$(head -n 1 "$nic/resource" | cut -d' ' -f1)
region=$(awk -v bar="$bar0" '/e1000_probe/ && /ioremap/ {
	for (i = 1; i <= NF; i++)
		if ($i ~ /^phys=/) {
			p = substr($i, 8); sub(/^0+/, "", p); b = substr(bar, 3); sub(/^0+/, "", b)
			if (p == b) print $1
		}
}' /proc/vmallocinfo)
[ -n "$region" ] || { grep -E 'e1000|ioremap' /proc/vmallocinfo; fail "no e1000_probe ioremap of BAR0 $bar0 in /proc/vmallocinfo"; }
case "$region" in 0xffff*) ;; *) fail "vmallocinfo address '$region' is hashed or not a kernel address (kptr_restrict?)" ;; esac
log "BAR0 $bar0 ioremapped at $region"

load_ftguard
module_loaded ftguard || fail "ftguard not in /proc/modules"
for f in control status sites modules check; do
	test -e "$FTG_DEBUGFS/$f" || fail "debugfs ftguard/$f missing"
done
test -d "$FTG_INSTANCE" || fail "trace instance ftguard missing"
for e in func module site check arm kill; do
	test -d "$FTG_INSTANCE/events/ftguard/$e" || fail "event ftguard:$e missing"
done
log "status: $(head -n 3 "$FTG_DEBUGFS/status" | tr '\n' ' ')"
unload_ftguard
module_loaded ftguard && fail "ftguard still loaded after rmmod"
test -d "$FTG_INSTANCE" && fail "instance left behind after rmmod"
pass
