#!/bin/sh
# 1,000 malformed control writes are rejected, each with the right errno
# in the response and a reason in status; the module keeps working.
. /tests/lib.sh

# Leave the system as found, also when a check fails half-way.
kmod_setup ftg_target ftg_other

load_ftguard
sites_before=$(status sites)
jiffies=0x$(grep ' jiffies$' /proc/kallsyms | head -n 1 | cut -d' ' -f1)
long=$(printf '%0300d' 0)
many=$(printf '0x1 %.0s' $(seq 40))

# kind N -> "<command line>|<expected errno>"
kind() {
	case $1 in
	0) echo "frobnicate $i|EINVAL" ;;
	1) echo "select zzz|EINVAL" ;;
	2) echo "select 0x1234|ENOENT" ;;
	3) echo "select $long|E2BIG" ;;
	4) echo "plant stale 0x1 x|EOPNOTSUPP" ;;
	5) echo "arm bogus|EINVAL" ;;
	6) echo "admit|EINVAL" ;;
	7) echo "admit jiffies $jiffies|EINVAL" ;;
	8) echo "select $many|E2BIG" ;;
	9) echo "clear extra|EINVAL" ;;
	10) echo "check x|EINVAL" ;;
	11) printf '\001\002\377|EINVAL\n' ;;
	12) echo "select -1|EINVAL" ;;
	13) echo "select 0x|EINVAL" ;;
	14) echo "select 99999999999999999999999|EINVAL" ;;
	15) echo "arm|ENOENT" ;;
	16) echo "corrupt 0x1|EOPNOTSUPP" ;;
	17) echo "unplant|EOPNOTSUPP" ;;
	18) echo "fail-ftrace|EOPNOTSUPP" ;;
	19) echo "vmlinux-records|EINVAL" ;;
	20) echo "vmlinux-records 0|EINVAL" ;;
	21) echo "vmlinux-records many|EINVAL" ;;
	22) echo "vmlinux-records 1 2|EINVAL" ;;
	23) echo "vmlinux-records -1|EINVAL" ;;
	24) echo "vmlinux-records 0x10|EINVAL" ;;
	25) echo "vmlinux-records 99999999999|EINVAL" ;;
	esac
}
KINDS=26

exec 3<>"$FTG_DEBUGFS/control"
i=0
rejected=0
while [ $i -lt 1000 ]; do
	k=$(( i % KINDS ))
	spec=$(kind $k)
	line=${spec%|*}
	want=${spec##*|}
	if echo "$line" >&3 2>/dev/null; then
		fail "write $i (kind $k) accepted: $line"
	fi
	resp=$(cat <&3)
	case "$resp" in
	"error $want "*) rejected=$((rejected + 1)) ;;
	*) fail "write $i (kind $k): expected error $want, got '$resp'" ;;
	esac
	i=$((i + 1))
done
expect_eq "rejected writes" 1000 "$rejected"
# the last one was kind 999 % 26 = 11 (binary junk): its reason is kept
grep -q '^last_error unknown command' "$FTG_DEBUGFS/status" || fail "last_error: $(grep ^last_error "$FTG_DEBUGFS/status")"
expect_eq "rejected admits (kind 7)" $(( (1000 - 7 + KINDS - 1) / KINDS )) "$(status rejected)"

# a write above 64 KiB
head -c 70000 /dev/zero | tr '\0' 'a' > /tmp/big
dd if=/tmp/big of="$FTG_DEBUGFS/control" bs=70000 count=1 2>/dev/null && fail "70000-byte write accepted"
grep -q '^last_error write of 70000 bytes' "$FTG_DEBUGFS/status" || fail "no E2BIG reason"

# a multi-line write stops at its first failing line, naming it
printf 'clear\nbogus\nclear\n' >&3 2>/dev/null && fail "multi-line write with a bad line accepted"
expect_eq "multi-line response" "error EINVAL line 2: unknown command 'bogus'" "$(cat <&3)"

# a NUL byte anywhere refuses the whole write: the text must not end early
# ("arm\0garbage" is not "arm"), and the lines before it do not run either
for w in 'arm\000garbage' '\000' 'clear\000' 'check\n\000arm\n' 'select 0x1\000\n'; do
	printf "$w" >&3 2>/dev/null && fail "write with a NUL accepted: $w"
	resp=$(cat <&3)
	case "$resp" in
	"error EINVAL NUL byte at offset "*) ;;
	*) fail "write with a NUL ($w): expected error EINVAL NUL byte..., got '$resp'" ;;
	esac
done
expect_eq "armed after NUL writes" 0 "$(status armed)"
grep -q '^last_error NUL byte at offset 10 of the write' "$FTG_DEBUGFS/status" ||
	fail "last_error after 'select 0x1\\0': $(grep ^last_error "$FTG_DEBUGFS/status")"

# still working, nothing added
expect_eq "sites unchanged" "$sites_before" "$(status sites)"
expect_eq "record count after refused vmlinux-records" 0 "$(status vmlinux_records)"
echo check >&3 || fail "check after malformed writes: $(cat <&3)"
sed -n 2p "$FTG_DEBUGFS/check" | grep -q '^result ok ' || fail "check: $(sed -n 2p "$FTG_DEBUGFS/check")"
exec 3>&-
unload_ftguard
pass
