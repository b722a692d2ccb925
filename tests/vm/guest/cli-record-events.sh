#!/bin/sh
# ftguard record -e sched:sched_switch -l vfs_read -- dd ...: the file holds
# the function records and the context switches; trace-cmd report reads it
# without a warning and both reports show the same records of both kinds
# in the same, time, order; the event is off again afterwards. Bad -e
# arguments (all, unknown system, unknown event) are refused before
# anything is armed or enabled. With -e alone record arms nothing; stream
# -e shows the event while it runs.
. /tests/lib.sh

cli_setup
load_ftguard

SW=$FTG_INSTANCE/events/sched/sched_switch/enable

# "ts pid kind" of func and sched_switch records, whichever report
kinds() {
	sed -n 's/^ *.*-\([0-9][0-9]*\) *\[[0-9]*\] *\([0-9.]*\): *\(func\|sched_switch\): .*/\2 \1 \3/p'
}
in_time_order() { awk '$1 < last { bad = 1 } { last = $1 } END { exit bad }' "$1"; }

ftguard record -e sched:sched_switch -l vfs_read -o ev.dat -- \
	dd if=/dev/zero of=/dev/null bs=1 count=1000 > rec.out 2>&1
st=$?
cat rec.out
expect_eq "record exit status" 0 "$st"
expect_eq "sched_switch enabled after record" 0 "$(cat "$SW")"
grep -q '^armed 0$' "$FTG_DEBUGFS/status" || fail "still armed after record"

trace-cmd report -i ev.dat > tc.txt 2> tc.err || { cat tc.err; fail "trace-cmd report"; }
if [ -s tc.err ] || grep -Eqi 'warning|failed to|not found' tc.txt; then
	cat tc.err
	grep -Ei 'warning|failed to|not found' tc.txt | head
	fail "trace-cmd report warned about the file"
fi
ftguard report -i ev.dat > fg.txt 2> fg.err || { cat fg.err; fail "ftguard report"; }
head -n 3 tc.txt fg.txt
grep -m 2 sched_switch tc.txt fg.txt
kinds < tc.txt > tc.k
kinds < fg.txt > fg.k
nfunc=$(grep -c ' func$' tc.k)
nsw=$(grep -c ' sched_switch$' tc.k)
log "trace-cmd: $nfunc func, $nsw sched_switch of $(wc -l < tc.txt) lines"
[ "$nfunc" -ge 1000 ] || fail "trace-cmd: $nfunc vfs_read records, dd made 1000 reads"
[ "$nsw" -ge 1 ] || fail "trace-cmd: no sched_switch record"
nrec=$(grep -Ec '^ *.*-[0-9]+ *\[[0-9]+\] *[0-9.]+: ' tc.txt)
expect_eq "every trace-cmd record is one of the two kinds" "$nrec" "$(wc -l < tc.k)"
in_time_order tc.k || fail "trace-cmd report is not in time order"
in_time_order fg.k || fail "ftguard report is not in time order"
if ! cmp -s tc.k fg.k; then
	diff tc.k fg.k | head
	fail "ftguard report and trace-cmd report disagree"
fi
first=$(grep -m 1 ' func$' tc.k | cut -d' ' -f1)
last=$(grep ' func$' tc.k | tail -n 1 | cut -d' ' -f1)
between=$(awk -v a="$first" -v b="$last" '$3 == "sched_switch" && $1 > a && $1 < b' tc.k | wc -l)
log "reports agree on $(wc -l < tc.k) records; $between sched_switch between the first and last vfs_read"

# events only: nothing armed, the switches recorded
ftguard -q record -e sched:sched_switch -o only.dat -- usleep 20000 ||
	fail "record -e without -l"
expect_eq "func records with -e only" 0 "$(ftguard report -i only.dat | grep -c ': func: ')"
[ "$(ftguard report -i only.dat | grep -c ': sched_switch: ')" -ge 1 ] ||
	fail "record -e without -l recorded no sched_switch"
grep -q '^armed 0$' "$FTG_DEBUGFS/status" || fail "armed after record -e only"

# stream -e: the event shows while the stream runs and is off after it
ftguard stream -e sched:sched_switch > st.out 2> st.err &
pid=$!
bg_track $pid
wait_for 20 grep -q ': sched_switch: ' st.out || { cat st.err; fail "stream -e showed no sched_switch"; }
expect_eq "sched_switch enabled while the stream runs" 1 "$(cat "$SW")"
kill -INT $pid
wait $pid
expect_eq "stream exit status" 0 "$?"
expect_eq "sched_switch after the stream" 0 "$(cat "$SW")"

# bad input: an error naming the problem, exit 2, nothing armed or enabled
run 2 ftguard record -e all -l vfs_read -o bad.dat -- true
grep -q 'refused' "$ERR" || fail "-e all: $(cat "$ERR")"
run 2 ftguard record -e nosuchsystem -l vfs_read -o bad.dat -- true
grep -q "no event system 'nosuchsystem'" "$ERR" || fail "unknown system: $(cat "$ERR")"
run 2 ftguard record -e sched:nosuchevent -l vfs_read -o bad.dat -- true
grep -q "no event 'nosuchevent' in system 'sched'" "$ERR" || fail "unknown event: $(cat "$ERR")"
[ -e bad.dat ] && fail "a refused record left bad.dat"
grep -q '^armed 0$' "$FTG_DEBUGFS/status" || fail "armed after a refused -e"
expect_eq "sched_switch after the refusals" 0 "$(cat "$SW")"

rm -f ev.dat only.dat rec.out st.out st.err tc.* fg.*
unload_ftguard
pass
