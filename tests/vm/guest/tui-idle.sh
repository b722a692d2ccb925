#!/bin/sh
# The TUI waits on its terminal and the live trace descriptors together,
# with no timer but its status refresh: idle, with ftguard's instance open
# and a site armed but not called, it wakes at most IDLE_MAX_PER_S times a
# second (its voluntary context switches over IDLE_SECS; a loop on a
# 50 ms timer makes about 20); and an event wakes it at once: with the
# refresh a minute away, fn_a's calls reach the Live screen in a few
# seconds, so only the trace descriptors can have woken it.
. /tests/lib.sh

T="tmux -L ftgidle"
. /tests/tui.inc

IDLE_SECS=10 IDLE_MAX_PER_S=3
TRIG=/sys/kernel/debug/ftg_target/trigger
switches() { awk '$1 == "voluntary_ctxt_switches:" { print $2 }' "/proc/$1/status"; }
# idle_rate WHAT: measures the TUI's wake-ups/s, logs them, checks the bound
idle_rate() {
	local before after per_s
	before=$(switches "$pid") || fail "no /proc/$pid/status"
	sleep "$IDLE_SECS"
	after=$(switches "$pid") || fail "no /proc/$pid/status"
	per_s=$(awk -v n=$((after - before)) -v s="$IDLE_SECS" 'BEGIN { printf "%.1f", n / s }')
	log "idle TUI, $1: $((after - before)) wake-ups in $IDLE_SECS s = $per_s/s"
	awk -v r="$per_s" -v max="$IDLE_MAX_PER_S" 'BEGIN { exit !(r <= max) }' ||
		fail "idle TUI, $1: $per_s wake-ups/s, more than $IDLE_MAX_PER_S"
}

command -v tmux >/dev/null || skip "no tmux in the guest"
export PATH=$PATH:/usr/libexec
load_ftguard
load_test_module ftg_target
TUI_UNLOAD=ftg_target
TUI_CLEANUP='ftguard -q stop'

rm -f /tmp/tui.rc
$T new-session -d -s tui -x 100 -y 30 \
	"ftguard tui -- --screen live --refresh 60000 2>/tmp/tui.err; echo \$? > /tmp/tui.rc" ||
	fail "tmux new-session"
wait_screen 60 'FOLLOW \(p\) \| lost 0 ' "the Live header"
pid=$(pidof ftguard-tui)
[ -n "$pid" ] || fail "no ftguard-tui process"
ncpu_fds=$(ls -l "/proc/$pid/fd" | grep -c 'trace_pipe_raw$')
[ "$ncpu_fds" -ge 1 ] || fail "the TUI holds no trace_pipe_raw descriptor"
log "the TUI (pid $pid) holds $ncpu_fds trace_pipe_raw descriptors"
sleep 1
idle_rate "nothing armed"

ftguard -q start -l ftg_target:fn_a || fail "ftguard start"
sleep 1
idle_rate "fn_a armed, not called"

echo 3 > "$TRIG" || fail "trigger"
wait_screen 10 'fn_a \[ftg_target\]' "fn_a's calls (woken by the trace descriptors)"
screen > /tmp/tui-idle.txt
export_file /tmp/tui-idle.txt
ftguard -q stop || fail "ftguard stop"
keys q
wait_for 10 test -s /tmp/tui.rc || { screen; fail "q did not end the TUI"; }
expect_eq "TUI exit status" 0 "$(cat /tmp/tui.rc)"
pass
