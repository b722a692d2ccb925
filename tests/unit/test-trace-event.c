// SPDX-License-Identifier: LGPL-2.1
/*
 * Live events without a kernel, the event ring, report lines and the
 * exports.
 *
 * The live tests point ftg_live_open() at a copy of the fixture tracefs
 * with an instances/ftguard/ directory whose per_cpu/cpuN/trace_pipe_raw
 * are regular files holding the real pages captured from the guest:
 * libtracefs reads and splices them as it would the kernel's files.
 */
#include "lib-test.h"

#include <traceevent/event-parse.h>

#include <errno.h>
#include <inttypes.h>

#define FIXTURE_EVENTS	775
#define FIXTURE_PAGES	6

/* @pages: "raw-pages" (function tracer) or "raw-ftguard" (ftguard.ko) */
static char *fake_tracefs_with(const char *pages)
{
	char *dir = tt_tmpdir(), *cmd;
	int cpu;

	assert_true(asprintf(&cmd, "cp -r '%s/tracefs/.' '%s/'",
			     TRACE_FIXTURES, dir) > 0);
	assert_int_equal(system(cmd), 0);
	free(cmd);
	for (cpu = 0; cpu < 2; cpu++) {
		assert_true(asprintf(&cmd, "d='%s/instances/ftguard/per_cpu/cpu%d' && "
				     "mkdir -p \"$d\" && "
				     "cp '%s/%s-cpu%d.bin' \"$d/trace_pipe_raw\" && "
				     "cp '%s/tracefs/per_cpu/cpu%d/stats' \"$d/stats\"",
				     dir, cpu, TRACE_FIXTURES, pages, cpu,
				     TRACE_FIXTURES, cpu) > 0);
		assert_int_equal(system(cmd), 0);
		free(cmd);
	}
	return dir;
}

/*
 * The default budget of a call (100 ms) can end a drain early on a loaded
 * or sanitized build; the tests that count pages per call set their own.
 */
static void no_time_budget(struct ftg_live *live)
{
	assert_int_equal(ftg_live_set_budget(live, (size_t)1 << 30, 600000), 0);
}

static char *fake_tracefs(void)
{
	return fake_tracefs_with("raw-pages");
}

/* A root of a fake tracefs and the fixtures' kallsyms. */
static const struct ftg_root *fake_root(const char *tracefs)
{
	return test_root(TRACE_FIXTURES "/proc", NULL, NULL, tracefs);
}

static void set_overrun(const char *dir, int cpu, int overrun)
{
	char *cmd;

	assert_true(asprintf(&cmd, "sed -i 's/^overrun: .*/overrun: %d/' "
			     "'%s/instances/ftguard/per_cpu/cpu%d/stats'",
			     overrun, dir, cpu) > 0);
	assert_int_equal(system(cmd), 0);
	free(cmd);
}

/* Sum of the commit fields of the fixture pages: their event bytes. */
static uint64_t fixture_commits(void)
{
	unsigned char page[4096];
	uint64_t sum = 0, commit;
	char name[256];
	FILE *fp;
	int cpu;

	for (cpu = 0; cpu < 2; cpu++) {
		snprintf(name, sizeof(name), TRACE_FIXTURES "/raw-pages-cpu%d.bin", cpu);
		fp = fopen(name, "rb");
		assert_non_null(fp);
		while (fread(page, 1, sizeof(page), fp) == sizeof(page)) {
			memcpy(&commit, page + 8, 8);
			sum += commit;
		}
		fclose(fp);
	}
	assert_true(sum > 0);
	return sum;
}

static void test_live_record_path(void **state)
{
	char *dir = fake_tracefs(), *file = tt_path(dir, "rec.dat");
	struct ftg_event_ring *ring = ftg_event_ring_alloc(1000);
	struct ftg_trace_counters cnt;
	struct ftg_trace_writer *w;
	struct ftg_live *live;
	char **lines;
	int pages;

	live = ftg_live_open(fake_root(dir), NULL, 0);
	assert_non_null(live);
	no_time_budget(live);
	assert_int_equal(ftg_live_ncpus(live), 2);
	assert_int_equal(ftg_live_page_size(live), 4096);
	assert_non_null(ftg_live_tep(live));
	w = ftg_trace_writer_create(file, ftg_live_formats(live), ftg_live_ncpus(live));
	assert_non_null(w);

	pages = ftg_live_pump(live, 10, w, ftg_event_ring_cb, ring);
	assert_true(pages >= 0);
	pages += ftg_live_drain(live, w, ftg_event_ring_cb, ring);
	assert_int_equal(pages, FIXTURE_PAGES);
	assert_int_equal(ftg_live_pump(live, 0, w, NULL, NULL), 0);

	set_overrun(dir, 1, 5);
	assert_int_equal(ftg_live_counters(live, &cnt), 0);
	assert_int_equal(cnt.events, FIXTURE_EVENTS);
	assert_int_equal(cnt.pages, FIXTURE_PAGES);
	assert_int_equal(cnt.bytes, fixture_commits());
	assert_int_equal(cnt.lost, 5);
	assert_int_equal(ftg_event_ring_count(ring), FIXTURE_EVENTS);
	assert_string_equal(ftg_event_ring_get(ring, 0)->name, "function");

	char *stats = ftg_live_cpu_stats(live, 1);
	assert_non_null(stats);
	assert_int_equal(ftg_trace_writer_set_cpu_stats(w, 1, stats), 0);
	free(stats);
	assert_null(ftg_live_cpu_stats(live, 2));
	assert_int_equal(ftg_trace_writer_close(w), 0);
	ftg_live_free(live);

	lines = tt_report(file, "-N", NULL);
	assert_int_equal(tt_count(lines, " function: "), FIXTURE_EVENTS);
	tt_lines_free(lines);
	lines = tt_report(file, "--stat", NULL);
	assert_int_equal(tt_count(lines, "overrun: 5"), 1);
	tt_lines_free(lines);

	ftg_event_ring_free(ring);
	free(file);
	tt_rmdir(dir);
}

/* Events decoded with kallsyms the caller read name the same symbols. */
static void test_live_with_kallsyms(void **state)
{
	char *dirs[2] = { fake_tracefs(), fake_tracefs() };
	struct ftg_event_ring *rings[2];
	struct ftg_kallsyms *ks = ftg_kallsyms_read(fixture_root("trace"));
	struct ftg_live *live;
	size_t i, named = 0;
	int k;

	assert_non_null(ks);
	for (k = 0; k < 2; k++) {
		rings[k] = ftg_event_ring_alloc(1000);
		live = k ? ftg_live_open_with_kallsyms(fake_root(dirs[k]), NULL, ks, 0)
			 : ftg_live_open(fake_root(dirs[k]), NULL, 0);
		assert_non_null(live);
		no_time_budget(live);
		assert_int_equal(ftg_live_drain(live, NULL, ftg_event_ring_cb,
						rings[k]), FIXTURE_PAGES);
		ftg_live_free(live);
	}
	ftg_kallsyms_free(ks);	/* the live session kept its own copy */
	assert_int_equal(ftg_event_ring_count(rings[1]), FIXTURE_EVENTS);
	for (i = 0; i < FIXTURE_EVENTS; i++) {
		const struct ftg_event *a = ftg_event_ring_get(rings[0], i);
		const struct ftg_event *b = ftg_event_ring_get(rings[1], i);

		assert_string_equal(a->sym, b->sym);
		assert_string_equal(a->parent_sym, b->parent_sym);
		named += strncmp(b->sym, "0x", 2) != 0;
	}
	assert_true(named > 0);
	for (k = 0; k < 2; k++) {
		ftg_event_ring_free(rings[k]);
		tt_rmdir(dirs[k]);
	}
}

/* The stream/TUI path: read() pages, a ring smaller than the trace. */
static void test_live_stream_into_small_ring(void **state)
{
	char *dir = fake_tracefs();
	struct ftg_event_ring *ring = ftg_event_ring_alloc(100);
	struct ftg_trace_counters cnt;
	struct ftg_live *live;
	const struct ftg_event *last;

	live = ftg_live_open(fake_root(dir), "ftguard", FTG_LIVE_NO_KALLSYMS);
	assert_non_null(live);
	no_time_budget(live);
	while (ftg_live_pump(live, 0, NULL, ftg_event_ring_cb, ring) > 0)
		;
	ftg_live_counters(live, &cnt);
	assert_int_equal(cnt.events, FIXTURE_EVENTS);
	assert_int_equal(cnt.lost, 0);
	assert_int_equal(ftg_event_ring_count(ring), 100);
	assert_int_equal(ftg_event_ring_overwritten(ring), FIXTURE_EVENTS - 100);
	last = ftg_event_ring_get(ring, 99);
	assert_non_null(last);
	/* no kallsyms: ips stay hex */
	assert_true(!strncmp(last->sym, "0xffffffff", 10));
	ftg_live_free(live);
	ftg_event_ring_free(ring);
	tt_rmdir(dir);
}

/*
 * A budget of one round: every pump returns after one page per CPU and
 * says more is left, until the buffer is empty; nothing is lost or read
 * twice on the way.
 */
/*
 * A callback gets the events of all CPUs in time order, whatever the
 * budget: a task that migrates mid-call has its entry on one CPU and its
 * return on the other, and a call tree needs the entry first.
 */
static void test_live_merges_cpus(void **state)
{
	static const size_t budgets[] = { 0, 1 << 20 };
	char *dir = fake_tracefs();
	const struct ftg_event *prev, *ev;
	struct ftg_event_ring *ring;
	struct ftg_live *live;
	size_t b, i, crossings;

	for (b = 0; b < sizeof(budgets) / sizeof(budgets[0]); b++) {
		ring = ftg_event_ring_alloc(100000);
		live = ftg_live_open(fake_root(dir), NULL, FTG_LIVE_NO_KALLSYMS);
		assert_non_null(live);
		ftg_live_set_budget(live, budgets[b], budgets[b] ? 1000 : 0);
		while (ftg_live_pump(live, 0, NULL, ftg_event_ring_cb, ring) > 0 ||
		       ftg_live_more(live))
			;
		assert_true(ftg_event_ring_count(ring) > 2);
		crossings = 0;
		for (i = 1; i < ftg_event_ring_count(ring); i++) {
			prev = ftg_event_ring_get(ring, i - 1);
			ev = ftg_event_ring_get(ring, i);
			assert_true(prev->ts_ns <= ev->ts_ns);
			crossings += prev->cpu != ev->cpu;
		}
		/* both CPUs' events interleave in the fixture */
		assert_true(crossings > 2);
		ftg_live_free(live);
		ftg_event_ring_free(ring);
	}
	tt_rmdir(dir);
}

static void test_live_budget(void **state)
{
	char *dir = fake_tracefs();
	struct ftg_event_ring *ring = ftg_event_ring_alloc(1000);
	struct ftg_trace_counters cnt;
	struct ftg_live *live;
	int pages, total = 0, calls = 0;

	live = ftg_live_open(fake_root(dir), NULL, FTG_LIVE_NO_KALLSYMS);
	assert_non_null(live);
	assert_int_equal(ftg_live_set_budget(live, 0, 0), 0);
	while ((pages = ftg_live_pump(live, 0, NULL, ftg_event_ring_cb, ring)) > 0) {
		assert_true(pages <= ftg_live_ncpus(live));
		if (total + pages < FIXTURE_PAGES)
			assert_true(ftg_live_more(live));
		total += pages;
		calls++;
	}
	assert_int_equal(pages, 0);
	assert_false(ftg_live_more(live));
	assert_int_equal(total, FIXTURE_PAGES);
	assert_true(calls >= FIXTURE_PAGES / ftg_live_ncpus(live));
	ftg_live_counters(live, &cnt);
	assert_int_equal(cnt.events, FIXTURE_EVENTS);
	assert_int_equal(ftg_event_ring_count(ring), FIXTURE_EVENTS);
	ftg_live_free(live);
	ftg_event_ring_free(ring);
	tt_rmdir(dir);
}

/* A hidden task's events reach no callback and are counted apart. */
static void test_live_hide_pid(void **state)
{
	char *dir = fake_tracefs();
	struct ftg_event_ring *ring = ftg_event_ring_alloc(1000);
	struct ftg_trace_counters cnt;
	struct ftg_live *live;
	size_t i, of_pid = 0;
	int pid;

	live = ftg_live_open(fake_root(dir), NULL, FTG_LIVE_NO_KALLSYMS);
	assert_non_null(live);
	no_time_budget(live);
	assert_int_equal(ftg_live_drain(live, NULL, ftg_event_ring_cb, ring), FIXTURE_PAGES);
	pid = ftg_event_ring_get(ring, 0)->pid;
	for (i = 0; i < ftg_event_ring_count(ring); i++)
		of_pid += ftg_event_ring_get(ring, i)->pid == pid;
	assert_true(of_pid > 0 && of_pid < FIXTURE_EVENTS);
	ftg_live_free(live);
	ftg_event_ring_free(ring);
	tt_rmdir(dir);

	dir = fake_tracefs();
	ring = ftg_event_ring_alloc(1000);
	live = ftg_live_open(fake_root(dir), NULL, FTG_LIVE_NO_KALLSYMS);
	assert_non_null(live);
	no_time_budget(live);
	assert_int_equal(ftg_live_hide_pid(live, pid), 0);
	assert_int_equal(ftg_live_drain(live, NULL, ftg_event_ring_cb, ring), FIXTURE_PAGES);
	for (i = 0; i < ftg_event_ring_count(ring); i++)
		assert_int_not_equal(ftg_event_ring_get(ring, i)->pid, pid);
	ftg_live_counters(live, &cnt);
	assert_int_equal(cnt.hidden, of_pid);
	assert_int_equal(cnt.events, FIXTURE_EVENTS - of_pid);
	assert_int_equal(ftg_event_ring_count(ring), FIXTURE_EVENTS - of_pid);
	ftg_live_free(live);
	ftg_event_ring_free(ring);
	tt_rmdir(dir);
}

/*
 * insmod ran as pids 92 and 93 (and kworker 7 woke) after the session
 * opened: saved_cmdlines names them only later. The events and the file
 * must still name them.
 */
static void test_live_learns_new_comms(void **state)
{
	char *dir = fake_tracefs_with("raw-ftguard"), *file = tt_path(dir, "c.dat");
	struct ftg_event_ring *ring = ftg_event_ring_alloc(100);
	struct ftg_trace_writer *w;
	const struct ftg_event *ev;
	struct ftg_live *live;
	char *cmd, **lines;
	size_t i, named = 0;

	live = ftg_live_open(fake_root(dir), NULL, 0);
	assert_non_null(live);
	no_time_budget(live);
	w = ftg_trace_writer_create(file, ftg_live_formats(live), 2);
	assert_true(asprintf(&cmd, "printf '7 kworker/0:0\\n92 insmod\\n93 insmod\\n' >> '%s/saved_cmdlines'",
			     dir) > 0);
	assert_int_equal(system(cmd), 0);
	free(cmd);
	assert_true(ftg_live_drain(live, w, ftg_event_ring_cb, ring) > 0);
	assert_int_equal(ftg_event_ring_count(ring), 31);
	for (i = 0; i < ftg_event_ring_count(ring); i++) {
		ev = ftg_event_ring_get(ring, i);
		if (ev->pid == 92 || ev->pid == 93)
			assert_string_equal(ev->comm, "insmod");
		named += ev->pid == 92 || ev->pid == 93;
	}
	assert_int_equal(named, 15);
	assert_int_equal(ftg_trace_writer_close(w), 0);
	ftg_live_free(live);
	lines = tt_report(file, "", NULL);
	assert_int_equal(tt_count(lines, "insmod-92 "), 2);
	assert_int_equal(tt_count(lines, "insmod-93 "), 13);
	assert_int_equal(tt_count(lines, "<...>"), 0);
	tt_lines_free(lines);
	ftg_event_ring_free(ring);
	free(file);
	tt_rmdir(dir);
}

static int count_event(const struct ftg_event *ev, void *data)
{
	(void)ev;
	++*(int *)data;
	return 0;
}

static int stop_at_third(const struct ftg_event *ev, void *data)
{
	(void)ev;
	return ++*(int *)data == 3;
}

/*
 * A page's events are counted alike wherever a page is walked: by a live
 * capture without a callback (which names tasks instead of decoding), and
 * by ftg_page_decode() counting only or decoding to a callback, which
 * counts the event it stops at.
 */
static void test_page_walks_count_alike(void **state)
{
	char *dir = fake_tracefs();
	struct ftg_trace_counters cnt;
	unsigned char page[4096];
	struct ftg_trace_formats *fmt;
	struct ftg_live *live;
	int cpu, counted = 0, decoded = 0, seen = 0, n;
	char name[256];
	FILE *fp;

	live = ftg_live_open(fake_root(dir), NULL, FTG_LIVE_NO_KALLSYMS);
	assert_non_null(live);
	no_time_budget(live);
	assert_int_equal(ftg_live_drain(live, NULL, NULL, NULL), FIXTURE_PAGES);
	assert_int_equal(ftg_live_counters(live, &cnt), 0);
	assert_int_equal(cnt.events, FIXTURE_EVENTS);

	fmt = ftg_live_formats(live);
	for (cpu = 0; cpu < 2; cpu++) {
		snprintf(name, sizeof(name), TRACE_FIXTURES "/raw-pages-cpu%d.bin", cpu);
		fp = fopen(name, "rb");
		assert_non_null(fp);
		while (fread(page, 1, sizeof(page), fp) == sizeof(page)) {
			n = ftg_page_decode(fmt, cpu, page, sizeof(page), NULL, NULL);
			assert_true(n > 3);
			counted += n;
			assert_int_equal(ftg_page_decode(fmt, cpu, page, sizeof(page),
							 count_event, &decoded), n);
			seen = 0;
			assert_int_equal(ftg_page_decode(fmt, cpu, page, sizeof(page),
							 stop_at_third, &seen), 3);
		}
		fclose(fp);
	}
	assert_int_equal(counted, FIXTURE_EVENTS);
	assert_int_equal(decoded, FIXTURE_EVENTS);
	ftg_live_free(live);
	tt_rmdir(dir);
}

static void test_live_without_instance(void **state)
{
	char *dir = tt_tmpdir();

	errno = 0;
	assert_null(ftg_live_open(test_root(NULL, NULL, NULL, dir), NULL, 0));
	assert_int_equal(errno, ENODEV);
	tt_rmdir(dir);
}

static struct ftg_event numbered(int i)
{
	struct ftg_event ev = { .ts_ns = 1000 + i, .pid = i };

	snprintf(ev.name, sizeof(ev.name), "ev%d", i);
	return ev;
}

static void test_ring(void **state)
{
	struct ftg_event_ring *ring = ftg_event_ring_alloc(3);
	struct ftg_event ev;
	int i;

	assert_null(ftg_event_ring_alloc(0));
	assert_int_equal(ftg_event_ring_capacity(ring), 3);
	assert_null(ftg_event_ring_get(ring, 0));
	for (i = 0; i < 5; i++) {
		ev = numbered(i);
		ftg_event_ring_push(ring, &ev);
	}
	assert_int_equal(ftg_event_ring_count(ring), 3);
	assert_int_equal(ftg_event_ring_overwritten(ring), 2);
	for (i = 0; i < 3; i++)
		assert_int_equal(ftg_event_ring_get(ring, i)->pid, i + 2);
	assert_null(ftg_event_ring_get(ring, 3));
	ftg_event_ring_clear(ring);
	assert_int_equal(ftg_event_ring_count(ring), 0);
	assert_int_equal(ftg_event_ring_overwritten(ring), 0);
	ev = numbered(9);
	ftg_event_ring_cb(&ev, ring);
	assert_int_equal(ftg_event_ring_get(ring, 0)->pid, 9);
	ftg_event_ring_free(ring);
}

/* An event whose strings need every kind of escaping. */
static struct ftg_event nasty_event(void)
{
	struct ftg_event ev = { .ts_ns = 2081366500ULL, .cpu = 1, .pid = 42,
				.ip = 0xffffffffc0a01000ULL,
				.parent_ip = 0xffffffffc0a01053ULL };

	strcpy(ev.comm, "a,b\"c\n\x01\xff");
	strcpy(ev.system, "ftguard");
	strcpy(ev.name, "func");
	strcpy(ev.sym, "fn_a [ftg_test]");
	strcpy(ev.parent_sym, "fn_b [ftg_test]");
	strcpy(ev.info, "tab\there \\ caf\xc3\xa9");
	return ev;
}

static char *export_to_string(enum ftg_export_format fmt, int n)
{
	struct ftg_event ev[3];
	int i;

	assert_true(n <= 3);
	for (i = 0; i < n; i++) {
		ev[i] = nasty_event();
		ev[i].ts_ns += 1000 * (i + 1);
	}
	return export_events(fmt, ev, n);
}

/* Parses @json with python3 and prints len(traceEvents) or len(array). */
static int json_count(const char *json)
{
	char path[] = "/tmp/ftg-json-XXXXXX", *cmd;
	int fd = mkstemp(path), n = -1;
	FILE *fp;

	assert_true(fd >= 0);
	assert_int_equal(write(fd, json, strlen(json)), (ssize_t)strlen(json));
	close(fd);
	/* python3 is a test dependency: without it the popen fails the test */
	assert_true(asprintf(&cmd, "python3 -c 'import json,sys; d=json.load(open(sys.argv[1]));"
			     "print(len(d[\"traceEvents\"]) if isinstance(d, dict) else len(d))' %s",
			     path) > 0);
	fp = popen(cmd, "r");
	if (fscanf(fp, "%d", &n) != 1)
		n = -1;
	assert_int_equal(pclose(fp), 0);
	unlink(path);
	free(cmd);
	return n;
}

static void test_export_chrome(void **state)
{
	char *out = export_to_string(FTG_EXPORT_CHROME, 3);

	/* 3 instant events + process_name and thread_name for pid 42 */
	assert_int_equal(json_count(out), 5);
	assert_non_null(strstr(out, "\"name\":\"fn_a [ftg_test]\""));
	assert_non_null(strstr(out, "\"caller\":\"fn_b [ftg_test]\""));
	assert_non_null(strstr(out, "\"ts\":2081367.500"));
	assert_non_null(strstr(out, "a,b\\\"c\\n\\u0001\\u00ff"));
	assert_non_null(strstr(out, "caf\\u00e9"));	/* plain ASCII */
	free(out);
	out = export_to_string(FTG_EXPORT_CHROME, 0);
	assert_int_equal(json_count(out), 0);
	free(out);
}

/* Two events of pid 42: the first's tgid unknown, the second's 40. */
static char *export_tgids(enum ftg_export_format fmt)
{
	struct ftg_event ev[2] = { nasty_event(), nasty_event() };

	ev[1].ts_ns += 1000;
	ev[1].tgid = 40;
	return export_events(fmt, ev, 2);
}

static void test_export_json(void **state)
{
	char *out = export_to_string(FTG_EXPORT_JSON, 2);

	assert_int_equal(json_count(out), 2);
	assert_non_null(strstr(out, "\"ts_ns\":2081367500,"));
	assert_non_null(strstr(out, "\"info\":\"tab\\there \\\\ caf\\u00e9\""));
	free(out);
	out = export_tgids(FTG_EXPORT_JSON);
	assert_int_equal(json_count(out), 2);
	assert_non_null(strstr(out, "\"pid\":42,\"tgid\":null,"));
	assert_non_null(strstr(out, "\"pid\":42,\"tgid\":40,"));
	free(out);
}

static void test_export_csv(void **state)
{
	char *out = export_to_string(FTG_EXPORT_CSV, 1);
	const char *want =
		"ts_ns,cpu,pid,comm,system,event,ip,parent_ip,symbol,caller,info,tgid,stack\r\n"
		"2081367500,1,42,\"a,b\"\"c\\012\\001\\377\",ftguard,func,"
		"0xffffffffc0a01000,0xffffffffc0a01053,fn_a [ftg_test],"
		"fn_b [ftg_test],tab\\011here \\ caf\\303\\251,,\r\n";

	assert_string_equal(out, want);
	free(out);
	out = export_tgids(FTG_EXPORT_CSV);
	assert_non_null(strstr(out, "caf\\303\\251,,\r\n2081367500,"));
	assert_non_null(strstr(out, "caf\\303\\251,40,\r\n"));
	free(out);
}

static void test_export_format_names(void **state)
{
	assert_int_equal(ftg_export_format_parse("chrome"), FTG_EXPORT_CHROME);
	assert_int_equal(ftg_export_format_parse("json"), FTG_EXPORT_JSON);
	assert_int_equal(ftg_export_format_parse("csv"), FTG_EXPORT_CSV);
	assert_int_equal(ftg_export_format_parse("xml"), -1);
	assert_int_equal(errno, EINVAL);
	assert_int_equal(ftg_export_format_parse(NULL), -1);
	assert_null(ftg_exporter_open(stdout, 7));
}

static void test_report_line(void **state)
{
	struct ftg_event ev = nasty_event();
	char buf[256];

	strcpy(ev.comm, "trigger");
	ev.ts_ns = 2081366500ULL;	/* rounds up, as the kernel prints it */
	ftg_event_snprint(buf, sizeof(buf), &ev);
	assert_string_equal(buf, "trigger-42 [001] 2.081367: func: fn_a [ftg_test] <- fn_b [ftg_test]");
	ev.sym[0] = '\0';
	strcpy(ev.name, "check");
	strcpy(ev.info, "ok=3 bad=0");
	ev.ts_ns = 999999999500ULL;
	ftg_event_snprint(buf, sizeof(buf), &ev);
	assert_string_equal(buf, "trigger-42 [001] 1000.000000: check: ok=3 bad=0");
}

static void assert_sym(struct tep_handle *tep, unsigned long long ip,
		       const char *want)
{
	const char *got = tep_find_function(tep, ip);

	if (!got || strcmp(got, want))
		fail_msg("%#llx: expected %s, got %s", ip, want, got ? got : "(none)");
}

/*
 * A module function named with a newline (tests/modules/plant-names) puts
 * its tail on a kallsyms line of its own; the symbols around it must still
 * resolve.
 */
static void test_kallsyms_name_with_newline(void **state)
{
	static const char kallsyms[] =
		"ffffffffc0000000 t before_nl\t[ftg_names]\n"
		"ffffffffc0000100 t ftg_names_nl\n"
		"injected 0xffffffff81000000 ok\t[ftg_names]\n"
		"ffffffffc0000200 t after_nl\t[ftg_names]\n"
		"ffffffffc0000300 t last\t[ftg_names]\n";
	char *proc = tt_tmpdir(), *path = tt_path(proc, "kallsyms");
	struct ftg_trace_formats *fmt;
	struct tep_handle *tep;
	FILE *fp;

	(void)state;
	fp = fopen(path, "w");
	assert_non_null(fp);
	fputs(kallsyms, fp);
	fclose(fp);
	fmt = ftg_trace_formats_read(TRACE_FIXTURES "/tracefs", NULL, proc);
	assert_non_null(fmt);
	tep = ftg_trace_formats_tep(fmt);
	assert_sym(tep, 0xffffffffc0000010ULL, "before_nl");
	assert_sym(tep, 0xffffffffc0000110ULL, "ftg_names_nl");
	assert_sym(tep, 0xffffffffc0000210ULL, "after_nl");
	ftg_trace_formats_free(fmt);
	free(path);
	tt_rmdir(proc);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_live_record_path),
		cmocka_unit_test(test_live_with_kallsyms),
		cmocka_unit_test(test_live_stream_into_small_ring),
		cmocka_unit_test(test_live_merges_cpus),
		cmocka_unit_test(test_live_budget),
		cmocka_unit_test(test_live_hide_pid),
		cmocka_unit_test(test_live_learns_new_comms),
		cmocka_unit_test(test_page_walks_count_alike),
		cmocka_unit_test(test_live_without_instance),
		cmocka_unit_test(test_ring),
		cmocka_unit_test(test_export_chrome),
		cmocka_unit_test(test_export_json),
		cmocka_unit_test(test_export_csv),
		cmocka_unit_test(test_export_format_names),
		cmocka_unit_test(test_report_line),
		cmocka_unit_test(test_kallsyms_name_with_newline),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
