// SPDX-License-Identifier: GPL-2.0
/*
 * Arming, disarming, periodic re-verification and the kill switch.
 *
 * One ftrace_ops carries every armed site. Its callback (ftg_trace.c,
 * next to the event it writes) is lockless: it finds the hit ip in the
 * published armed set by its hash index and bumps a per-CPU counter. The
 * set is published once register_ftrace_function() returned, unpublished
 * before unregister_ftrace_function(), and freed only after that
 * succeeded, which waits for running callbacks of a dynamic (module) ops.
 * In between the callback finds no set and returns at once: ftrace's own
 * patching of tens of thousands of sites calls traced functions millions
 * of times (every text_poke of every batch), and the arm and the disarm
 * must not trace themselves, as the kernel's function tracer does not
 * (it turns its callback on only once registered, tr->function_enabled).
 *
 * An arm with exits ("arm graph", ftg_graph.c) hooks the same checked set
 * through the kernel's fprobe or kretprobe instead of that ops; everything
 * else (the set, the hit counters, disarm, per-site disarm, verify, kill)
 * is shared.
 *
 * Staying loaded
 * --------------
 * While ftrace or the kernel's probes hold anything of ftguard's (the
 * ops, the fprobe or kretprobes, and so the callbacks they call and the
 * set those read), ftguard holds a reference to itself: rmmod is refused
 * rather than free text and data the kernel still calls. The reference
 * is taken before the first registration of an arm and dropped once
 * everything is unregistered. An unregister fails only when the kernel
 * has killed ftrace (-ENODEV until reboot), and then its patched sites
 * keep calling: the arm ends for ftguard (no site is armed, the
 * callbacks find no set and do nothing), but what the kernel holds is
 * never freed, ftg.stuck says what it is, every later arm, disarm and
 * reset is refused with that reason, and the reference stays until
 * reboot.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/log2.h>
#include <linux/percpu.h>
#include <linux/slab.h>
#include <linux/sort.h>
#include <linux/string.h>

#include "ftg.h"
#include "ftg_trace.h"

struct ftg_armset *ftg_live_set;
/* The set of an arm whose unregister failed: its callbacks may hold it. */
static struct ftg_armset *ftg_stuck_set;

/*
 * Fault injection: "fail-ftrace" makes the next change of the armed ops'
 * filter fail as a dead ftrace would (-ENODEV), without calling ftrace.
 */
static bool ftg_ftrace_fails(void)
{
	if (!FTG_FAULT_INJECTION_BUILD || !ftg.fi_fail_ftrace)
		return false;
	ftg.fi_fail_ftrace = false;
	return true;
}

static int ftg_filter_set(unsigned long *ips, unsigned int n)
{
	if (ftg_ftrace_fails())
		return -ENODEV;
	return ftrace_set_filter_ips(&ftg.ops, ips, n, 0, 1);
}

static u64 ftg_armset_hits(const struct ftg_armset *set, int idx)
{
	u64 sum = 0;
	int cpu;

	for_each_possible_cpu(cpu)
		sum += *per_cpu_ptr(ftg_hit_counter(set, idx), cpu);
	return sum;
}

u64 ftg_site_hits(const struct ftg_patch_site *s)
{
	lockdep_assert_held(&ftg.lock);
	if (s->arm_idx >= 0 && ftg.armset)
		return s->hits + ftg_armset_hits(ftg.armset, s->arm_idx);
	return s->hits;
}

static void ftg_armset_free(struct ftg_armset *set)
{
	unsigned int i;

	if (!set)
		return;
	ftg_obj_del(FTG_OBJ_ARMSET, set);
	for (i = 0; set->hits && i < set->nchunks; i++)
		free_percpu(set->hits[i]);
	kfree(set->hits);
	kvfree(set->hash);
	kvfree(set->ips);
	kfree(set);
}

/*
 * Empties the (unregistered) ops' filter. ftrace_free_filter() is not an
 * option here: it frees the hashes but leaves the ops pointing at them, so
 * the next ftrace_set_filter_ips() on the ops frees them a second time.
 * Called whenever the ops leaves ftrace (disarm, a failed register).
 */
static void ftg_clear_filter(void)
{
	int ret = ftrace_set_filter_ips(&ftg.ops, NULL, 0, 0, 1);

	if (ret)
		pr_warn("cannot clear the filter: %d\n", ret);
}

static void ftg_site_unarm(struct ftg_patch_site *s)
{
	s->hits = ftg_site_hits(s);
	s->arm_idx = -1;
	if (s->state == FTG_PATCH_ARMED)
		s->state = FTG_PATCH_OK;
	ftg.armed_sites--;
}

static void ftg_hold(void)
{
	if (!ftg.held)
		__module_get(THIS_MODULE);
	ftg.held = true;
}

static void ftg_let_go(void)
{
	if (ftg.held)
		module_put(THIS_MODULE);
	ftg.held = false;
}

/*
 * After an unregister failed: keeps @set (a callback may still hold it)
 * and the reference, and says what stays registered.
 */
static void ftg_stick(struct ftg_armset *set, const char *what, int err)
{
	ftg_stuck_set = set;
	snprintf(ftg.stuck, sizeof(ftg.stuck),
		 "the %s stays registered (unregistering it failed: %d)",
		 what, err);
	pr_crit("%s: ftguard stays loaded until reboot\n", ftg.stuck);
}

/**
 * ftg_stuck_refusal - refuse a request while an arm is stuck
 * @why: the reason, when refused
 * @len: its size
 *
 * Context: ftg.lock held.
 * Return: 0, or -EBUSY (with @why) while the kernel holds an arm whose
 * unregister failed.
 */
int ftg_stuck_refusal(char *why, size_t len)
{
	lockdep_assert_held(&ftg.lock);
	if (!ftg.stuck[0])
		return 0;
	snprintf(why, len, "%s: ftguard stays loaded until reboot", ftg.stuck);
	return -EBUSY;
}

/**
 * ftg_disarm - end the arm
 *
 * No site is armed afterwards. The ops or probes are unregistered, and
 * only then are the set freed and ftguard's reference dropped; when the
 * kernel refuses (it killed ftrace), everything it holds is kept, the
 * arm is stuck and ftguard is killed ("Staying loaded").
 *
 * Context: ftg.lock held.
 * Return: 0 once nothing of ftguard's is registered, -EBUSY while an
 * arm is stuck (now or before).
 */
int ftg_disarm(void)
{
	struct ftg_armset *set = ftg.armset;
	const char *what = ftg.graph ? ftg_graph_mechanism : "ftrace ops";
	bool graph = ftg.graph;
	unsigned int i;
	int ret;

	lockdep_assert_held(&ftg.lock);
	if (!set)
		return ftg.stuck[0] ? -EBUSY : 0;
	/* from here the callbacks find no set: nothing more is counted */
	WRITE_ONCE(ftg_live_set, NULL);
	if (graph)
		ret = ftg_graph_disarm();
	else
		ret = unregister_ftrace_function(&ftg.ops);
	for (i = 0; i < set->n; i++) {
		struct ftg_patch_site *s = ftg_site_find(set->ips[i]);

		if (s && s->arm_idx == i)
			ftg_site_unarm(s);
	}
	ftg.armed_sites = 0;
	ftg.armset = NULL;
	ftg.owner = NULL;
	ftg.graph = false;
	ftg.stack = false;
	trace_arm(set->n, 0, ftg.owner_pid);
	ftg.owner_pid = 0;
	ftg.owner_comm[0] = '\0';
	if (ret) {
		ftg_stick(set, what, ret);
		ftg_kill("unregistering the %s failed: %d", what, ret);
		return -EBUSY;
	}
	if (!graph)
		ftg_clear_filter();
	ftg_armset_free(set);
	ftg_let_go();
	return 0;
}

void ftg_disarm_session(struct ftg_session *sess)
{
	lockdep_assert_held(&ftg.lock);
	if (ftg.armset && ftg.owner == sess)
		ftg_disarm();
}

/*
 * Takes one site out of the armed filter before its text goes. Removing the
 * last entry would leave an empty filter, which means "trace everything":
 * the ops is unregistered instead.
 */
void ftg_disarm_site(struct ftg_patch_site *s)
{
	int ret;

	lockdep_assert_held(&ftg.lock);
	if (s->arm_idx < 0 || !ftg.armset)
		return;
	if (ftg.armed_sites <= 1) {
		ftg_disarm();
		return;
	}
	if (ftg_ftrace_fails())
		ret = -ENODEV;
	else if (ftg.graph)
		ret = ftg_graph_disarm_site(s);
	else
		ret = ftrace_set_filter_ip(&ftg.ops, s->ip, 1, 0);
	ftg_site_unarm(s);
	if (ret)
		ftg_kill("cannot remove %s (0x%lx) from the filter: %d",
			 s->name, s->ip, ret);
}

void ftg_kill(const char *fmt, ...)
{
	va_list args;

	lockdep_assert_held(&ftg.lock);
	if (ftg.killed)
		return;
	ftg.killed = true;
	va_start(args, fmt);
	vsnprintf(ftg.kill_reason, sizeof(ftg.kill_reason), fmt, args);
	va_end(args);
	pr_crit("killed: %s\n", ftg.kill_reason);
	ftg_disarm();
	trace_kill(ftg.kill_reason);
}

/* Collects the selection's sites; -ENOENT names the first unknown ip. */
static int ftg_selection_sites(struct ftg_session *sess,
			       struct ftg_patch_site **sites, char *why,
			       size_t len)
{
	unsigned int i;

	for (i = 0; i < sess->nsel; i++) {
		sites[i] = ftg_site_find(sess->sel[i]);
		if (!sites[i]) {
			snprintf(why, len, "0x%lx is not a known site",
				 sess->sel[i]);
			return -ENOENT;
		}
	}
	return 0;
}

/* Lists the first offending sites of a failed check in @why. */
static void ftg_explain(struct ftg_patch_site **sites, unsigned int n,
			unsigned int bad, char *why, size_t len)
{
	size_t used = scnprintf(why, len, "check failed (%u bad):", bad);
	unsigned int i;

	for (i = 0; i < n && used < len - 1; i++) {
		const struct ftg_patch_site *s = sites[i];

		if (s->state == FTG_PATCH_OK || s->state == FTG_PATCH_ARMED)
			continue;
		used += scnprintf(why + used, len - used, " %s 0x%lx %s",
				  ftg_patch_state_name(s->state), s->ip,
				  s->name);
		if (s->ip == ftg.stray_ip)
			used += scnprintf(why + used, len - used,
					  " (calls %pS: %s)",
					  (void *)ftg.stray_call,
					  "ftguard is no longer called");
	}
}

/* Keeps @report (from ftg_check) as the check file's, freeing the old one. */
void ftg_store_report(char *report, size_t len)
{
	lockdep_assert_held(&ftg.lock);
	ftg_obj_del(FTG_OBJ_REPORT, ftg.report);
	kvfree(ftg.report);
	ftg.report = report;
	ftg.report_len = len;
}

/* Publishes @set and hooks it with exits; unpublishes it on failure. */
static int ftg_arm_graph(struct ftg_armset *set,
			 const struct ftg_session *sess,
			 const struct ftg_arm_req *req, char *why, size_t len)
{
	int ret;

	if (ftg_ftrace_fails()) {
		snprintf(why, len, "ftg_graph_arm: %d", -ENODEV);
		return -ENODEV;
	}
	WRITE_ONCE(ftg_live_set, set);
	ret = ftg_graph_arm(set, sess->roots, sess->nroots, req->max_depth,
			    req->stack, why, len);
	if (ret)
		WRITE_ONCE(ftg_live_set, NULL);
	return ret;
}

/*
 * Fills the hash index the hit handlers look ips up in (ftg_armset_find()).
 * At least twice as many entries as sites, so that a probe sequence stays
 * short and always ends at an empty entry; a power of two, so that the
 * hash's top bits are the entry.
 */
static void ftg_armset_index(struct ftg_armset *set)
{
	unsigned long h;
	unsigned int i;

	memset(set->hash, 0xff, (set->hash_mask + 1UL) * sizeof(*set->hash));
	for (i = 0; i < set->n; i++) {
		h = ftg_armset_hash(set, set->ips[i]);
		while (set->hash[h] != FTG_SLOT_NONE)
			h = (h + 1) & set->hash_mask;
		set->hash[h] = i;
	}
}

static struct ftg_armset *ftg_armset_new(const unsigned long *ips,
					 unsigned int n)
{
	struct ftg_armset *set = kzalloc(sizeof(*set), GFP_KERNEL);
	unsigned int i, bits;

	if (!set)
		return NULL;
	ftg_obj_add(FTG_OBJ_ARMSET, set);
	set->n = n;
	set->ips = kvmalloc_array(n, sizeof(*set->ips), GFP_KERNEL);
	bits = order_base_2(2 * (unsigned long)n);
	set->hash_shift = BITS_PER_LONG - bits;
	set->hash_mask = (1UL << bits) - 1;
	set->hash = kvmalloc_array(1UL << bits, sizeof(*set->hash),
				   GFP_KERNEL);
	set->nchunks = DIV_ROUND_UP(n, FTG_CHUNK);
	set->hits = kcalloc(set->nchunks, sizeof(*set->hits), GFP_KERNEL);
	if (!set->ips || !set->hash || !set->hits)
		goto fail;
	for (i = 0; i < set->nchunks; i++) {
		size_t counters = min_t(size_t, n - i * FTG_CHUNK, FTG_CHUNK);

		set->hits[i] = __alloc_percpu(counters * sizeof(u64),
					      sizeof(u64));
		if (!set->hits[i])
			goto fail;
	}
	memcpy(set->ips, ips, n * sizeof(*ips));
	ftg_armset_index(set);
	return set;
fail:
	ftg_armset_free(set);
	return NULL;
}

/**
 * ftg_arm - check @sess's selection and, if all of it is ok, arm it
 * @sess: the session whose selection is armed (and which owns the arm
 *	unless @req->persistent); its graph roots make a graph arm a call
 *	tree
 * @req: persistent (the arm outlives the session), force (allow more
 *	than ftg_max_arm sites), graph (hook entries and returns,
 *	ftg_graph.c, not entries alone), stack (each func event, or with
 *	graph each depth 0 graph_entry, followed by a stack event),
 *	max_depth (call tree levels)
 * @why: reason buffer for refusals
 * @len: its size
 *
 * The check and the registration happen under ftg.lock, so no module can
 * come or go between the proof and the arming.
 * Context: ftg.lock held.
 * Return: 0, or -EPERM, -EBUSY, -ENOENT, -E2BIG, -ESTALE, -ENOMEM,
 * -EOPNOTSUPP (graph on a kernel without an exit hook, or a call tree
 * where the exit hook cannot follow one), or an ftrace error.
 */
int ftg_arm(struct ftg_session *sess, const struct ftg_arm_req *req,
	    char *why, size_t len)
{
	struct ftg_patch_site **sites;
	struct ftg_armset *set;
	char *report;
	size_t report_len;
	unsigned int i;
	int ret;

	lockdep_assert_held(&ftg.lock);
	ret = ftg_stuck_refusal(why, len);
	if (ret)
		return ret;
	if (ftg.killed) {
		snprintf(why, len, "killed (%s): reset first", ftg.kill_reason);
		return -EPERM;
	}
	if (ftg.armset) {
		snprintf(why, len, "already armed (%u sites)", ftg.armed_sites);
		return -EBUSY;
	}
	ret = ftg_kernel_ftrace_off(why, len);
	if (ret)
		return ret;
	if (!sess->nsel) {
		snprintf(why, len, "empty selection");
		return -ENOENT;
	}
	if (sess->nsel > ftg_max_arm && !req->force) {
		snprintf(why, len, "%u sites > max_arm %u: add force",
			 sess->nsel, ftg_max_arm);
		return -E2BIG;
	}
	sites = ftg_memory_fails() ? NULL :
		kvmalloc_array(sess->nsel, sizeof(*sites), GFP_KERNEL);
	if (!sites) {
		snprintf(why, len, "out of memory: nothing armed");
		return -ENOMEM;
	}
	ftg_obj_add(FTG_OBJ_SCRATCH, sites);
	ret = ftg_selection_sites(sess, sites, why, len);
	if (ret)
		goto out;
	ret = ftg_check(sites, sess->nsel, &report, &report_len);
	if (ret == -ENOMEM)
		snprintf(why, len, "out of memory: nothing armed");
	if (ret < 0)
		goto out;
	ftg_store_report(report, report_len);
	if (ret > 0) {
		ftg_explain(sites, sess->nsel, ret, why, len);
		ret = -ESTALE;
		goto out;
	}
	ret = -ENOMEM;
	set = ftg_armset_new(sess->sel, sess->nsel);
	if (!set)
		goto out;
	ftg_hot_refresh();
	ftg_hold();
	if (req->graph) {
		ret = ftg_arm_graph(set, sess, req, why, len);
		if (ret)
			goto out_free;
	} else {
		ret = ftg_filter_set(set->ips, set->n);
		if (ret) {
			snprintf(why, len, "ftrace_set_filter_ips: %d", ret);
			goto out_free;
		}
		/*
		 * The ops is unregistered here, so its callback may change:
		 * an arm without callers keeps the callback that has no
		 * stack work at all, not a test on every hit.
		 */
		ftg.ops.func = req->stack ? ftg_func_stack_callback :
					    ftg_func_callback;
		ret = register_ftrace_function(&ftg.ops);
		if (ret) {
			snprintf(why, len, "register_ftrace_function: %d", ret);
			ftg_clear_filter();
			goto out_free;
		}
		/* the set's contents before its pointer, for the callbacks */
		smp_store_release(&ftg_live_set, set);
	}
	ftg.graph = req->graph;
	ftg.stack = req->stack;
	ftg.armset = set;
	ftg.armed_sites = set->n;
	for (i = 0; i < set->n; i++) {
		sites[i]->arm_idx = i;
		sites[i]->state = FTG_PATCH_ARMED;
		sites[i]->share = ftg_share_at_arm(sites[i]);
	}
	ftg.owner = req->persistent ? NULL : sess;
	ftg.owner_pid = req->persistent ? 0 : sess->pid;
	strscpy(ftg.owner_comm, req->persistent ? "" : sess->comm,
		sizeof(ftg.owner_comm));
	trace_arm(set->n, 1, ftg.owner_pid);
	ftg.verify_next = 0;
	if (!ftg.stopping)
		mod_delayed_work(system_wq, &ftg.verify_work,
				 msecs_to_jiffies(ftg_period_ms));
	ftg_obj_del(FTG_OBJ_SCRATCH, sites);
	kvfree(sites);
	return 0;

out_free:
	if (req->graph && ftg_graph_registered()) {
		/* a failed arm whose undoing failed too */
		ftg_stick(set, ftg_graph_mechanism, ret);
	} else {
		ftg_armset_free(set);
		ftg_let_go();
	}
	if (ret == -ENODEV)
		ftg_kill("ftrace failed while arming: %d", ret);
out:
	ftg_obj_del(FTG_OBJ_SCRATCH, sites);
	kvfree(sites);
	return ret;
}

/*
 * Re-checks the armed set's slots [@from, @to), killing on a deviation.
 * A re-check: records of permanent text are not asked for again
 * (ftg_check_sites()).
 */
static int ftg_verify_slots(unsigned int from, unsigned int to, char *why,
			    size_t len)
{
	struct ftg_armset *set = ftg.armset;
	struct ftg_patch_site **sites;
	unsigned int i, n = 0;
	char *report;
	size_t report_len;
	int bad;

	lockdep_assert_held(&ftg.lock);
	/* Not the sites' fault: said once, no kill, checked again next time. */
	bad = ftg_kernel_ftrace_off(why, len);
	if (bad) {
		if (!ftg.ftrace_off_said)
			pr_warn("verify paused: %s\n", why);
		ftg.ftrace_off_said = true;
		return bad;
	}
	ftg.ftrace_off_said = false;
	sites = ftg_memory_fails() ? NULL :
		kvmalloc_array(max(to - from, 1U), sizeof(*sites), GFP_KERNEL);
	if (!sites) {
		snprintf(why, len, "out of memory: no verdict, nothing killed");
		return -ENOMEM;
	}
	ftg_obj_add(FTG_OBJ_SCRATCH, sites);
	for (i = from; i < to; i++) {
		struct ftg_patch_site *s = ftg_site_find(set->ips[i]);

		if (s && s->arm_idx == i)
			sites[n++] = s;
	}
	bad = ftg_check_sites(sites, n, &report, &report_len, true);
	if (bad == -ENOMEM)
		snprintf(why, len, "out of memory: no verdict, nothing killed");
	if (bad > 0) {
		ftg_store_report(report, report_len);
		ftg_explain(sites, n, bad, why, len);
		ftg_kill("verify: %s", why);
		bad = -ESTALE;
	} else if (!bad) {
		ftg_obj_del(FTG_OBJ_REPORT, report);
		kvfree(report);
	}
	ftg_obj_del(FTG_OBJ_SCRATCH, sites);
	kvfree(sites);
	return bad;
}

/**
 * ftg_verify - re-check every armed site, killing on a deviation
 * @why: reason buffer
 * @len: its size
 *
 * The `verify` command: the whole armed set at once, whatever the
 * periodic work's slice.
 * Context: ftg.lock held.
 * Return: 0 when all armed sites are ok (or nothing is armed), -ESTALE
 * after a kill, -ENODEV while the kernel's ftrace is off (no kill),
 * -ENOMEM.
 */
int ftg_verify(char *why, size_t len)
{
	lockdep_assert_held(&ftg.lock);
	if (!ftg.armset)
		return 0;
	return ftg_verify_slots(0, ftg.armset->n, why, len);
}

/* Periodic runs that re-check the whole armed set once: the set in slices. */
static unsigned int ftg_verify_cycle_runs(const struct ftg_armset *set)
{
	if (!ftg_verify_slice || set->n <= ftg_verify_slice)
		return 1;
	return DIV_ROUND_UP(set->n, ftg_verify_slice);
}

/**
 * ftg_verify_cycle_ms - how long the periodic verify takes to re-check
 *	every armed site once: the bound on finding a changed site
 *
 * Counted in periods; each run's own time comes on top.
 * Context: ftg.lock held.
 * Return: ms, 0 when nothing is armed.
 */
u64 ftg_verify_cycle_ms(void)
{
	lockdep_assert_held(&ftg.lock);
	if (!ftg.armset)
		return 0;
	return (u64)ftg_verify_cycle_runs(ftg.armset) * ftg_period_ms;
}

/*
 * One periodic run: the next slice of the armed set in address order
 * (the set is sorted), from where the last run stopped; at the set's end
 * the next run starts over. So a site changed at any moment is found by
 * the run that next reaches its slot: within ftg_verify_cycle_runs() runs.
 * A run that ends in a kill or a pause leaves the cursor where it was.
 */
static int ftg_verify_slice_run(char *why, size_t len)
{
	unsigned int n = ftg.armset->n, from = ftg.verify_next, to;
	int ret;

	if (from >= n)
		from = 0;
	to = ftg_verify_slice ? from + min(ftg_verify_slice, n - from) : n;
	ret = ftg_verify_slots(from, to, why, len);
	if (ret)
		return ret;
	ftg.verify_next = to < n ? to : 0;
	if (to == n)
		ftg.verify_cycles++;
	return 0;
}

static void ftg_verify_work(struct work_struct *work)
{
	char why[FTGUARD_REASON_MAX];
	u64 t0;

	mutex_lock(&ftg.lock);
	/* a run queued before a disarm finds nothing to verify: not counted */
	if (!ftg.armset) {
		mutex_unlock(&ftg.lock);
		return;
	}
	t0 = ktime_get_ns();
	if (ftg_verify_slice_run(why, sizeof(why)) == -ENOMEM) {
		/* said, not counted as a run; the same slice runs next time */
		ftg.verify_missed++;
		pr_warn_ratelimited("verify missed a run: %s; the same sites are verified next period\n",
				    why);
	} else {
		ftg.verify_ns += ktime_get_ns() - t0;
		ftg.verify_runs++;
	}
	if (ftg.armset && !ftg.stopping)
		schedule_delayed_work(&ftg.verify_work,
				      msecs_to_jiffies(ftg_period_ms));
	mutex_unlock(&ftg.lock);
}

void ftg_arm_init(void)
{
	ftg.ops.func = ftg_func_callback;
	INIT_DELAYED_WORK(&ftg.verify_work, ftg_verify_work);
}

/* Module exit: disarm, stop the timer, release the filters. */
void ftg_arm_exit(void)
{
	mutex_lock(&ftg.lock);
	ftg.stopping = true;
	ftg_disarm();
	mutex_unlock(&ftg.lock);
	cancel_delayed_work_sync(&ftg.verify_work);
	/* exit runs only once ftguard let go: nothing of it is registered */
	if (!WARN_ON_ONCE(ftg.held))
		ftrace_free_filter(&ftg.ops);
	ftrace_free_filter(&ftg.probe_ops);
	mutex_lock(&ftg.lock);
	ftg_store_report(NULL, 0);
	mutex_unlock(&ftg.lock);
}
