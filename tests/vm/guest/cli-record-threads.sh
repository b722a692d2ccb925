#!/bin/sh
# Threads of one process: ftguard record keeps each thread's pid and the
# process (tgid) they share; trace-cmd report shows every thread, the CSV
# export gives each row its thread and process, and the Chrome export
# puts each thread's events on its own track under that process.
. /tests/lib.sh

cli_setup

threads=/usr/bin/ftg-vm-threads
[ -x "$threads" ] || skip "no $threads in the guest (tests/unit/vm-threads, built by make check)"
load_ftguard
load_test_module ftg_target

NTHREADS=3 CALLS=7
run 0 ftguard -q record -l ftg_target:fn_a -o thr.dat -- "$threads" "$T" $NTHREADS $CALLS
pid=$(awk '$1 == "pid" { print $2 }' "$OUT")
tids=$(awk '$1 == "tid" { print $2 }' "$OUT")
log "process $pid, threads" $tids
expect_eq "threads that wrote" $NTHREADS "$(echo $tids | wc -w)"

trace-cmd report -i thr.dat > thr.txt 2>&1 || { cat thr.txt; fail "trace-cmd report"; }
export_file thr.txt
ftguard export -i thr.dat -f csv -o thr.csv || fail "export csv"
ftguard export -i thr.dat -f chrome -o thr.json || fail "export chrome"
# "pid tgid" of each fn_a row (the columns found by the header)
tr -d '\r' < thr.csv | awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
	/fn_a/ { print $c["pid"], $c["tgid"] }' > thr.rows
tr '{' '\n' < thr.json | grep '"fn_a' > thr.chrome
for tid in $tids; do
	[ "$tid" != "$pid" ] || fail "thread $tid is the process itself"
	expect_eq "trace-cmd: fn_a events of thread $tid" $CALLS \
		"$(grep -c "^ *ftg-vm-threads-$tid *\[[0-9]*\].* func: .*fn_a" thr.txt)"
	expect_eq "csv: fn_a rows of thread $tid" $CALLS \
		"$(awk -v t="$tid" '$1 == t' thr.rows | wc -l)"
	expect_eq "csv: of them, with process $pid" $CALLS \
		"$(awk -v t="$tid" -v p="$pid" '$1 == t && $2 == p' thr.rows | wc -l)"
	expect_eq "chrome: fn_a events on thread $tid's track of process $pid" $CALLS \
		"$(grep -c "\"pid\":$pid,\"tid\":$tid," thr.chrome)"
done
expect_eq "csv: fn_a rows in all" $((NTHREADS * CALLS)) "$(wc -l < thr.rows)"
expect_eq "chrome: fn_a events in all" $((NTHREADS * CALLS)) "$(wc -l < thr.chrome)"

rmmod ftg_target || fail "rmmod ftg_target"
unload_ftguard
pass
