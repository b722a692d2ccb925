#!/bin/sh
# Benchmarks for tests/bench/run, one boot, side by side in that boot.
# Writes raw samples "<figure> <key> <value>" to bench.txt (exported); the
# host computes medians, spread and ratios. Absolute times under TCG mean
# little: only ratios of runs in this same boot are reported.
. /tests/lib.sh

REPS=${BENCH_REPS:-5}
LOOP=${BENCH_LOOP:-50000}	# one-byte dd: 2 syscalls per iteration
HITS=${BENCH_HITS:-20000}	# fn_a calls per trigger write
REC_HITS=${BENCH_REC_HITS:-20000}
TRIG=/sys/kernel/debug/ftg_target/trigger
OUT=/tmp/bench.txt
: >"$OUT"
cd /tmp || fail "cd /tmp"

exec 3>&-
cleanup() {
	exec 3>&- 2>/dev/null
	echo nop >"$FTG_TRACEFS/current_tracer" 2>/dev/null
	echo >"$FTG_TRACEFS/set_ftrace_filter" 2>/dev/null
	ftguard stop >/dev/null 2>&1
	tmux -L ftgbench kill-server 2>/dev/null
	for m in ftg_target ftguard; do
		module_loaded $m && rmmod $m
	done
	return 0
}
trap cleanup EXIT

# busybox date has no %N: the hrtimer clock's "now" in /proc/timer_list is
# monotonic with ns resolution (its read costs the same in every variant).
now_ns() { awk '/^now at / { print $3; exit }' /proc/timer_list; }
sample() { echo "$1 $2 $3" >>"$OUT"; log "$1 $2 $3"; }
# timed FIGURE KEY CMD...: one sample of CMD's wall time in ns
timed() {
	_fig=$1 _key=$2
	shift 2
	_t0=$(now_ns)
	"$@" || fail "$_fig/$_key: '$*' failed"
	_t1=$(now_ns)
	sample "$_fig" "$_key" $((_t1 - _t0))
}
[ -n "$(now_ns)" ] || skip "no 'now at' line in /proc/timer_list"

syscall_loop() { dd if=/dev/zero of=/dev/null bs=1 count="$LOOP" 2>/dev/null; }
trigger() { echo "$1" >"$TRIG"; }
sample meta reps "$REPS"
sample meta loop "$LOOP"
sample meta hits "$HITS"

# ---- 1: disarmed cost -----------------------------------------------------
# Baselines before and after the loaded runs, so drift shows as spread.
for r in $(seq "$REPS"); do timed disarmed base syscall_loop; done
load_ftguard
ftguard -q check >/dev/null 2>&1	# admits and checks every site
sample disarmed sites "$(awk '$1 == "sites" { print $2 }' "$FTG_DEBUGFS/status")"
grep -q '^armed 0$' "$FTG_DEBUGFS/status" || fail "armed after check"
for r in $(seq "$REPS"); do timed disarmed loaded syscall_loop; done
unload_ftguard
for r in $(seq "$REPS"); do timed disarmed base syscall_loop; done

# ---- 5: check cost ------------------------------------------------------
# First check of a fresh module admits the vmlinux candidates too.
load_ftguard
timed check first eval 'ftguard -q check >/dev/null; sample check first_status $?'
sample check sites "$(awk '$1 == "sites" { print $2 }' "$FTG_DEBUGFS/status")"
for r in $(seq "$REPS"); do
	timed check ftguard eval 'ftguard -q check >/dev/null || true'
	timed check kernel_aff eval "cat $FTG_TRACEFS/available_filter_functions >/dev/null"
	exec 3<>"$FTG_DEBUGFS/control"
	timed check control_only eval 'echo check >&3'
	sample check module_ms "$(sed -n 's/^result [a-z]* [0-9]* [0-9]* \([0-9]*\).*/\1/p' <&3)"
	exec 3>&-
done

# ---- 2: per-hit cost ----------------------------------------------------
load_test_module ftg_target
enabled() { awk '{ print $1, $2 }' "$FTG_TRACEFS/enabled_functions" | sort; }
for r in $(seq "$REPS"); do
	timed perhit base trigger "$HITS"

	ftguard -q start -l 'ftg_target:fn_a' >/dev/null || fail "ftguard start fn_a"
	enabled >/tmp/en-ftguard.txt
	timed perhit ftguard trigger "$HITS"
	ftguard -q stop >/dev/null || fail "ftguard stop"

	echo fn_a >"$FTG_TRACEFS/set_ftrace_filter" || fail "set_ftrace_filter"
	echo function >"$FTG_TRACEFS/current_tracer" || fail "current_tracer"
	enabled >/tmp/en-kernel.txt
	timed perhit kernel trigger "$HITS"
	echo nop >"$FTG_TRACEFS/current_tracer"
	echo >"$FTG_TRACEFS/set_ftrace_filter"
	cmp -s /tmp/en-ftguard.txt /tmp/en-kernel.txt ||
		fail "enabled_functions differ: ftguard '$(cat /tmp/en-ftguard.txt)' kernel '$(cat /tmp/en-kernel.txt)'"
done
sample perhit enabled "$(cat /tmp/en-kernel.txt | tr ' ' '_')"

# ---- 3 and 4: record throughput and start-up ----------------------------
# events: fn_a lines in the file; lost: calls made minus events recorded.
count_fn_a() { trace-cmd report -i "$1" 2>/dev/null | grep -c 'fn_a'; }
rec_ftguard() {
	ftguard -q record --no-progress -l 'ftg_target:fn_a' -b 1024 -o fg.dat -- sh -c "echo $1 > $TRIG" >/dev/null 2>&1
}
rec_tracecmd() {
	trace-cmd record -p function -l fn_a -b 1024 -o tc.dat sh -c "echo $1 > $TRIG" >/dev/null 2>&1
}
for r in $(seq "$REPS"); do
	timed record ftguard_ns rec_ftguard "$REC_HITS"
	sample record ftguard_events "$(count_fn_a fg.dat)"
	timed record tracecmd_ns rec_tracecmd "$REC_HITS"
	sample record tracecmd_events "$(count_fn_a tc.dat)"
	timed startup ftguard rec_ftguard 1
	timed startup tracecmd rec_tracecmd 1
done
sample record calls "$REC_HITS"
rm -f fg.dat tc.dat

# ---- 6: arm cost ----------------------------------------------------------
# Cold functions: the ACPICA interpreter (runs only when AML is evaluated)
# and the test module's own.
awk '$2 == "ok" && ($7 ~ /^acpi_(ut|ps|ex|ns|ds|tb|rs)_/ || $4 == "ftg_target") { print $1, $7 }' \
	"$FTG_DEBUGFS/sites" >/tmp/cold.txt
ncold=$(wc -l </tmp/cold.txt)
sample arm cold_sites "$ncold"
arm_n() { # arm_n N: select the first N cold sites through one control fd
	head -n "$1" /tmp/cold.txt | awk '{ printf "%s%s", (NR % 10 == 1 ? "select " : " "), $1 } NR % 10 == 0 { print "" } END { if (NR % 10) print "" }' >/tmp/sel.txt
	exec 3<>"$FTG_DEBUGFS/control"
	cat /tmp/sel.txt >&3 || fail "select $1: $(cat <&3)"
	timed arm "ftguard_$1" eval 'echo "arm force" >&3'
	timed arm "disarm_$1" eval 'echo disarm >&3'
	exec 3>&-
	head -n "$1" /tmp/cold.txt | awk '{ print $2 }' >/tmp/names.txt
	cat /tmp/names.txt >"$FTG_TRACEFS/set_ftrace_filter" || fail "set_ftrace_filter $1"
	timed arm "kernel_$1" eval "echo function >$FTG_TRACEFS/current_tracer"
	sample arm "kernel_enabled_$1" "$(wc -l <"$FTG_TRACEFS/enabled_functions")"
	timed arm "kernel_off_$1" eval "echo nop >$FTG_TRACEFS/current_tracer"
	echo >"$FTG_TRACEFS/set_ftrace_filter"
}
for r in $(seq "$REPS"); do
	for n in 1 100 1000; do
		[ "$n" -le "$ncold" ] && arm_n "$n"
	done
done

# ---- 7: TUI ---------------------------------------------------------------
export PATH=$PATH:/usr/libexec
if command -v tmux >/dev/null && command -v ftguard-tui >/dev/null; then
	rm -f /tmp/tui-bench.txt
	tmux -L ftgbench new-session -d -x 120 -y 40 \
		"ftguard-tui --bench=10 >/tmp/tui-bench.part 2>&1; mv /tmp/tui-bench.part /tmp/tui-bench.txt" ||
		fail "tmux new-session"
	wait_for 120 test -e /tmp/tui-bench.txt || fail "ftguard-tui --bench did not finish"
	cat /tmp/tui-bench.txt
	sed -n 's/^bench //p' /tmp/tui-bench.txt | tr ' ' '\n' | sed 's/=/ /' |
		while read -r k v; do sample tui "$k" "$v"; done
	tmux -L ftgbench kill-server 2>/dev/null
else
	log "no tmux or ftguard-tui: figure 7 left out"
fi

export_file "$OUT"
pass
