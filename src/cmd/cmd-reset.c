// SPDX-License-Identifier: GPL-2.0
/*
 * `ftguard reset`: disarm, clear the kill latch and the trace buffer, and
 * say what each of those cleared.
 */
#include <stdlib.h>
#include <string.h>

#include "cmd/ftguard-cmd.h"

/* Events in the instance's buffer: the "entries" of every CPU's stats. */
static long long buffer_entries(struct ftg_cmd_ctx *ctx)
{
	struct ftg_instance *inst;
	uint64_t total;
	int r;

	inst = ftg_instance_open(ftg_cmd_root(ctx));
	if (!inst)
		return -1;
	r = ftg_instance_buffer_entries(inst, &total);
	ftg_instance_free(inst);
	return r < 0 ? -1 : (long long)total;
}

static int send_reset(struct ftg_cmd_ctx *ctx, struct ftg_control *ctl, void *data)
{
	return ftg_control_reset(ctl);
}

static int reset_exec(struct ftg_cmd_ctx *ctx, const struct ftg_cmd_args *args)
{
	char text[FTG_TEXT_LEN * 4];
	struct ftg_status st;
	bool have_status;
	long long entries;
	int ret;

	memset(&st, 0, sizeof(st));
	have_status = !ctx->root && ftg_cmd_root(ctx) &&
		      ftg_status_read(ftg_cmd_root(ctx), &st) == 0;
	entries = have_status ? buffer_entries(ctx) : -1;
	/* first, so that no tracepoint refills the buffer reset empties */
	if (have_status && ftg_cmd_events_off(ctx))
		return FTG_CMD_ERROR;
	ret = ftg_cmd_control_send(ctx, send_reset, NULL, "resetting");
	if (ret != FTG_CMD_OK)
		return ret;
	if (!have_status) {
		ftg_cmd_info(ctx, "disarmed, kill latch and trace buffer cleared");
		return ret;
	}
	if (st.armed) {
		ftg_escape(text, sizeof(text), st.owner, FTG_ESCAPE_TEXT);
		ftg_cmd_info(ctx, "disarmed %llu sites armed by %s",
			     (unsigned long long)st.armed_sites, text);
	} else {
		ftg_cmd_info(ctx, "disarmed: nothing was armed");
	}
	if (st.killed) {
		ftg_escape(text, sizeof(text), st.kill_reason, FTG_ESCAPE_TEXT);
		ftg_cmd_info(ctx, "cleared the kill latch: %s", text);
	} else {
		ftg_cmd_info(ctx, "kill latch: was not set");
	}
	if (entries >= 0)
		ftg_cmd_info(ctx, "emptied the trace buffer: %lld events", entries);
	else
		ftg_cmd_info(ctx, "emptied the trace buffer");
	return ret;
}

const struct ftg_cmd_entry ftg_cmd_reset_entry = {
	.name = "reset",
	.usage = "",
	.summary = "Disarm, clear the kill latch and empty the trace buffer",
	.description =
		"After ftguard.ko killed tracing (a site failed its periodic\n"
		"verification, see 'ftguard status'), nothing can be armed again\n"
		"until the latch is cleared: reset does that, after disarming, and\n"
		"empties the 'ftguard' trace instance's buffer, after turning off\n"
		"the kernel events 'ftguard start -e' enabled and clearing their\n"
		"filters ('start -f'). It says what each\n"
		"step cleared: the sites that were armed and by whom, the kill\n"
		"reason, the events dropped from the buffer.",
	.exit_status = "0 done; 2 an error.",
	.min_args = 0,
	.max_args = 0,
	.exec = reset_exec,
};
