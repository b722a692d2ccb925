# libFuzzer harnesses, included from tests/local.mk. They are
# EXTRA_PROGRAMS: never built by `make` or `make check` in a gcc tree.
# tests/fuzz/run configures a tree of their own with clang, where every
# object is compiled -fsanitize=fuzzer-no-link,address,undefined and these
# programs link with -fsanitize=fuzzer (libclang-rt-14-dev).
FUZZ_HARNESSES = \
	tests/fuzz/fuzz-kallsyms \
	tests/fuzz/fuzz-proc-modules \
	tests/fuzz/fuzz-vmalloc \
	tests/fuzz/fuzz-sections \
	tests/fuzz/fuzz-ftrace-funcs \
	tests/fuzz/fuzz-kmod-tables \
	tests/fuzz/fuzz-map \
	tests/fuzz/fuzz-control \
	tests/fuzz/fuzz-selection \
	tests/fuzz/fuzz-trace-file \
	tests/fuzz/fuzz-page-decode \
	tests/fuzz/fuzz-shell
EXTRA_PROGRAMS = $(FUZZ_HARNESSES)

FUZZ_COMMON = tests/fuzz/fuzz-common.c tests/fuzz/fuzz-common.h
FUZZ_CPP = $(AM_CPPFLAGS) -DFTG_FIXTURES='"$(abs_top_srcdir)/tests/fixtures"'
FUZZ_LINK = $(AM_LDFLAGS) -fsanitize=fuzzer
FUZZ_LIBS = libftguard-core.la

tests_fuzz_fuzz_kallsyms_SOURCES = tests/fuzz/fuzz-kallsyms.c $(FUZZ_COMMON)
tests_fuzz_fuzz_kallsyms_CPPFLAGS = $(FUZZ_CPP)
tests_fuzz_fuzz_kallsyms_LDFLAGS = $(FUZZ_LINK)
tests_fuzz_fuzz_kallsyms_LDADD = $(FUZZ_LIBS)
tests_fuzz_fuzz_proc_modules_SOURCES = tests/fuzz/fuzz-proc-modules.c $(FUZZ_COMMON)
tests_fuzz_fuzz_proc_modules_CPPFLAGS = $(FUZZ_CPP)
tests_fuzz_fuzz_proc_modules_LDFLAGS = $(FUZZ_LINK)
tests_fuzz_fuzz_proc_modules_LDADD = $(FUZZ_LIBS)
tests_fuzz_fuzz_vmalloc_SOURCES = tests/fuzz/fuzz-vmalloc.c $(FUZZ_COMMON)
tests_fuzz_fuzz_vmalloc_CPPFLAGS = $(FUZZ_CPP)
tests_fuzz_fuzz_vmalloc_LDFLAGS = $(FUZZ_LINK)
tests_fuzz_fuzz_vmalloc_LDADD = $(FUZZ_LIBS)
tests_fuzz_fuzz_sections_SOURCES = tests/fuzz/fuzz-sections.c $(FUZZ_COMMON)
tests_fuzz_fuzz_sections_CPPFLAGS = $(FUZZ_CPP)
tests_fuzz_fuzz_sections_LDFLAGS = $(FUZZ_LINK)
tests_fuzz_fuzz_sections_LDADD = $(FUZZ_LIBS)
tests_fuzz_fuzz_ftrace_funcs_SOURCES = tests/fuzz/fuzz-ftrace-funcs.c $(FUZZ_COMMON)
tests_fuzz_fuzz_ftrace_funcs_CPPFLAGS = $(FUZZ_CPP)
tests_fuzz_fuzz_ftrace_funcs_LDFLAGS = $(FUZZ_LINK)
tests_fuzz_fuzz_ftrace_funcs_LDADD = $(FUZZ_LIBS)
tests_fuzz_fuzz_kmod_tables_SOURCES = tests/fuzz/fuzz-kmod-tables.c $(FUZZ_COMMON)
tests_fuzz_fuzz_kmod_tables_CPPFLAGS = $(FUZZ_CPP)
tests_fuzz_fuzz_kmod_tables_LDFLAGS = $(FUZZ_LINK)
tests_fuzz_fuzz_kmod_tables_LDADD = $(FUZZ_LIBS)
tests_fuzz_fuzz_map_SOURCES = tests/fuzz/fuzz-map.c $(FUZZ_COMMON)
tests_fuzz_fuzz_map_CPPFLAGS = $(FUZZ_CPP)
tests_fuzz_fuzz_map_LDFLAGS = $(FUZZ_LINK)
tests_fuzz_fuzz_map_LDADD = $(FUZZ_LIBS)
tests_fuzz_fuzz_control_SOURCES = tests/fuzz/fuzz-control.c $(FUZZ_COMMON)
tests_fuzz_fuzz_control_CPPFLAGS = $(FUZZ_CPP)
tests_fuzz_fuzz_control_LDFLAGS = $(FUZZ_LINK)
tests_fuzz_fuzz_control_LDADD = $(FUZZ_LIBS)
tests_fuzz_fuzz_selection_SOURCES = tests/fuzz/fuzz-selection.c $(FUZZ_COMMON)
tests_fuzz_fuzz_selection_CPPFLAGS = $(FUZZ_CPP)
tests_fuzz_fuzz_selection_LDFLAGS = $(FUZZ_LINK)
tests_fuzz_fuzz_selection_LDADD = $(FUZZ_LIBS)
tests_fuzz_fuzz_trace_file_SOURCES = tests/fuzz/fuzz-trace-file.c $(FUZZ_COMMON)
tests_fuzz_fuzz_trace_file_CPPFLAGS = $(FUZZ_CPP)
tests_fuzz_fuzz_trace_file_LDFLAGS = $(FUZZ_LINK)
tests_fuzz_fuzz_trace_file_LDADD = $(FUZZ_LIBS)
tests_fuzz_fuzz_page_decode_SOURCES = tests/fuzz/fuzz-page-decode.c $(FUZZ_COMMON)
tests_fuzz_fuzz_page_decode_CPPFLAGS = $(FUZZ_CPP)
tests_fuzz_fuzz_page_decode_LDFLAGS = $(FUZZ_LINK)
tests_fuzz_fuzz_page_decode_LDADD = $(FUZZ_LIBS)
# The command's parsers live in the ftguard program: its objects but main.
tests_fuzz_fuzz_shell_SOURCES = tests/fuzz/fuzz-shell.c $(FUZZ_COMMON)
tests_fuzz_fuzz_shell_CPPFLAGS = $(FUZZ_CPP)
tests_fuzz_fuzz_shell_LDFLAGS = $(FUZZ_LINK)
tests_fuzz_fuzz_shell_LDADD = \
	$(filter-out src/cmd/ftguard-main.$(OBJEXT),$(ftguard_OBJECTS)) \
	libftguard.la $(TRACEFS_LIBS) $(READLINE_LIBS)

EXTRA_DIST += tests/fuzz/run tests/fuzz/README.md tests/fuzz/regressions

# Open-ended fuzzing: every harness in turn until interrupted, or
# FUZZ_TIME seconds each; FUZZ="kallsyms map" picks some.
fuzz:
	FTG_SRCDIR=$(abs_top_srcdir) FTG_BUILDDIR=$(abs_top_builddir) \
		$(SHELL) $(srcdir)/tests/fuzz/run --open $(FUZZ)
.PHONY: fuzz
