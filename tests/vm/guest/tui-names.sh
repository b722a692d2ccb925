#!/bin/sh
# Hostile names through the TUI (tmux): ftg_names.ko's functions, renamed
# to carry escape sequences (clear screen, set title, move the cursor), a
# newline, a tab, a backslash and a right-to-left override, are listed in
# the visible \ooo form. Nothing reached the terminal raw: the pane's
# content with attributes (capture-pane -e) holds no escape sequence but
# SGR attributes, the pane title is untouched and the tab bar is still on
# the first row. Arming one of them from the TUI counts its hits and the
# Live screen shows its events escaped too.
. /tests/lib.sh

N=5
T="tmux -L ftgnames"
TUI_ERR=/tmp/tui-names.err
. /tests/tui.inc
TRIGGER=/sys/kernel/debug/ftg_names/trigger
esc=$(printf '\033')
screen_has_fixed() { screen | grep -qF -- "$1"; }
wait_fixed() { # wait_fixed SECONDS TEXT WHAT
	wait_for "$1" screen_has_fixed "$2" ||
		{ screen; cat /tmp/tui-names.err 2>/dev/null; fail "screen never showed $3 ('$2')"; }
}
# no_raw_sequences WHAT: the pane with its attributes (-e) holds no ESC
# but those of SGR attribute sequences, and no other control byte.
no_raw_sequences() {
	$T capture-pane -e -p -t tui > /tmp/tui-names-e.txt || fail "capture-pane -e"
	sed "s/$esc\[[0-9;]*m//g" /tmp/tui-names-e.txt > /tmp/tui-names-plain.txt
	expect_eq "$1: ESC outside SGR" 0 "$(tr -dc '\033' < /tmp/tui-names-plain.txt | wc -c)"
	expect_eq "$1: other control bytes" 0 "$(tr -d '\040-\377\n\033' < /tmp/tui-names-e.txt | wc -c)"
	screen | head -n 1 | grep -q ' Sites .* Live .* Map ' ||
		{ screen; fail "$1: the tab bar left the first row"; }
	title=$($T display-message -p -t tui '#{pane_title}')
	case "$title" in *pwned*) fail "$1: a name set the pane title ('$title')" ;; esac
	log "$1: no raw sequence reached the pane (title '$title')"
}

command -v tmux >/dev/null || skip "no tmux in the guest"
TUI_UNLOAD=ftg_names
export PATH=$PATH:/usr/libexec
load_ftguard
load_test_module ftg_names

rm -f /tmp/tui-names.rc
# wide enough that the name column holds the longest name whole
$T new-session -d -s tui -x 160 -y 30 \
	"ftguard tui -- --refresh 250 2>/tmp/tui-names.err; echo \$? > /tmp/tui-names.rc" ||
	fail "tmux new-session"
wait_screen 60 ' Sites .* Live .* Map ' "the tab bar"
keys f module:ftg_names Enter
wait_screen 10 ' 10 of [0-9]+ sites, filter module:ftg_names' "the filter"
printf '%s\n' "$FTG_PLANTED_NAMES" | while IFS= read -r name; do
	wait_fixed 10 " $name " "$name"
done || exit 1
screen > /tmp/tui-names-sites.txt
export_file /tmp/tui-names-sites.txt
no_raw_sequences "Sites"

# Arm ftg_names_clear (the cursor's site) and count its hits.
keys / ftg_names_clear Enter
wait_fixed 10 ' ftg_names_clear\033[2J\033[H [ftg_names] 0x' "ftg_names_clear's details"
keys a
wait_screen 20 'armed 1 site' "the arm message"
echo "$N" > "$TRIGGER" || fail "trigger"
wait_screen 20 "^ ftg_names_clear.033\[2J.033\[H +ftg_names +[0-9a-f]{16} core +armed +$N " \
	"ftg_names_clear armed with $N hits"
no_raw_sequences "Sites, armed"

keys 2
wait_screen 20 ' <- |← ' "events on the Live screen"
screen > /tmp/tui-names-live.txt
export_file /tmp/tui-names-live.txt
no_raw_sequences "Live"
# (reported last: the name comes from libtraceevent's kallsyms map)
live_named=yes
(wait_fixed 10 'ftg_names_clear\033[2J\033[H [ftg_names]' "ftg_names_clear on the Live screen") \
	>/tmp/tui-names-live-fail.txt || live_named=no

keys 1 q
wait_for 20 test -s /tmp/tui-names.rc || { screen; fail "the TUI did not quit"; }
expect_eq "TUI exit status" 0 "$(cat /tmp/tui-names.rc)"
grep -q '^armed 0$' "$FTG_DEBUGFS/status" || fail "still armed after q"
[ -s /tmp/tui-names.err ] && { cat /tmp/tui-names.err; fail "the TUI wrote to stderr"; }
[ "$live_named" = yes ] || { cat /tmp/tui-names-live-fail.txt; fail "the Live screen does not name ftg_names_clear"; }
$T kill-server 2>/dev/null
rmmod ftg_names || fail "rmmod ftg_names"
unload_ftguard
pass
