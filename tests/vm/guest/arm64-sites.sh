#!/bin/sh
# A test module's sites on arm64: one per ftrace record the kernel has for
# it, each its function's record (the symbol's address plus the prologue
# before it, by kallsyms), the prologue's bytes expected; its init sites
# taken at COMING and dropped at LIVE; a check reads each site once and
# finds the bytes it expects; rmmod drops them all.
. /tests/lib.sh
. /tests/arm64-lib.inc
kmod_setup ftg_target

trace=$FTG_INSTANCE/trace
load_ftguard
arm64_sites_header
load_test_module ftg_target
records=$(grep -c ' \[ftg_target\]$' "$FTG_TRACEFS/available_filter_functions")
expect_eq "ftg_target sites = its ftrace records" "$records" \
	"$(awk '$4 == "ftg_target"' "$FTG_DEBUGFS/sites" | wc -l)"

for f in fn_a fn_b trigger_write; do
	set -- $(site_line ftg_target $f)
	[ $# -ge 10 ] || fail "no site line for $f"
	sym=$(ksym $f ftg_target) || fail "no unique kallsyms entry for $f"
	expect_eq "$f state" unchecked "$2"
	expect_eq "$f section" core "$3"
	expect_eq "$f record at $sym+$8" "$(printf '0x%x' $((sym + $8)))" "$1"
	expect_eq "$f expected bytes" "$(arm64_expected "$8")" "$9"
	expect_eq "$f actual bytes before a check" - "${10}"
	grep -qx "$f \[ftg_target\]" "$FTG_TRACEFS/available_filter_functions" ||
		fail "$f is no ftrace record"
done

# init sites: taken at COMING, dropped when init ended (LIVE)
expect_eq "init sites after load" 0 "$(awk '$4 == "ftg_target" && $3 == "init"' "$FTG_DEBUGFS/sites" | wc -l)"
for f in init_one init_two init_three ftg_target_init; do
	expect_eq "$f add events" 1 "$(grep -c " site: .* name=$f action=add reason=ftg_target\$" "$trace")"
	expect_eq "$f drop events (init-free)" 1 "$(grep -c " site: .* name=$f action=drop reason=init-free\$" "$trace")"
done

# check: every site read once, its bytes as expected
exec 3<>"$FTG_DEBUGFS/control"
echo "select-module ftg_target" >&3 || fail "select-module: $(cat <&3)"
echo check >&3 || fail "check: $(cat <&3)"
cat <&3 >/tmp/check.txt
export_file /tmp/check.txt
set -- $(sed -n 2p /tmp/check.txt)
expect_eq "check" "result ok $records 0" "$1 $2 $3 $4"
for f in fn_a fn_b trigger_write; do
	set -- $(site_line ftg_target $f)
	expect_eq "$f state after check" ok "$2"
	expect_eq "$f reads" 1 "$6"
	expect_eq "$f bytes read" "$9" "${10}"
	set -- $(awk -v a="$1" '($1 "") == (a "")' /tmp/check.txt)
	expect_eq "$f check line" "ok ftg_target $(arm64_expected "$(site_field $f 8)") $(arm64_expected "$(site_field $f 8)") $f" "$2 $3 $4 $5 $6"
done
exec 3>&-

rmmod ftg_target || fail "rmmod ftg_target"
expect_eq "ftg_target sites after rmmod" 0 "$(awk '$4 == "ftg_target"' "$FTG_DEBUGFS/sites" | wc -l)"
expect_eq "going drop events" "$records" "$(grep -c ' site: .*action=drop reason=going$' "$trace")"
unload_ftguard
pass
