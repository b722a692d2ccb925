// SPDX-License-Identifier: GPL-2.0
/*
 * What check, start, record and stream share: turning -l/-n/-m/-g into a
 * selection that the library's session makes on its control descriptor,
 * saying in the command's words which way it went and where it stopped,
 * and printing a verdict.
 */

#include <limits.h>
#include <string.h>

#include "cmd/ftguard-cmd.h"

/*
 * The option letters of each kind of pattern, in trace-cmd's order; a
 * glob's letters have their patterns checked before anything else.
 */
static const struct {
	int key;
	enum ftg_arm_pattern kind;
	bool glob;
} pattern_options[] = {
	{ 'g', FTG_ARM_ROOTS, true },
	{ 'l', FTG_ARM_FUNCTIONS, true },
	{ 'n', FTG_ARM_EXCLUDE, true },
	{ 'm', FTG_ARM_MODULE, false },
};

#define FOR_EACH_PATTERN_OPTION(k) \
	for (k = 0; k < sizeof(pattern_options) / sizeof(pattern_options[0]); k++)

/**
 * ftg_cmd_has_selection - does the command line name sites to arm?
 * @args: the parsed command line
 * @or_exclusions: exclusions count too (they name sites, if only to
 *	leave them out)
 *
 * Return: true when a pattern option was given.
 */
bool ftg_cmd_has_selection(const struct ftg_cmd_args *args, bool or_exclusions)
{
	size_t k;

	FOR_EACH_PATTERN_OPTION(k)
		if ((or_exclusions || pattern_options[k].kind != FTG_ARM_EXCLUDE) &&
		    ftg_args_has(args, pattern_options[k].key))
			return true;
	return false;
}

/**
 * ftg_cmd_check_globs - refuse malformed glob patterns before anything else
 * @ctx: the invocation
 * @args: the parsed command line
 *
 * Return: 0, or FTG_CMD_ERROR after a usage message.
 */
int ftg_cmd_check_globs(const struct ftg_cmd_ctx *ctx, const struct ftg_cmd_args *args)
{
	size_t k;

	FOR_EACH_PATTERN_OPTION(k) {
		int i, key = pattern_options[k].key, n = ftg_args_count(args, key);

		for (i = 0; pattern_options[k].glob && i < n; i++) {
			const char *p = ftg_args_nth(args, key, i);
			const char *why;

			if (!ftg_glob_valid(p, &why)) {
				ftg_cmd_usage_error(ctx, args->entry, "bad glob '%s': %s", p, why);
				return FTG_CMD_ERROR;
			}
		}
	}
	return 0;
}

static int add_patterns(struct ftg_cmd_ctx *ctx, const struct ftg_cmd_args *args,
			struct ftg_arm_request *req)
{
	size_t k;

	FOR_EACH_PATTERN_OPTION(k) {
		int i, key = pattern_options[k].key, n = ftg_args_count(args, key);

		for (i = 0; i < n; i++) {
			const char *p = ftg_args_nth(args, key, i);

			if (ftg_arm_request_add(req, pattern_options[k].kind, p) < 0) {
				ftg_cmd_usage_error(ctx, args->entry, "bad pattern '%s': %s",
						    p, ftg_error_last());
				return FTG_CMD_ERROR;
			}
		}
	}
	return 0;
}

/* The session's kallsyms are the invocation's, which the map shares; the
 * kernel's function lists need tracefs, said first. */
static const struct ftg_kallsyms *session_kallsyms(void *data)
{
	struct ftg_cmd_ctx *ctx = data;

	if (ftg_cmd_need(ctx, FTG_NEED_TRACEFS))
		return NULL;
	return ftg_cmd_kallsyms(ctx);
}

/**
 * ftg_cmd_session_open - open a session on ftguard/control
 * @ctx: the invocation (its root, its kallsyms)
 *
 * Return: the session, or NULL after a message.
 */
struct ftg_session *ftg_cmd_session_open(struct ftg_cmd_ctx *ctx)
{
	struct ftg_session *sess = ftg_session_open(ftg_cmd_root(ctx));

	if (!sess) {
		ftg_cmd_lib_error(ctx, "opening ftguard/control");
		return NULL;
	}
	ftg_session_set_kallsyms(sess, session_kallsyms, ctx);
	return sess;
}

/**
 * ftg_cmd_session_said - say, with -v, which way the session's last call went
 * @ctx: the invocation
 * @sess: the session
 */
void ftg_cmd_session_said(struct ftg_cmd_ctx *ctx, const struct ftg_session *sess)
{
	unsigned int how = ftg_session_how(sess);

	if (ctx->verbosity <= 0)
		return;
	if (how & FTG_SESSION_NO_COUNT)
		ftg_cmd_info(ctx, "ftguard.ko keeps no record count: %s",
			     ftg_session_records_refusal(sess));
	if (how & FTG_SESSION_KNOWS_ALL)
		ftg_cmd_info(ctx, "ftguard.ko knows all %llu kernel functions: "
			     "selecting over its sites",
			     (unsigned long long)ftg_session_vmlinux_records(sess));
	if (how & FTG_SESSION_ALL)
		ftg_cmd_info(ctx, "ftguard.ko selected every site it holds");
}

/*
 * The module admits a vmlinux candidate only with proof (an ftrace record
 * at exactly the symbol's address): a refused function is no site and
 * leaves the selection, said once.
 */
static void say_refused(struct ftg_cmd_ctx *ctx, const struct ftg_session *sess)
{
	enum ftg_session_step step = ftg_session_step(sess);
	size_t n, nrefused;
	const struct ftg_candidates *refused = ftg_session_refused(sess, &n);

	if (!refused)
		return;		/* nothing was offered */
	nrefused = ftg_candidates_count(refused);
	if (!nrefused || (step != FTG_SESSION_STEP_NONE &&
				      step != FTG_SESSION_STEP_SELECT &&
				      step != FTG_SESSION_STEP_GRAPH))
		return;
	ftg_cmd_warn(ctx, "%zu of %zu functions left out: ftguard.ko "
		     "refused to admit them (the first: %s)",
		     nrefused, n, ftg_candidates_get(refused, 0)->name);
}

/* What the session was doing, for a step that only needs its name. */
static const char *const step_doing[] = {
	[FTG_SESSION_STEP_STATUS] = "reading ftguard/status",
	[FTG_SESSION_STEP_MODULE_SITES] = "reading the modules' sites",
	[FTG_SESSION_STEP_SITES] = "reading ftguard/sites",
	[FTG_SESSION_STEP_FUNCTIONS] = "reading available_filter_functions",
	[FTG_SESSION_STEP_ADMIT] = "offering kernel functions to ftguard.ko",
	[FTG_SESSION_STEP_SELECT] = "selecting sites",
	[FTG_SESSION_STEP_SELECT_ALL] = "selecting every site",
	[FTG_SESSION_STEP_GRAPH] = "selecting the -g functions",
};

/**
 * ftg_cmd_session_error - say where a session's call failed
 * @ctx: the invocation
 * @sess: the session
 *
 * Return: FTG_CMD_ERROR.
 */
int ftg_cmd_session_error(struct ftg_cmd_ctx *ctx, const struct ftg_session *sess)
{
	enum ftg_session_step step = ftg_session_step(sess);
	const struct ftg_candidates *refused;

	switch (step) {
	case FTG_SESSION_STEP_KALLSYMS:
		return FTG_CMD_ERROR;	/* session_kallsyms() said why */
	case FTG_SESSION_STEP_REFUSED:
		refused = ftg_session_refused(sess, NULL);
		ftg_cmd_error(ctx, "no selected function is a site: ftguard.ko "
			      "refused to admit %s (see last_error in "
			      "'ftguard status')", ftg_candidates_get(refused, 0)->name);
		return FTG_CMD_ERROR;
	case FTG_SESSION_STEP_RESOLVE:
		if (ftg_error_code() != FTG_E_NO_MATCH)
			break;
		ftg_cmd_error(ctx, "%s (see 'ftguard sites' and "
			      "available_filter_functions)", ftg_error_last());
		return FTG_CMD_ERROR;
	default:
		if ((size_t)step < sizeof(step_doing) / sizeof(step_doing[0]) &&
		    step_doing[step])
			return ftg_cmd_lib_error(ctx, step_doing[step]);
		break;
	}
	return ftg_cmd_lib_error(ctx, "selecting functions");
}

/**
 * ftg_cmd_session_done - say what a session's call did, then how it
 *	failed when it did
 * @ctx: the invocation
 * @sess: the session
 * @ret: the call's return
 *
 * Return: 0, or FTG_CMD_ERROR after a message when @ret < 0.
 */
int ftg_cmd_session_done(struct ftg_cmd_ctx *ctx, const struct ftg_session *sess, int ret)
{
	ftg_cmd_session_said(ctx, sess);
	say_refused(ctx, sess);
	return ret < 0 ? ftg_cmd_session_error(ctx, sess) : 0;
}

/*
 * --max-graph-depth N: levels below a -g function, 0 (the default) all;
 * the request knows the limit.
 */
static int set_graph_depth(struct ftg_cmd_ctx *ctx, const struct ftg_cmd_args *args,
			   struct ftg_arm_request *req)
{
	const char *arg = ftg_args_get(args, FTG_OPT_MAX_GRAPH_DEPTH);
	uint64_t n;

	if (!arg)
		return 0;
	if (ftg_parse_u64(arg, &n) < 0 ||
	    ftg_arm_request_set_max_depth(req, n > UINT_MAX ? UINT_MAX : n) < 0) {
		ftg_cmd_usage_error(ctx, args->entry, "--max-graph-depth %s: not a "
				    "count from 0 (all) to %u", arg, FTG_GRAPH_DEPTH_MAX);
		return FTG_CMD_ERROR;
	}
	return 0;
}

/* -p's words; an arm records entries alone or entries and returns */
const char *const ftg_cmd_tracers[] = { "function", "function_graph", NULL };
static const enum ftg_tracer tracer_of_word[] = {
	FTG_TRACER_FUNCTION, FTG_TRACER_FUNCTION_GRAPH,
};
_Static_assert(sizeof(tracer_of_word) / sizeof(tracer_of_word[0]) + 1 ==
	       sizeof(ftg_cmd_tracers) / sizeof(ftg_cmd_tracers[0]),
	       "a tracer for each of -p's words");

static void set_tracer(const struct ftg_cmd_args *args, struct ftg_arm_request *req)
{
	const char *word = ftg_args_get(args, 'p');
	size_t i;

	for (i = 0; word && ftg_cmd_tracers[i]; i++)
		if (!strcmp(word, ftg_cmd_tracers[i]))
			ftg_arm_request_set_tracer(req, tracer_of_word[i]);
}

/* The options that only add a flag to the arm */
static const struct {
	int key;
	unsigned int flag;
} flag_options[] = {
	{ FTG_OPT_FORCE, FTG_ARM_FORCE },
	{ 'T', FTG_ARM_STACK },
};

/* A request that cannot be armed, in the options' words */
static const char *const request_faults[] = {
	[FTG_ARM_REQUEST_EMPTY] = "nothing selected: give -l GLOB or -m MODULE",
	[FTG_ARM_REQUEST_ONLY_EXCLUSIONS] = "-n leaves functions out of a "
		"selection: give -l GLOB or -m MODULE too",
	[FTG_ARM_REQUEST_DEPTH_WITHOUT_TREE] = "--max-graph-depth limits a call "
		"tree: give -g FUNC too",
	[FTG_ARM_REQUEST_TREE_WITHOUT_RETURNS] = "-g traces a call tree with "
		"returns: -p function does not",
};

/**
 * ftg_cmd_arm_request - the arm request of the command line
 * @ctx: the invocation
 * @args: the parsed command line: -l/-n/-m/-g, --max-graph-depth, -p,
 *	-T, --force
 * @flags: FTG_ARM_* the command adds (FTG_ARM_PERSISTENT for start)
 * @required: refuse an empty selection (arming everything is never meant)
 * @req: set to the request, to free with ftg_arm_request_free(); NULL
 *	when nothing was selected and that is allowed
 *
 * The option tables' letters are read here, for every command that
 * selects or arms; what goes together (a tree records returns, a depth
 * needs a tree) is the library's to say.
 *
 * Return: 0, or FTG_CMD_ERROR after a message.
 */
int ftg_cmd_arm_request(struct ftg_cmd_ctx *ctx, const struct ftg_cmd_args *args,
			unsigned int flags, bool required, struct ftg_arm_request **req)
{
	enum ftg_arm_request_fault fault;
	size_t k;

	*req = NULL;
	if (ftg_cmd_check_globs(ctx, args))
		return FTG_CMD_ERROR;
	*req = ftg_arm_request_new();
	if (!*req)
		return ftg_cmd_lib_error(ctx, "arm request");
	if (add_patterns(ctx, args, *req) || set_graph_depth(ctx, args, *req))
		goto fail;
	set_tracer(args, *req);
	for (k = 0; k < sizeof(flag_options) / sizeof(flag_options[0]); k++)
		if (ftg_args_has(args, flag_options[k].key))
			flags |= flag_options[k].flag;
	ftg_arm_request_set_flags(*req, flags);
	fault = ftg_arm_request_fault(*req);
	if (fault == FTG_ARM_REQUEST_OK)
		return 0;
	if (fault == FTG_ARM_REQUEST_EMPTY && !required) {
		ftg_arm_request_free(*req);
		*req = NULL;
		return 0;
	}
	if (fault < sizeof(request_faults) / sizeof(request_faults[0]) &&
	    request_faults[fault])
		ftg_cmd_usage_error(ctx, args->entry, "%s", request_faults[fault]);
	else
		ftg_cmd_usage_error(ctx, args->entry, "%s", ftg_error_last());
fail:
	ftg_arm_request_free(*req);
	*req = NULL;
	return FTG_CMD_ERROR;
}

/**
 * ftg_cmd_select - send the -l/-n/-m/-g selection to the module
 * @ctx: the invocation
 * @args: the parsed command line
 * @sess: the session the selection is made on
 * @required: refuse an empty selection (arming everything is never meant)
 * @nsites: set to the number of sites selected (0: none given)
 *
 * The session resolves it (ftg_session_select_request()): over the
 * modules' sites, ftguard.ko's site table or the kernel's function
 * lists, the vmlinux candidates of the lists admitted first. With -g the
 * selection is a call tree: its roots, and as callees -l/-m or, without
 * them, every function.
 *
 * Return: 0, or FTG_CMD_ERROR after a message.
 */
int ftg_cmd_select(struct ftg_cmd_ctx *ctx, const struct ftg_cmd_args *args,
		   struct ftg_session *sess, bool required, size_t *nsites)
{
	struct ftg_arm_request *req;
	int ret;

	*nsites = 0;
	if (!ftg_cmd_root(ctx))
		return FTG_CMD_ERROR;
	if (ftg_cmd_arm_request(ctx, args, 0, required, &req))
		return FTG_CMD_ERROR;
	if (!req)
		return 0;
	ret = ftg_cmd_session_done(ctx, sess,
				   ftg_session_select_request(sess, req, nsites));
	if (!ret && ctx->verbosity > 0)
		ftg_cmd_info(ctx, "%zu sites selected", *nsites);
	ftg_arm_request_free(req);
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
