#!/bin/sh
# A kprobe joins and leaves fn_a while ftguard is armed there on the
# 32-bit kernel, which gives no ftrace_ops a trampoline of its own: every
# armed site calls ftrace_caller (or ftrace_regs_caller) whoever else is on
# it, so the call cannot tell ftguard alone from ftguard shared. ftguard
# says nothing then (no shared or alone site event) and is never killed,
# over full verify cycles after each change. No ftguard command in this
# guest: the control file directly.
. /tests/lib.sh

TR=$FTG_TRACEFS
T=/sys/kernel/debug/ftg_target/trigger
kmod_setup -c "[ -e $TR/events/kprobes/enable ] && echo 0 > $TR/events/kprobes/enable; echo > $TR/kprobe_events" ftg_target
load_ftguard
load_test_module ftg_target

said() { grep -Ec ' site: .* action=(shared|alone) ' "$FTG_INSTANCE/trace"; }
verified_past() { [ "$(status verify_runs)" -gt "$1" ]; }
# full_cycle: wait until the periodic verify has re-checked every armed
# site at least once more (bounded by the cycle, plus a second)
full_cycle() {
	_runs=$(( $(status verify_cycle_ms) / $(status verify_period_ms) ))
	_r=$(status verify_runs)
	wait_for $(( $(status verify_cycle_ms) / 1000 + 3 )) \
		verified_past $(( _r + _runs )) || fail "the verify does not run"
}
kprobe_fires() {
	echo > "$TR/trace"
	echo 3 > "$T"
	grep -q 'ftg_kp:' "$TR/trace"
}

exec 3<>"$FTG_DEBUGFS/control"
echo "select $(site_ip fn_a)" >&3 || fail "select: $(cat <&3)"
echo arm >&3 || fail "arm: $(cat <&3)"

echo 'p:kprobes/ftg_kp ftg_target:fn_a' > "$TR/kprobe_events" || fail "kprobe_events"
echo 1 > "$TR/events/kprobes/ftg_kp/enable" || fail "enable the kprobe"
wait_for 10 kprobe_fires || fail "the kprobe does not fire beside ftguard"
full_cycle
expect_eq "sharing events once the kprobe joined" 0 "$(said)"

echo 0 > "$TR/events/kprobes/ftg_kp/enable"
echo > "$TR/kprobe_events"
echo 3 > "$T"
full_cycle
expect_eq "sharing events once it left" 0 "$(said)"
expect_eq "killed" 0 "$(status killed)"
expect_eq "fn_a still armed" armed "$(site_field fn_a 2)"
echo disarm >&3 || fail "disarm: $(cat <&3)"
exec 3>&-
rmmod ftg_target || fail "rmmod ftg_target"
unload_ftguard
pass
