#!/bin/sh
# Hostile addresses taken live from the 32-bit guest, where module text,
# module data, vmalloc and ioremap areas interleave in one range: every one
# is offered to ftguard as a vmlinux candidate (admit) and as a site
# (select). Each must be refused with the right errno: EINVAL for admit,
# ENOENT for select. Positive controls (exact vmlinux functions) must be
# admitted, so the test sees both answers. Categories: ioremap and vmalloc
# areas (start, +0x10, middle), module data symbols, vmlinux data symbols,
# function+1, freed vmlinux __init functions, freed module __init functions
# (ftg_initwait's, read while its init was held), real functions under a
# wrong name, module functions offered as vmlinux. Ends with a histogram of
# the refusal reasons and the counters ftguard keeps.
. /tests/lib.sh

PER_CLASS=150
IW=/sys/kernel/debug/ftg_initwait
run=/tmp/hostile
rm -rf "$run"
mkdir -p "$run"
kmod_setup -c '[ -e "$IW/release" ] && echo 1 >"$IW/release" 2>/dev/null
	wait' ftg_initwait

load_ftguard
# Freed module __init functions: read while ftg_initwait's init is held.
insmod /lib/ftguard/test/ftg_initwait.ko hold_ms=30000 &
wait_for 30 test -e "$IW/release" || fail "ftg_initwait did not reach its held init"
awk '$4 == "ftg_initwait" && $3 == "init" { print "modinit", $7, $1 }' "$FTG_DEBUGFS/sites" >"$run/modinit"
init_text=$(cat /sys/module/ftg_initwait/sections/.init.text)
echo 1 >"$IW/release"
wait || fail "insmod ftg_initwait failed"
[ "$(wc -l <"$run/modinit")" -ge 3 ] || fail "no init sites of ftg_initwait seen"
wait_for 10 sh -c "! grep -q '^$init_text-' /proc/vmallocinfo" ||
	fail "ftg_initwait's init area $init_text was not freed"

# One "class name addr" line per candidate, PER_CLASS at most per class.
{
	cat "$run/modinit"
	# vmalloc areas: ioremap and plain vmalloc (module areas are checked
	# through their symbols below); start, +0x10 and the middle.
	awk '$NF == "ioremap" || ($NF == "vmalloc" && $3 !~ /load_module/) {
		split($1, r, "-"); cls = ($NF == "ioremap") ? "ioremap" : "vmalloc"
		print cls, "area_" NR, r[1]; print cls "+16", "area_" NR, r[1] "+16"
		print cls "-mid", "area_" NR, r[1] "+" int($2 / 2 / 4096) * 4096 + 4
	}' /proc/vmallocinfo
	awk -v max=$PER_CLASS '
		$2 ~ /^[tT]$/ && $4 ~ /^\[e1000e\]$/ && e++ < max { print "modfunc", $3, "0x" $1 }
		$3 == "__init_begin" { init = 1 } $3 == "__init_end" { init = 0 }
		init && $2 ~ /^[tT]$/ && i++ < max { print "vmlinux-init", $3, "0x" $1 }
	' /proc/kallsyms
	# The 686 kernel has no KALLSYMS_ALL: data addresses come from the
	# modules' section table and from the kernel image's resources.
	for f in /sys/module/*/sections/.[!.]* /sys/module/*/sections/_*; do
		[ -f "$f" ] || continue
		case "${f##*/}" in *text*) continue ;; esac
		a=$(cat "$f")
		m=${f#/sys/module/}
		echo "moddata ${m%%/*}${f##*/} $a"
		echo "moddata ${m%%/*}${f##*/} $a+8"
	done
	# /proc/iomem names the image's physical ranges; on 32-bit x86 the
	# kernel's own addresses are physical + PAGE_OFFSET (0xc0000000 here).
	awk -v per=$(( PER_CLASS / 3 )) '/Kernel (rodata|data|bss)/ {
		split($1, r, "-"); kind = $NF
		printf "%s %s 0x%s 0x%s\n", kind, per, r[1], r[2]
	}' /proc/iomem | while read -r kind per lo hi; do
		step=$(( ((hi - lo) / per) & ~7 ))
		k=0
		while [ "$k" -lt "$per" ]; do
			printf 'data kernel_%s_%d 0x%x\n' "$kind" "$k" $(( 0xc0000000 + lo + k * step ))
			k=$(( k + 1 ))
		done
	done
} >"$run/candidates.raw"
# Functions: +1, a wrong name, and exact (the positive controls).
awk 'NR == FNR { if ($1 !~ /\[/ && NF == 1) traceable[$1] = 1; next }
	$2 ~ /^[tT]$/ && NF == 3 && ($3 in traceable) && !seen[$3]++ { print $3, "0x" $1 }' \
	/sys/kernel/tracing/available_filter_functions /proc/kallsyms >"$run/functions"
awk -v max=$PER_CLASS 'NR % 7 == 0 && n++ < max { print "func+1", $1, $2 "+1"; print "wrongname", "not_" $1, $2 }
	NR % 997 == 3 && p++ < 20 { print "exact", $1, $2 }' "$run/functions" >>"$run/candidates.raw"
# Resolve "0xADDR+N" to plain hex (busybox sh arithmetic handles 32-bit).
while read -r cls name addr; do
	case "$addr" in *+*) addr=$(printf '0x%x' $(( ${addr%+*} + ${addr#*+} ))) ;; esac
	echo "$cls $name $addr"
done <"$run/candidates.raw" >"$run/candidates"
n_exact=$(grep -c '^exact ' "$run/candidates")
[ "$n_exact" -gt 0 ] || fail "no positive control found"
awk '{ print $1 }' "$run/candidates" | sort | uniq -c | sed 's/^/# candidates: /'
for cls in modinit ioremap vmalloc moddata data modfunc vmlinux-init func+1 wrongname exact; do
	grep -q "^$cls " "$run/candidates" || fail "no candidate of class $cls"
done

admitted0=$(status admitted) rejected0=$(status rejected) sites0=$(status sites)
exec 3<>"$FTG_DEBUGFS/control"
# try CMD...: prints "ok" or the errno name, then the reason
try() {
	if echo "$*" >&3 2>/dev/null; then
		echo ok
	else
		read -r _ code reason <&3 || code=noresponse
		echo "$code $reason"
	fi
}
bad=0 total=0
# Known sites (e1000e's functions are some): select of one of them is fine.
awk 'NR > 1 { print $1 }' "$FTG_DEBUGFS/sites" >"$run/known"
while read -r cls name addr; do
	case "$cls" in exact) want_admit=ok want_select=ok ;; *) want_admit=EINVAL want_select=ENOENT ;; esac
	[ "$cls" = modfunc ] && grep -qx "$addr" "$run/known" && want_select=ok
	a=$(try admit "$name" "$addr")
	s=$(try select "$addr")
	total=$(( total + 2 ))
	echo "admit $cls ${a%% *} ${a#* }" >>"$run/answers"
	echo "select $cls ${s%% *} ${s#* }" >>"$run/answers"
	if [ "${a%% *}" != "$want_admit" ] || [ "${s%% *}" != "$want_select" ]; then
		bad=$(( bad + 1 ))
		log "WRONG: $cls $name $addr: admit '$a' (want $want_admit), select '$s' (want $want_select)"
	fi
done <"$run/candidates"
exec 3>&-
log "$total commands, $bad candidates answered wrongly"
# Histogram of answers by command, class and reason (addresses and names
# folded so that equal reasons count together).
sed -E 's/ is [^ ]+, not the record of [^ ]+ in vmlinux/ is SYM+OFF\/SIZE, not the record of NAME in vmlinux/; s/already the site of [^ ]+ \[[^]]*\]/already the site of FUNC [MODULE]/; s/0x[0-9a-f]+/ADDR/g' \
	"$run/answers" | sort | uniq -c | sort -rn >"$run/histogram.txt"
sed 's/^/# /' "$run/histogram.txt"
export_file "$run/histogram.txt"
export_file "$run/candidates"
[ "$bad" = 0 ] || fail "$bad candidates were not refused (or not admitted) as they should"
n=$(wc -l <"$run/candidates")
expect_eq "admitted" $(( admitted0 + n_exact )) "$(status admitted)"
expect_eq "rejected" $(( rejected0 + n - n_exact )) "$(status rejected)"
expect_eq "sites" $(( sites0 + n_exact )) "$(status sites)"
expect_eq "armed" 0 "$(status armed)"
expect_eq "enabled_functions" 0 "$(wc -l </sys/kernel/tracing/enabled_functions)"
rmmod ftg_initwait || fail "rmmod ftg_initwait"
unload_ftguard
trap - EXIT
pass
