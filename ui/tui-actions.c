// SPDX-License-Identifier: GPL-2.0
/*
 * What the user asks of ftguard.ko from the TUI (check, arm, disarm,
 * write the capture), through the model's control descriptor; each says
 * how it went on the status line or in a dialog.
 */
#include <errno.h>
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
 * Arming (@flags: FTG_ARM_GRAPH records returns too): the module checks
 * the selection again and refuses (ESTALE) when any site is inconsistent;
 * the dialog then lists them with the map's explanation of each.
 */
int tui_action_arm(struct tui *tui, const uint64_t *addrs, size_t n,
		   unsigned int flags)
{
	struct tui_model *m = &tui->m;
	struct ftg_check_report *rep = NULL;
	int ret, err;

	if (!n) {
		tui_message(tui, true, "nothing to arm: mark sites with Space");
		return -1;
	}
	if (!tui_session(tui) || select_exactly(tui, addrs, n) < 0)
		return -1;
	ret = ftg_control_arm(ftg_session_control(m->sess), flags, &rep);
	err = errno;
	if (ret == 0) {
		m->tui_armed = true;
		tui_message(tui, false, "armed %zu site%s%s", n, n == 1 ? "" : "s",
			    flags & FTG_ARM_GRAPH ? " with returns" : "");
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

/* A selection of one pattern; NULL after the status line says why. */
static struct ftg_selection *one_pattern(struct tui *tui, const char *pattern)
{
	struct ftg_selection *sel = ftg_selection_new();

	if (!sel || ftg_selection_add(sel, pattern) < 0) {
		tui_message(tui, true, "call tree: %s", ftg_error_last());
		ftg_selection_free(sel);
		return NULL;
	}
	return sel;
}

#define TREE_PATTERNS_MAX 16

/*
 * A call tree, as `ftguard start -g ROOT` arms one: the roots and the
 * callees selected, the roots named to the module, everything checked,
 * then one graph arm, forced past max_arm since the tree is what was
 * asked for. @text is "ROOT [CALLEE...] [depth=N]"; without callees,
 * every site ftguard.ko knows is one (trace-cmd's -g alone follows every
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
	char buf[TUI_INPUT_MAX], *tok, *save = NULL;
	char *callees[TREE_PATTERNS_MAX], *root = NULL, every[] = "*";
	struct ftg_selection *sel = NULL;
	struct ftg_check_report *rep = NULL;
	struct ftg_verdict *v = NULL;
	unsigned long depth = 0;
	uint64_t nchecked;
	int ncallees = 0, ret = -1, i;

	snprintf(buf, sizeof(buf), "%s", text);
	for (tok = strtok_r(buf, " ", &save); tok; tok = strtok_r(NULL, " ", &save)) {
		char *end;

		if (!strncmp(tok, "depth=", 6)) {
			depth = strtoul(tok + 6, &end, 10);
			if (*end || !tok[6] || depth > 1000) {
				tui_message(tui, true, "call tree: %s: depth is 1 to 1000 (0: all)", tok);
				return -1;
			}
		} else if (!root) {
			root = tok;
		} else if (ncallees < TREE_PATTERNS_MAX) {
			callees[ncallees++] = tok;
		}
	}
	if (!root) {
		tui_message(tui, true, "call tree: name its root (ROOT [CALLEE...] [depth=N])");
		return -1;
	}
	if (!ncallees)
		callees[ncallees++] = every;
	if (!tui_session(tui))
		return -1;
	if (!m->sites) {
		tui_message(tui, true, "call tree: no sites table to choose from");
		return -1;
	}
	sel = one_pattern(tui, root);
	if (!sel)
		goto out;
	if (ftg_session_clear(m->sess) < 0 ||
	    ftg_session_graph_roots(m->sess, sel, (unsigned int)depth,
				    FTG_SESSION_KNOWN_FIRST) < 0)
		goto failed;
	for (i = 0; i < ncallees; i++) {
		ftg_selection_free(sel);
		sel = one_pattern(tui, callees[i]);
		if (!sel)
			goto out;
		if (ftg_session_select(m->sess, sel, FTG_SESSION_KNOWN_FIRST, NULL) < 0)
			goto failed;
	}
	/* the checker first, as start -g: it sees what the module cannot */
	v = ftg_check_run(ftg_session_control(m->sess), m->map);
	if (!v) {
		tui_message(tui, true, "call tree: check: %s", ftg_error_last());
		goto out;
	}
	if (!ftg_verdict_ok(v)) {
		findings_dialog(tui, "Call tree refused: check failed", v);
		tui_message(tui, true, "call tree refused: %lu inconsistent",
			    (unsigned long)ftg_verdict_n_bad(v));
		goto out;
	}
	nchecked = ftg_verdict_n_ok(v) + ftg_verdict_n_bad(v);
	if (ftg_control_arm(ftg_session_control(m->sess), FTG_ARM_GRAPH | FTG_ARM_FORCE,
			    &rep) < 0) {
		char why[FTG_TEXT_LEN];

		tui_safe(why, sizeof(why), ftg_error_last());
		tui_dialog_open(tui, true, "Call tree refused");
		tui_dialog_add(tui, "%s", why);
		tui_message(tui, true, "call tree refused: %s", why);
		goto out;
	}
	m->tui_armed = true;
	/* the module's own count of what it armed, when it sent its report */
	tui_message(tui, false, "call tree of %s: checked %lu sites, armed %lu%s",
		    root, (unsigned long)nchecked,
		    (unsigned long)(rep ? ftg_check_report_n_ok(rep) : nchecked),
		    depth ? " (max depth set)" : "");
	ret = 0;
	goto out;
failed:
	session_failed(tui, "call tree");
out:
	ftg_verdict_free(m->verdict);
	m->verdict = v;
	ftg_check_report_free(rep);
	ftg_selection_free(sel);
	tui_model_refresh(m);
	return ret;
}
