// SPDX-License-Identifier: GPL-2.0
/*
 * Instantiates ftguard's trace events (see ftg_trace.h) and writes the
 * ones that fire on every hit (func, graph_entry, graph_exit, and stack
 * after func in an arm with callers).
 *
 * Hot events
 * ----------
 * Through the tracepoint, each hit costs the tracepoint call, the event's
 * probe, trace_event_buffer_reserve() and trace_event_buffer_commit(),
 * where the function tracer reserves on the ring buffer at once. So a hot
 * event is written one of three ways (ftg_hot_reserve() tries the fast
 * one, ftg_hot_other() picks between the others):
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
 *    them, the event's fields, ring_buffer_unlock_commit(). Whether the
 *    instance's probe is the event's only one is read from the file's
 *    EVENT_FILE_FL_ENABLED and the tracepoint's static call, which points
 *    at a lone probe and at the iterator as soon as a second probe is on
 *    its way in (tracepoint_add_func() switches it before it publishes
 *    the new probe array). Neither needs RCU, so the fast path also
 *    serves hits where RCU is not watching, as the function tracer does;
 *    the other two read the probe array and take the kernel's reserve,
 *    and are skipped there.
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
 * Context: every writer runs with preemption disabled. The slow path
 * disables it once more, as the tracepoint it stands for does; the fast
 * path computes the context word (preempt count, irq and resched flags,
 * as the kernel's tracing_gen_ctx_dec() does, which is not exported) as
 * if it had, so the word is the same on all three paths. Each event's
 * fields are filled by one function, into the reserved entry on the fast
 * path and into a record on the stack of the out-of-line other ways, so
 * that the fast path keeps no addressable stack object (no zeroing, no
 * stack-protector check per hit). Recursion: the callers' ftrace
 * recursion lock, and the ring buffer's own.
 *
 * Proven at load, per kernel: the fast path rests on what this kernel
 * does not promise (the context word's layout, the side effect that
 * names the buffer, the static call, task_struct's migration_disabled),
 * so ftg_hot_prove() checks, once the instance exists and before
 * anything is armed, that the fast path writes exactly the event the
 * slow path (the kernel's reserve and commit) writes for the same hit:
 * every hot event, in five contexts (preemption off, interrupts off,
 * bottom halves off, migration off, a reschedule pending: each flag of
 * the word set once, the lazy one too where the kernel has it), read
 * back from the ring buffer and compared field by field: common_type,
 * common_flags, common_preempt_count (with migrate-disable),
 * common_pid and the event's own. It also shows that the buffer learned
 * from the reserve is the one the kernel wrote to (the events are read
 * back from it) and that the slow path's task check lets the next event
 * go the fast way. If any event differs in three tries, the fast path
 * is refused until the module is loaded again: the slow path no longer
 * stores the buffer, so every event takes the kernel's own path (the
 * slow path, or the tracepoint), and status says event_path kernel with
 * the event, context and field that differed. What the proof cannot
 * see: contexts it does not make (hardirq, softirq, NMI: their bits are
 * read from preempt_count() as the kernel reads them) and a change of
 * the rules after load (a snapshot's buffer swap, above).
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#define CREATE_TRACE_POINTS
#include "ftg_trace.h"

#include <linux/moduleparam.h>
#include <linux/percpu.h>
#include <linux/preempt.h>
#include <linux/ring_buffer.h>
#include <linux/sched.h>
#include <linux/stacktrace.h>
#include <linux/trace_events.h>

/* Any of these: the kernel's probe must see the event (slow path). */
#define FTG_HOT_SLOW_FLAGS						\
	(EVENT_FILE_FL_FILTERED | EVENT_FILE_FL_SOFT_DISABLED |		\
	 EVENT_FILE_FL_TRIGGER_MODE | EVENT_FILE_FL_TRIGGER_COND |	\
	 EVENT_FILE_FL_PID_FILTER)

struct ftg_hot {
	const char *name;
	struct tracepoint *tp;
	struct static_call_key *call;	/* the tracepoint's static call */
	struct trace_event_file *file;	/* in ftguard's instance */
	void *probe;			/* the file's probe on the tracepoint */
	unsigned short type;		/* the event's type id */
	struct trace_buffer *buffer;	/* the instance's, or NULL: unknown */
};

enum {
	FTG_HOT_FUNC, FTG_HOT_GRAPH_ENTRY, FTG_HOT_GRAPH_EXIT, FTG_HOT_STACK,
	FTG_NR_HOT
};

static struct ftg_hot ftg_hot[FTG_NR_HOT] = {
	[FTG_HOT_FUNC] = { "func", &__tracepoint_func },
	[FTG_HOT_GRAPH_ENTRY] = { "graph_entry", &__tracepoint_graph_entry },
	[FTG_HOT_GRAPH_EXIT] = { "graph_exit", &__tracepoint_graph_exit },
	[FTG_HOT_STACK] = { "stack", &__tracepoint_stack },
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

/*
 * The context word the event's own probe would record here: the kernel's
 * tracing_gen_ctx_dec() (not exported) from the public bits it is made
 * of, seen as from inside the tracepoint, whose preempt_disable() the
 * count includes.
 */
static __always_inline unsigned int ftg_trace_ctx(void)
{
	unsigned int pc = preempt_count() + PREEMPT_DISABLE_OFFSET;
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
#ifdef FTG_HAVE_TRACE_FLAG_LAZY
	if (test_thread_flag(TIF_NEED_RESCHED_LAZY))
		flags |= TRACE_FLAG_NEED_RESCHED_LAZY;
#endif
#ifdef CONFIG_SMP
	migrate = current->migration_disabled;
#endif
	ctx = (flags << 16) | min_t(unsigned int, pc & 0xff, 0xf) |
	      min_t(unsigned int, migrate, 0xf) << 4;
	if (IS_ENABLED(CONFIG_PREEMPTION))
		ctx--;
	return ctx;
}

/*
 * ring_buffer_event_data(), which the kernel keeps out of line, from the
 * event format include/linux/ring_buffer.h documents: an 8-byte time
 * extend or time stamp may come first; a data event whose type_len is 0
 * holds its length in array[0] and its data after it.
 */
static __always_inline void *ftg_rb_event_data(struct ring_buffer_event *event)
{
	if (event->type_len >= RINGBUF_TYPE_TIME_EXTEND)
		event = (void *)event + 8;
	return event->type_len ? &event->array[0] : &event->array[1];
}

/*
 * Whether the load-time proof (ftg_hot_prove()) let the fast path in:
 * until it did, and after it refused, the slow path stores no buffer, so
 * the fast path is never taken and costs no test of its own.
 */
static bool ftg_hot_fast;
static char ftg_hot_reason[96];	/* why not, for status */

#ifdef FTG_FAULT_INJECTION
/* XORed into the fast path's context word while the proof runs */
static unsigned int ftg_hot_fi_ctx;
static bool ftg_fi_hot_ctx;
module_param_named(fi_hot_ctx, ftg_fi_hot_ctx, bool, 0444);
MODULE_PARM_DESC(fi_hot_ctx,
		 "fault injection: the load-time proof's fast-path events "
		 "get a wrong context word");
#endif

/* A fast-path write between ftg_hot_reserve() and ftg_hot_commit(). */
struct ftg_hot_write {
	struct trace_buffer *buffer;
	struct ring_buffer_event *event;
	bool fast;			/* the fast path took the event */
};

/*
 * The fast path's reserve of @size bytes (struct trace_entry included)
 * for @h's event, with the common fields filled: the entry, or NULL. A
 * NULL with w->fast set means the write is over (the ring buffer refused
 * it: full or off); with w->fast clear, the event goes another way
 * (ftg_hot_other()). Everything it reads lives as long as the instance:
 * no RCU-protected pointer, so it serves hits where RCU is not watching.
 */
static __always_inline void *ftg_hot_reserve(struct ftg_hot *h,
					     struct ftg_hot_write *w,
					     unsigned int size)
{
	struct trace_event_file *file = READ_ONCE(h->file);
	unsigned long flags;
	unsigned int ctx;
	void *entry;

	w->fast = false;
	if (!file)
		return NULL;
	flags = READ_ONCE(file->flags);
	w->buffer = READ_ONCE(h->buffer);
	/*
	 * The instance's probe is registered (ENABLED) and is the only one:
	 * the tracepoint's static call goes to a lone probe straight, and to
	 * the iterator as soon as a second one is on the way in.
	 */
	if (unlikely((flags & (FTG_HOT_SLOW_FLAGS | EVENT_FILE_FL_ENABLED)) !=
		     EVENT_FILE_FL_ENABLED || !w->buffer ||
		     READ_ONCE(h->call->func) != h->probe ||
		     this_cpu_read(ftg_hot_task.pid) != current->pid ||
		     this_cpu_read(ftg_hot_task.switches) != ftg_switches()))
		return NULL;
	w->fast = true;
	this_cpu_inc(ftg_hot_counts[FTG_HOT_COUNT_FAST]);
	ctx = ftg_trace_ctx();		/* before the reserve disables preemption */
#ifdef FTG_FAULT_INJECTION
	ctx ^= READ_ONCE(ftg_hot_fi_ctx);
#endif
	w->event = ring_buffer_lock_reserve(w->buffer, size);
	if (!w->event)
		return NULL;
	entry = ftg_rb_event_data(w->event);
	tracing_generic_entry_update(entry, h->type, ctx);
	return entry;
}

static __always_inline void ftg_hot_commit(struct ftg_hot_write *w)
{
#ifdef FTG_HAVE_RB_COMMIT_BUFFER_ONLY
	ring_buffer_unlock_commit(w->buffer);
#else
	ring_buffer_unlock_commit(w->buffer, w->event);
#endif
}

/*
 * Every event the fast path did not take, with its record @rec built by
 * the caller (@size bytes, struct trace_entry included, common fields
 * unset). The slow path when only the instance wants the event: the
 * kernel's reserve and commit on the instance's event file, as the
 * event's generated probe does them (a filter, trigger or soft-disable of
 * the file applies). Both need RCU: where it is not watching, the event
 * is not written (the hit is counted).
 * Return: false if the event must go through its tracepoint instead.
 */
static noinline bool ftg_hot_other(struct ftg_hot *h, const void *rec,
				   unsigned int size)
{
	struct trace_event_file *file = READ_ONCE(h->file);
	struct tracepoint_func *funcs;
	struct trace_event_buffer fb;
	struct ftg_hot_task *task;
	unsigned long flags;
	void *entry;

	if (!rcu_is_watching())
		return true;
	if (!file)
		return false;
	funcs = rcu_dereference_sched(h->tp->funcs);
	if (!funcs)
		return true;		/* the event is off */
	/* one probe, the instance's (a removed one may linger as a stub) */
	if (funcs[0].data != file || funcs[0].func != h->probe ||
	    funcs[1].func)
		return false;
	this_cpu_inc(ftg_hot_counts[FTG_HOT_COUNT_SLOW]);
	flags = READ_ONCE(file->flags);
	/* the tracepoint's; trace_event_buffer_reserve() counts it out */
	preempt_disable_notrace();
	if (trace_trigger_soft_disabled(file))
		goto out;
	entry = trace_event_buffer_reserve(&fb, file, size);
	if (!entry)
		goto out;
	if (READ_ONCE(ftg_hot_fast) &&
	    !((flags | READ_ONCE(file->flags)) & EVENT_FILE_FL_TRIGGER_COND))
		WRITE_ONCE(h->buffer, fb.buffer);
	/* an event a filter may still drop need not reach the commit */
	if (!(flags & FTG_HOT_SLOW_FLAGS)) {
		task = this_cpu_ptr(&ftg_hot_task);
		task->pid = current->pid;
		task->switches = ftg_switches();
	}
	memcpy(entry + sizeof(struct trace_entry),
	       rec + sizeof(struct trace_entry),
	       size - sizeof(struct trace_entry));
	trace_event_buffer_commit(&fb);
out:
	preempt_enable_notrace();
	return true;
}

/* The tracepoint, for hits whose event more than ftguard's instance wants. */
static void ftg_hot_shared(void)
{
	this_cpu_inc(ftg_hot_counts[FTG_HOT_COUNT_SHARED]);
}

/*
 * Each hot event: its fields, filled once for every path; the way out of
 * line for events the fast path did not take (so that the record it
 * builds on the stack costs the fast path nothing); the writer.
 */
static __always_inline void ftg_fill_func(struct trace_event_raw_func *e,
					  unsigned long ip,
					  unsigned long parent_ip)
{
	e->ip = ip;
	e->parent_ip = parent_ip;
}

static noinline void ftg_func_other(unsigned long ip, unsigned long parent_ip)
{
	struct trace_event_raw_func rec;

	ftg_fill_func(&rec, ip, parent_ip);
	if (ftg_hot_other(&ftg_hot[FTG_HOT_FUNC], &rec, sizeof(rec)))
		return;
	ftg_hot_shared();
	trace_func(ip, parent_ip);
}

/*
 * The func event of a hit, for ftg_func_stack_callback(). The callback of
 * arms without callers spells the same out on its own, so that its
 * machine code stays exactly what it was before stack events existed.
 */
static __always_inline void ftg_write_func(unsigned long ip,
					   unsigned long parent_ip)
{
	struct ftg_hot_write w __uninitialized;	/* set before any read */
	struct trace_event_raw_func *e;

	e = ftg_hot_reserve(&ftg_hot[FTG_HOT_FUNC], &w, sizeof(*e));
	if (e) {
		ftg_fill_func(e, ip, parent_ip);
		ftg_hot_commit(&w);
	} else if (!w.fast) {
		ftg_func_other(ip, parent_ip);
	}
}

/*
 * The ftrace callback of armed sites (ftg_arm.c registers it): counts the
 * hit and writes its func event, all in one function, since it runs on
 * every hit. It takes no lock and reads no RCU-protected pointer until
 * ftg_hot_other(), so it needs no FTRACE_OPS_FL_RCU, which would make
 * ftrace put its assist function in front of every call.
 */
void ftg_func_callback(unsigned long ip, unsigned long parent_ip,
		       struct ftrace_ops *op, struct ftrace_regs *fregs)
{
	struct ftg_hot_write w __uninitialized;	/* set before any read */
	struct trace_event_raw_func *e;
	int bit;

	bit = ftrace_test_recursion_trylock(ip, parent_ip);
	if (bit < 0)
		return;
	if (ftg_count_hit(ip)) {
		e = ftg_hot_reserve(&ftg_hot[FTG_HOT_FUNC], &w, sizeof(*e));
		if (e) {
			ftg_fill_func(e, ip, parent_ip);
			ftg_hot_commit(&w);
		} else if (!w.fast) {
			ftg_func_other(ip, parent_ip);
		}
	}
	ftrace_test_recursion_unlock(bit);
}

/*
 * Stack events
 * ------------
 * An arm with callers ("arm stack") registers ftg_func_stack_callback()
 * instead of ftg_func_callback(), so an arm without them does no stack
 * work, not even a test. The callers are saved into an array on the
 * stack (FTG_STACK_SAVE entries: no allocation in a handler) with the
 * exported stack_trace_save(). Its first entries are ftguard's own
 * frames and ftrace's trampoline, as many as the unwinder reports: the
 * traced function's caller is the entry equal to parent_ip (the return
 * address the traced function will use), so everything before that one
 * is dropped, which holds whatever the unwinder and the kernel (6.12's
 * call thunks, IBT) put in between. The kernel's function tracer skips
 * a fixed count instead, which it can keep in step with its own code.
 * Unwinding reads ORC tables and, for a trampoline, ftrace's: it is only
 * done where RCU is watching (the func event is written anyway).
 */
#define FTG_STACK_MAX	32	/* callers kept: the event's bound */
#define FTG_STACK_SAVE	(FTG_STACK_MAX + 16)	/* room for own frames */

static __always_inline void ftg_fill_stack(struct trace_event_raw_stack *e,
					   const unsigned long *callers,
					   unsigned int n)
{
	unsigned int len = n * sizeof(*callers);

	e->size = n;
	/* a dynamic array's word: its length, then its offset in the entry */
	e->__data_loc_caller = len << 16 |
			       offsetof(struct trace_event_raw_stack, __data);
	memcpy(e->__data, callers, len);
}

static noinline void ftg_stack_other(const unsigned long *callers,
				     unsigned int n)
{
	unsigned long rec[DIV_ROUND_UP(sizeof(struct trace_event_raw_stack),
				       sizeof(long)) + FTG_STACK_MAX];
	struct trace_event_raw_stack *e = (void *)rec;
	unsigned int size = sizeof(*e) + n * sizeof(*callers);

	ftg_fill_stack(e, callers, n);
	if (ftg_hot_other(&ftg_hot[FTG_HOT_STACK], e, size))
		return;
	ftg_hot_shared();
	trace_stack(callers, n);
}

/* Index of the traced function's caller in @calls, or @n: not found. */
static unsigned int ftg_stack_first(const unsigned long *calls,
				    unsigned int n, unsigned long parent_ip)
{
	unsigned int i;

	for (i = 0; i < n; i++)
		if (calls[i] == parent_ip)
			return i;
	return n;
}

noinline void ftg_write_stack(unsigned long parent_ip)
{
	unsigned long calls[FTG_STACK_SAVE];
	struct ftg_hot_write w __uninitialized;	/* set before any read */
	struct trace_event_raw_stack *e;
	unsigned int n, first;

	if (!rcu_is_watching())
		return;
	n = stack_trace_save(calls, ARRAY_SIZE(calls), 0);
	first = ftg_stack_first(calls, n, parent_ip);
	if (first == n) {
		/* the unwinder lost the way: the caller ftrace gave us */
		calls[0] = parent_ip;
		first = 0;
		n = 1;
	}
	n = min_t(unsigned int, n - first, FTG_STACK_MAX);
	e = ftg_hot_reserve(&ftg_hot[FTG_HOT_STACK], &w,
			    sizeof(*e) + n * sizeof(*calls));
	if (e) {
		ftg_fill_stack(e, calls + first, n);
		ftg_hot_commit(&w);
	} else if (!w.fast) {
		ftg_stack_other(calls + first, n);
	}
}

/* ftg_func_callback() for an arm with callers: a stack event after func. */
void ftg_func_stack_callback(unsigned long ip, unsigned long parent_ip,
			     struct ftrace_ops *op, struct ftrace_regs *fregs)
{
	int bit;

	bit = ftrace_test_recursion_trylock(ip, parent_ip);
	if (bit < 0)
		return;
	if (ftg_count_hit(ip)) {
		ftg_write_func(ip, parent_ip);
		ftg_write_stack(parent_ip);
	}
	ftrace_test_recursion_unlock(bit);
}

static __always_inline void
ftg_fill_graph_entry(struct trace_event_raw_graph_entry *e,
		     unsigned long func, int depth)
{
	e->func = func;
	e->depth = depth;
}

static noinline void ftg_graph_entry_other(unsigned long func, int depth)
{
	struct trace_event_raw_graph_entry rec;

	ftg_fill_graph_entry(&rec, func, depth);
	if (ftg_hot_other(&ftg_hot[FTG_HOT_GRAPH_ENTRY], &rec, sizeof(rec)))
		return;
	ftg_hot_shared();
	trace_graph_entry(func, depth);
}

void ftg_emit_graph_entry(unsigned long func, int depth)
{
	struct trace_event_raw_graph_entry *e;
	struct ftg_hot_write w __uninitialized;	/* set before any read */

	e = ftg_hot_reserve(&ftg_hot[FTG_HOT_GRAPH_ENTRY], &w, sizeof(*e));
	if (e) {
		ftg_fill_graph_entry(e, func, depth);
		ftg_hot_commit(&w);
	} else if (!w.fast) {
		ftg_graph_entry_other(func, depth);
	}
}

static __always_inline void
ftg_fill_graph_exit(struct trace_event_raw_graph_exit *e, unsigned long func,
		    int depth, u64 calltime, u64 rettime)
{
	e->func = func;
	e->depth = depth;
	e->calltime = calltime;
	e->rettime = rettime;
}

static noinline void ftg_graph_exit_other(unsigned long func, int depth,
					  u64 calltime, u64 rettime)
{
	struct trace_event_raw_graph_exit rec;

	ftg_fill_graph_exit(&rec, func, depth, calltime, rettime);
	if (ftg_hot_other(&ftg_hot[FTG_HOT_GRAPH_EXIT], &rec, sizeof(rec)))
		return;
	ftg_hot_shared();
	trace_graph_exit(func, depth, calltime, rettime);
}

void ftg_emit_graph_exit(unsigned long func, int depth, u64 calltime,
			 u64 rettime)
{
	struct trace_event_raw_graph_exit *e;
	struct ftg_hot_write w __uninitialized;	/* set before any read */

	e = ftg_hot_reserve(&ftg_hot[FTG_HOT_GRAPH_EXIT], &w, sizeof(*e));
	if (e) {
		ftg_fill_graph_exit(e, func, depth, calltime, rettime);
		ftg_hot_commit(&w);
	} else if (!w.fast) {
		ftg_graph_exit_other(func, depth, calltime, rettime);
	}
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
 * The load-time proof
 * -------------------
 * The fast path builds an event from what the kernel keeps to itself
 * (the context word, the buffer, the probe array): ftg_hot_prove() shows,
 * on the kernel that loaded the module, that it writes the very event
 * the kernel's own path writes. In each context a hot event is written
 * in (preemption off, interrupts off, bottom halves off, migration off,
 * a reschedule pending), each hot event is written twice by its writer,
 * from the same place: first the slow path (the buffer is not known
 * yet), which learns the buffer, then the fast path. Both are read back
 * from the CPU's ring buffer (consumed: users never see them) and their
 * fields compared byte for byte: the common ones (type, flags, preempt
 * count with migrate-disable, pid) and the event's own; the timestamps
 * are the ring buffer's, and padding is no field. A difference that
 * does not go away when tried again (a reschedule can arrive between
 * the two) refuses the fast path for good: every event then goes the
 * kernel's way (the slow path or the tracepoint), and status says why.
 */
#define FTG_PROOF_TRIES		3
#define FTG_PROOF_BYTES		64	/* the largest event compared */
#define FTG_PROOF_IP		0x1234UL	/* never read as an address */
#define FTG_PROOF_PARENT	0x5678UL	/* on no stack: a stack of one */

struct ftg_field {
	const char *name;
	unsigned short off, size;
};

#define FTG_FIELD(type, field, name)					\
	{ name, offsetof(type, field), sizeof_field(type, field) }
#define FTG_COMMON_FIELDS						\
	FTG_FIELD(struct trace_entry, type, "common_type"),		\
	FTG_FIELD(struct trace_entry, flags, "common_flags"),		\
	FTG_FIELD(struct trace_entry, preempt_count,			\
		  "common_preempt_count"),				\
	FTG_FIELD(struct trace_entry, pid, "common_pid")

static const struct ftg_field ftg_func_fields[] = {
	FTG_COMMON_FIELDS,
	FTG_FIELD(struct trace_event_raw_func, ip, "ip"),
	FTG_FIELD(struct trace_event_raw_func, parent_ip, "parent_ip"),
	{ }
};

static const struct ftg_field ftg_graph_entry_fields[] = {
	FTG_COMMON_FIELDS,
	FTG_FIELD(struct trace_event_raw_graph_entry, func, "func"),
	FTG_FIELD(struct trace_event_raw_graph_entry, depth, "depth"),
	{ }
};

static const struct ftg_field ftg_graph_exit_fields[] = {
	FTG_COMMON_FIELDS,
	FTG_FIELD(struct trace_event_raw_graph_exit, func, "func"),
	FTG_FIELD(struct trace_event_raw_graph_exit, depth, "depth"),
	FTG_FIELD(struct trace_event_raw_graph_exit, calltime, "calltime"),
	FTG_FIELD(struct trace_event_raw_graph_exit, rettime, "rettime"),
	{ }
};

/* the proof's stack events hold one caller (FTG_PROOF_PARENT) */
static const struct ftg_field ftg_stack_fields[] = {
	FTG_COMMON_FIELDS,
	FTG_FIELD(struct trace_event_raw_stack, size, "size"),
	FTG_FIELD(struct trace_event_raw_stack, __data_loc_caller,
		  "__data_loc_caller"),
	{ "caller", offsetof(struct trace_event_raw_stack, __data),
	  sizeof(unsigned long) },
	{ }
};

static const struct ftg_field *const ftg_hot_fields[FTG_NR_HOT] = {
	[FTG_HOT_FUNC] = ftg_func_fields,
	[FTG_HOT_GRAPH_ENTRY] = ftg_graph_entry_fields,
	[FTG_HOT_GRAPH_EXIT] = ftg_graph_exit_fields,
	[FTG_HOT_STACK] = ftg_stack_fields,
};

enum {
	FTG_PROOF_PREEMPT_OFF, FTG_PROOF_IRQS_OFF, FTG_PROOF_BH_OFF,
	FTG_PROOF_MIGRATE_OFF, FTG_PROOF_RESCHED, FTG_NR_PROOF_CONTEXTS
};

static const char *const ftg_proof_contexts[FTG_NR_PROOF_CONTEXTS] = {
	[FTG_PROOF_PREEMPT_OFF] = "preempt-off",
	[FTG_PROOF_IRQS_OFF] = "irqs-off",
	[FTG_PROOF_BH_OFF] = "bh-off",
	[FTG_PROOF_MIGRATE_OFF] = "migrate-off",
	[FTG_PROOF_RESCHED] = "resched",
};

struct ftg_proof_event {
	unsigned int len;
	u8 data[FTG_PROOF_BYTES];
};

/* One event of @kind, by the writer its hits use. */
static noinline void ftg_proof_write(unsigned int kind)
{
	switch (kind) {
	case FTG_HOT_FUNC:
		ftg_write_func(FTG_PROOF_IP, FTG_PROOF_PARENT);
		break;
	case FTG_HOT_GRAPH_ENTRY:
		ftg_emit_graph_entry(FTG_PROOF_IP, 3);
		break;
	case FTG_HOT_GRAPH_EXIT:
		ftg_emit_graph_exit(FTG_PROOF_IP, 3, 1000, 2000);
		break;
	case FTG_HOT_STACK:
		ftg_write_stack(FTG_PROOF_PARENT);
		break;
	}
}

/*
 * Consumes @cpu's events of @buffer into @ev, the last two kept (the
 * older in ev[0]). Nothing else writes there: nothing is armed yet, and
 * the caller keeps the CPU. Return: how many there were.
 */
static unsigned int ftg_proof_read(struct trace_buffer *buffer, int cpu,
				   struct ftg_proof_event ev[2])
{
	struct ring_buffer_event *rbe;
	struct ftg_proof_event *e;
	unsigned int n = 0;
	u64 ts;

	while ((rbe = ring_buffer_consume(buffer, cpu, &ts, NULL))) {
		e = &ev[n++ & 1];
		e->len = ring_buffer_event_length(rbe);
		memcpy(e->data, ring_buffer_event_data(rbe),
		       min_t(unsigned int, e->len, FTG_PROOF_BYTES));
	}
	if (n & 1)			/* the last one went to ev[0] */
		swap(ev[0], ev[1]);
	return n;
}

/*
 * Writes @kind's two events in @context and compares them.
 * Return: 0 when they are the same, else -EAGAIN with @why set.
 */
static int ftg_proof_pair(unsigned int kind, unsigned int context,
			  char *why, size_t len)
{
	struct ftg_hot *h = &ftg_hot[kind];
	struct ftg_proof_event ev[2];
	const struct ftg_field *f;
	unsigned long fast, slow, irqflags = 0;
	struct trace_buffer *buffer;
	unsigned int n = 0;
	bool both;
	u64 a, b;
	int cpu;

	if (context == FTG_PROOF_MIGRATE_OFF)
		migrate_disable();
	if (context == FTG_PROOF_BH_OFF)
		local_bh_disable();
	/* as in the ftrace callback */
	preempt_disable_notrace();
	if (context == FTG_PROOF_IRQS_OFF)
		local_irq_save(irqflags);
	/* left set: at worst the task is rescheduled once more */
	if (context == FTG_PROOF_RESCHED) {
		set_tsk_need_resched(current);
#ifdef FTG_HAVE_TRACE_FLAG_LAZY
		set_tsk_thread_flag(current, TIF_NEED_RESCHED_LAZY);
#endif
	}
	cpu = smp_processor_id();
	fast = this_cpu_read(ftg_hot_counts[FTG_HOT_COUNT_FAST]);
	slow = this_cpu_read(ftg_hot_counts[FTG_HOT_COUNT_SLOW]);
	WRITE_ONCE(h->buffer, NULL);
	ftg_proof_write(kind);		/* the slow path: learns the buffer */
	ftg_proof_write(kind);		/* the fast path */
	both = this_cpu_read(ftg_hot_counts[FTG_HOT_COUNT_FAST]) == fast + 1 &&
	       this_cpu_read(ftg_hot_counts[FTG_HOT_COUNT_SLOW]) == slow + 1;
	buffer = READ_ONCE(h->buffer);
	if (buffer)
		n = ftg_proof_read(buffer, cpu, ev);
	if (context == FTG_PROOF_IRQS_OFF)
		local_irq_restore(irqflags);
	preempt_enable_notrace();
	if (context == FTG_PROOF_BH_OFF)
		local_bh_enable();
	if (context == FTG_PROOF_MIGRATE_OFF)
		migrate_enable();

	if (!both || n < 2) {
		snprintf(why, len, "%s, %s: %s", h->name,
			 ftg_proof_contexts[context],
			 !both ? "not written both ways" : "not read back");
		return -EAGAIN;
	}
	if (ev[0].len != ev[1].len || ev[0].len > FTG_PROOF_BYTES) {
		snprintf(why, len, "%s, %s: %u bytes fast, %u kernel", h->name,
			 ftg_proof_contexts[context], ev[1].len, ev[0].len);
		return -EAGAIN;
	}
	if (((struct trace_entry *)ev[0].data)->type != h->type) {
		snprintf(why, len, "%s, %s: another event read back", h->name,
			 ftg_proof_contexts[context]);
		return -EAGAIN;
	}
	for (f = ftg_hot_fields[kind]; f->name; f++) {
		if (f->off + f->size > ev[0].len)
			break;
		if (!memcmp(ev[0].data + f->off, ev[1].data + f->off, f->size))
			continue;
		a = b = 0;
		memcpy(&a, ev[1].data + f->off, min_t(size_t, f->size, 8));
		memcpy(&b, ev[0].data + f->off, min_t(size_t, f->size, 8));
		snprintf(why, len, "%s, %s: %s 0x%llx fast, 0x%llx kernel",
			 h->name, ftg_proof_contexts[context], f->name, a, b);
		return -EAGAIN;
	}
	if (f->name) {
		snprintf(why, len, "%s, %s: %u bytes, too short", h->name,
			 ftg_proof_contexts[context], ev[0].len);
		return -EAGAIN;
	}
	return 0;
}

/*
 * Decides the fast path's fate once, before anything is armed (nothing
 * else writes hot events yet). Context: module init, may sleep.
 */
static void ftg_hot_prove(void)
{
	char why[sizeof(ftg_hot_reason)] = "";
	unsigned int kind, context, try;
	int ret = 0, cpu, i;

	for (kind = 0; kind < FTG_NR_HOT && !why[0]; kind++)
		if (!READ_ONCE(ftg_hot[kind].file))
			snprintf(why, sizeof(why), "%s: no event file",
				 ftg_hot[kind].name);
#ifdef FTG_FAULT_INJECTION
	if (ftg_fi_hot_ctx)
		WRITE_ONCE(ftg_hot_fi_ctx, 1);	/* the preempt count's low bit */
#endif
	WRITE_ONCE(ftg_hot_fast, true);
	for (kind = 0; kind < FTG_NR_HOT && !why[0]; kind++) {
		for (context = 0; context < FTG_NR_PROOF_CONTEXTS; context++) {
			for (try = 0; try < FTG_PROOF_TRIES; try++) {
				ret = ftg_proof_pair(kind, context, why,
						     sizeof(why));
				if (!ret)
					break;
			}
			if (ret)
				break;
			why[0] = '\0';	/* an earlier try's difference */
		}
	}
#ifdef FTG_FAULT_INJECTION
	WRITE_ONCE(ftg_hot_fi_ctx, 0);
#endif
	if (why[0]) {
		WRITE_ONCE(ftg_hot_fast, false);
		strscpy(ftg_hot_reason, why, sizeof(ftg_hot_reason));
		pr_warn("fast event path refused, events go the kernel's way: %s\n",
			why);
	}
	ftg_hot_refresh();
	/* the proof's events are not the users' */
	for_each_possible_cpu(cpu)
		for (i = 0; i < FTG_NR_HOT_COUNTS; i++)
			per_cpu(ftg_hot_counts[i], cpu) = 0;
}

/* Which way hot events go, and when the kernel's, why ("" when fast). */
bool ftg_hot_path(const char **reason)
{
	*reason = ftg_hot_reason;
	return READ_ONCE(ftg_hot_fast);
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
		if (!ftg_hot[i].tp->static_call_key) {
			pr_warn("no static call for %s: tracepoint only\n",
				ftg_hot[i].name);
			continue;
		}
		ftg_hot[i].call = ftg_hot[i].tp->static_call_key;
		ftg_hot[i].probe = file->event_call->class->probe;
		ftg_hot[i].type = file->event_call->event.type;
		WRITE_ONCE(ftg_hot[i].file, file);
	}
	ftg_hot_prove();
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
