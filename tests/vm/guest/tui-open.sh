#!/bin/sh
# tests/vm/run --open's guest side (/lib/ftguard/open-tui, what /init runs
# on the console) seen by a person: the TUI in tmux's first window, a
# shell in the second, tmux's status line naming the key that switches
# (C-b n). Typed into the shell, a trigger of the test module reaches the
# TUI, which still runs; C-b n goes back to it, and q leaves a shell in
# its window. open-tui runs attached, as on the console, inside this
# test's own tmux pane (the person's terminal).
. /tests/lib.sh

T="tmux -L ftgopen"
. /tests/tui.inc

command -v tmux >/dev/null || skip "no tmux in the guest"
export PATH=$PATH:/usr/libexec
load_ftguard
load_test_module ftg_target
TUI_UNLOAD=ftg_target
# open-tui's own tmux server (the default socket) goes too
TUI_CLEANUP='tmux kill-server'

rm -f /tmp/open.rc /tmp/open-shell.txt
$T new-session -d -s tui -x 100 -y 30 \
	"unset TMUX; LINES=30 COLUMNS=100 /lib/ftguard/open-tui; echo \$? > /tmp/open.rc" ||
	fail "tmux new-session"
wait_screen 60 ' Sites .* Live .* Map ' "the TUI's tab bar in the first window"
wait_screen 10 '0:tui\*.*1:shell' "tmux's windows: tui (current) and shell"
wait_screen 10 'C-b n: switch TUI / shell' "the key that switches, on tmux's status line"
screen > /tmp/open-tui.txt
export_file /tmp/open-tui.txt

keys C-b n
wait_screen 10 'a shell beside the TUI; C-b n switches' "the shell window"
wait_screen 10 '0:tui.*1:shell\*' "the shell window current"
keys 'echo 5 > /sys/kernel/debug/ftg_target/trigger; echo from-the-shell > /tmp/open-shell.txt' Enter
wait_for 10 test -s /tmp/open-shell.txt || { screen; fail "a command typed into the shell did not run"; }
# the first window, unseen now, still holds the running TUI
tmux capture-pane -p -t ftguard:tui | grep -Eq ' Sites .* Live .* Map ' ||
	{ tmux capture-pane -p -t ftguard:tui; fail "the TUI is not running beside the shell"; }
screen > /tmp/open-shell-screen.txt
export_file /tmp/open-shell-screen.txt

keys C-b n
wait_screen 10 ' Sites .* Live .* Map ' "back to the TUI with C-b n"
keys q
wait_screen 10 'the TUI ended: this is a shell' "a shell in the TUI's window after q"
expect_eq "armed after q" 0 "$(status armed)"
pass
