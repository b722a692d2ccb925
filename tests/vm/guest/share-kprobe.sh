#!/bin/sh
# A kprobe (kprobe_events) and the function tracer join and leave vfs_read
# while ftguard is armed there, and ftguard was first: ftguard counts
# every hit, is never killed, the others keep working, and `sites` names
# them.
. /tests/lib.sh

TR=$FTG_TRACEFS
cli_setup "echo nop > $TR/current_tracer; echo > $TR/set_ftrace_filter; echo 0 > $TR/events/kprobes/enable; echo > $TR/kprobe_events"
load_ftguard
hits() { site_field vfs_read 5 vmlinux; }
hits_above() { [ "$(hits)" -gt "$1" ]; }
kprobe_fires() {
	echo > "$TR/trace"
	cat /proc/version > /dev/null
	grep -q 'ftg_kp:' "$TR/trace"
}
tracer_runs() {
	echo > "$TR/trace"
	cat /proc/version > /dev/null
	grep -q ' vfs_read <-' "$TR/trace"
}

run 0 ftguard start -l vfs_read
wait_for 10 hits_above 0 || fail "no hits while armed"

# the kprobe joins
echo 'p:kprobes/ftg_kp vfs_read' > "$TR/kprobe_events" || fail "kprobe_events"
echo 1 > "$TR/events/kprobes/ftg_kp/enable" || fail "enable the kprobe"
wait_for 10 kprobe_fires || fail "the kprobe does not fire beside ftguard"
run 0 ftguard sites -l vfs_read -v
out_has 'shared with: kprobe kprobes/ftg_kp'
run 0 ftguard sites --shared
out_has ' vfs_read$'
h=$(hits)
wait_for 10 hits_above "$h" || fail "hits stopped when the kprobe joined"

# the function tracer joins too
echo vfs_read > "$TR/set_ftrace_filter" || fail "set_ftrace_filter"
echo function > "$TR/current_tracer" || fail "current_tracer"
wait_for 10 tracer_runs || fail "the function tracer does not run beside ftguard"
run 0 ftguard sites -l vfs_read -v
out_has 'shared with: kprobe kprobes/ftg_kp, function tracer'
h=$(hits)
wait_for 10 hits_above "$h" || fail "hits stopped when the tracer joined"

# both leave: ftguard alone, still counting, never killed
echo nop > "$TR/current_tracer"
echo 0 > "$TR/events/kprobes/ftg_kp/enable"
echo > "$TR/kprobe_events"
run 0 ftguard sites -l vfs_read -v
grep -q 'shared with' "$OUT" && fail "still shared once they left: $(cat "$OUT")"
h=$(hits)
wait_for 10 hits_above "$h" || fail "hits stopped when the others left"
expect_eq "killed" 0 "$(status killed)"
run 0 ftguard stop
unload_ftguard
pass
