// SPDX-License-Identifier: LGPL-2.1
/*
 * Kernel event filters in a trace instance: what `-e EVENT -f FILTER`
 * writes to events/SYSTEM[/EVENT]/filter, as trace-cmd record -f does,
 * so that the kernel drops the events that do not match before they
 * take buffer space.
 *
 * The kernel parses the filter when it is written. A filter it refuses
 * fails the write with EINVAL and stays readable in the filter file,
 * followed by a caret under the place and "parse_error: WHY" (it also
 * goes to the instance's error_log): that text is the library's error,
 * and the refused filter is cleared again, so nothing is left behind.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <tracefs.h>

#include "ftguard-local.h"

/* "events/SYSTEM[/EVENT]/filter" of @instance, for tracefs_instance_*(). */
static int filter_file(char *buf, size_t len, const char *system, const char *event)
{
	int n = snprintf(buf, len, "events/%s%s%s/filter", system, event ? "/" : "",
			 event ? event : "");

	if (n < 0 || (size_t)n >= len || strstr(system, "..") || strchr(system, '/') ||
	    (event && (strstr(event, "..") || strchr(event, '/'))))
		return ftgl_err(FTG_E_BAD_ARGUMENT, EINVAL, "bad event name %s%s%s",
				system, event ? ":" : "", event ? event : "");
	return 0;
}

/* One write(2) of @text, so that the kernel's errno reaches us as is. */
static int write_whole(struct tracefs_instance *inst, const char *rel, const char *text)
{
	char *path = tracefs_instance_get_file(inst, rel);
	ssize_t n;
	int fd, err;

	if (!path)
		return -1;
	fd = open(path, O_WRONLY | O_TRUNC | O_CLOEXEC);
	tracefs_put_tracing_file(path);
	if (fd < 0)
		return -1;
	n = write(fd, text, strlen(text));
	err = errno;
	close(fd);
	errno = err;
	return n == (ssize_t)strlen(text) ? 0 : -1;
}

/*
 * The kernel's word on a failed write of @filter (errno @err): the filter
 * file's "FILTER\n   ^\nparse_error: WHY" when it parsed and refused it
 * (EINVAL mostly, ESRCH for an open quote on 6.1), else for EINVAL the
 * last entry of error_log, else the errno itself.
 */
static int refused(struct tracefs_instance *inst, const char *rel,
		   const char *name, const char *filter, int err)
{
	char *text = tracefs_instance_file_read(inst, rel, NULL);
	char *caret = NULL, *why = NULL;

	if (text && !strncmp(text, filter, strlen(filter)) &&
	    text[strlen(filter)] == '\n') {
		caret = text + strlen(filter) + 1;
		why = strchr(caret, '\n');
		if (why) {
			*why++ = '\0';
			why[strcspn(why, "\n")] = '\0';
		}
	}
	if (caret && why && *why) {
		ftgl_err(FTG_E_BAD_FILTER, EINVAL,
			 "%s: the kernel refused filter '%s': %s\n  %s\n  %s",
			 name, filter, why, filter, caret);
	} else if (err == EINVAL) {
		char *log = tracefs_error_last(inst);

		ftgl_err(FTG_E_BAD_FILTER, EINVAL, "%s: the kernel refused filter '%s'%s%s",
			 name, filter, log ? ": " : "", log ? log : "");
		free(log);
	} else {
		ftgl_err(FTG_E_SYSTEM, err, "%s: writing its filter: %s", name,
			 strerror(err));
	}
	free(text);
	return -1;
}

int ftgl_event_filter_set(struct tracefs_instance *inst, const char *system,
			  const char *event, const char *filter)
{
	char rel[512], name[300];
	int ret = 0;

	if (!system || !filter || !filter[strspn(filter, " \t\n")])
		return ftgl_err(FTG_E_BAD_ARGUMENT, EINVAL, "no event or an empty filter");
	if (filter_file(rel, sizeof(rel), system, event))
		return -1;
	snprintf(name, sizeof(name), "%s%s%s", system, event ? ":" : "",
		 event ? event : "");
	if (write_whole(inst, rel, filter) < 0) {
		ret = refused(inst, rel, name, filter, errno);
		/* a refused filter stays readable in the file: clear it */
		write_whole(inst, rel, "0");
	}
	return ret;
}

int ftgl_event_filter_clear(struct tracefs_instance *inst, const char *system,
			    const char *event)
{
	char rel[512];

	if (!system)
		return ftgl_err(FTG_E_BAD_ARGUMENT, EINVAL, "no event system");
	if (filter_file(rel, sizeof(rel), system, event))
		return -1;
	/* "0" clears; a system's "0" clears each of its events' too */
	if (write_whole(inst, rel, "0") < 0)
		return ftgl_err(FTG_E_SYSTEM, errno, "%s%s%s: clearing its filter: %s",
				system, event ? ":" : "", event ? event : "",
				strerror(errno));
	return 0;
}
