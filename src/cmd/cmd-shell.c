// SPDX-License-Identifier: GPL-2.0
/*
 * `ftguard shell`: a REPL running the same registry as the command line.
 *
 * On a terminal it uses readline: a prompt, history kept in
 * ~/.ftguard_history, completion of subcommands, options, function and
 * module names. With piped input it reads plain lines, prints no prompt
 * and exits with the status of the last command that failed (0 if none
 * did), so a script of commands can be checked like a shell script.
 */
#include <errno.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <readline/history.h>
#include <readline/readline.h>

#include "cmd/ftguard-cmd.h"

#define SHELL_HISTORY_FILE ".ftguard_history"
#define SHELL_HISTORY_MAX 1000

/**
 * ftg_split_words - split a command line into words, as a shell would
 * @line: the line; '…' quotes literally, "…" allows \" and \\, a
 *        backslash escapes the next character, # starts a comment
 * @argcp: set to the number of words
 * @argvp: set to a NULL-terminated array (free with ftg_free_words())
 * @why: set to the reason on failure
 *
 * Return: 0, or -1 (unterminated quote, no memory).
 */
int ftg_split_words(const char *line, int *argcp, char ***argvp, const char **why)
{
	size_t len = strlen(line);
	char **argv = calloc(len / 2 + 2, sizeof(*argv));
	char *word = malloc(len + 1);
	const char *p = line;
	int argc = 0;

	if (!argv || !word) {
		*why = "out of memory";
		goto fail;
	}
	for (;;) {
		char *w = word;
		char quote = 0;

		while (*p == ' ' || *p == '\t' || *p == '\n' || *p == '\r')
			p++;
		if (!*p || *p == '#')
			break;
		for (; *p; p++) {
			if (quote == '\'') {
				if (*p == '\'')
					quote = 0;
				else
					*w++ = *p;
			} else if (quote == '"') {
				if (*p == '"')
					quote = 0;
				else if (*p == '\\' && (p[1] == '"' || p[1] == '\\'))
					*w++ = *++p;
				else
					*w++ = *p;
			} else if (*p == '\'' || *p == '"') {
				quote = *p;
			} else if (*p == '\\' && p[1]) {
				*w++ = *++p;
			} else if (*p == ' ' || *p == '\t' || *p == '\n' || *p == '\r') {
				break;
			} else {
				*w++ = *p;
			}
		}
		if (quote) {
			*why = "unterminated quote";
			goto fail;
		}
		*w = '\0';
		argv[argc] = strdup(word);
		if (!argv[argc]) {
			*why = "out of memory";
			goto fail;
		}
		argc++;
	}
	free(word);
	*argcp = argc;
	*argvp = argv;
	return 0;
fail:
	free(word);
	ftg_free_words(argc, argv);
	return -1;
}

void ftg_free_words(int argc, char **argv)
{
	int i;

	if (!argv)
		return;
	for (i = 0; i < argc; i++)
		free(argv[i]);
	free(argv);
}

/* ---- readline completion ------------------------------------------------- */

static struct ftg_cmd_ctx *completion_ctx;
static char **completion_list;

static char *completion_next(const char *text, int state)
{
	static size_t next;

	if (!state)
		next = 0;
	if (!completion_list || !completion_list[next])
		return NULL;
	return strdup(completion_list[next++]);
}

static char **shell_completion(const char *text, int start, int end)
{
	enum ftg_cmd_complete fallback;
	char *before = strndup(rl_line_buffer, (size_t)start);
	const char *why;
	char **argv = NULL;
	char **matches;
	int argc = 0;

	if (!before || ftg_split_words(before, &argc, &argv, &why) < 0) {
		free(before);
		rl_attempted_completion_over = 1;
		return NULL;
	}
	free(before);
	ftg_complete_free(completion_list);
	completion_list = ftg_complete_words(completion_ctx, argc, argv, text,
					     true, &fallback);
	ftg_free_words(argc, argv);
	if (fallback != FTG_COMPLETE_NONE && !completion_list) {
		rl_attempted_completion_over = 0;	/* readline's file names */
		return NULL;
	}
	rl_attempted_completion_over = 1;
	matches = rl_completion_matches(text, completion_next);
	return matches;
}

/* ---- the loop ------------------------------------------------------------ */

static char *history_path(void)
{
	const char *home = getenv("HOME");
	char *path;

	if (!home || !*home)
		return NULL;
	if (asprintf(&path, "%s/%s", home, SHELL_HISTORY_FILE) < 0)
		return NULL;
	return path;
}

/* Completion leaves a space after the last word: keep history tidy. */
static void add_history_trimmed(const char *line)
{
	size_t n = strlen(line);
	char *copy;

	while (n && (line[n - 1] == ' ' || line[n - 1] == '\t'))
		n--;
	copy = strndup(line, n);
	if (copy)
		add_history(copy);
	free(copy);
}

/* Ctrl-C at the prompt abandons the line, not the shell. */
static void shell_sigint(int sig)
{
	(void)sig;
	if (write(STDOUT_FILENO, "\n", 1) < 0)
		return;
	rl_on_new_line();
	rl_replace_line("", 0);
	rl_redisplay();
}

static char *read_line(bool interactive)
{
	char *line = NULL;
	size_t cap = 0;

	if (interactive)
		return readline("ftguard> ");
	if (getline(&line, &cap, stdin) < 0) {
		free(line);
		return NULL;
	}
	line[strcspn(line, "\n")] = '\0';
	return line;
}

/* Returns true when the line asked to leave the shell (*status set). */
static bool run_line(struct ftg_cmd_ctx *ctx, const char *line, int *status)
{
	const char *why;
	char **argv;
	int argc;

	if (ftg_split_words(line, &argc, &argv, &why) < 0) {
		fprintf(stderr, "ftguard shell: %s\n", why);
		*status = FTG_CMD_ERROR;
		return false;
	}
	if (argc == 0) {
		*status = -1;	/* nothing run */
	} else if (strcmp(argv[0], "exit") == 0 || strcmp(argv[0], "quit") == 0) {
		uint64_t code;

		*status = -1;
		if (argc > 1 && ftg_parse_u64(argv[1], &code) == 0 && code < 256)
			*status = (int)code;
		ftg_free_words(argc, argv);
		return true;
	} else if (strcmp(argv[0], "shell") == 0) {
		fprintf(stderr, "ftguard shell: already in the shell\n");
		*status = FTG_CMD_ERROR;
	} else {
		*status = ftg_cmd_run(ctx, argc, argv);
	}
	ftg_free_words(argc, argv);
	return false;
}

static int shell_exec(struct ftg_cmd_ctx *ctx, const struct ftg_cmd_args *args)
{
	bool interactive = isatty(STDIN_FILENO);
	struct sigaction sa = { .sa_handler = shell_sigint }, old_sa;
	char *hist = NULL, *line;
	int last_failure = 0;

	ctx->in_shell = true;
	if (interactive) {
		completion_ctx = ctx;
		rl_readline_name = "ftguard";
		rl_attempted_completion_function = shell_completion;
		rl_completer_word_break_characters = " \t\n\"'";
		hist = history_path();
		using_history();
		stifle_history(SHELL_HISTORY_MAX);
		if (hist && read_history(hist) != 0 && errno != ENOENT)
			ftg_cmd_warn(ctx, "cannot read history %s: %s", hist, strerror(errno));
		sigemptyset(&sa.sa_mask);
		sigaction(SIGINT, &sa, &old_sa);
		if (ctx->verbosity >= 0)
			printf("ftguard shell: 'help' lists the commands, Tab completes, "
			       "Ctrl-D leaves.\n");
	}
	while ((line = read_line(interactive))) {
		int status;
		bool leave;

		if (interactive && line[strspn(line, " \t")])
			add_history_trimmed(line);
		leave = run_line(ctx, line, &status);
		free(line);
		if (leave) {
			if (status >= 0)
				last_failure = status;
			break;
		}
		if (status > 0)
			last_failure = status;
		fflush(stdout);
	}
	if (interactive) {
		if (!line)
			putchar('\n');
		sigaction(SIGINT, &old_sa, NULL);
		if (hist && write_history(hist) != 0)
			ftg_cmd_warn(ctx, "cannot write history %s: %s", hist,
				     strerror(errno));
		free(hist);
		ftg_complete_free(completion_list);
		completion_list = NULL;
	}
	ctx->in_shell = false;
	return last_failure;
}

const struct ftg_cmd_entry ftg_cmd_shell_entry = {
	.name = "shell",
	.usage = "",
	.summary = "Run ftguard commands interactively (or from a pipe)",
	.description =
		"Reads ftguard commands, one a line, without the leading 'ftguard',\n"
		"and runs them with the same options and output as on the command\n"
		"line. 'help' lists the commands; 'exit' or Ctrl-D leaves.\n"
		"\n"
		"On a terminal, lines are edited with readline: history is kept in\n"
		"~/.ftguard_history, and Tab completes commands, options, function\n"
		"names (from available_filter_functions) and module names. With\n"
		"input from a pipe or file there is no prompt and no history.",
	.exit_status =
		"The status of the last command that failed, 0 if none did, or N\n"
		"after 'exit N'.",
	.examples =
		"printf 'status\\nsites -m e1000e\\n' | ftguard shell\n"
		"  Run two commands from a script.",
	.min_args = 0,
	.max_args = 0,
	.exec = shell_exec,
};
