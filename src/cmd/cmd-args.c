// SPDX-License-Identifier: GPL-2.0
/*
 * Option parsing for every subcommand, from its option table.
 *
 * The getopt_long table and the short option string are built from the
 * entry's struct ftg_cmd_option list, so the options a command accepts,
 * its --help, its man page and its completion cannot disagree.
 */
#include <errno.h>
#include <getopt.h>
#include <stdlib.h>
#include <string.h>

#include "cmd/ftguard-cmd.h"

static int count_options(const struct ftg_cmd_option *opts)
{
	int n = 0;

	while (opts && opts[n].key)
		n++;
	return n;
}

/* "+:" stops at the first operand (record -- COMMAND) and reports a
 * missing argument as ':' so the message can name the option. */
static char *build_optstring(const struct ftg_cmd_option *opts, int n)
{
	char *s = malloc(2 * (size_t)n + 4);
	char *p = s;
	int i;

	if (!s)
		return NULL;
	*p++ = '+';
	*p++ = ':';
	*p++ = 'h';
	for (i = 0; i < n; i++) {
		if (opts[i].key >= 256)
			continue;
		*p++ = (char)opts[i].key;
		if (opts[i].arg_name)
			*p++ = ':';
	}
	*p = '\0';
	return s;
}

static struct option *build_longopts(const struct ftg_cmd_option *opts, int n)
{
	struct option *lo = calloc((size_t)n + 2, sizeof(*lo));
	int i, j = 0;

	if (!lo)
		return NULL;
	for (i = 0; i < n; i++) {
		if (!opts[i].long_name)
			continue;
		lo[j].name = opts[i].long_name;
		lo[j].has_arg = opts[i].arg_name ? required_argument : no_argument;
		lo[j].val = opts[i].key;
		j++;
	}
	lo[j].name = "help";
	lo[j].val = FTG_OPT_HELP;
	return lo;
}

static const char *option_label(const struct ftg_cmd_entry *e, int key,
				char *buf, size_t len)
{
	const struct ftg_cmd_option *o = ftg_cmd_option_find(e, key);

	if (o && o->long_name && key >= 256)
		snprintf(buf, len, "--%s", o->long_name);
	else if (key > 0 && key < 256)
		snprintf(buf, len, "-%c", key);
	else
		snprintf(buf, len, "option");
	return buf;
}

static int add_value(struct ftg_cmd_args *args, int key, const char *value)
{
	struct ftg_cmd_arg_value *v;

	v = realloc(args->opts, sizeof(*v) * ((size_t)args->nopts + 1));
	if (!v)
		return -1;
	args->opts = v;
	v[args->nopts].key = key;
	v[args->nopts].value = value;
	args->nopts++;
	return 0;
}

static bool is_word(const char *const *words, const char *word)
{
	for (; words && *words; words++)
		if (!strcmp(*words, word))
			return true;
	return false;
}

static void print_words(FILE *f, const char *const *words)
{
	for (; words && *words; words++)
		fprintf(f, " %s", *words);
	fputc('\n', f);
}

/**
 * ftg_args_parse - parse a subcommand's command line
 * @args: filled in; release with ftg_args_release()
 * @entry: the subcommand
 * @argc: number of words, argv[0] being the subcommand name
 * @argv: the words; kept by reference in @args
 * @prog: prefix for messages ("ftguard sites")
 *
 * Return: 0 parsed, 1 --help was asked for (and printed), 2 usage error
 * (message printed on stderr).
 */
int ftg_args_parse(struct ftg_cmd_args *args, const struct ftg_cmd_entry *entry,
		   int argc, char **argv, const char *prog)
{
	int n = count_options(entry->options);
	char *optstring = build_optstring(entry->options, n);
	struct option *longopts = build_longopts(entry->options, n);
	char label[64];
	int ret = 0, c;

	memset(args, 0, sizeof(*args));
	args->entry = entry;
	if (!optstring || !longopts) {
		fprintf(stderr, "%s: out of memory\n", prog);
		ret = FTG_CMD_ERROR;
		goto out;
	}

	opterr = 0;
	optind = 0;	/* GNU: full re-initialisation, the shell parses again */
	while ((c = getopt_long(argc, argv, optstring, longopts, NULL)) != -1) {
		const struct ftg_cmd_option *o;

		switch (c) {
		case 'h':
		case FTG_OPT_HELP:
			ftg_cmd_print_help(stdout, entry);
			ret = 1;
			goto out;
		case ':':
			fprintf(stderr, "%s: %s needs an argument\n", prog,
				option_label(entry, optopt, label, sizeof(label)));
			ret = FTG_CMD_ERROR;
			goto usage;
		case '?':
			if (optopt)
				fprintf(stderr, "%s: unknown option -%c\n", prog, optopt);
			else
				fprintf(stderr, "%s: unknown option %s\n", prog,
					argv[optind - 1]);
			ret = FTG_CMD_ERROR;
			goto usage;
		default:
			o = ftg_cmd_option_find(entry, c);
			if (o && !o->repeatable && ftg_args_has(args, c)) {
				fprintf(stderr, "%s: %s given more than once\n", prog,
					option_label(entry, c, label, sizeof(label)));
				ret = FTG_CMD_ERROR;
				goto usage;
			}
			if (o && o->words_only && !is_word(o->words, optarg)) {
				fprintf(stderr, "%s: %s: '%s' is not one of:", prog,
					option_label(entry, c, label, sizeof(label)),
					optarg);
				print_words(stderr, o->words);
				ret = FTG_CMD_ERROR;
				goto usage;
			}
			if (add_value(args, c, optarg) < 0) {
				fprintf(stderr, "%s: %s\n", prog, strerror(errno));
				ret = FTG_CMD_ERROR;
				goto out;
			}
		}
	}
	args->argc = argc - optind;
	args->argv = argv + optind;
	if (args->argc < entry->min_args) {
		fprintf(stderr, "%s: missing operand\n", prog);
		ret = FTG_CMD_ERROR;
		goto usage;
	}
	if (entry->max_args >= 0 && args->argc > entry->max_args) {
		fprintf(stderr, "%s: unexpected operand '%s'\n", prog,
			args->argv[entry->max_args]);
		ret = FTG_CMD_ERROR;
		goto usage;
	}
	goto out;
usage:
	ftg_cmd_print_usage(stderr, entry);
out:
	free(optstring);
	free(longopts);
	return ret;
}

void ftg_args_release(struct ftg_cmd_args *args)
{
	free(args->opts);
	args->opts = NULL;
	args->nopts = 0;
}

bool ftg_args_has(const struct ftg_cmd_args *args, int key)
{
	return ftg_args_count(args, key) > 0;
}

int ftg_args_count(const struct ftg_cmd_args *args, int key)
{
	int i, n = 0;

	for (i = 0; i < args->nopts; i++)
		n += args->opts[i].key == key;
	return n;
}

/* The n-th value given for @key, in command-line order. */
const char *ftg_args_nth(const struct ftg_cmd_args *args, int key, int n)
{
	int i;

	for (i = 0; i < args->nopts; i++)
		if (args->opts[i].key == key && n-- == 0)
			return args->opts[i].value;
	return NULL;
}

/* The last value given for @key (NULL if absent). */
const char *ftg_args_get(const struct ftg_cmd_args *args, int key)
{
	int n = ftg_args_count(args, key);

	return n ? ftg_args_nth(args, key, n - 1) : NULL;
}
