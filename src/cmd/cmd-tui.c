// SPDX-License-Identifier: GPL-2.0
/*
 * `ftguard tui`: run the TUI, a separate program (ftguard-tui, built from
 * ui/), installed in libexecdir; PATH is the fallback for a build tree.
 */
#include <errno.h>
#include <libgen.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "cmd/ftguard-cmd.h"
#include "cmd/tui-options.h"

#ifndef FTG_LIBEXECDIR
#define FTG_LIBEXECDIR "/usr/libexec"
#endif
#define TUI_PROGRAM "ftguard-tui"

static char *executable_at(const char *dir, const char *rel)
{
	char *path;

	if (asprintf(&path, "%s/%s", dir, rel) < 0)
		return NULL;
	if (access(path, X_OK) == 0)
		return path;
	free(path);
	return NULL;
}

/*
 * FTGUARD_TUI overrides (tests); then the configured libexecdir; then
 * relative to this executable, for an installation moved to another
 * prefix (make install prefix=...) and for a build tree; then PATH.
 */
static char *find_tui(void)
{
	const char *env = getenv("FTGUARD_TUI");
	char self[4096], *dir, *path;
	ssize_t n;

	if (env && *env)
		return strdup(env);
	path = executable_at(FTG_LIBEXECDIR, TUI_PROGRAM);
	if (path)
		return path;
	n = readlink("/proc/self/exe", self, sizeof(self) - 1);
	if (n > 0) {
		self[n] = '\0';
		dir = dirname(self);
		path = executable_at(dir, "../libexec/" TUI_PROGRAM);
		if (!path)
			path = executable_at(dir, TUI_PROGRAM);
		if (path)
			return path;
	}
	return strdup(TUI_PROGRAM);	/* execvp searches PATH */
}

/* ftguard-tui's options: the registry lists and checks them, the TUI
 * takes them as typed (one table, cmd/tui-options.h). */
#define TUI_OPT_KEY(id, name, arg, completion, help) TUI_OPT_##id,
enum { TUI_OPT_FIRST = 1023, FTG_TUI_OPTIONS(TUI_OPT_KEY) };
#undef TUI_OPT_KEY

/*
 * The command line of ftguard-tui: --root, the options given to `ftguard
 * tui`, then what followed '--'. The "--NAME" words live in *@names (one
 * allocation); the rest points into @ctx and @args. NULL when out of
 * memory.
 */
static char **tui_argv(struct ftg_cmd_ctx *ctx, const struct ftg_cmd_args *args,
		       char *prog, char **names)
{
	char **argv = calloc((size_t)args->argc + 2 * (size_t)args->nopts + 4,
			     sizeof(*argv));
	size_t len = 1;
	char *p;
	int i, n = 0;

	for (i = 0; i < args->nopts; i++)
		len += strlen(ftg_cmd_option_find(args->entry, args->opts[i].key)->long_name) + 3;
	*names = p = malloc(len);
	if (!argv || !p) {
		free(argv);
		free(p);
		return NULL;
	}
	argv[n++] = prog;
	if (ctx->root) {
		argv[n++] = (char *)"--root";
		argv[n++] = (char *)ctx->root;
	}
	for (i = 0; i < args->nopts; i++) {
		argv[n++] = p;
		p += sprintf(p, "--%s", ftg_cmd_option_find(args->entry,
							    args->opts[i].key)->long_name) + 1;
		if (args->opts[i].value)
			argv[n++] = (char *)args->opts[i].value;
	}
	for (i = 0; i < args->argc; i++)
		argv[n++] = args->argv[i];
	return argv;
}

/*
 * Run rather than exec, so that the shell can come back to its prompt;
 * the TUI's own status is passed on.
 */
static int tui_exec(struct ftg_cmd_ctx *ctx, const struct ftg_cmd_args *args)
{
	char *prog = find_tui(), *names = NULL;
	char **argv = prog ? tui_argv(ctx, args, prog, &names) : NULL;
	int status, ret = FTG_CMD_ERROR;
	pid_t pid;

	if (!argv) {
		ftg_cmd_error(ctx, "%s", strerror(ENOMEM));
		goto out;
	}
	fflush(NULL);
	pid = fork();
	if (pid == 0) {
		execvp(prog, argv);
		_exit(127);
	}
	if (pid < 0 || waitpid(pid, &status, 0) < 0) {
		ftg_cmd_error(ctx, "running %s: %s", prog, strerror(errno));
		goto out;
	}
	if (WIFEXITED(status) && WEXITSTATUS(status) == 127)
		ftg_cmd_error(ctx, "cannot run %s: not in %s nor in PATH (install "
			      "ftguard's TUI, or set FTGUARD_TUI)", TUI_PROGRAM, FTG_LIBEXECDIR);
	else if (WIFEXITED(status))
		ret = WEXITSTATUS(status) > FTG_CMD_ERROR ? FTG_CMD_ERROR : WEXITSTATUS(status);
out:
	free(argv);
	free(names);
	free(prog);
	return ret;
}

static const char *const tui_screens[] = { FTG_TUI_SCREENS, NULL };

#define TUI_COMPLETE_NONE	.complete = FTG_COMPLETE_NONE
#define TUI_COMPLETE_FILE	.complete = FTG_COMPLETE_FILE
#define TUI_COMPLETE_SCREEN	.complete = FTG_COMPLETE_WORDS, .words = tui_screens
#define TUI_OPTION(id, name, arg, completion, text)			\
	{ .key = TUI_OPT_##id, .long_name = name, .arg_name = arg,	\
	  .help = text, TUI_COMPLETE_##completion },

static const struct ftg_cmd_option tui_options[] = {
	FTG_TUI_OPTIONS(TUI_OPTION)
	FTG_OPTION_END
};

const struct ftg_cmd_entry ftg_cmd_tui_entry = {
	.name = "tui",
	.usage = "[OPTIONS] [-- TUI-ARGS...]",
	.options = tui_options,
	.summary = "Open the interactive terminal interface",
	.description =
		"Runs ftguard-tui from ftguard's libexec directory (or the program\n"
		"named by FTGUARD_TUI, or the one in ../libexec next to ftguard, or\n"
		"ftguard-tui from PATH), passing --root DIR when it was given to\n"
		"ftguard, the options below and any arguments after '--'\n"
		"(ftguard-tui --help lists them all). ? in the TUI shows its keys.\n"
		"\n"
		"The TUI reads events in bounded batches and answers keys and\n"
		"signals between them, even when the armed function is on its own\n"
		"read path (vfs_read). Its own events are left out, as trace-cmd\n"
		"leaves out its own threads: --no-filter, or H on the Live\n"
		"screen, shows them. '+' adds kernel functions by glob.",
	.exit_status = "The TUI's own exit status; 2 when it cannot be run.",
	.examples =
		"ftguard tui --no-filter --screen live\n"
		"  Start on the Live screen, showing the TUI's own events too.",
	.min_args = 0,
	.max_args = -1,
	.exec = tui_exec,
};
