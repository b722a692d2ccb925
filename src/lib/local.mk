# libftguard. The trace/event/export sources come from src/lib/trace.mk,
# included below.
#
# Exports: the version script libftguard.map names exactly the functions
# src/ftguard.h declares; everything else stays inside the library.
# tests/abi-check (run by make check) compares the header, the script and
# what the built library exports.
#
# The objects are built once, into the convenience library
# libftguard-core.la, which libftguard.so wraps with the version script and
# the tests and fuzzers link whole: they reach the test seams of
# src/lib/ftguard-test.h, which are neither installed nor exported.
lib_LTLIBRARIES += libftguard.la
noinst_LTLIBRARIES += libftguard-core.la
include_HEADERS = src/ftguard.h
pkgconfig_DATA = src/libftguard.pc

libftguard_core_la_SOURCES = \
	src/lib/ftguard-local.h \
	src/lib/ftguard-test.h \
	src/lib/error.c \
	src/lib/util.c \
	src/lib/root.c \
	src/lib/snapshot.c \
	src/lib/kallsyms.c \
	src/lib/proc-modules.c \
	src/lib/vmalloc.c \
	src/lib/sections.c \
	src/lib/ftrace-funcs.c \
	src/lib/users.c \
	src/lib/kmod-tables.c \
	src/lib/kmod-local.h \
	src/lib/kmod-status.c \
	src/lib/keys.c \
	src/lib/instance.c \
	src/lib/kmod-sites.c \
	src/lib/kmod-check.c \
	src/lib/control.c \
	src/lib/candidates.c \
	src/lib/selection.c \
	src/lib/session.c \
	src/lib/session-arm.c \
	src/lib/session-admit.c \
	src/lib/map.c \
	src/lib/map-query.c \
	src/lib/checker.c \
	src/lib/users-bpf.c
libftguard_core_la_CFLAGS = $(AM_CFLAGS) $(BPF_CFLAGS)
libftguard_core_la_LIBADD = $(BPF_LIBS)
libftguard_la_SOURCES =
libftguard_la_LIBADD = libftguard-core.la
libftguard_la_LDFLAGS = $(AM_LDFLAGS) -version-info 0:0:0 -no-undefined \
	-Wl,--version-script=$(top_srcdir)/src/lib/libftguard.map
libftguard_la_DEPENDENCIES = libftguard-core.la $(top_srcdir)/src/lib/libftguard.map
EXTRA_DIST += src/lib/libftguard.map

dist_man_MANS += doc/libftguard.3

include src/lib/trace.mk
