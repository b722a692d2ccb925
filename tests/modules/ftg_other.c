// SPDX-License-Identifier: GPL-2.0
/*
 * ftg_other: a second small module for address-reuse tests. Loaded after
 * ftg_target is removed, it tends to land at the same address; none of its
 * functions may then show up in enabled_functions.
 */
#include <linux/kernel.h>
#include <linux/module.h>

void other_fn(unsigned long i);
void other_fn2(unsigned long i);

static unsigned long ftg_other_sum;

noinline void other_fn(unsigned long i)
{
	WRITE_ONCE(ftg_other_sum, READ_ONCE(ftg_other_sum) + i);
}

noinline void other_fn2(unsigned long i)
{
	other_fn(i);
	other_fn(i + 1);
}

static int __init ftg_other_init(void)
{
	other_fn2(1);
	return 0;
}

static void __exit ftg_other_exit(void)
{
}

module_init(ftg_other_init);
module_exit(ftg_other_exit);
MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("ftguard test module for address reuse");
