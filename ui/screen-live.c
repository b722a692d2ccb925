// SPDX-License-Identifier: GPL-2.0
/*
 * Live screen: call events as they arrive, from the bounded ring the model
 * drains into (non-blocking) on every loop iteration. Following shows the
 * newest; paused keeps its place by absolute event number while the ring
 * moves on (an event pushed out of the ring is simply gone).
 */
#include <stdlib.h>
#include <string.h>

#include "ui/tui.h"

static struct {
	bool paused;
	uint64_t top;		/* absolute number of the first shown event */
	uint64_t found;		/* absolute number of the last search hit */
	bool have_found;
	char filter[TUI_INPUT_MAX];
} L;

/* Absolute numbering: event i of the ring is number overwritten + i. */
static uint64_t first_abs(const struct ftg_event_ring *ring)
{
	return ftg_event_ring_overwritten(ring);
}

static uint64_t end_abs(const struct ftg_event_ring *ring)
{
	return ftg_event_ring_overwritten(ring) + ftg_event_ring_count(ring);
}

static const struct ftg_event *get_abs(const struct ftg_event_ring *ring, uint64_t n)
{
	if (n < first_abs(ring) || n >= end_abs(ring))
		return NULL;
	return ftg_event_ring_get(ring, (size_t)(n - first_abs(ring)));
}

static bool event_matches(const char *text, const struct ftg_event *ev)
{
	return tui_match(text, ev->sym) || tui_match(text, ev->parent_sym) ||
	       tui_match(text, ev->comm) || tui_match(text, ev->name);
}

static bool shown(const struct ftg_event *ev)
{
	return !L.filter[0] || event_matches(L.filter, ev);
}

/* The @n-th shown event before @from (exclusive), or the oldest shown. */
static uint64_t back_shown(const struct ftg_event_ring *ring, uint64_t from, int n)
{
	uint64_t first = first_abs(ring), at = from;

	while (n > 0 && at > first) {
		at--;
		if (shown(get_abs(ring, at)))
			n--;
	}
	return at;
}

static uint64_t fwd_shown(const struct ftg_event_ring *ring, uint64_t from, int n)
{
	uint64_t end = end_abs(ring), at = from;

	while (n > 0 && at + 1 < end) {
		at++;
		if (shown(get_abs(ring, at)))
			n--;
	}
	return at;
}

static void format_event(const struct tui *tui, const struct ftg_event *ev,
			 char *line, size_t len)
{
	char comm[FTG_COMM_LEN], sym[FTG_SYM_LEN], parent[FTG_SYM_LEN], info[FTG_INFO_LEN];
	char task[40];

	snprintf(task, sizeof(task), "%s-%d", tui_name(comm, sizeof(comm), ev->comm), ev->pid);
	if (ev->ip)
		snprintf(line, len, "%6lu.%06lu %3d %-20.20s %s %s %s",
			 (unsigned long)(ev->ts_ns / 1000000000ULL),
			 (unsigned long)(ev->ts_ns % 1000000000ULL / 1000), ev->cpu, task,
			 tui_safe(sym, sizeof(sym), ev->sym), tui->g.arrow,
			 tui_safe(parent, sizeof(parent), ev->parent_sym));
	else
		snprintf(line, len, "%6lu.%06lu %3d %-20.20s %s: %s",
			 (unsigned long)(ev->ts_ns / 1000000000ULL),
			 (unsigned long)(ev->ts_ns % 1000000000ULL / 1000), ev->cpu, task,
			 tui_safe(sym, sizeof(sym), ev->name),
			 tui_safe(info, sizeof(info), ev->info));
}

static const char *tui_num(char *buf, size_t len, uint64_t n)
{
	snprintf(buf, len, "%lu", (unsigned long)n);
	return buf;
}

static void live_display(struct tui *tui, int top, int rows)
{
	const struct tui_model *m = &tui->m;
	const struct ftg_event_ring *ring = m->ring;
	int list = rows - 2, r;
	char num[32];
	uint64_t at;

	/* What was lost comes before what fits less at 80 columns. */
	tui_printf(top, 0, COLS, tui_attr(tui, L.paused || m->lost ? TUI_WARN : TUI_HEADER),
		   " %s | lost %lu | events %lu%s%s | ring %zu/%zu, overwritten %lu%s%s%s",
		   L.paused ? "PAUSED (p)" : "FOLLOW (p)",
		   (unsigned long)m->lost, (unsigned long)m->events_total,
		   m->show_own ? ", own shown" : m->hidden ? ", own hidden " : "",
		   !m->show_own && m->hidden ? tui_num(num, sizeof(num), m->hidden) : "",
		   ftg_event_ring_count(ring), ftg_event_ring_capacity(ring),
		   (unsigned long)ftg_event_ring_overwritten(ring),
		   L.filter[0] ? " | filter " : "", L.filter,
		   m->live_error[0] && !tui->bench ? " | no live events" : "");
	tui_printf(top + 1, 0, COLS, tui_attr(tui, TUI_HEADER), "%13s %3s %-20s %s %s %s",
		   "TIME", "CPU", "TASK-PID", "FUNCTION", tui->g.arrow, "CALLER");
	if (!L.paused) {
		/* the newest screenful */
		at = end_abs(ring);
		at = back_shown(ring, at, list);
	} else {
		if (L.top < first_abs(ring))
			L.top = first_abs(ring);
		at = L.top;
	}
	for (r = 0; r < list; r++) {
		const struct ftg_event *ev = NULL;
		char line[512];

		while (at < end_abs(ring) && !shown(ev = get_abs(ring, at)))
			at++;
		if (at >= end_abs(ring)) {
			if (r == 0 && !ftg_event_ring_count(ring))
				tui_printf(top + 2, 0, COLS, A_NORMAL, " %s",
					   m->live_error[0] ? m->live_error :
					   m->snapshot ? "a snapshot has no live events" :
					   "waiting for events (arm sites on the Sites screen: Space, a)");
			else
				tui_print(top + 2 + r, 0, COLS, A_NORMAL, "");
			continue;
		}
		format_event(tui, ev, line, sizeof(line));
		tui_print(top + 2 + r, 0, COLS, L.have_found && at == L.found ?
			  tui_attr(tui, TUI_CURSOR) : ev->ip ? (int)A_NORMAL :
			  tui_attr(tui, TUI_DIM), line);
		at++;
	}
}

static void live_search(struct tui *tui, const char *text, int dir)
{
	const struct ftg_event_ring *ring = tui->m.ring;
	uint64_t first = first_abs(ring), end = end_abs(ring), at;

	at = L.have_found && L.found >= first && L.found < end ? L.found :
	     dir > 0 ? (L.paused ? L.top : first) : end;
	for (;;) {
		if (dir > 0 ? at + 1 >= end : at <= first)
			break;
		at = dir > 0 ? at + 1 : at - 1;
		if (event_matches(text, get_abs(ring, at))) {
			L.found = at;
			L.have_found = true;
			L.paused = true;
			L.top = back_shown(ring, at, 3);
			return;
		}
	}
	tui_message(tui, true, "not found: %s", text);
}

static void live_filter(struct tui *tui, const char *text)
{
	snprintf(L.filter, sizeof(L.filter), "%s", text);
}

static int scroll_by(struct tui *tui, int delta)
{
	const struct ftg_event_ring *ring = tui->m.ring;
	int list = LINES - 4;

	if (!L.paused) {
		L.paused = true;
		L.top = back_shown(ring, end_abs(ring), list > 0 ? list : 1);
	}
	if (delta < 0)
		L.top = back_shown(ring, L.top, -delta);
	else
		L.top = fwd_shown(ring, L.top, delta);
	return TUI_DIRTY_BODY;
}

static int key_up(struct tui *tui) { return scroll_by(tui, -1); }
static int key_down(struct tui *tui) { return scroll_by(tui, 1); }
static int key_pgup(struct tui *tui) { return scroll_by(tui, -(LINES / 2)); }
static int key_pgdown(struct tui *tui) { return scroll_by(tui, LINES / 2); }

static int key_home(struct tui *tui)
{
	L.paused = true;
	L.top = first_abs(tui->m.ring);
	return TUI_DIRTY_BODY;
}

static int key_follow(struct tui *tui)
{
	L.paused = false;
	L.have_found = false;
	return TUI_DIRTY_BODY;
}

static int key_pause(struct tui *tui)
{
	if (L.paused)
		return key_follow(tui);
	return scroll_by(tui, 0);
}

static int key_clear(struct tui *tui)
{
	ftg_event_ring_clear(tui->m.ring);
	L.have_found = false;
	L.top = 0;
	return TUI_DIRTY_BODY;
}

static int key_own(struct tui *tui)
{
	tui_model_show_own(&tui->m, !tui->m.show_own);
	tui_message(tui, false, "%s this TUI's own events (%lu hidden so far)",
		    tui->m.show_own ? "showing" : "hiding", (unsigned long)tui->m.hidden);
	return TUI_DIRTY_BODY | TUI_DIRTY_STATUS;
}

static const struct tui_key live_keys[] = {
	{ 'p', "p", "pause / follow the newest events", key_pause },
	{ KEY_UP, "Up/k", "scroll up (pauses)", key_up },
	{ 'k', "k", NULL, key_up },
	{ KEY_DOWN, "Down/j", "scroll down", key_down },
	{ 'j', "j", NULL, key_down },
	{ KEY_PPAGE, "PgUp", "page up", key_pgup },
	{ KEY_NPAGE, "PgDn", "page down", key_pgdown },
	{ KEY_HOME, "Home/g", "oldest kept event", key_home },
	{ 'g', "g", NULL, key_home },
	{ KEY_END, "End/G", "newest event, following", key_follow },
	{ 'G', "G", NULL, key_follow },
	{ 'C', "C", "forget the captured events", key_clear },
	{ 'H', "H", "hide / show this TUI's own events (hidden by default)", key_own },
	{ 0, NULL, NULL, NULL },
};

const struct tui_screen_ops tui_live_ops = {
	.name = "Live",
	.keys = live_keys,
	.display = live_display,
	.search = live_search,
	.filter = live_filter,
	.filter_help = "glob on function, caller, task",
};
