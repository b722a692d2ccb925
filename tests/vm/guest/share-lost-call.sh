#!/bin/sh
# An armed site whose call no longer reaches ftguard is a deviation: verify
# kills, saying where the call goes. The calls are planted (fault
# injection's divert: a check judges the site as calling there) to another
# ops' trampoline (the function tracer's, in an instance of its own, on
# fn_b) and into ftguard's own trampoline past its start, for an arm on
# ftguard's ops and one with exits (kretprobes on 6.1, fprobe on 6.12).
# The calls ftrace makes to an armed site pass: its own trampoline's start
# (ftguard alone) and the list caller (ftguard beside the function
# tracer). A site nobody armed passes a call only to a trampoline the
# kernel names (enabled_functions): the page-aligned, unnamed hole an
# unloaded module leaves is a mismatch.
. /tests/lib.sh
. /tests/other-tracer.inc

kmod_setup -c "$OTHER_CLEANUP" ftg_target

killed() { [ "$(status killed)" = 1 ]; }
# verify_kills WHAT: the planted call is found by verify, which kills
# naming it; the kill is then reset and the arm made again
verify_kills() {
	echo verify >&3 2>/dev/null && fail "verify passed $1"
	response=$(cat <&3)
	log "verify $1: $response"
	killed || fail "not killed: $1"
	reason=$(sed -n 's/^kill_reason //p' "$FTG_DEBUGFS/status")
	case "$reason" in
	*"fn_a (calls "*": ftguard is no longer called)"*) ;;
	*) fail "kill reason for $1: $reason" ;;
	esac
	expect_eq "armed after the kill ($1)" 0 "$(status armed)"
	echo "divert $fn_a 0" >&3 || fail "divert back: $(cat <&3)"
	echo reset >&3 || fail "reset: $(cat <&3)"
	echo arm >&3 || fail "arm again: $(cat <&3)"
}

load_ftguard fi
load_test_module ftg_target
fn_a=$(site_ip fn_a)
fn_b=$(site_ip fn_b)

# the function tracer alone on fn_b: its own ops' trampoline
other_tracer_on fn_b

exec 3<>"$FTG_DEBUGFS/control"
echo "select $fn_a" >&3 || fail "select: $(cat <&3)"
echo arm >&3 || fail "arm: $(cat <&3)"
own=$(tramp_of fn_a)
[ -n "$own" ] || fail "no trampoline for the armed fn_a: $(grep '^fn_a ' "$enabled")"
log "ftguard's trampoline $own, the function tracer's $foreign"

# what ftrace makes of an armed site passes
echo "divert $fn_a $own" >&3 || fail "divert: $(cat <&3)"
echo verify >&3 || fail "verify, calling ftguard's trampoline: $(cat <&3)"
echo "divert $fn_a 0" >&3 || fail "divert: $(cat <&3)"
echo fn_a >> "$other/set_ftrace_filter" || fail "set_ftrace_filter fn_a"
grep '^fn_a ' "$enabled" | grep -q 'tramp:' &&
	fail "fn_a shared, yet on a trampoline: $(grep '^fn_a ' "$enabled")"
echo verify >&3 || fail "verify, fn_a shared with the function tracer: $(cat <&3)"
echo fn_b > "$other/set_ftrace_filter" || fail "set_ftrace_filter fn_b"
echo verify >&3 || fail "verify, ftguard alone again: $(cat <&3)"
killed && fail "killed by what ftrace made: $(status kill_reason)"

# planted calls that do not reach ftguard
echo "divert $fn_a $foreign" >&3 || fail "divert: $(cat <&3)"
verify_kills "a call to the function tracer's trampoline"
own=$(tramp_of fn_a)
echo "divert $fn_a $(printf '0x%x' $((own + 4)))" >&3 || fail "divert: $(cat <&3)"
verify_kills "a call into ftguard's trampoline past its start"

echo disarm >&3 || fail "disarm: $(cat <&3)"

# an arm with exits: its hooks' trampoline (or the list caller) passes,
# the function tracer's does not
echo "arm graph" >&3 || fail "arm graph: $(cat <&3)"
echo verify >&3 || fail "verify, armed with exits: $(cat <&3)"
killed && fail "killed by the arm with exits: $(status kill_reason)"
echo "divert $fn_a $foreign" >&3 || fail "divert: $(cat <&3)"
echo verify >&3 2>/dev/null && fail "verify passed a call to the function tracer's trampoline, armed with exits"
log "verify armed with exits: $(cat <&3)"
killed || fail "not killed: the function tracer's trampoline, armed with exits"
case "$(sed -n 's/^kill_reason //p' "$FTG_DEBUGFS/status")" in
*"fn_a (calls "*": ftguard is no longer called)"*) ;;
*) fail "kill reason, armed with exits: $(status kill_reason)" ;;
esac
echo "divert $fn_a 0" >&3 || fail "divert back: $(cat <&3)"
echo reset >&3 || fail "reset: $(cat <&3)"

# a site nobody armed, diverted to the hole an unloaded module left
load_test_module ftg_other
hole=$(cat /sys/module/ftg_other/sections/.text)
rmmod ftg_other || fail "rmmod ftg_other"
[ $((hole % 4096)) = 0 ] || fail "ftg_other's text at $hole is not page-aligned"
grep -q "^0*${hole#0x} " /proc/kallsyms && fail "$hole still named: $(grep "^0*${hole#0x} " /proc/kallsyms)"
fn_outer=$(site_ip fn_outer)
log "trampolines: $(grep -o 'tramp: 0x[0-9a-f]* ([^)]*)' "$enabled" | sort -u | tr '\n' ' ')"
echo "divert $fn_outer $hole" >&3 || fail "divert: $(cat <&3)"
exec 4<>"$FTG_DEBUGFS/control"
echo "select $fn_outer" >&4 || fail "select fn_outer: $(cat <&4)"
echo check >&4 || fail "check fn_outer: $(cat <&4)"
set -- $(cat <&4 | sed -n 3p)
expect_eq "fn_outer calling the hole $hole" mismatch "$2"
expect_eq "the site checked" "$fn_outer" "$1"
echo "divert $fn_outer 0" >&3 || fail "divert back: $(cat <&3)"
echo check >&4 || fail "check fn_outer undiverted: $(cat <&4)"
set -- $(cat <&4 | sed -n 3p)
expect_eq "fn_outer undiverted" ok "$2"
exec 4>&-
killed && fail "a check killed: $(status kill_reason)"
exec 3>&-
other_tracer_off
rmmod ftg_target || fail "rmmod ftg_target"
unload_ftguard
pass
