/* SPDX-License-Identifier: LGPL-2.1 */
/*
 * Shared bits of libftguard's unit tests: cmocka, the fixture trees
 * (tests/fixtures/<name>, laid out as a snapshot, doc/snapshot.md), a
 * warning collector, and for the trace tests fixture pages, scratch
 * directories and `trace-cmd report`.
 */
#ifndef _FTG_LIB_TEST_H
#define _FTG_LIB_TEST_H

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>

#include "ftguard.h"
#include "lib/ftguard-test.h"

#ifndef FTG_FIXTURES
#error "FTG_FIXTURES must name tests/fixtures"
#endif

/* FTG_FIXTURES "/<tree>/<sub>" as a string literal. */
#define FIXTURE(tree, sub)	FTG_FIXTURES "/" tree "/" sub

/* Asserts that a string contains @needle, printing both when not. */
#define assert_contains(haystack, needle)				\
	do {								\
		const char *_h = (haystack), *_n = (needle);		\
		if (!_h || !strstr(_h, _n))				\
			fail_msg("\"%s\" does not contain \"%s\"",	\
				 _h ? _h : "(null)", _n);		\
	} while (0)

/*
 * Roots for the readers, kept until the test binary exits so that a call
 * can name one where it reads: fixture_root() on a fixture tree laid out
 * as a snapshot, test_root() on directories named one by one for what is
 * not (a scratch debugfs, a copied tracefs). A NULL directory of
 * test_root() is one that does not exist, never the live system's: a unit
 * test reads only what it is given.
 */
struct test_roots {
	struct ftg_root **v;
	size_t n;
};

static inline struct test_roots *test_roots(void)
{
	static struct test_roots roots;

	return &roots;
}

static inline void test_roots_free(void)
{
	struct test_roots *r = test_roots();

	while (r->n)
		ftg_root_free(r->v[--r->n]);
	free(r->v);
	r->v = NULL;
}

static inline const struct ftg_root *keep_root(struct ftg_root *root)
{
	static bool registered;
	struct test_roots *r = test_roots();

	assert_non_null(root);
	if (!registered)
		atexit(test_roots_free);
	registered = true;
	r->v = realloc(r->v, (r->n + 1) * sizeof(*r->v));
	assert_non_null(r->v);
	r->v[r->n++] = root;
	return root;
}

/* The root of fixture tree @tree (tests/fixtures/@tree). */
static inline const struct ftg_root *fixture_root(const char *tree)
{
	char dir[512];

	snprintf(dir, sizeof(dir), "%s/%s", FTG_FIXTURES, tree);
	return keep_root(ftg_root_open(dir));
}

#define TEST_NO_DIR	"/nonexistent"

/* A root of these directories; NULL: one that does not exist. */
static inline const struct ftg_root *test_root(const char *proc, const char *sys,
					       const char *debugfs,
					       const char *tracefs)
{
	return keep_root(ftg_root_open_dirs(proc ? proc : TEST_NO_DIR,
					    sys ? sys : TEST_NO_DIR,
					    debugfs ? debugfs : TEST_NO_DIR,
					    tracefs ? tracefs : TEST_NO_DIR));
}

/* The address map of fixture tree @tree; the test fails when it cannot load. */
static inline struct ftg_map *load_fixture_map(const char *tree)
{
	char dir[512];
	struct ftg_root *root;
	struct ftg_map *map;

	snprintf(dir, sizeof(dir), "%s/%s", FTG_FIXTURES, tree);
	root = ftg_root_open(dir);
	assert_non_null(root);
	map = ftg_map_load(root);
	ftg_root_free(root);
	assert_non_null(map);
	return map;
}

/*
 * The whole of @path, NUL-terminated, its length in @len; NULL when it
 * cannot be opened (a short read fails the test).
 */
static inline char *read_whole_file(const char *path, size_t *len)
{
	FILE *f = fopen(path, "r");
	char *buf;
	long n;

	*len = 0;
	if (!f)
		return NULL;
	fseek(f, 0, SEEK_END);
	n = ftell(f);
	rewind(f);
	buf = malloc(n + 1);
	assert_non_null(buf);
	assert_int_equal(fread(buf, 1, n, f), (size_t)n);
	fclose(f);
	buf[n] = '\0';
	*len = n;
	return buf;
}

static inline void count_warning(const char *msg, void *data)
{
	(void)msg;
	(*(int *)data)++;
}



/*
 * @n events (@ev) through an exporter in @fmt, by its event callback as
 * report and export feed it; the output as one string (free() it).
 */
static inline char *export_events(enum ftg_export_format fmt,
				  const struct ftg_event *ev, int n)
{
	struct ftg_exporter *ex;
	char *buf = NULL;
	size_t len = 0;
	FILE *out;
	int i;

	out = open_memstream(&buf, &len);
	assert_non_null(out);
	ex = ftg_exporter_open(out, fmt);
	assert_non_null(ex);
	for (i = 0; i < n; i++)
		assert_int_equal(ftg_exporter_cb(&ev[i], ex), 0);
	assert_int_equal(ftg_exporter_close(ex), 0);
	fclose(out);
	return buf;
}

/*
 * The trace-file and live-event tests: the real 6.1 formats and
 * ring-buffer pages, scratch directories and `trace-cmd report`.
 */
#define TRACE_FIXTURES FTG_FIXTURES "/trace"

/*
 * libtracecmd 1.3 never frees the trace-clock name it sscanf("%ms")s
 * from a file's TRACECLOCK option (extract_trace_clock()); the unwinder
 * stops inside libc, so the suppression names the sscanf frame.
 * libtraceevent 1.7.1's tep_filter_add_filter_str() leaks strings it
 * asprintf()s while parsing; the unwinder reaches it only where a test
 * asks for the slow one (test-trace-filter), and its name is what is
 * suppressed, not asprintf, which would hide ftguard's own.
 */
const char *__lsan_default_suppressions(void);
const char *__lsan_default_suppressions(void)
{
	return "leak:libtracecmd.so\nleak:__isoc99_vsscanf\n"
	       "leak:tep_filter_add_filter_str\n";
}

/* ftg_trace_file_open(), its error (ftg_error_last()) copied into @err. */
static inline struct ftg_trace_file *tt_open(const char *path, char *err,
					     size_t errlen)
{
	struct ftg_trace_file *tf = ftg_trace_file_open(path);
	int errnum = errno;

	snprintf(err, errlen, "%s", ftg_error_last());
	errno = errnum;
	return tf;
}

static inline char *tt_path(const char *dir, const char *name)
{
	char *p;

	assert_true(asprintf(&p, "%s/%s", dir, name) > 0);
	return p;
}

/*
 * Adds every page of the fixture TRACE_FIXTURES/<@prefix><@cpu>.bin (raw
 * ring-buffer pages of 4096 bytes, as per_cpu/cpuN/trace_pipe_raw gives
 * them) to @w as @cpu's.
 */
static inline void tt_add_fixture_pages(struct ftg_trace_writer *w, int cpu,
					const char *prefix)
{
	unsigned char page[4096];
	char *path;
	FILE *fp;

	assert_true(asprintf(&path, "%s/%s%d.bin", TRACE_FIXTURES, prefix,
			     cpu) > 0);
	fp = fopen(path, "rb");
	assert_non_null(fp);
	while (fread(page, 1, sizeof(page), fp) == sizeof(page))
		assert_int_equal(ftg_trace_writer_add_page(w, cpu, page,
							   sizeof(page)), 0);
	fclose(fp);
	free(path);
}

static inline char *tt_tmpdir(void)
{
	char *dir = strdup("/tmp/ftg-trace-test-XXXXXX");

	assert_non_null(dir);
	assert_non_null(mkdtemp(dir));
	return dir;
}

static inline void tt_rmdir(char *dir)
{
	char *cmd;

	assert_true(asprintf(&cmd, "rm -rf '%s'", dir) > 0);
	assert_int_equal(system(cmd), 0);
	free(cmd);
	free(dir);
}

static inline struct ftg_trace_formats *tt_formats(void)
{
	struct ftg_trace_formats *fmt;

	fmt = ftg_trace_formats_read(TRACE_FIXTURES "/tracefs", NULL,
				     TRACE_FIXTURES "/proc");
	assert_non_null(fmt);
	return fmt;
}

/* Lines of output, NULL-terminated; free with tt_lines_free(). */
static inline char **tt_lines(FILE *fp, size_t *count)
{
	char **lines = NULL, *line = NULL;
	size_t n = 0, cap = 0;

	while (getline(&line, &cap, fp) > 0) {
		line[strcspn(line, "\n")] = '\0';
		lines = realloc(lines, (n + 2) * sizeof(*lines));
		assert_non_null(lines);
		lines[n++] = strdup(line);
	}
	free(line);
	if (!lines)
		lines = calloc(1, sizeof(*lines));
	lines[n] = NULL;
	if (count)
		*count = n;
	return lines;
}

static inline void tt_lines_free(char **lines)
{
	size_t i;

	for (i = 0; lines && lines[i]; i++)
		free(lines[i]);
	free(lines);
}

static inline bool tt_have_trace_cmd(void)
{
	return system("command -v trace-cmd >/dev/null 2>&1") == 0;
}

/* The output lines of shell command @cmd (freed here), asserting it
 * exited 0. */
static inline char **tt_command_lines(char *cmd, size_t *count)
{
	char **lines;
	FILE *fp = popen(cmd, "r");

	assert_non_null(fp);
	lines = tt_lines(fp, count);
	assert_int_equal(pclose(fp), 0);
	free(cmd);
	return lines;
}

/*
 * `trace-cmd report` of @file with @opts; returns its stdout lines and
 * asserts it exited 0. Skips the test when trace-cmd is not installed.
 */
static inline char **tt_report(const char *file, const char *opts,
			       size_t *count)
{
	char *cmd;

	if (!tt_have_trace_cmd())
		skip();
	assert_true(asprintf(&cmd, "trace-cmd report %s -i '%s' 2>/dev/null",
			     opts, file) > 0);
	return tt_command_lines(cmd, count);
}

/*
 * KernelShark's library reading @file (tests/unit/kshark-cat): its
 * lines, asserting it exited 0. Skips the test when kshark-cat was not
 * built (configure found no libkshark).
 */
static inline char **tt_kshark(const char *file, size_t *count)
{
	char *cmd;

	if (access(FTG_KSHARK_CAT, X_OK))
		skip();
	/* stderr: libtracecmd warns about options it does not know; in the
	 * sanitized build, LeakSanitizer would fail it for libkshark's own
	 * leaks (kshark_add_stream), which are not ftguard's */
	assert_true(asprintf(&cmd, "ASAN_OPTIONS=detect_leaks=0 '%s' '%s' 2>/dev/null",
			     FTG_KSHARK_CAT, file) > 0);
	return tt_command_lines(cmd, count);
}

/*
 * Sends this process's stderr into @path until tt_stderr_end(), which
 * returns what was written there (free() it): for checking that the
 * library warns about nothing.
 */
static inline int tt_stderr_begin(const char *path)
{
	int saved, fd;

	fflush(stderr);
	saved = dup(STDERR_FILENO);
	fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
	assert_true(saved >= 0 && fd >= 0);
	assert_true(dup2(fd, STDERR_FILENO) >= 0);
	close(fd);
	return saved;
}

static inline char *tt_stderr_end(const char *path, int saved)
{
	size_t len;
	char *text;

	fflush(stderr);
	assert_true(dup2(saved, STDERR_FILENO) >= 0);
	close(saved);
	text = read_whole_file(path, &len);
	assert_non_null(text);
	return text;
}

/* Number of @lines containing @needle. */
static inline size_t tt_count(char **lines, const char *needle)
{
	size_t i, n = 0;

	for (i = 0; lines[i]; i++)
		n += strstr(lines[i], needle) != NULL;
	return n;
}

#endif /* _FTG_LIB_TEST_H */
