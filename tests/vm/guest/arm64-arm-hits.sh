#!/bin/sh
# Arming fn_a on arm64: its record becomes a bl to ftrace's caller (or to
# the module's ftrace PLT when the kernel's text is beyond a bl's reach),
# the prefix stays "mov x9, x30", a check and a verify of the armed site
# pass, fn_b(N) gives hits == N exactly and N ftguard:func events with
# parent fn_b; disarmed, the record is a NOP again and counts no more.
. /tests/lib.sh
. /tests/arm64-lib.inc
kmod_setup ftg_target

N=3000
load_ftguard
load_test_module ftg_target
fn_a=$(site_field fn_a 1)
[ -n "$fn_a" ] || fail "no fn_a site"
prefix=$(arm64_expected "$(site_field fn_a 8)")
prefix=${prefix%:*}

exec 3<>"$FTG_DEBUGFS/control"
echo "select $fn_a" >&3 || fail "select: $(cat <&3)"
echo arm >&3 || fail "arm refused: $(cat <&3)"
expect_eq "arm response" ok "$(cat <&3)"
expect_eq "fn_a state" armed "$(site_field fn_a 2)"
expect_eq "enabled_functions" "fn_a [ftg_target]" "$(sed 's/ *(.*//' "$FTG_TRACEFS/enabled_functions")"

# The armed site: which trampoline does its bl reach?
echo check >&3 || fail "check while armed: $(cat <&3)"
cat <&3 >/tmp/check-armed.txt
export_file /tmp/check-armed.txt
set -- $(awk -v a="$fn_a" '($1 "") == (a "")' /tmp/check-armed.txt)
bytes=$5
log "armed fn_a: $bytes ($2)"
expect_eq "prefix while armed" "$prefix" "${bytes%:*}"
target=$(bl_target "$fn_a" "${bytes#*:}")
sym=$(awk -v t="${target#0x}" '$1 == t { print $3 }' /proc/kallsyms | head -n 1)
# A module out of a bl's reach of the kernel (+-128 MiB) calls ftrace
# through its own PLT, the section the kernel gave it for that: one or
# two 12-byte entries (adrp, add, br).
plt=$(cat /sys/module/ftg_target/sections/.text.ftrace_trampoline 2>/dev/null)
if [ -n "$plt" ] && [ $((target - plt)) -ge 0 ] && [ $((target - plt)) -lt 24 ] &&
	[ $(( (target - plt) % 12 )) = 0 ]; then
	log "bl $target: ftg_target's ftrace PLT (.text.ftrace_trampoline $plt)"
else
	log "bl $target: $sym"
	case "$sym" in ftrace_caller|ftrace_regs_caller) ;; *) fail "armed fn_a branches to $target ($sym), neither ftrace's caller nor ftg_target's ftrace PLT ${plt:-(none)}" ;; esac
fi
expect_eq "check verdict of the armed site" ok "$(awk -v a="$fn_a" '($1 "") == (a "") { print $2 }' /tmp/check-armed.txt)"
echo verify >&3 || fail "verify: $(cat <&3)"
expect_eq "killed after verify" 0 "$(status killed)"

echo "$N" >/sys/kernel/debug/ftg_target/trigger || fail "trigger"
expect_eq "fn_a hits" "$N" "$(site_field fn_a 5)"
expect_eq "fn_b hits (not armed)" 0 "$(site_field fn_b 5)"
trace=$FTG_INSTANCE/trace
expect_eq "func events" "$N" "$(grep -c ' func: ip=fn_a \[ftg_target\] parent=fn_b \[ftg_target\]$' "$trace")"
expect_eq "func events with another parent" 0 "$(grep ' func: ' "$trace" | grep -vc 'parent=fn_b \[ftg_target\]$')"
expect_eq "killed while armed" 0 "$(status killed)"

echo disarm >&3 || fail "disarm"
expect_eq "enabled_functions after disarm" 0 "$(wc -l <"$FTG_TRACEFS/enabled_functions")"
echo check >&3 || fail "check after disarm: $(cat <&3)"
expect_eq "fn_a after disarm" "ok $(arm64_expected "$(site_field fn_a 8)")" \
	"$(cat <&3 | awk -v a="$fn_a" '($1 "") == (a "") { print $2, $5 }')"
echo 5 >/sys/kernel/debug/ftg_target/trigger
expect_eq "fn_a hits while disarmed" "$N" "$(site_field fn_a 5)"
exec 3>&-
rmmod ftg_target || fail "rmmod ftg_target"
unload_ftguard
pass
