// SPDX-License-Identifier: GPL-2.0
/*
 * Command and shell input: one line as `ftguard shell` reads it, split by
 * ftg_split_words(), completed by ftg_complete_words() as readline would,
 * each word given to the command's own value parsers, and then run
 * through the registry (ftg_cmd_run(): option parsing from the entry's
 * table, operand counts, the -l/-n/-m globs) for the subcommands that only
 * read, on the fixture snapshot (--root). Commands that write, record,
 * exec or read other paths (snapshot, start, record, report, export, tui,
 * shell...) and the map's own --root are left out: the fuzzer must not
 * touch the system. Output goes to /dev/null.
 */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "fuzz-common.h"
#include "cmd/ftguard-cmd.h"

static char snapshot[4096];

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	int devnull = open("/dev/null", O_WRONLY);

	snprintf(snapshot, sizeof(snapshot), "%s", fz_fixture("amd64"));
	if (devnull < 0 || dup2(devnull, STDOUT_FILENO) < 0)
		abort();
	close(devnull);
	return 0;
}

/* Subcommands that only read the snapshot and print. */
static bool runnable(int argc, char **argv)
{
	static const char *const allowed[] = {
		"status", "sites", "map", "check", "help",
	};
	const struct ftg_cmd_entry *e;
	bool ambiguous;
	size_t i;
	int k;

	e = ftg_cmd_find(argv[0], &ambiguous);
	if (!e)
		return true;	/* "unknown command" is a path worth running */
	for (k = 1; k < argc; k++)
		if (!strncmp(argv[k], "--r", 3))	/* map --root DIR */
			return false;
	for (i = 0; i < sizeof(allowed) / sizeof(allowed[0]); i++)
		if (!strcmp(e->name, allowed[i]))
			return true;
	return false;
}

static void parse_values(int argc, char **argv)
{
	const char *why;
	unsigned long kb;
	uint64_t v;
	int k;

	for (k = 0; k < argc; k++) {
		if (!ftg_parse_u64(argv[k], &v))
			fz_use(v);
		if (!ftg_parse_size_kb(argv[k], &kb))
			fz_use(kb);
		fz_use(ftg_glob_valid(argv[k], &why));
	}
}

static void complete(struct ftg_cmd_ctx *ctx, int argc, char **argv)
{
	enum ftg_cmd_complete fallback;
	char **words;
	size_t i;

	/* the words before the cursor, and the one being typed */
	words = ftg_complete_words(ctx, argc ? argc - 1 : 0, argv,
				   argc ? argv[argc - 1] : "", true, &fallback);
	for (i = 0; words && words[i]; i++)
		fz_use_str(words[i]);
	ftg_complete_free(words);
	fz_use(fallback);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct ftg_cmd_ctx ctx = { .root = snapshot, .in_shell = true,
				   .argv0 = "ftguard" };
	char *line = fz_strndup(data, size);
	const char *why = NULL;
	char **argv = NULL;
	int argc = 0;

	if (ftg_split_words(line, &argc, &argv, &why)) {
		fz_use_str(why);
		free(line);
		return 0;
	}
	parse_values(argc, argv);
	complete(&ctx, argc, argv);
	if (argc && runnable(argc, argv))
		fz_use((uint64_t)ftg_cmd_run(&ctx, argc, argv));
	ftg_cmd_ctx_release(&ctx);
	ftg_free_words(argc, argv);
	free(line);
	return 0;
}
