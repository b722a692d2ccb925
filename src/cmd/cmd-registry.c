// SPDX-License-Identifier: GPL-2.0
/*
 * The one list of subcommands, and what is derived from it: lookup,
 * dispatch with option parsing, usage and help text.
 */
#include <string.h>

#include "cmd/ftguard-cmd.h"

extern const struct ftg_cmd_entry ftg_cmd_status_entry;
extern const struct ftg_cmd_entry ftg_cmd_check_entry;
extern const struct ftg_cmd_entry ftg_cmd_sites_entry;
extern const struct ftg_cmd_entry ftg_cmd_map_entry;
extern const struct ftg_cmd_entry ftg_cmd_start_entry;
extern const struct ftg_cmd_entry ftg_cmd_stop_entry;
extern const struct ftg_cmd_entry ftg_cmd_reset_entry;
extern const struct ftg_cmd_entry ftg_cmd_record_entry;
extern const struct ftg_cmd_entry ftg_cmd_extract_entry;
extern const struct ftg_cmd_entry ftg_cmd_report_entry;
extern const struct ftg_cmd_entry ftg_cmd_export_entry;
extern const struct ftg_cmd_entry ftg_cmd_stream_entry;
extern const struct ftg_cmd_entry ftg_cmd_shell_entry;
extern const struct ftg_cmd_entry ftg_cmd_snapshot_entry;
extern const struct ftg_cmd_entry ftg_cmd_tui_entry;
extern const struct ftg_cmd_entry ftg_cmd_help_entry;
extern const struct ftg_cmd_entry ftg_cmd_complete_entry;
extern const struct ftg_cmd_entry ftg_cmd_man_entry;
extern const struct ftg_cmd_entry ftg_cmd_list_entry;
extern const struct ftg_cmd_entry ftg_cmd_stat_entry;
extern const struct ftg_cmd_entry ftg_cmd_show_entry;

/* In the order `ftguard help` lists them. */
const struct ftg_cmd_entry *const ftg_cmd_table[] = {
	&ftg_cmd_status_entry,
	&ftg_cmd_show_entry,
	&ftg_cmd_list_entry,
	&ftg_cmd_check_entry,
	&ftg_cmd_sites_entry,
	&ftg_cmd_map_entry,
	&ftg_cmd_snapshot_entry,
	&ftg_cmd_start_entry,
	&ftg_cmd_stop_entry,
	&ftg_cmd_reset_entry,
	&ftg_cmd_record_entry,
	&ftg_cmd_extract_entry,
	&ftg_cmd_report_entry,
	&ftg_cmd_export_entry,
	&ftg_cmd_stream_entry,
	&ftg_cmd_stat_entry,
	&ftg_cmd_shell_entry,
	&ftg_cmd_tui_entry,
	&ftg_cmd_help_entry,
	&ftg_cmd_complete_entry,
	&ftg_cmd_man_entry,
	NULL
};

/* Options of ftguard itself, before the subcommand (main.c parses them). */
const struct ftg_cmd_option ftg_global_options[] = {
	{ .key = 'q', .long_name = "quiet",
	  .help = "print only errors and results" },
	{ .key = 'v', .long_name = "verbose",
	  .help = "say more (repeatable)", .repeatable = true },
	{ .key = FTG_OPT_ROOT, .long_name = "root", .arg_name = "DIR",
	  .help = "read /proc, /sys and the module's tables under DIR " "(a saved snapshot) instead of the live system",
	  .complete = FTG_COMPLETE_DIR },
	{ .key = 'V', .long_name = "version",
	  .help = "show the version" },
	FTG_OPTION_END
};

/**
 * ftg_cmd_find - look a subcommand up by name or unambiguous prefix
 * @name: what the user typed
 * @ambiguous: set to true when @name is a prefix of several commands
 *
 * Hidden commands match only by their full name.
 *
 * Return: the entry, or NULL.
 */
const struct ftg_cmd_entry *ftg_cmd_find(const char *name, bool *ambiguous)
{
	const struct ftg_cmd_entry *found = NULL;
	size_t len = strlen(name);
	int i;

	*ambiguous = false;
	for (i = 0; ftg_cmd_table[i]; i++) {
		const struct ftg_cmd_entry *e = ftg_cmd_table[i];

		if (strcmp(e->name, name) == 0)
			return e;
		if (e->hidden || !len || strncmp(e->name, name, len) != 0)
			continue;
		if (found)
			*ambiguous = true;
		found = e;
	}
	return *ambiguous ? NULL : found;
}

const struct ftg_cmd_option *ftg_cmd_option_find(const struct ftg_cmd_entry *e, int key)
{
	const struct ftg_cmd_option *o;

	for (o = e->options; o && o->key; o++)
		if (o->key == key)
			return o;
	return NULL;
}

/**
 * ftg_cmd_run - run one subcommand line
 * @ctx: global state; ctx->cmd_name is set for the duration
 * @argc: words, argv[0] being the subcommand (name or unique prefix)
 * @argv: the words
 *
 * Return: the subcommand's exit status (enum ftg_cmd_status).
 */
int ftg_cmd_run(struct ftg_cmd_ctx *ctx, int argc, char **argv)
{
	const struct ftg_cmd_entry *entry;
	struct ftg_cmd_args args;
	char prog[64];
	bool ambiguous;
	int ret;

	if (argc < 1)
		return FTG_CMD_ERROR;
	entry = ftg_cmd_find(argv[0], &ambiguous);
	if (!entry) {
		fprintf(stderr, "ftguard: %s command: ", ambiguous ? "ambiguous" : "unknown");
		ftg_print_safe(stderr, argv[0]);
		fprintf(stderr, " (see 'ftguard help')\n");
		return FTG_CMD_ERROR;
	}
	snprintf(prog, sizeof(prog), "ftguard %s", entry->name);
	ret = ftg_args_parse(&args, entry, argc, argv, prog);
	if (ret == 1) {
		ftg_args_release(&args);
		return FTG_CMD_OK;	/* --help */
	}
	if (ret == 0) {
		const char *saved = ctx->cmd_name;

		ctx->cmd_name = entry->name;
		ret = entry->exec(ctx, &args);
		ftg_cmd_forget_kallsyms(ctx);
		ctx->cmd_name = saved;
		fflush(stdout);
	}
	ftg_args_release(&args);
	return ret;
}

void ftg_cmd_print_usage(FILE *f, const struct ftg_cmd_entry *e)
{
	fprintf(f, "usage: ftguard %s%s%s\n", e->name, *e->usage ? " " : "", e->usage);
}

/* Width of "-l, --function GLOB" for aligning the help column. */
static int option_head(char *buf, size_t len, const struct ftg_cmd_option *o)
{
	if (o->key < 256)
		return snprintf(buf, len, "-%c%s%s%s%s", o->key,
				o->long_name ? ", --" : "", o->long_name ? o->long_name : "",
				o->arg_name ? " " : "", o->arg_name ? o->arg_name : "");
	return snprintf(buf, len, "    --%s%s%s", o->long_name,
			o->arg_name ? " " : "", o->arg_name ? o->arg_name : "");
}

/* Print text, re-wrapping nothing: descriptions are written pre-wrapped
 * to 72 columns with blank lines between paragraphs. */
static void print_indented(FILE *f, const char *text, const char *indent)
{
	const char *p = text;

	while (*p) {
		const char *nl = strchr(p, '\n');
		size_t n = nl ? (size_t)(nl - p) : strlen(p);

		if (n)
			fprintf(f, "%s%.*s\n", indent, (int)n, p);
		else
			fputc('\n', f);
		p += n + (nl ? 1 : 0);
	}
}

/* @text from column @indent, words wrapped before column @width. */
static void print_wrapped(FILE *f, const char *text, int indent, int width)
{
	int col = indent;

	while (*text) {
		size_t n = strcspn(text, " ");

		if (col > indent && col + 1 + (int)n > width) {
			fprintf(f, "\n%*s", indent, "");
			col = indent;
		} else if (col > indent) {
			fputc(' ', f);
			col++;
		}
		fprintf(f, "%.*s", (int)n, text);
		col += (int)n;
		text += n;
		text += strspn(text, " ");
	}
	fputc('\n', f);
}

void ftg_cmd_print_options(FILE *f, const struct ftg_cmd_option *opts)
{
	const struct ftg_cmd_option *o;
	char head[80];

	for (o = opts; o && o->key; o++) {
		option_head(head, sizeof(head), o);
		fprintf(f, "  %-24s ", head);
		print_wrapped(f, o->help, 27, 79);
	}
	fprintf(f, "  %-24s %s\n", "-h, --help", "show this help");
}

void ftg_cmd_print_help(FILE *f, const struct ftg_cmd_entry *e)
{
	ftg_cmd_print_usage(f, e);
	fprintf(f, "\n%s.\n", e->summary);
	if (e->description) {
		fputc('\n', f);
		print_indented(f, e->description, "");
	}
	fprintf(f, "\noptions:\n");
	ftg_cmd_print_options(f, e->options);
	if (e->exit_status) {
		fprintf(f, "\nexit status:\n");
		print_indented(f, e->exit_status, "  ");
	}
	if (e->examples) {
		fprintf(f, "\nexamples:\n");
		print_indented(f, e->examples, "  ");
	}
}

void ftg_cmd_print_list(FILE *f)
{
	int i;

	for (i = 0; ftg_cmd_table[i]; i++) {
		const struct ftg_cmd_entry *e = ftg_cmd_table[i];

		if (!e->hidden)
			fprintf(f, "  %-8s %s\n", e->name, e->summary);
	}
}
