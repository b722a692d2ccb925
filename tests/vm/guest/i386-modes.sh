#!/bin/sh
# File modes really matter: with debugfs remounted 0755 (its default 0700
# hides everything below it), every ftguard file must be 0600 or 0400 and
# owned by root, and a real unprivileged user must get EACCES reading the
# tables and writing the control file, while root still can.
. /tests/lib.sh

DEBUGFS=/sys/kernel/debug
mode0=$(stat -c %a "$DEBUGFS")
kmod_setup -c 'chmod "$mode0" "$DEBUGFS" 2>/dev/null ||
	mount -o remount,mode="$mode0" "$DEBUGFS"'

load_ftguard
mount -o remount,mode=0755 "$DEBUGFS" || fail "cannot remount debugfs 0755"
expect_eq "debugfs mode" 755 "$(stat -c %a "$DEBUGFS")"
log "ftguard dir: $(stat -c '%a %U' "$FTG_DEBUGFS")"
n=0
for f in "$FTG_DEBUGFS"/*; do
	n=$(( n + 1 ))
	set -- $(stat -c '%a %U %G' "$f")
	case "${f##*/}:$1" in
	control:600|*:400) ;;
	*) fail "${f##*/} has mode $1 (control must be 0600, tables 0400)" ;;
	esac
	[ "$2:$3" = root:root ] || fail "${f##*/} owned by $2:$3"
	log "${f##*/} $1 $2:$3"
done
[ "$n" -ge 5 ] || fail "only $n files in $FTG_DEBUGFS"
# Nothing world-writable anywhere under it (the trace instance included).
ww=$(find "$FTG_DEBUGFS" "$FTG_INSTANCE" -perm -0002 ! -type l 2>/dev/null)
[ -z "$ww" ] || fail "world-writable: $ww"

# as_nobody CMD: run CMD as the unprivileged user, print its stderr
as_nobody() { su -s /bin/sh nobody -c "$1" 2>&1 >/dev/null; }
[ "$(su -s /bin/sh nobody -c 'id -u')" = 65534 ] || fail "cannot run as nobody"
for f in status sites modules check; do
	err=$(as_nobody "cat $FTG_DEBUGFS/$f") && fail "nobody read $f"
	case "$err" in *"Permission denied"*) ;; *) fail "reading $f as nobody: '$err', not EACCES" ;; esac
done
err=$(as_nobody "echo check >$FTG_DEBUGFS/control") && fail "nobody wrote the control file"
case "$err" in *"Permission denied"*) ;; *) fail "writing control as nobody: '$err', not EACCES" ;; esac
log "nobody: $err"
# Root still works, and nobody's attempts left no trace in ftguard's state.
echo check >"$FTG_DEBUGFS/control" || fail "root cannot write control"
grep -q '^last_error -$' "$FTG_DEBUGFS/status" || fail "last_error set: $(grep last_error "$FTG_DEBUGFS/status")"
unload_ftguard
pass
