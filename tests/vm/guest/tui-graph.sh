#!/bin/sh
# The TUI arms vfs_read with its returns (A): ftguard.ko arms in graph
# mode, and the Live screen shows dd's calls as `ftguard report` prints
# function_graph: each entry "vfs_read() {" and each return "} /* vfs_read */"
# with its duration in us; q disarms.
. /tests/lib.sh

T="tmux -L ftggraph"
. /tests/tui.inc

command -v tmux >/dev/null || skip "no tmux in the guest"
export PATH=$PATH:/usr/libexec
load_ftguard
ftguard -q check -l vfs_read || fail "check -l vfs_read"

tui_open 100 24 250
keys / vfs_read Enter
wait_screen 20 '^ vfs_read +vmlinux ' "vfs_read on the Sites screen"
keys A
wait_screen 20 'armed 1 site with returns' "the arm message"
expect_eq "arm_mode after A" "arm_mode graph" "$(grep '^arm_mode ' "$FTG_DEBUGFS/status")"

# t: the event list, where graph events read as function_graph lines
keys 2 t f dd Enter
# dd runs on while the TUI reads, so that its /proc entry names it (the
# kernel records no comm for ftguard's events)
(while :; do dd if=/dev/zero of=/dev/null bs=1 count=500 2>/dev/null; done) &
DD_LOOP=$!
TUI_CLEANUP='kill $DD_LOOP'
entry=' dd-[0-9]+ +\|  vfs_read\(\) \{$'
ret=' dd-[0-9]+ +[ +!#*@$] +[0-9]+\.[0-9]{3} us \|  \} /\* vfs_read \*/$'
wait_for 20 screen_has "$ret" || { screen; fail "no return of dd's vfs_read with its duration on the Live screen"; }
screen_has "$entry" || { screen; fail "no entry of dd's vfs_read on the Live screen"; }
# p holds the rows still while dd runs on; they are read from a settled
# screen, not from one caught between two frames
keys p
wait_screen 10 'PAUSED \(p\)' "the Live list paused"
screen_settled 10 "$entry|$ret" > /tmp/live-rows.txt ||
	{ screen; fail "the paused Live list never settled"; }
screen > /tmp/live-graph.txt
export_file /tmp/live-graph.txt
grep -E "$ret" /tmp/live-rows.txt | head -n 2
# every return shown follows its entry: entries and returns alternate
awk '
	{ is_return = index($0, "} /* vfs_read */") > 0 }
	!is_return { if (open) bad = 1; open = 1; next }
	{ if (!open && NR > 1) bad = 1; open = 0 }
	END { exit bad }' /tmp/live-rows.txt || { cat /tmp/live-rows.txt; fail "entries and returns do not alternate"; }

kill $DD_LOOP
keys q
wait_for 10 test -s /tmp/tui.rc || { screen; fail "q: the TUI did not exit"; }
expect_eq "TUI exit status after q" 0 "$(cat /tmp/tui.rc)"
expect_eq "armed at the end" 0 "$(awk '$1 == "armed" { print $2 }' "$FTG_DEBUGFS/status")"
unload_soon ftguard || fail "rmmod ftguard"
pass
