#!/bin/sh
# ftguard stream prints the instance's events live until SIGINT, after
# ftguard start armed; with --json the output is one complete array.
. /tests/lib.sh

cli_setup

lines() { grep -c ': func: fn_a' stream.out; }
lines_are() { [ "$(lines)" = "$1" ]; }

load_ftguard
load_test_module ftg_target
ftguard -q start -l fn_a || fail "start"

ftguard stream > stream.out 2> stream.err &
pid=$!
bg_track $pid
# the first trigger may come before the stream opened: the buffer keeps it
echo 6 > "$T" || fail "trigger"
wait_for 20 lines_are 6 || { cat stream.out stream.err; fail "stream showed $(lines) of 6 events"; }
grep -q ': func: fn_a \[ftg_target\] <- fn_b \[ftg_target\]$' stream.out ||
	{ head -n 3 stream.out; fail "stream lines are not 'fn_a <- fn_b'"; }
kill -INT "$pid"
wait "$pid"
expect_eq "stream after SIGINT" 0 "$?"

ftguard stream --json > stream.json 2> stream.err &
pid=$!
bg_track $pid
echo 3 > "$T" || fail "trigger"
wait_for 20 sh -c "[ \$(grep -o 'fn_a' stream.json | wc -l) -ge 3 ]" ||
	{ cat stream.json stream.err; fail "no JSON events"; }
kill -INT "$pid"
wait "$pid"
expect_eq "stream --json after SIGINT" 0 "$?"
head -c 1 stream.json | grep -q '\[' || fail "JSON does not start an array"
tail -c 3 stream.json | grep -q '\]' || fail "JSON array not closed: $(tail -c 40 stream.json)"

ftguard -q stop || fail "stop"
rm -f stream.out stream.err stream.json
rmmod ftg_target || fail "rmmod ftg_target"
unload_ftguard
pass
