// SPDX-License-Identifier: LGPL-2.1
/*
 * The checker: the module's check report cross-checked with the address
 * map. The module reads the bytes; the map knows what the address is now
 * (live text, freed init text, an ioremap of some driver). Together they
 * say not only that a site is wrong but where it points.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ftguard-local.h"

struct ftg_verdict {
	struct ftg_check_report *report;	/* owned */
	struct ftgl_vec findings;		/* struct ftg_finding */
	struct ftgl_pool pool;
	bool ok;
};

static bool is_live_text(const struct ftg_region *r)
{
	return r->live && ftgl_region_is_text(r->kind);
}

/*
 * What the map says of @addr: stale in a tombstone (freed init, unloaded
 * module) that nothing live replaced, even when an ioremap now reuses the
 * address (that is the danger the tombstone is kept for); foreign under an
 * ioremap alone; ok in live text; foreign anywhere else (a vmalloc area,
 * data, nothing). Sets *@region to the region the verdict is about.
 */
static enum ftg_verdict_kind map_judge(const struct ftg_map *map, uint64_t addr,
				       const struct ftg_region **region)
{
	const struct ftg_region *in[16];
	size_t k, n = ftg_map_lookup(map, addr, in, FTGL_ARRAY_SIZE(in));
	const struct ftg_region *text = NULL, *tomb = NULL, *io = NULL;

	if (n > FTGL_ARRAY_SIZE(in))
		n = FTGL_ARRAY_SIZE(in);
	*region = n ? in[0] : NULL;
	for (k = 0; k < n; k++) {
		if (!io && in[k]->kind == FTG_REGION_IOREMAP)
			io = in[k];
		if (!text && is_live_text(in[k]))
			text = in[k];
		if (!tomb && ftgl_region_is_tombstone(in[k]->kind))
			tomb = in[k];
	}
	if (tomb && (io || !text)) {
		*region = tomb;
		return FTG_VERDICT_STALE;
	}
	if (io) {
		*region = io;
		return FTG_VERDICT_FOREIGN;
	}
	if (text) {
		*region = text;
		return FTG_VERDICT_OK;
	}
	return FTG_VERDICT_FOREIGN;
}

static int explain(struct ftg_verdict *v, struct ftg_finding *f,
		   const struct ftg_map *map)
{
	char where[512], text[1024];
	const char *verdict = ftg_verdict_kind_name(f->module_verdict);

	if (map)
		ftg_map_describe(map, f->addr, where, sizeof(where));
	else
		snprintf(where, sizeof(where), "no address map");
	if (f->module_verdict == FTG_VERDICT_MISMATCH)
		snprintf(text, sizeof(text),
			 "mismatch: %s at 0x%" PRIx64 " holds %s, expected %s (%s)",
			 f->name, f->addr, f->actual, f->expected, where);
	else if (f->module_verdict == FTG_VERDICT_OK)
		snprintf(text, sizeof(text),
			 "ftguard.ko found %s at 0x%" PRIx64 " ok but the map says %s: %s",
			 f->name, f->addr, ftg_verdict_kind_name(f->map_verdict),
			 where);
	else
		snprintf(text, sizeof(text), "%s: %s at 0x%" PRIx64 " lies in %s%s",
			 verdict, f->name, f->addr, where,
			 f->agree ? "" : " (the map disagrees)");
	f->reason = ftgl_pool_strdup(&v->pool, text);
	return f->reason ? 0 : -1;
}

static int add_finding(struct ftg_verdict *v, const struct ftg_check_line *cl,
		       const struct ftg_map *map)
{
	enum ftg_verdict_kind map_verdict = cl->verdict;
	const struct ftg_region *region = NULL;
	struct ftg_finding *f;

	if (map)
		map_verdict = map_judge(map, cl->addr, &region);
	/* The map cannot see bytes: a mismatch in live text agrees. */
	if (cl->verdict == FTG_VERDICT_MISMATCH && map_verdict == FTG_VERDICT_OK)
		map_verdict = FTG_VERDICT_MISMATCH;
	if (cl->verdict == FTG_VERDICT_OK && map_verdict == FTG_VERDICT_OK)
		return 0;
	f = ftgl_vec_push(&v->findings);
	if (!f)
		return -1;
	f->addr = cl->addr;
	f->name = cl->name;
	f->owner = cl->owner;
	f->expected = cl->expected;
	f->actual = cl->actual;
	f->module_verdict = cl->verdict;
	f->map_verdict = map_verdict;
	f->agree = map_verdict == cl->verdict;
	f->region = region;
	return explain(v, f, map);
}

struct ftg_verdict *ftg_verdict_new(const struct ftg_check_report *rep,
				    const struct ftg_map *map)
{
	struct ftg_verdict *v;
	size_t i, n;

	ftg_error_clear();
	if (!rep) {
		ftgl_err(FTG_E_BAD_ARGUMENT, EINVAL, "no check report");
		return NULL;
	}
	v = calloc(1, sizeof(*v));
	if (!v) {
		ftgl_err(FTG_E_SYSTEM, ENOMEM, "out of memory");
		return NULL;
	}
	ftgl_vec_init(&v->findings, sizeof(struct ftg_finding));
	v->report = ftgl_check_report_copy(rep);
	if (!v->report)
		goto fail;
	n = ftg_check_report_count(v->report);
	for (i = 0; i < n; i++)
		if (add_finding(v, ftg_check_report_get(v->report, i), map))
			goto fail;
	v->ok = ftg_check_report_ok(v->report) && !v->findings.len;
	return v;
fail:
	ftg_verdict_free(v);
	return NULL;
}

struct ftg_verdict *ftg_check_run(struct ftg_control *ctl, const struct ftg_map *map)
{
	struct ftg_check_report *rep = ftg_control_check(ctl);
	struct ftg_verdict *v;

	if (!rep)
		return NULL;
	v = ftg_verdict_new(rep, map);
	ftg_check_report_free(rep);
	return v;
}

void ftg_verdict_free(struct ftg_verdict *v)
{
	if (!v)
		return;
	ftg_check_report_free(v->report);
	ftgl_vec_release(&v->findings);
	ftgl_pool_release(&v->pool);
	free(v);
}

bool ftg_verdict_ok(const struct ftg_verdict *v)
{
	return v->ok;
}

uint64_t ftg_verdict_n_ok(const struct ftg_verdict *v)
{
	return ftg_check_report_n_ok(v->report);
}

uint64_t ftg_verdict_n_bad(const struct ftg_verdict *v)
{
	return ftg_check_report_n_bad(v->report);
}

uint64_t ftg_verdict_ms(const struct ftg_verdict *v)
{
	return ftg_check_report_ms(v->report);
}

size_t ftg_verdict_count(const struct ftg_verdict *v)
{
	return v->findings.len;
}

const struct ftg_finding *ftg_verdict_get(const struct ftg_verdict *v, size_t i)
{
	return ftgl_vec_at(&v->findings, i);
}

const struct ftg_check_report *ftg_verdict_report(const struct ftg_verdict *v)
{
	return v->report;
}
