// SPDX-License-Identifier: GPL-2.0
/*
 * `ftguard stop`: disarm every armed site and turn off the events -e
 * enabled.
 */
#include "cmd/ftguard-cmd.h"

/* Notes first whether anything was armed, to say what stop did. */
static int disarm_noting(struct ftg_cmd_ctx *ctx, struct ftg_control *ctl, void *data)
{
	bool *was_armed = data;
	struct ftg_status st;

	if (ftg_status_read(ftg_cmd_root(ctx), &st) == 0)
		*was_armed = st.armed;
	return ftg_control_disarm(ctl);
}

static int stop_exec(struct ftg_cmd_ctx *ctx, const struct ftg_cmd_args *args)
{
	bool was_armed = true;
	int ret = ftg_cmd_control_send(ctx, disarm_noting, &was_armed, "disarming");

	if (ret == FTG_CMD_OK)
		ftg_cmd_info(ctx, was_armed ? "disarmed" : "nothing was armed");
	if (ret == FTG_CMD_OK && !ctx->root &&
	    (ftg_cmd_need(ctx, FTG_NEED_TRACEFS) || ftg_cmd_events_off(ctx)))
		ret = FTG_CMD_ERROR;
	return ret;
}

const struct ftg_cmd_entry ftg_cmd_stop_entry = {
	.name = "stop",
	.usage = "",
	.summary = "Disarm every armed site and turn off -e events",
	.description =
		"Disarms what 'ftguard start' armed, and any arm owned by a running\n"
		"'ftguard record', and turns off the kernel events 'ftguard start -e'\n"
		"enabled (every event of the trace instance but ftguard's own),\n"
		"clearing their systems' filters ('start -f').\n"
		"The events already recorded stay in the trace instance.\n"
		"When the kernel has killed ftrace under an arm, it keeps calling\n"
		"what ftguard registered and refuses to let go of it: stop then says\n"
		"what stays registered and fails, and ftguard.ko holds itself loaded\n"
		"(rmmod is refused) until reboot, so that nothing calls freed code.",
	.exit_status = "0 disarmed (or nothing was armed); 2 an error, or the\n"
		       "kernel still holds the arm (it killed ftrace).",
	.min_args = 0,
	.max_args = 0,
	.exec = stop_exec,
};
