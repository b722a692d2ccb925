# make check: host unit tests, host command tests, then the real-kernel VM
# tests, summed up by tests/run-all in one closing line.
UNIT_TESTS =
include tests/unit/local.mk
include tests/fuzz/local.mk

EXTRA_DIST += tests/run-all tests/abi-check tests/uapi-check tests/install-deps tests/vm/run tests/vm/judge \
	tests/vm/init tests/vm/open-tui tests/vm/lib.sh tests/vm/guest tests/vm/targets tests/vm/selftest tests/modules \
	tests/vm/fetch-i386 tests/vm/fetch-kernel tests/vm/fetch-samples tests/vm/hunt-i386 tests/modules-shared \
	tests/bpf tests/dkms

check-local: $(UNIT_TESTS)
	FTG_SRCDIR=$(abs_top_srcdir) FTG_BUILDDIR=$(abs_top_builddir) \
	FTG_VM_TESTS=$(enable_vm_tests) FTG_UNIT_TESTS="$(UNIT_TESTS)" CC="$(CC)" \
		$(SHELL) $(srcdir)/tests/run-all

# Only the VM tests, e.g. make vm-check VM_TESTS="00-smoke kmod-arm"
vm-check: all
	FTG_BUILDDIR=$(abs_top_builddir) $(srcdir)/tests/vm/run $(VM_TESTS)

# The main job: ftguard's TUI on this host if it can load the module, else in the VM.
open: all
	$(srcdir)/tests/vm/run --builddir $(abs_top_builddir) --open
.PHONY: vm-check open

# Directories given whole to EXTRA_DIST (tests/cmd, tests/modules...) may hold
# what an in-tree build left there; a tarball carries sources only.
dist-hook:
	cd $(distdir) && rm -f $(check_PROGRAMS) && \
	find . \( -name '*.o' -o -name '*.lo' -o -name '*.ko' -o -name '.*.cmd' \
		-o -name .dirstamp -o -name .deps -o -name .libs \) -prune -exec rm -rf {} +

clean-local: tests-clean
tests-clean:
	-rm -rf tests/asan-build tests/asan-src tests/asan-build.log tests/run-all.log tests/vm/build \
		tests/fuzz-build tests/fuzz-build.log tests/fuzz-src tests/fuzz-seeds \
		tests/fuzz-scratch tests/fuzz-corpus tests/fuzz-artifacts tests/fuzz-*.log
.PHONY: tests-clean

# Benchmarks (doc/performance.md): one VM boot per kernel, ratios measured
# side by side.
EXTRA_DIST += tests/bench
bench: all tests/bench/tui-bench
	$(srcdir)/tests/bench/run --builddir $(abs_top_builddir)
.PHONY: bench
