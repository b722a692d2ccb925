// SPDX-License-Identifier: LGPL-2.1
/*
 * A bounded ring of the last N decoded events: the TUI's capture. When
 * full, the oldest event is overwritten and counted, so the view can say
 * how much scrolled away.
 */
#include <errno.h>
#include <stdlib.h>

#include "ftguard-local.h"
#include "trace-local.h"

struct ftg_event_ring {
	struct ftg_event *slots;
	size_t capacity;
	size_t head;		/* slot of the oldest event */
	size_t count;
	uint64_t overwritten;
};

struct ftg_event_ring *ftg_event_ring_alloc(size_t capacity)
{
	struct ftg_event_ring *ring;

	ftg_error_clear();
	if (!capacity || capacity > SIZE_MAX / sizeof(struct ftg_event)) {
		ftgl_err(FTG_E_BAD_ARGUMENT, EINVAL, "event ring of %zu events", capacity);
		return NULL;
	}
	ring = calloc(1, sizeof(*ring));
	if (!ring) {
		ftgl_err(FTG_E_SYSTEM, ENOMEM, "out of memory");
		return NULL;
	}
	ring->slots = malloc(capacity * sizeof(*ring->slots));
	if (!ring->slots) {
		free(ring);
		ftgl_err(FTG_E_SYSTEM, ENOMEM, "event ring of %zu events: out of memory",
			 capacity);
		return NULL;
	}
	ring->capacity = capacity;
	return ring;
}

void ftg_event_ring_free(struct ftg_event_ring *ring)
{
	if (!ring)
		return;
	free(ring->slots);
	free(ring);
}

void ftg_event_ring_push(struct ftg_event_ring *ring, const struct ftg_event *ev)
{
	if (ring->count == ring->capacity) {
		ring->slots[ring->head] = *ev;
		ring->head = (ring->head + 1) % ring->capacity;
		ring->overwritten++;
		return;
	}
	ring->slots[(ring->head + ring->count) % ring->capacity] = *ev;
	ring->count++;
}

int ftg_event_ring_cb(const struct ftg_event *ev, void *data)
{
	ftg_event_ring_push(data, ev);
	return 0;
}

size_t ftg_event_ring_count(const struct ftg_event_ring *ring)
{
	return ring->count;
}

size_t ftg_event_ring_capacity(const struct ftg_event_ring *ring)
{
	return ring->capacity;
}

const struct ftg_event *ftg_event_ring_get(const struct ftg_event_ring *ring,
					   size_t i)
{
	if (i >= ring->count)
		return NULL;
	return &ring->slots[(ring->head + i) % ring->capacity];
}

uint64_t ftg_event_ring_overwritten(const struct ftg_event_ring *ring)
{
	return ring->overwritten;
}

void ftg_event_ring_clear(struct ftg_event_ring *ring)
{
	ring->head = 0;
	ring->count = 0;
	ring->overwritten = 0;
}
