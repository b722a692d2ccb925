#!/bin/sh
# Planted stale (a freed __init address) and foreign (inside e1000e's BAR0
# ioremap) sites: check reports them, arming is refused with the reason,
# and in the same check the foreign site is never read (reads=0) while its
# ok neighbours are read once.
. /tests/lib.sh

# Leave the system as found, also when a check fails half-way.
kmod_setup ftg_target ftg_other


find_nic
nic_bar0_ioremap
foreign=$(printf '0x%x' $((NIC_MAP + 0x100)))
log "BAR0 $NIC_BAR0 mapped at $NIC_MAP; foreign site $foreign"

load_ftguard fi
grep -q '^fault_injection 1$' "$FTG_DEBUGFS/status" || fail "not the fault-injection build"
load_test_module ftg_target
stale=$(grep ' site: .* name=init_one action=drop reason=init-free$' "$FTG_INSTANCE/trace" |
	sed 's/.* ip=\(0x[0-9a-f]*\) .*/\1/')
[ -n "$stale" ] || fail "no init-free drop event for init_one"
fn_a=$(site_ip fn_a)
fn_b=$(site_ip fn_b)
log "stale site $stale (freed init_one), fn_a $fn_a, fn_b $fn_b"

exec 3<>"$FTG_DEBUGFS/control"
echo "plant stale $stale init_one" >&3 || fail "plant stale: $(cat <&3)"
echo "plant foreign $foreign" >&3 || fail "plant foreign: $(cat <&3)"
expect_eq "stale state" planted "$(addr_field "$stale" 2)"
expect_eq "foreign state" planted "$(addr_field "$foreign" 2)"
echo "select $fn_a $fn_b $stale $foreign" >&3 || fail "select: $(cat <&3)"

echo check >&3 || fail "check: $(cat <&3)"
cat <&3 > /tmp/check.txt
export_file /tmp/check.txt
expect_eq "check header" "ftguard-check 1" "$(head -n 1 /tmp/check.txt)"
set -- $(sed -n 2p /tmp/check.txt)
expect_eq "check result" "result fail 2 2" "$1 $2 $3 $4"
expect_eq "stale verdict" stale "$(awk -v a="$stale" '($1 "") == (a "") { print $2 }' /tmp/check.txt)"
expect_eq "foreign verdict" foreign "$(awk -v a="$foreign" '($1 "") == (a "") { print $2 }' /tmp/check.txt)"
expect_eq "foreign actual bytes" - "$(awk -v a="$foreign" '($1 "") == (a "") { print $5 }' /tmp/check.txt)"
expect_eq "fn_a verdict" ok "$(awk -v a="$fn_a" '($1 "") == (a "") { print $2 }' /tmp/check.txt)"
prologue=$(awk -v a="$fn_a" '($1 "") == (a "") { print $5 }' /tmp/check.txt)
ftg_split_prologue "$prologue" || fail "fn_a prologue: $prologue"
expect_eq "fn_a bytes" 0f1f440000 "$site"
cmp -s /tmp/check.txt "$FTG_DEBUGFS/check" || fail "check file differs from the response"
expect_eq "foreign reads" 0 "$(addr_field "$foreign" 6)"
expect_eq "stale reads" 0 "$(addr_field "$stale" 6)"
expect_eq "fn_a reads" 1 "$(addr_field "$fn_a" 6)"
expect_eq "fn_b reads" 1 "$(addr_field "$fn_b" 6)"
expect_eq "foreign state" foreign "$(addr_field "$foreign" 2)"
expect_eq "stale state" stale "$(addr_field "$stale" 2)"

echo arm >&3 && fail "arm accepted with stale and foreign sites"
resp=$(cat <&3)
log "arm refused: $resp"
case "$resp" in "error ESTALE check failed (2 bad):"*) ;; *) fail "arm refusal: $resp" ;; esac
case "$resp" in *"stale $stale init_one"*) ;; *) fail "reason lacks the stale site" ;; esac
case "$resp" in *"foreign $foreign"*) ;; *) fail "reason lacks the foreign site" ;; esac
grep -q "^last_error check failed (2 bad)" "$FTG_DEBUGFS/status" || fail "status last_error: $(grep ^last_error "$FTG_DEBUGFS/status")"
expect_eq "enabled_functions after refusal" 0 "$(wc -l < "$FTG_TRACEFS/enabled_functions")"
expect_eq "foreign reads after arm attempt" 0 "$(addr_field "$foreign" 6)"

echo unplant >&3 || fail "unplant: $(cat <&3)"
[ -z "$(addr_field "$stale")$(addr_field "$foreign")" ] || fail "planted sites left after unplant"
expect_eq "unplant drop events" 2 "$(grep -c ' site: .*action=drop reason=unplant$' "$FTG_INSTANCE/trace")"
echo arm >&3 || fail "arm after unplant: $(cat <&3)"
expect_eq "enabled_functions after arm" 2 "$(wc -l < "$FTG_TRACEFS/enabled_functions")"
exec 3>&-
expect_eq "enabled_functions after close" 0 "$(wc -l < "$FTG_TRACEFS/enabled_functions")"
rmmod ftg_target || fail "rmmod ftg_target"
unload_ftguard
pass
