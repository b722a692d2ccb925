// SPDX-License-Identifier: LGPL-2.1
/*
 * ftguard/sites and ftguard/modules (doc/interface.md): one site, or one
 * module (live or a tombstone), per line.
 */
#include <errno.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ftguard-local.h"
#include "kmod-local.h"

/* The public enum keeps its own order; the words are the module's. */
#define SITE_STATE_WORD(id, word) [FTG_SITE_##id] = word,
static const char *const site_state_names[] = { FTGUARD_SITE_STATES(SITE_STATE_WORD) };
#undef SITE_STATE_WORD
_Static_assert(FTGL_ARRAY_SIZE(site_state_names) == FTG_SITE_PLANTED + 1,
	       "every public site state has its word");

#define SECTION_WORD(id, word) [FTG_SECTION_##id] = word,
static const char *const section_names[] = { FTGUARD_SECTIONS(SECTION_WORD) };
#undef SECTION_WORD

const char *ftg_site_state_name(enum ftg_site_state state)
{
	if ((unsigned int)state >= FTGL_ARRAY_SIZE(site_state_names))
		return "?";
	return site_state_names[state];
}

int ftg_site_state_parse(const char *name)
{
	int i = ftgl_name_index(site_state_names, FTGL_ARRAY_SIZE(site_state_names),
			   name);

	ftg_error_clear();
	if (i < 0)
		return ftgl_err(FTG_E_BAD_ARGUMENT, EINVAL, "unknown site state '%s'", name);
	return i;
}

struct ftg_sites {
	struct ftgl_vec sites;	/* struct ftg_site, address order */
	struct ftgl_pool pool;
};

/*
 * Version 1: addr state section owner hits reads name; version 2 appends
 * offset expected actual.
 */
static int parse_site(void *obj, char *line, unsigned long lineno,
		      unsigned int version)
{
	int nfields = version >= 2 ? 10 : 7;
	struct ftg_sites *s = obj;
	struct ftg_site *site;
	char *w[11];
	int state, section;
	uint64_t addr, hits, reads, offset = 0;

	if (ftgl_split(line, w, nfields + 1) != nfields)
		return ftgl_bad_line("sites", lineno, version >= 2 ?
				     "expected 10 fields" : "expected 7 fields");
	state = ftgl_name_index(site_state_names, FTGL_ARRAY_SIZE(site_state_names), w[1]);
	section = ftgl_name_index(section_names, FTGL_ARRAY_SIZE(section_names), w[2]);
	if (ftgl_parse_hex(w[0], &addr) || ftgl_parse_u64(w[4], &hits) ||
	    ftgl_parse_u64(w[5], &reads) ||
	    (version >= 2 && (ftgl_parse_u64(w[7], &offset) || offset > 64)))
		return ftgl_bad_line("sites", lineno, "malformed number");
	if (state < 0)
		return ftgl_bad_line("sites", lineno, "unknown state");
	if (section < 0)
		return ftgl_bad_line("sites", lineno, "unknown section");
	if (version >= 2 && (!ftgl_valid_bytes(w[8]) || !ftgl_valid_bytes(w[9])))
		return ftgl_bad_line("sites", lineno, "malformed bytes");
	site = ftgl_vec_push(&s->sites);
	if (!site)
		return -1;
	site->addr = addr;
	site->state = state;
	site->section = section;
	site->hits = hits;
	site->reads = reads;
	site->offset = offset;
	site->expected = ftgl_pool_strdup(&s->pool, version >= 2 ? w[8] : "-");
	site->actual = ftgl_pool_strdup(&s->pool, version >= 2 ? w[9] : "-");
	site->owner = ftgl_pool_name(&s->pool, w[3], "sites", lineno);
	site->name = site->owner ? ftgl_pool_name(&s->pool, w[6], "sites", lineno) : NULL;
	return site->name && site->expected && site->actual ? 0 : -1;
}

static int cmp_site(const void *a, const void *b)
{
	const struct ftg_site *x = a, *y = b;

	return x->addr < y->addr ? -1 : x->addr > y->addr;
}

static int cmp_site_r(const void *a, const void *b, void *arg)
{
	return cmp_site(a, b);
}

static struct ftg_sites *sites_new(void)
{
	struct ftg_sites *s = calloc(1, sizeof(*s));

	if (!s) {
		ftgl_err(FTG_E_SYSTEM, ENOMEM, "out of memory");
		return NULL;
	}
	ftgl_vec_init(&s->sites, sizeof(struct ftg_site));
	return s;
}

/* After the table frame returned @ret: sorted by address, or freed. */
static struct ftg_sites *sites_done(struct ftg_sites *s, int ret)
{
	if (ret) {
		ftg_sites_free(s);
		return NULL;
	}
	ftgl_sort(s->sites.data, s->sites.len, sizeof(struct ftg_site),
		  cmp_site_r, NULL);
	return s;
}

struct ftg_sites *ftg_sites_parse(const char *text, size_t len)
{
	struct ftg_sites *s;

	ftg_error_clear();
	s = sites_new();
	if (!s)
		return NULL;
	return sites_done(s, ftgl_kmod_table_parse(FTGUARD_TABLE_SITES, "sites", text, len,
						   parse_site, s));
}

struct ftg_sites *ftg_sites_read(const struct ftg_root *root)
{
	struct ftg_sites *s;

	ftg_error_clear();
	s = sites_new();
	if (!s)
		return NULL;
	return sites_done(s, ftgl_kmod_table_read(ftg_root_debugfs(root),
						  FTGUARD_TABLE_SITES, parse_site, s));
}

void ftg_sites_free(struct ftg_sites *sites)
{
	if (!sites)
		return;
	ftgl_vec_release(&sites->sites);
	ftgl_pool_release(&sites->pool);
	free(sites);
}

size_t ftg_sites_count(const struct ftg_sites *sites)
{
	return sites->sites.len;
}

const struct ftg_site *ftg_sites_get(const struct ftg_sites *sites, size_t i)
{
	return ftgl_vec_at(&sites->sites, i);
}

const struct ftg_site *ftg_sites_find(const struct ftg_sites *sites, uint64_t addr)
{
	struct ftg_site key = { .addr = addr };

	return ftgl_search(&key, sites->sites.data, sites->sites.len,
			   sizeof(struct ftg_site), cmp_site);
}

#define KMODULE_STATE_WORD(id, word) [FTG_KMODULE_##id] = word,
static const char *const kmodule_state_names[] = {
	FTGUARD_MODULE_STATES(KMODULE_STATE_WORD)
};
#undef KMODULE_STATE_WORD

/* ftguard.ko prints "live"; doc/interface.md once wrote "init:live":
 * both are read. */
#define INIT_STATE_WORD(id, word) [FTG_INIT_##id] = word,
static const char *const init_state_names[] = {
	FTGUARD_INIT_STATES(INIT_STATE_WORD)
};
#undef INIT_STATE_WORD
_Static_assert(FTGL_ARRAY_SIZE(kmodule_state_names) == FTG_KMODULE_GONE + 1,
	       "every public module state has its word");
_Static_assert(FTGL_ARRAY_SIZE(init_state_names) == 3,
	       "every public init state has its word");

static int parse_init_state(const char *word)
{
	if (!strncmp(word, "init:", 5))
		word += 5;
	return ftgl_name_index(init_state_names, FTGL_ARRAY_SIZE(init_state_names),
			  word);
}

/* Sizes are decimal; a 0x prefix is read as hex. */
static int parse_size(const char *word, uint64_t *out)
{
	if (word[0] == '0' && (word[1] == 'x' || word[1] == 'X'))
		return ftgl_parse_hex(word, out);
	return ftgl_parse_u64(word, out);
}

const char *ftg_kmodule_state_name(enum ftg_kmodule_state state)
{
	if ((unsigned int)state >= FTGL_ARRAY_SIZE(kmodule_state_names))
		return "?";
	return kmodule_state_names[state];
}

struct ftg_kmodules {
	struct ftgl_vec mods;	/* struct ftg_kmodule, table order */
	struct ftgl_pool pool;
};

static int parse_kmodule(void *obj, char *line, unsigned long lineno,
			 unsigned int version)
{
	struct ftg_kmodules *km = obj;
	struct ftg_kmodule *m;
	char *w[10];
	int state, init;
	uint64_t v[6];

	if (ftgl_split(line, w, 10) != 9)
		return ftgl_bad_line("modules", lineno, "expected 9 fields");
	state = ftgl_name_index(kmodule_state_names,
			   FTGL_ARRAY_SIZE(kmodule_state_names), w[1]);
	init = parse_init_state(w[6]);
	if (state < 0)
		return ftgl_bad_line("modules", lineno, "unknown state");
	if (init < 0)
		return ftgl_bad_line("modules", lineno, "unknown init state");
	if (ftgl_parse_hex(w[2], &v[0]) || parse_size(w[3], &v[1]) ||
	    ftgl_parse_hex(w[4], &v[2]) || parse_size(w[5], &v[3]) ||
	    ftgl_parse_u64(w[7], &v[4]) || ftgl_parse_u64(w[8], &v[5]))
		return ftgl_bad_line("modules", lineno, "malformed number");
	m = ftgl_vec_push(&km->mods);
	if (!m)
		return -1;
	m->state = state;
	m->init = init;
	m->core_base = v[0];
	m->core_text_size = v[1];
	m->init_base = v[2];
	m->init_text_size = v[3];
	m->dropped_ms = v[4];
	m->nsites = v[5];
	m->name = ftgl_pool_name(&km->pool, w[0], "modules", lineno);
	return m->name ? 0 : -1;
}

static struct ftg_kmodules *kmodules_new(void)
{
	struct ftg_kmodules *km = calloc(1, sizeof(*km));

	if (!km) {
		ftgl_err(FTG_E_SYSTEM, ENOMEM, "out of memory");
		return NULL;
	}
	ftgl_vec_init(&km->mods, sizeof(struct ftg_kmodule));
	return km;
}

/* After the table frame returned @ret: the table, or freed. */
static struct ftg_kmodules *kmodules_done(struct ftg_kmodules *km, int ret)
{
	if (!ret)
		return km;
	ftg_kmodules_free(km);
	return NULL;
}

struct ftg_kmodules *ftg_kmodules_parse(const char *text, size_t len)
{
	struct ftg_kmodules *km;

	ftg_error_clear();
	km = kmodules_new();
	if (!km)
		return NULL;
	return kmodules_done(km, ftgl_kmod_table_parse(FTGUARD_TABLE_MODULES, "modules", text,
						       len, parse_kmodule, km));
}

struct ftg_kmodules *ftg_kmodules_read(const struct ftg_root *root)
{
	struct ftg_kmodules *km;

	ftg_error_clear();
	km = kmodules_new();
	if (!km)
		return NULL;
	return kmodules_done(km, ftgl_kmod_table_read(ftg_root_debugfs(root),
						      FTGUARD_TABLE_MODULES,
						      parse_kmodule, km));
}

void ftg_kmodules_free(struct ftg_kmodules *mods)
{
	if (!mods)
		return;
	ftgl_vec_release(&mods->mods);
	ftgl_pool_release(&mods->pool);
	free(mods);
}

size_t ftg_kmodules_count(const struct ftg_kmodules *mods)
{
	return mods->mods.len;
}

const struct ftg_kmodule *ftg_kmodules_get(const struct ftg_kmodules *mods, size_t i)
{
	return ftgl_vec_at(&mods->mods, i);
}

const struct ftg_kmodule *ftg_kmodules_find(const struct ftg_kmodules *mods,
					    const char *name)
{
	const struct ftg_kmodule *found = NULL;
	size_t i;

	for (i = 0; i < mods->mods.len; i++) {
		const struct ftg_kmodule *m = ftgl_vec_at(&mods->mods, i);

		if (strcmp(m->name, name))
			continue;
		if (m->state != FTG_KMODULE_GONE)
			return m;
		found = m;
	}
	return found;
}
