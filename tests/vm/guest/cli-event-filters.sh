#!/bin/sh
# Event filters, both kinds. In the kernel: record -e sched:sched_switch
# -f 'prev_pid == 0' records only the switches away from the idle task
# (trace-cmd report and ftguard report agree) and clears the filter at
# the end; a filter the kernel refuses ends record and start with exit 2
# and the kernel's message, before anything is armed, and leaves no
# filter behind; start -f stays until stop clears it. In the file:
# report -F 'func: ip == "vfs_read" && common_pid != 1', -v and --cpu select
# on a real recording what they say (counted in the unfiltered report:
# trace-cmd 3.1's own report -F ignores some filters it does not like,
# 'function: common_pid != 1' among them, so it is no reference).
. /tests/lib.sh

cli_setup
load_ftguard

SW=$FTG_INSTANCE/events/sched/sched_switch
# A system's filter file only ever reads "### global filter ###" and help:
# a filter set on it is seen in each of its events' files.
set_filters() { cat "$FTG_INSTANCE"/events/$1/*/filter | grep -vc '^none$'; }
no_filter() {
	expect_eq "$1: sched_switch filter" none "$(cat "$SW/filter")"
	expect_eq "$1: sched events with a filter" 0 "$(set_filters sched)"
	expect_eq "$1: irq events with a filter" 0 "$(set_filters irq)"
}
not_armed() {
	ftguard status > st.txt 2>&1
	grep -q '^armed: *no$' st.txt || { cat st.txt; fail "$1: armed"; }
	expect_eq "$1: sched_switch enabled" 0 "$(cat "$SW/enable")"
}
# the prev_pid of each sched_switch line, whichever report
prev_pids() { sed -n 's/.*: sched_switch: .*prev_pid=\([0-9]*\) .*/\1/p'; }

# ---- -f in the kernel ------------------------------------------------------
run 0 ftguard record -e sched:sched_switch -f 'prev_pid == 0' -o f.dat -- sleep 0.2
no_filter "after record -f"
not_armed "after record -f"
trace-cmd report -N -i f.dat > tc.txt 2> tc.err || { cat tc.err; fail "trace-cmd report"; }
ftguard report -i f.dat > fg.txt 2> fg.err || { cat fg.err; fail "ftguard report"; }
grep -m 2 sched_switch tc.txt fg.txt
prev_pids < tc.txt > tc.pids
prev_pids < fg.txt > fg.pids
n=$(wc -l < tc.pids)
log "record -f 'prev_pid == 0': $n switches"
[ "$n" -ge 1 ] || fail "record -f: no sched_switch recorded"
expect_eq "sched_switch lines of trace-cmd report" "$n" "$(grep -c ': sched_switch: ' tc.txt)"
expect_eq "switches with prev_pid != 0 (trace-cmd report)" 0 "$(grep -vc '^0$' tc.pids)"
expect_eq "switches with prev_pid != 0 (ftguard report)" 0 "$(grep -vc '^0$' fg.pids)"
expect_eq "switches in ftguard report" "$n" "$(wc -l < fg.pids)"

# the control: without -f the same command's own switches are there
run 0 ftguard record -e sched:sched_switch -o nof.dat -- sleep 0.2
others=$(ftguard report -i nof.dat | prev_pids | grep -vc '^0$')
log "without -f: $others switches with prev_pid != 0"
[ "$others" -ge 1 ] || fail "without -f no switch away from a task: the check proves nothing"

# a filter the kernel refuses: exit 2, its message, nothing armed or left
run 2 ftguard record -e sched:sched_switch -f 'prev_pid ==' -l vfs_read -o bad.dat -- true
cat "$ERR"
err_has "the kernel refused filter 'prev_pid =='"
err_has 'parse_error: '
grep -q '^ftguard record: *\^$' "$ERR" || fail "no caret under the place: $(cat "$ERR")"
[ -e bad.dat ] && fail "a refused record left bad.dat"
not_armed "after a refused record -f"
no_filter "after a refused record -f"
run 2 ftguard record -e sched:sched_switch -f 'nosuchfield == 1' -o bad.dat -- true
err_has 'nosuchfield'
no_filter "after an unknown field"

# start -f: stays until stop; a refused one arms nothing
run 0 ftguard start -e sched:sched_switch -f 'prev_pid == 0' -e irq -f 'common_pid != 1' -l vfs_read
expect_eq "sched_switch filter after start -f" 'prev_pid == 0' "$(cat "$SW/filter")"
expect_eq "irq_handler_entry filter after start -e irq -f" 'common_pid != 1' \
	"$(cat "$FTG_INSTANCE/events/irq/irq_handler_entry/filter")"
run 0 ftguard stop
no_filter "after stop"
not_armed "after stop"
run 2 ftguard start -e sched:sched_switch -f 'prev_pid == "' -l vfs_read
err_has 'the kernel refused filter'
not_armed "after a refused start -f"
no_filter "after a refused start -f"
run 0 ftguard start -e sched -f 'common_pid != 1'
expect_eq "sched_switch filter after start -e sched -f" 'common_pid != 1' "$(cat "$SW/filter")"
run 0 ftguard reset
no_filter "after reset"

# ---- -F in the file --------------------------------------------------------
run 0 ftguard record -l vfs_read -l vfs_write -o rw.dat -- \
	dd if=/dev/zero of=/dev/null bs=1 count=200
ftguard report -i rw.dat > all.txt || fail "report"
total=$(wc -l < all.txt)
nread=$(grep ': func: vfs_read ' all.txt | grep -vc '^[^ ]*-1 ')
log "rw.dat: $total events, $nread vfs_read not of pid 1"
[ "$nread" -ge 200 ] || fail "dd's 200 reads are not in the file"
run 0 ftguard report -i rw.dat -F 'func: ip == "vfs_read" && common_pid != 1'
expect_eq "-F 'func: ip == \"vfs_read\" && common_pid != 1': lines" "$nread" "$(wc -l < "$OUT")"
expect_eq "-F: lines that are not vfs_read" 0 "$(grep -vc ': func: vfs_read ' "$OUT")"
expect_eq "-F: lines of pid 1" 0 "$(grep -c '^[^ ]*-1 ' "$OUT")"
run 0 ftguard report -i rw.dat -v -F 'func: ip == "vfs_read"'
expect_eq "-v -F: lines that are vfs_read" 0 "$(grep -c ': func: vfs_read ' "$OUT")"
expect_eq "-v -F and -F together are every event" "$total" \
	"$(( $(wc -l < "$OUT") + $(ftguard report -i rw.dat -F 'func: ip == "vfs_read"' | wc -l) ))"
[ "$(grep -c ': func: vfs_write ' "$OUT")" -ge 200 ] || fail "-v -F lost the vfs_write calls"
# --cpu on the switches of both CPUs (dd's calls may all be on one)
ftguard report -i nof.dat > sw.txt || fail "report nof.dat"
n1=$(grep -c ' \[001\] ' sw.txt)
log "nof.dat: $(wc -l < sw.txt) events, $n1 on CPU 1"
[ "$n1" -ge 1 ] && [ "$n1" -lt "$(wc -l < sw.txt)" ] ||
	fail "nof.dat has not events of both CPUs: --cpu would prove nothing"
run 0 ftguard report -i nof.dat --cpu 1
expect_eq "--cpu 1: lines of other CPUs" 0 "$(grep -vc ' \[001\] ' "$OUT")"
expect_eq "--cpu 1: every CPU 1 line" "$n1" "$(wc -l < "$OUT")"
run 0 ftguard report -i nof.dat --cpu 0-3,6
expect_eq "--cpu 0-3,6: every event of this 2-CPU guest" "$(wc -l < sw.txt)" "$(wc -l < "$OUT")"
run 2 ftguard report -i rw.dat --cpu 3-1
err_has 'range 3-1 runs backwards'
run 2 ftguard report -i rw.dat -F 'ip == "vfs_read" && nosuch == 1'
err_has "unknown field 'nosuch'"
[ -s "$OUT" ] && fail "a refused -F printed events"

rm -f f.dat nof.dat rw.dat tc.* fg.* all.txt sw.txt st.txt
unload_ftguard
pass
