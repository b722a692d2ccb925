// SPDX-License-Identifier: LGPL-2.1
/*
 * trace.dat writer and reader against trace-cmd itself.
 *
 * The fixtures are real: 6.1.0-57-amd64's header_page/header_event and
 * ftrace formats, and six ring-buffer pages read from trace_pipe_raw in
 * the QEMU guest while the function tracer traced vfs_read and schedule
 * (775 events), with the kernel's own `trace` rendering of the same
 * events in expected/function-trace.txt. Both writer paths must give a
 * file in which `trace-cmd report` shows exactly those events.
 */
#include "lib-test.h"

#include <errno.h>
#include <inttypes.h>
#include <sys/stat.h>

#define FIXTURE_EVENTS	775
#define PAGE		4096

struct ev_list {
	struct ftg_event *ev;
	size_t n;
};

static int collect(const struct ftg_event *ev, void *data)
{
	struct ev_list *l = data;

	l->ev = realloc(l->ev, (l->n + 1) * sizeof(*l->ev));
	assert_non_null(l->ev);
	l->ev[l->n++] = *ev;
	return 0;
}

/* Feeds the fixture pages of both CPUs to @writer and/or decodes them. */
static void fixture_pages(struct ftg_trace_formats *fmt,
			  struct ftg_trace_writer *w, struct ev_list *decoded)
{
	unsigned char page[PAGE];
	char name[PATH_MAX];
	FILE *fp;
	int cpu;

	for (cpu = 0; cpu < 2; cpu++) {
		snprintf(name, sizeof(name), "raw-pages-cpu%d.bin", cpu);
		char *path = tt_path(TRACE_FIXTURES, name);

		fp = fopen(path, "rb");
		assert_non_null(fp);
		while (fread(page, 1, PAGE, fp) == PAGE) {
			if (w)
				assert_int_equal(ftg_trace_writer_add_page(w, cpu, page, PAGE), 0);
			if (decoded)
				assert_true(ftg_page_decode(fmt, cpu, page, PAGE,
							    collect, decoded) >= 0);
		}
		fclose(fp);
		free(path);
	}
}

/* "comm-pid cpu ts func parent" from the kernel's `trace` file. */
static char **kernel_lines(size_t *n)
{
	char **raw, **out, comm[64], ts[32], fn[128], parent[128];
	size_t i, m = 0;
	FILE *fp;
	int cpu;

	fp = fopen(TRACE_FIXTURES "/expected/function-trace.txt", "r");
	assert_non_null(fp);
	raw = tt_lines(fp, NULL);
	fclose(fp);
	out = calloc(FIXTURE_EVENTS + 1, sizeof(*out));
	for (i = 0; raw[i]; i++) {
		if (raw[i][0] == '#')
			continue;
		assert_int_equal(sscanf(raw[i], "%63s [%d] %*s %31[0-9.]: %127s <-%127s",
					comm, &cpu, ts, fn, parent), 5);
		assert_true(m < FIXTURE_EVENTS);
		assert_true(asprintf(&out[m++], "%s %d %s %s %s", comm, cpu, ts,
				     fn, parent) > 0);
	}
	tt_lines_free(raw);
	*n = m;
	return out;
}

/* The same tuple from `trace-cmd report -N` (no plugins: print fmt). */
static char **report_lines(const char *file, size_t *n)
{
	char **raw, **out, comm[64], ts[32], fn[128], parent[128];
	size_t i, m = 0, count;
	int cpu;

	raw = tt_report(file, "-N", &count);
	out = calloc(count + 1, sizeof(*out));
	for (i = 0; raw[i]; i++) {
		if (!strncmp(raw[i], "cpus=", 5))
			continue;
		assert_int_equal(sscanf(raw[i], "%63s [%d] %31[0-9.]: function: %127s <-- %127s",
					comm, &cpu, ts, fn, parent), 5);
		assert_true(asprintf(&out[m++], "%s %d %s %s %s", comm, cpu, ts,
				     fn, parent) > 0);
	}
	tt_lines_free(raw);
	*n = m;
	return out;
}

static void assert_same_lines(char **a, size_t na, char **b, size_t nb)
{
	size_t i;

	assert_int_equal(na, nb);
	for (i = 0; i < na; i++)
		assert_string_equal(a[i], b[i]);
}

static void assert_kernel_report(const char *file)
{
	char **want, **got;
	size_t nwant, ngot;

	want = kernel_lines(&nwant);
	got = report_lines(file, &ngot);
	assert_int_equal(nwant, FIXTURE_EVENTS);
	assert_same_lines(want, nwant, got, ngot);
	tt_lines_free(want);
	tt_lines_free(got);
}

static void test_raw_pages_trace_cmd_report(void **state)
{
	struct ftg_trace_formats *fmt = tt_formats();
	char *dir = tt_tmpdir(), *file = tt_path(dir, "raw.dat");
	struct ftg_trace_writer *w;

	w = ftg_trace_writer_create(file, fmt, 2);
	assert_non_null(w);
	fixture_pages(fmt, w, NULL);
	assert_int_equal(ftg_trace_writer_close(w), 0);
	assert_kernel_report(file);
	free(file);
	tt_rmdir(dir);
	ftg_trace_formats_free(fmt);
}

/* Our reader: the same 775 events, in the kernel's order, same fields. */
static void test_raw_pages_read_back(void **state)
{
	struct ftg_trace_formats *fmt = tt_formats();
	char *dir = tt_tmpdir(), *file = tt_path(dir, "raw.dat");
	struct ev_list got = { 0 };
	struct ftg_trace_writer *w;
	struct ftg_trace_file *tf;
	char err[256], line[512], **want;
	size_t nwant, i;

	w = ftg_trace_writer_create(file, fmt, 2);
	fixture_pages(fmt, w, NULL);
	assert_int_equal(ftg_trace_writer_close(w), 0);
	tf = tt_open(file, err, sizeof(err));
	assert_non_null(tf);
	assert_int_equal(ftg_trace_file_ncpus(tf), 2);
	assert_int_equal(ftg_trace_file_iterate(tf, collect, &got), 0);
	ftg_trace_file_close(tf);

	want = kernel_lines(&nwant);
	assert_int_equal(got.n, nwant);
	for (i = 0; i < got.n; i++) {
		const struct ftg_event *ev = &got.ev[i];
		uint64_t us = (ev->ts_ns + 500) / 1000;	/* as the kernel rounds */

		assert_string_equal(ev->system, "ftrace");
		assert_string_equal(ev->name, "function");
		assert_true(ev->ip && ev->parent_ip);
		snprintf(line, sizeof(line), "%s-%d %d %" PRIu64 ".%06" PRIu64 " %s %s",
			 ev->comm, ev->pid, ev->cpu, us / 1000000, us % 1000000,
			 ev->sym, ev->parent_sym);
		assert_string_equal(line, want[i]);
	}
	tt_lines_free(want);
	free(got.ev);
	free(file);
	tt_rmdir(dir);
	ftg_trace_formats_free(fmt);
}

/* Path (b): decoded events re-encoded give the same report as the pages. */
static void test_decoded_events_trace_cmd_report(void **state)
{
	struct ftg_trace_formats *fmt = tt_formats();
	char *dir = tt_tmpdir(), *file = tt_path(dir, "decoded.dat");
	struct ev_list decoded = { 0 };
	struct ftg_trace_writer *w;
	size_t i;

	fixture_pages(fmt, NULL, &decoded);
	assert_int_equal(decoded.n, FIXTURE_EVENTS);
	w = ftg_trace_writer_create(file, fmt, 2);
	assert_non_null(w);
	for (i = 0; i < decoded.n; i++)
		assert_int_equal(ftg_trace_writer_add_event(w, &decoded.ev[i]), 0);
	assert_int_equal(ftg_trace_writer_close(w), 0);
	assert_kernel_report(file);
	free(decoded.ev);
	free(file);
	tt_rmdir(dir);
	ftg_trace_formats_free(fmt);
}

static struct ftg_event synthetic_func(int cpu, uint64_t ts, uint64_t ip,
				       uint64_t parent)
{
	struct ftg_event ev = { .cpu = cpu, .ts_ns = ts, .pid = 4242,
				.ip = ip, .parent_ip = parent };

	strcpy(ev.comm, "trigger");
	strcpy(ev.system, "ftguard");
	strcpy(ev.name, "func");
	return ev;
}

/*
 * A module event (ID 1342 in the fixture formats) as raw bytes: it has
 * strings, so no fixed layout to fill from fields.
 */
static struct ftg_event synthetic_module(const char *name, uint64_t ts)
{
	struct ftg_event ev = { .cpu = 0, .ts_ns = ts, .pid = 1 };
	uint16_t type = 1342;
	uint32_t loc, nsites = 3, pid = 1;
	size_t len = strlen(name) + 1;

	strcpy(ev.comm, "insmod");
	memcpy(ev.raw, &type, 2);
	memcpy(ev.raw + 4, &pid, 4);
	loc = (uint32_t)len << 16 | 20;		/* __data_loc: len, offset */
	memcpy(ev.raw + 8, &loc, 4);
	loc = 7U << 16 | (20 + len);
	memcpy(ev.raw + 12, &loc, 4);
	memcpy(ev.raw + 16, &nsites, 4);
	memcpy(ev.raw + 20, name, len);
	memcpy(ev.raw + 20 + len, "coming", 7);
	ev.raw_size = 20 + len + 7;
	return ev;
}

/* fn_a and fn_b of tests/modules/ftg_target.c, as loaded in the guest */
#define FN_A	0xffffffffc0427000ULL
#define FN_B	0xffffffffc0427020ULL

/*
 * ftguard events that never were in a ring buffer: gaps of 200 ms need
 * time-extend entries, a 120-character module name a payload over 112
 * bytes (type_len 0). trace-cmd must show every field back.
 */
static void test_synthetic_ftguard_events(void **state)
{
	struct ftg_trace_formats *fmt = tt_formats();
	char *dir = tt_tmpdir(), *file = tt_path(dir, "synthetic.dat");
	char longname[121], err[256], want[128], **lines;
	struct ev_list got = { 0 };
	struct ftg_trace_writer *w;
	struct ftg_trace_file *tf;
	struct ftg_event ev;
	size_t i, n;

	memset(longname, 'm', 120);
	longname[120] = '\0';
	w = ftg_trace_writer_create(file, fmt, 2);
	assert_non_null(w);
	for (i = 0; i < 5; i++) {
		ev = synthetic_func(1, 1000000000ULL + i * 200000000ULL, FN_A, FN_B + 0x13);
		assert_int_equal(ftg_trace_writer_add_event(w, &ev), 0);
	}
	ev = synthetic_module(longname, 1500000000ULL);
	assert_int_equal(ftg_trace_writer_add_event(w, &ev), 0);
	assert_int_equal(ftg_trace_writer_close(w), 0);

	lines = tt_report(file, "-N", &n);
	assert_int_equal(tt_count(lines, "func:"), 5);
	assert_int_equal(tt_count(lines, "trigger-4242"), 5);
	assert_int_equal(tt_count(lines, "fn_a"), 5);
	assert_int_equal(tt_count(lines, "fn_b"), 5);
	for (i = 0; i < 5; i++) {
		snprintf(want, sizeof(want), "[001]     1.%06zu: func:", i * 200000);
		assert_int_equal(tt_count(lines, want), 1);
	}
	assert_int_equal(tt_count(lines, longname), 1);
	assert_int_equal(tt_count(lines, "state=coming nsites=3"), 1);
	tt_lines_free(lines);

	tf = tt_open(file, err, sizeof(err));
	assert_non_null(tf);
	assert_int_equal(ftg_trace_file_iterate(tf, collect, &got), 0);
	ftg_trace_file_close(tf);
	assert_int_equal(got.n, 6);
	for (i = 0; i < 6; i++) {
		const struct ftg_event *e = &got.ev[i];

		if (i == 3) {	/* 1.5 s: between the 4th and 5th func */
			assert_string_equal(e->name, "module");
			assert_non_null(strstr(e->info, longname));
			continue;
		}
		assert_string_equal(e->name, "func");
		assert_string_equal(e->comm, "trigger");
		assert_int_equal(e->pid, 4242);
		assert_int_equal(e->cpu, 1);
		assert_true(e->ip == FN_A && e->parent_ip == FN_B + 0x13);
		assert_string_equal(e->sym, "fn_a [ftg_target]");
		assert_string_equal(e->parent_sym, "fn_b [ftg_target]");
	}
	free(got.ev);
	free(file);
	tt_rmdir(dir);
	ftg_trace_formats_free(fmt);
}

/*
 * Real ftguard.ko events (module, site, arm, check, func) recorded in the
 * guest: trace-cmd shows each as the kernel's own `trace` did. Only the
 * comm of tasks missing from the fixture's saved_cmdlines differs
 * ("<...>"), and %ps names no module in libtraceevent.
 */
static char **normalized(char **lines, bool kernel)
{
	char **out = calloc(64, sizeof(*out)), *p;
	char who[64], cpu[8], ts[32], rest[256];
	size_t i, n = 0;
	int got;

	for (i = 0; lines[i]; i++) {
		if (lines[i][0] == '#' || !strncmp(lines[i], "cpus=", 5))
			continue;
		got = kernel ?
			sscanf(lines[i], "%63s [%7[0-9]] %*s %31[0-9.]: %255[^\n]",
			       who, cpu, ts, rest) :
			sscanf(lines[i], "%63s [%7[0-9]] %31[0-9.]: %255[^\n]",
			       who, cpu, ts, rest);
		assert_int_equal(got, 4);
		p = strchr(rest, ':');	/* "func:    ip=..." -> "func: ip=..." */
		assert_non_null(p);
		memmove(p + 2, p + 1 + strspn(p + 1, " "),
			strlen(p + 1 + strspn(p + 1, " ")) + 1);
		while ((p = strstr(rest, " [ftg_target]")))
			memmove(p, p + 13, strlen(p + 13) + 1);
		assert_true(n < 63);
		assert_true(asprintf(&out[n++], "%s %s %s %s",
				     strrchr(who, '-') + 1, cpu, ts, rest) > 0);
	}
	return out;
}

static void test_ftguard_pages_trace_cmd_report(void **state)
{
	struct ftg_trace_formats *fmt = tt_formats();
	char *dir = tt_tmpdir(), *file = tt_path(dir, "ftg.dat");
	char **kernel, **report, **want, **got;
	struct ftg_trace_writer *w;
	size_t i, n;
	FILE *fp;
	int cpu;

	w = ftg_trace_writer_create(file, fmt, 2);
	for (cpu = 0; cpu < 2; cpu++)
		tt_add_fixture_pages(w, cpu, "raw-ftguard-cpu");
	assert_int_equal(ftg_trace_writer_close(w), 0);

	fp = fopen(TRACE_FIXTURES "/expected/ftguard-trace.txt", "r");
	kernel = tt_lines(fp, NULL);
	fclose(fp);
	report = tt_report(file, "-N", &n);
	want = normalized(kernel, true);
	got = normalized(report, false);
	for (n = 0; want[n]; n++)
		;
	assert_int_equal(n, 31);
	for (i = 0; i < n; i++) {
		assert_non_null(got[i]);
		assert_string_equal(got[i], want[i]);
	}
	assert_null(got[n]);
	tt_lines_free(kernel);
	tt_lines_free(report);
	tt_lines_free(want);
	tt_lines_free(got);
	free(file);
	tt_rmdir(dir);
	ftg_trace_formats_free(fmt);
}

/* A writer that is not closed leaves no file, and an old file intact. */
static void test_abandoned_writer_leaves_nothing(void **state)
{
	struct ftg_trace_formats *fmt = tt_formats();
	char *dir = tt_tmpdir(), *file = tt_path(dir, "t.dat");
	char *tmp = tt_path(dir, "t.dat.tmp");
	struct ftg_trace_writer *w;
	struct stat st;
	FILE *fp;

	w = ftg_trace_writer_create(file, fmt, 2);
	fixture_pages(fmt, w, NULL);
	ftg_trace_writer_free(w);
	assert_int_equal(stat(file, &st), -1);
	assert_int_equal(stat(tmp, &st), -1);

	fp = fopen(file, "w");
	fputs("old", fp);
	fclose(fp);
	w = ftg_trace_writer_create(file, fmt, 2);
	fixture_pages(fmt, w, NULL);
	ftg_trace_writer_free(w);
	assert_int_equal(stat(file, &st), 0);
	assert_int_equal(st.st_size, 3);

	free(tmp);
	free(file);
	tt_rmdir(dir);
	ftg_trace_formats_free(fmt);
}

/*
 * Each pid's tgid travels in an option of ftguard's own: our reader gives
 * it back, and trace-cmd reads the file as if it were not there (same
 * report, nothing on stderr).
 */
static void test_tgids_option(void **state)
{
	struct ftg_trace_formats *fmt = tt_formats();
	char *dir = tt_tmpdir(), *file = tt_path(dir, "tgid.dat"), *cmd;
	struct ev_list decoded = { 0 }, back = { 0 };
	struct ftg_trace_writer *w;
	struct ftg_trace_file *tf;
	char err[256] = "", *errpath, *text;
	int saved;
	size_t i;
	FILE *fp;

	fixture_pages(fmt, NULL, &decoded);
	w = ftg_trace_writer_create(file, fmt, 2);
	assert_non_null(w);
	for (i = 0; i < decoded.n; i++) {
		decoded.ev[i].tgid = decoded.ev[i].pid + 100000;
		assert_int_equal(ftg_trace_writer_add_event(w, &decoded.ev[i]), 0);
	}
	assert_int_equal(ftg_trace_writer_close(w), 0);
	/* libtracecmd would warn about the option; the library must not */
	errpath = tt_path(dir, "stderr");
	saved = tt_stderr_begin(errpath);
	tf = ftg_trace_file_open(file);
	if (tf)
		ftg_trace_file_iterate(tf, collect, &back);
	ftg_trace_file_close(tf);
	text = tt_stderr_end(errpath, saved);
	assert_non_null(tf);
	assert_string_equal(text, "");
	free(text);
	free(errpath);
	assert_int_equal(back.n, decoded.n);
	for (i = 0; i < back.n; i++)
		assert_int_equal(back.ev[i].tgid, back.ev[i].pid + 100000);
	assert_kernel_report(file);
	assert_true(asprintf(&cmd, "trace-cmd report -i '%s' 2>&1 >/dev/null", file) > 0);
	fp = popen(cmd, "r");
	assert_non_null(fp);
	if (!fgets(err, sizeof(err), fp))
		err[0] = '\0';
	assert_int_equal(pclose(fp), 0);
	assert_string_equal(err, "");
	free(cmd);
	free(decoded.ev);
	free(back.ev);
	free(file);
	tt_rmdir(dir);
	ftg_trace_formats_free(fmt);
}

/* Lost-event stats travel as CPUSTAT options: trace-cmd --stat shows them. */
static void test_cpu_stats_option(void **state)
{
	struct ftg_trace_formats *fmt = tt_formats();
	char *dir = tt_tmpdir(), *file = tt_path(dir, "s.dat");
	struct ftg_trace_writer *w;
	char **lines;

	w = ftg_trace_writer_create(file, fmt, 2);
	fixture_pages(fmt, w, NULL);
	assert_int_equal(ftg_trace_writer_set_cpu_stats(w, 0, "entries: 378\noverrun: 7\n"), 0);
	assert_int_equal(ftg_trace_writer_set_cpu_stats(w, 1, "entries: 397\noverrun: 0\n"), 0);
	assert_int_equal(ftg_trace_writer_set_cpu_stats(w, 2, "x"), -1);
	assert_int_equal(errno, EINVAL);
	assert_true(ftg_trace_writer_bytes(w) > 0);
	assert_int_equal(ftg_trace_writer_close(w), 0);
	lines = tt_report(file, "--stat", NULL);
	assert_int_equal(tt_count(lines, "overrun: 7"), 1);
	assert_int_equal(tt_count(lines, "entries: 397"), 1);
	tt_lines_free(lines);
	assert_kernel_report(file);
	free(file);
	tt_rmdir(dir);
	ftg_trace_formats_free(fmt);
}

static void test_writer_rejects_bad_input(void **state)
{
	struct ftg_trace_formats *fmt = tt_formats();
	char *dir = tt_tmpdir(), *file = tt_path(dir, "b.dat");
	unsigned char page[PAGE] = { 0 };
	struct ftg_trace_writer *w;
	struct ftg_event ev;
	uint64_t commit = PAGE;	/* larger than the data area */

	assert_null(ftg_trace_writer_create(file, fmt, 0));
	assert_int_equal(errno, EINVAL);
	w = ftg_trace_writer_create(file, fmt, 2);
	assert_non_null(w);
	assert_int_equal(ftg_trace_writer_add_page(w, 2, page, PAGE), -1);
	memcpy(page + 8, &commit, 8);
	assert_int_equal(ftg_trace_writer_add_page(w, 0, page, PAGE), -1);
	assert_int_equal(errno, EINVAL);
	ev = synthetic_func(0, 1, FN_A, FN_B);
	strcpy(ev.name, "no_such_event");
	assert_int_equal(ftg_trace_writer_add_event(w, &ev), -1);
	assert_int_equal(errno, ENOENT);
	ev = synthetic_func(0, 1, FN_A, FN_B);
	strcpy(ev.name, "kill");	/* has a string: needs raw bytes */
	assert_int_equal(ftg_trace_writer_add_event(w, &ev), -1);
	assert_int_equal(errno, EINVAL);
	ftg_trace_writer_free(w);
	free(file);
	tt_rmdir(dir);
	ftg_trace_formats_free(fmt);
}

/*
 * A page read after an overrun: the kernel stores the missed count after
 * the data and adds its flags to the commit word with a signed int
 * (1 << 31), which sets every high bit of the 64-bit word. Such a page is
 * a good page: the writer takes it, our reader and trace-cmd read its
 * events and trace-cmd says how many were dropped.
 */
static void test_overrun_page(void **state)
{
	struct ftg_trace_formats *fmt = tt_formats();
	char *dir = tt_tmpdir(), *file = tt_path(dir, "overrun.dat");
	char *path = tt_path(TRACE_FIXTURES, "raw-pages-cpu0.bin");
	unsigned char page[PAGE];
	uint64_t commit, missed = 42;
	struct ev_list plain = { 0 }, got = { 0 };
	struct ftg_trace_writer *w;
	struct ftg_trace_file *tf;
	char err[256], **lines;
	FILE *fp;

	fp = fopen(path, "rb");
	assert_non_null(fp);
	assert_int_equal(fread(page, 1, PAGE, fp), PAGE);
	fclose(fp);
	assert_true(ftg_page_decode(fmt, 0, page, PAGE, collect, &plain) > 0);
	memcpy(&commit, page + 8, 8);
	assert_true(commit + 8 <= PAGE - 16);
	memcpy(page + 16 + commit, &missed, 8);	/* the commit stays the data size */
	commit += (uint64_t)(int64_t)(1 << 30);
	commit += (uint64_t)(int64_t)(int)(1U << 31);
	assert_int_equal(commit >> 32, 0xffffffffULL);
	memcpy(page + 8, &commit, 8);

	assert_int_equal(ftg_page_decode(fmt, 0, page, PAGE, collect, &got), plain.n);
	w = ftg_trace_writer_create(file, fmt, 2);
	assert_non_null(w);
	assert_int_equal(ftg_trace_writer_add_page(w, 0, page, PAGE), 0);
	assert_int_equal(ftg_trace_writer_close(w), 0);
	tf = tt_open(file, err, sizeof(err));
	assert_non_null(tf);
	got.n = 0;
	assert_int_equal(ftg_trace_file_iterate(tf, collect, &got), 0);
	assert_int_equal(got.n, plain.n);
	ftg_trace_file_close(tf);
	lines = tt_report(file, "", NULL);
	assert_int_equal(tt_count(lines, "[42 EVENTS DROPPED]"), 1);
	tt_lines_free(lines);
	free(plain.ev);
	free(got.ev);
	free(path);
	free(file);
	tt_rmdir(dir);
	ftg_trace_formats_free(fmt);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_raw_pages_trace_cmd_report),
		cmocka_unit_test(test_raw_pages_read_back),
		cmocka_unit_test(test_decoded_events_trace_cmd_report),
		cmocka_unit_test(test_synthetic_ftguard_events),
		cmocka_unit_test(test_ftguard_pages_trace_cmd_report),
		cmocka_unit_test(test_abandoned_writer_leaves_nothing),
		cmocka_unit_test(test_cpu_stats_option),
		cmocka_unit_test(test_tgids_option),
		cmocka_unit_test(test_writer_rejects_bad_input),
		cmocka_unit_test(test_overrun_page),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
