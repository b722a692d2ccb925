// SPDX-License-Identifier: GPL-2.0
/*
 * `ftguard stream`: print the ftguard instance's events as they come, until
 * interrupted. Arms nothing: it shows what 'ftguard start' (or a record
 * running elsewhere) produces.
 */
#include <errno.h>
#include <string.h>
#include <unistd.h>

#include "cmd/ftguard-cmd.h"

#define STREAM_POLL_MS 200
#define STREAM_LINE_MAX 512

struct stream_state {
	struct ftg_exporter *ex;	/* --json / --csv, else text lines */
};

static int stream_event(const struct ftg_event *ev, void *data)
{
	struct stream_state *st = data;
	char line[STREAM_LINE_MAX];

	if (st->ex)
		return ftg_exporter_add(st->ex, ev) < 0 ? -1 : 0;
	ftg_event_snprint(line, sizeof(line), ev);
	ftg_print_safe(stdout, line);
	putchar('\n');
	return ferror(stdout) ? -1 : 0;
}

static int stream_exec(struct ftg_cmd_ctx *ctx, const struct ftg_cmd_args *args)
{
	bool json = ftg_args_has(args, FTG_OPT_JSON);
	bool csv = ftg_args_has(args, FTG_OPT_CSV);
	struct stream_state st = { NULL };
	struct ftg_trace_counters counters;
	struct ftg_saved_signals saved;
	struct ftg_live *live;
	struct ftg_root *root;
	int ret = FTG_CMD_OK;

	if (json && csv) {
		ftg_cmd_usage_error(ctx, args->entry, "--json and --csv exclude each other");
		return FTG_CMD_ERROR;
	}
	if (ctx->root) {
		ftg_cmd_error(ctx, "stream reads the live system: --root is not allowed");
		return FTG_CMD_ERROR;
	}
	if (ftg_cmd_need(ctx, FTG_NEED_ROOT_USER | FTG_NEED_MODULE | FTG_NEED_TRACEFS))
		return FTG_CMD_ERROR;
	root = ftg_cmd_root(ctx);
	live = ftg_live_open(ftg_root_tracefs(root), NULL, ftg_root_proc(root), 0);
	if (!live)
		return ftg_cmd_lib_error(ctx, "opening the ftguard trace instance");
	if (json || csv) {
		st.ex = ftg_exporter_open(stdout, json ? FTG_EXPORT_JSON : FTG_EXPORT_CSV);
		if (!st.ex) {
			ftg_live_free(live);
			return ftg_cmd_lib_error(ctx, "starting the output");
		}
	}
	if (isatty(STDOUT_FILENO) == 0)
		setvbuf(stdout, NULL, _IOLBF, 0);	/* a pipe sees events promptly */
	ftg_cmd_info(ctx, "streaming; Ctrl-C stops");
	ftg_cmd_catch_signals(&saved);
	while (!ftg_cmd_interrupted) {
		if (ftg_live_pump(live, STREAM_POLL_MS, NULL, stream_event, &st) < 0) {
			if (errno == EINTR)
				continue;
			ret = ftg_cmd_lib_error(ctx, "reading events");
			break;
		}
		fflush(stdout);
	}
	if (ret == FTG_CMD_OK && ftg_live_drain(live, NULL, stream_event, &st) < 0)
		ret = ftg_cmd_lib_error(ctx, "reading events");
	ftg_cmd_restore_signals(&saved);
	if (st.ex && ftg_exporter_close(st.ex) < 0 && ret == FTG_CMD_OK)
		ret = ftg_cmd_lib_error(ctx, "writing the output");
	fflush(stdout);
	if (ftg_live_counters(live, &counters) == 0)
		ftg_cmd_info(ctx, "%llu events, %llu lost",
			     (unsigned long long)counters.events,
			     (unsigned long long)counters.lost);
	ftg_live_free(live);
	return ret;
}

static const struct ftg_cmd_option stream_options[] = {
	FTG_OPTION_JSON,
	{ .key = FTG_OPT_CSV, .long_name = "csv",
	  .help = "print CSV with a header line" },
	FTG_OPTION_END
};

const struct ftg_cmd_entry ftg_cmd_stream_entry = {
	.name = "stream",
	.usage = "[--json | --csv]",
	.summary = "Print trace events live until interrupted",
	.description =
		"Reads the 'ftguard' trace instance as events arrive and prints\n"
		"them like 'ftguard report' until Ctrl-C (SIGINT) or SIGTERM. It\n"
		"arms nothing: arm with 'ftguard start' first. Events it reads are\n"
		"consumed from the instance's buffer.",
	.exit_status = "0 stopped by a signal; 2 an error.",
	.examples =
		"ftguard start -m ftg_target; ftguard stream\n"
		"  Watch the test module's calls live.",
	.options = stream_options,
	.min_args = 0,
	.max_args = 0,
	.exec = stream_exec,
};
