#!/bin/sh
# The fast event path is proven at load (kmod/ftg_trace.c): on this
# kernel its events are byte for byte the kernel's, so status says
# event_path fast, and the proof's own events are not left in the trace.
# A fast path whose context word is wrong (fi_hot_ctx, fault-injection
# build) is refused: event_path kernel, the differing field as the
# reason, and the events still arrive, by the kernel's path, with the
# pid and the context the fast path wrote for the same hits.
. /tests/lib.sh

kmod_setup ftg_target

T=/sys/kernel/debug/ftg_target/trigger
trace=$FTG_INSTANCE/trace
N=200

# reason: the event_path_reason, all of it (it has spaces)
reason() { sed -n 's/^event_path_reason //p' "$FTG_DEBUGFS/status"; }

# ctx_of PID: the distinct context columns of PID's func events:
# irqs-off, hardirq/softirq, preempt depth, migrate-disable (need-resched
# depends on the moment).
ctx_of() {
	grep ' func: ' "$trace" | awk -v p="-$1" '{
		for (i = 2; i <= NF; i++)
			if ($i ~ /^\[[0-9]+\]$/) {
				t = $(i - 1)
				if (substr(t, length(t) - length(p) + 1) == p) {
					f = $(i + 1)
					print substr(f, 1, 1) substr(f, 3)
				}
				break
			}
	}' | sort -u
}

# hits NAME: arm fn_a, have a new task call it N times, disarm; sets PID
# to the task's pid.
hits() {
	exec 3<>"$FTG_DEBUGFS/control"
	echo "select $(site_ip fn_a)" >&3 || fail "select: $(cat <&3)"
	echo arm >&3 || fail "arm: $(cat <&3)"
	sh -c "echo \$\$ > /tmp/hot.pid; echo $N > $T" || fail "trigger"
	PID=$(cat /tmp/hot.pid)
	echo disarm >&3 || fail "disarm: $(cat <&3)"
	exec 3>&-
	expect_eq "$1: func events of $PID" "$N" \
		"$(grep ' func: ip=fn_a ' "$trace" | grep -c -- "-$PID ")"
	expect_eq "$1: func events of an unnamed task" 0 \
		"$(grep ' func: ' "$trace" | grep -c '<\.\.\.>')"
	CTX=$(ctx_of "$PID")
	log "$1: context columns of $PID: $(echo $CTX)"
	expect_eq "$1: distinct contexts" 1 "$(echo "$CTX" | wc -l)"
}

# 1. The module as built: proven, the fast way.
load_ftguard
log "$(grep '^event_path' "$FTG_DEBUGFS/status")"
expect_eq "event path" fast "$(status event_path)"
expect_eq "event path reason" - "$(reason)"
expect_eq "fast events after load" 0 "$(status events_fast)"
expect_eq "slow events after load" 0 "$(status events_slow)"
expect_eq "hot events the proof left in the trace" 0 \
	"$(grep -Ec ' (func|graph_entry|graph_exit|stack): ' "$trace")"
ftguard -v status >/tmp/st.txt || fail "ftguard -v status: $(cat /tmp/st.txt)"
grep -Eq '^ +event_path +fast$' /tmp/st.txt ||
	fail "ftguard -v status: $(grep event_path /tmp/st.txt)"

load_test_module ftg_target
hits fast
fast_ctx=$CTX
[ "$(status events_fast)" -ge $((N / 2)) ] ||
	fail "only $(status events_fast) of $N events fast"
rmmod ftg_target || fail "rmmod ftg_target"
unload_ftguard

# 2. A fast path that gets the context word wrong: refused at load.
insmod /lib/ftguard/fi/ftguard.ko fi_hot_ctx=1 || fail "insmod fi_hot_ctx=1"
wait_for 10 test -e "$FTG_DEBUGFS/control" || fail "no control file"
log "$(grep '^event_path' "$FTG_DEBUGFS/status")"
expect_eq "event path with a wrong context word" kernel "$(status event_path)"
case "$(reason)" in
"func, preempt-off: common_preempt_count 0x"*" fast, 0x"*" kernel") ;;
*) fail "event path reason: $(reason)" ;;
esac
dmesg | grep -q 'ftguard: fast event path refused' ||
	fail "no kernel log line for the refusal"
ftguard -v status >/tmp/st.txt || fail "ftguard -v status: $(cat /tmp/st.txt)"
grep -Eq '^ +event_path +kernel$' /tmp/st.txt ||
	fail "ftguard -v status: $(grep event_path /tmp/st.txt)"
grep -Eq '^ +event_path_reason +func, preempt-off: common_preempt_count ' /tmp/st.txt ||
	fail "ftguard -v status: $(grep event_path_reason /tmp/st.txt)"

load_test_module ftg_target
hits kernel
expect_eq "fast events when refused" 0 "$(status events_fast)"
expect_eq "events the kernel's way when refused" "$N" \
	"$(( $(status events_slow) + $(status events_shared) ))"
expect_eq "context of the kernel's events, as the fast path wrote it" \
	"$fast_ctx" "$CTX"
rmmod ftg_target || fail "rmmod ftg_target"
unload_ftguard
pass
