// SPDX-License-Identifier: GPL-2.0
/*
 * The call tree of the Live screen, built from libftguard's graph_entry
 * and graph_exit events as they are drained (as uftrace's TUI folds its
 * call graph). Each task has a stack of open calls: an entry opens a call
 * under the task's innermost open one, a return closes the call of its
 * depth with the kernel's calltime/rettime. A call knows its duration,
 * its children and the slowest of them. No ncurses here: the screen
 * draws what tui_calls_rows() lists.
 *
 * Memory is bounded: past TUI_CALLS_MAX calls, the oldest top-level calls
 * go whole, as the event ring lets its oldest events go.
 */
#include <stdlib.h>
#include <string.h>

#include "ui/tui.h"

#define TUI_CALLS_MAX		50000
#define TUI_CALLS_TASKS		256	/* tasks with open calls, tracked */
#define TUI_CALLS_DEPTH		64	/* open calls per task, tracked */

/* A task's open calls, innermost last. */
struct task_stack {
	int pid;
	int n;
	struct tui_call *open[TUI_CALLS_DEPTH];
};

struct tui_calls {
	struct tui_call *first, *last;	/* top-level calls, oldest first */
	size_t ncalls;
	size_t ntasks;
	struct task_stack tasks[TUI_CALLS_TASKS];
	struct tui_call **rows;		/* the shown rows, from tui_calls_rows() */
	size_t nrows, rows_cap;
	bool rows_stale;
	uint64_t version;		/* bumped on every change */
	struct tui_call *focus;		/* the screen's cursor; cleared if freed */
};

struct tui_calls *tui_calls_new(void)
{
	struct tui_calls *c = calloc(1, sizeof(*c));

	if (c)
		c->rows_stale = true;
	return c;
}

static void free_subtree(struct tui_calls *c, struct tui_call *call)
{
	struct tui_call *child = call->first_child, *next;

	for (; child; child = next) {
		next = child->next;
		free_subtree(c, child);
	}
	if (c->focus == call)
		c->focus = NULL;
	c->ncalls--;
	free(call);
}

/* A freed call may still be open on a task's stack: drop those entries. */
static void forget_open(struct tui_calls *c, const struct tui_call *top)
{
	size_t t;

	for (t = 0; t < c->ntasks; t++) {
		struct task_stack *ts = &c->tasks[t];

		if (ts->n && ts->open[0] == top)
			ts->n = 0;
	}
}

void tui_calls_clear(struct tui_calls *c)
{
	struct tui_call *call, *next;

	for (call = c->first; call; call = next) {
		next = call->next;
		free_subtree(c, call);
	}
	c->first = c->last = NULL;
	c->ntasks = 0;
	c->focus = NULL;
	c->rows_stale = true;
	c->version++;
}

void tui_calls_free(struct tui_calls *c)
{
	if (!c)
		return;
	tui_calls_clear(c);
	free(c->rows);
	free(c);
}

static struct task_stack *task_of(struct tui_calls *c, int pid)
{
	size_t t;

	for (t = 0; t < c->ntasks; t++)
		if (c->tasks[t].pid == pid)
			return &c->tasks[t];
	/* a task whose calls all returned leaves room for a new one */
	for (t = 0; t < c->ntasks; t++)
		if (!c->tasks[t].n)
			break;
	if (t == c->ntasks) {
		if (c->ntasks == TUI_CALLS_TASKS)
			return NULL;
		c->ntasks++;
	}
	c->tasks[t].pid = pid;
	c->tasks[t].n = 0;
	return &c->tasks[t];
}

static void evict_oldest(struct tui_calls *c)
{
	while (c->ncalls > TUI_CALLS_MAX && c->first) {
		struct tui_call *old = c->first;

		c->first = old->next;
		if (!c->first)
			c->last = NULL;
		forget_open(c, old);
		free_subtree(c, old);
	}
}

static void link_child(struct tui_calls *c, struct tui_call *parent,
		       struct tui_call *call)
{
	call->parent = parent;
	if (!parent) {
		if (c->last)
			c->last->next = call;
		else
			c->first = call;
		c->last = call;
		return;
	}
	if (parent->last_child)
		parent->last_child->next = call;
	else
		parent->first_child = call;
	parent->last_child = call;
	parent->nchildren++;
}

static struct tui_call *new_call(struct tui_calls *c, const struct ftg_event *ev,
				 struct tui_call *parent)
{
	struct tui_call *call = calloc(1, sizeof(*call));

	if (!call)
		return NULL;
	call->ts_ns = ev->ts_ns;
	call->cpu = ev->cpu;
	call->pid = ev->pid;
	call->depth = ev->depth;
	call->folded = true;	/* a tree opens by the user's hand, node by node */
	snprintf(call->comm, sizeof(call->comm), "%s", ev->comm);
	snprintf(call->sym, sizeof(call->sym), "%s", ev->sym);
	c->ncalls++;
	link_child(c, parent, call);
	return call;
}

/* A child returned: it may be its parent's slowest now. */
static void note_return(struct tui_call *call)
{
	struct tui_call *parent = call->parent;

	if (parent && (!parent->slowest || call->duration_ns > parent->slowest->duration_ns))
		parent->slowest = call;
}

static void take_entry(struct tui_calls *c, const struct ftg_event *ev)
{
	struct task_stack *ts = task_of(c, ev->pid);
	struct tui_call *parent = NULL, *call;

	/* an entry at a depth already open: the returns between were lost */
	while (ts && ts->n && ts->open[ts->n - 1]->depth >= ev->depth)
		ts->n--;
	if (ts && ts->n)
		parent = ts->open[ts->n - 1];
	call = new_call(c, ev, parent);
	if (!call)
		return;
	call->open = true;
	if (ts && ts->n < TUI_CALLS_DEPTH)
		ts->open[ts->n++] = call;
}

static void take_return(struct tui_calls *c, const struct ftg_event *ev)
{
	struct task_stack *ts = task_of(c, ev->pid);
	struct tui_call *call = NULL;

	/* the open call of this depth; deeper ones lost their returns */
	while (ts && ts->n) {
		struct tui_call *top = ts->open[ts->n - 1];

		if (top->depth < ev->depth)
			break;
		ts->n--;
		if (top->depth == ev->depth && !strcmp(top->sym, ev->sym)) {
			call = top;
			break;
		}
	}
	if (!call) {
		/* its entry was lost (or came before the capture): a call of
		 * its own, under whatever is open above it */
		call = new_call(c, ev, ts && ts->n ? ts->open[ts->n - 1] : NULL);
		if (!call)
			return;
		call->ts_ns = ev->calltime;
		call->no_entry = true;
	}
	call->open = false;
	call->duration_ns = ev->rettime > ev->calltime ? ev->rettime - ev->calltime : 0;
	note_return(call);
}

/**
 * tui_calls_add - take one event into the tree
 * @c: the tree
 * @ev: any event; only ftguard's graph_entry and graph_exit make calls
 *
 * Return: true when the tree changed.
 */
bool tui_calls_add(struct tui_calls *c, const struct ftg_event *ev)
{
	if (ftg_event_is_graph_entry(ev))
		take_entry(c, ev);
	else if (ftg_event_is_graph_exit(ev))
		take_return(c, ev);
	else
		return false;
	evict_oldest(c);
	c->rows_stale = true;
	c->version++;
	return true;
}

size_t tui_calls_count(const struct tui_calls *c)
{
	return c->ncalls;
}

uint64_t tui_calls_version(const struct tui_calls *c)
{
	return c->version;
}

static void fold_subtree(struct tui_call *call, bool folded)
{
	struct tui_call *child;

	call->folded = folded;
	for (child = call->first_child; child; child = child->next)
		fold_subtree(child, folded);
}

/* Folds or unfolds @call (NULL: every call, at every level). */
void tui_calls_fold(struct tui_calls *c, struct tui_call *call, bool folded)
{
	struct tui_call *top;

	if (call)
		call->folded = folded;
	else
		for (top = c->first; top; top = top->next)
			fold_subtree(top, folded);
	c->rows_stale = true;
	c->version++;
}

static int push_row(struct tui_calls *c, struct tui_call *call)
{
	if (c->nrows == c->rows_cap) {
		size_t cap = c->rows_cap ? c->rows_cap * 2 : 256;
		struct tui_call **rows = realloc(c->rows, cap * sizeof(*rows));

		if (!rows)
			return -1;
		c->rows = rows;
		c->rows_cap = cap;
	}
	c->rows[c->nrows++] = call;
	return 0;
}

static int add_rows(struct tui_calls *c, struct tui_call *call, int level)
{
	struct tui_call *child;

	call->level = level;
	if (push_row(c, call) < 0)
		return -1;
	if (call->folded)
		return 0;
	for (child = call->first_child; child; child = child->next)
		if (add_rows(c, child, level + 1) < 0)
			return -1;
	return 0;
}

/**
 * tui_calls_rows - the calls shown: every top-level call and the children
 * of every unfolded one, in order
 * @c: the tree
 * @rows: set to the array (owned by @c, valid until the tree changes)
 *
 * Return: the number of rows.
 */
size_t tui_calls_rows(struct tui_calls *c, struct tui_call *const **rows)
{
	struct tui_call *top;

	if (c->rows_stale) {
		c->nrows = 0;
		for (top = c->first; top; top = top->next)
			if (add_rows(c, top, 0) < 0)
				break;	/* out of memory: the rows so far */
		c->rows_stale = false;
	}
	*rows = c->rows;
	return c->nrows;
}

struct tui_call *tui_calls_focus(const struct tui_calls *c)
{
	return c->focus;
}

void tui_calls_set_focus(struct tui_calls *c, struct tui_call *call)
{
	c->focus = call;
}
