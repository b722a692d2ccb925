#!/bin/sh
# Kernel functions from the TUI: `+ vfs_rea*` admits them through
# ftguard.ko, checks them and lists them on the Sites screen; `:add` takes
# trace-cmd's GLOB:mod:MODULE; a function the module refuses is listed with
# its reason; `+ *` (every kernel function) shows progress and Esc cancels
# it, keeping what was admitted. Nothing of this arms anything.
. /tests/lib.sh

T="tmux -L ftgadd"
. /tests/tui.inc
site_line() { awk -v f="$1" '$4 == "vmlinux" && $7 == f' "$FTG_DEBUGFS/sites"; }

command -v tmux >/dev/null || skip "no tmux in the guest"
export PATH=$PATH:/usr/libexec
load_ftguard

# A name kallsyms has at more text addresses than ftrace has records for:
# at least one of its addresses is no site, and the module says why.
refusable=$(awk 'FNR == NR { sub(/ .*/, ""); avail[$1]++; next }
	$2 ~ /^[tT]$/ && NF == 3 && ($3 in avail) { ks[$3]++ }
	END { for (n in ks) if (ks[n] > avail[n]) { print n; exit } }' \
	"$FTG_TRACEFS/available_filter_functions" /proc/kallsyms)
[ -n "$refusable" ] || fail "no function with more kallsyms addresses than ftrace records"
log "a name with a non-site address: $refusable"

tui_open 100 30 500
[ -z "$(site_line vfs_read)" ] || fail "vfs_read is a site before it was added"
keys / vfs_read Enter
wait_screen 10 'not found: vfs_read' "vfs_read not found before +"

keys + 'vfs_rea*' Enter
wait_screen 60 'added [0-9]+ functions? \(checked\), 0 refused' "the add message"
wait_screen 10 '^ vfs_read +vmlinux +[0-9a-f]{16} core +ok ' "vfs_read checked ok on the Sites screen"
wait_screen 10 'filter vfs_rea\*' "the Sites filter on the pattern"
[ -n "$(site_line vfs_read)" ] || fail "vfs_read not in ftguard's sites table"
screen > /tmp/tui-add.txt
export_file /tmp/tui-add.txt

# trace-cmd's form through the command line
keys : 'add ksys_rea*:mod:vmlinux' Enter
wait_screen 60 'added [0-9]+ functions? \(checked\)' "the :add message"
wait_screen 10 '^ ksys_read +vmlinux .* ok ' "ksys_read on the Sites screen"
wait_screen 10 'filter ksys_rea\*:mod:vmlinux' "the filter of GLOB:mod:MODULE"
screen_lacks "^ vfs_read " || { screen; fail "vfs_read shown under the filter ksys_rea*:mod:vmlinux"; }

# Refused, with the module's reason, where the kernel lists its functions
# without their record addresses (before 6.5): kallsyms' addresses are
# offered and the module refuses those that are no record. A kernel with
# available_filter_functions_addrs gives the records: nothing is refused.
keys + "$refusable" Enter
if [ -e "$FTG_TRACEFS/available_filter_functions_addrs" ]; then
	wait_screen 60 'added [0-9]+ functions? \(checked\), 0 refused' \
		"only records of $refusable offered"
	log "records listed by the kernel: $refusable offered at its records only"
else
	wait_screen 60 'Functions refused by ftguard.ko' "the refusal dialog"
	wait_screen 10 "$refusable 0x[0-9a-f]+: .*not an ftrace record" \
		"the refused address with the module's reason"
	screen > /tmp/tui-add-refused.txt
	export_file /tmp/tui-add-refused.txt
	keys Enter
fi

# every kernel function: progress, then Esc
admitted_before=$(status admitted)
keys + '*' Enter
wait_screen 120 'adding: [0-9]+ of [0-9]+ offered' "progress of a big add"
screen | grep -o 'adding: [0-9]* of [0-9]* offered' | head -n 1 > /tmp/progress
log "$(cat /tmp/progress)"
total=$(sed 's/.* of \([0-9]*\) offered/\1/' /tmp/progress)
[ "$total" -gt 10000 ] || fail "'*' resolved to only $total functions"
keys Escape
wait_screen 120 'cancelled: added [0-9]+ functions' "the cancel message"
screen_has 'Functions refused by ftguard.ko' && keys Enter
admitted=$(status admitted)
log "admitted: $admitted_before before '*', $admitted after the cancel, of $total"
[ "$admitted" -gt "$admitted_before" ] || fail "nothing admitted before the cancel"
[ "$admitted" -lt "$total" ] || fail "the cancel did not stop the add ($admitted of $total)"
expect_eq "armed" 0 "$(status armed)"
# Every site of that large check shows the bytes the module read, in the
# detail pane and in `ftguard sites -v`.
wait_screen 20 '^ bytes: expected [0-9a-f:]{10,} actual [0-9a-f:]{10,} \(record at \+[0-9]+\)' \
	"the bytes of a site of the large check"
screen > /tmp/tui-add-bytes.txt
export_file /tmp/tui-add-bytes.txt
ftguard sites -v -m vmlinux > /tmp/sites-v.txt || fail "sites -v"
export_file /tmp/sites-v.txt
head -n 3 /tmp/sites-v.txt
nb=$(awk 'NR > 1 && $2 == "ok" && $(NF - 3) ~ /^[0-9a-f:]+$/ && $(NF - 2) ~ /^[0-9a-f:]+$/' /tmp/sites-v.txt | wc -l)
nok=$(awk 'NR > 1 && $2 == "ok"' /tmp/sites-v.txt | wc -l)
log "sites -v: $nb of $nok checked-ok vmlinux sites show expected and actual bytes"
[ "$nok" -gt 1000 ] && [ "$nb" = "$nok" ] || fail "sites -v: $nb of $nok ok sites have bytes"

keys q
wait_for 20 test -s /tmp/tui.rc || { screen; fail "the TUI did not quit"; }
expect_eq "TUI exit status" 0 "$(cat /tmp/tui.rc)"
expect_eq "admitted after the TUI quit (no admission after the cancel)" "$admitted" "$(status admitted)"
unload_ftguard
pass
