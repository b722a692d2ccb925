// SPDX-License-Identifier: GPL-2.0
/*
 * ftg_killftrace: its init kills the kernel's ftrace as the kernel does on
 * a patching anomaly (ftrace_bug() calls ftrace_kill()): from then on
 * ftrace answers -ENODEV to every unregister, keeps its ops and probes,
 * and the sites it patched keep calling them, until reboot. ftrace_kill()
 * is not exported; its address comes from a kprobe registered on it for
 * the moment (the kprobe is gone before the call). Only a boot of its own
 * may load it.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/kprobes.h>
#include <linux/module.h>

static int __init ftg_killftrace_init(void)
{
	struct kprobe kp = { .symbol_name = "ftrace_kill" };
	void (*kill)(void);
	int ret;

	ret = register_kprobe(&kp);
	if (ret) {
		pr_err("cannot find ftrace_kill: %d\n", ret);
		return ret;
	}
	kill = (void (*)(void))kp.addr;
	unregister_kprobe(&kp);
	pr_info("killing ftrace (ftrace_kill at %pS)\n", kill);
	kill();
	return 0;
}

static void __exit ftg_killftrace_exit(void)
{
}

module_init(ftg_killftrace_init);
module_exit(ftg_killftrace_exit);
MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("ftguard test module that kills the kernel's ftrace");
