#!/bin/sh
# Hostile names through the command: ftg_names.ko's functions carry a
# space, a newline, a tab, a backslash, terminal escape sequences and a
# right-to-left override (tests/modules/plant-names). The module's
# kallsyms really hold them; ftguard sites/check/map/status/record/report/
# stream/export and the shell print them only in the visible \ooo form
# (no byte outside printable ASCII but newline), one name per field;
# JSON says \u001b; one hostile function is armed and its hits count.
. /tests/lib.sh

N=7
cli_setup 'rmmod ftg_names'
T=/sys/kernel/debug/ftg_names/trigger
OUT=/tmp/names.out
ERR=/tmp/names.err

# raw_bytes FILE: bytes outside printable ASCII, newline (and for CSV,
# whose records end in CR LF, carriage return) excepted
raw_bytes() {
	case "$1" in
	*.csv) tr -d '\040-\176\n\r' <"$1" | wc -c ;;
	*) tr -d '\040-\176\n' <"$1" | wc -c ;;
	esac
}
# clean WHAT FILE...: nothing raw in the files
clean() {
	_what=$1
	shift
	for _f in "$@"; do
		[ "$(raw_bytes "$_f")" = 0 ] ||
			{ od -c "$_f" | head -n 20; fail "$_what: raw bytes in $_f"; }
	done
	log "$_what: printable ASCII and newlines only"
}
has() { grep -qF -- "$2" "$1" || { cat "$1"; fail "$1 lacks '$2'"; }; }
# later WHAT: a failure reported at the end, so that one boot runs every
# part (the trace's symbol names come from libtraceevent's kallsyms map)
LATER=
later() { echo "FAIL (reported at the end): $1"; LATER="$LATER
$1"; }

# The planted names, as bytes (as plant-names spells them) ...
esc=$(printf '\033')
nl='
'
raw_names="ftg names space
ftg_names$(printf '\t')tab
ftg_names\\134back\\slash
ftg_names_clear${esc}[2J${esc}[H
ftg_names_title${esc}]0;pwned$(printf '\007')
ftg_names_cursor${esc}[5;1H${esc}[1A
ftg_names_rtl$(printf '\342\200\256')lanigiro"
# ... and as ftguard prints them: one word each.
shown_names=$FTG_PLANTED_NAMES

load_ftguard fi
load_test_module ftg_names

# 0. The kernel carries the planted names (module kallsyms).
echo "$raw_names" | while IFS= read -r name; do
	grep -qF -- "$name" /proc/kallsyms || fail "kallsyms lacks planted name '$name'"
done || exit 1
grep -q "^[0-9a-f]* [tT] ftg_names_nl$" /proc/kallsyms &&
	grep -qF "injected 0xffffffff81000000 ok	[ftg_names]" /proc/kallsyms ||
	fail "kallsyms lacks the name with a newline"
grep -F '[ftg_names]' /proc/kallsyms | od -c > /tmp/kallsyms-ftg_names.txt
export_file /tmp/kallsyms-ftg_names.txt

# 1. sites: each name once, escaped, as the line's last (7th) field.
run 0 ftguard sites -m ftg_names
cp "$OUT" sites.txt
export_file sites.txt
clean "sites" sites.txt
expect_eq "sites lines (header, 9 renamed, trigger_write)" 11 "$(wc -l < sites.txt)"
expect_eq "sites lines without 7 fields" 0 "$(awk 'NR > 1 && NF != 7' sites.txt | wc -l)"
echo "$shown_names" | while IFS= read -r name; do
	expect_eq "sites naming $name" 1 "$(N=$name awk '$NF == ENVIRON["N"]' sites.txt | wc -l)"
done || exit 1
run 0 ftguard sites -m ftg_names --json
cp "$OUT" sites.json
clean "sites --json" sites.json
has sites.json '"name":"ftg names space"'
has sites.json '"name":"ftg_names_clear\u001b[2J\u001b[H"'
has sites.json '"name":"ftg_names_nl\ninjected 0xffffffff81000000 ok"'
has sites.json '"name":"ftg_names\\134back\\slash"'
has sites.json '"name":"ftg_names_rtl\u202elanigiro"'
# a name is matched as the kernel spells it
run 0 ftguard sites -l 'ftg_names:ftg_names_clear?*'
expect_eq "sites -l with a glob over ESC" 2 "$(wc -l < "$OUT")"

# 2. check, consistent and then with a corrupted site named in the answer.
run 0 ftguard check -m ftg_names
clean "check" "$OUT" "$ERR"
has "$OUT" consistent
clear_ip=$(awk '$NF == "ftg_names_clear\\033[2J\\033[H" { print $1 }' sites.txt)
[ -n "$clear_ip" ] || fail "no address for ftg_names_clear"
exec 3>"$FTG_DEBUGFS/control"
echo "corrupt $clear_ip" >&3 || fail "corrupt $clear_ip"
run 1 ftguard check -m ftg_names
cp "$OUT" check-bad.txt
export_file check-bad.txt
clean "check (mismatch)" check-bad.txt "$ERR"
has check-bad.txt 'ftg_names_clear\033[2J\033[H'
run 1 ftguard check -m ftg_names --json
clean "check --json" "$OUT"
has "$OUT" 'ftg_names_clear\u001b[2J\u001b[H'
echo "corrupt $clear_ip" >&3 || fail "corrupt back $clear_ip"	# inverts again
exec 3>&-
run 0 ftguard check -m ftg_names
run 0 ftguard status
clean "status" "$OUT"
run 0 ftguard map
clean "map" "$OUT" "$ERR"
run 0 ftguard map --at "$clear_ip"
clean "map --at" "$OUT"
has "$OUT" 'ftg_names'

# 3. record one hostile function: armed by a glob, its hits count.
run 0 ftguard record -l 'ftg_names:ftg_names_clear?*' -o names.dat -- sh -c "echo $N > $T"
clean "record" "$OUT" "$ERR"
grep -q '^armed 0$' "$FTG_DEBUGFS/status" || fail "still armed after record"
run 0 ftguard sites -l 'ftg_names:ftg_names_clear?*'
expect_eq "hits of ftg_names_clear" "$N" "$(awk 'NR == 2 { print $4 }' "$OUT")"
run 0 ftguard sites -l 'ftg_names:ftg_names_title?*'
expect_eq "hits of an unarmed neighbour" 0 "$(awk 'NR == 2 { print $4 }' "$OUT")"
run 0 ftguard report -i names.dat
cp "$OUT" report.txt
export_file report.txt
clean "report" report.txt "$ERR"
n=$(grep -cF 'func: ftg_names_clear\033[2J\033[H [ftg_names]' report.txt)
[ "$n" = "$N" ] || later "report names ftg_names_clear in $n of $N events: $(grep -m 1 'func:' report.txt)"
for fmt in json chrome csv; do
	run 0 ftguard export -i names.dat -f $fmt -o names.$fmt
	clean "export $fmt" names.$fmt
done
for f in names.json names.chrome; do
	grep -qF 'ftg_names_clear\u001b[2J\u001b[H' $f || later "$f does not name ftg_names_clear"
done
grep -qF 'ftg_names_clear\033[2J\033[H' names.csv || later "names.csv does not name ftg_names_clear"

# 4. stream while the function with a newline in its name is armed. Its
# /proc/kallsyms and available_filter_functions lines are cut in two by
# the newline, so a glob finds no such module function: the site is
# pinned by its address (NAME@ADDR, checked against the module's table).
nl_ip=$(awk '$NF ~ /^ftg_names_nl/ { print $1 }' sites.txt)
[ -n "$nl_ip" ] || fail "no address for ftg_names_nl"
run 0 ftguard -q start -l "ftg_names:ftg_names_nl*@$nl_ip"
ftguard stream > stream.out 2> stream.err &
pid=$!
BG_PIDS="$BG_PIDS $pid"
stream_lines() { [ "$(grep -c ': func: ' stream.out)" = "$N" ]; }
echo "$N" > "$T" || fail "trigger"
wait_for 30 stream_lines || { cat stream.out stream.err; fail "stream did not show $N events"; }
kill -INT "$pid"
wait "$pid"
expect_eq "stream after SIGINT" 0 "$?"
clean "stream" stream.out stream.err
export_file stream.out
run 0 ftguard sites -m ftg_names
expect_eq "hits of ftg_names_nl" "$N" "$(awk '$NF ~ /^ftg_names_nl/ { print $4 }' "$OUT")"
run 0 ftguard -q stop

# 5. the shell prints through the same escaping.
printf 'sites -m ftg_names\ncheck -l ftg_names:ftg_names_cursor?*\n' | ftguard shell > shell.out 2>&1 ||
	{ cat shell.out; fail "ftguard shell"; }
clean "shell" shell.out
has shell.out 'ftg_names_cursor\033[5;1H\033[1A'

# 6. completion offers only names that can be typed, none raw.
ftguard __complete ftguard sites -l 'ftg_names:ftg_names' > complete.out 2>&1 ||
	{ cat complete.out; fail "ftguard __complete"; }
clean "completion" complete.out
has complete.out 'ftg_names:ftg_names_plain'
grep -q 'ftg_names_clear' complete.out && fail "completion offered ftg_names_clear: $(cat complete.out)"

[ -z "$LATER" ] || fail "$LATER"
rm -f complete.out names.* sites.* check-bad.txt report.txt stream.* shell.out
rmmod ftg_names || fail "rmmod ftg_names"
unload_ftguard
pass
