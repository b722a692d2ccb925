#!/bin/sh
# ftguard stream and ftguard record with vfs_read armed, under a load of
# 100,000-read dd runs: their own reads are vfs_read calls too, so a
# reader that waited for an empty buffer would never stop. Each keeps
# printing or recording, leaves its own events out by default, and exits
# on SIGINT (time logged) with nothing left enabled.
. /tests/lib.sh
. /tests/read-load.inc

cli_setup 'read_load_stop; unload_soon ftguard'

gone() { ! kill -0 "$1" 2>/dev/null; }
dd_lines() { grep -c '^ *dd-[0-9]* .*: func: vfs_read' "$1"; }
dd_lines_above() { [ "$(dd_lines "$1")" -gt "$2" ]; }
armed() { grep -q '^armed 1$' "$FTG_DEBUGFS/status"; }
# interrupt PID WHAT: SIGINT, then the process is gone (time logged), exit 0.
interrupt() {
	kill -INT "$1"
	within $HANG_CS gone "$1" || fail "$2: still running $((HANG_CS / 100)) s after SIGINT"
	log "$2: exited ${WAITED_CS}0 ms after SIGINT"
	wait "$1"
	expect_eq "$2: exit status after SIGINT" 0 "$?"
	within $HANG_CS nothing_enabled || fail "$2: enabled_functions not empty"
}

load_ftguard
read_load_start

# stream -l: arms for its own life.
ftguard stream -l vfs_read > s1.out 2> s1.err &
pid=$!
bg_track $pid
wait_for 30 dd_lines_above s1.out 1000 || { tail -n 5 s1.out; cat s1.err; fail "stream -l: no dd events"; }
vfs_read_enabled || fail "stream -l: vfs_read not enabled"
interrupt $pid "stream -l vfs_read"
log "stream -l: $(dd_lines s1.out) dd events; $(tail -n 1 s1.err)"
grep -Eq "^ *[^ ]*-$pid +\[" s1.out && { grep -E -- "-$pid +\[" s1.out | head -n 3; fail "stream printed its own events"; }
grep -q 'events, [0-9]* lost' s1.err || { cat s1.err; fail "stream: no final count"; }
grep -q "of stream's own hidden" s1.err || { cat s1.err; fail "stream: own events not said hidden"; }

# --no-filter: its own reads are there, as real calls. Full pages are
# spliced (no vfs_read); the page being filled is read when the stream is
# idle: without the load its own reads show at once.
read_load_stop
ftguard stream --no-filter -l vfs_read > s2.out 2> s2.err &
pid=$!
bg_track $pid
own() { grep -Eq -- "-$pid +\[[0-9]+\] .*: func: vfs_read" s2.out; }
wait_for 30 own || { tail -n 5 s2.out; fail "stream --no-filter: no own events"; }
interrupt $pid "stream --no-filter"
read_load_start

# stream after start: the arm stays; only stream ends.
ftguard -q start -l vfs_read || fail "start -l vfs_read"
ftguard stream > s3.out 2> s3.err &
pid=$!
bg_track $pid
wait_for 30 dd_lines_above s3.out 1000 || { cat s3.err; fail "stream after start: no dd events"; }
kill -INT $pid
within $HANG_CS gone $pid || fail "stream after start: still running $((HANG_CS / 100)) s after SIGINT"
log "stream after start: exited ${WAITED_CS}0 ms after SIGINT"
wait $pid
expect_eq "stream after start: exit status" 0 "$?"
vfs_read_enabled || fail "stream without -l disarmed start's arm"
ftguard -q stop || fail "stop"
within $HANG_CS nothing_enabled || fail "stop: enabled_functions not empty"

# record -- dd: finishes with the command, own events left out.
read_load_stop
ftguard record -l vfs_read -o r1.dat -- dd if=/dev/zero of=/dev/null bs=1 count=100000 \
	> r1.out 2> r1.err &
pid=$!
bg_track $pid
wait_for 240 gone $pid || { cat r1.err; fail "record -- dd did not finish"; }
wait $pid
st=$?
cat r1.err
expect_eq "record -- dd: exit status" 0 "$st"
nothing_enabled || fail "record -- dd: enabled_functions not empty"
ftguard report -i r1.dat > r1.txt || fail "report -i r1.dat"
n=$(dd_lines r1.txt)
lost=$(sed -n 's/.* \([0-9]*\) events lost.*/\1/p' r1.err)
log "record -- dd: $n dd vfs_read events, ${lost:-0} lost"
[ $((n + ${lost:-0})) -ge 100000 ] || fail "record -- dd: $n events + ${lost:-0} lost < 100000 reads"
grep -Eq -- "-$pid +\[" r1.txt && fail "record -- dd: record's own events in the file"
expect_eq "set_event_notrace_pid restored" "" "$(tr -d ' \n' < "$FTG_INSTANCE/set_event_notrace_pid")"

# record until SIGINT, under load.
read_load_start
ftguard record -l vfs_read -o r2.dat > r2.out 2> r2.err &
pid=$!
bg_track $pid
wait_for 30 armed || { cat r2.err; fail "record never armed"; }
wait_for 30 sh -c "[ \$(awk '/^read events:/ { n += \$3 } END { print n + 0 }' $FTG_INSTANCE/per_cpu/cpu*/stats) -gt 1000 ]" ||
	{ cat "$FTG_INSTANCE"/per_cpu/cpu0/stats; fail "record read no events"; }
interrupt $pid "record (no command)"
cat r2.err
ftguard report -i r2.dat > r2.txt || fail "report -i r2.dat"
n=$(dd_lines r2.txt)
log "record until SIGINT: $n dd events"
[ "$n" -gt 0 ] || fail "record until SIGINT: no dd events in r2.dat"
read_load_stop
rm -f s?.out s?.err r?.dat r?.out r?.err r?.txt
unload_soon ftguard || fail "rmmod ftguard"
pass
