// SPDX-License-Identifier: GPL-2.0
/*
 * The TUI's data model: ftguard.ko's tables, the address map and the live
 * events, all through libftguard, and the actions (check, arm, disarm,
 * write) through the TUI's own control descriptor. That descriptor owns
 * any arm the TUI makes (doc/interface.md), so however the TUI ends,
 * closing it disarms.
 */
#include <errno.h>
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
	if (!m->ring)
		return -1;
	tui_model_refresh(m);
	tui_model_reload_map(m);
	return 0;
}

void tui_model_close(struct tui_model *m)
{
	if (m->ctl && m->tui_armed)
		ftg_control_disarm(m->ctl);
	ftg_control_close(m->ctl);
	m->ctl = NULL;
	ftg_live_free(m->live);
	ftg_event_ring_free(m->ring);
	ftg_kallsyms_free(m->ks);
	ftg_ftrace_funcs_free(m->avail);
	ftg_verdict_free(m->verdict);
	ftg_check_report_free(m->check);
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
		 *ftg_error_last() ? ftg_error_last() : strerror(errno));
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
	m->live = ftg_live_open(ftg_root_tracefs(m->root), NULL,
				ftg_root_proc(m->root), 0);
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
	const char *debugfs = ftg_root_debugfs(m->root);
	struct ftg_sites *sites;
	struct ftg_kmodules *mods;
	struct ftg_check_report *rep;
	uint64_t sig;

	m->have_status = ftg_status_read(debugfs, &m->status) == 0;
	if (!m->have_status) {
		tui_safe(m->status_error, sizeof(m->status_error),
			 *ftg_error_last() ? ftg_error_last() : strerror(errno));
		/* The module went away: its instance and our control with it. */
		ftg_live_free(m->live);
		m->live = NULL;
		ftg_control_close(m->ctl);
		m->ctl = NULL;
		m->tui_armed = false;
	}
	sites = m->have_status ? ftg_sites_read(debugfs) : NULL;
	ftg_sites_free(m->sites);
	m->sites = sites;
	mods = m->have_status ? ftg_kmodules_read(debugfs) : NULL;
	ftg_kmodules_free(m->kmodules);
	m->kmodules = mods;
	rep = m->have_status ? ftg_check_report_read(debugfs) : NULL;
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
			 *ftg_error_last() ? ftg_error_last() : strerror(errno));
		tui_safe(m->map_error, sizeof(m->map_error), raw);
		return;		/* keep the previous map, if any */
	}
	m->map_error[0] = '\0';
	ftg_map_free(m->map);
	m->map = map;
	m->generation++;
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
	ret = ftg_live_pump(m->live, 0, NULL, ftg_event_ring_cb, m->ring);
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

struct ftg_control *tui_model_control(struct tui *tui)
{
	struct tui_model *m = &tui->m;

	if (m->snapshot) {
		tui_message(tui, true, "read-only: %s is a saved snapshot", m->root_dir);
		return NULL;
	}
	if (!m->ctl) {
		m->ctl = ftg_control_open(ftg_root_debugfs(m->root));
		if (!m->ctl)
			tui_message(tui, true, "%s", ftg_error_last());
	}
	return m->ctl;
}

/* The selection of this descriptor becomes exactly @addrs. */
static int select_exactly(struct tui *tui, const uint64_t *addrs, size_t n)
{
	if (ftg_control_clear(tui->m.ctl) < 0 ||
	    (n && ftg_control_select_addrs(tui->m.ctl, addrs, n) < 0)) {
		tui_message(tui, true, "select: %s", ftg_error_last());
		return -1;
	}
	return 0;
}

/* The dialog listing the sites a check found wrong, with the reasons. */
static void findings_dialog(struct tui *tui, const char *title,
			    const struct ftg_verdict *v)
{
	char name[FTG_SYM_LEN], owner[64];
	size_t i;

	tui_dialog_open(tui, true, title);
	tui_dialog_add(tui, "%lu ok, %lu inconsistent:",
		       (unsigned long)ftg_verdict_n_ok(v),
		       (unsigned long)ftg_verdict_n_bad(v));
	for (i = 0; i < ftg_verdict_count(v); i++) {
		const struct ftg_finding *f = ftg_verdict_get(v, i);

		if (f->module_verdict == FTG_VERDICT_OK && f->agree)
			continue;
		tui_dialog_add(tui, "%-8s %s [%s] 0x%lx",
			       ftg_verdict_kind_name(f->agree ? f->module_verdict :
						     f->map_verdict == FTG_VERDICT_OK ?
						     f->module_verdict : f->map_verdict),
			       tui_name(name, sizeof(name), f->name),
			       tui_name(owner, sizeof(owner), f->owner),
			       (unsigned long)f->addr);
		if (f->reason)
			tui_dialog_add(tui, "         %s", f->reason);
	}
}

int tui_action_check(struct tui *tui, const uint64_t *addrs, size_t n)
{
	struct tui_model *m = &tui->m;
	struct ftg_verdict *v;

	if (!tui_model_control(tui) || select_exactly(tui, addrs, n) < 0)
		return -1;
	v = ftg_check_run(m->ctl, m->map);
	if (!v) {
		tui_message(tui, true, "check: %s", ftg_error_last());
		return -1;
	}
	ftg_verdict_free(m->verdict);
	m->verdict = v;
	tui_model_refresh(m);
	if (ftg_verdict_ok(v)) {
		tui_message(tui, false, "check ok: %lu sites in %lu ms",
			    (unsigned long)ftg_verdict_n_ok(v),
			    (unsigned long)ftg_verdict_ms(v));
		return 0;
	}
	findings_dialog(tui, "Check failed", v);
	tui_message(tui, true, "check: %lu inconsistent", (unsigned long)ftg_verdict_n_bad(v));
	return -1;
}

/*
 * Arming: the module checks the selection again and refuses (ESTALE) when
 * any site is inconsistent; the dialog then lists them with the map's
 * explanation of each.
 */
int tui_action_arm(struct tui *tui, const uint64_t *addrs, size_t n)
{
	struct tui_model *m = &tui->m;
	struct ftg_check_report *rep = NULL;
	int ret, err;

	if (!n) {
		tui_message(tui, true, "nothing to arm: mark sites with Space");
		return -1;
	}
	if (!tui_model_control(tui) || select_exactly(tui, addrs, n) < 0)
		return -1;
	ret = ftg_control_arm(m->ctl, 0, &rep);
	err = errno;
	if (ret == 0) {
		m->tui_armed = true;
		tui_message(tui, false, "armed %zu site%s", n, n == 1 ? "" : "s");
	} else if (err == ESTALE && rep) {
		struct ftg_verdict *v = ftg_verdict_new(rep, m->map);

		if (v) {
			findings_dialog(tui, "Arm refused: check failed", v);
			ftg_verdict_free(m->verdict);
			m->verdict = v;
		}
		tui_message(tui, true, "arm refused: %lu inconsistent site%s",
			    (unsigned long)ftg_check_report_n_bad(rep),
			    ftg_check_report_n_bad(rep) == 1 ? "" : "s");
	} else {
		char why[FTG_TEXT_LEN];

		tui_safe(why, sizeof(why), ftg_error_last());
		tui_dialog_open(tui, true, "Arm refused");
		tui_dialog_add(tui, "%s", why);
		tui_message(tui, true, "arm refused: %s", why);
	}
	ftg_check_report_free(rep);
	tui_model_refresh(m);
	return ret;
}

int tui_action_disarm(struct tui *tui)
{
	if (!tui_model_control(tui))
		return -1;
	if (ftg_control_disarm(tui->m.ctl) < 0) {
		tui_message(tui, true, "disarm: %s", ftg_error_last());
		return -1;
	}
	tui->m.tui_armed = false;
	tui_model_refresh(&tui->m);
	tui_message(tui, false, "disarmed");
	return 0;
}

/* The captured events (the ring) to a trace.dat that trace-cmd reads. */
int tui_action_write(struct tui *tui, const char *path)
{
	struct tui_model *m = &tui->m;
	struct ftg_trace_writer *w;
	size_t i, n = ftg_event_ring_count(m->ring);
	int cpu;

	if (!m->live) {
		tui_message(tui, true, "no live capture to write%s%s",
			    m->live_error[0] ? ": " : "", m->live_error);
		return -1;
	}
	w = ftg_trace_writer_create(path, ftg_live_formats(m->live), ftg_live_ncpus(m->live));
	if (!w)
		goto fail;
	for (i = 0; i < n; i++)
		if (ftg_trace_writer_add_event(w, ftg_event_ring_get(m->ring, i)) < 0) {
			ftg_trace_writer_free(w);
			goto fail;
		}
	for (cpu = 0; cpu < ftg_live_ncpus(m->live); cpu++) {
		char *stats = ftg_live_cpu_stats(m->live, cpu);

		if (stats)
			ftg_trace_writer_set_cpu_stats(w, cpu, stats);
		free(stats);
	}
	if (ftg_trace_writer_close(w) < 0)
		goto fail;
	tui_message(tui, false, "wrote %zu events to %s", n, path);
	return 0;
fail:
	tui_message(tui, true, "write %s: %s", path,
		    *ftg_error_last() ? ftg_error_last() : strerror(errno));
	return -1;
}
