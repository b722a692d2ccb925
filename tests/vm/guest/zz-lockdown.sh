#!/bin/sh
# Kernel lockdown, as a Secure Boot machine runs it (doc/secure-boot.md).
# Lockdown can only be raised, never lowered, so this test runs last in the
# boot (zz-) and leaves the kernel locked down.
#
# In integrity mode (what Debian's kernel selects under Secure Boot) the
# kernel refuses unsigned modules, and debugfs refuses every open for
# writing and every file with more than read permission: ftguard's
# tables (0400) stay readable, its control file (0600) cannot be opened,
# so nothing can be checked, armed or disarmed through a new descriptor.
# A descriptor opened before the lockdown keeps working (debugfs decides at
# open). An arm that outlives lockdown ends with rmmod ftguard, which
# disarms first; ftguard, unsigned here, cannot be loaded again.
. /tests/lib.sh

lockdown=/sys/kernel/security/lockdown
[ -e "$lockdown" ] || mount -t securityfs securityfs /sys/kernel/security ||
	fail "cannot mount securityfs"
[ -e "$lockdown" ] || fail "$lockdown missing (Debian's kernel has the lockdown LSM)"
expect_eq "lockdown before" "[none] integrity confidentiality" "$(cat "$lockdown")"

sites=$FTG_DEBUGFS/sites
enabled=$FTG_TRACEFS/enabled_functions
site_ip() { awk -v n="$1" '$4 == "ftg_target" && $7 == n { print $1 }' "$sites"; }
status() { awk -v k="$1" '$1 == k { print $2 }' "$FTG_DEBUGFS/status"; }

load_ftguard
load_test_module ftg_target
fn_a=$(site_ip fn_a)
[ -n "$fn_a" ] || fail "fn_a is not a site"

# A persistent arm made before the lockdown, and a descriptor kept open.
exec 3<>"$FTG_DEBUGFS/control"
echo "select $fn_a" >&3 || fail "select: $(cat <&3)"
echo "arm persistent" >&3 || fail "arm persistent: $(cat <&3)"
expect_eq "armed before lockdown" 1 "$(status armed)"
exec 4<>"$FTG_DEBUGFS/control"

echo integrity > "$lockdown" || fail "cannot raise lockdown to integrity"
expect_eq "lockdown after" "none [integrity] confidentiality" "$(cat "$lockdown")"

# Unsigned modules are refused: the first thing Secure Boot users meet.
insmod /lib/ftguard/test/ftg_other.ko 2>/tmp/insmod.err &&
	fail "unsigned ftg_other.ko loaded under lockdown"
module_loaded ftg_other && fail "ftg_other in /proc/modules"
log "insmod: $(cat /tmp/insmod.err)"
dmesg | grep -q 'Lockdown: .*unsigned module loading is restricted' ||
	fail "no lockdown line for the refused insmod"

# Read-only tables still answer, through the command too.
expect_eq "status armed under lockdown" 1 "$(status armed)"
ftguard status >/tmp/status.out 2>&1 || fail "ftguard status: $(cat /tmp/status.out)"
grep -q '^armed' /tmp/status.out || fail "ftguard status printed no armed line"
ftguard sites -m ftg_target >/tmp/sites.out 2>&1 ||
	fail "ftguard sites: $(cat /tmp/sites.out)"
grep -q 'fn_a' /tmp/sites.out || fail "ftguard sites lists no fn_a"

# No new descriptor on control, for root either: EPERM from debugfs.
if (exec 5<>"$FTG_DEBUGFS/control") 2>/tmp/open.err; then
	fail "control opened for writing under lockdown"
fi
grep -q 'Operation not permitted' /tmp/open.err ||
	fail "open of control: expected EPERM, got: $(cat /tmp/open.err)"
ftguard check >/tmp/check.out 2>&1
rc=$?
[ "$rc" -ne 0 ] || fail "ftguard check succeeded under lockdown"
log "ftguard check (exit $rc): $(cat /tmp/check.out)"
grep -qi 'lockdown' /tmp/check.out ||
	fail "ftguard check does not name the lockdown: $(cat /tmp/check.out)"
ftguard start -l ftg_target:fn_b >/tmp/start.out 2>&1 &&
	fail "ftguard start succeeded under lockdown"
grep -qi 'lockdown' /tmp/start.out ||
	fail "ftguard start does not name the lockdown: $(cat /tmp/start.out)"
expect_eq "still exactly the one armed site" 1 "$(wc -l < "$enabled")"

# The descriptor opened before the lockdown still works: debugfs checks at
# open. (A reason to load and start ftguard's owner before raising it.)
echo check >&4 || fail "check on the pre-lockdown descriptor: $(cat <&4)"
exec 4>&- 3>&-

# rmmod is not restricted: ftguard disarms on the way out.
rmmod ftguard || fail "rmmod ftguard under lockdown"
expect_eq "enabled_functions after rmmod" 0 "$(wc -l < "$enabled")"
rmmod ftg_target || fail "rmmod ftg_target"
insmod /lib/ftguard/ftguard.ko 2>/dev/null &&
	fail "unsigned ftguard.ko loaded again under lockdown"
module_loaded ftguard && fail "ftguard in /proc/modules"

# Confidentiality mode closes tracefs's buffers and function lists (no
# recording, no live view); enabled_functions stays readable on purpose
# (ftrace.c: an admin should always see what is being traced).
echo confidentiality > "$lockdown" || fail "cannot raise lockdown to confidentiality"
expect_eq "lockdown at the end" "none integrity [confidentiality]" "$(cat "$lockdown")"
for f in trace available_filter_functions; do
	cat "$FTG_TRACEFS/$f" >/dev/null 2>/tmp/tracefs.err &&
		fail "tracefs $f readable under confidentiality lockdown"
	grep -q 'Operation not permitted' /tmp/tracefs.err ||
		fail "tracefs $f: expected EPERM, got: $(cat /tmp/tracefs.err)"
done
cat "$enabled" >/dev/null || fail "enabled_functions unreadable under lockdown"
pass
