# libftguard (owner: lib). The trace/event/export sources come from
# src/lib/trace.mk (owner: trace), included below.
#
# Visibility: everything is compiled with -fvisibility=hidden and every
# source sees src/lib/ftguard-visibility.h first (-include), which declares
# the public header under "#pragma GCC visibility push(default)": exactly
# the functions declared in ftguard.h are exported, whoever implements them.
lib_LTLIBRARIES += libftguard.la
include_HEADERS = src/ftguard.h
pkgconfig_DATA = src/ftguard.pc

libftguard_la_SOURCES = \
	src/lib/ftguard-local.h \
	src/lib/ftguard-visibility.h \
	src/lib/error.c \
	src/lib/util.c \
	src/lib/root.c \
	src/lib/snapshot.c \
	src/lib/kallsyms.c \
	src/lib/proc-modules.c \
	src/lib/vmalloc.c \
	src/lib/sections.c \
	src/lib/ftrace-funcs.c \
	src/lib/kmod-tables.c \
	src/lib/kmod-local.h \
	src/lib/kmod-status.c \
	src/lib/kmod-sites.c \
	src/lib/kmod-check.c \
	src/lib/control.c \
	src/lib/candidates.c \
	src/lib/selection.c \
	src/lib/map.c \
	src/lib/map-query.c \
	src/lib/checker.c
libftguard_la_CPPFLAGS = $(AM_CPPFLAGS) \
	-include $(top_srcdir)/src/lib/ftguard-visibility.h
libftguard_la_CFLAGS = $(AM_CFLAGS) -fvisibility=hidden
libftguard_la_LDFLAGS = $(AM_LDFLAGS) -version-info 0:0:0 -no-undefined
libftguard_la_LIBADD =

dist_man_MANS += doc/libftguard.3

include src/lib/trace.mk
