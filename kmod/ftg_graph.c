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
 * With callers ("arm graph stack") a call at depth 0 (a root's call in a
 * tree, otherwise a call no armed call of its task encloses) is followed
 * by a stack event, written by ftg_trace.c's stack writer after its
 * graph_entry and before its call time is taken, so the unwinding is not
 * in the duration. Nested calls get none: their callers are the
 * enclosing call's stack plus the tree above them, and a stack with each
 * of a tree's tens of thousands of callees would cost more than the
 * tree itself.
 *
 * A call tree (graph-roots) follows a call only while a root runs in the
 * calling task: at depth 0 only a root is followed, below it every armed
 * site down to max_depth levels.
 *  - fprobe: a call not followed declines its return, so the task's
 *    pending returns of this arm are exactly the open calls of its tree
 *    and each call has its depth and duration.
 *  - kretprobe: one kretprobe per site does not scale to the tens of
 *    thousands of sites a tree arms. The roots get kretprobes (with their
 *    durations); the callees one ftrace_ops of their own, which saves the
 *    registers for the stack pointer. A callee runs inside a tree while
 *    its task has a root call pending; its depth below the root comes
 *    from the stack: the root call's instance keeps the stack pointers of
 *    the open calls it saw, and a call starting at or above one of them
 *    means that one has returned. Callees get entries without returns
 *    (no duration), and calls in interrupts, which run on other stacks,
 *    are not followed.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/kprobes.h>
#include <linux/llist.h>
#include <linux/rethook.h>
#include <linux/seq_file.h>
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

/* Open calls below a root that a tree without exits keeps apart. */
#define FTG_TREE_OPEN_MAX	64

/* A root call of a tree without exits: its open callees' stack pointers. */
struct ftg_tree_call {
	struct ftg_graph_call call;
	unsigned int nopen;
	unsigned long open_sp[FTG_TREE_OPEN_MAX];
};

struct ftg_graph {
	unsigned int n;
	unsigned int nroots;		/* 0: every armed call is followed */
	unsigned int max_depth;		/* levels below a root, 0 all */
	bool stack;			/* a stack event after each depth 0 entry */
	unsigned long roots[FTGUARD_GRAPH_ROOTS_MAX];
#if defined(FTG_GRAPH_FPROBE)
	struct fprobe fp;
	bool fp_registered;
#elif defined(FTG_GRAPH_KRETPROBE)
	struct kretprobe *rps;		/* one per armed site, by arm_idx */
	struct kretprobe **rpp;		/* for register_kretprobes() */
	unsigned int nrps;		/* n, or nroots for a tree */
	struct ftrace_ops callee_ops;	/* a tree's callees */
	unsigned int ncallees;		/* sites left in callee_ops' filter */
	unsigned int nlost;		/* kretprobes the kernel would not let go */
#endif
};

/* Set under ftg.lock while armed with exits; read by the handlers. */
static struct ftg_graph *ftg_live_graph;

const char *const ftg_graph_mechanism =
#if defined(FTG_GRAPH_FPROBE)
	FTGUARD_GRAPH_HOOK_FPROBE;
#elif defined(FTG_GRAPH_KRETPROBE)
	FTGUARD_GRAPH_HOOK_KRETPROBE;
#else
	FTGUARD_GRAPH_HOOK_NONE;
#endif

#if defined(FTG_GRAPH_FPROBE) || defined(FTG_GRAPH_KRETPROBE)
static bool ftg_graph_owns(const struct ftg_graph *g, const void *data)
{
#ifdef FTG_GRAPH_FPROBE
	return data == &g->fp;
#else
	return data >= (const void *)g->rps &&
	       data < (const void *)(g->rps + g->nrps);
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

static bool ftg_graph_is_root(const struct ftg_graph *g, unsigned long ip)
{
	unsigned int i;

	for (i = 0; i < g->nroots; i++)
		if (g->roots[i] == ip)
			return true;
	return false;
}

/* Whether a call tree follows a call of @ip starting at @depth. */
static bool ftg_graph_follows(const struct ftg_graph *g, unsigned long ip,
			      int depth)
{
	if (depth)
		return !g->max_depth || depth <= g->max_depth;
	return ftg_graph_is_root(g, ip);
}

/*
 * Entry: false when the call is not followed (its return is not hooked).
 * @parent_ip is the address the call returns to, where its stack starts.
 */
static bool ftg_graph_enter(unsigned long ip, unsigned long parent_ip,
			    struct ftg_graph_call *call)
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
	if (g->stack && !depth)
		ftg_write_stack(parent_ip);
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
	return ftg_graph_enter(ip, ret_ip, data) ? 0 : 1;
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
	/*
	 * Off while ftrace patches the sites, as ftguard's own ops is
	 * (ftg_arm.c): the patching's own calls are not traced.
	 */
	disable_fprobe(&g->fp);
	ret = register_fprobe_ips(&g->fp, set->ips, set->n);
	if (ret) {
		snprintf(why, len, "register_fprobe_ips: %d", ret);
		return ret;
	}
	g->fp_registered = true;
	enable_fprobe(&g->fp);
	return 0;
}

static int ftg_graph_unregister(struct ftg_graph *g)
{
	int ret;

	/*
	 * Pending returns are dropped by the unregister's rethook_stop().
	 * When it fails (ftrace killed) the fprobe stays registered and
	 * disabled: fprobe's handler then calls none of ftguard's.
	 */
	disable_fprobe(&g->fp);
	ret = unregister_fprobe(&g->fp);
	if (!ret)
		g->fp_registered = false;
	return ret;
}

static bool ftg_graph_holds(const struct ftg_graph *g)
{
	return g->fp_registered;
}

static int ftg_graph_remove(struct ftg_graph *g, struct ftg_patch_site *s)
{
	return ftrace_set_filter_ip(&g->fp.ops, s->ip, 1, 0);
}

static unsigned long ftg_graph_nmissed(const struct ftg_graph *g)
{
	return g->fp.nmissed;
}

/* fprobe: the site calls its ops' trampoline, at its start. */
static bool ftg_graph_hook_reaches(const struct ftg_graph *g, unsigned long ip,
				   unsigned long target, bool prove)
{
	return g->fp.ops.trampoline && target == g->fp.ops.trampoline;
}

#elif defined(FTG_GRAPH_KRETPROBE)
static int ftg_kretprobe_entry(struct kretprobe_instance *ri,
			       struct pt_regs *regs)
{
	unsigned long ip = (unsigned long)get_kretprobe(ri)->kp.addr;
	struct ftg_tree_call *root = (void *)ri->data;

	/*
	 * The probe sits on the function's first byte and its return is
	 * hooked only after this handler: the top of the stack is still the
	 * caller's return address.
	 */
	if (!ftg_graph_enter(ip, regs_get_kernel_stack_nth(regs, 0),
			     &root->call))
		return 1;
	if (READ_ONCE(ftg_live_graph)->nroots)
		root->nopen = 0;
	return 0;
}

static int ftg_kretprobe_exit(struct kretprobe_instance *ri,
			      struct pt_regs *regs)
{
	unsigned long ip = (unsigned long)get_kretprobe(ri)->kp.addr;

	ftg_graph_leave(ip, (void *)ri->data);
	return 0;
}

/* The innermost root call this task has pending, or NULL. */
static struct ftg_tree_call *ftg_tree_root(const struct ftg_graph *g)
{
	struct llist_node *node = READ_ONCE(current->rethooks.first);

	for (; node; node = READ_ONCE(node->next)) {
		struct rethook_node *rhn =
			container_of(node, struct rethook_node, llist);

		if (ftg_graph_owns(g, READ_ONCE(rhn->rethook)->data))
			return (void *)container_of(rhn,
						    struct kretprobe_instance,
						    node)->data;
	}
	return NULL;
}

/*
 * A callee of a tree without exits. Only its own task (in task context:
 * interrupts are not followed) touches the root call's open stack.
 */
static void ftg_tree_callee(unsigned long ip, unsigned long parent_ip,
			    struct ftrace_ops *op, struct ftrace_regs *fregs)
{
	struct ftg_graph *g = READ_ONCE(ftg_live_graph);
	struct pt_regs *regs = ftrace_get_regs(fregs);
	struct ftg_tree_call *root;
	unsigned long sp;
	int bit, below;

	if (!g || !regs || !in_task() || !rcu_is_watching())
		return;
	bit = ftrace_test_recursion_trylock(ip, parent_ip);
	if (bit < 0)
		return;
	root = ftg_tree_root(g);
	if (!root)
		goto out;
	/* calls that started at or above this one's frame have returned */
	sp = kernel_stack_pointer(regs);
	while (root->nopen && root->open_sp[root->nopen - 1] <= sp)
		root->nopen--;
	below = root->nopen + 1;
	if (root->nopen < FTG_TREE_OPEN_MAX)
		root->open_sp[root->nopen++] = sp;
	if ((!g->max_depth || below <= g->max_depth) && ftg_count_hit(ip))
		ftg_emit_graph_entry(ip, root->call.depth + below);
out:
	ftrace_test_recursion_unlock(bit);
}

/* A tree's callees: every armed site but the roots, on callee_ops. */
static int ftg_tree_register_callees(struct ftg_graph *g,
				     struct ftg_armset *set, char *why,
				     size_t len)
{
	unsigned long *ips;
	unsigned int i;
	int ret;

	ips = kvmalloc_array(set->n, sizeof(*ips), GFP_KERNEL);
	if (!ips)
		return -ENOMEM;
	for (i = 0; i < set->n; i++)
		if (!ftg_graph_is_root(g, set->ips[i]))
			ips[g->ncallees++] = set->ips[i];
	ret = 0;
	/* an empty filter would mean every function */
	if (g->ncallees) {
		g->callee_ops.func = ftg_tree_callee;
		g->callee_ops.flags = FTRACE_OPS_FL_SAVE_REGS;
		ret = ftrace_set_filter_ips(&g->callee_ops, ips, g->ncallees,
					    0, 1);
		if (ret) {
			snprintf(why, len, "ftrace_set_filter_ips: %d", ret);
		} else {
			ret = register_ftrace_function(&g->callee_ops);
			if (ret)
				snprintf(why, len,
					 "register_ftrace_function: %d", ret);
		}
		if (ret) {
			ftrace_free_filter(&g->callee_ops);
			g->ncallees = 0;
		}
	}
	kvfree(ips);
	return ret;
}

/*
 * Unregisters the kretprobes @rpp[0..@n) of @g and takes them off it.
 * On a dead ftrace 6.1's kprobes WARN instead of answering, so it is asked
 * first: then nothing is unregistered, and all stay. One whose unregister
 * fails anyway (ftrace died meanwhile) comes back with kp.addr cleared
 * and stays in the kernel's table for good: lost, never unregistered
 * again. -ENODEV when any stays.
 */
static int ftg_kretprobes_unregister(struct ftg_graph *g,
				     struct kretprobe **rpp, unsigned int n)
{
	unsigned int i;

	if (!n)
		return 0;
	if (ftg_ftrace_killed())
		return -ENODEV;
	unregister_kretprobes(rpp, n);
	for (i = 0; i < n; i++) {
		if (!rpp[i]->kp.addr)
			g->nlost++;
		rpp[i] = NULL;
	}
	return g->nlost ? -ENODEV : 0;
}

static int ftg_graph_register(struct ftg_graph *g, struct ftg_armset *set,
			      char *why, size_t len)
{
	unsigned int i;
	int ret;

	/* a tree hooks the returns of its roots alone */
	g->nrps = g->nroots ? g->nroots : set->n;
	g->rps = kvcalloc(g->nrps, sizeof(*g->rps), GFP_KERNEL);
	g->rpp = kvcalloc(g->nrps, sizeof(*g->rpp), GFP_KERNEL);
	if (!g->rps || !g->rpp)
		return -ENOMEM;
	for (i = 0; i < g->nrps; i++) {
		unsigned long ip = g->nroots ? g->roots[i] : set->ips[i];
		struct ftg_patch_site *s = ftg_site_find(ip);

		/* a kretprobe sits at the entry: off it, a kprobe is a trap */
		if (s->offset) {
			snprintf(why, len,
				 "%s: record at +%u, a kretprobe would not use ftrace",
				 s->name, s->offset);
			ret = -EOPNOTSUPP;
			goto unfilled;
		}
		g->rps[i].kp.addr = (kprobe_opcode_t *)ip;
		g->rps[i].entry_handler = ftg_kretprobe_entry;
		g->rps[i].handler = ftg_kretprobe_exit;
		g->rps[i].data_size = g->nroots ?
				      sizeof(struct ftg_tree_call) :
				      sizeof(struct ftg_graph_call);
		g->rps[i].maxactive = FTG_GRAPH_MAXACTIVE;
		g->rpp[i] = &g->rps[i];
	}
	ret = register_kretprobes(g->rpp, g->nrps);
	if (ret) {
		/* the kernel unregistered what it had registered of them */
		snprintf(why, len, "register_kretprobes: %d", ret);
		goto unfilled;
	}
	for (i = 0; i < g->nrps; i++) {
		struct kprobe *kp = &g->rps[i].kp;
		unsigned long ip = g->nroots ? g->roots[i] : set->ips[i];

		if ((unsigned long)kp->addr != ip || !kprobe_ftrace(kp)) {
			ftg_kretprobes_unregister(g, g->rpp, g->nrps);
			snprintf(why, len,
				 "kretprobe on 0x%lx is at 0x%lx%s, not the checked record through ftrace",
				 ip, (unsigned long)kp->addr,
				 kprobe_ftrace(kp) ? "" : " (no ftrace)");
			ftg_kill("%s", why);
			return -EIO;
		}
	}
	if (!g->nroots)
		return 0;
	ret = ftg_tree_register_callees(g, set, why, len);
	if (ret)
		ftg_kretprobes_unregister(g, g->rpp, g->nrps);
	return ret;

unfilled:
	/* none registered: rpp lists registered ones only (ftg_graph_holds()) */
	memset(g->rpp, 0, g->nrps * sizeof(*g->rpp));
	return ret;
}

static int ftg_graph_unregister(struct ftg_graph *g)
{
	unsigned int i, n = 0;
	int ret = 0;

	if (g->ncallees) {
		ret = unregister_ftrace_function(&g->callee_ops);
		if (ret)
			return ret;
		ftrace_free_filter(&g->callee_ops);
		g->ncallees = 0;
	}
	/* sites that left one by one are unregistered already */
	for (i = 0; i < g->nrps; i++)
		if (g->rpp[i])
			g->rpp[n++] = g->rpp[i];
	for (i = n; i < g->nrps; i++)
		g->rpp[i] = NULL;
	return ftg_kretprobes_unregister(g, g->rpp, n);
}

static bool ftg_graph_holds(const struct ftg_graph *g)
{
	unsigned int i;

	for (i = 0; i < g->nrps; i++)
		if (g->rpp[i])
			return true;
	return g->ncallees || g->nlost;
}

/* The kretprobe in slot @i of @g leaving alone, if it is still there. */
static int ftg_kretprobe_drop(struct ftg_graph *g, unsigned int i)
{
	return g->rpp[i] ? ftg_kretprobes_unregister(g, &g->rpp[i], 1) : 0;
}

static int ftg_graph_remove(struct ftg_graph *g, struct ftg_patch_site *s)
{
	unsigned int i;
	int ret;

	if (!g->nroots)
		return ftg_kretprobe_drop(g, s->arm_idx);
	for (i = 0; i < g->nroots; i++)
		if (g->roots[i] == s->ip)
			return ftg_kretprobe_drop(g, i);
	/* the last callee leaving: unregister, as an empty filter is all */
	if (g->ncallees == 1) {
		ret = unregister_ftrace_function(&g->callee_ops);
		if (!ret) {
			ftrace_free_filter(&g->callee_ops);
			g->ncallees = 0;
		}
		return ret;
	}
	ret = ftrace_set_filter_ip(&g->callee_ops, s->ip, 1, 0);
	if (!ret)
		g->ncallees--;
	return ret;
}

static unsigned long ftg_graph_nmissed(const struct ftg_graph *g)
{
	unsigned long sum = 0;
	unsigned int i;

	for (i = 0; i < g->nrps; i++)
		sum += READ_ONCE(g->rps[i].nmissed);
	return sum;
}

/*
 * A kretprobe's site (every armed site, or a tree's roots) is armed by the
 * kprobes' own ftrace_ops: it calls that ops' trampoline, whose address
 * only enabled_functions gives, as the trampoline of an ops whose callback
 * is kprobe_ftrace_handler (which finds ftguard's kretprobe by the ip). A
 * tree's callee is on callee_ops: its trampoline, at its start.
 */
static bool ftg_graph_hook_reaches(const struct ftg_graph *g, unsigned long ip,
				   unsigned long target, bool prove)
{
	if (g->nroots && !ftg_graph_is_root(g, ip))
		return g->callee_ops.trampoline &&
		       target == g->callee_ops.trampoline;
	if (ftg.hook_tramp_ok && target == ftg.hook_tramp_ok)
		return true;
	if (!prove || !ftg_tramp_is(target, "kprobe_ftrace_handler+0x0/"))
		return false;
	ftg.hook_tramp_ok = target;
	return true;
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

static bool ftg_graph_holds(const struct ftg_graph *g)
{
	return false;
}

static int ftg_graph_remove(struct ftg_graph *g, struct ftg_patch_site *s)
{
	return 0;
}

static unsigned long ftg_graph_nmissed(const struct ftg_graph *g)
{
	return 0;
}

static bool ftg_graph_hook_reaches(const struct ftg_graph *g, unsigned long ip,
				   unsigned long target, bool prove)
{
	return false;
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
 * @stack: follow each depth 0 entry with its callers (a stack event)
 * @why: reason buffer for refusals
 * @len: its size
 *
 * Context: ftg.lock held; nothing armed.
 * Return: 0, -EOPNOTSUPP, -ENOMEM, or the kernel's error.
 */
int ftg_graph_arm(struct ftg_armset *set, const unsigned long *roots,
		  unsigned int nroots, unsigned int max_depth, bool stack,
		  char *why, size_t len)
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
	g->stack = stack;
	memcpy(g->roots, roots, nroots * sizeof(*roots));
	WRITE_ONCE(ftg_live_graph, g);
	ret = ftg_graph_register(g, set, why, len);
	/* a failure whose undoing failed leaves @g to the kernel */
	if (ret && !ftg_graph_holds(g)) {
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
 * ftg_graph_registered - does the kernel hold an arm with exits?
 *
 * True while armed with exits, and for good once unhooking failed: what
 * the kernel holds then is never freed.
 * Context: ftg.lock held.
 */
bool ftg_graph_registered(void)
{
	lockdep_assert_held(&ftg.lock);
	return ftg_live_graph;
}

/**
 * ftg_graph_reaches - does a call to @target reach the armed exits' hooks?
 * @ip: an armed site
 * @target: where its call goes, when not to a list caller
 * @prove: read enabled_functions for a trampoline only the kernel can
 *	name (kprobes'), else answer from what is known
 *
 * Context: ftg.lock held, armed with exits.
 */
bool ftg_graph_reaches(unsigned long ip, unsigned long target, bool prove)
{
	lockdep_assert_held(&ftg.lock);
	return ftg_live_graph &&
	       ftg_graph_hook_reaches(ftg_live_graph, ip, target, prove);
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

/**
 * ftg_graph_roots_show - the armed call tree's roots, as status shows them
 * @m: the status file
 *
 * The roots' addresses as graph-roots takes them, "-" when no tree is
 * armed.
 *
 * Context: ftg.lock held.
 */
void ftg_graph_roots_show(struct seq_file *m)
{
	const struct ftg_graph *g = ftg_live_graph;
	unsigned int i;

	lockdep_assert_held(&ftg.lock);
	if (!ftg.armset)
		g = NULL;	/* a stuck arm's are no longer followed */
	if (!g || !g->nroots)
		seq_putc(m, '-');
	for (i = 0; g && i < g->nroots; i++)
		seq_printf(m, i ? " 0x%lx" : "0x%lx", g->roots[i]);
}

/* Levels the armed tree follows below a root (0: all, or no tree). */
unsigned int ftg_graph_max_depth(void)
{
	lockdep_assert_held(&ftg.lock);
	return ftg_live_graph && ftg.armset ? ftg_live_graph->max_depth : 0;
}

/* Calls whose return could not be hooked (no free instance) this arm. */
unsigned long ftg_graph_missed(void)
{
	lockdep_assert_held(&ftg.lock);
	return ftg_live_graph ? ftg_graph_nmissed(ftg_live_graph) : 0;
}
