#!/bin/sh
# "arm graph" on 32-bit x86, where 6.1 hooks returns through a kretprobe
# on ftrace: over fn_outer(N) -> fn_inner -> fn_a of ftg_target, every
# entry has its exit, depths nest (outer 0, inner 1, fn_a 2), the sleeping
# call lasts at least its sleep, and disarming leaves nothing enabled.
# The guest has no ftguard or trace-cmd programs: the module's events
# are read from the instance's trace file here, and its raw pages and
# formats go to the host, whose trace-cmd reports them
# (host_check_graph in tests/vm/targets/i386.sh).
. /tests/lib.sh

kmod_setup ftg_target

N=10
sites=$FTG_DEBUGFS/sites
site_field() { awk -v n="$1" -v f="$2" '$4 == "ftg_target" && $7 == n { print $f }' "$sites"; }

load_ftguard
load_test_module ftg_target sleep_ms=30
sleep_ns=$(( $(cat /sys/module/ftg_target/parameters/sleep_ms) * 1000000 ))
addrs=
for f in fn_outer fn_inner fn_a; do
	a=$(site_field $f 1)
	[ -n "$a" ] || fail "no $f site"
	addrs="$addrs $a"
done
log "exit hook: $(status graph_hook)"

exec 3<>"$FTG_DEBUGFS/control"
echo "select$addrs" >&3 || fail "select: $(cat <&3)"
echo "arm graph" >&3 || fail "arm graph refused: $(cat <&3)"
expect_eq "arm_mode" graph "$(status arm_mode)"
echo "$N" > /sys/kernel/debug/ftg_target/graph || fail "trigger"
grep ' graph_' "$FTG_INSTANCE/trace" > /tmp/graph.txt
export_file /tmp/graph.txt
head -n 4 /tmp/graph.txt
for f in fn_outer:0:1 fn_inner:1:$N fn_a:2:$N; do
	IFS=: read -r name depth want <<-EOT
	$f
	EOT
	expect_eq "$name entries at depth $depth" "$want" \
		"$(grep -c "graph_entry: func=$name \[ftg_target\] depth=$depth\$" /tmp/graph.txt)"
	expect_eq "$name exits at depth $depth" "$want" \
		"$(grep -c "graph_exit: func=$name \[ftg_target\] depth=$depth " /tmp/graph.txt)"
done
expect_eq "graph events" $(( 2 * (1 + 2 * N) )) "$(wc -l < /tmp/graph.txt)"
# a stack of open calls: each exit closes the innermost open entry
awk '{ for (i = 1; i <= NF; i++) {
		if ($i ~ /^func=/) f = substr($i, 6)
		if ($i ~ /^depth=/) d = substr($i, 7) } }
     /graph_entry/ { if (d + 0 != sp + 0) bad++; st[sp++] = f }
     /graph_exit/ { if (sp == 0 || st[sp - 1] != f || d + 0 != sp - 1) bad++; else sp-- }
     END { exit (bad > 0 || sp != 0) }' /tmp/graph.txt || fail "entries and exits do not nest"
slowest=$(awk '/graph_exit: func=fn_inner/ { for (i = 1; i <= NF; i++) {
		if ($i ~ /^calltime=/) c = substr($i, 10)
		if ($i ~ /^rettime=/) r = substr($i, 9) }
	print r - c }' /tmp/graph.txt | sort -n | tail -n 1)
log "fn_inner: slowest $slowest ns, sleep $sleep_ns ns"
[ "$slowest" -ge "$sleep_ns" ] || fail "the sleeping call took $slowest ns < $sleep_ns"
[ "$slowest" -lt $(( 5 * sleep_ns )) ] || fail "the sleeping call took $slowest ns >= 5x $sleep_ns"

echo disarm >&3 || fail "disarm: $(cat <&3)"
exec 3>&-
expect_eq "armed after disarm" 0 "$(status armed)"
expect_eq "enabled_functions after disarm" 0 "$(wc -l < "$FTG_TRACEFS/enabled_functions")"

# What `trace-cmd restore` needs on the host to make a trace.dat of the
# same events (the guest has no trace-cmd): the instance's formats and
# each CPU's raw ring-buffer pages, read after the text above.
dir=/tmp/graph-raw
mkdir -p "$dir/events"
for f in header_page header_event; do cat "$FTG_INSTANCE/events/$f" > "$dir/events/$f"; done
for sys in ftrace ftguard; do
	for e in "$FTG_INSTANCE/events/$sys"/*/format; do
		[ -f "$e" ] || continue
		d=${e%/format}
		mkdir -p "$dir/events/$sys/${d##*/}"
		cat "$e" > "$dir/events/$sys/${d##*/}/format"
	done
done
for f in printk_formats saved_cmdlines; do cat "$FTG_TRACEFS/$f" > "$dir/$f"; done
cat /proc/kallsyms > "$dir/kallsyms"
for c in "$FTG_INSTANCE"/per_cpu/cpu*; do
	# trace_pipe_raw waits for more once it is drained
	timeout 3 cat "$c/trace_pipe_raw" > "$dir/${c##*/}.raw"
done
(cd "$dir" && tar czf /tmp/i386-graph-raw.tar.gz .) || fail "tar of the raw pages failed"
export_file /tmp/i386-graph-raw.tar.gz
rmmod ftg_target || fail "rmmod ftg_target"
rmmod ftguard || fail "rmmod ftguard"
pass
