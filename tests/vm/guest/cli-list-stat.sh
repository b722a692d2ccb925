#!/bin/sh
# ftguard list and stat on the live kernel: list -f names the functions
# ftrace can trace and, once checked, their site state; list -e the
# kernel's events as -e takes them, without ftguard's own; stat one row
# per CPU of ftguard's buffer, whose entries grow when an arm writes and
# whose read events grow when a record reads them.
. /tests/lib.sh

cli_setup

load_ftguard
load_test_module ftg_target

run 0 ftguard list -f vfs_read
expect_eq "list -f vfs_read before any check" "vfs_read" "$(cat "$OUT")"
run 0 ftguard check -l vfs_read
run 0 ftguard list -f 'vfs_rea?'
expect_eq "list -f after check" "vfs_read  ok" "$(cat "$OUT")"
run 0 ftguard list -f 'fn_?'
expect_eq "list -f: module functions before a check" "fn_a [ftg_target]  unchecked
fn_b [ftg_target]  unchecked" "$(cat "$OUT")"
run 0 ftguard check -m ftg_target
run 0 ftguard list -f 'fn_?'
expect_eq "list -f: module functions after a check" "fn_a [ftg_target]  ok
fn_b [ftg_target]  ok" "$(cat "$OUT")"
run 1 ftguard list -f 'no_such_function_*'
err_has "no function matches"

run 0 ftguard list -e sched
grep -qx 'sched:sched_switch' "$OUT" || { cat "$OUT"; fail "list -e sched lacks sched:sched_switch"; }
run 0 ftguard list -e
grep -q '^ftguard:' "$OUT" && fail "list -e lists ftguard's own events"
grep -qx 'sched:sched_switch' "$OUT" || fail "list -e lacks sched:sched_switch"
run 2 ftguard list -e no_such_system
err_has "no event system 'no_such_system'"

cpus=$(grep -c '^processor' /proc/cpuinfo)
entries() { awk -v c="$1" '$1 == c { print $2 }' "$OUT"; }
run 0 ftguard reset
run 0 ftguard stat
cat "$OUT"
expect_eq "stat header" "CPU ENTRIES OVERRUN COMMIT-OVERRUN BYTES DROPPED READ" "$(head -n 1 "$OUT" | tr -s ' ')"
expect_eq "stat rows" "$cpus" "$(( $(wc -l < "$OUT") - 1 ))"
before=$(awk 'NR > 1 { n += $2 } END { print n }' "$OUT")
run 0 ftguard start -l fn_a
echo 50 > $T
run 0 ftguard stop
run 0 ftguard stat
cat "$OUT"
after=$(awk 'NR > 1 { n += $2 } END { print n }' "$OUT")
log "entries before $before, after $after"
[ "$after" -ge $(( before + 50 )) ] || fail "stat: entries went from $before to $after over 50 fn_a hits"
read_before=$(awk 'NR > 1 { n += $7 } END { print n }' "$OUT")
run 0 ftguard extract -o x.dat
run 0 ftguard stat
read_after=$(awk 'NR > 1 { n += $7 } END { print n }' "$OUT")
log "read events before $read_before, after $read_after"
[ "$read_after" -ge $(( read_before + 50 )) ] || fail "stat: read events went from $read_before to $read_after over an extract"

rm -f x.dat
rmmod ftg_target || fail "rmmod ftg_target"
unload_ftguard
pass
