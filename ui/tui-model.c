// SPDX-License-Identifier: GPL-2.0
/*
 * The TUI's data model: ftguard.ko's tables, the address map and the live
 * events, all through libftguard. It says nothing to the user: the
 * actions (tui-actions.c) and the screens do. The model holds the TUI's
 * control descriptor, which owns any arm the TUI makes (doc/interface.md),
 * so however the TUI ends, closing the model disarms.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "ui/tui.h"

int tui_model_open(struct tui_model *m, const char *root_dir, size_t ring_capacity)
{
	memset(m, 0, sizeof(*m));
	m->root = ftg_root_open(root_dir);
	if (!m->root)
		return -1;
	m->root_dir = root_dir;
	m->snapshot = ftg_root_is_snapshot(m->root);
	m->ring_capacity = ring_capacity;
	m->ring = ftg_event_ring_alloc(ring_capacity);
	m->calls = tui_calls_new();
	if (!m->ring || !m->calls)
		return -1;
	tui_model_refresh(m);
	tui_model_reload_map(m);
	return 0;
}

void tui_model_close(struct tui_model *m)
{
	if (m->sess && m->tui_armed)
		ftg_control_disarm(ftg_session_control(m->sess));
	ftg_session_close(m->sess);
	m->sess = NULL;
	ftg_live_free(m->live);
	ftg_event_ring_free(m->ring);
	tui_calls_free(m->calls);
	ftg_verdict_free(m->verdict);
	ftg_check_report_free(m->check);
	ftg_users_free(m->users);
	ftg_map_free(m->map);
	ftg_kmodules_free(m->kmodules);
	ftg_sites_free(m->sites);
	ftg_root_free(m->root);
	memset(m, 0, sizeof(*m));
}

/* What the map depends on in the modules table: names, states, init. */
static uint64_t kmodules_signature(const struct ftg_kmodules *mods)
{
	uint64_t sig = 1469598103934665603ULL;
	size_t i;

	for (i = 0; mods && i < ftg_kmodules_count(mods); i++) {
		const struct ftg_kmodule *km = ftg_kmodules_get(mods, i);
		const char *p;

		for (p = km->name; *p; p++)
			sig = (sig ^ (unsigned char)*p) * 1099511628211ULL;
		sig = (sig ^ (km->state * 7 + km->init)) * 1099511628211ULL;
		sig = (sig ^ km->core_base) * 1099511628211ULL;
	}
	return sig;
}

/* Errors come from the kernel too: kept sanitised. */
static void live_error(struct tui_model *m)
{
	char raw[TUI_MSG_MAX];

	snprintf(raw, sizeof(raw), "live events: %s",
		 ftg_error_last());
	tui_safe(m->live_error, sizeof(m->live_error), raw);
}

/*
 * One batch of events per loop turn: with a function on the TUI's own
 * read path armed (vfs_read), every read makes the next event and the
 * buffer is never empty; the loop serves keys and signals between
 * batches.
 */
#define PUMP_BUDGET_MS		20
#define PUMP_BUDGET_BYTES	(256 * 1024)

/* Opens the live event instance when the module is there to own it. */
static void live_try_open(struct tui_model *m)
{
	if (m->live || m->snapshot || !m->have_status)
		return;
	m->live = ftg_live_open(m->root, NULL, 0);
	if (!m->live) {
		live_error(m);
		return;
	}
	m->live_error[0] = '\0';
	ftg_live_set_budget(m->live, PUMP_BUDGET_BYTES, PUMP_BUDGET_MS);
	tui_model_show_own(m, m->show_own);
}

void tui_model_show_own(struct tui_model *m, bool show)
{
	m->show_own = show;
	if (m->live)
		ftg_live_hide_pid(m->live, show ? 0 : (int)getpid());
}

void tui_model_refresh(struct tui_model *m)
{
	struct ftg_sites *sites;
	struct ftg_kmodules *mods;
	struct ftg_check_report *rep;
	uint64_t sig;

	m->have_status = ftg_status_read(m->root, &m->status) == 0;
	if (!m->have_status) {
		tui_safe(m->status_error, sizeof(m->status_error),
			 ftg_error_last());
		/* The module went away: its instance and our control with it. */
		ftg_live_free(m->live);
		m->live = NULL;
		ftg_session_close(m->sess);
		m->sess = NULL;
		m->tui_armed = false;
	}
	sites = m->have_status ? ftg_sites_read(m->root) : NULL;
	ftg_sites_free(m->sites);
	m->sites = sites;
	mods = m->have_status ? ftg_kmodules_read(m->root) : NULL;
	ftg_kmodules_free(m->kmodules);
	m->kmodules = mods;
	rep = m->have_status ? ftg_check_report_read(m->root) : NULL;
	ftg_check_report_free(m->check);
	m->check = rep;
	if (m->tui_armed && m->have_status && !m->status.armed)
		m->tui_armed = false;	/* killed, or disarmed by someone else */
	live_try_open(m);
	m->generation++;
	sig = kmodules_signature(mods);
	if (sig != m->kmodules_sig) {
		m->kmodules_sig = sig;
		if (m->map)
			tui_model_reload_map(m);
	}
}

void tui_model_reload_map(struct tui_model *m)
{
	struct ftg_map *map = ftg_map_load(m->root);

	if (!map) {
		char raw[TUI_MSG_MAX];

		snprintf(raw, sizeof(raw), "address map: %s",
			 ftg_error_last());
		tui_safe(m->map_error, sizeof(m->map_error), raw);
		return;		/* keep the previous map, if any */
	}
	m->map_error[0] = '\0';
	ftg_map_free(m->map);
	m->map = map;
	m->generation++;
}

void tui_model_take(struct tui_model *m, const struct ftg_event *ev)
{
	ftg_event_ring_push(m->ring, ev);
	tui_calls_add(m->calls, ev);
}

static int take_cb(const struct ftg_event *ev, void *data)
{
	tui_model_take(data, ev);
	return 0;
}

void tui_model_clear_events(struct tui_model *m)
{
	ftg_event_ring_clear(m->ring);
	tui_calls_clear(m->calls);
}

/*
 * --feed: canned events, one a line, for the screen tests (tests/ui),
 * which have no kernel to trace:
 *   TS_NS|CPU|PID|COMM|SYSTEM:NAME|IP|DEPTH|CALLTIME|RETTIME|SYM|PARENT|INFO
 * "#" starts a comment. They go through the path live events take.
 */
static int feed_line(struct tui_model *m, char *line)
{
	char *f[12], *p = line, *name;
	struct ftg_event ev;
	int n = 0;

	while (n < 12 && (f[n] = strsep(&p, "|")))
		n++;
	if (n != 12 || !(name = strchr(f[4], ':')))
		return -1;
	*name++ = '\0';
	memset(&ev, 0, sizeof(ev));
	ev.ts_ns = strtoull(f[0], NULL, 10);
	ev.cpu = atoi(f[1]);
	ev.pid = atoi(f[2]);
	snprintf(ev.comm, sizeof(ev.comm), "%s", f[3]);
	snprintf(ev.system, sizeof(ev.system), "%s", f[4]);
	snprintf(ev.name, sizeof(ev.name), "%s", name);
	ev.ip = strtoull(f[5], NULL, 0);
	ev.depth = atoi(f[6]);
	ev.calltime = strtoull(f[7], NULL, 10);
	ev.rettime = strtoull(f[8], NULL, 10);
	snprintf(ev.sym, sizeof(ev.sym), "%s", f[9]);
	snprintf(ev.parent_sym, sizeof(ev.parent_sym), "%s", f[10]);
	snprintf(ev.info, sizeof(ev.info), "%s", f[11]);
	ev.parent_ip = f[10][0] ? 1 : 0;
	tui_model_take(m, &ev);
	m->events_total++;
	return 0;
}

int tui_model_feed(struct tui_model *m, const char *path)
{
	FILE *f = fopen(path, "re");
	char line[1024];
	int lineno = 0;

	if (!f) {
		fprintf(stderr, "ftguard-tui: --feed %s: %s\n", path, strerror(errno));
		return -1;
	}
	while (fgets(line, sizeof(line), f)) {
		lineno++;
		line[strcspn(line, "\n")] = '\0';
		if (!line[0] || line[0] == '#')
			continue;
		if (feed_line(m, line) < 0) {
			fprintf(stderr, "ftguard-tui: --feed %s:%d: not TS|CPU|PID|COMM|SYSTEM:NAME|IP|DEPTH|CALLTIME|RETTIME|SYM|PARENT|INFO\n",
				path, lineno);
			fclose(f);
			return -1;
		}
	}
	fclose(f);
	return 0;
}

long tui_model_pump(struct tui_model *m)
{
	uint64_t before = m->events_total;
	struct ftg_trace_counters c;
	size_t count_before;
	uint64_t over_before;
	int ret;

	if (!m->live)
		return 0;
	count_before = ftg_event_ring_count(m->ring);
	over_before = ftg_event_ring_overwritten(m->ring);
	ret = ftg_live_pump(m->live, 0, NULL, take_cb, m);
	m->more = ret > 0 && ftg_live_more(m->live);
	if (ret < 0) {
		live_error(m);
		return -1;
	}
	m->events_total += ftg_event_ring_count(m->ring) - count_before +
			   ftg_event_ring_overwritten(m->ring) - over_before;
	if (ftg_live_counters(m->live, &c) == 0) {
		m->lost = c.lost;
		m->hidden = c.hidden;
	}
	return (long)(m->events_total - before);
}

int tui_model_fds(const struct tui_model *m, int *fds, int max)
{
	return m->live ? ftg_live_fds(m->live, fds, max) : 0;
}

/* events/s over the last refresh period. */
void tui_model_rate(struct tui_model *m, uint64_t now_ms)
{
	if (m->rate_ms && now_ms > m->rate_ms)
		m->events_per_s = (double)(m->events_total - m->rate_events) * 1000.0 /
				  (double)(now_ms - m->rate_ms);
	m->rate_ms = now_ms;
	m->rate_events = m->events_total;
}

void tui_model_describe(const struct tui_model *m, uint64_t addr, char *buf, size_t len)
{
	char raw[512];

	if (!m->map) {
		snprintf(buf, len, "no address map (%s)", m->map_error);
		return;
	}
	ftg_map_describe(m->map, addr, raw, sizeof(raw));
	tui_safe(buf, len, raw);
}

const struct ftg_finding *tui_model_finding(const struct tui_model *m, uint64_t addr)
{
	size_t i;

	for (i = 0; m->verdict && i < ftg_verdict_count(m->verdict); i++) {
		const struct ftg_finding *f = ftg_verdict_get(m->verdict, i);

		if (f->addr == addr)
			return f;
	}
	return NULL;
}

/*
 * Read when the details pane first asks after a refresh, not on every
 * refresh: enabled_functions is a file as long as the kernel's armed
 * functions, and only the pane shows it.
 */
void tui_model_users(struct tui_model *m, const struct ftg_site *s, char *buf, size_t len)
{
	char raw[1024];

	if (!m->users_read || m->users_generation != m->generation) {
		ftg_users_free(m->users);
		m->users = ftg_users_read(m->root);
		m->users_generation = m->generation;
		m->users_read = true;
	}
	if (!m->users) {
		snprintf(buf, len, "?");
		return;
	}
	ftg_users_describe(m->users, s->name,
			   strcmp(s->owner, "vmlinux") ? s->owner : NULL,
			   s->state == FTG_SITE_ARMED, raw, sizeof(raw));
	tui_safe(buf, len, raw);
}

const struct ftg_check_line *tui_model_check_line(const struct tui_model *m,
						  uint64_t addr)
{
	size_t i;

	for (i = 0; m->check && i < ftg_check_report_count(m->check); i++) {
		const struct ftg_check_line *l = ftg_check_report_get(m->check, i);

		if (l->addr == addr)
			return l;
	}
	return NULL;
}
