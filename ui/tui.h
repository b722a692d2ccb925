/* SPDX-License-Identifier: GPL-2.0 */
/*
 * ftguard-tui internals. The model (tui-model.c) holds what libftguard
 * read; each screen (screen-*.c) is one struct tui_screen_ops; keys are
 * tables of struct tui_key from which the help screen is generated.
 * ncurses is used only in ui/.
 */
#ifndef _FTG_TUI_H
#define _FTG_TUI_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <curses.h>

#include "ftguard.h"

#define TUI_INPUT_MAX	128	/* prompt buffer (filter, search, path) */
#define TUI_MSG_MAX	256
#define TUI_DIALOG_LINES 64

/* What needs drawing; input and data changes only set these. */
enum {
	TUI_DIRTY_BODY		= 1 << 0,
	TUI_DIRTY_STATUS	= 1 << 1,
	TUI_DIRTY_ALL		= 1 << 2,	/* resize: repaint everything */
};

/* Colour/attribute roles; tui_attr() maps them to what the terminal has. */
enum tui_role {
	TUI_NORMAL, TUI_HEADER, TUI_TAB, TUI_TAB_ACTIVE, TUI_STATUS,
	TUI_STATUS_BAD, TUI_CURSOR, TUI_MARKED,
	TUI_ST_OK, TUI_ST_ARMED, TUI_ST_UNCHECKED, TUI_ST_STALE,
	TUI_ST_FOREIGN, TUI_ST_MISMATCH, TUI_ST_PLANTED,
	TUI_REGION_TEXT, TUI_REGION_DEAD, TUI_REGION_IO, TUI_REGION_OTHER,
	TUI_WARN, TUI_DIALOG, TUI_DIM, TUI_ROLE_COUNT,
};

/* Glyphs: UTF-8 when the locale is, ASCII otherwise. */
struct tui_glyphs {
	const char *hline, *vline, *tl, *tr, *bl, *br;
	const char *arrow;	/* function <- caller */
	const char *mark;	/* a marked site */
	const char *full, *half;/* map strip */
	const char *folded, *unfolded;	/* a call with children, in the tree */
	const char *slowest;	/* its parent's slowest child */
};

struct tui;

/*
 * A key binding: @handler returns TUI_DIRTY_* flags. @name is how the help
 * screen shows the key ("Tab", "Space"); @help NULL hides the binding
 * (aliases such as KEY_DOWN next to 'j').
 */
struct tui_key {
	int key;
	const char *name;
	const char *help;
	int (*handler)(struct tui *tui);
};

/*
 * The cursor of a screen's list. It keeps the address of its row, so a
 * rebuild (new tables, a filter, a sort) puts it back on the same site or
 * region; @addr_of gives the address of a row in [0, nrows) of @view.
 */
struct tui_cursor {
	int row;
	int nrows;
	uint64_t addr;
};
typedef uint64_t (*tui_row_addr_fn)(const void *view, int row);
void tui_cursor_set(struct tui_cursor *c, int row, tui_row_addr_fn addr_of,
		    const void *view);
void tui_cursor_rows_changed(struct tui_cursor *c, int nrows,
			     tui_row_addr_fn addr_of, const void *view);

/*
 * One screen. @open makes the screen's own state (its view: cursor,
 * filter, marks...), @close frees it; tui_view() finds it. @display
 * draws rows [top, top + rows) of stdscr; @keys are the screen's own
 * bindings (tried before the global ones); @search moves to the next
 * (@dir 1) or previous (-1) row matching @text; @filter sets the screen's
 * filter ("" clears it); @update is called after the model changed;
 * @resize after the terminal size changed.
 */
struct tui_screen_ops {
	const char *name;
	void *(*open)(void);
	void (*close)(void *view);
	const struct tui_key *keys;
	void (*display)(struct tui *tui, int top, int rows);
	void (*search)(struct tui *tui, const char *text, int dir);
	void (*filter)(struct tui *tui, const char *text);
	void (*update)(struct tui *tui);
	void (*resize)(struct tui *tui);
	/* the function under the cursor as a pattern (T's root): false, none */
	bool (*cursor_function)(struct tui *tui, char *buf, size_t len);
	const char *filter_help;	/* shown in the filter prompt */
};

extern const struct tui_screen_ops tui_sites_ops;
extern const struct tui_screen_ops tui_live_ops;
extern const struct tui_screen_ops tui_map_ops;
#define TUI_NSCREENS 3

/* A prompt on the bottom line; @done gets the text on Enter. */
struct tui_prompt {
	bool active;
	char label[96];
	char text[TUI_INPUT_MAX];
	size_t len;
	void (*done)(struct tui *tui, const char *text);
};

/* A modal box of lines; any of Esc, Enter, q closes it. */
struct tui_dialog {
	bool active;
	bool warn;
	char title[80];
	char *lines[TUI_DIALOG_LINES];
	int nlines;
	int scroll;
};

/*
 * One call of the Live screen's call tree (tui-calls.c), from a
 * graph_entry and its graph_exit. @duration_ns is the kernel's
 * rettime - calltime, set on return (@open until then); @slowest is the
 * child with the longest duration; @level is its indent among the rows.
 */
struct tui_call {
	struct tui_call *parent, *next;
	struct tui_call *first_child, *last_child;
	struct tui_call *slowest;
	unsigned int nchildren;
	uint64_t ts_ns;			/* the entry (or calltime without one) */
	uint64_t duration_ns;
	int cpu, pid, depth, level;
	bool open;			/* no return seen yet */
	bool no_entry;			/* a return whose entry was lost */
	bool folded;
	char comm[FTG_COMM_LEN];
	char sym[FTG_SYM_LEN];
};
struct tui_calls;

/* The data model: everything the screens show, from libftguard. */
struct tui_model {
	struct ftg_root *root;
	bool snapshot;
	const char *root_dir;		/* --root, or NULL */

	bool have_status;
	struct ftg_status status;
	char status_error[TUI_MSG_MAX];	/* why there is no status */
	struct ftg_sites *sites;
	struct ftg_kmodules *kmodules;
	uint64_t kmodules_sig;		/* change detector for the map */
	struct ftg_check_report *check;	/* ftguard/check, for the bytes */
	struct ftg_users *users;	/* the kernel's other ftrace users */
	unsigned int users_generation;	/* @generation they were read at */
	bool users_read;
	struct ftg_verdict *verdict;	/* from the TUI's own last check */
	struct ftg_map *map;
	char map_error[TUI_MSG_MAX];
	unsigned int generation;	/* bumped on every re-read */

	struct ftg_session *sess;	/* opened on first action */
	bool tui_armed;			/* an arm made through @sess */

	struct ftg_live *live;
	struct ftg_event_ring *ring;
	size_t ring_capacity;
	struct tui_calls *calls;	/* the graph events of the ring, as a tree */
	char live_error[TUI_MSG_MAX];
	uint64_t events_total;		/* drained by this TUI */
	uint64_t lost;
	bool show_own;			/* our own reads' events too (--no-filter) */
	uint64_t hidden;		/* own events left out */
	bool more;			/* the last pump left events to read */
	double events_per_s;
	uint64_t rate_events;		/* for events_per_s */
	uint64_t rate_ms;
};

/* Functions being offered to the module, a part per loop turn. */
struct tui_admit {
	bool active;
	struct ftg_arm_request *req;	/* the patterns, as typed */
	struct ftg_admission *adm;	/* libftguard's, offering them */
};

struct tui {
	struct tui_model m;
	struct tui_admit admit;
	const struct tui_screen_ops *screens[TUI_NSCREENS];	/* tab order */
	void *views[TUI_NSCREENS];	/* each screen's state, from its open */
	const struct tui_screen_ops *screen;	/* the one shown */
	int page;			/* rows of the list (or box) drawn last:
					 * what PgUp and PgDn move by */
	bool show_help;
	int help_scroll;
	int dirty;
	bool quit;
	bool colors;
	bool utf8;
	struct tui_glyphs g;
	char msg[TUI_MSG_MAX];		/* one-shot message on the status line */
	bool msg_bad;
	char last_search[TUI_INPUT_MAX];
	struct tui_prompt prompt;
	struct tui_dialog dialog;
	int tty_fd;			/* the terminal's input, polled */
	bool kill_seen;			/* the kill dialog was shown */
	/* a synthetic source feeds the Live screen instead of the kernel */
	const struct tui_source *source;
	bool bench;			/* source != NULL */
	unsigned long frames;
	uint64_t start_ms;		/* when the main loop began */
};

/* tui-model.c */
int tui_model_open(struct tui_model *m, const char *root_dir, size_t ring_capacity);
void tui_model_close(struct tui_model *m);
/*
 * Re-reads status, sites, modules and check, and the map when the modules
 * changed. Every read is a new generation: the tables are small next to a
 * redraw, and comparing them would cost what reading them does.
 */
void tui_model_refresh(struct tui_model *m);
/* Reloads the address map. */
void tui_model_reload_map(struct tui_model *m);
/* Reads a bounded batch of live events into the ring; returns events
 * taken (m->more: some were left for the next turn). */
long tui_model_pump(struct tui_model *m);
/* Shows or hides the TUI's own events (its reads may be traced). */
void tui_model_show_own(struct tui_model *m, bool show);
/* The live session's descriptors to wait on (see ftg_live_fds()): how
 * many there are, 0 without a live session. */
int tui_model_fds(const struct tui_model *m, int *fds, int max);
void tui_model_rate(struct tui_model *m, uint64_t now_ms);

/* Takes one event (live, bench or fed) into the ring and the call tree. */
void tui_model_take(struct tui_model *m, const struct ftg_event *ev);
/* Forgets the captured events and calls. */
void tui_model_clear_events(struct tui_model *m);
/* Reads canned events (--feed) into the model; -1 with a message on stderr. */
int tui_model_feed(struct tui_model *m, const char *path);

/* tui-calls.c: the call tree of graph events (see struct tui_call). */
struct tui_calls *tui_calls_new(void);
void tui_calls_free(struct tui_calls *c);
void tui_calls_clear(struct tui_calls *c);
bool tui_calls_add(struct tui_calls *c, const struct ftg_event *ev);
size_t tui_calls_count(const struct tui_calls *c);
uint64_t tui_calls_version(const struct tui_calls *c);
void tui_calls_fold(struct tui_calls *c, struct tui_call *call, bool folded);
size_t tui_calls_rows(struct tui_calls *c, struct tui_call *const **rows);
/* The Live screen's cursor call, kept here so that freeing it clears it. */
struct tui_call *tui_calls_focus(const struct tui_calls *c);
void tui_calls_set_focus(struct tui_calls *c, struct tui_call *call);

/* tui-actions.c: each returns 0, or -1 with the status line saying why;
 * check and arm may open a dialog of findings. */
int tui_action_check(struct tui *tui, const uint64_t *addrs, size_t n);
int tui_action_arm(struct tui *tui, const uint64_t *addrs, size_t n,
		   unsigned int flags);
int tui_action_disarm(struct tui *tui);
/* A call tree (function_graph -g): "ROOT [CALLEE...] [depth=N]". */
int tui_action_arm_tree(struct tui *tui, const char *text);
int tui_action_write(struct tui *tui, const char *path);
/* The session on the control file, opened on first use; NULL (message
 * set) if not. */
struct ftg_session *tui_session(struct tui *tui);

/* tui-add.c: kernel functions by glob, admitted through the module. */
int tui_admit_start(struct tui *tui, const char *text);
int tui_admit_step(struct tui *tui);
int tui_admit_cancel(struct tui *tui);
void tui_admit_free(struct tui *tui);
/* One line about the site at @addr: its region, from the map. */
void tui_model_describe(const struct tui_model *m, uint64_t addr, char *buf, size_t len);
/* The finding of the TUI's last check for @addr, or NULL. */
const struct ftg_finding *tui_model_finding(const struct tui_model *m, uint64_t addr);
const struct ftg_check_line *tui_model_check_line(const struct tui_model *m, uint64_t addr);
/* Who else is on @s, as `sites -v` says it: "" for nobody, "?" unknown. */
void tui_model_users(struct tui_model *m, const struct ftg_site *s, char *buf, size_t len);

/* tui-draw.c */
void tui_term_init(struct tui *tui, bool force_ascii);
void tui_term_end(void);
int tui_attr(const struct tui *tui, enum tui_role role);
int tui_site_role(enum ftg_site_state state);
/* @s in ftg_escape()'s visible form, cut to fit @buf: free text keeps its
 * spaces (tui_safe), a name becomes one word (tui_name). */
const char *tui_safe(char *buf, size_t len, const char *s);
const char *tui_name(char *buf, size_t len, const char *s);
/* Draws @text at (@row, @col) clipped to @width columns, padding with blanks. */
void tui_print(int row, int col, int width, int attr, const char *text);
void tui_printf(int row, int col, int width, int attr, const char *fmt, ...)
	__attribute__((format(printf, 5, 6)));
void tui_hline(const struct tui *tui, int row, int col, int width, int attr);
void tui_draw_tabs(struct tui *tui);
void tui_draw_status(struct tui *tui);
void tui_draw_prompt(struct tui *tui);
void tui_draw_dialog(struct tui *tui);
void tui_draw_help(struct tui *tui);
void tui_message(struct tui *tui, bool bad, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
void tui_dialog_open(struct tui *tui, bool warn, const char *title);
void tui_dialog_add(struct tui *tui, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
void tui_dialog_close(struct tui *tui);
/* Human size: "128K", "12M". */
const char *tui_size(char *buf, size_t len, uint64_t bytes);
/* First row to show of a list of @count with @cursor visible in @rows. */
int tui_scroll_top(int *top, int cursor, int count, int rows);
/* true when @text matches @s (glob with wildcards, else substring). */
bool tui_match(const char *text, const char *s);

/* tui-keys.c */
extern const struct tui_key tui_global_keys[];
/* The state of the screen @ops (NULL before tui_screens_open()). */
void *tui_view(const struct tui *tui, const struct tui_screen_ops *ops);
/* The screen called @name (any case), or NULL. */
const struct tui_screen_ops *tui_screen_find(const char *name);
/* Shows the screen @ops; returns TUI_DIRTY_* flags. */
int tui_screen_show(struct tui *tui, const struct tui_screen_ops *ops);
/* What PgUp and PgDn move by: the rows the last draw gave the list. */
int tui_page(const struct tui *tui);
int tui_screens_open(struct tui *tui);
void tui_screens_close(struct tui *tui);
void tui_keys_markdown(FILE *out);
int tui_dispatch_key(struct tui *tui, int key);
void tui_prompt_start(struct tui *tui, const char *label, const char *initial,
		      void (*done)(struct tui *tui, const char *text));
uint64_t tui_now_ms(void);

/*
 * An event source that stands in for the kernel (the benchmark's, built
 * outside the installed program): started once the screen is up, fed
 * every --poll ms until done, then asked for its report on stdout.
 */
struct tui_source {
	void (*start)(struct tui *tui);
	void (*feed)(struct tui *tui, uint64_t now_ms);
	bool (*done)(const struct tui *tui, uint64_t now_ms);
	int (*report)(const struct tui *tui, FILE *out);
};
/* tui-main.c: the program, with @source (NULL: the kernel's events) */
int tui_main(int argc, char **argv, const struct tui_source *source);

/* tui-stats.c: what a session cost (--stats, and the benchmark's report) */
int tui_usage_report(const struct tui *tui, FILE *out, uint64_t start_ms,
		     uint64_t events, const char *source);
int tui_stats_report(const struct tui *tui, FILE *out);

/* screen-sites.c: the marked sites; the selection is they or the cursor's. */
size_t tui_sites_marked(struct tui *tui, uint64_t **addrs);
size_t tui_sites_selection(struct tui *tui, uint64_t **addrs);

#endif /* _FTG_TUI_H */
