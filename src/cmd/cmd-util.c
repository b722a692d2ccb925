// SPDX-License-Identifier: GPL-2.0
/*
 * Helpers shared by the subcommands: messages, checks of what a command
 * needs from the system (with the fix spelled out), safe printing of
 * kernel-supplied names, number and glob parsing.
 */
#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cmd/ftguard-cmd.h"

/* Messages may quote kernel-supplied text (module responses, names):
 * they go through the same sanitising as table output. */
static void __attribute__((format(printf, 3, 0)))
vmessage(const struct ftg_cmd_ctx *ctx, const char *kind, const char *fmt,
	 va_list ap)
{
	char *text = NULL;

	fflush(stdout);
	fprintf(stderr, "ftguard%s%s: %s", ctx->cmd_name ? " " : "",
		ctx->cmd_name ? ctx->cmd_name : "", kind);
	if (vasprintf(&text, fmt, ap) < 0)
		text = NULL;
	ftg_print_safe(stderr, text ? text : fmt);
	free(text);
	fputc('\n', stderr);
}

void ftg_cmd_error(const struct ftg_cmd_ctx *ctx, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vmessage(ctx, "", fmt, ap);
	va_end(ap);
}

/*
 * A library message of several lines (a filter, then a caret under the
 * place it goes wrong): each line is an error line of its own, so the
 * caret stays under its column.
 */
void ftg_cmd_error_lines(const struct ftg_cmd_ctx *ctx, const char *prefix,
			 const char *text)
{
	const char *nl;

	for (; (nl = strchr(text, '\n')); text = nl + 1) {
		ftg_cmd_error(ctx, "%s%.*s", prefix, (int)(nl - text), text);
		prefix = "";
	}
	ftg_cmd_error(ctx, "%s%s", prefix, text);
}

void ftg_cmd_warn(const struct ftg_cmd_ctx *ctx, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vmessage(ctx, "warning: ", fmt, ap);
	va_end(ap);
}

/* Progress and explanations: silenced by -q. */
void ftg_cmd_info(const struct ftg_cmd_ctx *ctx, const char *fmt, ...)
{
	va_list ap;

	if (ctx->verbosity < 0)
		return;
	va_start(ap, fmt);
	vmessage(ctx, "", fmt, ap);
	va_end(ap);
}

void ftg_cmd_usage_error(const struct ftg_cmd_ctx *ctx, const struct ftg_cmd_entry *e,
			 const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vmessage(ctx, "", fmt, ap);
	va_end(ap);
	ftg_cmd_print_usage(stderr, e);
}

/**
 * ftg_cmd_root - where this invocation reads the kernel's files from
 * @ctx: the invocation; --root DIR names a snapshot, else the live system
 *
 * Opened on first use and kept in @ctx (ftg_cmd_ctx_release() frees it).
 *
 * Return: the root, or NULL after printing why.
 */
struct ftg_root *ftg_cmd_root(struct ftg_cmd_ctx *ctx)
{
	if (!ctx->froot) {
		ctx->froot = ftg_root_open(ctx->root);
		if (!ctx->froot) {
			if (ctx->root)
				ftg_cmd_error(ctx, "--root %s: %s", ctx->root,
					      ftg_error_last());
			else
				ftg_cmd_lib_error(ctx, "finding /proc, /sys and tracefs");
		}
	}
	return ctx->froot;
}

void ftg_cmd_ctx_release(struct ftg_cmd_ctx *ctx)
{
	ftg_cmd_forget_kallsyms(ctx);
	ftg_root_free(ctx->froot);
	ctx->froot = NULL;
}

/* Reads the root's kallsyms on first use; NULL with the library's error. */
static const struct ftg_kallsyms *kallsyms_quiet(struct ftg_cmd_ctx *ctx)
{
	struct ftg_root *root;

	if (!ctx->kallsyms && (root = ftg_cmd_root(ctx)))
		ctx->kallsyms = ftg_kallsyms_read(root);
	return ctx->kallsyms;
}

/**
 * ftg_cmd_kallsyms - the root's kallsyms, read once per subcommand
 * @ctx: the invocation
 *
 * Reading /proc/kallsyms is the dear part (figure 4 of
 * doc/performance.md): the selection, the address map and the trace
 * reader of one subcommand share one read. ftg_cmd_run() forgets it when
 * the subcommand ends, so each command of the shell sees the kernel anew.
 *
 * Return: the symbols, owned by @ctx, or NULL after a message.
 */
const struct ftg_kallsyms *ftg_cmd_kallsyms(struct ftg_cmd_ctx *ctx)
{
	const struct ftg_kallsyms *ks = kallsyms_quiet(ctx);

	if (!ks && ctx->froot)
		ftg_cmd_lib_error(ctx, "reading kallsyms");
	return ks;
}

void ftg_cmd_forget_kallsyms(struct ftg_cmd_ctx *ctx)
{
	ftg_kallsyms_free(ctx->kallsyms);
	ctx->kallsyms = NULL;
}

/* The map for cross-checking; a map that cannot be built only weakens the
 * check (the module's own verdict stands), so it is a warning. Judging
 * needs no site overlay. */
struct ftg_map *ftg_cmd_load_map(struct ftg_cmd_ctx *ctx)
{
	struct ftg_root *root = ftg_cmd_root(ctx);
	struct ftg_map *map = NULL;

	/* A kallsyms read that fails is tried again, and named, by the map. */
	if (root)
		map = ftg_map_load_with(root, kallsyms_quiet(ctx), FTG_MAP_NO_SITES);
	if (root && !map)
		ftg_cmd_warn(ctx, "no address map (%s): sites are not cross-checked",
			     ftg_error_last());
	return map;
}

/* @dir/@rel; the caller frees it. */
char *ftg_cmd_path(const char *dir, const char *rel)
{
	char *path;

	if (asprintf(&path, "%s/%s", dir, rel) < 0)
		return NULL;
	return path;
}

static bool path_exists(const char *dir, const char *rel, int *err)
{
	char *path = ftg_cmd_path(dir, rel);
	struct stat st;
	int ret;

	if (!path) {
		*err = ENOMEM;
		return false;
	}
	ret = stat(path, &st);
	*err = ret < 0 ? errno : 0;
	free(path);
	return ret == 0;
}

/* A mount point shows entries; the bare directory underneath is empty. */
static bool dir_has_entries(const char *path)
{
	struct dirent *d;
	bool found = false;
	DIR *dir;

	dir = opendir(path);
	if (!dir)
		return errno == EACCES;	/* exists; the caller says why it failed */
	while (!found && (d = readdir(dir)))
		found = strcmp(d->d_name, ".") && strcmp(d->d_name, "..");
	closedir(dir);
	return found;
}

/* The first of @debugfs, its ftguard/ and ftguard/status that refuses
 * this user (mode in @mode), or NULL; the caller frees it. */
static char *first_denied_path(const char *debugfs, mode_t *mode)
{
	static const char *const rel[] = { "", "ftguard", "ftguard/status" };
	size_t i;

	for (i = 0; i < sizeof(rel) / sizeof(rel[0]); i++) {
		char *path = *rel[i] ? ftg_cmd_path(debugfs, rel[i]) : strdup(debugfs);
		struct stat st;

		if (!path)
			return NULL;
		if (stat(path, &st) == 0 &&
		    access(path, S_ISDIR(st.st_mode) ? X_OK : R_OK) < 0 &&
		    errno == EACCES) {
			*mode = st.st_mode & 07777;
			return path;
		}
		free(path);
	}
	return NULL;
}

/*
 * ftguard.ko's files are root's: say which path refused this user and why
 * (debugfs is mode 0700 unless remounted, which hides everything below
 * it; past it, the module's control file is 0600 and its tables 0400),
 * rather than a bare "Permission denied" later.
 */
static int need_root_user(const struct ftg_cmd_ctx *ctx)
{
	const char *cmd = ctx->cmd_name ? ctx->cmd_name : "";
	const char *debugfs = FTG_CMD_LIVE_DEBUGFS;
	char *denied;
	mode_t mode = 0;

	if (ctx->root || geteuid() == 0)
		return 0;
	denied = first_denied_path(debugfs, &mode);
	if (denied && !strcmp(denied, debugfs))
		ftg_cmd_error(ctx, "must be run as root: permission denied on %s "
			      "(mode %04o: debugfs's default 0700 hides ftguard.ko's "
			      "files from every user but root); try 'sudo ftguard %s'",
			      denied, (unsigned int)mode, cmd);
	else if (denied)
		ftg_cmd_error(ctx, "must be run as root: permission denied on %s "
			      "(mode %04o, root's: ftguard.ko's control file is 0600 "
			      "and its tables 0400); try 'sudo ftguard %s'",
			      denied, (unsigned int)mode, cmd);
	else
		ftg_cmd_error(ctx, "must be run as root: ftguard.ko's files in "
			      "debugfs and the trace buffers are root's (try "
			      "'sudo ftguard %s')", cmd);
	free(denied);
	return FTG_CMD_ERROR;
}

static int need_debugfs(const struct ftg_cmd_ctx *ctx, const struct ftg_root *root)
{
	if (dir_has_entries(ftg_root_debugfs(root)))
		return 0;
	if (ctx->root)
		ftg_cmd_error(ctx, "%s: the snapshot holds no debugfs files",
			      ftg_root_debugfs(root));
	else
		ftg_cmd_error(ctx, "debugfs is not mounted at %s: mount it with "
			      "'mount -t debugfs debugfs %s'",
			      ftg_root_debugfs(root), ftg_root_debugfs(root));
	return FTG_CMD_ERROR;
}

static int need_module(const struct ftg_cmd_ctx *ctx, const struct ftg_root *root)
{
	int err, mod_err;

	if (path_exists(ftg_root_debugfs(root), "ftguard/status", &err))
		return 0;
	if (err == EACCES) {
		ftg_cmd_error(ctx, "permission denied reading ftguard.ko's status: run as root");
		return FTG_CMD_ERROR;
	}
	if (ctx->root)
		ftg_cmd_error(ctx, "%s: the snapshot holds no ftguard.ko tables "
			      "(debug/ftguard/)", ctx->root);
	else if (path_exists(ftg_root_sys(root), "module/ftguard", &mod_err))
		ftg_cmd_error(ctx, "ftguard.ko is loaded but %s/ftguard is missing",
			      ftg_root_debugfs(root));
	else {
		char hint[4200];

		ftg_cmd_error(ctx, "ftguard.ko is not loaded: load it: %s",
			      ftg_cmd_module_hint(hint, sizeof(hint)));
	}
	return FTG_CMD_ERROR;
}

static int need_tracefs(const struct ftg_cmd_ctx *ctx, const struct ftg_root *root)
{
	int err;

	if (path_exists(ftg_root_tracefs(root), "available_filter_functions", &err))
		return 0;
	if (ctx->root)
		ftg_cmd_error(ctx, "%s: the snapshot holds no tracefs files",
			      ftg_root_tracefs(root));
	else if (err == EACCES)
		ftg_cmd_error(ctx, "permission denied reading tracefs: run as root");
	else
		ftg_cmd_error(ctx, "tracefs is not mounted: mount it with "
			      "'mount -t tracefs tracefs /sys/kernel/tracing'");
	return FTG_CMD_ERROR;
}

/**
 * ftg_cmd_need - check what a subcommand needs, explaining what is missing
 * @ctx: the invocation (its root decides live system or snapshot)
 * @needs: mask of enum ftg_cmd_need
 *
 * Return: 0 when all is there, FTG_CMD_ERROR after printing how to fix it.
 */
int ftg_cmd_need(struct ftg_cmd_ctx *ctx, unsigned int needs)
{
	struct ftg_root *root;

	if ((needs & FTG_NEED_ROOT_USER) && need_root_user(ctx))
		return FTG_CMD_ERROR;
	root = ftg_cmd_root(ctx);
	if (!root)
		return FTG_CMD_ERROR;
	if ((needs & (FTG_NEED_DEBUGFS | FTG_NEED_MODULE)) && need_debugfs(ctx, root))
		return FTG_CMD_ERROR;
	if ((needs & FTG_NEED_MODULE) && need_module(ctx, root))
		return FTG_CMD_ERROR;
	if ((needs & FTG_NEED_TRACEFS) && need_tracefs(ctx, root))
		return FTG_CMD_ERROR;
	return 0;
}

int ftg_cmd_live_only(struct ftg_cmd_ctx *ctx, const char *does)
{
	if (!ctx->root)
		return FTG_CMD_OK;
	ftg_cmd_error(ctx, "%s %s: --root is not allowed",
		      ctx->cmd_name ? ctx->cmd_name : "this command", does);
	return FTG_CMD_ERROR;
}

int ftg_cmd_live_args(struct ftg_cmd_ctx *ctx, const struct ftg_cmd_args *args,
		      struct ftg_cmd_events *events, const char *does)
{
	if (ftg_cmd_live_only(ctx, does))
		return FTG_CMD_ERROR;
	if (ftg_cmd_check_globs(ctx, args) ||
	    ftg_cmd_events_parse(ctx, args, events) ||
	    ftg_cmd_need(ctx, FTG_NEED_ROOT_USER | FTG_NEED_MODULE | FTG_NEED_TRACEFS)) {
		ftg_cmd_events_release(events);
		return FTG_CMD_ERROR;
	}
	return FTG_CMD_OK;
}

/**
 * ftg_cmd_control_send - one request to the live module (stop, reset)
 * @ctx: the invocation; --root is refused (a snapshot cannot change)
 * @send: makes the request on the open control descriptor; <0 on failure
 * @data: passed to @send
 * @doing: what @send does, for the error ("disarming")
 *
 * Checks root and the module, opens ftguard/control, calls @send and
 * closes it (an fd-owned arm made through it would end there).
 *
 * Return: FTG_CMD_OK when @send succeeded, else FTG_CMD_ERROR after a
 * message.
 */
int ftg_cmd_control_send(struct ftg_cmd_ctx *ctx,
			 int (*send)(struct ftg_cmd_ctx *ctx, struct ftg_control *ctl,
				     void *data),
			 void *data, const char *doing)
{
	struct ftg_control *ctl;
	int ret = FTG_CMD_OK;

	if (ftg_cmd_live_only(ctx, "changes the live system") ||
	    ftg_cmd_need(ctx, FTG_NEED_ROOT_USER | FTG_NEED_MODULE))
		return FTG_CMD_ERROR;
	ctl = ftg_control_open(ftg_cmd_root(ctx));
	if (!ctl)
		return ftg_cmd_lib_error(ctx, "opening ftguard/control");
	if (send(ctx, ctl, data) < 0)
		ret = ftg_cmd_lib_error(ctx, doing);
	ftg_control_close(ctl);
	return ret;
}

/**
 * ftg_cmd_lib_error - report a failed library call
 * @ctx: the invocation
 * @what: what was being done ("reading the site table")
 *
 * The library's own message (ftg_error_last()) already says what to do
 * for the common cases (module not loaded, not root, not mounted); errno's
 * text stands in when it has none.
 *
 * Return: FTG_CMD_ERROR, so callers can "return ftg_cmd_lib_error(...)".
 */
int ftg_cmd_lib_error(const struct ftg_cmd_ctx *ctx, const char *what)
{
	const char *msg = ftg_error_last();
	int err = errno;

	if (!msg || !*msg)
		msg = strerror(err);
	ftg_cmd_error(ctx, "%s: %s", what, msg);
	return FTG_CMD_ERROR;
}

volatile sig_atomic_t ftg_cmd_interrupted;

static const int caught_signals[] = { SIGINT, SIGTERM, SIGHUP };

static void on_interrupt(int sig)
{
	(void)sig;
	ftg_cmd_interrupted = 1;
}

void ftg_cmd_catch_signals(struct ftg_saved_signals *saved)
{
	struct sigaction sa = { .sa_handler = on_interrupt };
	size_t i;

	ftg_cmd_interrupted = 0;
	sigemptyset(&sa.sa_mask);
	for (i = 0; i < sizeof(caught_signals) / sizeof(caught_signals[0]); i++)
		sigaction(caught_signals[i], &sa, &saved->old[i]);
}

void ftg_cmd_restore_signals(const struct ftg_saved_signals *saved)
{
	size_t i;

	for (i = 0; i < sizeof(caught_signals) / sizeof(caught_signals[0]); i++)
		sigaction(caught_signals[i], &saved->old[i], NULL);
}

/*
 * Kernel-supplied names and text may hold anything: they never reach a
 * terminal raw. ftg_escape() (libftguard) gives the one visible form,
 * \ooo octal as in the module's tables; a name also has its spaces and
 * backslashes escaped, so it stays one word of a table line.
 */
static int print_escaped(FILE *f, const char *s, unsigned int flags)
{
	char small[256], *buf = small;
	size_t n = ftg_escape(small, sizeof(small), s, flags);

	if (n >= sizeof(small)) {
		buf = malloc(n + 1);
		if (!buf) {
			fputs("?", f);
			return 1;
		}
		ftg_escape(buf, n + 1, s, flags);
	}
	fputs(buf, f);
	if (buf != small)
		free(buf);
	return (int)n;
}

/* Free text (messages, reasons, event lines): spaces stay. */
void ftg_print_safe(FILE *f, const char *s)
{
	print_escaped(f, s, FTG_ESCAPE_TEXT);
}

int ftg_cmd_print_stack(FILE *f, const struct ftg_event *ev)
{
	char text[FTG_STACK_TEXT_LEN + 4 * FTG_STACK_MAX], *line, *nl;

	if (!ftg_event_is_stack(ev) || ftg_stack_snprint(text, sizeof(text), ev) < 0)
		return 0;
	/* line by line: the names come from the kernel, the newlines from us */
	for (line = text; *line; line = nl + 1) {
		nl = strchrnul(line, '\n');
		if (!*nl) {
			ftg_print_safe(f, line);
			fputc('\n', f);
			break;
		}
		*nl = '\0';
		ftg_print_safe(f, line);
		fputc('\n', f);
	}
	return ferror(f) ? -1 : 0;
}

/* A function, module or comm name: one word. */
void ftg_print_name(FILE *f, const char *s)
{
	print_escaped(f, s, 0);
}

/* A name left-aligned in a field of @width columns (at least one space
 * after). */
void ftg_print_name_width(FILE *f, const char *s, int width)
{
	int n = print_escaped(f, s, 0);

	do
		fputc(' ', f);
	while (++n < width);
}

/* Hex digits for addresses: 8 on a 32-bit kernel (i386), else 16. */
int ftg_addr_digits(uint64_t max_addr)
{
	return max_addr <= 0xffffffffULL ? 8 : 16;
}

/* Decimal, 0x-hex or octal, the whole string, no sign. */
int ftg_parse_u64(const char *s, uint64_t *val)
{
	unsigned long long v;
	char *end;

	if (!s || !*s || *s == '-' || isspace((unsigned char)*s)) {
		errno = EINVAL;
		return -1;
	}
	errno = 0;
	v = strtoull(s, &end, 0);
	if (errno || *end) {
		errno = errno ? errno : EINVAL;
		return -1;
	}
	*val = v;
	return 0;
}

/* A buffer size in KiB, as trace-cmd's -b: a positive decimal number. */
int ftg_parse_size_kb(const char *s, unsigned long *kb)
{
	uint64_t v;

	if (ftg_parse_u64(s, &v) < 0 || v == 0 || v > (1ULL << 30)) {
		errno = EINVAL;
		return -1;
	}
	*kb = (unsigned long)v;
	return 0;
}

/**
 * ftg_glob_valid - check a shell glob before handing it to the selection
 * @glob: the pattern
 * @why: set to a reason when invalid
 *
 * Return: true when @glob is well formed.
 */
bool ftg_glob_valid(const char *glob, const char **why)
{
	const char *p;

	if (!*glob) {
		*why = "empty pattern";
		return false;
	}
	for (p = glob; *p; p++) {
		if (*p == '\\') {
			if (!p[1]) {
				*why = "trailing backslash";
				return false;
			}
			p++;
		} else if (*p == '[') {
			const char *q = p + 1;

			if (*q == '!' || *q == '^')
				q++;
			if (*q == ']')
				q++;
			while (*q && *q != ']')
				q++;
			if (!*q) {
				*why = "'[' without a closing ']'";
				return false;
			}
			p = q;
		} else if ((unsigned char)*p < 0x20) {
			*why = "control character in pattern";
			return false;
		}
	}
	return true;
}

void ftg_cmd_print_keys(const char *title, const struct ftg_keys *keys)
{
	size_t i;

	printf("\n%s:\n", title);
	for (i = 0; i < ftg_keys_count(keys); i++) {
		printf("  %-22s ", ftg_keys_name(keys, i));
		ftg_print_safe(stdout, ftg_keys_value(keys, i));
		putchar('\n');
	}
}
