#!/bin/sh
# Arming fn_a: fn_b(N) gives hits == N exactly and N ftguard:func events
# with parent fn_b; N fills more than 3 ring-buffer pages. The events'
# ways into the instance (kmod/ftg_trace.c): most straight into the ring
# buffer, with the comm and context the kernel's own event path records;
# a filter on the event and tracing_on 0 are obeyed; ftguard:func enabled
# in the top-level instance too gets its events there as well.
. /tests/lib.sh

# Leave the system as found, also when a check fails half-way.
kmod_setup ftg_target ftg_other

N=3000

load_ftguard
load_test_module ftg_target
fn_a=$(site_field fn_a 1)
[ -n "$fn_a" ] || fail "no fn_a site"

exec 3<>"$FTG_DEBUGFS/control"
echo "select $fn_a" >&3 || fail "select: $(cat <&3)"
echo arm >&3 || fail "arm refused: $(cat <&3)"
expect_eq "arm response" ok "$(cat <&3)"
expect_eq "fn_a state" armed "$(site_field fn_a 2)"
grep -q '^armed 1$' "$FTG_DEBUGFS/status" || fail "status not armed"
grep -q "^owner $$ " "$FTG_DEBUGFS/status" || fail "owner: $(grep ^owner "$FTG_DEBUGFS/status")"
grep -q '^fn_a \[ftg_target\]' "$FTG_TRACEFS/enabled_functions" ||
	fail "fn_a not in enabled_functions"
expect_eq "enabled_functions lines" 1 "$(wc -l < "$FTG_TRACEFS/enabled_functions")"

# The armed site is a call to an ftrace trampoline: which one, by kallsyms?
echo check >&3 || fail "check while armed: $(cat <&3)"
prologue=$(cat <&3 | awk -v a="$fn_a" '($1 "") == (a "") { print $5 }')
ftg_split_prologue "$prologue" || fail "armed fn_a prologue: $prologue"
bytes=$site
case "$bytes" in e8*) ;; *) fail "armed fn_a bytes: $prologue" ;; esac
rel=$((0x${bytes:8:2}${bytes:6:2}${bytes:4:2}${bytes:2:2}))
[ $rel -ge $((0x80000000)) ] && rel=$((rel - 0x100000000))
target=$(printf '%x' $((fn_a + 5 + rel)))
sym=$(grep "^$target " /proc/kallsyms)
log "armed fn_a: $bytes -> $sym"
case "$sym" in *" ftrace_trampoline"*) ;; *) fail "armed fn_a calls $target, not an ftrace_trampoline" ;; esac

echo "$N" > /sys/kernel/debug/ftg_target/trigger || fail "trigger"
expect_eq "fn_a hits" "$N" "$(site_field fn_a 5)"
expect_eq "fn_b hits (not armed)" 0 "$(site_field fn_b 5)"
trace=$FTG_INSTANCE/trace
grep ' func: ' "$trace" | head -n 3 > /tmp/func-head.txt
export_file /tmp/func-head.txt
expect_eq "func events" "$N" "$(grep -c ' func: ip=fn_a \[ftg_target\] parent=fn_b \[ftg_target\]$' "$trace")"
expect_eq "func events with another parent" 0 "$(grep ' func: ' "$trace" | grep -vc 'parent=fn_b \[ftg_target\]$')"
pages=0
for s in "$FTG_INSTANCE"/per_cpu/cpu*/stats; do
	b=$(awk '/^bytes:/ { print $2 }' "$s")
	pages=$(( pages > b / 4096 ? pages : b / 4096 ))
done
log "most bytes on one CPU: $pages pages"
[ "$pages" -ge 3 ] || fail "events filled only $pages pages"

# Most of the N went the fast way, and at least the first the slow one.
fast=$(status events_fast)
slow=$(status events_slow)
log "events: $fast fast, $slow slow, $(status events_shared) shared"
[ "$fast" -ge $((N / 2)) ] || fail "only $fast of $N events fast"
[ "$slow" -ge 1 ] || fail "no slow-path event"
# The trace names the task (its comm was saved), never "<...>".
expect_eq "func events of an unnamed task" 0 "$(grep ' func: ' "$trace" | grep -c '<\.\.\.>')"
# So does it for a task that comes after the first (a new one on a CPU).
sh -c 'echo $$ > /tmp/child.pid; echo 50 > /sys/kernel/debug/ftg_target/trigger'
child=$(cat /tmp/child.pid)
expect_eq "func events of the second task" 50 "$(grep ' func: ' "$trace" | grep -c -- "-$child ")"
expect_eq "func events of the second task, unnamed" 0 "$(grep ' func: ' "$trace" | grep -- "-$child " | grep -c '<\.\.\.>')"
# Both ways record the same context: irqs-off, preempt depth and
# migrate-disable (the latency columns 1, 4, 5) are one value for all N.
ctx=$(grep ' func: ' "$trace" | awk '{ for (i = 1; i <= NF; i++) if ($i ~ /^\[[0-9]+\]$/) { f = $(i + 1); print substr(f, 1, 1) substr(f, 4, 2); break } }' | sort -u)
log "context columns: $(echo $ctx)"
expect_eq "distinct contexts of the fast and slow events" 1 "$(echo "$ctx" | wc -l)"

count_func() { grep -c ' func: ' "$1"; }
# A filter on the event in the instance: nothing it rejects gets in.
echo 'parent_ip == 0' > "$FTG_INSTANCE/events/ftguard/func/filter" || fail "set filter"
before=$(count_func "$trace")
echo 100 > /sys/kernel/debug/ftg_target/trigger
expect_eq "func events through a filter rejecting all" "$before" "$(count_func "$trace")"
echo 0 > "$FTG_INSTANCE/events/ftguard/func/filter" || fail "clear filter"
echo 100 > /sys/kernel/debug/ftg_target/trigger
expect_eq "func events with the filter cleared" $((before + 100)) "$(count_func "$trace")"

# Enabled in the top-level instance too: both get every event.
echo > "$FTG_TRACEFS/trace"
echo 1 > "$FTG_TRACEFS/events/ftguard/func/enable" || fail "enable top-level func"
shared=$(status events_shared)
before=$(count_func "$trace")
echo 100 > /sys/kernel/debug/ftg_target/trigger
echo 0 > "$FTG_TRACEFS/events/ftguard/func/enable"
expect_eq "func events in the top-level instance" 100 "$(count_func "$FTG_TRACEFS/trace")"
expect_eq "func events in ftguard's instance beside it" $((before + 100)) "$(count_func "$trace")"
expect_eq "events through the tracepoint" $((shared + 100)) "$(status events_shared)"
echo > "$FTG_TRACEFS/trace"

# tracing_on 0 in the instance: no event; back on, the fast way again.
echo 0 > "$FTG_INSTANCE/tracing_on"
before=$(count_func "$trace")
echo 100 > /sys/kernel/debug/ftg_target/trigger
expect_eq "func events while tracing_on is 0" "$before" "$(count_func "$trace")"
echo 1 > "$FTG_INSTANCE/tracing_on"
fast=$(status events_fast)
echo 100 > /sys/kernel/debug/ftg_target/trigger
expect_eq "func events with tracing_on back" $((before + 100)) "$(count_func "$trace")"
[ "$(status events_fast)" -gt "$fast" ] || fail "no fast event after tracing_on 1"
expect_eq "fn_a hits" $((N + 550)) "$(site_field fn_a 5)"
N=$((N + 550))

# a manual verify of the armed site passes and does not kill
echo verify >&3 || fail "verify: $(cat <&3)"
grep -q '^killed 0$' "$FTG_DEBUGFS/status" || fail "verify killed"

echo disarm >&3 || fail "disarm"
expect_eq "enabled_functions after disarm" 0 "$(wc -l < "$FTG_TRACEFS/enabled_functions")"
expect_eq "fn_a hits kept after disarm" "$N" "$(site_field fn_a 5)"
expect_eq "fn_a state after disarm" ok "$(site_field fn_a 2)"
echo 5 > /sys/kernel/debug/ftg_target/trigger
expect_eq "fn_a hits while disarmed" "$N" "$(site_field fn_a 5)"
exec 3>&-
rmmod ftg_target || fail "rmmod ftg_target"
unload_ftguard
pass
