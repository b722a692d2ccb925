#!/bin/sh
# The periodic verify re-checks a large arm a slice at a time (status
# verify_slice, in address order), so a whole pass takes ceil(armed /
# slice) runs (verify_cycle_ms, in periods). With a large set armed (the
# first 9,000 vmlinux functions and ftg_target's sites, re-checked 2,048
# a run: five runs a pass, as every site of 6.1 at the default slice of
# 8,192), a site in the last slice (ftg_target's fn_a: module text lies
# above the kernel's) corrupted right after a pass ended, the worst case,
# is found by the run that reaches its slice, within the bound
# doc/design.md states, and kills as before. The `verify` command still
# checks the whole set at once. (Every site armed is left to the bench,
# figure 11: patching all of them takes the test VM's CPU for longer
# than the kernel's soft-lockup watchdog allows under a loaded host.)
. /tests/lib.sh

kmod_setup ftg_target

NVMLINUX=9000
SLICE=2048
load_ftguard fi
expect_eq "verify_slice (the default)" 8192 "$(status verify_slice)"
unload_ftguard
insmod /lib/ftguard/fi/ftguard.ko slice=$SLICE || fail "insmod slice=$SLICE"
wait_for 10 test -e "$FTG_DEBUGFS/control" || fail "no control file"
slice=$(status verify_slice)
period=$(status verify_period_ms)
expect_eq "verify_slice" $SLICE "$slice"
expect_eq "verify_period_ms (the default)" 1000 "$period"
expect_eq "verify_cycle_ms while nothing is armed" 0 "$(status verify_cycle_ms)"
load_test_module ftg_target
ftguard -q check --all >/dev/null || fail "ftguard check --all"
fn_a=$(site_ip fn_a)

# the sites table is in address order: vmlinux's, then the modules'
{ awk '$4 == "vmlinux" { print $1 }' "$FTG_DEBUGFS/sites" | head -n $NVMLINUX
  awk '$4 == "ftg_target" { print $1 }' "$FTG_DEBUGFS/sites"; } >/tmp/armed.txt
exec 3<>"$FTG_DEBUGFS/control"
awk '{ printf "%s%s", (n++ % 12 ? " " : "select "), $1;
	if (n % 12 == 0) print "" } END { if (n % 12) print "" }' \
	/tmp/armed.txt >/tmp/selects
while read -r line; do
	echo "$line" >&3 || fail "select: $(cat <&3)"
done </tmp/selects
t0=$(date +%s)
echo "arm force" >&3 || fail "arm force: $(cat <&3)"
n=$(status armed_sites)
runs_per_pass=$(( (n + slice - 1) / slice ))
log "armed $n sites in $(( $(date +%s) - t0 )) s: $runs_per_pass runs a pass"
[ "$runs_per_pass" -ge 4 ] || fail "only $n sites armed: fewer than 4 slices"
expect_eq "verify_cycle_ms of $n armed sites" $((runs_per_pass * period)) \
	"$(status verify_cycle_ms)"
ftguard -v status >/tmp/st.txt || fail "ftguard -v status"
grep -Eq "^verify: .*; $slice sites a run, every armed site within $((runs_per_pass * period)) ms" /tmp/st.txt ||
	fail "ftguard status does not show the slices: $(grep '^verify:' /tmp/st.txt)"
grep -q "^ *verify_slice *$slice\$" /tmp/st.txt ||
	fail "ftguard -v status lacks verify_slice: $(grep verify_ /tmp/st.txt)"

# fn_a's slot in the armed set (sorted by address): in the last slice
slot=$(awk -v a="$fn_a" '($1 "") == (a "") { print NR }' /tmp/armed.txt)
log "fn_a ($fn_a) is site $slot of $n"
[ $(( (slot - 1) / slice + 1 )) = "$runs_per_pass" ] ||
	fail "fn_a is site $slot of $n, not in the last slice"

# The `verify` command checks every armed site at once. The periodic
# work may run between the command and the read of last_check (each
# overwrites it): the read counts only when no periodic run came between.
tries=0
while :; do
	r0=$(status verify_runs)
	echo verify >&3 || fail "verify: $(cat <&3)"
	last=$(awk '$1 == "last_check" { print $3, $4, $5 }' "$FTG_DEBUGFS/status")
	[ "$(status verify_runs)" = "$r0" ] && break
	tries=$((tries + 1))
	[ $tries -lt 10 ] || fail "a periodic run came between each of 10 verify commands and their read"
done
expect_eq "the verify command's check" "ok $n 0" "$last"

# A periodic run checks one slice: a whole pass ends after runs_per_pass
cycles=$(status verify_cycles)
wait_for $((2 * runs_per_pass * period / 1000 + 60)) \
	sh -c "[ \$(awk '\$1 == \"verify_cycles\" { print \$2 }' $FTG_DEBUGFS/status) -gt $cycles ]" ||
	fail "no whole pass in $((2 * runs_per_pass)) periods"
set -- $(awk '$1 == "last_check" { print $3, $4, $5 }' "$FTG_DEBUGFS/status")
log "last periodic run: $*"
[ "$1" = ok ] && [ "$3" = 0 ] && [ "$2" -le "$slice" ] ||
	fail "the periodic run checked more than a slice: $*"
[ "$(status killed)" = 0 ] || fail "killed while armed: $(status kill_reason)"
runs=$(status verify_runs) ns=$(status verify_ns)
log "verify with $n armed: $runs runs, $((ns / runs / 1000)) us a run"

# The worst case: fn_a corrupted just after the run that checked it.
cycles=$(status verify_cycles)
wait_for $((2 * runs_per_pass * period / 1000 + 60)) \
	sh -c "[ \$(awk '\$1 == \"verify_cycles\" { print \$2 }' $FTG_DEBUGFS/status) -gt $cycles ]" ||
	fail "no second whole pass"
# the kernel log's clock times the corruption and the kill (the kill
# line comes before the disarm, which status waits for)
echo "ftguard test: corrupting fn_a" >/dev/kmsg
echo "corrupt $fn_a" >&3 || fail "corrupt: $(cat <&3)"
r0=$(status verify_runs)
# the bound: a pass, each run's own time on top (twice its mean so far),
# and a second for the work's scheduling in a loaded emulated guest
bound_ms=$(( runs_per_pass * (period + 2 * ns / runs / 1000000) + 1000 ))
wait_for $((bound_ms / 1000 + 60)) sh -c "[ \$(awk '\$1 == \"killed\" { print \$2 }' $FTG_DEBUGFS/status) = 1 ]" ||
	fail "no kill in $((bound_ms / 1000 + 60)) s of fn_a's corruption"
r1=$(status verify_runs)
kstamp() { dmesg | sed -n "s/^\[ *\([0-9.]*\)\] $1.*/\1/p" | head -n 1; }
t_corrupt=$(kstamp 'ftguard test: corrupting fn_a')
t_kill=$(kstamp 'ftguard: killed: ')
[ -n "$t_corrupt" ] && [ -n "$t_kill" ] || fail "no kernel log stamps: '$t_corrupt' '$t_kill'"
took_ms=$(awk -v a="$t_corrupt" -v b="$t_kill" 'BEGIN { printf "%d", (b - a) * 1000 }')
reason=$(sed -n 's/^kill_reason //p' "$FTG_DEBUGFS/status")
log "killed $took_ms ms and $((r1 - r0)) runs after the corruption (bound $bound_ms ms): $reason"
[ "$took_ms" -le "$bound_ms" ] || fail "the kill took $took_ms ms, more than the bound of $bound_ms ms"
# found by the run that reached fn_a's slice, not by the first one after
[ $((r1 - r0)) -ge $((runs_per_pass - 1)) ] && [ $((r1 - r0)) -le "$runs_per_pass" ] ||
	fail "found $((r1 - r0)) runs after the corruption, not in the pass's last slice ($runs_per_pass runs a pass)"
case "$reason" in
*"mismatch $fn_a fn_a"*) ;;
*) fail "the kill reason does not name fn_a's mismatch: $reason" ;;
esac
expect_eq "armed after the kill" 0 "$(status armed)"
expect_eq "enabled_functions after the kill" 0 "$(wc -l <"$FTG_TRACEFS/enabled_functions")"
expect_eq "kill lines" 1 "$(dmesg | grep -c 'ftguard: killed: ')"
expect_eq "verify_cycle_ms after the kill" 0 "$(status verify_cycle_ms)"
echo reset >&3 || fail "reset: $(cat <&3)"
exec 3>&-
rmmod ftg_target || fail "rmmod ftg_target"
unload_ftguard
pass
