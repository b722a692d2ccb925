# Unit tests of the trace/event/export code, included from
# tests/unit/local.mk. They use the real 6.1 formats and ring-buffer pages
# in tests/fixtures/trace and run `trace-cmd report` on the files they
# write (skipped when trace-cmd is not installed).
TRACE_UNIT_TESTS = \
	tests/unit/trace-file-test \
	tests/unit/trace-hostile-test \
	tests/unit/trace-event-test

if HAVE_CMOCKA
check_PROGRAMS += $(TRACE_UNIT_TESTS)
UNIT_TESTS += $(TRACE_UNIT_TESTS)
endif

TRACE_UNIT_CPPFLAGS = $(AM_CPPFLAGS) $(CMOCKA_CFLAGS) \
	-DFIXTURES_DIR='"$(abs_top_srcdir)/tests/fixtures"'
TRACE_UNIT_LDADD = libftguard.la $(CMOCKA_LIBS)

tests_unit_trace_file_test_SOURCES = tests/unit/trace-file-test.c tests/unit/trace-test.h
tests_unit_trace_file_test_CPPFLAGS = $(TRACE_UNIT_CPPFLAGS)
tests_unit_trace_file_test_LDADD = $(TRACE_UNIT_LDADD)
tests_unit_trace_hostile_test_SOURCES = tests/unit/trace-hostile-test.c tests/unit/trace-test.h
tests_unit_trace_hostile_test_CPPFLAGS = $(TRACE_UNIT_CPPFLAGS)
tests_unit_trace_hostile_test_LDADD = $(TRACE_UNIT_LDADD)
tests_unit_trace_event_test_SOURCES = tests/unit/trace-event-test.c tests/unit/trace-test.h
# It asks libtraceevent itself what a formats' tep resolves.
tests_unit_trace_event_test_CPPFLAGS = $(TRACE_UNIT_CPPFLAGS) $(TRACEEVENT_CFLAGS)
tests_unit_trace_event_test_LDADD = $(TRACE_UNIT_LDADD) $(TRACEEVENT_LIBS)

EXTRA_DIST += tests/fixtures/trace
