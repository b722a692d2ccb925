#!/bin/sh
# ftguard show on the live kernel: nothing armed; then a call tree armed
# by start -g with a depth and an event with its filter, shown by name
# with the hook that takes the returns; a plain start -T shows stacks.
# status -v and status --json carry every key of the module's status,
# the call tree's roots among them; show refuses --root.
. /tests/lib.sh

cli_setup

load_ftguard
load_test_module ftg_target

run 0 ftguard reset
run 0 ftguard show
cat "$OUT"
out_has '^armed: *no$'
out_has '^killed: *no$'
out_has '^instance: *ftguard, tracing on$'
out_has '^buffer: *[0-9][0-9]* KiB per CPU ([0-9][0-9]* KiB in all)$'
out_has '^events: *none$'

hook=$(status graph_hook)
case "$hook" in
fprobe | kretprobe) ;;
*) skip "no exit hook on this kernel ($hook)" ;;
esac
run 0 ftguard start -g 'ftg_target:fn_outer' --max-graph-depth 2 -m ftg_target \
	-e sched:sched_switch -f 'prev_pid == 0'
run 0 ftguard show
cat "$OUT"
out_has "^armed: *$(status armed_sites) sites, by persistent$"
out_has "^tracer: *function_graph (returns by $hook), call tree of ftg_target:fn_outer, max depth 2$"
out_has '^events: *sched:sched_switch  filter: prev_pid == 0$'
run 0 ftguard -v show
out_has '^  graph_max_depth  *2$'
out_has '^  event:sched:sched_switch  *prev_pid == 0$'
roots=$(awk '$1 == "graph_roots" { $1 = ""; print substr($0, 2) }' "$FTG_DEBUGFS/status")
expect_eq "graph_roots: fn_outer's site" "$(site_ip fn_outer ftg_target)" "$roots"
run 0 ftguard -v status
out_has "^  graph_roots  *$roots$"
out_has '^  arm_mode  *graph$'
run 0 ftguard status --json
out_has "\"graph_roots\": *\"$roots\""
run 0 ftguard stop

run 0 ftguard start -T -l fn_a
run 0 ftguard show
out_has '^tracer: *function, with stacks$'
run 0 ftguard stop
run 0 ftguard show
out_has '^armed: *no$'
grep -x 'graph_roots -' "$FTG_DEBUGFS/status" || fail "graph_roots after stop: $(grep graph_roots "$FTG_DEBUGFS/status")"

run 2 ftguard --root /tmp show
err_has "live"
pass
