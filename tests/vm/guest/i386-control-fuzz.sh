#!/bin/sh
# Control-file fuzzing that knows the grammar, on the 32-bit kernel: 10,000
# generated commands (fixed seed) plus huge, overlong and partial writes.
# Every line is judged against the errno the grammar calls for; a histogram
# of the answers is exported and must show every reachable parser branch of
# the default build; ftguard's counters must come out as predicted. (The
# fault-injection commands, ESTALE and EPERM are proven by i386-e1000e-reuse
# and the amd64 kmod tests.)
. /tests/lib.sh

N=10000
SEED=2008
run=/tmp/fuzz
rm -rf "$run"
mkdir -p "$run"
status_field() { awk -v k="$1" '$1 == k { print $2 }' "$FTG_DEBUGFS/status"; }
cleanup() {
	exec 3>&- 4>&-
	module_loaded ftguard && rmmod ftguard
	return 0
}
trap cleanup EXIT

load_ftguard
e1000e_site=$(awk '$4 == "e1000e" { print $1; exit }' "$FTG_DEBUGFS/sites")
[ -n "$e1000e_site" ] || fail "no e1000e site"
fn=$(awk 'NF == 1 { print; exit }' /sys/kernel/tracing/available_filter_functions)
fn_addr=0x$(awk -v f="$fn" '$3 == f { print $1; exit }' /proc/kallsyms)

# One "class<TAB>expected<TAB>line" record per command. expected is ok, an
# errno name, or "any" (a random line that happens to start with a command).
awk -v n=$N -v seed=$SEED -v site="$e1000e_site" -v fn="$fn" -v fnaddr="$fn_addr" '
function rnd(k) { return int(rand() * k) }
function hexaddr() { return sprintf("0x%x", 3758096384 + rnd(536870912)) }
function tokens(s,   i, c, n, in_tok) {
	n = 0; in_tok = 0
	for (i = 1; i <= length(s); i++) {
		c = substr(s, i, 1)
		if (c == " " || c == "\t") in_tok = 0
		else if (!in_tok) { in_tok = 1; n++ }
	}
	return n
}
function first(s) { sub(/^[ \t]+/, "", s); sub(/[ \t].*/, "", s); return s }
BEGIN {
	srand(seed)
	split("admit select select-module clear check arm disarm reset verify plant unplant corrupt fail-ftrace", cmds, " ")
	for (i in cmds) known[cmds[i]] = 1
	split("xyz 0 0x -1 0xg1 99999999999999999999999 0x1x - +", badnum, " ")
	for (i = 0; i < n; i++) {
		k = rnd(16)
		if (k < 5) {		# random bytes, no NUL or newline
			s = ""; len = 1 + rnd(120)
			for (j = 0; j < len; j++) {
				c = 1 + rnd(254); if (c == 10) c = 32
				s = s sprintf("%c", c)
			}
			t = tokens(s)
			if (t > 33) want = "E2BIG"
			else if (t == 0) want = "ok"
			else if (first(s) in known) want = "any"
			else want = "EINVAL"
			print "random\t" want "\t" s
		} else if (k == 5) {	# a command with the wrong number of arguments
			c = cmds[1 + rnd(9)]
			if (c == "select") print "usage\tEINVAL\tselect"
			else if (c == "admit") print "usage\tEINVAL\tadmit " fn
			else if (c == "select-module") print "usage\tEINVAL\tselect-module a b"
			else if (c == "arm") print "usage\tEINVAL\tarm sideways"
			else print "usage\tEINVAL\t" c " extra"
		} else if (k == 6) print "badnum\tEINVAL\tselect " badnum[1 + rnd(9)]
		else if (k == 7) print "unknown-site\tENOENT\tselect " hexaddr()
		else if (k == 8) print "no-module\tENOENT\tselect-module no_such_module_" rnd(1000)
		else if (k == 9) print "empty-arm\tENOENT\tarm"
		else if (k == 10) print "fi-only\tEOPNOTSUPP\t" (rnd(2) ? "plant stale " hexaddr() " x" : rnd(2) ? "unplant" : "corrupt " hexaddr())
		else if (k == 11) {
			s = "select"; for (j = 0; j < 33; j++) s = s " " (j + 1)
			print "too-many-args\tE2BIG\t" s
		} else if (k == 12) {
			s = "select "; while (length(s) <= 256) s = s "0"
			print "overlong\tE2BIG\t" s
		} else if (k == 13) print "admit-data\tEINVAL\tadmit data_" rnd(100) " " hexaddr()
		else if (k == 14) print "admit-wrong-name\tEINVAL\tadmit not_" fn " " fnaddr
		else print "valid\tok\t" (rnd(2) ? "select " site : rnd(2) ? "clear" : "verify")
	}
}' >"$run/commands"
expect_eq "generated commands" "$N" "$(wc -l <"$run/commands")"

# Only well-formed admits reach the check that counts rejections.
admits_expected=$(grep -c "^admit-" "$run/commands")
rejected0=$(status_field rejected) sites0=$(status_field sites)
exec 3<>"$FTG_DEBUGFS/control"
bad=0
while IFS= read -r rec; do
	class=${rec%%	*}
	rest=${rec#*	}
	want=${rest%%	*}
	line=${rest#*	}
	if printf '%s\n' "$line" >&3 2>/dev/null; then
		got=ok reason=ok
	else
		read -r _ got reason <&3 || got=noresponse
	fi
	# Between commands: an empty selection, so "arm" always meets ENOENT.
	[ "$class" = valid ] && printf 'clear\n' >&3
	echo "$class $got ${reason%%\'*}" >>"$run/answers"
	if [ "$want" != any ] && [ "$got" != "$want" ]; then
		bad=$(( bad + 1 ))
		[ "$bad" -le 10 ] && log "WRONG: $class: wanted $want, got $got $reason for: $(printf '%s' "$line" | od -An -c | head -n 2 | tr -s ' ')"
	fi
done <"$run/commands"
log "$N commands, $bad answered wrongly"

# Writes the line grammar cannot see.
dd if=/dev/zero bs=70000 count=1 2>/dev/null | tr '\0' a >"$run/huge"
huge=$(dd if="$run/huge" of="$FTG_DEBUGFS/control" bs=70000 2>&1) &&
	fail "a 70,000-byte write was accepted"
case "$huge" in *"Argument list too long"*) ;; *) fail "a 70,000-byte write: '$huge', not E2BIG" ;; esac
last=$(sed -n 's/^last_error //p' "$FTG_DEBUGFS/status")
case "$last" in "write of 70000 bytes"*) ;; *) fail "last_error after the huge write: $last" ;; esac
echo "huge-write E2BIG $last" >>"$run/answers"
printf 'sel' >&3 2>/dev/null && fail "partial command 'sel' accepted"
read -r _ got reason <&3
expect_eq "first half of a split command" EINVAL "$got"
printf 'ect %s\n' "$e1000e_site" >&3 2>/dev/null && fail "second half 'ect ...' accepted"
read -r _ got reason <&3
expect_eq "second half of a split command" EINVAL "$got"
echo "partial-write EINVAL unknown command" >>"$run/answers"
# max_arm and EBUSY need a real selection.
printf 'select-module e1000e\n' >&3 || fail "select-module e1000e"
printf 'arm\n' >&3 2>/dev/null && fail "arm of every e1000e site accepted without force"
read -r _ got reason <&3
expect_eq "arm of > max_arm sites" E2BIG "$got"
echo "max-arm $got ${reason%%:*}" >>"$run/answers"
exec 4<>"$FTG_DEBUGFS/control"
printf 'select %s\narm\n' "$e1000e_site" >&4 || fail "arm of one e1000e site"
printf 'clear\nselect %s\n' "$e1000e_site" >&3 || fail "select on the second session"
printf 'arm\n' >&3 2>/dev/null && fail "second arm accepted while armed"
read -r _ got reason <&3
expect_eq "arm while armed" EBUSY "$got"
echo "busy $got ${reason%%(*}" >>"$run/answers"
exec 4>&-
expect_eq "armed after the owner closed" 0 "$(status_field armed)"
exec 3>&-

sed -E 's/0x[0-9a-f]+/ADDR/g; s/([^0-9A-Z])[0-9]+/\1N/g' "$run/answers" | sort | uniq -c | sort -rn >"$run/histogram.txt"
sed 's/^/# /' "$run/histogram.txt"
export_file "$run/histogram.txt"
[ "$bad" = 0 ] || fail "$bad of $N commands answered with the wrong errno"
# Every branch of the default build's parser that a command can reach.
for branch in "unknown command" "usage:" "bad address" "is not a known site" \
	"no live site of module" "empty selection" "more than N arguments" \
	"line longer than" "fault-injection build only" "is not an ftrace record" \
	"not not_" "E2BIG write of" "max_arm" "EBUSY already armed" " ok ok"; do
	grep -q -- "$branch" "$run/histogram.txt" || fail "parser branch never reached: $branch"
done
expect_eq "rejected admits" $(( rejected0 + admits_expected )) "$(status_field rejected)"
expect_eq "sites" "$sites0" "$(status_field sites)"
expect_eq "admitted" 0 "$(status_field admitted)"
expect_eq "killed" 0 "$(status_field killed)"
expect_eq "enabled_functions" 0 "$(wc -l </sys/kernel/tracing/enabled_functions)"
unload_ftguard
trap - EXIT
pass
