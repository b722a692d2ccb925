#!/bin/sh
# ftguard extract -o FILE writes what the instance holds after start/stop
# (stop keeps the buffer) as a trace.dat both reports read, with each
# task's tgid (start turns record-tgid on, stop off); reading empties
# the buffer, reset empties it too; with sites still armed it warns.
# start -e enables a tracepoint until stop (reset too), extract writes its
# format although stop turned it off, and trace-cmd report reads both kinds
# without a warning; a bad -e is refused before anything is armed.
. /tests/lib.sh

cli_setup
load_ftguard
load_test_module ftg_target

fn_a_in() { ftguard report -i "$1" | grep -c ': func: fn_a'; }

ftguard -q reset || fail "reset"
ftguard -q start -l fn_a || fail "start"
expect_eq "record-tgid after start" 1 "$(cat "$FTG_INSTANCE/options/record-tgid")"
echo 5 > "$T" || fail "trigger"
ftguard -q stop || fail "stop"
expect_eq "record-tgid after stop" 0 "$(cat "$FTG_INSTANCE/options/record-tgid")"
run 0 ftguard extract -o x.dat
cat "$ERR"
[ -s x.dat ] || fail "no x.dat"
# the file says which process the triggering shell is (saved_tgids)
strings x.dat | grep -qx "$$ $$" || fail "no tgid for the shell ($$) in x.dat"
expect_eq "fn_a events extracted after stop" 5 "$(fn_a_in x.dat)"
trace-cmd report -i x.dat > tc.txt 2> tc.err || { cat tc.err; fail "trace-cmd report"; }
[ -s tc.err ] && { cat tc.err; fail "trace-cmd report warned"; }
expect_eq "trace-cmd: fn_a events" 5 "$(grep -c ' func: .*fn_a' tc.txt)"

# what was read is gone: a second extract is empty but still a file
run 0 ftguard extract -o again.dat
err_has 'buffer was empty'
expect_eq "fn_a events in a second extract" 0 "$(fn_a_in again.dat)"

# reset clears what stop kept
ftguard -q start -l fn_a || fail "start 2"
echo 3 > "$T"
ftguard -q stop || fail "stop 2"
ftguard -q reset || fail "reset 2"
run 0 ftguard extract -o reset.dat
expect_eq "fn_a events after reset" 0 "$(fn_a_in reset.dat)"

# still armed: a warning, and what was there
ftguard -q start -l fn_a || fail "start 3"
echo 2 > "$T"
run 0 ftguard extract -o armed.dat
err_has 'still armed'
expect_eq "fn_a events extracted while armed" 2 "$(fn_a_in armed.dat)"
ftguard -q stop || fail "stop 3"

run 2 ftguard extract -o /no/such/dir/x.dat

SW=$FTG_INSTANCE/events/sched/sched_switch/enable
ftguard -q reset || fail "reset 3"
ftguard -q start -e sched:sched_switch -l vfs_read || fail "start -e"
expect_eq "sched_switch enabled after start -e" 1 "$(cat "$SW")"
dd if=/dev/zero of=/dev/null bs=1 count=100 2>/dev/null
run 0 ftguard stop
err_has 'turned off the sched events'
expect_eq "sched_switch enabled after stop" 0 "$(cat "$SW")"
run 0 ftguard extract -o ev.dat
trace-cmd report -i ev.dat > tc.txt 2> tc.err || { cat tc.err; fail "trace-cmd report ev.dat"; }
if [ -s tc.err ] || grep -Eqi 'warning|failed to|not found' tc.txt; then
	cat tc.err
	grep -Ei 'warning|failed to|not found' tc.txt | head
	fail "trace-cmd report warned about ev.dat"
fi
nfunc=$(grep -c ' func: .*vfs_read' tc.txt)
nsw=$(grep -c ' sched_switch: ' tc.txt)
log "start -e: $nfunc vfs_read, $nsw sched_switch"
[ "$nfunc" -ge 100 ] || fail "trace-cmd: $nfunc vfs_read records, dd made 100 reads"
[ "$nsw" -ge 1 ] || fail "trace-cmd: no sched_switch record"
ftguard report -i ev.dat > fg.txt 2>&1 || { cat fg.txt; fail "ftguard report ev.dat"; }
grep -q ' sched_switch: ' fg.txt || fail "ftguard report: no sched_switch record"

# reset turns the events off too; -e alone arms nothing
ftguard -q start -e sched:sched_switch || fail "start -e alone"
grep -q '^armed 0$' "$FTG_DEBUGFS/status" || fail "start -e alone armed"
ftguard -q reset || fail "reset 4"
expect_eq "sched_switch enabled after reset" 0 "$(cat "$SW")"

# record's errors: nothing armed or enabled
run 2 ftguard start -e all -l fn_a
err_has '-e all'
run 2 ftguard start -e nosuch -l fn_a
err_has "no event system 'nosuch'"
run 2 ftguard start -e sched:nosuch -l fn_a
err_has "no event 'nosuch' in system 'sched'"
grep -q '^armed 0$' "$FTG_DEBUGFS/status" || fail "armed after a refused start -e"
expect_eq "sched_switch enabled after refused starts" 0 "$(cat "$SW")"
rm -f x.dat again.dat reset.dat armed.dat ev.dat tc.txt tc.err fg.txt
rmmod ftg_target || fail "rmmod ftg_target"
unload_ftguard
pass
