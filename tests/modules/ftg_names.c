// SPDX-License-Identifier: GPL-2.0
/*
 * ftg_names: sites whose names are hostile to anything that prints them.
 *
 * C cannot spell a symbol with a space, a newline or an escape sequence,
 * so the functions below get plain names here and plant-names renames
 * them in ftg_names.ko afterwards (objcopy --redefine-sym; the table of
 * new names is there). Each is a real ftrace site: global, noinline, with
 * a prototype so that no IPA clone renames it. Writing N to debugfs
 * ftg_names/trigger calls every one of them N times.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/debugfs.h>
#include <linux/fs.h>
#include <linux/kernel.h>
#include <linux/module.h>
#include <linux/uaccess.h>

void ftg_names_plain(unsigned long i);
void ftg_names_space(unsigned long i);
void ftg_names_newline(unsigned long i);
void ftg_names_tab(unsigned long i);
void ftg_names_backslash(unsigned long i);
void ftg_names_clear(unsigned long i);
void ftg_names_title(unsigned long i);
void ftg_names_cursor(unsigned long i);
void ftg_names_rtl(unsigned long i);

static struct dentry *ftg_names_dir;
static unsigned long ftg_names_sum;

/* Distinct bodies: identical ones could be folded into one symbol. */
#define FTG_NAMES_FN(fn, k)						\
noinline void fn(unsigned long i)					\
{									\
	WRITE_ONCE(ftg_names_sum, READ_ONCE(ftg_names_sum) + i * (k));	\
	barrier();							\
}

FTG_NAMES_FN(ftg_names_plain, 1)
FTG_NAMES_FN(ftg_names_space, 2)
FTG_NAMES_FN(ftg_names_newline, 3)
FTG_NAMES_FN(ftg_names_tab, 4)
FTG_NAMES_FN(ftg_names_backslash, 5)
FTG_NAMES_FN(ftg_names_clear, 6)
FTG_NAMES_FN(ftg_names_title, 7)
FTG_NAMES_FN(ftg_names_cursor, 8)
FTG_NAMES_FN(ftg_names_rtl, 9)

static void (*const ftg_names_fns[])(unsigned long) = {
	ftg_names_plain, ftg_names_space, ftg_names_newline, ftg_names_tab,
	ftg_names_backslash, ftg_names_clear, ftg_names_title,
	ftg_names_cursor, ftg_names_rtl,
};

static ssize_t trigger_write(struct file *file, const char __user *ubuf,
			     size_t count, loff_t *ppos)
{
	unsigned long n, i;
	size_t f;
	int ret = kstrtoul_from_user(ubuf, count, 0, &n);

	if (ret)
		return ret;
	for (i = 0; i < n; i++)
		for (f = 0; f < ARRAY_SIZE(ftg_names_fns); f++)
			ftg_names_fns[f](i);
	return count;
}

static const struct file_operations trigger_fops = {
	.owner = THIS_MODULE,
	.write = trigger_write,
};

static int __init ftg_names_init(void)
{
	ftg_names_dir = debugfs_create_dir("ftg_names", NULL);
	debugfs_create_file("trigger", 0200, ftg_names_dir, NULL,
			    &trigger_fops);
	return 0;
}

static void __exit ftg_names_exit(void)
{
	debugfs_remove(ftg_names_dir);
}

module_init(ftg_names_init);
module_exit(ftg_names_exit);
MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("ftguard test target: functions with hostile names");
