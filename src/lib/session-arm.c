// SPDX-License-Identifier: LGPL-2.1
/*
 * The one way to arm: a request (what to arm and how), and
 * ftg_session_arm(), which keeps ftguard's promise for every front end:
 * nothing is armed that was not just proven consistent on ftguard.ko's
 * word and on the address map's. It resolves and selects the request's
 * sites on the session, has the module check them, judges the report
 * with the map, and only then asks the module to arm (the module checks
 * once more, under its lock, and refuses on its own word). Its outcome
 * says what was armed, or where and why not.
 */
#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "ftguard-local.h"

struct ftg_arm_request {
	struct ftg_selection *sites;	/* functions, exclusions, modules */
	struct ftg_selection *roots;	/* a call tree's roots */
	char **patterns;		/* as added, for the front ends to say */
	enum ftg_arm_pattern *kinds;	/* what each of them names */
	size_t npatterns;
	size_t count[FTG_ARM_ROOTS + 1];	/* patterns of each kind */
	uint64_t *addrs;		/* sites the module knows, by address */
	size_t naddrs;
	unsigned int resolve;		/* FTG_SESSION_KNOWN_FIRST, ... */
	enum ftg_tracer tracer;
	bool tracer_set;		/* the tracer was asked for */
	unsigned int max_depth;
	unsigned int flags;		/* FTG_ARM_PERSISTENT, FORCE, STACK */
};

struct ftg_arm_outcome {
	enum ftg_arm_stage stage;
	size_t selected;
	uint64_t checked;
	struct ftg_verdict *verdict;
	enum ftg_error code;
	int error;
	char reason[512];
	char map_error[256];
};

struct ftg_arm_request *ftg_arm_request_new(void)
{
	struct ftg_arm_request *req;

	ftg_error_clear();
	req = calloc(1, sizeof(*req));
	if (!req) {
		ftgl_err(FTG_E_SYSTEM, ENOMEM, "out of memory");
		return NULL;
	}
	req->sites = ftg_selection_new();
	req->roots = ftg_selection_new();
	if (!req->sites || !req->roots) {
		ftg_arm_request_free(req);
		return NULL;
	}
	return req;
}

void ftg_arm_request_free(struct ftg_arm_request *req)
{
	size_t i;

	if (!req)
		return;

	ftg_selection_free(req->sites);
	ftg_selection_free(req->roots);
	for (i = 0; i < req->npatterns; i++)
		free(req->patterns[i]);
	free(req->patterns);
	free(req->kinds);
	free(req->addrs);
	free(req);
}

int ftg_arm_request_add_sites(struct ftg_arm_request *req, const uint64_t *addrs,
			      size_t n)
{
	uint64_t *grown;

	ftg_error_clear();
	if (!n)
		return 0;
	grown = realloc(req->addrs, (req->naddrs + n) * sizeof(*grown));
	if (!grown)
		return ftgl_err(FTG_E_SYSTEM, ENOMEM, "out of memory");
	memcpy(grown + req->naddrs, addrs, n * sizeof(*addrs));
	req->addrs = grown;
	req->naddrs += n;
	return 0;
}

void ftg_arm_request_set_resolve(struct ftg_arm_request *req, unsigned int flags)
{
	req->resolve = flags;
}

/* Keeps @pattern as added, for ftg_arm_request_pattern(). */
static int keep_pattern(struct ftg_arm_request *req, enum ftg_arm_pattern kind,
			const char *pattern)
{
	size_t n = req->npatterns + 1;
	char **patterns = realloc(req->patterns, n * sizeof(*patterns));
	enum ftg_arm_pattern *kinds;

	if (!patterns)
		return ftgl_err(FTG_E_SYSTEM, ENOMEM, "out of memory");
	req->patterns = patterns;
	kinds = realloc(req->kinds, n * sizeof(*kinds));
	if (!kinds)
		return ftgl_err(FTG_E_SYSTEM, ENOMEM, "out of memory");
	req->kinds = kinds;
	req->patterns[req->npatterns] = strdup(pattern);
	if (!req->patterns[req->npatterns])
		return ftgl_err(FTG_E_SYSTEM, ENOMEM, "out of memory");
	req->kinds[req->npatterns] = kind;
	req->npatterns = n;
	req->count[kind]++;
	return 0;
}

int ftg_arm_request_add(struct ftg_arm_request *req, enum ftg_arm_pattern kind,
			const char *pattern)
{
	int ret;

	ftg_error_clear();
	switch (kind) {
	case FTG_ARM_FUNCTIONS:
		ret = ftg_selection_add(req->sites, pattern);
		break;
	case FTG_ARM_EXCLUDE:
		ret = ftg_selection_exclude(req->sites, pattern);
		break;
	case FTG_ARM_MODULE:
		ret = ftg_selection_add_module(req->sites, pattern);
		break;
	case FTG_ARM_ROOTS:
		ret = ftg_selection_add(req->roots, pattern);
		break;
	default:
		return ftgl_err(FTG_E_BAD_ARGUMENT, EINVAL, "no such pattern kind %d",
				kind);
	}
	return ret < 0 ? ret : keep_pattern(req, kind, pattern);
}

/* "depth=N": the depth, as a word of ftg_arm_request_add_words() says it */
static int add_depth_word(struct ftg_arm_request *req, const char *word)
{
	const char *arg = word + strlen("depth=");
	uint64_t n;

	if (ftgl_parse_u64(arg, &n) < 0 ||
	    ftg_arm_request_set_max_depth(req, n > UINT_MAX ? UINT_MAX : n) < 0)
		return ftgl_err(FTG_E_BAD_ARGUMENT, EINVAL, "%s: a call tree's depth "
				"is a count from 0 (all) to %u", word,
				FTG_GRAPH_DEPTH_MAX);
	return 0;
}

int ftg_arm_request_add_words(struct ftg_arm_request *req, const char *text,
			      enum ftg_arm_pattern first, enum ftg_arm_pattern rest)
{
	size_t npatterns = 0;
	const char *p = text;

	ftg_error_clear();
	for (;;) {
		size_t len;
		char *word;
		int ret;

		p += strspn(p, " \t");
		len = strcspn(p, " \t");
		if (!len)
			return 0;
		word = strndup(p, len);
		if (!word)
			return ftgl_err(FTG_E_SYSTEM, ENOMEM, "out of memory");
		p += len;
		if (!strncmp(word, "depth=", strlen("depth=")))
			ret = add_depth_word(req, word);
		else if (word[0] == '!')
			ret = ftg_arm_request_add(req, FTG_ARM_EXCLUDE, word + 1);
		else
			ret = ftg_arm_request_add(req, npatterns++ ? rest : first, word);
		free(word);
		if (ret < 0)
			return ret;
	}
}

const struct ftg_selection *ftgl_arm_request_sites(const struct ftg_arm_request *req)
{
	return req->sites;
}

size_t ftg_arm_request_count(const struct ftg_arm_request *req,
			     enum ftg_arm_pattern kind)
{
	return (unsigned int)kind <= FTG_ARM_ROOTS ? req->count[kind] : 0;
}

const char *ftg_arm_request_pattern(const struct ftg_arm_request *req,
				    enum ftg_arm_pattern kind, size_t i)
{
	size_t k;

	for (k = 0; k < req->npatterns; k++)
		if (req->kinds[k] == kind && !i--)
			return req->patterns[k];
	return NULL;
}

void ftg_arm_request_set_tracer(struct ftg_arm_request *req, enum ftg_tracer tracer)
{
	req->tracer = tracer;
	req->tracer_set = true;
}

int ftg_arm_request_set_max_depth(struct ftg_arm_request *req, unsigned int depth)
{
	ftg_error_clear();
	if (depth > FTG_GRAPH_DEPTH_MAX)
		return ftgl_err(FTG_E_BAD_ARGUMENT, EINVAL,
				"a call tree's depth is 0 (all) to %u, not %u",
				FTG_GRAPH_DEPTH_MAX, depth);
	req->max_depth = depth;
	return 0;
}

void ftg_arm_request_set_flags(struct ftg_arm_request *req, unsigned int flags)
{
	req->flags = flags & (FTG_ARM_PERSISTENT | FTG_ARM_FORCE | FTG_ARM_STACK);
}

/* Does @req name sites to arm (its exclusions leave some out of those)? */
static bool selects_sites(const struct ftg_arm_request *req)
{
	return req->count[FTG_ARM_FUNCTIONS] || req->count[FTG_ARM_MODULE];
}

/* The module's arm flags: a call tree records returns, whatever max_arm says. */
static unsigned int arm_flags(const struct ftg_arm_request *req)
{
	unsigned int flags = req->flags;

	if (req->tracer == FTG_TRACER_FUNCTION_GRAPH || req->count[FTG_ARM_ROOTS])
		flags |= FTG_ARM_GRAPH;
	if (req->count[FTG_ARM_ROOTS])
		flags |= FTG_ARM_FORCE;
	return flags;
}

enum ftg_arm_request_fault ftg_arm_request_fault(const struct ftg_arm_request *req)
{
	bool tree = req->count[FTG_ARM_ROOTS];

	ftg_error_clear();
	if (tree && req->tracer_set && req->tracer != FTG_TRACER_FUNCTION_GRAPH) {
		ftgl_err(FTG_E_BAD_ARGUMENT, EINVAL, "a call tree records returns: "
			 "the function tracer records entries only");
		return FTG_ARM_REQUEST_TREE_WITHOUT_RETURNS;
	}
	if (req->max_depth && !tree) {
		ftgl_err(FTG_E_BAD_ARGUMENT, EINVAL,
			 "a depth limits a call tree: the request has no root");
		return FTG_ARM_REQUEST_DEPTH_WITHOUT_TREE;
	}
	if (tree || selects_sites(req) || req->naddrs)
		return FTG_ARM_REQUEST_OK;
	if (req->count[FTG_ARM_EXCLUDE]) {
		ftgl_err(FTG_E_BAD_ARGUMENT, EINVAL, "exclusions leave functions out "
			 "of a selection: the request selects none");
		return FTG_ARM_REQUEST_ONLY_EXCLUSIONS;
	}
	ftgl_err(FTG_E_BAD_ARGUMENT, EINVAL, "nothing selected");
	return FTG_ARM_REQUEST_EMPTY;
}

/*
 * The call tree's roots, then the sites by address and by pattern: roots
 * alone follow every function. What the session selected before goes.
 */
int ftg_session_select_request(struct ftg_session *sess, const struct ftg_arm_request *req,
			       size_t *nsites)
{
	bool tree = req->count[FTG_ARM_ROOTS];
	size_t n = 0;
	int ret = 0;

	*nsites = 0;
	if (ftgl_session_clear_if_selected(sess) < 0)
		return -1;
	if (tree && ftg_session_graph_roots(sess, req->roots, req->resolve) < 0)
		return -1;
	if (req->naddrs) {
		if (ftg_session_select_addrs(sess, req->addrs, req->naddrs) < 0)
			return -1;
		*nsites = req->naddrs;
	}
	if (tree && !selects_sites(req)) {
		struct ftg_selection *all = ftg_selection_new();

		if (!all || ftg_selection_add(all, "*") < 0) {
			ftg_selection_free(all);
			return -1;
		}
		ret = ftg_session_select(sess, all, req->resolve, &n);
		ftg_selection_free(all);
	} else if (selects_sites(req)) {
		ret = ftg_session_select(sess, req->sites, req->resolve, &n);
	}
	*nsites += n;
	return ret;
}

/*
 * The map that judges @rep: the session's, or built now when the report
 * has lines to judge. A clean check of many sites has none (the module
 * lists every site only below 64), and building the map (kallsyms, the
 * kernel's mappings) would cost more than that check.
 */
static const struct ftg_map *map_for(struct ftg_session *sess,
				     struct ftg_arm_outcome *out,
				     const struct ftg_check_report *rep)
{
	const struct ftg_map *map = ftgl_session_map(sess);

	if (map || !rep || !ftg_check_report_count(rep) || out->map_error[0])
		return map;
	map = ftgl_session_build_map(sess);
	if (!map)
		snprintf(out->map_error, sizeof(out->map_error), "%s",
			 ftg_error_last());
	return map;
}

/* Stops @out at @stage with the library's error, kept for the caller. */
static int stop_at(struct ftg_arm_outcome *out, enum ftg_arm_stage stage)
{
	out->stage = stage;
	out->error = errno;
	out->code = ftg_error_code();
	snprintf(out->reason, sizeof(out->reason), "%s", ftg_error_last());
	return -1;
}

int ftg_session_arm(struct ftg_session *sess, const struct ftg_arm_request *req,
		    struct ftg_arm_outcome **outcome)
{
	struct ftg_control *ctl = ftg_session_control(sess);
	struct ftg_check_report *rep = NULL;
	struct ftg_arm_outcome *out;
	const struct ftg_map *map;

	ftg_error_clear();
	*outcome = out = calloc(1, sizeof(*out));
	if (!out)
		return ftgl_err(FTG_E_SYSTEM, ENOMEM, "out of memory");
	if (ftg_arm_request_fault(req) != FTG_ARM_REQUEST_OK)
		return stop_at(out, FTG_ARM_STAGE_REQUEST);
	if (ftg_session_select_request(sess, req, &out->selected) < 0)
		return stop_at(out, FTG_ARM_STAGE_SELECT);
	rep = ftg_control_check(ctl);
	if (!rep)
		return stop_at(out, FTG_ARM_STAGE_CHECK);
	map = map_for(sess, out, rep);
	out->verdict = ftg_verdict_new(rep, map);
	ftg_check_report_free(rep);
	rep = NULL;
	if (!out->verdict)
		return stop_at(out, FTG_ARM_STAGE_CHECK);
	out->checked = ftg_verdict_n_ok(out->verdict) + ftg_verdict_n_bad(out->verdict);
	if (!ftg_verdict_ok(out->verdict)) {
		ftgl_err(FTG_E_MODULE_REFUSED, ESTALE,
			 "the check found inconsistent sites");
		return stop_at(out, FTG_ARM_STAGE_CHECK);
	}
	if (ftgl_control_arm_tree(ctl, arm_flags(req), req->max_depth,
				  &rep) < 0) {
		stop_at(out, FTG_ARM_STAGE_ARM);
		/* the module's own refusal, judged with the map when it has lines */
		ftg_verdict_free(out->verdict);
		out->verdict = NULL;
		if (out->code == FTG_E_MODULE_REFUSED && rep)
			out->verdict = ftg_verdict_new(rep, map_for(sess, out, rep));
		ftg_check_report_free(rep);
		return ftgl_err(out->code, out->error, "%s", out->reason);
	}
	ftg_check_report_free(rep);
	out->stage = FTG_ARM_STAGE_ARMED;
	return 0;
}

enum ftg_arm_stage ftg_arm_outcome_stage(const struct ftg_arm_outcome *out)
{
	return out->stage;
}

size_t ftg_arm_outcome_selected(const struct ftg_arm_outcome *out)
{
	return out->selected;
}

uint64_t ftg_arm_outcome_checked(const struct ftg_arm_outcome *out)
{
	return out->checked;
}

const struct ftg_verdict *ftg_arm_outcome_verdict(const struct ftg_arm_outcome *out)
{
	return out->verdict;
}

struct ftg_verdict *ftg_arm_outcome_take_verdict(struct ftg_arm_outcome *out)
{
	struct ftg_verdict *v = out->verdict;

	out->verdict = NULL;
	return v;
}

int ftg_arm_outcome_error(const struct ftg_arm_outcome *out, const char **reason)
{
	if (reason)
		*reason = out->reason;
	return out->stage == FTG_ARM_STAGE_ARMED ? 0 : out->error;
}

const char *ftg_arm_outcome_map_error(const struct ftg_arm_outcome *out)
{
	return out->map_error[0] ? out->map_error : NULL;
}

void ftg_arm_outcome_free(struct ftg_arm_outcome *out)
{
	if (!out)
		return;
	ftg_verdict_free(out->verdict);
	free(out);
}
