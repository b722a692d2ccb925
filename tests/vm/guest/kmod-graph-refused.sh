#!/bin/sh
# An arm with exits the kernel refuses leaves nothing of ftguard's
# registered: a function that is an ftrace site but on the kprobes
# blacklist cannot take a kretprobe (6.1), so "arm graph" is refused with
# the kernel's error; ftguard then holds no reference to itself (rmmod
# works), status says nothing is stuck, and a plain arm of the same site
# works. Where the exit hook is fprobe (6.12), which would take such a
# site, only the plain arm and the end are checked.
. /tests/lib.sh

kmod_setup

load_ftguard
# a blacklisted function ftrace can trace, under one kallsyms name
fn= ip=
for f in $(awk '{ print $2 }' /sys/kernel/debug/kprobes/blacklist); do
	grep -qx "$f" "$FTG_TRACEFS/available_filter_functions" || continue
	[ "$(grep -c " $f\$" /proc/kallsyms)" = 1 ] || continue
	ip=$(ftg_record_of "$f")
	[ -n "$ip" ] || continue
	exec 3<>"$FTG_DEBUGFS/control"
	if echo "admit $f $ip" >&3 2>/dev/null; then
		fn=$f
		break
	fi
	exec 3>&-
done
[ -n "$fn" ] || fail "no kprobe-blacklisted function ftguard.ko admits"
log "kprobe-blacklisted site: $fn $ip ($(status graph_hook))"
echo "select $ip" >&3 || fail "select: $(cat <&3)"
if [ "$(status graph_hook)" = kretprobe ]; then
	echo "arm graph" >&3 2>/dev/null && fail "arm graph of $fn accepted"
	resp=$(cat <&3)
	log "arm graph: $resp"
	case "$resp" in "error "*"register_kretprobes: "*) ;; *) fail "arm graph response: $resp" ;; esac
fi
expect_eq "armed" 0 "$(status armed)"
expect_eq "stuck" - "$(status stuck)"
expect_eq "alloc_graphs" 0 "$(status alloc_graphs)"
expect_eq "module references with a descriptor open" 1 "$(cat /sys/module/ftguard/refcnt)"
echo arm >&3 || fail "plain arm of $fn: $(cat <&3)"
echo disarm >&3 || fail "disarm: $(cat <&3)"
exec 3>&-
expect_eq "module references" 0 "$(cat /sys/module/ftguard/refcnt)"
expect_eq "enabled_functions" 0 "$(wc -l < "$FTG_TRACEFS/enabled_functions")"
rmmod ftguard || fail "rmmod ftguard"
pass
