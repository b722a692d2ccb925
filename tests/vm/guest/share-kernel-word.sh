#!/bin/sh
# What ftrace says is read from ftrace's own files, not from whatever a
# path names: a file bind-mounted over enabled_functions or over
# /proc/sys/kernel/ftrace_enabled changes no verdict. Both ways: a file
# that leaves out the function tracer's trampoline (alone on fn_b) hides
# nothing, fn_b still passes; a file that names the hole an unloaded
# module left as a trampoline proves nothing, fn_outer diverted there is
# still a mismatch; ftrace_enabled read as 0 through a bind stops no arm,
# and read as 1 hides no ftrace that is off.
. /tests/lib.sh
. /tests/other-tracer.inc

sysctl=/proc/sys/kernel/ftrace_enabled
kmod_setup -c 'umount "'"$enabled"'" 2>/dev/null; umount "'"$sysctl"'" 2>/dev/null
	echo 1 > "'"$sysctl"'"
	'"$OTHER_CLEANUP" ftg_target

# check_of IP: the verdict a check of the site at IP alone gives
check_of() {
	exec 4<>"$FTG_DEBUGFS/control"
	echo "select $1" >&4 || fail "select $1: $(cat <&4)"
	echo check >&4
	set -- $(cat <&4 | sed -n 3p)
	exec 4>&-
	echo "$2"
}
# bind_over FILE TEXT: TEXT is what reading FILE gives from now on
bind_over() {
	_fake=/tmp/fake.$(basename "$1")
	printf '%b' "$2" > "$_fake"
	mount -o bind "$_fake" "$1" || fail "mount -o bind $_fake $1"
	[ "$(cat "$1")" = "$(cat "$_fake")" ] || fail "$1 does not read as the file bound over it"
}

load_ftguard fi
load_test_module ftg_target
fn_a=$(site_ip fn_a)
fn_b=$(site_ip fn_b)
fn_outer=$(site_ip fn_outer)

# the function tracer alone on fn_b: a trampoline only enabled_functions names
other_tracer_on fn_b

# the hole an unloaded module left
load_test_module ftg_other
hole=$(cat /sys/module/ftg_other/sections/.text)
rmmod ftg_other || fail "rmmod ftg_other"
grep -q "^0*${hole#0x} " /proc/kallsyms && fail "$hole still named"

exec 3<>"$FTG_DEBUGFS/control"
echo "divert $fn_outer $hole" >&3 || fail "divert: $(cat <&3)"
expect_eq "fn_b, the kernel's file read" ok "$(check_of "$fn_b")"
expect_eq "fn_outer calling the hole, the kernel's file read" mismatch "$(check_of "$fn_outer")"

bind_over "$enabled" "fn_outer (1) R \\ttramp: $hole (ftrace_stub+0x0/0x10)\n"
log "enabled_functions now reads: $(cat "$enabled")"
expect_eq "fn_b, a file without its trampoline bound over enabled_functions" ok "$(check_of "$fn_b")"
expect_eq "fn_outer, a file naming the hole bound over enabled_functions" mismatch "$(check_of "$fn_outer")"
umount "$enabled" || fail "umount $enabled"
echo "divert $fn_outer 0" >&3 || fail "divert back: $(cat <&3)"

bind_over "$sysctl" '0\n'
echo "select $fn_a" >&3 || fail "select fn_a: $(cat <&3)"
echo arm >&3 || fail "arm refused, 0 bound over $sysctl: $(cat <&3)"
echo disarm >&3 || fail "disarm: $(cat <&3)"
umount "$sysctl" || fail "umount $sysctl"

echo 0 > "$sysctl" || fail "kernel.ftrace_enabled=0"
bind_over "$sysctl" '1\n'
echo arm >&3 2>/dev/null && fail "armed with ftrace off, 1 bound over $sysctl"
response=$(cat <&3)
case "$response" in
*"ftrace is off (kernel.ftrace_enabled = 0)"*) ;;
*) fail "arm with ftrace off: $response" ;;
esac
umount "$sysctl" || fail "umount $sysctl"
echo 1 > "$sysctl" || fail "kernel.ftrace_enabled=1"
expect_eq "armed at the end" 0 "$(status armed)"
[ "$(status killed)" = 1 ] && fail "killed: $(status kill_reason)"
exec 3>&-
other_tracer_off
rmmod ftg_target || fail "rmmod ftg_target"
unload_ftguard
pass
