// SPDX-License-Identifier: GPL-2.0
/*
 * `ftguard reset`: disarm, clear the kill latch and the trace buffer.
 */
#include "cmd/ftguard-cmd.h"

static int reset_exec(struct ftg_cmd_ctx *ctx, const struct ftg_cmd_args *args)
{
	struct ftg_control *ctl;
	int ret = FTG_CMD_OK;

	if (ctx->root) {
		ftg_cmd_error(ctx, "reset changes the live system: --root is not allowed");
		return FTG_CMD_ERROR;
	}
	if (ftg_cmd_need(ctx, FTG_NEED_ROOT_USER | FTG_NEED_MODULE))
		return FTG_CMD_ERROR;
	ctl = ftg_control_open(ftg_root_debugfs(ftg_cmd_root(ctx)));
	if (!ctl)
		return ftg_cmd_lib_error(ctx, "opening ftguard/control");
	if (ftg_control_reset(ctl) < 0)
		ret = ftg_cmd_lib_error(ctx, "resetting");
	else
		ftg_cmd_info(ctx, "disarmed, kill latch and trace buffer cleared");
	ftg_control_close(ctl);
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
