// SPDX-License-Identifier: GPL-2.0
/*
 * `ftguard extract`: write what the ftguard trace instance holds into a
 * trace.dat, as trace-cmd extract does for its buffers: the events
 * recorded since 'ftguard start', after 'ftguard stop' (which keeps them).
 *
 * Reading trace_pipe_raw consumes the pages, so a second extract finds
 * the buffer empty; the read is bounded in time because sites still armed
 * keep filling it.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "cmd/ftguard-cmd.h"

#define EXTRACT_INSTANCE	"ftguard"
#define EXTRACT_MAX_MS		2000	/* the most a still-armed source may take */
#define EXTRACT_MAX_TYPES	256	/* event types of systems the session lacks */

static uint64_t now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000 + (uint64_t)ts.tv_nsec / 1000000;
}

/* Event types the session had no format for, each once. */
struct unknown_types {
	int type[EXTRACT_MAX_TYPES];
	int n;
};

static int note_unknown(const struct ftg_event *ev, void *data)
{
	struct unknown_types *u = data;
	int i;

	if (ev->system[0])
		return 0;
	for (i = 0; i < u->n; i++)
		if (u->type[i] == ev->type)
			return 0;
	if (u->n < EXTRACT_MAX_TYPES)
		u->type[u->n++] = ev->type;
	return 0;
}

/* Everything the buffer holds, partial pages included, within the bound. */
static int extract_pages(struct ftg_live *live, struct ftg_trace_writer *w,
			 struct unknown_types *u)
{
	uint64_t end = now_ms() + EXTRACT_MAX_MS;
	int r;

	do
		r = ftg_live_drain(live, w, note_unknown, u);
	while (r > 0 && ftg_live_more(live) && now_ms() < end);
	return r < 0 ? -1 : 0;
}

/*
 * The tracepoints 'start -e' enabled are off again after stop: the only
 * trace of them is their ids in the pages, and trace-cmd needs their
 * formats. The writer writes formats when it closes.
 */
static int add_formats(struct ftg_cmd_ctx *ctx, struct ftg_live *live,
		       const struct unknown_types *u)
{
	int i;

	for (i = 0; i < u->n; i++)
		if (ftg_live_add_type(live, u->type[i]) < 0) {
			ftg_cmd_lib_error(ctx, "adding the formats of the events in the buffer");
			return -1;
		}
	return 0;
}

static int extract_exec(struct ftg_cmd_ctx *ctx, const struct ftg_cmd_args *args)
{
	const char *out = ftg_args_get(args, 'o') ? ftg_args_get(args, 'o') : "trace.dat";
	struct ftg_trace_counters c = { 0 };
	struct ftg_trace_writer *w;
	const struct ftg_kallsyms *ks;
	struct ftg_status st = { 0 };
	struct unknown_types unknown = { .n = 0 };
	struct ftg_live *live;
	struct ftg_root *root;
	int cpu, ret = FTG_CMD_OK;

	if (ftg_cmd_live_only(ctx, "reads the live trace buffer") ||
	    ftg_cmd_need(ctx, FTG_NEED_ROOT_USER | FTG_NEED_MODULE | FTG_NEED_TRACEFS))
		return FTG_CMD_ERROR;
	root = ftg_cmd_root(ctx);
	ks = ftg_cmd_kallsyms(ctx);
	if (!ks)
		return FTG_CMD_ERROR;
	live = ftg_live_open_with_kallsyms(root, EXTRACT_INSTANCE, ks, 0);
	if (!live)
		return ftg_cmd_lib_error(ctx, "opening the ftguard trace instance");
	w = ftg_trace_writer_create(out, ftg_live_formats(live), ftg_live_ncpus(live));
	if (!w) {
		ftg_cmd_error(ctx, "%s", ftg_error_last());
		ftg_live_free(live);
		return FTG_CMD_ERROR;
	}
	if (ftg_status_read(root, &st) == 0 && st.armed)
		ftg_cmd_warn(ctx, "sites are still armed: the file holds what the "
			     "buffer had while extract read it ('ftguard stop' first)");
	if (extract_pages(live, w, &unknown) < 0)
		ret = ftg_cmd_lib_error(ctx, "reading the trace buffer");
	else if (add_formats(ctx, live, &unknown) < 0)
		ret = FTG_CMD_ERROR;
	if (ret != FTG_CMD_OK) {
		ftg_trace_writer_free(w);	/* no partial file */
		ftg_live_free(live);
		return ret;
	}
	ftg_live_counters(live, &c);
	for (cpu = 0; cpu < ftg_live_ncpus(live); cpu++) {
		char *stats = ftg_live_cpu_stats(live, cpu);

		if (stats)
			ftg_trace_writer_set_cpu_stats(w, cpu, stats);
		free(stats);
	}
	if (ftg_trace_writer_close(w) < 0)
		ret = ftg_cmd_lib_error(ctx, "writing the trace file");
	else
		ftg_cmd_info(ctx, "%llu events written to %s%s", (unsigned long long)c.events,
			     out, c.events ? "" : " (the buffer was empty)");
	ftg_live_free(live);
	return ret;
}

static const struct ftg_cmd_option extract_options[] = {
	{ .key = 'o', .long_name = "output", .arg_name = "FILE",
	  .help = "write FILE (default trace.dat)",
	  .complete = FTG_COMPLETE_FILE },
	FTG_OPTION_END
};

const struct ftg_cmd_entry ftg_cmd_extract_entry = {
	.name = "extract",
	.usage = "[-o FILE]",
	.summary = "Write what the trace instance holds into trace.dat",
	.description =
		"Reads the events the 'ftguard' trace instance holds, those recorded\n"
		"since 'ftguard start' and kept by 'ftguard stop', and writes them to\n"
		"FILE as a trace.dat that 'ftguard report' and 'trace-cmd report'\n"
		"read, as 'trace-cmd extract' does for its buffers. Reading empties\n"
		"the buffer: a second extract finds what came after the first.\n"
		"'ftguard reset' empties it without writing.\n"
		"\n"
		"Tracepoints 'ftguard start -e' enabled are in the file with their\n"
		"formats, found from the events' ids, even after 'ftguard stop'\n"
		"turned them off.\n"
		"\n"
		"With sites still armed, extract warns and takes what the buffer\n"
		"holds while it reads (at most two seconds). FILE appears only once\n"
		"complete.",
	.exit_status = "0 written (also when the buffer was empty); 2 an error.",
	.examples =
		"ftguard start -l fn_a; echo 5 > /sys/kernel/debug/ftg_target/trigger\n"
		"ftguard stop; ftguard extract -o fn_a.dat; ftguard report -i fn_a.dat\n"
		"  Record in the background, then write and read the file.",
	.options = extract_options,
	.min_args = 0,
	.max_args = 0,
	.exec = extract_exec,
};
