// SPDX-License-Identifier: GPL-2.0
/*
 * `ftguard report`: the events of a trace.dat, one line each as trace-cmd
 * report prints them, or as JSON or CSV.
 */
#include <errno.h>
#include <string.h>

#include "cmd/ftguard-cmd.h"

#define REPORT_LINE_MAX 512

static int print_event_line(const struct ftg_event *ev, void *data)
{
	char line[REPORT_LINE_MAX];

	ftg_event_snprint(line, sizeof(line), ev);
	ftg_print_safe(stdout, line);	/* comm and names come from the kernel */
	putchar('\n');
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
	struct ftg_trace_file *tf;
	struct ftg_exporter *ex = NULL;
	int ret;

	if (json && csv) {
		ftg_cmd_usage_error(ctx, args->entry, "--json and --csv exclude each other");
		return FTG_CMD_ERROR;
	}
	if (!path)
		path = args->argc ? args->argv[0] : "trace.dat";
	tf = ftg_cmd_open_trace(ctx, path);
	if (!tf)
		return FTG_CMD_ERROR;
	if (json || csv) {
		ex = ftg_exporter_open(stdout, json ? FTG_EXPORT_JSON : FTG_EXPORT_CSV);
		if (!ex) {
			ftg_trace_file_close(tf);
			return ftg_cmd_lib_error(ctx, "starting the output");
		}
		ret = ftg_cmd_iterate_trace(ctx, tf, path, ftg_exporter_cb, ex);
		if (ftg_exporter_close(ex) < 0 && ret == FTG_CMD_OK)
			ret = ftg_cmd_lib_error(ctx, "writing the output");
	} else {
		ret = ftg_cmd_iterate_trace(ctx, tf, path, print_event_line, NULL);
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
	FTG_OPTION_END
};

const struct ftg_cmd_entry ftg_cmd_report_entry = {
	.name = "report",
	.usage = "[-i FILE] [--json | --csv] [FILE]",
	.summary = "Print the events of a trace.dat file",
	.description =
		"Reads a trace.dat written by 'ftguard record' (or by trace-cmd) and\n"
		"prints one line per event, in time order across CPUs, as\n"
		"'trace-cmd report' does: task and pid, CPU, timestamp, event name,\n"
		"and for function events 'function <- caller'.\n"
		"\n"
		"A damaged file is refused with the file name and the offset at\n"
		"which it stops making sense.",
	.exit_status = "0 the events were printed; 2 the file is unreadable or corrupt.",
	.examples =
		"ftguard report -i trace.dat | grep fn_a\n"
		"  The calls of fn_a, with their callers.\n"
		"\n"
		"ftguard report --csv > events.csv\n"
		"  The events of ./trace.dat as CSV.",
	.options = report_options,
	.min_args = 0,
	.max_args = 1,
	.operand_complete = FTG_COMPLETE_FILE,
	.exec = report_exec,
};
