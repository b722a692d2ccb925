// SPDX-License-Identifier: LGPL-2.1
/*
 * ftguard.ko's debugfs tables (doc/interface.md, format version 1): what
 * they share. Unlike the kernel's own files they are a versioned contract:
 * an unknown version is refused and a malformed line fails the read,
 * naming table and line. When a table is missing, say why (not root,
 * debugfs not mounted, module not loaded). Every table goes through one
 * frame, ftgl_kmod_table_parse() (header, lines, limits); their lines are
 * parsed in kmod-status.c, kmod-sites.c and kmod-check.c.
 */
#include <errno.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/vfs.h>

#include "ftguard-local.h"
#include "kmod-local.h"

#define DEBUGFS_MAGIC	0x64626720

/*
 * The lockdown file lives in securityfs, next to debugfs under /sys/kernel,
 * so it is found relative to @debugfs_dir (a snapshot has none).
 */
char *ftgl_lockdown_mode(const char *debugfs_dir)
{
	char *parent, *text, *open_br, *close_br, *mode = NULL;
	const char *slash = strrchr(debugfs_dir, '/');
	size_t len;

	if (!slash)
		return NULL;
	parent = strndup(debugfs_dir, slash - debugfs_dir);
	if (!parent)
		return NULL;
	text = ftgl_read_file(parent, "security/lockdown", &len);
	free(parent);
	if (!text)
		return NULL;
	open_br = strchr(text, '[');
	close_br = open_br ? strchr(open_br, ']') : NULL;
	if (close_br && strncmp(open_br + 1, "none]", 5))
		mode = strndup(open_br + 1, close_br - open_br - 1);
	free(text);
	return mode;
}

int ftgl_kmod_missing(const char *debugfs_dir, const char *file, int errnum)
{
	struct statfs sfs;
	struct stat st;
	char *dir, *lockdown;
	bool have_dir;

	/*
	 * Under lockdown debugfs refuses root too, with EPERM, every open of
	 * a file that is writable or opened for writing (doc/secure-boot.md).
	 */
	if (errnum == EPERM && (lockdown = ftgl_lockdown_mode(debugfs_dir))) {
		ftgl_err(FTG_E_NOT_ROOT, errnum,
			 "%s/ftguard/%s: refused by kernel lockdown (%s): "
			 "debugfs opens no writable file while the kernel is "
			 "locked down, so ftguard.ko can report but not check "
			 "or arm (see doc/secure-boot.md)",
			 debugfs_dir, file, lockdown);
		free(lockdown);
		errno = errnum;
		return -1;
	}
	if (errnum == EACCES || errnum == EPERM)
		return ftgl_err(FTG_E_NOT_ROOT, errnum,
				"%s/ftguard/%s: permission denied (run as root)",
				debugfs_dir, file);
	if (stat(debugfs_dir, &st) && (errno == EACCES || errno == EPERM))
		return ftgl_err(FTG_E_NOT_ROOT, errno,
				"%s: permission denied (run as root)", debugfs_dir);
	dir = ftgl_path(debugfs_dir, FTGUARD_DIR);
	if (!dir)
		return -1;
	have_dir = !stat(dir, &st);
	free(dir);
	if (have_dir)
		return ftgl_err(errnum == ENOENT ? FTG_E_BAD_VERSION : FTG_E_SYSTEM,
				errnum, "%s/ftguard/%s: %s%s", debugfs_dir, file,
				strerror(errnum),
				errnum == ENOENT ? " (a saved snapshot, or an ftguard.ko older than this libftguard)" : "");
	/* No ftguard directory: is debugfs itself there? A live debugfs
	 * root has its magic; a snapshot directory is only checked to
	 * exist. */
	if (!strcmp(debugfs_dir, FTGL_DEFAULT_DEBUGFS) &&
	    (statfs(debugfs_dir, &sfs) || sfs.f_type != DEBUGFS_MAGIC))
		return ftgl_err(FTG_E_NO_DEBUGFS, ENODEV,
				"debugfs is not mounted on %s (mount -t debugfs none /sys/kernel/debug)",
				debugfs_dir);
	return ftgl_err(FTG_E_NO_MODULE, ENODEV,
			"no %s/ftguard: ftguard.ko is not loaded (insmod ftguard.ko or modprobe ftguard)",
			debugfs_dir);
}

char *ftgl_kmod_read(const char *debugfs_dir, const char *table, size_t *len)
{
	char *dir, *buf;

	if (!debugfs_dir)
		debugfs_dir = FTGL_DEFAULT_DEBUGFS;
	dir = ftgl_path(debugfs_dir, FTGUARD_DIR);
	if (!dir)
		return NULL;
	buf = ftgl_read_file(dir, table, len);
	free(dir);
	if (!buf && errno != ENOMEM && errno != EFBIG)
		ftgl_kmod_missing(debugfs_dir, table, errno);
	return buf;
}

/* The newest format version of @table this library reads (from 1 up). */
static unsigned int table_version_max(const char *table)
{
	return strcmp(table, FTGUARD_TABLE_SITES) ? FTG_FORMAT_VERSION :
					FTG_SITES_FORMAT_VERSION;
}

int ftgl_kmod_header(const char *table, const char *line,
		     unsigned int *version_out)
{
	unsigned int max = table_version_max(table);
	char want[64];
	uint64_t version;
	size_t n;

	n = (size_t)snprintf(want, sizeof(want), FTGUARD_HEADER("%s") " ", table);
	if (!line || strncmp(line, want, n))
		return ftgl_err(FTG_E_NO_HEADER, EPROTO,
				"%s: no \"ftguard-%s <version>\" header line",
				table, table);
	if (ftgl_parse_u64(line + n, &version))
		return ftgl_err(FTG_E_NO_HEADER, EPROTO,
				"%s: malformed header \"%.64s\"", table, line);
	if (version < 1 || version > max)
		return ftgl_err(FTG_E_BAD_VERSION, EPROTO,
				"%s: format version %llu is not supported (this libftguard reads versions 1 to %u); use matching ftguard.ko and libftguard",
				table, (unsigned long long)version, max);
	*version_out = version;
	return 0;
}

/*
 * A site's prologue as the tables print it: hex of the site, after the
 * prefix's hex and a colon when the record is not at the function's
 * start ("f30f1efa:0f1f440000"), or "-" when it was not read.
 */
bool ftgl_valid_bytes(const char *s)
{
	const char *hex = "0123456789abcdefABCDEF";
	size_t n = strlen(s), prefix;

	if (!strcmp(s, "-"))
		return true;
	if (!n || n > 64)
		return false;
	prefix = strspn(s, hex);
	if (s[prefix] == ':' && prefix)
		s += prefix + 1, n -= prefix + 1;
	return n && strspn(s, hex) == n;
}

int ftgl_bad_line(const char *table, unsigned long lineno, const char *what)
{
	return ftgl_err(FTG_E_BAD_LINE, EINVAL, "%s:%lu: %s", table, lineno,
			what);
}

/* A mutable copy of @text for the parsers, which cut lines in place. */
char *ftgl_copy_text(const char *text, size_t len)
{
	char *buf;

	if (!text) {
		ftgl_err(FTG_E_BAD_ARGUMENT, EINVAL, "no text");
		return NULL;
	}
	buf = malloc(len + 1);
	if (!buf) {
		ftgl_err(FTG_E_SYSTEM, ENOMEM, "out of memory");
		return NULL;
	}
	memcpy(buf, text, len);
	buf[len] = '\0';
	return buf;
}

/* The frame of every table, on a mutable, NUL-terminated @buf. */
static int table_parse(const char *table, const char *what, char *buf,
		       size_t len, ftgl_table_line_fn line_fn, void *obj)
{
	struct ftgl_lines lines;
	unsigned int version;
	char *line;

	ftgl_lines_init(&lines, buf, len);
	if (ftgl_kmod_header(table, ftgl_lines_next(&lines), &version))
		return -1;
	while ((line = ftgl_lines_next(&lines)))
		if (*line && line_fn(obj, line, lines.lineno, version))
			return -1;
	if (lines.too_long)
		return ftgl_err(FTG_E_LINE_TOO_LONG, EINVAL, "%s: line too long",
				what);
	return 0;
}

int ftgl_kmod_table_parse(const char *table, const char *what,
			  const char *text, size_t len,
			  ftgl_table_line_fn line_fn, void *obj)
{
	char *buf = ftgl_copy_text(text, len);
	int ret;

	if (!buf)
		return -1;
	ret = table_parse(table, what, buf, len, line_fn, obj);
	free(buf);
	return ret;
}

int ftgl_kmod_table_read(const char *debugfs_dir, const char *table,
			 ftgl_table_line_fn line_fn, void *obj)
{
	size_t len;
	char *buf = ftgl_kmod_read(debugfs_dir, table, &len);
	int ret;

	if (!buf)
		return -1;
	ret = table_parse(table, table, buf, len, line_fn, obj);
	free(buf);
	return ret;
}

/* Index of @word in @names[0..@n) (NULL entries skipped), or -1. */
int ftgl_name_index(const char *const *names, size_t n, const char *word)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (names[i] && !strcmp(names[i], word))
			return (int)i;
	return -1;
}

/* Unescapes a name word and pools it; NULL on error (recorded). */
const char *ftgl_pool_name(struct ftgl_pool *pool, char *word,
			   const char *table, unsigned long lineno)
{
	if (ftg_unescape(word)) {
		ftgl_err_prefix("%s:%lu", table, lineno);
		return NULL;
	}
	return ftgl_pool_strdup(pool, word);
}
