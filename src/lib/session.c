// SPDX-License-Identifier: LGPL-2.1
/*
 * The session: a control descriptor and the way a selection reaches it.
 * Every front end turns -l/-n/-m (or what the TUI asks for) into sites
 * the same way: resolve the selection over the cheapest list that holds
 * every function it may take, admit the vmlinux candidates ftguard.ko
 * does not know yet, select them, name a call tree's roots. The policy
 * lives here once; the front ends word what it did (ftg_session_how())
 * and where it stopped (ftg_session_step()).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "ftguard-local.h"

/* A selection that names more modules takes the general way. */
#define MAX_MODULES	8
/* Sites pinned by NAME@ADDR that are selected by address. */
#define MAX_PINS	64

struct ftg_session {
	const struct ftg_root *root;
	struct ftg_control *ctl;
	/* kallsyms: the client's, through @get_ks, or our own read */
	const struct ftg_kallsyms *(*get_ks)(void *data);
	void *ks_data;
	const struct ftg_kallsyms *ks;
	struct ftg_kallsyms *own_ks;
	struct ftg_ftrace_funcs *avail;
	/* the map that judges checks: the client's, or our own build */
	const struct ftg_map *map;
	struct ftg_map *own_map;
	/* the descriptor may hold a selection or roots: clear before anew */
	bool selected;
	/* the call tree's roots, selected: they count among the sites */
	struct ftg_candidates *roots;
	/* what the last call did */
	unsigned int how;
	enum ftg_session_step step;
	uint64_t vmlinux_records;
	struct ftg_candidates *refused;
	size_t offered;
	char records_refusal[256];
};

struct ftg_session *ftg_session_open(const struct ftg_root *root)
{
	struct ftg_session *sess;

	ftg_error_clear();
	sess = calloc(1, sizeof(*sess));
	if (!sess) {
		ftgl_err(FTG_E_SYSTEM, ENOMEM, "out of memory");
		return NULL;
	}
	sess->root = root;
	sess->ctl = ftg_control_open(root);
	if (!sess->ctl) {
		free(sess);
		return NULL;
	}
	return sess;
}

void ftg_session_close(struct ftg_session *sess)
{
	if (!sess)
		return;
	ftg_control_close(sess->ctl);
	ftg_kallsyms_free(sess->own_ks);
	ftg_ftrace_funcs_free(sess->avail);
	ftg_map_free(sess->own_map);
	ftg_candidates_free(sess->roots);
	ftg_candidates_free(sess->refused);
	free(sess);
}

struct ftg_control *ftg_session_control(struct ftg_session *sess)
{
	return sess->ctl;
}

void ftg_session_set_kallsyms(struct ftg_session *sess,
			      const struct ftg_kallsyms *(*get)(void *data),
			      void *data)
{
	sess->get_ks = get;
	sess->ks_data = data;
}

void ftg_session_set_map(struct ftg_session *sess, const struct ftg_map *map)
{
	/* a map the session built stays, for the verdicts that point into it */
	sess->map = map ? map : sess->own_map;
}

const struct ftg_map *ftgl_session_map(const struct ftg_session *sess)
{
	return sess->map;
}

/*
 * A map for judging, built once: the kallsyms the session already read,
 * if any (a failed read is tried again, and named, by the map), and no
 * site overlay (judging needs the regions only).
 */
const struct ftg_map *ftgl_session_build_map(struct ftg_session *sess)
{
	if (!sess->map) {
		sess->own_map = ftg_map_load_with(sess->root, sess->ks,
						  FTG_MAP_NO_SITES);
		sess->map = sess->own_map;
	}
	return sess->map;
}

unsigned int ftg_session_how(const struct ftg_session *sess)
{
	return sess->how;
}

enum ftg_session_step ftg_session_step(const struct ftg_session *sess)
{
	return sess->step;
}

uint64_t ftg_session_vmlinux_records(const struct ftg_session *sess)
{
	return sess->vmlinux_records;
}

const char *ftg_session_records_refusal(const struct ftg_session *sess)
{
	return sess->how & FTG_SESSION_NO_COUNT ? sess->records_refusal : NULL;
}

const struct ftg_candidates *ftg_session_refused(const struct ftg_session *sess,
						 size_t *offered)
{
	if (offered)
		*offered = sess->offered;
	return sess->refused;
}

/* A new call: forget what the last one did. */
static void begin(struct ftg_session *sess)
{
	ftg_error_clear();
	sess->how = 0;
	sess->step = FTG_SESSION_STEP_NONE;
	sess->offered = 0;
	ftg_candidates_free(sess->refused);
	sess->refused = NULL;
}

/* Fails the call at @step, the library's error as the step left it. */
static int failed(struct ftg_session *sess, enum ftg_session_step step)
{
	sess->step = step;
	return -1;
}

static const struct ftg_kallsyms *kallsyms(struct ftg_session *sess)
{
	if (!sess->ks && sess->get_ks) {
		sess->ks = sess->get_ks(sess->ks_data);
	} else if (!sess->ks) {
		sess->own_ks = ftg_kallsyms_read(sess->root);
		sess->ks = sess->own_ks;
	}
	return sess->ks;
}

static const struct ftg_ftrace_funcs *avail(struct ftg_session *sess)
{
	if (!sess->avail)
		sess->avail = ftg_ftrace_funcs_read(sess->root, FTG_FTRACE_AVAILABLE);
	return sess->avail;
}

/*
 * Does ftguard.ko already hold a site for every core-kernel ftrace record?
 * It does once a `check --all` has offered them all and left their count
 * (status vmlinux_records) with it: the core kernel's records do not
 * change after boot, and it knows every module's sites by itself. Then
 * its site table lists every function a selection can take, and reading
 * it costs a fraction of kallsyms and available_filter_functions
 * (doc/performance.md, figure 11); a selection over it needs no admit.
 */
static bool knows_all(struct ftg_session *sess, const struct ftg_status *st)
{
	if (!st->vmlinux_records || st->vmlinux_sites < st->vmlinux_records)
		return false;
	sess->vmlinux_records = st->vmlinux_records;
	sess->how |= FTG_SESSION_KNOWS_ALL;
	return true;
}

/* knows_all() of the status now; one that cannot be read knows nothing */
static bool module_knows_all(struct ftg_session *sess)
{
	struct ftg_status st;

	if (ftg_status_read(sess->root, &st) < 0) {
		ftg_error_clear();
		return false;	/* the kernel's lists will do */
	}
	return knows_all(sess, &st);
}

/*
 * A core-kernel record of a function. ftrace keeps the records of weak
 * functions that the link replaced (6.0+): no function, never a site.
 */
static bool is_core_function(const struct ftg_ftrace_func *f)
{
	return !f->module && !ftgl_ftrace_name_invalid(f->name);
}

/*
 * Leaves the core kernel's record count with the module: once it holds
 * as many vmlinux sites, a later selection resolves over its site table
 * instead of reading kallsyms and available_filter_functions again. Only
 * a hint: an older ftguard.ko that keeps no count is left as it is.
 * Return: the count of core-kernel records in @funcs.
 */
static size_t tell_records(struct ftg_session *sess, const struct ftg_ftrace_funcs *funcs)
{
	size_t i, records = 0;

	for (i = 0; i < ftg_ftrace_funcs_count(funcs); i++)
		if (is_core_function(ftg_ftrace_funcs_get(funcs, i)))
			records++;
	if (records && ftg_control_vmlinux_records(sess->ctl, records) < 0) {
		sess->how |= FTG_SESSION_NO_COUNT;
		snprintf(sess->records_refusal, sizeof(sess->records_refusal),
			 "%s", ftg_error_last());
		ftg_error_clear();
	}
	return records;
}

/* Over kallsyms and available_filter_functions: every function ftrace
 * can patch, the vmlinux ones still to be admitted. */
static struct ftg_candidates *resolve_lists(struct ftg_session *sess,
					    const struct ftg_selection *sel, bool tell)
{
	struct ftg_candidates *cand;

	sess->how |= FTG_SESSION_LISTS;
	if (!kallsyms(sess)) {
		failed(sess, FTG_SESSION_STEP_KALLSYMS);
		return NULL;
	}
	if (!avail(sess)) {
		failed(sess, FTG_SESSION_STEP_FUNCTIONS);
		return NULL;
	}
	if (tell)
		tell_records(sess, sess->avail);
	cand = ftg_selection_resolve(sel, sess->ks, sess->avail);
	if (!cand)
		failed(sess, FTG_SESSION_STEP_RESOLVE);
	return cand;
}

/* Over a site table: its sites need no admit. */
static struct ftg_candidates *resolve_table(struct ftg_session *sess,
					    const struct ftg_selection *sel,
					    struct ftg_sites *known,
					    enum ftg_session_step reading)
{
	struct ftg_candidates *cand;

	if (!known) {
		failed(sess, reading);
		return NULL;
	}
	cand = ftg_selection_resolve_sites(sel, known);
	if (!cand)
		failed(sess, FTG_SESSION_STEP_RESOLVE);
	ftg_sites_free(known);
	return cand;
}

/*
 * The selection's candidate sites over the cheapest list that holds
 * every function it may take: a selection confined to modules over those
 * modules' sites, which ftguard.ko knows by itself (nothing to read from
 * the kernel's function lists, which cost more than a whole record on
 * 6.12, nothing to admit); any other over ftguard.ko's whole site table
 * once it knows every core-kernel function, else over the kernel's
 * lists, leaving the core record count with the module on the way.
 */
static struct ftg_candidates *resolve(struct ftg_session *sess,
				      const struct ftg_selection *sel,
				      unsigned int flags)
{
	const char *modules[MAX_MODULES];
	size_t nmodules;
	struct ftg_candidates *cand;

	if (flags & FTG_SESSION_FROM_LISTS)
		return resolve_lists(sess, sel, false);
	if (flags & FTG_SESSION_KNOWN_FIRST) {
		sess->how |= FTG_SESSION_KNOWN;
		cand = resolve_table(sess, sel, ftg_sites_read(sess->root),
				     FTG_SESSION_STEP_SITES);
		if (cand || ftg_error_code() != FTG_E_NO_MATCH)
			return cand;
		sess->how &= ~FTG_SESSION_KNOWN;
		sess->step = FTG_SESSION_STEP_NONE;
		ftg_error_clear();
		return resolve_lists(sess, sel, false);
	}
	nmodules = ftg_selection_modules(sel, modules, MAX_MODULES);
	if (nmodules && nmodules <= MAX_MODULES) {
		sess->how |= FTG_SESSION_MODULES;
		return resolve_table(sess, sel,
				     ftg_control_sites(sess->ctl, modules, nmodules),
				     FTG_SESSION_STEP_MODULE_SITES);
	}
	if (module_knows_all(sess))
		return resolve_table(sess, sel, ftg_sites_read(sess->root),
				     FTG_SESSION_STEP_SITES);
	return resolve_lists(sess, sel, true);
}

struct ftg_candidates *ftg_session_resolve(struct ftg_session *sess,
					   const struct ftg_selection *sel,
					   unsigned int flags)
{
	begin(sess);
	return resolve(sess, sel, flags);
}

int ftg_session_admit_some(struct ftg_session *sess, const struct ftg_candidates *cand,
			   size_t from, size_t n, struct ftg_candidates *refused)
{
	size_t count = ftg_candidates_count(cand);
	int sent;

	begin(sess);
	if (from > count)
		from = count;
	if (n > count - from)
		n = count - from;
	sent = ftgl_control_admit_range(sess->ctl, cand, from, from + n, refused);
	if (sent < 0)
		failed(sess, FTG_SESSION_STEP_ADMIT);
	return sent;
}

int ftg_session_admit_one(struct ftg_session *sess, const struct ftg_candidate *cand)
{
	begin(sess);
	if (ftg_control_admit_one(sess->ctl, cand->name, cand->addr) < 0)
		return failed(sess, FTG_SESSION_STEP_ADMIT);
	return 0;
}

/*
 * The module admits a vmlinux candidate only with proof (an ftrace record
 * at exactly the symbol's address): a refused function is no site and
 * leaves the selection. A selection of refused functions only fails.
 */
static struct ftg_candidates *admit(struct ftg_session *sess, struct ftg_candidates *cand)
{
	struct ftg_candidates *kept = NULL;

	sess->offered = ftg_candidates_count(cand);
	sess->refused = ftg_candidates_new();
	if (!sess->refused) {
		failed(sess, FTG_SESSION_STEP_RESOLVE);
	} else if (ftg_control_admit(sess->ctl, cand, sess->refused) < 0) {
		failed(sess, FTG_SESSION_STEP_ADMIT);
	} else {
		kept = ftg_candidates_without(cand, sess->refused);
		if (!kept) {
			failed(sess, FTG_SESSION_STEP_RESOLVE);
		} else if (!ftg_candidates_count(kept)) {
			ftg_candidates_free(kept);
			kept = NULL;
			ftgl_err(FTG_E_MODULE_REFUSED, EINVAL,
				 "ftguard.ko refused to admit %s",
				 ftg_candidates_get(sess->refused, 0)->name);
			failed(sess, FTG_SESSION_STEP_REFUSED);
		}
	}
	ftg_candidates_free(cand);
	return kept;
}

/* The sites @sel names, the vmlinux ones admitted. */
static struct ftg_candidates *resolve_sites(struct ftg_session *sess,
					    const struct ftg_selection *sel,
					    unsigned int flags)
{
	struct ftg_candidates *cand = resolve(sess, sel, flags);

	if (!cand || !(sess->how & FTG_SESSION_LISTS))
		return cand;
	return admit(sess, cand);
}

static int select_cand(struct ftg_session *sess, const struct ftg_candidates *cand,
		       enum ftg_session_step step)
{
	if (ftg_control_select(sess->ctl, cand) < 0)
		return failed(sess, step);
	return 0;
}

int ftg_session_graph_roots(struct ftg_session *sess, const struct ftg_selection *sel,
			    unsigned int flags)
{
	struct ftg_candidates *roots;
	uint64_t *addrs;
	size_t i, n;
	int ret = -1;

	begin(sess);
	sess->selected = true;
	roots = resolve_sites(sess, sel, flags);
	if (!roots)
		return -1;
	n = ftg_candidates_count(roots);
	addrs = malloc(n * sizeof(*addrs));
	if (!addrs) {
		ftgl_err(FTG_E_SYSTEM, ENOMEM, "out of memory");
		failed(sess, FTG_SESSION_STEP_GRAPH);
		goto out;
	}
	for (i = 0; i < n; i++)
		addrs[i] = ftg_candidates_get(roots, i)->addr;
	if (select_cand(sess, roots, FTG_SESSION_STEP_GRAPH) < 0)
		goto out;
	if (ftg_control_graph_tree(sess->ctl, addrs, n) < 0) {
		failed(sess, FTG_SESSION_STEP_GRAPH);
		goto out;
	}
	ftg_candidates_free(sess->roots);
	sess->roots = roots;
	roots = NULL;
	ret = 0;
out:
	free(addrs);
	ftg_candidates_free(roots);
	return ret;
}

/* Roots that are not among the callees add to the sites selected. */
static size_t roots_apart(const struct ftg_candidates *roots,
			  const struct ftg_candidates *callees)
{
	size_t i, j, n = 0, nc = ftg_candidates_count(callees);

	for (i = 0; i < ftg_candidates_count(roots); i++) {
		uint64_t addr = ftg_candidates_get(roots, i)->addr;

		for (j = 0; j < nc && ftg_candidates_get(callees, j)->addr != addr; j++)
			;
		n += j == nc;
	}
	return n;
}

/*
 * Every function. Once the module has every function's site, it selects
 * them all itself; 38,000 addresses need not cross the control file, nor
 * its site table be read. Return: 1 selected, 0 not this way (the general
 * one follows), -1 failed.
 */
static int select_everything(struct ftg_session *sess, const struct ftg_selection *sel,
			     size_t *nsites)
{
	if (!ftgl_selection_everything(sel) || !module_knows_all(sess))
		return 0;
	if (!ftg_control_select_all(sess->ctl, nsites)) {
		sess->how |= FTG_SESSION_ALL;
		return 1;
	}
	if (errno == EINVAL) {	/* an older ftguard.ko: by address */
		ftg_error_clear();
		return 0;
	}
	return failed(sess, FTG_SESSION_STEP_SELECT_ALL);
}

/*
 * Sites given as NAME@ADDR that the module already knows are selected by
 * address: a freed init function or a planted site is in no ftrace list.
 * Return: the rest of @sel, or NULL (*@nsites: the sites selected).
 */
static struct ftg_selection *select_pins(struct ftg_session *sess,
					 const struct ftg_selection *sel, size_t *nsites)
{
	struct ftg_sites *sites = NULL;
	struct ftg_selection *rest;
	uint64_t addrs[MAX_PINS];
	size_t n;

	/* the site table only for a pin; one that cannot be read pins none */
	if (ftgl_selection_has_pins(sel)) {
		sites = ftg_sites_read(sess->root);
		ftg_error_clear();
	}
	rest = ftgl_selection_take_pins(sel, sites, addrs, MAX_PINS, &n);
	ftg_sites_free(sites);
	if (!rest) {
		failed(sess, FTG_SESSION_STEP_RESOLVE);
		return NULL;
	}
	if (n && ftg_control_select_addrs(sess->ctl, addrs, n) < 0) {
		ftg_selection_free(rest);
		failed(sess, FTG_SESSION_STEP_SELECT);
		return NULL;
	}
	*nsites = n;
	return rest;
}

int ftg_session_select(struct ftg_session *sess, const struct ftg_selection *sel,
		       unsigned int flags, size_t *nsites)
{
	struct ftg_candidates *cand = NULL;
	struct ftg_selection *rest;
	size_t n = 0;
	int ret = -1;

	begin(sess);
	sess->selected = true;
	if (nsites)
		*nsites = 0;
	switch (select_everything(sess, sel, &n)) {
	case 1:
		/* the roots are among every site */
		if (nsites)
			*nsites = n;
		return 0;
	case -1:
		return -1;
	}
	rest = select_pins(sess, sel, &n);
	if (!rest)
		return -1;
	if (ftg_selection_empty(rest)) {
		ret = 0;	/* only pinned sites */
		goto out;
	}
	cand = resolve_sites(sess, rest, flags);
	if (!cand || select_cand(sess, cand, FTG_SESSION_STEP_SELECT) < 0)
		goto out;
	n += ftg_candidates_count(cand);
	if (sess->roots)
		n += roots_apart(sess->roots, cand);
	ret = 0;
out:
	if (!ret && nsites)
		*nsites = n;
	ftg_candidates_free(cand);
	ftg_selection_free(rest);
	return ret;
}

int ftg_session_select_addrs(struct ftg_session *sess, const uint64_t *addrs, size_t n)
{
	begin(sess);
	sess->selected = true;
	if (n && ftg_control_select_addrs(sess->ctl, addrs, n) < 0)
		return failed(sess, FTG_SESSION_STEP_SELECT);
	return 0;
}

int ftg_session_clear(struct ftg_session *sess)
{
	begin(sess);
	ftg_candidates_free(sess->roots);
	sess->roots = NULL;
	if (ftg_control_clear(sess->ctl) < 0)
		return failed(sess, FTG_SESSION_STEP_SELECT);
	sess->selected = false;
	return 0;
}

int ftgl_session_clear_if_selected(struct ftg_session *sess)
{
	return sess->selected ? ftg_session_clear(sess) : 0;
}

int ftg_session_admit_all(struct ftg_session *sess, size_t *sent)
{
	struct ftg_candidates *cand;
	struct ftg_status st;
	int n;

	begin(sess);
	*sent = 0;
	if (ftg_status_read(sess->root, &st) < 0)
		return failed(sess, FTG_SESSION_STEP_STATUS);
	if (knows_all(sess, &st))
		return 0;
	if (!avail(sess))
		return failed(sess, FTG_SESSION_STEP_FUNCTIONS);
	if (st.vmlinux_sites >= tell_records(sess, sess->avail))
		return 0;
	sess->how |= FTG_SESSION_LISTS;
	if (!kallsyms(sess))
		return failed(sess, FTG_SESSION_STEP_KALLSYMS);
	cand = ftg_candidates_vmlinux(sess->ks, sess->avail);
	if (!cand)
		return failed(sess, FTG_SESSION_STEP_RESOLVE);
	n = ftg_control_admit(sess->ctl, cand, NULL);
	ftg_candidates_free(cand);
	if (n < 0)
		return failed(sess, FTG_SESSION_STEP_ADMIT);
	*sent = (size_t)n;
	return 0;
}
