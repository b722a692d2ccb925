// SPDX-License-Identifier: LGPL-2.1
/*
 * Which thread group (process) each traced pid belongs to.
 *
 * The kernel keeps this in saved_tgids while an instance's record-tgid
 * option is on; the ring buffer's events carry only the pid. trace.dat
 * has no place for it (trace-cmd records no tgids), so the writer stores
 * the map in an option of ftguard's own, in saved_tgids' text form
 * ("PID TGID" lines), which trace-cmd skips as it skips every option it
 * does not know (doc/trace-files.md).
 *
 * Lookups come once per decoded event, additions only when saved_tgids
 * is read again: the map is an array sorted by pid.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "trace-local.h"

static size_t tgid_slot(const struct trace_tgids *map, int pid)
{
	size_t lo = 0, hi = map->nr, mid;

	while (lo < hi) {
		mid = lo + (hi - lo) / 2;
		if (map->pairs[mid].pid < pid)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

/*
 * trace_tgids_set - remember @pid's thread group
 * @map: the map
 * @pid: task id
 * @tgid: its thread group id (pids are reused: a later answer wins)
 *
 * Return: 0 (also for a pid or tgid <= 0, not stored), or -1 with errno
 * ENOMEM.
 */
int trace_tgids_set(struct trace_tgids *map, int pid, int tgid)
{
	struct trace_tgid *grown;
	size_t i;

	if (pid <= 0 || tgid <= 0)
		return 0;
	i = tgid_slot(map, pid);
	if (i < map->nr && map->pairs[i].pid == pid) {
		map->pairs[i].tgid = tgid;
		return 0;
	}
	if (map->nr == map->alloc) {
		grown = realloc(map->pairs, (map->alloc ? 2 * map->alloc : 64) *
				sizeof(*grown));
		if (!grown)
			return -1;
		map->pairs = grown;
		map->alloc = map->alloc ? 2 * map->alloc : 64;
	}
	memmove(&map->pairs[i + 1], &map->pairs[i],
		(map->nr - i) * sizeof(*map->pairs));
	map->pairs[i] = (struct trace_tgid){ .pid = pid, .tgid = tgid };
	map->nr++;
	return 0;
}

/*
 * trace_tgids_get - @pid's thread group
 * @map: the map
 * @pid: task id
 *
 * Return: the tgid, or 0 when the map does not know @pid.
 */
int trace_tgids_get(const struct trace_tgids *map, int pid)
{
	size_t i = tgid_slot(map, pid);

	return i < map->nr && map->pairs[i].pid == pid ? map->pairs[i].tgid : 0;
}

/*
 * trace_tgids_parse - add the "PID TGID" lines of @text
 * @map: the map
 * @text: saved_tgids' text (NUL-terminated; other lines are skipped)
 *
 * Return: 0, or -1 with errno ENOMEM.
 */
int trace_tgids_parse(struct trace_tgids *map, const char *text)
{
	const char *line, *end;
	int pid, tgid;

	for (line = text; line && *line; line = end + (*end == '\n')) {
		end = strchrnul(line, '\n');
		if (sscanf(line, "%d %d", &pid, &tgid) == 2 &&
		    trace_tgids_set(map, pid, tgid))
			return -1;
	}
	return 0;
}

/*
 * trace_tgids_text - the map in saved_tgids' text form
 * @map: the map
 * @size: set to the text's length
 *
 * Return: the text (free() it; "" for an empty map), or NULL with errno
 * ENOMEM.
 */
char *trace_tgids_text(const struct trace_tgids *map, size_t *size)
{
	char *text = NULL;
	size_t i;
	FILE *f;

	f = open_memstream(&text, size);
	if (!f)
		return NULL;
	for (i = 0; i < map->nr; i++)
		fprintf(f, "%d %d\n", map->pairs[i].pid, map->pairs[i].tgid);
	if (fclose(f)) {
		free(text);
		return NULL;
	}
	return text;
}

/*
 * trace_tgids_free - empty the map
 * @map: the map (its struct is not freed)
 */
void trace_tgids_free(struct trace_tgids *map)
{
	free(map->pairs);
	memset(map, 0, sizeof(*map));
}
