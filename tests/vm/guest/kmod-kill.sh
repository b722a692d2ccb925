#!/bin/sh
# Another tracer on an armed site is legitimate (no kill); a corrupted
# expected-bytes record is caught by the periodic verify (no command):
# exactly one kill line, nothing left enabled, arming refused until reset.
. /tests/lib.sh

# Leave the system as found, also when a check fails half-way.
# another tracer's leftovers too
kmod_setup -c 'echo nop >"$FTG_TRACEFS/current_tracer"
	echo >"$FTG_TRACEFS/set_ftrace_filter"
	[ -w "$FTG_TRACEFS/kprobe_events" ] && echo 0 >"$FTG_TRACEFS/events/kprobes/enable" 2>/dev/null
	[ -w "$FTG_TRACEFS/kprobe_events" ] && echo >"$FTG_TRACEFS/kprobe_events"' ftg_target ftg_other

PERIOD_MS=200
enabled=$FTG_TRACEFS/enabled_functions
killed() { [ "$(status killed)" = 1 ]; }
kill_lines() { dmesg | grep -c 'ftguard: killed: '; }

insmod /lib/ftguard/fi/ftguard.ko period=$PERIOD_MS || fail "insmod fi ftguard"
wait_for 10 test -e "$FTG_DEBUGFS/control" || fail "no control file"
expect_eq "verify_period_ms" $PERIOD_MS "$(status verify_period_ms)"
load_test_module ftg_target
fn_a=$(site_ip fn_a)
exec 3<>"$FTG_DEBUGFS/control"
echo "select $fn_a" >&3 || fail "select: $(cat <&3)"
echo arm >&3 || fail "arm: $(cat <&3)"

# 1. The function tracer shares fn_a: its call now goes through ftrace's
#    list caller. Several periods pass, and an explicit verify: no kill.
echo "fn_a fn_b" > "$FTG_TRACEFS/set_ftrace_filter" || fail "set_ftrace_filter"
echo function > "$FTG_TRACEFS/current_tracer" || fail "function tracer"
# fn_b, traced by the function tracer alone (its own trampoline), checks ok
exec 4<>"$FTG_DEBUGFS/control"
echo "select $(site_ip fn_b)" >&4 || fail "select fn_b"
echo check >&4 || fail "check fn_b: $(cat <&4)"
line=$(cat <&4 | sed -n 3p)
log "fn_b under the function tracer: $line"
set -- $line
expect_eq "fn_b verdict under the function tracer" ok "$2"
ftg_split_prologue "$5" || fail "fn_b prologue under the function tracer: $5"
case "$site" in e8*) ;; *) fail "fn_b not patched by the function tracer: $5" ;; esac
exec 4>&-
echo 100 > /sys/kernel/debug/ftg_target/trigger
echo verify >&3 || fail "verify with the function tracer: $(cat <&3)"
# an absence cannot be polled for: let four periods pass
usleep $((PERIOD_MS * 4000))
killed && fail "killed while the function tracer shares fn_a: $(status kill_reason)"
expect_eq "fn_a hits with the function tracer" 100 "$(site_field fn_a 5)"
expect_eq "function tracer saw fn_a" 100 "$(grep -c 'fn_a <-fn_b' "$FTG_TRACEFS/trace")"
echo nop > "$FTG_TRACEFS/current_tracer"
echo > "$FTG_TRACEFS/set_ftrace_filter"
echo verify >&3 || fail "verify after the function tracer left: $(cat <&3)"
killed && fail "killed after the function tracer left"

# A kprobe (on ftrace, with regs) on the armed fn_a and on fn_b: no kill,
# and fn_b under the kprobe alone checks ok.
kp=$FTG_TRACEFS/kprobe_events
if [ -w "$kp" ]; then
	echo 'p:ftg_kp_a ftg_target:fn_a' >> "$kp" || fail "kprobe on fn_a"
	echo 'p:ftg_kp_b ftg_target:fn_b' >> "$kp" || fail "kprobe on fn_b"
	echo 1 > "$FTG_TRACEFS/events/kprobes/enable" || fail "enable kprobes"
	echo 10 > /sys/kernel/debug/ftg_target/trigger
	expect_eq "kprobe hits on fn_a" 10 "$(grep -c 'ftg_kp_a:' "$FTG_TRACEFS/trace")"
	echo verify >&3 || fail "verify with kprobes: $(cat <&3)"
	exec 4<>"$FTG_DEBUGFS/control"
	echo "select $(site_ip fn_b)" >&4 && echo check >&4 || fail "check fn_b under a kprobe"
	set -- $(cat <&4 | sed -n 3p)
	expect_eq "fn_b verdict under a kprobe" ok "$2"
	exec 4>&-
	usleep $((PERIOD_MS * 2000))
	killed && fail "killed with kprobes on fn_a: $(status kill_reason)"
	echo 0 > "$FTG_TRACEFS/events/kprobes/enable"
	echo > "$kp"
	echo > "$FTG_TRACEFS/trace"
else
	log "no kprobe_events: kprobe part skipped"
fi
expect_eq "kill lines so far" 0 "$(kill_lines)"

# 2. Corrupt fn_a's expected bytes: the periodic verify must kill.
echo "corrupt $fn_a" >&3 || fail "corrupt: $(cat <&3)"
wait_for 5 killed || fail "no kill within 5 s of corruption (period $PERIOD_MS ms)"
log "kill_reason: $(grep ^kill_reason "$FTG_DEBUGFS/status")"
expect_eq "armed after kill" 0 "$(status armed)"
expect_eq "enabled_functions after kill" 0 "$(wc -l < "$enabled")"
expect_eq "ftguard:kill events" 1 "$(grep -c ' kill: reason=' "$FTG_INSTANCE/trace")"
echo arm >&3 && fail "arm accepted while killed"
cat <&3 | grep -q '^error EPERM killed' || fail "arm refusal: $(cat <&3)"
usleep $((PERIOD_MS * 3000))
expect_eq "kill lines" 1 "$(kill_lines)"

# 3. reset clears the latch; a fresh module (fresh expected bytes) arms again.
echo reset >&3 || fail "reset: $(cat <&3)"
expect_eq "killed after reset" 0 "$(status killed)"
exec 3>&-
rmmod ftg_target || fail "rmmod ftg_target"
load_test_module ftg_target
exec 3<>"$FTG_DEBUGFS/control"
echo "select $(site_ip fn_a)" >&3 || fail "select after reset: $(cat <&3)"
echo arm >&3 || fail "arm after reset: $(cat <&3)"
expect_eq "enabled_functions after re-arm" 1 "$(wc -l < "$enabled")"
echo disarm >&3
exec 3>&-
rmmod ftg_target || fail "rmmod ftg_target (2)"
unload_ftguard
pass
