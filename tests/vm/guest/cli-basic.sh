#!/bin/sh
# ftguard status, sites, check, map, start, stop, reset against the real
# module: answers, exit statuses (0 ok, 1 refused, 2 error) and the
# actionable errors when the module is missing.
. /tests/lib.sh

cli_setup


# Without the module: an answer for status, the way to load it for the rest.
run 1 ftguard status
out_has 'not loaded'
err_has 'insmod\|modprobe'
run 2 ftguard sites
err_has 'ftguard.ko is not loaded'
run 2 ftguard start -l fn_a
err_has 'not loaded'

load_ftguard
load_test_module ftg_target

# not root: said so, exit 2
err=$(su -s /bin/sh nobody -c 'ftguard sites' 2>&1 >/dev/null)
expect_eq "ftguard sites as nobody" 2 "$(su -s /bin/sh nobody -c 'ftguard sites >/dev/null 2>&1; echo $?')"
case "$err" in *"must be run as root"*) ;; *) fail "as nobody: '$err'" ;; esac

run 0 ftguard status
out_has '^module: *loaded'
out_has '^armed: *no'
run 0 ftguard status --json
out_has '"loaded":true'
run 0 ftguard sites -m ftg_target
out_has ' fn_a$'
out_has ' fn_b$'
run 1 ftguard sites -m no_such_module

run 0 ftguard check -m ftg_target
out_has 'consistent'
run 0 ftguard sites -m ftg_target --state ok --json
out_has '"name":"fn_a"'
run 0 ftguard check -l vfs_read
out_has 'checked 1 sites'
run 0 ftguard check -l 'ftg_target:fn_*' --json
out_has '"ok":true'
# Every function: those ftguard.ko refuses to admit leave the selection,
# with a warning; the others are checked.
run 0 ftguard check -l '*'
out_has 'checked [0-9]* sites'
log "check -l '*': $(cat "$OUT") $(cat "$ERR")"
run 2 ftguard check -l no_such_function_xyz
err_has 'no function matches'
run 2 ftguard check -l 'fn_['
err_has 'bad glob'

fn_a=$(site_field fn_a 1)
[ -n "$fn_a" ] || fail "no fn_a site"
run 0 ftguard map --at "$fn_a"
out_has 'ftg_target'
run 0 ftguard map
out_has 'core-text'
out_has 'module-text'
run 0 ftguard map --json
out_has '"regions":\['

# snapshot: a saved copy reads like the live system
run 0 ftguard snapshot /tmp/cli-snap
ftguard sites -m ftg_target > /tmp/cli-live.txt || fail "live sites"
run 0 ftguard --root /tmp/cli-snap sites -m ftg_target
cmp -s "$OUT" /tmp/cli-live.txt || { diff /tmp/cli-live.txt "$OUT"; fail "snapshot sites differ"; }
run 0 ftguard --root /tmp/cli-snap map --at "$fn_a"
out_has 'ftg_target'
rm -rf /tmp/cli-snap /tmp/cli-live.txt

# tui: runs ftguard-tui from libexecdir
run 0 ftguard tui -- --help
out_has 'ftguard-tui'

# start: persistent arm, refused while armed; stop; reset
run 2 ftguard start
err_has 'nothing selected'
run 0 ftguard start -l fn_a
grep -q '^armed 1$' "$FTG_DEBUGFS/status" || fail "not armed after start"
grep -q '^owner persistent' "$FTG_DEBUGFS/status" || fail "start's arm is not persistent"
echo 5 > "$T" || fail "trigger"
expect_eq "fn_a hits while started" 5 "$(site_field fn_a 5)"
run 1 ftguard start -l fn_b
err_has 'refused'
run 0 ftguard status
out_has '^armed: *yes, 1 sites, owner persistent'
run 0 ftguard stop
grep -q '^armed 0$' "$FTG_DEBUGFS/status" || fail "still armed after stop"
expect_eq "enabled_functions after stop" 0 "$(wc -l < "$FTG_TRACEFS/enabled_functions")"
run 0 ftguard stop
run 0 ftguard reset
run 0 ftguard status
out_has '^killed: *no'

# A selection of module functions is resolved over ftguard.ko's own site
# table: with the kernel's function lists hidden (empty files bound over
# them), start still finds a module function. So does a vmlinux one, as
# the check -l '*' above offered every one and left the record count.
: > /tmp/empty-list
for f in available_filter_functions available_filter_functions_addrs; do
	[ -e "$FTG_TRACEFS/$f" ] || continue
	mount --bind /tmp/empty-list "$FTG_TRACEFS/$f" || fail "bind over $f"
	CLI_CLEANUP="${CLI_CLEANUP:+$CLI_CLEANUP; }umount $FTG_TRACEFS/$f"
done
expect_eq "hidden function list" 0 "$(wc -l < "$FTG_TRACEFS/available_filter_functions")"
run 0 ftguard start -l 'ftg_target:fn_?' -n ftg_target:fn_b
expect_eq "armed sites of ftg_target:fn_? less fn_b" 1 "$(status armed_sites)"
hits=$(site_field fn_a 5)
echo 3 > "$T" || fail "trigger"
expect_eq "fn_a hits armed from the module's table" $((hits + 3)) "$(site_field fn_a 5)"
run 0 ftguard stop
run 0 ftguard check -m ftg_target
out_has 'consistent'
run 2 ftguard check -l ftg_target:no_such_fn
err_has 'no function matches "ftg_target:no_such_fn"'
run 0 ftguard -v check -l vfs_read
err_has 'selecting over its sites'
out_has 'checked 1 sites'
run 2 ftguard check -l no_such_function_xyz
err_has 'no function matches'
eval "$CLI_CLEANUP"
CLI_CLEANUP=
[ "$(wc -l < "$FTG_TRACEFS/available_filter_functions")" -gt 1000 ] ||
	fail "function list still hidden"

rmmod ftg_target || fail "rmmod ftg_target"
unload_ftguard
pass
