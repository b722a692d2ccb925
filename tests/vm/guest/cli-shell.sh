#!/bin/sh
# ftguard shell: a scripted session through a pipe (no prompt, exit status
# of the last failure), and an interactive one through a pty in tmux:
# completion of commands, options, module and function names, history.
. /tests/lib.sh

cli_setup 'tmux -L ftg-cli-shell kill-server'

export HOME=/tmp/cli-shell-home
rm -rf "$HOME"
mkdir -p "$HOME"

load_ftguard
load_test_module ftg_target

# ---- through a pipe ----
printf 'status\nsites -m ftg_target\nstart -l fn_a\nstatus\nstop\n' | ftguard shell > pipe.out 2> pipe.err
st=$?
cat pipe.out pipe.err
expect_eq "piped session status" 0 "$st"
grep -q 'ftguard>' pipe.out && fail "a prompt was printed to a pipe"
grep -q ' fn_a$' pipe.out || fail "sites output missing"
grep -q '^armed: *yes, 1 sites, owner persistent' pipe.out || fail "start in the shell did not arm"
grep -q '^armed 0$' "$FTG_DEBUGFS/status" || fail "stop in the shell did not disarm"
printf 'check -l no_such_function_xyz\nstatus\n' | ftguard shell > /dev/null 2> pipe.err
expect_eq "piped session with a failure" 2 "$?"
grep -q 'no function matches' pipe.err || fail "no error message: $(cat pipe.err)"
[ -e "$HOME/.ftguard_history" ] && fail "a piped session wrote history"

# ---- through a pty ----
command -v tmux >/dev/null || skip "no tmux in the guest"
S="tmux -L ftg-cli-shell -f /dev/null"
screen() { $S capture-pane -p -t cli; }
screen_has() { screen | grep -q -- "$1"; }
# TCG on a loaded host is slow: generous bounds, never fixed sleeps
wait_screen() { wait_for "${2:-30}" screen_has "$1" || { screen; fail "screen never showed '$1'"; }; }

$S new-session -d -s cli -x 150 -y 50 \
	"HOME=$HOME ftguard shell; echo shell-exit=\$?; sleep 60" || fail "tmux new-session"
wait_screen 'ftguard>$' 90
# command and option completion: "sit<Tab>" -> "sites ", "--sta<Tab>" -> "--state "
$S send-keys -t cli 'sit' Tab
wait_screen 'ftguard> sites$'
$S send-keys -t cli -- '-m ftg_t' Tab
wait_screen 'sites -m ftg_target$'
$S send-keys -t cli Enter
wait_screen ' fn_b$'
# function names: "check -l fn_<Tab><Tab>" lists fn_a and fn_b
$S send-keys -t cli 'check -l ftg_target:fn_' Tab Tab
wait_screen 'ftg_target:fn_a *ftg_target:fn_b'
$S send-keys -t cli 'a' Enter
wait_screen 'consistent'
# history: Up brings back the last command
$S send-keys -t cli C-l
$S send-keys -t cli Up
wait_screen 'ftguard> check -l ftg_target:fn_a$'
# record from the shell, on a terminal: the live progress line
$S send-keys -t cli C-u "record -l fn_a -o /tmp/pty.dat -- sh -c 'echo 3 > /sys/kernel/debug/ftg_target/trigger'" Enter
wait_screen 'ftguard record: [0-9]* events, 0 lost, '
wait_screen 'events .* written to /tmp/pty.dat'
expect_eq "events recorded from the pty" 3 "$(ftguard report -i /tmp/pty.dat | grep -c ': func: fn_a')"
rm -f /tmp/pty.dat
$S send-keys -t cli 'exit' Enter
wait_screen 'shell-exit=0'
$S kill-server
grep -q '^sites -m ftg_target$' "$HOME/.ftguard_history" ||
	fail "history file lacks the session: $(cat "$HOME/.ftguard_history")"

rm -rf "$HOME" pipe.out pipe.err
rmmod ftg_target || fail "rmmod ftg_target"
unload_ftguard
pass
