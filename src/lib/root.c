// SPDX-License-Identifier: LGPL-2.1
/*
 * Roots: where the kernel's files are read from, the live system or a
 * snapshot directory (doc/snapshot.md).
 */
#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "ftguard-local.h"

struct ftg_root {
	char *proc;
	char *sys;
	char *debugfs;
	char *tracefs;
	char *dir;		/* the snapshot directory, NULL live */
	bool snapshot;
};

/* A path that exists, or that exists but we may not look into (a tracefs
 * mount is 0700 for non-root): both mean "mounted here". */
static bool present(const char *path)
{
	struct stat st;

	return stat(path, &st) == 0 || errno == EACCES;
}

const char *ftgl_live_tracefs(void)
{
	if (present("/sys/kernel/tracing/available_filter_functions"))
		return "/sys/kernel/tracing";
	if (present("/sys/kernel/debug/tracing/available_filter_functions"))
		return "/sys/kernel/debug/tracing";
	return "/sys/kernel/tracing";
}

/* DIR/ftguard-snapshot is optional (a snapshot made by hand with cp works),
 * but when present its format version must be one we read. */
static int check_snapshot_version(const char *dir)
{
	unsigned int version;
	char *text = ftgl_read_file(dir, "ftguard-snapshot", NULL);
	int ret = 0;

	if (!text)
		return 0;
	if (sscanf(text, "ftguard-snapshot %u", &version) != 1)
		ret = ftgl_err(FTG_E_BAD_SNAPSHOT, EPROTO,
			       "%s/ftguard-snapshot: no \"ftguard-snapshot <version>\" line",
			       dir);
	else if (version != 1)
		ret = ftgl_err(FTG_E_BAD_VERSION, EPROTO,
			       "%s: snapshot format version %u is not supported (this libftguard reads version 1)",
			       dir, version);
	free(text);
	return ret;
}

struct ftg_root *ftg_root_open(const char *dir)
{
	struct ftg_root *root = calloc(1, sizeof(*root));
	struct stat st;

	ftg_error_clear();
	if (!root) {
		ftgl_err(FTG_E_SYSTEM, ENOMEM, "out of memory");
		return NULL;
	}
	if (!dir) {
		root->proc = strdup("/proc");
		root->sys = strdup("/sys");
		root->debugfs = strdup(FTGL_DEFAULT_DEBUGFS);
		root->tracefs = strdup(ftgl_live_tracefs());
	} else {
		root->snapshot = true;
		root->dir = strdup(dir);
		root->proc = ftgl_path(dir, "proc");
		root->sys = ftgl_path(dir, "sys");
		root->debugfs = ftgl_path(dir, "debug");
		root->tracefs = ftgl_path(dir, "tracing");
	}
	if (!root->proc || !root->sys || !root->debugfs || !root->tracefs ||
	    (dir && !root->dir)) {
		ftg_root_free(root);
		ftgl_err(FTG_E_SYSTEM, ENOMEM, "out of memory");
		return NULL;
	}
	if (dir && check_snapshot_version(dir)) {
		ftg_root_free(root);
		return NULL;
	}
	if (dir && (stat(root->proc, &st) || !S_ISDIR(st.st_mode))) {
		ftg_root_free(root);
		ftgl_err(FTG_E_BAD_SNAPSHOT, ENOENT,
			 "%s: not an ftguard snapshot (no proc/ directory; see doc/snapshot.md)",
			 dir);
		return NULL;
	}
	return root;
}

struct ftg_root *ftg_root_open_dirs(const char *proc, const char *sys,
				    const char *debugfs, const char *tracefs)
{
	struct ftg_root *root = calloc(1, sizeof(*root));

	ftg_error_clear();
	if (!root) {
		ftgl_err(FTG_E_SYSTEM, ENOMEM, "out of memory");
		return NULL;
	}
	root->proc = strdup(proc ? proc : "/proc");
	root->sys = strdup(sys ? sys : "/sys");
	root->debugfs = strdup(debugfs ? debugfs : FTGL_DEFAULT_DEBUGFS);
	root->tracefs = strdup(tracefs ? tracefs : ftgl_live_tracefs());
	if (!root->proc || !root->sys || !root->debugfs || !root->tracefs) {
		ftg_root_free(root);
		ftgl_err(FTG_E_SYSTEM, ENOMEM, "out of memory");
		return NULL;
	}
	return root;
}

void ftg_root_free(struct ftg_root *root)
{
	if (!root)
		return;
	free(root->proc);
	free(root->sys);
	free(root->debugfs);
	free(root->tracefs);
	free(root->dir);
	free(root);
}

/*
 * A NULL root is the live system, as libtracefs takes a NULL instance for
 * the top one: this root, whose tracefs is found at its first use.
 */
static struct ftg_root live_root = {
	.proc = (char *)"/proc",
	.sys = (char *)"/sys",
	.debugfs = (char *)FTGL_DEFAULT_DEBUGFS,
};
static pthread_once_t live_root_once = PTHREAD_ONCE_INIT;

static void live_root_init(void)
{
	live_root.tracefs = (char *)ftgl_live_tracefs();
}

static const struct ftg_root *or_live(const struct ftg_root *root)
{
	if (root)
		return root;
	pthread_once(&live_root_once, live_root_init);
	return &live_root;
}

const char *ftg_root_proc(const struct ftg_root *root)
{
	return or_live(root)->proc;
}

const char *ftg_root_sys(const struct ftg_root *root)
{
	return or_live(root)->sys;
}

const char *ftg_root_debugfs(const struct ftg_root *root)
{
	return or_live(root)->debugfs;
}

const char *ftg_root_tracefs(const struct ftg_root *root)
{
	return or_live(root)->tracefs;
}

const char *ftgl_root_dir(const struct ftg_root *root)
{
	return or_live(root)->dir;
}

bool ftg_root_is_snapshot(const struct ftg_root *root)
{
	return or_live(root)->snapshot;
}
