#!/bin/sh
# ftguard record -P PID records only that process's events; -F only the
# command's (and its children's), while another process calls fn_a too.
. /tests/lib.sh

cli_setup

pids_of() { ftguard report -i "$1" | sed -n 's/^.*-\([0-9][0-9]*\) *\[[0-9]*\].*: func: fn_a.*/\1/p' | sort -u; }

load_ftguard
load_test_module ftg_target

# a process calling fn_a in a loop, the one -P names
sh -c "while :; do echo 2 > $T; usleep 20000; done" &
noisy=$!
bg_track $noisy

ftguard -q record -l fn_a -P "$noisy" -o pid.dat -- sh -c "echo 7 > $T; usleep 500000" ||
	fail "record -P failed"
got=$(pids_of pid.dat)
[ -n "$got" ] || fail "record -P got no events of $noisy"
expect_eq "pids recorded with -P $noisy" "$noisy" "$got"
expect_eq "pid filter cleared" "" "$(cat "$FTG_INSTANCE/set_event_pid")"

ftguard -q record -l fn_a -F -o follow.dat -- sh -c "echo 4 > $T" || fail "record -F failed"
expect_eq "events of the command with -F" 4 "$(ftguard report -i follow.dat | grep -c ': func: fn_a')"
pids=$(pids_of follow.dat)
[ "$pids" != "$noisy" ] || fail "-F recorded the other process"
expect_eq "pid filter cleared after -F" "" "$(cat "$FTG_INSTANCE/set_event_pid")"

kill "$noisy"
wait "$noisy" 2>/dev/null
rm -f pid.dat follow.dat
rmmod ftg_target || fail "rmmod ftg_target"
unload_ftguard
pass
