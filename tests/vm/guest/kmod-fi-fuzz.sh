#!/bin/sh
# The fault-injection build's own commands, fuzzed with the grammar in
# mind: N generated plant / unplant / corrupt / select / arm / check /
# fail-ftrace lines (fixed seed) with hostile arguments taken live from
# this kernel: e1000e's BAR0 ioremap (start, +16, middle), another ioremap
# and a vmalloc area, a data symbol, function+1, a freed vmlinux __init
# function, a freed module __init function, ftguard's own (untraceable)
# text, an existing site; names with escape sequences and 200 bytes. The
# generator keeps the kernel's state (planted sites, the selection) and
# predicts each answer's errno; every one must match. Then every hostile
# address is planted at once, checked and refused: none of them was ever
# read (per-site reads 0). fail-ftrace: the next arm fails with ENODEV and
# kills, arming is EPERM until reset, then arming works. Nothing leaks.
. /tests/lib.sh

N=2000
SEED=1971
run=/tmp/fi-fuzz
rm -rf "$run"
mkdir -p "$run"
kmod_setup -c '[ -e "$FTG_DEBUGFS/control" ] &&
	printf "unplant\nreset\n" >"$FTG_DEBUGFS/control" 2>/dev/null' ftg_target

find_nic
nic_bar0_ioremap
load_ftguard fi
load_test_module ftg_target
sites=$FTG_DEBUGFS/sites
real_site=$(awk '$4 == "e1000e" { print $1; exit }' "$sites")
[ -n "$real_site" ] || fail "no e1000e site"

# ---- hostile addresses, live -----------------------------------------------------
kallsym() { awk -v s="$1" '$3 == s && NF == 3 { print "0x" $1; exit }' /proc/kallsyms; }
fn=$(awk 'NF == 1 { print; exit }' "$FTG_TRACEFS/available_filter_functions")
fn_addr=$(kallsym "$fn")
other_ioremap=$(awk -v m="$NIC_MAP" '/ ioremap/ && index($1, m "-") != 1 { sub(/-.*/, "", $1); print $1; exit }' /proc/vmallocinfo)
vmalloc_area=$(awk '/ vmalloc/ && !/ioremap/ { sub(/-.*/, "", $1); print $1; exit }' /proc/vmallocinfo)
init_one=$(grep ' site: .* name=init_one action=drop reason=init-free$' "$FTG_INSTANCE/trace" |
	sed 's/.* ip=\(0x[0-9a-f]*\) .*/\1/')
own_text=$(awk '$3 == "ftg_arm" && $4 == "[ftguard]" { print "0x" $1; exit }' /proc/kallsyms)
pool="$NIC_MAP $(printf '0x%x' $((NIC_MAP + 16))) $(printf '0x%x' $(((NIC_MAP + NIC_MAP_END) / 2)))
	$other_ioremap $vmalloc_area $(kallsym jiffies) $(printf '0x%x' $((fn_addr + 1)))
	$(kallsym start_kernel) $init_one $own_text"
set -- $pool
expect_eq "hostile addresses found" 10 "$#"
for a in $pool; do
	awk -v a="$a" '($1 "") == (a "") { exit 1 }' "$sites" || fail "hostile address $a is a site"
done
log "hostile addresses: $(echo $pool)"
esc=$(printf '\033')
long=$(printf '%0200d' 0 | tr 0 x)
names="init_one $fn start_kernel jiffies ${esc}[2J${esc}[H ${esc}]0;t$(printf '\007') $long"

# ---- N commands, each with the errno the grammar and the state call for ------
awk -v n=$N -v seed=$SEED -v pool="$(echo $pool)" -v names="$names" -v site="$real_site" '
function rnd(k) { return int(rand() * k) }
function pick(a, k) { return a[1 + rnd(k)] }
function hexaddr() { return sprintf("0x%x", 3758096384 + rnd(536870912)) }
# plant KIND ADDR: ok and planted, or EEXIST
function plant(kind, a,   line) {
	line = (kind == "stale") ? "plant stale " a " " pick(nm, nn) : "plant foreign " a
	if (a in planted) print "plant-again\tEEXIST\t" line
	else { planted[a] = 1; print "plant-" kind "\tok\t" line }
}
BEGIN {
	srand(seed)
	np = split(pool, pl, " "); nn = split(names, nm, " ")
	split("xyz 0 0x -1 0xg1 99999999999999999999999 0x1x - +", badnum, " ")
	split("plant,plant stale,plant stale 0x1000,plant stale 0x1000 a b,plant foreign,plant foreign 0x1000 b,plant sideways 0x1000,plant foreign stale", usage, ",")
	nsel = 0
	for (i = 0; i < n; i++) {
		k = rnd(16); a = pick(pl, np)
		if (k == 0) print "usage-plant\tEINVAL\t" pick(usage, 8)
		else if (k == 1) print "badnum\tEINVAL\t" (rnd(2) ? "plant stale " pick(badnum, 9) " x" : "plant foreign " pick(badnum, 9))
		else if (k == 2) print "plant-site\tEEXIST\t" (rnd(2) ? "plant stale " site " x" : "plant foreign " site)
		else if (k <= 4) plant("foreign", a)
		else if (k <= 6) plant("stale", a)
		else if (k == 7) {
			if (rnd(3)) { print "unplant\tok\tunplant"; delete planted; nsel = 0; delete sel }
			else print "usage-unplant\tEINVAL\tunplant now"
		} else if (k == 8) print "usage-corrupt\tEINVAL\t" (rnd(3) == 0 ? "corrupt" : rnd(2) ? "corrupt " a " " a : "corrupt " pick(badnum, 9))
		else if (k == 9) print "corrupt\t" ((a in planted) ? "ok" : "ENOENT") "\tcorrupt " a
		else if (k == 10) print "corrupt-unknown\tENOENT\tcorrupt " hexaddr()
		else if (k <= 12) {
			if (a in planted) { if (!(a in sel)) { sel[a] = 1; nsel++ }; print "select\tok\tselect " a }
			else print "select-unplanted\tENOENT\tselect " a
		} else if (k == 13) {
			print "arm\t" (nsel ? "ESTALE" : "ENOENT") "\tarm" (rnd(2) ? "" : rnd(2) ? " force" : " persistent")
		} else if (k == 14) {
			if (nsel) print "check\tok\tcheck"
			else { print "clear\tok\tclear" }
		} else print "usage-fail-ftrace\tEINVAL\tfail-ftrace " (rnd(2) ? "now" : a)
	}
}' >"$run/commands"
expect_eq "generated commands" "$N" "$(wc -l <"$run/commands")"

sites0=$(status sites)
exec 3<>"$FTG_DEBUGFS/control"
bad=0
while IFS= read -r rec; do
	class=${rec%%	*}
	rest=${rec#*	}
	want=${rest%%	*}
	line=${rest#*	}
	if printf '%s\n' "$line" >&3 2>/dev/null; then
		got=ok reason=ok
	else
		read -r _ got reason <&3 || got=noresponse
	fi
	echo "$class $got ${reason%%:*}" >>"$run/answers"
	if [ "$got" != "$want" ]; then
		bad=$((bad + 1))
		[ "$bad" -le 10 ] && log "WRONG: $class: wanted $want, got $got $reason for: $line"
	fi
done <"$run/commands"
log "$N commands, $bad answered wrongly"
expect_eq "killed by the fuzz" 0 "$(status killed)"
expect_eq "armed by the fuzz" 0 "$(status armed)"

# ---- every hostile address planted, checked, refused, never read -------------
printf 'unplant\nclear\n' >&3 || fail "unplant"
i=0
for a in $pool; do
	i=$((i + 1))
	if [ $((i % 2)) = 0 ]; then
		printf 'plant foreign %s\n' "$a" >&3 || fail "plant foreign $a"
	else
		printf 'plant stale %s %s\n' "$a" "$fn" >&3 || fail "plant stale $a"
	fi
	printf 'select %s\n' "$a" >&3 || fail "select $a"
done
printf 'check\n' >&3 || fail "check of the planted sites"
grep -q '^result fail 0 10 ' "$FTG_DEBUGFS/check" || fail "check: $(sed -n 2p "$FTG_DEBUGFS/check")"
printf 'arm\n' >&3 2>/dev/null && fail "armed the planted sites"
read -r _ got reason <&3
expect_eq "arm of the planted sites" ESTALE "$got"
cp "$sites" "$run/sites-planted.txt"
export_file "$run/sites-planted.txt"
for a in $pool; do
	line=$(awk -v a="$a" '($1 "") == (a "")' "$sites")
	set -- $line
	case "$2" in stale|foreign) ;; *) fail "planted $a is '$2', not stale or foreign" ;; esac
	expect_eq "reads of planted $a ($2)" 0 "$6"
done
expect_eq "armed sites after refusals" 0 "$(status armed_sites)"
expect_eq "enabled_functions" 0 "$(wc -l <"$FTG_TRACEFS/enabled_functions")"
printf 'unplant\n' >&3 || fail "unplant"
expect_eq "sites after unplant" "$sites0" "$(status sites)"

# ---- fail-ftrace: the next arm dies as with a dead ftrace ----------------------
printf 'clear\nselect %s\nfail-ftrace\n' "$real_site" >&3 || fail "fail-ftrace"
printf 'arm\n' >&3 2>/dev/null && fail "arm after fail-ftrace succeeded"
read -r _ got reason <&3
expect_eq "arm after fail-ftrace" ENODEV "$got"
echo "fail-ftrace-arm $got ${reason%%:*}" >>"$run/answers"
expect_eq "killed after ENODEV" 1 "$(status killed)"
printf 'arm\n' >&3 2>/dev/null && fail "arm while killed succeeded"
read -r _ got reason <&3
expect_eq "arm while killed" EPERM "$got"
echo "killed-arm $got ${reason%%(*}" >>"$run/answers"
printf 'reset\narm\n' >&3 || fail "reset and arm: $(cat <&3)"
expect_eq "armed after reset" 1 "$(status armed)"
printf 'disarm\n' >&3 || fail "disarm"
exec 3>&-

sed -E 's/0x[0-9a-f]+/ADDR/g; s/([^0-9A-Z])[0-9]+/\1N/g' "$run/answers" | sort | uniq -c | sort -rn >"$run/histogram.txt"
sed 's/^/# /' "$run/histogram.txt"
export_file "$run/histogram.txt"
[ "$bad" = 0 ] || fail "$bad of $N commands answered with the wrong errno"
for branch in "usage-plant EINVAL usage" "badnum EINVAL bad address" "plant-site EEXIST" \
	"plant-again EEXIST" "plant-foreign ok" "plant-stale ok" "unplant ok" \
	"usage-unplant EINVAL usage" "usage-corrupt EINVAL usage" "usage-corrupt EINVAL bad address" \
	"corrupt ok" "corrupt ENOENT" "corrupt-unknown ENOENT" "select ok" "select-unplanted ENOENT" \
	"arm ESTALE check failed" "arm ENOENT empty selection" "check ok" \
	"usage-fail-ftrace EINVAL usage" "fail-ftrace-arm ENODEV" "killed-arm EPERM"; do
	grep -q -- "$branch" "$run/histogram.txt" || fail "branch never reached: $branch"
done
expect_eq "killed at the end" 0 "$(status killed)"
expect_eq "armed at the end" 0 "$(status armed)"
expect_eq "sites at the end" "$sites0" "$(status sites)"
expect_objects_at_rest "after the fuzz"
rmmod ftg_target || fail "rmmod ftg_target"
unload_ftguard
trap - EXIT
pass
