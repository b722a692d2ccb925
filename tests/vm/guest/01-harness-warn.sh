#!/bin/sh
# The kernel-log scan has something real to catch: a WARN_ON in a module
# reaches the log the harness reads even though the console is quiet. The
# judge self-test (tests/vm/selftest) proves such a line fails a test; this
# test expects it, and says so:
# dmesg-allow: ftg_warn|do_one_initcall|do_init_module|finit_module|do_syscall_64|entry_SYSCALL|Call Trace|RIP: 0033
. /tests/lib.sh

load_test_module ftg_warn warn=1
rmmod ftg_warn || fail "rmmod ftg_warn"
dmesg | grep -q 'WARNING: CPU: .* ftg_warn_init' ||
	fail "WARN_ON(1) in ftg_warn did not reach the kernel log"
dmesg | grep -q 'Call Trace:' || fail "no Call Trace after the warning"
log "warning seen: $(dmesg | grep -m1 'WARNING:')"
pass
