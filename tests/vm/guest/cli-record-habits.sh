#!/bin/sh
# trace-cmd's habits in ftguard record: -l 'GLOB:mod:MODULE' and
# -l ':mod:MODULE' select as MODULE:GLOB does; -F records the command
# only, -c adds its children (event-fork), as in trace-cmd; -c alone is a
# usage error.
. /tests/lib.sh

cli_setup
load_ftguard
load_test_module ftg_target

fn_a_events() { ftguard report -i "$1" | grep -c ': func: fn_a'; }

ftguard -q record -l 'fn_a:mod:ftg_target' -o mod.dat -- sh -c "echo 3 > $T" ||
	fail "record -l fn_a:mod:ftg_target"
expect_eq "fn_a:mod:ftg_target events" 3 "$(fn_a_events mod.dat)"
expect_eq "other functions with fn_a:mod:ftg_target" 0 \
	"$(ftguard report -i mod.dat | grep ': func: ' | grep -vc ': func: fn_a')"
ftguard -q record -l ':mod:ftg_target' -o all.dat -- sh -c "echo 2 > $T" ||
	fail "record -l :mod:ftg_target"
expect_eq "fn_a events with :mod:ftg_target" 2 "$(fn_a_events all.dat)"
ftguard report -i all.dat | grep -q ': func: fn_b' || fail ":mod:ftg_target did not record fn_b"
run 2 ftguard record -l 'fn_a:mod:' -o bad.dat -- true
err_has 'GLOB:mod:MODULE'

# the subshell is a child of the command's sh
ftguard -q record -l fn_a -F -o f.dat -- sh -c "echo 4 > $T; (echo 5 > $T); true" ||
	fail "record -F"
expect_eq "fn_a events with -F (the command only)" 4 "$(fn_a_events f.dat)"
ftguard -q record -l fn_a -F -c -o fc.dat -- sh -c "echo 4 > $T; (echo 5 > $T); true" ||
	fail "record -F -c"
expect_eq "fn_a events with -F -c (and its children)" 9 "$(fn_a_events fc.dat)"
expect_eq "pid filter cleared" "" "$(cat "$FTG_INSTANCE/set_event_pid")"
[ "$(grep -c '^event-fork' "$FTG_INSTANCE/trace_options")" = 0 ] ||
	fail "event-fork left on after -c"
run 2 ftguard record -l fn_a -c -o bad.dat -- true
err_has 'give -F or -P'

rm -f mod.dat all.dat f.dat fc.dat
rmmod ftg_target || fail "rmmod ftg_target"
unload_ftguard
pass
