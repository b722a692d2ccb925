#!/bin/sh
# A call tree armed from the TUI (T, as ftguard start -g): the root
# ftg_target:fn_outer with the module's functions as callees. The status
# line says how many sites were checked and armed; after fn_outer runs
# (it calls fn_inner N times, each calling fn_a) the Live screen shows it
# as a folded call with N children and its duration; Enter unfolds it to
# N fn_inner rows, one marked slowest; l and Enter reach the slowest one's
# fn_a; E folds everything again; q disarms. Where returns are hooked by
# kretprobes (6.1) the root alone has its return: fn_outer shows with its
# duration. Without an exit hook the tree is refused, the dialog saying why.
. /tests/lib.sh

T="tmux -L ftgtree"
. /tests/tui.inc

command -v tmux >/dev/null || skip "no tmux in the guest"
export PATH=$PATH:/usr/libexec
G=/sys/kernel/debug/ftg_target/graph
N=3
load_ftguard
load_test_module ftg_target
TUI_UNLOAD=ftg_target

tui_open 100 30 250
# the prompt starts with the cursor's site: C-u clears it
keys T C-u 'ftg_target:fn_outer ftg_target:*' Enter
case "$(status graph_hook)" in
fprobe | kretprobe) ;;
*)
	wait_screen 20 'call tree refused: .*exit hook' "the refusal on $(status graph_hook)"
	expect_eq "armed after a refused tree" 0 "$(status armed)"
	keys Enter q
	wait_for 10 test -s /tmp/tui.rc || { screen; fail "q: the TUI did not exit"; }
	pass ;;
esac
wait_screen 20 'call tree of ftg_target:fn_outer: checked [0-9]+ sites, armed [0-9]+' "the arm message"
screen | grep -Eo 'call tree of .*armed [0-9]+'
nchecked=$(screen | sed -n 's/.*checked \([0-9]*\) sites, armed \([0-9]*\).*/\1/p')
narmed=$(screen | sed -n 's/.*checked \([0-9]*\) sites, armed \([0-9]*\).*/\2/p')
expect_eq "arm_mode after T" "graph" "$(status arm_mode)"
expect_eq "sites armed: the module's count" "$(status armed_sites)" "$narmed"
expect_eq "sites checked = armed" "$narmed" "$nchecked"

keys 2
echo $N > $G || fail "echo $N > $G"
if [ "$(status graph_hook)" = kretprobe ]; then
	# the root returns, its callees are entries only: fn_outer has its
	# duration; nothing more is promised of the callees' rows
	wait_screen 20 "[0-9]+\.[0-9]{3} us .*fn_outer \[ftg_target\]$" "fn_outer with its duration"
	keys q
	wait_for 60 test -s /tmp/tui.rc || { screen; fail "q: the TUI did not exit"; }
	expect_eq "armed at the end" 0 "$(status armed)"
	pass
fi
fold='(▶|\+)' unfold='(▼|-)' slow='(◆|\*)'
wait_screen 20 "calls $((1 + 2 * N)) " "fn_outer's $((1 + 2 * N)) calls counted"
wait_screen 20 "[0-9]+\.[0-9]{3} us +$N +$fold fn_outer \[ftg_target\]$" \
	"fn_outer folded, with its duration and $N children"
screen_lacks 'fn_inner' || { screen; fail "fn_inner shown under a folded fn_outer"; }
keys g Enter
wait_screen 10 "$N +$unfold fn_outer \[ftg_target\]$" "fn_outer unfolded"
wait_for 10 test "$(screen | grep -Ec ' us +1 .*fn_inner \[ftg_target\]$')" = $N ||
	{ screen; fail "not $N fn_inner rows, each with 1 child, under fn_outer"; }
expect_eq "fn_inner rows marked slowest" 1 "$(screen | grep -Ec " us +1 $slow +$fold fn_inner")"
screen > /tmp/live-tree.txt
export_file /tmp/live-tree.txt
cat /tmp/live-tree.txt
keys l Enter
wait_screen 10 "[0-9]+\.[0-9]{3} us +fn_a \[ftg_target\]$" "the slowest fn_inner's fn_a"
screen_has " us +1 $slow +$unfold fn_inner" || { screen; fail "l: the slowest fn_inner not unfolded"; }
keys E
wait_screen 10 "$N +$fold fn_outer \[ftg_target\]$" "E folding fn_outer"
screen_lacks 'fn_inner|fn_a' || { screen; fail "E: children still shown"; }

keys q
wait_for 60 test -s /tmp/tui.rc || { screen; fail "q: the TUI did not exit"; }
expect_eq "TUI exit status after q" 0 "$(cat /tmp/tui.rc)"
expect_eq "armed at the end" 0 "$(status armed)"
pass
