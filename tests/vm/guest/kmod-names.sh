#!/bin/sh
# Names the tables must not pass on raw: ftg_names.ko's functions are
# renamed (tests/modules/plant-names) to carry a space, a newline, a tab, a
# backslash, terminal escape sequences and a right-to-left override. Every
# table keeps one record per line and one name per field: each byte outside
# 0x21..0x7e of a name, and backslash, is printed as exactly \ooo. Free
# text (kill_reason) escapes the same bytes except space. The trace events
# carry the same escaped forms, so the instance's text trace file has no
# raw byte either.
. /tests/lib.sh

kmod_setup ftg_names

sites=$FTG_DEBUGFS/sites
# raw_bytes FILE: bytes of FILE outside printable ASCII, newline excepted
raw_bytes() { tr -d '\040-\176\n' <"$1" | wc -c; }
# names go through the environment: awk -v would undo their escapes

load_ftguard fi
load_test_module ftg_names

# 1. The sites table: each renamed function exactly once, escaped.
printf '%s\n' ftg_names_plain "$FTG_PLANTED_NAMES" | while IFS= read -r name; do
	expect_eq "sites listing $name" 1 "$(site_ip "$name" ftg_names | wc -l)"
done || exit 1
export_file "$sites" sites.txt
expect_eq "raw bytes in sites" 0 "$(raw_bytes "$sites")"
expect_eq "sites lines without 10 fields" 0 "$(awk 'NR > 1 && NF != 10' "$sites" | wc -l)"
expect_eq "raw bytes in modules" 0 "$(raw_bytes "$FTG_DEBUGFS/modules")"

# 2. The check report (response and table) names them escaped too.
exec 3<>"$FTG_DEBUGFS/control"
echo select-module ftg_names >&3 || fail "select-module ftg_names"
echo check >&3 || fail "check"
cat <&3 >/tmp/names-check.txt
export_file /tmp/names-check.txt check-response.txt
grep -q '^result ok [0-9]* 0 ' /tmp/names-check.txt || fail "check: $(sed -n 2p /tmp/names-check.txt)"
for f in /tmp/names-check.txt "$FTG_DEBUGFS/check"; do
	expect_eq "raw bytes in $f" 0 "$(raw_bytes "$f")"
	expect_eq "lines of $f without 6 fields" 0 "$(awk 'NR > 2 && NF != 6' "$f" | wc -l)"
	grep -q ' ftg_names_clear\\033\[2J\\033\[H$' "$f" || fail "$f does not name ftg_names_clear escaped"
done

# 3. Free text: a kill whose reason quotes the name keeps it escaped.
echo arm >&3 || fail "arm"
clear_ip=$(site_ip 'ftg_names_clear\033[2J\033[H' ftg_names)
[ -n "$clear_ip" ] || fail "no ip for ftg_names_clear"
# one write: the periodic verification cannot kill in between
printf 'corrupt %s\nverify\n' "$clear_ip" >&3 && fail "verify of a corrupted armed site succeeded"
grep -q '^killed 1$' "$FTG_DEBUGFS/status" || fail "not killed"
export_file "$FTG_DEBUGFS/status" status-killed.txt
expect_eq "raw bytes in status" 0 "$(raw_bytes "$FTG_DEBUGFS/status")"
grep -q '^kill_reason verify: check failed (1 bad): mismatch '"$clear_ip"' ftg_names_clear\\033\[2J\\033\[H$' \
	"$FTG_DEBUGFS/status" || fail "kill_reason: $(grep '^kill_reason' "$FTG_DEBUGFS/status")"

# 4. The events (site adds, the kill) in the instance's text trace file.
cat "$FTG_INSTANCE/trace" >/tmp/names-trace.txt
export_file /tmp/names-trace.txt trace.txt
expect_eq "raw bytes in the trace file" 0 "$(raw_bytes /tmp/names-trace.txt)"
grep -q ' site: ip=0x[0-9a-f]* name=ftg_names_clear\\033\[2J\\033\[H action=add reason=ftg_names$' \
	/tmp/names-trace.txt || fail "no escaped site event for ftg_names_clear"
grep -q ' kill: reason=verify: check failed (1 bad): mismatch '"$clear_ip"' ftg_names_clear\\033\[2J\\033\[H$' \
	/tmp/names-trace.txt || fail "no escaped kill event"
echo reset >&3 || fail "reset"
exec 3>&-

rmmod ftg_names || fail "rmmod ftg_names"
unload_ftguard
pass
