#!/bin/sh
# Scale: 4,000 admitted vmlinux sites plus every module site, checked at
# once under the lock, in bounded time and memory, all ok. Then all of
# them armed with force: more than the per-CPU allocator gives in one
# piece (4,096 counters; above that it WARNs and fails), so the counters
# come in chunks, and a site counted in the second chunk (fn_a) gets its
# hits exactly.
. /tests/lib.sh

# Leave the system as found, also when a check fails half-way.
kmod_setup ftg_target ftg_other

N=4000
mem_avail() { awk '/^MemAvailable:/ { print $2 }' /proc/meminfo; }

# candidates: traceable text symbols that are unique in kallsyms, at their
# ftrace record: the kernel lists it where it has
# available_filter_functions_addrs (after endbr64 on IBT kernels), else the
# record is the symbol's address
if [ -r "$FTG_TRACEFS/available_filter_functions_addrs" ]; then
	awk 'NR == FNR { if ($2 ~ /^[tT]$/ && NF == 3) n[$3]++; next }
	     NF == 2 && ($2 in n) && n[$2] == 1 && !($2 in seen) { seen[$2] = 1; print "admit " $2 " 0x" $1 }' \
		/proc/kallsyms "$FTG_TRACEFS/available_filter_functions_addrs"
else
	awk 'NR == FNR { if ($2 ~ /^[tT]$/ && NF == 3) { n[$3]++; a[$3] = $1 }; next }
	     ($1 in n) && n[$1] == 1 && !($1 in seen) { seen[$1] = 1; print "admit " $1 " 0x" a[$1] }' \
		/proc/kallsyms "$FTG_TRACEFS/available_filter_functions"
fi | head -n $N > /tmp/admits
expect_eq "candidates" $N "$(wc -l < /tmp/admits)"

load_ftguard
load_test_module ftg_target
exec 3<>"$FTG_DEBUGFS/control"
start=$(date +%s)
while read -r line; do
	echo "$line" >&3 2>/dev/null
done < /tmp/admits
log "admitted $(status admitted), rejected $(status rejected) in $(( $(date +%s) - start )) s"
[ "$(status admitted)" -ge $((N * 9 / 10)) ] || fail "only $(status admitted) of $N admitted"
expect_eq "admitted + rejected" $N $(( $(status admitted) + $(status rejected) ))

before=$(mem_avail)
echo check >&3 || fail "check: $(cat <&3)"
set -- $(sed -n 2p "$FTG_DEBUGFS/check")
log "check of $(status sites) sites: $*; MemAvailable $before -> $(mem_avail) kB"
expect_eq "check result" "result ok $(status sites) 0" "$1 $2 $3 $4"
[ "$5" -lt 60000 ] || fail "check took $5 ms"
expect_eq "vmlinux sites read once" "$(status vmlinux_sites)" \
	"$(awk '$4 == "vmlinux" && $6 == 1' "$FTG_DEBUGFS/sites" | wc -l)"

# Select every site (12 addresses a line: lines are at most 256 bytes), then arm them all with force.
nsites=$(status sites)
[ "$nsites" -gt 4096 ] || fail "only $nsites sites: the arm limit is not reached"
awk 'NR > 1 { printf "%s%s", (n++ % 12 ? " " : "select "), $1;
	if (n % 12 == 0) print "" } END { if (n % 12) print "" }' \
	"$FTG_DEBUGFS/sites" > /tmp/selects
while read -r line; do
	echo "$line" >&3 || fail "select: $(cat <&3)"
done < /tmp/selects
# Sites are counted in address order: fn_a's counter is in the second
# chunk when more than 4,096 sites lie below it (same-width hex compares
# as strings).
fn_a=$(site_ip fn_a)
below=$(awk -v a="$fn_a" 'NR > 1 && ($1 "") < (a "")' "$FTG_DEBUGFS/sites" | wc -l)
[ "$below" -ge 4096 ] || fail "only $below sites below fn_a: its counter is not in the second chunk"
echo "arm force" >&3 || fail "arm force of $nsites sites: $(cat <&3)"
expect_eq "armed sites" "$nsites" "$(status armed_sites)"
expect_eq "enabled_functions lines" "$nsites" "$(wc -l < "$FTG_TRACEFS/enabled_functions")"
echo 1000 > /sys/kernel/debug/ftg_target/trigger || fail "trigger"
expect_eq "fn_a hits (counter $below)" 1000 \
	"$(site_field fn_a 5)"
echo disarm >&3 || fail "disarm: $(cat <&3)"
expect_eq "armed after disarm" 0 "$(status armed)"
expect_eq "enabled_functions after disarm" 0 "$(wc -l < "$FTG_TRACEFS/enabled_functions")"
exec 3>&-
expect_objects_at_rest "after the arm of $nsites sites"
unload_ftguard
pass
