// SPDX-License-Identifier: LGPL-2.1
/*
 * Function graph: ftguard:graph_entry/graph_exit printed as trace-cmd
 * report prints the kernel's function_graph tracer, and summed per
 * function (report --stat).
 */
#include <errno.h>
#include <inttypes.h>
#include <search.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ftguard-local.h"

#define GRAPH_INDENT_MAX	64	/* deeper calls print at this depth */

static bool is_ftguard_event(const struct ftg_event *ev, const char *name)
{
	return !strcmp(ev->system, "ftguard") && !strcmp(ev->name, name);
}

bool ftg_event_is_graph_entry(const struct ftg_event *ev)
{
	return is_ftguard_event(ev, "graph_entry");
}

bool ftg_event_is_graph_exit(const struct ftg_event *ev)
{
	return is_ftguard_event(ev, "graph_exit");
}

static uint64_t graph_duration(const struct ftg_event *exit)
{
	return exit->rettime > exit->calltime ? exit->rettime - exit->calltime : 0;
}

/* The kernel's function_graph duration marks (trace_find_mark()). */
static char graph_mark(uint64_t ns)
{
	static const struct { uint64_t ns; char mark; } marks[] = {
		{ 1000000000ULL, '$' }, { 100000000ULL, '@' },
		{ 10000000ULL, '*' }, { 1000000ULL, '#' },
		{ 100000ULL, '!' }, { 10000ULL, '+' },
	};
	size_t i;

	for (i = 0; i < sizeof(marks) / sizeof(marks[0]); i++)
		if (ns > marks[i].ns)
			return marks[i].mark;
	return ' ';
}

int ftg_graph_call_snprint(char *buf, size_t len, const struct ftg_event *entry,
			   const struct ftg_event *exit)
{
	const struct ftg_event *ev = entry ? entry : exit;
	uint64_t ns;
	char dur[32];
	int depth;

	ftg_error_clear();
	if (!ev)
		return ftgl_err(FTG_E_BAD_ARGUMENT, EINVAL, "graph line: no entry and no exit");
	depth = ev->depth < 0 ? 0 : ev->depth > GRAPH_INDENT_MAX ?
		GRAPH_INDENT_MAX : ev->depth;
	if (exit) {
		ns = graph_duration(exit);
		snprintf(dur, sizeof(dur), "%c %6" PRIu64 ".%03" PRIu64 " us",
			 graph_mark(ns), ns / 1000, ns % 1000);
	} else {
		snprintf(dur, sizeof(dur), "%*s", 13, "");
	}
	return snprintf(buf, len, "%s |  %*s%s%s%s%s", dur, 2 * depth, "",
			entry ? entry->sym : "}",
			entry ? (exit ? "();" : "() {") : " /* ",
			entry ? "" : exit->sym, entry ? "" : " */");
}

int ftg_graph_snprint(char *buf, size_t len, const struct ftg_event *entry,
		      const struct ftg_event *exit)
{
	const struct ftg_event *ev = entry ? entry : exit;
	char call[FTG_SYM_LEN + 160];
	uint64_t us;

	if (ftg_graph_call_snprint(call, sizeof(call), entry, exit) < 0)
		return -1;
	us = (ev->ts_ns + 500) / 1000;
	return snprintf(buf, len, "%s-%d [%03d] %" PRIu64 ".%06" PRIu64
			": %-12s %s", ev->comm, ev->pid, ev->cpu,
			us / 1000000, us % 1000000, entry ? "graph_entry:" :
			"graph_exit:", call);
}

struct ftg_graph_stats {
	void *root;			/* tsearch tree of struct ftg_graph_stat */
	struct ftg_graph_stat **items;	/* the same stats; sorted by _get */
	size_t n;
	size_t cap;
	bool dirty;			/* items not sorted since the last add */
};

static int stat_cmp_sym(const void *a, const void *b)
{
	return strcmp(((const struct ftg_graph_stat *)a)->sym,
		      ((const struct ftg_graph_stat *)b)->sym);
}

struct ftg_graph_stats *ftg_graph_stats_new(void)
{
	struct ftg_graph_stats *st;

	ftg_error_clear();
	st = calloc(1, sizeof(*st));
	if (!st)
		ftgl_err(FTG_E_SYSTEM, ENOMEM, "out of memory");
	return st;
}

void ftg_graph_stats_free(struct ftg_graph_stats *st)
{
	if (!st)
		return;
	tdestroy(st->root, free);
	free(st->items);
	free(st);
}

int ftg_graph_stats_add(struct ftg_graph_stats *st, const struct ftg_event *ev)
{
	struct ftg_graph_stat key, *stat, **found;
	uint64_t ns;

	ftg_error_clear();
	if (!ftg_event_is_graph_exit(ev))
		return 0;
	snprintf(key.sym, sizeof(key.sym), "%s", ev->sym);
	found = tfind(&key, &st->root, stat_cmp_sym);
	if (found) {
		stat = *found;
	} else {
		if (st->n == st->cap) {
			size_t cap = st->cap ? 2 * st->cap : 64;
			struct ftg_graph_stat **items = realloc(st->items,
								cap * sizeof(*items));

			if (!items)
				return ftgl_err(FTG_E_SYSTEM, ENOMEM, "out of memory");
			st->items = items;
			st->cap = cap;
		}
		stat = calloc(1, sizeof(*stat));
		if (!stat)
			return ftgl_err(FTG_E_SYSTEM, ENOMEM, "out of memory");
		memcpy(stat->sym, key.sym, sizeof(stat->sym));
		if (!tsearch(stat, &st->root, stat_cmp_sym)) {
			free(stat);
			return ftgl_err(FTG_E_SYSTEM, ENOMEM, "out of memory");
		}
		st->items[st->n++] = stat;
	}
	ns = graph_duration(ev);
	stat->calls++;
	stat->total_ns += ns;
	if (ns > stat->max_ns)
		stat->max_ns = ns;
	st->dirty = true;
	return 0;
}

int ftg_graph_stats_cb(const struct ftg_event *ev, void *data)
{
	return ftg_graph_stats_add(data, ev) ? -1 : 0;
}

size_t ftg_graph_stats_count(const struct ftg_graph_stats *st)
{
	return st->n;
}

static int stat_cmp_total(const void *a, const void *b)
{
	const struct ftg_graph_stat *x = *(struct ftg_graph_stat *const *)a;
	const struct ftg_graph_stat *y = *(struct ftg_graph_stat *const *)b;

	if (x->total_ns != y->total_ns)
		return x->total_ns < y->total_ns ? 1 : -1;
	return strcmp(x->sym, y->sym);
}

const struct ftg_graph_stat *ftg_graph_stats_get(struct ftg_graph_stats *st,
						 size_t i)
{
	if (st->dirty) {
		qsort(st->items, st->n, sizeof(*st->items), stat_cmp_total);
		st->dirty = false;
	}
	return i < st->n ? st->items[i] : NULL;
}
