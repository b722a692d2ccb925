#!/bin/sh
# The TUI, driven through tmux: the Sites screen lists ftg_target's
# functions; `a` arms fn_a through the TUI's own control descriptor;
# after fn_b(N) the screen shows fn_a's hits == N; the Live screen shows
# fn_a <- fn_b; `w` writes a trace.dat with exactly N func events; `q`
# leaves nothing armed.
. /tests/lib.sh

N=1000
T="tmux -L ftgtui"
. /tests/tui.inc
enabled_count() { wc -l < "$FTG_TRACEFS/enabled_functions"; }

command -v tmux >/dev/null || skip "no tmux in the guest"
# Whatever happens, leave the system as it was.
TUI_UNLOAD=ftg_target
# `ftguard tui` must find the installed ftguard-tui by itself (libexecdir);
# checked here, reported at the end, and PATH names /usr/libexec meanwhile
# so the rest of the test still runs.
tui_cmd_broken=
ftguard tui -- --version > /tmp/tui-version.txt 2>&1 ||
	tui_cmd_broken=$(cat /tmp/tui-version.txt)
export PATH=$PATH:/usr/libexec
load_ftguard
load_test_module ftg_target

tui_open 80 24 250
# Only ftg_target's sites (e1000e's come first in owner order).
keys f module:ftg_target Enter
wait_screen 10 ' [0-9]+ of [0-9]+ sites, filter module:ftg_target' "the filter"
wait_screen 30 '^ fn_a +ftg_target +[0-9a-f]{16} core +unchecked +0 ' "fn_a, unchecked, 0 hits"
screen_has '^ fn_b +ftg_target +[0-9a-f]{16} core ' || { screen; fail "no fn_b row"; }
export_file_screen() { screen > "/tmp/$1"; export_file "/tmp/$1"; }
export_file_screen sites-before.txt

# c with nothing marked checks every site: all ok, fn_a's state turns ok.
keys c
wait_screen 30 'check ok: [0-9]+ sites in [0-9]+ ms' "the check message"
wait_screen 10 '^ fn_a +ftg_target +[0-9a-f]{16} core +ok +0 ' "fn_a checked ok"
expect_eq "status last_check" ok "$(awk '$1 == "last_check" { print $3 }' "$FTG_DEBUGFS/status")"

# Cursor to fn_a, arm it (the selection is the cursor's site).
keys / fn_a Enter
wait_screen 10 '^ fn_a \[ftg_target\] 0x[0-9a-f]+ core' "fn_a's details"
keys a
wait_screen 20 'armed 1 site' "the arm message"
wait_screen 10 '^ fn_a +ftg_target +[0-9a-f]{16} core +armed ' "fn_a armed"
expect_eq "status armed" 1 "$(status armed)"
tui_pid=$(awk '$1 == "owner" { print $2 }' "$FTG_DEBUGFS/status")
expect_eq "owner comm" ftguard-tui "$(awk '$1 == "owner" { print $3 }' "$FTG_DEBUGFS/status")"
[ -d "/proc/$tui_pid" ] || fail "owner pid $tui_pid is not running"
expect_eq "enabled_functions" 1 "$(enabled_count)"
grep -q '^fn_a \[ftg_target\]' "$FTG_TRACEFS/enabled_functions" || fail "fn_a not enabled"
wait_screen 10 'ARMED by [0-9]+ ftguard-tui \(this TUI\)' "ARMED on the status line"

echo "$N" > /sys/kernel/debug/ftg_target/trigger || fail "trigger"
wait_screen 20 "^ fn_a +ftg_target +[0-9a-f]{16} core +armed +$N +[0-9]+" "fn_a hits == $N"
screen_has '^ fn_b +ftg_target +[0-9a-f]{16} core +ok +0 ' ||
	screen_has '^ fn_b +ftg_target +[0-9a-f]{16} core +unchecked +0 ' ||
	{ screen; fail "fn_b should have 0 hits"; }
export_file_screen sites-hits.txt

# Live: the calls as they arrived, and nothing lost.
keys 2
wait_screen 20 'fn_a \[ftg_target\] .{1,3} fn_b \[ftg_target\]' "fn_a <- fn_b events"
wait_screen 10 "FOLLOW .* lost 0 " "lost 0"
export_file_screen live.txt

# w: the capture to trace.dat, which trace-cmd reads: exactly N calls.
keys w C-u /tmp/tui.dat Enter
wait_screen 20 "wrote [0-9]+ events to /tmp/tui.dat" "the write message"
[ -s /tmp/tui.dat ] || fail "no /tmp/tui.dat"
trace-cmd report -i /tmp/tui.dat > /tmp/tui-report.txt 2>/tmp/tui-report.err ||
	{ cat /tmp/tui-report.err; fail "trace-cmd report failed on the TUI's trace.dat"; }
expect_eq "func events in trace.dat" "$N" \
	"$(grep -c 'func: .*fn_a.*fn_b' /tmp/tui-report.txt)"
head -n 5 /tmp/tui-report.txt > /tmp/tui-report-head.txt
export_file /tmp/tui-report-head.txt

# q disarms what the TUI armed.
keys 1 q
wait_for 20 test -s /tmp/tui.rc || { screen; fail "the TUI did not quit"; }
expect_eq "TUI exit status" 0 "$(cat /tmp/tui.rc)"
expect_eq "status armed after q" 0 "$(status armed)"
expect_eq "enabled_functions after q" 0 "$(enabled_count)"
[ -s /tmp/tui.err ] && { cat /tmp/tui.err; fail "the TUI wrote to stderr"; }
[ -z "$tui_cmd_broken" ] || fail "ftguard tui without PATH help: $tui_cmd_broken"
pass
