# Helpers for guest tests (busybox sh). Source with: . /tests/lib.sh
FTG_DEBUGFS=/sys/kernel/debug/ftguard
FTG_TRACEFS=/sys/kernel/tracing
FTG_INSTANCE=$FTG_TRACEFS/instances/ftguard

fail() { echo "FAIL: $*"; exit 1; }
skip() { echo "SKIP: $*"; exit 77; }
pass() { echo "@@PASS-MARKER $FTG_TEST"; exit 0; }
log() { echo "# $*"; }

# wait_for SECONDS CMD...: poll CMD until it succeeds or SECONDS pass.
wait_for() {
	_limit=$1
	shift
	_end=$(( $(date +%s) + _limit ))
	while ! "$@"; do
		[ "$(date +%s)" -ge "$_end" ] && return 1
		usleep 100000
	done
	return 0
}

# expect_eq WHAT EXPECTED ACTUAL
expect_eq() {
	[ "$2" = "$3" ] || fail "$1: expected '$2', got '$3'"
	log "$1 = $3"
}

# export_file PATH [NAME]: send a file back to the host (tests/vm/build/.../out/<test>/).
export_file() {
	cp "$1" "/tmp/ftg-export/${2:-${1##*/}}" || fail "cannot export $1"
}

module_loaded() { grep -q "^$1 " /proc/modules; }

# status KEY: KEY's value in ftguard's status table ("" when absent).
status() { awk -v k="$1" '$1 == k { print $2 }' "$FTG_DEBUGFS/status"; }

# site_ip NAME [OWNER]: the address of each site of OWNER (ftg_target by
# default) called NAME, one a line; NAME as the sites table prints it
# (octal escapes kept: ENVIRON, unlike awk -v, leaves backslashes alone).
site_ip() { site_field "$1" 1 "${2:-}"; }
# site_field NAME N [OWNER]: field N (2 state, 5 hits, 6 reads...) of the
# same sites, one a line.
site_field() {
	N=$1 F=$2 O=${3:-ftg_target} awk '$4 == ENVIRON["O"] && $7 == ENVIRON["N"] { f = ENVIRON["F"]; print $f }' \
		"$FTG_DEBUGFS/sites"
}
# addr_field ADDR N: field N of the site at ADDR (compared as text).
addr_field() { awk -v a="$1" -v f="$2" '($1 "") == (a "") { print $f }' "$FTG_DEBUGFS/sites"; }

# load_ftguard [fi]: the default build, or the fault-injection one.
load_ftguard() {
	_ko=/lib/ftguard/ftguard.ko
	[ "${1:-}" = fi ] && _ko=/lib/ftguard/fi/ftguard.ko
	insmod "$_ko" || fail "insmod $_ko failed"
	wait_for 10 test -e "$FTG_DEBUGFS/control" || fail "ftguard debugfs files did not appear"
}

# freed_init_base MODULE: sets INIT_BASE to the start of MODULE's init
# text once ftguard has let it go (its modules table says dropped), within
# 10 s of the load: a freed address to plant a site at.
freed_init_base() {
	wait_for 10 sh -c "awk '\$1 == \"$1\" && \$7 == \"dropped\"' $FTG_DEBUGFS/modules | grep -q ." ||
		fail "$1's init text was not dropped"
	INIT_BASE=$(awk -v m="$1" '$1 == m && $7 == "dropped" { print $5; exit }' "$FTG_DEBUGFS/modules")
	log "$1's freed init text at $INIT_BASE"
}

unload_ftguard() {
	module_loaded ftguard || return 0
	rmmod ftguard || fail "rmmod ftguard failed"
}

# unload_soon MODULE...: rmmod each, in order, once its last user is gone
# (a tool that is exiting still holds ftguard's control file; ftguard's arm
# pins a test module); at most 10 s each. 1 if one stays loaded.
unload_soon() {
	for _m in "$@"; do
		wait_for 10 sh -c "rmmod $_m 2>/dev/null || ! grep -q '^$_m ' /proc/modules" ||
			return 1
	done
}

# kmod_setup [-c CLEANUP-CMD] MODULE...: on any exit, kmod_cleanup closes
# fds 3 to 5, runs CLEANUP-CMD (what the test holds besides: a held init,
# a planted site, another tracer), then removes each MODULE still loaded
# and ftguard, in that order: a failed check leaves the next test a clean
# system, and an rmmod that fails there is shown.
kmod_cleanup() {
	exec 3>&- 4>&- 5>&-
	[ -n "$KMOD_CLEANUP" ] && eval "$KMOD_CLEANUP"
	for _m in $KMOD_MODULES ftguard; do
		# an arm holds ftguard loaded
		[ "$_m" = ftguard ] && [ -e "$FTG_DEBUGFS/control" ] &&
			echo disarm 2>/dev/null >"$FTG_DEBUGFS/control"
		module_loaded "$_m" && rmmod "$_m"
	done
	return 0
}
kmod_setup() {
	KMOD_CLEANUP=
	[ "${1:-}" = -c ] && { KMOD_CLEANUP=$2; shift 2; }
	KMOD_MODULES=$*
	trap kmod_cleanup EXIT
}

# load_test_module NAME [ARGS]: one of /lib/ftguard/test/NAME.ko
load_test_module() {
	_name=$1
	shift
	insmod "/lib/ftguard/test/$_name.ko" "$@" || fail "insmod $_name failed"
}

# ---- the e1000e NIC -----------------------------------------------------------
# find_nic: sets NIC to the sysfs directory of the e1000e NIC, found by its
# device id 8086:10d3 (its slot depends on QEMU's other devices), once its
# driver is bound. Fails the test otherwise.
find_nic() {
	NIC=
	for _d in /sys/bus/pci/devices/*; do
		[ "$(cat "$_d/vendor"):$(cat "$_d/device")" = "0x8086:0x10d3" ] && NIC=$_d
	done
	[ -n "$NIC" ] || fail "no 8086:10d3 PCI device"
	wait_for 20 test -e "$NIC/driver" || fail "e1000e did not bind ${NIC##*/}"
}

# nic_bar0_ioremap: after find_nic, sets NIC_BAR0 (BAR0's physical start)
# and NIC_MAP, NIC_MAP_END (the driver's ioremap of it in /proc/vmallocinfo,
# end exclusive). Fails the test without that mapping. The caller is not
# always e1000_probe: arm64's 6.12 names its own __ioremap_prot for every
# ioremap; the physical address alone says which mapping is BAR0's.
nic_bar0_ioremap() {
	NIC_BAR0=$(printf '0x%x' "$(head -n 1 "$NIC/resource" | cut -d' ' -f1)")
	# "0xSTART-0xEND SIZE e1000_probe+... [e1000e] phys=0x... ioremap";
	# phys is zero-padded: compared as a number
	_map=$(sed -n 's/^\(0x[0-9a-f]*\)-\(0x[0-9a-f]*\) .* phys=\(0x[0-9a-f]*\) ioremap.*/\1 \2 \3/p' \
		/proc/vmallocinfo | while read -r _s _e _p; do
		[ $((_p)) = $((NIC_BAR0)) ] && echo "$_s $_e"
	done | head -n 1)
	[ -n "$_map" ] || {
		grep -E 'e1000|ioremap' /proc/vmallocinfo
		fail "no ioremap of BAR0 $NIC_BAR0 in /proc/vmallocinfo"
	}
	NIC_MAP=${_map% *}
	NIC_MAP_END=${_map#* }
}

# ---- tests of the ftguard command ---------------------------------------------
# cli_setup [CLEANUP-CMD]: the common start of the cli-* tests. Works in
# /tmp; T is ftg_target's trigger; OUT and ERR take run's output. On any
# exit, cli_cleanup kills the processes listed in BG_PIDS (bg_track PID),
# closes fd 3, stops an arm, runs CLEANUP-CMD and unloads ftg_target and
# ftguard: a failed check leaves the next test a clean system.
cli_cleanup() {
	for _p in $BG_PIDS; do
		kill -KILL "$_p" 2>/dev/null
		wait "$_p" 2>/dev/null
	done
	exec 3>&- 2>/dev/null
	ftguard stop >/dev/null 2>&1
	[ -n "$CLI_CLEANUP" ] && eval "$CLI_CLEANUP" >/dev/null 2>&1
	rmmod ftg_target 2>/dev/null
	rmmod ftguard 2>/dev/null
	return 0
}
cli_setup() {
	BG_PIDS=
	CLI_CLEANUP=${1:-}
	T=/sys/kernel/debug/ftg_target/trigger
	OUT=/tmp/$FTG_TEST.out
	ERR=/tmp/$FTG_TEST.err
	trap cli_cleanup EXIT
	cd /tmp || fail "cd /tmp"
}
bg_track() { BG_PIDS="$BG_PIDS $1"; }

# run STATUS CMD...: run CMD, stdout in $OUT and stderr in $ERR; unless it
# exits STATUS, show both and fail.
run() {
	_want=$1
	shift
	"$@" >"$OUT" 2>"$ERR"
	_st=$?
	[ "$_st" = "$_want" ] || { cat "$OUT" "$ERR"; fail "'$*' exited $_st, expected $_want"; }
	log "$* -> $_st"
}
out_has() { grep -q -- "$1" "$OUT" || { cat "$OUT"; fail "stdout lacks '$1'"; }; }
err_has() { grep -q -- "$1" "$ERR" || { cat "$ERR"; fail "stderr lacks '$1'"; }; }
both_have() { cat "$OUT" "$ERR" | grep -q -- "$1" || { cat "$OUT" "$ERR"; fail "no '$1' in the output"; }; }

# ftguard's allocation counters (status alloc_<kind>) as one line
# "sessions=N selections=N ...", for before/after comparisons.
ftg_objects() {
	sed -n 's/^alloc_\([a-z]*\) \([0-9-]*\)$/\1=\2/p' "$FTG_DEBUGFS/status" | tr '\n' ' ' | sed 's/ $//'
}

# ftg_record_of FUNC: the address of vmlinux FUNC's ftrace record (0x...),
# which follows endbr64 on kernels with IBT: from
# available_filter_functions_addrs where the kernel has it (6.5+), else
# the symbol's address (no x86 kernel without that file puts it
# elsewhere), on arm64 + 4, after "mov x9, x30" (Debian's 6.1 builds no
# "bti c" into the kernel).
ftg_record_of() {
	if [ -r "$FTG_TRACEFS/available_filter_functions_addrs" ]; then
		awk -v n="$1" '$2 == n && NF == 2 { print "0x" $1; exit }' \
			"$FTG_TRACEFS/available_filter_functions_addrs"
	else
		_sym=0x$(grep " $1\$" /proc/kallsyms | head -n 1 | cut -d' ' -f1)
		[ "$(uname -m)" = aarch64 ] && _sym=$(printf '0x%x' $((_sym + 4)))
		echo "$_sym"
	fi
}

# quiet_vmlinux_fn: sets vm_fn to a vmlinux system call nothing makes
# during a test (it keeps ftrace ops armed without hits) and vm_ip to its
# ftrace record; skips the test when none is traceable under one name.
quiet_vmlinux_fn() {
	vm_fn=
	for _f in __x64_sys_acct __x64_sys_vhangup __x64_sys_syncfs; do
		grep -qx "$_f" "$FTG_TRACEFS/available_filter_functions" || continue
		[ "$(grep -c " $_f\$" /proc/kallsyms)" = 1 ] || continue
		vm_fn=$_f
		break
	done
	[ -n "$vm_fn" ] || skip "no unique rarely-called vmlinux function"
	vm_ip=$(ftg_record_of "$vm_fn")
}

# ftg_split_prologue PROLOGUE: splits the tables' "[prefix:]site" bytes
# into $prefix and $site; fails (status 1) when the prefix is not one the
# arch makes before a record (endbr64 or its sealed NOP on x86, [bti c;]
# mov x9, x30 on arm64).
ftg_split_prologue() {
	prefix= site=$1
	case "$1" in *:*) prefix=${1%%:*} site=${1#*:} ;; esac
	case "$prefix" in
	''|f30f1efa|660f1f00|e9031eaa|5f2403d5e9031eaa) return 0 ;;
	*) return 1 ;;
	esac
}

# expect_objects_at_rest WHAT: with no control file open and nothing armed,
# ftguard's allocation counters agree with its tables: no session,
# selection, response, armed set or command buffer is alive, at most the
# kept check report, one site object per listed site and one module object
# per line of the modules table.
expect_objects_at_rest() {
	_st=$FTG_DEBUGFS/status
	_f() { awk -v k="$1" '$1 == k { print $2 }' "$_st"; }
	for _k in sessions selections responses armsets scratch graphs; do
		expect_eq "$1: alloc_$_k" 0 "$(_f alloc_$_k)"
	done
	expect_eq "$1: alloc_sites = sites" "$(_f sites)" "$(_f alloc_sites)"
	expect_eq "$1: alloc_modules = modules listed" \
		"$(($(wc -l <"$FTG_DEBUGFS/modules") - 1))" "$(_f alloc_modules)"
	[ "$(_f alloc_reports)" -le 1 ] || fail "$1: $(_f alloc_reports) check reports alive"
}

# The names tests/modules/plant-names gives ftg_names.ko's functions, as
# ftguard.ko's tables and the command print them (\ooo: one word each),
# one per line.
FTG_PLANTED_NAMES='ftg\040names\040space
ftg_names_nl\012injected\0400xffffffff81000000\040ok
ftg_names\011tab
ftg_names\134134back\134slash
ftg_names_clear\033[2J\033[H
ftg_names_title\033]0;pwned\007
ftg_names_cursor\033[5;1H\033[1A
ftg_names_rtl\342\200\256lanigiro'
