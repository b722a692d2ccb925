#!/bin/sh
# A mismatch counts only on a stable view. Another tracer patching an
# armed function (text_poke_bp: int3, tail, first byte) can tear a copy
# that takes several loads: the old first byte with the new tail, a call
# to nowhere that the next read no longer shows. A copy planted so for
# one read (fault injection's divert with a read count) is read again and
# passes; planted for two reads in a row, the same bytes twice, it is a
# mismatch and verify kills. Then the function tracer moves on and off
# the armed fn_a for a minute (set_ftrace_filter toggled in an instance
# of its own) while verify runs again and again and fn_a is called:
# ftguard is never killed.
. /tests/lib.sh
. /tests/other-tracer.inc

kmod_setup -c '[ -n "${TOGGLER:-}" ] && kill $TOGGLER 2>/dev/null
	'"$OTHER_CLEANUP" ftg_target

STRESS_S=60
trigger=/sys/kernel/debug/ftg_target/trigger
killed() { [ "$(status killed)" = 1 ]; }

insmod /lib/ftguard/fi/ftguard.ko period=50 || fail "insmod fi ftguard"
wait_for 10 test -e "$FTG_DEBUGFS/control" || fail "no control file"
load_test_module ftg_target
fn_a=$(site_ip fn_a)

# the function tracer alone on fn_b: a call elsewhere to plant at fn_a
other_tracer_on fn_b

exec 3<>"$FTG_DEBUGFS/control"
echo "select $fn_a" >&3 || fail "select: $(cat <&3)"
echo arm >&3 || fail "arm: $(cat <&3)"
reads=$(site_field fn_a 6)
echo "divert $fn_a $foreign 1" >&3 || fail "divert for one read: $(cat <&3)"
echo verify >&3 || fail "verify, fn_a torn for one read: $(cat <&3)"
killed && fail "killed by a copy torn for one read: $(status kill_reason)"
log "reads of fn_a by that verify: $(( $(site_field fn_a 6) - reads ))"
echo "divert $fn_a $foreign 2" >&3 || fail "divert for two reads: $(cat <&3)"
echo verify >&3 2>/dev/null && fail "verify passed the same planted call read twice"
log "verify, planted for two reads: $(cat <&3)"
killed || fail "not killed: the same planted call read twice"
echo "divert $fn_a $foreign 0" >&3 2>/dev/null && fail "divert accepted a read count of 0"
echo reset >&3 || fail "reset: $(cat <&3)"
echo arm >&3 || fail "arm again: $(cat <&3)"

# the function tracer on and off fn_a while ftguard verifies it
end=$(( $(date +%s) + STRESS_S ))
(
	n=0
	while [ "$(date +%s)" -lt $end ]; do
		echo "fn_a fn_b" > "$other/set_ftrace_filter" || exit 1
		echo fn_b > "$other/set_ftrace_filter" || exit 1
		n=$((n + 2))
	done
	echo $n > /tmp/toggles
) &
TOGGLER=$!
verifies=0
while [ "$(date +%s)" -lt $end ]; do
	echo verify >&3 ||
		fail "verify $verifies while the function tracer toggles fn_a: $(cat <&3)"
	echo 10 > "$trigger" || fail "trigger fn_a"
	verifies=$((verifies + 1))
done
wait $TOGGLER || fail "set_ftrace_filter refused a toggle"
TOGGLER=
log "$(cat /tmp/toggles) filter changes against $verifies verifies in $STRESS_S s, verify runs $(status verify_runs)"
[ "$(cat /tmp/toggles)" -gt 100 ] || fail "too few filter changes to prove anything"
killed && fail "killed while the function tracer toggled fn_a: $(status kill_reason)"
expect_eq "fn_a still armed" 1 "$(status armed_sites)"

echo disarm >&3 || fail "disarm: $(cat <&3)"
exec 3>&-
other_tracer_off
rmmod ftg_target || fail "rmmod ftg_target"
unload_ftguard
pass
