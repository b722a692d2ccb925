// SPDX-License-Identifier: GPL-2.0
/*
 * `ftguard snapshot DIR`: save what ftguard reads (kallsyms, modules,
 * vmallocinfo, module sections, ftguard.ko's tables, ftrace function
 * lists) so that map, sites, check and the TUI can look at it later, or
 * on another machine, with --root DIR.
 */
#include "cmd/ftguard-cmd.h"

static int snapshot_exec(struct ftg_cmd_ctx *ctx, const struct ftg_cmd_args *args)
{
	const char *dir = args->argv[0];
	struct ftg_root *root;

	if (ftg_cmd_need(ctx, FTG_NEED_ROOT_USER))
		return FTG_CMD_ERROR;
	root = ftg_cmd_root(ctx);	/* opened by ftg_cmd_need() */
	struct ftg_kernel_info k;
	struct ftg_root *saved;

	if (ftg_snapshot_save(root, dir) < 0)
		return ftg_cmd_lib_error(ctx, "saving the snapshot");
	/* Say which kernel the saved record names, as read back. */
	saved = ftg_root_open(dir);
	if (saved && !ftg_root_kernel(saved, &k) && *k.release)
		ftg_cmd_info(ctx, "saved in %s (kernel %s %s): read it with 'ftguard --root %s map'",
			     dir, k.release, *k.machine ? k.machine : k.arch, dir);
	else
		ftg_cmd_info(ctx, "saved in %s: read it with 'ftguard --root %s map'", dir, dir);
	ftg_root_free(saved);
	return FTG_CMD_OK;
}

const struct ftg_cmd_entry ftg_cmd_snapshot_entry = {
	.name = "snapshot",
	.usage = "DIR",
	.summary = "Save the kernel's and ftguard.ko's tables for later --root use",
	.description =
		"Copies /proc/kallsyms, /proc/modules, /proc/vmallocinfo, the module\n"
		"sections under /sys/module, ftguard.ko's status, sites, modules and\n"
		"check tables (when it is loaded) and the kernel's ftrace function\n"
		"lists into DIR, laid out as doc/snapshot.md says. 'ftguard --root\n"
		"DIR map' (or sites, status, check, and ftguard-tui --root DIR) then\n"
		"reads the snapshot instead of the live system. Addresses are only\n"
		"real when saved as root. The snapshot also records which kernel it\n"
		"came from (release, machine, /proc/version, /boot/config-RELEASE\n"
		"copied when present, IBT, call padding, ftrace record addresses);\n"
		"'ftguard --root DIR map' prints it first.",
	.exit_status = "0 saved; 2 an error (the message names the file).",
	.examples =
		"ftguard snapshot /tmp/snap && ftguard --root /tmp/snap map --at 0xffffffffc0a01000\n"
		"  Save the state now, ask about an address later.",
	.min_args = 1,
	.max_args = 1,
	.operand_complete = FTG_COMPLETE_DIR,
	.exec = snapshot_exec,
};
