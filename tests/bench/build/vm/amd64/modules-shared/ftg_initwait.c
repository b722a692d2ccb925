// SPDX-License-Identifier: GPL-2.0
/*
 * ftg_initwait: a module whose init can be held open, so that its __init
 * functions can be armed while they are still live text, then let go.
 *
 * Init creates debugfs ftg_initwait/{release,ticks} and keeps calling the
 * __init function initwait_tick() (ticks counts the calls) until something
 * is written to release, or hold_ms passes.
 *
 * Used by the churn tests of every arch (init held: the module stays COMING).
 * Shaped for the i386 reuse scenario, where modules and ioremap share one
 * lowest-fit range: its init area is a few pages, so it takes a low free
 * hole and, once freed, is among the first places the next small ioremaps
 * go. Its __init text spans neighbouring pages (see initwait_page_a). Its file carries 4 MiB of ballast in a section the loader never
 * allocates: the kernel's temporary copy of the file (vmalloc'ed too, and
 * freed before init runs) then fits in no low hole and cannot become a
 * lower free hole than the init area.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/debugfs.h>
#include <linux/fs.h>
#include <linux/jiffies.h>
#include <linux/kernel.h>
#include <linux/module.h>
#include <linux/stringify.h>
#include <linux/wait.h>

#define FTG_FILE_BALLAST	(4 << 20)
#define FTG_TICK_MS		20

static unsigned int hold_ms = 30000;
module_param(hold_ms, uint, 0444);
MODULE_PARM_DESC(hold_ms, "longest time init waits for a release (ms)");

/* Not SHF_ALLOC (and a name modpost accepts as such): file only. */
asm(".pushsection .comment.ftg_ballast, \"\", @progbits\n\t"
    ".skip " __stringify(FTG_FILE_BALLAST) "\n\t"
    ".popsection");

static DECLARE_WAIT_QUEUE_HEAD(ftg_release_wq);
static bool ftg_released;
static unsigned long ftg_ticks;
static struct dentry *ftg_initwait_dir;

static ssize_t release_write(struct file *file, const char __user *ubuf,
			     size_t count, loff_t *ppos)
{
	WRITE_ONCE(ftg_released, true);
	wake_up(&ftg_release_wq);
	return count;
}

static const struct file_operations release_fops = {
	.owner = THIS_MODULE,
	.write = release_write,
};

/* Global, with prototypes: no IPA clone may rename them. */
void initwait_tick(void);
void initwait_hold(void);

noinline void __init initwait_tick(void)
{
	WRITE_ONCE(ftg_ticks, READ_ONCE(ftg_ticks) + 1);
}

noinline void __init initwait_hold(void)
{
	unsigned long deadline = jiffies + msecs_to_jiffies(hold_ms);

	while (!READ_ONCE(ftg_released) && time_before(jiffies, deadline)) {
		initwait_tick();
		wait_event_timeout(ftg_release_wq, READ_ONCE(ftg_released),
				   msecs_to_jiffies(FTG_TICK_MS));
	}
	if (!READ_ONCE(ftg_released))
		pr_info("no release within %u ms, finishing init\n", hold_ms);
}

/*
 * An __init function on each of two pages of its own. The NIC's MSI-X
 * table ioremap is one page and an unmapped guard page, so probes walking
 * up through the freed init area map every other page, and which ones
 * depends on where the hole below them began: with __init text on one
 * page, a walk could cover it with guard pages only (seen once in CI).
 * Of two neighbouring pages one is always mapped. Different bodies: no
 * identical-code folding.
 */
void initwait_page_a(void);
void initwait_page_b(void);

noinline void __init __aligned(PAGE_SIZE) initwait_page_a(void)
{
	WRITE_ONCE(ftg_ticks, READ_ONCE(ftg_ticks) + 1);
}

noinline void __init __aligned(PAGE_SIZE) initwait_page_b(void)
{
	WRITE_ONCE(ftg_ticks, READ_ONCE(ftg_ticks) + 2);
}

static int __init ftg_initwait_init(void)
{
	ftg_initwait_dir = debugfs_create_dir("ftg_initwait", NULL);
	debugfs_create_file("release", 0200, ftg_initwait_dir, NULL,
			    &release_fops);
	debugfs_create_ulong("ticks", 0400, ftg_initwait_dir, &ftg_ticks);
	initwait_page_a();
	initwait_page_b();
	initwait_hold();
	initwait_tick();
	return 0;
}

static void __exit ftg_initwait_exit(void)
{
	debugfs_remove(ftg_initwait_dir);
}

module_init(ftg_initwait_init);
module_exit(ftg_initwait_exit);
MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("ftguard test module: init held open, init text on two pages");
