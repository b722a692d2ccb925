/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The options `ftguard tui` passes on to ftguard-tui, in one table that
 * both sides expand: the command registry lists, checks and completes
 * them (cmd-tui.c), the TUI parses them and prints them in its --help
 * (ui/tui-main.c). X(ID, "long-name", "ARG" or NULL, COMPLETION, "help"),
 * COMPLETION being NONE, FILE or SCREEN (one of FTG_TUI_SCREENS).
 */
#ifndef FTG_TUI_OPTIONS_H
#define FTG_TUI_OPTIONS_H

#define FTG_TUI_SCREENS "sites", "live", "map"
#define FTG_TUI_DEFAULT_REFRESH_MS	1000
#define FTG_TUI_DEFAULT_POLL_MS		50
#define FTG_TUI_DEFAULT_EVENTS		10000

#define FTG_TUI_STR(x)	FTG_TUI_STR_(x)
#define FTG_TUI_STR_(x)	#x

#define FTG_TUI_OPTIONS(X)						\
	X(REFRESH, "refresh", "MS", NONE,				\
	  "re-read the module's tables every MS ms (default "		\
	  FTG_TUI_STR(FTG_TUI_DEFAULT_REFRESH_MS) ")")	\
	X(POLL, "poll", "MS", NONE,					\
	  "while events come, read them and redraw at most every MS ms " \
	  "(default " FTG_TUI_STR(FTG_TUI_DEFAULT_POLL_MS) "); idle, the " \
	  "TUI waits for them")			\
	X(EVENTS, "events", "N", NONE,					\
	  "keep the last N live events (default "			\
	  FTG_TUI_STR(FTG_TUI_DEFAULT_EVENTS) ")")		\
	X(NO_FILTER, "no-filter", NULL, NONE,				\
	  "show the TUI's own events too (hidden by default; H on the " \
	  "Live screen toggles)")					\
	X(SCREEN, "screen", "NAME", SCREEN,				\
	  "start on sites, live or map")				\
	X(ASCII, "ascii", NULL, NONE,					\
	  "ASCII line drawing even in a UTF-8 locale")			\
	X(STATS, "stats", "FILE", FILE,					\
	  "at exit, write what the session cost (events/s, refreshes/s, " \
	  "CPU, peak RSS) to FILE")

#endif /* FTG_TUI_OPTIONS_H */
