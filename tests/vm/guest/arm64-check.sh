#!/bin/sh
# Check clean on arm64: vmlinux functions are admitted at their record
# (after "mov x9, x30", and "bti c" if any) and refused at the symbol;
# then a check of every site ftguard knows (e1000e, the test modules, the
# admitted functions) finds each one's bytes as expected, none bad.
. /tests/lib.sh
. /tests/arm64-lib.inc
kmod_setup ftg_target ftg_other

load_ftguard
load_test_module ftg_target
load_test_module ftg_other
exec 3<>"$FTG_DEBUGFS/control"
admitted=0 refused=0
for f in vfs_read vfs_fsync __arm64_sys_syncfs; do
	grep -qx "$f" "$FTG_TRACEFS/available_filter_functions" || fail "$f is no ftrace record"
	sym=$(ksym $f) || fail "no unique kallsyms entry for $f"
	echo "admit $f $sym" >&3 2>/dev/null && fail "admitted $f at its symbol $sym, not its record"
	refused=$((refused + 1))
	log "$f at $sym refused: $(cat <&3)"
	rec=$(ftg_record_of $f)
	echo "admit $f $rec" >&3 2>/dev/null || fail "admit $f at its record $rec: $(cat <&3)"
	expect_eq "$f admit answer" ok "$(cat <&3)"
	admitted=$((admitted + 1))
	off=$((rec - sym))
	set -- $(awk -v a="$rec" '($1 "") == (a "")' "$FTG_DEBUGFS/sites")
	expect_eq "$f site line" "$rec unchecked core vmlinux 0 0 $f $off $(arm64_expected $off) -" "$*"
done
expect_eq "admitted" "$admitted" "$(status admitted)"
expect_eq "rejected" "$refused" "$(status rejected)"

# the whole table: an empty selection checks every site
total=$(status sites)
expect_eq "sites listed" "$total" "$(($(wc -l <"$FTG_DEBUGFS/sites") - 1))"
echo check >&3 || fail "check of all sites: $(cat <&3)"
cat <&3 >/tmp/check.txt
export_file /tmp/check.txt
set -- $(sed -n 2p /tmp/check.txt)
expect_eq "check of all $total sites" "result ok $total 0" "$1 $2 $3 $4"
expect_eq "sites not ok" 0 "$(awk 'NR > 1 && $2 != "ok"' "$FTG_DEBUGFS/sites" | wc -l)"
bad=$(awk 'NR > 1 && ($9 != $10 || $6 != 1)' "$FTG_DEBUGFS/sites")
[ -z "$bad" ] || fail "sites read other than once or not as expected: $(echo "$bad" | head -n 3)"
log "$total sites checked: $(awk 'NR > 1 { print $4 }' "$FTG_DEBUGFS/sites" | sort | uniq -c | tr -s ' \n' ' ')"
exec 3>&-
unload_ftguard
pass
