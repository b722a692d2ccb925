// SPDX-License-Identifier: GPL-2.0
/*
 * `ftguard check`: ask ftguard.ko to check sites (the selection, or all of
 * them) and cross-check the sites its answer lists with the address map.
 */
#include <errno.h>
#include <string.h>

#include "cmd/ftguard-cmd.h"

/* --root: the check report saved in a snapshot, judged again. */
static struct ftg_check_report *report_snapshot(struct ftg_cmd_ctx *ctx)
{
	struct ftg_check_report *rep;

	rep = ftg_check_report_read(ftg_cmd_root(ctx));
	if (!rep)
		ftg_cmd_lib_error(ctx, "reading the saved ftguard/check");
	return rep;
}

/*
 * --all: ftguard.ko knows modules' sites by itself but vmlinux functions
 * only once offered. Offer every one ftrace can patch (a candidate the
 * module rejects is only counted in its status) so that the check of
 * all sites that follows covers the core kernel too. The core kernel's
 * records do not change after boot, so their count, once taken from
 * available_filter_functions, is left with the module: when it has as
 * many vmlinux sites, everything was offered already, and reading the
 * file again would cost as much as the check itself.
 */
static int admit_vmlinux(struct ftg_cmd_ctx *ctx, struct ftg_session *sess)
{
	size_t sent;
	int ret = ftg_session_admit_all(sess, &sent);

	if (ftg_session_how(sess) & FTG_SESSION_KNOWS_ALL) {
		if (ctx->verbosity > 0)
			ftg_cmd_info(ctx, "ftguard.ko knows all %llu kernel functions already",
				     (unsigned long long)ftg_session_vmlinux_records(sess));
		return 0;
	}
	ftg_cmd_session_said(ctx, sess);
	if (ret < 0) {
		if (ftg_session_step(sess) == FTG_SESSION_STEP_RESOLVE)
			return ftg_cmd_lib_error(ctx, "listing kernel functions");
		return ftg_cmd_session_error(ctx, sess);
	}
	if ((ftg_session_how(sess) & FTG_SESSION_LISTS) && ctx->verbosity > 0)
		ftg_cmd_info(ctx, "%zu kernel functions offered", sent);
	return 0;
}

static struct ftg_check_report *report_live(struct ftg_cmd_ctx *ctx,
					    const struct ftg_cmd_args *args)
{
	struct ftg_check_report *rep = NULL;
	struct ftg_session *sess;
	size_t nsites;
	int ret;

	sess = ftg_cmd_session_open(ctx);
	if (!sess)
		return NULL;
	if (ftg_args_has(args, 'a'))
		ret = admit_vmlinux(ctx, sess);
	else
		ret = ftg_cmd_select(ctx, args, sess, false, &nsites);
	if (ret == 0) {
		rep = ftg_control_check(ftg_session_control(sess));
		if (!rep)
			ftg_cmd_lib_error(ctx, "checking");
	}
	ftg_session_close(sess);
	return rep;
}

/*
 * The map only explains the report's lines: the sites found bad, or every
 * site when fewer than 64 were checked. A clean check of many sites has
 * none, and building the map (kallsyms, every line of ftguard.ko's sites
 * table) would cost several times the check itself (doc/performance.md,
 * figure 5), so it is built only when there is something to explain.
 */
static int judge_and_print(struct ftg_cmd_ctx *ctx, const struct ftg_cmd_args *args,
			   struct ftg_check_report *rep)
{
	struct ftg_map *map = NULL;
	struct ftg_verdict *v;
	int ret;

	if (ftg_check_report_count(rep))
		map = ftg_cmd_load_map(ctx);
	v = ftg_verdict_new(rep, map);
	if (!v) {
		ftg_cmd_lib_error(ctx, "cross-checking the report");
		ftg_map_free(map);
		return FTG_CMD_ERROR;
	}
	ftg_cmd_print_verdict(ctx, v, ftg_args_has(args, FTG_OPT_JSON));
	ret = ftg_verdict_ok(v) ? FTG_CMD_OK : FTG_CMD_REFUSED;
	ftg_verdict_free(v);
	ftg_map_free(map);
	return ret;
}

/*
 * The sites the report lists that another of the kernel's ftrace users is
 * on too, each with who it is (the library names them from the kernel's
 * files). Said, not judged: sharing a site changes no verdict.
 */
static void print_shared(struct ftg_cmd_ctx *ctx, const struct ftg_check_report *rep)
{
	struct ftg_root *root = ftg_cmd_root(ctx);
	struct ftg_users *users;
	size_t i;

	if (!root || !ftg_check_report_count(rep))
		return;
	users = ftg_users_read(root);
	if (!users) {
		if (ctx->verbosity > 0)
			ftg_cmd_info(ctx, "other users not known: %s", ftg_error_last());
		return;
	}
	for (i = 0; i < ftg_check_report_count(rep); i++) {
		const struct ftg_check_line *l = ftg_check_report_get(rep, i);
		char who[1024];

		if (!ftg_users_describe(users, l->name,
					strcmp(l->owner, "vmlinux") ? l->owner : NULL,
					0, who, sizeof(who)))
			continue;
		fputs("  shared: ", stdout);
		ftg_print_name(stdout, l->name);
		fputs(" with ", stdout);
		ftg_print_safe(stdout, who);
		putchar('\n');
	}
	ftg_users_free(users);
}

static int check_exec(struct ftg_cmd_ctx *ctx, const struct ftg_cmd_args *args)
{
	struct ftg_check_report *rep;
	int ret;

	if (ctx->root && (ftg_args_has(args, 'l') || ftg_args_has(args, 'm') ||
			  ftg_args_has(args, 'n') || ftg_args_has(args, 'a'))) {
		ftg_cmd_usage_error(ctx, args->entry, "with --root the saved check is "
				    "shown: -a, -l, -n and -m need the live module");
		return FTG_CMD_ERROR;
	}
	if (ftg_args_has(args, 'a') && (ftg_args_has(args, 'l') || ftg_args_has(args, 'm') ||
					ftg_args_has(args, 'n'))) {
		ftg_cmd_usage_error(ctx, args->entry, "--all checks every site: "
				    "it takes no -l, -n or -m");
		return FTG_CMD_ERROR;
	}
	if (ftg_cmd_check_globs(ctx, args) ||
	    ftg_cmd_need(ctx, FTG_NEED_ROOT_USER | FTG_NEED_MODULE))
		return FTG_CMD_ERROR;
	rep = ctx->root ? report_snapshot(ctx) : report_live(ctx, args);
	if (!rep)
		return FTG_CMD_ERROR;
	ret = judge_and_print(ctx, args, rep);
	if (!ftg_args_has(args, FTG_OPT_JSON) && ctx->verbosity >= 0)
		print_shared(ctx, rep);
	ftg_check_report_free(rep);
	return ret;
}

static const struct ftg_cmd_option check_options[] = {
	{ .key = 'a', .long_name = "all", .arg_name = NULL,
	  .help = "offer every kernel function to ftguard.ko first, then check "
		  "all sites: the core kernel's and every module's" },
	FTG_OPTION_FUNCTIONS,
	FTG_OPTION_NOTRACE,
	FTG_OPTION_MODULE,
	FTG_OPTION_JSON,
	FTG_OPTION_END
};

const struct ftg_cmd_entry ftg_cmd_check_entry = {
	.name = "check",
	.usage = "[-a | [-l GLOB]... [-n GLOB]... [-m MODULE]...] [--json]",
	.summary = "Check that patch sites are live text with the expected bytes",
	.description =
		"Asks ftguard.ko to check the selected sites (every site it knows\n"
		"when nothing is selected) without patching anything: each must lie\n"
		"in live kernel or module text and hold the bytes ftrace left there.\n"
		"The answer is cross-checked with the address map built from\n"
		"/proc/kallsyms, /proc/modules, /proc/vmallocinfo and the module's\n"
		"tables, so an offending site is shown with the region it falls in:\n"
		"the freed init text of a module (stale), an ioremap or vmalloc\n"
		"area and its caller (foreign), or text whose bytes changed\n"
		"(mismatch).\n"
		"\n"
		"ftguard.ko learns vmlinux functions only when they are offered\n"
		"(as -l does for the ones it selects): --all offers every function\n"
		"of available_filter_functions first, so that the check covers the\n"
		"whole kernel.\n"
		"\n"
		"A site may be shared: another of the kernel's ftrace users (a\n"
		"kprobe, the function tracer, a direct or BPF trampoline, a\n"
		"livepatch) is on it too. A listed site that is shared is followed\n"
		"by a \"shared:\" line naming them, as 'sites -v' does. A call into\n"
		"another user's own trampoline is consistent only when ftrace's\n"
		"enabled_functions names that trampoline as the site's direct one.\n"
		"\n"
		"With --root DIR the check report saved in a snapshot is judged\n"
		"again against the snapshot's map.",
	.exit_status =
		"0 every site is consistent; 1 some are not (listed with reason and\n"
		"region); 2 usage or system error (module not loaded, no function\n"
		"matches, bad glob).",
	.examples =
		"ftguard check --all\n"
		"  Check every site of the kernel and its modules.\n"
		"\n"
		"ftguard check -m e1000e\n"
		"  Check every site of the e1000e driver.\n"
		"\n"
		"ftguard check -l 'vfs_*' -n vfs_write\n"
		"  Check the vfs_ functions except vfs_write.",
	.options = check_options,
	.min_args = 0,
	.max_args = 0,
	.exec = check_exec,
};
