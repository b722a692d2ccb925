// SPDX-License-Identifier: LGPL-2.1
/*
 * ftguard.ko's debugfs tables (doc/interface.md): status, sites, modules
 * and check, parsed from memory with ftg_*_parse(), then laid on a map
 * built by parts and cross-checked (ftg_verdict_new()), which is what the
 * command does with the tables it reads.
 *
 * A plain input is given to all four parsers; a pack (fuzz-common.h)
 * with debug/ftguard/<table> entries gives each parser its own text and
 * lets the map and the checker see four tables that parse together.
 */
#include <stdlib.h>

#include "fuzz-common.h"

struct tables {
	struct ftg_status status;
	bool have_status;
	struct ftg_sites *sites;
	struct ftg_kmodules *mods;
	struct ftg_check_report *rep;
};

static void parse_tables(struct tables *t, const uint8_t *data, size_t size)
{
	const uint8_t *text[4] = { data, data, data, data };
	size_t len[4] = { size, size, size, size };

	if (size && data[0] == FZ_PACK_MARK) {
		text[0] = fz_pack_get(data, size, "debug/ftguard/status", &len[0]);
		text[1] = fz_pack_get(data, size, "debug/ftguard/sites", &len[1]);
		text[2] = fz_pack_get(data, size, "debug/ftguard/modules", &len[2]);
		text[3] = fz_pack_get(data, size, "debug/ftguard/check", &len[3]);
	}
	t->have_status = text[0] &&
		!ftg_status_parse((const char *)text[0], len[0], &t->status);
	t->sites = text[1] ? ftg_sites_parse((const char *)text[1], len[1]) : NULL;
	t->mods = text[2] ? ftg_kmodules_parse((const char *)text[2], len[2]) : NULL;
	t->rep = text[3] ? ftg_check_report_parse((const char *)text[3], len[3]) : NULL;
}

static void walk_tables(const struct tables *t)
{
	size_t i, n;

	if (t->have_status) {
		fz_use_str(t->status.owner);
		fz_use_str(t->status.kill_reason);
		fz_use_str(t->status.last_error);
	}
	n = t->sites ? ftg_sites_count(t->sites) : 0;
	for (i = 0; i < n; i++) {
		const struct ftg_site *s = ftg_sites_get(t->sites, i);

		fz_use(ftg_sites_find(t->sites, s->addr) != NULL);
		fz_use_str(ftg_site_state_name(s->state));
		fz_use_str(s->owner);
		fz_use_str(s->name);
	}
	n = t->mods ? ftg_kmodules_count(t->mods) : 0;
	for (i = 0; i < n; i++) {
		const struct ftg_kmodule *m = ftg_kmodules_get(t->mods, i);

		fz_use(ftg_kmodules_find(t->mods, m->name) != NULL);
		fz_use_str(ftg_kmodule_state_name(m->state));
	}
	n = t->rep ? ftg_check_report_count(t->rep) : 0;
	fz_use(t->rep ? ftg_check_report_ok(t->rep) + ftg_check_report_n_bad(t->rep) : 0);
	for (i = 0; i < n; i++) {
		const struct ftg_check_line *l = ftg_check_report_get(t->rep, i);

		fz_use_str(ftg_verdict_kind_name(l->verdict));
		fz_use_str(l->expected);
		fz_use_str(l->actual);
		fz_use_str(l->name);
	}
}

/* The map of the tables alone, queried at every site and module edge. */
static void map_and_check(const struct tables *t)
{
	const struct ftg_region *in[4];
	struct ftg_map *map = ftg_map_new();
	struct ftg_verdict *v;
	char buf[256];
	size_t i, n;

	if (!map)
		return;
	if ((t->have_status && ftg_map_add_status(map, &t->status)) ||
	    ftg_map_add_kmodules(map, t->mods) || ftg_map_add_sites(map, t->sites) ||
	    ftg_map_finish(map)) {
		ftg_map_free(map);
		return;
	}
	n = ftg_map_region_count(map);
	for (i = 0; i < n; i++) {
		const struct ftg_region *r = ftg_map_region_get(map, i);

		fz_use(ftg_map_lookup(map, r->start, in, 4));
		fz_use(ftg_map_lookup(map, r->end - 1, in, 4));
		fz_use(ftg_map_describe(map, r->end, buf, sizeof(buf)));
	}
	for (i = 0; i < ftg_map_overlap_count(map); i++)
		fz_use(ftg_map_overlap_get(map, i)->a->start);
	for (i = 0; i < ftg_map_site_count(map); i++)
		fz_use(ftg_map_describe(map, ftg_map_site_get(map, i)->site->addr,
					buf, sizeof(buf)));
	fz_use(ftg_map_sites_outside(map));
	fz_use_str(ftg_arch_name(ftg_map_arch(map)));
	if (t->rep) {
		v = ftg_verdict_new(t->rep, map);
		for (i = 0; v && i < ftg_verdict_count(v); i++)
			fz_use_str(ftg_verdict_get(v, i)->reason);
		fz_use(v ? ftg_verdict_ok(v) : 0);
		ftg_verdict_free(v);
	}
	ftg_map_free(map);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct tables t = { 0 };

	parse_tables(&t, data, size);
	walk_tables(&t);
	map_and_check(&t);
	ftg_sites_free(t.sites);
	ftg_kmodules_free(t.mods);
	ftg_check_report_free(t.rep);
	return 0;
}
