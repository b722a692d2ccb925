// SPDX-License-Identifier: GPL-2.0
/*
 * `ftguard tui`: run the TUI, a separate program (ftguard-tui, built from
 * ui/), installed in libexecdir; PATH is the fallback for a build tree.
 */
#include <errno.h>
#include <libgen.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "cmd/ftguard-cmd.h"

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

/*
 * Run rather than exec, so that the shell can come back to its prompt;
 * the TUI's own status is passed on.
 */
static int tui_exec(struct ftg_cmd_ctx *ctx, const struct ftg_cmd_args *args)
{
	char **argv = calloc((size_t)args->argc + 4, sizeof(*argv));
	char *prog = find_tui();
	int i, n = 0, status;
	pid_t pid;

	if (!argv || !prog) {
		free(argv);
		free(prog);
		ftg_cmd_error(ctx, "%s", strerror(ENOMEM));
		return FTG_CMD_ERROR;
	}
	argv[n++] = prog;
	if (ctx->root) {
		argv[n++] = (char *)"--root";
		argv[n++] = (char *)ctx->root;
	}
	for (i = 0; i < args->argc; i++)
		argv[n++] = args->argv[i];
	fflush(NULL);
	pid = fork();
	if (pid == 0) {
		execvp(prog, argv);
		_exit(127);
	}
	free(argv);
	if (pid < 0 || waitpid(pid, &status, 0) < 0) {
		ftg_cmd_error(ctx, "running %s: %s", prog, strerror(errno));
		free(prog);
		return FTG_CMD_ERROR;
	}
	if (WIFEXITED(status) && WEXITSTATUS(status) == 127) {
		ftg_cmd_error(ctx, "cannot run %s: not in %s nor in PATH (install "
			      "ftguard's TUI, or set FTGUARD_TUI)", TUI_PROGRAM, FTG_LIBEXECDIR);
		free(prog);
		return FTG_CMD_ERROR;
	}
	free(prog);
	if (WIFEXITED(status))
		return WEXITSTATUS(status) > FTG_CMD_ERROR ? FTG_CMD_ERROR : WEXITSTATUS(status);
	return FTG_CMD_ERROR;
}

const struct ftg_cmd_entry ftg_cmd_tui_entry = {
	.name = "tui",
	.usage = "[-- TUI-ARGS...]",
	.summary = "Open the interactive terminal interface",
	.description =
		"Runs ftguard-tui from ftguard's libexec directory (or the program\n"
		"named by FTGUARD_TUI, or the one in ../libexec next to ftguard, or\n"
		"ftguard-tui from PATH), passing --root DIR when it was given to\n"
		"ftguard and any arguments after '--'. See ftguard-tui --help for\n"
		"its options and ? in the TUI for its keys.\n"
		"\n"
		"The TUI reads events in bounded batches and answers keys and\n"
		"signals between them, even when the armed function is on its own\n"
		"read path (vfs_read). Its own events are left out, as trace-cmd\n"
		"leaves out its own threads: '-- --no-filter', or H on the Live\n"
		"screen, shows them. '+' adds kernel functions by glob.",
	.exit_status = "The TUI's own exit status; 2 when it cannot be run.",
	.examples =
		"ftguard tui -- --no-filter --screen live\n"
		"  Start on the Live screen, showing the TUI's own events too.",
	.min_args = 0,
	.max_args = -1,
	.exec = tui_exec,
};
