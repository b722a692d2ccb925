// SPDX-License-Identifier: GPL-2.0
/*
 * `ftguard report`: the events of a trace.dat, one line each as trace-cmd
 * report prints them, or as JSON or CSV.
 */
#include <errno.h>
#include <inttypes.h>
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
};

static int print_line(const char *line)
{
	ftg_print_safe(stdout, line);	/* comm and names come from the kernel */
	putchar('\n');
	return ferror(stdout) ? -1 : 0;
}

static int print_graph(const struct ftg_event *entry, const struct ftg_event *exit)
{
	char line[REPORT_LINE_MAX];

	ftg_graph_snprint(line, sizeof(line), entry, exit);
	return print_line(line);
}

static int flush_entry(struct report_state *st)
{
	if (!st->pending)
		return 0;
	st->pending = false;
	return print_graph(&st->entry, NULL);
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
		return print_graph(&st->entry, ev);
	}
	if (flush_entry(st))
		return -1;
	if (ftg_event_is_graph_entry(ev)) {
		st->entry = *ev;
		st->pending = true;
		return 0;
	}
	if (ftg_event_is_graph_exit(ev))
		return print_graph(NULL, ev);
	ftg_event_snprint(line, sizeof(line), ev);
	return print_line(line);
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
	char err[512] = "";

	tf = ftg_trace_file_open(path, err, sizeof(err));
	if (!tf) {
		if (*err)
			ftg_cmd_error(ctx, "%s", err);
		else
			ftg_cmd_error(ctx, "%s: %s", path, strerror(errno));
	}
	return tf;
}

/* Runs every event of @tf through @cb; a failed iteration names the file. */
int ftg_cmd_iterate_trace(struct ftg_cmd_ctx *ctx, struct ftg_trace_file *tf,
			  const char *path, ftg_event_cb cb, void *data)
{
	int ret = ftg_trace_file_iterate(tf, cb, data);

	if (ret < 0) {
		ftg_cmd_error(ctx, "%s: %s", path, *ftg_error_last() ? ftg_error_last()
						  : "cannot read the events (corrupt file?)");
		return FTG_CMD_ERROR;
	}
	if (ret > 0 || ferror(stdout)) {
		ftg_cmd_error(ctx, "writing the output: %s", strerror(errno));
		return FTG_CMD_ERROR;
	}
	return FTG_CMD_OK;
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
	if (!path)
		path = args->argc ? args->argv[0] : "trace.dat";
	tf = ftg_cmd_open_trace(ctx, path);
	if (!tf)
		return FTG_CMD_ERROR;
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
	FTG_OPTION_JSON,
	{ .key = FTG_OPT_CSV, .long_name = "csv",
	  .help = "print CSV with a header line" },
	{ .key = FTG_OPT_STAT, .long_name = "stat",
	  .help = "per function: calls, total, mean and max duration (function_graph)" },
	FTG_OPTION_END
};

const struct ftg_cmd_entry ftg_cmd_report_entry = {
	.name = "report",
	.usage = "[-i FILE] [--json | --csv | --stat] [FILE]",
	.summary = "Print the events of a trace.dat file",
	.description =
		"Reads a trace.dat written by 'ftguard record' (or by trace-cmd) and\n"
		"prints one line per event, in time order across CPUs, as\n"
		"'trace-cmd report' does: task and pid, CPU, timestamp, event name,\n"
		"and for function events 'function <- caller'.\n"
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
		"which it stops making sense.",
	.exit_status = "0 the events were printed; 2 the file is unreadable or corrupt.",
	.examples =
		"ftguard report -i trace.dat | grep fn_a\n"
		"  The calls of fn_a, with their callers.\n"
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
