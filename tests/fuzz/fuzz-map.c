// SPDX-License-Identifier: LGPL-2.1
/*
 * A whole snapshot: the input is a pack (fuzz-common.h) of the files a
 * snapshot holds (ftguard-snapshot, proc/kallsyms..., sys/module/<m>/sections/<s>,
 * debug/ftguard/status..., tracing/...). It is opened with ftg_root_open(), mapped
 * with ftg_map_load() as `ftguard map --root` does, queried, cross-checked
 * with its saved check report, and saved again with ftg_snapshot_save().
 */
#include <stdlib.h>

#include "fuzz-common.h"

static void query_map(const struct ftg_map *map)
{
	const struct ftg_region *in[4];
	char buf[256];
	size_t i, n = ftg_map_region_count(map);

	for (i = 0; i < n && i < 256; i++) {
		const struct ftg_region *r = ftg_map_region_get(map, i);

		fz_use(ftg_map_lookup(map, r->start, in, 4));
		fz_use(ftg_map_describe(map, r->end - 1, buf, sizeof(buf)));
		fz_use_str(ftg_region_kind_name(r->kind));
	}
	for (i = 0; i < ftg_map_overlap_count(map); i++)
		fz_use(ftg_map_overlap_get(map, i)->b->end);
	for (i = 0; i < ftg_map_site_count(map); i++) {
		const struct ftg_map_site *s = ftg_map_site_get(map, i);

		fz_use(ftg_map_describe(map, s->site->addr, buf, 8));
		fz_use(s->in_live_text);
	}
	fz_use(ftg_map_sites_outside(map));
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static char *copy;
	struct ftg_check_report *rep;
	struct ftg_verdict *v;
	struct ftg_root *root;
	struct ftg_map *map;

	if (!copy)
		copy = fz_path("copy");
	fz_unpack(data, size);	/* the root is the snapshot directory */
	root = ftg_root_open(fz_root());
	if (!root)
		return 0;
	map = ftg_map_load(root);
	if (map) {
		query_map(map);
		rep = ftg_check_report_read(root);
		v = rep ? ftg_verdict_new(rep, map) : NULL;
		fz_use(v ? ftg_verdict_count(v) : 0);
		ftg_verdict_free(v);
		ftg_check_report_free(rep);
		ftg_map_free(map);
	}
	fz_use(ftg_snapshot_save(root, copy) == 0);
	ftg_root_free(root);
	return 0;
}
