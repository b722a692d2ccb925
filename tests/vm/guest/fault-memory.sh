#!/bin/sh
# Out of memory, ftguard says so and tries again; it never calls a live
# site stale nor arms what it did not check (a check that judged and then
# found no memory for its report may keep its verdicts). Fault injection's
# fail-memory N fails the memory request after the next N in check, arm
# and verify (ftrace's record lookup counts as one, answering -ENOMEM as
# ftrace does). For each command, N = 0, 1, ... until a run meets no
# failure: every run that met one answers ENOMEM saying "out of memory",
# kills nothing, never calls fn_a stale (or a mismatch) and arms
# nothing. A periodic verify that meets one is counted in verify_missed
# and logged, and the next period verifies again.
. /tests/lib.sh

kmod_setup ftg_target

killed() { [ "$(status killed)" = 1 ]; }
injected() { dmesg | grep -c 'ftguard: fault injection: a memory request fails'; }

# meet CMD N: runs CMD after fail-memory N on fd 3; sets met (the failure
# was reached), rc (CMD's write status) and response
meet() {
	_before=$(injected)
	echo "fail-memory $2" >&3 || fail "fail-memory $2: $(cat <&3)"
	if echo "$1" >&3 2>/dev/null; then rc=0; else rc=1; fi
	response=$(cat <&3)
	met=0
	[ "$(injected)" -gt "$_before" ] && met=1
	echo "fail-memory off" >&3 || fail "fail-memory off: $(cat <&3)"
	killed && fail "$1 with fail-memory $2 killed: $(status kill_reason)"
	if [ $met = 1 ]; then
		[ $rc = 1 ] || fail "$1 met a memory failure (fail-memory $2) and passed"
		case "$response" in
		*ENOMEM*"out of memory"*) ;;
		*) fail "$1, fail-memory $2: $response" ;;
		esac
	fi
	true
}

insmod /lib/ftguard/fi/ftguard.ko period=600000 || fail "insmod fi ftguard"
wait_for 10 test -e "$FTG_DEBUGFS/control" || fail "no control file"
load_test_module ftg_target
fn_a=$(site_ip fn_a)
exec 3<>"$FTG_DEBUGFS/control"
echo "select $fn_a" >&3 || fail "select: $(cat <&3)"

for cmd in check arm verify; do
	n=0
	while :; do
		meet $cmd $n
		[ $met = 0 ] && break
		log "$cmd, fail-memory $n: $response"
		case "$(site_field fn_a 2)" in
		stale|mismatch|foreign) fail "fn_a $(site_field fn_a 2) after $cmd met a memory failure (fail-memory $n)" ;;
		esac
		case $cmd in
		arm) expect_eq "armed after a refused arm" 0 "$(status armed)" ;;
		verify) expect_eq "armed sites after a verify short of memory" 1 "$(status armed_sites)" ;;
		esac
		n=$((n + 1))
		[ $n -le 20 ] || fail "$cmd met a memory failure 20 times in a row"
	done
	[ $n -gt 0 ] || fail "$cmd met no memory failure at fail-memory 0"
	[ $rc = 0 ] || fail "$cmd without a memory failure: $response"
	log "$cmd: $n memory requests failed one by one, each said; then it passed"
done
expect_eq "fn_a armed at the end" armed "$(site_field fn_a 2)"
echo disarm >&3 || fail "disarm: $(cat <&3)"
exec 3>&-
unload_ftguard

# the periodic verify
insmod /lib/ftguard/fi/ftguard.ko period=100 || fail "insmod fi ftguard period=100"
wait_for 10 test -e "$FTG_DEBUGFS/control" || fail "no control file"
exec 3<>"$FTG_DEBUGFS/control"
echo "select $fn_a" >&3 || fail "select: $(cat <&3)"
echo arm >&3 || fail "arm: $(cat <&3)"
missed_in_verify() { [ "$(status verify_missed)" -ge 1 ]; }
echo "fail-memory 0" >&3 || fail "fail-memory 0: $(cat <&3)"
wait_for 10 missed_in_verify || fail "verify_missed never rose: $(status verify_missed)"
dmesg | grep -q 'ftguard: verify missed a run: out of memory' ||
	fail "no log line for the periodic verify short of memory"
runs=$(status verify_runs)
runs_past() { [ "$(status verify_runs)" -gt $((runs + 1)) ]; }
wait_for 10 runs_past || fail "the periodic verify stopped at $runs runs"
killed && fail "killed: $(status kill_reason)"
expect_eq "verify_missed" 1 "$(status verify_missed)"
expect_eq "armed sites" 1 "$(status armed_sites)"
echo disarm >&3 || fail "disarm: $(cat <&3)"
exec 3>&-
rmmod ftg_target || fail "rmmod ftg_target"
unload_ftguard
pass
