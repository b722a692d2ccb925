#!/bin/sh
# Module churn against concurrent control traffic, on the kernel where a
# freed module's text is the first place the next module or ioremap goes.
#
# A fixed number of rounds: each round loads and removes three test modules
# (ftg_target; ftg_initwait with its init held for HOLD_MS, which keeps it
# COMING long enough to be hit; ftg_other). Meanwhile 8 workers loop over
# select-module / arm / check / disarm-or-close on those modules. After
# every rmmod no test module is loaded, so nothing may be armed:
# enabled_functions must be empty and the removed module must have no site
# left. At the end the counters must prove that the collisions happened:
# arms accepted while a module was COMING, arms refused, armed sites
# disarmed by a GOING notifier. ftguard must never have killed itself.
. /tests/lib.sh

ROUNDS=25
WORKERS=8
HOLD_MS=60
MODULES="ftg_target ftg_initwait ftg_other"
run=/tmp/churn
rm -rf "$run"
mkdir -p "$run"
status_field() { awk -v k="$1" '$1 == k { print $2 }' "$FTG_DEBUGFS/status"; }

cleanup() {
	touch "$run/stop"
	wait
	for m in $MODULES; do module_loaded "$m" && rmmod "$m"; done
	module_loaded ftguard && rmmod ftguard
	return 0
}
trap cleanup EXIT

load_ftguard
echo 8192 >"$FTG_INSTANCE/buffer_size_kb" || fail "cannot grow the instance buffer"
echo >"$FTG_INSTANCE/trace"
sites_before=$(status_field sites)

# ctl CMD...: one command on fd 3; logs "CMD result" (ok or the errno name)
ctl() {
	if echo "$*" >&3 2>/dev/null; then
		r=ok
	else
		read -r _ r _ <&3 || r=noresponse
	fi
	echo "$1 $r" >>"$wlog"
	[ "$r" = ok ]
}

worker() {
	w=$1
	wlog=$run/worker-$w.log
	i=0
	while [ ! -e "$run/stop" ]; do
		i=$(( i + 1 ))
		set -- $MODULES
		shift $(( (w + i) % 3 ))
		exec 3<>"$FTG_DEBUGFS/control" || { echo "open failed" >>"$wlog"; continue; }
		if ! ctl select-module "$1"; then
			exec 3>&-
			# Not loaded: give the CPU to the insmod/rmmod loop.
			usleep 2000
			continue
		fi
		if ctl arm; then
			ctl check
			# Half the workers disarm by command, half by closing the fd.
			[ $(( w % 2 )) = 0 ] && ctl disarm
		fi
		exec 3>&-
	done
}

w=0
while [ "$w" -lt "$WORKERS" ]; do
	worker "$w" &
	w=$(( w + 1 ))
done

# audit MODULE: right after its rmmod, with no test module loaded
audit() {
	n=$(wc -l <"$TRACEFS_ENABLED")
	if [ "$n" != 0 ]; then
		cat "$TRACEFS_ENABLED"
		fail "round $round: $n functions enabled after rmmod $1 with no test module loaded"
	fi
	left=$(awk -v m="$1" '$4 == m' "$FTG_DEBUGFS/sites" | wc -l)
	[ "$left" = 0 ] || fail "round $round: $left sites of $1 left after rmmod"
}
TRACEFS_ENABLED=/sys/kernel/tracing/enabled_functions

# rmmod_retry MODULE: a worker holding no reference cannot block it for
# long; "in use" is retried, anything else fails.
rmmod_retry() {
	wait_for 10 rmmod "$1" 2>/dev/null || fail "round $round: rmmod $1 failed for 10 s"
}

round=0
while [ "$round" -lt "$ROUNDS" ]; do
	round=$(( round + 1 ))
	for m in $MODULES; do
		case "$m" in
		ftg_initwait) insmod "/lib/ftguard/test/$m.ko" hold_ms=$HOLD_MS ;;
		*) insmod "/lib/ftguard/test/$m.ko" ;;
		esac || fail "round $round: insmod $m failed"
		rmmod_retry "$m"
		audit "$m"
	done
done
touch "$run/stop"
wait
trap - EXIT

expect_eq "killed" 0 "$(status_field killed)"
expect_eq "armed at the end" 0 "$(status_field armed)"
expect_eq "sites at the end" "$sites_before" "$(status_field sites)"

cat "$run"/worker-*.log | sort | uniq -c | sed 's/^/# worker results: /'
arms_ok=$(cat "$run"/worker-*.log | grep -c '^arm ok$')
arms_refused=$(cat "$run"/worker-*.log | grep '^arm ' | grep -vc '^arm ok$')
log "arms accepted $arms_ok, refused $arms_refused"

trace=$run/trace.txt
cat "$FTG_INSTANCE/trace" >"$trace"
grep -q 'LOST\|overrun' "$trace" && log "warning: the trace lost events"
# Arms accepted while a test module was COMING (between its coming and live
# events), and disarms done by a GOING notifier (an arm armed=0 event among
# the site drops of a going module: all of it runs under ftguard's lock).
set -- $(awk '
	/ module: name=/ {
		split($0, a, "state="); split(a[2], b, " "); st = b[1]
		coming = (st == "coming"); going = (st == "going"); next
	}
	/ site: .*action=drop reason=going/ { next }
	/ arm: .*armed=1/ { if (coming) arm_coming++; going = 0; next }
	/ arm: .*armed=0/ { if (going) going_disarm++; going = 0; next }
	/ site: / { going = 0 }
	END { print arm_coming + 0, going_disarm + 0 }' "$trace")
arm_coming=$1 going_disarm=$2
log "arms during COMING $arm_coming, GOING disarms $going_disarm, rounds $ROUNDS, insmod/rmmod $(( ROUNDS * 3 ))"
printf 'rounds %s\nworkers %s\narms_ok %s\narms_refused %s\narm_during_coming %s\ngoing_disarms %s\n' \
	"$ROUNDS" "$WORKERS" "$arms_ok" "$arms_refused" "$arm_coming" "$going_disarm" >"$run/counters.txt"
cat "$run"/worker-*.log | sort | uniq -c >>"$run/counters.txt"
export_file "$run/counters.txt"
[ "$arm_coming" -gt 0 ] || fail "no arm landed while a module was COMING: the race was not exercised"
[ "$arms_refused" -gt 0 ] || fail "no arm was refused: the race was not exercised"
[ "$going_disarm" -gt 0 ] || fail "no armed site was disarmed by GOING: the race was not exercised"
unload_ftguard
pass
