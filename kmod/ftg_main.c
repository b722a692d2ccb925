// SPDX-License-Identifier: GPL-2.0
/*
 * ftguard: dynamic ftrace that arms only sites just proven consistent, and
 * lets no armed site outlive its text.
 *
 * Lock story
 * ----------
 * One mutex, ftg.lock, protects all of ftguard's state: the site table,
 * the module list, the arming ops and its filter, the armed set, the kill
 * latch, every session's selection and response, and the last check
 * report. It is taken by:
 *   - the module notifier (COMING, LIVE, GOING), which therefore waits for
 *     a check or an arm in progress, and which an arm waits for: a check
 *     and the arming that follows it are atomic with module load/unload;
 *   - every control write and table read, release() of a control file
 *     (debugfs ftguard/control and /dev/ftguard alike: one fops);
 *   - the periodic verify work;
 *   - module init (the scan of loaded modules) and exit.
 * Order: ftg.lock is taken before ftrace's own locks (ftrace_lock, the ops
 * regex lock, text_mutex) and before the module kset's list_lock (a
 * spinlock under which only try_module_get() runs). ftrace never calls
 * into ftguard with its locks held, except through the callback.
 *
 * The ftrace callback takes no lock. It reads the published armed set
 * (ftg_arm.c), which is freed only after unregister_ftrace_function()
 * returned, i.e. after every CPU left the callback, and counts hits in
 * per-CPU counters. Its fast path reads nothing RCU protects; the other
 * ways of writing an event check rcu_is_watching() themselves
 * (ftg_trace.c). ftrace_test_recursion_trylock() guards recursion.
 *
 * The verify work takes ftg.lock, so nobody holding ftg.lock may wait for
 * it: it is cancelled synchronously only at exit, after ftg.stopping was set
 * under the lock (the work then does not re-queue itself).
 * debugfs_remove() waits for running file operations, which take
 * ftg.lock: it is called without ftg.lock. misc_deregister() does not
 * wait, and need not: an open /dev/ftguard holds a module reference, so
 * exit runs only when none is open. An arm holds one too, for as long as
 * ftrace or the probes hold anything of ftguard's (ftg_arm.c, "Staying
 * loaded"): exit never finds anything registered.
 *
 * The allocation counters (ftg_objects, shown in status) are atomics and
 * need no lock: a session is allocated before and freed after ftg.lock is
 * held, and a write's buffer lives outside it too. Every other object is
 * counted under ftg.lock, so status, which holds it, sees those exactly.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/module.h>
#include <linux/trace.h>
#include <linux/trace_events.h>

#include "ftg.h"

struct ftg_state ftg = {
	.lock = __MUTEX_INITIALIZER(ftg.lock),
	.sites = RB_ROOT,
	.modules = LIST_HEAD_INIT(ftg.modules),
	.sessions = LIST_HEAD_INIT(ftg.sessions),
	.fi_memory_skip = -1,
};

atomic_long_t ftg_objects[FTG_NR_OBJ];

unsigned int ftg_period_ms = 1000;
module_param_named(period, ftg_period_ms, uint, 0444);
MODULE_PARM_DESC(period, "re-verify armed sites every this many ms");

/*
 * A periodic run re-checks this many armed sites, the next slice of the
 * armed set each time (0: all of it): every armed site is re-checked
 * within ceil(armed / slice) periods, and a run's cost does not grow
 * with the arm beyond it (doc/design.md, "The periodic verify").
 */
unsigned int ftg_verify_slice = 8192;
module_param_named(slice, ftg_verify_slice, uint, 0444);
MODULE_PARM_DESC(slice, "armed sites one periodic verify re-checks (0: all)");

unsigned int ftg_max_arm = 256;
module_param_named(max_arm, ftg_max_arm, uint, 0444);
MODULE_PARM_DESC(max_arm, "sites one arm may hold without force");

static const char *const ftg_events[] = {
	"func", "graph_entry", "graph_exit", "module", "site", "check",
	"arm", "kill", "stack",
};

static struct trace_array *ftg_instance_get(void)
{
#ifdef FTG_HAVE_TRACE_ARRAY_GET_SYSTEMS
	return trace_array_get_by_name("ftguard", NULL);
#else
	return trace_array_get_by_name("ftguard");
#endif
}

static void ftg_instance_put(void)
{
	unsigned int i;

	if (!ftg.tr)
		return;
	ftg_hot_exit();
	for (i = 0; i < ARRAY_SIZE(ftg_events); i++)
		trace_array_set_clr_event(ftg.tr, "ftguard", ftg_events[i],
					  false);
	/* put before destroy, or destroy sees our reference: -EBUSY */
	trace_array_put(ftg.tr);
	trace_array_destroy(ftg.tr);
	ftg.tr = NULL;
}

static int ftg_instance_init(void)
{
	unsigned int i;
	int ret;

	ftg.tr = ftg_instance_get();
	if (!ftg.tr)
		return -ENOMEM;
	for (i = 0; i < ARRAY_SIZE(ftg_events); i++) {
		ret = trace_array_set_clr_event(ftg.tr, "ftguard",
						ftg_events[i], true);
		if (ret) {
			pr_err("cannot enable event %s: %d\n", ftg_events[i],
			       ret);
			ftg_instance_put();
			return ret;
		}
	}
	ftg_hot_init("ftguard");
	return 0;
}

static int __init ftg_init(void)
{
	int ret;

	if (!ftg_period_ms)
		ftg_period_ms = 1;
	ftg_arm_init();
	ret = ftg_instance_init();
	if (ret)
		return ret;
	ret = ftg_modules_init();
	if (ret)
		goto put_instance;
	ret = ftg_debugfs_init();
	if (ret)
		goto exit_modules;
	ret = ftg_chrdev_init();	/* last: opens may follow at once */
	if (ret)
		goto exit_debugfs;
	pr_info("loaded: %u module sites%s\n", ftg.n_module,
		FTG_FAULT_INJECTION_BUILD ? " (fault-injection build)" : "");
	return 0;

exit_debugfs:
	ftg_debugfs_exit();
exit_modules:
	ftg_modules_exit();
put_instance:
	ftg_instance_put();
	return ret;
}

static void __exit ftg_exit(void)
{
	ftg_chrdev_exit();
	ftg_debugfs_exit();
	ftg_arm_exit();
	ftg_modules_exit();
	ftg_instance_put();
}

module_init(ftg_init);
module_exit(ftg_exit);
MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("ftguard: dynamic ftrace on proven sites only");
MODULE_VERSION("0.1.0");
