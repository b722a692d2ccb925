// SPDX-License-Identifier: GPL-2.0
/*
 * Terminal layer of ftguard-tui: colours, glyphs, clipped printing of
 * sanitised text, the tab bar, the status line, the prompt, dialogs and
 * the help screen. Nothing here clears the whole screen: every row is
 * rewritten in place (ncurses sends only what changed).
 */
#include <ctype.h>
#include <fnmatch.h>
#include <langinfo.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ui/tui.h"

static const struct tui_glyphs glyphs_utf8 = {
	.hline = "\u2500", .vline = "\u2502", .tl = "\u250c", .tr = "\u2510",
	.bl = "\u2514", .br = "\u2518", .arrow = "\u2190", .mark = "\u25cf",
	.full = "\u2588", .half = "\u2592", .folded = "\u25b6", .unfolded = "\u25bc",
	.slowest = "\u25c6",
};
static const struct tui_glyphs glyphs_ascii = {
	.hline = "-", .vline = "|", .tl = "+", .tr = "+", .bl = "+", .br = "+",
	.arrow = "<-", .mark = "*", .full = "#", .half = ":", .folded = "+",
	.unfolded = "-", .slowest = "*",
};

/* Colour pair per role (pair number = role), and the mono fallback. */
static const struct {
	short fg, bg;
	int attr;	/* added to the colour */
	int mono;	/* used without colours */
} roles[TUI_ROLE_COUNT] = {
	[TUI_NORMAL]		= { -1, -1, 0, 0 },
	[TUI_HEADER]		= { COLOR_BLACK, COLOR_CYAN, 0, A_REVERSE },
	[TUI_TAB]		= { COLOR_WHITE, COLOR_BLUE, 0, A_REVERSE },
	[TUI_TAB_ACTIVE]	= { COLOR_BLACK, COLOR_YELLOW, A_BOLD, A_BOLD },
	[TUI_STATUS]		= { COLOR_WHITE, COLOR_BLUE, 0, A_REVERSE },
	[TUI_STATUS_BAD]	= { COLOR_WHITE, COLOR_RED, A_BOLD, A_REVERSE | A_BOLD },
	[TUI_CURSOR]		= { COLOR_BLACK, COLOR_WHITE, 0, A_REVERSE },
	[TUI_MARKED]		= { COLOR_YELLOW, -1, A_BOLD, A_BOLD },
	[TUI_ST_OK]		= { COLOR_GREEN, -1, 0, 0 },
	[TUI_ST_ARMED]		= { COLOR_CYAN, -1, A_BOLD, A_BOLD },
	[TUI_ST_UNCHECKED]	= { -1, -1, A_DIM, A_DIM },
	[TUI_ST_STALE]		= { COLOR_RED, -1, A_BOLD, A_BOLD | A_UNDERLINE },
	[TUI_ST_FOREIGN]	= { COLOR_MAGENTA, -1, A_BOLD, A_BOLD | A_UNDERLINE },
	[TUI_ST_MISMATCH]	= { COLOR_YELLOW, -1, A_BOLD, A_BOLD | A_UNDERLINE },
	[TUI_ST_PLANTED]	= { COLOR_RED, -1, 0, A_UNDERLINE },
	[TUI_REGION_TEXT]	= { COLOR_GREEN, -1, 0, 0 },
	[TUI_REGION_DEAD]	= { COLOR_RED, -1, 0, A_DIM },
	[TUI_REGION_IO]		= { COLOR_MAGENTA, -1, 0, 0 },
	[TUI_REGION_OTHER]	= { COLOR_BLUE, -1, 0, 0 },
	[TUI_WARN]		= { COLOR_RED, -1, A_BOLD, A_BOLD },
	[TUI_DIALOG]		= { COLOR_WHITE, COLOR_BLACK, 0, 0 },
	[TUI_DIM]		= { -1, -1, A_DIM, A_DIM },
};

static bool locale_is_utf8(void)
{
	const char *cs = nl_langinfo(CODESET);

	return cs && (!strcasecmp(cs, "UTF-8") || !strcasecmp(cs, "utf8"));
}

void tui_term_init(struct tui *tui, bool force_ascii)
{
	int i;

	tui->utf8 = !force_ascii && locale_is_utf8();
	tui->g = tui->utf8 ? glyphs_utf8 : glyphs_ascii;
	cbreak();
	noecho();
	nonl();
	keypad(stdscr, TRUE);
	curs_set(0);
	set_escdelay(25);
	tui->colors = has_colors();
	if (tui->colors) {
		start_color();
		use_default_colors();
		for (i = 1; i < TUI_ROLE_COUNT; i++)
			init_pair((short)i, roles[i].fg, roles[i].bg);
	}
}

void tui_term_end(void)
{
	if (!isendwin())
		endwin();
}

int tui_attr(const struct tui *tui, enum tui_role role)
{
	if (role <= TUI_NORMAL || role >= TUI_ROLE_COUNT)
		return A_NORMAL;
	if (!tui->colors)
		return roles[role].mono;
	return COLOR_PAIR(role) | roles[role].attr;
}

int tui_site_role(enum ftg_site_state state)
{
	switch (state) {
	case FTG_SITE_OK:	return TUI_ST_OK;
	case FTG_SITE_ARMED:	return TUI_ST_ARMED;
	case FTG_SITE_STALE:	return TUI_ST_STALE;
	case FTG_SITE_FOREIGN:	return TUI_ST_FOREIGN;
	case FTG_SITE_MISMATCH:	return TUI_ST_MISMATCH;
	case FTG_SITE_PLANTED:	return TUI_ST_PLANTED;
	case FTG_SITE_UNCHECKED:
	default:		return TUI_ST_UNCHECKED;
	}
}

/*
 * Kernel-supplied names (functions, modules, comm, vmalloc callers, the
 * module's reasons) never reach the terminal raw: a name with an escape
 * sequence could reprogram it. They are shown in the CLI's visible form,
 * libftguard's ftg_escape() (\ooo octal), cut to @len.
 */
const char *tui_safe(char *buf, size_t len, const char *s)
{
	ftg_escape(buf, len, s, FTG_ESCAPE_TEXT);
	return buf;
}

/* A function, module or comm name: its spaces escaped too, one word. */
const char *tui_name(char *buf, size_t len, const char *s)
{
	ftg_escape(buf, len, s, 0);
	return buf;
}

/*
 * Length of one of our own glyphs at @p (arrows U+2190..U+21FF, box
 * drawing, blocks and shapes U+2500..U+25FF: three UTF-8 bytes), or 0.
 * Anything else multibyte, a right-to-left override say, is not ours.
 */
static int own_glyph_len(const unsigned char *p)
{
	unsigned int cp;

	if (p[0] != 0xe2 || (p[1] & 0xc0) != 0x80 || (p[2] & 0xc0) != 0x80)
		return 0;
	cp = (p[1] & 0x3fu) << 6 | (p[2] & 0x3fu);	/* below U+3000 */
	cp |= 0x2000;
	return (cp >= 0x2190 && cp <= 0x21ff) || (cp >= 0x2500 && cp <= 0x25ff) ? 3 : 0;
}

/*
 * Prints @text clipped to @width columns and pads the rest. Only our own
 * glyphs are multibyte (one column each); control bytes and any other
 * non-ASCII byte that slipped past tui_safe() are shown as '?'.
 */
void tui_print(int row, int col, int width, int attr, const char *text)
{
	const unsigned char *p = (const unsigned char *)text;
	int used = 0;

	if (width <= 0 || row < 0 || row >= LINES || col >= COLS)
		return;
	if (col + width > COLS)
		width = COLS - col;
	attrset(attr);
	move(row, col);
	while (*p && used < width) {
		int glyph = *p >= 0x80 ? own_glyph_len(p) : 0;

		if (glyph) {
			addnstr((const char *)p, glyph);
			p += glyph;
		} else if (*p < 0x20 || *p >= 0x7f) {
			addch('?');
			p++;
		} else {
			addch(*p++);
		}
		used++;
	}
	for (; used < width; used++)
		addch(' ');
	attrset(A_NORMAL);
}

void tui_printf(int row, int col, int width, int attr, const char *fmt, ...)
{
	char buf[1024];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	tui_print(row, col, width, attr, buf);
}

void tui_hline(const struct tui *tui, int row, int col, int width, int attr)
{
	int i;

	attrset(attr);
	move(row, col);
	for (i = 0; i < width && col + i < COLS; i++)
		addstr(tui->g.hline);
	attrset(A_NORMAL);
}

const char *tui_size(char *buf, size_t len, uint64_t bytes)
{
	static const char units[] = "BKMGTPE";
	double v = (double)bytes;
	int u = 0;

	while (v >= 1024 && u < 6) {
		v /= 1024;
		u++;
	}
	if (u == 0 || v >= 10 || v == (double)(uint64_t)v)
		snprintf(buf, len, "%.0f%c", v, units[u]);
	else
		snprintf(buf, len, "%.1f%c", v, units[u]);
	return buf;
}

void tui_cursor_set(struct tui_cursor *c, int row, tui_row_addr_fn addr_of,
		    const void *view)
{
	if (row >= c->nrows)
		row = c->nrows - 1;
	if (row < 0)
		row = 0;
	c->row = row;
	c->addr = c->nrows ? addr_of(view, row) : 0;
}

void tui_cursor_rows_changed(struct tui_cursor *c, int nrows,
			     tui_row_addr_fn addr_of, const void *view)
{
	int i;

	c->nrows = nrows;
	for (i = 0; i < nrows; i++)
		if (addr_of(view, i) == c->addr) {
			c->row = i;
			return;
		}
	if (c->row >= nrows)
		c->row = nrows ? nrows - 1 : 0;
}

/*
 * @top is where the user scrolled to; it moves only to keep @cursor in
 * view. The top actually shown is also pulled up to fill a tall window,
 * without changing @top, so that a resize and back gives the same view.
 */
int tui_scroll_top(int *top, int cursor, int count, int rows)
{
	int shown;

	if (rows <= 0)
		return 0;
	if (cursor < *top)
		*top = cursor;
	if (cursor >= *top + rows)
		*top = cursor - rows + 1;
	if (*top < 0)
		*top = 0;
	shown = *top;
	if (shown > count - rows)
		shown = count - rows;
	return shown < 0 ? 0 : shown;
}

bool tui_match(const char *text, const char *s)
{
	if (!text || !*text)
		return true;
	if (!s)
		return false;
	if (strpbrk(text, "*?["))
		return fnmatch(text, s, 0) == 0;
	return strcasestr(s, text) != NULL;
}

/* Row 0: the screens as tabs, where the data comes from, help keys. */
void tui_draw_tabs(struct tui *tui)
{
	char root[64], buf[160];
	int i, col = 0;

	for (i = 0; i < TUI_NSCREENS && col < COLS; i++) {
		snprintf(buf, sizeof(buf), " %d %s ", i + 1, tui->screens[i]->name);
		tui_print(0, col, (int)strlen(buf), tui_attr(tui, tui->screens[i] == tui->screen ?
				TUI_TAB_ACTIVE : TUI_TAB), buf);
		col += (int)strlen(buf);
	}
	if (tui->m.snapshot)
		snprintf(buf, sizeof(buf), " snapshot %s  ?:help q:quit ",
			 tui_safe(root, sizeof(root), tui->m.root_dir));
	else
		snprintf(buf, sizeof(buf), " ftguard  ?:help q:quit ");
	i = COLS - col - (int)strlen(buf);
	if (i > 0)
		tui_print(0, col, i, tui_attr(tui, TUI_TAB), "");
	tui_print(0, col + (i > 0 ? i : 0), COLS - col - (i > 0 ? i : 0),
		  tui_attr(tui, TUI_TAB), buf);
}

/*
 * The status line: module loaded, armed and by whom, kill reason, last
 * check, events/s and lost events; a one-shot message replaces the tail.
 */
void tui_draw_status(struct tui *tui)
{
	const struct ftg_status *st = &tui->m.status;
	char owner[FTG_TEXT_LEN], reason[FTG_TEXT_LEN], check[96], line[2048];
	int row = LINES - 1, n;
	bool bad = false;

	if (tui->prompt.active) {
		tui_draw_prompt(tui);
		return;
	}
	/*
	 * Most urgent first: the answer to the key just pressed, a kill,
	 * then armed state, the last check, the event rate.
	 */
	n = tui->msg[0] ? snprintf(line, sizeof(line), " %s |", tui->msg) : 0;
	if (!tui->m.have_status) {
		n += snprintf(line + n, sizeof(line) - (size_t)n, " module: %s",
			      tui->m.status_error);
		bad = !tui->m.snapshot;
	} else {
		if (!st->checked)
			snprintf(check, sizeof(check), "never");
		else
			snprintf(check, sizeof(check), "%s %lu/%lu @%.1fs",
				 st->last_check_ok ? "ok" : "FAIL",
				 (unsigned long)st->last_check_n_ok,
				 (unsigned long)st->last_check_n_bad,
				 st->last_check_ms / 1000.0);
		if (st->killed)
			n += snprintf(line + n, sizeof(line) - (size_t)n, " KILLED: %s |",
				      tui_safe(reason, sizeof(reason), st->kill_reason));
		n += snprintf(line + n, sizeof(line) - (size_t)n, " %s | %s%s%s | check %s",
			      st->loaded ? "loaded" : "not loaded",
			      st->armed ? "ARMED by " : "disarmed",
			      st->armed ? tui_safe(owner, sizeof(owner), st->owner) : "",
			      st->armed && tui->m.tui_armed ? " (this TUI)" : "", check);
		bad = st->killed || (st->checked && !st->last_check_ok);
	}
	if (!tui->m.snapshot)
		n += snprintf(line + n, sizeof(line) - (size_t)n, " | %.0f ev/s, lost %lu",
			      tui->m.events_per_s, (unsigned long)tui->m.lost);
	tui_print(row, 0, COLS, tui_attr(tui, bad || tui->msg_bad ?
					  TUI_STATUS_BAD : TUI_STATUS), line);
}

void tui_draw_prompt(struct tui *tui)
{
	char line[TUI_INPUT_MAX + 128];
	const char *shown = line;
	int len;

	snprintf(line, sizeof(line), "%s%s", tui->prompt.label, tui->prompt.text);
	/* a line wider than the screen shows its end, where the typing is */
	len = (int)strlen(line);
	if (COLS > 1 && len >= COLS)
		shown = line + len - (COLS - 1);
	tui_print(LINES - 1, 0, COLS, A_NORMAL, shown);
	move(LINES - 1, (int)strlen(shown) < COLS ? (int)strlen(shown) : COLS - 1);
}

void tui_message(struct tui *tui, bool bad, const char *fmt, ...)
{
	char raw[TUI_MSG_MAX];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(raw, sizeof(raw), fmt, ap);
	va_end(ap);
	tui_safe(tui->msg, sizeof(tui->msg), raw);
	tui->msg_bad = bad;
	tui->dirty |= TUI_DIRTY_STATUS;
}

void tui_dialog_open(struct tui *tui, bool warn, const char *title)
{
	tui_dialog_close(tui);
	tui->dialog.active = true;
	tui->dialog.warn = warn;
	tui_safe(tui->dialog.title, sizeof(tui->dialog.title), title);
	tui->dirty |= TUI_DIRTY_ALL;
}

static void dialog_push(struct tui_dialog *d, const char *text, int len)
{
	if (d->nlines >= TUI_DIALOG_LINES)
		return;
	if (d->nlines == TUI_DIALOG_LINES - 1) {
		d->lines[d->nlines++] = strdup("... (more: see ftguard check)");
		return;
	}
	d->lines[d->nlines] = strndup(text, (size_t)len);
	if (d->lines[d->nlines])
		d->nlines++;
}

/*
 * Adds a line, wrapped at a blank to the terminal's width (continuations
 * indented like the line); lines beyond TUI_DIALOG_LINES are summed up.
 */
void tui_dialog_add(struct tui *tui, const char *fmt, ...)
{
	struct tui_dialog *d = &tui->dialog;
	int width = COLS - 6 > 30 ? COLS - 6 : 30, indent, len, cut;
	char raw[512], safe[512], cont[600];
	const char *p;
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(raw, sizeof(raw), fmt, ap);
	va_end(ap);
	p = tui_safe(safe, sizeof(safe), raw);
	indent = (int)strspn(p, " ");
	if (indent > width / 2)
		indent = 0;
	len = (int)strlen(p);
	cut = len;
	while (len > width) {
		for (cut = width; cut > width / 2 && p[cut] != ' '; cut--)
			;
		if (cut <= width / 2)
			cut = width;
		dialog_push(d, p, cut);
		p += cut;
		while (*p == ' ')
			p++;
		snprintf(cont, sizeof(cont), "%*s%s", indent + 2, "", p);
		memmove(safe, cont, strlen(cont) + 1 < sizeof(safe) ? strlen(cont) + 1 : sizeof(safe));
		safe[sizeof(safe) - 1] = '\0';
		p = safe;
		len = (int)strlen(p);
	}
	dialog_push(d, p, len);
}

void tui_dialog_close(struct tui *tui)
{
	int i;

	for (i = 0; i < tui->dialog.nlines; i++)
		free(tui->dialog.lines[i]);
	memset(&tui->dialog, 0, sizeof(tui->dialog));
	tui->dirty |= TUI_DIRTY_ALL;
}

/* A centred box; its text is already sanitised. */
static void draw_box(struct tui *tui, const char *title, char *const *lines,
		     int nlines, int scroll, int role, const char *footer)
{
	int width = 20, height, top, left, i, row, inner;

	for (i = 0; i < nlines; i++)
		if ((int)strlen(lines[i]) + 4 > width)
			width = (int)strlen(lines[i]) + 4;
	if ((int)strlen(title) + 6 > width)
		width = (int)strlen(title) + 6;
	if ((int)strlen(footer) + 6 > width)
		width = (int)strlen(footer) + 6;
	if (width > COLS - 2)
		width = COLS - 2;
	height = nlines + 2;
	if (height > LINES - 3)
		height = LINES - 3;
	if (width < 4 || height < 3)
		return;
	inner = height - 2;
	tui->page = inner;
	top = (LINES - height) / 2;
	left = (COLS - width) / 2;
	attrset(tui_attr(tui, role));
	mvaddstr(top, left, tui->g.tl);
	for (i = 1; i < width - 1; i++)
		addstr(tui->g.hline);
	addstr(tui->g.tr);
	tui_printf(top, left + 2, width - 4 < (int)strlen(title) + 2 ?
		   width - 4 : (int)strlen(title) + 2, tui_attr(tui, role) | A_BOLD,
		   " %s ", title);
	for (row = 0; row < inner; row++) {
		i = scroll + row;
		attrset(tui_attr(tui, role));
		mvaddstr(top + 1 + row, left, tui->g.vline);
		tui_print(top + 1 + row, left + 1, width - 2, tui_attr(tui, role),
			  "");
		if (i < nlines)
			tui_printf(top + 1 + row, left + 2, width - 4,
				   tui_attr(tui, role), "%s", lines[i]);
		attrset(tui_attr(tui, role));
		mvaddstr(top + 1 + row, left + width - 1, tui->g.vline);
	}
	attrset(tui_attr(tui, role));
	mvaddstr(top + height - 1, left, tui->g.bl);
	for (i = 1; i < width - 1; i++)
		addstr(tui->g.hline);
	addstr(tui->g.br);
	if ((int)strlen(footer) + 4 < width)
		tui_printf(top + height - 1, left + width - (int)strlen(footer) - 4,
			   (int)strlen(footer) + 2, tui_attr(tui, role), " %s ", footer);
	attrset(A_NORMAL);
}

void tui_draw_dialog(struct tui *tui)
{
	struct tui_dialog *d = &tui->dialog;
	int inner = LINES - 5;

	if (d->scroll > d->nlines - inner)
		d->scroll = d->nlines - inner;
	if (d->scroll < 0)
		d->scroll = 0;
	draw_box(tui, d->title, d->lines, d->nlines, d->scroll,
		 d->warn ? TUI_WARN : TUI_DIALOG, "Enter: close");
}

static int add_help_keys(char **lines, int n, int max, const struct tui_key *keys)
{
	char buf[128];

	for (; keys && keys->handler && n < max; keys++) {
		if (!keys->help)
			continue;
		snprintf(buf, sizeof(buf), "%-9s %s", keys->name, keys->help);
		lines[n] = strdup(buf);
		if (lines[n])
			n++;
	}
	return n;
}

/* Generated from the key tables: what the help says is what the keys do. */
void tui_draw_help(struct tui *tui)
{
	const struct tui_screen_ops *ops = tui->screen;
	char *lines[128], title[64];
	int n = 0, i;

	n = add_help_keys(lines, n, 120, ops->keys);
	lines[n++] = strdup("");
	n = add_help_keys(lines, n, 127, tui_global_keys);
	for (i = 0; i < n && lines[i]; i++)
		;
	n = i;
	if (tui->help_scroll > n - (LINES - 5))
		tui->help_scroll = n - (LINES - 5);
	if (tui->help_scroll < 0)
		tui->help_scroll = 0;
	snprintf(title, sizeof(title), "Help: %s", ops->name);
	draw_box(tui, title, lines, n, tui->help_scroll, TUI_DIALOG,
		 "Up/Down scroll, ? or Esc: close");
	for (i = 0; i < n; i++)
		free(lines[i]);
}
