// SPDX-License-Identifier: GPL-2.0
/*
 * Map screen: the kernel address space from libftguard's map. A scaled
 * strip around the item under the cursor (zoom with + and -), then the
 * regions as a tree (indented by containment) with the sites that lie
 * outside live text among them; overlaps and such sites are highlighted.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "ui/tui.h"

struct map_item {
	const struct ftg_region *region;	/* NULL for a site */
	const struct ftg_map_site *site;
	uint64_t addr;
	int depth;
	bool problem;		/* overlapping region, or site outside live text */
	unsigned int nsites;	/* sites inside this region (innermost) */
};

struct map_view {
	const struct ftg_map *map;
	unsigned int generation;
	struct map_item *items;
	int nitems;
	int *rows;		/* items shown (filtered) */
	struct tui_cursor cur;
	int top;
	int zoom;		/* strip width = item size * 2^zoom */
	bool hide_vmalloc;	/* plain vmalloc/vmap areas left out */
	char filter[TUI_INPUT_MAX];
	size_t noverlaps, noutside;
};

static struct map_view *map_of(struct tui *tui)
{
	return tui_view(tui, &tui_map_ops);
}

static const char *kind_label(enum ftg_region_kind kind)
{
	switch (kind) {
	case FTG_REGION_CORE_TEXT:	return "core text";
	case FTG_REGION_MODULE_TEXT:	return "module";
	case FTG_REGION_MODULE_INIT:	return "init text";
	case FTG_REGION_INIT_FREED:	return "init freed";
	case FTG_REGION_MODULE_GONE:	return "mod gone";
	case FTG_REGION_VMALLOC:	return "vmalloc";
	case FTG_REGION_IOREMAP:	return "ioremap";
	case FTG_REGION_VMAP:		return "vmap";
	case FTG_REGION_MODULES_RANGE:	return "MODULES";
	case FTG_REGION_VMALLOC_RANGE:	return "VMALLOC";
	case FTG_REGION_SHARED_RANGE:	return "MOD+VMALLOC";
	}
	return ftg_region_kind_name(kind);
}

static char kind_char(enum ftg_region_kind kind)
{
	static const char chars[] = {
		[FTG_REGION_CORE_TEXT] = 'T', [FTG_REGION_MODULE_TEXT] = 'M',
		[FTG_REGION_MODULE_INIT] = 'I', [FTG_REGION_INIT_FREED] = 'x',
		[FTG_REGION_MODULE_GONE] = 'g', [FTG_REGION_VMALLOC] = 'v',
		[FTG_REGION_IOREMAP] = 'i', [FTG_REGION_VMAP] = 'm',
		[FTG_REGION_MODULES_RANGE] = '.', [FTG_REGION_VMALLOC_RANGE] = '.',
		[FTG_REGION_SHARED_RANGE] = ':',
	};

	return (size_t)kind < sizeof(chars) && chars[kind] ? chars[kind] : '?';
}

static bool is_range(enum ftg_region_kind kind)
{
	return kind == FTG_REGION_MODULES_RANGE || kind == FTG_REGION_VMALLOC_RANGE ||
	       kind == FTG_REGION_SHARED_RANGE;
}

static int region_role(const struct ftg_region *r)
{
	switch (r->kind) {
	case FTG_REGION_CORE_TEXT:
	case FTG_REGION_MODULE_TEXT:
	case FTG_REGION_MODULE_INIT:
		return TUI_REGION_TEXT;
	case FTG_REGION_INIT_FREED:
	case FTG_REGION_MODULE_GONE:
		return TUI_REGION_DEAD;
	case FTG_REGION_IOREMAP:
		return TUI_REGION_IO;
	default:
		return TUI_REGION_OTHER;
	}
}

static uint64_t item_end(const struct map_item *it)
{
	return it->region ? it->region->end : it->addr + 5;
}

static void format_item(const struct map_item *it, char *line, size_t len)
{
	const struct ftg_region *r = it->region;
	char size[16], owner[64], caller[160], name[FTG_SYM_LEN], extra[96] = "";
	int indent = (it->depth > 4 ? 4 : it->depth) * 2;

	if (!r) {
		const struct ftg_site *s = it->site->site;

		snprintf(line, len, "%*s%-11s %016lx %s [%s] %s, OUTSIDE LIVE TEXT",
			 indent, "", "site", (unsigned long)it->addr,
			 tui_name(name, sizeof(name), s->name),
			 tui_name(owner, sizeof(owner), s->owner),
			 ftg_site_state_name(s->state));
		return;
	}
	if (r->has_phys)
		snprintf(extra, sizeof(extra), "phys 0x%lx ", (unsigned long)r->phys);
	if (r->kind == FTG_REGION_INIT_FREED || r->kind == FTG_REGION_MODULE_GONE)
		snprintf(extra + strlen(extra), sizeof(extra) - strlen(extra),
			 "dropped at %.1fs ", r->dropped_ms / 1000.0);
	if (it->nsites)
		snprintf(extra + strlen(extra), sizeof(extra) - strlen(extra),
			 "%u site%s ", it->nsites, it->nsites == 1 ? "" : "s");
	snprintf(line, len, "%*s%-11s %016lx %6s %s%s%s%s%s%s%s", indent, "",
		 kind_label(r->kind), (unsigned long)r->start,
		 tui_size(size, sizeof(size), r->end - r->start), extra,
		 r->owner ? tui_name(owner, sizeof(owner), r->owner) : "",
		 r->owner && r->caller ? " " : "",
		 r->caller ? tui_safe(caller, sizeof(caller), r->caller) : "",
		 r->caller_module && !(r->caller && strchr(r->caller, '[')) ? " [" : "",
		 r->caller_module && !(r->caller && strchr(r->caller, '[')) ?
		 tui_name(name, sizeof(name), r->caller_module) : "",
		 r->caller_module && !(r->caller && strchr(r->caller, '[')) ? "]" : "");
	if (it->problem)
		snprintf(line + strlen(line), len - strlen(line), " OVERLAP");
}

static bool region_overlaps(const struct ftg_map *map, const struct ftg_region *r)
{
	size_t i;

	for (i = 0; i < ftg_map_overlap_count(map); i++) {
		const struct ftg_overlap *o = ftg_map_overlap_get(map, i);

		if (o->a == r || o->b == r)
			return true;
	}
	return false;
}

/* Index of @r among the map's regions, or -1. */
static long region_index(const struct ftg_map *map, const struct ftg_region *r)
{
	size_t i, n = ftg_map_region_count(map);
	const struct ftg_region *first = n ? ftg_map_region_get(map, 0) : NULL;

	if (first && r >= first && (size_t)(r - first) < n &&
	    ftg_map_region_get(map, (size_t)(r - first)) == r)
		return r - first;
	for (i = 0; i < n; i++)
		if (ftg_map_region_get(map, i) == r)
			return (long)i;
	return -1;
}

static uint64_t row_addr(const void *view, int row)
{
	const struct map_view *v = view;

	return v->items[v->rows[row]].addr;
}

static void apply_filter(struct map_view *v)
{
	char line[512];
	int i, nrows = 0;

	for (i = 0; i < v->nitems; i++) {
		const struct ftg_region *r = v->items[i].region;

		if (v->hide_vmalloc && r && (r->kind == FTG_REGION_VMALLOC ||
					    r->kind == FTG_REGION_VMAP) && !v->items[i].problem)
			continue;
		format_item(&v->items[i], line, sizeof(line));
		if (!v->filter[0] || tui_match(v->filter, line))
			v->rows[nrows++] = i;
	}
	tui_cursor_rows_changed(&v->cur, nrows, row_addr, v);
}

/* Regions and outside sites merged by address, depth from containment. */
static void rebuild(struct tui *tui)
{
	struct map_view *v = map_of(tui);
	const struct ftg_map *map = tui->m.map;
	size_t nreg = map ? ftg_map_region_count(map) : 0;
	size_t nsite = map ? ftg_map_site_count(map) : 0;
	uint64_t ends[16];
	size_t ri = 0, si = 0;
	int depth = 0, n = 0;
	struct map_item *items;
	unsigned int *counts;

	v->map = map;
	v->generation = tui->m.generation;
	free(v->items);
	free(v->rows);
	v->items = NULL;
	v->rows = NULL;
	v->nitems = v->cur.nrows = 0;
	if (!map)
		return;
	items = calloc(nreg + nsite + 1, sizeof(*items));
	counts = calloc(nreg + 1, sizeof(*counts));
	v->rows = calloc(nreg + nsite + 1, sizeof(*v->rows));
	if (!items || !counts || !v->rows) {
		free(items);
		free(counts);
		return;
	}
	for (si = 0; si < nsite; si++) {
		const struct ftg_map_site *ms = ftg_map_site_get(map, si);
		long idx = ms->region ? region_index(map, ms->region) : -1;

		if (idx >= 0)
			counts[idx]++;
	}
	v->noverlaps = ftg_map_overlap_count(map);
	v->noutside = 0;
	si = 0;
	while (ri < nreg || si < nsite) {
		const struct ftg_region *r = ri < nreg ? ftg_map_region_get(map, ri) : NULL;
		const struct ftg_map_site *ms = NULL;
		uint64_t addr;

		/* the next site outside live text, if any */
		while (si < nsite && ftg_map_site_get(map, si)->in_live_text)
			si++;
		if (si < nsite)
			ms = ftg_map_site_get(map, si);
		if (!r && !ms)
			break;
		if (r && (!ms || r->start <= ms->site->addr)) {
			addr = r->start;
		} else {
			addr = ms->site->addr;
			r = NULL;
		}
		while (depth > 0 && ends[depth - 1] <= addr)
			depth--;
		items[n].addr = addr;
		items[n].depth = depth;
		if (r) {
			items[n].region = r;
			items[n].nsites = counts[ri];
			items[n].problem = !is_range(r->kind) && region_overlaps(map, r);
			if (depth < (int)(sizeof(ends) / sizeof(ends[0])))
				ends[depth++] = r->end;
			ri++;
		} else {
			items[n].site = ms;
			items[n].problem = true;
			v->noutside++;
			si++;
		}
		n++;
	}
	free(counts);
	v->items = items;
	v->nitems = n;
	apply_filter(v);
}

static const struct map_item *cursor_item(const struct map_view *v)
{
	if (v->cur.row < 0 || v->cur.row >= v->cur.nrows)
		return NULL;
	return &v->items[v->rows[v->cur.row]];
}

static void set_cursor(struct map_view *v, int row)
{
	tui_cursor_set(&v->cur, row, row_addr, v);
}

/* The strip: the window around the cursor item, one cell per column. */
static void draw_strip(struct tui *tui, int row, const struct map_item *cur)
{
	struct map_view *v = map_of(tui);
	const struct ftg_map *map = v->map;
	int cells = COLS - 2, i;
	char strip[512], sites[512];
	uint64_t size, center, lo, hi, width, cell;
	size_t k;
	int cur_lo = -1, cur_hi = -1;

	if (cells > (int)sizeof(strip) - 1)
		cells = (int)sizeof(strip) - 1;
	if (cells < 8 || !cur)
		return;
	size = item_end(cur) - cur->addr;
	if (size < 16)
		size = 16;
	center = cur->addr + size / 2;
	width = size;
	for (i = 0; i < v->zoom && width < (UINT64_MAX >> 2); i++)
		width *= 2;
	for (i = 0; i > v->zoom && width > (uint64_t)cells; i--)
		width /= 2;
	if (width < (uint64_t)cells)
		width = (uint64_t)cells;
	lo = center > width / 2 ? center - width / 2 : 0;
	hi = lo + width < lo ? UINT64_MAX : lo + width;
	cell = (hi - lo) / (uint64_t)cells;
	if (!cell)
		cell = 1;
	memset(strip, ' ', (size_t)cells);
	memset(sites, ' ', (size_t)cells);
	strip[cells] = sites[cells] = '\0';
	/* Larger regions first, so inner ones paint over them. */
	for (int pass = 0; pass < 2; pass++)
		for (k = 0; k < ftg_map_region_count(map); k++) {
			const struct ftg_region *r = ftg_map_region_get(map, k);
			uint64_t a, b;

			if (is_range(r->kind) != (pass == 0) || r->end <= lo || r->start >= hi)
				continue;
			a = r->start > lo ? (r->start - lo) / cell : 0;
			b = r->end < hi ? (r->end - 1 - lo) / cell : (uint64_t)cells - 1;
			for (; a <= b && a < (uint64_t)cells; a++)
				strip[a] = kind_char(r->kind);
		}
	for (k = 0; k < ftg_map_overlap_count(map); k++) {
		const struct ftg_overlap *o = ftg_map_overlap_get(map, k);
		uint64_t a = o->a->start > o->b->start ? o->a->start : o->b->start;
		uint64_t b = o->a->end < o->b->end ? o->a->end : o->b->end;

		if (b <= lo || a >= hi || b <= a)
			continue;
		for (a = a > lo ? (a - lo) / cell : 0; a <= (b - 1 - lo) / cell &&
		     a < (uint64_t)cells; a++)
			strip[a] = '!';
	}
	for (k = 0; k < ftg_map_site_count(map); k++) {
		const struct ftg_map_site *ms = ftg_map_site_get(map, k);
		uint64_t a = ms->site->addr;

		if (a < lo || a >= hi)
			continue;
		a = (a - lo) / cell;
		if (a < (uint64_t)cells && (sites[a] == ' ' || !ms->in_live_text))
			sites[a] = ms->in_live_text ? '\'' : '^';
	}
	if (cur->addr >= lo) {
		cur_lo = (int)((cur->addr - lo) / cell);
		cur_hi = (int)((item_end(cur) - 1 - lo) / cell);
	}
	tui_printf(row, 0, COLS, A_NORMAL, "[%s]", strip);
	/* the cursor item's extent, highlighted in place */
	if (cur_lo >= 0 && cur_lo < cells) {
		if (cur_hi >= cells)
			cur_hi = cells - 1;
		strip[cur_hi + 1] = '\0';
		tui_print(row, 1 + cur_lo, cur_hi - cur_lo + 1, tui_attr(tui, TUI_CURSOR),
			  strip + cur_lo);
	}
	for (i = 0; i < cells; i++)
		if (sites[i] == '^') {
			tui_print(row + 1, 1 + i, 1, tui_attr(tui, TUI_WARN), "^");
			sites[i] = ' ';
		}
	tui_printf(row + 1, 0, 1, A_NORMAL, " ");
	for (i = 0; i < cells; i++)
		if (sites[i] != ' ')
			tui_print(row + 1, 1 + i, 1, A_NORMAL, "'");
	tui_printf(row + 2, 0, COLS, tui_attr(tui, TUI_DIM),
		   " %016lx  %s per cell  %016lx", (unsigned long)lo,
		   tui_size(strip, 16, cell), (unsigned long)(hi - 1));
}

/* @text over @nrows rows from @row, broken at a blank when one is near. */
static void draw_wrapped(int row, int nrows, int attr, const char *text)
{
	int width = COLS - 2, r;

	for (r = 0; r < nrows; r++) {
		int len = (int)strlen(text), cut = len;

		if (len > width && r < nrows - 1) {
			for (cut = width; cut > width / 2 && text[cut] != ' '; cut--)
				;
			if (cut <= width / 2)
				cut = width;
		}
		tui_printf(row + r, 0, COLS, attr, " %.*s", cut, text);
		text += cut;
		while (*text == ' ')
			text++;
	}
}

static void map_display(struct tui *tui, int top, int rows)
{
	struct map_view *v = map_of(tui);
	const struct map_item *cur;
	char line[512], desc[512];
	int list, r, first;

	if (v->map != tui->m.map || v->generation != tui->m.generation)
		rebuild(tui);
	if (!v->map) {
		tui_printf(top, 0, COLS, A_NORMAL, " %s", tui->m.map_error[0] ?
			   tui->m.map_error : "no address map");
		for (r = 1; r < rows; r++)
			tui_print(top + r, 0, COLS, A_NORMAL, "");
		return;
	}
	cur = cursor_item(v);
	/* The site row is blanked before the strip marks sites on it. */
	tui_print(top + 1, 0, COLS, A_NORMAL, "");
	draw_strip(tui, top, cur);
	tui_printf(top + 3, 0, COLS, tui_attr(tui, TUI_HEADER),
		   " %s: %d regions, %zu overlaps, %zu sites outside live text%s%s",
		   ftg_arch_name(ftg_map_arch(v->map)), v->nitems - (int)v->noutside,
		   v->noverlaps, v->noutside, v->filter[0] ? ", filter " : "", v->filter);
	list = rows - 7;
	tui->page = list;
	first = tui_scroll_top(&v->top, v->cur.row, v->cur.nrows, list);
	for (r = 0; r < list; r++) {
		int row = first + r, role;
		const struct map_item *it;

		if (row >= v->cur.nrows) {
			tui_print(top + 4 + r, 0, COLS, A_NORMAL, "");
			continue;
		}
		it = &v->items[v->rows[row]];
		format_item(it, line, sizeof(line));
		role = row == v->cur.row ? TUI_CURSOR : it->problem ? TUI_WARN :
		       it->region ? region_role(it->region) : TUI_WARN;
		tui_print(top + 4 + r, 0, COLS, tui_attr(tui, role), line);
	}
	tui_hline(tui, top + rows - 3, 0, COLS, tui_attr(tui, TUI_DIM));
	desc[0] = '\0';
	if (cur)
		tui_model_describe(&tui->m, cur->addr, desc, sizeof(desc));
	draw_wrapped(top + rows - 2, 2, cur && !cur->problem ? (int)A_BOLD :
		     tui_attr(tui, TUI_WARN), desc);
}

static void map_search(struct tui *tui, const char *text, int dir)
{
	struct map_view *v = map_of(tui);
	char line[512];
	int i, n = v->cur.nrows;

	for (i = 1; i <= n; i++) {
		int row = ((v->cur.row + dir * i) % n + n) % n;

		format_item(&v->items[v->rows[row]], line, sizeof(line));
		if (tui_match(text, line)) {
			set_cursor(v, row);
			v->top = row - (LINES - 9) / 3;	/* a third down the list */
			return;
		}
	}
	tui_message(tui, true, "not found: %s", text);
}

static void map_filter(struct tui *tui, const char *text)
{
	struct map_view *v = map_of(tui);

	snprintf(v->filter, sizeof(v->filter), "%s", text);
	if (v->map)
		apply_filter(v);
}

static void goto_done(struct tui *tui, const char *text)
{
	struct map_view *v = map_of(tui);
	const struct ftg_region *inner[1];
	char *end, desc[512];
	uint64_t addr;
	int i, best = -1;

	errno = 0;
	addr = strtoull(text, &end, 16);
	if (errno || end == text || *end) {
		tui_message(tui, true, "not an address: %s", text);
		return;
	}
	if (v->map && ftg_map_lookup(v->map, addr, inner, 1))
		for (i = 0; i < v->cur.nrows; i++)
			if (v->items[v->rows[i]].region == inner[0])
				best = i;
	if (best < 0)	/* the last item starting at or below */
		for (i = 0; i < v->cur.nrows; i++)
			if (v->items[v->rows[i]].addr <= addr)
				best = i;
	if (best >= 0) {
		set_cursor(v, best);
		v->top = best - (LINES - 9) / 3;
	}
	tui_model_describe(&tui->m, addr, desc, sizeof(desc));
	tui_message(tui, false, "0x%lx: %s", (unsigned long)addr, desc);
}

static int move_by(struct map_view *v, int delta)
{
	set_cursor(v, v->cur.row + delta);
	return TUI_DIRTY_BODY;
}

static int key_up(struct tui *tui) { return move_by(map_of(tui), -1); }
static int key_down(struct tui *tui) { return move_by(map_of(tui), 1); }
static int key_pgup(struct tui *tui) { return move_by(map_of(tui), -tui_page(tui)); }
static int key_pgdown(struct tui *tui) { return move_by(map_of(tui), tui_page(tui)); }
static int key_home(struct tui *tui) { return move_by(map_of(tui), -map_of(tui)->cur.nrows); }
static int key_end(struct tui *tui) { return move_by(map_of(tui), map_of(tui)->cur.nrows); }

static int key_zoom_in(struct tui *tui)
{
	struct map_view *v = map_of(tui);

	if (v->zoom > -40)
		v->zoom--;
	return TUI_DIRTY_BODY;
}

static int key_zoom_out(struct tui *tui)
{
	struct map_view *v = map_of(tui);

	if (v->zoom < 48)
		v->zoom++;
	return TUI_DIRTY_BODY;
}

static int key_zoom_fit(struct tui *tui)
{
	struct map_view *v = map_of(tui);

	v->zoom = 0;
	return TUI_DIRTY_BODY;
}

static int key_goto(struct tui *tui)
{
	tui_prompt_start(tui, "go to address (hex): ", "", goto_done);
	return TUI_DIRTY_STATUS;
}

static int key_hide_vmalloc(struct tui *tui)
{
	struct map_view *v = map_of(tui);

	v->hide_vmalloc = !v->hide_vmalloc;
	if (v->map)
		apply_filter(v);
	tui_message(tui, false, "plain vmalloc areas %s", v->hide_vmalloc ? "hidden" : "shown");
	return TUI_DIRTY_BODY | TUI_DIRTY_STATUS;
}

static int key_next_problem(struct tui *tui)
{
	struct map_view *v = map_of(tui);
	int i;

	for (i = 1; i <= v->cur.nrows; i++) {
		int row = (v->cur.row + i) % v->cur.nrows;

		if (v->items[v->rows[row]].problem) {
			set_cursor(v, row);
			return TUI_DIRTY_BODY;
		}
	}
	tui_message(tui, false, "no overlaps and no sites outside live text");
	return TUI_DIRTY_STATUS;
}

static const struct tui_key map_keys[] = {
	{ KEY_UP, "Up/k", "previous region", key_up },
	{ 'k', "k", NULL, key_up },
	{ KEY_DOWN, "Down/j", "next region", key_down },
	{ 'j', "j", NULL, key_down },
	{ KEY_PPAGE, "PgUp", "page up", key_pgup },
	{ KEY_NPAGE, "PgDn", "page down", key_pgdown },
	{ KEY_HOME, "Home/g", "first region", key_home },
	{ 'g', "g", NULL, key_home },
	{ KEY_END, "End/G", "last region", key_end },
	{ 'G', "G", NULL, key_end },
	{ '=', "=", "zoom the strip in", key_zoom_in },
	{ '-', "-", "zoom the strip out", key_zoom_out },
	{ '\r', "Enter", "fit the strip to the region", key_zoom_fit },
	{ KEY_ENTER, "Enter", NULL, key_zoom_fit },
	{ '@', "@", "go to an address", key_goto },
	{ 'o', "o", "next overlap or site outside live text", key_next_problem },
	{ 'v', "v", "hide/show plain vmalloc areas (ioremap stays)", key_hide_vmalloc },
	{ 0, NULL, NULL, NULL },
};

static void *map_open(void)
{
	struct map_view *v = calloc(1, sizeof(*v));

	if (v)
		v->zoom = 1;
	return v;
}

static void map_close(void *view)
{
	struct map_view *v = view;

	free(v->items);
	free(v->rows);
	free(v);
}

const struct tui_screen_ops tui_map_ops = {
	.name = "Map",
	.open = map_open,
	.close = map_close,
	.keys = map_keys,
	.display = map_display,
	.search = map_search,
	.filter = map_filter,
	.filter_help = "glob or text: ioremap, e1000e, init",
};
