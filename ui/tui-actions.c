// SPDX-License-Identifier: GPL-2.0
/*
 * What the user asks of ftguard.ko from the TUI (check, arm, disarm,
 * write the capture), through the model's control descriptor; each says
 * how it went on the status line or in a dialog.
 */
#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "ui/tui.h"

struct ftg_session *tui_session(struct tui *tui)
{
	struct tui_model *m = &tui->m;

	if (m->snapshot) {
		tui_message(tui, true, "read-only: %s is a saved snapshot", m->root_dir);
		return NULL;
	}
	if (!m->sess) {
		m->sess = ftg_session_open(m->root);
		if (!m->sess)
			tui_message(tui, true, "%s", ftg_error_last());
	}
	return m->sess;
}

/* The status line for a session call that failed: "@what: why". */
static void session_failed(struct tui *tui, const char *what)
{
	const struct ftg_candidates *refused;
	char text[FTG_TEXT_LEN];

	tui_safe(text, sizeof(text), ftg_error_last());
	switch (ftg_session_step(tui->m.sess)) {
	case FTG_SESSION_STEP_ADMIT:
		tui_message(tui, true, "%s: offering kernel functions: %s", what, text);
		break;
	case FTG_SESSION_STEP_REFUSED:
		refused = ftg_session_refused(tui->m.sess, NULL);
		tui_message(tui, true, "%s: ftguard.ko refused to admit %s", what,
			    tui_name(text, sizeof(text), ftg_candidates_get(refused, 0)->name));
		break;
	case FTG_SESSION_STEP_SELECT:
	case FTG_SESSION_STEP_SELECT_ALL:
	case FTG_SESSION_STEP_GRAPH:
		tui_message(tui, true, "%s: select: %s", what, text);
		break;
	default:
		tui_message(tui, true, "%s: %s", what, text);
		break;
	}
}

/* The selection of this descriptor becomes exactly @addrs. */
static int select_exactly(struct tui *tui, const uint64_t *addrs, size_t n)
{
	if (ftg_session_clear(tui->m.sess) < 0 ||
	    ftg_session_select_addrs(tui->m.sess, addrs, n) < 0) {
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

	if (!tui_session(tui) || select_exactly(tui, addrs, n) < 0)
		return -1;
	v = ftg_check_run(ftg_session_control(m->sess), m->map);
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
 * Says how ftg_session_arm() went: armed (@what and what was checked), or
 * refused: the check's or the module's findings, each with the map's
 * explanation, in a dialog, and the verdict kept for the Sites screen.
 */
static int arm_outcome(struct tui *tui, struct ftg_arm_outcome *out, const char *what,
		       const char *title)
{
	struct tui_model *m = &tui->m;
	enum ftg_arm_stage stage = ftg_arm_outcome_stage(out);
	struct ftg_verdict *v = ftg_arm_outcome_take_verdict(out);
	char why[FTG_TEXT_LEN], dialog[64];
	const char *reason;

	if (stage == FTG_ARM_STAGE_ARMED) {
		m->tui_armed = true;
		ftg_verdict_free(m->verdict);
		m->verdict = v;		/* the check's: every site consistent */
		tui_message(tui, false, "%s", what);
		return 0;
	}
	if (stage == FTG_ARM_STAGE_SELECT) {
		ftg_verdict_free(v);
		session_failed(tui, title);
		return -1;
	}
	ftg_arm_outcome_error(out, &reason);
	if (v && !ftg_verdict_ok(v)) {
		snprintf(dialog, sizeof(dialog), "%c%s refused: check failed",
			 title[0] - 'a' + 'A', title + 1);
		findings_dialog(tui, dialog, v);
		tui_message(tui, true, "%s refused: %lu inconsistent site%s", title,
			    (unsigned long)ftg_verdict_n_bad(v),
			    ftg_verdict_n_bad(v) == 1 ? "" : "s");
		ftg_verdict_free(m->verdict);
		m->verdict = v;
		return -1;
	}
	ftg_verdict_free(v);
	tui_safe(why, sizeof(why), reason);
	snprintf(dialog, sizeof(dialog), "%c%s refused", title[0] - 'a' + 'A', title + 1);
	tui_dialog_open(tui, true, dialog);
	tui_dialog_add(tui, "%s", why);
	tui_message(tui, true, "%s refused: %s", title, why);
	return -1;
}

/* Arms @req on the TUI's session, judged with the model's map. */
static int arm_request(struct tui *tui, const struct ftg_arm_request *req,
		       struct ftg_arm_outcome **out)
{
	struct tui_model *m = &tui->m;

	ftg_session_set_map(m->sess, m->map);
	ftg_session_arm(m->sess, req, out);
	if (!*out) {
		tui_message(tui, true, "arm: %s", ftg_error_last());
		return -1;
	}
	return 0;
}

/*
 * Arming the marked sites (@flags: FTG_ARM_GRAPH records returns too), as
 * `ftguard start` arms: checked by ftguard.ko and judged by the address
 * map first, refused on either's word.
 */
int tui_action_arm(struct tui *tui, const uint64_t *addrs, size_t n,
		   unsigned int flags)
{
	struct tui_model *m = &tui->m;
	struct ftg_arm_request *req;
	struct ftg_arm_outcome *out = NULL;
	char what[64];
	int ret = -1;

	if (!n) {
		tui_message(tui, true, "nothing to arm: mark sites with Space");
		return -1;
	}
	if (!tui_session(tui))
		return -1;
	req = ftg_arm_request_new();
	if (!req || ftg_arm_request_add_sites(req, addrs, n) < 0) {
		tui_message(tui, true, "arm: %s", ftg_error_last());
		ftg_arm_request_free(req);
		return -1;
	}
	if (flags & FTG_ARM_GRAPH)
		ftg_arm_request_set_tracer(req, FTG_TRACER_FUNCTION_GRAPH);
	ftg_arm_request_set_flags(req, flags);
	if (arm_request(tui, req, &out) == 0) {
		snprintf(what, sizeof(what), "armed %zu site%s%s", n, n == 1 ? "" : "s",
			 flags & FTG_ARM_GRAPH ? " with returns" : "");
		ret = arm_outcome(tui, out, what, "arm");
	}
	ftg_arm_outcome_free(out);
	ftg_arm_request_free(req);
	tui_model_refresh(m);
	return ret;
}

int tui_action_disarm(struct tui *tui)
{
	if (!tui_session(tui))
		return -1;
	if (ftg_control_disarm(ftg_session_control(tui->m.sess)) < 0) {
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
	tui_message(tui, true, "write: %s", ftg_error_last());
	return -1;
}

/*
 * A call tree, as `ftguard start -g ROOT` arms one (ftg_session_arm()
 * with roots: a graph arm, forced past max_arm since the tree is what was
 * asked for). @text is "ROOT [CALLEE...] [!GLOB...] [depth=N]", the
 * library's words (ftg_arm_request_add_words()); without callees, every
 * site ftguard.ko knows is one (trace-cmd's -g alone follows every
 * function). Each pattern resolves over the known sites (module sites,
 * and kernel functions added with +), or when it names none of them over
 * every function the kernel can trace, admitted by the module on the
 * way, so that any function is a root or a callee without a + first
 * (FTG_SESSION_KNOWN_FIRST). The new sites show on the Sites screen
 * after the model's refresh.
 */
int tui_action_arm_tree(struct tui *tui, const char *text)
{
	struct tui_model *m = &tui->m;
	struct ftg_arm_request *req = NULL;
	struct ftg_arm_outcome *out = NULL;
	char what[FTG_TEXT_LEN];
	int ret = -1;

	req = ftg_arm_request_new();
	if (!req) {
		tui_message(tui, true, "call tree: %s", ftg_error_last());
		return -1;
	}
	if (ftg_arm_request_add_words(req, text, FTG_ARM_ROOTS, FTG_ARM_FUNCTIONS) < 0) {
		tui_message(tui, true, "call tree: %s", ftg_error_last());
		goto out;
	}
	if (!ftg_arm_request_count(req, FTG_ARM_ROOTS)) {
		tui_message(tui, true, "call tree: name its root (ROOT [CALLEE...] [depth=N])");
		goto out;
	}
	if (ftg_arm_request_fault(req) != FTG_ARM_REQUEST_OK) {
		tui_message(tui, true, "call tree: %s", ftg_error_last());
		goto out;
	}
	if (!tui_session(tui))
		goto out;
	if (!m->sites) {
		tui_message(tui, true, "call tree: no sites table to choose from");
		goto out;
	}
	ftg_arm_request_set_resolve(req, FTG_SESSION_KNOWN_FIRST);
	if (arm_request(tui, req, &out) < 0)
		goto out;
	snprintf(what, sizeof(what), "call tree of %s%s: checked %lu sites, armed %lu",
		 ftg_arm_request_pattern(req, FTG_ARM_ROOTS, 0),
		 ftg_arm_request_count(req, FTG_ARM_ROOTS) > 1 ? ", ..." : "",
		 (unsigned long)ftg_arm_outcome_checked(out),
		 (unsigned long)ftg_arm_outcome_selected(out));
	ret = arm_outcome(tui, out, what, "call tree");
out:
	ftg_arm_outcome_free(out);
	ftg_arm_request_free(req);
	tui_model_refresh(m);
	return ret;
}
