#!/bin/sh
# Benchmarks for tests/bench/run, one boot, side by side in that boot.
# Writes raw samples "<figure> <key> <value>" to bench.txt (exported); the
# host pairs the i-th sample of one side with the i-th of the other and
# reports the median of the per-pair ratios with a confidence interval.
# Absolute times under TCG mean little: only ratios of runs made next to
# each other in this boot are reported. Sides alternate (ABBA) so that a
# slow drift of the host's load hits both alike.
. /tests/lib.sh
[ -f /tests/bench-env.sh ] && . /tests/bench-env.sh

FIGURES=${BENCH_FIGURES:-all}
PAIRS=${BENCH_PAIRS:-12}	# figures 1 and 2: interleaved pairs
LOOP=${BENCH_LOOP:-100000}	# one-byte dd: 2 syscalls per iteration
HITS=${BENCH_HITS:-100000}	# fn_a calls per trigger write
REPS=${BENCH_REPS:-5}		# figures 3 to 5
ARM_REPS=${BENCH_ARM_REPS:-3}	# figure 6
REC_HITS=${BENCH_REC_HITS:-20000}
COLD=${BENCH_COLD:-10000}	# functions of ftg_cold.ko (tests/bench/run)
TRIG=/sys/kernel/debug/ftg_target/trigger
OUT=/tmp/bench.txt
: >"$OUT"
cd /tmp || fail "cd /tmp"

# want FIGURE: is it on the list? (and say so on the console, whose lines
# the host sees as they come: how long each figure takes in host time)
want() {
	case ",$FIGURES," in
	*,all,* | *,"$1",*) echo "bench: figure $1" >/dev/console; return 0 ;;
	esac
	return 1
}

cleanup() {
	exec 3>&- 2>/dev/null
	echo nop >"$FTG_TRACEFS/current_tracer" 2>/dev/null
	echo >"$FTG_TRACEFS/set_ftrace_filter" 2>/dev/null
	ftguard stop >/dev/null 2>&1
	tmux -L ftgbench kill-server 2>/dev/null
	for m in ftg_target ftg_floor ftg_cold ftguard; do
		module_loaded $m && rmmod $m
	done
	return 0
}
trap cleanup EXIT

# busybox date has no %N: the hrtimer clock's "now" in /proc/timer_list is
# monotonic with ns resolution (its read costs the same in every variant).
now_ns() { awk '/^now at / { print $3; exit }' /proc/timer_list; }
sample() { echo "$1 $2 $3" >>"$OUT"; log "$1 $2 $3"; }
# timed FIGURE KEY CMD...: one sample of CMD's time on the guest's clock
# in ns (guest instructions under tests/bench/qemu-icount)
timed() {
	_fig=$1 _key=$2
	shift 2
	_t0=$(now_ns)
	"$@" || fail "$_fig/$_key: '$*' failed"
	_t1=$(now_ns)
	sample "$_fig" "$_key" $((_t1 - _t0))
}
[ -n "$(now_ns)" ] || skip "no 'now at' line in /proc/timer_list"
status() { awk -v k="$1" '$1 == k { print $2 }' "$FTG_DEBUGFS/status"; }
# ctl CMD: one command on the control fd 3, its error shown on failure
ctl() { echo "$1" >&3 || fail "control '$1': $(cat <&3)"; }
# select_file FILE: select the addresses of FILE (one a line) on fd 3,
# 12 a line (256 bytes at most), each line its own write (a write holds
# whole lines only)
select_file() {
	awk '{ printf "%s%s", (NR % 12 == 1 ? "select " : " "), $1 } NR % 12 == 0 { print "" }
	     END { if (NR % 12) print "" }' "$1" >/tmp/select.txt
	while read -r _line; do
		echo "$_line" >&3 || fail "select: $(cat <&3)"
	done </tmp/select.txt
}
# sites_where AWK-CONDITION: "addr name" of the sites the condition keeps
sites_where() { awk "NR > 1 && ($1) { print \$1, \$7 }" "$FTG_DEBUGFS/sites"; }
# check_all: the whole `ftguard check` process, every vmlinux function
# offered first (what figure 5 measures and figure 1 leaves checked)
check_all() { ftguard -q check --all >/dev/null; }

sample meta pairs "$PAIRS"
sample meta reps "$REPS"
sample meta loop "$LOOP"
sample meta hits "$HITS"
sample meta cpus "$(grep -c ^processor /proc/cpuinfo)"
sample meta clock "${BENCH_CLOCK:-host}"
sample meta kernel "$(uname -r)"

# ---- 1: disarmed cost -----------------------------------------------------
# ABBA: without, with, with, without; "with" is ftguard.ko loaded and every
# site (modules and vmlinux) admitted and checked, nothing armed.
syscall_loop() { dd if=/dev/zero of=/dev/null bs=1 count="$LOOP" 2>/dev/null; }
load_checked() {
	load_ftguard
	check_all || fail "ftguard check --all failed"
	[ "$(status armed)" = 0 ] || fail "armed after check"
}
if want 1; then
	for r in $(seq $((PAIRS / 2))); do
		timed disarmed base syscall_loop
		load_checked
		timed disarmed loaded syscall_loop
		timed disarmed loaded syscall_loop
		sample disarmed sites "$(status sites)"
		unload_ftguard
		timed disarmed base syscall_loop
	done
fi

# ---- 5: check cost ------------------------------------------------------
# The whole `ftguard check --all` (first on a fresh module: it admits the
# vmlinux functions; then with them known) against reading
# available_filter_functions; then the module's own check of the first
# 1k, 10k and all sites through the control file, for the growth.
if want 5; then
	load_ftguard
	timed check first check_all
	sample check sites "$(status sites)"
	sample check admitted "$(status admitted)"
	sample check rejected "$(status rejected)"
	awk 'NR > 1 { print $1 }' "$FTG_DEBUGFS/sites" >/tmp/all-sites.txt
	nall=$(wc -l </tmp/all-sites.txt)
	for r in $(seq "$REPS"); do
		timed check kernel_aff eval "cat $FTG_TRACEFS/available_filter_functions >/dev/null"
		timed check ftguard check_all
		timed check ftguard_known eval 'ftguard -q check >/dev/null'
		timed check kernel_aff eval "cat $FTG_TRACEFS/available_filter_functions >/dev/null"
	done
	# Where the time of `ftguard check` can go: the files it may read (the
	# address map, built when the report lists sites, reads kallsyms,
	# modules, vmallocinfo and ftguard.ko's tables; --all reads kallsyms
	# and available_filter_functions) and a process that only starts.
	for r in $(seq "$REPS"); do
		timed check part_start eval 'ftguard --version >/dev/null'
		timed check part_kallsyms eval 'cat /proc/kallsyms >/dev/null'
		timed check part_sites eval "cat $FTG_DEBUGFS/sites >/dev/null"
		timed check part_vmallocinfo eval 'cat /proc/vmallocinfo /proc/modules >/dev/null'
	done
	for n in 1000 10000 all; do
		[ "$n" = all ] || [ "$n" -lt "$nall" ] || continue
		exec 3<>"$FTG_DEBUGFS/control"
		if [ "$n" != all ]; then
			head -n "$n" /tmp/all-sites.txt >/tmp/grow.txt
			select_file /tmp/grow.txt
		fi
		for r in $(seq "$REPS"); do
			timed check "grow_ns_$n" ctl check
			sample check "grow_ms_$n" "$(awk 'NR == 2 { print $5 }' "$FTG_DEBUGFS/check")"
			sample check "grow_sites_$n" "$(awk 'NR == 2 { print $3 + $4 }' "$FTG_DEBUGFS/check")"
		done
		exec 3>&-
	done
	unload_ftguard
fi

# ---- 2: per-hit cost ----------------------------------------------------
# fn_a armed by ftguard (its control file) against the kernel's function
# tracer with set_ftrace_filter=fn_a; each pair brackets both with two
# untraced runs, the two tracers in alternating order.
trigger() { echo "$HITS" >"$TRIG"; }
enabled() { awk '{ print $1, $2 }' "$FTG_TRACEFS/enabled_functions" | sort; }
# perhit_ftguard FIG ARM: one timed run of fn_a armed by the control command
# ARM ("arm", "arm graph")
perhit_ftguard() {
	ctl "$2"
	enabled >/tmp/en-ftguard.txt
	timed "$1" ftguard trigger
	ctl disarm
}
# perhit_kernel FIG TRACER: the same run under the kernel's TRACER
perhit_kernel() {
	echo "$2" >"$FTG_TRACEFS/current_tracer" || fail "current_tracer $2"
	enabled >/tmp/en-kernel.txt
	timed "$1" kernel trigger
	echo nop >"$FTG_TRACEFS/current_tracer"
}
# perhit_pairs FIG ARM TRACER: interleaved pairs, each bracketed by two
# untraced runs, the two sides in alternating order
perhit_pairs() {
	trigger	# warm up both paths once
	for r in $(seq "$PAIRS"); do
		timed "$1" base trigger
		if [ $((r % 2)) = 1 ]; then
			perhit_ftguard "$1" "$2"
			perhit_kernel "$1" "$3"
		else
			perhit_kernel "$1" "$3"
			perhit_ftguard "$1" "$2"
		fi
		timed "$1" base2 trigger
	done
}
# perhit_setup: ftguard and ftg_target loaded, fn_a selected on fd 3 and in
# set_ftrace_filter; perhit_teardown undoes it
perhit_setup() {
	load_ftguard
	load_test_module ftg_target
	exec 3<>"$FTG_DEBUGFS/control"
	sites_where '$4 == "ftg_target" && $7 == "fn_a"' >/tmp/fn_a.txt
	[ "$(wc -l </tmp/fn_a.txt)" = 1 ] || fail "ftg_target's fn_a is not one site"
	select_file /tmp/fn_a.txt
	echo fn_a >"$FTG_TRACEFS/set_ftrace_filter" || fail "set_ftrace_filter"
}
perhit_teardown() {
	echo >"$FTG_TRACEFS/set_ftrace_filter"
	exec 3>&-
	rmmod ftg_target
	unload_ftguard
}
if want 2; then
	perhit_setup
	perhit_pairs perhit arm function
	# the same site, patched to the same ftrace trampoline by both
	cmp -s /tmp/en-ftguard.txt /tmp/en-kernel.txt ||
		fail "enabled_functions differ: ftguard '$(cat /tmp/en-ftguard.txt)' kernel '$(cat /tmp/en-kernel.txt)'"
	# The profile of one hit, by counting: the same with the event write
	# switched off (ftguard's func event disabled in its instance; the
	# function tracer with tracing_on 0, so trace_function's reserve fails
	# at once), what is left is the callback and its dispatch.
	echo 0 >"$FTG_INSTANCE/events/ftguard/func/enable" || fail "func event off"
	echo 0 >"$FTG_TRACEFS/tracing_on" || fail "tracing_on 0"
	for r in $(seq "$REPS"); do
		ctl arm
		timed perhit ftguard_noevent trigger
		# its event on, its instance's buffer off: the event path up to
		# the failed reserve, like the function tracer's here
		echo 1 >"$FTG_INSTANCE/events/ftguard/func/enable"
		echo 0 >"$FTG_INSTANCE/tracing_on"
		timed perhit ftguard_bufoff trigger
		echo 1 >"$FTG_INSTANCE/tracing_on"
		echo 0 >"$FTG_INSTANCE/events/ftguard/func/enable"
		ctl disarm
		echo function >"$FTG_TRACEFS/current_tracer" || fail "current_tracer"
		timed perhit kernel_noevent trigger
		echo nop >"$FTG_TRACEFS/current_tracer"
		timed perhit base_noevent trigger
	done
	echo 1 >"$FTG_INSTANCE/events/ftguard/func/enable"
	echo 1 >"$FTG_TRACEFS/tracing_on"
	sample perhit enabled "$(tr ' ' '_' </tmp/en-kernel.txt)"
	sample perhit hits_seen "$(awk 'NR > 1 && $4 == "ftg_target" && $7 == "fn_a" { print $5 }' "$FTG_DEBUGFS/sites")"
	perhit_teardown
fi

# ---- 8: per-hit cost with returns ------------------------------------------
# fn_a armed with exits by ftguard (arm graph: a kretprobe on ftrace on
# 6.1, an fprobe on 6.12) against the kernel's function_graph tracer on
# the same set_ftrace_filter, as figure 2 pairs them.
if want 8; then
	perhit_setup
	perhit_pairs graphhit "arm graph" function_graph
	sample graphhit hook "$(awk '$1 == "graph_hook" { print $2 }' "$FTG_DEBUGFS/status")"
	perhit_teardown
fi

# ---- 3 and 4: record throughput and start-up ----------------------------
# events: fn_a lines in the file; lost: calls made minus events recorded.
count_fn_a() { trace-cmd report -i "$1" 2>/dev/null | grep -c 'fn_a'; }
rec_ftguard() {
	ftguard -q record --no-progress -l 'ftg_target:fn_a' -b 1024 -o fg.dat -- sh -c "echo $1 > $TRIG" >/dev/null 2>&1
}
rec_tracecmd() {
	trace-cmd record -p function -l fn_a -b 1024 -o tc.dat sh -c "echo $1 > $TRIG" >/dev/null 2>&1
}
if want 3 || want 4; then
	load_ftguard
	load_test_module ftg_target
	for r in $(seq "$REPS"); do
		if want 3; then
			timed record ftguard_ns rec_ftguard "$REC_HITS"
			sample record ftguard_events "$(count_fn_a fg.dat)"
			timed record tracecmd_ns rec_tracecmd "$REC_HITS"
			sample record tracecmd_events "$(count_fn_a tc.dat)"
		fi
		if want 4; then
			timed startup ftguard rec_ftguard 1
			timed startup tracecmd rec_tracecmd 1
			# parts of ftguard record: selecting and arming alone
			# (the module's sites of ftg_target, check, arm, disarm)
			timed startup part_start_stop eval \
				'ftguard -q start -l ftg_target:fn_a >/dev/null && ftguard -q stop >/dev/null'
		fi
	done
	sample record calls "$REC_HITS"
	rm -f fg.dat tc.dat
	rmmod ftg_target
	unload_ftguard
fi

# ---- 9: record throughput with returns ----------------------------------
# Figure 3 with -p function_graph on both sides. events: calls whose entry
# and exit both made it into the file: for ftguard a graph_exit of fn_a
# right after its graph_entry; for trace-cmd a leaf line "fn_a();" (the
# report folds an entry and its exit into one; an entry without its exit
# prints "fn_a() {").
graph_pairs_ftguard() {
	trace-cmd report -i "$1" 2>/dev/null |
		awk '/graph_entry: .*fn_a/ { open = 1; next }
		     /graph_exit: .*fn_a/ { if (open) n++; open = 0; next }
		     END { print n + 0 }'
}
graph_pairs_tracecmd() { trace-cmd report -i "$1" 2>/dev/null | grep -c 'fn_a();'; }
# A failed record counts no event (it shows in the row) rather than ending
# the whole run: this figure has no target.
rec_graph_ftguard() {
	rm -f fg.dat
	ftguard -q record --no-progress -p function_graph -l 'ftg_target:fn_a' -b 1024 -o fg.dat -- sh -c "echo $1 > $TRIG" >/dev/null 2>&1 ||
		log "figure 9: ftguard record failed"
}
rec_graph_tracecmd() {
	rm -f tc.dat
	trace-cmd record -p function_graph -l fn_a -b 1024 -o tc.dat sh -c "echo $1 > $TRIG" >/dev/null 2>&1 ||
		log "figure 9: trace-cmd record failed"
}
if want 9; then
	load_ftguard
	load_test_module ftg_target
	for r in $(seq "$REPS"); do
		timed grecord ftguard_ns rec_graph_ftguard "$REC_HITS"
		sample grecord ftguard_events "$(graph_pairs_ftguard fg.dat)"
		timed grecord tracecmd_ns rec_graph_tracecmd "$REC_HITS"
		sample grecord tracecmd_events "$(graph_pairs_tracecmd tc.dat)"
	done
	sample grecord calls "$REC_HITS"
	rm -f fg.dat tc.dat
	rmmod ftg_target
	unload_ftguard
fi

# ---- 10: call tree --------------------------------------------------------
# `ftguard record -g vfs_read` (every traceable function selected, checked
# and armed in one graph arm) against `trace-cmd record -p function_graph
# -g vfs_read`, both -b 1024 around the same dd of TREE_READS 512-byte
# reads of a file in memory; ABBA order (the pairs alternate which goes
# first). Time to first event: the shell that starts the command first
# writes a marker into an instance of its own (its ring buffer stamps it
# with the same trace clock, "local", as every event in both files), then
# execs the command; the figure is the first event of dd in the file less
# that marker. Calls: dd's funcgraph_entry events in the file (trace-cmd
# report -R, which files ftguard's graph events under the same names),
# over the span from dd's first event to its last; lost: the buffer's
# overrun and dropped events as each file keeps them (trace-cmd report
# --stat), and ftguard's own "N events lost" (trace-cmd prints no count).
TREE_REPS=${BENCH_TREE_REPS:-2}	# pairs: 2 is one ABBA cycle, about 3 min of host time
TREE_READS=${BENCH_TREE_READS:-2000}
TREE_CLK=$FTG_TRACEFS/instances/ftgbench_clock
TREE_DD="dd if=/tmp/tree.in of=/dev/null bs=512 count=$TREE_READS"
# tree_marker: the marker's stamp in ns (the trace file prints usecs)
tree_marker() {
	awk '/tracing_mark_write: tree-start/ {
		for (i = 1; i <= NF; i++) if ($i ~ /^[0-9]+\.[0-9]+:$/) {
			sub(/:$/, "", $i); split($i, t, "."); printf "%.0f\n", t[1] * 1e9 + t[2] * 1e3; exit } }' "$TREE_CLK/trace"
}
# tree_scan FILE MARK: "first-event-less-mark span calls events" of dd
tree_scan() {
	trace-cmd report -R -t -i "$1" 2>/dev/null |
		awk -v mark="$2" '$1 ~ /^dd-[0-9]+$/ {
			for (i = 2; i < NF; i++) if ($i ~ /^[0-9]+\.[0-9]+:$/) break
			if (i == NF) next
			sub(/:$/, "", $i); split($i, t, "."); ts = t[1] * 1e9 + t[2]
			if (!n++) first = ts
			last = ts
			if ($(i + 1) == "funcgraph_entry:") calls++
		}
		END { if (n) printf "%.0f %.0f %d %d\n", first - mark, last - first, calls, n; else print "- 0 0 0" }'
}
# tree_run FIG SIDE: one timed record of SIDE (ftguard or tracecmd), its
# samples under FIG
tree_run() {
	_fig=$1
	shift
	rm -f tree.dat
	echo >"$TREE_CLK/trace"
	if [ "$1" = ftguard ]; then
		_cmd="ftguard record --no-progress -g vfs_read -b 1024 -o tree.dat -- $TREE_DD"
	else
		_cmd="trace-cmd record -p function_graph -g vfs_read -b 1024 -o tree.dat $TREE_DD"
	fi
	_t0=$(now_ns)
	sh -c "echo tree-start >$TREE_CLK/trace_marker && exec $_cmd" >"tree-$1.out" 2>&1 ||
		log "figure 10: $1 record failed: $(tail -n 3 "tree-$1.out")"
	_t1=$(now_ns)
	_mark=$(tree_marker)
	[ -n "$_mark" ] || fail "figure 10: no marker in $TREE_CLK/trace"
	set -- "$1" $(tree_scan tree.dat "$_mark")
	[ "$2" != - ] || { cat "tree-$1.out"; fail "figure 10: no event of dd in $1's file"; }
	# the first event comes after the marker and before the command ends
	[ "$2" -gt 0 ] && [ "$2" -lt $((_t1 - _t0)) ] ||
		fail "figure 10: $1's first event $2 ns after the marker, the command took $((_t1 - _t0)) ns"
	sample "$_fig" "$1_first_ns" "$2"
	sample "$_fig" "$1_ns" $((_t1 - _t0))
	sample "$_fig" "$1_span_ns" "$3"
	sample "$_fig" "$1_calls" "$4"
	sample "$_fig" "$1_events" "$5"
	if [ "$1" = ftguard ]; then
		sample "$_fig" ftguard_lost "$(sed -n 's/.* \([0-9]*\) events lost.*/\1/p' tree-ftguard.out | tail -n 1 | grep . || echo 0)"
		sample "$_fig" ftguard_armed "$(sed -n 's/^ftguard record: checked [0-9]* sites, armed \([0-9]*\) .*/\1/p' tree-ftguard.out)"
	fi
	# both files keep the buffer's stats at the end of the record
	sample "$_fig" "$1_overrun" "$(trace-cmd report --stat -i tree.dat 2>/dev/null |
		awk '/^overrun:/ || /^dropped events:/ { n += $NF; seen = 1 } END { print seen ? n : -1 }')"	# -1: no stats in the file
}
if want 10; then
	load_ftguard
	mkdir -p "$TREE_CLK" || fail "figure 10: instance for the marker"
	dd if=/dev/urandom of=/tmp/tree.in bs=512 count="$TREE_READS" 2>/dev/null
	cat /tmp/tree.in >/dev/null
	# The first ftguard record on a fresh module offers and admits every
	# vmlinux function (figure 5's "first"): what a first use pays, once,
	# sampled apart (treecold). trace-cmd's first record took what its
	# later ones take (1753 against 1755 ms to the first event on 6.1, 2120
	# against 2100 on 6.12, four pairs), so it gets no warm-up: each whole
	# record costs a minute of host time on 6.12.
	tree_run treecold ftguard
	for r in $(seq "$TREE_REPS"); do
		if [ $((r % 2)) = 1 ]; then
			tree_run tree ftguard
			tree_run tree tracecmd
		else
			tree_run tree tracecmd
			tree_run tree ftguard
		fi
	done
	sample tree reads "$TREE_READS"
	export_file tree-ftguard.out
	export_file tree-tracecmd.out
	rm -f tree.dat /tmp/tree.in
	rmdir "$TREE_CLK"
	unload_ftguard
fi

# ---- 6: arm cost ----------------------------------------------------------
# Cold sites: functions of the generated ftg_cold.ko that nothing calls. N
# of them armed by ftguard in one `arm force` (one ftrace_set_filter_ips
# and one code update), against the kernel's function tracer switched on
# with the same N in set_ftrace_filter (one glob: ftg_cold_00000,
# ftg_cold_000*, ...; setting it is timed apart), and both switched off.
# ftguard's arm keeps its per-CPU hit counters in chunks of 4,096 (the
# most one __alloc_percpu() gives), so every N is armed by both. Beside
# them, the floor of any module: ftg_floor.ko's empty ops on the same N
# switched on and off through the same API as ftguard.ko's.
cold_glob() { # cold_glob N: the glob that names exactly the first N
	case "$1" in
	1) echo ftg_cold_00000 ;;
	100) echo 'ftg_cold_000*' ;;
	1000) echo 'ftg_cold_00*' ;;
	4000) echo 'ftg_cold_0[0-3]*' ;;
	10000) echo 'ftg_cold_0*' ;;
	*) fail "no glob for $1 cold sites" ;;
	esac
}
# A module's unregister waits for RCU-tasks grace periods, whose kthread
# rests between grace periods: each disarm is set apart from the last
# one by a filter write (seconds), so that no side starts in the other's
# wake.
arm_n() {
	_n=$1 _glob=$(cold_glob "$1")
	sites_where "\$4 == \"ftg_cold\" && \$7 ~ /^${_glob%\*}/" >/tmp/cold-n.txt
	[ "$(wc -l </tmp/cold-n.txt)" = "$_n" ] || fail "$(wc -l </tmp/cold-n.txt) cold sites match $_glob, not $_n"
	exec 3<>"$FTG_DEBUGFS/control"
	timed arm "select_$_n" select_file /tmp/cold-n.txt
	# the floor's filter: a glob over every record, as the kernel's
	echo "filter $_glob" >"$FLOOR_CTL" || fail "ftg_floor: filter $_glob"
	if [ "$_n" -gt "$(status max_arm)" ] && echo arm >&3 2>/dev/null; then
		fail "arm of $_n > max_arm sites without force succeeded"
	fi
	# the check alone, which the arm repeats under the same lock
	timed arm "check_$_n" ctl check
	timed arm "ftguard_$_n" ctl "arm force"
	sample arm "ftguard_armed_$_n" "$(status armed_sites)"
	timed arm "disarm_$_n" ctl disarm
	exec 3>&-
	timed arm "kernel_filter_$_n" eval "echo '$_glob' >$FTG_TRACEFS/set_ftrace_filter"
	timed arm "kernel_$_n" eval "echo function >$FTG_TRACEFS/current_tracer"
	sample arm "kernel_enabled_$_n" "$(wc -l <"$FTG_TRACEFS/enabled_functions")"
	timed arm "kernel_off_$_n" eval "echo nop >$FTG_TRACEFS/current_tracer"
	# the floor: a module's empty ops on the same functions
	timed arm "floor_on_$_n" eval "echo on >$FLOOR_CTL"
	timed arm "floor_off_$_n" eval "echo off >$FLOOR_CTL"
	echo >"$FTG_TRACEFS/set_ftrace_filter"
}
if want 6; then
	load_ftguard
	load_test_module ftg_cold
	load_test_module ftg_floor
	FLOOR_CTL=/sys/kernel/debug/ftg_floor/ctl
	[ -w "$FLOOR_CTL" ] || fail "no $FLOOR_CTL"
	sample arm cold_sites "$(sites_where '$4 == "ftg_cold"' | wc -l)"
	sample arm max_arm "$(status max_arm)"
	# The first check after the module's load proves each site's symbol
	# (a scan of ftg_cold's 10,000 symbols a site), once: every later
	# check, the arm's included, finds them proven. Timed apart, so that
	# "arm less its check" below compares like with like.
	sites_where '$4 == "ftg_cold"' >/tmp/cold-all.txt
	exec 3<>"$FTG_DEBUGFS/control"
	select_file /tmp/cold-all.txt
	timed arm first_check ctl check
	sample arm first_check_sites "$(wc -l </tmp/cold-all.txt)"
	exec 3>&-
	for r in $(seq "$ARM_REPS"); do
		for n in 1 100 1000 4000 10000; do
			[ "$n" -le "$COLD" ] && arm_n "$n"
		done
	done
	rmmod ftg_floor
	rmmod ftg_cold
	unload_ftguard
fi

# ---- 11: the whole kernel ------------------------------------------------
# What arming everything costs. Memory: SUnreclaim, VmallocUsed and Percpu
# of /proc/meminfo (kB) before ftguard.ko loads (e1000e loaded first where
# the guest has it), after the load, after the first `check --all` (every
# vmlinux function admitted) and with every site armed; the names'
# share from the sites table, each kstrdup()'d name rounded up to its
# kmalloc size class. The verifier: the module's own counters of its
# periodic work (status verify_runs, verify_ns; a run re-checks one slice
# of the armed set, status verify_slice) over WHOLE_RUNS runs with
# the first 1, 1,000 and 10,000 sites (address order) armed through the
# control fd and with every site so armed; each arm and disarm timed. Then WHOLE_REPS pairs, alternating which goes first:
# `ftguard start -l '*' --force` (whole process) against `echo function
# >current_tracer` with an empty filter, the syscall loop under each, and
# ftguard's disarm (a `disarm` on the control fd) against `echo nop`; the
# loop untraced before and after each pair, and under each again with
# the event write off (ftguard's func event disabled, the kernel's
# tracing_on 0): the callbacks alone. The verify with everything armed
# runs again with ftguard's instance off, and the same check of every
# site is timed once disarmed, to split the verify's own traced calls
# from its work.
WHOLE_REPS=${BENCH_WHOLE_REPS:-2}
WHOLE_LOOP=${BENCH_WHOLE_LOOP:-2000}	# one-byte dd under everything armed
WHOLE_RUNS=${BENCH_WHOLE_RUNS:-3}	# verify runs counted at each size
mem_sample() { # mem_sample WHEN: the three meminfo lines, kB
	sync
	echo 3 >/proc/sys/vm/drop_caches
	usleep 500000
	sample whole "slab_kb_$1" "$(awk '$1 == "SUnreclaim:" { print $2 }' /proc/meminfo)"
	sample whole "vmalloc_kb_$1" "$(awk '$1 == "VmallocUsed:" { print $2 }' /proc/meminfo)"
	sample whole "percpu_kb_$1" "$(awk '$1 == "Percpu:" { print $2 }' /proc/meminfo)"
}
whole_loop() { dd if=/dev/zero of=/dev/null bs=1 count="$WHOLE_LOOP" 2>/dev/null; }
# verify_cost KEY: the verify work's runs and time over WHOLE_RUNS runs
# from the next one on, as samples verify_runs_KEY and verify_ns_KEY
verify_cost() {
	_r0=$(status verify_runs)
	wait_for 120 sh -c "[ \$(awk '\$1 == \"verify_runs\" { print \$2 }' $FTG_DEBUGFS/status) -gt $_r0 ]" ||
		fail "figure 11: no verify run in 120 s ($1)"
	_r0=$(status verify_runs) _n0=$(status verify_ns)
	wait_for 300 sh -c "[ \$(awk '\$1 == \"verify_runs\" { print \$2 }' $FTG_DEBUGFS/status) -ge $((_r0 + WHOLE_RUNS)) ]" ||
		fail "figure 11: fewer than $WHOLE_RUNS verify runs in 300 s ($1)"
	_r1=$(status verify_runs) _n1=$(status verify_ns)
	sample whole "verify_runs_$1" $((_r1 - _r0))
	sample whole "verify_ns_$1" $((_n1 - _n0))
	[ "$(status killed)" = 0 ] || fail "figure 11: killed while armed ($1): $(status kill_reason)"
}
whole_ftguard() {
	# the command's selection and check alone, no arm
	timed whole ftguard_check_l eval "ftguard -q check -l '*' >/dev/null"
	timed whole ftguard_on eval "ftguard -q start -l '*' --force >/dev/null"
	sample whole ftguard_armed "$(status armed_sites)"
	timed whole ftguard_loop whole_loop
	# the callbacks alone: ftguard's func event off (as figure 2's split)
	echo 0 >"$FTG_INSTANCE/events/ftguard/func/enable" || fail "figure 11: func event off"
	timed whole ftguard_loop_noevent whole_loop
	echo 1 >"$FTG_INSTANCE/events/ftguard/func/enable"
	exec 3<>"$FTG_DEBUGFS/control"
	timed whole ftguard_off ctl disarm
	exec 3>&-
	ftguard -q stop >/dev/null 2>&1
}
whole_kernel() {
	timed whole kernel_on eval "echo function >$FTG_TRACEFS/current_tracer"
	timed whole kernel_loop whole_loop
	echo 0 >"$FTG_TRACEFS/tracing_on"
	timed whole kernel_loop_noevent whole_loop
	echo 1 >"$FTG_TRACEFS/tracing_on"
	timed whole kernel_off eval "echo nop >$FTG_TRACEFS/current_tracer"
}
if want 11; then
	modprobe e1000e 2>/dev/null
	sample whole e1000e "$(module_loaded e1000e && echo 1 || echo 0)"
	mem_sample before
	load_ftguard
	sample whole sites_load "$(status sites)"
	sample whole module_bytes "$(awk '$1 == "ftguard" { print $2 }' /proc/modules)"
	mem_sample load
	check_all || fail "figure 11: ftguard check --all"
	sample whole sites_check "$(status sites)"
	sample whole vmlinux_sites "$(status vmlinux_sites)"
	sample whole alloc_sites "$(status alloc_sites)"
	sample whole alloc_modules "$(status alloc_modules)"
	mem_sample check
	# the names: kstrdup() of each, in kmalloc's size classes
	sample whole name_bytes "$(awk 'NR > 1 { n = length($7) + 1
		c = n <= 8 ? 8 : n <= 16 ? 16 : n <= 32 ? 32 : n <= 64 ? 64 : n <= 96 ? 96 : n <= 128 ? 128 : 256
		t += c } END { print t }' "$FTG_DEBUGFS/sites")"
	awk 'NR > 1 { print $1 }' "$FTG_DEBUGFS/sites" >/tmp/whole-sites.txt
	for n in 1 1000 10000 all; do
		if [ "$n" = all ]; then
			cp /tmp/whole-sites.txt /tmp/whole-n.txt
		else
			head -n "$n" /tmp/whole-sites.txt >/tmp/whole-n.txt
		fi
		exec 3<>"$FTG_DEBUGFS/control"
		select_file /tmp/whole-n.txt
		# the module's part of an arm: check and one ftrace update
		timed whole "arm_$n" ctl "arm force"
		sample whole "verify_sites_$n" "$(status armed_sites)"
		sample whole "verify_cycle_ms_$n" "$(status verify_cycle_ms)"
		[ "$n" = all ] && mem_sample armed
		verify_cost "$n"
		if [ "$n" = all ]; then
			# The verify calls kernel functions, armed too: the same
			# with ftguard's instance off (each callback's reserve
			# fails at once)
			echo 0 >"$FTG_INSTANCE/tracing_on"
			verify_cost all_bufoff
			echo 1 >"$FTG_INSTANCE/tracing_on"
		fi
		timed whole "disarm_$n" ctl disarm
		if [ "$n" = all ]; then
			# the same check with nothing armed (the same selection)
			timed whole check_disarmed ctl check
			# the disarm again with ftguard's instance off: what the
			# disarm's own traced calls add before the code update
			ctl "arm force"
			echo 0 >"$FTG_INSTANCE/tracing_on"
			timed whole disarm_all_bufoff ctl disarm
			echo 1 >"$FTG_INSTANCE/tracing_on"
		fi
		exec 3>&-
	done
	ftguard -q stop >/dev/null 2>&1
	sample whole verify_period_ms "$(status verify_period_ms)"
	sample whole verify_slice "$(status verify_slice)"
	whole_loop	# warm up
	for r in $(seq "$WHOLE_REPS"); do
		timed whole base_loop whole_loop
		if [ $((r % 2)) = 1 ]; then
			whole_ftguard
			whole_kernel
		else
			whole_kernel
			whole_ftguard
		fi
		timed whole base2_loop whole_loop
	done
	sample whole kernel_enabled "$(echo function >"$FTG_TRACEFS/current_tracer" &&
		wc -l <"$FTG_TRACEFS/enabled_functions"; echo nop >"$FTG_TRACEFS/current_tracer")"
	sample whole loop "$WHOLE_LOOP"
	unload_ftguard
	module_loaded e1000e && rmmod e1000e
fi

# ---- 7: TUI ---------------------------------------------------------------
export PATH=$PATH:/usr/libexec
if ! want 7; then
	:
elif command -v tmux >/dev/null && command -v ftg-tui-bench >/dev/null; then
	rm -f /tmp/tui-bench.txt
	tmux -L ftgbench new-session -d -x 120 -y 40 \
		"ftg-tui-bench --bench=10 >/tmp/tui-bench.part 2>&1; mv /tmp/tui-bench.part /tmp/tui-bench.txt" ||
		fail "tmux new-session"
	wait_for 120 test -e /tmp/tui-bench.txt || fail "ftg-tui-bench --bench did not finish"
	cat /tmp/tui-bench.txt
	sed -n 's/^bench //p' /tmp/tui-bench.txt | tr ' ' '\n' | sed 's/=/ /' |
		while read -r k v; do sample tui "$k" "$v"; done
	tmux -L ftgbench kill-server 2>/dev/null
else
	log "no tmux or ftg-tui-bench: figure 7 left out"
fi

# ---- 7, real events: the TUI arms vfs_read under a read load ----------------
# What a user sees: vfs_read armed from the TUI (its own reads of the buffer
# are vfs_read calls too) while dd runs 100,000 one-byte reads over and
# over. Key latency is the guest-clock time from sending a key until the
# screen shows its answer; --stats gives refreshes/s, events/s, CPU, RSS.
tui_screen() { tmux -L ftgbench capture-pane -p -t tui 2>/dev/null; }
tui_shows() { tui_screen | grep -Eq -- "$1"; }
# tui_wait SECONDS REGEX: poll the screen every 10 ms until it shows REGEX
tui_wait() {
	_end=$(( $(date +%s) + $1 ))
	until tui_shows "$2"; do
		[ "$(date +%s)" -ge "$_end" ] && { tui_screen; return 1; }
		usleep 10000
	done
}
# key_answer KEY REGEX: one sample of KEY's latency
key_answer() {
	_t0=$(now_ns)
	tmux -L ftgbench send-keys -t tui "$1"
	tui_wait 30 "$2" || fail "figure 7: key $1 not answered (/$2/)"
	sample tui_real key_ns $(( $(now_ns) - _t0 ))
}
if ! want 7; then
	:
elif command -v tmux >/dev/null && command -v ftguard-tui >/dev/null; then
	. /tests/read-load.inc
	load_ftguard
	ftguard -q check -l vfs_read || fail "figure 7: check -l vfs_read"
	rm -f /tmp/tui-real.txt
	tmux -L ftgbench new-session -d -s tui -x 80 -y 24 \
		"ftguard tui -- --refresh 250 --stats /tmp/tui-real.txt 2>/tmp/tui-real.err" ||
		fail "tmux new-session"
	tui_wait 60 ' Sites .* Live .* Map ' || fail "figure 7: no tab bar"
	tmux -L ftgbench send-keys -t tui / vfs_read Enter
	tui_wait 20 '^ vfs_read +vmlinux ' || fail "figure 7: vfs_read not listed"
	tmux -L ftgbench send-keys -t tui a
	tui_wait 20 'armed 1 site' || fail "figure 7: vfs_read not armed"
	read_load_start
	key_answer 2 'FOLLOW \(p\) \| lost [0-9]+ \| events [0-9]+'
	for r in $(seq "$REPS"); do
		key_answer '?' 'Help: Live'
		key_answer Escape 'FOLLOW \(p\)'
		key_answer 1 'FUNCTION +OWNER +ADDRESS'
		key_answer 2 'FOLLOW \(p\)'
	done
	sleep "${BENCH_TUI_SECS:-10}"	# the load runs on: the rates are over the session
	_t0=$(now_ns)
	tmux -L ftgbench send-keys -t tui q
	wait_for 30 grep -q '^bench ' /tmp/tui-real.txt || fail "figure 7: the TUI did not quit"
	wait_for 10 nothing_enabled || fail "figure 7: vfs_read still enabled after q"
	sample tui_real quit_ns $(( $(now_ns) - _t0 ))
	read_load_stop
	cat /tmp/tui-real.txt
	sed -n 's/^bench //p' /tmp/tui-real.txt | tr ' ' '\n' | sed 's/=/ /' |
		while read -r k v; do sample tui_real "$k" "$v"; done
	sample tui_real lost "$(sed -n 's/^events: .*, \([0-9]*\) lost$/\1/p' /tmp/tui-real.txt)"
	tmux -L ftgbench kill-server 2>/dev/null
	unload_soon ftguard || fail "figure 7: rmmod ftguard"
else
	log "no tmux or ftguard-tui: figure 7 left out"
fi

export_file "$OUT"
pass
