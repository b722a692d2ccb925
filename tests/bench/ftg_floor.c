// SPDX-License-Identifier: GPL-2.0
/*
 * ftg_floor.ko: the least any module pays to switch an ftrace_ops on and
 * off, set beside ftguard's arm and disarm in figure 6. An empty callback
 * on the functions of a glob, registered and unregistered through the
 * API ftguard.ko uses. A module's ops is dynamic (it is not in the core
 * kernel's data), so its unregister waits for RCU-tasks grace periods
 * that the kernel's own tracers, static ops, do not.
 *
 * /sys/kernel/debug/ftg_floor/ctl takes "filter GLOB", "on" and "off".
 */
#define pr_fmt(fmt) "ftg_floor: " fmt

#include <linux/debugfs.h>
#include <linux/ftrace.h>
#include <linux/module.h>
#include <linux/mutex.h>
#include <linux/string.h>
#include <linux/uaccess.h>

static void notrace floor_callback(unsigned long ip, unsigned long parent_ip,
				   struct ftrace_ops *op,
				   struct ftrace_regs *fregs)
{
}

static struct ftrace_ops floor_ops = {
	.func = floor_callback,
};

/* floor_lock orders the commands; an empty filter would trace everything */
static DEFINE_MUTEX(floor_lock);
static bool floor_filtered;
static bool floor_registered;
static struct dentry *floor_dir;

static int floor_command(char *cmd)
{
	int ret = -EINVAL;

	if (!strncmp(cmd, "filter ", 7) && !floor_registered) {
		ret = ftrace_set_filter(&floor_ops, cmd + 7, strlen(cmd + 7), 1);
		floor_filtered = !ret;
	} else if (!strcmp(cmd, "on") && floor_filtered && !floor_registered) {
		ret = register_ftrace_function(&floor_ops);
		floor_registered = !ret;
	} else if (!strcmp(cmd, "off") && floor_registered) {
		ret = unregister_ftrace_function(&floor_ops);
		floor_registered = ret != 0;
	}
	return ret;
}

static ssize_t floor_write(struct file *file, const char __user *ubuf,
			   size_t count, loff_t *ppos)
{
	char buf[128];
	int ret;

	if (count >= sizeof(buf))
		return -EINVAL;
	if (copy_from_user(buf, ubuf, count))
		return -EFAULT;
	buf[count] = '\0';
	mutex_lock(&floor_lock);
	ret = floor_command(strim(buf));
	mutex_unlock(&floor_lock);
	return ret ? ret : count;
}

static const struct file_operations floor_fops = {
	.owner = THIS_MODULE,
	.write = floor_write,
	.llseek = noop_llseek,
};

static int __init floor_init(void)
{
	floor_dir = debugfs_create_dir("ftg_floor", NULL);
	debugfs_create_file("ctl", 0200, floor_dir, NULL, &floor_fops);
	return 0;
}

static void __exit floor_exit(void)
{
	debugfs_remove_recursive(floor_dir);
	mutex_lock(&floor_lock);
	if (floor_registered && unregister_ftrace_function(&floor_ops))
		pr_warn("cannot unregister the ops\n");
	mutex_unlock(&floor_lock);
	ftrace_free_filter(&floor_ops);
}

module_init(floor_init);
module_exit(floor_exit);
MODULE_DESCRIPTION("An empty ftrace_ops for ftguard's benchmarks");
MODULE_LICENSE("GPL");
