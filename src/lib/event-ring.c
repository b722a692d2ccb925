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

/**
 * ftg_event_ring_alloc - allocate a ring of @capacity events
 * @capacity: events kept (at least 1)
 *
 * Return: the ring (free with ftg_event_ring_free()), or NULL with errno
 * EINVAL or ENOMEM.
 */
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

/**
 * ftg_event_ring_free - free a ring
 * @ring: the ring (NULL is ignored)
 */
void ftg_event_ring_free(struct ftg_event_ring *ring)
{
	if (!ring)
		return;
	free(ring->slots);
	free(ring);
}

/**
 * ftg_event_ring_push - add a copy of @ev, dropping the oldest if full
 * @ring: the ring
 * @ev: the event
 */
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

/**
 * ftg_event_ring_cb - an ftg_event_cb that pushes into a ring
 * @ev: the event
 * @data: the struct ftg_event_ring
 *
 * Return: 0 (never stops a walk).
 */
int ftg_event_ring_cb(const struct ftg_event *ev, void *data)
{
	ftg_event_ring_push(data, ev);
	return 0;
}

/**
 * ftg_event_ring_count - events held
 * @ring: the ring
 *
 * Return: the number of events, at most the capacity.
 */
size_t ftg_event_ring_count(const struct ftg_event_ring *ring)
{
	return ring->count;
}

/**
 * ftg_event_ring_capacity - events the ring can hold
 * @ring: the ring
 *
 * Return: the capacity given to ftg_event_ring_alloc().
 */
size_t ftg_event_ring_capacity(const struct ftg_event_ring *ring)
{
	return ring->capacity;
}

/**
 * ftg_event_ring_get - the @i-th oldest event held
 * @ring: the ring
 * @i: 0 for the oldest, count - 1 for the newest
 *
 * Return: the event (owned by the ring, valid until the next push or
 * clear), or NULL when @i >= count.
 */
const struct ftg_event *ftg_event_ring_get(const struct ftg_event_ring *ring,
					   size_t i)
{
	if (i >= ring->count)
		return NULL;
	return &ring->slots[(ring->head + i) % ring->capacity];
}

/**
 * ftg_event_ring_overwritten - events dropped because the ring was full
 * @ring: the ring
 *
 * Return: the count since allocation or the last clear.
 */
uint64_t ftg_event_ring_overwritten(const struct ftg_event_ring *ring)
{
	return ring->overwritten;
}

/**
 * ftg_event_ring_clear - drop every event and reset the counter
 * @ring: the ring
 */
void ftg_event_ring_clear(struct ftg_event_ring *ring)
{
	ring->head = 0;
	ring->count = 0;
	ring->overwritten = 0;
}
