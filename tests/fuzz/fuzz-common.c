// SPDX-License-Identifier: LGPL-2.1
/*
 * Private roots, packs and small helpers for the harnesses (see
 * fuzz-common.h).
 */
#include <errno.h>
#include <ftw.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "fuzz-common.h"

#ifndef FTG_FIXTURES
#error "FTG_FIXTURES must name tests/fixtures"
#endif

volatile uint64_t fz_sink;

static char root_dir[PATH_MAX];
static pid_t root_owner;

/* A failure of the harness itself: stop loudly, it is not a finding. */
static void harness_die(const char *what, const char *path)
{
	fprintf(stderr, "fuzz harness: %s %s: %s\n", what, path, strerror(errno));
	abort();
}

static int remove_entry(const char *path, const struct stat *st, int flag,
			struct FTW *ftw)
{
	if (ftw->level == 0)
		return 0;	/* the root itself stays */
	if (remove(path))
		harness_die("cannot remove", path);
	return 0;
}

static void remove_root(void)
{
	/* a fork()ed child (the trace reader's preflight) must not */
	if (getpid() != root_owner || !root_dir[0])
		return;
	nftw(root_dir, remove_entry, 16, FTW_DEPTH | FTW_PHYS);
	rmdir(root_dir);
}

const char *fz_root(void)
{
	const char *tmp = getenv("TMPDIR");

	if (root_dir[0])
		return root_dir;
	snprintf(root_dir, sizeof(root_dir), "%s/ftg-fuzz-XXXXXX",
		 tmp && *tmp ? tmp : "/tmp");
	if (!mkdtemp(root_dir))
		harness_die("cannot create", root_dir);
	root_owner = getpid();
	atexit(remove_root);
	return root_dir;
}

const struct ftg_root *fz_lib_root(void)
{
	static struct ftg_root *root;
	char *proc, *sys, *debug, *tracing;

	if (root)
		return root;
	proc = fz_path("proc");
	sys = fz_path("sys");
	debug = fz_path("debug");
	tracing = fz_path("tracing");
	root = ftg_root_open_dirs(proc, sys, debug, tracing);
	if (!root)
		harness_die("cannot make a root of", fz_root());
	free(proc);
	free(sys);
	free(debug);
	free(tracing);
	return root;
}

char *fz_path(const char *rel)
{
	char *p;

	if (asprintf(&p, "%s/%s", fz_root(), rel) < 0)
		abort();
	return p;
}

static void make_parents(char *path)
{
	char *slash;

	for (slash = strchr(path + strlen(fz_root()) + 1, '/'); slash;
	     slash = strchr(slash + 1, '/')) {
		*slash = '\0';
		if (mkdir(path, 0700) && errno != EEXIST)
			harness_die("cannot create", path);
		*slash = '/';
	}
}

void fz_write(const char *rel, const void *data, size_t size)
{
	char *path = fz_path(rel);
	FILE *f;

	make_parents(path);
	f = fopen(path, "wb");
	if (!f || (size && fwrite(data, 1, size, f) != size) || fclose(f))
		harness_die("cannot write", path);
	free(path);
}

void fz_reset(void)
{
	nftw(fz_root(), remove_entry, 16, FTW_DEPTH | FTW_PHYS);
}

const char *fz_input(const char *dir, const char *file, const void *data,
		     size_t size)
{
	static char *root, *root_dir;
	char *rel;

	if (!root_dir || strcmp(root_dir, dir)) {
		free(root);
		free(root_dir);
		root = fz_path(dir);
		root_dir = strdup(dir);
		if (!root_dir)
			abort();
	}
	if (asprintf(&rel, "%s/%s", dir, file) < 0)
		abort();
	fz_reset();
	fz_write(rel, data, size);
	free(rel);
	return root;
}

/* A file or directory name: printable, no '/', not "." or "..". */
static bool name_ok(const char *s, size_t n)
{
	size_t i;

	if (!n || n > 64 || (s[0] == '.' && (n == 1 || (n == 2 && s[1] == '.'))))
		return false;
	for (i = 0; i < n; i++)
		if (s[i] < '!' || s[i] > '~' || s[i] == '/')
			return false;
	return true;
}

bool fz_path_allowed(const char *rel)
{
	static const char *const fixed[] = {
		"ftguard-snapshot",
		"proc/kallsyms", "proc/modules", "proc/vmallocinfo",
		"debug/ftguard/status", "debug/ftguard/sites",
		"debug/ftguard/modules", "debug/ftguard/check",
		"tracing/available_filter_functions",
		"tracing/enabled_functions", "tracing/touched_functions",
	};
	const char *mod, *sec;
	size_t i;

	for (i = 0; i < sizeof(fixed) / sizeof(fixed[0]); i++)
		if (!strcmp(rel, fixed[i]))
			return true;
	/* sys/module/<module>/sections/<section> */
	if (strncmp(rel, "sys/module/", 11))
		return false;
	mod = rel + 11;
	sec = strstr(mod, "/sections/");
	if (!sec || !name_ok(mod, sec - mod))
		return false;
	sec += 10;
	return name_ok(sec, strlen(sec));
}

/* One pack entry: its path (NUL-terminated in @rel) and bytes. */
struct pack_entry {
	char rel[256];
	const uint8_t *bytes;
	size_t len;
};

/* The next entry at or after *@pos; false at the end of the pack. */
static bool pack_next(const uint8_t **pos, const uint8_t *end,
		      struct pack_entry *e)
{
	while (*pos < end) {
		const uint8_t *entry = memchr(*pos, FZ_PACK_MARK, end - *pos);
		const uint8_t *nl, *next;

		if (!entry)
			break;
		entry++;
		next = memchr(entry, FZ_PACK_MARK, end - entry);
		if (!next)
			next = end;
		*pos = next;
		nl = memchr(entry, '\n', next - entry);
		if (!nl || (size_t)(nl - entry) >= sizeof(e->rel) ||
		    memchr(entry, '\0', nl - entry))
			continue;
		memcpy(e->rel, entry, nl - entry);
		e->rel[nl - entry] = '\0';
		e->bytes = nl + 1;
		e->len = next - (nl + 1);
		return true;
	}
	*pos = end;
	return false;
}

size_t fz_unpack(const uint8_t *data, size_t size)
{
	const uint8_t *pos = data;
	struct pack_entry e;
	size_t written = 0;

	fz_reset();
	while (pack_next(&pos, data + size, &e)) {
		if (!fz_path_allowed(e.rel))
			continue;
		fz_write(e.rel, e.bytes, e.len);
		written++;
	}
	return written;
}

const uint8_t *fz_pack_get(const uint8_t *data, size_t size, const char *rel,
			   size_t *len)
{
	const uint8_t *pos = data;
	struct pack_entry e;

	while (pack_next(&pos, data + size, &e)) {
		if (!strcmp(e.rel, rel)) {
			*len = e.len;
			return e.bytes;
		}
	}
	*len = 0;
	return NULL;
}

char *fz_strndup(const uint8_t *data, size_t size)
{
	char *s = malloc(size + 1);

	if (!s)
		abort();
	memcpy(s, data, size);
	s[size] = '\0';
	return s;
}

size_t fz_lines(const uint8_t *data, size_t size, char **lines, size_t max)
{
	const uint8_t *p = data, *end = data + size;
	size_t n = 0;

	while (p < end && n < max) {
		const uint8_t *nl = memchr(p, '\n', end - p);
		const uint8_t *stop = nl ? nl : end;

		lines[n++] = fz_strndup(p, stop - p);
		p = nl ? nl + 1 : end;
	}
	return n;
}

void fz_free_lines(char **lines, size_t n)
{
	while (n)
		free(lines[--n]);
}

int fz_print_event(const struct ftg_event *ev, void *data)
{
	char line[512];

	fz_use(ftg_event_snprint(line, sizeof(line), ev));
	fz_use_str(line);
	return data && ++*(size_t *)data > 100000;
}

const char *fz_fixture(const char *rel)
{
	static char path[PATH_MAX];

	snprintf(path, sizeof(path), "%s/%s", FTG_FIXTURES, rel);
	return path;
}
