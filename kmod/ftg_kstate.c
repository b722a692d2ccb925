// SPDX-License-Identifier: GPL-2.0
/*
 * The kernel's ftrace as a whole. Two states make every site untraceable
 * at once, and neither is a site's fault:
 *  - kernel.ftrace_enabled = 0 (sysctl): ftrace keeps every ops but
 *    patches no site, so an arm would count nothing;
 *  - ftrace killed by the kernel after an anomaly (ftrace_kill(),
 *    ftrace_bug()): every filter call answers -ENODEV until reboot, so
 *    every record proof would fail and every site look stale.
 * The first is read where the kernel documents it,
 * /proc/sys/kernel/ftrace_enabled (proc's sysctl files have ->read_iter,
 * so kernel_read() reads them; unreadable counts as on). The second is
 * the -ENODEV that ftrace_set_filter_ip() gives before anything else
 * when ftrace is disabled: asked of the never-registered probe ops with
 * address 0, which is no record, it answers another error while ftrace
 * lives, and changes nothing either way.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/err.h>
#include <linux/fs.h>

#include "ftg.h"

static bool ftg_ftrace_sysctl_off(void)
{
	struct file *f;
	char buf[8] = "";
	loff_t pos = 0;
	ssize_t n;

	f = filp_open("/proc/sys/kernel/ftrace_enabled", O_RDONLY, 0);
	if (IS_ERR(f))
		return false;
	n = kernel_read(f, buf, sizeof(buf) - 1, &pos);
	filp_close(f, NULL);
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
	lockdep_assert_held(&ftg.lock);
	if (ftg_ftrace_killed()) {
		snprintf(why, len, "ftrace killed by the kernel after an anomaly (see its log): nothing can be traced until reboot");
		return -ENODEV;
	}
	if (ftg_ftrace_sysctl_off()) {
		snprintf(why, len, "ftrace is off (kernel.ftrace_enabled = 0): sysctl kernel.ftrace_enabled=1 first");
		return -ENODEV;
	}
	return 0;
}
