#!/bin/sh
# An arm owned by a control descriptor ends when its process is SIGKILLed;
# a persistent arm survives its descriptor; rmmod ftguard is refused while
# anything is armed (ftguard holds itself loaded while ftrace holds its
# ops), the arm going on, and succeeds after the disarm, leaving
# enabled_functions empty.
. /tests/lib.sh

# Leave the system as found, also when a check fails half-way.
kmod_setup -c '[ -n "${holder:-}" ] && kill -9 "$holder" 2>/dev/null' ftg_target ftg_other

sites=$FTG_DEBUGFS/sites
enabled=$FTG_TRACEFS/enabled_functions
is_armed() { [ "$(status armed)" = 1 ]; }
not_armed() { [ "$(status armed)" = 0 ]; }

load_ftguard
load_test_module ftg_target
fn_a=$(site_ip fn_a)

# 1. A background holder arms fn_a through its own descriptor, then sleeps.
sh -c "exec 3<>$FTG_DEBUGFS/control; echo 'select $fn_a' >&3 && echo arm >&3 && exec sleep 600" &
holder=$!
wait_for 10 is_armed || fail "holder did not arm"
owner=$(grep '^owner ' "$FTG_DEBUGFS/status")
expect_eq "owner (pid and comm at open)" "owner $holder sh" "$owner"
expect_eq "enabled_functions while held" 1 "$(wc -l < "$enabled")"
kill -9 "$holder"
wait "$holder" 2>/dev/null
wait_for 10 not_armed || fail "SIGKILL of the owner did not disarm"
expect_eq "owner after SIGKILL" "owner none" "$(grep '^owner ' "$FTG_DEBUGFS/status")"
expect_eq "enabled_functions after SIGKILL" 0 "$(wc -l < "$enabled")"
grep -q ' arm: nsites=1 armed=0 ' "$FTG_INSTANCE/trace" || fail "no disarm event"

# 2. A persistent arm outlives its descriptor...
exec 3<>"$FTG_DEBUGFS/control"
echo "select $fn_a $(site_ip fn_b)" >&3 || fail "select: $(cat <&3)"
echo "arm persistent" >&3 || fail "arm persistent: $(cat <&3)"
exec 3>&-
expect_eq "owner of a persistent arm" "owner persistent" "$(grep '^owner ' "$FTG_DEBUGFS/status")"
expect_eq "enabled_functions after close" 2 "$(wc -l < "$enabled")"
# ...and a second arm is refused while it holds.
exec 3<>"$FTG_DEBUGFS/control"
echo "select $fn_a" >&3
echo arm >&3 && fail "second arm accepted"
cat <&3 | grep -q '^error EBUSY ' || fail "second arm not EBUSY"
exec 3>&-

# 3. rmmod ftguard while armed: refused, the arm going on; after the
# disarm it goes, nothing left enabled.
expect_eq "module references while armed" 1 "$(cat /sys/module/ftguard/refcnt)"
rmmod ftguard 2>/dev/null && fail "rmmod ftguard succeeded while armed"
expect_eq "armed after the refused rmmod" 1 "$(status armed)"
expect_eq "enabled_functions after the refused rmmod" 2 "$(wc -l < "$enabled")"
echo disarm >"$FTG_DEBUGFS/control" || fail "disarm"
expect_eq "module references after the disarm" 0 "$(cat /sys/module/ftguard/refcnt)"
rmmod ftguard || fail "rmmod ftguard after the disarm"
expect_eq "enabled_functions after rmmod ftguard" 0 "$(wc -l < "$enabled")"
dmesg | grep -q 'ftguard: killed' && fail "kill at unload"
echo 10 > /sys/kernel/debug/ftg_target/trigger

# 4. More than max_arm sites need force; select-module takes all of them.
insmod /lib/ftguard/ftguard.ko max_arm=1 || fail "insmod max_arm=1"
wait_for 10 test -e "$FTG_DEBUGFS/control" || fail "no control file"
nsites=$(awk '$4 == "ftg_target"' "$sites" | wc -l)
exec 3<>"$FTG_DEBUGFS/control"
echo "select-module ftg_target" >&3 || fail "select-module: $(cat <&3)"
expect_eq "select-module response" "ok $nsites selected" "$(cat <&3)"
echo arm >&3 && fail "arm of $nsites sites accepted with max_arm=1"
expect_eq "arm without force" "error E2BIG $nsites sites > max_arm 1: add force" "$(cat <&3)"
echo "arm force" >&3 || fail "arm force: $(cat <&3)"
expect_eq "enabled_functions with force" "$nsites" "$(wc -l < "$enabled")"
exec 3>&-
expect_eq "enabled_functions after close" 0 "$(wc -l < "$enabled")"
rmmod ftguard || fail "rmmod ftguard (2)"
rmmod ftg_target || fail "rmmod ftg_target"
pass
