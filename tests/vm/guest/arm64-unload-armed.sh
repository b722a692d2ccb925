#!/bin/sh
# rmmod of a module whose sites are armed, on arm64: its sites leave the
# armed filter in the GOING notifier, a vmlinux site armed beside them
# stays armed alone, and when the module's were the only armed sites the
# arm ends (an empty filter would trace every function). The module loaded
# next has nothing in enabled_functions.
. /tests/lib.sh
. /tests/arm64-lib.inc
kmod_setup ftg_target ftg_other

enabled=$FTG_TRACEFS/enabled_functions
# A vmlinux function nothing calls during the test, to keep the ops armed.
vm_fn=
for f in __arm64_sys_acct __arm64_sys_vhangup __arm64_sys_syncfs; do
	grep -qx "$f" "$FTG_TRACEFS/available_filter_functions" || continue
	ksym $f >/dev/null || continue
	vm_fn=$f
	break
done
[ -n "$vm_fn" ] || fail "no unique rarely-called vmlinux function"

load_ftguard
load_test_module ftg_target
exec 3<>"$FTG_DEBUGFS/control"
vm_ip=$(ftg_record_of $vm_fn)
echo "admit $vm_fn $vm_ip" >&3 || fail "admit $vm_fn $vm_ip: $(cat <&3)"

# 1. fn_a, fn_b and the vmlinux site armed; rmmod takes the module's two out.
echo "select $(site_field fn_a 1) $(site_field fn_b 1) $vm_ip" >&3 ||
	fail "select: $(cat <&3)"
echo "arm persistent" >&3 || fail "arm: $(cat <&3)"
expect_eq "enabled_functions while armed" 3 "$(wc -l <"$enabled")"
rmmod ftg_target || fail "rmmod of the armed ftg_target failed"
expect_eq "armed after rmmod" 1 "$(status armed)"
expect_eq "armed_sites after rmmod" 1 "$(status armed_sites)"
expect_eq "enabled_functions after rmmod" "$vm_fn" "$(cut -d' ' -f1 "$enabled" | tr '\n' ' ' | sed 's/ $//')"
expect_eq "$vm_fn state" armed "$(addr_field "$vm_ip" 2)"
for f in fn_a fn_b; do
	expect_eq "$f drop events (going)" 1 "$(grep -c " site: .* name=$f action=drop reason=going\$" "$FTG_INSTANCE/trace")"
done
load_test_module ftg_other
grep '\[ftg_other\]' "$enabled" && fail "a function of ftg_other is armed"
echo verify >&3 || fail "verify of $vm_fn after rmmod: $(cat <&3)"
expect_eq "killed" 0 "$(status killed)"
echo disarm >&3
expect_eq "enabled_functions after disarm" 0 "$(wc -l <"$enabled")"
rmmod ftg_other || fail "rmmod ftg_other"

# 2. fn_a alone armed: its drop ends the arm.
load_test_module ftg_target
echo clear >&3
echo "select $(site_field fn_a 1)" >&3 || fail "select fn_a: $(cat <&3)"
echo arm >&3 || fail "arm fn_a: $(cat <&3)"
expect_eq "enabled_functions with fn_a armed" 1 "$(wc -l <"$enabled")"
rmmod ftg_target || fail "rmmod of the armed ftg_target (2) failed"
expect_eq "armed after its last armed site went" 0 "$(status armed)"
expect_eq "enabled_functions after rmmod (2)" 0 "$(wc -l <"$enabled")"
load_test_module ftg_other
expect_eq "enabled_functions after ftg_other loaded" 0 "$(wc -l <"$enabled")"
expect_eq "killed" 0 "$(status killed)"
exec 3>&-
rmmod ftg_other || fail "rmmod ftg_other"
unload_ftguard
pass
