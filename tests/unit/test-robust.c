// SPDX-License-Identifier: LGPL-2.1
/*
 * Hostile input: random bytes and randomly damaged copies of the fixture
 * files fed to every parser. The only requirement is that nothing crashes,
 * leaks or reads out of bounds (run under --enable-sanitizers), and that
 * every failure comes with a message.
 */
#include <errno.h>
#include <fcntl.h>
#include <sys/stat.h>

#include "lib-test.h"

#define ROUNDS	300

static uint32_t rng_state = 2463534242u;

static uint32_t rng(void)
{
	/* xorshift32: deterministic, so a failure reproduces. */
	rng_state ^= rng_state << 13;
	rng_state ^= rng_state >> 17;
	rng_state ^= rng_state << 5;
	return rng_state;
}

static char *read_fixture(const char *path, size_t *len)
{
	char *buf = read_whole_file(path, len);

	assert_non_null(buf);
	return buf;
}

/* Damages @buf in place: flips, deletes (to spaces), inserts bytes that
 * the formats give meaning to. */
static void damage(char *buf, size_t len)
{
	static const char special[] = " \t\n\\[]()0x-=:@*";
	int i, n = 1 + rng() % 8;

	for (i = 0; i < n && len; i++) {
		size_t at = rng() % len;

		switch (rng() % 4) {
		case 0:
			buf[at] = (char)rng();
			break;
		case 1:
			buf[at] = special[rng() % (sizeof(special) - 1)];
			break;
		case 2:
			buf[at] = '\n';
			break;
		default:
			buf[at] = '\0';	/* embedded NUL */
			break;
		}
	}
}

static void write_file(const char *dir, const char *name, const char *buf, size_t len)
{
	char path[256];
	int fd;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
	assert_true(fd >= 0);
	assert_int_equal(write(fd, buf, len), (ssize_t)len);
	close(fd);
}

/*
 * A failed call must leave its own message: the error is cleared first, so
 * a message left by an earlier failure cannot satisfy the check.
 */
static void assert_failure_said_why(const char *what)
{
	if (!ftg_error_last()[0])
		fail_msg("%s failed without a message", what);
	assert_int_not_equal(ftg_error_code(), FTG_E_OK);
}

static void parse_tables(const char *text, size_t len)
{
	struct ftg_status st;
	struct ftg_sites *s;
	struct ftg_kmodules *m;
	struct ftg_check_report *r;

	ftg_error_clear();
	if (ftg_status_parse(text, len, &st))
		assert_failure_said_why("ftg_status_parse");
	ftg_error_clear();
	s = ftg_sites_parse(text, len);
	if (!s)
		assert_failure_said_why("ftg_sites_parse");
	ftg_sites_free(s);
	ftg_error_clear();
	m = ftg_kmodules_parse(text, len);
	if (!m)
		assert_failure_said_why("ftg_kmodules_parse");
	ftg_kmodules_free(m);
	ftg_error_clear();
	r = ftg_check_report_parse(text, len);
	if (!r)
		assert_failure_said_why("ftg_check_report_parse");
	ftg_check_report_free(r);
}

static void test_random_tables(void **state)
{
	static const char *const tables[] = {
		FIXTURE("amd64", "debug/ftguard/status"),
		FIXTURE("amd64", "debug/ftguard/sites"),
		FIXTURE("amd64", "debug/ftguard/modules"),
		FIXTURE("amd64", "debug/ftguard/check"),
		FIXTURE("i386", "debug/ftguard/status"),
	};
	size_t t, len;
	int i;

	for (t = 0; t < sizeof(tables) / sizeof(tables[0]); t++) {
		char *orig = read_fixture(tables[t], &len);
		char *copy = malloc(len + 1);

		for (i = 0; i < ROUNDS; i++) {
			memcpy(copy, orig, len);
			damage(copy, len);
			parse_tables(copy, len);
			/* Cut anywhere too. */
			parse_tables(copy, rng() % (len + 1));
		}
		free(copy);
		free(orig);
	}
	for (i = 0; i < ROUNDS; i++) {
		char noise[512];
		size_t k, n = rng() % sizeof(noise);

		for (k = 0; k < n; k++)
			noise[k] = (char)rng();
		parse_tables(noise, n);
	}
}

static void test_random_kernel_files(void **state)
{
	static const struct {
		const char *fixture;
		const char *sub;	/* directory inside the temp root */
		const char *name;
	} files[] = {
		{ FIXTURE("amd64", "proc/kallsyms"), "proc", "kallsyms" },
		{ FIXTURE("amd64", "proc/modules"), "proc", "modules" },
		{ FIXTURE("amd64", "proc/vmallocinfo"), "proc", "vmallocinfo" },
		{ FIXTURE("amd64", "tracing/available_filter_functions"), "tracing",
		  "available_filter_functions" },
		{ FIXTURE("amd64", "tracing/enabled_functions"), "tracing",
		  "enabled_functions" },
		/* who else is on a site: a 6.12 kernel's */
		{ FIXTURE("shared-612", "tracing/enabled_functions"), "tracing",
		  "enabled_functions" },
		{ FIXTURE("shared-612", "tracing/kprobe_events"), "tracing",
		  "kprobe_events" },
		{ FIXTURE("shared-612", "debug/kprobes/list"), "debug/kprobes",
		  "list" },
	};
	char debug[160];
	char dir[] = "/tmp/ftg-robust-XXXXXX", sub[128];
	size_t f, len;
	int i;

	assert_non_null(mkdtemp(dir));
	snprintf(sub, sizeof(sub), "%s/proc", dir);
	mkdir(sub, 0755);
	snprintf(sub, sizeof(sub), "%s/tracing", dir);
	mkdir(sub, 0755);
	snprintf(debug, sizeof(debug), "%s/debug", dir);
	mkdir(debug, 0755);
	snprintf(sub, sizeof(sub), "%s/debug/kprobes", dir);
	mkdir(sub, 0755);
	for (f = 0; f < sizeof(files) / sizeof(files[0]); f++) {
		char *orig = read_fixture(files[f].fixture, &len);
		char *copy = malloc(len + 1);

		snprintf(sub, sizeof(sub), "%s/%s", dir, files[f].sub);
		for (i = 0; i < ROUNDS / 3; i++) {
			struct ftg_kallsyms *ks;
			struct ftg_proc_modules *pm;
			struct ftg_vmalloc *vm;
			struct ftg_ftrace_funcs *ff;
			struct ftg_root *root;
			struct ftg_map *map;

			memcpy(copy, orig, len);
			damage(copy, len);
			write_file(sub, files[f].name, copy, rng() % (len + 1));
			ks = ftg_kallsyms_read(fixture_root("amd64"));
			ftg_kallsyms_free(ks);
			ftg_error_clear();
			root = ftg_root_open(dir);
			if (!root)
				assert_failure_said_why("ftg_root_open");
			if (root && !strcmp(files[f].sub, "proc")) {
				ftg_error_clear();
				ks = ftg_kallsyms_read(root);
				if (!ks)
					assert_failure_said_why("ftg_kallsyms_read");
				ftg_error_clear();
				pm = ftg_proc_modules_read(root);
				if (!pm)
					assert_failure_said_why("ftg_proc_modules_read");
				ftg_error_clear();
				vm = ftg_vmalloc_read(root);
				if (!vm)
					assert_failure_said_why("ftg_vmalloc_read");
				ftg_kallsyms_free(ks);
				ftg_proc_modules_free(pm);
				ftg_vmalloc_free(vm);
			} else if (root && !strcmp(files[f].sub, "tracing")) {
				ftg_error_clear();
				ff = ftg_ftrace_funcs_read(root, FTG_FTRACE_AVAILABLE);
				if (!ff)
					assert_failure_said_why("ftg_ftrace_funcs_read");
				ftg_ftrace_funcs_free(ff);
				ftg_error_clear();
				ff = ftg_ftrace_funcs_read(root, FTG_FTRACE_ENABLED);
				if (!ff)
					assert_failure_said_why("ftg_ftrace_funcs_read");
				ftg_ftrace_funcs_free(ff);
			}
			if (root && strcmp(files[f].sub, "proc")) {
				struct ftg_users *u;
				char buf[256];

				ftg_error_clear();
				u = ftg_users_read(root);
				if (!u)
					assert_failure_said_why("ftg_users_read");
				else
					ftg_users_describe(u, "vfs_read", NULL, 1,
							   buf, sizeof(buf));
				ftg_users_free(u);
			}
			/* The whole map over whatever is there. */
			ftg_error_clear();
			map = root ? ftg_map_load(root) : NULL;
			if (root && !map)
				assert_failure_said_why("ftg_map_load");
			if (map) {
				char buf[256];

				ftg_map_describe(map, rng() | (uint64_t)rng() << 32, buf, sizeof(buf));
			}
			ftg_map_free(map);
			ftg_root_free(root);
		}
		free(copy);
		free(orig);
	}
	{
		char cmd[128];

		snprintf(cmd, sizeof(cmd), "rm -rf %s", dir);
		assert_int_equal(system(cmd), 0);
	}
}

static void test_random_patterns(void **state)
{
	struct ftg_kallsyms *ks = ftg_kallsyms_read(fixture_root("amd64"));
	struct ftg_ftrace_funcs *av = ftg_ftrace_funcs_read(fixture_root("amd64"),
							   FTG_FTRACE_AVAILABLE);
	static const char alphabet[] = "abcdefsv_*?[]!^:@0x123456789\\-";
	int i;

	for (i = 0; i < ROUNDS * 3; i++) {
		struct ftg_selection *sel = ftg_selection_new();
		struct ftg_candidates *c;
		char pat[24];
		size_t k, n = rng() % (sizeof(pat) - 1);

		for (k = 0; k < n; k++)
			pat[k] = alphabet[rng() % (sizeof(alphabet) - 1)];
		pat[n] = '\0';
		ftg_error_clear();
		if (ftg_selection_add(sel, pat))
			assert_int_equal(ftg_error_code(), FTG_E_BAD_PATTERN);
		if (rng() % 2)
			ftg_selection_exclude(sel, pat + n / 2);
		ftg_error_clear();
		c = ftg_selection_resolve(sel, ks, av);
		if (!c)
			assert_failure_said_why("ftg_selection_resolve");
		ftg_candidates_free(c);
		ftg_selection_free(sel);
	}
	ftg_kallsyms_free(ks);
	ftg_ftrace_funcs_free(av);
}

/* fails with a message of its own */
#define EXPECT_FAILS(call) do {						\
	char was_[512];							\
	snprintf(was_, sizeof(was_), "%s", ftg_error_last());		\
	assert_true((call));						\
	assert_failure_said_why(#call);					\
	if (was_[0] && !strcmp(was_, ftg_error_last()))			\
		fail_msg("%s kept the previous message: %s", #call, was_);	\
} while (0)
/* succeeds, and no earlier message survives it */
#define EXPECT_CLEAN(call) do {						\
	assert_true((call));						\
	if (ftg_error_last()[0] || ftg_error_code() != FTG_E_OK)	\
		fail_msg("%s succeeded but left \"%s\"", #call, ftg_error_last()); \
} while (0)

/*
 * One error model: each call that can fail clears the error on entry and
 * sets it when it fails, so a message read after a success is never a
 * stale one from an earlier call.
 */
static void test_no_stale_error(void **state)
{
	const struct ftg_root *amd64 = fixture_root("amd64");
	const struct ftg_root *none = test_root(NULL, NULL, NULL, NULL);
	struct ftg_kallsyms *ks;
	struct ftg_proc_modules *pm;
	struct ftg_vmalloc *vm;
	struct ftg_sections *sec;
	struct ftg_ftrace_funcs *ff;
	struct ftg_status st;
	struct ftg_sites *sites;
	struct ftg_kmodules *km;
	struct ftg_check_report *rep;
	struct ftg_root *root;
	struct ftg_map *map;
	struct ftg_candidates *c;
	uint64_t a, b;
	char esc[] = "a\\9b";
	char ok[] = "a\\040b";

	EXPECT_FAILS(!ftg_kallsyms_read(none));
	EXPECT_CLEAN((ks = ftg_kallsyms_read(amd64)) != NULL);
	EXPECT_FAILS(!ftg_proc_modules_read(none));
	EXPECT_CLEAN((pm = ftg_proc_modules_read(amd64)) != NULL);
	EXPECT_FAILS(!ftg_vmalloc_read(none));
	EXPECT_CLEAN((vm = ftg_vmalloc_read(amd64)) != NULL);
	EXPECT_CLEAN((sec = ftg_sections_read(amd64)) != NULL);
	EXPECT_FAILS(ftg_sections_find(sec, "nomod", ".text", &a) == -1);
	EXPECT_CLEAN(ftg_kallsyms_text_bounds(ks, &a, &b) == 0);
	EXPECT_FAILS(!ftg_ftrace_funcs_read(none, FTG_FTRACE_AVAILABLE));
	EXPECT_CLEAN((ff = ftg_ftrace_funcs_read(amd64, FTG_FTRACE_AVAILABLE)) != NULL);
	EXPECT_FAILS(ftg_status_read(none, &st) == -1);
	EXPECT_CLEAN(ftg_status_read(amd64, &st) == 0);
	EXPECT_FAILS(!ftg_sites_parse("junk\n", 5));
	EXPECT_CLEAN((sites = ftg_sites_read(amd64)) != NULL);
	EXPECT_FAILS(!ftg_kmodules_read(none));
	EXPECT_CLEAN((km = ftg_kmodules_read(amd64)) != NULL);
	EXPECT_FAILS(!ftg_check_report_read(none));
	EXPECT_CLEAN((rep = ftg_check_report_read(amd64)) != NULL);
	EXPECT_FAILS(ftg_site_state_parse("bogus") == -1);
	EXPECT_CLEAN(ftg_site_state_parse("armed") == FTG_SITE_ARMED);
	EXPECT_FAILS(ftg_unescape(esc) == -1);
	EXPECT_CLEAN(ftg_unescape(ok) == 0);
	EXPECT_FAILS(!ftg_root_open("/nonexistent"));
	EXPECT_CLEAN((root = ftg_root_open(FIXTURE("amd64", ""))) != NULL);
	EXPECT_FAILS(!ftg_control_open(none));
	EXPECT_CLEAN((map = ftg_map_load(root)) != NULL);
	EXPECT_FAILS(!ftg_control_open(none));
	EXPECT_CLEAN((c = ftg_candidates_vmlinux(ks, ff)) != NULL);
	EXPECT_FAILS(!ftg_control_open(none));
	EXPECT_CLEAN(ftg_candidates_add(c, "x", 1, NULL) >= 0);
	EXPECT_FAILS(!ftg_session_open(none));

	ftg_candidates_free(c);
	ftg_map_free(map);
	ftg_root_free(root);
	ftg_check_report_free(rep);
	ftg_kmodules_free(km);
	ftg_sites_free(sites);
	ftg_ftrace_funcs_free(ff);
	ftg_sections_free(sec);
	ftg_vmalloc_free(vm);
	ftg_proc_modules_free(pm);
	ftg_kallsyms_free(ks);
}

/* A copy of the trace fixtures' tracefs with ftguard's instance in it. */
static char *fake_tracefs(char *dir)
{
	char cmd[4096];

	assert_non_null(mkdtemp(dir));
	snprintf(cmd, sizeof(cmd),
		 "cp -r '%s/.' '%s/' && d='%s/instances/ftguard/per_cpu/cpu0' && "
		 "mkdir -p \"$d\" && cp '%s' \"$d/trace_pipe_raw\" && cp '%s' \"$d/stats\"",
		 FIXTURE("trace", "tracefs"), dir, dir,
		 FIXTURE("trace", "raw-pages-cpu0.bin"),
		 FIXTURE("trace", "tracefs/per_cpu/cpu0/stats"));
	assert_int_equal(system(cmd), 0);
	return dir;
}

static void remove_tree(const char *dir)
{
	char cmd[4200];

	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
	assert_int_equal(system(cmd), 0);
}

/* The same for the trace.dat writer, the live source and the exporter. */
static void test_no_stale_trace_error(void **state)
{
	char dir[] = "/tmp/ftg-robust-XXXXXX", out[4200], tmp[4300], page[4096] = { 0 };
	char junk[4096];
	struct ftg_trace_formats *fmt;
	struct ftg_trace_writer *w;
	struct ftg_event_ring *ring;
	struct ftg_exporter *ex;
	struct ftg_event ev = { 0 };
	const struct ftg_root *no_tracefs, *fake;
	struct ftg_live *live;
	FILE *f;

	fake_tracefs(dir);
	no_tracefs = test_root(FIXTURE("trace", "proc"), NULL, NULL, NULL);
	fake = test_root(FIXTURE("trace", "proc"), NULL, NULL, dir);
	snprintf(out, sizeof(out), "%s/t.dat", dir);
	snprintf(tmp, sizeof(tmp), "%s.tmp", out);
	f = fopen(FIXTURE("trace", "raw-pages-cpu0.bin"), "rb");
	assert_non_null(f);
	assert_int_equal(fread(page, 1, sizeof(page), f), sizeof(page));
	fclose(f);
	memset(junk, 0xff, sizeof(junk));

	/* formats and the writer */
	EXPECT_FAILS(!ftg_trace_formats_read("/nonexistent", NULL, "/nonexistent"));
	assert_contains(ftg_error_last(), "/nonexistent");
	EXPECT_CLEAN((fmt = ftg_trace_formats_read(dir, NULL,
						   FIXTURE("trace", "proc"))) != NULL);
	EXPECT_FAILS(!ftg_trace_writer_create("/nonexistent/t.dat", fmt, 1));
	assert_contains(ftg_error_last(), "/nonexistent/t.dat");
	assert_int_equal(ftg_error_code(), FTG_E_SYSTEM);
	EXPECT_CLEAN((w = ftg_trace_writer_create(out, fmt, 1)) != NULL);
	EXPECT_FAILS(ftg_trace_writer_add_page(w, 3, page, sizeof(page)) == -1);
	assert_contains(ftg_error_last(), "cpu 3");
	EXPECT_CLEAN(ftg_trace_writer_add_page(w, 0, page, sizeof(page)) == 0);
	EXPECT_FAILS(ftg_trace_writer_add_page(w, 0, junk, sizeof(junk)) == -1);
	assert_int_equal(ftg_error_code(), FTG_E_BAD_PAGE);
	EXPECT_CLEAN(ftg_trace_writer_set_cpu_stats(w, 0, "entries: 1\n") == 0);
	ev.cpu = 7;
	EXPECT_FAILS(ftg_trace_writer_add_event(w, &ev) == -1);
	EXPECT_CLEAN(ftg_trace_writer_set_cpu_stats(w, 0, "entries: 1\n") == 0);
	/* a directory where the writer's temporary file goes: close fails */
	assert_int_equal(mkdir(tmp, 0755), 0);
	EXPECT_FAILS(ftg_trace_writer_close(w) == -1);
	assert_contains(ftg_error_last(), tmp);
	assert_int_equal(rmdir(tmp), 0);
	EXPECT_CLEAN((w = ftg_trace_writer_create(out, fmt, 1)) != NULL);
	EXPECT_CLEAN(ftg_trace_writer_close(w) == 0);

	/* the live source, a page, the ring */
	EXPECT_FAILS(!ftg_live_open(no_tracefs, NULL, 0));
	assert_contains(ftg_error_last(), "ftguard");
	EXPECT_CLEAN((live = ftg_live_open(fake, NULL, 0)) != NULL);
	EXPECT_FAILS(!ftg_live_cpu_stats(live, 5));
	assert_contains(ftg_error_last(), "cpu 5");
	EXPECT_CLEAN(ftg_live_drain(live, NULL, NULL, NULL) >= 0);
	EXPECT_FAILS(ftg_live_add_system(live, "no/such") == -1);
	EXPECT_CLEAN(ftg_live_pump(live, 0, NULL, NULL, NULL) >= 0);
	EXPECT_FAILS(ftg_page_decode(fmt, 1, junk, sizeof(junk), NULL, NULL) == -1);
	assert_contains(ftg_error_last(), "cpu 1");
	EXPECT_CLEAN(ftg_page_decode(fmt, 0, page, sizeof(page), NULL, NULL) > 0);
	EXPECT_FAILS(!ftg_event_ring_alloc(0));
	EXPECT_CLEAN((ring = ftg_event_ring_alloc(4)) != NULL);

	/* the exporter */
	EXPECT_FAILS(ftg_export_format_parse("svg") == -1);
	assert_contains(ftg_error_last(), "svg");
	EXPECT_CLEAN(ftg_export_format_parse("csv") == FTG_EXPORT_CSV);
	EXPECT_FAILS(!ftg_exporter_open(NULL, FTG_EXPORT_CSV));
	f = tmpfile();
	assert_non_null(f);
	EXPECT_CLEAN((ex = ftg_exporter_open(f, FTG_EXPORT_CSV)) != NULL);
	EXPECT_CLEAN(ftg_exporter_close(ex) == 0);
	fclose(f);

	ftg_event_ring_free(ring);
	ftg_live_free(live);
	ftg_trace_formats_free(fmt);
	remove_tree(dir);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_random_tables),
		cmocka_unit_test(test_random_kernel_files),
		cmocka_unit_test(test_random_patterns),
		cmocka_unit_test(test_no_stale_error),
		cmocka_unit_test(test_no_stale_trace_error),
	};

	return cmocka_run_group_tests_name("robust", tests, NULL, NULL);
}
