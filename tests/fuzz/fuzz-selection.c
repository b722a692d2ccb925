// SPDX-License-Identifier: LGPL-2.1
/*
 * The selection syntax of -l/-n/-m (GLOB, MODULE:GLOB, NAME@ADDR): each
 * input line is a pattern whose first byte says what it is ('l' include,
 * 'n' exclude, 'm' module; anything else: include the whole line). The
 * selection is resolved against the fixture snapshot's kallsyms and
 * available_filter_functions, as `ftguard check -l` resolves it.
 */
#include <stdio.h>
#include <stdlib.h>

#include "fuzz-common.h"

#define MAX_PATTERNS	16

static struct ftg_kallsyms *ks;
static struct ftg_ftrace_funcs *avail;

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	struct ftg_root *root = ftg_root_open(fz_fixture("amd64"));

	ks = root ? ftg_kallsyms_read(root) : NULL;
	avail = root ? ftg_ftrace_funcs_read(root, FTG_FTRACE_AVAILABLE) : NULL;
	ftg_root_free(root);
	if (!ks || !avail) {
		fprintf(stderr, "fuzz-selection: fixtures: %s\n", ftg_error_last());
		abort();
	}
	return 0;
}

static void add_line(struct ftg_selection *sel, const char *line)
{
	switch (line[0]) {
	case 'l':
		fz_use((uint64_t)ftg_selection_add(sel, line + 1));
		break;
	case 'n':
		fz_use((uint64_t)ftg_selection_exclude(sel, line + 1));
		break;
	case 'm':
		fz_use((uint64_t)ftg_selection_add_module(sel, line + 1));
		break;
	default:
		fz_use((uint64_t)ftg_selection_add(sel, line));
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct ftg_selection *sel = ftg_selection_new();
	struct ftg_candidates *cand;
	char *lines[MAX_PATTERNS];
	size_t i, n;

	if (!sel)
		return 0;
	n = fz_lines(data, size, lines, MAX_PATTERNS);
	for (i = 0; i < n; i++)
		add_line(sel, lines[i]);
	fz_use(ftg_selection_empty(sel));
	cand = ftg_selection_resolve(sel, ks, avail);
	for (i = 0; cand && i < ftg_candidates_count(cand); i++) {
		const struct ftg_candidate *c = ftg_candidates_get(cand, i);

		fz_use(c->addr);
		fz_use_str(c->name);
		fz_use_str(c->module);
	}
	ftg_candidates_free(cand);
	ftg_selection_free(sel);
	fz_free_lines(lines, n);
	fz_use_str(ftg_error_last());
	return 0;
}
