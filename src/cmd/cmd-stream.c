// SPDX-License-Identifier: GPL-2.0
/*
 * `ftguard stream`: print the ftguard instance's events as they come, until
 * interrupted. With -l/-m it checks and arms the selection for its own
 * life (the arm belongs to its control descriptor); without, it shows
 * what 'ftguard start' (or a record running elsewhere) produces.
 *
 * Events are read in bounded batches: with a function on stream's own
 * read path armed (vfs_read), every read makes the next event, and a
 * reader that waited for an empty buffer would never see a signal.
 */
#include <errno.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "cmd/ftguard-cmd.h"

#define STREAM_POLL_MS		200
#define STREAM_LINE_MAX		512
#define STREAM_LOST_PERIOD_MS	2000	/* how often a growing loss is said */
#define STREAM_DRAIN_MS		250	/* the most the end may read */
#define STREAM_BATCH_MS		50	/* the most one read may take */

struct stream_state {
	struct ftg_exporter *ex;	/* --json / --csv, else text lines */
};

static int stream_event(const struct ftg_event *ev, void *data)
{
	struct stream_state *st = data;
	char line[STREAM_LINE_MAX];

	if (st->ex)
		return ftg_exporter_add(st->ex, ev) < 0 ? -1 : 0;
	/* Live, a call cannot wait for its return: entries open, returns close. */
	if (ftg_event_is_graph_entry(ev))
		ftg_graph_snprint(line, sizeof(line), ev, NULL);
	else if (ftg_event_is_graph_exit(ev))
		ftg_graph_snprint(line, sizeof(line), NULL, ev);
	else
		ftg_event_snprint(line, sizeof(line), ev);
	ftg_print_safe(stdout, line);
	putchar('\n');
	if (ftg_cmd_print_stack(stdout, ev))
		return -1;
	return ferror(stdout) ? -1 : 0;
}

static uint64_t now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000 + (uint64_t)ts.tv_nsec / 1000000;
}

/* A loss is said when it happens, not only at the end. */
static void report_loss(struct ftg_cmd_ctx *ctx, struct ftg_live *live,
			uint64_t *said, uint64_t *next_ms)
{
	struct ftg_trace_counters c;
	uint64_t now = now_ms();

	if (now < *next_ms)
		return;
	*next_ms = now + STREAM_LOST_PERIOD_MS;
	if (ftg_live_counters(live, &c) == 0 && c.lost > *said) {
		ftg_cmd_warn(ctx, "%llu events lost so far (the buffer was full: "
			     "'ftguard record -b KB' keeps more)",
			     (unsigned long long)c.lost);
		*said = c.lost;
	}
}

/* The rest of the buffer, within STREAM_DRAIN_MS whatever still comes in. */
static int drain_rest(struct ftg_live *live, struct stream_state *st)
{
	uint64_t end = now_ms() + STREAM_DRAIN_MS;
	int r;

	do
		r = ftg_live_drain(live, NULL, stream_event, st);
	while (r > 0 && ftg_live_more(live) && now_ms() < end);
	return r < 0 ? -1 : 0;
}

static int stream_exec(struct ftg_cmd_ctx *ctx, const struct ftg_cmd_args *args)
{
	bool json = ftg_args_has(args, FTG_OPT_JSON);
	bool csv = ftg_args_has(args, FTG_OPT_CSV);
	bool hide_own;
	struct stream_state st = { NULL };
	struct ftg_trace_counters counters;
	struct ftg_saved_signals saved;
	struct ftg_session *sess = NULL;
	struct ftg_instance *inst = NULL;
	struct ftg_cmd_events events = { 0 };
	struct ftg_live *live;
	struct ftg_root *root;
	struct ftg_map *map;
	uint64_t lost_said = 0, lost_next = now_ms() + STREAM_LOST_PERIOD_MS;
	size_t nsites;
	int ret = FTG_CMD_OK;

	if (json && csv) {
		ftg_cmd_usage_error(ctx, args->entry, "--json and --csv exclude each other");
		return FTG_CMD_ERROR;
	}
	if (ftg_cmd_live_args(ctx, args, &events, "reads the live system"))
		return FTG_CMD_ERROR;
	root = ftg_cmd_root(ctx);
	live = ftg_live_open(root, NULL, 0);
	if (!live) {
		ftg_cmd_events_release(&events);
		return ftg_cmd_lib_error(ctx, "opening the ftguard trace instance");
	}
	/* Our own reads are real hits, but hidden unless asked (as trace-cmd). */
	hide_own = !ftg_args_has(args, FTG_OPT_NO_FILTER);
	if (hide_own)
		ftg_live_hide_pid(live, (int)getpid());
	ftg_live_set_budget(live, (size_t)64 * ftg_live_ncpus(live) *
			    ftg_live_page_size(live), STREAM_BATCH_MS);
	if (json || csv) {
		st.ex = ftg_exporter_open(stdout, json ? FTG_EXPORT_JSON : FTG_EXPORT_CSV);
		if (!st.ex) {
			ftg_live_free(live);
			return ftg_cmd_lib_error(ctx, "starting the output");
		}
	}
	ftg_cmd_catch_signals(&saved);
	if (events.n) {
		inst = ftg_instance_open(root);
		if (!inst) {
			ret = ftg_cmd_lib_error(ctx, "opening the ftguard trace instance");
			goto out;
		}
		ret = ftg_cmd_events_enable(ctx, &events, inst, live);
		if (ret != FTG_CMD_OK)
			goto out;
	}
	if (ftg_cmd_has_selection(args, false)) {
		sess = ftg_cmd_session_open(ctx);
		if (!sess) {
			ret = FTG_CMD_ERROR;
			goto out;
		}
		map = ftg_cmd_load_map(ctx);
		ret = ftg_cmd_arm(ctx, args, sess, map, 0, &nsites);
		ftg_map_free(map);
		if (ret != FTG_CMD_OK)
			goto out;
		if (ctx->verbosity > 0)
			ftg_cmd_info(ctx, "armed %zu sites until the stream ends", nsites);
	}
	if (isatty(STDOUT_FILENO) == 0)
		setvbuf(stdout, NULL, _IOLBF, 0);	/* a pipe sees events promptly */
	ftg_cmd_info(ctx, "streaming; Ctrl-C stops");
	while (!ftg_cmd_interrupted) {
		if (ftg_live_pump(live, STREAM_POLL_MS, NULL, stream_event, &st) < 0) {
			if (errno == EINTR)
				continue;
			ret = ftg_cmd_lib_error(ctx, "reading events");
			break;
		}
		fflush(stdout);
		report_loss(ctx, live, &lost_said, &lost_next);
	}
	/* Disarm first, so the end of the buffer is the end. */
	if (sess && ftg_control_disarm(ftg_session_control(sess)) < 0)
		ftg_cmd_lib_error(ctx, "disarming (closing the control disarms too)");
	if (ret == FTG_CMD_OK && drain_rest(live, &st) < 0)
		ret = ftg_cmd_lib_error(ctx, "reading events");
out:
	ftg_session_close(sess);
	ftg_cmd_instance_restore(ctx, inst);
	ftg_instance_free(inst);
	ftg_cmd_events_release(&events);
	ftg_cmd_restore_signals(&saved);
	if (st.ex && ftg_exporter_close(st.ex) < 0 && ret == FTG_CMD_OK)
		ret = ftg_cmd_lib_error(ctx, "writing the output");
	fflush(stdout);
	if (ftg_live_counters(live, &counters) == 0) {
		if (hide_own)
			ftg_cmd_info(ctx, "%llu events, %llu lost, %llu of stream's own hidden (--no-filter shows them)",
				     (unsigned long long)counters.events,
				     (unsigned long long)counters.lost,
				     (unsigned long long)counters.hidden);
		else
			ftg_cmd_info(ctx, "%llu events, %llu lost",
				     (unsigned long long)counters.events,
				     (unsigned long long)counters.lost);
		if (counters.lost)
			ftg_cmd_warn(ctx, "%llu events lost: the buffer was full",
				     (unsigned long long)counters.lost);
	}
	ftg_live_free(live);
	return ret;
}

static const struct ftg_cmd_option stream_options[] = {
	FTG_OPTIONS_TRACE_SETUP,
	FTG_OPTION_FORCE,
	{ .key = FTG_OPT_NO_FILTER, .long_name = "no-filter",
	  .help = "show stream's own events too (its reads may be traced)" },
	FTG_OPTION_JSON,
	{ .key = FTG_OPT_CSV, .long_name = "csv",
	  .help = "print CSV with a header line" },
	FTG_OPTION_END
};

const struct ftg_cmd_entry ftg_cmd_stream_entry = {
	.name = "stream",
	.usage = "[(-l GLOB | -m MODULE | -g GLOB)... [-n GLOB]... [-p TRACER] [-T] [--max-graph-depth N] "
		 "[--force]] [-e SYSTEM[:EVENT] [-f FILTER]]... "
		 "[--no-filter] "
		 "[--json | --csv]",
	.summary = "Print trace events live until interrupted",
	.description =
		"Reads the 'ftguard' trace instance as events arrive and prints\n"
		"them like 'ftguard report' until Ctrl-C (SIGINT), SIGTERM or\n"
		"SIGHUP. With -l or -m it selects, checks and arms sites as\n"
		"'ftguard record' does, for as long as it runs; without, it arms\n"
		"nothing and shows what 'ftguard start' armed. Events it reads are\n"
		"consumed from the instance's buffer.\n"
		"\n"
		"Its own reads are events too when a function on the read path is\n"
		"armed (vfs_read, ksys_read...): they are left out, as trace-cmd\n"
		"leaves out its own threads, unless --no-filter is given; the count\n"
		"at the end says how many. Events are read in bounded batches, so\n"
		"a signal ends the stream promptly whatever the event rate. Lost\n"
		"events (a full buffer) are reported as they happen and at the end.\n"
		"\n"
		"-e SYSTEM[:EVENT] enables kernel tracepoints in the instance while\n"
		"the stream runs, as for 'ftguard record': they patch no function\n"
		"site and need no check; -e all is refused. -f FILTER after an -e\n"
		"filters its events in the kernel, as record -f does, until the\n"
		"stream ends.\n"
		"\n"
		"-p function_graph arms entries and returns (as record -p does):\n"
		"each entry prints as 'func() {' and each return as '}' with the\n"
		"call's duration, as they happen. -g FUNC streams FUNC's call\n"
		"tree (with --max-graph-depth N), as record -g does.\n"
		"\n"
		"-T (--func-stack) prints the kernel stack of each function entry\n"
		"under it, as '=> caller+0xoff' lines (with -p function_graph or\n"
		"-g, of each outermost call; see ftguard-record(1)).",
	.exit_status = "0 stopped by a signal; 1 the arm was refused; 2 an error.",
	.examples =
		"ftguard start -m ftg_target; ftguard stream\n"
		"  Watch the test module's calls live.\n"
		"\n"
		"ftguard stream -l vfs_read\n"
		"  Arm vfs_read until Ctrl-C and print its calls.\n"
		"\n"
		"ftguard stream -p function_graph -l ksys_read -l vfs_read\n"
		"  Print each read's entry and return, with its duration.",
	.options = stream_options,
	.min_args = 0,
	.max_args = 0,
	.exec = stream_exec,
};
