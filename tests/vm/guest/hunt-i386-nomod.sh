#!/bin/sh
# Control for the i386 double-fault hunt (doc/reliability.md, "Open"): the
# work of i386-00-smoke, i386-churn and i386-control-fuzz in one boot, with
# ftguard.ko never loaded. e1000e is bound with BAR0 ioremapped (smoke);
# ROUNDS rounds of insmod/rmmod of ftg_target, ftg_initwait (init held
# HOLD_MS) and ftg_other against WORKERS shell workers doing open/write/
# close on trace_marker where churn.inc's do it on ftguard's control file,
# each answer appended to a log as there (churn); then N generated lines
# written one by one to an open trace_marker, each followed by an append
# to an answers file: the openat() of the fuzz loop's shell (control-fuzz.inc).
# Not in any target's default list (tests/vm/hunt-i386 boots it).
. /tests/lib.sh

ROUNDS=25 WORKERS=8 HOLD_MS=60 N=10000 SEED=2008
MODULES="ftg_target ftg_initwait ftg_other"
SINK=/sys/kernel/tracing/trace_marker
run=/tmp/hunt
rm -rf "$run"
mkdir -p "$run"
cleanup() {
	touch "$run/stop"
	wait
	for m in $MODULES; do module_loaded "$m" && rmmod "$m"; done
	return 0
}
trap cleanup EXIT

# smoke: the NIC and its BAR0 mapping in the module range
module_loaded e1000e || fail "e1000e not loaded"
find_nic
nic_bar0_ioremap
log "cmdline: $(cat /proc/cmdline)"
log "kernel $(uname -r), BAR0 $NIC_BAR0 ioremapped at $NIC_MAP-$NIC_MAP_END"
test -w "$SINK" || fail "no $SINK"
module_loaded ftguard && fail "ftguard is loaded"

# churn: workers write where churn.inc's select-module/arm/check/disarm
worker() {
	w=$1 i=0
	wlog=$run/worker-$w.log
	while [ ! -e "$run/stop" ]; do
		i=$(( i + 1 ))
		set -- $MODULES
		shift $(( (w + i) % 3 ))
		exec 3>"$SINK" || { echo "open failed" >>"$wlog"; continue; }
		for c in "select-module $1" arm check disarm; do
			echo "$c" >&3 && echo "${c%% *} ok" >>"$wlog"
			[ -d "/sys/module/$1" ] || break
		done
		exec 3>&-
		[ -d "/sys/module/$1" ] || usleep 2000
	done
}
t0=$(date +%s)
w=0
while [ "$w" -lt "$WORKERS" ]; do
	worker "$w" &
	w=$(( w + 1 ))
done
round=0
while [ "$round" -lt "$ROUNDS" ]; do
	round=$(( round + 1 ))
	for m in $MODULES; do
		case "$m" in
		ftg_initwait) load_test_module "$m" hold_ms=$HOLD_MS ;;
		*) load_test_module "$m" ;;
		esac
		wait_for 10 rmmod "$m" 2>/dev/null || fail "round $round: rmmod $m failed for 10 s"
	done
done
touch "$run/stop"
wait
log "churn: $(( ROUNDS * 3 )) insmod/rmmod, $(cat "$run"/worker-*.log | wc -l) worker writes, $(( $(date +%s) - t0 )) s"

# fuzz: one write a line on an open file, one append a line (openat) after it
t0=$(date +%s)
awk -v n=$N -v seed=$SEED 'BEGIN { srand(seed)
	for (i = 0; i < n; i++) { s = "select"; k = 1 + int(rand() * 8)
		for (j = 0; j < k; j++) s = s sprintf(" 0x%x", 3758096384 + int(rand() * 536870912))
		print "random\t" s } }' >"$run/commands"
exec 3>"$SINK" || fail "cannot open $SINK"
while IFS= read -r rec; do
	printf '%s\n' "${rec#*	}" >&3 || fail "write to $SINK failed"
	echo "${rec%%	*} ok" >>"$run/answers"
done <"$run/commands"
exec 3>&-
expect_eq "lines written" "$N" "$(wc -l <"$run/answers")"
log "fuzz loop: $(( $(date +%s) - t0 )) s"
module_loaded ftguard && fail "ftguard got loaded"
pass
