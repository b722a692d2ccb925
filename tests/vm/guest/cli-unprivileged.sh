#!/bin/sh
# ftguard as a real unprivileged user (nobody): status, sites, check and
# start exit 2 and say why (the path that refused it, its mode, that
# debugfs's default 0700 hides the module's files, run as root), both with
# debugfs at 0700 and remounted 0755 so that the files' own modes decide.
# Nothing changes in ftguard.ko's state. As root with umask 0, record,
# export and snapshot write nothing group- or world-writable.
. /tests/lib.sh

DEBUGFS=/sys/kernel/debug
mode0=$(stat -c %a "$DEBUGFS")
cli_setup 'mount -o remount,mode="$mode0" "$DEBUGFS"; rm -rf /tmp/unpriv'
mkdir -p /tmp/unpriv && chmod 0755 /tmp/unpriv && cd /tmp/unpriv || fail "cd /tmp/unpriv"

[ "$(su -s /bin/sh nobody -c 'id -u')" = 65534 ] || fail "cannot run as nobody"
# as_nobody CMD: run ftguard CMD as nobody; its stderr in ERR, status in ST
as_nobody() {
	ERR=$(su -s /bin/sh nobody -c "cd /tmp; ftguard $1" 2>&1 >/dev/null)
	ST=$?
}
# ftguard.ko's state, as root sees it
state() { cat "$FTG_DEBUGFS/status" "$FTG_DEBUGFS/sites" "$FTG_DEBUGFS/modules" "$FTG_DEBUGFS/check"; }

load_ftguard
load_test_module ftg_target
echo check > "$FTG_DEBUGFS/control" || fail "root cannot check"
state > state-before.txt

# try_all MODE PATH-REGEX WHY-REGEX: every command refused, explained
try_all() {
	mount -o remount,mode="$1" "$DEBUGFS" || fail "cannot remount debugfs $1"
	expect_eq "debugfs mode" "$1" "$(stat -c %a "$DEBUGFS")"
	for cmd in status sites check 'start -l fn_a'; do
		as_nobody "$cmd"
		log "debugfs $1, nobody: ftguard $cmd -> $ST: $ERR"
		expect_eq "exit status of 'ftguard $cmd' as nobody (debugfs $1)" 2 "$ST"
		for want in "^ftguard ${cmd%% *}: must be run as root: " \
			"permission denied on $2 " "$3" "try 'sudo ftguard ${cmd%% *}'"; do
			echo "$ERR" | grep -q -- "$want" ||
				fail "ftguard $cmd as nobody (debugfs $1): '$ERR' lacks /$want/"
		done
		[ "$(echo "$ERR" | wc -l)" = 1 ] || fail "ftguard $cmd: more than one line: '$ERR'"
	done
}
try_all 700 "$DEBUGFS" "(mode 0700: debugfs's default 0700 hides ftguard.ko's files"
try_all 755 "$FTG_DEBUGFS/[a-z/]*" "(mode 0[0-7]00, root's: ftguard.ko's control file is 0600 and its tables 0400)"
# and the files themselves refuse nobody (the command did not just guess)
su -s /bin/sh nobody -c "cat $FTG_DEBUGFS/status" >/dev/null 2>&1 && fail "nobody read status"
su -s /bin/sh nobody -c "echo arm > $FTG_DEBUGFS/control" 2>/dev/null && fail "nobody wrote control"
mount -o remount,mode="$mode0" "$DEBUGFS" || fail "cannot restore debugfs mode $mode0"

state > state-after.txt
cmp -s state-before.txt state-after.txt ||
	{ diff state-before.txt state-after.txt; fail "nobody's attempts changed ftguard's state"; }
grep -q '^armed 0$' "$FTG_DEBUGFS/status" || fail "armed after nobody's start"

# Outputs as root with umask 0: 0644 or stricter, never group/world-writable.
# wide_open FILE...: the files among FILE... that group or others may write
wide_open() { find "$@" -perm /022 ! -type l; }
(umask 0 && ftguard -q record -l fn_a -o rec.dat -- sh -c "echo 3 > $T") || fail "record"
(umask 0 && ftguard -q export -i rec.dat -f json -o rec.json) || fail "export"
(umask 0 && ftguard -q snapshot snap) || fail "snapshot"
log "modes: $(stat -c '%a %n' rec.dat rec.json snap)"
ww=$(wide_open rec.dat rec.json snap)
[ -z "$ww" ] || fail "group/world-writable with umask 0: $(stat -c '%a %n' $ww | head -n 5)"
expect_eq "rec.dat mode" 644 "$(stat -c %a rec.dat)"
expect_eq "rec.json mode" 644 "$(stat -c %a rec.json)"

cd / && rm -rf /tmp/unpriv
rmmod ftg_target || fail "rmmod ftg_target"
unload_ftguard
pass
