#!/bin/sh
# vmlinux candidates are admitted only when they are the ftrace record of
# the function they name: the kernel has a record there, the symbol table
# names the function in vmlinux at the offset where the arch's prologue
# ends (+0, or +4 after endbr64 on IBT kernels), and no record starts after
# a prefix when the candidate is the function's start.
. /tests/lib.sh

# Leave the system as found, also when a check fails half-way.
kmod_setup ftg_target ftg_other

kaddr() { grep " $1\$" /proc/kallsyms | head -n 1 | cut -d' ' -f1; }
fn=vfs_fsync
grep -qx "$fn" "$FTG_TRACEFS/available_filter_functions" || skip "$fn not traceable"
ip=$(ftg_record_of $fn)
start=0x$(kaddr $fn)
off=$((ip - start))
ip1=$(printf '0x%x' $((ip + 1)))
jiffies=0x$(kaddr jiffies)

load_ftguard
load_test_module ftg_target
fn_a=$(site_ip fn_a)
exec 3<>"$FTG_DEBUGFS/control"
admit() { echo "admit $1 $2" >&3 2>/dev/null; }
reason() { cat <&3; }

admit $fn "$ip" || fail "admit $fn $ip: $(reason)"
admit $fn "$ip" || fail "re-admit of the same site: $(reason)"
admit $fn "$ip1" && fail "admitted $fn+1"
log "$fn+1: $(reason)"
admit jiffies "$jiffies" && fail "admitted a data symbol"
case "$(reason)" in *"not an ftrace record"*) ;; *) fail "jiffies reason" ;; esac
admit not_$fn "$ip" && fail "admitted under a wrong name"
admit fn_a "$fn_a" && fail "admitted a module function as vmlinux"
admit vfs_read "$ip" && fail "admitted vfs_read at $fn's address"
rejected=5
if [ "$off" != 0 ]; then
	# ftrace_set_filter_ip() takes the function's start for the record:
	# the module must not.
	admit $fn "$start" && fail "admitted $fn's start, its record is at +$off"
	case "$(reason)" in
	*"is the start of $fn; its record is at +0x$off"*) ;;
	*) fail "reason for $fn's start: $(reason)" ;;
	esac
	rejected=6
fi
log "$fn: record at $ip, +$off from its start"
expect_eq "admitted" 1 "$(status admitted)"
expect_eq "rejected" $rejected "$(status rejected)"
expect_eq "vmlinux_sites" 1 "$(status vmlinux_sites)"
line=$(awk -v n=$fn '$4 == "vmlinux" && $7 == n' "$FTG_DEBUGFS/sites")
set -- $line
expect_eq "admitted site line" "$ip unchecked core vmlinux 0 0 $fn $off -" "$1 $2 $3 $4 $5 $6 $7 $8 ${10}"
echo "select $ip" >&3 || fail "select: $(reason)"
echo check >&3 || fail "check: $(reason)"
expect_eq "check of the admitted site" "result ok 1 0" "$(sed -n 2p "$FTG_DEBUGFS/check" | cut -d' ' -f1-4)"
# The prologue read is the one expected: prefix (if any), then the NOP.
set -- $(awk -v n=$fn '$4 == "vmlinux" && $7 == n' "$FTG_DEBUGFS/sites")
log "$fn prologue: expected $9 actual ${10}"
expect_eq "prologue read = expected" "$9" "${10}"
case "$off:$9" in
0:*:*) fail "a colon in a prologue without prefix: $9" ;;
0:*|4:*:*) ;;
*) fail "offset $off with prologue $9" ;;
esac
exec 3>&-
rmmod ftg_target
unload_ftguard
pass
