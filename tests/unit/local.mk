# Host unit tests of libftguard: cmocka, no root, canned inputs from
# tests/fixtures, one helper header (lib-test.h). The trace tests use the
# real 6.1 formats and ring-buffer pages in tests/fixtures/trace and run
# `trace-cmd report` on the files they write, and KernelShark's library
# (kshark-cat) where configure found it. Each binary exits 0 when every
# test passed.
LIB_UNIT_TESTS = \
	tests/unit/test-readers \
	tests/unit/test-kmod-tables \
	tests/unit/test-selection \
	tests/unit/test-session \
	tests/unit/test-map \
	tests/unit/test-checker \
	tests/unit/test-snapshot \
	tests/unit/test-robust \
	tests/unit/test-sanitize \
	tests/unit/test-trace-file \
	tests/unit/test-trace-hostile \
	tests/unit/test-trace-event \
	tests/unit/test-trace-graph \
	tests/unit/test-trace-filter \
	tests/unit/test-graph \
	tests/unit/test-stack

if HAVE_CMOCKA
check_PROGRAMS += $(LIB_UNIT_TESTS)
UNIT_TESTS += $(LIB_UNIT_TESTS)
endif

LIB_UNIT_CPPFLAGS = $(AM_CPPFLAGS) $(CMOCKA_CFLAGS) \
	-DFTG_FIXTURES='"$(abs_top_srcdir)/tests/fixtures"' \
	-DFTG_KSHARK_CAT='"$(abs_top_builddir)/tests/unit/kshark-cat"'
LIB_UNIT_LDADD = libftguard-core.la $(CMOCKA_LIBS)

tests_unit_test_readers_SOURCES = tests/unit/test-readers.c tests/unit/lib-test.h
tests_unit_test_readers_CPPFLAGS = $(LIB_UNIT_CPPFLAGS)
tests_unit_test_readers_LDADD = $(LIB_UNIT_LDADD)
tests_unit_test_kmod_tables_SOURCES = tests/unit/test-kmod-tables.c tests/unit/lib-test.h
tests_unit_test_kmod_tables_CPPFLAGS = $(LIB_UNIT_CPPFLAGS)
tests_unit_test_kmod_tables_LDADD = $(LIB_UNIT_LDADD)
tests_unit_test_selection_SOURCES = tests/unit/test-selection.c tests/unit/lib-test.h
tests_unit_test_selection_CPPFLAGS = $(LIB_UNIT_CPPFLAGS)
tests_unit_test_selection_LDADD = $(LIB_UNIT_LDADD)
tests_unit_test_session_SOURCES = tests/unit/test-session.c tests/unit/lib-test.h
tests_unit_test_session_CPPFLAGS = $(LIB_UNIT_CPPFLAGS)
tests_unit_test_session_LDADD = $(LIB_UNIT_LDADD)
tests_unit_test_map_SOURCES = tests/unit/test-map.c tests/unit/lib-test.h
tests_unit_test_map_CPPFLAGS = $(LIB_UNIT_CPPFLAGS)
tests_unit_test_map_LDADD = $(LIB_UNIT_LDADD)
tests_unit_test_checker_SOURCES = tests/unit/test-checker.c tests/unit/lib-test.h
tests_unit_test_checker_CPPFLAGS = $(LIB_UNIT_CPPFLAGS)
tests_unit_test_checker_LDADD = $(LIB_UNIT_LDADD)
tests_unit_test_snapshot_SOURCES = tests/unit/test-snapshot.c tests/unit/lib-test.h
tests_unit_test_snapshot_CPPFLAGS = $(LIB_UNIT_CPPFLAGS)
tests_unit_test_snapshot_LDADD = $(LIB_UNIT_LDADD)
tests_unit_test_robust_SOURCES = tests/unit/test-robust.c tests/unit/lib-test.h
tests_unit_test_robust_CPPFLAGS = $(LIB_UNIT_CPPFLAGS)
tests_unit_test_robust_LDADD = $(LIB_UNIT_LDADD)
tests_unit_test_sanitize_SOURCES = tests/unit/test-sanitize.c tests/unit/lib-test.h
tests_unit_test_sanitize_CPPFLAGS = $(LIB_UNIT_CPPFLAGS)
tests_unit_test_sanitize_LDADD = $(LIB_UNIT_LDADD)
tests_unit_test_trace_file_SOURCES = tests/unit/test-trace-file.c tests/unit/lib-test.h
tests_unit_test_trace_file_CPPFLAGS = $(LIB_UNIT_CPPFLAGS)
tests_unit_test_trace_file_LDADD = $(LIB_UNIT_LDADD)
tests_unit_test_trace_hostile_SOURCES = tests/unit/test-trace-hostile.c tests/unit/lib-test.h
tests_unit_test_trace_hostile_CPPFLAGS = $(LIB_UNIT_CPPFLAGS)
tests_unit_test_trace_hostile_LDADD = $(LIB_UNIT_LDADD)
tests_unit_test_trace_event_SOURCES = tests/unit/test-trace-event.c tests/unit/lib-test.h
# It asks libtraceevent itself what a formats' tep resolves.
tests_unit_test_trace_event_CPPFLAGS = $(LIB_UNIT_CPPFLAGS) $(TRACEEVENT_CFLAGS)
tests_unit_test_trace_event_LDADD = $(LIB_UNIT_LDADD) $(TRACEEVENT_LIBS)
# It runs the ftguard command built here (`ftguard report`).
tests_unit_test_trace_graph_SOURCES = tests/unit/test-trace-graph.c tests/unit/lib-test.h
tests_unit_test_trace_graph_CPPFLAGS = $(LIB_UNIT_CPPFLAGS) \
	-DFTG_BINARY='"$(abs_top_builddir)/ftguard"'
tests_unit_test_trace_graph_LDADD = $(LIB_UNIT_LDADD)
tests_unit_test_trace_filter_SOURCES = tests/unit/test-trace-filter.c tests/unit/lib-test.h
tests_unit_test_trace_filter_CPPFLAGS = $(LIB_UNIT_CPPFLAGS)
tests_unit_test_trace_filter_LDADD = $(LIB_UNIT_LDADD)
tests_unit_test_graph_SOURCES = tests/unit/test-graph.c tests/unit/lib-test.h
tests_unit_test_graph_CPPFLAGS = $(LIB_UNIT_CPPFLAGS)
tests_unit_test_graph_LDADD = $(LIB_UNIT_LDADD)
tests_unit_test_stack_SOURCES = tests/unit/test-stack.c tests/unit/lib-test.h
tests_unit_test_stack_CPPFLAGS = $(LIB_UNIT_CPPFLAGS)
tests_unit_test_stack_LDADD = $(LIB_UNIT_LDADD)

EXTRA_DIST += tests/fixtures/amd64 tests/fixtures/amd64-vm tests/fixtures/amd64-612-vm tests/fixtures/i386 \
	tests/fixtures/i386-vm tests/fixtures/malformed tests/fixtures/trace \
	tests/fixtures/shared-612

# The BPF trampoline matching is internal: its source is built in.
if HAVE_CMOCKA
check_PROGRAMS += tests/unit/test-users-bpf
UNIT_TESTS += tests/unit/test-users-bpf
endif
tests_unit_test_users_bpf_SOURCES = tests/unit/test-users-bpf.c tests/unit/lib-test.h \
	src/lib/users-bpf.c
tests_unit_test_users_bpf_CPPFLAGS = $(LIB_UNIT_CPPFLAGS) $(BPF_CFLAGS)
tests_unit_test_users_bpf_LDADD = $(CMOCKA_LIBS) $(BPF_LIBS)

# The EXAMPLE section of libftguard(3), compiled by make check so that the
# man page cannot drift from the header.
check_PROGRAMS += tests/unit/man-example
nodist_tests_unit_man_example_SOURCES = tests/unit/man-example.c
tests_unit_man_example_LDADD = libftguard.la
CLEANFILES += tests/unit/man-example.c
tests/unit/man-example.c: $(top_srcdir)/doc/libftguard.3
	$(AM_V_GEN)mkdir -p tests/unit && { \
	  printf '#include <err.h>\n#include <stdio.h>\n#include "ftguard.h"\n\nint main(void)\n{\n'; \
	  sed -n '/^\.SH EXAMPLE/,/^\.SH SEE/p' $(top_srcdir)/doc/libftguard.3 | \
	    sed -n '/^\.nf$$/,/^\.fi$$/p' | sed '/^\.nf$$/d; /^\.fi$$/d; s/\\e/\\/g'; \
	  printf '\treturn 0;\n}\n'; } >$@.tmp && mv $@.tmp $@

# vm-probe: libftguard against the real module, for the guest script
# tests/unit/vm-probe.sh (built here so that it always compiles; the VM
# harness must copy it into the guest as /usr/bin/ftg-vm-probe). It links
# the library's convenience archive: it drives a session's steps (admit,
# select) one by one, which libftguard.so does not export.
check_PROGRAMS += tests/unit/vm-probe
tests_unit_vm_probe_SOURCES = tests/unit/vm-probe.c
tests_unit_vm_probe_LDADD = libftguard-core.la
# its guest script is tests/vm/guest/lib-probe.sh

# vm-conform: the real module's tables and responses held against the
# library's readers, for the guest script tests/vm/guest/kmod-conformance.sh
# (copied into the guest as /usr/bin/ftg-vm-conform). It links the
# library's convenience archive, not the shared library, to reach the
# readers' own lists (src/lib/kmod-local.h) that the version script keeps
# inside.
check_PROGRAMS += tests/unit/vm-conform
tests_unit_vm_conform_SOURCES = tests/unit/vm-conform.c
tests_unit_vm_conform_LDADD = libftguard-core.la

# vm-threads: one process with several threads writing a file, for the
# guest script tests/vm/guest/cli-record-threads.sh (copied into the guest
# as /usr/bin/ftg-vm-threads).
check_PROGRAMS += tests/unit/vm-threads
tests_unit_vm_threads_SOURCES = tests/unit/vm-threads.c
tests_unit_vm_threads_LDADD = -lpthread

# kshark-cat: a trace.dat as KernelShark's library loads it, for the trace
# tests (they skip that part without it)
if HAVE_KSHARK
if HAVE_CMOCKA
check_PROGRAMS += tests/unit/kshark-cat
tests_unit_kshark_cat_SOURCES = tests/unit/kshark-cat.c
tests_unit_kshark_cat_CPPFLAGS = $(AM_CPPFLAGS) $(KSHARK_CFLAGS)
# libkshark.h itself declares "const int" returns and "()" prototypes
tests_unit_kshark_cat_CFLAGS = $(AM_CFLAGS) -Wno-strict-prototypes -Wno-ignored-qualifiers
tests_unit_kshark_cat_LDADD = $(KSHARK_LIBS)
tests/unit/test-trace-graph$(EXEEXT) tests/unit/test-stack$(EXEEXT): tests/unit/kshark-cat$(EXEEXT)
endif
endif
