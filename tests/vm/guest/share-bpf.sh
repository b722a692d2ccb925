#!/bin/sh
# A BPF fentry program on vfs_read (tests/bpf, built with clang -target bpf
# and libbpf, run by ftg-bpf-fentry) joins and leaves while ftguard is
# armed there, in both orders: ftguard counts every one of a known number
# of reads, is never killed, the program keeps counting (its map's counter
# grows by as much), and `sites` and `check` name it by its name and id
# (the kernel's BPF objects, through libbpf). Alone on the site,
# the call goes into the program's BPF trampoline, which ftrace records
# as the site's direct trampoline (enabled_functions' "direct-->"), and
# check is consistent on that word alone: no trampoline is accepted for
# its name. ftguard's instance says each change of who is on the armed
# site, as a verify finds it: alone when the program left, shared (the
# list caller) when it joined; an arm beside it says nothing.
. /tests/lib.sh

OBJ=/lib/ftguard/test/fentry-count.bpf.o
READY=/tmp/share-bpf.ready
READS=1000
# site events counted by action (the instance's trace is not read while
# vfs_read is armed: see share-kprobe)
SITE_HIST='hist:keys=action'
SITE_TRIGGER=$FTG_INSTANCE/events/ftguard/site/trigger
cli_setup "rm -f $READY; echo '!$SITE_HIST' >> $SITE_TRIGGER"
[ -e "$OBJ" ] && command -v ftg-bpf-fentry >/dev/null ||
	fail "the BPF fentry program was not built (tests/bpf, see bpf.log in the VM work dir)"
[ -e /sys/kernel/btf/vmlinux ] || fail "no /sys/kernel/btf/vmlinux: this kernel cannot attach fentry"
load_ftguard
echo "$SITE_HIST" > "$SITE_TRIGGER" || fail "hist trigger on ftguard:site"
said() {
	awk -v a="$1" '$1 == "{" && $2 == "action:" && $3 == a { n = $6 }
		END { print n + 0 }' "${SITE_TRIGGER%trigger}hist"
}
# sharing_said WHAT SHARED ALONE: the site events said so far
sharing_said() { expect_eq "sharing events ($1)" "$2 $3" "$(said shared) $(said alone)"; }
site_lines() { grep " site: ip=[^ ]* name=vfs_read action=$1 " "$FTG_INSTANCE/trace"; }
verified_past() { [ "$(status verify_runs)" -gt "$1" ]; }
# a_cycle: wait until the periodic verify re-checked every armed site once
# more (bounded by the cycle, plus the work queue's latency)
a_cycle() {
	_r=$(status verify_runs)
	wait_for $(( $(status verify_cycle_ms) / 1000 + 3 )) verified_past \
		$(( _r + $(status verify_cycle_ms) / $(status verify_period_ms) )) ||
		fail "the verify does not run"
}

hits() { site_field vfs_read 5 vmlinux; }
hits_above() { [ "$(hits)" -gt "$1" ]; }
bpf_count() { ftg-bpf-fentry --count "$MAP_ID"; }
# reads: $READS read() calls of one byte, each one vfs_read
reads() {
	dd if=/dev/zero of=/dev/null bs=1 count=$READS 2>/dev/null || fail "dd"
}
# counted WHAT CMD: CMD's number grows by at least $READS across reads()
counted() {
	_what=$1
	shift
	_a=$("$@")
	reads
	_b=$("$@")
	[ $((_b - _a)) -ge $READS ] ||
		fail "$_what counted $((_b - _a)) of $READS reads ($_a -> $_b)"
	log "$_what counted $((_b - _a)) >= $READS"
}
not_killed() { expect_eq "killed ($1)" 0 "$(status killed)"; }
bpf_join() {
	rm -f $READY
	ftg-bpf-fentry "$OBJ" $READY &
	BPF_PID=$!
	bg_track $BPF_PID
	wait_for 20 test -s $READY || fail "the BPF program did not attach"
	read -r PROG_ID MAP_ID < $READY
	log "BPF program id $PROG_ID, map id $MAP_ID"
}
bpf_leave() {
	kill -TERM $BPF_PID
	wait $BPF_PID || fail "the BPF loader did not detach cleanly"
	grep -q 'bpf_trampoline_' "$FTG_TRACEFS/enabled_functions" &&
		fail "the BPF trampoline is still there: $(cat "$FTG_TRACEFS/enabled_functions")"
	return 0
}
# check first: it offers vfs_read to ftguard.ko, which then lists it
bpf_named() {
	run 0 ftguard check -l vfs_read
	out_has 'consistent'
	out_has "  shared: vfs_read with BPF ftg_bpf_read (id $PROG_ID)"
	run 0 ftguard sites -l vfs_read -v
	cat "$OUT"
	out_has "shared with: BPF ftg_bpf_read (id $PROG_ID)$"
	run 0 ftguard sites --shared
	out_has ' vfs_read$'
}
nobody_named() {
	run 0 ftguard sites -l vfs_read -v
	grep -q 'shared with' "$OUT" && fail "still shared once the program left: $(cat "$OUT")"
	return 0
}

# 1. The BPF program first, alone on the site: its trampoline is the
# site's direct call, as enabled_functions says.
bpf_join
counted "the BPF program" bpf_count
log "enabled_functions with the BPF program alone:"
grep -A 1 '^vfs_read ' "$FTG_TRACEFS/enabled_functions"
grep -A 1 '^vfs_read ' "$FTG_TRACEFS/enabled_functions" | grep -q 'direct-->bpf_trampoline_' ||
	fail "enabled_functions names no BPF trampoline on vfs_read: $(cat "$FTG_TRACEFS/enabled_functions")"
bpf_named
# ftguard joins, then the program leaves, while ftguard counts
run 0 ftguard start -l vfs_read
wait_for 10 hits_above 0 || fail "no hits while armed beside the BPF program"
counted "ftguard beside the BPF program" hits
counted "the BPF program beside ftguard" bpf_count
log "enabled_functions with both:"
grep -A 1 '^vfs_read ' "$FTG_TRACEFS/enabled_functions"
bpf_named
a_cycle
sharing_said "ftguard armed beside the BPF program" 0 0
bpf_leave
counted "ftguard once the BPF program left" hits
echo verify > "$FTG_DEBUGFS/control" || fail "verify failed with the BPF program gone"
sharing_said "the BPF program left" 0 1
nobody_named
not_killed "the BPF program left"
run 0 ftguard stop

# 2. ftguard first, then the program joins and leaves.
run 0 ftguard start -l vfs_read
counted "ftguard alone" hits
bpf_join
counted "ftguard beside the joined BPF program" hits
counted "the BPF program that joined" bpf_count
bpf_named
echo verify > "$FTG_DEBUGFS/control" || fail "verify failed with the BPF program there"
sharing_said "the BPF program joined" 1 1
not_killed "the BPF program joined"
bpf_leave
counted "ftguard once the BPF program left again" hits
echo verify > "$FTG_DEBUGFS/control" || fail "verify failed with the BPF program gone again"
sharing_said "the BPF program left again" 1 2
nobody_named
not_killed "the BPF program left again"
run 0 ftguard stop
line=$(site_lines shared)
log "$line"
case "$line" in
*" reason=calls ftrace_"*"caller: another ftrace user") ;;
*) fail "shared, but not by the list caller: '$line'" ;;
esac
[ "$(site_lines alone | grep -c " reason=calls ftguard's own trampoline: no other ftrace user$")" = 2 ] ||
	fail "alone, but not by ftguard's trampoline: $(site_lines alone)"
echo "!$SITE_HIST" >> "$SITE_TRIGGER" || fail "remove the hist trigger"
unload_ftguard
pass
