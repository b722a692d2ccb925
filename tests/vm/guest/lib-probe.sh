#!/bin/sh
# libftguard against the real ftguard.ko (guest test). Needs
# vm-probe (tests/unit/vm-probe.c, built by make check) copied into the
# guest as /usr/bin/ftg-vm-probe: the fault-injection ftguard.ko, a stale
# site planted at ftg_target's freed init_one and a foreign one in e1000e's
# BAR0 ioremap, then the probe's checks (see vm-probe.c). Exports the
# probe's output and the snapshot it saved.
. /tests/lib.sh

probe=/usr/bin/ftg-vm-probe
[ -x "$probe" ] || skip "no $probe in the guest"
find_nic
nic_bar0_ioremap
foreign=$(printf '0x%x' $((NIC_MAP + 0x100)))

load_ftguard fi
load_test_module ftg_target
stale=$(grep ' site: .* name=init_one action=drop reason=init-free$' "$FTG_INSTANCE/trace" |
	sed 's/.* ip=\(0x[0-9a-f]*\) .*/\1/')
[ -n "$stale" ] || fail "no init-free drop event for init_one"
exec 3<>"$FTG_DEBUGFS/control"
echo "plant stale $stale init_one" >&3 || fail "plant stale"
echo "plant foreign $foreign" >&3 || fail "plant foreign"
log "stale $stale, foreign $foreign"

"$probe" "$stale" "$foreign" vfs_read 'ftg_target:fn_?' 'schedule_timeout*' >/tmp/probe.out 2>&1
rc=$?
cat /tmp/probe.out
export_file /tmp/probe.out
tar cf /tmp/snap.tar -C /tmp snap && export_file /tmp/snap.tar

echo unplant >&3
echo reset >&3
exec 3>&-
rmmod ftg_target || fail "rmmod ftg_target"
unload_ftguard
[ "$rc" = 0 ] || fail "vm-probe exited $rc"
pass
