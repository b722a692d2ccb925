// SPDX-License-Identifier: GPL-2.0
/*
 * Adding kernel functions from the TUI: `+` (or `:add`) takes globs as
 * 'ftguard check -l' does (GLOB, MODULE:GLOB, and trace-cmd's
 * GLOB:mod:MODULE, in the library's words: ftg_arm_request_add_words()),
 * and libftguard's admission offers them to ftguard.ko (which admits a
 * function only with proof that it is an ftrace site); what was admitted
 * is checked and listed on the Sites screen.
 *
 * A glob such as '*' is tens of thousands of functions: the admission
 * offers a part per loop turn, with progress on the status line, so keys
 * (Esc cancels) and signals are served in between.
 */
#include <stdlib.h>
#include <string.h>

#include "ui/tui.h"

#define ADMIT_CHUNK		256	/* candidates offered per loop turn */
#define REASONS_MAX		20	/* refused ones asked again for the reason */

static void admit_reset(struct tui_admit *a)
{
	ftg_admission_free(a->adm);
	ftg_arm_request_free(a->req);
	memset(a, 0, sizeof(*a));
}

void tui_admit_free(struct tui *tui)
{
	admit_reset(&tui->admit);
}

/* Shows what was asked for on the Sites screen: one pattern, as the filter. */
static void show_added(struct tui *tui)
{
	const struct ftg_arm_request *req = tui->admit.req;

	if (ftg_arm_request_count(req, FTG_ARM_FUNCTIONS) != 1 ||
	    ftg_arm_request_count(req, FTG_ARM_MODULE))
		return;
	tui_sites_ops.filter(tui, ftg_arm_request_pattern(req, FTG_ARM_FUNCTIONS, 0));
	tui_screen_show(tui, &tui_sites_ops);
}

/*
 * The admitted ones are checked (the module reads their bytes); the
 * refused ones are listed with the module's reason, for the first few.
 */
static void admit_finish(struct tui *tui, bool cancelled)
{
	struct tui_admit *a = &tui->admit;
	const struct ftg_candidates *refused = ftg_admission_refused(a->adm);
	size_t i, nadmitted = 0, nref = ftg_candidates_count(refused);
	const uint64_t *addrs = ftg_admission_sites(a->adm, &nadmitted);
	char name[FTG_SYM_LEN], why[FTG_TEXT_LEN];

	tui_model_refresh(&tui->m);
	if (nadmitted)
		tui_action_check(tui, addrs, nadmitted);
	show_added(tui);
	if (nref) {
		tui_dialog_open(tui, true, "Functions refused by ftguard.ko");
		tui_dialog_add(tui, "%zu added, %zu refused%s:", nadmitted, nref,
			       cancelled ? " (cancelled)" : "");
		for (i = 0; i < nref; i++) {
			const struct ftg_candidate *c = ftg_candidates_get(refused, i);
			const char *reason;

			if (i == REASONS_MAX) {
				tui_dialog_add(tui, "... and %zu more", nref - i);
				break;
			}
			reason = ftg_admission_reason(a->adm, i);
			tui_safe(why, sizeof(why), reason ? reason : ftg_error_last());
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
	char why[TUI_MSG_MAX];

	if (a->active) {
		tui_message(tui, true, "already adding (Esc cancels)");
		return -1;
	}
	a->req = ftg_arm_request_new();
	if (!a->req)
		goto fail;
	if (ftg_arm_request_add_words(a->req, text, FTG_ARM_FUNCTIONS,
				      FTG_ARM_FUNCTIONS) < 0)
		goto fail;
	if (!ftg_arm_request_count(a->req, FTG_ARM_FUNCTIONS)) {
		tui_message(tui, true, "add: give GLOB, MODULE:GLOB or GLOB:mod:MODULE");
		admit_reset(a);
		return -1;
	}
	if (!tui_session(tui)) {
		admit_reset(a);
		return -1;
	}
	/* every function the kernel can trace, the module's sites or not:
	 * each is offered, and a refusal is shown with its reason */
	a->adm = ftg_session_admission(tui->m.sess, a->req);
	if (!a->adm)
		goto fail;
	a->active = true;
	tui_message(tui, false, "adding %zu functions (Esc cancels)",
		    ftg_admission_total(a->adm));
	return 0;
fail:
	tui_message(tui, true, "add: %s", tui_safe(why, sizeof(why), ftg_error_last()));
	admit_reset(a);
	return -1;
}

/**
 * tui_admit_step - offer the next part to the module
 * @tui: the TUI
 *
 * Return: TUI_DIRTY_* flags.
 */
int tui_admit_step(struct tui *tui)
{
	struct tui_admit *a = &tui->admit;
	int more;

	if (!a->active)
		return 0;
	more = ftg_admission_step(a->adm, ADMIT_CHUNK);
	if (more < 0) {
		char why[FTG_TEXT_LEN];

		tui_safe(why, sizeof(why), ftg_error_last());
		admit_reset(a);
		tui_message(tui, true, "add: %s", why);
		return TUI_DIRTY_ALL;
	}
	if (!more) {
		admit_finish(tui, false);
		return TUI_DIRTY_ALL;
	}
	tui_message(tui, false, "adding: %zu of %zu offered, %zu refused (Esc cancels)",
		    ftg_admission_offered(a->adm), ftg_admission_total(a->adm),
		    ftg_candidates_count(ftg_admission_refused(a->adm)));
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
