// SPDX-License-Identifier: GPL-2.0
/*
 * `ftguard show`: what is set up now, in one place: what is armed, by
 * whom and how (the tracer, a call tree's functions and depth, stacks),
 * and ftguard's trace instance (tracing on, buffer size, clock, the
 * events enabled in it with their filters). The module's status and the
 * instance's settings come from the library's keyed views, so a key a
 * newer module adds shows with -v.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmd/ftguard-cmd.h"

static void label(const char *name)
{
	printf("%-10s ", name);
}

static const char *value_or(const struct ftg_keys *k, const char *name,
			    const char *fallback)
{
	const char *v = ftg_keys_get(k, name);

	return v && *v ? v : fallback;
}

static bool key_is(const struct ftg_keys *k, const char *name, const char *want)
{
	const char *v = ftg_keys_get(k, name);

	return v && !strcmp(v, want);
}

/* "MODULE:func" or "func": the name a site has on the command line. */
static void print_site_name(const struct ftg_sites *sites, uint64_t addr)
{
	const struct ftg_site *s = sites ? ftg_sites_find(sites, addr) : NULL;

	if (!s) {
		printf("0x%" PRIx64, addr);
		return;
	}
	if (strcmp(s->owner, "vmlinux")) {
		ftg_print_safe(stdout, s->owner);
		putchar(':');
	}
	ftg_print_safe(stdout, s->name);
}

/* The roots of an armed call tree, by name ("graph_roots ADDR..."). */
static void print_roots(const char *roots, const struct ftg_sites *sites)
{
	char *copy = strdup(roots), *word, *save = NULL;
	const char *sep = "";

	for (word = copy ? strtok_r(copy, " ", &save) : NULL; word;
	     word = strtok_r(NULL, " ", &save)) {
		printf("%s", sep);
		print_site_name(sites, strtoull(word, NULL, 16));
		sep = ", ";
	}
	free(copy);
}

static void show_arm(const struct ftg_keys *st, const struct ftg_sites *sites)
{
	const char *roots = value_or(st, "graph_roots", "-");
	const char *depth = value_or(st, "graph_max_depth", "0");

	label("armed:");
	if (!key_is(st, "armed", "1")) {
		printf("no\n");
	} else {
		printf("%s sites, by ", value_or(st, "armed_sites", "?"));
		ftg_print_safe(stdout, value_or(st, "owner", "?"));
		putchar('\n');
		label("tracer:");
		if (key_is(st, "arm_mode", "graph")) {
			printf("function_graph (returns by %s)",
			       value_or(st, "graph_hook", "?"));
			if (strcmp(roots, "-")) {
				printf(", call tree of ");
				print_roots(roots, sites);
				if (strcmp(depth, "0"))
					printf(", max depth %s", depth);
			}
		} else {
			printf("function");
		}
		if (key_is(st, "arm_stack", "1"))
			printf(", with stacks");
		putchar('\n');
	}
	label("killed:");
	if (key_is(st, "killed", "1")) {
		printf("yes: ");
		ftg_print_safe(stdout, value_or(st, "kill_reason", "-"));
		printf(" (%s)\n", ftg_cmd_kill_cure(value_or(st, "stuck", "-")));
	} else {
		printf("no\n");
	}
	if (strcmp(value_or(st, "stuck", "-"), "-")) {
		label("stuck:");
		ftg_print_safe(stdout, value_or(st, "stuck", "-"));
		printf(": ftguard.ko stays loaded until reboot\n");
	}
	label("verify:");
	printf("every %s ms\n", value_or(st, "verify_period_ms", "?"));
}

static void show_instance(const struct ftg_keys *in)
{
	const char *sep = "";
	size_t i, nevents = 0;

	label("instance:");
	printf("ftguard, tracing %s\n", key_is(in, "tracing_on", "1") ? "on" : "off");
	label("buffer:");
	printf("%s KiB per CPU (%s KiB in all)\n", value_or(in, "buffer_size_kb", "?"),
	       value_or(in, "buffer_total_size_kb", "?"));
	label("clock:");
	printf("%s\n", value_or(in, "trace_clock", "?"));
	label("events:");
	for (i = 0; i < ftg_keys_count(in); i++) {
		const char *name = ftg_keys_name(in, i), *filter;

		/* ftguard's own are always on: -v lists them */
		if (strncmp(name, "event:", 6) || !strncmp(name, "event:ftguard:", 14))
			continue;
		filter = ftg_keys_value(in, i);
		printf("%s", sep);
		ftg_print_safe(stdout, name + 6);
		if (*filter) {
			printf("  filter: ");
			ftg_print_safe(stdout, filter);
		}
		putchar('\n');
		sep = "           ";
		nevents++;
	}
	if (!nevents)
		printf("none\n");
}

static int show_exec(struct ftg_cmd_ctx *ctx, const struct ftg_cmd_args *args)
{
	struct ftg_keys *st, *in;
	struct ftg_sites *sites;
	struct ftg_root *root;

	(void)args;
	if (ftg_cmd_live_only(ctx, "shows the live trace instance") ||
	    ftg_cmd_need(ctx, FTG_NEED_ROOT_USER | FTG_NEED_TRACEFS | FTG_NEED_MODULE))
		return FTG_CMD_ERROR;
	root = ftg_cmd_root(ctx);
	st = ftg_status_keys_read(root);
	if (!st)
		return ftg_cmd_lib_error(ctx, "reading ftguard/status");
	in = ftg_instance_settings_read(root);
	if (!in) {
		ftg_keys_free(st);
		return ftg_cmd_lib_error(ctx, "reading the ftguard trace instance");
	}
	/* names for a tree's roots; without the table they stay addresses */
	sites = key_is(st, "graph_roots", "-") ? NULL :
		ftg_sites_read(root);
	show_arm(st, sites);
	show_instance(in);
	if (ctx->verbosity > 0) {
		ftg_cmd_print_keys("every key of ftguard.ko's status", st);
		ftg_cmd_print_keys("every setting of the trace instance", in);
	}
	ftg_sites_free(sites);
	ftg_keys_free(in);
	ftg_keys_free(st);
	return FTG_CMD_OK;
}

const struct ftg_cmd_entry ftg_cmd_show_entry = {
	.name = "show",
	.usage = "",
	.summary = "Show what is armed, by whom and how, and ftguard's trace instance",
	.description =
		"Prints what is set up now: whether sites are armed, how many and\n"
		"by whom (a process, or 'persistent' after 'ftguard start'); the\n"
		"tracer (function, or function_graph with the hook that takes the\n"
		"returns), a call tree's functions and depth, and whether stacks\n"
		"are recorded; whether ftguard.ko killed tracing; then the 'ftguard'\n"
		"trace instance: tracing on or off, its buffer size per CPU and in\n"
		"all, its clock, and the events enabled in it with their filters\n"
		"(ftguard's own events, always on, only with -v).\n"
		"With -v (before the command) every key of ftguard.ko's status and\n"
		"of the instance follows, as read.",
	.exit_status = "0 shown; 2 ftguard.ko or its trace instance cannot be read.",
	.min_args = 0,
	.max_args = 0,
	.exec = show_exec,
};
