#!/bin/sh
# The TUI's Map screen shows e1000e's BAR0 ioremap with its phys address
# (as /proc/vmallocinfo has it) and ftg_target's text; going to 120x40
# and back to 80x24 gives the same screen; a snapshot opens read-only.
. /tests/lib.sh

T="tmux -L ftgtui"
. /tests/tui.inc
lines_of_screen() { screen | wc -l; }

command -v tmux >/dev/null || skip "no tmux in the guest"
# Whatever happens, leave the system as it was.
TUI_UNLOAD=ftg_target
# `ftguard tui` looks in its libexecdir, then PATH: PATH also names where
# the harness installs it (tui-sites checks the libexecdir lookup itself).
export PATH=$PATH:/usr/libexec
# e1000e's BAR0 mapping, from the kernel's own list.
line=$(grep 'e1000_probe' /proc/vmallocinfo | grep ioremap | head -n 1)
[ -n "$line" ] || fail "no e1000_probe ioremap in /proc/vmallocinfo"
start=$(echo "$line" | cut -d- -f1 | sed 's/^0x//')
phys=$(echo "$line" | sed -n 's/.*phys=\(0x[0-9a-f]*\).*/\1/p' | sed 's/^0x0*/0x/')
log "e1000e BAR0: $start phys $phys"

load_ftguard
load_test_module ftg_target
$T new-session -d -s tui -x 80 -y 24 "ftguard tui -- --screen map 2>/tmp/tui.err" ||
	fail "tmux new-session"
wait_screen 60 'amd64: [0-9]+ regions' "the map summary"
keys / e1000_probe Enter
wait_screen 10 "^ +ioremap +$start +[0-9]+K phys $phys " "e1000e's ioremap with phys $phys"
wait_screen 5 "^ ioremap 0x$start-0x[0-9a-f]+ \\(e1000_probe" "the region's description"
wait_screen 5 "phys $phys\\)" "the description's phys address"
screen > /tmp/map.txt
export_file /tmp/map.txt
keys / ftg_target Enter
wait_screen 10 '^ +module +[0-9a-f]{16} +[0-9]+K .*ftg_target' "ftg_target's text"
wait_screen 10 'init freed +[0-9a-f]{16} .*dropped at' "ftg_target's freed init text"

# 80x24 -> 120x40 -> 80x24: the same layout as before.
keys / e1000_probe Enter
wait_screen 10 "^ +ioremap +$start " "the ioremap row again"
# The status line's rate is live: compare screens once it has settled
# (it read 404 ev/s once, 0 after the resize).
wait_screen 10 ' 0 ev/s, lost [0-9]+$' "a settled event rate"
screen > /tmp/before.txt
$T resize-window -t tui -x 120 -y 40 || fail "resize-window"
wait_for 10 sh -c "[ \$($T capture-pane -p -t tui | wc -l) = 40 ]" || fail "pane is not 40 lines"
wait_screen 10 "^ 1 Sites  2 Live  3 Map .{90,}" "a 120-column tab bar"
wait_screen 10 '^ (loaded|module)' "the status line"
screen > /tmp/big.txt
export_file /tmp/big.txt
expect_eq "status line at the bottom of 40" 40 \
	"$(grep -En '^ (loaded|module)' /tmp/big.txt | tail -n 1 | cut -d: -f1)"
$T resize-window -t tui -x 80 -y 24 || fail "resize-window back"
wait_for 10 sh -c "$T capture-pane -p -t tui > /tmp/after.txt; cmp -s /tmp/before.txt /tmp/after.txt" ||
	{ diff /tmp/before.txt /tmp/after.txt; fail "80x24 after 120x40 differs from before"; }
log "80x24 -> 120x40 -> 80x24 gives the same screen"
keys q
wait_for 10 sh -c "! $T has-session -t tui 2>/dev/null" || fail "the TUI did not quit"

# A snapshot: the map works from it; actions are refused (read-only).
ftguard snapshot /tmp/snap >/dev/null || fail "ftguard snapshot /tmp/snap"
if true; then
	$T new-session -d -s tui -x 80 -y 24 "ftguard tui -- --root /tmp/snap --screen map 2>/tmp/tui.err" ||
		fail "tmux new-session (snapshot)"
	wait_screen 60 'snapshot /tmp/snap' "the snapshot tab bar"
	keys / e1000_probe Enter
	wait_screen 10 "^ +ioremap +$start +[0-9]+K phys $phys " "the ioremap in the snapshot"
	keys d
	wait_screen 10 'read-only' "the read-only refusal"
	keys q
	wait_for 10 sh -c "! $T has-session -t tui 2>/dev/null" || fail "the TUI did not quit (snapshot)"
fi
$T kill-server 2>/dev/null
rmmod ftg_target || fail "rmmod ftg_target"
unload_ftguard
pass
