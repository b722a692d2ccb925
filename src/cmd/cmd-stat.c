// SPDX-License-Identifier: GPL-2.0
/*
 * `ftguard stat`: the ring buffer of ftguard's trace instance, per CPU,
 * as the kernel counts it (per_cpu/cpuN/stats), like trace-cmd stat's
 * buffer part: what is held, what was overwritten or dropped, what was
 * read.
 */
#include <stdlib.h>
#include <string.h>

#include "cmd/ftguard-cmd.h"

/* The columns, in the kernel's words (the stats file's keys). */
static const struct {
	const char *key;
	const char *title;
} stat_columns[] = {
	{ "entries", "ENTRIES" },
	{ "overrun", "OVERRUN" },
	{ "commit overrun", "COMMIT-OVERRUN" },
	{ "bytes", "BYTES" },
	{ "dropped events", "DROPPED" },
	{ "read events", "READ" },
};
#define NCOLUMNS (sizeof(stat_columns) / sizeof(stat_columns[0]))

/* The value of "@key: value" in @text, or "-" when the kernel has none. */
static const char *stat_value(const char *text, const char *key, char *buf, size_t len)
{
	size_t klen = strlen(key);
	const char *line;

	for (line = text; line && *line; line = strchr(line, '\n'), line = line ? line + 1 : NULL) {
		if (strncmp(line, key, klen) || line[klen] != ':')
			continue;
		line += klen + 1;
		line += strspn(line, " ");
		snprintf(buf, len, "%.*s", (int)strcspn(line, "\n"), line);
		return buf;
	}
	return "-";
}

static int stat_exec(struct ftg_cmd_ctx *ctx, const struct ftg_cmd_args *args)
{
	struct ftg_live *live;
	int cpu;
	size_t c;

	if (ftg_cmd_live_only(ctx, "reads the live trace instance") ||
	    ftg_cmd_need(ctx, FTG_NEED_ROOT_USER | FTG_NEED_TRACEFS | FTG_NEED_MODULE))
		return FTG_CMD_ERROR;
	live = ftg_live_open(ftg_cmd_root(ctx), NULL, FTG_LIVE_NO_KALLSYMS);
	if (!live)
		return ftg_cmd_lib_error(ctx, "opening the ftguard trace instance");
	printf("%-4s", "CPU");
	for (c = 0; c < NCOLUMNS; c++)
		printf(" %14s", stat_columns[c].title);
	putchar('\n');
	for (cpu = 0; cpu < ftg_live_ncpus(live); cpu++) {
		char *text = ftg_live_cpu_stats(live, cpu);
		char buf[64];

		if (!text) {
			ftg_live_free(live);
			return ftg_cmd_lib_error(ctx, "reading a CPU's stats");
		}
		printf("%-4d", cpu);
		for (c = 0; c < NCOLUMNS; c++)
			printf(" %14s", stat_value(text, stat_columns[c].key, buf, sizeof(buf)));
		putchar('\n');
		free(text);
	}
	ftg_live_free(live);
	return FTG_CMD_OK;
}

const struct ftg_cmd_entry ftg_cmd_stat_entry = {
	.name = "stat",
	.usage = "",
	.summary = "Show the per-CPU counters of ftguard's trace buffer",
	.description =
		"Prints, for each CPU, what the kernel counts in the ring buffer of\n"
		"the 'ftguard' trace instance (per_cpu/cpuN/stats): the entries it\n"
		"holds, those overwritten before they were read (overrun, commit\n"
		"overrun), its bytes, the events dropped because it was full, and\n"
		"the events read so far. A growing OVERRUN or DROPPED means a\n"
		"reader too slow for the rate: a larger buffer (record -b) helps.",
	.exit_status = "0 shown; 2 the instance cannot be read.",
	.min_args = 0,
	.max_args = 0,
	.exec = stat_exec,
};
