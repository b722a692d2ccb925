// SPDX-License-Identifier: LGPL-2.1
/*
 * The kernel's trace event names (tracefs events/), for listing and
 * completing -e SYSTEM[:EVENT].
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <tracefs.h>

#include "ftguard-local.h"

static int cmp_names(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

char **ftg_event_names(const struct ftg_root *root, const char *system)
{
	const char *tracefs_dir = ftg_root_tracefs(root);
	char **names;
	size_t n = 0;

	ftg_error_clear();
	if (system && (!*system || strchr(system, '/') || !strcmp(system, ".."))) {
		ftgl_err(FTG_E_BAD_ARGUMENT, EINVAL, "'%s': not an event system", system);
		return NULL;
	}
	errno = 0;
	names = system ? tracefs_system_events(tracefs_dir, system) :
			 tracefs_event_systems(tracefs_dir);
	if (!names) {
		ftgl_err(system ? FTG_E_BAD_EVENT : FTG_E_NO_TRACEFS,
			 errno ? errno : ENOENT, "%s%s: no events",
			 system ? "event system " : "tracefs events",
			 system ? system : "");
		return NULL;
	}
	while (names[n])
		n++;
	qsort(names, n, sizeof(*names), cmp_names);
	return names;
}

void ftg_event_names_free(char **names)
{
	tracefs_list_free(names);
}
