#!/bin/sh
# The kernel's ftrace off as a whole (sysctl kernel.ftrace_enabled=0) is
# said as that, not as a bad site: check and start are refused with that
# reason; off while armed, the periodic verify pauses with one warning and
# kills nothing; back on, the arm counts again.
. /tests/lib.sh

cli_setup 'echo 1 > /proc/sys/kernel/ftrace_enabled'
load_ftguard
hits() { site_field vfs_read 5 vmlinux; }
hits_above() { [ "$(hits)" -gt "$1" ]; }
paused_said() { [ "$(dmesg | grep -c 'ftguard: verify paused: ftrace is off')" -ge 1 ]; }

echo 0 > /proc/sys/kernel/ftrace_enabled || fail "sysctl kernel.ftrace_enabled=0"
run 0 ftguard status
out_has '^ftrace: *off (kernel.ftrace_enabled = 0)'
run 2 ftguard check -l vfs_read
both_have 'ftrace is off (kernel.ftrace_enabled = 0)'
run 2 ftguard start -l vfs_read
both_have 'ftrace is off (kernel.ftrace_enabled = 0)'
expect_eq "armed while ftrace is off" 0 "$(status armed)"
echo 1 > /proc/sys/kernel/ftrace_enabled
run 0 ftguard status
grep -q '^ftrace:' "$OUT" && fail "status speaks of ftrace while it is on"

# off while armed: no kill, one warning however many verify periods pass
run 0 ftguard start -l vfs_read
wait_for 10 hits_above 0 || fail "no hits while armed"
echo 0 > /proc/sys/kernel/ftrace_enabled || fail "sysctl off while armed"
wait_for 10 paused_said || fail "verify did not say it paused"
# two more verifies, asked for: refused with the reason, not said again
for i in 1 2; do
	echo verify > "$FTG_DEBUGFS/control" 2>/dev/null && fail "verify $i succeeded with ftrace off"
done
expect_eq "pause warnings" 1 "$(dmesg | grep -c 'ftguard: verify paused')"
expect_eq "killed while ftrace is off" 0 "$(status killed)"
echo 1 > /proc/sys/kernel/ftrace_enabled
h=$(hits)
wait_for 10 hits_above "$h" || fail "no hits once ftrace is on again"
expect_eq "killed after" 0 "$(status killed)"
run 0 ftguard stop
unload_ftguard
pass
