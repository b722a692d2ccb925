#!/bin/sh
# ftguard record -l fn_a -- <trigger N>: exactly N fn_a events with caller
# fn_b in trace.dat, as trace-cmd report reads it, named after their task;
# ftguard report agrees line for line (pid, CPU, timestamp, function, caller); the Chrome export
# has the N events; nothing is left armed.
. /tests/lib.sh

cli_setup

N=200

# "pid cpu timestamp function <- caller" from either report's func lines
normalize() {
	sed -n 's/^ *.*-\([0-9][0-9]*\) *\[\([0-9]*\)\] *\([0-9.]*\): *func: *\(.*\)$/\1 \2 \3 \4/p' |
		sed 's/ip=//; s/ parent=/ <- /; s/ \[[^]]*\]//g; s/+0x[0-9a-f]*\/0x[0-9a-f]*//g; s/  */ /g'
}

load_ftguard
load_test_module ftg_target

# per-CPU KiB, the expanded size when the buffer was never used yet
buffer_kb() { sed 's/.*expanded: *\([0-9]*\).*/\1/' "$FTG_INSTANCE/buffer_size_kb"; }
kb_before=$(buffer_kb)
ftguard record -l fn_a -b 256 -o rec.dat -- sh -c "echo $N > $T" > record.out 2>&1
st=$?
cat record.out
expect_eq "record exit status" 0 "$st"
[ -s rec.dat ] || fail "no rec.dat"
# the kernel rounds a size to whole pages plus metadata: within 1%
kb_after=$(buffer_kb)
[ $(( (kb_after - kb_before) * 100 )) -le "$kb_before" ] &&
	[ $(( (kb_before - kb_after) * 100 )) -le "$kb_before" ] ||
	fail "buffer_size_kb not restored after -b: $kb_before before, $kb_after after"
log "buffer_size_kb $kb_before before -b 256, $kb_after after"
grep -q '^armed 0$' "$FTG_DEBUGFS/status" || fail "still armed after record"
expect_eq "enabled_functions after record" 0 "$(wc -l < "$FTG_TRACEFS/enabled_functions")"

trace-cmd report -i rec.dat > tc.txt 2> tc.err || { cat tc.err; fail "trace-cmd report failed"; }
ftguard report -i rec.dat > fg.txt 2> fg.err || { cat fg.err; fail "ftguard report failed"; }
head -n 3 tc.txt fg.txt
normalize < tc.txt > tc.norm
normalize < fg.txt > fg.norm
expect_eq "trace-cmd: fn_a events from fn_b" "$N" "$(grep -c ' fn_a <- fn_b$' tc.norm)"
expect_eq "trace-cmd: func events" "$N" "$(wc -l < tc.norm)"
expect_eq "ftguard report: func events" "$N" "$(wc -l < fg.norm)"
if ! cmp -s tc.norm fg.norm; then
	diff tc.norm fg.norm | head -n 10
	fail "ftguard report and trace-cmd report disagree"
fi
log "reports agree on $N lines"
# every event names its task, sh (comm saved), never "<...>"
expect_eq "trace-cmd: func events not of sh" 0 "$(grep ' func: ' tc.txt | grep -vc '^ *sh-[0-9]')"
expect_eq "ftguard report: func events not of sh" 0 "$(grep ' func: ' fg.txt | grep -vc '^ *sh-[0-9]')"

ftguard export -i rec.dat -f chrome -o rec.json || fail "export chrome"
export_file rec.json
events=$(tr '{' '\n' < rec.json | grep -c '"fn_a')
expect_eq "chrome events naming fn_a" "$N" "$events"
ftguard export -i rec.dat -f csv -o rec.csv || fail "export csv"
expect_eq "csv rows naming fn_a" "$N" "$(grep -c 'fn_a' rec.csv)"
# the tgid column (by its header) is what record-tgid recorded; sh has one
# thread
expect_eq "csv fn_a rows whose tgid is not their pid" 0 \
	"$(tr -d '\r' < rec.csv | awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
		/fn_a/ && $c["tgid"] != $c["pid"] { bad++ } END { print bad + 0 }')"

# a failing command: still a complete file, exit 1, nothing armed
ftguard -q record -l fn_a -o fail.dat -- sh -c "echo 3 > $T; exit 3"
expect_eq "record with failing command" 1 "$?"
expect_eq "events of the failed command" 3 "$(trace-cmd report -i fail.dat 2>/dev/null | grep -c ' func: ')"
grep -q '^armed 0$' "$FTG_DEBUGFS/status" || fail "armed after a failed command"
# a command that cannot run: exit 2, nothing armed
ftguard -q record -l fn_a -o none.dat -- /no/such/program
expect_eq "record with a missing program" 2 "$?"
grep -q '^armed 0$' "$FTG_DEBUGFS/status" || fail "armed after a missing program"

rm -f rec.dat rec.json rec.csv fail.dat none.dat tc.* fg.* record.out
rmmod ftg_target || fail "rmmod ftg_target"
unload_ftguard
pass
