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

# load_ftguard [fi]: the default build, or the fault-injection one.
load_ftguard() {
	_ko=/lib/ftguard/ftguard.ko
	[ "${1:-}" = fi ] && _ko=/lib/ftguard/fi/ftguard.ko
	insmod "$_ko" || fail "insmod $_ko failed"
	wait_for 10 test -e "$FTG_DEBUGFS/control" || fail "ftguard debugfs files did not appear"
}

unload_ftguard() {
	module_loaded ftguard || return 0
	rmmod ftguard || fail "rmmod ftguard failed"
}

# load_test_module NAME [ARGS]: one of /lib/ftguard/test/NAME.ko
load_test_module() {
	_name=$1
	shift
	insmod "/lib/ftguard/test/$_name.ko" "$@" || fail "insmod $_name failed"
}
