// SPDX-License-Identifier: GPL-2.0
/*
 * `ftguard list`: what can be traced. -f the functions ftrace has records
 * for (with their site state where ftguard.ko knows them), -e the kernel's
 * events, -t the tracers record, start and stream take with -p.
 */
#include <fnmatch.h>
#include <stdlib.h>
#include <string.h>

#include "cmd/ftguard-cmd.h"

extern const struct ftg_cmd_entry ftg_cmd_list_entry;

/* The sites ftguard.ko lists, by name and owner, for -f's state column. */
struct named_sites {
	const struct ftg_site **v;
	size_t n;
};

static int cmp_site_names(const void *a, const void *b)
{
	const struct ftg_site *x = *(const struct ftg_site *const *)a;
	const struct ftg_site *y = *(const struct ftg_site *const *)b;
	int c = strcmp(x->name, y->name);

	return c ? c : strcmp(x->owner, y->owner);
}

static int index_sites(const struct ftg_sites *sites, struct named_sites *ns)
{
	size_t i;

	ns->n = sites ? ftg_sites_count(sites) : 0;
	ns->v = calloc(ns->n ? ns->n : 1, sizeof(*ns->v));
	if (!ns->v)
		return -1;
	for (i = 0; i < ns->n; i++)
		ns->v[i] = ftg_sites_get(sites, i);
	qsort(ns->v, ns->n, sizeof(*ns->v), cmp_site_names);
	return 0;
}

/* A state word for @name of @owner, or NULL when ftguard knows no site. */
static const char *site_state(const struct named_sites *ns, const char *name,
			      const char *owner)
{
	struct ftg_site key = { .name = name, .owner = owner };
	const struct ftg_site *k = &key, **hit;

	hit = bsearch(&k, ns->v, ns->n, sizeof(*ns->v), cmp_site_names);
	return hit ? ftg_site_state_name((*hit)->state) : NULL;
}

static int list_functions(struct ftg_cmd_ctx *ctx, const char *glob)
{
	struct ftg_root *root = ftg_cmd_root(ctx);
	struct ftg_ftrace_funcs *avail;
	struct ftg_sites *sites = NULL;
	struct named_sites ns = { 0 };
	size_t i, n, shown = 0;
	const char *why;

	if (glob && !ftg_glob_valid(glob, &why)) {
		ftg_cmd_usage_error(ctx, &ftg_cmd_list_entry, "bad glob '%s': %s", glob, why);
		return FTG_CMD_ERROR;
	}
	avail = ftg_ftrace_funcs_read(root, FTG_FTRACE_AVAILABLE);
	if (!avail)
		return ftg_cmd_lib_error(ctx, "reading available_filter_functions");
	/* the state column needs the module; without it, names alone */
	sites = ftg_sites_read(root);
	if (index_sites(sites, &ns) < 0) {
		ftg_ftrace_funcs_free(avail);
		ftg_sites_free(sites);
		return ftg_cmd_lib_error(ctx, "listing functions");
	}
	n = ftg_ftrace_funcs_count(avail);
	for (i = 0; i < n; i++) {
		const struct ftg_ftrace_func *f = ftg_ftrace_funcs_get(avail, i);
		const char *owner = f->module ? f->module : "vmlinux";
		const char *state;

		if (glob && fnmatch(glob, f->name, 0))
			continue;
		shown++;
		ftg_print_name(stdout, f->name);
		if (f->module) {
			printf(" [");
			ftg_print_name(stdout, f->module);
			putchar(']');
		}
		state = sites ? site_state(&ns, f->name, owner) : NULL;
		if (state)
			printf("  %s", state);
		putchar('\n');
	}
	free(ns.v);
	ftg_sites_free(sites);
	ftg_ftrace_funcs_free(avail);
	if (glob && !shown) {
		ftg_cmd_error(ctx, "no function matches '%s'", glob);
		return FTG_CMD_REFUSED;
	}
	return FTG_CMD_OK;
}

static int list_events(struct ftg_cmd_ctx *ctx, const char *system)
{
	const struct ftg_root *root = ftg_cmd_root(ctx);
	char **systems, **events, **s, **e;

	if (system) {
		events = ftg_event_names(root, system);
		if (!events) {
			ftg_cmd_error(ctx, "no event system '%s' (see 'ftguard list -e')",
				      system);
			return FTG_CMD_ERROR;
		}
		for (e = events; *e; e++)
			printf("%s:%s\n", system, *e);
		ftg_event_names_free(events);
		return FTG_CMD_OK;
	}
	systems = ftg_event_names(root, NULL);
	if (!systems)
		return ftg_cmd_lib_error(ctx, "listing the event systems");
	for (s = systems; *s; s++) {
		/* ftguard's own events come with every arm, not with -e */
		if (!ftg_cmd_event_system_allowed(*s))
			continue;
		events = ftg_event_names(root, *s);
		for (e = events; e && *e; e++)
			printf("%s:%s\n", *s, *e);
		ftg_event_names_free(events);
	}
	ftg_event_names_free(systems);
	return FTG_CMD_OK;
}

static int list_exec(struct ftg_cmd_ctx *ctx, const struct ftg_cmd_args *args)
{
	const char *operand = args->argc ? args->argv[0] : NULL;
	int kinds = ftg_args_has(args, 'f') + ftg_args_has(args, 'e') +
		    ftg_args_has(args, 't');
	const char *const *t;

	if (kinds != 1) {
		ftg_cmd_usage_error(ctx, args->entry, "give one of -f, -e and -t");
		return FTG_CMD_ERROR;
	}
	if (ftg_args_has(args, 't')) {
		if (operand) {
			ftg_cmd_usage_error(ctx, args->entry, "-t takes no operand");
			return FTG_CMD_ERROR;
		}
		for (t = ftg_cmd_tracers; *t; t++)
			printf("%s\n", *t);
		return FTG_CMD_OK;
	}
	if (ftg_cmd_need(ctx, FTG_NEED_TRACEFS))
		return FTG_CMD_ERROR;
	if (ftg_args_has(args, 'e'))
		return list_events(ctx, operand);
	return list_functions(ctx, operand);
}

static const struct ftg_cmd_option list_options[] = {
	{ .key = 'f', .long_name = "functions",
	  .help = "the functions ftrace can trace (matching GLOB), with the site state "
		  "ftguard.ko gives those it knows" },
	{ .key = 'e', .long_name = "events",
	  .help = "the kernel's events (of SYSTEM), as SYSTEM:EVENT for -e" },
	{ .key = 't', .long_name = "tracers",
	  .help = "the tracers record, start and stream take with -p" },
	FTG_OPTION_END
};

const struct ftg_cmd_entry ftg_cmd_list_entry = {
	.name = "list",
	.usage = "-f [GLOB] | -e [SYSTEM] | -t",
	.summary = "List the functions, events and tracers ftguard can trace",
	.description =
		"-f lists every function the kernel has an ftrace record for\n"
		"(available_filter_functions), one a line as NAME or NAME [MODULE],\n"
		"only those matching GLOB when given. A function ftguard.ko knows as\n"
		"a site (every loaded module's, and the kernel functions offered to\n"
		"it) is followed by its state (ok, armed, unchecked, mismatch...) as\n"
		"'ftguard sites' shows it; without the module, names alone.\n"
		"\n"
		"-e lists the kernel's events as SYSTEM:EVENT, the names -e takes\n"
		"(ftguard's own events, which every arm records, are left out), or\n"
		"those of SYSTEM. -t lists the tracers -p takes.",
	.exit_status = "0 listed; 1 nothing matched GLOB; 2 usage or system error.",
	.examples =
		"ftguard list -f 'vfs_*'\n"
		"  The vfs functions, with the state of those that are sites.\n"
		"\n"
		"ftguard list -e sched\n"
		"  The scheduler's events, for record -e.",
	.options = list_options,
	.min_args = 0,
	.max_args = 1,
	.operand_complete = FTG_COMPLETE_NONE,
	.exec = list_exec,
};
