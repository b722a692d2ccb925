// SPDX-License-Identifier: LGPL-2.1
/*
 * Function graph printing and per-function sums on hand-made events: the
 * lines report prints for a leaf call, an open call and a return, the
 * duration marks, --stat's order and arithmetic, and the Chrome export.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "lib-test.h"

static struct ftg_event graph_event(const char *name, const char *sym, int depth,
				    uint64_t ts, uint64_t calltime, uint64_t rettime)
{
	struct ftg_event ev;

	memset(&ev, 0, sizeof(ev));
	snprintf(ev.system, sizeof(ev.system), "ftguard");
	snprintf(ev.name, sizeof(ev.name), "%s", name);
	snprintf(ev.sym, sizeof(ev.sym), "%s", sym);
	snprintf(ev.comm, sizeof(ev.comm), "sh");
	ev.pid = 42;
	ev.cpu = 1;
	ev.depth = depth;
	ev.ts_ns = ts;
	ev.calltime = calltime;
	ev.rettime = rettime;
	return ev;
}

/* fn_outer calling fn_a: its entry, fn_a's entry and return, its return. */
enum { OUTER_IN, LEAF_IN, LEAF_OUT, OUTER_OUT, NESTED_EVENTS };
static void nested_call(struct ftg_event ev[NESTED_EVENTS])
{
	ev[OUTER_IN] = graph_event("graph_entry", "fn_outer [m]", 0, 2000000000, 0, 0);
	ev[LEAF_IN] = graph_event("graph_entry", "fn_a [m]", 1, 2000001000, 0, 0);
	ev[LEAF_OUT] = graph_event("graph_exit", "fn_a [m]", 1, 2000002000,
				   2000001000, 2000001500);
	ev[OUTER_OUT] = graph_event("graph_exit", "fn_outer [m]", 0, 2030000000,
				    2000000000, 2030000123);
}

static void test_graph_lines(void **state)
{
	struct ftg_event ev[NESTED_EVENTS];
	const struct ftg_event *in = &ev[OUTER_IN], *leaf_in = &ev[LEAF_IN];
	const struct ftg_event *leaf_out = &ev[LEAF_OUT], *out = &ev[OUTER_OUT];
	char buf[256];

	(void)state;
	nested_call(ev);
	assert_true(ftg_event_is_graph_entry(in));
	assert_false(ftg_event_is_graph_exit(in));
	assert_true(ftg_event_is_graph_exit(out));
	ftg_graph_snprint(buf, sizeof(buf), in, NULL);
	assert_string_equal(buf, "sh-42 [001] 2.000000: graph_entry:               |  fn_outer [m]() {");
	ftg_graph_snprint(buf, sizeof(buf), leaf_in, leaf_out);
	assert_string_equal(buf, "sh-42 [001] 2.000001: graph_entry:        0.500 us |    fn_a [m]();");
	ftg_graph_snprint(buf, sizeof(buf), NULL, out);
	/* 30,000.123 us: over 10 ms, '*' */
	assert_string_equal(buf, "sh-42 [001] 2.030000: graph_exit:  *  30000.123 us |  } /* fn_outer [m] */");
	assert_int_equal(ftg_graph_snprint(buf, sizeof(buf), NULL, NULL), -1);
	/* the call part alone, for a caller with columns of its own (the TUI) */
	ftg_graph_call_snprint(buf, sizeof(buf), NULL, out);
	assert_string_equal(buf, "*  30000.123 us |  } /* fn_outer [m] */");
	ftg_graph_call_snprint(buf, sizeof(buf), leaf_in, NULL);
	assert_string_equal(buf, "              |    fn_a [m]() {");
	assert_int_equal(ftg_graph_call_snprint(buf, sizeof(buf), NULL, NULL), -1);
}

static void test_graph_marks(void **state)
{
	static const struct { uint64_t ns; char mark; } cases[] = {
		{ 10000, ' ' }, { 10001, '+' }, { 100001, '!' }, { 1000001, '#' },
		{ 10000001, '*' }, { 100000001, '@' }, { 1000000001, '$' },
	};
	char buf[256], *bar;
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct ftg_event out = graph_event("graph_exit", "f", 0, 0, 5, 5 + cases[i].ns);

		ftg_graph_snprint(buf, sizeof(buf), NULL, &out);
		bar = strstr(buf, "graph_exit:  ");
		assert_non_null(bar);
		assert_int_equal(bar[strlen("graph_exit:  ")], cases[i].mark);
	}
}

static void test_graph_stats(void **state)
{
	struct ftg_graph_stats *st = ftg_graph_stats_new();
	struct ftg_event a1 = graph_event("graph_exit", "fn_a", 1, 0, 100, 300);
	struct ftg_event a2 = graph_event("graph_exit", "fn_a", 1, 0, 400, 1000);
	struct ftg_event b = graph_event("graph_exit", "fn_b", 0, 0, 0, 5000);
	struct ftg_event entry = graph_event("graph_entry", "fn_c", 0, 0, 0, 0);
	const struct ftg_graph_stat *s;

	(void)state;
	assert_non_null(st);
	assert_int_equal(ftg_graph_stats_add(st, &a1), 0);
	assert_int_equal(ftg_graph_stats_cb(&a2, st), 0);
	assert_int_equal(ftg_graph_stats_add(st, &b), 0);
	assert_int_equal(ftg_graph_stats_add(st, &entry), 0);	/* not counted */
	assert_int_equal(ftg_graph_stats_count(st), 2);
	s = ftg_graph_stats_get(st, 0);
	assert_string_equal(s->sym, "fn_b");
	assert_int_equal(s->calls, 1);
	assert_int_equal(s->total_ns, 5000);
	s = ftg_graph_stats_get(st, 1);
	assert_string_equal(s->sym, "fn_a");
	assert_int_equal(s->calls, 2);
	assert_int_equal(s->total_ns, 800);
	assert_int_equal(s->max_ns, 600);
	assert_null(ftg_graph_stats_get(st, 2));
	ftg_graph_stats_free(st);
}

/*
 * Checks a Chrome export with python3 (a test dependency: without it the
 * test fails): the JSON loads, every "X" slice has dur >= 0, every thread
 * (pid, tid) of an event has a thread_name with that pid, and every pid a
 * process_name; and that it counted @counts: "slices threads processes".
 */
static void chrome_check(const char *json, const char *counts)
{
	static const char check[] =
		"import json, sys\n"
		"e = json.load(open(sys.argv[1]))['traceEvents']\n"
		"meta = [x for x in e if x['ph'] == 'M']\n"
		"data = [x for x in e if x['ph'] != 'M']\n"
		"assert all(x['dur'] >= 0 for x in data if x['ph'] == 'X')\n"
		"named = {(x['pid'], x['tid']) for x in meta if x['name'] == 'thread_name'}\n"
		"procs = {x['pid'] for x in meta if x['name'] == 'process_name'}\n"
		"threads = {(x['pid'], x['tid']) for x in data}\n"
		"assert threads <= named, threads - named\n"
		"assert {p for p, t in threads} <= procs\n"
		"print(sum(x['ph'] == 'X' for x in data), len(threads), len(procs))\n";
	char path[] = "/tmp/ftg-chrome-XXXXXX", *cmd, out[64] = "";
	int fd = mkstemp(path);
	FILE *py;

	assert_true(fd >= 0);
	assert_int_equal(write(fd, json, strlen(json)), (ssize_t)strlen(json));
	close(fd);
	assert_true(asprintf(&cmd, "python3 -c \"$FTG_CHROME_CHECK\" %s", path) > 0);
	setenv("FTG_CHROME_CHECK", check, 1);
	py = popen(cmd, "r");
	assert_non_null(py);
	if (!fgets(out, sizeof(out), py))
		out[0] = '\0';
	assert_int_equal(pclose(py), 0);
	unlink(path);
	free(cmd);
	out[strcspn(out, "\n")] = '\0';
	assert_string_equal(out, counts);
}

/* The Chrome export of a nested call: the entries add nothing, each
 * return is one complete slice ("ph":"X") from its entry, for its
 * duration. */
static void test_graph_chrome(void **state)
{
	struct ftg_event ev[NESTED_EVENTS];
	char *buf;

	(void)state;
	nested_call(ev);
	buf = export_events(FTG_EXPORT_CHROME, ev, NESTED_EVENTS);
	assert_null(strstr(buf, "graph_entry"));
	assert_non_null(strstr(buf, "\"name\":\"fn_a [m]\",\"cat\":\"function_graph\","
			       "\"ph\":\"X\",\"ts\":2000001.000,\"dur\":0.500"));
	assert_non_null(strstr(buf, "\"ph\":\"X\",\"ts\":2000000.000,\"dur\":30000.123"));
	chrome_check(buf, "2 1 1");
	free(buf);
}

/*
 * One track per thread, grouped by process: Chrome's pid is the tgid, its
 * tid the pid. A process is named after its leader even when another of
 * its threads came first; a pid whose tgid the trace does not know is a
 * process of its own.
 */
static void test_graph_chrome_tracks(void **state)
{
	struct ftg_event ev[NESTED_EVENTS + 3];
	char *buf;

	(void)state;
	nested_call(ev);
	/* worker thread 43 of process 41 ("app") runs the nested call */
	for (int i = 0; i < NESTED_EVENTS; i++) {
		ev[i].pid = 43;
		ev[i].tgid = 41;
		snprintf(ev[i].comm, sizeof(ev[i].comm), "worker");
	}
	ev[NESTED_EVENTS] = graph_event("graph_exit", "fn_b [m]", 0, 2040000000,
					2039000000, 2040000000);
	ev[NESTED_EVENTS].pid = ev[NESTED_EVENTS].tgid = 41;
	snprintf(ev[NESTED_EVENTS].comm, sizeof(ev->comm), "app");
	ev[NESTED_EVENTS + 1] = ev[NESTED_EVENTS];
	ev[NESTED_EVENTS + 1].pid = ev[NESTED_EVENTS + 1].tgid = 50;
	ev[NESTED_EVENTS + 2] = ev[NESTED_EVENTS];
	ev[NESTED_EVENTS + 2].pid = 60;
	ev[NESTED_EVENTS + 2].tgid = 0;
	buf = export_events(FTG_EXPORT_CHROME, ev, NESTED_EVENTS + 3);
	assert_non_null(strstr(buf, "\"dur\":30000.123,\"pid\":41,\"tid\":43,"));
	assert_non_null(strstr(buf, "{\"name\":\"process_name\",\"ph\":\"M\","
			       "\"pid\":41,\"tid\":41,\"args\":{\"name\":\"app\"}}"));
	assert_non_null(strstr(buf, "{\"name\":\"thread_name\",\"ph\":\"M\","
			       "\"pid\":41,\"tid\":43,\"args\":{\"name\":\"worker\"}}"));
	assert_non_null(strstr(buf, "\"pid\":60,\"tid\":60,"));
	chrome_check(buf, "5 4 3");
	free(buf);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_graph_lines),
		cmocka_unit_test(test_graph_marks),
		cmocka_unit_test(test_graph_stats),
		cmocka_unit_test(test_graph_chrome),
		cmocka_unit_test(test_graph_chrome_tracks),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
