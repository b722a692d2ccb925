# ftguard-tui: the ncurses TUI, a client of libftguard only.
# `ftguard tui` runs it from $(libexecdir).
libexec_PROGRAMS += ftguard-tui
ftguard_tui_SOURCES = \
	ui/tui.h \
	ui/tui-main.c \
	ui/tui-keys.c \
	ui/tui-draw.c \
	ui/tui-model.c \
	ui/tui-calls.c \
	ui/tui-actions.c \
	ui/tui-add.c \
	ui/tui-bench.c \
	ui/screen-sites.c \
	ui/screen-live.c \
	ui/screen-map.c
ftguard_tui_CFLAGS = $(AM_CFLAGS) $(NCURSES_CFLAGS)
ftguard_tui_LDADD = libftguard.la $(NCURSES_LIBS)

EXTRA_DIST += doc/tui.md tests/ui
