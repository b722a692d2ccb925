#!/bin/sh
# The kernel's livepatch sample (built from the source package of this
# very kernel) replaces cmdline_proc_show beside an ftguard arm, in both
# orders: ftguard counts every call of the function (its site runs
# before the livepatch's handler redirects the call), is never killed,
# /proc/cmdline shows the patched text while the patch is on, and `sites`
# names the livepatch while it is there and nobody once it left.
. /tests/lib.sh

LP=/sys/kernel/livepatch/livepatch_sample
KO=/lib/ftguard/test/livepatch-sample.ko
cli_setup "echo 0 > $LP/enabled 2>/dev/null; rmmod livepatch_sample 2>/dev/null"
[ -d /sys/kernel/livepatch ] || skip "no livepatch support in this kernel"
[ -e $KO ] || fail "the kernel's livepatch sample was not built (tests/vm/fetch-samples)"
load_ftguard

hits() { site_field cmdline_proc_show 5 vmlinux; }
read_cmdline() { cat /proc/cmdline > /dev/null; }
counting() { # counting: a read of /proc/cmdline adds hits
	_h=$(hits)
	read_cmdline
	[ "$(hits)" -gt "$_h" ]
}
patched() { grep -q 'this has been live patched' /proc/cmdline; }
settled() { [ "$(cat $LP/transition 2>/dev/null)" = 0 ]; }
patch_on() {
	insmod $KO || fail "insmod livepatch-sample"
	wait_for 60 settled || fail "the livepatch did not finish its transition"
	wait_for 10 patched || fail "/proc/cmdline not patched: $(cat /proc/cmdline)"
}
patch_off() {
	echo 0 > $LP/enabled || fail "disable the livepatch"
	wait_for 60 sh -c "! test -e $LP" || fail "the livepatch did not go"
	wait_for 30 rmmod livepatch_sample || fail "rmmod livepatch_sample"
	patched && fail "/proc/cmdline still patched"
	return 0
}
named() {
	run 0 ftguard sites -l cmdline_proc_show -v
	out_has 'shared with: livepatch livepatch_sample'
}
alone() {
	run 0 ftguard sites -l cmdline_proc_show -v
	grep -q 'shared with' "$OUT" && fail "still shared once it left: $(cat "$OUT")"
	return 0
}

# ftguard first, the livepatch joins and leaves
run 0 ftguard start -l cmdline_proc_show
wait_for 10 counting || fail "no hits while armed"
patch_on
wait_for 10 counting || fail "hits stopped when the livepatch joined"
named
patch_off
wait_for 10 counting || fail "hits stopped when the livepatch left"
alone
expect_eq "killed, ftguard first" 0 "$(status killed)"
run 0 ftguard stop

# the livepatch first: its site checks consistent, ftguard arms beside it
patch_on
run 0 ftguard check -l cmdline_proc_show
out_has 'consistent'
run 0 ftguard start -l cmdline_proc_show
wait_for 10 counting || fail "no hits armed beside the livepatch"
named
patched || fail "the livepatch stopped when ftguard armed"
run 0 ftguard stop
patched || fail "the livepatch stopped when ftguard disarmed"
patch_off
expect_eq "killed, the livepatch first" 0 "$(status killed)"
unload_ftguard
pass
