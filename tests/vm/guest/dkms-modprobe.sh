#!/bin/sh
# The module as DKMS installs it (booted by tests/dkms/run, which gives the
# guest the /lib/modules tree its private DKMS installed into): ftguard
# status names modprobe as the way to load it, and modprobe loads it.
. /tests/lib.sh

cli_setup
ko=/lib/modules/$(uname -r)/updates/dkms/ftguard.ko
[ -f "$ko" ] || fail "no $ko: boot this test from tests/dkms/run"
module_loaded ftguard && fail "ftguard loaded before the test"

run 1 ftguard status
out_has 'not loaded'
err_has 'load it: modprobe ftguard'
run 0 modprobe ftguard
wait_for 10 test -e "$FTG_DEBUGFS/control" || fail "ftguard debugfs files did not appear"
run 0 ftguard status
out_has '^module: *loaded'
run 0 rmmod ftguard
pass
