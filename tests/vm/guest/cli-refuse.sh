#!/bin/sh
# With the fault-injection build: a stale site planted in freed init text
# makes 'ftguard start' refuse with exit 1, naming the region; a foreign
# site planted in e1000e's ioremap makes 'ftguard check' fail naming the
# mapping and its caller; a corrupted site is a mismatch.
. /tests/lib.sh

cli_setup

armed() { grep -q '^armed 1$' "$FTG_DEBUGFS/status"; }

load_ftguard fi
load_test_module ftg_target
grep -q '^fault_injection 1$' "$FTG_DEBUGFS/status" || fail "not the fault-injection build"

# init_one's address, from the site-drop event when init text was freed
stale=$(grep ' site: .* name=init_one action=drop reason=init-free$' "$FTG_INSTANCE/trace" |
	sed 's/.* ip=\(0x[0-9a-f]*\) .*/\1/')
[ -n "$stale" ] || fail "no init-free drop event for init_one"
log "stale site $stale (freed init_one)"
exec 3<>"$FTG_DEBUGFS/control"
echo "plant stale $stale init_one" >&3 || fail "plant stale: $(cat <&3)"

run 1 ftguard start -l "init_one@$stale"
both_have 'refused'
both_have 'stale'
both_have 'freed init text of ftg_target'
armed && fail "armed despite the refusal"
run 1 ftguard check
both_have 'freed init text of ftg_target'

# a foreign site inside e1000e's BAR0 mapping
find_nic
nic_bar0_ioremap
bar=$(printf '0x%x' $((NIC_MAP + 0x100)))
echo unplant >&3 || fail "unplant"
echo "plant foreign $bar" >&3 || fail "plant foreign: $(cat <&3)"
run 1 ftguard check
both_have 'foreign'
both_have 'e1000_probe'
run 1 ftguard start -l "(foreign)@$bar"
both_have 'e1000_probe'
armed && fail "armed a foreign site"

# a corrupted site: mismatch, start refused
echo unplant >&3
fn_a=$(site_ip fn_a)
echo "corrupt $fn_a" >&3 || fail "corrupt: $(cat <&3)"
run 1 ftguard start -l fn_a
both_have 'mismatch'
armed && fail "armed a corrupted site"
run 1 ftguard record -l fn_a -o /tmp/never.dat -- true
[ -e /tmp/never.dat ] && fail "a refused record wrote a file"
exec 3>&-

rmmod ftg_target || fail "rmmod ftg_target"
unload_ftguard
pass
