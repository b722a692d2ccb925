#!/bin/sh
# rmmod of an armed module: the GOING notifier takes its sites out of the
# armed filter (unregistering when nothing else is armed), so a module
# loaded next at the same address has nothing in enabled_functions.
. /tests/lib.sh

# Leave the system as found, also when a check fails half-way.
kmod_setup ftg_target ftg_other

enabled=$FTG_TRACEFS/enabled_functions
core_base() { awk -v m="$1" -v s="$2" '$1 == m && $2 == s { print $3; exit }' "$FTG_DEBUGFS/modules"; }

# A vmlinux function nothing calls during the test, to keep the ops armed.
quiet_vmlinux_fn

load_ftguard
load_test_module ftg_target
exec 3<>"$FTG_DEBUGFS/control"
echo "admit $vm_fn $vm_ip" >&3 || fail "admit $vm_fn: $(cat <&3)"
expect_eq "admitted" 1 "$(status admitted)"

# 1. fn_a, fn_b and a vmlinux site armed: rmmod removes the module's two
#    entries from the registered ops' filter.
echo "select $(site_ip fn_a) $(site_ip fn_b) $vm_ip" >&3 || fail "select: $(cat <&3)"
echo "arm persistent" >&3 || fail "arm: $(cat <&3)"
expect_eq "enabled_functions while armed" 3 "$(wc -l < "$enabled")"
target_base=$(core_base ftg_target live)
rmmod ftg_target || fail "rmmod of the armed ftg_target failed"
expect_eq "armed after rmmod" 1 "$(status armed)"
expect_eq "armed_sites after rmmod" 1 "$(status armed_sites)"
expect_eq "enabled_functions after rmmod" 1 "$(wc -l < "$enabled")"
grep -q "^$vm_fn " "$enabled" || fail "$vm_fn not left in enabled_functions"
load_test_module ftg_other
other_base=$(core_base ftg_other live)
log "ftg_target was at $target_base, ftg_other is at $other_base"
[ "$(site_ip other_fn ftg_other)" ] || fail "ftg_other has no sites"
expect_eq "enabled_functions after ftg_other loaded" 1 "$(wc -l < "$enabled")"
grep '\[ftg_other\]' "$enabled" && fail "ftg_other function armed"
echo disarm >&3
expect_eq "enabled_functions after disarm" 0 "$(wc -l < "$enabled")"
rmmod ftg_other || fail "rmmod ftg_other"

# 2. fn_a alone armed: its drop empties the filter, so the ops is
#    unregistered first (an empty filter would trace everything).
load_test_module ftg_target
echo clear >&3
echo "select $(site_ip fn_a)" >&3 || fail "select fn_a: $(cat <&3)"
echo arm >&3 || fail "arm fn_a: $(cat <&3)"
expect_eq "enabled_functions with fn_a armed" 1 "$(wc -l < "$enabled")"
target_base=$(core_base ftg_target live)
rmmod ftg_target || fail "rmmod of the armed ftg_target (2) failed"
expect_eq "armed after last armed site went" 0 "$(status armed)"
expect_eq "enabled_functions after rmmod (2)" 0 "$(wc -l < "$enabled")"
load_test_module ftg_other
log "ftg_target was at $target_base, ftg_other is at $(core_base ftg_other live)"
expect_eq "enabled_functions after ftg_other loaded (2)" 0 "$(wc -l < "$enabled")"
expect_eq "fn_a drop events" 2 "$(grep -c ' site: .* name=fn_a action=drop reason=going$' "$FTG_INSTANCE/trace")"
exec 3>&-
rmmod ftg_other || fail "rmmod ftg_other (2)"
unload_ftguard
pass
