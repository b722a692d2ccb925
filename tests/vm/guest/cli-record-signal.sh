#!/bin/sh
# Ctrl-C (SIGINT) during ftguard record: nothing is left armed and the file
# is complete and readable with what was captured. SIGKILL: the kernel
# disarms when the control descriptor closes, and no partial file appears.
. /tests/lib.sh

cli_setup

armed() { grep -q '^armed 1$' "$FTG_DEBUGFS/status"; }

load_ftguard
load_test_module ftg_target

# record until interrupted (no command)
ftguard record -l fn_a -o int.dat > int.out 2>&1 &
pid=$!
bg_track $pid
wait_for 20 armed || { cat int.out; fail "record never armed"; }
echo 10 > "$T" || fail "trigger"
kill -INT "$pid"
wait "$pid"
st=$?
cat int.out
expect_eq "record after SIGINT" 0 "$st"
armed && fail "still armed after SIGINT"
expect_eq "enabled_functions after SIGINT" 0 "$(wc -l < "$FTG_TRACEFS/enabled_functions")"
[ -s int.dat ] || fail "no int.dat"
expect_eq "events in the interrupted file (trace-cmd)" 10 \
	"$(trace-cmd report -i int.dat 2>/dev/null | grep -c ' func: ')"
expect_eq "events in the interrupted file (ftguard)" 10 \
	"$(ftguard report -i int.dat | grep -c ': func: fn_a')"
ls int.dat.* 2>/dev/null && fail "temporary files left next to int.dat"

# SIGINT while a command runs: the command ends too, same guarantees
before=$(site_field fn_a 5)
ftguard record -l fn_a -o cmd.dat -- sh -c "echo 4 > $T; exec sleep 60" > cmd.out 2>&1 &
pid=$!
bg_track $pid
wait_for 20 armed || { cat cmd.out; fail "record with a command never armed"; }
hits_are() { [ "$(site_field fn_a 5)" = "$1" ]; }
wait_for 20 hits_are $((before + 4)) || fail "the command did not trigger ($(site_field fn_a 5) hits)"
kill -INT "$pid"
wait "$pid"
log "record with a command after SIGINT: $?"
armed && fail "still armed after SIGINT with a command"
expect_eq "events with a command" 4 "$(trace-cmd report -i cmd.dat 2>/dev/null | grep -c ' func: ')"
ps | grep -q '[s]leep 60' && fail "the command outlived record"

# SIGKILL: the control descriptor's close disarms; the file is not published
rm -f kill.dat
ftguard record -l fn_a -o kill.dat > kill.out 2>&1 &
pid=$!
bg_track $pid
wait_for 20 armed || fail "record never armed (kill case)"
kill -KILL "$pid"
wait "$pid"
wait_for 10 sh -c "! grep -q '^armed 1$' $FTG_DEBUGFS/status" || fail "still armed after SIGKILL"
[ -e kill.dat ] && fail "a partial kill.dat was published"

rm -f int.dat int.out cmd.dat cmd.out kill.out kill.dat.*
rmmod ftg_target || fail "rmmod ftg_target"
unload_ftguard
pass
