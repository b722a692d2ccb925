// SPDX-License-Identifier: GPL-2.0
/*
 * Kernel events beside the traced functions: `-e SYSTEM[:EVENT]` as
 * trace-cmd takes it, for record, start and stream, each optionally
 * followed by `-f FILTER`, the kernel's event filter for it (set through
 * the library before the event is enabled, cleared when it is disabled).
 *
 * A tracepoint is enabled in ftguard's own trace instance only; it patches
 * no function site, so it needs no check. The arguments are validated
 * against tracefs before anything is enabled. record and stream disable
 * what they enabled at their end; what start enabled outlives it, as its
 * arm does, until stop or reset turn off every event of the instance but
 * ftguard's own.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "cmd/ftguard-cmd.h"

/* Systems -e refuses: ftguard's own events are always on, ftrace's are
 * the tracers' (function, funcgraph...) and cannot be enabled. */
static const char *const reserved_systems[] = { "ftguard", "ftrace", NULL };

/* Whether -e takes @system (completion offers only those). */
bool ftg_cmd_event_system_allowed(const char *system)
{
	int i;

	for (i = 0; reserved_systems[i]; i++)
		if (!strcmp(system, reserved_systems[i]))
			return false;
	return true;
}

static bool list_has(char **list, const char *name)
{
	int i;

	for (i = 0; list && list[i]; i++)
		if (!strcmp(list[i], name))
			return true;
	return false;
}

/* What needs no tracefs: the shape of @arg. */
static int parse_one(struct ftg_cmd_ctx *ctx, const struct ftg_cmd_args *args,
		     const char *arg, struct ftg_cmd_event *out)
{
	const char *colon = strchr(arg, ':');
	int i;

	if (!strcmp(arg, "all")) {
		ftg_cmd_usage_error(ctx, args->entry, "-e all: enabling every kernel "
				    "event is refused; name a SYSTEM or SYSTEM:EVENT");
		return FTG_CMD_ERROR;
	}
	out->system = colon ? strndup(arg, colon - arg) : strdup(arg);
	out->event = colon ? strdup(colon + 1) : NULL;
	if (!out->system || (colon && !out->event))
		return ftg_cmd_lib_error(ctx, "-e");
	if (!*out->system || (out->event && !*out->event) ||
	    strchr(out->system, '/') || (out->event && strpbrk(out->event, "/:"))) {
		ftg_cmd_usage_error(ctx, args->entry, "-e %s: not SYSTEM or SYSTEM:EVENT",
				    arg);
		return FTG_CMD_ERROR;
	}
	for (i = 0; reserved_systems[i]; i++) {
		if (!strcmp(out->system, reserved_systems[i])) {
			ftg_cmd_usage_error(ctx, args->entry, "-e %s: the %s events are not "
					    "for -e%s", arg, out->system,
					    i == 0 ? " (ftguard records its own)" : "");
			return FTG_CMD_ERROR;
		}
	}
	return 0;
}

static int check_exists(struct ftg_cmd_ctx *ctx, const struct ftg_root *root,
			char **systems, const char *arg, const struct ftg_cmd_event *e)
{
	char **events;
	bool found;

	if (!list_has(systems, e->system)) {
		ftg_cmd_error(ctx, "-e %s: no event system '%s' in %s/events", arg,
			      e->system, ftg_root_tracefs(root));
		return FTG_CMD_ERROR;
	}
	if (!e->event)
		return 0;
	events = ftg_event_names(root, e->system);
	found = list_has(events, e->event);
	ftg_event_names_free(events);
	if (!found) {
		ftg_cmd_error(ctx, "-e %s: no event '%s' in system '%s'", arg, e->event,
			      e->system);
		return FTG_CMD_ERROR;
	}
	return 0;
}

/* Each -f belongs to the -e before it, in command-line order. */
static int attach_filters(struct ftg_cmd_ctx *ctx, const struct ftg_cmd_args *args,
			  struct ftg_cmd_events *out)
{
	int i, e = -1;

	for (i = 0; i < args->nopts; i++) {
		if (args->opts[i].key == 'e')
			e++;
		if (args->opts[i].key != 'f')
			continue;
		if (e < 0) {
			ftg_cmd_usage_error(ctx, args->entry, "-f %s: a filter follows the "
					    "-e SYSTEM[:EVENT] it filters", args->opts[i].value);
			return FTG_CMD_ERROR;
		}
		if (out->ev[e].filter) {
			ftg_cmd_usage_error(ctx, args->entry, "-e %s has two -f: join them "
					    "with && or ||", ftg_args_nth(args, 'e', e));
			return FTG_CMD_ERROR;
		}
		if (!args->opts[i].value[strspn(args->opts[i].value, " \t")]) {
			ftg_cmd_usage_error(ctx, args->entry, "-f: an empty filter");
			return FTG_CMD_ERROR;
		}
		out->ev[e].filter = args->opts[i].value;
	}
	return 0;
}

/**
 * ftg_cmd_events_parse - read and validate every -e of @args
 * @ctx: the command
 * @args: its arguments
 * @out: filled in (release with ftg_cmd_events_release())
 *
 * Return: 0 (also when there is no -e), or FTG_CMD_ERROR after saying why.
 */
int ftg_cmd_events_parse(struct ftg_cmd_ctx *ctx, const struct ftg_cmd_args *args,
			 struct ftg_cmd_events *out)
{
	int i, n = ftg_args_count(args, 'e'), ret = 0;
	const struct ftg_root *root;
	char **systems;

	memset(out, 0, sizeof(*out));
	if (!n && ftg_args_has(args, 'f')) {
		ftg_cmd_usage_error(ctx, args->entry, "-f %s: a filter follows the "
				    "-e SYSTEM[:EVENT] it filters", ftg_args_get(args, 'f'));
		return FTG_CMD_ERROR;
	}
	if (!n)
		return 0;
	out->ev = calloc(n, sizeof(*out->ev));
	if (!out->ev)
		return ftg_cmd_lib_error(ctx, "-e");
	for (i = 0; i < n && !ret; i++) {
		out->n = i + 1;
		ret = parse_one(ctx, args, ftg_args_nth(args, 'e', i), &out->ev[i]);
	}
	if (!ret)
		ret = attach_filters(ctx, args, out);
	if (ret || ftg_cmd_need(ctx, FTG_NEED_TRACEFS))
		return FTG_CMD_ERROR;
	root = ftg_cmd_root(ctx);
	systems = ftg_event_names(root, NULL);
	if (!systems) {
		ftg_cmd_error(ctx, "cannot list the event systems in %s/events: %s",
			      ftg_root_tracefs(root), strerror(errno ? errno : ENOENT));
		return FTG_CMD_ERROR;
	}
	for (i = 0; i < n && !ret; i++)
		ret = check_exists(ctx, root, systems, ftg_args_nth(args, 'e', i),
				   &out->ev[i]);
	ftg_event_names_free(systems);
	return ret;
}

/**
 * ftg_cmd_events_set_filters - write each -f to its event's filter file
 * @ctx: the command
 * @evs: from ftg_cmd_events_parse(); filters already set are skipped
 * @inst: ftguard's trace instance
 *
 * Called before anything is enabled or armed: a filter the kernel
 * refuses ends the command with the kernel's message, and what @inst
 * changed is undone.
 *
 * Return: 0, or FTG_CMD_ERROR after saying why.
 */
int ftg_cmd_events_set_filters(struct ftg_cmd_ctx *ctx, struct ftg_cmd_events *evs,
			       struct ftg_instance *inst)
{
	struct ftg_cmd_event *e;
	int i;

	for (i = 0; i < evs->n; i++) {
		e = &evs->ev[i];
		if (!e->filter || e->filter_set)
			continue;
		if (ftg_instance_event_filter(inst, e->system, e->event, e->filter) < 0) {
			ftg_cmd_error_lines(ctx, "-f: ", ftg_error_last());
			ftg_cmd_instance_restore(ctx, inst);
			return FTG_CMD_ERROR;
		}
		e->filter_set = true;
	}
	return 0;
}

/**
 * ftg_cmd_events_enable - enable the parsed events in @inst
 * @ctx: the command
 * @evs: from ftg_cmd_events_parse()
 * @inst: ftguard's trace instance
 * @live: the session that reads it, or NULL: learns the events' formats
 *        (call before a writer takes them)
 *
 * Each -f filter is set before its event is enabled, so no event it
 * would drop gets in. An event that was already on in @inst stays on at
 * the end.
 *
 * Return: 0, or FTG_CMD_ERROR after saying why (what was enabled stays
 * remembered by @inst for ftg_cmd_instance_restore()).
 */
int ftg_cmd_events_enable(struct ftg_cmd_ctx *ctx, struct ftg_cmd_events *evs,
			  struct ftg_instance *inst, struct ftg_live *live)
{
	struct ftg_cmd_event *e;
	int i;

	if (ftg_cmd_events_set_filters(ctx, evs, inst))
		return FTG_CMD_ERROR;
	for (i = 0; i < evs->n; i++) {
		e = &evs->ev[i];
		if (live && ftg_live_add_system(live, e->system) < 0) {
			ftg_cmd_error(ctx, "%s", ftg_error_last());
			return FTG_CMD_ERROR;
		}
		if (ftg_instance_event_enable(inst, e->system, e->event) < 0) {
			ftg_cmd_error(ctx, "%s", ftg_error_last());
			return FTG_CMD_ERROR;
		}
	}
	return 0;
}

/**
 * ftg_cmd_instance_restore - undo what the command changed in @inst
 * @ctx: the command (for warnings)
 * @inst: ftguard's trace instance, or NULL
 *
 * Events first, then their filters, pid filters, options and buffer
 * size (ftg_instance_restore()); a step that fails is a warning.
 */
void ftg_cmd_instance_restore(struct ftg_cmd_ctx *ctx, struct ftg_instance *inst)
{
	if (ftg_instance_restore(inst) < 0)
		ftg_cmd_warn(ctx, "%s", ftg_error_last());
}

/*
 * Events alone, as trace-cmd record -e: no -l, -m or -n, so no site to
 * check or arm.
 */
bool ftg_cmd_events_only(const struct ftg_cmd_args *args,
			 const struct ftg_cmd_events *evs)
{
	return evs->n && !ftg_cmd_has_selection(args, true);
}

/** ftg_cmd_events_release - free what ftg_cmd_events_parse() allocated */
void ftg_cmd_events_release(struct ftg_cmd_events *evs)
{
	int i;

	for (i = 0; i < evs->n; i++) {
		free(evs->ev[i].system);
		free(evs->ev[i].event);
	}
	free(evs->ev);
	memset(evs, 0, sizeof(*evs));
}

/**
 * ftg_cmd_events_off - turn off every -e event left on in ftguard's instance
 * @ctx: the command (stop, reset)
 *
 * start leaves its events on and keeps no list of them: the instance is
 * ftguard's, so whatever is on there besides ftguard's own events came
 * from an -e, and their systems' filters from its -f: they are cleared
 * with them. The tgid record start turned on goes off too (saved_tgids
 * keeps what it learned, for extract).
 *
 * Return: 0, or FTG_CMD_ERROR after saying why.
 */
int ftg_cmd_events_off(struct ftg_cmd_ctx *ctx)
{
	struct ftg_instance *inst;
	char **off = NULL;
	int i, ret = 0;

	inst = ftg_instance_open(ftg_cmd_root(ctx));
	if (!inst) {
		ftg_cmd_error(ctx, "%s", ftg_error_last());
		return FTG_CMD_ERROR;
	}
	if (ftg_instance_events_off(inst, &off) < 0) {
		ftg_cmd_error(ctx, "%s", ftg_error_last());
		ret = FTG_CMD_ERROR;
	}
	for (i = 0; off && off[i]; i++)
		ftg_cmd_info(ctx, "turned off the %s events", off[i]);
	ftg_event_names_free(off);
	ftg_instance_set_option(inst, "record-tgid", false);
	ftg_instance_free(inst);
	return ret;
}
