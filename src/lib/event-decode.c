// SPDX-License-Identifier: LGPL-2.1
/*
 * Raw ring-buffer events to struct ftg_event, through libtraceevent only:
 * kbuffer walks a page, tep names the event and reads its fields, the
 * kallsyms index names the ips. The live decoder and the trace.dat
 * reader share trace_event_from_record(), so a file reads back exactly
 * as it streamed.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <traceevent/event-parse.h>
#include <traceevent/kbuffer.h>
#include <traceevent/trace-seq.h>

#include "ftguard-local.h"
#include "trace-local.h"

static void copy_str(char *dst, size_t len, const char *src)
{
	snprintf(dst, len, "%s", src ? src : "");
}

/* Reads a numeric field by name; false when the event has no such field. */
static bool read_number(struct tep_event *event, const char *name,
			struct tep_record *rec, uint64_t *val)
{
	struct tep_format_field *field = tep_find_field(event, name);
	unsigned long long v;

	if (!field || (field->flags & (TEP_FIELD_IS_ARRAY | TEP_FIELD_IS_DYNAMIC)) ||
	    field->offset < 0 || field->size <= 0 ||
	    field->offset + field->size > rec->size ||
	    tep_read_number_field(field, rec->data, &v))
		return false;
	*val = v;
	return true;
}

/*
 * libtraceevent reads the fields where the format says and trusts a
 * dynamic field's __data_loc word: a corrupt one in a page (or a
 * trace.dat) made it read outside the record and malloc 4 GiB (found by
 * tests/fuzz/fuzz-page-decode). So every field of @event, and what each
 * dynamic one points to, must lie inside @rec before it is rendered.
 */
static bool record_fits(struct tep_handle *tep, struct tep_event *event,
			struct tep_record *rec)
{
	struct tep_format_field *lists[2] = { event->format.common_fields,
					      event->format.fields };
	struct tep_format_field *f;
	unsigned long long loc, off, len;
	int i;

	for (i = 0; i < 2; i++) {
		for (f = lists[i]; f; f = f->next) {
			if (f->offset < 0 || f->size < 0 ||
			    (long long)f->offset + f->size > rec->size)
				return false;
			if (!(f->flags & TEP_FIELD_IS_DYNAMIC))
				continue;
			if (f->size != 4)
				return false;
			loc = tep_read_number(tep, (char *)rec->data + f->offset, 4);
			off = loc & 0xffff;
			len = loc >> 16;
			if (f->flags & TEP_FIELD_IS_RELATIVE)
				off += f->offset + f->size;
			if (off + len > (unsigned long long)rec->size)
				return false;
		}
	}
	return true;
}

static void render_info(struct tep_handle *tep, struct tep_record *rec,
			struct ftg_event *ev)
{
	struct trace_seq s;

	trace_seq_init(&s);
	tep_print_event(tep, &s, rec, "%s", TEP_PRINT_INFO);
	trace_seq_terminate(&s);
	if (s.state == TRACE_SEQ__GOOD)
		copy_str(ev->info, sizeof(ev->info), s.buffer);
	trace_seq_destroy(&s);
}

/*
 * trace_event_from_record - decode one record
 * @tep: handle with the event formats and kallsyms
 * @syms: module index for "symbol [module]" (may be NULL)
 * @rec: the record (ts, cpu, data, size set)
 * @ev: output
 *
 * Return: 0; -1 with errno EINVAL for a record too short for its header,
 * or whose fields (a dynamic field's data included) leave the record.
 */
int trace_event_from_record(struct tep_handle *tep,
			    const struct trace_syms *syms,
			    struct tep_record *rec, struct ftg_event *ev)
{
	struct tep_event *event;
	uint64_t v;

	memset(ev, 0, offsetof(struct ftg_event, raw));
	if (rec->size < 8) {
		errno = EINVAL;
		return -1;
	}
	ev->ts_ns = rec->ts;
	ev->cpu = rec->cpu;
	ev->type = tep_data_type(tep, rec);
	ev->pid = tep_data_pid(tep, rec);
	copy_str(ev->comm, sizeof(ev->comm), tep_data_comm_from_pid(tep, ev->pid));
	if ((size_t)rec->size <= sizeof(ev->raw)) {
		ev->raw_size = rec->size;
		memcpy(ev->raw, rec->data, rec->size);
	}
	event = tep_find_event(tep, ev->type);
	if (!event) {
		snprintf(ev->name, sizeof(ev->name), "unknown-%d", ev->type);
		return 0;
	}
	copy_str(ev->system, sizeof(ev->system), event->system);
	copy_str(ev->name, sizeof(ev->name), event->name);
	if (!record_fits(tep, event, rec)) {
		errno = EINVAL;
		return -1;
	}
	/* ftguard:graph_* name their function "func", as ftrace's do */
	if (read_number(event, "ip", rec, &ev->ip) ||
	    read_number(event, "func", rec, &ev->ip))
		trace_syms_format(syms, tep, ev->ip, ev->sym, sizeof(ev->sym));
	if (read_number(event, "depth", rec, &v))
		ev->depth = (int)v;
	read_number(event, "calltime", rec, &ev->calltime);
	read_number(event, "rettime", rec, &ev->rettime);
	if (read_number(event, "parent_ip", rec, &ev->parent_ip))
		trace_syms_format(syms, tep, ev->parent_ip, ev->parent_sym,
				  sizeof(ev->parent_sym));
	render_info(tep, rec, ev);
	if (ftg_event_is_stack(ev))
		trace_stack_decode(tep, syms, event, rec, ev);
	return 0;
}

/*
 * trace_page_check - is this a ring-buffer page we may hand to kbuffer?
 * @page: page bytes
 * @size: bytes available at @page
 * @page_size: the ring buffer's page size
 *
 * kbuffer trusts the commit field; a bad one would make it read past
 * the page.
 *
 * Return: 0 if sane, -1 with errno EINVAL.
 */
int trace_page_check(const void *page, size_t size, size_t page_size)
{
	uint64_t commit;

	if (size < TRACE_PAGE_HDR_SIZE || size > page_size) {
		errno = EINVAL;
		return -1;
	}
	memcpy(&commit, (const char *)page + 8, sizeof(commit));
	commit &= TRACE_COMMIT_MASK;
	if (commit > size - TRACE_PAGE_HDR_SIZE) {
		errno = EINVAL;
		return -1;
	}
	return 0;
}

int trace_cursor_init(struct trace_page_cursor *cur,
		      const struct ftg_trace_formats *fmt)
{
	memset(cur, 0, sizeof(*cur));
	cur->kbuf = kbuffer_alloc(fmt->long_size == 8 ? KBUFFER_LSIZE_8 :
				  KBUFFER_LSIZE_4, KBUFFER_ENDIAN_LITTLE);
	/* kbuffer wants a whole, writable page */
	cur->page = calloc(1, fmt->page_size);
	cur->page_size = fmt->page_size;
	if (!cur->kbuf || !cur->page) {
		trace_cursor_fini(cur);
		return ftgl_err(FTG_E_SYSTEM, ENOMEM, "out of memory");
	}
	return 0;
}

void trace_cursor_fini(struct trace_page_cursor *cur)
{
	if (cur->kbuf)
		kbuffer_free(cur->kbuf);
	free(cur->page);
	memset(cur, 0, sizeof(*cur));
}

/*
 * The cursor's event is kbuffer's current one, if it moved forward and
 * lies in the page; otherwise the walk ends with FTG_E_BAD_PAGE set.
 */
static int cursor_take(struct trace_page_cursor *cur, void *event,
		       unsigned long long ts)
{
	int offset, size;

	cur->event = NULL;
	if (!event)
		return 0;
	/* kbuffer can stop advancing on a corrupt event header and return
	 * the same event for ever (fuzz-page-decode): a page whose walk
	 * does not move forward is malformed */
	offset = kbuffer_curr_offset(cur->kbuf);
	if (offset <= cur->last_offset)
		return ftgl_err(FTG_E_BAD_PAGE, EINVAL,
				"cpu %d: malformed event header at page offset %d",
				cur->cpu, offset);
	cur->last_offset = offset;
	size = kbuffer_event_size(cur->kbuf);
	if (size < 0 || (unsigned char *)event + size > cur->page + cur->page_size)
		return ftgl_err(FTG_E_BAD_PAGE, EINVAL,
				"cpu %d: event at page offset %d runs past the page",
				cur->cpu, offset);
	cur->event = event;
	cur->size = size;
	cur->ts = ts;
	return 0;
}

int trace_cursor_load(struct trace_page_cursor *cur, int cpu,
		      const void *page, size_t size)
{
	unsigned long long ts = 0;
	void *event;

	cur->event = NULL;
	cur->cpu = cpu;
	cur->last_offset = -1;
	if (trace_page_check(page, size, cur->page_size))
		return ftgl_err(FTG_E_BAD_PAGE, EINVAL,
				"cpu %d: malformed ring-buffer page (%zu bytes)", cpu, size);
	memset(cur->page, 0, cur->page_size);
	memcpy(cur->page, page, size);
	if (kbuffer_load_subbuffer(cur->kbuf, cur->page) < 0)
		return ftgl_err(FTG_E_BAD_PAGE, EINVAL,
				"cpu %d: malformed ring-buffer page header", cpu);
	event = kbuffer_read_event(cur->kbuf, &ts);
	return cursor_take(cur, event, ts);
}

int trace_cursor_next(struct trace_page_cursor *cur)
{
	unsigned long long ts = 0;
	void *event;

	if (!cur->event)
		return 0;
	event = kbuffer_next_event(cur->kbuf, &ts);
	return cursor_take(cur, event, ts);
}

int trace_cursor_event(const struct trace_page_cursor *cur,
		       struct ftg_trace_formats *fmt, struct ftg_event *ev)
{
	struct tep_record rec;

	memset(&rec, 0, sizeof(rec));
	rec.ts = cur->ts;
	rec.cpu = cur->cpu;
	rec.data = cur->event;
	rec.size = cur->size;
	if (trace_event_from_record(fmt->tep, &fmt->syms, &rec, ev))
		return -1;
	ev->tgid = trace_tgids_get(&fmt->tgids, ev->pid);
	return 0;
}

int trace_cursor_pid(const struct trace_page_cursor *cur,
		     const struct ftg_trace_formats *fmt)
{
	struct tep_record rec;

	memset(&rec, 0, sizeof(rec));
	rec.cpu = cur->cpu;
	rec.data = cur->event;
	rec.size = cur->size;
	return cur->event ? tep_data_pid(fmt->tep, &rec) : -1;
}

/*
 * trace_page_walk - hand each event of one ring-buffer page to @visit
 * @fmt: the formats of the page's events
 * @cpu: the CPU the page comes from
 * @page: page bytes
 * @size: bytes available at @page
 * @visit: what to do with each event; NULL counts every event and decodes
 *	   none, as counting alone needs nothing of an event but its place
 * @arg: passed to @visit
 *
 * Return: the events counted, or -1 for a page that does not load or
 * whose events do not lie in it (FTG_E_BAD_PAGE), or on ENOMEM.
 */
int trace_page_walk(const struct ftg_trace_formats *fmt, int cpu,
		    const void *page, size_t size, trace_page_visit visit,
		    void *arg)
{
	struct trace_page_cursor cur;
	enum trace_walk step;
	int n = 0;

	if (trace_cursor_init(&cur, fmt))
		return -1;
	if (trace_cursor_load(&cur, cpu, page, size)) {
		n = -1;
		goto out;
	}
	while (cur.event) {
		step = visit ? visit(&cur, arg) : TRACE_WALK_COUNT;
		if (step != TRACE_WALK_SKIP)
			n++;
		if (step == TRACE_WALK_STOP)
			break;
		if (trace_cursor_next(&cur)) {
			n = -1;
			break;
		}
	}
out:
	trace_cursor_fini(&cur);
	return n;
}

struct page_decode {
	struct ftg_trace_formats *fmt;
	ftg_event_cb cb;
	void *data;
};

/* A record that does not decode is passed over, not counted. */
static enum trace_walk decode_event(const struct trace_page_cursor *cur,
				    void *arg)
{
	const struct page_decode *d = arg;
	struct ftg_event ev;

	if (trace_cursor_event(cur, d->fmt, &ev))
		return TRACE_WALK_SKIP;
	return d->cb(&ev, d->data) ? TRACE_WALK_STOP : TRACE_WALK_COUNT;
}

int ftg_page_decode(struct ftg_trace_formats *fmt, int cpu, const void *page,
		    size_t size, ftg_event_cb cb, void *data)
{
	struct page_decode d = { .fmt = fmt, .cb = cb, .data = data };

	ftg_error_clear();
	/* counting only: skip the decoding */
	return trace_page_walk(fmt, cpu, page, size, cb ? decode_event : NULL, &d);
}

int ftg_event_snprint(char *buf, size_t len, const struct ftg_event *ev)
{
	/* rounded to the nearest microsecond, as the kernel and trace-cmd do */
	uint64_t us = (ev->ts_ns + 500) / 1000;
	uint64_t secs = us / 1000000, usecs = us % 1000000;

	if (ev->sym[0] && ev->parent_sym[0])
		return snprintf(buf, len, "%s-%d [%03d] %" PRIu64 ".%06" PRIu64
				": %s: %s <- %s", ev->comm, ev->pid, ev->cpu,
				secs, usecs, ev->name, ev->sym, ev->parent_sym);
	return snprintf(buf, len, "%s-%d [%03d] %" PRIu64 ".%06" PRIu64
			": %s: %s", ev->comm, ev->pid, ev->cpu, secs, usecs,
			ev->name, ev->info);
}
