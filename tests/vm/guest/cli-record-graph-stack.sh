#!/bin/sh
# ftguard record -T with -p function_graph and -g: each outermost call's
# entry (depth 0: a -g root's call, or with -l a call no traced call of its
# task encloses) is followed by its kernel stack, nested calls by none.
# Over the test module, -p function_graph -l 'fn_*' -T gives fn_outer one
# stack and its fn_inner and fn_a calls none. Under dd, -g vfs_read -T
# gives a file in which trace-cmd report shows vfs_read's tree (a duration
# on vfs_read's returns) and under each of dd's vfs_read entries '=>'
# lines starting at ksys_read, without a word on stderr; ftguard report
# prints the same stacks as '=> ksys_read+0x...' under 'vfs_read() {'.
# Where the kernel has no exit hook the arm is refused as without -T.
. /tests/lib.sh

cli_setup

G=/sys/kernel/debug/ftg_target/graph
N=3

load_ftguard
load_test_module ftg_target

nothing_armed() {
	expect_eq "armed after $1" 0 "$(status armed)"
	expect_eq "enabled_functions after $1" 0 "$(wc -l < "$FTG_TRACEFS/enabled_functions")"
}

case "$(status graph_hook)" in
fprobe | kretprobe) ;;
*)
	run 1 ftguard record -p function_graph -T -l 'ftg_target:fn_outer' -o t.dat -- sh -c "echo $N > $G"
	err_has "exports no function-exit hook"
	[ -e t.dat ] && fail "a refused record wrote t.dat"
	nothing_armed "-p function_graph -T without an exit hook"
	rmmod ftg_target || fail "rmmod ftg_target"
	unload_ftguard
	pass ;;
esac

# roots FILE: checks that each depth 0 entry ("|  func" in either
# report) is followed by a stack as its task's next line, and that no
# other line is; prints "ROOTS STACKS MISSING STRAY"
roots() {
	awk '/^ *=> / { next }
	     { task = $1 }
	     / kernel_stack: / { if (want[task]) want[task] = 0; else stray++; nstack++; next }
	     / (graph|funcgraph)_entry: / {
		if (want[task]) miss++
		want[task] = 0
		if ($0 ~ /[|]  [^ ]/) { nroot++; want[task] = 1 }
		next }
	     { if (want[task]) { miss++; want[task] = 0 } }
	     END { for (t in want) if (want[t]) miss++
		   print nroot + 0, nstack + 0, miss + 0, stray + 0 }' "$1"
}

# the module: fn_outer's call gets a stack, the calls nested in it none
run 0 ftguard record -p function_graph -T -l 'ftg_target:fn_*' -o t.dat -- sh -c "echo $N > $G"
nothing_armed "record -p function_graph -T"
run 0 ftguard report -i t.dat
[ -s "$ERR" ] && { cat "$ERR"; fail "ftguard report of t.dat wrote to stderr"; }
grep -A 3 -m 1 'fn_outer' "$OUT"
expect_eq "module: depth 0 entries, stacks, missing, stray" "1 1 0 0" "$(roots "$OUT")"
expect_eq "module: fn_inner entries" "$N" "$(grep -c 'graph_entry: .*|    fn_inner \[ftg_target\]()' "$OUT")"
grep -A 1 'fn_outer \[ftg_target\]() {$' "$OUT" | grep -q 'kernel_stack: <stack trace >$' ||
	fail "ftguard report: no stack under fn_outer's entry"

# the kernel: vfs_read's tree under dd, a stack with each vfs_read call
DD='dd if=/tests/lib.sh of=/dev/null bs=512 count=4'
run 0 ftguard record -p function_graph -g vfs_read -T -o g.dat -- $DD
cat "$ERR"
nothing_armed "record -g vfs_read -T"
trace-cmd report -i g.dat > tc.txt 2> tc.err || { cat tc.err; fail "trace-cmd report of g.dat"; }
[ -s tc.err ] && { cat tc.err; fail "trace-cmd report of g.dat wrote to stderr"; }
grep -m 1 -B 1 -A 6 'kernel_stack:' tc.txt > tc-head.txt
cat tc-head.txt
export_file tc-head.txt
# "TASK FIRST-CALLER" of each stack under a vfs_read entry
under_vfs_read() {
	awk '/^ *=> / { if (on) { sub(/^ *=> /, ""); sub(/[ +(].*/, ""); print task, $0; on = 0 } next }
	     / kernel_stack: / { on = (last[$1] ~ /[|]  vfs_read[(][)] [{]$/); task = $1; next }
	     { last[$1] = $0; on = 0 }' "$1"
}
set -- $(roots tc.txt)
log "trace-cmd: $1 depth 0 entries, $2 stacks, $3 without a stack, $4 stray"
[ "$1" -ge 3 ] || { head -n 20 tc.txt; fail "trace-cmd: $1 depth 0 entries, want at least 3"; }
expect_eq "trace-cmd: depth 0 entries without a stack" 0 "$3"
expect_eq "trace-cmd: stacks not under a depth 0 entry" 0 "$4"
under_vfs_read tc.txt > tc.stacks
ndd=$(grep -c '^dd-[0-9]* ksys_read$' tc.stacks)
[ "$ndd" -ge 3 ] || { head -n 5 tc.stacks; fail "trace-cmd: $ndd of dd's vfs_read stacks start at ksys_read, want at least 3"; }
grep -q '^ *dd-[0-9]* .*funcgraph_exit: .* us *|  }' tc.txt || fail "trace-cmd: no vfs_read return with its duration"
grep -q '^ *dd-[0-9]* .*funcgraph_entry: .*|    [a-z_]' tc.txt || fail "trace-cmd: no callee under dd's vfs_read"

run 0 ftguard report -i g.dat
[ -s "$ERR" ] && { cat "$ERR"; fail "ftguard report of g.dat wrote to stderr"; }
expect_eq "ftguard report: depth 0 entries, stacks, missing, stray" "$(roots tc.txt)" "$(roots "$OUT")"
grep -A 2 '|  vfs_read() {$' "$OUT" | grep -q '^=> ksys_read+0x[0-9a-f]*$' ||
	fail "ftguard report: no '=> ksys_read+0x...' under a vfs_read entry"

rm -f t.dat g.dat tc.txt tc.err tc-head.txt tc.stacks
rmmod ftg_target || fail "rmmod ftg_target"
unload_ftguard
pass
