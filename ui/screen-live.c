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

struct live_view {
	bool paused;
	uint64_t top;		/* absolute number of the first shown event */
	uint64_t found;		/* absolute number of the last search hit */
	bool have_found;
	char filter[TUI_INPUT_MAX];
};

static struct live_view *live_of(struct tui *tui)
{
	return tui_view(tui, &tui_live_ops);
}

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

static bool shown(const struct live_view *v, const struct ftg_event *ev)
{
	return !v->filter[0] || event_matches(v->filter, ev);
}

/* The @n-th shown event before @from (exclusive), or the oldest shown. */
static uint64_t back_shown(const struct live_view *v,
			   const struct ftg_event_ring *ring, uint64_t from, int n)
{
	uint64_t first = first_abs(ring), at = from;

	while (n > 0 && at > first) {
		at--;
		if (shown(v, get_abs(ring, at)))
			n--;
	}
	return at;
}

static uint64_t fwd_shown(const struct live_view *v,
			  const struct ftg_event_ring *ring, uint64_t from, int n)
{
	uint64_t end = end_abs(ring), at = from;

	while (n > 0 && at + 1 < end) {
		at++;
		if (shown(v, get_abs(ring, at)))
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
	if (ftg_event_is_graph_entry(ev) || ftg_event_is_graph_exit(ev)) {
		/* as `ftguard report` prints function_graph: duration | call */
		char call[FTG_SYM_LEN + 160];

		ftg_graph_call_snprint(call, sizeof(call),
				       ftg_event_is_graph_entry(ev) ? ev : NULL,
				       ftg_event_is_graph_exit(ev) ? ev : NULL);
		snprintf(line, len, "%6lu.%06lu %3d %-20.20s %s",
			 (unsigned long)(ev->ts_ns / 1000000000ULL),
			 (unsigned long)(ev->ts_ns % 1000000000ULL / 1000), ev->cpu, task,
			 tui_safe(sym, sizeof(sym), call));
	} else if (ev->ip)
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
	struct live_view *v = live_of(tui);
	const struct tui_model *m = &tui->m;
	const struct ftg_event_ring *ring = m->ring;
	int list = rows - 2, r;
	char num[32];
	uint64_t at;

	/* What was lost comes before what fits less at 80 columns. */
	tui_printf(top, 0, COLS, tui_attr(tui, v->paused || m->lost ? TUI_WARN : TUI_HEADER),
		   " %s | lost %lu | events %lu%s%s | ring %zu/%zu, overwritten %lu%s%s%s",
		   v->paused ? "PAUSED (p)" : "FOLLOW (p)",
		   (unsigned long)m->lost, (unsigned long)m->events_total,
		   m->show_own ? ", own shown" : m->hidden ? ", own hidden " : "",
		   !m->show_own && m->hidden ? tui_num(num, sizeof(num), m->hidden) : "",
		   ftg_event_ring_count(ring), ftg_event_ring_capacity(ring),
		   (unsigned long)ftg_event_ring_overwritten(ring),
		   v->filter[0] ? " | filter " : "", v->filter,
		   m->live_error[0] && !tui->bench ? " | no live events" : "");
	tui_printf(top + 1, 0, COLS, tui_attr(tui, TUI_HEADER), "%13s %3s %-20s %s %s %s",
		   "TIME", "CPU", "TASK-PID", "FUNCTION", tui->g.arrow, "CALLER");
	if (!v->paused) {
		/* the newest screenful */
		at = end_abs(ring);
		at = back_shown(v, ring, at, list);
	} else {
		if (v->top < first_abs(ring))
			v->top = first_abs(ring);
		at = v->top;
	}
	for (r = 0; r < list; r++) {
		const struct ftg_event *ev = NULL;
		char line[512];

		while (at < end_abs(ring) && !shown(v, ev = get_abs(ring, at)))
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
		tui_print(top + 2 + r, 0, COLS, v->have_found && at == v->found ?
			  tui_attr(tui, TUI_CURSOR) : ev->ip ? (int)A_NORMAL :
			  tui_attr(tui, TUI_DIM), line);
		at++;
	}
}

static void live_search(struct tui *tui, const char *text, int dir)
{
	struct live_view *v = live_of(tui);
	const struct ftg_event_ring *ring = tui->m.ring;
	uint64_t first = first_abs(ring), end = end_abs(ring), at;

	at = v->have_found && v->found >= first && v->found < end ? v->found :
	     dir > 0 ? (v->paused ? v->top : first) : end;
	for (;;) {
		if (dir > 0 ? at + 1 >= end : at <= first)
			break;
		at = dir > 0 ? at + 1 : at - 1;
		if (event_matches(text, get_abs(ring, at))) {
			v->found = at;
			v->have_found = true;
			v->paused = true;
			v->top = back_shown(v, ring, at, 3);
			return;
		}
	}
	tui_message(tui, true, "not found: %s", text);
}

static void live_filter(struct tui *tui, const char *text)
{
	struct live_view *v = live_of(tui);

	snprintf(v->filter, sizeof(v->filter), "%s", text);
}

static int scroll_by(struct tui *tui, int delta)
{
	struct live_view *v = live_of(tui);
	const struct ftg_event_ring *ring = tui->m.ring;
	int list = LINES - 4;

	if (!v->paused) {
		v->paused = true;
		v->top = back_shown(v, ring, end_abs(ring), list > 0 ? list : 1);
	}
	if (delta < 0)
		v->top = back_shown(v, ring, v->top, -delta);
	else
		v->top = fwd_shown(v, ring, v->top, delta);
	return TUI_DIRTY_BODY;
}

static int key_up(struct tui *tui) { return scroll_by(tui, -1); }
static int key_down(struct tui *tui) { return scroll_by(tui, 1); }
static int key_pgup(struct tui *tui) { return scroll_by(tui, -(LINES / 2)); }
static int key_pgdown(struct tui *tui) { return scroll_by(tui, LINES / 2); }

static int key_home(struct tui *tui)
{
	struct live_view *v = live_of(tui);

	v->paused = true;
	v->top = first_abs(tui->m.ring);
	return TUI_DIRTY_BODY;
}

static int key_follow(struct tui *tui)
{
	struct live_view *v = live_of(tui);

	v->paused = false;
	v->have_found = false;
	return TUI_DIRTY_BODY;
}

static int key_pause(struct tui *tui)
{
	struct live_view *v = live_of(tui);

	if (v->paused)
		return key_follow(tui);
	return scroll_by(tui, 0);
}

static int key_clear(struct tui *tui)
{
	struct live_view *v = live_of(tui);

	ftg_event_ring_clear(tui->m.ring);
	v->have_found = false;
	v->top = 0;
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

static void *live_open(void)
{
	return calloc(1, sizeof(struct live_view));
}

const struct tui_screen_ops tui_live_ops = {
	.name = "Live",
	.open = live_open,
	.close = free,
	.keys = live_keys,
	.display = live_display,
	.search = live_search,
	.filter = live_filter,
	.filter_help = "glob on function, caller, task",
};
