#!/bin/sh
# Kernel lockdown, as a Secure Boot machine runs it (doc/secure-boot.md).
# Lockdown can only be raised, never lowered, so this test runs last in the
# boot (zz-) and leaves the kernel locked down.
#
# In integrity mode (what Debian's kernel selects under Secure Boot) the
# kernel refuses unsigned modules, and debugfs refuses every open for
# writing and every file with more than read permission: ftguard's
# tables (0400) stay readable, its debugfs control file (0600) cannot be
# opened. ftguard.ko's misc device /dev/ftguard is the same control file
# and lockdown does not close it: the ftguard command falls back to it, so
# check, start, stop and record keep working (ftrace itself is not
# restricted by integrity). A descriptor opened before the lockdown keeps working (debugfs
# decides at open). The fault-injection commands are refused under
# lockdown on either transport: this test loads the fault-injection build
# (a superset of the default one; only one build can be loaded before the
# lockdown, and none after it) to show that. An arm that outlives lockdown
# holds ftguard loaded: rmmod is refused until stop ends the arm through
# the device; ftguard, unsigned here, cannot be loaded again. Confidentiality mode then closes tracefs's
# buffers.
. /tests/lib.sh

lockdown=/sys/kernel/security/lockdown
[ -e "$lockdown" ] || mount -t securityfs securityfs /sys/kernel/security ||
	fail "cannot mount securityfs"
[ -e "$lockdown" ] || fail "$lockdown missing (Debian's kernel has the lockdown LSM)"
expect_eq "lockdown before" "[none] integrity confidentiality" "$(cat "$lockdown")"

enabled=$FTG_TRACEFS/enabled_functions

dev=/dev/ftguard
func_events() { grep -c ' func: ip=fn_a \[ftg_target\] parent=fn_b \[ftg_target\]$' "$FTG_INSTANCE/trace"; }
# dev_cmd CMD: one command on a new descriptor of /dev/ftguard; its
# response in /tmp/dev.resp, its status in DEV_ST
dev_cmd() {
	exec 5<>"$dev" || fail "cannot open $dev"
	echo "$1" >&5 2>/dev/null
	DEV_ST=$?
	cat <&5 >/tmp/dev.resp
	exec 5>&-
	log "$dev: $1 -> $DEV_ST: $(cat /tmp/dev.resp)"
}

load_ftguard fi
expect_eq "fault-injection build loaded" 1 "$(status fault_injection)"
load_test_module ftg_target
fn_a=$(site_ip fn_a)
[ -n "$fn_a" ] || fail "fn_a is not a site"

# The device: a character device, root's only, 0600.
[ -c "$dev" ] || fail "$dev is not a character device"
expect_eq "$dev mode and owner" "600 0:0" "$(stat -c '%a %u:%g' "$dev")"

# A persistent arm made before the lockdown, and a descriptor kept open.
exec 3<>"$FTG_DEBUGFS/control"
echo "select $fn_a" >&3 || fail "select: $(cat <&3)"
echo "arm persistent" >&3 || fail "arm persistent: $(cat <&3)"
expect_eq "armed before lockdown" 1 "$(status armed)"
exec 4<>"$FTG_DEBUGFS/control"
# ftg_target's trigger is a debugfs file too: opened now, it keeps working.
exec 6>/sys/kernel/debug/ftg_target/trigger
# Before the lockdown a fault-injection command is accepted, on both.
echo unplant >&4 || fail "unplant before lockdown (debugfs): $(cat <&4)"
dev_cmd unplant
[ "$DEV_ST" = 0 ] || fail "unplant before lockdown ($dev): $(cat /tmp/dev.resp)"

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

# No new descriptor on debugfs control, for root either: EPERM.
control_refused() {
	if (exec 5<>"$FTG_DEBUGFS/control") 2>/tmp/open.err; then
		fail "control opened for writing under lockdown ($1)"
	fi
	grep -q 'Operation not permitted' /tmp/open.err ||
		fail "open of control ($1): expected EPERM, got: $(cat /tmp/open.err)"
}
control_refused "before the commands"

# /dev/ftguard is root's under lockdown too: nobody gets EACCES.
[ "$(su -s /bin/sh nobody -c 'id -u')" = 65534 ] || fail "cannot run as nobody"
su -s /bin/sh nobody -c "exec 5<>$dev" 2>/tmp/nobody.err &&
	fail "nobody opened $dev"
log "nobody: $(cat /tmp/nobody.err)"
grep -q 'Permission denied' /tmp/nobody.err ||
	fail "nobody's open of $dev: expected EACCES, got: $(cat /tmp/nobody.err)"

# The fault-injection commands exist to break things: refused with EPERM
# under lockdown, on the debugfs descriptor opened before it and on the
# device (both accepted unplant before the lockdown).
echo unplant >&4 2>/dev/null && fail "unplant accepted under lockdown (debugfs)"
resp=$(cat <&4)
log "debugfs: unplant -> $resp"
expect_eq "unplant under lockdown (debugfs)" "error EPERM unplant: refused by kernel lockdown" "$resp"
for cmd in fail-ftrace "corrupt $fn_a" unplant; do
	dev_cmd "$cmd"
	[ "$DEV_ST" != 0 ] || fail "$cmd accepted under lockdown ($dev)"
	expect_eq "$cmd under lockdown ($dev)" "error EPERM ${cmd%% *}: refused by kernel lockdown" "$(cat /tmp/dev.resp)"
done

# The ftguard command works through /dev/ftguard: stop ends the arm made
# before the lockdown, check and a new start arm fn_a again, events
# arrive in the ftguard instance, stop disarms.
ftguard stop >/tmp/stop.out 2>&1 || fail "ftguard stop under lockdown: $(cat /tmp/stop.out)"
expect_eq "armed after stop under lockdown" 0 "$(status armed)"
expect_eq "enabled_functions after stop under lockdown" 0 "$(wc -l < "$enabled")"
ftguard check -m ftg_target >/tmp/check.out 2>&1 ||
	fail "ftguard check under lockdown: $(cat /tmp/check.out)"
log "ftguard check -m ftg_target: $(tr '\n' ' ' </tmp/check.out)"
grep -q '^last_check [0-9]* ok ' "$FTG_DEBUGFS/status" ||
	fail "no passing check recorded: $(grep last_check "$FTG_DEBUGFS/status")"
ftguard start -l ftg_target:fn_a >/tmp/start.out 2>&1 ||
	fail "ftguard start under lockdown: $(cat /tmp/start.out)"
expect_eq "armed by start under lockdown" 1 "$(status armed)"
expect_eq "owner of start's arm" persistent "$(status owner)"
grep -q "^fn_a \[ftg_target\]" "$enabled" ||
	fail "fn_a not in enabled_functions: $(cat "$enabled")"
expect_eq "enabled_functions under lockdown" 1 "$(wc -l < "$enabled")"
hits0=$(site_field fn_a 5) events0=$(func_events)
echo 7 >&6 || fail "trigger (descriptor opened before the lockdown)"
expect_eq "fn_a hits through the arm made under lockdown" $((hits0 + 7)) "$(site_field fn_a 5)"
expect_eq "func events in the ftguard instance" $((events0 + 7)) "$(func_events)"
control_refused "after the commands"
ftguard stop >/tmp/stop.out 2>&1 || fail "ftguard stop under lockdown: $(cat /tmp/stop.out)"
expect_eq "armed after the second stop" 0 "$(status armed)"
expect_eq "enabled_functions after the second stop" 0 "$(wc -l < "$enabled")"
echo 3 >&6 || fail "trigger"
expect_eq "fn_a hits while disarmed" $((hits0 + 7)) "$(site_field fn_a 5)"
expect_eq "killed" 0 "$(status killed)"
# record arms, traces its command and disarms, through the device too
ftguard record -l ftg_target:fn_a -o /tmp/lockdown.dat -- sh -c 'echo 4 >&6' \
	>/tmp/rec.out 2>&1 || fail "ftguard record under lockdown: $(cat /tmp/rec.out)"
expect_eq "armed after record" 0 "$(status armed)"
expect_eq "enabled_functions after record" 0 "$(wc -l < "$enabled")"
log "ftguard record: $(cat /tmp/rec.out)"
ftguard report -i /tmp/lockdown.dat >/tmp/lockdown.txt 2>&1 ||
	fail "ftguard report: $(cat /tmp/lockdown.txt)"
expect_eq "fn_a events recorded under lockdown" 4 \
	"$(grep -c ' func: fn_a \[ftg_target\] <- fn_b \[ftg_target\]$' /tmp/lockdown.txt)"

# Without the device (renamed away here; an older ftguard.ko has none) the
# command fails, naming both paths and the lockdown.
mv "$dev" /dev/ftguard.away || fail "cannot rename $dev"
ftguard check -m ftg_target >/tmp/check.out 2>&1
rc=$?
mv /dev/ftguard.away "$dev" || fail "cannot rename $dev back"
log "ftguard check without $dev (exit $rc): $(cat /tmp/check.out)"
[ "$rc" -ne 0 ] || fail "ftguard check succeeded without $dev"
for want in "$FTG_DEBUGFS/control" "$dev" 'kernel lockdown (integrity)'; do
	grep -qF "$want" /tmp/check.out ||
		fail "ftguard check without $dev does not name '$want': $(cat /tmp/check.out)"
done

# The command reads the lockdown state and opens the device directly: it
# never tries debugfs first, so the kernel logs no refusal of its own
# (sh's refused opens above are logged under sh's name).
refusals=$(dmesg | grep -c 'Lockdown: ftguard: debugfs access is restricted')
[ "$refusals" = 0 ] ||
	fail "the ftguard command tried debugfs under lockdown: $(dmesg | grep 'Lockdown: ftguard:' | head -n 3)"

# The descriptor opened before the lockdown still works: debugfs checks at
# open. Re-arm through it, so that rmmod below finds an arm.
echo check >&4 || fail "check on the pre-lockdown descriptor: $(cat <&4)"
echo "arm persistent" >&3 || fail "arm persistent on the pre-lockdown descriptor: $(cat <&3)"
expect_eq "exactly the one armed site" 1 "$(wc -l < "$enabled")"
exec 6>&- 4>&- 3>&-

# rmmod is not restricted by lockdown, but an arm holds ftguard loaded
# until stop, through the device, ends it.
rmmod ftguard 2>/dev/null && fail "rmmod ftguard succeeded while armed"
expect_eq "armed after the refused rmmod" 1 "$(status armed)"
ftguard stop || fail "stop under lockdown"
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
