#!/bin/sh
# A selection once ftguard.ko has a site for every core-kernel function
# (after a check --all, or a selection of every function, each of which
# leaves the count of the kernel's records with the module): -l '*' and
# -g alone are selected by the module itself (select-all) and any other
# selection resolves over its site table; each selects exactly what the
# kernel's function lists selected before, and every site is still
# checked before an arm: with the fault-injection build, one corrupted
# site of all refuses the whole-kernel arm and is named.
. /tests/lib.sh

cli_setup
armed() { grep -q '^armed 1$' "$FTG_DEBUGFS/status"; }
# selected: the count of the last -v run's "N sites selected"
selected() { sed -n 's/.* \([0-9][0-9]*\) sites selected$/\1/p' "$ERR"; }
listed() { grep -q 'selecting over its sites' "$ERR"; }

load_ftguard fi
grep -q '^fault_injection 1$' "$FTG_DEBUGFS/status" || fail "not the fault-injection build"

# before the --all: the kernel's function lists, vmlinux candidates admitted
run 0 ftguard -v check -l 'vfs_*'
listed && { cat "$ERR"; fail "vfs_*: over the module's sites before --all"; }
vfs_lists=$(selected)
run 0 ftguard -v check -l '*'
listed && { cat "$ERR"; fail "*: over the module's sites before --all"; }
all_lists=$(selected)
log "from the kernel's lists: vfs_* $vfs_lists, * $all_lists sites"
[ "${vfs_lists:-0}" -gt 0 ] || fail "vfs_* selected nothing"
[ "$all_lists" -gt "$vfs_lists" ] || fail "* selected no more than vfs_*"
# the lists' reads left the record count: every function offered by -l '*'
records=$(grep -v '\[' "$FTG_TRACEFS/available_filter_functions" |
	grep -vc '^__ftrace_invalid_address__')
expect_eq "record count left by a selection" "$records" "$(status vmlinux_records)"
run 0 ftguard -v check -l 'vfs_*'
listed || { cat "$ERR"; fail "vfs_*: not over the module's sites after -l '*'"; }
expect_eq "vfs_* over the module's sites after -l '*'" "$vfs_lists" "$(selected)"

run 0 ftguard -v check --all
err_has "knows all $records kernel functions already"
[ "$(status vmlinux_sites)" -ge "$(status vmlinux_records)" ] ||
	fail "no site for every record after --all: $(status vmlinux_sites) of $(status vmlinux_records)"

run 0 ftguard -v check -l 'vfs_*'
listed || { cat "$ERR"; fail "vfs_*: not over the module's sites after --all"; }
expect_eq "vfs_* over the module's sites" "$vfs_lists" "$(selected)"
out_has "checked $vfs_lists sites"
run 0 ftguard -v check -l '*'
listed || { cat "$ERR"; fail "*: not over the module's sites after --all"; }
err_has 'selected every site it holds'
expect_eq "* selected by the module" "$all_lists" "$(selected)"
out_has "checked $all_lists sites"
# -n leaves some out: over the site table, not select-all
run 0 ftguard -v check -l '*' -n 'vfs_*'
expect_eq "* less vfs_*" $((all_lists - vfs_lists)) "$(selected)"

# every site is still checked before the arm: one corrupted, none armed
exec 3<>"$FTG_DEBUGFS/control"
vfs_read=$(awk '$7 == "vfs_read" && $4 == "vmlinux" { print $1; exit }' "$FTG_DEBUGFS/sites")
[ -n "$vfs_read" ] || fail "no vfs_read site"
echo "corrupt $vfs_read" >&3 || fail "corrupt: $(cat <&3)"
run 1 ftguard start -l '*' --force
both_have 'mismatch'
both_have 'vfs_read'
armed && fail "armed every site but a corrupted one"
expect_eq "armed sites after the refusal" 0 "$(status armed_sites)"
echo "corrupt $vfs_read" >&3 || fail "corrupt back: $(cat <&3)"	# inverts again
exec 3>&-
run 0 ftguard -q start -l '*' --force
expect_eq "armed sites" "$all_lists" "$(status armed_sites)"
run 0 ftguard -q stop
# -g alone: its callees are every function, selected by the module too
if [ "$(status graph_hook)" != none ]; then
	run 0 ftguard -v start -g vfs_read
	err_has 'selected every site it holds'	# not address by address
	expect_eq "-g vfs_read: every site selected" "$all_lists" "$(selected)"
	expect_eq "-g vfs_read: armed sites" "$all_lists" "$(status armed_sites)"
	expect_eq "-g vfs_read: arm mode" graph "$(status arm_mode)"
	run 0 ftguard -q stop
fi
unload_ftguard
pass
