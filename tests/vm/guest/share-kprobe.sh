#!/bin/sh
# A kprobe (kprobe_events) and the function tracer join and leave vfs_read
# while ftguard is armed there, and ftguard was first: ftguard counts
# every hit, is never killed, the others keep working, and `sites` names
# them. In ftguard's instance a site event says "shared" when the first of
# them joins and "alone" when the last leaves, within one verify cycle,
# with no ftguard process running; `ftguard report` of a recording prints
# them.
. /tests/lib.sh

TR=$FTG_TRACEFS
SITE_HIST='hist:keys=action'
SITE_TRIGGER=$FTG_INSTANCE/events/ftguard/site/trigger
cli_setup "echo nop > $TR/current_tracer; echo > $TR/set_ftrace_filter; echo 0 > $TR/events/kprobes/enable; echo > $TR/kprobe_events; echo '!$SITE_HIST' >> $SITE_TRIGGER"
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

# Sharing, as the site events of ftguard's instance say it. Its trace is
# not read while vfs_read is armed: the instance records on while it is
# read (nopause-on-trace), and every read of it is a vfs_read event the
# read then chases. The kernel counts the site events by action instead,
# in a histogram on the event, and the trace is read once disarmed.
echo "$SITE_HIST" > "$SITE_TRIGGER" || fail "hist trigger on ftguard:site"
# said ACTION: site events of that action so far; said_more ACTION N
cat > /tmp/said.inc <<'EOS'
said() {
	awk -v a="$1" '$1 == "{" && $2 == "action:" && $3 == a { n = $6 }
		END { print n + 0 }' "$FTG_INSTANCE/events/ftguard/site/hist"
}
said_more() { [ "$(said "$1")" -gt "$2" ]; }
EOS
. /tmp/said.inc
# verify runs since load above N
verified_past() { [ "$(status verify_runs)" -gt "$1" ]; }
site_lines() { grep " site: ip=[^ ]* name=vfs_read action=$1 " "$FTG_INSTANCE/trace"; }

run 0 ftguard start -l vfs_read
wait_for 10 hits_above 0 || fail "no hits while armed"
# a change is found by the verify run that next reaches the site: within
# verify_cycle_ms, plus the work queue's latency (doc/design.md) and the poll
bound=$(( $(status verify_cycle_ms) / 1000 + 2 ))
log "sharing said within ${bound}s"
expect_eq "sharing events at arm" "0 0" "$(said shared) $(said alone)"

# the kprobe joins
echo 'p:kprobes/ftg_kp vfs_read' > "$TR/kprobe_events" || fail "kprobe_events"
echo 1 > "$TR/events/kprobes/ftg_kp/enable" || fail "enable the kprobe"
wait_for 10 kprobe_fires || fail "the kprobe does not fire beside ftguard"
wait_for "$bound" said_more shared 0 || fail "no shared site event in ${bound}s"
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
# a third user changes nothing the call shows: no second event
r=$(status verify_runs)
wait_for $(( bound + 1 )) verified_past $(( r + $(status verify_cycle_ms) / $(status verify_period_ms) )) ||
	fail "the verify does not run"
expect_eq "sharing events with a third user" "1 0" "$(said shared) $(said alone)"

# both leave: ftguard alone, still counting, never killed
echo nop > "$TR/current_tracer"
echo 0 > "$TR/events/kprobes/ftg_kp/enable"
echo > "$TR/kprobe_events"
run 0 ftguard sites -l vfs_read -v
grep -q 'shared with' "$OUT" && fail "still shared once they left: $(cat "$OUT")"
h=$(hits)
wait_for 10 hits_above "$h" || fail "hits stopped when the others left"
wait_for "$bound" said_more alone 0 || fail "no alone site event in ${bound}s"
expect_eq "sharing events" "1 1" "$(said shared) $(said alone)"
expect_eq "killed" 0 "$(status killed)"
run 0 ftguard stop
# what the call went to, in the instance's trace
line=$(site_lines shared)
log "$line"
case "$line" in
*" reason=calls ftrace_"*"caller: another ftrace user") ;;
*) fail "shared, but not by the list caller: '$line'" ;;
esac
line=$(site_lines alone)
log "$line"
case "$line" in
*" reason=calls ftguard's own trampoline: no other ftrace user") ;;
*) fail "alone, but not by ftguard's trampoline: '$line'" ;;
esac

# A recording holds them, and `ftguard report` prints them: a kprobe
# joins and leaves while `ftguard record` runs.
cat > /tmp/join-leave.sh <<'EOS'
. /tests/lib.sh
. /tmp/said.inc
echo 'p:kprobes/ftg_kp vfs_read' > "$FTG_TRACEFS/kprobe_events" || exit 1
echo 1 > "$FTG_TRACEFS/events/kprobes/ftg_kp/enable" || exit 1
wait_for "$BOUND" said_more shared 1 || exit 2
echo 0 > "$FTG_TRACEFS/events/kprobes/ftg_kp/enable"
echo > "$FTG_TRACEFS/kprobe_events"
wait_for "$BOUND" said_more alone 1 || exit 3
EOS
export BOUND=$bound
run 0 ftguard record -l vfs_read -o share.dat -- sh /tmp/join-leave.sh
run 0 ftguard report -i share.dat
grep ' site: ' "$OUT"
grep -q " site: ip=[^ ]* name=vfs_read action=shared reason=calls ftrace_.*caller: another ftrace user$" "$OUT" ||
	fail "ftguard report: no shared site event"
grep -q " site: ip=[^ ]* name=vfs_read action=alone reason=calls ftguard's own trampoline: no other ftrace user$" "$OUT" ||
	fail "ftguard report: no alone site event"
echo "!$SITE_HIST" >> "$SITE_TRIGGER" || fail "remove the hist trigger"
unload_ftguard
pass
