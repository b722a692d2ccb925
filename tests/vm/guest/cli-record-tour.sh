#!/bin/sh
# The first commands a new user runs, as README's "Using ftguard" shows
# them: check, record and report, start/stop, stream, tui. Each must do
# what the README says; their output is exported for the README.
. /tests/lib.sh

cli_setup 'tmux -L ftgtour kill-server'
OUTDIR=/tmp/tour
mkdir -p $OUTDIR
# show NAME CMD...: run CMD as a user would, keep "# CMD" and its output.
show() {
	_n=$1
	shift
	{ echo "# $*"; "$@" 2>&1; } > "$OUTDIR/$_n.txt"
	_st=$?
	cat "$OUTDIR/$_n.txt"
	export_file "$OUTDIR/$_n.txt" "tour-$_n.txt"
	return $_st
}

load_ftguard
show 1-status ftguard status || fail "status"
show 2-check ftguard check -l vfs_read -l 'vfs_write' || fail "check"
grep -q 'vfs_read' "$OUTDIR/2-check.txt" || fail "check does not name vfs_read"
show 3-record ftguard record -l vfs_read -o /tmp/dd.dat -- dd if=/dev/zero of=/dev/null bs=1 count=1000 ||
	fail "record"
ftguard report -i /tmp/dd.dat > /tmp/dd.txt || fail "report"
{ echo "# ftguard report -i /tmp/dd.dat | grep dd- | head -n 4"; grep ' dd-\|^dd-' /tmp/dd.txt | head -n 4; } > $OUTDIR/4-report.txt
export_file $OUTDIR/4-report.txt tour-4-report.txt
[ "$(grep -c '^dd-[0-9]* .*func: vfs_read' /tmp/dd.txt)" -ge 1000 ] || fail "report: fewer than 1000 dd reads"
show 5-start ftguard start -l vfs_write || fail "start"
echo hello > /tmp/hello.txt
show 6-stop ftguard stop || fail "stop"
ftguard stream -l vfs_read > /tmp/stream.txt 2> /tmp/stream.err &
pid=$!
bg_track $pid
wait_for 20 grep -q 'streaming' /tmp/stream.err || fail "stream did not start"
cat /proc/version > /dev/null
wait_for 20 grep -q 'func: vfs_read' /tmp/stream.txt || fail "stream shows nothing"
kill -INT $pid
wait $pid
{ echo "# ftguard stream -l vfs_read   (then Ctrl-C)"; cat /tmp/stream.err | head -n 1; head -n 4 /tmp/stream.txt; echo "..."; tail -n 1 /tmp/stream.err; } > $OUTDIR/7-stream.txt
export_file $OUTDIR/7-stream.txt tour-7-stream.txt
cat $OUTDIR/7-stream.txt

command -v tmux >/dev/null || skip "no tmux in the guest"
export PATH=$PATH:/usr/libexec
TM="tmux -L ftgtour"
screen() { $TM capture-pane -p -t tui 2>/dev/null; }
screen_has() { screen | grep -Eq -- "$1"; }
$TM new-session -d -s tui -x 80 -y 24 "ftguard tui" || fail "tmux"
wait_for 60 screen_has ' Sites .* Live .* Map ' || { screen; fail "no TUI"; }
$TM send-keys -t tui f vfs_ Enter
wait_for 20 screen_has '^ vfs_read ' || { screen; fail "vfs_read not on the Sites screen"; }
screen > $OUTDIR/8-tui.txt
export_file $OUTDIR/8-tui.txt tour-8-tui.txt
$TM send-keys -t tui q
$TM kill-server
pass
