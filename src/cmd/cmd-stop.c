// SPDX-License-Identifier: GPL-2.0
/*
 * `ftguard stop`: disarm every armed site.
 */
#include "cmd/ftguard-cmd.h"

static int stop_exec(struct ftg_cmd_ctx *ctx, const struct ftg_cmd_args *args)
{
	struct ftg_control *ctl;
	struct ftg_status st;
	bool was_armed = true;
	int ret = FTG_CMD_OK;

	if (ctx->root) {
		ftg_cmd_error(ctx, "stop changes the live system: --root is not allowed");
		return FTG_CMD_ERROR;
	}
	if (ftg_cmd_need(ctx, FTG_NEED_ROOT_USER | FTG_NEED_MODULE))
		return FTG_CMD_ERROR;
	ctl = ftg_control_open(ftg_root_debugfs(ftg_cmd_root(ctx)));
	if (!ctl)
		return ftg_cmd_lib_error(ctx, "opening ftguard/control");
	if (ftg_status_read(ftg_root_debugfs(ftg_cmd_root(ctx)), &st) == 0)
		was_armed = st.armed;
	if (ftg_control_disarm(ctl) < 0)
		ret = ftg_cmd_lib_error(ctx, "disarming");
	else if (was_armed)
		ftg_cmd_info(ctx, "disarmed");
	else
		ftg_cmd_info(ctx, "nothing was armed");
	ftg_control_close(ctl);
	return ret;
}

const struct ftg_cmd_entry ftg_cmd_stop_entry = {
	.name = "stop",
	.usage = "",
	.summary = "Disarm every armed site",
	.description =
		"Disarms what 'ftguard start' armed, and any arm owned by a running\n"
		"'ftguard record'. Always succeeds when the module is loaded. The\n"
		"events already recorded stay in the trace instance.",
	.exit_status = "0 disarmed (or nothing was armed); 2 an error.",
	.min_args = 0,
	.max_args = 0,
	.exec = stop_exec,
};
