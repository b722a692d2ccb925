// SPDX-License-Identifier: LGPL-2.1
/*
 * ftguard's trace instance as a command configures it: kernel events
 * with their filters, buffer size, trace options, pid filters, the
 * buffer itself and its per-CPU counts. Each change the handle makes is
 * remembered, so that ftg_instance_restore() puts back what this process
 * changed and nothing else (as trace-cmd restores what record set).
 *
 * libtracefs does the file work; only this file and the readers next to
 * it include its header.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <tracefs.h>

#include "ftguard-local.h"

#define INSTANCE	"ftguard"
#define PIDS_MAX	64

/* An event (or a whole system) this handle enabled or filtered. */
struct inst_event {
	char *system;
	char *event;			/* NULL: the whole system */
	bool enabled;
	bool filtered;
};

/* The options a command changes, in enum tracefs_option_id terms. */
static const struct {
	const char *name;
	enum tracefs_option_id id;
} options[] = {
	{ "record-tgid", TRACEFS_OPTION_RECORD_TGID },
	{ "event-fork", TRACEFS_OPTION_EVENT_FORK },
};

struct ftg_instance {
	struct tracefs_instance *ti;
	struct inst_event *ev;
	size_t nev;
	long old_kb;			/* -1: buffer size not changed */
	bool pids_set;			/* set_event_pid written */
	bool notrace_set;		/* set_event_notrace_pid written */
	unsigned int turned_on;		/* bit i: options[i] turned on here */
	unsigned int turned_off;	/* bit i: options[i] turned off here */
};

struct tracefs_instance *ftgl_instance_alloc(const char *tracefs_dir)
{
	struct tracefs_instance *inst;

	errno = 0;
	inst = tracefs_instance_alloc(tracefs_dir, INSTANCE);
	if (!inst || !tracefs_file_exists(inst, "buffer_size_kb")) {
		if (!errno && inst)
			errno = ENOENT;
		tracefs_instance_free(inst);
		ftgl_err(errno == EACCES ? FTG_E_NOT_ROOT : FTG_E_NO_MODULE,
			 errno == EACCES ? EACCES : ENODEV,
			 "trace instance %s: %s", INSTANCE,
			 errno == EACCES ? "permission denied (run as root)" :
			 "not found (ftguard.ko makes it: is it loaded?)");
		return NULL;
	}
	return inst;
}

struct ftg_instance *ftg_instance_open(const struct ftg_root *root)
{
	struct ftg_instance *inst;

	ftg_error_clear();
	inst = calloc(1, sizeof(*inst));
	if (!inst) {
		ftgl_err(FTG_E_SYSTEM, ENOMEM, "trace instance: out of memory");
		return NULL;
	}
	inst->ti = ftgl_instance_alloc(ftg_root_tracefs(root));
	if (!inst->ti) {
		free(inst);
		return NULL;
	}
	inst->old_kb = -1;
	return inst;
}

void ftg_instance_free(struct ftg_instance *inst)
{
	size_t i;

	if (!inst)
		return;
	for (i = 0; i < inst->nev; i++) {
		free(inst->ev[i].system);
		free(inst->ev[i].event);
	}
	free(inst->ev);
	tracefs_instance_free(inst->ti);
	free(inst);
}

static void event_name(char *buf, size_t len, const char *system, const char *event)
{
	snprintf(buf, len, "%s%s%s", system, event ? ":" : "", event ? event : "");
}

/* The entry of @system[:@event], added when @add. */
static struct inst_event *find_event(struct ftg_instance *inst, const char *system,
				     const char *event, bool add)
{
	struct inst_event *e, *grown;
	size_t i;

	for (i = 0; i < inst->nev; i++) {
		e = &inst->ev[i];
		if (!strcmp(e->system, system) &&
		    (e->event ? event && !strcmp(e->event, event) : !event))
			return e;
	}
	if (!add)
		return NULL;
	grown = realloc(inst->ev, (inst->nev + 1) * sizeof(*grown));
	if (!grown)
		goto nomem;
	inst->ev = grown;
	e = &inst->ev[inst->nev];
	memset(e, 0, sizeof(*e));
	e->system = strdup(system);
	e->event = event ? strdup(event) : NULL;
	if (!e->system || (event && !e->event)) {
		free(e->system);
		free(e->event);
		goto nomem;
	}
	inst->nev++;
	return e;
nomem:
	ftgl_err(FTG_E_SYSTEM, ENOMEM, "trace instance: out of memory");
	return NULL;
}

int ftg_instance_event_filter(struct ftg_instance *inst, const char *system,
			      const char *event, const char *filter)
{
	struct inst_event *e;

	ftg_error_clear();
	if (ftgl_event_filter_set(inst->ti, system, event, filter) < 0)
		return -1;
	e = find_event(inst, system, event, true);
	if (!e) {
		ftgl_event_filter_clear(inst->ti, system, event);
		return ftgl_err(FTG_E_SYSTEM, ENOMEM, "trace instance: out of memory");
	}
	e->filtered = true;
	return 0;
}

int ftg_instance_event_enable(struct ftg_instance *inst, const char *system,
			      const char *event)
{
	struct inst_event *e;
	char name[300];

	ftg_error_clear();
	event_name(name, sizeof(name), system ? system : "", event);
	if (!system || !*system || strchr(system, '/') || strstr(system, "..") ||
	    (event && (!*event || strchr(event, '/') || strstr(event, ".."))))
		return ftgl_err(FTG_E_BAD_ARGUMENT, EINVAL, "bad event name %s", name);
	if (tracefs_event_is_enabled(inst->ti, system, event) == TRACEFS_ALL_ENABLED)
		return 0;	/* on before us: stays on */
	e = find_event(inst, system, event, true);
	if (!e)
		return -1;
	errno = 0;
	if (tracefs_event_enable(inst->ti, system, event) < 0) {
		int err = errno ? errno : ENOENT;

		return ftgl_err(err == ENOENT ? FTG_E_BAD_EVENT : FTG_E_SYSTEM, err,
				"enabling %s: %s", name, strerror(err));
	}
	e->enabled = true;
	return 0;
}

/*
 * Whether every event of @system is off. The system's own enable file
 * says so in one read ("0", "1" or "X" for mixed), where asking
 * libtracefs reads the enable file of each of its events: on 6.12 that
 * made every stop take a quarter of a second.
 */
static bool system_off(struct tracefs_instance *ti, const char *system)
{
	char *path = NULL, *state = NULL;
	bool off;

	if (asprintf(&path, "events/%s/enable", system) < 0)
		path = NULL;
	state = path ? tracefs_instance_file_read(ti, path, NULL) : NULL;
	if (state)
		off = state[0] == '0';
	else
		off = tracefs_event_is_enabled(ti, system, NULL) == TRACEFS_ALL_DISABLED;
	free(state);
	free(path);
	return off;
}

int ftg_instance_events_off(struct ftg_instance *inst, char ***turned_off)
{
	char **systems, **off = NULL, **more, msg[512] = "";
	char *dir = tracefs_instance_get_dir(inst->ti);
	size_t i;
	int ret = 0, err;

	ftg_error_clear();
	if (turned_off)
		*turned_off = NULL;
	errno = 0;
	/* the instance's own events directory: its systems are the kernel's */
	systems = dir ? tracefs_event_systems(dir) : NULL;
	if (!systems) {
		err = errno ? errno : ENOENT;
		ftgl_err(FTG_E_SYSTEM, err, "cannot list the event systems in %s/events: %s",
			 dir ? dir : INSTANCE, strerror(err));
		tracefs_put_tracing_file(dir);
		return -1;
	}
	tracefs_put_tracing_file(dir);
	for (i = 0; systems[i]; i++) {
		if (!strcmp(systems[i], INSTANCE) || system_off(inst->ti, systems[i]))
			continue;
		if (tracefs_event_disable(inst->ti, systems[i], NULL) < 0) {
			snprintf(msg, sizeof(msg), "disabling the %s events: %s",
				 systems[i], strerror(errno));
			ret = -1;
		} else if (turned_off) {
			/* libtracefs' own list, for ftg_event_names_free() */
			more = tracefs_list_add(off, systems[i]);
			if (more) {
				off = more;
			} else {
				snprintf(msg, sizeof(msg), "out of memory");
				ret = -1;
			}
		}
		/* a system's "0" clears its events' filters too */
		if (ftgl_event_filter_clear(inst->ti, systems[i], NULL) < 0) {
			snprintf(msg, sizeof(msg), "%s", ftg_error_last());
			ret = -1;
		}
	}
	tracefs_list_free(systems);
	if (turned_off)
		*turned_off = off;
	if (ret)
		ftgl_err(FTG_E_SYSTEM, errno ? errno : EIO, "%s", msg);
	return ret;
}

/* Per-CPU size in KiB: buffer_size_kb reads "1408", or "7 (expanded: 1408)"
 * before the buffer was first used; 1408 is the size to restore then. */
static long read_buffer_kb(struct tracefs_instance *ti)
{
	char *text = tracefs_instance_file_read(ti, "buffer_size_kb", NULL);
	char *end, *expanded;
	long kb;

	if (!text)
		return -1;
	expanded = strstr(text, "expanded:");
	kb = strtol(expanded ? expanded + strlen("expanded:") : text, &end, 10);
	if (end == text || kb <= 0)
		kb = -1;
	free(text);
	return kb;
}

static int write_buffer_kb(struct tracefs_instance *ti, unsigned long kb)
{
	char num[32];

	snprintf(num, sizeof(num), "%lu", kb);
	return tracefs_instance_file_write(ti, "buffer_size_kb", num) < 0 ? -1 : 0;
}

int ftg_instance_set_buffer_kb(struct ftg_instance *inst, unsigned long kb)
{
	long old;

	ftg_error_clear();
	if (!kb)
		return ftgl_err(FTG_E_BAD_ARGUMENT, EINVAL, "a buffer of 0 KiB");
	errno = 0;
	old = read_buffer_kb(inst->ti);
	if (old < 0 || write_buffer_kb(inst->ti, kb) < 0) {
		int err = errno ? errno : EINVAL;

		return ftgl_err(FTG_E_SYSTEM, err, "setting the buffer size to %lu KiB: %s",
				kb, strerror(err));
	}
	if (inst->old_kb < 0)
		inst->old_kb = old;
	return 0;
}

int ftg_instance_set_option(struct ftg_instance *inst, const char *name, bool on)
{
	unsigned int bit;
	size_t i;

	ftg_error_clear();
	for (i = 0; i < FTGL_ARRAY_SIZE(options); i++)
		if (name && !strcmp(name, options[i].name))
			break;
	if (i == FTGL_ARRAY_SIZE(options))
		return ftgl_err(FTG_E_BAD_ARGUMENT, EINVAL, "option %s: not one ftguard sets",
				name ? name : "(null)");
	bit = 1U << i;
	if (tracefs_option_is_enabled(inst->ti, options[i].id) == on)
		return 0;
	errno = 0;
	if ((on ? tracefs_option_enable : tracefs_option_disable)(inst->ti, options[i].id) < 0) {
		int err = errno ? errno : EINVAL;

		return ftgl_err(FTG_E_SYSTEM, err, "turning %s option %s: %s",
				on ? "on" : "off", name, strerror(err));
	}
	/* a change undone by the opposite one is no change to restore */
	if (on && (inst->turned_off & bit))
		inst->turned_off &= ~bit;
	else if (!on && (inst->turned_on & bit))
		inst->turned_on &= ~bit;
	else
		*(on ? &inst->turned_on : &inst->turned_off) |= bit;
	return 0;
}

/* The whole text of an instance file (NULL when it cannot be read). */
static bool file_empty(struct tracefs_instance *ti, const char *rel)
{
	char *text = tracefs_instance_file_read(ti, rel, NULL);
	bool empty = !text || !text[strspn(text, " \n")];

	free(text);
	return empty;
}

int ftg_instance_set_pids(struct ftg_instance *inst, const int *pids, size_t n,
			  unsigned int flags)
{
	bool notrace = flags & FTG_INSTANCE_PIDS_NOTRACE;
	const char *rel = notrace ? "set_event_notrace_pid" : "set_event_pid";
	char list[PIDS_MAX * 12] = "";
	size_t i;

	ftg_error_clear();
	if (!n || n > PIDS_MAX || (flags & ~FTG_INSTANCE_PIDS_NOTRACE))
		return ftgl_err(FTG_E_BAD_ARGUMENT, EINVAL, "%s: 1 to %d pids", rel,
				PIDS_MAX);
	for (i = 0; i < n; i++) {
		if (pids[i] <= 0)
			return ftgl_err(FTG_E_BAD_ARGUMENT, EINVAL, "%s: pid %d", rel,
					pids[i]);
		snprintf(list + strlen(list), sizeof(list) - strlen(list), "%d ", pids[i]);
	}
	if (notrace) {
		if (!tracefs_file_exists(inst->ti, rel))
			return ftgl_err(FTG_E_SYSTEM, ENOTSUP, "%s: not in this kernel", rel);
		if (!inst->notrace_set && !file_empty(inst->ti, rel))
			return ftgl_err(FTG_E_SYSTEM, EBUSY, "%s is in use", rel);
	}
	errno = 0;
	if (tracefs_instance_file_write(inst->ti, rel, list) < 0) {
		int err = errno ? errno : EINVAL;

		return ftgl_err(FTG_E_SYSTEM, err, "%s: %s", rel, strerror(err));
	}
	*(notrace ? &inst->notrace_set : &inst->pids_set) = true;
	return 0;
}

int ftg_instance_clear_buffer(struct ftg_instance *inst)
{
	ftg_error_clear();
	errno = 0;
	if (tracefs_instance_file_clear(inst->ti, "trace") < 0) {
		int err = errno ? errno : EIO;

		return ftgl_err(FTG_E_SYSTEM, err, "clearing the instance buffer: %s",
				strerror(err));
	}
	return 0;
}

int ftg_instance_buffer_entries(struct ftg_instance *inst, uint64_t *entries)
{
	char name[64], *stats, *p;
	int cpu;

	ftg_error_clear();
	*entries = 0;
	for (cpu = 0;; cpu++) {
		snprintf(name, sizeof(name), "per_cpu/cpu%d/stats", cpu);
		stats = tracefs_instance_file_read(inst->ti, name, NULL);
		if (!stats)
			break;
		p = strstr(stats, "entries:");
		if (p)
			*entries += strtoull(p + strlen("entries:"), NULL, 10);
		free(stats);
	}
	if (!cpu)
		return ftgl_err(FTG_E_NO_MODULE, ENOENT, "no per_cpu/cpu0/stats in the %s "
				"instance", INSTANCE);
	return 0;
}

/* Adds "; @what" to @msg (the restore's error lists every failure). */
static void failed(char *msg, size_t len, const char *what)
{
	size_t used = strlen(msg);

	snprintf(msg + used, len - used, "%s%s", used ? "; " : "", what);
}

int ftg_instance_restore(struct ftg_instance *inst)
{
	char msg[1024] = "", what[400], name[300];
	size_t i, j;

	ftg_error_clear();
	if (!inst)
		return 0;
	/* events first, then their filters: no unfiltered event between */
	for (i = 0; i < inst->nev; i++) {
		struct inst_event *e = &inst->ev[i];

		event_name(name, sizeof(name), e->system, e->event);
		if (e->enabled && tracefs_event_disable(inst->ti, e->system, e->event) < 0) {
			snprintf(what, sizeof(what), "could not disable %s", name);
			failed(msg, sizeof(msg), what);
		}
		e->enabled = false;
	}
	for (i = 0; i < inst->nev; i++) {
		struct inst_event *e = &inst->ev[i];

		if (e->filtered && ftgl_event_filter_clear(inst->ti, e->system, e->event) < 0)
			failed(msg, sizeof(msg), ftg_error_last());
		e->filtered = false;
	}
	if (inst->pids_set && tracefs_instance_file_clear(inst->ti, "set_event_pid") < 0)
		failed(msg, sizeof(msg), "could not clear the pid filter (set_event_pid)");
	if (inst->notrace_set &&
	    tracefs_instance_file_clear(inst->ti, "set_event_notrace_pid") < 0)
		failed(msg, sizeof(msg), "could not clear set_event_notrace_pid");
	inst->pids_set = inst->notrace_set = false;
	for (j = 0; j < FTGL_ARRAY_SIZE(options); j++) {
		bool on = inst->turned_off & (1U << j);

		if (!((inst->turned_on | inst->turned_off) & (1U << j)))
			continue;
		if ((on ? tracefs_option_enable : tracefs_option_disable)(inst->ti,
									 options[j].id) < 0) {
			snprintf(what, sizeof(what), "could not turn option %s back %s",
				 options[j].name, on ? "on" : "off");
			failed(msg, sizeof(msg), what);
		}
	}
	inst->turned_on = inst->turned_off = 0;
	if (inst->old_kb >= 0 && write_buffer_kb(inst->ti, (unsigned long)inst->old_kb) < 0) {
		snprintf(what, sizeof(what), "could not restore the buffer size to %ld KiB",
			 inst->old_kb);
		failed(msg, sizeof(msg), what);
	}
	inst->old_kb = -1;
	if (*msg)
		return ftgl_err(FTG_E_SYSTEM, EIO, "%s", msg);
	return 0;
}
