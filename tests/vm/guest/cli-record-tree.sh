#!/bin/sh
# ftguard record -g: a call tree. Over the test module, -g fn_outer -m
# ftg_target records fn_outer { fn_inner { fn_a(); } } and none of the
# calls made outside it (the trigger's fn_b and fn_a), and
# --max-graph-depth 1 stops at fn_inner. Over the whole kernel, -g vfs_read
# under dd checks and arms every traceable function (the count printed
# equals the module's armed_sites and every one was checked), records
# vfs_read with its callees nested below it, and the functions it shows
# under dd's vfs_read cover at least 90% of those trace-cmd record -p
# function_graph -g vfs_read shows for the same dd on each of two runs in
# this boot. Where
# the kernel hooks returns only with kretprobes (6.1) the roots have their
# returns and the callees entries only, nested by depth; without an exit
# hook -g is refused. Bad -g input exits 2 with nothing armed.
. /tests/lib.sh

cli_setup

G=/sys/kernel/debug/ftg_target/graph
N=4

load_ftguard
load_test_module ftg_target

nothing_armed() {
	expect_eq "armed after $1" 0 "$(status armed)"
	expect_eq "enabled_functions after $1" 0 "$(wc -l < "$FTG_TRACEFS/enabled_functions")"
}

# bad input: refused before anything is armed
run 2 ftguard record -g 'ftg_target:fn_[' -o x.dat -- true
err_has "bad glob"
run 2 ftguard record --max-graph-depth 2 -l fn_a -o x.dat -- true
err_has "give -g FUNC too"
run 2 ftguard record -g fn_outer --max-graph-depth 1001 -o x.dat -- true
err_has "not a count from 0 (all) to 1000"
run 2 ftguard record -g fn_outer --max-graph-depth 4294967296 -o x.dat -- true
err_has "not a count from 0 (all) to 1000"
run 2 ftguard record -g fn_outer --max-graph-depth x -o x.dat -- true
err_has "not a count from 0 (all) to 1000"
run 2 ftguard record -g fn_outer -p function -o x.dat -- true
err_has "-p function does not"
run 2 ftguard record -g 'ftg_target:no_such_fn' -m ftg_target -o x.dat -- true
err_has "no function matches"
[ -e x.dat ] && fail "a refused record wrote x.dat"
nothing_armed "refused -g"

case "$(status graph_hook)" in
fprobe) exits=1 ;;		# every call with its return
kretprobe) exits=0 ;;		# the roots' returns; callees entries only
*)
	run 1 ftguard record -g 'ftg_target:fn_outer' -m ftg_target -o t.dat -- sh -c "echo $N > $G"
	err_has "exports no function-exit hook"
	[ -e t.dat ] && fail "a refused -g wrote t.dat"
	nothing_armed "-g without an exit hook"
	rmmod ftg_target || fail "rmmod ftg_target"
	unload_ftguard
	pass ;;
esac

# graph_line FILE: "INDENT call" of each function_graph line ftguard prints
graph_lines() { sed -n 's/^.*: graph_e[a-z]*: *[^|]*| \(.*\)$/\1/p' "$1"; }

# the module's tree: fn_outer's calls only, not the trigger's
run 0 ftguard record -g 'ftg_target:fn_outer' -m ftg_target -o t.dat -- \
	sh -c "echo 3 > $T; echo $N > $G; echo 2 > $T"
both_have "armed"
nothing_armed "record -g"
run 0 ftguard report -i t.dat
graph_lines "$OUT" > tree.txt
cat tree.txt | head -n 8
expect_eq "fn_outer opens" 1 "$(grep -c '^ fn_outer \[ftg_target\]() {$' tree.txt)"
expect_eq "fn_outer closes" 1 "$(grep -c '^ } /\* fn_outer \[ftg_target\] \*/$' tree.txt)"
expect_eq "calls outside the tree (fn_b)" 0 "$(grep -c 'fn_b' tree.txt)"
if [ $exits = 1 ]; then
	expect_eq "fn_inner opens" "$N" "$(grep -c '^   fn_inner \[ftg_target\]() {$' tree.txt)"
	expect_eq "fn_a under fn_inner" "$N" "$(grep -c '^     fn_a \[ftg_target\]();$' tree.txt)"
	expect_eq "lines in all" $(( 2 + 3 * N )) "$(wc -l < tree.txt)"
else
	# entries nested by depth, without returns: no duration, no '}';
	# fn_inner ends in a tail call of fn_a, which the stack shows as
	# fn_inner's sibling
	expect_eq "fn_inner at depth 1" "$N" "$(grep -c '^   fn_inner \[ftg_target\]() {$' tree.txt)"
	expect_eq "fn_a below fn_outer" "$N" "$(grep -c '^   *fn_a \[ftg_target\]() {$' tree.txt)"
	expect_eq "lines in all" $(( 2 + 2 * N )) "$(wc -l < tree.txt)"
fi

run 0 ftguard record -g 'ftg_target:fn_outer' --max-graph-depth 1 -m ftg_target -o d.dat -- \
	sh -c "echo $N > $G"
run 0 ftguard report -i d.dat
graph_lines "$OUT" > depth.txt
cat depth.txt | head -n 4
expect_eq "depth 1: fn_inner calls" "$N" "$(grep -c '^   fn_inner \[ftg_target\]()' depth.txt)"
expect_eq "depth 1: calls deeper than 1" 0 "$(grep -c '^     ' depth.txt)"
[ $exits = 1 ] && expect_eq "depth 1: fn_a calls" 0 "$(grep -c 'fn_a' depth.txt)"

# start -g arms the tree until stop (reset empties the instance first)
run 0 ftguard reset
run 0 ftguard start -g 'ftg_target:fn_outer' --max-graph-depth 1 -m ftg_target
err_has "call tree of ftg_target:fn_outer"
expect_eq "arm_mode after start -g" graph "$(status arm_mode)"
echo 2 > $T; echo 3 > $G
expect_eq "start -g: fn_inner entries" 3 "$(grep -c 'graph_entry: func=fn_inner ' "$FTG_INSTANCE/trace")"
expect_eq "start -g: calls outside the tree" 0 "$(grep -c 'graph_entry: func=fn_b ' "$FTG_INSTANCE/trace")"
[ $exits = 1 ] && expect_eq "start -g: calls below depth 1" 0 "$(grep -c 'graph_entry: func=fn_a ' "$FTG_INSTANCE/trace")"
run 0 ftguard stop
nothing_armed "stop after start -g"

# the whole kernel under vfs_read, beside trace-cmd's function_graph -g
# a page-cache read: vfs_read reaches filemap_read and its helpers
DD='dd if=/tests/lib.sh of=/dev/null bs=512'
run 0 ftguard record -g vfs_read -o k.dat -- $DD
cat "$ERR"
armed_n=$(sed -n 's/^ftguard record: checked \([0-9]*\) sites, armed \([0-9]*\) .*/\2/p' "$ERR")
checked_n=$(sed -n 's/^ftguard record: checked \([0-9]*\) sites, armed .*/\1/p' "$ERR")
log "checked $checked_n, armed $armed_n"
[ "${armed_n:-0}" -ge 10000 ] || fail "-g vfs_read armed ${armed_n:-no} sites, expected every traceable function"
expect_eq "armed = checked" "$checked_n" "$armed_n"
nothing_armed "record -g vfs_read"
run 0 ftguard report -i k.dat
# callees FILE: the functions called under dd's vfs_read (depth >= 1) in
# a function_graph report (ftguard's or trace-cmd's: the same "| INDENT
# call" form), leaving out what differs from run to run whoever traces:
# the subtrees of the kernel's interrupt entries and of a preemption
callees() {
	awk '/^ *dd-[0-9]* / && /[|]/ {
		line = substr($0, index($0, "|") + 1)
		ind = match(line, /[^ ]/) - 1
		call = substr(line, ind + 1)
		if (skip >= 0) {
			if (ind > skip) next
			skip = -1
			if (call ~ /^}/) next
		}
		if (call ~ /^(__sysvec_|sysvec_|irq_enter|irq_exit|__irq_exit|__common_interrupt|common_interrupt|preempt_schedule|schedule[(]|__schedule[(])/) {
			if (call ~ /[{]$/) skip = ind
			next
		}
		if (ind > 2 && call ~ /^[A-Za-z0-9_.]+[(][)]/) { sub(/[(].*/, "", call); print call }
	}' skip=-1 "$1" | sort -u
}
callees "$OUT" > ftg.funcs
grep -q '^ *dd-[0-9]* .*|  vfs_read() {$' "$OUT" || { head -n 20 "$OUT"; fail "no vfs_read() { of dd"; }
grep ' us |  } /\* vfs_read \*/$' "$OUT" | head -n 1 | grep -q . || fail "no closing vfs_read with its duration"
# trace-cmd prints ftguard's file as its own function_graph, silently
trace-cmd report -i k.dat > tk.txt 2> tk.err || { cat tk.err; fail "trace-cmd report of ftguard's -g file"; }
[ -s tk.err ] && { cat tk.err; fail "trace-cmd report of ftguard's -g file wrote to stderr"; }
grep -m 12 '^ *dd-' tk.txt > tree-tc.txt
export_file tree-tc.txt
grep -q '^ *dd-[0-9]* .*funcgraph_entry: *|  vfs_read() {$' tk.txt || { head -n 20 tk.txt; fail "trace-cmd: no vfs_read() { of dd"; }
grep -q '^ *dd-[0-9]* .*funcgraph_exit: .* us *|  }' tk.txt || { grep vfs_read tk.txt | head; fail "trace-cmd: no vfs_read return with its duration"; }
if [ $exits = 0 ]; then
	grep -q '^ *dd-[0-9]* .*graph_exit: .* us |    } /\*' "$OUT" && fail "a callee has a return where only entries are recorded"
fi

# trace-cmd's reference: what it records under vfs_read on each of two
# runs, so that a lock's slow path or a wakeup one run happens to take
# does not count against either tool
for i in 1 2; do
	trace-cmd record -p function_graph -g vfs_read -o tc.dat $DD > tc.rec 2>&1 ||
		{ cat tc.rec; fail "trace-cmd record -g vfs_read"; }
	trace-cmd report -i tc.dat > tc.txt 2> /dev/null || fail "trace-cmd report of its own file"
	callees tc.txt > tc$i.funcs
done
grep -Fx -f tc1.funcs tc2.funcs > tc.funcs
log "trace-cmd's two runs: $(wc -l < tc1.funcs) and $(wc -l < tc2.funcs) functions, $(wc -l < tc.funcs) in both"
tc_n=$(wc -l < tc.funcs)
both=$(grep -cFx -f tc.funcs ftg.funcs)
log "under vfs_read: trace-cmd $tc_n functions, ftguard $(wc -l < ftg.funcs), both $both"
for f in $(grep -vFx -f ftg.funcs tc.funcs | head -n 20); do
	log "only trace-cmd: $f; in available_filter_functions $(grep -c "^$f\$" "$FTG_TRACEFS/available_filter_functions")," \
		"sites: $(awk -v f="$f" '$7 == f { print $2 }' "$FTG_DEBUGFS/sites")"
done
grep -vFx -f tc.funcs ftg.funcs | head -n 20 | sed 's/^/# only ftguard: /'
[ "$tc_n" -ge 3 ] || { cat tc.rec; head -n 20 tc.txt; fail "trace-cmd saw $tc_n functions under vfs_read"; }
[ $(( both * 10 )) -ge $(( tc_n * 9 )) ] || fail "ftguard shows $both of trace-cmd's $tc_n functions (< 90%)"

rm -f t.dat d.dat k.dat tk.txt tk.err tc.rec tc.dat tc.txt tc1.funcs tc2.funcs tree.txt depth.txt ftg.funcs tc.funcs
rmmod ftg_target || fail "rmmod ftg_target"
unload_ftguard
pass
