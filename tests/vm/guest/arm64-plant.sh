#!/bin/sh
# Planted stale (a freed __init record of ftg_target) and foreign (inside
# e1000e's BAR0 ioremap) sites on arm64 (fault-injection build): check
# calls them stale and foreign without reading either, reads their ok
# neighbours once, and arming is refused with both named. The moment goes
# back to the host as a snapshot (the host's ftguard must agree).
. /tests/lib.sh
. /tests/arm64-lib.inc
kmod_setup ftg_target

find_nic
nic_bar0_ioremap
foreign=$(printf '0x%x' $((NIC_MAP + 0x100)))
log "BAR0 $NIC_BAR0 mapped at $NIC_MAP-$NIC_MAP_END; foreign site $foreign"

load_ftguard fi
expect_eq "fault_injection" 1 "$(status fault_injection)"
load_test_module ftg_target
stale=$(grep ' site: .* name=init_one action=drop reason=init-free$' "$FTG_INSTANCE/trace" |
	sed 's/.* ip=\(0x[0-9a-f]*\) .*/\1/')
[ -n "$stale" ] || fail "no init-free drop event for init_one"
fn_a=$(site_field fn_a 1)
fn_b=$(site_field fn_b 1)
log "stale site $stale (freed init_one), fn_a $fn_a, fn_b $fn_b"

exec 3<>"$FTG_DEBUGFS/control"
echo "plant stale $stale init_one" >&3 || fail "plant stale: $(cat <&3)"
echo "plant foreign $foreign" >&3 || fail "plant foreign: $(cat <&3)"
expect_eq "stale state" planted "$(addr_field "$stale" 2)"
expect_eq "foreign state" planted "$(addr_field "$foreign" 2)"
echo "select $fn_a $fn_b $stale $foreign" >&3 || fail "select: $(cat <&3)"

echo check >&3 || fail "check: $(cat <&3)"
cat <&3 >/tmp/check.txt
export_file /tmp/check.txt
verdict() { awk -v a="$1" '($1 "") == (a "") { print $2 }' /tmp/check.txt; }
actual() { awk -v a="$1" '($1 "") == (a "") { print $5 }' /tmp/check.txt; }
set -- $(sed -n 2p /tmp/check.txt)
expect_eq "check result" "result fail 2 2" "$1 $2 $3 $4"
expect_eq "stale verdict" stale "$(verdict "$stale")"
expect_eq "foreign verdict" foreign "$(verdict "$foreign")"
expect_eq "stale actual bytes" - "$(actual "$stale")"
expect_eq "foreign actual bytes" - "$(actual "$foreign")"
for s in fn_a fn_b; do
	ip=$(site_field $s 1)
	expect_eq "$s verdict" ok "$(verdict "$ip")"
	expect_eq "$s bytes" "$(arm64_expected "$(site_field $s 8)")" "$(actual "$ip")"
	expect_eq "$s reads" 1 "$(addr_field "$ip" 6)"
done
expect_eq "foreign reads" 0 "$(addr_field "$foreign" 6)"
expect_eq "stale reads" 0 "$(addr_field "$stale" 6)"
expect_eq "foreign state" foreign "$(addr_field "$foreign" 2)"
expect_eq "stale state" stale "$(addr_field "$stale" 2)"

echo arm >&3 2>/dev/null && fail "arm accepted with stale and foreign sites"
resp=$(cat <&3)
log "arm refused: $resp"
case "$resp" in "error ESTALE check failed (2 bad):"*) ;; *) fail "arm refusal: $resp" ;; esac
case "$resp" in *"stale $stale init_one"*) ;; *) fail "reason lacks the stale site" ;; esac
case "$resp" in *"foreign $foreign"*) ;; *) fail "reason lacks the foreign site" ;; esac
expect_eq "enabled_functions after refusal" 0 "$(wc -l <"$FTG_TRACEFS/enabled_functions")"
expect_eq "foreign reads after the arm attempt" 0 "$(addr_field "$foreign" 6)"
expect_eq "stale reads after the arm attempt" 0 "$(addr_field "$stale" 6)"

# For the host: the snapshot, and which address is which.
export_snapshot arm64-plant-snapshot
printf 'stale_site %s init_one\nforeign_site %s\nnic_region %s-%s\n' \
	"$stale" "$foreign" "$NIC_MAP" "$NIC_MAP_END" >/tmp/addresses.txt
export_file /tmp/addresses.txt

echo unplant >&3 || fail "unplant: $(cat <&3)"
[ -z "$(addr_field "$stale" 1)$(addr_field "$foreign" 1)" ] || fail "planted sites left after unplant"
echo arm >&3 || fail "arm after unplant: $(cat <&3)"
expect_eq "enabled_functions after arm" 2 "$(wc -l <"$FTG_TRACEFS/enabled_functions")"
exec 3>&-
expect_eq "enabled_functions after close" 0 "$(wc -l <"$FTG_TRACEFS/enabled_functions")"
rmmod ftg_target || fail "rmmod ftg_target"
unload_ftguard
pass
