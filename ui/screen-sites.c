// SPDX-License-Identifier: GPL-2.0
/*
 * Sites screen: ftguard.ko's sites table, sortable and filtered, with
 * marks (the selection that c and a act on) and the details of the site
 * under the cursor: why it is in its state, its bytes, its region, and
 * who else is on it.
 */
#include <fnmatch.h>
#include <stdlib.h>
#include <string.h>

#include "ui/tui.h"

enum sort_key { SORT_NAME, SORT_OWNER, SORT_ADDR, SORT_STATE, SORT_HITS, SORT_COUNT };
static const char *const sort_names[SORT_COUNT] = {
	"function", "owner", "address", "state", "hits",
};

#define FILTER_TERMS 8
#define DETAIL_ROWS 6

struct sites_view {
	const struct ftg_sites *sites;	/* what @rows index */
	unsigned int generation;
	size_t *rows;
	struct tui_cursor cur;
	int top;
	enum sort_key sort;
	bool reverse;
	char filter[TUI_INPUT_MAX];
	/* the filter's pattern terms, each matched by the library's grammar */
	struct ftg_selection *patterns[FILTER_TERMS];
	uint64_t *marks;		/* sorted addresses */
	size_t nmarks, marks_cap;
};

static struct sites_view *sites_of(struct tui *tui)
{
	return tui_view(tui, &tui_sites_ops);
}

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

static bool is_marked(const struct sites_view *v, uint64_t addr)
{
	return v->nmarks && bsearch(&addr, v->marks, v->nmarks, sizeof(*v->marks), cmp_u64);
}

static void set_mark(struct sites_view *v, uint64_t addr, bool on)
{
	uint64_t *p = v->nmarks ? bsearch(&addr, v->marks, v->nmarks, sizeof(*v->marks),
					 cmp_u64) : NULL;

	if (on && !p) {
		if (v->nmarks == v->marks_cap) {
			size_t cap = v->marks_cap ? v->marks_cap * 2 : 64;
			uint64_t *n = realloc(v->marks, cap * sizeof(*n));

			if (!n)
				return;
			v->marks = n;
			v->marks_cap = cap;
		}
		v->marks[v->nmarks++] = addr;
		qsort(v->marks, v->nmarks, sizeof(*v->marks), cmp_u64);
	} else if (!on && p) {
		memmove(p, p + 1, (size_t)(v->marks + v->nmarks - p - 1) * sizeof(*p));
		v->nmarks--;
	}
}

/*
 * A term in the -l grammar (MODULE:GLOB, GLOB:mod:MODULE, NAME@ADDR) is
 * matched as the command matches it: the library's own matching, so
 * what `+` added can be shown by the pattern that added it.
 */
static bool is_pattern_term(const char *term)
{
	return strpbrk(term, ":@") && strncmp(term, "state:", 6) &&
	       strncmp(term, "module:", 7) && strncmp(term, "owner:", 6);
}

/*
 * One filter term: "state:S", "module:M" / "owner:M", a -l pattern
 * (@pattern, parsed once), or a loose glob over function and owner.
 */
static bool term_matches(const char *term, const struct ftg_selection *pattern,
			 const struct ftg_site *s)
{
	if (pattern)
		return ftg_selection_wants_site(pattern, s);
	if (!strncmp(term, "state:", 6))
		return !strcmp(term + 6, ftg_site_state_name(s->state));
	if (!strncmp(term, "module:", 7))
		return !fnmatch(term + 7, s->owner, 0);
	if (!strncmp(term, "owner:", 6))
		return !fnmatch(term + 6, s->owner, 0);
	return tui_match(term, s->name) || tui_match(term, s->owner);
}

static bool filter_matches(const struct sites_view *v, const struct ftg_site *s)
{
	char buf[TUI_INPUT_MAX], *save = NULL, *term;
	int i = 0;

	if (!v->filter[0])
		return true;
	snprintf(buf, sizeof(buf), "%s", v->filter);
	for (term = strtok_r(buf, " ", &save); term;
	     term = strtok_r(NULL, " ", &save), i++)
		if (!term_matches(term, i < FILTER_TERMS ? v->patterns[i] : NULL, s))
			return false;
	return true;
}

static void free_patterns(struct sites_view *v)
{
	int i;

	for (i = 0; i < FILTER_TERMS; i++) {
		ftg_selection_free(v->patterns[i]);
		v->patterns[i] = NULL;
	}
}

/*
 * Parses the filter's pattern terms once (the filter runs per site).
 * Return: 0, or -1 with @why saying which term is wrong.
 */
static int parse_patterns(struct sites_view *v, char *why, size_t len)
{
	char buf[TUI_INPUT_MAX], *save = NULL, *term;
	int i = 0;

	free_patterns(v);
	snprintf(buf, sizeof(buf), "%s", v->filter);
	for (term = strtok_r(buf, " ", &save); term;
	     term = strtok_r(NULL, " ", &save), i++) {
		if (!is_pattern_term(term))
			continue;
		if (i >= FILTER_TERMS) {
			snprintf(why, len, "filter: at most %d terms", FILTER_TERMS);
			return -1;
		}
		v->patterns[i] = ftg_selection_new();
		if (!v->patterns[i] || ftg_selection_add(v->patterns[i], term) < 0) {
			snprintf(why, len, "filter %s: %s", term, ftg_error_last());
			return -1;
		}
	}
	return 0;
}

static int cmp_site(const void *a, const void *b, void *view)
{
	const struct sites_view *v = view;
	const struct ftg_site *x = ftg_sites_get(v->sites, *(const size_t *)a);
	const struct ftg_site *y = ftg_sites_get(v->sites, *(const size_t *)b);
	int r = 0;

	switch (v->sort) {
	case SORT_NAME:
		r = strcmp(x->name, y->name);
		break;
	case SORT_OWNER:
		r = strcmp(x->owner, y->owner);
		if (!r)
			r = strcmp(x->name, y->name);
		break;
	case SORT_ADDR:
		break;
	case SORT_STATE:
		r = (int)y->state - (int)x->state;	/* problems first */
		break;
	case SORT_HITS:
		r = x->hits < y->hits ? 1 : x->hits > y->hits ? -1 : 0;
		break;
	case SORT_COUNT:
		break;
	}
	if (!r)
		r = x->addr < y->addr ? -1 : x->addr > y->addr;
	return v->reverse ? -r : r;
}

/* Rebuilds the filtered, sorted view; the cursor stays on its site. */
static uint64_t row_addr(const void *view, int row)
{
	const struct sites_view *v = view;

	return ftg_sites_get(v->sites, v->rows[row])->addr;
}

static void rebuild(struct tui *tui)
{
	struct sites_view *v = sites_of(tui);
	const struct ftg_sites *sites = tui->m.sites;
	size_t i, n = sites ? ftg_sites_count(sites) : 0;
	size_t *rows = n ? malloc(n * sizeof(*rows)) : NULL;
	int k = 0;

	v->sites = sites;
	v->generation = tui->m.generation;
	for (i = 0; rows && i < n; i++)
		if (filter_matches(v, ftg_sites_get(sites, i)))
			rows[k++] = i;
	if (rows)
		qsort_r(rows, (size_t)k, sizeof(*rows), cmp_site, v);
	free(v->rows);
	v->rows = rows;
	tui_cursor_rows_changed(&v->cur, k, row_addr, v);
}

static const struct ftg_site *row_site(const struct sites_view *v, int row)
{
	if (row < 0 || row >= v->cur.nrows || !v->sites)
		return NULL;
	return ftg_sites_get(v->sites, v->rows[row]);
}

static void set_cursor(struct sites_view *v, int row)
{
	tui_cursor_set(&v->cur, row, row_addr, v);
}

static void sites_refresh(struct tui *tui)
{
	rebuild(tui);
}

/*
 * The cursor's site as T's root: "MODULE:NAME", or NAME in vmlinux. A
 * name that a typed pattern could not spell (not printable ASCII, or
 * with glob characters) is not offered.
 */
static bool sites_cursor_function(struct tui *tui, char *buf, size_t len)
{
	const struct ftg_site *s = row_site(sites_of(tui), sites_of(tui)->cur.row);
	const char *c;

	if (!s || !s->name || !s->name[0])
		return false;
	for (c = s->name; *c; c++)
		if (*c <= 0x20 || *c >= 0x7f || strchr("*?[]:", *c))
			return false;
	if (s->owner && strcmp(s->owner, "vmlinux"))
		snprintf(buf, len, "%s:%s", s->owner, s->name);
	else
		snprintf(buf, len, "%s", s->name);
	return true;
}

size_t tui_sites_marked(struct tui *tui, uint64_t **addrs)
{
	struct sites_view *v = sites_of(tui);
	size_t i, n = 0;

	*addrs = NULL;
	if (v->sites != tui->m.sites)
		rebuild(tui);
	if (!v->nmarks)
		return 0;
	*addrs = malloc(v->nmarks * sizeof(**addrs));
	if (!*addrs)
		return 0;
	/* Only marks of sites that still exist: a dropped site is gone. */
	for (i = 0; i < v->nmarks; i++)
		if (tui->m.sites && ftg_sites_find(tui->m.sites, v->marks[i]))
			(*addrs)[n++] = v->marks[i];
	return n;
}

size_t tui_sites_selection(struct tui *tui, uint64_t **addrs)
{
	struct sites_view *v = sites_of(tui);
	size_t n = tui_sites_marked(tui, addrs);
	const struct ftg_site *s;

	if (n)
		return n;
	free(*addrs);
	*addrs = NULL;
	s = row_site(v, v->cur.row);
	if (!s || !(*addrs = malloc(sizeof(**addrs))))
		return 0;
	(*addrs)[0] = s->addr;
	return 1;
}

static const char *state_reason(enum ftg_site_state st)
{
	switch (st) {
	case FTG_SITE_OK: return "checked: its bytes are the disarmed NOP";
	case FTG_SITE_ARMED: return "armed: a call to an ftrace trampoline, verified";
	case FTG_SITE_UNCHECKED: return "not checked yet (press c)";
	case FTG_SITE_STALE: return "stale: the text this site was in went away";
	case FTG_SITE_FOREIGN: return "foreign: the address never was an ftrace site";
	case FTG_SITE_MISMATCH: return "mismatch: bytes are neither the NOP nor a trampoline call";
	case FTG_SITE_PLANTED: return "planted by fault injection, not checked yet";
	}
	return "?";
}

static void draw_details(struct tui *tui, int top, int rows)
{
	struct sites_view *v = sites_of(tui);
	const struct ftg_site *s = row_site(v, v->cur.row);
	const struct ftg_finding *f;
	const struct ftg_check_line *cl;
	char name[FTG_SYM_LEN], owner[64], why[512], region[512];
	int r;

	char summary[256];

	tui_hline(tui, top, 0, COLS, tui_attr(tui, TUI_DIM));
	snprintf(summary, sizeof(summary), " %d of %zu sites%s%s, sort %s%s, %zu marked ",
		 v->cur.nrows, tui->m.sites ? ftg_sites_count(tui->m.sites) : (size_t)0,
		 v->filter[0] ? ", filter " : "", v->filter, sort_names[v->sort],
		 v->reverse ? " (rev)" : "", v->nmarks);
	tui_print(top, 2, (int)strlen(summary), tui_attr(tui, TUI_DIM), summary);
	for (r = 1; r < rows; r++)
		tui_print(top + r, 0, COLS, A_NORMAL, "");
	if (!s)
		return;
	f = tui_model_finding(&tui->m, s->addr);
	cl = tui_model_check_line(&tui->m, s->addr);
	tui_printf(top + 1, 0, COLS, A_BOLD, " %s [%s] 0x%lx %s, %s, hits %lu, reads %lu",
		   tui_name(name, sizeof(name), s->name),
		   tui_name(owner, sizeof(owner), s->owner), (unsigned long)s->addr,
		   s->section == FTG_SECTION_INIT ? "init" : "core",
		   ftg_site_state_name(s->state), (unsigned long)s->hits,
		   (unsigned long)s->reads);
	if (f && f->reason)
		tui_safe(why, sizeof(why), f->reason);
	else
		snprintf(why, sizeof(why), "%s", state_reason(s->state));
	tui_printf(top + 2, 0, COLS, tui_attr(tui, tui_site_role(s->state)), " why: %s", why);
	if (rows > 3) {
		/* The sites table keeps every site's bytes from its last
		 * check, large checks included; the TUI's own check and the
		 * check report only stand in for an old module's table. */
		const char *e = s->expected && strcmp(s->expected, "-") ? s->expected :
				f ? f->expected : cl ? cl->expected : "-";
		const char *a = s->actual && strcmp(s->actual, "-") ? s->actual :
				f ? f->actual : cl ? cl->actual : "-";
		char exp[64], act[64];

		tui_printf(top + 3, 0, COLS, A_NORMAL, " bytes: expected %s actual %s (record at +%u)",
			   tui_safe(exp, sizeof(exp), e), tui_safe(act, sizeof(act), a),
			   s->offset);
	}
	if (rows > 4) {
		tui_model_describe(&tui->m, s->addr, region, sizeof(region));
		tui_printf(top + 4, 0, COLS, A_NORMAL, " region: %s", region);
	}
	if (rows > 5) {
		char users[512];

		tui_model_users(&tui->m, s, users, sizeof(users));
		tui_printf(top + 5, 0, COLS, A_NORMAL, " shared with: %s",
			   users[0] ? users : "nobody");
	}
}

static void sites_display(struct tui *tui, int top, int rows)
{
	struct sites_view *v = sites_of(tui);
	char name[FTG_SYM_LEN], owner[64], hdr[256];
	int detail = rows >= 12 ? DETAIL_ROWS : 0;
	int list = rows - 1 - detail, namew, r, first;

	tui->page = list;
	if (v->sites != tui->m.sites || v->generation != tui->m.generation)
		rebuild(tui);
	namew = COLS - 62;
	if (namew < 12)
		namew = 12;
	snprintf(hdr, sizeof(hdr), " %-*s %-12s %-16s %-4s %-8s %9s %6s", namew,
		 "FUNCTION", "OWNER", "ADDRESS", "SEC", "STATE", "HITS", "READS");
	tui_print(top, 0, COLS, tui_attr(tui, TUI_HEADER), hdr);
	first = tui_scroll_top(&v->top, v->cur.row, v->cur.nrows, list);
	for (r = 0; r < list; r++) {
		const struct ftg_site *s = row_site(v, first + r);
		bool cur = first + r == v->cur.row;
		char line[512];
		int role;

		if (!s) {
			if (r == 0 && !v->cur.nrows)
				tui_printf(top + 1, 0, COLS, A_NORMAL, " %s",
					   !tui->m.have_status ? tui->m.status_error :
					   v->filter[0] ? "no site matches the filter (f to change)" :
					   "no sites (load a module, or admit vmlinux functions with ftguard)");
			else
				tui_print(top + 1 + r, 0, COLS, A_NORMAL, "");
			continue;
		}
		snprintf(line, sizeof(line), "%-*.*s %-12.12s %016lx %-4s", namew, namew,
			 tui_name(name, sizeof(name), s->name),
			 tui_name(owner, sizeof(owner), s->owner), (unsigned long)s->addr,
			 s->section == FTG_SECTION_INIT ? "init" : "core");
		tui_print(top + 1 + r, 0, 1, tui_attr(tui, TUI_MARKED),
			  is_marked(v, s->addr) ? tui->g.mark : " ");
		role = cur ? TUI_CURSOR : TUI_NORMAL;
		tui_print(top + 1 + r, 1, namew + 36, tui_attr(tui, role), line);
		/* columns as in the header: STATE at namew + 37, HITS after it */
		tui_printf(top + 1 + r, namew + 37, 9, cur ? tui_attr(tui, TUI_CURSOR) :
			   tui_attr(tui, tui_site_role(s->state)), "%-8s",
			   ftg_site_state_name(s->state));
		tui_printf(top + 1 + r, namew + 46, COLS - namew - 46, tui_attr(tui, role),
			   "%9lu %6lu", (unsigned long)s->hits, (unsigned long)s->reads);
	}
	if (detail)
		draw_details(tui, top + 1 + list, detail);
}

static void sites_search(struct tui *tui, const char *text, int dir)
{
	struct sites_view *v = sites_of(tui);
	int i, n = v->cur.nrows;

	for (i = 1; i <= n; i++) {
		int row = ((v->cur.row + dir * i) % n + n) % n;
		const struct ftg_site *s = row_site(v, row);

		if (tui_match(text, s->name)) {
			set_cursor(v, row);
			v->top = row - (LINES - 9) / 3;	/* a third down the list */
			return;
		}
	}
	tui_message(tui, true, "not found: %s", text);
}

static void sites_filter(struct tui *tui, const char *text)
{
	struct sites_view *v = sites_of(tui);
	char why[TUI_MSG_MAX];

	snprintf(v->filter, sizeof(v->filter), "%s", text);
	if (parse_patterns(v, why, sizeof(why)) < 0) {
		tui_message(tui, true, "%s", why);
		free_patterns(v);
		v->filter[0] = '\0';
	}
	rebuild(tui);
	set_cursor(v, v->cur.row);
}

static int move_by(struct sites_view *v, int delta)
{
	set_cursor(v, v->cur.row + delta);
	return TUI_DIRTY_BODY;
}

static int key_up(struct tui *tui) { return move_by(sites_of(tui), -1); }
static int key_down(struct tui *tui) { return move_by(sites_of(tui), 1); }
static int key_pgup(struct tui *tui) { return move_by(sites_of(tui), -tui_page(tui)); }
static int key_pgdown(struct tui *tui) { return move_by(sites_of(tui), tui_page(tui)); }
static int key_home(struct tui *tui) { return move_by(sites_of(tui), -sites_of(tui)->cur.nrows); }
static int key_end(struct tui *tui) { return move_by(sites_of(tui), sites_of(tui)->cur.nrows); }

static int key_mark(struct tui *tui)
{
	struct sites_view *v = sites_of(tui);
	const struct ftg_site *s = row_site(v, v->cur.row);

	if (s)
		set_mark(v, s->addr, !is_marked(v, s->addr));
	return move_by(v, 1);
}

static int key_mark_all(struct tui *tui)
{
	struct sites_view *v = sites_of(tui);
	bool all = true;
	int r;

	for (r = 0; r < v->cur.nrows; r++)
		all = all && is_marked(v, row_site(v, r)->addr);
	for (r = 0; r < v->cur.nrows; r++)
		set_mark(v, row_site(v, r)->addr, !all);
	return TUI_DIRTY_BODY;
}

static int key_unmark(struct tui *tui)
{
	struct sites_view *v = sites_of(tui);

	v->nmarks = 0;
	return TUI_DIRTY_BODY;
}

static int key_sort(struct tui *tui)
{
	struct sites_view *v = sites_of(tui);

	v->sort = (v->sort + 1) % SORT_COUNT;
	rebuild(tui);
	return TUI_DIRTY_BODY;
}

static int key_reverse(struct tui *tui)
{
	struct sites_view *v = sites_of(tui);

	v->reverse = !v->reverse;
	rebuild(tui);
	return TUI_DIRTY_BODY;
}

static const struct tui_key sites_keys[] = {
	{ KEY_UP, "Up/k", "previous site", key_up },
	{ 'k', "k", NULL, key_up },
	{ KEY_DOWN, "Down/j", "next site", key_down },
	{ 'j', "j", NULL, key_down },
	{ KEY_PPAGE, "PgUp", "page up", key_pgup },
	{ KEY_NPAGE, "PgDn", "page down", key_pgdown },
	{ KEY_HOME, "Home/g", "first site", key_home },
	{ 'g', "g", NULL, key_home },
	{ KEY_END, "End/G", "last site", key_end },
	{ 'G', "G", NULL, key_end },
	{ ' ', "Space", "mark/unmark the site (the selection for c and a)", key_mark },
	{ '*', "*", "mark every shown site (again: unmark them)", key_mark_all },
	{ 'u', "u", "unmark everything", key_unmark },
	{ 's', "s", "sort by the next column", key_sort },
	{ 'r', "r", "reverse the sort order", key_reverse },
	{ 0, NULL, NULL, NULL },
};

static void *sites_open(void)
{
	struct sites_view *v = calloc(1, sizeof(*v));

	if (v)
		v->sort = SORT_OWNER;
	return v;
}

static void sites_close(void *view)
{
	struct sites_view *v = view;

	free_patterns(v);
	free(v->rows);
	free(v->marks);
	free(v);
}

const struct tui_screen_ops tui_sites_ops = {
	.name = "Sites",
	.open = sites_open,
	.close = sites_close,
	.keys = sites_keys,
	.display = sites_display,
	.search = sites_search,
	.filter = sites_filter,
	.update = sites_refresh,
	.cursor_function = sites_cursor_function,
	.filter_help = "glob, MODULE:GLOB, NAME@ADDR, state:S, module:M",
};
