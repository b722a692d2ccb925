#!/bin/sh
# The periodic verify work counts its runs and their time (status
# verify_runs, verify_ns): both stay 0 while nothing is armed, grow while
# a site is armed, and stop when it is disarmed; an explicit `verify`
# command is not the periodic work and is not counted. `ftguard status`
# shows them, and its JSON carries them.
. /tests/lib.sh

kmod_setup ftg_target

PERIOD_MS=100
insmod /lib/ftguard/ftguard.ko period=$PERIOD_MS || fail "insmod ftguard"
wait_for 10 test -e "$FTG_DEBUGFS/control" || fail "no control file"
expect_eq "verify_runs after load" 0 "$(status verify_runs)"
expect_eq "verify_ns after load" 0 "$(status verify_ns)"
load_test_module ftg_target
exec 3<>"$FTG_DEBUGFS/control"
echo "select $(site_ip fn_a) $(site_ip fn_b)" >&3 || fail "select: $(cat <&3)"
echo verify >&3 || fail "verify: $(cat <&3)"
expect_eq "verify_runs after an explicit verify, nothing armed" 0 "$(status verify_runs)"

echo arm >&3 || fail "arm: $(cat <&3)"
wait_for 10 sh -c '[ "$(awk '\''$1 == "verify_runs" { print $2 }'\'' '"$FTG_DEBUGFS"'/status)" -ge 3 ]' ||
	fail "verify_runs did not reach 3 in 10 s: $(status verify_runs)"
runs=$(status verify_runs)
ns=$(status verify_ns)
[ "$ns" -gt 0 ] || fail "verify_ns $ns after $runs runs"
log "armed 2 sites: $runs runs, $ns ns"
echo verify >&3 || fail "verify while armed: $(cat <&3)"

ftguard status >/tmp/st.txt || fail "ftguard status: $(cat /tmp/st.txt)"
cat /tmp/st.txt
grep -Eq '^verify: .*; ran [0-9]+ times, [0-9.]+ ms in all$' /tmp/st.txt ||
	fail "ftguard status does not show the verify runs: $(grep '^verify:' /tmp/st.txt)"
ftguard status --json >/tmp/st.json || fail "ftguard status --json"
grep -Eq '"verify_runs": *[1-9][0-9]*' /tmp/st.json || fail "no verify_runs in the JSON: $(cat /tmp/st.json)"
grep -Eq '"verify_ns": *[1-9][0-9]*' /tmp/st.json || fail "no verify_ns in the JSON: $(cat /tmp/st.json)"

echo disarm >&3 || fail "disarm: $(cat <&3)"
runs=$(status verify_runs)
# an absence cannot be polled for: let five periods pass
usleep $((PERIOD_MS * 5000))
expect_eq "verify_runs five periods after the disarm" "$runs" "$(status verify_runs)"
exec 3>&-
rmmod ftg_target
unload_ftguard
pass
