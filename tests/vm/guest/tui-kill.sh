#!/bin/sh
# A real kill, visible: with the fault-injection build, fn_a armed from the
# TUI and its expected bytes corrupted, the periodic verify kills tracing.
# The TUI's status line and a dialog say so with the reason; `ftguard
# status` prints the reason and exits 3; `ftguard reset` says what it
# cleared (the kill reason, the events in the buffer) and status is 0 again.
. /tests/lib.sh

T="tmux -L ftgkill"
. /tests/tui.inc
killed() { [ "$(status killed)" = 1 ]; }
OUT=/tmp/kill.out
ERR=/tmp/kill.err

command -v tmux >/dev/null || skip "no tmux in the guest"
TUI_UNLOAD=ftg_target
export PATH=$PATH:/usr/libexec
insmod /lib/ftguard/fi/ftguard.ko period=200 || fail "insmod fi ftguard"
wait_for 10 test -e "$FTG_DEBUGFS/control" || fail "no control file"
load_test_module ftg_target
fn_a=$(site_ip fn_a)

ftguard status > "$OUT" 2> "$ERR"
expect_eq "status before the kill" 0 "$?"

tui_open 80 24 250
keys f 'ftg_*' Enter
wait_screen 20 '^ fn_a +ftg_target ' "fn_a"
keys / fn_a Enter a
wait_screen 20 'armed 1 site' "the arm"
echo 7 > /sys/kernel/debug/ftg_target/trigger

echo "corrupt $fn_a" > "$FTG_DEBUGFS/control" || fail "corrupt $fn_a"
wait_for 10 killed || fail "no kill after the corruption"
reason=$(sed -n 's/^kill_reason //p' "$FTG_DEBUGFS/status")
log "kill_reason: $reason"
wait_screen 10 'Tracing killed by ftguard.ko' "the kill dialog"
wait_screen 5 'nothing can be armed' "the dialog's advice"
screen > /tmp/tui-kill.txt
export_file /tmp/tui-kill.txt
keys Enter
wait_screen 10 '^ KILLED: verify' "KILLED first on the status line"
expect_eq "enabled_functions after the kill" 0 "$(wc -l < "$FTG_TRACEFS/enabled_functions")"

ftguard status > "$OUT" 2> "$ERR"
st=$?
cat "$OUT" "$ERR"
expect_eq "status exit after the kill" 3 "$st"
grep -q '^killed: *yes: ' "$OUT" || fail "status: no 'killed: yes' line"
grep -q 'killed tracing: .*ftguard reset' "$ERR" || fail "status: no kill message on stderr"
first=$(echo "$reason" | cut -c1-20)
grep -qF -- "$first" "$ERR" || fail "status: the message lacks the reason '$first'"
ftguard status --json > "$OUT" 2> "$ERR"
expect_eq "status --json exit after the kill" 3 "$?"
grep -q '"killed": *true' "$OUT" || { cat "$OUT"; fail "status --json: killed not true"; }

keys q
wait_for 20 test -s /tmp/tui.rc || { screen; fail "the TUI did not quit"; }

ftguard reset > "$OUT" 2> "$ERR"
st=$?
cat "$OUT" "$ERR"
expect_eq "reset exit" 0 "$st"
grep -q 'disarmed: nothing was armed' "$ERR" || fail "reset: no disarm line"
grep -q 'cleared the kill latch: ' "$ERR" || fail "reset: does not say the kill it cleared"
grep -qF -- "$first" "$ERR" || fail "reset: the kill line lacks the reason"
# (the TUI read and so consumed the events there were)
grep -Eq 'emptied the trace buffer: [0-9]+ events' "$ERR" || fail "reset: no event count"
ftguard status > "$OUT" 2> "$ERR"
expect_eq "status after reset" 0 "$?"
grep -q '^killed: *no' "$OUT" || fail "status after reset: still killed"
ftguard reset > "$OUT" 2> "$ERR"
grep -q 'kill latch: was not set' "$ERR" || { cat "$ERR"; fail "second reset: latch not said clear"; }
grep -q 'emptied the trace buffer: 0 events' "$ERR" || { cat "$ERR"; fail "second reset: buffer not empty"; }
pass
