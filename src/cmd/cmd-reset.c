// SPDX-License-Identifier: GPL-2.0
/*
 * `ftguard reset`: disarm, clear the kill latch and the trace buffer.
 */
#include "cmd/ftguard-cmd.h"

static int send_reset(struct ftg_cmd_ctx *ctx, struct ftg_control *ctl, void *data)
{
	return ftg_control_reset(ctl);
}

static int reset_exec(struct ftg_cmd_ctx *ctx, const struct ftg_cmd_args *args)
{
	int ret = ftg_cmd_control_send(ctx, send_reset, NULL, "resetting");

	if (ret == FTG_CMD_OK)
		ftg_cmd_info(ctx, "disarmed, kill latch and trace buffer cleared");
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
		"empties the 'ftguard' trace instance's buffer.",
	.exit_status = "0 done; 2 an error.",
	.min_args = 0,
	.max_args = 0,
	.exec = reset_exec,
};
