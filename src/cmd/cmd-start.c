// SPDX-License-Identifier: GPL-2.0
/*
 * `ftguard start`: check the selection, then arm it persistently (it stays
 * armed after ftguard exits, until `ftguard stop`).
 */
#include <errno.h>
#include <string.h>

#include "cmd/ftguard-cmd.h"

static const char *arm_refusal_hint(int err)
{
	switch (err) {
	case EPERM:
		return "ftguard.ko killed tracing; see 'ftguard status', then 'ftguard reset'";
	case EBUSY:
		return "already armed; 'ftguard stop' disarms";
	case E2BIG:
		return "more sites than max_arm; narrow the selection or use --force";
	case ENOENT:
		return "the selection is empty";
	default:
		return NULL;
	}
}

/* Show why an arm was refused: the findings when the check failed. */
static void print_refusal(const struct ftg_cmd_ctx *ctx, const struct ftg_map *map,
			  struct ftg_check_report *rep, int err, const char *reason)
{
	const char *hint = arm_refusal_hint(err);

	ftg_cmd_error(ctx, "refused: %s%s%s%s", reason, hint ? " (" : "",
		      hint ? hint : "", hint ? ")" : "");
	if (rep) {
		struct ftg_verdict *v = ftg_verdict_new(rep, map);

		if (v) {
			ftg_cmd_print_verdict(ctx, v, false);
			ftg_verdict_free(v);
		}
	}
}

/* -p's words; an arm records entries alone or entries and returns */
const char *const ftg_cmd_tracers[] = { "function", "function_graph", NULL };

static bool want_graph(const struct ftg_cmd_args *args)
{
	const char *p = ftg_args_get(args, 'p');

	return p && !strcmp(p, "function_graph");
}

/* The map for @rep's lines: @map, or built when @lazy and there are any. */
static const struct ftg_map *map_for(struct ftg_cmd_ctx *ctx, const struct ftg_map *map,
				     bool lazy, struct ftg_map **built,
				     const struct ftg_check_report *rep)
{
	if (map || !lazy || !rep || !ftg_check_report_count(rep))
		return map;
	if (!*built)
		*built = ftg_cmd_load_map(ctx);
	return *built;
}

/**
 * ftg_cmd_arm - select, check and arm the -l/-n/-m selection
 * @ctx: the invocation
 * @args: the parsed command line
 * @sess: the session whose control descriptor will own the arm
 * @map: the address map (NULL: the module's word only, unless @lazy_map)
 * @lazy_map: with @map NULL, build the map only when a check report has
 *	lines for it to judge
 * @flags: FTG_ARM_* (--force adds FTG_ARM_FORCE, -p function_graph
 *         FTG_ARM_GRAPH, -T FTG_ARM_STACK)
 * @nsites: set to the number of sites armed
 *
 * The map may see what the module cannot (a site it calls ok that lies in
 * freed text): the arm is refused on either's word. It judges only the
 * report's lines, the sites found bad or every site when fewer than 64
 * were checked: a clean check of more has none, and building the map
 * (kallsyms, the kernel's mappings) would cost more than that check
 * (doc/performance.md, figure 11), so @lazy_map leaves it unbuilt then.
 *
 * Return: FTG_CMD_OK, FTG_CMD_REFUSED or FTG_CMD_ERROR, after a message.
 */
int ftg_cmd_arm(struct ftg_cmd_ctx *ctx, const struct ftg_cmd_args *args,
		struct ftg_session *sess, const struct ftg_map *map, bool lazy_map,
		unsigned int flags, size_t *nsites)
{
	struct ftg_control *ctl = ftg_session_control(sess);
	struct ftg_check_report *rep = NULL;
	struct ftg_map *built = NULL;
	struct ftg_verdict *v;
	uint64_t nchecked;
	int ret = FTG_CMD_ERROR;

	if (ftg_args_has(args, 'g')) {
		const char *tracer = ftg_args_get(args, 'p');

		if (tracer && strcmp(tracer, "function_graph")) {
			ftg_cmd_usage_error(ctx, args->entry, "-g traces a call tree "
					    "with returns: -p %s does not", tracer);
			return FTG_CMD_ERROR;
		}
		/* the tree is what was asked for, whatever max_arm says */
		flags |= FTG_ARM_GRAPH | FTG_ARM_FORCE;
	}
	if (ftg_cmd_select(ctx, args, sess, true, nsites))
		return FTG_CMD_ERROR;
	rep = ftg_control_check(ctl);
	if (!rep)
		return ftg_cmd_lib_error(ctx, "checking");
	v = ftg_verdict_new(rep, map_for(ctx, map, lazy_map, &built, rep));
	ftg_check_report_free(rep);
	rep = NULL;
	if (!v) {
		ret = ftg_cmd_lib_error(ctx, "checking");
		goto out;
	}
	if (!ftg_verdict_ok(v)) {
		ftg_cmd_error(ctx, "refused: the check found inconsistent sites");
		ftg_cmd_print_verdict(ctx, v, false);
		ftg_verdict_free(v);
		ret = FTG_CMD_REFUSED;
		goto out;
	}
	nchecked = ftg_verdict_n_ok(v) + ftg_verdict_n_bad(v);
	ftg_verdict_free(v);
	if (ftg_args_has(args, FTG_OPT_FORCE))
		flags |= FTG_ARM_FORCE;
	if (want_graph(args))
		flags |= FTG_ARM_GRAPH;
	if (ftg_args_has(args, 'T'))
		flags |= FTG_ARM_STACK;
	if (ftg_control_arm(ctl, flags, &rep) < 0) {
		int err = errno;

		if (ftg_error_code() != FTG_E_MODULE_REFUSED) {
			ftg_cmd_lib_error(ctx, "arming");
		} else {
			char reason[512];

			/* the map's read may leave its own error */
			snprintf(reason, sizeof(reason), "%s", ftg_error_last());
			print_refusal(ctx, map_for(ctx, map, lazy_map, &built, rep), rep,
				      err, reason);
			ret = FTG_CMD_REFUSED;
		}
		goto out;
	}
	/* a tree arms what its roots may reach: say how much was proven */
	if (ftg_args_has(args, 'g'))
		ftg_cmd_info(ctx, "checked %llu sites, armed %zu (call tree of %s%s)",
			     (unsigned long long)nchecked, *nsites, ftg_args_nth(args, 'g', 0),
			     ftg_args_count(args, 'g') > 1 ? ", ..." : "");
	ret = FTG_CMD_OK;
out:
	ftg_check_report_free(rep);
	ftg_map_free(built);
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
	ret = ftg_cmd_arm(ctx, args, sess, NULL, true, FTG_ARM_PERSISTENT, &nsites);
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
