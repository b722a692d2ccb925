// SPDX-License-Identifier: LGPL-2.1
/*
 * Candidate sites: (name, address, owner) in address order, one entry per
 * address. Also the vmlinux candidates the module is offered before a
 * check or an arm.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "ftguard-local.h"

struct ftg_candidates {
	struct ftgl_vec cands;	/* struct ftg_candidate, address order */
	struct ftgl_pool pool;
};

struct ftg_candidates *ftg_candidates_new(void)
{
	struct ftg_candidates *c = calloc(1, sizeof(*c));

	ftg_error_clear();
	if (!c) {
		ftgl_err(FTG_E_SYSTEM, ENOMEM, "out of memory");
		return NULL;
	}
	ftgl_vec_init(&c->cands, sizeof(struct ftg_candidate));
	return c;
}

struct ftg_candidates *ftg_candidates_without(const struct ftg_candidates *c,
					      const struct ftg_candidates *drop)
{
	const struct ftg_candidate *v = c->cands.data;
	const struct ftg_candidate *d = drop ? drop->cands.data : NULL;
	size_t i, j = 0, nd = drop ? drop->cands.len : 0;
	struct ftg_candidates *kept = ftg_candidates_new();

	/* both in address order: one walk splits them */
	for (i = 0; kept && i < c->cands.len; i++) {
		while (j < nd && d[j].addr < v[i].addr)
			j++;
		if (j < nd && d[j].addr == v[i].addr)
			continue;
		if (ftg_candidates_add(kept, v[i].name, v[i].addr,
				       v[i].module) < 0) {
			ftg_candidates_free(kept);
			kept = NULL;
		}
	}
	if (!kept)
		ftgl_err(FTG_E_SYSTEM, ENOMEM, "out of memory");
	return kept;
}

void ftg_candidates_free(struct ftg_candidates *c)
{
	if (!c)
		return;
	ftgl_vec_release(&c->cands);
	ftgl_pool_release(&c->pool);
	free(c);
}

/* Index of the first candidate whose address is >= @addr. */
static size_t lower_bound(const struct ftg_candidates *c, uint64_t addr)
{
	const struct ftg_candidate *v = c->cands.data;
	size_t lo = 0, hi = c->cands.len;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (v[mid].addr < addr)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

int ftg_candidates_add(struct ftg_candidates *c, const char *name,
		       uint64_t addr, const char *module)
{
	size_t pos = lower_bound(c, addr);
	struct ftg_candidate *v, entry = { .addr = addr };

	ftg_error_clear();
	if (pos < c->cands.len &&
	    ((struct ftg_candidate *)c->cands.data)[pos].addr == addr)
		return 0;
	if (module && !strcmp(module, "vmlinux"))
		module = NULL;
	entry.name = ftgl_pool_strdup(&c->pool, name);
	entry.module = module ? ftgl_pool_strdup(&c->pool, module) : NULL;
	if (!entry.name || (module && !entry.module))
		return -1;
	if (!ftgl_vec_push(&c->cands))
		return -1;
	v = c->cands.data;
	memmove(&v[pos + 1], &v[pos], (c->cands.len - 1 - pos) * sizeof(*v));
	v[pos] = entry;
	return 1;
}

size_t ftg_candidates_count(const struct ftg_candidates *c)
{
	return c->cands.len;
}

const struct ftg_candidate *ftg_candidates_get(const struct ftg_candidates *c,
					       size_t i)
{
	return ftgl_vec_at(&c->cands, i);
}

/*
 * What print_rec() prints for a record that no symbol covers (a weak
 * function the linker dropped): no function, nothing to offer.
 */
bool ftgl_ftrace_name_invalid(const char *name)
{
	static const char prefix[] = "__ftrace_invalid_address__";

	return !strncmp(name, prefix, sizeof(prefix) - 1);
}

/* 6.1: the names only; every text address kallsyms has for one is a
 * candidate, and on these kernels the record is at that address. */
static int add_joined(struct ftg_candidates *c, const struct ftg_kallsyms *ks,
		      const char *name)
{
	const struct ftg_ksym *syms[256];
	size_t k, found;

	if (!ks)
		return 0;
	found = ftg_kallsyms_find(ks, name, "vmlinux", syms, FTGL_ARRAY_SIZE(syms));
	if (found > FTGL_ARRAY_SIZE(syms))
		found = FTGL_ARRAY_SIZE(syms);
	for (k = 0; k < found; k++) {
		if (!ftgl_ksym_is_text(syms[k]->type) || !syms[k]->addr)
			continue;
		if (ftg_candidates_add(c, name, syms[k]->addr, NULL) < 0)
			return -1;
	}
	return 0;
}

struct ftg_candidates *ftg_candidates_vmlinux(const struct ftg_kallsyms *ks,
					      const struct ftg_ftrace_funcs *avail)
{
	struct ftg_candidates *c = ftg_candidates_new();
	size_t i, n = avail ? ftg_ftrace_funcs_count(avail) : 0;

	if (!c)
		return NULL;
	for (i = 0; i < n; i++) {
		const struct ftg_ftrace_func *f = ftg_ftrace_funcs_get(avail, i);
		int ret;

		if (f->module || ftgl_ftrace_name_invalid(f->name))
			continue;
		if (f->addr)
			ret = ftg_candidates_add(c, f->name, f->addr, NULL) < 0;
		else
			ret = add_joined(c, ks, f->name);
		if (ret) {
			ftg_candidates_free(c);
			return NULL;
		}
	}
	return c;
}
