// SPDX-License-Identifier: GPL-2.0
/*
 * `ftguard sites`: the module's site table, filtered by name, owner and
 * state, with the kernel's other users of each site (the library names
 * them; this only prints).
 */
#include <string.h>

#include "cmd/ftguard-cmd.h"

/* --state's words, the library's (its one list is the module's protocol):
 * filled before main() because completion reads them without running the
 * command. */
static const char *site_states[FTG_SITE_PLANTED + 2];

__attribute__((constructor)) static void site_states_fill(void)
{
	int st;

	for (st = 0; st <= FTG_SITE_PLANTED; st++)
		site_states[st] = ftg_site_state_name(st);
}

/* The other users of @s, from @users (NULL: unknown); how many. */
static size_t site_users(const struct ftg_users *users, const struct ftg_site *s,
			 char *buf, size_t size)
{
	if (!users) {
		snprintf(buf, size, "?");
		return 0;
	}
	return ftg_users_describe(users, s->name,
				  strcmp(s->owner, "vmlinux") ? s->owner : NULL,
				  s->state == FTG_SITE_ARMED, buf, size);
}

/*
 * -m and -l each narrow the table (a site of one of the -m modules that
 * one of the -l patterns names, as the selection reads patterns).
 */
static bool site_wanted(const struct ftg_site *s, const struct ftg_cmd_args *args,
			const struct ftg_selection *names, int state, size_t others)
{
	int i, n;
	bool any;

	if (state >= 0 && (int)s->state != state)
		return false;
	if (ftg_args_has(args, FTG_OPT_SHARED) && !others)
		return false;
	n = ftg_args_count(args, 'm');
	for (i = 0, any = !n; i < n && !any; i++)
		any = strcmp(s->owner, ftg_args_nth(args, 'm', i)) == 0;
	return any && (!names || ftg_selection_wants_site(names, s));
}

/* The -l patterns as a selection, NULL without any; FTG_CMD_ERROR said. */
static int name_patterns(struct ftg_cmd_ctx *ctx, const struct ftg_cmd_args *args,
			 struct ftg_selection **names)
{
	int i, n = ftg_args_count(args, 'l');

	*names = NULL;
	if (!n)
		return 0;
	*names = ftg_selection_new();
	if (!*names)
		return ftg_cmd_lib_error(ctx, "selection");
	for (i = 0; i < n; i++) {
		if (ftg_selection_add(*names, ftg_args_nth(args, 'l', i)) < 0) {
			ftg_cmd_usage_error(ctx, args->entry, "bad pattern '%s': %s",
					    ftg_args_nth(args, 'l', i), ftg_error_last());
			ftg_selection_free(*names);
			*names = NULL;
			return FTG_CMD_ERROR;
		}
	}
	return 0;
}

/* -v: the record's offset and the bytes the last check expected and read. */
static void print_site_bytes(const struct ftg_site *s)
{
	printf("+%-3u ", s->offset);
	ftg_print_name_width(stdout, s->expected ? s->expected : "-", 26);
	ftg_print_name_width(stdout, s->actual ? s->actual : "-", 26);
}

static void print_site_text(const struct ftg_site *s, int digits, bool verbose,
			    bool known, size_t others, const char *who)
{
	printf("0x%0*llx %-9s %-4s %10llu ", digits, (unsigned long long)s->addr,
	       ftg_site_state_name(s->state),
	       s->section == FTG_SECTION_INIT ? "init" : "core",
	       (unsigned long long)s->hits);
	if (!known)
		printf("%5s ", "?");
	else
		printf("%5zu ", others);
	if (verbose)
		print_site_bytes(s);
	ftg_print_name_width(stdout, s->owner, 16);
	ftg_print_name(stdout, s->name);
	if (verbose && others) {
		fputs("  shared with: ", stdout);
		ftg_print_safe(stdout, who);
	}
	putchar('\n');
}

static void print_site_users_json(struct ftg_json *j, const struct ftg_users *users,
				  const struct ftg_site *s, size_t others)
{
	const char *module = strcmp(s->owner, "vmlinux") ? s->owner : NULL;
	size_t i, named = 0;

	if (!users)
		return;
	ftg_json_array_begin(j, "users");
	for (i = 0; i < ftg_users_count(users); i++) {
		const struct ftg_site_user *u = ftg_users_get(users, i);

		if (strcmp(u->name, s->name) || (!module) != (!u->module) ||
		    (module && strcmp(module, u->module)))
			continue;
		ftg_json_object_begin(j, NULL);
		ftg_json_string(j, "kind", ftg_user_kind_name(u->kind));
		ftg_json_string(j, "who", u->who);
		ftg_json_object_end(j);
		named++;
	}
	ftg_json_array_end(j);
	ftg_json_uint(j, "other_users", others);
	ftg_json_uint(j, "unnamed_users", others - named);
}

static void print_site_json(struct ftg_json *j, const struct ftg_site *s,
			    const struct ftg_users *users, size_t others)
{
	ftg_json_object_begin(j, NULL);
	ftg_json_hex(j, "addr", s->addr);
	ftg_json_string(j, "state", ftg_site_state_name(s->state));
	ftg_json_string(j, "section", s->section == FTG_SECTION_INIT ? "init" : "core");
	ftg_json_string(j, "owner", s->owner);
	ftg_json_uint(j, "hits", s->hits);
	ftg_json_uint(j, "reads", s->reads);
	ftg_json_uint(j, "offset", s->offset);
	ftg_json_string(j, "expected", s->expected && strcmp(s->expected, "-") ? s->expected : NULL);
	ftg_json_string(j, "actual", s->actual && strcmp(s->actual, "-") ? s->actual : NULL);
	ftg_json_string(j, "name", s->name);
	print_site_users_json(j, users, s, others);
	ftg_json_object_end(j);
}

static int sites_exec(struct ftg_cmd_ctx *ctx, const struct ftg_cmd_args *args)
{
	bool json = ftg_args_has(args, FTG_OPT_JSON);
	bool verbose = ftg_args_has(args, 'v');
	const char *state_name = ftg_args_get(args, FTG_OPT_STATE);
	struct ftg_selection *names;
	struct ftg_json *j = NULL;
	struct ftg_users *users;
	struct ftg_sites *sites;
	struct ftg_root *root;
	size_t i, shown = 0;
	uint64_t max_addr = 0;
	int state = -1, digits;

	if (ftg_cmd_check_globs(ctx, args))
		return FTG_CMD_ERROR;
	if (state_name) {
		state = ftg_site_state_parse(state_name);
		if (state < 0) {
			char words[256] = "";
			size_t w;

			for (w = 0; site_states[w]; w++)
				snprintf(words + strlen(words), sizeof(words) - strlen(words),
					 "%s%s", w ? " " : "", site_states[w]);
			ftg_cmd_usage_error(ctx, args->entry, "unknown state '%s' (one of: %s)",
					    state_name, words);
			return FTG_CMD_ERROR;
		}
	}
	if (name_patterns(ctx, args, &names))
		return FTG_CMD_ERROR;
	if (ftg_cmd_need(ctx, FTG_NEED_ROOT_USER | FTG_NEED_MODULE)) {
		ftg_selection_free(names);
		return FTG_CMD_ERROR;
	}
	root = ftg_cmd_root(ctx);
	if (!root) {
		ftg_selection_free(names);
		return FTG_CMD_ERROR;
	}
	sites = ftg_sites_read(root);
	if (!sites) {
		ftg_selection_free(names);
		return ftg_cmd_lib_error(ctx, "reading ftguard/sites");
	}
	users = ftg_users_read(root);
	if (!users) {
		ftg_cmd_warn(ctx, "other users not known: %s", ftg_error_last());
		if (ftg_args_has(args, FTG_OPT_SHARED)) {
			ftg_sites_free(sites);
			ftg_selection_free(names);
			return FTG_CMD_ERROR;
		}
	}

	for (i = 0; i < ftg_sites_count(sites); i++)
		if (ftg_sites_get(sites, i)->addr > max_addr)
			max_addr = ftg_sites_get(sites, i)->addr;
	digits = ftg_addr_digits(max_addr);
	if (json) {
		j = ftg_json_new(stdout);
		ftg_json_array_begin(j, NULL);
	} else if (ctx->verbosity >= 0) {
		printf("%-*s %-9s %-4s %10s %5s ", digits + 2, "ADDRESS", "STATE", "SECT",
		       "HITS", "USERS");
		if (verbose)
			printf("%-4s %-26s %-26s", "OFF", "EXPECTED", "ACTUAL");
		printf("%-16s%s\n", "OWNER", "NAME");
	}
	for (i = 0; i < ftg_sites_count(sites); i++) {
		const struct ftg_site *s = ftg_sites_get(sites, i);
		char who[1024];
		size_t others = site_users(users, s, who, sizeof(who));

		if (!site_wanted(s, args, names, state, others))
			continue;
		shown++;
		if (json)
			print_site_json(j, s, users, others);
		else
			print_site_text(s, digits, verbose, users, others, who);
	}
	if (json) {
		ftg_json_array_end(j);
		ftg_json_free(j);
	}
	ftg_sites_free(sites);
	ftg_users_free(users);
	ftg_selection_free(names);
	if (!shown && (args->nopts > (json ? 1 : 0))) {
		ftg_cmd_info(ctx, "no site matches");
		return FTG_CMD_REFUSED;
	}
	return FTG_CMD_OK;
}

static const struct ftg_cmd_option sites_options[] = {
	{ .key = 'l', .long_name = "function", .arg_name = "GLOB",
	  .help = "only functions matching GLOB, or MODULE:GLOB (repeatable)",
	  .complete = FTG_COMPLETE_FUNCTION, .repeatable = true },
	{ .key = 'm', .long_name = "module", .arg_name = "MODULE",
	  .help = "only the sites of MODULE; 'vmlinux' for the kernel " "(repeatable)",
	  .complete = FTG_COMPLETE_MODULE, .repeatable = true },
	{ .key = FTG_OPT_STATE, .long_name = "state", .arg_name = "STATE",
	  .help = "only sites in STATE: ok, armed, unchecked, " "stale, foreign, mismatch or planted",
	  .complete = FTG_COMPLETE_WORDS, .words = site_states },
	{ .key = FTG_OPT_SHARED, .long_name = "shared",
	  .help = "only sites the kernel says another user is on too" },
	{ .key = 'v', .long_name = "verbose",
	  .help = "also the record's offset, the bytes the last check expected "
		  "and read, and who the other users are" },
	FTG_OPTION_JSON,
	FTG_OPTION_END
};

const struct ftg_cmd_entry ftg_cmd_sites_entry = {
	.name = "sites",
	.usage = "[-l GLOB]... [-m MODULE]... [--state STATE] [--shared] [-v] [--json]",
	.summary = "List the patch sites ftguard.ko knows, with their state",
	.description =
		"One line per site: its address, state, section (core or init\n"
		"text), how often it was hit while armed, how many of the kernel's\n"
		"other ftrace users are on it too (USERS), its owner (vmlinux or a\n"
		"module) and the function's name. The other users are named from\n"
		"what the kernel publishes: enabled_functions (its callbacks and\n"
		"direct trampolines), kprobe_events and kprobes/list,\n"
		"/sys/kernel/livepatch, and for a BPF trampoline its programs\n"
		"(\"BPF NAME (id N)\", from the kernel's BPF objects where the\n"
		"caller may read them, else \"BPF trampoline\"); -v and --json\n"
		"name them, and an ftrace_ops the kernel counts but names nowhere\n"
		"is counted as \"other ftrace user\". Filters given together must\n"
		"all match; a filter given several times matches any of its\n"
		"values.",
	.exit_status =
		"0 sites were listed; 1 a filter matched no site; 2 an error.",
	.examples =
		"ftguard sites -m e1000e --state ok\n"
		"  The checked, disarmed sites of the e1000e driver.\n"
		"\n"
		"ftguard sites --state stale --json\n"
		"  Sites left in freed text, as JSON.\n"
		"\n"
		"ftguard sites --shared -v\n"
		"  The sites another user is on too, and who.",
	.options = sites_options,
	.min_args = 0,
	.max_args = 0,
	.exec = sites_exec,
};
