// SPDX-License-Identifier: GPL-2.0
/*
 * Completion from the registry, for the shell (readline) and for bash
 * through the hidden `ftguard __complete WORD...` command.
 *
 * Given the words before the cursor and the word being typed, it offers
 * subcommands, options, option arguments (function names from
 * available_filter_functions, module names from /proc/modules, fixed word
 * lists, event names from tracefs events/) or says that a file name /
 * program name is wanted, which the caller completes itself (readline's
 * and bash's own file completion).
 */
#include <stdlib.h>
#include <string.h>


#include "cmd/ftguard-cmd.h"

struct word_list {
	char **v;
	size_t n, cap;
};

/* A word with a byte outside printable ASCII (a kernel name holding an
 * escape sequence, say) is not offered: printed for bash or inserted by
 * readline it would reach the terminal raw, and a glob cannot hold it. */
static bool typable(const char *word, size_t len)
{
	size_t i;

	for (i = 0; i < len; i++)
		if ((unsigned char)word[i] < 0x21 || (unsigned char)word[i] > 0x7e)
			return false;
	return true;
}

static void list_add(struct word_list *l, const char *word, size_t len)
{
	char **v;

	if (!typable(word, len))
		return;
	if (l->n + 2 > l->cap) {
		size_t cap = l->cap ? l->cap * 2 : 32;

		v = realloc(l->v, cap * sizeof(*v));
		if (!v)
			return;
		l->v = v;
		l->cap = cap;
	}
	l->v[l->n] = strndup(word, len);
	if (l->v[l->n])
		l->n++;
	l->v[l->n] = NULL;
}

static void add_if_prefix(struct word_list *l, const char *cand, const char *prefix)
{
	if (strncmp(cand, prefix, strlen(prefix)) == 0)
		list_add(l, cand, strlen(cand));
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Sorted, duplicates dropped (static functions share names). */
static void list_sort_unique(struct word_list *l)
{
	size_t i, j = 0;

	if (!l->n)
		return;
	qsort(l->v, l->n, sizeof(*l->v), cmp_str);
	for (i = 1; i < l->n; i++) {
		if (strcmp(l->v[i], l->v[j]) == 0)
			free(l->v[i]);
		else
			l->v[++j] = l->v[i];
	}
	l->n = j + 1;
	l->v[l->n] = NULL;
}

/* The root without messages: a completion that finds nothing is quiet. */
static struct ftg_root *quiet_root(struct ftg_cmd_ctx *ctx)
{
	if (!ctx->froot)
		ctx->froot = ftg_root_open(ctx->root);
	return ctx->froot;
}

/* Module names from /proc/modules, each followed by @suffix. */
static void add_modules(struct ftg_cmd_ctx *ctx, struct word_list *l,
			const char *prefix, const char *suffix)
{
	struct ftg_root *root = quiet_root(ctx);
	struct ftg_proc_modules *pm = root ? ftg_proc_modules_read(root) : NULL;
	char name[256];
	size_t i;

	for (i = 0; pm && i < ftg_proc_modules_count(pm); i++) {
		const char *m = ftg_proc_modules_get(pm, i)->name;

		if (!strncmp(m, prefix, strlen(prefix)) &&
		    snprintf(name, sizeof(name), "%s%s", m, suffix) < (int)sizeof(name))
			list_add(l, name, strlen(name));
	}
	ftg_proc_modules_free(pm);
}

/*
 * Function names ftrace can patch. "MODULE:prefix" completes names of that
 * module, kept qualified.
 */
static void add_functions(struct ftg_cmd_ctx *ctx, struct word_list *l,
			  const char *prefix)
{
	const char *colon = strchr(prefix, ':');
	struct ftg_root *root = quiet_root(ctx);
	const char *name_prefix = colon ? colon + 1 : prefix;
	size_t i, plen = strlen(name_prefix);
	struct ftg_ftrace_funcs *avail;
	char qualified[384];

	avail = root ? ftg_ftrace_funcs_read(root, FTG_FTRACE_AVAILABLE) : NULL;
	for (i = 0; avail && i < ftg_ftrace_funcs_count(avail); i++) {
		const struct ftg_ftrace_func *f = ftg_ftrace_funcs_get(avail, i);

		if (strncmp(f->name, name_prefix, plen))
			continue;
		if (!colon) {
			list_add(l, f->name, strlen(f->name));
			continue;
		}
		if (!f->module || strlen(f->module) != (size_t)(colon - prefix) ||
		    strncmp(f->module, prefix, colon - prefix))
			continue;
		snprintf(qualified, sizeof(qualified), "%s:%s", f->module, f->name);
		list_add(l, qualified, strlen(qualified));
	}
	ftg_ftrace_funcs_free(avail);
	if (!colon)	/* "mod:" is a way in to a module's functions */
		add_modules(ctx, l, prefix, ":");
}

/*
 * -e's SYSTEM and SYSTEM:EVENT from tracefs events/ (libtracefs lists them
 * under the root's tracing directory). A system is offered with its ':'
 * too, the way in to its events; the systems -e refuses are not offered.
 */
static void add_events(struct ftg_cmd_ctx *ctx, struct word_list *l, const char *prefix)
{
	const char *colon = strchr(prefix, ':');
	struct ftg_root *root = quiet_root(ctx);
	char system[256], word[512], **names, **p;

	if (!root)
		return;
	if (colon) {
		snprintf(system, sizeof(system), "%.*s", (int)(colon - prefix), prefix);
		if (!ftg_cmd_event_system_allowed(system))
			return;
		names = ftg_event_names(root, system);
		for (p = names; p && *p; p++) {
			snprintf(word, sizeof(word), "%s:%s", system, *p);
			add_if_prefix(l, word, prefix);
		}
		ftg_event_names_free(names);
		return;
	}
	names = ftg_event_names(root, NULL);
	for (p = names; p && *p; p++) {
		if (!ftg_cmd_event_system_allowed(*p))
			continue;
		add_if_prefix(l, *p, prefix);
		snprintf(word, sizeof(word), "%s:", *p);
		add_if_prefix(l, word, prefix);
	}
	ftg_event_names_free(names);
}

static void add_options(struct word_list *l, const struct ftg_cmd_option *opts,
			const char *prefix)
{
	const struct ftg_cmd_option *o;
	char buf[64];

	for (o = opts; o && o->key; o++) {
		if (o->long_name) {
			snprintf(buf, sizeof(buf), "--%s", o->long_name);
			add_if_prefix(l, buf, prefix);
		}
		if (o->key < 256) {
			snprintf(buf, sizeof(buf), "-%c", o->key);
			add_if_prefix(l, buf, prefix);
		}
	}
	add_if_prefix(l, "--help", prefix);
}

static void add_commands(struct word_list *l, const char *prefix, bool in_shell)
{
	int i;

	for (i = 0; ftg_cmd_table[i]; i++)
		if (!ftg_cmd_table[i]->hidden)
			add_if_prefix(l, ftg_cmd_table[i]->name, prefix);
	if (in_shell) {
		add_if_prefix(l, "exit", prefix);
		add_if_prefix(l, "quit", prefix);
	}
}

static void add_kind(struct ftg_cmd_ctx *ctx, struct word_list *l,
		     enum ftg_cmd_complete kind, const char *const *words,
		     const char *prefix, enum ftg_cmd_complete *fallback)
{
	switch (kind) {
	case FTG_COMPLETE_FUNCTION:
		add_functions(ctx, l, prefix);
		break;
	case FTG_COMPLETE_MODULE:
		add_modules(ctx, l, prefix, "");
		break;
	case FTG_COMPLETE_EVENT:
		add_events(ctx, l, prefix);
		break;
	case FTG_COMPLETE_COMMAND:
		add_commands(l, prefix, false);
		break;
	case FTG_COMPLETE_WORDS:
		for (; words && *words; words++)
			add_if_prefix(l, *words, prefix);
		break;
	case FTG_COMPLETE_FILE:
	case FTG_COMPLETE_DIR:
	case FTG_COMPLETE_PROGRAM:
		*fallback = kind;
		break;
	case FTG_COMPLETE_NONE:
		break;
	}
}

/* The option of @opts named by @word ("-l", "--function"), if it takes an
 * argument that is not attached to the word itself. */
static const struct ftg_cmd_option *option_wanting_arg(const struct ftg_cmd_option *opts,
							const char *word)
{
	const struct ftg_cmd_option *o;

	for (o = opts; o && o->key; o++) {
		if (!o->arg_name)
			continue;
		if (word[0] == '-' && word[1] == '-' && o->long_name &&
		    strcmp(word + 2, o->long_name) == 0)
			return o;
		if (word[0] == '-' && word[1] != '-' && o->key < 256 &&
		    word[strlen(word) - 1] == o->key && strlen(word) >= 2)
			return o;
	}
	return NULL;
}

/**
 * ftg_complete_words - candidates for the word being typed
 * @ctx: the invocation (its root locates function and module lists)
 * @argc: words before the cursor
 * @argv: those words; with @in_shell false, argv[0] is "ftguard" and
 *        global options may follow
 * @word: the (possibly empty) word under the cursor
 * @in_shell: argv starts with the subcommand, exit/quit are offered
 * @fallback: set to FILE, DIR or PROGRAM when the caller should complete
 *            a path itself, else FTG_COMPLETE_NONE
 *
 * Return: a NULL-terminated sorted list (free with ftg_complete_free()),
 * or NULL when nothing matches.
 */
char **ftg_complete_words(struct ftg_cmd_ctx *ctx, int argc, char **argv,
			  const char *word, bool in_shell, enum ftg_cmd_complete *fallback)
{
	const struct ftg_cmd_entry *entry = NULL;
	const struct ftg_cmd_option *o;
	struct word_list l = { 0 };
	bool ambiguous, operands = false;
	int i = in_shell ? 0 : 1;

	*fallback = FTG_COMPLETE_NONE;
	/* Global options before the subcommand. */
	for (; !in_shell && i < argc && argv[i][0] == '-'; i++) {
		o = option_wanting_arg(ftg_global_options, argv[i]);
		if (o && ++i == argc) {
			add_kind(ctx, &l, o->complete, o->words, word, fallback);
			goto out;
		}
	}
	if (i >= argc) {
		if (word[0] == '-' && !in_shell)
			add_options(&l, ftg_global_options, word);
		else
			add_commands(&l, word, in_shell);
		goto out;
	}
	entry = ftg_cmd_find(argv[i], &ambiguous);
	if (!entry)
		goto out;
	for (i++; i < argc; i++) {
		if (operands || argv[i][0] != '-' || !argv[i][1]) {
			operands = true;	/* "+" parsing: options end here */
			continue;
		}
		if (strcmp(argv[i], "--") == 0) {
			operands = true;
			continue;
		}
		o = option_wanting_arg(entry->options, argv[i]);
		if (o && ++i == argc) {
			add_kind(ctx, &l, o->complete, o->words, word, fallback);
			goto out;
		}
	}
	if (!operands && word[0] == '-')
		add_options(&l, entry->options, word);
	else
		add_kind(ctx, &l, entry->operand_complete, NULL, word, fallback);
out:
	list_sort_unique(&l);
	if (!l.n) {
		free(l.v);
		return NULL;
	}
	return l.v;
}

void ftg_complete_free(char **list)
{
	char **p;

	for (p = list; p && *p; p++)
		free(*p);
	free(list);
}

/*
 * ftguard __complete [--] WORD...: the last WORD is the one being typed
 * (possibly ""), the others come before it, starting with "ftguard".
 * Prints one candidate a line; a path wanted prints "@file", "@dir" or
 * "@command" alone, for the bash function to call compgen.
 */
static int complete_exec(struct ftg_cmd_ctx *ctx, const struct ftg_cmd_args *args)
{
	static const char *const fallback_names[] = {
		[FTG_COMPLETE_FILE] = "@file",
		[FTG_COMPLETE_DIR] = "@dir",
		[FTG_COMPLETE_PROGRAM] = "@command",
	};
	enum ftg_cmd_complete fallback;
	char **list, **p;

	list = ftg_complete_words(ctx, args->argc - 1, args->argv,
				  args->argv[args->argc - 1], false, &fallback);
	for (p = list; p && *p; p++)
		printf("%s\n", *p);
	if (fallback != FTG_COMPLETE_NONE)
		printf("%s\n", fallback_names[fallback]);
	ftg_complete_free(list);
	return FTG_CMD_OK;
}

const struct ftg_cmd_entry ftg_cmd_complete_entry = {
	.name = "__complete",
	.usage = "ftguard [WORD...] CURRENT",
	.summary = "Print completions of CURRENT after WORDs (for bash completion)",
	.min_args = 2,
	.max_args = -1,
	.hidden = true,
	.exec = complete_exec,
};
