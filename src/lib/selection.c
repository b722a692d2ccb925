// SPDX-License-Identifier: LGPL-2.1
/*
 * Selection: -l/-n patterns and -m modules expanded into candidate sites.
 * A function is a candidate when available_filter_functions lists it (so
 * ftrace has a record for it). Its address is that record, as
 * available_filter_functions_addrs gives it (6.5+); on older kernels
 * kallsyms gives it, and a static name shared by several functions yields
 * every address, unless the pattern pins one with NAME@ADDR. The same
 * patterns also resolve over ftguard.ko's sites (a module's sites are its
 * ftrace records), which is all a selection of module functions needs.
 */
#include <errno.h>
#include <fnmatch.h>
#include <stdlib.h>
#include <string.h>

#include "ftguard-local.h"

struct pattern {
	char *module;		/* NULL: any owner; "vmlinux": the core */
	char *glob;
	uint64_t addr;		/* NAME@ADDR; 0: any address */
	char *text;		/* as given, for messages */
	bool matched;
};

struct ftg_selection {
	struct ftgl_vec include;	/* struct pattern */
	struct ftgl_vec exclude;	/* struct pattern */
	struct ftgl_vec modules;	/* char * */
};

struct ftg_selection *ftg_selection_new(void)
{
	struct ftg_selection *sel = calloc(1, sizeof(*sel));

	if (!sel) {
		ftgl_err(FTG_E_SYSTEM, ENOMEM, "out of memory");
		return NULL;
	}
	ftgl_vec_init(&sel->include, sizeof(struct pattern));
	ftgl_vec_init(&sel->exclude, sizeof(struct pattern));
	ftgl_vec_init(&sel->modules, sizeof(char *));
	return sel;
}

static void release_patterns(struct ftgl_vec *v)
{
	size_t i;

	for (i = 0; i < v->len; i++) {
		struct pattern *p = ftgl_vec_at(v, i);

		free(p->module);
		free(p->glob);
		free(p->text);
	}
	ftgl_vec_release(v);
}

void ftg_selection_free(struct ftg_selection *sel)
{
	size_t i;

	if (!sel)
		return;
	release_patterns(&sel->include);
	release_patterns(&sel->exclude);
	for (i = 0; i < sel->modules.len; i++)
		free(*(char **)ftgl_vec_at(&sel->modules, i));
	ftgl_vec_release(&sel->modules);
	free(sel);
}

/* fnmatch() cannot report a malformed glob: an unclosed '[' just never
 * matches. Refuse it so that a typo is not "no function matches". */
static bool glob_valid(const char *glob)
{
	const char *p;

	for (p = glob; *p; p++) {
		if (*p == '\\' && p[1]) {
			p++;
			continue;
		}
		if (*p != '[')
			continue;
		p++;
		if (*p == '!' || *p == '^')
			p++;
		if (*p == ']')
			p++;
		while (*p && *p != ']')
			p++;
		if (!*p)
			return false;
	}
	return true;
}

/*
 * trace-cmd's (and set_ftrace_filter's) GLOB:mod:MODULE, GLOB empty for
 * every function of MODULE: sets the module and name parts of @text.
 * Return: true when @text has that form.
 */
static bool split_mod_form(const char *text, const char **mod, size_t *mod_len,
			   const char **name, size_t *name_len)
{
	const char *tag = strstr(text, ":mod:");

	if (!tag)
		return false;
	*mod = tag + strlen(":mod:");
	*mod_len = strlen(*mod);
	*name = tag == text ? "*" : text;
	*name_len = tag == text ? 1 : (size_t)(tag - text);
	return true;
}

int ftg_pattern_addr(const char *pattern, uint64_t *addr, size_t *at)
{
	const char *sign = strrchr(pattern, '@');

	ftg_error_clear();
	if (!sign)
		return 0;
	/* Hex as every kernel table prints addresses; 0 is no function's. */
	if (ftgl_parse_hex(sign + 1, addr) || !*addr)
		return ftgl_err(FTG_E_BAD_PATTERN, EINVAL,
				"bad address after '@' (want NAME@0xADDR)");
	*at = (size_t)(sign - pattern);
	return 1;
}

static int parse_pattern(struct pattern *p, const char *text)
{
	const char *colon = strchr(text, ':');
	const char *mod = text, *name = colon ? colon + 1 : text;
	size_t mod_len = colon ? (size_t)(colon - text) : 0;
	size_t name_len = strlen(name);
	int pinned;
	size_t at;

	if (split_mod_form(text, &mod, &mod_len, &name, &name_len)) {
		if (!mod_len || strchr(mod, ':'))
			return ftgl_err(FTG_E_BAD_PATTERN, EINVAL,
					"\"%s\": want GLOB:mod:MODULE", text);
		colon = mod;	/* a module is given */
	} else if (colon && colon == text) {
		return ftgl_err(FTG_E_BAD_PATTERN, EINVAL,
				"\"%s\": empty module before ':'", text);
	}
	p->text = strdup(text);
	p->module = colon ? strndup(mod, mod_len) : NULL;
	p->glob = strndup(name, name_len);
	if (!p->text || (colon && !p->module) || !p->glob)
		return ftgl_err(FTG_E_SYSTEM, ENOMEM, "out of memory");
	pinned = ftg_pattern_addr(p->glob, &p->addr, &at);
	if (pinned < 0)
		return ftgl_err_prefix("\"%s\"", text);
	if (pinned)
		p->glob[at] = '\0';
	if (!*p->glob)
		return ftgl_err(FTG_E_BAD_PATTERN, EINVAL,
				"\"%s\": empty function name", text);
	if (!glob_valid(p->glob))
		return ftgl_err(FTG_E_BAD_PATTERN, EINVAL,
				"\"%s\": unbalanced '[' in glob", text);
	return 0;
}

static int add_pattern(struct ftgl_vec *v, const char *text)
{
	struct pattern *p;

	if (!text || !*text)
		return ftgl_err(FTG_E_BAD_PATTERN, EINVAL, "empty pattern");
	p = ftgl_vec_push(v);
	if (!p)
		return -1;
	if (parse_pattern(p, text)) {
		free(p->text);
		free(p->module);
		free(p->glob);
		v->len--;
		return -1;
	}
	return 0;
}

int ftg_selection_add(struct ftg_selection *sel, const char *pattern)
{
	return add_pattern(&sel->include, pattern);
}

int ftg_selection_exclude(struct ftg_selection *sel, const char *pattern)
{
	return add_pattern(&sel->exclude, pattern);
}

int ftg_selection_add_module(struct ftg_selection *sel, const char *module)
{
	char **slot;

	if (!module || !*module || strchr(module, ' '))
		return ftgl_err(FTG_E_BAD_PATTERN, EINVAL, "bad module name \"%s\"",
				module ? module : "");
	slot = ftgl_vec_push(&sel->modules);
	if (!slot)
		return -1;
	*slot = strdup(module);
	if (!*slot) {
		sel->modules.len--;
		return ftgl_err(FTG_E_SYSTEM, ENOMEM, "out of memory");
	}
	return 0;
}

bool ftg_selection_empty(const struct ftg_selection *sel)
{
	return !sel->include.len && !sel->modules.len;
}

static bool owner_is(const char *want, const char *module)
{
	if (!strcmp(want, "vmlinux"))
		return !module;
	return module && !strcmp(want, module);
}

/*
 * Does @p cover function @name of @module (at @addr, 0: not yet known)?
 * A pinned address may name the record or the function's first byte
 * (@sym_addr: where kallsyms puts it, 0 when the same as @addr).
 */
static bool pattern_matches(const struct pattern *p, const char *name,
			    const char *module, uint64_t addr, uint64_t sym_addr)
{
	if (p->module && !owner_is(p->module, module))
		return false;
	if (p->addr && addr && p->addr != addr && p->addr != sym_addr)
		return false;
	return !fnmatch(p->glob, name, 0);
}

static bool any_matches_at(struct ftgl_vec *v, const char *name,
			   const char *module, uint64_t addr, uint64_t sym_addr,
			   bool mark)
{
	bool hit = false;
	size_t i;

	for (i = 0; i < v->len; i++) {
		struct pattern *p = ftgl_vec_at(v, i);

		if (pattern_matches(p, name, module, addr, sym_addr)) {
			if (mark && addr)
				p->matched = true;
			hit = true;
		}
	}
	return hit;
}

static bool any_matches(struct ftgl_vec *v, const char *name,
			const char *module, uint64_t addr, bool mark)
{
	return any_matches_at(v, name, module, addr, 0, mark);
}

/* A site's owner as the patterns take it: NULL for the core kernel. */
static const char *site_module(const struct ftg_site *site)
{
	return strcmp(site->owner, "vmlinux") ? site->owner : NULL;
}

static bool module_selected(const struct ftg_selection *sel, const char *module)
{
	size_t i;

	for (i = 0; i < sel->modules.len; i++)
		if (owner_is(*(char **)ftgl_vec_at(&sel->modules, i), module))
			return true;
	return false;
}

bool ftg_selection_wants_site(const struct ftg_selection *sel,
			      const struct ftg_site *site)
{
	struct ftg_selection *s = (struct ftg_selection *)sel;	/* no marks */
	const char *module = site_module(site);
	uint64_t start = site->addr - site->offset;

	if (!any_matches_at(&s->include, site->name, module, site->addr, start,
			    false) && !module_selected(s, module))
		return false;
	return !any_matches_at(&s->exclude, site->name, module, site->addr,
			       start, false);
}

/*
 * Adds the site @addr of (@name, @module) when the selection wants it. A
 * pin may give @sym_addr, the function's first byte, where the record
 * follows an endbr64.
 */
static int add_site(struct ftg_selection *sel, struct ftg_candidates *c,
		    const char *name, const char *module, uint64_t addr,
		    uint64_t sym_addr, bool whole_module)
{
	bool wanted;

	/* Mark every pattern that covers it, even when -m already took it,
	 * so that "matched nothing" is only said when true. */
	wanted = any_matches_at(&sel->include, name, module, addr, sym_addr,
				true);
	if (!wanted && !whole_module)
		return 0;
	if (any_matches_at(&sel->exclude, name, module, addr, sym_addr, false))
		return 0;
	return ftg_candidates_add(c, name, addr, module) < 0 ? -1 : 0;
}

/* The record @addr, with kallsyms for where its function starts. */
static int add_record(struct ftg_selection *sel, struct ftg_candidates *c,
		      const struct ftg_kallsyms *ks, const char *name,
		      const char *module, uint64_t addr, bool whole_module)
{
	const struct ftg_ksym *sym = ks ? ftg_kallsyms_lookup(ks, addr, NULL) : NULL;

	return add_site(sel, c, name, module, addr,
			sym && !strcmp(sym->name, name) ? sym->addr : 0,
			whole_module);
}

/*
 * Adds every address of (@name, @module) that the selection wants.
 * *@hidden counts text symbols whose address kallsyms hid (shown as 0).
 */
static int add_function(struct ftg_selection *sel, struct ftg_candidates *c,
			const struct ftg_kallsyms *ks, const char *name,
			const char *module, bool whole_module, size_t *hidden)
{
	const struct ftg_ksym *syms[256];
	size_t k, found;

	found = ftg_kallsyms_find(ks, name, module ? module : "vmlinux", syms,
				  FTGL_ARRAY_SIZE(syms));
	if (found > FTGL_ARRAY_SIZE(syms))
		found = FTGL_ARRAY_SIZE(syms);
	for (k = 0; k < found; k++) {
		if (!ftgl_ksym_is_text(syms[k]->type))
			continue;
		if (!syms[k]->addr) {
			(*hidden)++;
			continue;
		}
		if (add_site(sel, c, name, module, syms[k]->addr, 0,
			     whole_module))
			return -1;
	}
	return 0;
}

/* Forgets what an earlier resolve matched. */
static struct ftg_candidates *resolve_begin(struct ftg_selection *sel)
{
	size_t i;

	for (i = 0; i < sel->include.len; i++)
		((struct pattern *)ftgl_vec_at(&sel->include, i))->matched = false;
	return ftg_candidates_new();
}

/*
 * The candidates, or NULL (freed) when nothing matched: then, or when a
 * pattern matched nothing, the first such pattern is named.
 */
static struct ftg_candidates *resolve_end(struct ftg_selection *sel,
					  struct ftg_candidates *c)
{
	size_t i;

	for (i = 0; i < sel->include.len; i++) {
		struct pattern *p = ftgl_vec_at(&sel->include, i);

		if (p->matched)
			continue;
		if (!ftg_candidates_count(c)) {
			ftg_candidates_free(c);
			ftgl_err(FTG_E_NO_MATCH, ENOENT,
				 "no function matches \"%s\"",
				 p->text);
			return NULL;
		}
		ftgl_warn("no function matches \"%s\"", p->text);
	}
	if (!ftg_candidates_count(c)) {
		ftg_candidates_free(c);
		ftgl_err(FTG_E_NO_MATCH, ENOENT, "no function matches the selection");
		return NULL;
	}
	return c;
}

struct ftg_candidates *ftg_selection_resolve(const struct ftg_selection *sel,
					     const struct ftg_kallsyms *ks,
					     const struct ftg_ftrace_funcs *avail)
{
	/* Only the patterns' "matched" marks change: a resolve-time cache. */
	struct ftg_selection *s = (struct ftg_selection *)sel;
	struct ftg_candidates *c;
	size_t i, n, hidden = 0;

	if (!avail || (!ks && !ftg_ftrace_funcs_has_addrs(avail))) {
		ftgl_err(FTG_E_BAD_ARGUMENT, EINVAL, "selection needs kallsyms and available_filter_functions");
		return NULL;
	}
	c = resolve_begin(s);
	if (!c)
		return NULL;
	n = ftg_ftrace_funcs_count(avail);
	for (i = 0; i < n; i++) {
		const struct ftg_ftrace_func *f = ftg_ftrace_funcs_get(avail, i);
		bool whole = module_selected(s, f->module);
		int ret;

		if (ftgl_ftrace_name_invalid(f->name))
			continue;
		if (!whole && !any_matches(&s->include, f->name, f->module, 0, false))
			continue;
		if (f->addr)
			ret = add_record(s, c, ks, f->name, f->module, f->addr, whole);
		else
			ret = add_function(s, c, ks, f->name, f->module, whole, &hidden);
		if (ret) {
			ftg_candidates_free(c);
			return NULL;
		}
	}
	if (!ftg_candidates_count(c) && hidden) {
		ftg_candidates_free(c);
		ftgl_err(FTG_E_NOT_ROOT, EACCES,
			 "kallsyms hides function addresses (kptr_restrict): run as root");
		return NULL;
	}
	return resolve_end(s, c);
}

size_t ftg_selection_modules(const struct ftg_selection *sel,
			     const char **modules, size_t max)
{
	size_t i, j, n = 0;

	for (i = 0; i < sel->include.len + sel->modules.len; i++) {
		const char *m = i < sel->include.len ?
			((struct pattern *)ftgl_vec_at(&sel->include, i))->module :
			*(char **)ftgl_vec_at(&sel->modules, i - sel->include.len);

		if (!m || !strcmp(m, "vmlinux"))
			return 0;
		for (j = 0; j < n && j < max; j++)
			if (!strcmp(modules[j], m))
				break;
		if (j < n && j < max)	/* named before */
			continue;
		if (n < max)
			modules[n] = m;
		n++;
	}
	return n;
}

struct ftg_candidates *ftg_selection_resolve_sites(const struct ftg_selection *sel,
						   const struct ftg_sites *sites)
{
	struct ftg_selection *s = (struct ftg_selection *)sel;
	struct ftg_candidates *c = resolve_begin(s);
	size_t i, n = ftg_sites_count(sites);

	if (!c)
		return NULL;
	for (i = 0; i < n; i++) {
		const struct ftg_site *site = ftg_sites_get(sites, i);
		const char *module = site_module(site);

		/* A planted site (fault injection) is no function's record. */
		if (site->state == FTG_SITE_PLANTED)
			continue;
		if (add_site(s, c, site->name, module, site->addr,
			     site->addr - site->offset, module_selected(s, module))) {
			ftg_candidates_free(c);
			return NULL;
		}
	}
	return resolve_end(s, c);
}

bool ftgl_selection_everything(const struct ftg_selection *sel)
{
	const struct pattern *p;

	if (sel->include.len != 1 || sel->exclude.len || sel->modules.len)
		return false;
	p = ftgl_vec_at(&sel->include, 0);
	return !p->module && !p->addr && !strcmp(p->glob, "*");
}

bool ftgl_selection_has_pins(const struct ftg_selection *sel)
{
	size_t i;

	for (i = 0; i < sel->include.len; i++)
		if (((const struct pattern *)ftgl_vec_at(&sel->include, i))->addr)
			return true;
	return false;
}

struct ftg_selection *ftgl_selection_take_pins(const struct ftg_selection *sel,
					       const struct ftg_sites *sites,
					       uint64_t *addrs, size_t max, size_t *n)
{
	struct ftg_selection *rest = ftg_selection_new();
	size_t i;

	*n = 0;
	for (i = 0; rest && i < sel->include.len; i++) {
		const struct pattern *p = ftgl_vec_at(&sel->include, i);
		const struct ftg_site *site = p->addr && sites && *n < max ?
			ftg_sites_find(sites, p->addr) : NULL;

		if (site && pattern_matches(p, site->name, site_module(site),
					    site->addr, site->addr - site->offset)) {
			addrs[(*n)++] = site->addr;
			continue;
		}
		if (ftg_selection_add(rest, p->text) < 0)
			goto fail;
	}
	for (i = 0; rest && i < sel->exclude.len; i++)
		if (ftg_selection_exclude(rest, ((const struct pattern *)
						 ftgl_vec_at(&sel->exclude, i))->text) < 0)
			goto fail;
	for (i = 0; rest && i < sel->modules.len; i++)
		if (ftg_selection_add_module(rest, *(char **)ftgl_vec_at(&sel->modules, i)) < 0)
			goto fail;
	return rest;
fail:
	ftg_selection_free(rest);
	return NULL;
}
