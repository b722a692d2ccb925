// SPDX-License-Identifier: GPL-2.0
/*
 * Adding kernel functions from the TUI: `+` (or `:add`) takes globs as
 * 'ftguard check -l' does (GLOB, MODULE:GLOB, and trace-cmd's
 * GLOB:mod:MODULE), resolves them against available_filter_functions and
 * kallsyms, offers the vmlinux ones to ftguard.ko (which admits a function
 * only with proof that it is an ftrace site), checks what was admitted and
 * lists it on the Sites screen.
 *
 * A glob such as '*' is tens of thousands of functions: they are offered a
 * chunk per loop turn, with progress on the status line, so keys (Esc
 * cancels) and signals are served in between.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "ui/tui.h"

#define ADMIT_CHUNK		256	/* candidates offered per loop turn */
#define REASONS_MAX		20	/* refused ones asked again for the reason */

static void admit_reset(struct tui_admit *a)
{
	ftg_candidates_free(a->cand);
	ftg_candidates_free(a->refused);
	memset(a, 0, sizeof(*a));
}

void tui_admit_free(struct tui *tui)
{
	admit_reset(&tui->admit);
}

/* Shows what was asked for on the Sites screen: one pattern, as the filter. */
static void show_added(struct tui *tui)
{
	struct tui_admit *a = &tui->admit;

	if (a->npatterns != 1)
		return;
	tui_sites_ops.filter(tui, a->first);
	tui_screen_show(tui, &tui_sites_ops);
}

/*
 * The admitted ones are checked (the module reads their bytes); the
 * refused ones are listed with the module's reason, asked again one by
 * one for the first few (a batch only says the last one).
 */
static void admit_finish(struct tui *tui, bool cancelled)
{
	struct tui_admit *a = &tui->admit;
	size_t i, j = 0, n = a->next, nref = ftg_candidates_count(a->refused);
	size_t nadmitted = 0;
	uint64_t *addrs = calloc(n ? n : 1, sizeof(*addrs));
	char name[FTG_SYM_LEN], why[FTG_TEXT_LEN];

	/* the first n were offered (a cancel stops short): those the module
	 * did not refuse, both lists in address order */
	for (i = 0; addrs && i < n; i++) {
		const struct ftg_candidate *c = ftg_candidates_get(a->cand, i);

		if (j < nref && ftg_candidates_get(a->refused, j)->addr == c->addr) {
			j++;
			continue;
		}
		addrs[nadmitted++] = c->addr;
	}
	tui_model_refresh(&tui->m);
	if (nadmitted)
		tui_action_check(tui, addrs, nadmitted);
	free(addrs);
	show_added(tui);
	if (nref) {
		tui_dialog_open(tui, true, "Functions refused by ftguard.ko");
		tui_dialog_add(tui, "%zu added, %zu refused%s:", nadmitted, nref,
			       cancelled ? " (cancelled)" : "");
		for (i = 0; i < nref; i++) {
			const struct ftg_candidate *c = ftg_candidates_get(a->refused, i);

			if (i == REASONS_MAX) {
				tui_dialog_add(tui, "... and %zu more", nref - i);
				break;
			}
			if (ftg_session_admit_one(tui->m.sess, c) < 0)
				tui_safe(why, sizeof(why), ftg_error_last());
			else
				snprintf(why, sizeof(why), "admitted when asked again");
			tui_dialog_add(tui, "%s 0x%lx: %s", tui_name(name, sizeof(name), c->name),
				       (unsigned long)c->addr, why);
		}
	}
	if (!tui->msg_bad || !nadmitted)
		tui_message(tui, nref && !nadmitted, "%s %zu function%s%s, %zu refused",
			    cancelled ? "cancelled: added" : "added", nadmitted,
			    nadmitted == 1 ? "" : "s", nadmitted ? " (checked)" : "", nref);
	admit_reset(a);
}

/**
 * tui_admit_start - resolve patterns and start offering them
 * @tui: the TUI
 * @text: space-separated patterns
 *
 * Return: 0 when offering started, -1 with the status line saying why.
 */
int tui_admit_start(struct tui *tui, const char *text)
{
	struct tui_admit *a = &tui->admit;
	struct ftg_selection *sel;
	char buf[TUI_INPUT_MAX], *word, *save;

	if (a->active) {
		tui_message(tui, true, "already adding (Esc cancels)");
		return -1;
	}
	if (!tui_session(tui))
		return -1;
	snprintf(buf, sizeof(buf), "%s", text);
	sel = ftg_selection_new();
	if (!sel) {
		tui_message(tui, true, "add: out of memory");
		return -1;
	}
	for (word = strtok_r(buf, " \t", &save); word; word = strtok_r(NULL, " \t", &save)) {
		if (ftg_selection_add(sel, word) < 0) {
			tui_message(tui, true, "add %s: %s", word, ftg_error_last());
			goto fail;
		}
		if (!a->npatterns++)
			snprintf(a->first, sizeof(a->first), "%s", word);
	}
	if (!a->npatterns) {
		tui_message(tui, true, "add: give GLOB, MODULE:GLOB or GLOB:mod:MODULE");
		goto fail;
	}
	/* every function the kernel can trace, the module's sites or not:
	 * each is offered, and a refusal is shown with its reason */
	a->cand = ftg_session_resolve(tui->m.sess, sel, FTG_SESSION_FROM_LISTS);
	if (!a->cand) {
		char why[TUI_MSG_MAX];

		tui_message(tui, true, "add: %s", tui_safe(why, sizeof(why), ftg_error_last()));
		goto fail;
	}
	a->refused = ftg_candidates_new();
	if (!a->refused) {
		tui_message(tui, true, "add: out of memory");
		goto fail;
	}
	ftg_selection_free(sel);
	a->active = true;
	tui_message(tui, false, "adding %zu functions (Esc cancels)",
		    ftg_candidates_count(a->cand));
	return 0;
fail:
	ftg_selection_free(sel);
	admit_reset(a);
	return -1;
}

/**
 * tui_admit_step - offer the next chunk to the module
 * @tui: the TUI
 *
 * Return: TUI_DIRTY_* flags.
 */
int tui_admit_step(struct tui *tui)
{
	struct tui_admit *a = &tui->admit;
	size_t n = ftg_candidates_count(a->cand);

	if (!a->active)
		return 0;
	if (ftg_session_admit_some(tui->m.sess, a->cand, a->next, ADMIT_CHUNK,
				   a->refused) < 0) {
		char why[FTG_TEXT_LEN];

		tui_safe(why, sizeof(why), ftg_error_last());
		admit_reset(a);
		tui_message(tui, true, "add: %s", why);
		return TUI_DIRTY_ALL;
	}
	a->next = a->next + ADMIT_CHUNK < n ? a->next + ADMIT_CHUNK : n;
	if (a->next >= n) {
		admit_finish(tui, false);
		return TUI_DIRTY_ALL;
	}
	tui_message(tui, false, "adding: %zu of %zu offered, %zu refused (Esc cancels)",
		    a->next, n, ftg_candidates_count(a->refused));
	return TUI_DIRTY_STATUS;
}

/* Esc while adding: keep what was admitted, offer no more. */
int tui_admit_cancel(struct tui *tui)
{
	if (!tui->admit.active)
		return 0;
	admit_finish(tui, true);
	return TUI_DIRTY_ALL;
}
