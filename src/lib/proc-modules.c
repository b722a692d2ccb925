// SPDX-License-Identifier: LGPL-2.1
/*
 * /proc/modules: "e1000e 286720 0 - Live 0xffffffffc0a00000 (OE)".
 * Fields: name, size, refcount ("-" without module unloading), deps
 * ("-" or "a,b,"), state, base address (0 when kptr_restrict hides it)
 * and optional taint flags.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "ftguard-local.h"

struct ftg_proc_modules {
	struct ftgl_vec mods;	/* struct ftg_proc_module */
	struct ftgl_pool pool;
	size_t skipped;
};

static int parse_line(void *obj, char *line)
{
	struct ftg_proc_modules *pm = obj;
	struct ftg_proc_module *m;
	char *w[7];
	int n = ftgl_split(line, w, 7);
	uint64_t size, base;
	int ref = -1;

	if (n < 6 || n > 7 || ftgl_parse_u64(w[1], &size) ||
	    ftgl_parse_hex(w[5], &base) ||
	    (strcmp(w[2], "-") && ftgl_parse_int(w[2], &ref)))
		return -1;
	if (n == 7 && w[6][0] != '(')
		return -1;
	m = ftgl_vec_push(&pm->mods);
	if (!m)
		return -2;
	m->name = ftgl_pool_strdup(&pm->pool, w[0]);
	m->size = size;
	m->refcount = ref;
	m->deps = ftgl_pool_strdup(&pm->pool, w[3]);
	m->state = ftgl_pool_strdup(&pm->pool, w[4]);
	m->base = base;
	m->taints = n == 7 ? ftgl_pool_strdup(&pm->pool, w[6]) : NULL;
	if (!m->name || !m->deps || !m->state || (n == 7 && !m->taints))
		return -2;
	return 0;
}

struct ftg_proc_modules *ftg_proc_modules_read(const struct ftg_root *root)
{
	struct ftg_proc_modules *pm;
	char *buf;
	size_t len;

	ftg_error_clear();
	buf = ftgl_read_file(ftg_root_proc(root), "modules", &len);
	if (!buf)
		return NULL;
	pm = calloc(1, sizeof(*pm));
	if (!pm) {
		free(buf);
		ftgl_err(FTG_E_SYSTEM, ENOMEM, "out of memory");
		return NULL;
	}
	ftgl_vec_init(&pm->mods, sizeof(struct ftg_proc_module));
	if (ftgl_parse_lines("modules", buf, len, parse_line, pm, &pm->skipped)) {
		ftg_proc_modules_free(pm);
		pm = NULL;
	}
	free(buf);
	return pm;
}

void ftg_proc_modules_free(struct ftg_proc_modules *pm)
{
	if (!pm)
		return;
	ftgl_vec_release(&pm->mods);
	ftgl_pool_release(&pm->pool);
	free(pm);
}

size_t ftg_proc_modules_count(const struct ftg_proc_modules *pm)
{
	return pm->mods.len;
}

size_t ftg_proc_modules_skipped(const struct ftg_proc_modules *pm)
{
	return pm->skipped;
}

const struct ftg_proc_module *ftg_proc_modules_get(const struct ftg_proc_modules *pm,
						   size_t i)
{
	return ftgl_vec_at(&pm->mods, i);
}

const struct ftg_proc_module *ftg_proc_modules_find(const struct ftg_proc_modules *pm,
						    const char *name)
{
	size_t i;

	for (i = 0; i < pm->mods.len; i++) {
		const struct ftg_proc_module *m = ftgl_vec_at(&pm->mods, i);

		if (!strcmp(m->name, name))
			return m;
	}
	return NULL;
}
