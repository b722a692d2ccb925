#!/bin/sh
# ftguard record -T (--func-stack): each vfs_read entry under dd is followed
# by its kernel stack, which trace-cmd report prints as '=>' lines (the
# file names ftguard:stack ftrace:kernel_stack) and ftguard report prints
# the same way; the first caller is the traced function's caller
# (ksys_read for dd's reads), never ftguard's or ftrace's own frames.
# "arm stack" with a bad word is refused and arms nothing; start -T arms
# with stacks (arm_stack 1, stack events in the instance) until stop.
# Stacks with -p function_graph and -g: cli-record-graph-stack.sh.
. /tests/lib.sh

cli_setup

load_ftguard

# the module's word: a bad word arms nothing
run 0 ftguard check -l vfs_read		# offers vfs_read to the module
vfs_read=$(site_ip vfs_read vmlinux)
[ -n "$vfs_read" ] || fail "no vfs_read site after check"
exec 3<>"$FTG_DEBUGFS/control"
echo "select $vfs_read" >&3 || fail "select vfs_read: $(cat <&3)"
echo "arm stack bogus" >&3 2>/dev/null && fail "arm stack with a bad word accepted"
expect_eq "bad arm response" \
	"error EINVAL usage: arm [persistent] [force] [graph] [stack] [max-depth=<n>]" "$(cat <&3)"
expect_eq "armed after a bad arm stack" 0 "$(status armed)"
exec 3>&-
expect_eq "enabled_functions after refusals" 0 "$(wc -l < "$FTG_TRACEFS/enabled_functions")"

run 0 ftguard record -T -l vfs_read -o s.dat -- dd if=/dev/zero of=/dev/null bs=1 count=3
grep -q '^armed 0$' "$FTG_DEBUGFS/status" || fail "still armed after record -T"
expect_eq "enabled_functions after record -T" 0 "$(wc -l < "$FTG_TRACEFS/enabled_functions")"

trace-cmd report -i s.dat > tc.txt 2> tc.err || { cat tc.err; fail "trace-cmd report failed"; }
if grep -Eiq 'warn|fail|error|bad|unknown' tc.err; then
	cat tc.err
	fail "trace-cmd report complained"
fi
grep -A 6 -m 2 'func:.*vfs_read' tc.txt
nfunc=$(grep -c 'func: .*vfs_read' tc.txt)
nstack=$(grep -c 'kernel_stack: *<stack trace *>' tc.txt)
[ "$nfunc" -ge 3 ] || fail "trace-cmd: $nfunc vfs_read entries, want at least 3"
expect_eq "trace-cmd: a stack per vfs_read entry" "$nfunc" "$nstack"
# "TASK FIRST-CALLER CALLERS" for each stack, the callers' names alone
stacks() {
	awk '/kernel_stack:/ { if (n) print task, first, n; task = $1; first = ""; n = 0; on = 1; next }
	     on && /^ *=> / { sub(/^ *=> /, ""); sub(/[ +(].*/, ""); if (!n) first = $0; n++; next }
	     { if (on && n) print task, first, n; on = 0; n = 0 }
	     END { if (on && n) print task, first, n }' "$1"
}
stacks tc.txt > tc.stacks
head -n 5 tc.stacks
expect_eq "trace-cmd: stacks with callers" "$nstack" "$(wc -l < tc.stacks)"
ndd=$(grep -c '^dd-[0-9]* ksys_read ' tc.stacks)
[ "$ndd" -ge 3 ] || { cat tc.stacks; fail "trace-cmd: $ndd of dd's stacks start at ksys_read, want at least 3"; }
if grep -Eq ' (vfs_read|ftg_[a-z_]*|ftrace_[a-z_]*|stack_trace_save|arch_stack_walk|0x[0-9a-f]*) ' tc.stacks; then
	grep -E ' (vfs_read|ftg_[a-z_]*|ftrace_[a-z_]*|stack_trace_save|arch_stack_walk|0x[0-9a-f]*) ' tc.stacks | head
	fail "trace-cmd: a stack starts inside ftguard, ftrace or the traced function"
fi
grep -q '^ *=> .*ftg_' tc.txt && fail "trace-cmd: ftguard's own frames in a stack"
log "trace-cmd: $nstack stacks, $ndd of dd's from ksys_read"

run 0 ftguard report -i s.dat
cp "$OUT" fg.txt
export_file fg.txt
grep -A 4 -m 1 'kernel_stack:' fg.txt
expect_eq "ftguard report: stacks" "$nstack" "$(grep -c 'kernel_stack: <stack trace >$' fg.txt)"
stacks fg.txt > fg.stacks
expect_eq "ftguard report: the same first callers as trace-cmd" \
	"$(cut -d' ' -f2,3 tc.stacks | tr '\n' ' ')" "$(cut -d' ' -f2,3 fg.stacks | tr '\n' ' ')"
grep -q '^=> ksys_read+0x[0-9a-f]*$' fg.txt || fail "ftguard report: no '=> ksys_read+0x...' line"

# start -T arms with stacks until stop; the instance holds stack events
run 0 ftguard start -T -l vfs_read
expect_eq "arm_stack after start -T" 1 "$(status arm_stack)"
expect_eq "arm_mode after start -T" function "$(status arm_mode)"
dd if=/dev/zero of=/dev/null bs=1 count=2 2>/dev/null
run 0 ftguard stop
expect_eq "arm_stack after stop" 0 "$(status arm_stack)"
grep -q 'stack: size=[1-9][0-9]* caller={0x' "$FTG_INSTANCE/trace" ||
	{ grep stack: "$FTG_INSTANCE/trace" | head -n 3; fail "no stack event in the instance after start -T"; }

rm -f s.dat tc.* fg.*
unload_ftguard
pass
