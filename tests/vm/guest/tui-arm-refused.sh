#!/bin/sh
# The TUI refuses to arm while a stale site is in the selection: with the
# fault-injection build a stale site is planted at ftg_target's freed init
# text; marking it and fn_a then `a` opens the dialog naming it, and
# nothing is armed. After `unplant` the same `a` arms fn_a; a SIGKILLed
# TUI leaves nothing armed, and so does `q`.
. /tests/lib.sh

T="tmux -L ftgtui"
. /tests/tui.inc
enabled_count() { wc -l < "$FTG_TRACEFS/enabled_functions"; }
control() { echo "$*" > "$FTG_DEBUGFS/control" || fail "control: $*"; }
start_tui() {
	tui_open 80 24 250
	# ftg_target's sites and the planted one (e1000e's come first).
	keys f 'ftg_*' Enter
	wait_screen 20 '^ fn_a +ftg_target ' "fn_a"
}

command -v tmux >/dev/null || skip "no tmux in the guest"
# Whatever happens, leave the system as it was.
TUI_UNLOAD=ftg_target
# `ftguard tui` looks in its libexecdir, then PATH: PATH also names where
# the harness installs it (tui-sites checks the libexecdir lookup itself).
export PATH=$PATH:/usr/libexec
load_ftguard fi
load_test_module ftg_target
freed_init_base ftg_target
control "plant stale $INIT_BASE ftg_stale_init"

start_tui
wait_screen 20 '^ ftg_stale_init +vmlinux +[0-9a-f]{16} core +planted ' "the planted site"
# Mark fn_a and the stale site (Space marks and moves down).
keys / fn_a Enter Space / ftg_stale_init Enter Space
wait_screen 10 ' 2 marked ' "2 marked"
keys a
wait_screen 20 'Arm refused' "the refusal dialog"
wait_screen 5 'stale +ftg_stale_init \[vmlinux\] 0x' "the stale site in the dialog"
screen > /tmp/refused.txt
export_file /tmp/refused.txt
expect_eq "armed after the refusal" 0 "$(status armed)"
expect_eq "enabled_functions after the refusal" 0 "$(enabled_count)"

keys Enter
wait_for 10 screen_lacks 'Arm refused' || { screen; fail "the dialog did not close"; }
control unplant
wait_for 20 screen_lacks 'ftg_stale_init' || { screen; fail "the unplanted site is still shown"; }
keys a
wait_screen 20 'armed 1 site' "the arm message"
expect_eq "armed after unplant" 1 "$(status armed)"
grep -q '^fn_a \[ftg_target\]' "$FTG_TRACEFS/enabled_functions" || fail "fn_a not enabled"
expect_eq "enabled_functions" 1 "$(enabled_count)"

# SIGKILL: the control descriptor closes with the process and disarms.
owner=$(awk '$1 == "owner" { print $2 }' "$FTG_DEBUGFS/status")
kill -9 "$owner" || fail "kill -9 $owner"
wait_for 10 sh -c "[ \"\$(awk '\$1 == \"armed\" { print \$2 }' $FTG_DEBUGFS/status)\" = 0 ]" ||
	fail "still armed after the TUI was killed"
expect_eq "enabled_functions after SIGKILL" 0 "$(enabled_count)"
$T kill-server 2>/dev/null

# q after an arm leaves nothing armed either.
start_tui
keys / fn_a Enter a
wait_screen 20 'armed 1 site' "the second arm"
expect_eq "armed (2)" 1 "$(status armed)"
keys q
wait_for 20 test -s /tmp/tui.rc || { screen; fail "the TUI did not quit"; }
expect_eq "armed after q" 0 "$(status armed)"
expect_eq "enabled_functions after q" 0 "$(enabled_count)"
rmmod ftg_target || fail "rmmod ftg_target"
unload_ftguard
pass
