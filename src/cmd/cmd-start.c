// SPDX-License-Identifier: GPL-2.0
/*
 * `ftguard start`: check the selection, then arm it persistently (it stays
 * armed after ftguard exits, until `ftguard stop`).
 */
#include <errno.h>
#include <string.h>

#include "cmd/ftguard-cmd.h"

static const char *arm_refusal_hint(int err, const char *reason)
{
	switch (err) {
	case EPERM:
		return "ftguard.ko killed tracing; see 'ftguard status', then 'ftguard reset'";
	case EBUSY:
		/* else the kernel holds a stuck arm: the reason says so */
		if (strncmp(reason, "already armed", strlen("already armed")))
			return NULL;
		return "already armed; 'ftguard stop' disarms";
	case E2BIG:
		return "more sites than max_arm; narrow the selection or use --force";
	case ENOENT:
		return "the selection is empty";
	default:
		return NULL;
	}
}

/* Show why the module refused to arm, and the findings of its report. */
static void print_refusal(const struct ftg_cmd_ctx *ctx, const struct ftg_verdict *v,
			  int err, const char *reason)
{
	const char *hint = arm_refusal_hint(err, reason);

	ftg_cmd_error(ctx, "refused: %s%s%s%s", reason, hint ? " (" : "",
		      hint ? hint : "", hint ? ")" : "");
	if (v)
		ftg_cmd_print_verdict(ctx, v, false);
}

/*
 * What ftg_session_arm() did, in the command's words: the session's
 * selection as check says it, the map that could not be built, then the
 * refusal with its findings, or for a call tree how much was proven.
 */
static int print_outcome(struct ftg_cmd_ctx *ctx, const struct ftg_arm_request *req,
			 const struct ftg_session *sess, const struct ftg_arm_outcome *out)
{
	enum ftg_arm_stage stage = ftg_arm_outcome_stage(out);
	const struct ftg_verdict *v = ftg_arm_outcome_verdict(out);
	const char *reason;
	int err = ftg_arm_outcome_error(out, &reason);

	if (stage == FTG_ARM_STAGE_SELECT)
		return ftg_cmd_session_done(ctx, sess, -1);
	ftg_cmd_session_done(ctx, sess, 0);
	if (ctx->verbosity > 0)
		ftg_cmd_info(ctx, "%zu sites selected", ftg_arm_outcome_selected(out));
	if (ftg_arm_outcome_map_error(out))
		ftg_cmd_warn(ctx, "no address map (%s): sites are not cross-checked",
			     ftg_arm_outcome_map_error(out));
	switch (stage) {
	case FTG_ARM_STAGE_CHECK:
		if (!v) {
			ftg_cmd_error(ctx, "checking: %s", reason);
			return FTG_CMD_ERROR;
		}
		ftg_cmd_error(ctx, "refused: the check found inconsistent sites");
		ftg_cmd_print_verdict(ctx, v, false);
		return FTG_CMD_REFUSED;
	case FTG_ARM_STAGE_ARM:
		if (ftg_error_code() != FTG_E_MODULE_REFUSED) {
			ftg_cmd_error(ctx, "arming: %s", reason);
			return FTG_CMD_ERROR;
		}
		print_refusal(ctx, v, err, reason);
		return FTG_CMD_REFUSED;
	case FTG_ARM_STAGE_ARMED:
		break;
	default:
		ftg_cmd_error(ctx, "arming: %s", reason);
		return FTG_CMD_ERROR;
	}
	/* a tree arms what its roots may reach: say how much was proven */
	if (ftg_arm_request_count(req, FTG_ARM_ROOTS))
		ftg_cmd_info(ctx, "checked %llu sites, armed %zu (call tree of %s%s)",
			     (unsigned long long)ftg_arm_outcome_checked(out),
			     ftg_arm_outcome_selected(out),
			     ftg_arm_request_pattern(req, FTG_ARM_ROOTS, 0),
			     ftg_arm_request_count(req, FTG_ARM_ROOTS) > 1 ? ", ..." : "");
	return FTG_CMD_OK;
}

/**
 * ftg_cmd_arm - select, check and arm the command line's request
 * @ctx: the invocation
 * @args: the parsed command line
 * @sess: the session whose control descriptor will own the arm
 * @map: the address map (NULL: the library builds one when a check
 *	report has lines for it to judge)
 * @flags: FTG_ARM_* the command adds (FTG_ARM_PERSISTENT for start)
 * @nsites: set to the number of sites armed
 *
 * The request is the command line's (ftg_cmd_arm_request()); the library
 * keeps the promise (ftg_session_arm()): armed only when ftguard.ko and
 * the address map both call every site consistent.
 *
 * Return: FTG_CMD_OK, FTG_CMD_REFUSED or FTG_CMD_ERROR, after a message.
 */
int ftg_cmd_arm(struct ftg_cmd_ctx *ctx, const struct ftg_cmd_args *args,
		struct ftg_session *sess, const struct ftg_map *map,
		unsigned int flags, size_t *nsites)
{
	struct ftg_arm_outcome *out = NULL;
	struct ftg_arm_request *req;
	int ret;

	*nsites = 0;
	if (!ftg_cmd_root(ctx) || ftg_cmd_arm_request(ctx, args, flags, true, &req))
		return FTG_CMD_ERROR;
	ftg_session_set_map(sess, map);
	ftg_session_arm(sess, req, &out);
	if (!out) {
		ftg_arm_request_free(req);
		return ftg_cmd_lib_error(ctx, "arming");
	}
	ret = print_outcome(ctx, req, sess, out);
	*nsites = ftg_arm_outcome_selected(out);
	ftg_arm_outcome_free(out);
	ftg_arm_request_free(req);
	return ret;
}

static int start_exec(struct ftg_cmd_ctx *ctx, const struct ftg_cmd_args *args)
{
	struct ftg_cmd_events events = { 0 };
	struct ftg_instance *inst = NULL;
	struct ftg_session *sess = NULL;
	size_t nsites;
	int ret;

	if (ftg_cmd_live_args(ctx, args, &events, "changes the live system"))
		return FTG_CMD_ERROR;
	inst = ftg_instance_open(ftg_cmd_root(ctx));
	if (!inst) {
		ret = ftg_cmd_lib_error(ctx, "opening the ftguard trace instance");
		goto out;
	}
	if (events.n) {
		ret = ftg_cmd_events_enable(ctx, &events, inst, NULL);
		if (ret != FTG_CMD_OK)
			goto out;
	}
	if (ftg_cmd_events_only(args, &events)) {
		ftg_cmd_info(ctx, "enabled %d event selection%s ('ftguard stop' turns "
			     "them off)", events.n, events.n == 1 ? "" : "s");
		ret = FTG_CMD_OK;
		goto out;
	}
	sess = ftg_cmd_session_open(ctx);
	if (!sess) {
		ret = FTG_CMD_ERROR;
		goto out;
	}
	ret = ftg_cmd_arm(ctx, args, sess, NULL, FTG_ARM_PERSISTENT, &nsites);
	if (ret == FTG_CMD_OK)
		ftg_cmd_info(ctx, "armed %zu sites%s (persistent: 'ftguard stop' disarms)",
			     nsites, events.n ? " and enabled the events" : "");
out:
	/* a refused start changes nothing: its events go off again */
	if (ret != FTG_CMD_OK)
		ftg_cmd_instance_restore(ctx, inst);
	/* the kernel's tgid of each task, for extract (stop turns it off) */
	if (ret == FTG_CMD_OK)
		ftg_instance_set_option(inst, "record-tgid", true);
	ftg_instance_free(inst);
	ftg_cmd_events_release(&events);
	ftg_session_close(sess);
	return ret;
}

static const struct ftg_cmd_option start_options[] = {
	FTG_OPTIONS_TRACE_SETUP,
	FTG_OPTION_FORCE,
	FTG_OPTION_END
};

const struct ftg_cmd_entry ftg_cmd_start_entry = {
	.name = "start",
	.usage = "(-l GLOB | -m MODULE | -g GLOB | -e SYSTEM[:EVENT] [-f FILTER])... [-n GLOB]... "
		 "[-p TRACER] [-T] [--max-graph-depth N] [--force]",
	.summary = "Check the selected sites and arm them until 'ftguard stop'",
	.description =
		"Selects sites as 'ftguard check' does, checks them, and arms them\n"
		"only if every one is consistent, both for ftguard.ko and for the\n"
		"address map. The arm is persistent: it outlives this command.\n"
		"Events go to the 'ftguard' trace instance; read them with\n"
		"'ftguard stream' or 'trace-cmd extract -B ftguard'.\n"
		"\n"
		"-p function_graph records each call's entry and return\n"
		"(ftguard:graph_entry, ftguard:graph_exit) with its depth and\n"
		"duration instead of entries alone; see ftguard-record(1).\n"
		"-g FUNC arms FUNC's call tree (every function it calls, each\n"
		"checked first) with --max-graph-depth N, as record -g does.\n"
		"-T (--func-stack) follows each entry with the kernel stack it was\n"
		"called from (ftguard:stack), as record -T does (with\n"
		"-p function_graph or -g, each outermost call's entry).\n"
		"\n"
		"-e SYSTEM[:EVENT] enables kernel tracepoints in the same instance,\n"
		"as record -e does (same names and errors; -e alone arms nothing).\n"
		"They stay on after start, as the arm does, until 'ftguard stop' or\n"
		"'ftguard reset' turns off every event of the instance but\n"
		"ftguard's own; 'ftguard extract' writes their formats into the\n"
		"file. A refused start turns off what it enabled.\n"
		"\n"
		"-f FILTER after an -e filters its events in the kernel, as record -f\n"
		"does; the filter is set before anything is enabled or armed, a\n"
		"filter the kernel refuses ends start with the kernel's message, and\n"
		"'ftguard stop' or 'ftguard reset' clear it with the events.\n"
		"\n"
		"'ftguard record' arms for the time of one command instead, and\n"
		"always disarms.",
	.exit_status =
		"0 armed; 1 refused (inconsistent sites, already armed, killed;\n"
		"the reasons and regions are printed); 2 usage or system error, or\n"
		"a filter the kernel refused.",
	.examples =
		"ftguard start -m ftg_target && sleep 10 && ftguard stop\n"
		"  Trace the test module's functions for ten seconds.\n"
		"ftguard start -e sched:sched_switch -l vfs_read; dd if=/dev/zero of=/dev/null count=10\n"
		"ftguard stop; ftguard extract -o f.dat; trace-cmd report f.dat\n"
		"  Function calls and context switches in one file.",
	.options = start_options,
	.min_args = 0,
	.max_args = 0,
	.exec = start_exec,
};
