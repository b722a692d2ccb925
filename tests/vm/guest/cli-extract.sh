#!/bin/sh
# ftguard extract -o FILE writes what the instance holds after start/stop
# (stop keeps the buffer) as a trace.dat both reports read; reading empties
# the buffer, reset empties it too; with sites still armed it warns.
. /tests/lib.sh

cli_setup
load_ftguard
load_test_module ftg_target

fn_a_in() { ftguard report -i "$1" | grep -c ': func: fn_a'; }

ftguard -q reset || fail "reset"
ftguard -q start -l fn_a || fail "start"
echo 5 > "$T" || fail "trigger"
ftguard -q stop || fail "stop"
run 0 ftguard extract -o x.dat
cat "$ERR"
[ -s x.dat ] || fail "no x.dat"
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
rm -f x.dat again.dat reset.dat armed.dat tc.txt tc.err
rmmod ftg_target || fail "rmmod ftg_target"
unload_ftguard
pass
