// SPDX-License-Identifier: LGPL-2.1
/*
 * /proc/kallsyms: "ffffffff81000000 T _stext" and, for modules,
 * "ffffffffc0a01000 t fn_a\t[target]". Kept in file order, with two
 * indexes: by name (duplicated static names) and text symbols by address.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "ftguard-local.h"

struct ftg_kallsyms {
	struct ftgl_vec syms;		/* struct ftg_ksym, file order */
	struct ftgl_pool pool;
	size_t skipped;
	size_t *by_name;		/* indexes into syms */
	size_t *by_addr;		/* text symbols only */
	size_t n_text;
	char *text;			/* the file as read, for trace.dat */
	size_t text_len;
	const char *last_module;	/* parsing: the module name last interned */
};

/* Index comparators; @arg is the symbol array. */
static int cmp_name(const void *a, const void *b, void *arg)
{
	const struct ftg_ksym *syms = arg;
	const struct ftg_ksym *x = &syms[*(const size_t *)a];
	const struct ftg_ksym *y = &syms[*(const size_t *)b];
	int c = strcmp(x->name, y->name);

	if (c)
		return c;
	return x->addr < y->addr ? -1 : x->addr > y->addr;
}

static int cmp_addr(const void *a, const void *b, void *arg)
{
	const struct ftg_ksym *syms = arg;
	size_t i = *(const size_t *)a, j = *(const size_t *)b;
	const struct ftg_ksym *x = &syms[i], *y = &syms[j];

	if (x->addr != y->addr)
		return x->addr < y->addr ? -1 : 1;
	return i < j ? -1 : i > j;	/* stable: file order */
}

static int parse_line(void *obj, char *line)
{
	struct ftg_kallsyms *ks = obj;
	const char **last_module = &ks->last_module;
	struct ftgl_ksym_line l;
	struct ftg_ksym *sym;

	if (ftgl_ksym_line_parse(line, &l))
		return -1;
	sym = ftgl_vec_push(&ks->syms);
	if (!sym)
		return -2;
	sym->addr = l.addr;
	sym->type = l.type;
	sym->name = ftgl_pool_strdup(&ks->pool, l.name);
	if (l.module) {
		if (!*last_module || strcmp(*last_module, l.module))
			*last_module = ftgl_pool_strdup(&ks->pool, l.module);
		sym->module = *last_module;
	}
	if (!sym->name || (l.module && !sym->module))
		return -2;
	return 0;
}

static int build_indexes(struct ftg_kallsyms *ks)
{
	const struct ftg_ksym *syms = ks->syms.data;
	size_t i, n = ks->syms.len;

	ks->by_name = malloc((n ? n : 1) * sizeof(size_t));
	ks->by_addr = malloc((n ? n : 1) * sizeof(size_t));
	if (!ks->by_name || !ks->by_addr)
		return ftgl_err(FTG_E_SYSTEM, ENOMEM, "out of memory");
	for (i = 0; i < n; i++) {
		ks->by_name[i] = i;
		if (ftgl_ksym_is_text(syms[i].type))
			ks->by_addr[ks->n_text++] = i;
	}
	ftgl_sort(ks->by_name, n, sizeof(size_t), cmp_name, ks->syms.data);
	ftgl_sort(ks->by_addr, ks->n_text, sizeof(size_t), cmp_addr,
		  ks->syms.data);
	return 0;
}

static struct ftg_kallsyms *kallsyms_parse(char *buf, size_t len)
{
	struct ftg_kallsyms *ks = calloc(1, sizeof(*ks));

	if (!ks) {
		ftgl_err(FTG_E_SYSTEM, ENOMEM, "out of memory");
		return NULL;
	}
	ftgl_vec_init(&ks->syms, sizeof(struct ftg_ksym));
	if (ftgl_parse_lines("kallsyms", buf, len, parse_line, ks, &ks->skipped))
		goto fail;
	if (build_indexes(ks)) {
		ftgl_err_prefix("kallsyms");
		goto fail;
	}
	return ks;
fail:
	ftg_kallsyms_free(ks);
	return NULL;
}

struct ftg_kallsyms *ftg_kallsyms_read(const struct ftg_root *root)
{
	struct ftg_kallsyms *ks;
	size_t len;
	char *buf, *text;

	ftg_error_clear();
	buf = ftgl_read_file(ftg_root_proc(root), "kallsyms", &len);
	if (!buf)
		return NULL;
	/* The parser cuts its buffer into lines; the text is kept whole. */
	text = malloc(len + 1);
	if (!text) {
		free(buf);
		ftgl_err(FTG_E_SYSTEM, ENOMEM, "out of memory");
		return NULL;
	}
	memcpy(text, buf, len);
	text[len] = '\0';
	ks = kallsyms_parse(buf, len);
	free(buf);
	if (!ks) {
		free(text);
		return NULL;
	}
	ks->text = text;
	ks->text_len = len;
	return ks;
}

const char *ftg_kallsyms_text(const struct ftg_kallsyms *ks, size_t *len)
{
	if (len)
		*len = ks->text_len;
	return ks->text;
}

void ftg_kallsyms_free(struct ftg_kallsyms *ks)
{
	if (!ks)
		return;
	free(ks->text);
	ftgl_vec_release(&ks->syms);
	ftgl_pool_release(&ks->pool);
	free(ks->by_name);
	free(ks->by_addr);
	free(ks);
}

size_t ftg_kallsyms_count(const struct ftg_kallsyms *ks)
{
	return ks->syms.len;
}

size_t ftg_kallsyms_skipped(const struct ftg_kallsyms *ks)
{
	return ks->skipped;
}

const struct ftg_ksym *ftg_kallsyms_get(const struct ftg_kallsyms *ks, size_t i)
{
	return ftgl_vec_at(&ks->syms, i);
}

static bool owner_matches(const char *sym_module, const char *want)
{
	if (!want)
		return true;
	if (!strcmp(want, "vmlinux"))
		return !sym_module;
	return sym_module && !strcmp(sym_module, want);
}

size_t ftg_kallsyms_find(const struct ftg_kallsyms *ks, const char *name,
			 const char *module, const struct ftg_ksym **out,
			 size_t max)
{
	const struct ftg_ksym *syms = ks->syms.data;
	size_t lo = 0, hi = ks->syms.len, found = 0;

	while (lo < hi) {	/* first index whose name is >= @name */
		size_t mid = lo + (hi - lo) / 2;

		if (strcmp(syms[ks->by_name[mid]].name, name) < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	for (; lo < ks->syms.len; lo++) {
		const struct ftg_ksym *s = &syms[ks->by_name[lo]];

		if (strcmp(s->name, name))
			break;
		if (!owner_matches(s->module, module))
			continue;
		if (found < max && out)
			out[found] = s;
		found++;
	}
	return found;
}

const struct ftg_ksym *ftg_kallsyms_lookup(const struct ftg_kallsyms *ks,
					   uint64_t addr, uint64_t *offset)
{
	const struct ftg_ksym *syms = ks->syms.data, *s;
	size_t lo = 0, hi = ks->n_text;

	while (lo < hi) {	/* first text symbol above @addr */
		size_t mid = lo + (hi - lo) / 2;

		if (syms[ks->by_addr[mid]].addr <= addr)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (!lo)
		return NULL;
	s = &syms[ks->by_addr[lo - 1]];
	if (offset)
		*offset = addr - s->addr;
	return s;
}

int ftg_kallsyms_text_bounds(const struct ftg_kallsyms *ks, uint64_t *start,
			     uint64_t *end)
{
	const struct ftg_ksym *s = NULL, *e = NULL;

	ftg_error_clear();
	ftg_kallsyms_find(ks, "_stext", "vmlinux", &s, 1);
	ftg_kallsyms_find(ks, "_etext", "vmlinux", &e, 1);
	if (!s || !e || !s->addr || e->addr <= s->addr)
		return ftgl_err(FTG_E_SYSTEM, ENOENT,
				"kallsyms: no _stext/_etext addresses (is kptr_restrict hiding them? run as root)");
	*start = s->addr;
	*end = e->addr;
	return 0;
}
