#!/bin/sh
# The foundation works: ftguard.ko loads, shows up in /proc/modules, its
# events are in tracefs, e1000e probed and ioremapped BAR0, rmmod works.
. /tests/lib.sh

grep -q . /proc/modules || fail "/proc/modules empty"
module_loaded e1000e || fail "e1000e not loaded"
find_nic
log "e1000e bound to ${NIC##*/}"
nic_bar0_ioremap
case "$NIC_MAP" in 0xffff*) ;; *) fail "vmallocinfo address '$NIC_MAP' is hashed or not a kernel address (kptr_restrict?)" ;; esac
log "BAR0 $NIC_BAR0 ioremapped at $NIC_MAP-$NIC_MAP_END"

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
