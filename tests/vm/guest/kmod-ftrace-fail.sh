#!/bin/sh
# An ftrace failure (-ENODEV, injected in the fault-injection build) kills:
# when a going module's armed site cannot leave the filter, and when
# arming. Each kill is one pr_crit line, leaves nothing enabled and
# latches until reset.
. /tests/lib.sh

kmod_setup ftg_target

sites=$FTG_DEBUGFS/sites
enabled=$FTG_TRACEFS/enabled_functions
kill_lines() { dmesg | grep -c 'ftguard: killed: '; }

quiet_vmlinux_fn

load_ftguard fi
load_test_module ftg_target
exec 3<>"$FTG_DEBUGFS/control"
echo "admit $vm_fn $vm_ip" >&3 || fail "admit: $(cat <&3)"

# 1. In the GOING notifier: fn_a cannot be removed from the filter.
echo "select $(site_ip fn_a) $(site_ip fn_b) $vm_ip" >&3 || fail "select: $(cat <&3)"
echo "arm persistent" >&3 || fail "arm: $(cat <&3)"
expect_eq "enabled_functions armed" 3 "$(wc -l < "$enabled")"
echo fail-ftrace >&3 || fail "fail-ftrace: $(cat <&3)"
rmmod ftg_target || fail "rmmod ftg_target"
expect_eq "killed" 1 "$(status killed)"
log "$(grep ^kill_reason "$FTG_DEBUGFS/status")"
grep -q '^kill_reason cannot remove fn_a .* from the filter: -19$' "$FTG_DEBUGFS/status" ||
	fail "kill reason: $(grep ^kill_reason "$FTG_DEBUGFS/status")"
expect_eq "armed" 0 "$(status armed)"
expect_eq "enabled_functions after the kill" 0 "$(wc -l < "$enabled")"
expect_eq "kill lines" 1 "$(kill_lines)"
expect_eq "kill events" 1 "$(grep -c ' kill: reason=' "$FTG_INSTANCE/trace")"
expect_eq "ftg_target sites left" 0 "$(awk '$4 == "ftg_target"' "$sites" | wc -l)"

# 2. While arming: the filter cannot be set.
echo reset >&3 || fail "reset: $(cat <&3)"
load_test_module ftg_target
echo clear >&3
echo "select $(site_ip fn_a)" >&3 || fail "select fn_a: $(cat <&3)"
echo fail-ftrace >&3
echo arm >&3 && fail "arm succeeded through a failing ftrace"
expect_eq "arm response" "error ENODEV ftrace_set_filter_ips: -19" "$(cat <&3)"
expect_eq "killed after a failed arm" 1 "$(status killed)"
expect_eq "kill lines" 2 "$(kill_lines)"
expect_eq "enabled_functions after the failed arm" 0 "$(wc -l < "$enabled")"
echo arm >&3 && fail "arm accepted while killed"
echo reset >&3
echo arm >&3 || fail "arm after reset: $(cat <&3)"
expect_eq "enabled_functions after re-arm" 1 "$(wc -l < "$enabled")"
exec 3>&-
expect_eq "enabled_functions after close" 0 "$(wc -l < "$enabled")"
rmmod ftg_target || fail "rmmod ftg_target (2)"
unload_ftguard
pass
