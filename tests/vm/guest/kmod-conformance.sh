#!/bin/sh
# The module and libftguard speak one protocol: the tables the module
# renders (status, sites, modules, check) in each state a client meets
# (loaded, planted, checked, armed by a descriptor, armed persistent with
# stacks, a call tree, killed) and a refusal of each errno the module can
# answer are read by libftguard's own readers (ftg-vm-conform, built from
# tests/unit/vm-conform.c) and compared field by field with the text. Any
# key or word one side has and the other lacks fails here.
. /tests/lib.sh

conform=/usr/bin/ftg-vm-conform
[ -x "$conform" ] || skip "no $conform in the guest"
kmod_setup ftg_target ftg_names

# tables WHEN: the four tables as they are now
tables() {
	"$conform" tables >/tmp/conform.out 2>&1
	_rc=$?
	sed "s/^/# $1: /" /tmp/conform.out
	grep '^conform: FAIL' /tmp/conform.out | head -n 5
	[ "$_rc" = 0 ] || fail "$1: libftguard and the module disagree ($(grep -c '^conform: FAIL' /tmp/conform.out) problems)"
}
# refuse NAME COMMAND: COMMAND on fd 3 is refused with errno NAME, which
# libftguard reads back
refused=
refuse() {
	"$conform" error "$1" "$2" <&3 >/tmp/conform.out 2>&1
	_rc=$?
	cat /tmp/conform.out
	[ "$_rc" = 0 ] || fail "refusal $1 of \"$2\""
	refused="$refused $1"
}
ok() { echo "$1" >&3 || fail "$1: $(cat <&3)"; }

load_ftguard fi
tables loaded

load_test_module ftg_target
load_test_module ftg_names
stale=$(grep ' site: .* name=init_one action=drop reason=init-free$' "$FTG_INSTANCE/trace" |
	sed 's/.* ip=\(0x[0-9a-f]*\) .*/\1/')
[ -n "$stale" ] || fail "no init-free drop event for init_one"
find_nic
nic_bar0_ioremap
foreign=$(printf '0x%x' $((NIC_MAP + 0x100)))
fn_a=$(site_ip fn_a)
fn_b=$(site_ip fn_b)
log "stale $stale, foreign $foreign, fn_a $fn_a, fn_b $fn_b"

exec 3<>"$FTG_DEBUGFS/control"
ok "plant stale $stale init_one"
ok "plant foreign $foreign"
tables planted

# every verdict: fn_a ok, fn_b mismatch (its expected bytes inverted)
ok "corrupt $fn_b"
ok "select $fn_a $fn_b $stale $foreign"
ok check
tables checked
grep -q " mismatch ftg_target " "$FTG_DEBUGFS/check" || fail "no mismatch verdict in check"
refuse ESTALE arm
refuse EEXIST "plant stale $stale init_one"
refuse EINVAL "no-such-command"
refuse E2BIG "select $(printf '%0300d' 0)"
refuse ENOENT "select 0x1"
ok unplant
ok clear

# armed by this descriptor, then by none, then as a call tree
ok "select $fn_a"
ok arm
tables armed
refuse EBUSY arm
ok disarm
# EOPNOTSUPP answers what a kernel cannot do: arm graph where no exit
# hook is exported (i386, arm64); a kernel with one refuses nothing with it
unreachable=
if [ "$(status graph_hook)" = none ]; then
	refuse EOPNOTSUPP "arm graph"
else
	unreachable=EOPNOTSUPP
fi
ok "arm persistent stack"
tables persistent
ok disarm
if [ "$(status graph_hook)" != none ]; then
	ok "graph-roots $fn_a"
	ok "arm graph max-depth=2"
	tables graph
	ok disarm
fi
ok clear

# killed: a failing ftrace kills, and the latch refuses until reset
ok "select $fn_a"
ok fail-ftrace
refuse ENODEV arm
expect_eq "killed" 1 "$(status killed)"
tables killed
refuse EPERM arm
ok reset

# out of memory: a check whose first memory request fails
ok "fail-memory 0"
refuse ENOMEM check

# Every errno of the protocol was answered above, but EIO (and
# EOPNOTSUPP where this kernel has an exit hook): the module sends it for
# any error without a name of its own, which no test can bring about.
for name in $("$conform" errnos); do
	case " $refused $unreachable EIO " in
	*" $name "*) ;;
	*) fail "errno $name of ftg_uapi.h: no command here is refused with it" ;;
	esac
done
exec 3>&-
pass
