#!/bin/sh
# The address map refuses what ftguard.ko alone would pass, on every way
# to arm: with the fault-injection build a site is planted blind (every
# check of the module calls it ok, unread) at ftg_target's freed init
# text. `ftguard start` refuses it (exit 1) with the map's reason, and so
# does the TUI's `a` with fn_a beside it: the dialog names the site and
# the freed init text, and nothing is armed.
. /tests/lib.sh

T="tmux -L ftgmap"
. /tests/tui.inc
enabled_count() { wc -l < "$FTG_TRACEFS/enabled_functions"; }
control() { echo "$*" > "$FTG_DEBUGFS/control" || fail "control: $*"; }

command -v tmux >/dev/null || skip "no tmux in the guest"
TUI_UNLOAD=ftg_target
export PATH=$PATH:/usr/libexec
OUT=/tmp/$FTG_TEST.out ERR=/tmp/$FTG_TEST.err
load_ftguard fi
load_test_module ftg_target
freed_init_base ftg_target
control "plant blind $INIT_BASE ftg_blind_init"

# ftguard.ko alone calls it consistent
exec 3<>"$FTG_DEBUGFS/control"
echo "select $INIT_BASE" >&3 || fail "select: $(cat <&3)"
echo check >&3 || fail "check: $(cat <&3)"
exec 3>&-
grep -q "^$INIT_BASE ok " "$FTG_DEBUGFS/check" || { cat "$FTG_DEBUGFS/check"; fail "the module does not pass the blind site"; }

# start refuses on the map's word
run 1 ftguard start -l "ftg_blind_init@$INIT_BASE" -l fn_a
both_have 'refused'
both_have 'freed init text of ftg_target'
both_have 'ftguard.ko says ok, the map stale'
expect_eq "armed after start" 0 "$(status armed)"

# and so does the TUI's a
tui_open 100 30 250
keys f 'ftg_*' Enter
wait_screen 20 '^ ftg_blind_init +vmlinux ' "the planted site"
keys / fn_a Enter Space / ftg_blind_init Enter Space
wait_screen 10 ' 2 marked ' "2 marked"
keys a
wait_screen 20 'Arm refused' "the refusal dialog"
wait_screen 5 'stale +ftg_blind_init \[vmlinux\] 0x' "the blind site in the dialog"
wait_screen 5 'freed init text of ftg_target' "the map's reason"
screen > /tmp/map-refused.txt
export_file /tmp/map-refused.txt
expect_eq "armed after a" 0 "$(status armed)"
expect_eq "enabled_functions after a" 0 "$(enabled_count)"
keys Enter
wait_for 10 screen_lacks 'Arm refused' || { screen; fail "the dialog did not close"; }
keys q
wait_for 20 test -s /tmp/tui.rc || { screen; fail "the TUI did not quit"; }
control unplant
rmmod ftg_target || fail "rmmod ftg_target"
unload_ftguard
pass
