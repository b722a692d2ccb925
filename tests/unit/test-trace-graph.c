// SPDX-License-Identifier: LGPL-2.1
/*
 * A function_graph trace.dat written by ftguard, against trace-cmd and
 * against ftguard's own reader and `ftguard report`.
 *
 * The formats are the fixture's real 6.1 ones (tests/fixtures/trace)
 * plus ftguard.ko's graph_entry and graph_exit as tracefs prints them
 * for kmod/ftg_trace.h; the kallsyms gain fn_inner and fn_outer, which
 * the fixture's ftg_target predates. The events are one call tree of one
 * task: fn_outer calls fn_inner, which calls the leaf fn_a.
 */
#include <unistd.h>

#include "lib-test.h"

#ifndef FTG_BINARY
#error "FTG_BINARY must name the built ftguard command"
#endif

#define GRAPH_ENTRY_ID	1344
#define GRAPH_EXIT_ID	1345

#define FN_A		0xffffffffc0427000ULL
#define FN_INNER	0xffffffffc0427100ULL
#define FN_OUTER	0xffffffffc0427180ULL

#define PID		4242

static const char graph_entry_format[] =
	"name: graph_entry\n"
	"ID: 1344\n"
	"format:\n"
	"\tfield:unsigned short common_type;\toffset:0;\tsize:2;\tsigned:0;\n"
	"\tfield:unsigned char common_flags;\toffset:2;\tsize:1;\tsigned:0;\n"
	"\tfield:unsigned char common_preempt_count;\toffset:3;\tsize:1;\tsigned:0;\n"
	"\tfield:int common_pid;\toffset:4;\tsize:4;\tsigned:1;\n"
	"\n"
	"\tfield:unsigned long func;\toffset:8;\tsize:8;\tsigned:0;\n"
	"\tfield:int depth;\toffset:16;\tsize:4;\tsigned:1;\n"
	"\n"
	"print fmt: \"func=%ps depth=%d\", (void *)REC->func, REC->depth\n";

static const char graph_exit_format[] =
	"name: graph_exit\n"
	"ID: 1345\n"
	"format:\n"
	"\tfield:unsigned short common_type;\toffset:0;\tsize:2;\tsigned:0;\n"
	"\tfield:unsigned char common_flags;\toffset:2;\tsize:1;\tsigned:0;\n"
	"\tfield:unsigned char common_preempt_count;\toffset:3;\tsize:1;\tsigned:0;\n"
	"\tfield:int common_pid;\toffset:4;\tsize:4;\tsigned:1;\n"
	"\n"
	"\tfield:unsigned long func;\toffset:8;\tsize:8;\tsigned:0;\n"
	"\tfield:int depth;\toffset:16;\tsize:4;\tsigned:1;\n"
	"\tfield:u64 calltime;\toffset:24;\tsize:8;\tsigned:0;\n"
	"\tfield:u64 rettime;\toffset:32;\tsize:8;\tsigned:0;\n"
	"\n"
	"print fmt: \"func=%ps depth=%d calltime=%llu rettime=%llu\", "
	"(void *)REC->func, REC->depth, REC->calltime, REC->rettime\n";

static const char extra_kallsyms[] =
	"ffffffffc0427100 t fn_inner\t[ftg_target]\n"
	"ffffffffc0427180 t fn_outer\t[ftg_target]\n";

struct graph_dir {
	char *dir;
	char *file;
};

static void write_text(const char *dir, const char *name, const char *text,
		       const char *mode)
{
	char *path = tt_path(dir, name);
	FILE *fp = fopen(path, mode);

	assert_non_null(fp);
	assert_int_equal(fputs(text, fp) >= 0, 1);
	assert_int_equal(fclose(fp), 0);
	free(path);
}

/* A tracefs and proc copy of the fixtures with ftguard's graph formats. */
static void make_tracefs(const char *dir)
{
	char *cmd;

	assert_true(asprintf(&cmd, "cp -r '%s/tracefs' '%s/proc' '%s/'",
			     TRACE_FIXTURES, TRACE_FIXTURES, dir) > 0);
	assert_int_equal(system(cmd), 0);
	free(cmd);
	assert_true(asprintf(&cmd, "mkdir -p '%s/tracefs/events/ftguard/graph_entry' "
			     "'%s/tracefs/events/ftguard/graph_exit'", dir, dir) > 0);
	assert_int_equal(system(cmd), 0);
	free(cmd);
	write_text(dir, "tracefs/events/ftguard/graph_entry/format",
		   graph_entry_format, "w");
	write_text(dir, "tracefs/events/ftguard/graph_exit/format",
		   graph_exit_format, "w");
	write_text(dir, "proc/kallsyms", extra_kallsyms, "a");
}

static void put_le(unsigned char *p, uint64_t v, int size)
{
	int i;

	for (i = 0; i < size; i++)
		p[i] = v >> (8 * i);
}

/* A graph event with its payload as the module lays it out. */
static struct ftg_event graph_event(bool entry, uint64_t ts, uint64_t func,
				    int depth, uint64_t calltime)
{
	struct ftg_event ev;

	memset(&ev, 0, sizeof(ev));
	ev.ts_ns = ts;
	ev.cpu = 0;
	ev.pid = PID;
	ev.tgid = PID;
	snprintf(ev.comm, sizeof(ev.comm), "trigger");
	snprintf(ev.system, sizeof(ev.system), "ftguard");
	snprintf(ev.name, sizeof(ev.name), entry ? "graph_entry" : "graph_exit");
	ev.raw_size = entry ? 24 : 40;
	put_le(ev.raw, entry ? GRAPH_ENTRY_ID : GRAPH_EXIT_ID, 2);
	put_le(ev.raw + 4, PID, 4);
	put_le(ev.raw + 8, func, 8);
	put_le(ev.raw + 16, depth, 4);
	if (!entry) {
		put_le(ev.raw + 24, calltime, 8);
		put_le(ev.raw + 32, ts, 8);
	}
	return ev;
}

/*
 * fn_outer (1234.567 us) { fn_inner (30 us) { fn_a (2.5 us) } }, from
 * 1 s on; fn_a is the leaf trace-cmd prints on one line.
 */
#define T0	1000000000ULL
static const struct {
	bool entry;
	uint64_t ts, func, calltime;
	int depth;
} calls[] = {
	{ true, T0, FN_OUTER, 0, 0 },
	{ true, T0 + 1000, FN_INNER, 0, 1 },
	{ true, T0 + 2000, FN_A, 0, 2 },
	{ false, T0 + 4500, FN_A, T0 + 2000, 2 },
	{ false, T0 + 31000, FN_INNER, T0 + 1000, 1 },
	{ false, T0 + 1234567, FN_OUTER, T0, 0 },
};
#define NR_CALLS	(sizeof(calls) / sizeof(calls[0]))

static int setup(void **state)
{
	struct graph_dir *g = calloc(1, sizeof(*g));
	struct ftg_trace_formats *fmt;
	struct ftg_trace_writer *w;
	char *tracefs, *proc;
	struct ftg_event ev;
	size_t i;

	assert_non_null(g);
	g->dir = tt_tmpdir();
	g->file = tt_path(g->dir, "g.dat");
	make_tracefs(g->dir);
	tracefs = tt_path(g->dir, "tracefs");
	proc = tt_path(g->dir, "proc");
	fmt = ftg_trace_formats_read(tracefs, NULL, proc);
	assert_non_null(fmt);
	w = ftg_trace_writer_create(g->file, fmt, 1);
	assert_non_null(w);
	for (i = 0; i < NR_CALLS; i++) {
		ev = graph_event(calls[i].entry, calls[i].ts, calls[i].func,
				 calls[i].depth, calls[i].calltime);
		assert_int_equal(ftg_trace_writer_add_event(w, &ev), 0);
	}
	assert_int_equal(ftg_trace_writer_close(w), 0);
	ftg_trace_formats_free(fmt);
	free(tracefs);
	free(proc);
	*state = g;
	return 0;
}

static int teardown(void **state)
{
	struct graph_dir *g = *state;

	free(g->file);
	tt_rmdir(g->dir);
	free(g);
	return 0;
}

/* Runs @cmd; its stdout lines, its stderr into @err (empty: none). */
static char **run(const char *dir, const char *cmd, char *err, size_t errlen)
{
	char *full, *errpath = tt_path(dir, "stderr");
	char **lines;
	size_t len;
	FILE *fp;
	char *text;

	assert_true(asprintf(&full, "%s 2>'%s'", cmd, errpath) > 0);
	fp = popen(full, "r");
	assert_non_null(fp);
	lines = tt_lines(fp, NULL);
	assert_int_equal(pclose(fp), 0);
	text = read_whole_file(errpath, &len);
	assert_non_null(text);
	snprintf(err, errlen, "%s", text);
	free(text);
	free(errpath);
	free(full);
	return lines;
}

/* The one line of @lines that contains @needle. */
static void assert_one(char **lines, const char *needle)
{
	size_t i;

	if (tt_count(lines, needle) == 1)
		return;
	for (i = 0; lines[i]; i++)
		print_message("%s\n", lines[i]);
	fail_msg("not exactly one line with \"%s\"", needle);
}

/*
 * trace-cmd prints the file as it prints the kernel's function_graph
 * tracer (lib/trace-cmd/trace-ftrace.c): an entry whose return follows
 * is one "fn();" line with the call's duration, other entries "fn() {",
 * returns "}" with the duration, indented two spaces per depth; the
 * duration "%lu.%03lu us" padded to 7 characters, after the overhead
 * mark ("+ " over 10 us, "# " over 1000 us).
 */
static void test_trace_cmd_prints_function_graph(void **state)
{
	struct graph_dir *g = *state;
	char cmd[1024], err[1024];
	char **lines;

	if (!tt_have_trace_cmd())
		skip();
	snprintf(cmd, sizeof(cmd), "trace-cmd report -i '%s'", g->file);
	lines = run(g->dir, cmd, err, sizeof(err));
	assert_string_equal(err, "");
	assert_one(lines, "funcgraph_entry:                   |  fn_outer() {");
	assert_one(lines, "funcgraph_entry:                   |    fn_inner() {");
	assert_one(lines, "funcgraph_entry:        2.500 us   |      fn_a();");
	assert_one(lines, "funcgraph_exit:       + 30.000 us  |    }");
	assert_one(lines, "funcgraph_exit:       # 1234.567 us |  }");
	/* the leaf's return is on its entry's line, not one of its own */
	assert_int_equal(tt_count(lines, "funcgraph_exit:"), 2);
	assert_int_equal(tt_count(lines, "calltime="), 0);
	assert_int_equal(tt_count(lines, "trigger-4242"), 5);
	tt_lines_free(lines);

	/* the closing lines name their function when asked to */
	snprintf(cmd, sizeof(cmd), "trace-cmd report -O fgraph:tailprint -i '%s'",
		 g->file);
	lines = run(g->dir, cmd, err, sizeof(err));
	assert_string_equal(err, "");
	assert_one(lines, "30.000 us  |    } /* fn_inner */");
	assert_one(lines, "1234.567 us |  } /* fn_outer */");
	tt_lines_free(lines);
}

/*
 * KernelShark's library reads the file as function_graph too, with
 * trace-cmd's plugin: every record is a row of its own, so fn_a's return
 * has a "}" row after its leaf "fn_a();" row, as for the kernel's own
 * function_graph files.
 */
static void test_kernelshark_reads_function_graph(void **state)
{
	struct graph_dir *g = *state;
	char **lines = tt_kshark(g->file, NULL);

	assert_int_equal(tt_count(lines, "trigger-4242 ftrace/funcgraph_entry:"), 3);
	assert_one(lines, "|  fn_outer() {");
	assert_one(lines, "|    fn_inner() {");
	assert_one(lines, "2.500 us   |      fn_a();");
	assert_one(lines, "+ 30.000 us  |    }");
	assert_one(lines, "# 1234.567 us |  }");
	assert_int_equal(tt_count(lines, "calltime="), 0);
	assert_int_equal(tt_count(lines, "graph_e"), 6);
	tt_lines_free(lines);
}

struct collected {
	struct ftg_event ev[16];
	size_t n;
};

static int collect(const struct ftg_event *ev, void *data)
{
	struct collected *c = data;

	assert_true(c->n < 16);
	c->ev[c->n++] = *ev;
	return 0;
}

/*
 * ftguard's reader gives the events back under their own names, with
 * their fields and the tgid, and prints nothing on stderr (libtracecmd
 * would warn about the tgid option).
 */
static void test_reader_sees_graph_events(void **state)
{
	struct graph_dir *g = *state;
	struct collected c = { .n = 0 };
	char *errpath = tt_path(g->dir, "lib-stderr");
	struct ftg_trace_file *tf;
	char *text;
	int saved;
	size_t i;

	saved = tt_stderr_begin(errpath);
	tf = ftg_trace_file_open(g->file);
	if (tf)
		ftg_trace_file_iterate(tf, collect, &c);
	text = tt_stderr_end(errpath, saved);
	assert_non_null(tf);
	assert_string_equal(text, "");
	free(text);
	free(errpath);

	assert_true(ftg_trace_file_has_event(tf, "ftguard:graph_entry"));
	assert_true(ftg_trace_file_has_event(tf, "ftguard:graph_exit"));
	ftg_trace_file_close(tf);
	assert_int_equal(c.n, NR_CALLS);
	for (i = 0; i < NR_CALLS; i++) {
		assert_string_equal(c.ev[i].system, "ftguard");
		assert_string_equal(c.ev[i].name, calls[i].entry ? "graph_entry" :
				    "graph_exit");
		assert_int_equal(ftg_event_is_graph_entry(&c.ev[i]), calls[i].entry);
		assert_int_equal(ftg_event_is_graph_exit(&c.ev[i]), !calls[i].entry);
		assert_true(c.ev[i].ip == calls[i].func);
		assert_int_equal(c.ev[i].depth, calls[i].depth);
		assert_int_equal(c.ev[i].tgid, PID);
		if (!calls[i].entry) {
			assert_true(c.ev[i].calltime == calls[i].calltime);
			assert_true(c.ev[i].rettime == calls[i].ts);
		}
	}
	assert_string_equal(c.ev[0].sym, "fn_outer [ftg_target]");
}

/* `ftguard report` nests them too, and warns about nothing. */
static void test_ftguard_report(void **state)
{
	struct graph_dir *g = *state;
	char cmd[1024], err[1024];
	char **lines;

	/* the sanitized tree builds the unit tests alone, not the command */
	if (access(FTG_BINARY, X_OK) != 0) {
		print_message("no %s: skipped\n", FTG_BINARY);
		skip();
	}
	snprintf(cmd, sizeof(cmd), "'%s' report -i '%s'", FTG_BINARY, g->file);
	lines = run(g->dir, cmd, err, sizeof(err));
	assert_string_equal(err, "");
	assert_one(lines, "graph_entry:               |  fn_outer [ftg_target]() {");
	assert_one(lines, "graph_entry:        2.500 us |      fn_a [ftg_target]();");
	assert_one(lines, "graph_exit:  #   1234.567 us |  } /* fn_outer [ftg_target] */");
	tt_lines_free(lines);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_trace_cmd_prints_function_graph),
		cmocka_unit_test(test_kernelshark_reads_function_graph),
		cmocka_unit_test(test_reader_sees_graph_events),
		cmocka_unit_test(test_ftguard_report),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
