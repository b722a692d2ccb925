// SPDX-License-Identifier: LGPL-2.1
/*
 * vm-conform: what the real ftguard.ko rendered, held against libftguard's
 * readers field by field (guest script tests/vm/guest/kmod-conformance.sh,
 * copied into the guest as /usr/bin/ftg-vm-conform). Linked with the
 * library's objects rather than its shared library, so that it can ask
 * which status keys the library knows.
 *
 *   ftg-vm-conform tables [DIR]
 *	status, sites, modules and check of the live debugfs (or of DIR,
 *	a copy of its ftguard directory): a status key
 *	the library does not know, a key of ftg_uapi.h the module did not
 *	print (or printed twice), a value the library cannot read, a line
 *	the library refuses, or a field it read otherwise than written.
 *   ftg-vm-conform error NAME COMMAND <&CONTROL
 *	writes COMMAND on the control file given as stdin, which must refuse
 *	it with errno NAME; the response must name that errno and the
 *	library must read it back as the same errno and reason.
 *   ftg-vm-conform errnos
 *	the errno names of the protocol, one a line.
 *
 * Each problem is one "conform: FAIL ..." line; exit status 1 when any.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "ftguard.h"
#include "../../src/lib/ftguard-local.h"
#include "../../src/lib/kmod-local.h"

static int problems;
static const char *table_dir = "/sys/kernel/debug/ftguard";

static void problem(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static void problem(const char *fmt, ...)
{
	va_list ap;

	printf("conform: FAIL ");
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	putchar('\n');
	problems++;
}

/* The whole of a debugfs table, NUL-terminated. */
static char *slurp(const char *table, size_t *len)
{
	char path[256];
	FILE *f;
	char *text = NULL;
	size_t cap = 0, n;

	snprintf(path, sizeof(path), "%s/%s", table_dir, table);
	f = fopen(path, "r");
	if (!f) {
		problem("%s: %s", path, strerror(errno));
		return NULL;
	}
	*len = 0;
	do {
		if (*len + 4096 + 1 > cap) {
			cap = cap ? 2 * cap : 65536;
			text = realloc(text, cap);
			if (!text) {
				fclose(f);
				problem("%s: out of memory", path);
				return NULL;
			}
		}
		n = fread(text + *len, 1, cap - *len - 1, f);
		*len += n;
	} while (n);
	fclose(f);
	text[*len] = '\0';
	return text;
}

/* Splits @text into lines in place; the number of lines. */
static size_t lines_of(char *text, char **lines, size_t max)
{
	size_t n = 0;
	char *save = NULL, *l;

	for (l = strtok_r(text, "\n", &save); l && n < max;
	     l = strtok_r(NULL, "\n", &save))
		lines[n++] = l;
	return n;
}

static uint64_t num(const char *s, int base)
{
	return strtoull(s, NULL, base);
}

/* A name field as written (escaped) against the library's reading. */
static void same_name(const char *table, size_t line, const char *field,
		      const char *raw, const char *parsed)
{
	char *want = ftgl_unescape_dup(raw);

	if (!want || !parsed || strcmp(want, parsed))
		problem("%s:%zu: %s \"%s\" read as \"%s\"", table, line, field,
			raw, parsed ? parsed : "(null)");
	free(want);
}

static void same_num(const char *table, size_t line, const char *field,
		     const char *raw, int base, uint64_t parsed)
{
	if (num(raw, base) != parsed)
		problem("%s:%zu: %s %s read as %" PRIu64, table, line, field,
			raw, parsed);
}

static void same_word(const char *table, size_t line, const char *field,
		      const char *raw, const char *parsed)
{
	if (strcmp(raw, parsed))
		problem("%s:%zu: %s \"%s\" read as \"%s\"", table, line, field,
			raw, parsed);
}

static void check_status(void)
{
	size_t len, n, i, nkeys = ftgl_status_key_count();
	char *text = slurp("status", &len), **lines;
	unsigned int *seen = calloc(nkeys, sizeof(*seen));
	struct ftg_status st;
	int k;

	if (!text || !seen)
		goto out;
	if (ftg_status_parse(text, len, &st))
		problem("status: libftguard refused it: %s", ftg_error_last());
	lines = calloc(len + 1, sizeof(*lines));
	n = lines_of(text, lines, len + 1);
	for (i = 1; i < n; i++) {
		char *value = strchr(lines[i], ' ');

		if (!value) {
			problem("status:%zu: \"%s\" has no value", i + 1,
				lines[i]);
			continue;
		}
		*value++ = '\0';
		k = ftgl_status_key_index(lines[i]);
		if (k < 0) {
			problem("status:%zu: key %s unknown to libftguard",
				i + 1, lines[i]);
			continue;
		}
		if (seen[k]++)
			problem("status:%zu: key %s printed twice", i + 1,
				lines[i]);
		if (ftgl_status_value_parse(&st, k, value))
			problem("status:%zu: libftguard cannot read %s \"%s\"",
				i + 1, lines[i], value);
	}
	for (i = 0; i < nkeys; i++)
		if (!seen[i])
			problem("status: key %s of libftguard not printed by the module",
				ftgl_status_key_name(i));
	printf("conform: status: %zu lines, %zu keys known\n", n, nkeys);
	free(lines);
out:
	free(seen);
	free(text);
}

static void check_sites(void)
{
	size_t len, n, i;
	char *text = slurp("sites", &len), **lines, *w[11];
	struct ftg_sites *sites;
	char words[256] = "";

	if (!text)
		return;
	sites = ftg_sites_parse(text, len);
	if (!sites) {
		problem("sites: libftguard refused it: %s", ftg_error_last());
		free(text);
		return;
	}
	lines = calloc(len + 1, sizeof(*lines));
	n = lines_of(text, lines, len + 1);
	if (ftg_sites_count(sites) != n - 1)
		problem("sites: %zu lines, libftguard read %zu sites", n - 1,
			ftg_sites_count(sites));
	for (i = 1; i < n && i - 1 < ftg_sites_count(sites); i++) {
		const struct ftg_site *s = ftg_sites_get(sites, i - 1);

		if (ftgl_split(lines[i], w, 11) != 10) {
			problem("sites:%zu: not 10 fields", i + 1);
			continue;
		}
		same_num("sites", i + 1, "address", w[0], 16, s->addr);
		same_word("sites", i + 1, "state", w[1],
			  ftg_site_state_name(s->state));
		if (!strstr(words, w[1]) && strlen(words) + strlen(w[1]) + 2 < sizeof(words))
			strcat(strcat(words, " "), w[1]);
		same_word("sites", i + 1, "section", w[2],
			  s->section == FTG_SECTION_INIT ? FTGUARD_SECTION_INIT :
						       FTGUARD_SECTION_CORE);
		same_name("sites", i + 1, "owner", w[3], s->owner);
		same_num("sites", i + 1, "hits", w[4], 10, s->hits);
		same_num("sites", i + 1, "reads", w[5], 10, s->reads);
		same_name("sites", i + 1, "name", w[6], s->name);
		same_num("sites", i + 1, "offset", w[7], 10, s->offset);
		same_word("sites", i + 1, "expected", w[8], s->expected);
		same_word("sites", i + 1, "actual", w[9], s->actual);
	}
	printf("conform: sites: %zu sites, states%s\n", n - 1, words);
	free(lines);
	ftg_sites_free(sites);
	free(text);
}

static void check_modules(void)
{
	static const char *const inits[] = {
		[FTG_INIT_LIVE] = "live", [FTG_INIT_DROPPED] = "dropped",
		[FTG_INIT_NONE] = "none",
	};
	size_t len, n, i;
	char *text = slurp("modules", &len), **lines, *w[10];
	struct ftg_kmodules *mods;

	if (!text)
		return;
	mods = ftg_kmodules_parse(text, len);
	if (!mods) {
		problem("modules: libftguard refused it: %s", ftg_error_last());
		free(text);
		return;
	}
	lines = calloc(len + 1, sizeof(*lines));
	n = lines_of(text, lines, len + 1);
	if (ftg_kmodules_count(mods) != n - 1)
		problem("modules: %zu lines, libftguard read %zu modules",
			n - 1, ftg_kmodules_count(mods));
	for (i = 1; i < n && i - 1 < ftg_kmodules_count(mods); i++) {
		const struct ftg_kmodule *m = ftg_kmodules_get(mods, i - 1);

		if (ftgl_split(lines[i], w, 10) != 9) {
			problem("modules:%zu: not 9 fields", i + 1);
			continue;
		}
		same_name("modules", i + 1, "name", w[0], m->name);
		same_word("modules", i + 1, "state", w[1],
			  ftg_kmodule_state_name(m->state));
		same_num("modules", i + 1, "core_base", w[2], 16, m->core_base);
		same_num("modules", i + 1, "core_text_size", w[3], 10,
			 m->core_text_size);
		same_num("modules", i + 1, "init_base", w[4], 16, m->init_base);
		same_num("modules", i + 1, "init_text_size", w[5], 10,
			 m->init_text_size);
		same_word("modules", i + 1, "init", w[6], inits[m->init]);
		same_num("modules", i + 1, "dropped_ms", w[7], 10,
			 m->dropped_ms);
		same_num("modules", i + 1, "nsites", w[8], 10, m->nsites);
	}
	printf("conform: modules: %zu modules\n", n - 1);
	free(lines);
	ftg_kmodules_free(mods);
	free(text);
}

static void check_check(void)
{
	size_t len, n, i, count;
	char *text = slurp("check", &len), **lines, *w[7];
	struct ftg_check_report *rep;
	char words[256] = "", result[128] = "(empty)";

	if (!text)
		return;
	rep = ftg_check_report_parse(text, len);
	if (!rep) {
		problem("check: libftguard refused it: %s", ftg_error_last());
		free(text);
		return;
	}
	lines = calloc(len + 1, sizeof(*lines));
	n = lines_of(text, lines, len + 1);
	count = ftg_check_report_count(rep);
	if (n < 2 || count != n - 2)
		problem("check: %zu lines, libftguard read %zu sites", n, count);
	if (n >= 2)
		snprintf(result, sizeof(result), "%s", lines[1]);
	if (n >= 2 && ftgl_split(lines[1], w, 7) == 5) {
		same_word("check", 2, "result", w[1],
			  ftg_check_report_ok(rep) ? FTGUARD_RESULT_OK :
						     FTGUARD_RESULT_FAIL);
		same_num("check", 2, "n_ok", w[2], 10, ftg_check_report_n_ok(rep));
		same_num("check", 2, "n_bad", w[3], 10,
			 ftg_check_report_n_bad(rep));
		same_num("check", 2, "ms", w[4], 10, ftg_check_report_ms(rep));
	} else if (n >= 2 && ftg_check_report_checked(rep)) {
		problem("check:2: \"%s\" read as a check", lines[1]);
	}
	for (i = 2; i < n && i - 2 < count; i++) {
		const struct ftg_check_line *cl = ftg_check_report_get(rep, i - 2);

		if (ftgl_split(lines[i], w, 7) != 6) {
			problem("check:%zu: not 6 fields", i + 1);
			continue;
		}
		same_num("check", i + 1, "address", w[0], 16, cl->addr);
		same_word("check", i + 1, "verdict", w[1],
			  ftg_verdict_kind_name(cl->verdict));
		if (!strstr(words, w[1]) && strlen(words) + strlen(w[1]) + 2 < sizeof(words))
			strcat(strcat(words, " "), w[1]);
		same_name("check", i + 1, "owner", w[2], cl->owner);
		same_word("check", i + 1, "expected", w[3], cl->expected);
		same_word("check", i + 1, "actual", w[4], cl->actual);
		same_name("check", i + 1, "name", w[5], cl->name);
	}
	printf("conform: check: %s, %zu sites, verdicts%s\n", result, count,
	       words);
	free(lines);
	ftg_check_report_free(rep);
	free(text);
}

/* One refused command on the control file @fd. */
static void check_error(int fd, const char *name, const char *cmd)
{
	char line[FTGUARD_LINE_MAX + 64], resp[8192], want[64];
	const char *written, *reason;
	ssize_t w, r;
	size_t len = 0;
	int kerr, lerr;

	snprintf(line, sizeof(line), "%s\n", cmd);
	w = write(fd, line, strlen(line));
	kerr = errno;
	if (w >= 0) {
		problem("error %s: \"%s\" accepted", name, cmd);
		return;
	}
	while ((r = read(fd, resp + len, sizeof(resp) - 1 - len)) > 0)
		len += r;
	resp[len] = '\0';
	while (len && resp[len - 1] == '\n')
		resp[--len] = '\0';
	written = strerrorname_np(kerr);
	if (!written || strcmp(written, name))
		problem("error %s: the write failed with %s", name,
			written ? written : "?");
	snprintf(want, sizeof(want), "error %s ", name);
	if (strncmp(resp, want, strlen(want)))
		problem("error %s: the response is \"%s\"", name, resp);
	ftg_error_clear();
	if (!ftgl_control_judge(resp, NULL)) {
		problem("error %s: libftguard read \"%s\" as a success", name,
			resp);
		return;
	}
	lerr = errno;
	if (lerr != kerr)
		problem("error %s: libftguard read \"%s\" as %s", name, resp,
			strerrorname_np(lerr) ? strerrorname_np(lerr) : "?");
	reason = resp + strlen(want);
	if (strncmp(resp, want, strlen(want)) || strcmp(ftg_error_last(), reason))
		problem("error %s: libftguard kept the reason \"%s\"", name,
			ftg_error_last());
	printf("conform: error %s: %s\n", name, resp);
}

int main(int argc, char **argv)
{
	setvbuf(stdout, NULL, _IOLBF, 0);
	if ((argc == 2 || argc == 3) && !strcmp(argv[1], "tables")) {
		if (argc == 3)
			table_dir = argv[2];
		check_status();
		check_sites();
		check_modules();
		check_check();
	} else if (argc == 4 && !strcmp(argv[1], "error")) {
		check_error(0, argv[2], argv[3]);
	} else if (argc == 2 && !strcmp(argv[1], "errnos")) {
#define ERRNO_NAME(name)	puts(#name);
		FTGUARD_ERRNOS(ERRNO_NAME)
#undef ERRNO_NAME
		return 0;
	} else {
		fprintf(stderr, "usage: %s tables [DIR] | error NAME COMMAND | errnos\n",
			argv[0]);
		return 2;
	}
	return problems ? 1 : 0;
}
