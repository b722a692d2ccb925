#!/bin/sh
# "arm graph": entry and return of the checked sites only, through the
# kernel's own hook (fprobe or kretprobe on ftrace): one graph_entry and
# one graph_exit per call, depth by nesting, the sleeping call's duration
# at least its sleep; per-site disarm when the module goes, and the
# disarm after a refused rmmod of ftguard while armed, leave
# enabled_functions empty.
. /tests/lib.sh

kmod_setup ftg_target

N=20
enabled=$FTG_TRACEFS/enabled_functions
trace=$FTG_INSTANCE/trace
not_armed() { [ "$(status armed)" = 0 ]; }

load_ftguard
load_test_module ftg_target sleep_ms=30
sleep_ns=$(( $(cat /sys/module/ftg_target/parameters/sleep_ms) * 1000000 ))
outer=$(site_field fn_outer 1)
inner=$(site_field fn_inner 1)
[ -n "$outer" ] && [ -n "$inner" ] || fail "no fn_outer/fn_inner site"
log "exit hook: $(status graph_hook)"

exec 3<>"$FTG_DEBUGFS/control"
echo "select $outer $inner" >&3 || fail "select: $(cat <&3)"
echo "arm graph bogus" >&3 2>/dev/null && fail "arm with a bad word accepted"
expect_eq "bad arm response" "error EINVAL usage: arm [persistent] [force] [graph] [stack] [max-depth=<n>]" "$(cat <&3)"
# a tree's depth is a count from 0 (all) to the protocol's limit, which
# the module holds to whatever its client checked
for d in 1001 4294967296 x -1 ''; do
	echo "arm graph max-depth=$d" >&3 2>/dev/null && fail "max-depth=$d accepted"
	expect_eq "max-depth=$d response" \
		"error EINVAL max-depth: 'max-depth=$d' is not a count from 0 (all) to 1000" "$(cat <&3)"
done
expect_eq "armed after the bad depths" 0 "$(status armed)"
echo "graph-roots $outer" >&3 || fail "graph-roots: $(cat <&3)"
for d in 0 1000; do
	echo "arm graph max-depth=$d" >&3 || fail "arm graph max-depth=$d: $(cat <&3)"
	expect_eq "graph_max_depth of max-depth=$d" "$d" "$(status graph_max_depth)"
	echo disarm >&3 || fail "disarm: $(cat <&3)"
done
echo clear >&3 && echo "select $outer $inner" >&3 || fail "select again: $(cat <&3)"
echo "arm graph" >&3 || fail "arm graph refused: $(cat <&3)"
expect_eq "arm_mode" graph "$(status arm_mode)"
expect_eq "alloc_graphs while armed" 1 "$(status alloc_graphs)"
expect_eq "fn_outer state" armed "$(site_field fn_outer 2)"
expect_eq "fn_inner state" armed "$(site_field fn_inner 2)"
cp "$enabled" /tmp/enabled.txt
export_file /tmp/enabled.txt
expect_eq "enabled_functions lines" 2 "$(wc -l < "$enabled")"
grep -q '^fn_outer \[ftg_target\]' "$enabled" || fail "fn_outer not enabled"
grep -q '^fn_inner \[ftg_target\]' "$enabled" || fail "fn_inner not enabled"
echo "arm graph" >&3 2>/dev/null && fail "second arm accepted"

echo "$N" > /sys/kernel/debug/ftg_target/graph || fail "trigger"
grep ' graph_' "$trace" > /tmp/graph.txt
export_file /tmp/graph.txt
expect_eq "fn_outer entries" 1 "$(grep -c 'graph_entry: func=fn_outer \[ftg_target\] depth=0$' /tmp/graph.txt)"
expect_eq "fn_inner entries" "$N" "$(grep -c 'graph_entry: func=fn_inner \[ftg_target\] depth=1$' /tmp/graph.txt)"
expect_eq "fn_outer exits" 1 "$(grep -c 'graph_exit: func=fn_outer \[ftg_target\] depth=0 ' /tmp/graph.txt)"
expect_eq "fn_inner exits" "$N" "$(grep -c 'graph_exit: func=fn_inner \[ftg_target\] depth=1 ' /tmp/graph.txt)"
expect_eq "graph events" $(( 2 * (N + 1) )) "$(wc -l < /tmp/graph.txt)"
expect_eq "fn_inner hits" "$N" "$(site_field fn_inner 5)"
expect_eq "fn_a hits (not armed)" 0 "$(site_field fn_a 5)"
# every entry is followed by its own exit before the next entry at its depth
awk '/graph_entry/ { d = $NF; sub("depth=", "", d); if (open[d]) bad++; open[d] = 1 }
     /graph_exit/ { for (i = 1; i <= NF; i++) if ($i ~ /^depth=/) { d = $i; sub("depth=", "", d) }
		    if (!open[d]) bad++; open[d] = 0 }
     END { for (d in open) if (open[d]) bad++; exit bad > 0 }' /tmp/graph.txt ||
	fail "entries and exits do not pair"
# durations from the exits' call and return times: one fn_inner slept
durs=$(awk '/graph_exit: func=fn_inner/ { for (i = 1; i <= NF; i++) {
		if ($i ~ /^calltime=/) { c = $i; sub("calltime=", "", c) }
		if ($i ~ /^rettime=/) { r = $i; sub("rettime=", "", r) } }
	print r - c }' /tmp/graph.txt | sort -n)
slowest=$(echo "$durs" | tail -n 1)

log "fn_inner: slowest ${slowest} ns, sleep ${sleep_ns} ns"
[ "$slowest" -ge "$sleep_ns" ] || fail "the sleeping call took $slowest ns < $sleep_ns"
[ "$slowest" -lt $(( 5 * sleep_ns )) ] || fail "the sleeping call took $slowest ns >= 5x $sleep_ns"

echo verify >&3 || fail "verify while armed with exits: $(cat <&3)"
expect_eq "killed after verify" 0 "$(status killed)"

# the module goes while armed: fn_inner and fn_outer leave one by one
exec 3>&-
wait_for 10 not_armed || fail "closing the owner did not disarm"
expect_eq "enabled_functions after close" 0 "$(wc -l < "$enabled")"
expect_objects_at_rest "after the owner closed"
exec 3<>"$FTG_DEBUGFS/control"
echo "select $outer $inner" >&3 && echo "arm persistent graph" >&3 || fail "re-arm: $(cat <&3)"
exec 3>&-
expect_eq "persistent arm" graph "$(status arm_mode)"
rmmod ftg_target || fail "rmmod ftg_target while armed"
expect_eq "armed after rmmod ftg_target" 0 "$(status armed)"
expect_eq "enabled_functions after rmmod ftg_target" 0 "$(wc -l < "$enabled")"

# and ftguard itself goes while armed
load_test_module ftg_target
outer=$(site_field fn_outer 1)
exec 3<>"$FTG_DEBUGFS/control"
echo "select $outer" >&3 && echo "arm persistent graph" >&3 || fail "arm again: $(cat <&3)"
exec 3>&-
echo 3 > /sys/kernel/debug/ftg_target/graph
rmmod ftguard 2>/dev/null && fail "rmmod ftguard succeeded while armed with exits"
expect_eq "armed with exits after the refused rmmod" graph "$(status arm_mode)"
echo disarm >"$FTG_DEBUGFS/control" || fail "disarm of the arm with exits"
rmmod ftguard || fail "rmmod ftguard after the disarm"
expect_eq "enabled_functions after rmmod ftguard" 0 "$(wc -l < "$enabled")"
echo 3 > /sys/kernel/debug/ftg_target/graph
rmmod ftg_target || fail "rmmod ftg_target"

# a kill ends an arm with exits as it ends a plain one (fault-injection
# build): a deviating site at verify, and ftrace failing while a site
# leaves with its module
load_ftguard fi
load_test_module ftg_target
outer=$(site_field fn_outer 1)
inner=$(site_field fn_inner 1)
exec 3<>"$FTG_DEBUGFS/control"
echo "select $outer $inner" >&3 && echo "arm graph" >&3 || fail "fi arm: $(cat <&3)"
echo "corrupt $inner" >&3 || fail "corrupt: $(cat <&3)"
echo verify >&3 2>/dev/null && fail "verify of a corrupted site passed"
expect_eq "killed by verify" 1 "$(status killed)"
expect_eq "armed after the kill" 0 "$(status armed)"
expect_eq "enabled_functions after the kill" 0 "$(wc -l < "$enabled")"
echo "arm graph" >&3 2>/dev/null && fail "arm graph accepted while killed"
cat <&3 | grep -q '^error EPERM killed' || fail "arm refusal: $(cat <&3)"
echo reset >&3 || fail "reset: $(cat <&3)"
exec 3>&-
rmmod ftg_target || fail "rmmod ftg_target (fi)"
load_test_module ftg_target
outer=$(site_field fn_outer 1)
inner=$(site_field fn_inner 1)
exec 3<>"$FTG_DEBUGFS/control"
echo "select $outer $inner" >&3 && echo "arm persistent graph" >&3 || fail "fi re-arm: $(cat <&3)"
echo fail-ftrace >&3 || fail "fail-ftrace: $(cat <&3)"
exec 3>&-
rmmod ftg_target || fail "rmmod ftg_target while ftrace fails"
expect_eq "killed by the failed removal" 1 "$(status killed)"
expect_eq "armed after that kill" 0 "$(status armed)"
expect_eq "enabled_functions after that kill" 0 "$(wc -l < "$enabled")"
expect_objects_at_rest "after the kills"
rmmod ftguard || fail "rmmod ftguard (fi)"
pass
