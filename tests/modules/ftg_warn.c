// SPDX-License-Identifier: GPL-2.0
/*
 * ftg_warn: with warn=1 its init does WARN_ON(1), to prove that the VM
 * harness's kernel-log scan catches a warning.
 */
#include <linux/bug.h>
#include <linux/module.h>

static bool warn;
module_param(warn, bool, 0444);
MODULE_PARM_DESC(warn, "WARN_ON(1) at load");

static int __init ftg_warn_init(void)
{
	WARN_ON(warn);
	return 0;
}

static void __exit ftg_warn_exit(void)
{
}

module_init(ftg_warn_init);
module_exit(ftg_warn_exit);
MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("ftguard test module that can WARN");
