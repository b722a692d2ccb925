#!/bin/sh
# The kernel's ftrace-direct sample (built from the source package of this
# very kernel) registers its trampoline my_tramp on wake_up_process. While
# it is alone there the site calls my_tramp, and ftrace's
# enabled_functions says "direct-->my_tramp": check is consistent, names
# it, and ftguard arms beside it, in either order of joining and leaving,
# counting hits, never killed, the sample still running. A call planted
# (fault injection's divert) to an ordinary module function, or to
# my_tramp at a site the kernel did not give it, stays a mismatch.
. /tests/lib.sh

cli_setup 'rmmod ftrace_direct'
[ -e /lib/ftguard/test/ftrace-direct.ko ] ||
	fail "the kernel's ftrace-direct sample was not built (tests/vm/fetch-samples)"
load_ftguard fi
load_test_module ftg_target

hits() { site_field wake_up_process 5 vmlinux; }
hits_above() { [ "$(hits)" -gt "$1" ]; }
sample_runs() {
	echo > "$FTG_TRACEFS/trace"
	wait_for 10 grep -q 'waking up' "$FTG_TRACEFS/trace"
}
direct_named() {
	grep -A 1 '^wake_up_process ' "$FTG_TRACEFS/enabled_functions" |
		grep -q 'direct-->my_tramp'
}
not_killed() { expect_eq "killed ($1)" 0 "$(status killed)"; }

# 1. The sample first: the site calls my_tramp, on the kernel's word.
insmod /lib/ftguard/test/ftrace-direct.ko || fail "insmod ftrace-direct"
direct_named || fail "enabled_functions does not name my_tramp: $(cat "$FTG_TRACEFS/enabled_functions")"
sample_runs || fail "the sample's trampoline does not run"
run 0 ftguard check -l wake_up_process
out_has 'consistent'
run 0 ftguard sites -l wake_up_process -v
out_has 'shared with: direct my_tramp \[ftrace_direct\]'
run 0 ftguard sites --shared
out_has ' wake_up_process$'
# ftguard joins, then the sample leaves, while ftguard counts
run 0 ftguard start -l wake_up_process
wait_for 10 hits_above 0 || fail "no hits while armed beside the sample"
sample_runs || fail "the sample stopped running when ftguard joined"
rmmod ftrace_direct || fail "rmmod ftrace_direct while armed"
h=$(hits)
wait_for 10 hits_above "$h" || fail "hits stopped when the sample left"
echo verify > "$FTG_DEBUGFS/control" || fail "verify failed with the sample gone"
not_killed "the sample left"
run 0 ftguard stop

# 2. ftguard first, then the sample joins and leaves.
run 0 ftguard start -l wake_up_process
insmod /lib/ftguard/test/ftrace-direct.ko || fail "insmod ftrace-direct beside the arm"
sample_runs || fail "the sample does not run beside ftguard"
h=$(hits)
wait_for 10 hits_above "$h" || fail "hits stopped when the sample joined"
run 0 ftguard sites -l wake_up_process -v
out_has 'shared with: direct my_tramp \[ftrace_direct\]'
not_killed "the sample joined"
run 0 ftguard stop
# alone again on the site: the call is my_tramp's, still consistent
direct_named || fail "the sample's direct call went away"
run 0 ftguard check -l wake_up_process
out_has 'consistent'

# 3. Planted calls: what the kernel did not register stays a mismatch.
fn_a=$(site_ip fn_a)
fn_b=$(site_ip fn_b)
tramp=0x$(awk '$3 == "my_tramp" { print $1; exit }' /proc/kallsyms)
[ "$tramp" != 0x ] || fail "my_tramp not in kallsyms"
exec 3<>"$FTG_DEBUGFS/control"
echo "divert $fn_a $fn_b" >&3 || fail "divert: $(cat <&3)"
run 1 ftguard check -l fn_a
both_have "mismatch"
run 1 ftguard start -l fn_a
both_have "mismatch"
echo "divert $fn_a $tramp" >&3 || fail "divert: $(cat <&3)"
run 1 ftguard check -l fn_a
both_have "mismatch"
echo "divert $fn_a 0" >&3 || fail "divert: $(cat <&3)"
run 0 ftguard check -l fn_a
out_has 'consistent'
exec 3>&-
expect_eq "armed after the refusals" 0 "$(status armed)"
not_killed "the planted calls"

rmmod ftrace_direct || fail "rmmod ftrace_direct"
rmmod ftg_target || fail "rmmod ftg_target"
unload_ftguard
pass
