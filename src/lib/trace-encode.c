// SPDX-License-Identifier: LGPL-2.1
/*
 * Decoded events back into ring-buffer pages, in the layout the kernel's
 * header_page and header_event describe (6.1, 64-bit, little-endian):
 *
 *   page:  u64 timestamp | u64 commit (bytes of data) | data...
 *   event: u32 type_len:5, time_delta:27 | [u32 length] | payload
 *
 * type_len 1..28 gives a payload of type_len * 4 bytes; type_len 0 puts
 * the payload length + 4 in the next word (payloads over 112 bytes);
 * type_len 30 is a time extend carrying the bits of a delta that do not
 * fit in 27. Payloads are padded to 4 bytes. This is what
 * rb_update_event() writes and what kbuffer (and so trace-cmd) reads.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <traceevent/event-parse.h>

#include "trace-local.h"

#define DATA_MAX_SMALL	(TRACE_TYPE_DATA_MAX * 4)
#define DELTA_MASK	((1U << TRACE_DELTA_BITS) - 1)

static void put_le(unsigned char *p, uint64_t val, unsigned int size)
{
	unsigned int i;

	for (i = 0; i < size; i++)
		p[i] = val >> (8 * i);
}

int trace_page_builder_init(struct trace_page_builder *pb, size_t page_size)
{
	memset(pb, 0, sizeof(*pb));
	pb->page = calloc(1, page_size);
	if (!pb->page)
		return -1;
	pb->page_size = page_size;
	return 0;
}

void trace_page_builder_fini(struct trace_page_builder *pb)
{
	free(pb->page);
	pb->page = NULL;
}

static void put_header(unsigned char *p, unsigned int type_len,
		       uint32_t delta)
{
	put_le(p, type_len | (uint32_t)delta << 5, 4);
}

/*
 * trace_page_builder_add - append one event to the page being built
 * @pb: builder
 * @ts: event timestamp (trace clock)
 * @payload: the event's bytes, common fields first
 * @size: bytes of @payload
 *
 * An event older than the previous one cannot be expressed as a delta:
 * it needs a new page, as does an event that does not fit.
 *
 * Return: 1 added, 0 the page is full or @ts goes backwards (finish the
 * page and retry), -1 with errno E2BIG when it could never fit a page.
 */
int trace_page_builder_add(struct trace_page_builder *pb, uint64_t ts,
			   const void *payload, size_t size)
{
	size_t aligned = (size + 3) & ~(size_t)3;
	size_t need = aligned + (aligned > DATA_MAX_SMALL ? 8 : 4);
	size_t room = pb->page_size - TRACE_PAGE_HDR_SIZE;
	unsigned char *p;
	uint64_t delta;

	if (!size || need + 8 > room) {
		errno = E2BIG;
		return -1;
	}
	if (!pb->nr_events) {
		pb->first_ts = ts;
		pb->last_ts = ts;
	} else if (ts < pb->last_ts) {
		return 0;
	}
	delta = ts - pb->last_ts;
	if (delta > DELTA_MASK)
		need += 8;
	if (pb->used + need > room)
		return 0;

	p = pb->page + TRACE_PAGE_HDR_SIZE + pb->used;
	if (delta > DELTA_MASK) {
		put_header(p, TRACE_TYPE_TIME_EXTEND, delta & DELTA_MASK);
		put_le(p + 4, delta >> TRACE_DELTA_BITS, 4);
		p += 8;
		delta = 0;
	}
	if (aligned > DATA_MAX_SMALL) {
		put_header(p, 0, delta);
		put_le(p + 4, aligned + 4, 4);
		p += 8;
	} else {
		put_header(p, aligned / 4, delta);
		p += 4;
	}
	memcpy(p, payload, size);
	memset(p + size, 0, aligned - size);
	pb->used += need;
	pb->last_ts = ts;
	pb->nr_events++;
	return 1;
}

/*
 * trace_page_builder_finish - seal the page: timestamp and commit
 * @pb: builder
 *
 * The page at @pb->page is complete after this; the caller writes it
 * out and calls trace_page_builder_reset().
 */
void trace_page_builder_finish(struct trace_page_builder *pb)
{
	put_le(pb->page, pb->first_ts, 8);
	put_le(pb->page + 8, pb->used, 8);
	memset(pb->page + TRACE_PAGE_HDR_SIZE + pb->used, 0,
	       pb->page_size - TRACE_PAGE_HDR_SIZE - pb->used);
}

/* Starts the next page once the sealed one was written out. */
void trace_page_builder_reset(struct trace_page_builder *pb)
{
	pb->used = 0;
	pb->nr_events = 0;
}

static bool put_field(struct tep_event *event, const char *name,
		      unsigned char *buf, size_t len, uint64_t val)
{
	struct tep_format_field *field = tep_find_field(event, name);

	if (!field)
		field = tep_find_common_field(event, name);
	if (!field || field->size <= 0 || field->size > 8 || field->offset < 0 ||
	    (size_t)field->offset + field->size > len)
		return false;
	put_le(buf + field->offset, val, field->size);
	return true;
}

/* Bytes a fixed-layout event takes; -1 if it has variable-size fields. */
static int fixed_payload_size(struct tep_event *event)
{
	struct tep_format_field *field;
	unsigned int end = 0;

	for (field = event->format.fields; field; field = field->next) {
		if (field->flags & TEP_FIELD_IS_DYNAMIC || field->size <= 0 ||
		    field->offset < 0)
			return -1;
		if ((unsigned int)(field->offset + field->size) > end)
			end = field->offset + field->size;
	}
	for (field = event->format.common_fields; field; field = field->next)
		if ((unsigned int)(field->offset + field->size) > end)
			end = field->offset + field->size;
	return end;
}

/*
 * trace_event_payload - the bytes to store for a decoded event
 * @tep: handle with the event formats
 * @ev: the event
 * @buf: output
 * @len: size of @buf
 *
 * @ev->raw is used as is when present. Otherwise the payload is built
 * from the event's format: common_type, common_pid, ip and parent_ip
 * set, everything else zero. Events with strings or arrays can only be
 * re-encoded from their raw bytes.
 *
 * Return: payload size, or -1 with errno ENOENT (unknown event), EINVAL
 * (no raw bytes and a variable layout) or E2BIG (@buf too small).
 */
int trace_event_payload(struct tep_handle *tep, const struct ftg_event *ev,
			unsigned char *buf, size_t len)
{
	struct tep_event *event = NULL;
	int size;

	if (ev->raw_size) {
		if (ev->raw_size > len) {
			errno = E2BIG;
			return -1;
		}
		memcpy(buf, ev->raw, ev->raw_size);
		return ev->raw_size;
	}
	if (ev->system[0] && ev->name[0])
		event = tep_find_event_by_name(tep, ev->system, ev->name);
	if (!event && ev->type > 0)
		event = tep_find_event(tep, ev->type);
	if (!event) {
		errno = ENOENT;
		return -1;
	}
	size = fixed_payload_size(event);
	if (size < 8) {
		errno = EINVAL;
		return -1;
	}
	if ((size_t)size > len) {
		errno = E2BIG;
		return -1;
	}
	memset(buf, 0, size);
	put_field(event, "common_type", buf, size, event->id);
	put_field(event, "common_pid", buf, size, (uint32_t)ev->pid);
	put_field(event, "ip", buf, size, ev->ip);
	put_field(event, "parent_ip", buf, size, ev->parent_ip);
	return size;
}
