#!/bin/sh
# The TUI arms vfs_read, whose calls include the TUI's own reads of the
# trace buffer, under a load of 100,000-read dd runs: the Live screen keeps
# updating, ?, the screen keys and C-l are answered (polled; each time is
# logged, the hang bound is HANG_CS), the TUI's own events are hidden by
# default and shown after H, q exits and leaves nothing enabled; so does
# killing the terminal (the tmux server) instead of q.
. /tests/lib.sh
. /tests/read-load.inc

T="tmux -L ftgvfs"
. /tests/tui.inc
# answered KEY REGEX WHAT: KEY's answer is on the screen (time logged).
answered() {
	keys "$1"
	within $HANG_CS screen_has "$2" ||
		{ screen; fail "$3 not answered within $((HANG_CS / 100)) s (/$2/, ${WAITED_CS}0 ms)"; }
	log "$3 answered in ${WAITED_CS}0 ms"
}
events() { screen | sed -n 's/.* | events \([0-9]*\).*/\1/p' | head -n 1; }
events_above() { [ "$(events)" -gt "$1" ] 2>/dev/null; }

start_tui() {
	tui_open 80 24 250
	keys / vfs_read Enter
	wait_screen 20 '^ vfs_read +vmlinux ' "vfs_read on the Sites screen"
	keys a
	wait_screen 20 'armed 1 site' "the arm message"
	wait_for 10 vfs_read_enabled || fail "vfs_read not in enabled_functions"
	TUI_PID=$(awk '$1 == "owner" { print $2 }' "$FTG_DEBUGFS/status")
	log "the TUI (pid $TUI_PID) armed vfs_read"
}

command -v tmux >/dev/null || skip "no tmux in the guest"
TUI_CLEANUP=read_load_stop
export PATH=$PATH:/usr/libexec
load_ftguard
# A kernel function becomes a site once ftguard.ko admitted it.
ftguard -q check -l vfs_read || fail "check -l vfs_read"

start_tui
read_load_start
keys 2
wait_screen 10 'FOLLOW \(p\) \| lost [0-9]+ \| events [0-9]+' "the Live header"
wait_for 20 screen_has ' dd-[0-9]+ +vfs_read ' || { screen; fail "no dd vfs_read on the Live screen"; }
n=$(events)
wait_for 10 events_above "$n" || { screen; fail "the Live screen stopped at $n events"; }
log "Live: $n events, then $(events)"
# The TUI's own reads are vfs_read calls too: hidden by default, counted.
wait_for 10 screen_has 'own hidden [0-9]+' || { screen; fail "own events not counted as hidden"; }
screen | grep -Eq " [a-z-]*-$TUI_PID +vfs_read " && { screen; fail "the TUI's own events shown by default"; }
screen > /tmp/live-vfs-read.txt
export_file /tmp/live-vfs-read.txt

answered '?' 'Help: Live' "? (help)"
answered Escape 'FOLLOW \(p\)' "Esc (close help)"
answered 1 'FUNCTION +OWNER +ADDRESS' "1 (Sites)"
answered 3 'regions, [0-9]+ overlaps' "3 (Map)"
answered 2 'FOLLOW \(p\)' "2 (Live)"
answered C-l 'FOLLOW \(p\)' "C-l"
# Hidden: a filter on the TUI's name finds none of its events...
no_dd_rows() { ! screen_has ' dd-[0-9]+ +vfs_read '; }
keys f C-u ftguard-tui Enter
wait_for 5 no_dd_rows || { screen; fail "the filter on ftguard-tui still shows dd"; }
screen_has "ftguard-tui-$TUI_PID +vfs_read " && { screen; fail "own events shown while hidden"; }
# ...after H, it does: they are real calls of vfs_read. Under the load the
# TUI takes full pages (spliced, no vfs_read of its own); idle, it reads
# the page being filled, and that read is its own event.
# Its first own event comes after the TUI has drained what the load left
# in the instance's buffer (up to a full buffer per CPU): on a busy host
# that took more than 10 s.
answered H "showing this TUI's own events" "H (show own events)"
read_load_stop
wait_for 30 screen_has "ftguard-tui-$TUI_PID +vfs_read " || { screen; fail "own events not shown after H"; }
screen > /tmp/live-own.txt
export_file /tmp/live-own.txt
answered H "hiding this TUI's own events" "H (hide them again)"
keys f C-u Enter
read_load_start

keys q
within $HANG_CS test -s /tmp/tui.rc || { screen; fail "q: the TUI did not exit within $((HANG_CS / 100)) s"; }
log "q: exited in ${WAITED_CS}0 ms"
within $HANG_CS nothing_enabled || fail "q: enabled_functions not empty within $((HANG_CS / 100)) s"
expect_eq "TUI exit status after q" 0 "$(cat /tmp/tui.rc)"
$T kill-server 2>/dev/null

# The terminal goes away instead: SIGHUP, and the arm goes with the TUI.
start_tui
keys 2
wait_for 20 screen_has ' dd-[0-9]+ +vfs_read ' || { screen; fail "no dd vfs_read (second TUI)"; }
$T kill-server
within $HANG_CS nothing_enabled || fail "terminal killed: enabled_functions not empty within $((HANG_CS / 100)) s"
log "terminal killed: nothing enabled after ${WAITED_CS}0 ms"
within $HANG_CS sh -c "! kill -0 $TUI_PID 2>/dev/null" || fail "terminal killed: the TUI ($TUI_PID) still runs"
read_load_stop
expect_eq "armed at the end" 0 "$(awk '$1 == "armed" { print $2 }' "$FTG_DEBUGFS/status")"
unload_soon ftguard || fail "rmmod ftguard"
pass
