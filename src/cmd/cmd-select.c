// SPDX-License-Identifier: GPL-2.0
/*
 * What check, start and record share: turning -l/-n/-m into a selection
 * on a control descriptor, and printing a verdict.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "cmd/ftguard-cmd.h"

static bool has_selection(const struct ftg_cmd_args *args)
{
	return ftg_args_has(args, 'l') || ftg_args_has(args, 'm') ||
	       ftg_args_has(args, 'g');
}

/**
 * ftg_cmd_check_globs - refuse malformed -l/-n patterns before anything else
 * @ctx: the invocation
 * @args: the parsed command line
 *
 * Return: 0, or FTG_CMD_ERROR after a usage message.
 */
int ftg_cmd_check_globs(const struct ftg_cmd_ctx *ctx, const struct ftg_cmd_args *args)
{
	static const int keys[] = { 'l', 'n', 'g' };
	size_t k;

	for (k = 0; k < sizeof(keys) / sizeof(keys[0]); k++) {
		int i, n = ftg_args_count(args, keys[k]);

		for (i = 0; i < n; i++) {
			const char *p = ftg_args_nth(args, keys[k], i);
			const char *why;

			if (!ftg_glob_valid(p, &why)) {
				ftg_cmd_usage_error(ctx, args->entry, "bad glob '%s': %s", p, why);
				return FTG_CMD_ERROR;
			}
		}
	}
	return 0;
}

/* Sites given as NAME@ADDR that the module already knows, selected by
 * address: a freed init function or a planted site is in no ftrace list. */
struct direct_sites {
	uint64_t addrs[64];
	size_t n;
};

static bool known_site_pattern(const struct ftg_sites *sites, const char *pattern,
			       uint64_t *addr)
{
	const struct ftg_site *site;
	struct ftg_selection *one;
	bool known;
	size_t at;

	/* A bad address is left to ftg_selection_add() to report. */
	if (!sites || ftg_pattern_addr(pattern, addr, &at) != 1)
		return false;
	site = ftg_sites_find(sites, *addr);
	if (!site)
		return false;
	/* the rest of the pattern as the selection reads it */
	one = ftg_selection_new();
	known = one && !ftg_selection_add(one, pattern) &&
		ftg_selection_wants_site(one, site);
	ftg_selection_free(one);
	ftg_error_clear();
	return known;
}

static int build_selection(struct ftg_cmd_ctx *ctx, const struct ftg_cmd_args *args,
			   struct ftg_selection *sel, const struct ftg_sites *sites,
			   struct direct_sites *direct)
{
	static const int keys[] = { 'l', 'n', 'm' };
	size_t k;

	for (k = 0; k < sizeof(keys) / sizeof(keys[0]); k++) {
		int i, n = ftg_args_count(args, keys[k]);

		for (i = 0; i < n; i++) {
			const char *p = ftg_args_nth(args, keys[k], i);
			uint64_t addr;
			int ret;

			if (keys[k] == 'l' && direct->n < sizeof(direct->addrs) / sizeof(direct->addrs[0]) &&
			    known_site_pattern(sites, p, &addr)) {
				direct->addrs[direct->n++] = addr;
				continue;
			}
			if (keys[k] == 'l')
				ret = ftg_selection_add(sel, p);
			else if (keys[k] == 'n')
				ret = ftg_selection_exclude(sel, p);
			else
				ret = ftg_selection_add_module(sel, p);
			if (ret < 0) {
				ftg_cmd_usage_error(ctx, args->entry, "bad pattern '%s': %s",
						    p, ftg_error_last());
				return FTG_CMD_ERROR;
			}
		}
	}
	return 0;
}

/* The site table, only when some -l pins an address (NAME@ADDR). */
static struct ftg_sites *sites_for_pins(struct ftg_cmd_ctx *ctx, const struct ftg_cmd_args *args)
{
	int i;

	for (i = 0; i < ftg_args_count(args, 'l'); i++)
		if (strchr(ftg_args_nth(args, 'l', i), '@'))
			return ftg_sites_read(ftg_cmd_root(ctx));
	return NULL;
}

/*
 * The module admits a vmlinux candidate only with proof (an ftrace record
 * at exactly the symbol's address): a refused function is no site and
 * leaves the selection, said once. A selection of refused functions only
 * fails.
 */
static struct ftg_candidates *keep_sites(struct ftg_cmd_ctx *ctx,
					 const struct ftg_candidates *cand,
					 const struct ftg_candidates *refused)
{
	size_t n = ftg_candidates_count(cand);
	size_t nrefused = ftg_candidates_count(refused);
	const char *first_refused = nrefused ?
		ftg_candidates_get(refused, 0)->name : NULL;
	struct ftg_candidates *kept = ftg_candidates_without(cand, refused);

	if (!kept) {
		ftg_cmd_lib_error(ctx, "selecting functions");
	} else if (!ftg_candidates_count(kept)) {
		ftg_cmd_error(ctx, "no selected function is a site: ftguard.ko "
			      "refused to admit %s (see last_error in "
			      "'ftguard status')", first_refused);
		ftg_candidates_free(kept);
		kept = NULL;
	} else if (nrefused) {
		ftg_cmd_warn(ctx, "%zu of %zu functions left out: ftguard.ko "
			     "refused to admit them (the first: %s)",
			     nrefused, n, first_refused);
	}
	return kept;
}

/* A selection that names more modules takes the general way. */
#define MAX_MODULES	8

/* The candidates the module admits as sites (vmlinux ones need proof). */
static struct ftg_candidates *admit(struct ftg_cmd_ctx *ctx, struct ftg_control *ctl,
				    const struct ftg_candidates *cand)
{
	struct ftg_candidates *refused = ftg_candidates_new(), *kept = NULL;

	if (!refused)
		ftg_cmd_lib_error(ctx, "selecting functions");
	else if (ftg_control_admit(ctl, cand, refused) < 0)
		ftg_cmd_lib_error(ctx, "offering kernel functions to ftguard.ko");
	else
		kept = keep_sites(ctx, cand, refused);
	ftg_candidates_free(refused);
	return kept;
}

/*
 * Does ftguard.ko already hold a site for every core-kernel ftrace record?
 * It does once a `check --all` has offered them all and left their count
 * (status vmlinux_records) with it: the core kernel's records do not
 * change after boot, and it knows every module's sites by itself. Then
 * its site table lists every function a selection can take, and reading
 * it costs a fraction of kallsyms and available_filter_functions
 * (doc/performance.md, figure 11); a selection over it needs no admit.
 */
static bool module_knows_all(struct ftg_cmd_ctx *ctx)
{
	struct ftg_status st;

	if (ftg_status_read(ftg_cmd_root(ctx), &st) < 0)
		return false;	/* the kernel's lists will do */
	if (!st.vmlinux_records || st.vmlinux_sites < st.vmlinux_records)
		return false;
	if (ctx->verbosity > 0)
		ftg_cmd_info(ctx, "ftguard.ko knows all %llu kernel functions: "
			     "selecting over its sites",
			     (unsigned long long)st.vmlinux_records);
	return true;
}

/*
 * The selection's candidate sites, or NULL after a message. *@from_lists
 * says they come from the kernel's function lists, whose vmlinux
 * candidates the module must admit before they can be selected.
 */
static struct ftg_candidates *resolve(struct ftg_cmd_ctx *ctx, struct ftg_control *ctl,
				      const struct ftg_selection *sel, bool *from_lists)
{
	const char *modules[MAX_MODULES];
	size_t nmodules = ftg_selection_modules(sel, modules, MAX_MODULES);
	struct ftg_ftrace_funcs *avail = NULL;
	struct ftg_candidates *cand = NULL;
	const struct ftg_kallsyms *ks;
	struct ftg_sites *known = NULL;

	*from_lists = !nmodules || nmodules > MAX_MODULES;
	if (!*from_lists) {
		/* ftguard.ko knows every loaded module's sites by itself:
		 * nothing to read from the kernel's function lists (which
		 * cost more than a whole record on 6.12), nothing to admit. */
		known = ftg_control_sites(ctl, modules, nmodules);
		if (!known) {
			ftg_cmd_lib_error(ctx, "reading the modules' sites");
			return NULL;
		}
		cand = ftg_selection_resolve_sites(sel, known);
	} else if (module_knows_all(ctx)) {
		*from_lists = false;
		known = ftg_sites_read(ftg_cmd_root(ctx));
		if (!known) {
			ftg_cmd_lib_error(ctx, "reading ftguard/sites");
			return NULL;
		}
		cand = ftg_selection_resolve_sites(sel, known);
	} else {
		if (ftg_cmd_read_functions(ctx, &ks, &avail))
			return NULL;
		ftg_cmd_tell_records(ctx, ctl, avail);
		cand = ftg_selection_resolve(sel, ks, avail);
	}
	if (!cand && ftg_error_code() == FTG_E_NO_MATCH)
		ftg_cmd_error(ctx, "%s (see 'ftguard sites' and "
			      "available_filter_functions)", ftg_error_last());
	else if (!cand)
		ftg_cmd_lib_error(ctx, "selecting functions");
	ftg_sites_free(known);
	ftg_ftrace_funcs_free(avail);
	return cand;
}

/* -l '*' alone, or -g alone (its callees are every function). */
static bool selects_everything(const struct ftg_cmd_args *args)
{
	if (ftg_args_has(args, 'n') || ftg_args_has(args, 'm'))
		return false;
	if (ftg_args_has(args, 'g'))
		return !ftg_args_has(args, 'l');
	return ftg_args_count(args, 'l') == 1 && !strcmp(ftg_args_nth(args, 'l', 0), "*");
}

/*
 * Every function. Once the module has every function's site, it selects
 * them all itself; 38,000 addresses need not cross the control file, nor
 * its site table be read. Return: 1 selected, 0 not this way (the general
 * one follows), -1 after a message.
 */
static int select_everything(struct ftg_cmd_ctx *ctx, const struct ftg_cmd_args *args,
			     struct ftg_control *ctl, size_t *nsites)
{
	if (!selects_everything(args) || !module_knows_all(ctx))
		return 0;
	if (!ftg_control_select_all(ctl, nsites)) {
		if (ctx->verbosity > 0)
			ftg_cmd_info(ctx, "ftguard.ko selected every site it holds");
		return 1;
	}
	if (errno == EINVAL)	/* an older ftguard.ko: by address */
		return 0;
	ftg_cmd_lib_error(ctx, "selecting every site");
	return -1;
}

/* The sites @sel names, the vmlinux ones admitted; NULL after a message. */
static struct ftg_candidates *resolve_sites(struct ftg_cmd_ctx *ctx, struct ftg_control *ctl,
					    const struct ftg_selection *sel)
{
	struct ftg_candidates *cand, *admitted;
	bool from_lists;

	cand = resolve(ctx, ctl, sel, &from_lists);
	if (!cand || !from_lists)
		return cand;
	admitted = admit(ctx, ctl, cand);
	ftg_candidates_free(cand);
	return admitted;
}

/* --max-graph-depth N: levels below a -g function, 0 (the default) all. */
static int graph_depth(struct ftg_cmd_ctx *ctx, const struct ftg_cmd_args *args,
		       unsigned int *depth)
{
	const char *arg = ftg_args_get(args, FTG_OPT_MAX_GRAPH_DEPTH);
	uint64_t n;

	*depth = 0;
	if (!arg)
		return 0;
	if (!ftg_args_has(args, 'g')) {
		ftg_cmd_usage_error(ctx, args->entry, "--max-graph-depth limits a call "
				    "tree: give -g FUNC too");
		return FTG_CMD_ERROR;
	}
	if (ftg_parse_u64(arg, &n) < 0 || n == 0 || n > 1000) {
		ftg_cmd_usage_error(ctx, args->entry, "--max-graph-depth %s: not a "
				    "count from 1 to 1000", arg);
		return FTG_CMD_ERROR;
	}
	*depth = (unsigned int)n;
	return 0;
}

/*
 * -g FUNC: select the call tree's roots and name them to the module, whose
 * graph arm then follows calls only inside them. *@roots is set to them.
 */
static int select_graph_roots(struct ftg_cmd_ctx *ctx, const struct ftg_cmd_args *args,
			      struct ftg_control *ctl, unsigned int depth,
			      struct ftg_candidates **roots)
{
	int i, n = ftg_args_count(args, 'g'), ret = FTG_CMD_ERROR;
	struct ftg_selection *sel = ftg_selection_new();
	uint64_t *addrs = NULL;
	size_t k, nroots;

	*roots = NULL;
	if (!sel)
		return ftg_cmd_lib_error(ctx, "selection");
	for (i = 0; i < n; i++) {
		if (ftg_selection_add(sel, ftg_args_nth(args, 'g', i)) < 0) {
			ftg_cmd_usage_error(ctx, args->entry, "bad pattern '%s': %s",
					    ftg_args_nth(args, 'g', i), ftg_error_last());
			goto out;
		}
	}
	*roots = resolve_sites(ctx, ctl, sel);
	if (!*roots)
		goto out;
	nroots = ftg_candidates_count(*roots);
	addrs = malloc(nroots * sizeof(*addrs));
	if (!addrs) {
		ftg_cmd_lib_error(ctx, "selection");
		goto out;
	}
	for (k = 0; k < nroots; k++)
		addrs[k] = ftg_candidates_get(*roots, k)->addr;
	if (ftg_control_select(ctl, *roots) < 0 ||
	    ftg_control_graph_tree(ctl, addrs, nroots, depth) < 0) {
		ftg_cmd_lib_error(ctx, "selecting the -g functions");
		goto out;
	}
	ret = 0;
out:
	if (ret) {
		ftg_candidates_free(*roots);
		*roots = NULL;
	}
	free(addrs);
	ftg_selection_free(sel);
	return ret;
}

/* Roots that are not among the callees add to the sites selected. */
static size_t roots_apart(const struct ftg_candidates *roots,
			  const struct ftg_candidates *callees)
{
	size_t i, j, n = 0, nc = ftg_candidates_count(callees);

	for (i = 0; i < ftg_candidates_count(roots); i++) {
		uint64_t addr = ftg_candidates_get(roots, i)->addr;

		for (j = 0; j < nc && ftg_candidates_get(callees, j)->addr != addr; j++)
			;
		n += j == nc;
	}
	return n;
}

/**
 * ftg_cmd_select - send the -l/-n/-m selection to the module
 * @ctx: the invocation
 * @args: the parsed command line
 * @ctl: the control descriptor the selection is made on
 * @required: refuse an empty selection (arming everything is never meant)
 * @nsites: set to the number of sites selected (0: none given)
 *
 * A selection confined to modules is resolved over those modules' sites,
 * which the module lists; any other over available_filter_functions and
 * kallsyms, and its vmlinux candidates are admitted first, as the module
 * only knows modules' sites by itself. With -g the selection is a call
 * tree: its roots, and as callees -l/-m or, without them, every function.
 *
 * Return: 0, or FTG_CMD_ERROR after a message.
 */
int ftg_cmd_select(struct ftg_cmd_ctx *ctx, const struct ftg_cmd_args *args,
		   struct ftg_control *ctl, bool required, size_t *nsites)
{
	struct ftg_candidates *admitted = NULL, *roots = NULL;
	struct ftg_selection *sel = NULL;
	struct ftg_sites *sites = NULL;
	struct direct_sites direct = { .n = 0 };
	struct ftg_root *root = ftg_cmd_root(ctx);
	unsigned int depth;
	int ret = FTG_CMD_ERROR;

	*nsites = 0;
	if (!root)
		return FTG_CMD_ERROR;
	if (!has_selection(args)) {
		if (ftg_args_has(args, 'n')) {
			ftg_cmd_usage_error(ctx, args->entry, "-n leaves functions out of "
					    "a selection: give -l GLOB or -m MODULE too");
			return FTG_CMD_ERROR;
		}
		if (!required)
			return 0;
		ftg_cmd_usage_error(ctx, args->entry, "nothing selected: give -l GLOB "
				    "or -m MODULE");
		return FTG_CMD_ERROR;
	}
	sel = ftg_selection_new();
	if (!sel)
		return ftg_cmd_lib_error(ctx, "selection");
	if (ftg_cmd_check_globs(ctx, args) || graph_depth(ctx, args, &depth))
		goto out;
	if (ftg_args_has(args, 'g') && select_graph_roots(ctx, args, ctl, depth, &roots))
		goto out;
	switch (select_everything(ctx, args, ctl, nsites)) {
	case 1:
		ret = 0;	/* the roots are among every site */
		goto out;
	case -1:
		goto out;
	}
	/* trace-cmd's -g alone follows every function its roots reach */
	if (roots && !ftg_args_has(args, 'l') && !ftg_args_has(args, 'm') &&
	    ftg_selection_add(sel, "*") < 0) {
		ftg_cmd_lib_error(ctx, "selection");
		goto out;
	}
	sites = sites_for_pins(ctx, args);
	if (build_selection(ctx, args, sel, sites, &direct))
		goto out;
	if (direct.n && ftg_control_select_addrs(ctl, direct.addrs, direct.n) < 0) {
		ftg_cmd_lib_error(ctx, "selecting sites");
		goto out;
	}
	*nsites = direct.n;
	if (ftg_selection_empty(sel)) {
		ret = 0;	/* only pinned sites */
		goto out;
	}
	admitted = resolve_sites(ctx, ctl, sel);
	if (!admitted)
		goto out;
	if (ftg_control_select(ctl, admitted) < 0) {
		ftg_cmd_lib_error(ctx, "selecting sites");
		goto out;
	}
	*nsites += ftg_candidates_count(admitted);
	if (roots)
		*nsites += roots_apart(roots, admitted);
	ret = 0;
out:
	if (!ret && ctx->verbosity > 0)
		ftg_cmd_info(ctx, "%zu sites selected", *nsites);
	ftg_sites_free(sites);
	ftg_candidates_free(admitted);
	ftg_candidates_free(roots);
	ftg_selection_free(sel);
	return ret;
}

static void finding_json(struct ftg_json *j, const struct ftg_finding *f)
{
	ftg_json_object_begin(j, NULL);
	ftg_json_hex(j, "addr", f->addr);
	ftg_json_string(j, "name", f->name);
	ftg_json_string(j, "owner", f->owner);
	ftg_json_string(j, "module_verdict", ftg_verdict_kind_name(f->module_verdict));
	ftg_json_string(j, "map_verdict", ftg_verdict_kind_name(f->map_verdict));
	ftg_json_bool(j, "agree", f->agree);
	ftg_json_string(j, "expected", f->expected);
	ftg_json_string(j, "actual", f->actual);
	if (f->region) {
		ftg_json_object_begin(j, "region");
		ftg_json_string(j, "kind", ftg_region_kind_name(f->region->kind));
		ftg_json_hex(j, "start", f->region->start);
		ftg_json_hex(j, "end", f->region->end);
		ftg_json_string(j, "owner", f->region->owner);
		ftg_json_string(j, "caller", f->region->caller);
		if (f->region->has_phys)
			ftg_json_hex(j, "phys", f->region->phys);
		ftg_json_object_end(j);
	} else {
		ftg_json_null(j, "region");
	}
	ftg_json_string(j, "reason", f->reason);
	ftg_json_object_end(j);
}

/* "  ADDR OWNER: <the checker's reason, which names the region>" */
static void finding_text(const struct ftg_finding *f, int digits)
{
	printf("  0x%0*llx ", digits, (unsigned long long)f->addr);
	ftg_print_name(stdout, f->owner);
	printf(": ");
	ftg_print_safe(stdout, f->reason);
	if (!f->agree)
		printf(" (ftguard.ko says %s, the map %s)",
		       ftg_verdict_kind_name(f->module_verdict),
		       ftg_verdict_kind_name(f->map_verdict));
	putchar('\n');
}

/**
 * ftg_cmd_print_verdict - print a check verdict
 * @ctx: the invocation (-q leaves only the offending sites)
 * @v: the verdict
 * @json: one JSON object instead of text
 */
void ftg_cmd_print_verdict(const struct ftg_cmd_ctx *ctx, const struct ftg_verdict *v,
			   bool json)
{
	size_t i, n = ftg_verdict_count(v);
	uint64_t max_addr = 0;

	if (json) {
		struct ftg_json *j = ftg_json_new(stdout);

		ftg_json_object_begin(j, NULL);
		ftg_json_bool(j, "ok", ftg_verdict_ok(v));
		ftg_json_uint(j, "n_ok", ftg_verdict_n_ok(v));
		ftg_json_uint(j, "n_bad", ftg_verdict_n_bad(v));
		ftg_json_uint(j, "ms", ftg_verdict_ms(v));
		ftg_json_array_begin(j, "findings");
		for (i = 0; i < n; i++)
			finding_json(j, ftg_verdict_get(v, i));
		ftg_json_array_end(j);
		ftg_json_object_end(j);
		ftg_json_free(j);
		return;
	}
	if (ctx->verbosity >= 0) {
		printf("checked %llu sites in %llu ms: ",
		       (unsigned long long)(ftg_verdict_n_ok(v) + ftg_verdict_n_bad(v)),
		       (unsigned long long)ftg_verdict_ms(v));
		if (ftg_verdict_ok(v))
			printf("consistent\n");
		else
			printf("%zu inconsistent\n", n);
	}
	for (i = 0; i < n; i++)
		if (ftg_verdict_get(v, i)->addr > max_addr)
			max_addr = ftg_verdict_get(v, i)->addr;
	for (i = 0; i < n; i++)
		finding_text(ftg_verdict_get(v, i), ftg_addr_digits(max_addr));
}
