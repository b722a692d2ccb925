// SPDX-License-Identifier: GPL-2.0
/*
 * Arming with exits ("arm graph"): each checked site's entry and return,
 * with depth and call/return times, for function_graph-style traces.
 *
 * A module cannot hook a function's return through register_ftrace_graph()
 * (not exported); what the kernel does export differs:
 *  - fprobe (CONFIG_FPROBE, Debian's 6.12): one ftrace_ops whose filter is
 *    exactly the checked ips (register_fprobe_ips()), returns through
 *    rethook. A site leaves it the way it leaves ftguard's own ops.
 *  - kretprobe (no FPROBE, Debian's 6.1): one kretprobe per site, returns
 *    through rethook (KRETPROBE_ON_RETHOOK). With KPROBES_ON_FTRACE a kprobe
 *    on an address that is an ftrace record is armed by the kprobes' own
 *    ftrace_ops, never by a breakpoint; ftguard offers only sites whose
 *    record is the function's first byte (a kretprobe must sit at the
 *    entry) and checks after registering that the kernel put every probe
 *    on ftrace, killing otherwise.
 * Neither writes text itself: ftrace patches the sites. Without either
 * (arm64: no FPROBE, no KPROBES_ON_FTRACE) "arm graph" is refused.
 *
 * A call tree (graph-roots) follows a call only while a root runs in the
 * calling task: at depth 0 only a root is followed, below it every armed
 * site down to max_depth levels. A call not followed declines its return,
 * so the task's pending returns of this arm are exactly the open calls of
 * its tree and the depth stays exact. That needs one hook covering every
 * armed site cheaply: fprobe's single ops. One kretprobe per site (6.1)
 * does not scale to the tens of thousands of sites a tree arms, so there
 * a call tree is refused and the reason says why.
 *
 * Handlers run without locks. They find the hit site in the published
 * armed set (ftg_arm.c), bump its hit counter, and emit ftguard:graph_entry
 * and ftguard:graph_exit. The call time travels in the per-call scratch
 * area both mechanisms give; the depth is the number of this task's
 * pending returns that belong to this arm, counted on the task's rethook
 * list (pushed only by the task itself, and by interrupts on its CPU,
 * which nest as they do in the kernel's function_graph tracer).
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/kprobes.h>
#include <linux/llist.h>
#include <linux/rethook.h>
#include <linux/slab.h>
#include <linux/trace_clock.h>

#include "ftg.h"

#if defined(CONFIG_FPROBE) && defined(FTG_HAVE_FPROBE_PT_REGS)
#define FTG_GRAPH_FPROBE	1
#include <linux/fprobe.h>
#elif defined(CONFIG_KRETPROBE_ON_RETHOOK) && defined(CONFIG_KPROBES_ON_FTRACE)
#define FTG_GRAPH_KRETPROBE	1
#endif

/* Pending returns one site may have at once (kretprobe only). */
#define FTG_GRAPH_MAXACTIVE	64
/*
 * Pending returns a call tree may have at once, per CPU (fprobe only):
 * open calls of the tasks inside a tree, not a multiple of the sites.
 */
#define FTG_GRAPH_TREE_ACTIVE	1024

/* What one call carries from entry to return. */
struct ftg_graph_call {
	u64 calltime;
	int depth;
};

struct ftg_graph {
	unsigned int n;
	unsigned int nroots;		/* 0: every armed call is followed */
	unsigned int max_depth;		/* levels below a root, 0 all */
	unsigned long roots[FTGUARD_GRAPH_ROOTS_MAX];
#if defined(FTG_GRAPH_FPROBE)
	struct fprobe fp;
#elif defined(FTG_GRAPH_KRETPROBE)
	struct kretprobe *rps;		/* one per armed site, by arm_idx */
	struct kretprobe **rpp;		/* for register_kretprobes() */
#endif
};

/* Set under ftg.lock while armed with exits; read by the handlers. */
static struct ftg_graph *ftg_live_graph;

const char *const ftg_graph_mechanism =
#if defined(FTG_GRAPH_FPROBE)
	"fprobe";
#elif defined(FTG_GRAPH_KRETPROBE)
	"kretprobe";
#else
	"none";
#endif

#if defined(FTG_GRAPH_FPROBE) || defined(FTG_GRAPH_KRETPROBE)
static bool ftg_graph_owns(const struct ftg_graph *g, const void *data)
{
#ifdef FTG_GRAPH_FPROBE
	return data == &g->fp;
#else
	return data >= (const void *)g->rps &&
	       data < (const void *)(g->rps + g->n);
#endif
}

/* This task's returns pending in @g: the depth of the call starting now. */
static int ftg_graph_depth(const struct ftg_graph *g)
{
	struct llist_node *node = READ_ONCE(current->rethooks.first);
	int depth = 0;

	for (; node; node = READ_ONCE(node->next)) {
		struct rethook_node *rhn =
			container_of(node, struct rethook_node, llist);

		if (ftg_graph_owns(g, READ_ONCE(rhn->rethook)->data))
			depth++;
	}
	return depth;
}

/* Whether a call tree follows a call of @ip starting at @depth. */
static bool ftg_graph_follows(const struct ftg_graph *g, unsigned long ip,
			      int depth)
{
	unsigned int i;

	if (depth)
		return !g->max_depth || depth <= g->max_depth;
	for (i = 0; i < g->nroots; i++)
		if (g->roots[i] == ip)
			return true;
	return false;
}

/* Entry: false when the call is not followed (its return is not hooked). */
static bool ftg_graph_enter(unsigned long ip, struct ftg_graph_call *call)
{
	struct ftg_graph *g = READ_ONCE(ftg_live_graph);
	int depth;

	if (!g || !rcu_is_watching())
		return false;
	depth = ftg_graph_depth(g);
	if (g->nroots && !ftg_graph_follows(g, ip, depth))
		return false;
	if (!ftg_count_hit(ip))
		return false;
	call->depth = depth;
	ftg_emit_graph_entry(ip, call->depth);
	call->calltime = trace_clock_local();
	return true;
}

static void ftg_graph_leave(unsigned long ip, const struct ftg_graph_call *call)
{
	u64 rettime = trace_clock_local();

	ftg_emit_graph_exit(ip, call->depth, call->calltime, rettime);
}
#endif

#if defined(FTG_GRAPH_FPROBE)
static int ftg_fprobe_entry(struct fprobe *fp, unsigned long ip,
			    unsigned long ret_ip, struct pt_regs *regs,
			    void *data)
{
	return ftg_graph_enter(ip, data) ? 0 : 1;
}

static void ftg_fprobe_exit(struct fprobe *fp, unsigned long ip,
			    unsigned long ret_ip, struct pt_regs *regs,
			    void *data)
{
	ftg_graph_leave(ip, data);
}

static int ftg_graph_register(struct ftg_graph *g, struct ftg_armset *set,
			      char *why, size_t len)
{
	int ret;

	g->fp.entry_handler = ftg_fprobe_entry;
	g->fp.exit_handler = ftg_fprobe_exit;
	g->fp.entry_data_size = sizeof(struct ftg_graph_call);
	if (g->nroots)
		g->fp.nr_maxactive = FTG_GRAPH_TREE_ACTIVE *
				     num_possible_cpus();
	ret = register_fprobe_ips(&g->fp, set->ips, set->n);
	if (ret)
		snprintf(why, len, "register_fprobe_ips: %d", ret);
	return ret;
}

static int ftg_graph_unregister(struct ftg_graph *g)
{
	return unregister_fprobe(&g->fp);
}

static int ftg_graph_remove(struct ftg_graph *g, struct ftg_patch_site *s)
{
	return ftrace_set_filter_ip(&g->fp.ops, s->ip, 1, 0);
}

static unsigned long ftg_graph_nmissed(const struct ftg_graph *g)
{
	return g->fp.nmissed;
}

#elif defined(FTG_GRAPH_KRETPROBE)
static int ftg_kretprobe_entry(struct kretprobe_instance *ri,
			       struct pt_regs *regs)
{
	unsigned long ip = (unsigned long)get_kretprobe(ri)->kp.addr;

	return ftg_graph_enter(ip, (void *)ri->data) ? 0 : 1;
}

static int ftg_kretprobe_exit(struct kretprobe_instance *ri,
			      struct pt_regs *regs)
{
	unsigned long ip = (unsigned long)get_kretprobe(ri)->kp.addr;

	ftg_graph_leave(ip, (void *)ri->data);
	return 0;
}

static int ftg_graph_register(struct ftg_graph *g, struct ftg_armset *set,
			      char *why, size_t len)
{
	unsigned int i;
	int ret;

	if (g->nroots) {
		snprintf(why, len,
			 "a call tree needs fprobe (one hook for every site); kretprobes, one per site, do not scale to it");
		return -EOPNOTSUPP;
	}
	g->rps = kvcalloc(set->n, sizeof(*g->rps), GFP_KERNEL);
	g->rpp = kvcalloc(set->n, sizeof(*g->rpp), GFP_KERNEL);
	if (!g->rps || !g->rpp)
		return -ENOMEM;
	for (i = 0; i < set->n; i++) {
		struct ftg_patch_site *s = ftg_site_find(set->ips[i]);

		/* a kretprobe sits at the entry: off it, a kprobe is a trap */
		if (s->offset) {
			snprintf(why, len,
				 "%s: record at +%u, a kretprobe would not use ftrace",
				 s->name, s->offset);
			return -EOPNOTSUPP;
		}
		g->rps[i].kp.addr = (kprobe_opcode_t *)set->ips[i];
		g->rps[i].entry_handler = ftg_kretprobe_entry;
		g->rps[i].handler = ftg_kretprobe_exit;
		g->rps[i].data_size = sizeof(struct ftg_graph_call);
		g->rps[i].maxactive = FTG_GRAPH_MAXACTIVE;
		g->rpp[i] = &g->rps[i];
	}
	ret = register_kretprobes(g->rpp, set->n);
	if (ret) {
		snprintf(why, len, "register_kretprobes: %d", ret);
		return ret;
	}
	for (i = 0; i < set->n; i++) {
		struct kprobe *kp = &g->rps[i].kp;

		if ((unsigned long)kp->addr != set->ips[i] ||
		    !kprobe_ftrace(kp)) {
			unregister_kretprobes(g->rpp, set->n);
			snprintf(why, len,
				 "kretprobe on 0x%lx is at 0x%lx%s, not the checked record through ftrace",
				 set->ips[i], (unsigned long)kp->addr,
				 kprobe_ftrace(kp) ? "" : " (no ftrace)");
			ftg_kill("%s", why);
			return -EIO;
		}
	}
	return 0;
}

static int ftg_graph_unregister(struct ftg_graph *g)
{
	unsigned int i, n = 0;

	/* sites that left one by one are unregistered already */
	for (i = 0; i < g->n; i++)
		if (g->rpp[i])
			g->rpp[n++] = g->rpp[i];
	if (n)
		unregister_kretprobes(g->rpp, n);
	return 0;
}

static int ftg_graph_remove(struct ftg_graph *g, struct ftg_patch_site *s)
{
	unregister_kretprobe(&g->rps[s->arm_idx]);
	g->rpp[s->arm_idx] = NULL;
	return 0;
}

static unsigned long ftg_graph_nmissed(const struct ftg_graph *g)
{
	unsigned long sum = 0;
	unsigned int i;

	for (i = 0; i < g->n; i++)
		sum += READ_ONCE(g->rps[i].nmissed);
	return sum;
}

#else
static int ftg_graph_register(struct ftg_graph *g, struct ftg_armset *set,
			      char *why, size_t len)
{
	snprintf(why, len,
		 "this kernel exports no function-exit hook on ftrace (needs FPROBE, or KPROBES_ON_FTRACE with KRETPROBE_ON_RETHOOK)");
	return -EOPNOTSUPP;
}

static int ftg_graph_unregister(struct ftg_graph *g)
{
	return 0;
}

static int ftg_graph_remove(struct ftg_graph *g, struct ftg_patch_site *s)
{
	return 0;
}

static unsigned long ftg_graph_nmissed(const struct ftg_graph *g)
{
	return 0;
}
#endif

static void ftg_graph_free(struct ftg_graph *g)
{
	if (!g)
		return;
	ftg_obj_del(FTG_OBJ_GRAPH, g);
#ifdef FTG_GRAPH_KRETPROBE
	kvfree(g->rps);
	kvfree(g->rpp);
#endif
	kfree(g);
}

/**
 * ftg_graph_arm - hook entry and return of every site of @set
 * @set: the armed set, already published to the handlers
 * @roots: the call tree's roots (each in @set), or NULL
 * @nroots: their number; 0 follows every call of @set
 * @max_depth: levels of a tree followed below a root, 0 all
 * @why: reason buffer for refusals
 * @len: its size
 *
 * Context: ftg.lock held; nothing armed.
 * Return: 0, -EOPNOTSUPP, -ENOMEM, or the kernel's error.
 */
int ftg_graph_arm(struct ftg_armset *set, const unsigned long *roots,
		  unsigned int nroots, unsigned int max_depth, char *why,
		  size_t len)
{
	struct ftg_graph *g;
	int ret;

	lockdep_assert_held(&ftg.lock);
	g = kzalloc(sizeof(*g), GFP_KERNEL);
	if (!g)
		return -ENOMEM;
	ftg_obj_add(FTG_OBJ_GRAPH, g);
	g->n = set->n;
	g->nroots = nroots;
	g->max_depth = max_depth;
	memcpy(g->roots, roots, nroots * sizeof(*roots));
	WRITE_ONCE(ftg_live_graph, g);
	ret = ftg_graph_register(g, set, why, len);
	if (ret) {
		WRITE_ONCE(ftg_live_graph, NULL);
		ftg_graph_free(g);
	}
	return ret;
}

/**
 * ftg_graph_disarm - unhook every site
 *
 * Returns come back after this through the kernel's rethook, which no
 * longer calls ftguard's handler once its probe is unregistered.
 *
 * Context: ftg.lock held.
 * Return: 0, or the kernel's error (the hooks then stay: the caller kills).
 */
int ftg_graph_disarm(void)
{
	struct ftg_graph *g = ftg_live_graph;
	int ret;

	lockdep_assert_held(&ftg.lock);
	if (!g)
		return 0;
	ret = ftg_graph_unregister(g);
	if (ret)
		return ret;
	WRITE_ONCE(ftg_live_graph, NULL);
	ftg_graph_free(g);
	return 0;
}

/**
 * ftg_graph_disarm_site - unhook one armed site, others staying armed
 * @s: the site (s->arm_idx valid)
 *
 * Context: ftg.lock held.
 * Return: 0, or the kernel's error.
 */
int ftg_graph_disarm_site(struct ftg_patch_site *s)
{
	lockdep_assert_held(&ftg.lock);
	if (!ftg_live_graph)
		return 0;
	return ftg_graph_remove(ftg_live_graph, s);
}

/* Calls whose return could not be hooked (no free instance) this arm. */
unsigned long ftg_graph_missed(void)
{
	lockdep_assert_held(&ftg.lock);
	return ftg_live_graph ? ftg_graph_nmissed(ftg_live_graph) : 0;
}
