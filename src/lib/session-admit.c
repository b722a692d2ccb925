// SPDX-License-Identifier: LGPL-2.1
/*
 * An admission: the functions of a request offered to ftguard.ko a part
 * at a time, for a front end that serves its user between parts (the
 * TUI's +). The patterns resolve over every function the kernel can
 * trace; the module admits a vmlinux function only with proof that it is
 * an ftrace record, and a module's function is a site already. What is
 * admitted is checked like any selection (ftg_check_run(), or
 * ftg_session_arm() with the admitted sites).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "ftguard-local.h"

struct ftg_admission {
	struct ftg_session *sess;
	struct ftg_candidates *cand;	/* every function the patterns name */
	size_t next;			/* the first not offered yet */
	struct ftg_candidates *refused;	/* in address order, as offered */
	char **reasons;			/* the module's word on each refused
					 * one, asked again on demand */
	uint64_t *admitted;		/* built by ftg_admission_sites() */
	size_t nadmitted;
};

struct ftg_admission *ftg_session_admission(struct ftg_session *sess,
					    const struct ftg_arm_request *req)
{
	struct ftg_admission *adm;

	if (ftg_arm_request_fault(req) != FTG_ARM_REQUEST_OK)
		return NULL;
	if (ftg_arm_request_count(req, FTG_ARM_ROOTS) ||
	    (!ftg_arm_request_count(req, FTG_ARM_FUNCTIONS) &&
	     !ftg_arm_request_count(req, FTG_ARM_MODULE))) {
		ftgl_err(FTG_E_BAD_ARGUMENT, EINVAL,
			 "an admission takes functions or modules, and no root");
		return NULL;
	}
	adm = calloc(1, sizeof(*adm));
	if (!adm) {
		ftgl_err(FTG_E_SYSTEM, ENOMEM, "out of memory");
		return NULL;
	}
	adm->sess = sess;
	adm->refused = ftg_candidates_new();
	if (adm->refused)
		adm->cand = ftg_session_resolve(sess, ftgl_arm_request_sites(req),
						FTG_SESSION_FROM_LISTS);
	if (!adm->cand) {
		ftg_admission_free(adm);
		return NULL;
	}
	return adm;
}

int ftg_admission_step(struct ftg_admission *adm, size_t n)
{
	size_t total = ftg_candidates_count(adm->cand);

	ftg_error_clear();
	if (adm->next < total) {
		if (ftg_session_admit_some(adm->sess, adm->cand, adm->next, n,
					   adm->refused) < 0)
			return -1;
		adm->next = n < total - adm->next ? adm->next + n : total;
	}
	return adm->next < total;
}

size_t ftg_admission_total(const struct ftg_admission *adm)
{
	return ftg_candidates_count(adm->cand);
}

size_t ftg_admission_offered(const struct ftg_admission *adm)
{
	return adm->next;
}

const struct ftg_candidates *ftg_admission_refused(const struct ftg_admission *adm)
{
	return adm->refused;
}

/*
 * A batch's answer names only the last refusal, so the reason of each
 * is asked again with that one alone: an offer the module may now take
 * (its text came back), said as such.
 */
const char *ftg_admission_reason(struct ftg_admission *adm, size_t i)
{
	size_t n = ftg_candidates_count(adm->refused);
	char *why;

	ftg_error_clear();
	if (i >= n) {
		ftgl_err(FTG_E_BAD_ARGUMENT, EINVAL, "refusal %zu of %zu", i, n);
		return NULL;
	}
	if (!adm->reasons) {
		adm->reasons = calloc(n, sizeof(*adm->reasons));
		if (!adm->reasons) {
			ftgl_err(FTG_E_SYSTEM, ENOMEM, "out of memory");
			return NULL;
		}
	}
	if (adm->reasons[i])
		return adm->reasons[i];
	if (ftg_session_admit_one(adm->sess, ftg_candidates_get(adm->refused, i)) < 0)
		why = strdup(ftg_error_last());
	else
		why = strdup("admitted when asked again");
	if (!why) {
		ftgl_err(FTG_E_SYSTEM, ENOMEM, "out of memory");
		return NULL;
	}
	adm->reasons[i] = why;
	return why;
}

/* The offered ones the module did not refuse; both lists in address order. */
const uint64_t *ftg_admission_sites(struct ftg_admission *adm, size_t *n)
{
	size_t i, j = 0, nref = ftg_candidates_count(adm->refused);

	ftg_error_clear();
	*n = 0;
	free(adm->admitted);
	adm->nadmitted = 0;
	adm->admitted = calloc(adm->next ? adm->next : 1, sizeof(*adm->admitted));
	if (!adm->admitted) {
		ftgl_err(FTG_E_SYSTEM, ENOMEM, "out of memory");
		return NULL;
	}
	for (i = 0; i < adm->next; i++) {
		const struct ftg_candidate *c = ftg_candidates_get(adm->cand, i);

		if (j < nref && ftg_candidates_get(adm->refused, j)->addr == c->addr) {
			j++;
			continue;
		}
		adm->admitted[adm->nadmitted++] = c->addr;
	}
	*n = adm->nadmitted;
	return adm->admitted;
}

void ftg_admission_free(struct ftg_admission *adm)
{
	size_t i;

	if (!adm)
		return;
	for (i = 0; adm->reasons && i < ftg_candidates_count(adm->refused); i++)
		free(adm->reasons[i]);
	free(adm->reasons);
	free(adm->admitted);
	ftg_candidates_free(adm->cand);
	ftg_candidates_free(adm->refused);
	free(adm);
}
