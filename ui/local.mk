# ftguard-tui: the ncurses TUI, a client of libftguard only.
# `ftguard tui` runs it from $(libexecdir).
# The screens and their loop, in a convenience library that the program
# and the benchmark's build of it share.
libexec_PROGRAMS += ftguard-tui
noinst_LTLIBRARIES += ui/libtui.la
ui_libtui_la_SOURCES = \
	ui/tui.h \
	ui/tui-main.c \
	ui/tui-stats.c \
	ui/tui-keys.c \
	ui/tui-draw.c \
	ui/tui-model.c \
	ui/tui-calls.c \
	ui/tui-actions.c \
	ui/tui-add.c \
	ui/screen-sites.c \
	ui/screen-live.c \
	ui/screen-map.c
ui_libtui_la_CFLAGS = $(AM_CFLAGS) $(NCURSES_CFLAGS)
ftguard_tui_SOURCES = ui/tui-program.c
ftguard_tui_CFLAGS = $(AM_CFLAGS) $(NCURSES_CFLAGS)
ftguard_tui_LDADD = ui/libtui.la libftguard.la $(NCURSES_LIBS)

# The same TUI on a synthetic event source, for make bench's figure 7:
# built with the tests, never installed (the guest has it as
# /usr/bin/ftg-tui-bench).
check_PROGRAMS += tests/bench/tui-bench
tests_bench_tui_bench_SOURCES = tests/bench/tui-bench.c
tests_bench_tui_bench_CFLAGS = $(ftguard_tui_CFLAGS)
tests_bench_tui_bench_LDADD = $(ftguard_tui_LDADD)

EXTRA_DIST += doc/tui.md tests/ui
