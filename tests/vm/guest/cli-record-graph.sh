#!/bin/sh
# ftguard record -p function_graph over fn_outer(N), which calls fn_inner
# N times (each calling fn_a; one sleeps sleep_ms): every entry has its
# exit, the report nests outer { inner { fn_a(); } } with '{'/'}', the
# sleeping call lasts at least its sleep and less than 5 times it, --stat
# counts the calls; trace-cmd report reads the same file without a
# word on stderr and prints it as its own function_graph: the same calls
# nested with '{'/'}', fn_a a leaf "fn_a();" with its duration, closes
# with theirs (the sleeping one at least its sleep), and no raw event
# line; ftguard report warns about nothing; nothing is left armed.
# vfs_read under dd: each of dd's (at least 50) calls has its return, in
# both reports. start -p function_graph arms with exits until stop, and
# extract writes what it kept as function_graph too; stream -p prints
# entries and returns as they come. The Chrome export of two forked
# processes puts each on its own process track, named.
. /tests/lib.sh

cli_setup

N=100
G=/sys/kernel/debug/ftg_target/graph

load_ftguard
load_test_module ftg_target sleep_ms=30
sleep_us=$(( $(cat /sys/module/ftg_target/parameters/sleep_ms) * 1000 ))

# start -p function_graph arms with exits until stop
run 0 ftguard start -p function_graph -l fn_inner
expect_eq "arm_mode after start" "arm_mode graph" "$(grep '^arm_mode ' "$FTG_DEBUGFS/status")"
echo 3 > $G || fail "trigger after start"
expect_eq "fn_inner returns in the instance" 3 "$(grep -c 'graph_exit: func=fn_inner ' "$FTG_INSTANCE/trace")"
run 0 ftguard stop
grep -q '^armed 0$' "$FTG_DEBUGFS/status" || fail "still armed after stop"
# extract writes them as function_graph: each call one leaf "fn_inner();"
# or, when its return came on another CPU (the sleeping one may move),
# opened "fn_inner() {" and closed "}"
run 0 ftguard extract -o e.dat
trace-cmd report -i e.dat > tc.txt 2> tc.err || { cat tc.err; fail "trace-cmd report of e.dat"; }
[ -s tc.err ] && { cat tc.err; fail "trace-cmd report of e.dat wrote to stderr"; }
expect_eq "trace-cmd: extracted fn_inner calls" 3 "$(grep -c 'funcgraph_entry: .*|  fn_inner()' tc.txt)"
expect_eq "trace-cmd: extracted raw graph lines" 0 "$(grep -c 'calltime=' tc.txt)"

run 2 ftguard record -p function -p function_graph -l fn_outer -o x.dat -- true
err_has 'given more than once'
run 2 ftguard record -p nop -l fn_outer -o x.dat -- true
err_has "'nop' is not one of: function function_graph"
[ -e x.dat ] && fail "a refused record wrote x.dat"

run 0 ftguard record -p function_graph -l 'ftg_target:fn_*' -o g.dat -- sh -c "echo $N > $G"
grep -q '^armed 0$' "$FTG_DEBUGFS/status" || fail "still armed after record"
expect_eq "enabled_functions after record" 0 "$(wc -l < "$FTG_TRACEFS/enabled_functions")"

# nests FILE: FILE's lines are "DURATION |  INDENT call", as both reports
# print function_graph; each line is indented by its depth, each close
# "} /* f */" names the innermost open call, nothing stays open
nests() {
	awk -F'[|]' '{
		line = substr($2, 3); ind = match(line, /[^ ]/) - 1; call = substr(line, ind + 1)
		at = call ~ /^\}/ ? sp - 1 : sp
		if (ind != 2 * at) { print "indent " ind " at depth " at ": " $0; bad = 1 }
		if (call ~ /\(\) \{$/) { sub(/\(\) \{$/, "", call); st[sp++] = call }
		else if (call ~ /^\}/) { sub(/^\} \/\* /, "", call); sub(/ \*\/$/, "", call)
			if (sp == 0 || st[sp - 1] != call) { print "close of " call " at depth " sp ": " $0; bad = 1 }
			else sp-- }
	} END { if (sp) { print sp " calls left open"; bad = 1 } exit bad }' "$1"
}

# trace-cmd prints the file as the kernel's function_graph tracer: the
# file names ftguard's graph events as ftrace's funcgraph_entry/exit
trace-cmd report -i g.dat > tc.txt 2> tc.err || { cat tc.err; fail "trace-cmd report failed"; }
[ -s tc.err ] && { cat tc.err; fail "trace-cmd report wrote to stderr"; }
grep 'funcgraph_' tc.txt | head -n 6
expect_eq "trace-cmd: fn_outer opens" 1 "$(grep -c 'funcgraph_entry: *|  fn_outer() {$' tc.txt)"
expect_eq "trace-cmd: fn_inner opens" "$N" "$(grep -c 'funcgraph_entry: *|    fn_inner() {$' tc.txt)"
expect_eq "trace-cmd: fn_a leaves, with durations" "$N" \
	"$(grep -Ec 'funcgraph_entry: +[+!#$]? *[0-9]+\.[0-9]{3} us +\|      fn_a\(\);$' tc.txt)"
expect_eq "trace-cmd: fn_inner closes, with durations" "$N" \
	"$(grep -Ec 'funcgraph_exit: +[+!#$]? *[0-9]+\.[0-9]{3} us +\|    }$' tc.txt)"
expect_eq "trace-cmd: fn_outer closes, with its duration" 1 \
	"$(grep -Ec 'funcgraph_exit: +[+!#$]? *[0-9]+\.[0-9]{3} us +\|  }$' tc.txt)"
expect_eq "trace-cmd: fn_b (not called)" 0 "$(grep -c 'fn_b()' tc.txt)"
expect_eq "trace-cmd: raw graph lines" 0 "$(grep -c 'calltime=' tc.txt)"
# with the function named at each close: the same nesting, and the
# sleeping call's duration
trace-cmd report -O fgraph:tailprint -i g.dat > tc.txt 2> tc.err ||
	{ cat tc.err; fail "trace-cmd report -O fgraph:tailprint failed"; }
[ -s tc.err ] && { cat tc.err; fail "trace-cmd report -O fgraph:tailprint wrote to stderr"; }
sed -n 's/^.*: funcgraph_e[a-z]*: *\(.*\)$/\1/p' tc.txt > tcgraph.txt
nests tcgraph.txt || fail "trace-cmd: calls do not nest"
tc_max=$(awk '/} \/\* fn_inner \*\/$/ { for (i = 2; i <= NF; i++) if ($i == "us") { d = $(i - 1) + 0; if (d > m) m = d } }
	END { print int(m) }' tcgraph.txt)
log "trace-cmd: $(wc -l < tcgraph.txt) graph lines, longest fn_inner $tc_max us"
[ "$tc_max" -ge "$sleep_us" ] || fail "trace-cmd: the sleeping call took $tc_max us < $sleep_us us"
[ "$tc_max" -lt $(( 5 * sleep_us )) ] || fail "trace-cmd: the sleeping call took $tc_max us >= 5 x $sleep_us us"

run 0 ftguard report -i g.dat
[ -s "$ERR" ] && { cat "$ERR"; fail "ftguard report wrote to stderr"; }
cp "$OUT" fg.txt
export_file fg.txt
head -n 8 fg.txt
# the graph part of each line: "DURATION | INDENT call"
sed -n 's/^.*: graph_e[a-z]*: *\(.*\)$/\1/p' fg.txt > graph.txt
expect_eq "fn_outer opens" 1 "$(grep -c '|  fn_outer \[ftg_target\]() {$' graph.txt)"
expect_eq "fn_inner opens" "$N" "$(grep -c '|    fn_inner \[ftg_target\]() {$' graph.txt)"
expect_eq "fn_a leaves" "$N" "$(grep -c ' us |      fn_a \[ftg_target\]();$' graph.txt)"
expect_eq "fn_inner closes" "$N" "$(grep -c ' us |    } /\* fn_inner \[ftg_target\] \*/$' graph.txt)"
expect_eq "fn_outer closes" 1 "$(grep -c ' us |  } /\* fn_outer \[ftg_target\] \*/$' graph.txt)"
nests graph.txt || fail "calls do not nest"
log "graph nests: $(wc -l < graph.txt) lines"

run 0 ftguard report --stat -i g.dat
cat "$OUT"
stat_of() { awk -v f="$1" -v c="$2" '$1 == f && $2 == "[ftg_target]" { print $c }' "$OUT"; }
expect_eq "--stat fn_outer calls" 1 "$(stat_of fn_outer 3)"
expect_eq "--stat fn_inner calls" "$N" "$(stat_of fn_inner 3)"
expect_eq "--stat fn_a calls" "$N" "$(stat_of fn_a 3)"
max=$(stat_of fn_inner 6)
max_us=${max%.*}
log "longest fn_inner: $max us, sleep $sleep_us us"
[ "$max_us" -ge "$sleep_us" ] || fail "the sleeping call took $max us < $sleep_us us"
[ "$max_us" -lt $(( 5 * sleep_us )) ] || fail "the sleeping call took $max us >= 5 x $sleep_us us"
outer_us=$(stat_of fn_outer 4)
[ "${outer_us%.*}" -ge "$max_us" ] || fail "fn_outer ($outer_us us) is shorter than a call it made ($max us)"

# a kernel function: each of dd's reads returns, and dd makes at least 50
run 0 ftguard record -p function_graph -l vfs_read -o v.dat -- dd if=/dev/zero of=/dev/null bs=1 count=50
run 0 ftguard report -i v.dat
dd_calls=$(grep -c '^dd-[0-9]* .*graph_entry: .*|  vfs_read()' "$OUT")
log "dd's vfs_read calls: $dd_calls"
[ "$dd_calls" -ge 50 ] || { head -n 20 "$OUT"; fail "dd's vfs_read calls: $dd_calls, it made 50 reads"; }
trace-cmd report -i v.dat > tc.txt 2> tc.err || { cat tc.err; fail "trace-cmd report of v.dat"; }
[ -s tc.err ] && { cat tc.err; fail "trace-cmd report of v.dat wrote to stderr"; }
expect_eq "trace-cmd: dd's vfs_read calls" "$dd_calls" "$(grep -c '^ *dd-[0-9]* .*funcgraph_entry: .*|  vfs_read()' tc.txt)"
expect_eq "trace-cmd: dd's vfs_read returns (leaves and closes)" "$dd_calls" \
	"$(grep -Ec '^ *dd-[0-9]* .*funcgraph_(entry: .* us +\|  vfs_read\(\);|exit: .* us +\|  })$' tc.txt)"
run 0 ftguard report --stat -i v.dat
calls=$(awk '$1 == "vfs_read" { print $2 }' "$OUT")
[ "${calls:-0}" -ge "$dd_calls" ] || { cat "$OUT"; fail "--stat vfs_read returns: ${calls:-none} < $dd_calls"; }

# The recorded command is named in the file even when the kernel never
# saves its name: record-cmd off (a top-level option: it stops the
# kernel's name saving for every enabled event) and saved_cmdlines
# emptied by a resize; ftguard names the tasks it sees, and its command
# before reaping.
size=$(cat "$FTG_TRACEFS/saved_cmdlines_size")
rc_top=$(cat "$FTG_TRACEFS/options/record-cmd")
# a script: its process is named after it, and its read builtin reads
printf '#!/bin/sh\ni=0\nwhile [ $i -lt 20 ]; do read -r x </tmp/ftgnamedd; i=$((i + 1)); done\n' \
	> /tmp/ftgnamedd && chmod +x /tmp/ftgnamedd || fail "writing /tmp/ftgnamedd"
rc=1
echo 0 > "$FTG_TRACEFS/options/record-cmd" &&
	echo "$size" > "$FTG_TRACEFS/saved_cmdlines_size" &&
	{ ftguard record -l vfs_read -o n.dat -- /tmp/ftgnamedd >"$OUT" 2>"$ERR"; rc=$?; }
echo "$rc_top" > "$FTG_TRACEFS/options/record-cmd"
[ "$rc" = 0 ] || { cat "$OUT" "$ERR"; fail "record of ftgnamedd exited $rc"; }
run 0 ftguard report -i n.dat
named=$(grep -c '^ftgnamedd-[0-9]* .*vfs_read' "$OUT")
unnamed=$(grep -c '^<\.\.\.>-' "$OUT")
log "the command's vfs_read calls, named: $named; events of unnamed tasks: $unnamed"
[ "$named" -ge 20 ] || { head -n 20 "$OUT"; fail "the command named in $named of its 20 or more reads"; }

# Chrome export: one track per thread, grouped by process (pid = tgid,
# tid = pid). Two forked dd processes: the file carries the kernel's
# saved_tgids for each (each its own process), every event is on its
# process's track, every thread has its thread_name and process_name.
run 0 ftguard record -p function_graph -l vfs_read -o t.dat -- \
	sh -c 'dd if=/dev/zero of=/dev/null bs=1 count=20 2>/dev/null; (dd if=/dev/zero of=/dev/null bs=1 count=20 2>/dev/null) & wait'
trace-cmd report -i t.dat > tc.txt 2> tc.err || { cat tc.err; fail "trace-cmd report of t.dat"; }
[ -s tc.err ] && { cat tc.err; fail "trace-cmd report of a file with tgids wrote to stderr"; }
dd_pids=$(sed -n 's/^ *dd-\([0-9]*\) .*funcgraph_entry: .*|  vfs_read().*/\1/p' tc.txt | sort -u)
expect_eq "dd processes traced" 2 "$(echo "$dd_pids" | wc -l)"
for p in $dd_pids; do
	strings t.dat | grep -qx "$p $p" || fail "no tgid for dd $p in t.dat"
done
run 0 ftguard export -f chrome -i t.dat -o t.json
export_file t.json
# one event a line: {"name":...,"ph":"X",...,"pid":P,"tid":T,...}
field() { sed -n "s/.*\"ph\":\"$1\".*\"pid\":\([0-9]*\),\"tid\":\([0-9]*\).*/\1 \2/p" t.json; }
field X | awk '$1 != $2 { print "pid " $1 " tid " $2 " on a single-threaded task"; bad = 1 } END { exit bad }' ||
	fail "a single-threaded task's events are not on its own process"
for p in $dd_pids; do
	n=$(field X | grep -c "^$p $p\$")
	[ "$n" -ge 20 ] || fail "dd $p: $n vfs_read slices, it made 20 reads"
	grep -q "{\"name\":\"thread_name\",\"ph\":\"M\",\"pid\":$p,\"tid\":$p,\"args\":{\"name\":\"dd\"}}" t.json ||
		fail "no thread_name for dd $p"
	grep -q "{\"name\":\"process_name\",\"ph\":\"M\",\"pid\":$p,\"tid\":$p,\"args\":{\"name\":\"dd\"}}" t.json ||
		fail "no process_name for dd $p"
done
for pair in $(field X | sort -u | tr ' ' ,); do
	grep -q "\"thread_name\",\"ph\":\"M\",\"pid\":${pair%,*},\"tid\":${pair#*,}," t.json ||
		fail "thread ${pair#*,} of ${pair%,*} has no thread_name"
done
grep -q '"dur":-' t.json && fail "a slice with a negative duration"
log "chrome: $(grep -c '"ph":"X"' t.json) slices, $(grep -c '"process_name"' t.json) processes"

# stream -p function_graph: entries open and returns close as they happen
ftguard stream -p function_graph -l fn_inner > s.out 2> s.err &
pid=$!
bg_track $pid
wait_for 20 grep -q '^arm_mode graph$' "$FTG_DEBUGFS/status" || { cat s.err; fail "stream -p never armed with exits"; }
echo 3 > $G || fail "trigger under stream"
returns() { [ "$(grep -c ' us |  } /\* fn_inner \[ftg_target\] \*/$' s.out)" -ge 3 ]; }
wait_for 20 returns || { cat s.out s.err; fail "stream -p: fewer than 3 fn_inner returns"; }
grep -q 'graph_entry: .*|  fn_inner \[ftg_target\]() {$' s.out || { cat s.out; fail "stream -p: no fn_inner entry line"; }
kill -INT $pid
wait $pid
expect_eq "stream -p exit status" 0 "$?"
wait_for 10 grep -q '^armed 0$' "$FTG_DEBUGFS/status" || fail "stream -p left an arm"

rm -f e.dat g.dat v.dat t.dat t.json tc.* tcgraph.txt fg.txt graph.txt s.out s.err
rmmod ftg_target || fail "rmmod ftg_target"
unload_ftguard
pass
