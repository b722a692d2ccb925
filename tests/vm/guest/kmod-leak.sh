#!/bin/sh
# Nothing ftguard allocates outlives the process that made it allocate.
# The module counts its live objects by kind (status alloc_<kind>); they
# must come back exactly to their baseline after each of a fixed number of
# deaths mid-arm: a raw control descriptor that selected, checked and armed
# killed with SIGKILL, `ftguard record` killed with SIGKILL, and `ftguard
# record` stopped with SIGINT. After each one, status and `ftguard status`
# tell the truth (armed 0, owner none, nothing in enabled_functions). At
# rest the counters agree with the tables (sites, modules, the armed set).
# kmemleak is used as well when the guest kernel has it.
. /tests/lib.sh

KILL_ROUNDS=4
INT_ROUNDS=2
CONTROL_ROUNDS=4

cli_setup
status=$FTG_DEBUGFS/status
field() { awk -v k="$1" '$1 == k { print $2 }' "$status"; }
armed() { grep -q '^armed 1$' "$status"; }
not_armed() { ! armed; }
hits_above() { [ "$(site_field fn_a 5)" -gt "$1" ]; }

# at_rest WHAT: nobody holds a control descriptor or an arm; the counters
# agree with what the tables list.
at_rest() {
	expect_eq "$1: armed" 0 "$(field armed)"
	expect_eq "$1: owner" none "$(sed -n 's/^owner //p' "$status")"
	expect_eq "$1: enabled_functions" 0 "$(wc -l <"$FTG_TRACEFS/enabled_functions")"
	run 0 ftguard status
	out_has '^armed: *no$'
	expect_objects_at_rest "$1"
}

# same_as_baseline WHAT
same_as_baseline() {
	at_rest "$1"
	expect_eq "$1: allocation counters" "$baseline" "$(ftg_objects)"
}

kmemleak=/sys/kernel/debug/kmemleak
if [ -e "$kmemleak" ]; then
	echo clear >"$kmemleak"
else
	log "no $kmemleak (this kernel has no CONFIG_DEBUG_KMEMLEAK): the module's counters are the leak check"
fi

load_ftguard
load_test_module ftg_target
at_rest "after load"
# One complete record first: whatever it leaves by design (the last check
# report, admitted sites) is part of the baseline.
run 0 ftguard -q record -l fn_a -o warm.dat -- sh -c "echo 3 > $T"
rm -f warm.dat
at_rest "after a complete record"
baseline=$(ftg_objects)
log "baseline: $baseline"

# 1. A raw control descriptor dies holding a selection, a response and an arm.
i=0
while [ $i -lt $CONTROL_ROUNDS ]; do
	i=$((i + 1))
	sh -c "exec 3<>$FTG_DEBUGFS/control
		echo 'select-module ftg_target' >&3 && echo check >&3 && echo arm >&3 &&
		exec sleep 600" &
	pid=$!
	bg_track $pid
	wait_for 20 armed || fail "control round $i: never armed"
	expect_eq "control round $i: owner" "$pid sh" "$(sed -n 's/^owner //p' "$status")"
	expect_eq "control round $i: sessions while held" 1 "$(field alloc_sessions)"
	expect_eq "control round $i: armsets while held" 1 "$(field alloc_armsets)"
	kill -KILL $pid
	wait $pid 2>/dev/null
	wait_for 10 not_armed || fail "control round $i: still armed after SIGKILL"
	same_as_baseline "control round $i"
done

# 2. SIGKILL of ftguard record mid-run, after it recorded hits.
i=0
while [ $i -lt $KILL_ROUNDS ]; do
	i=$((i + 1))
	before=$(site_field fn_a 5)
	ftguard record -l fn_a -o kill.dat >kill.out 2>&1 &
	pid=$!
	bg_track $pid
	wait_for 20 armed || { cat kill.out; fail "kill round $i: record never armed"; }
	expect_eq "kill round $i: owner" "$pid ftguard" "$(sed -n 's/^owner //p' "$status")"
	echo 5 >"$T" || fail "trigger"
	wait_for 10 hits_above "$before" || fail "kill round $i: no hits while armed"
	kill -KILL $pid
	wait $pid 2>/dev/null
	wait_for 10 not_armed || fail "kill round $i: still armed after SIGKILL"
	[ -e kill.dat ] && fail "kill round $i: a partial kill.dat was published"
	rm -f kill.dat.* kill.out
	same_as_baseline "kill round $i"
done

# 3. SIGINT: record finishes its file and leaves the same state.
i=0
while [ $i -lt $INT_ROUNDS ]; do
	i=$((i + 1))
	ftguard record -l fn_a -o int.dat >int.out 2>&1 &
	pid=$!
	bg_track $pid
	wait_for 20 armed || { cat int.out; fail "SIGINT round $i: record never armed"; }
	echo 5 >"$T" || fail "trigger"
	kill -INT $pid
	wait $pid
	st=$?
	[ "$st" = 0 ] || { cat int.out; fail "SIGINT round $i: record exited $st"; }
	[ -s int.dat ] || fail "SIGINT round $i: no int.dat"
	rm -f int.dat int.out
	same_as_baseline "SIGINT round $i"
done

# 4. The module's own tables shrink with the module they describe.
rmmod ftg_target || fail "rmmod ftg_target"
at_rest "after rmmod ftg_target"
export_file "$status" status-end.txt

if [ -e "$kmemleak" ]; then
	echo scan >"$kmemleak"
	echo scan >"$kmemleak"
	grep -A 12 'unreferenced object' "$kmemleak" >/tmp/kmemleak.txt
	export_file /tmp/kmemleak.txt
	grep -q 'ftg_\|\[ftguard\]' /tmp/kmemleak.txt && fail "kmemleak reports ftguard objects"
fi
unload_ftguard
pass
