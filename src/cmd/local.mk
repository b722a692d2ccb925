# The ftguard command: one file per subcommand, one registry.
bin_PROGRAMS += ftguard
ftguard_SOURCES = \
	src/cmd/ftguard-cmd.h \
	src/cmd/tui-options.h \
	src/cmd/main.c \
	src/cmd/cmd-registry.c \
	src/cmd/cmd-args.c \
	src/cmd/cmd-util.c \
	src/cmd/cmd-json.c \
	src/cmd/cmd-select.c \
	src/cmd/cmd-complete.c \
	src/cmd/cmd-help.c \
	src/cmd/cmd-status.c \
	src/cmd/cmd-list.c \
	src/cmd/cmd-stat.c \
	src/cmd/cmd-show.c \
	src/cmd/cmd-check.c \
	src/cmd/cmd-sites.c \
	src/cmd/cmd-map.c \
	src/cmd/cmd-snapshot.c \
	src/cmd/cmd-start.c \
	src/cmd/cmd-stop.c \
	src/cmd/cmd-reset.c \
	src/cmd/cmd-record.c \
	src/cmd/cmd-events.c \
	src/cmd/cmd-extract.c \
	src/cmd/cmd-report.c \
	src/cmd/cmd-export.c \
	src/cmd/cmd-stream.c \
	src/cmd/cmd-shell.c \
	src/cmd/cmd-tui.c
ftguard_CPPFLAGS = $(AM_CPPFLAGS) -DFTG_LIBEXECDIR='"$(libexecdir)"' \
	$(TRACEFS_CFLAGS) $(READLINE_CFLAGS)
ftguard_LDADD = libftguard.la $(TRACEFS_LIBS) $(READLINE_LIBS)

# Man pages are generated from the registry by 'ftguard __man' and kept in
# doc/ (so a tarball needs no built binary); tests/cmd/run fails when they
# drift from the registry. 'make update-man' regenerates them.
FTG_CMD_NAMES = status show list check sites map snapshot start stop reset record extract report \
	export stream stat shell tui help
dist_man_MANS += doc/ftguard.1 $(FTG_CMD_NAMES:%=doc/ftguard-%.1)

update-man: ftguard$(EXEEXT)
	./ftguard$(EXEEXT) __man > $(srcdir)/doc/ftguard.1
	for c in $(FTG_CMD_NAMES); do \
		./ftguard$(EXEEXT) __man $$c > $(srcdir)/doc/ftguard-$$c.1 || exit 1; \
	done
.PHONY: update-man

# Installed under the command's name, where bash-completion looks for it.
bashcompletiondir = $(datadir)/bash-completion/completions
bashcompletion_DATA = src/cmd/completion/ftguard
EXTRA_DIST += src/cmd/ftguard.bash-completion
CLEANFILES += src/cmd/completion/ftguard
src/cmd/completion/ftguard: src/cmd/ftguard.bash-completion
	$(AM_V_GEN)$(MKDIR_P) src/cmd/completion && cp $(srcdir)/src/cmd/ftguard.bash-completion $@

EXTRA_DIST += tests/cmd

# tests/cmd/run: the trace.dat for report/export cases is written from the
# raw pages in tests/fixtures/trace by this helper.
check_PROGRAMS += tests/cmd/make-trace
tests_cmd_make_trace_SOURCES = tests/cmd/make-trace.c
tests_cmd_make_trace_LDADD = libftguard-core.la
