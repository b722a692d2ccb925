// SPDX-License-Identifier: LGPL-2.1
/*
 * The kernel's ftrace function lists in tracefs:
 *   available_filter_functions  "vfs_read" / "e1000_probe [e1000e]"
 *   enabled_functions           "vfs_read (1) R  \ttramp: 0x... ->..."
 *   touched_functions (6.4+)    same shape as enabled_functions
 *   available_filter_functions_addrs (6.5+)
 *                               "ffffffff81234564 vfs_read" (the record)
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "ftguard-local.h"

struct ftg_ftrace_funcs {
	struct ftgl_vec funcs;	/* struct ftg_ftrace_func, file order */
	struct ftgl_pool pool;
	size_t skipped;
	size_t *by_name;	/* indexes into funcs */
	bool has_addrs;		/* read from ..._addrs */
	const char *last_module;	/* parsing: the module name last interned */
};

static const char *const ftrace_file_names[] = {
	[FTG_FTRACE_AVAILABLE] = "available_filter_functions",
	[FTG_FTRACE_ENABLED] = "enabled_functions",
	[FTG_FTRACE_TOUCHED] = "touched_functions",
	[FTG_FTRACE_AVAILABLE_ADDRS] = "available_filter_functions_addrs",
};

static char *skip_blanks(char *p)
{
	while (*p == ' ' || *p == '\t')
		p++;
	return p;
}

/* Cuts the next blank-separated word off *@p. */
static char *next_word(char **p)
{
	char *w = skip_blanks(*p), *e = w;

	while (*e && *e != ' ' && *e != '\t')
		e++;
	*p = *e ? e + 1 : e;
	*e = '\0';
	return w;
}

static int parse_line(void *obj, char *line)
{
	struct ftg_ftrace_funcs *ff = obj;
	const char **last_module = &ff->last_module;
	struct ftg_ftrace_func *f;
	char *p = line, *name, *rest;
	const char *module = NULL;
	int refcount = -1;
	uint64_t addr = 0;

	if (ff->has_addrs && ftgl_parse_hex(next_word(&p), &addr))
		return -1;
	name = next_word(&p);
	if (!*name)
		return -1;
	rest = skip_blanks(p);
	if (*rest == '[') {
		char *w = next_word(&rest);
		size_t len = strlen(w);

		if (len < 3 || w[len - 1] != ']')
			return -1;
		w[len - 1] = '\0';
		if (!*last_module || strcmp(*last_module, w + 1))
			*last_module = ftgl_pool_strdup(&ff->pool, w + 1);
		if (!*last_module)
			return -2;
		module = *last_module;
		rest = skip_blanks(rest);
	}
	if (*rest == '(') {
		char *w = next_word(&rest);
		size_t len = strlen(w);

		if (len < 3 || w[len - 1] != ')')
			return -1;
		w[len - 1] = '\0';
		if (ftgl_parse_int(w + 1, &refcount))
			return -1;
		rest = skip_blanks(rest);
	}
	f = ftgl_vec_push(&ff->funcs);
	if (!f)
		return -2;
	f->name = ftgl_pool_strdup(&ff->pool, name);
	f->module = module;
	f->refcount = refcount;
	f->addr = addr;
	f->flags = ftgl_pool_strdup(&ff->pool, rest);
	return f->name && f->flags ? 0 : -2;
}

/* Index comparator; @arg is the entry array. */
static int cmp_name(const void *a, const void *b, void *arg)
{
	const struct ftg_ftrace_func *funcs = arg;
	size_t i = *(const size_t *)a, j = *(const size_t *)b;
	int c = strcmp(funcs[i].name, funcs[j].name);

	return c ? c : (i < j ? -1 : i > j);
}

/*
 * The records with their addresses when the kernel lists them (6.5+), so
 * that nothing has to guess where a function's patch site is; the names
 * alone otherwise.
 */
static char *read_available(const char *tracefs_dir, enum ftg_ftrace_file *which,
			    size_t *len)
{
	char *buf = ftgl_read_file(tracefs_dir,
				   ftrace_file_names[FTG_FTRACE_AVAILABLE_ADDRS], len);

	if (buf || errno != ENOENT)
		return buf;
	/* an older kernel: not a failure, so it leaves no message */
	ftg_error_clear();
	*which = FTG_FTRACE_AVAILABLE;
	return ftgl_read_file(tracefs_dir, ftrace_file_names[*which], len);
}

struct ftg_ftrace_funcs *ftg_ftrace_funcs_read(const struct ftg_root *root,
					       enum ftg_ftrace_file which)
{
	const char *tracefs_dir = ftg_root_tracefs(root);
	struct ftg_ftrace_funcs *ff;
	char *buf;
	size_t len, i;

	ftg_error_clear();
	if ((unsigned int)which >= FTGL_ARRAY_SIZE(ftrace_file_names)) {
		ftgl_err(FTG_E_BAD_ARGUMENT, EINVAL, "unknown ftrace file %d", which);
		return NULL;
	}
	if (which == FTG_FTRACE_AVAILABLE) {
		which = FTG_FTRACE_AVAILABLE_ADDRS;
		buf = read_available(tracefs_dir, &which, &len);
	} else {
		buf = ftgl_read_file(tracefs_dir, ftrace_file_names[which], &len);
	}
	if (!buf) {
		if (errno == ENOENT && which == FTG_FTRACE_AVAILABLE)
			ftgl_err(FTG_E_NO_TRACEFS, ENOENT,
				 "%s/available_filter_functions is missing: tracefs is not mounted there (mount -t tracefs none /sys/kernel/tracing)",
				 tracefs_dir);
		return NULL;
	}
	ff = calloc(1, sizeof(*ff));
	if (!ff) {
		free(buf);
		ftgl_err(FTG_E_SYSTEM, ENOMEM, "out of memory");
		return NULL;
	}
	ftgl_vec_init(&ff->funcs, sizeof(struct ftg_ftrace_func));
	ff->has_addrs = which == FTG_FTRACE_AVAILABLE_ADDRS;
	if (ftgl_parse_lines(ftrace_file_names[which], buf, len, parse_line, ff,
			     &ff->skipped))
		goto fail;
	free(buf);
	buf = NULL;
	ff->by_name = malloc((ff->funcs.len ? ff->funcs.len : 1) * sizeof(size_t));
	if (!ff->by_name) {
		ftgl_err(FTG_E_SYSTEM, ENOMEM, "%s: out of memory", ftrace_file_names[which]);
		goto fail;
	}
	for (i = 0; i < ff->funcs.len; i++)
		ff->by_name[i] = i;
	ftgl_sort(ff->by_name, ff->funcs.len, sizeof(size_t), cmp_name,
		  ff->funcs.data);
	return ff;
fail:
	free(buf);
	ftg_ftrace_funcs_free(ff);
	return NULL;
}

void ftg_ftrace_funcs_free(struct ftg_ftrace_funcs *ff)
{
	if (!ff)
		return;
	ftgl_vec_release(&ff->funcs);
	ftgl_pool_release(&ff->pool);
	free(ff->by_name);
	free(ff);
}

size_t ftg_ftrace_funcs_count(const struct ftg_ftrace_funcs *ff)
{
	return ff->funcs.len;
}

size_t ftg_ftrace_funcs_skipped(const struct ftg_ftrace_funcs *ff)
{
	return ff->skipped;
}

bool ftg_ftrace_funcs_has_addrs(const struct ftg_ftrace_funcs *ff)
{
	return ff->has_addrs;
}

const struct ftg_ftrace_func *ftg_ftrace_funcs_get(const struct ftg_ftrace_funcs *ff,
						   size_t i)
{
	return ftgl_vec_at(&ff->funcs, i);
}

size_t ftg_ftrace_funcs_has(const struct ftg_ftrace_funcs *ff, const char *name,
			    const char *module)
{
	const struct ftg_ftrace_func *funcs = ff->funcs.data;
	size_t lo = 0, hi = ff->funcs.len, found = 0;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (strcmp(funcs[ff->by_name[mid]].name, name) < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	for (; lo < ff->funcs.len; lo++) {
		const struct ftg_ftrace_func *f = &funcs[ff->by_name[lo]];

		if (strcmp(f->name, name))
			break;
		if (!module || (!strcmp(module, "vmlinux") ? !f->module :
				(f->module && !strcmp(f->module, module))))
			found++;
	}
	return found;
}
