// SPDX-License-Identifier: GPL-2.0
/*
 * Live screen: call events as they arrive, from the bounded ring the model
 * drains into (non-blocking) on every loop iteration. Following shows the
 * newest; paused keeps its place by absolute event number while the ring
 * moves on (an event pushed out of the ring is simply gone).
 *
 * Graph events (an arm with returns) also make a call tree (tui-calls.c),
 * which this screen shows as uftrace's TUI shows a graph: each call a row
 * that folds and unfolds, with its duration, its number of children and
 * its slowest child marked. `t` switches between the tree and the list of
 * events; the tree comes up by itself with the first graph event.
 */
#include <stdlib.h>
#include <string.h>

#include "ui/tui.h"

struct live_view {
	bool tree;		/* the call tree, not the event list */
	bool tree_chosen;	/* t was pressed: no switching by itself */
	int tree_top;		/* first row of the tree shown */
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

/*
 * The value of KEY=VALUE in an event's info ("" when absent): up to the
 * next space, or with @to_end (a last field of free text) to the end.
 */
static const char *info_value(const char *info, const char *key, bool to_end,
			      char *buf, size_t len)
{
	size_t klen = strlen(key);
	const char *p = info;

	buf[0] = '\0';
	while ((p = strstr(p, key))) {
		if ((p == info || p[-1] == ' ') && p[klen] == '=') {
			p += klen + 1;
			snprintf(buf, len, "%.*s", to_end ? (int)strlen(p) : (int)strcspn(p, " "), p);
			break;
		}
		p += klen;
	}
	return buf;
}

static const char *info_field(const char *info, const char *key, char *buf, size_t len)
{
	return info_value(info, key, false, buf, len);
}

static bool is_ftguard(const struct ftg_event *ev, const char *name)
{
	return !strcmp(ev->system, "ftguard") && !strcmp(ev->name, name);
}

/*
 * What the module says about its sites and modules, in words: a site
 * event has an ip too, but it is a site added or dropped, or another
 * ftrace user joining (shared) or leaving (alone) an armed one, not a
 * call. The reason is the event's last field, free text with spaces.
 */
static bool format_note(const struct ftg_event *ev, char *text, size_t len)
{
	char a[FTG_SYM_LEN], b[FTG_SYM_LEN], c[FTG_SYM_LEN], name[FTG_SYM_LEN];

	if (is_ftguard(ev, "site")) {
		info_field(ev->info, "action", a, sizeof(a));
		info_value(ev->info, "reason", true, b, sizeof(b));
		snprintf(text, len, "site %s: %s (%s)",
			 !strcmp(a, "add") ? "added" : !strcmp(a, "drop") ? "dropped" : a,
			 ev->sym[0] ? ev->sym : info_field(ev->info, "name", name, sizeof(name)), b);
		return true;
	}
	if (is_ftguard(ev, "module")) {
		snprintf(text, len, "module %s %s, %s sites",
			 info_field(ev->info, "name", a, sizeof(a)),
			 info_field(ev->info, "state", b, sizeof(b)),
			 info_field(ev->info, "nsites", c, sizeof(c)));
		return true;
	}
	return false;
}

/* A call: the function tracer's event, which has both ips. */
static bool is_call(const struct ftg_event *ev)
{
	return is_ftguard(ev, "func") || (ev->ip && ev->parent_ip && strcmp(ev->system, "ftguard"));
}

static void format_event(const struct tui *tui, const struct ftg_event *ev,
			 char *line, size_t len)
{
	char comm[FTG_COMM_LEN], sym[FTG_SYM_LEN], parent[FTG_SYM_LEN], info[FTG_INFO_LEN];
	char task[40], note[4 * FTG_SYM_LEN + 32], safe_note[sizeof(note)];

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
	} else if (is_call(ev))
		snprintf(line, len, "%6lu.%06lu %3d %-20.20s %s %s %s",
			 (unsigned long)(ev->ts_ns / 1000000000ULL),
			 (unsigned long)(ev->ts_ns % 1000000000ULL / 1000), ev->cpu, task,
			 tui_safe(sym, sizeof(sym), ev->sym), tui->g.arrow,
			 tui_safe(parent, sizeof(parent), ev->parent_sym));
	else if (format_note(ev, note, sizeof(note)))
		snprintf(line, len, "%6lu.%06lu %3d %-20.20s %s",
			 (unsigned long)(ev->ts_ns / 1000000000ULL),
			 (unsigned long)(ev->ts_ns % 1000000000ULL / 1000), ev->cpu, task,
			 tui_safe(safe_note, sizeof(safe_note), note));
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

static void events_display(struct tui *tui, int top, int rows)
{
	struct live_view *v = live_of(tui);
	const struct tui_model *m = &tui->m;
	const struct ftg_event_ring *ring = m->ring;
	int list = rows - 2, r;
	char num[32];
	uint64_t at;

	tui->page = list;
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
			  tui_attr(tui, TUI_CURSOR) :
			  is_call(ev) || ftg_event_is_graph_entry(ev) ||
			  ftg_event_is_graph_exit(ev) ? (int)A_NORMAL :
			  tui_attr(tui, TUI_DIM), line);
		at++;
	}
}

/* ---- The call tree ------------------------------------------------------ */

static const char *duration(char *buf, size_t len, const struct tui_call *call)
{
	if (call->open)
		snprintf(buf, len, "running");
	else
		snprintf(buf, len, "%lu.%03lu us", (unsigned long)(call->duration_ns / 1000),
			 (unsigned long)(call->duration_ns % 1000));
	return buf;
}

/* The row of the cursor; following, the newest row. */
static int tree_cursor(struct tui *tui, struct tui_call *const *rows, int nrows)
{
	struct live_view *v = live_of(tui);
	struct tui_call *focus = tui_calls_focus(tui->m.calls);
	int i;

	if (v->paused && focus)
		for (i = nrows - 1; i >= 0; i--)
			if (rows[i] == focus)
				return i;
	/* following, or the cursor's call went with the oldest calls */
	if (nrows)
		tui_calls_set_focus(tui->m.calls, rows[nrows - 1]);
	return nrows - 1;
}

static void format_call(const struct tui *tui, const struct tui_call *call,
			char *line, size_t len)
{
	char comm[FTG_COMM_LEN], sym[FTG_SYM_LEN], task[40], dur[32], kids[16];
	const char *fold = !call->first_child ? " " :
			   call->folded ? tui->g.folded : tui->g.unfolded;
	bool slowest = call->parent && call->parent->slowest == call &&
		       call->parent->nchildren > 1;

	snprintf(task, sizeof(task), "%s-%d", tui_name(comm, sizeof(comm), call->comm), call->pid);
	snprintf(kids, sizeof(kids), "%u", call->nchildren);
	/* the slowest mark has a column of its own: a name's end may be cut */
	snprintf(line, len, "%6lu.%06lu %3d %-14.14s %12s %5s %s %*s%s %s%s",
		 (unsigned long)(call->ts_ns / 1000000000ULL),
		 (unsigned long)(call->ts_ns % 1000000000ULL / 1000), call->cpu, task,
		 duration(dur, sizeof(dur), call), call->nchildren ? kids : "",
		 slowest ? tui->g.slowest : " ", 2 * call->level, "", fold,
		 tui_safe(sym, sizeof(sym), call->sym),
		 call->no_entry ? "  (entry lost)" : "");
}

static void tree_display(struct tui *tui, int top, int rows)
{
	struct live_view *v = live_of(tui);
	const struct tui_model *m = &tui->m;
	struct tui_call *const *calls;
	int list = rows - 2, r, n, cursor;
	char num[32];

	tui->page = list;
	n = (int)tui_calls_rows(m->calls, &calls);
	cursor = tree_cursor(tui, calls, n);
	tui_printf(top, 0, COLS, tui_attr(tui, v->paused || m->lost ? TUI_WARN : TUI_HEADER),
		   " %s | lost %lu | calls %zu | events %lu%s%s | %s slowest | t: events",
		   v->paused ? "PAUSED (p)" : "FOLLOW (p)", (unsigned long)m->lost,
		   tui_calls_count(m->calls), (unsigned long)m->events_total,
		   m->show_own ? ", own shown" : m->hidden ? ", own hidden " : "",
		   !m->show_own && m->hidden ? tui_num(num, sizeof(num), m->hidden) : "",
		   tui->g.slowest);
	tui_printf(top + 1, 0, COLS, tui_attr(tui, TUI_HEADER), "%13s %3s %-14s %12s %5s   %s",
		   "TIME", "CPU", "TASK-PID", "DURATION", "KIDS", "CALL");
	if (!v->paused)
		v->tree_top = n > list ? n - list : 0;
	else
		tui_scroll_top(&v->tree_top, cursor, n, list);
	for (r = 0; r < list; r++) {
		int i = v->tree_top + r;
		char line[512];

		if (i >= n) {
			tui_print(top + 2 + r, 0, COLS, A_NORMAL, r == 0 ?
				  " no calls yet: arm with returns (A) or a call tree (T)" : "");
			continue;
		}
		format_call(tui, calls[i], line, sizeof(line));
		tui_print(top + 2 + r, 0, COLS, v->paused && i == cursor ?
			  tui_attr(tui, TUI_CURSOR) : (int)A_NORMAL, line);
	}
}

/* The tree once there are calls, unless t chose; true for the tree. */
static bool show_tree(struct tui *tui)
{
	struct live_view *v = live_of(tui);

	if (!v->tree_chosen && !v->tree && tui_calls_count(tui->m.calls))
		v->tree = true;
	return v->tree;
}

static void live_display(struct tui *tui, int top, int rows)
{
	if (show_tree(tui))
		tree_display(tui, top, rows);
	else
		events_display(tui, top, rows);
}

/* Moves the tree's cursor to row @to (clamped); pauses. */
static int tree_move_to(struct tui *tui, int to)
{
	struct live_view *v = live_of(tui);
	struct tui_call *const *calls;
	int n = (int)tui_calls_rows(tui->m.calls, &calls);

	if (!n)
		return 0;
	v->paused = true;
	if (to >= n)
		to = n - 1;
	if (to < 0)
		to = 0;
	tui_calls_set_focus(tui->m.calls, calls[to]);
	return TUI_DIRTY_BODY;
}

static int tree_move_by(struct tui *tui, int delta)
{
	struct tui_call *const *calls;
	int n = (int)tui_calls_rows(tui->m.calls, &calls);
	int at = tree_cursor(tui, calls, n);

	return tree_move_to(tui, at + delta);
}

/* The cursor's call; pauses, so the row stays where the key found it. */
static struct tui_call *tree_current(struct tui *tui)
{
	struct tui_call *const *calls;
	int n = (int)tui_calls_rows(tui->m.calls, &calls);
	int at = tree_cursor(tui, calls, n);

	if (at < 0)
		return NULL;
	live_of(tui)->paused = true;
	return calls[at];
}

/*
 * The tree cursor's function as T's root: "fn [mod]" is "mod:fn", as
 * a pattern names it. None while the event list is shown.
 */
static bool live_cursor_function(struct tui *tui, char *buf, size_t len)
{
	struct tui_call *const *calls;
	int n, at;
	const char *sym, *mod;
	size_t namelen;

	if (!live_of(tui)->tree)
		return false;
	n = (int)tui_calls_rows(tui->m.calls, &calls);
	at = tree_cursor(tui, calls, n);
	if (at < 0 || !calls[at]->sym[0])
		return false;
	sym = calls[at]->sym;
	namelen = strcspn(sym, " ");
	mod = strstr(sym, " [");
	if (mod && mod[strlen(mod) - 1] == ']')
		snprintf(buf, len, "%.*s:%.*s", (int)(strlen(mod) - 3), mod + 2,
			 (int)namelen, sym);
	else
		snprintf(buf, len, "%.*s", (int)namelen, sym);
	return true;
}

static int tree_only(struct tui *tui)
{
	tui_message(tui, false, "a key of the call tree (t shows it)");
	return TUI_DIRTY_STATUS;
}

static int key_fold_toggle(struct tui *tui)
{
	struct tui_call *call;

	if (!live_of(tui)->tree)
		return tree_only(tui);
	call = tree_current(tui);
	if (call && call->first_child)
		tui_calls_fold(tui->m.calls, call, !call->folded);
	return TUI_DIRTY_BODY;
}

static int key_unfold(struct tui *tui)
{
	struct tui_call *call;

	if (!live_of(tui)->tree)
		return tree_only(tui);
	call = tree_current(tui);
	if (call && call->first_child && call->folded)
		tui_calls_fold(tui->m.calls, call, false);
	return TUI_DIRTY_BODY;
}

/* Folds the cursor's call; on a folded call or a leaf, goes to its caller. */
static int key_fold(struct tui *tui)
{
	struct tui_call *call;

	if (!live_of(tui)->tree)
		return tree_only(tui);
	call = tree_current(tui);
	if (call && call->first_child && !call->folded)
		tui_calls_fold(tui->m.calls, call, true);
	else if (call && call->parent)
		tui_calls_set_focus(tui->m.calls, call->parent);
	return TUI_DIRTY_BODY;
}

static int fold_all(struct tui *tui, bool folded)
{
	if (!live_of(tui)->tree)
		return tree_only(tui);
	tree_current(tui);
	tui_calls_fold(tui->m.calls, NULL, folded);
	tui_message(tui, false, "%s every call", folded ? "folded" : "unfolded");
	return TUI_DIRTY_BODY | TUI_DIRTY_STATUS;
}

static int key_unfold_all(struct tui *tui) { return fold_all(tui, false); }
static int key_fold_all(struct tui *tui) { return fold_all(tui, true); }

/* uftrace's 'l': to the longest-running child, unfolding the call. */
static int key_slowest(struct tui *tui)
{
	struct tui_call *call;

	if (!live_of(tui)->tree)
		return tree_only(tui);
	call = tree_current(tui);
	if (!call || !call->slowest) {
		tui_message(tui, false, "no returned child under this call");
		return TUI_DIRTY_STATUS;
	}
	if (call->folded)
		tui_calls_fold(tui->m.calls, call, false);
	tui_calls_set_focus(tui->m.calls, call->slowest);
	return TUI_DIRTY_BODY;
}

static int key_parent(struct tui *tui)
{
	struct tui_call *call;

	if (!live_of(tui)->tree)
		return tree_only(tui);
	call = tree_current(tui);
	if (call && call->parent)
		tui_calls_set_focus(tui->m.calls, call->parent);
	return TUI_DIRTY_BODY;
}

static int key_tree(struct tui *tui)
{
	struct live_view *v = live_of(tui);

	/* the other view than the one shown, or about to be */
	v->tree = !show_tree(tui);
	v->tree_chosen = true;
	v->paused = false;
	v->have_found = false;
	return TUI_DIRTY_BODY;
}

static void live_search(struct tui *tui, const char *text, int dir)
{
	struct live_view *v = live_of(tui);
	const struct ftg_event_ring *ring = tui->m.ring;
	uint64_t first = first_abs(ring), end = end_abs(ring), at;

	if (v->tree) {
		struct tui_call *const *calls;
		int n = (int)tui_calls_rows(tui->m.calls, &calls), i, from;

		from = tree_cursor(tui, calls, n);
		for (i = 1; i <= n; i++) {
			int row = ((from + dir * i) % n + n) % n;

			if (tui_match(text, calls[row]->sym) || tui_match(text, calls[row]->comm))
				return (void)tree_move_to(tui, row);
		}
		tui_message(tui, true, "not found: %s", text);
		return;
	}
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

	if (!v->paused) {
		v->paused = true;
		v->top = back_shown(v, ring, end_abs(ring), tui_page(tui));
	}
	if (delta < 0)
		v->top = back_shown(v, ring, v->top, -delta);
	else
		v->top = fwd_shown(v, ring, v->top, delta);
	return TUI_DIRTY_BODY;
}

/* Up and down the events, or the tree's rows. */
static int move_by(struct tui *tui, int delta)
{
	return live_of(tui)->tree ? tree_move_by(tui, delta) : scroll_by(tui, delta);
}

static int key_up(struct tui *tui) { return move_by(tui, -1); }
static int key_down(struct tui *tui) { return move_by(tui, 1); }
static int key_pgup(struct tui *tui) { return move_by(tui, -tui_page(tui)); }
static int key_pgdown(struct tui *tui) { return move_by(tui, tui_page(tui)); }

static int key_home(struct tui *tui)
{
	struct live_view *v = live_of(tui);

	if (v->tree)
		return tree_move_to(tui, 0);
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
	return move_by(tui, 0);
}

static int key_clear(struct tui *tui)
{
	struct live_view *v = live_of(tui);

	tui_model_clear_events(&tui->m);
	v->have_found = false;
	v->tree_top = 0;
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
	{ 't', "t", "call tree / event list (the tree comes up with the first call)",
	  key_tree },
	{ '\r', "Enter", "fold / unfold the call (Space too)", key_fold_toggle },
	{ '\n', "Enter", NULL, key_fold_toggle },
	{ KEY_ENTER, "Enter", NULL, key_fold_toggle },
	{ ' ', "Space", NULL, key_fold_toggle },
	{ KEY_RIGHT, "Right", "unfold the call", key_unfold },
	{ KEY_LEFT, "Left", "fold the call; folded: go to its caller", key_fold },
	{ 'e', "e", "unfold every call", key_unfold_all },
	{ 'E', "E", "fold every call", key_fold_all },
	{ 'l', "l", "go to the slowest child of the call (unfolds it)", key_slowest },
	{ 'u', "u", "go to the caller", key_parent },
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
	.cursor_function = live_cursor_function,
	.filter_help = "glob on function, caller, task (the event list)",
};
