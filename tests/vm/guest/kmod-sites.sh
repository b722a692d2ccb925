#!/bin/sh
# Sites come from ftrace_callsites: of a module loaded before ftguard (core
# only) and after (init sites too, dropped at LIVE); all dropped at rmmod,
# each drop an event in the ftguard instance.
. /tests/lib.sh

# Leave the system as found, also when a check fails half-way.
kmod_setup ftg_target ftg_other

sites=$FTG_DEBUGFS/sites
trace=$FTG_INSTANCE/trace
# count_sites OWNER [SECTION]
count_sites() { awk -v o="$1" -v s="${2:-}" '$4 == o && (s == "" || $3 == s)' "$sites" | wc -l; }
has_site() { awk -v o="$1" -v n="$2" '$4 == o && $7 == n { f = 1 } END { exit !f }' "$sites"; }
# count_drops NAME REASON: site drop events of function NAME
count_drops() { grep -c " site: .* name=$1 action=drop reason=$2\$" "$trace"; }

# 1. ftg_target loaded before ftguard: its core sites, no init site.
load_test_module ftg_target
load_ftguard
head -n 1 "$sites" | grep -qx "ftguard-sites 2" || fail "sites header: $(head -n 1 "$sites")"
has_site ftg_target fn_a || fail "fn_a not a site"
has_site ftg_target fn_b || fail "fn_b not a site"
expect_eq "init sites of ftg_target loaded before ftguard" 0 "$(count_sites ftg_target init)"
has_site ftg_target init_one && fail "freed init_one listed as a site"
grep -q '^ftg_target live ' "$FTG_DEBUGFS/modules" || fail "ftg_target not live in modules"
core_before=$(count_sites ftg_target core)
log "ftg_target core sites: $core_before"
[ "$core_before" -ge 3 ] || fail "expected >= 3 core sites, got $core_before"
# every site of e1000e (loaded at boot) came in too, none of them init
expect_eq "e1000e init sites" 0 "$(count_sites e1000e init)"
[ "$(count_sites e1000e)" -gt 100 ] || fail "e1000e has only $(count_sites e1000e) sites"

# 2. rmmod: all of its sites dropped, each an event with reason going.
rmmod ftg_target || fail "rmmod ftg_target"
expect_eq "ftg_target sites after rmmod" 0 "$(count_sites ftg_target)"
expect_eq "fn_a drop events (going)" 1 "$(count_drops fn_a going)"
expect_eq "fn_b drop events (going)" 1 "$(count_drops fn_b going)"
drops=$(grep -c " site: .*action=drop reason=going" "$trace")
expect_eq "going drop events = sites it had" "$core_before" "$drops"
grep -q '^ftg_target gone ' "$FTG_DEBUGFS/modules" || fail "no ftg_target tombstone"

# 3. loaded after ftguard: init sites taken at COMING, dropped at LIVE.
echo > "$trace"
load_test_module ftg_target
expect_eq "init sites after load" 0 "$(count_sites ftg_target init)"
expect_eq "core sites after reload" "$core_before" "$(count_sites ftg_target core)"
for f in init_one init_two init_three ftg_target_init; do
	expect_eq "$f add events" 1 "$(grep -c " site: .* name=$f action=add reason=ftg_target\$" "$trace")"
	expect_eq "$f drop events (init-free)" 1 "$(count_drops $f init-free)"
done
line=$(grep '^ftg_target live ' "$FTG_DEBUGFS/modules" | head -n 1)
log "modules: $line"
set -- $line
expect_eq "init text state" dropped "$7"
[ "$6" -gt 0 ] || fail "init_text_size $6"
expect_eq "nsites in modules" "$core_before" "$9"
grep -q " module: name=ftg_target state=live nsites=$core_before" "$trace" ||
	fail "no module live event"

# 3b. "sites OWNER..." on the control file: the table's lines of those
# owners, as ftguard/sites has them; an owner without sites adds nothing;
# a call without an owner, or with too many, is refused.
exec 3<>"$FTG_DEBUGFS/control"
ask() { echo "$*" >&3 2>/dev/null; }
answer() { cat <&3; }
ask sites ftg_target || fail "sites ftg_target: $(answer)"
answer > /tmp/sites-cmd
expect_eq "sites answer header" "ftguard-sites 2" "$(head -n 1 /tmp/sites-cmd)"
awk '$4 == "ftg_target"' "$sites" > /tmp/sites-file
tail -n +2 /tmp/sites-cmd | diff /tmp/sites-file - || fail "sites ftg_target differs from ftguard/sites"
expect_eq "sites ftg_target lines" "$core_before" "$(tail -n +2 /tmp/sites-cmd | wc -l)"
ask sites e1000e nosuchmod ftg_target || fail "sites of three owners: $(answer)"
expect_eq "sites of e1000e and ftg_target" \
	$(($(count_sites e1000e) + core_before + 1)) "$(answer | wc -l)"
ask sites nosuchmod || fail "sites nosuchmod: $(answer)"
expect_eq "sites of an owner without sites" "ftguard-sites 2" "$(answer)"
ask sites && fail "sites without an owner accepted"
case "$(answer)" in "error EINVAL usage: sites <owner>..."*) ;; *) fail "sites without owner: $(answer)" ;; esac
ask sites $(seq 33) && fail "sites of 33 owners accepted"
case "$(answer)" in "error E2BIG "*) ;; *) fail "sites of 33 owners: $(answer)" ;; esac
exec 3>&-

# 4. rmmod again: everything gone, events again.
rmmod ftg_target || fail "rmmod ftg_target (2)"
expect_eq "sites after second rmmod" 0 "$(count_sites ftg_target)"
expect_eq "fn_a drop events after second rmmod" 1 "$(count_drops fn_a going)"
export_file "$trace" trace.txt
unload_ftguard
pass
