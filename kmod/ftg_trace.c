// SPDX-License-Identifier: GPL-2.0
/*
 * Instantiates ftguard's trace events (see ftg_trace.h) and writes the
 * three that fire on every hit (func, graph_entry, graph_exit).
 *
 * Hot events
 * ----------
 * Through the tracepoint, each hit costs the tracepoint call, the event's
 * probe, trace_event_buffer_reserve() and trace_event_buffer_commit(),
 * where the function tracer reserves on the ring buffer at once. So a hot
 * event is written one of three ways (ftg_hot_reserve()):
 *
 *  - the tracepoint, as before, whenever the event has any probe besides
 *    the one of ftguard's instance (ftguard:func enabled in another
 *    instance too, perf, BPF): every user then gets its event;
 *  - the slow path: exactly what the event's generated probe does
 *    (trace_trigger_soft_disabled(), trace_event_buffer_reserve(), fill,
 *    trace_event_buffer_commit()) on the instance's event file. Taken
 *    while the file has a filter, a trigger, a pid filter or soft-disable
 *    (they all keep working), until a buffer is known, and for the first
 *    event of a task on a CPU since it was last switched in: the kernel's
 *    commit then sets the per-CPU trace_taskinfo_save flag, so the next
 *    context switch saves the task's comm and tgid (reports name the
 *    task instead of "<...>"), as every function tracer event does;
 *  - the fast path otherwise: ring_buffer_lock_reserve() on the instance's
 *    buffer, the common fields as tracing_generic_entry_update() fills
 *    them, the event's fields, ring_buffer_unlock_commit().
 *
 * Which buffer: trace_event_buffer_lock_reserve() sets the buffer it hands
 * back to the instance's own (tr->array_buffer.buffer) before anything
 * else, and replaces it only by the kernel's temp_buffer when the real
 * reserve failed and the file has EVENT_FILE_FL_TRIGGER_COND. A slow path
 * that reserved with that flag clear before and after therefore learned
 * the instance's buffer, and stores it (WRITE_ONCE) for the fast path.
 * That is how the module knows the buffer without private layouts.
 *
 * Ordering and lifetimes: the event files are the instance's, which
 * ftguard holds (trace_array_get_by_name()) until module exit, after
 * disarming; no hot event is written then. A struct trace_buffer lives as
 * long as its instance: a snapshot swaps the instance's live and snapshot
 * buffers, and clearing the snapshot only shrinks the spare one. So the
 * stored pointer is never freed under a writer, but after a snapshot of
 * ftguard's instance it names the snapshot buffer: fast-path events go
 * there until the next slow path (at the latest, the next task switch on
 * a CPU that hits, or the next arm, which forgets the buffers) stores the
 * live one again. The flags are read once per event, unlocked, as the
 * kernel's own probe reads them; a filter or trigger set while a
 * fast-path write is under way lets that one event into the real buffer
 * unfiltered, never a scratch event committed as a ring-buffer event
 * (the fast path never takes the kernel's per-CPU scratch event). The
 * instance's stacktrace options and tracepoint_printk apply to the
 * events of the slow path and the tracepoint only.
 *
 * Context: every writer runs with preemption disabled and, like the
 * tracepoint it stands for, disables it once more: the context word
 * (preempt count, irq and resched flags, computed as the kernel's
 * tracing_gen_ctx_dec() does, which is not exported) is then the same on
 * all three paths. Recursion: the callers' ftrace recursion lock, and the
 * ring buffer's own.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#define CREATE_TRACE_POINTS
#include "ftg_trace.h"

#include <linux/percpu.h>
#include <linux/preempt.h>
#include <linux/ring_buffer.h>
#include <linux/sched.h>
#include <linux/trace_events.h>

/* Any of these: the kernel's probe must see the event (slow path). */
#define FTG_HOT_SLOW_FLAGS						\
	(EVENT_FILE_FL_FILTERED | EVENT_FILE_FL_SOFT_DISABLED |		\
	 EVENT_FILE_FL_TRIGGER_MODE | EVENT_FILE_FL_TRIGGER_COND |	\
	 EVENT_FILE_FL_PID_FILTER)

enum ftg_hot_path { FTG_HOT_NONE, FTG_HOT_WRITE, FTG_HOT_TRACEPOINT };

struct ftg_hot {
	const char *name;
	struct tracepoint *tp;
	struct trace_event_file *file;	/* in ftguard's instance */
	struct trace_buffer *buffer;	/* the instance's, or NULL: unknown */
};

enum { FTG_HOT_FUNC, FTG_HOT_GRAPH_ENTRY, FTG_HOT_GRAPH_EXIT, FTG_NR_HOT };

static struct ftg_hot ftg_hot[FTG_NR_HOT] = {
	[FTG_HOT_FUNC] = { "func", &__tracepoint_func },
	[FTG_HOT_GRAPH_ENTRY] = { "graph_entry", &__tracepoint_graph_entry },
	[FTG_HOT_GRAPH_EXIT] = { "graph_exit", &__tracepoint_graph_exit },
};

/* The task whose taskinfo this CPU's last slow path asked to save. */
struct ftg_hot_task {
	pid_t pid;
	unsigned long switches;
};

static DEFINE_PER_CPU(struct ftg_hot_task, ftg_hot_task);
static DEFINE_PER_CPU(unsigned long, ftg_hot_counts[FTG_NR_HOT_COUNTS]);

static unsigned long ftg_switches(void)
{
	return current->nvcsw + current->nivcsw;
}

/* tracing_gen_ctx_dec(), from the public bits it is made of. */
static unsigned int ftg_trace_ctx(void)
{
	unsigned int pc = preempt_count();
	unsigned int flags = 0, migrate = 0, ctx;

#ifdef CONFIG_TRACE_IRQFLAGS_SUPPORT
	if (irqs_disabled())
		flags |= TRACE_FLAG_IRQS_OFF;
#else
	flags |= TRACE_FLAG_IRQS_NOSUPPORT;
#endif
	if (pc & NMI_MASK)
		flags |= TRACE_FLAG_NMI;
	if (pc & HARDIRQ_MASK)
		flags |= TRACE_FLAG_HARDIRQ;
	if (in_serving_softirq())
		flags |= TRACE_FLAG_SOFTIRQ;
	if (softirq_count() >> (SOFTIRQ_SHIFT + 1))
		flags |= TRACE_FLAG_BH_OFF;
	if (tif_need_resched())
		flags |= TRACE_FLAG_NEED_RESCHED;
	if (test_preempt_need_resched())
		flags |= TRACE_FLAG_PREEMPT_RESCHED;
#ifdef CONFIG_SMP
	migrate = current->migration_disabled;
#endif
	ctx = (flags << 16) | min_t(unsigned int, pc & 0xff, 0xf) |
	      min_t(unsigned int, migrate, 0xf) << 4;
	if (IS_ENABLED(CONFIG_PREEMPTION))
		ctx--;
	return ctx;
}

static enum ftg_hot_path ftg_hot_slow(struct ftg_hot *h,
				      struct trace_event_file *file,
				      unsigned long flags,
				      struct trace_event_buffer *fb,
				      unsigned int len)
{
	struct ftg_hot_task *task;

	if (trace_trigger_soft_disabled(file))
		return FTG_HOT_NONE;
	if (!trace_event_buffer_reserve(fb, file, len))
		return FTG_HOT_NONE;
	if (!((flags | READ_ONCE(file->flags)) & EVENT_FILE_FL_TRIGGER_COND))
		WRITE_ONCE(h->buffer, fb->buffer);
	/* an event a filter may still drop need not reach the commit */
	if (!(flags & FTG_HOT_SLOW_FLAGS)) {
		task = this_cpu_ptr(&ftg_hot_task);
		task->pid = current->pid;
		task->switches = ftg_switches();
	}
	return FTG_HOT_WRITE;
}

/*
 * Reserves @len bytes (struct trace_entry included) for @h's event; on
 * FTG_HOT_WRITE, fill fb->entry's fields and call ftg_hot_commit().
 */
static enum ftg_hot_path ftg_hot_reserve(struct ftg_hot *h,
					 struct trace_event_buffer *fb,
					 unsigned int len)
{
	struct trace_event_file *file = READ_ONCE(h->file);
	struct ftg_hot_task *task = this_cpu_ptr(&ftg_hot_task);
	struct ring_buffer_event *event;
	struct tracepoint_func *funcs;
	struct trace_buffer *buffer;
	unsigned long flags;
	unsigned int ctx;

	if (!file)
		return FTG_HOT_TRACEPOINT;
	funcs = rcu_dereference_sched(h->tp->funcs);
	if (!funcs)
		return FTG_HOT_NONE;
	/* one probe, the instance's (a removed one may linger as a stub) */
	if (funcs[0].data != file || funcs[1].func ||
	    funcs[0].func != file->event_call->class->probe)
		return FTG_HOT_TRACEPOINT;
	flags = READ_ONCE(file->flags);
	buffer = READ_ONCE(h->buffer);
	if (unlikely((flags & FTG_HOT_SLOW_FLAGS) || !buffer ||
		     task->pid != current->pid ||
		     task->switches != ftg_switches())) {
		this_cpu_inc(ftg_hot_counts[FTG_HOT_COUNT_SLOW]);
		return ftg_hot_slow(h, file, flags, fb, len);
	}
	this_cpu_inc(ftg_hot_counts[FTG_HOT_COUNT_FAST]);
	ctx = ftg_trace_ctx();		/* before the reserve disables preemption */
	event = ring_buffer_lock_reserve(buffer, len);
	if (!event)
		return FTG_HOT_NONE;
	fb->buffer = buffer;
	fb->event = event;
	fb->trace_file = NULL;		/* fast: no commit of the kernel's */
	fb->entry = ring_buffer_event_data(event);
	tracing_generic_entry_update(fb->entry, file->event_call->event.type,
				     ctx);
	return FTG_HOT_WRITE;
}

static void ftg_hot_commit(struct trace_event_buffer *fb)
{
	if (fb->trace_file)
		trace_event_buffer_commit(fb);
	else
#ifdef FTG_HAVE_RB_COMMIT_BUFFER_ONLY
		ring_buffer_unlock_commit(fb->buffer);
#else
		ring_buffer_unlock_commit(fb->buffer, fb->event);
#endif
}

/* The tracepoint, for hits whose event more than ftguard's instance wants. */
static void ftg_hot_shared(void)
{
	this_cpu_inc(ftg_hot_counts[FTG_HOT_COUNT_SHARED]);
}

void ftg_emit_func(unsigned long ip, unsigned long parent_ip)
{
	struct trace_event_raw_func *e;
	struct trace_event_buffer fb;

	preempt_disable_notrace();
	switch (ftg_hot_reserve(&ftg_hot[FTG_HOT_FUNC], &fb, sizeof(*e))) {
	case FTG_HOT_WRITE:
		e = fb.entry;
		e->ip = ip;
		e->parent_ip = parent_ip;
		ftg_hot_commit(&fb);
		break;
	case FTG_HOT_TRACEPOINT:
		ftg_hot_shared();
		trace_func(ip, parent_ip);
		break;
	case FTG_HOT_NONE:
		break;
	}
	preempt_enable_notrace();
}

void ftg_emit_graph_entry(unsigned long func, int depth)
{
	struct trace_event_raw_graph_entry *e;
	struct trace_event_buffer fb;

	preempt_disable_notrace();
	switch (ftg_hot_reserve(&ftg_hot[FTG_HOT_GRAPH_ENTRY], &fb,
				sizeof(*e))) {
	case FTG_HOT_WRITE:
		e = fb.entry;
		e->func = func;
		e->depth = depth;
		ftg_hot_commit(&fb);
		break;
	case FTG_HOT_TRACEPOINT:
		ftg_hot_shared();
		trace_graph_entry(func, depth);
		break;
	case FTG_HOT_NONE:
		break;
	}
	preempt_enable_notrace();
}

void ftg_emit_graph_exit(unsigned long func, int depth, u64 calltime,
			 u64 rettime)
{
	struct trace_event_raw_graph_exit *e;
	struct trace_event_buffer fb;

	preempt_disable_notrace();
	switch (ftg_hot_reserve(&ftg_hot[FTG_HOT_GRAPH_EXIT], &fb,
				sizeof(*e))) {
	case FTG_HOT_WRITE:
		e = fb.entry;
		e->func = func;
		e->depth = depth;
		e->calltime = calltime;
		e->rettime = rettime;
		ftg_hot_commit(&fb);
		break;
	case FTG_HOT_TRACEPOINT:
		ftg_hot_shared();
		trace_graph_exit(func, depth, calltime, rettime);
		break;
	case FTG_HOT_NONE:
		break;
	}
	preempt_enable_notrace();
}

/*
 * Forgets the buffers: the next event of each takes the slow path, which
 * learns the instance's live buffer again (after a snapshot, say).
 * Context: ftg.lock held (arm).
 */
void ftg_hot_refresh(void)
{
	unsigned int i;

	for (i = 0; i < FTG_NR_HOT; i++)
		WRITE_ONCE(ftg_hot[i].buffer, NULL);
}

/* Events written each way since load: fast, slow, through the tracepoint. */
unsigned long ftg_hot_events(enum ftg_hot_count kind)
{
	unsigned long sum = 0;
	int cpu;

	for_each_possible_cpu(cpu)
		sum += per_cpu(ftg_hot_counts[kind], cpu);
	return sum;
}

/*
 * Finds the hot events' files in ftguard's instance (@name). The file
 * reference trace_get_event_file() takes pins the event's module, which
 * is ftguard itself, so it is dropped at once: the file lives as long as
 * the instance, which ftguard holds until after its last event.
 */
void ftg_hot_init(const char *name)
{
	struct trace_event_file *file;
	unsigned int i;
	int cpu;

	for_each_possible_cpu(cpu)
		per_cpu(ftg_hot_task, cpu).pid = -1;
	for (i = 0; i < FTG_NR_HOT; i++) {
		file = trace_get_event_file(name, "ftguard", ftg_hot[i].name);
		if (IS_ERR(file)) {
			pr_warn("no event file for %s (%ld): tracepoint only\n",
				ftg_hot[i].name, PTR_ERR(file));
			continue;
		}
		trace_put_event_file(file);
		WRITE_ONCE(ftg_hot[i].file, file);
	}
}

/* Before the instance goes; nothing is armed any more. */
void ftg_hot_exit(void)
{
	unsigned int i;

	for (i = 0; i < FTG_NR_HOT; i++) {
		WRITE_ONCE(ftg_hot[i].file, NULL);
		WRITE_ONCE(ftg_hot[i].buffer, NULL);
	}
}
