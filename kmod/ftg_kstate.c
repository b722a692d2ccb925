// SPDX-License-Identifier: GPL-2.0
/*
 * The kernel's ftrace as a whole. Two states make every site untraceable
 * at once, and neither is a site's fault:
 *  - kernel.ftrace_enabled = 0 (sysctl): ftrace keeps every ops but
 *    patches no site, so an arm would count nothing;
 *  - ftrace killed by the kernel after an anomaly (ftrace_kill(),
 *    ftrace_bug()): every filter call answers -ENODEV until reboot, so
 *    every record proof would fail and every site look stale.
 * The first is the sysctl's own file, read as the kernel's
 * (ftg_kfile.c: no path of the caller's, nothing mounted over it
 * believed); when it cannot be read, ftguard cannot tell, and says so
 * rather than arm what ftrace may never patch. The second is
 * the -ENODEV that ftrace_set_filter_ip() gives before anything else
 * when ftrace is disabled: asked of the never-registered probe ops with
 * address 0, which is no record, it answers another error while ftrace
 * lives, and changes nothing either way.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/err.h>
#include <linux/file.h>
#include <linux/fs.h>

#include "ftg.h"

/* 1 while kernel.ftrace_enabled is 0, 0 while not, or -errno unread */
static int ftg_ftrace_sysctl_off(void)
{
	struct file *f;
	char buf[8] = "";
	loff_t pos = 0;
	ssize_t n;

	f = ftg_kfile_open(&ftg_ftrace_enabled);
	if (IS_ERR(f))
		return PTR_ERR(f);
	n = ftg_kfile_read(f, buf, sizeof(buf) - 1, &pos);
	fput(f);
	if (n < 0)
		return n;
	return n > 0 && buf[0] == '0';
}

/**
 * ftg_ftrace_killed - has the kernel killed ftrace?
 *
 * Asked before calling what warns on a dead ftrace instead of answering
 * (unregistering a kretprobe on 6.1 WARNs in kprobes.c) and of what an
 * unregister failure means.
 * Context: ftg.lock held; may sleep.
 * Return: true once ftrace answers -ENODEV, until reboot.
 */
bool ftg_ftrace_killed(void)
{
	lockdep_assert_held(&ftg.lock);
	return ftrace_set_filter_ip(&ftg.probe_ops, 0, 0, 0) == -ENODEV;
}

/**
 * ftg_kernel_ftrace_off - is the kernel's ftrace off as a whole?
 * @why: the reason, when it is
 * @len: its size
 *
 * Context: ftg.lock held; may sleep.
 * Return: 0 while ftrace can trace, -ENODEV (with @why) when not.
 */
int ftg_kernel_ftrace_off(char *why, size_t len)
{
	int off;

	lockdep_assert_held(&ftg.lock);
	if (ftg_ftrace_killed()) {
		snprintf(why, len, "ftrace killed by the kernel after an anomaly (see its log): nothing can be traced until reboot");
		return -ENODEV;
	}
	off = ftg_ftrace_sysctl_off();
	if (off < 0) {
		snprintf(why, len, "kernel.ftrace_enabled cannot be read (%d): whether ftrace patches anything is unknown",
			 off);
		return -ENODEV;
	}
	if (off) {
		snprintf(why, len, "ftrace is off (kernel.ftrace_enabled = 0): sysctl kernel.ftrace_enabled=1 first");
		return -ENODEV;
	}
	return 0;
}
