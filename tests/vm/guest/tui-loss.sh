#!/bin/sh
# Lost events are counted and said: with the instance's buffer cut to one
# page per CPU and 200,000 calls of fn_a in a tight kernel loop, the kernel
# overruns the buffer. `ftguard stream` says the loss while it runs and at
# the end, `ftguard record -b 4` at the end, and the TUI's Live header at
# 80 columns shows a non-zero lost count.
. /tests/lib.sh

OLD_KB=
cli_setup '[ -n "$OLD_KB" ] && echo $OLD_KB > $FTG_INSTANCE/buffer_size_kb; tmux -L ftgloss kill-server'

load_ftguard
load_test_module ftg_target
OLD_KB=$(sed 's/.*expanded: \([0-9]*\)).*/\1/' "$FTG_INSTANCE/buffer_size_kb")
log "buffer_size_kb was $OLD_KB"
echo 4 > "$FTG_INSTANCE/buffer_size_kb" || fail "buffer_size_kb 4"
N=200000

# What the buffer holds before the stream opens (the modules' site events)
# can be overwritten by fn_a's calls too: the kernel counts them as lost.
in_buffer() {
	cat "$FTG_INSTANCE"/per_cpu/cpu*/stats |
		awk '/^entries:/ { s += $2 } END { print s + 0 }'
}

# stream: a loss said while it runs (every 2 s when it grew) and at the end
before=$(in_buffer)
log "events in the buffer before the stream: $before"
ftguard stream -l fn_a > s.out 2> s.err &
pid=$!
bg_track $pid
wait_for 20 grep -q '^armed 1$' "$FTG_DEBUGFS/status" || { cat s.err; fail "stream never armed"; }
echo $N > "$T" || fail "trigger"
wait_for 30 grep -q 'events lost so far' s.err || { cat s.err; fail "stream did not say the loss while running"; }
kill -INT $pid
wait $pid
expect_eq "stream exit" 0 "$?"
cat s.err
lost=$(sed -n 's/.*: \([0-9]*\) events lost: the buffer was full.*/\1/p' s.err)
shown=$(grep -c ': func: fn_a' s.out)
log "stream: $shown shown, ${lost:-none} lost of $N"
[ "${lost:-0}" -gt 0 ] || fail "stream: no lost count at the end"
# Every call is shown or lost; lost also counts what was in the buffer
# before and the module's own few events (arm, check).
[ $((shown + lost)) -ge $N ] || fail "stream: $shown shown + $lost lost < $N calls"
[ $((shown + lost)) -le $((N + before + 10)) ] ||
	fail "stream: $shown shown + $lost lost > $N calls + $before in the buffer before"

# record -b 4: finishes (a page read after an overrun carries the missed
# flags in its commit word, which the writer once refused: exit 2) and
# says the exact loss: events in the file + lost = the calls made, and
# trace-cmd finds the same count in the pages' dropped markers.
ftguard record -b 4 -l fn_a -o loss.dat -- sh -c "echo $N > $T" > r.out 2> r.err
st=$?
cat r.out r.err
expect_eq "record exit status" 0 "$st"
rlost=$(sed -n 's/.*: \([0-9]*\) events lost: .*/\1/p' r.err)
[ "${rlost:-0}" -gt 0 ] || fail "record: no lost count"
inf=$(ftguard report -i loss.dat | grep -c ': func: fn_a')
log "record: $inf in the file, $rlost lost of $N"
expect_eq "record: events in the file + lost" "$N" $((inf + rlost))
trace-cmd report -i loss.dat > tc.txt 2> tc.err || { cat tc.err; fail "trace-cmd report"; }
expect_eq "trace-cmd: fn_a events" "$inf" "$(grep -c ' func: .*fn_a' tc.txt)"
if grep -q 'CPU:[0-9]* \[EVENTS DROPPED\]' tc.txt; then
	log "a page had no room for its dropped count: the sum is not compared"
else
	dropped=$(sed -n 's/.*\[\([0-9]*\) EVENTS DROPPED\].*/\1/p' tc.txt |
		awk '{ s += $1 } END { print s + 0 }')
	expect_eq "trace-cmd: events dropped" "$rlost" "$dropped"
fi

# the TUI's Live header at 80 columns
command -v tmux >/dev/null || skip "no tmux in the guest"
TM="tmux -L ftgloss"
screen() { $TM capture-pane -p -t tui 2>/dev/null; }
screen_has() { screen | grep -Eq -- "$1"; }
export PATH=$PATH:/usr/libexec
$TM new-session -d -s tui -x 80 -y 24 "ftguard tui -- --screen live 2>/tmp/tui.err" ||
	fail "tmux new-session"
wait_for 60 screen_has 'FOLLOW \(p\) \| lost 0 ' || { screen; fail "no Live header"; }
ftguard -q start -l fn_a || fail "start"
echo $N > "$T" || fail "trigger (TUI)"
wait_for 30 screen_has '^ FOLLOW \(p\) \| lost [1-9][0-9]* \| events [0-9]+' ||
	{ screen; fail "the Live header does not show the loss at 80 columns"; }
screen > /tmp/live-loss.txt
export_file /tmp/live-loss.txt
log "$(screen | sed -n 2p)"
ftguard -q stop || fail "stop"
$TM kill-server
rm -f s.out s.err r.out r.err loss.dat tc.txt tc.err
echo "$OLD_KB" > "$FTG_INSTANCE/buffer_size_kb"
pass
