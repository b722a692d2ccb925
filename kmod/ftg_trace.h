/* SPDX-License-Identifier: GPL-2.0 */
/*
 * ftguard's trace events. They are enabled only in ftguard's own trace
 * instance (trace_array_set_clr_event), never in the top-level buffer.
 */
#undef TRACE_SYSTEM
#define TRACE_SYSTEM ftguard

#if !defined(FTG_TRACE_H) || defined(TRACE_HEADER_MULTI_READ)
#define FTG_TRACE_H

#include <linux/tracepoint.h>

#include "ftg.h"

/* __assign_str() may take no source argument (it uses __string's). */
#ifdef FTG_HAVE_ASSIGN_STR_1
#define ftg_assign_str(dst, src)	__assign_str(dst)
#else
#define ftg_assign_str(dst, src)	__assign_str(dst, src)
#endif

/*
 * Names and reasons may carry any byte a symbol name can (a hostile
 * module's). The text "trace" file prints them with %s, so they are
 * stored escaped as in the tables (FTG_ESC_*): no raw control byte
 * reaches whoever reads that file, and trace-cmd shows the same escapes.
 * The array is sized by a first, dry run of the escaper.
 */
#define ftg_escaped(item, src, only)					\
	__dynamic_array(char, item,					\
			string_escape_str(src, NULL, 0, FTG_ESC_FLAGS, only) + 1)
#define ftg_assign_escaped(item, src, only)				\
	ftg_escape_into(__get_str(item), __get_dynamic_array_len(item),	\
			src, only)

TRACE_EVENT(func,
	TP_PROTO(unsigned long ip, unsigned long parent_ip),
	TP_ARGS(ip, parent_ip),
	TP_STRUCT__entry(
		__field(unsigned long, ip)
		__field(unsigned long, parent_ip)
	),
	TP_fast_assign(
		__entry->ip = ip;
		__entry->parent_ip = parent_ip;
	),
	TP_printk("ip=%ps parent=%ps", (void *)__entry->ip,
		  (void *)__entry->parent_ip)
);

/*
 * A call's entry and return at a site armed with exits ("arm graph"). The
 * times are trace_clock_local(), the instance's default clock; depth
 * counts this task's calls of armed sites still open, from 0.
 */
TRACE_EVENT(graph_entry,
	TP_PROTO(unsigned long func, int depth),
	TP_ARGS(func, depth),
	TP_STRUCT__entry(
		__field(unsigned long, func)
		__field(int, depth)
	),
	TP_fast_assign(
		__entry->func = func;
		__entry->depth = depth;
	),
	TP_printk("func=%ps depth=%d", (void *)__entry->func, __entry->depth)
);

TRACE_EVENT(graph_exit,
	TP_PROTO(unsigned long func, int depth, u64 calltime, u64 rettime),
	TP_ARGS(func, depth, calltime, rettime),
	TP_STRUCT__entry(
		__field(unsigned long, func)
		__field(int, depth)
		__field(u64, calltime)
		__field(u64, rettime)
	),
	TP_fast_assign(
		__entry->func = func;
		__entry->depth = depth;
		__entry->calltime = calltime;
		__entry->rettime = rettime;
	),
	TP_printk("func=%ps depth=%d calltime=%llu rettime=%llu",
		  (void *)__entry->func, __entry->depth,
		  __entry->calltime, __entry->rettime)
);

/*
 * The callers of a func hit, innermost first ("arm stack"): the first is
 * the traced function's caller. Laid out as ftrace's kernel_stack, the
 * count in "size" and the callers from the same offset to the end of the
 * record, so that a trace.dat may describe it as that event and
 * trace-cmd prints it as a kernel stack (src/lib/trace-stack.c).
 */
TRACE_EVENT(stack,
	TP_PROTO(const unsigned long *callers, unsigned int n),
	TP_ARGS(callers, n),
	TP_STRUCT__entry(
		__field(int, size)
		__dynamic_array(unsigned long, caller, n)
	),
	TP_fast_assign(
		__entry->size = n;
		memcpy(__get_dynamic_array(caller), callers,
		       n * sizeof(*callers));
	),
	TP_printk("size=%d caller=%s", __entry->size,
		  __print_array(__get_dynamic_array(caller), __entry->size,
				sizeof(unsigned long)))
);

TRACE_EVENT(module,
	TP_PROTO(const char *name, const char *state, unsigned int nsites),
	TP_ARGS(name, state, nsites),
	TP_STRUCT__entry(
		ftg_escaped(name, name, FTG_ESC_NAME)
		__string(state, state)
		__field(unsigned int, nsites)
	),
	TP_fast_assign(
		ftg_assign_escaped(name, name, FTG_ESC_NAME);
		ftg_assign_str(state, state);
		__entry->nsites = nsites;
	),
	TP_printk("name=%s state=%s nsites=%u", __get_str(name),
		  __get_str(state), __entry->nsites)
);

TRACE_EVENT(site,
	TP_PROTO(unsigned long ip, const char *name, const char *action,
		 const char *reason),
	TP_ARGS(ip, name, action, reason),
	TP_STRUCT__entry(
		__field(unsigned long, ip)
		ftg_escaped(name, name, FTG_ESC_NAME)
		__string(action, action)
		ftg_escaped(reason, reason, FTG_ESC_TEXT)
	),
	TP_fast_assign(
		__entry->ip = ip;
		ftg_assign_escaped(name, name, FTG_ESC_NAME);
		ftg_assign_str(action, action);
		ftg_assign_escaped(reason, reason, FTG_ESC_TEXT);
	),
	TP_printk("ip=0x%lx name=%s action=%s reason=%s", __entry->ip,
		  __get_str(name), __get_str(action), __get_str(reason))
);

TRACE_EVENT(check,
	TP_PROTO(unsigned int n_ok, unsigned int n_bad),
	TP_ARGS(n_ok, n_bad),
	TP_STRUCT__entry(
		__field(unsigned int, n_ok)
		__field(unsigned int, n_bad)
	),
	TP_fast_assign(
		__entry->n_ok = n_ok;
		__entry->n_bad = n_bad;
	),
	TP_printk("n_ok=%u n_bad=%u", __entry->n_ok, __entry->n_bad)
);

TRACE_EVENT(arm,
	TP_PROTO(unsigned int nsites, int armed, int pid),
	TP_ARGS(nsites, armed, pid),
	TP_STRUCT__entry(
		__field(unsigned int, nsites)
		__field(int, armed)
		__field(int, pid)
	),
	TP_fast_assign(
		__entry->nsites = nsites;
		__entry->armed = armed;
		__entry->pid = pid;
	),
	TP_printk("nsites=%u armed=%d pid=%d", __entry->nsites,
		  __entry->armed, __entry->pid)
);

TRACE_EVENT(kill,
	TP_PROTO(const char *reason),
	TP_ARGS(reason),
	TP_STRUCT__entry(
		ftg_escaped(reason, reason, FTG_ESC_TEXT)
	),
	TP_fast_assign(
		ftg_assign_escaped(reason, reason, FTG_ESC_TEXT);
	),
	TP_printk("reason=%s", __get_str(reason))
);

#endif /* FTG_TRACE_H */

#undef TRACE_INCLUDE_PATH
#define TRACE_INCLUDE_PATH .
#undef TRACE_INCLUDE_FILE
#define TRACE_INCLUDE_FILE ftg_trace
#include <trace/define_trace.h>
