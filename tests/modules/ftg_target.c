// SPDX-License-Identifier: GPL-2.0
/*
 * ftg_target: sites for ftguard's tests. Three __init functions (init
 * sites, dropped when init text is freed), and core functions fn_a and
 * fn_b: writing N to debugfs ftg_target/trigger runs fn_b(N), which calls
 * fn_a exactly N times. For traces with durations, writing N to
 * ftg_target/graph runs fn_outer(N), which calls fn_inner N times; the
 * call fn_inner(N / 2) sleeps sleep_ms (a module parameter) milliseconds.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/debugfs.h>
#include <linux/delay.h>
#include <linux/fs.h>
#include <linux/kernel.h>
#include <linux/module.h>
#include <linux/trace_clock.h>
#include <linux/uaccess.h>

/* Global, with prototypes: no IPA clone may rename them. */
void fn_a(unsigned long i);
void fn_b(unsigned long n);
void fn_inner(unsigned long i, unsigned long sleeper);
void fn_outer(unsigned long n);

static struct dentry *ftg_target_dir;
static unsigned long ftg_target_sum;

noinline void fn_a(unsigned long i)
{
	WRITE_ONCE(ftg_target_sum, READ_ONCE(ftg_target_sum) + i);
	barrier();
}

noinline void fn_b(unsigned long n)
{
	unsigned long i;

	for (i = 0; i < n; i++)
		fn_a(i);
}

static unsigned int sleep_ms = 20;
module_param(sleep_ms, uint, 0444);
MODULE_PARM_DESC(sleep_ms, "how long the middle fn_inner call sleeps");

/*
 * Sleeps at least sleep_ms as the trace clock counts (the clock of
 * ftguard's events and call times). msleep() counts jiffies, and a loaded
 * QEMU guest's calibrated TSC can run a few percent off them: a 30 ms
 * msleep() was seen to last 29.2 ms of trace clock on 6.12.
 */
static void sleep_trace_clock(unsigned int ms)
{
	u64 end = trace_clock_local() + (u64)ms * NSEC_PER_MSEC;

	while (trace_clock_local() < end)
		usleep_range(1000, 2000);
}

noinline void fn_inner(unsigned long i, unsigned long sleeper)
{
	if (i == sleeper)
		sleep_trace_clock(sleep_ms);
	fn_a(i);
}

noinline void fn_outer(unsigned long n)
{
	unsigned long i;

	for (i = 0; i < n; i++)
		fn_inner(i, n / 2);
}

static ssize_t trigger_write(struct file *file, const char __user *ubuf,
			     size_t count, loff_t *ppos)
{
	void (*fn)(unsigned long n) = file->private_data;
	unsigned long n;
	int ret = kstrtoul_from_user(ubuf, count, 0, &n);

	if (ret)
		return ret;
	fn(n);
	return count;
}

static const struct file_operations trigger_fops = {
	.owner = THIS_MODULE,
	.open = simple_open,
	.write = trigger_write,
};

static noinline int __init init_one(void)
{
	WRITE_ONCE(ftg_target_sum, 1);
	return 0;
}

static noinline int __init init_two(void)
{
	WRITE_ONCE(ftg_target_sum, READ_ONCE(ftg_target_sum) + 2);
	return 0;
}

static noinline int __init init_three(void)
{
	return init_one() + init_two();
}

static int __init ftg_target_init(void)
{
	int ret = init_three();

	if (ret)
		return ret;
	ftg_target_dir = debugfs_create_dir("ftg_target", NULL);
	debugfs_create_file("trigger", 0200, ftg_target_dir, fn_b,
			    &trigger_fops);
	debugfs_create_file("graph", 0200, ftg_target_dir, fn_outer,
			    &trigger_fops);
	return 0;
}

static void __exit ftg_target_exit(void)
{
	debugfs_remove(ftg_target_dir);
}

module_init(ftg_target_init);
module_exit(ftg_target_exit);
MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("ftguard test target: init and core sites");
