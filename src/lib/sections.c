// SPDX-License-Identifier: LGPL-2.1
/*
 * /sys/module/<module>/sections/<section>: one file per ELF section of a
 * loaded module holding its address ("0xffffffffc0a01000"). Built-in
 * modules have no sections directory. Without root the kernel shows 0.
 */
#include <dirent.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "ftguard-local.h"

struct ftg_sections {
	struct ftgl_vec secs;	/* struct ftg_section */
	struct ftgl_pool pool;
	size_t skipped;
};

/* Reads one section file; -1 malformed (skipped), -2 fatal. */
static int read_section(struct ftg_sections *sec, const char *dir,
			const char *module, const char *name)
{
	struct ftg_section *s;
	uint64_t addr;
	size_t len;
	char *buf = ftgl_read_file(dir, name, &len);
	char *nl;

	if (!buf)
		return -1;
	nl = strchr(buf, '\n');
	if (nl && nl[1] == '\0')
		*nl = '\0';
	if (ftgl_parse_hex(buf, &addr)) {
		free(buf);
		return -1;
	}
	free(buf);
	s = ftgl_vec_push(&sec->secs);
	if (!s)
		return -2;
	s->module = module;
	s->name = ftgl_pool_strdup(&sec->pool, name);
	s->addr = addr;
	return s->name ? 0 : -2;
}

static int read_module(struct ftg_sections *sec, const char *mod_dir,
		       const char *module)
{
	const char *pooled;
	struct dirent *de;
	char *dir;
	DIR *d;
	int ret = 0;

	if (asprintf(&dir, "%s/%s/sections", mod_dir, module) < 0)
		return -2;
	d = opendir(dir);
	if (!d) {
		free(dir);
		return 0;	/* built-in module */
	}
	pooled = ftgl_pool_strdup(&sec->pool, module);
	while (pooled && ret != -2 && (de = readdir(d))) {
		if (!strcmp(de->d_name, ".") || !strcmp(de->d_name, ".."))
			continue;
		ret = read_section(sec, dir, pooled, de->d_name);
		if (ret == -1)
			sec->skipped++;
	}
	closedir(d);
	free(dir);
	return pooled ? (ret == -2 ? -2 : 0) : -2;
}

static int cmp_section(const void *a, const void *b)
{
	const struct ftg_section *x = a, *y = b;
	int c = strcmp(x->module, y->module);

	return c ? c : strcmp(x->name, y->name);
}

static int cmp_section_r(const void *a, const void *b, void *arg)
{
	return cmp_section(a, b);
}

struct ftg_sections *ftg_sections_read(const struct ftg_root *root)
{
	struct ftg_sections *sec = calloc(1, sizeof(*sec));
	char *mod_dir = ftgl_path(ftg_root_sys(root), "module");
	struct dirent *de;
	DIR *d = NULL;

	ftg_error_clear();
	if (!sec || !mod_dir) {
		ftgl_err(FTG_E_SYSTEM, ENOMEM, "out of memory");
		goto fail;
	}
	ftgl_vec_init(&sec->secs, sizeof(struct ftg_section));
	d = opendir(mod_dir);
	while (d && (de = readdir(d))) {
		if (de->d_name[0] == '.')
			continue;
		if (read_module(sec, mod_dir, de->d_name) == -2) {
			ftgl_err_prefix("%s", mod_dir);
			goto fail;
		}
	}
	if (d)
		closedir(d);
	free(mod_dir);
	ftgl_sort(sec->secs.data, sec->secs.len, sizeof(struct ftg_section),
		  cmp_section_r, NULL);
	if (sec->skipped)
		ftgl_warn("module sections: %zu unreadable or malformed files skipped",
			  sec->skipped);
	return sec;
fail:
	if (d)
		closedir(d);
	free(mod_dir);
	ftg_sections_free(sec);
	return NULL;
}

void ftg_sections_free(struct ftg_sections *sec)
{
	if (!sec)
		return;
	ftgl_vec_release(&sec->secs);
	ftgl_pool_release(&sec->pool);
	free(sec);
}

size_t ftg_sections_count(const struct ftg_sections *sec)
{
	return sec->secs.len;
}

size_t ftg_sections_skipped(const struct ftg_sections *sec)
{
	return sec->skipped;
}

const struct ftg_section *ftg_sections_get(const struct ftg_sections *sec, size_t i)
{
	return ftgl_vec_at(&sec->secs, i);
}

int ftg_sections_find(const struct ftg_sections *sec, const char *module,
		      const char *section, uint64_t *addr)
{
	struct ftg_section key = { .module = module, .name = section };
	const struct ftg_section *s;

	ftg_error_clear();
	s = ftgl_search(&key, sec->secs.data, sec->secs.len,
			sizeof(struct ftg_section), cmp_section);
	if (!s)
		return ftgl_err(FTG_E_SYSTEM, ENOENT, "module %s has no section %s",
				module, section);
	*addr = s->addr;
	return 0;
}
