// SPDX-License-Identifier: GPL-2.0
/*
 * `ftguard report`: the events of a trace.dat, one line each as trace-cmd
 * report prints them, or as JSON or CSV.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "cmd/ftguard-cmd.h"

#define REPORT_LINE_MAX 512

/*
 * A graph_entry waits for the next event: when that is its own return,
 * the call prints as one leaf line, "func();", as trace-cmd prints
 * function_graph.
 */
struct report_state {
	bool pending;
	struct ftg_event entry;
	bool full_ts;			/* -t */
};

/*
 * Prints @line, made for @ev; with @full_ts (-t) its timestamp to the
 * nanosecond instead of the microsecond.
 */
static int print_line(char *line, const struct ftg_event *ev, bool full_ts)
{
	char us[48], ns[48];
	uint64_t rounded = (ev->ts_ns + 500) / 1000;
	char *at;

	if (full_ts) {
		snprintf(us, sizeof(us), "] %" PRIu64 ".%06" PRIu64 ": ",
			 rounded / 1000000, rounded % 1000000);
		snprintf(ns, sizeof(ns), "] %" PRIu64 ".%09" PRIu64 ": ",
			 ev->ts_ns / 1000000000, ev->ts_ns % 1000000000);
		at = strstr(line, us);
		if (at && strlen(line) + strlen(ns) - strlen(us) < REPORT_LINE_MAX) {
			memmove(at + strlen(ns), at + strlen(us), strlen(at + strlen(us)) + 1);
			memcpy(at, ns, strlen(ns));
		}
	}
	ftg_print_safe(stdout, line);	/* comm and names come from the kernel */
	putchar('\n');
	return ferror(stdout) ? -1 : 0;
}

static int print_graph(const struct report_state *st, const struct ftg_event *entry,
		       const struct ftg_event *exit)
{
	char line[REPORT_LINE_MAX];

	ftg_graph_snprint(line, sizeof(line), entry, exit);
	return print_line(line, entry ? entry : exit, st->full_ts);
}

static int flush_entry(struct report_state *st)
{
	if (!st->pending)
		return 0;
	st->pending = false;
	return print_graph(st, &st->entry, NULL);
}

static bool returns_from(const struct ftg_event *exit, const struct ftg_event *entry)
{
	return ftg_event_is_graph_exit(exit) && exit->pid == entry->pid &&
	       exit->ip == entry->ip && exit->depth == entry->depth;
}

static int print_event_line(const struct ftg_event *ev, void *data)
{
	struct report_state *st = data;
	char line[REPORT_LINE_MAX];

	if (st->pending && returns_from(ev, &st->entry)) {
		st->pending = false;
		return print_graph(st, &st->entry, ev);
	}
	if (flush_entry(st))
		return -1;
	if (ftg_event_is_graph_entry(ev)) {
		st->entry = *ev;
		st->pending = true;
		return 0;
	}
	if (ftg_event_is_graph_exit(ev))
		return print_graph(st, NULL, ev);
	ftg_event_snprint(line, sizeof(line), ev);
	if (print_line(line, ev, st->full_ts))
		return -1;
	/* under the stack event's line, as trace-cmd report prints it */
	return ftg_cmd_print_stack(stdout, ev);
}

static void print_us(uint64_t ns)
{
	printf(" %10" PRIu64 ".%03" PRIu64, ns / 1000, ns % 1000);
}

static int print_stats(struct ftg_cmd_ctx *ctx, struct ftg_graph_stats *st,
		       const char *path)
{
	const struct ftg_graph_stat *f;
	size_t i;

	if (!ftg_graph_stats_count(st))
		ftg_cmd_info(ctx, "%s holds no function returns (record with -p function_graph)",
			     path);
	printf("%-40s %10s %14s %14s %14s\n", "function", "calls", "total us",
	       "mean us", "max us");
	for (i = 0; (f = ftg_graph_stats_get(st, i)); i++) {
		char name[FTG_SYM_LEN + 8];

		snprintf(name, sizeof(name), "%-40s", f->sym);
		ftg_print_safe(stdout, name);
		printf(" %10" PRIu64, f->calls);
		print_us(f->total_ns);
		print_us(f->total_ns / f->calls);
		print_us(f->max_ns);
		putchar('\n');
	}
	return ferror(stdout) ? -1 : 0;
}

/**
 * ftg_cmd_open_trace - open a trace.dat, saying where it is broken if it is
 * @ctx: the invocation
 * @path: the file
 *
 * Return: the open file, or NULL after a message naming file and offset.
 */
struct ftg_trace_file *ftg_cmd_open_trace(struct ftg_cmd_ctx *ctx, const char *path)
{
	struct ftg_trace_file *tf;

	tf = ftg_trace_file_open(path);
	if (!tf)
		ftg_cmd_error(ctx, "%s", ftg_error_last());
	return tf;
}

/* Runs every event of @tf through @cb; a failed iteration names the file. */
int ftg_cmd_iterate_trace(struct ftg_cmd_ctx *ctx, struct ftg_trace_file *tf,
			  const char *path, ftg_event_cb cb, void *data)
{
	int ret = ftg_trace_file_iterate(tf, cb, data);

	if (ret < 0) {
		ftg_cmd_error(ctx, "%s: %s", path, ftg_error_last());
		return FTG_CMD_ERROR;
	}
	if (ret > 0 || ferror(stdout)) {
		ftg_cmd_error(ctx, "writing the output: %s", strerror(errno));
		return FTG_CMD_ERROR;
	}
	return FTG_CMD_OK;
}

/*
 * -F, -v and --cpu: the library compiles the filters (libtraceevent's
 * engine, trace-cmd report's syntax) and applies them while it reads.
 */
static int report_select(struct ftg_cmd_ctx *ctx, const struct ftg_cmd_args *args,
			 struct ftg_trace_file *tf)
{
	bool exclude = ftg_args_has(args, 'v');
	int i;

	for (i = 0; i < ftg_args_count(args, FTG_OPT_CPU); i++) {
		if (ftg_trace_file_add_cpus(tf, ftg_args_nth(args, FTG_OPT_CPU, i))) {
			ftg_cmd_error_lines(ctx, "--cpu: ", ftg_error_last());
			return FTG_CMD_ERROR;
		}
	}
	for (i = 0; i < ftg_args_count(args, 'F'); i++) {
		if (ftg_trace_file_add_filter(tf, ftg_args_nth(args, 'F', i), exclude)) {
			ftg_cmd_error_lines(ctx, "-F: ", ftg_error_last());
			return FTG_CMD_ERROR;
		}
	}
	return 0;
}

static int report_exec(struct ftg_cmd_ctx *ctx, const struct ftg_cmd_args *args)
{
	const char *path = ftg_args_get(args, 'i');
	bool json = ftg_args_has(args, FTG_OPT_JSON);
	bool csv = ftg_args_has(args, FTG_OPT_CSV);
	bool stat = ftg_args_has(args, FTG_OPT_STAT);
	struct report_state st = { 0 };
	struct ftg_graph_stats *stats;
	struct ftg_trace_file *tf;
	struct ftg_exporter *ex = NULL;
	int ret;

	if (json + csv + stat > 1) {
		ftg_cmd_usage_error(ctx, args->entry,
				    "--json, --csv and --stat exclude each other");
		return FTG_CMD_ERROR;
	}
	if (ftg_args_has(args, 'v') && !ftg_args_has(args, 'F')) {
		ftg_cmd_usage_error(ctx, args->entry, "-v inverts -F: give a -F");
		return FTG_CMD_ERROR;
	}
	if (!path)
		path = args->argc ? args->argv[0] : "trace.dat";
	tf = ftg_cmd_open_trace(ctx, path);
	if (!tf)
		return FTG_CMD_ERROR;
	if (report_select(ctx, args, tf)) {
		ftg_trace_file_close(tf);
		return FTG_CMD_ERROR;
	}
	if (stat) {
		stats = ftg_graph_stats_new();
		if (!stats) {
			ftg_trace_file_close(tf);
			return ftg_cmd_lib_error(ctx, "counting the calls");
		}
		ret = ftg_cmd_iterate_trace(ctx, tf, path, ftg_graph_stats_cb, stats);
		if (ret == FTG_CMD_OK && print_stats(ctx, stats, path))
			ret = ftg_cmd_lib_error(ctx, "writing the output");
		ftg_graph_stats_free(stats);
	} else if (json || csv) {
		ex = ftg_exporter_open(stdout, json ? FTG_EXPORT_JSON : FTG_EXPORT_CSV);
		if (!ex) {
			ftg_trace_file_close(tf);
			return ftg_cmd_lib_error(ctx, "starting the output");
		}
		ret = ftg_cmd_iterate_trace(ctx, tf, path, ftg_exporter_cb, ex);
		if (ftg_exporter_close(ex) < 0 && ret == FTG_CMD_OK)
			ret = ftg_cmd_lib_error(ctx, "writing the output");
	} else {
		st.full_ts = ftg_args_has(args, 't');
		ret = ftg_cmd_iterate_trace(ctx, tf, path, print_event_line, &st);
		if (ret == FTG_CMD_OK && flush_entry(&st))
			ret = ftg_cmd_lib_error(ctx, "writing the output");
	}
	ftg_trace_file_close(tf);
	return ret;
}

static const struct ftg_cmd_option report_options[] = {
	{ .key = 'i', .long_name = "input", .arg_name = "FILE",
	  .help = "read FILE (default trace.dat)",
	  .complete = FTG_COMPLETE_FILE },
	{ .key = FTG_OPT_CPU, .long_name = "cpu", .arg_name = "LIST",
	  .help = "only events of the CPUs in LIST, numbers and ranges: 0-3,6 "
		  "(repeatable)", .repeatable = true },
	{ .key = 'F', .long_name = "filter", .arg_name = "FILTER",
	  .help = "only events FILTER selects, trace-cmd report's syntax: "
		  "[EVENTS:]EXPR or EVENTS (repeatable: any one selects; see "
		  "DESCRIPTION)", .repeatable = true },
	{ .key = 'v', .long_name = "invert",
	  .help = "show the events the -F filters do not select" },
	{ .key = 't', .long_name = "nanoseconds",
	  .help = "print full timestamps, to the nanosecond" },
	FTG_OPTION_JSON,
	{ .key = FTG_OPT_CSV, .long_name = "csv",
	  .help = "print CSV with a header line" },
	{ .key = FTG_OPT_STAT, .long_name = "stat",
	  .help = "per function: calls, total, mean and max duration (function_graph)" },
	FTG_OPTION_END
};

const struct ftg_cmd_entry ftg_cmd_report_entry = {
	.name = "report",
	.usage = "[-i FILE] [--cpu LIST]... [-F FILTER]... [-v] [-t] [--json | --csv | --stat] [FILE]",
	.summary = "Print the events of a trace.dat file",
	.description =
		"Reads a trace.dat written by 'ftguard record' (or by trace-cmd) and\n"
		"prints one line per event, in time order across CPUs, as\n"
		"'trace-cmd report' does: task and pid, CPU, timestamp, event name,\n"
		"and for function events 'function <- caller'.\n"
		"\n"
		"A record made with -T prints each entry's kernel stack as trace-cmd\n"
		"does: a 'kernel_stack: <stack trace >' line, then one line per\n"
		"caller, '=> function+0xoffset', innermost first. --csv puts them\n"
		"in its last column, 'stack', joined by ';' (see ftguard-export(1)).\n"
		"\n"
		"A record made with -p function_graph prints as trace-cmd prints\n"
		"the function_graph tracer: calls nest with '{' and '}', two spaces\n"
		"per depth, a call that returns before anything else happens is one\n"
		"line 'func();', and each return shows its duration in microseconds,\n"
		"marked + ! # * @ $ above 10 us, 100 us, 1 ms, 10 ms, 100 ms and 1 s.\n"
		"--stat prints instead, per function, the returns seen, their total,\n"
		"mean and longest duration, the largest total first.\n"
		"\n"
		"A damaged file is refused with the file name and the offset at\n"
		"which it stops making sense.\n"
		"\n"
		"--cpu keeps the events of the CPUs listed (0-3,6), and -t prints\n"
		"timestamps to the nanosecond, as trace-cmd report's --cpu and -t.\n"
		"\n"
		"-F takes trace-cmd report's filters, compiled by libtraceevent's\n"
		"filter engine: 'EVENTS:EXPR' keeps the events of EVENTS for which\n"
		"EXPR holds, 'EVENTS' alone keeps those events, and 'EXPR' alone\n"
		"applies to every event. EVENTS is EVENT or SYSTEM/EVENT (each a\n"
		"regex over the names; SYSTEM:EVENT alone as -e writes it), or a\n"
		"comma-separated list of them. EXPR compares an event's fields\n"
		"('trace-cmd report --events' lists them: common_pid for every\n"
		"event, ip and parent_ip for functions...), and COMM and CPU, with\n"
		"== != < <= > >= & =~ (a regex) or ~ (a \"glob\", as the kernel's\n"
		"event filters), joined by &&, || and !, with parentheses. A\n"
		"function's address compared with a \"string\" compares its name:\n"
		"'ip == \"vfs_read\"'. An event is shown when any -F selects it;\n"
		"with -v, when none does. A filter that does not parse, names a\n"
		"field no selected event has, or an event the file does not hold,\n"
		"is refused with a caret under the place, and nothing is printed.",
	.exit_status = "0 the events were printed; 2 the file is unreadable or corrupt,\n"
		"or a filter or CPU list is malformed.",
	.examples =
		"ftguard report -i trace.dat | grep fn_a\n"
		"  The calls of fn_a, with their callers.\n"
		"\n"
		"ftguard report -F 'ip == \"vfs_read\" && common_pid != 1' --cpu 0-3\n"
		"  The calls of vfs_read on CPUs 0 to 3, but init's.\n"
		"\n"
		"ftguard report -F 'sched/sched_switch: prev_pid == 0' -F ftguard/func\n"
		"  Switches away from the idle task, and every function call.\n"
		"\n"
		"ftguard report -v -F 'COMM ~ \"kworker*\"'\n"
		"  Every event but the kernel workers'.\n"
		"\n"
		"ftguard report --csv > events.csv\n"
		"  The events of ./trace.dat as CSV.\n"
		"\n"
		"ftguard report --stat graph.dat\n"
		"  Calls and durations per function of a function_graph record.",
	.options = report_options,
	.min_args = 0,
	.max_args = 1,
	.operand_complete = FTG_COMPLETE_FILE,
	.exec = report_exec,
};
