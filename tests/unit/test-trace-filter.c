// SPDX-License-Identifier: LGPL-2.1
/*
 * The event filters of trace.dat reading (ftg_trace_file_add_filter(),
 * ftg_trace_file_add_cpus()) over files written from the fixture pages:
 * the 775 function events of vfs_read and schedule on two CPUs, and the
 * 31 ftguard events (module, site, check, arm, func) of a test-module
 * run. Each selection is compared with what the unfiltered file says.
 * Last, the kernel event filters (-f) as files of a scratch instance.
 */
#include "lib-test.h"

/*
 * The slow unwinder for the sanitized run: libtraceevent is built without
 * frame pointers, and only a full stack of its filter parser's leaks
 * reaches the function lib-test.h's suppression names.
 */
const char *__asan_default_options(void);
const char *__asan_default_options(void)
{
	return "fast_unwind_on_malloc=0";
}

struct file {
	char *dir, *path;
};

/* The fixture pages @prefix<cpu>.bin of both CPUs, as a trace.dat. */
static void make_file(struct file *f, const char *prefix)
{
	struct ftg_trace_formats *fmt = tt_formats();
	struct ftg_trace_writer *w;
	int cpu;

	f->dir = tt_tmpdir();
	f->path = tt_path(f->dir, "t.dat");
	w = ftg_trace_writer_create(f->path, fmt, 2);
	assert_non_null(w);
	for (cpu = 0; cpu < 2; cpu++)
		tt_add_fixture_pages(w, cpu, prefix);
	assert_int_equal(ftg_trace_writer_close(w), 0);
	ftg_trace_formats_free(fmt);
}

static void drop_file(struct file *f)
{
	free(f->path);
	tt_rmdir(f->dir);
}

struct seen {
	struct ftg_event *ev;
	size_t n;
};

static int collect(const struct ftg_event *ev, void *data)
{
	struct seen *s = data;

	s->ev = realloc(s->ev, (s->n + 1) * sizeof(*s->ev));
	assert_non_null(s->ev);
	s->ev[s->n++] = *ev;
	return 0;
}

static struct ftg_trace_file *open_file(const struct file *f)
{
	char err[512];
	struct ftg_trace_file *tf = tt_open(f->path, err, sizeof(err));

	if (!tf)
		fail_msg("%s", err);
	return tf;
}

/* The events of @f that pass @filter (NULL: all), excluded or not. */
static struct seen read_with(const struct file *f, const char *filter, bool exclude)
{
	struct ftg_trace_file *tf = open_file(f);
	struct seen s = { 0 };

	if (filter && ftg_trace_file_add_filter(tf, filter, exclude))
		fail_msg("'%s' refused: %s", filter, ftg_error_last());
	assert_int_equal(ftg_trace_file_iterate(tf, collect, &s), 0);
	ftg_trace_file_close(tf);
	return s;
}

/* The events of the unfiltered @all for which @want holds, counted. */
static size_t count_where(const struct seen *all,
			  bool (*want)(const struct ftg_event *ev))
{
	size_t i, n = 0;

	for (i = 0; i < all->n; i++)
		n += want(&all->ev[i]);
	return n;
}

/* Every event of @got satisfies @want, and there are as many as in @all. */
static void assert_selects(const struct seen *all, const struct seen *got,
			   bool (*want)(const struct ftg_event *ev))
{
	size_t i;

	assert_true(got->n > 0);
	for (i = 0; i < got->n; i++)
		assert_true(want(&got->ev[i]));
	assert_int_equal(got->n, count_where(all, want));
}

static bool is_vfs_read(const struct ftg_event *ev)
{
	return !strncmp(ev->sym, "vfs_read", 8) && strchr("+ ", ev->sym[8]);
}

static bool is_vfs_any(const struct ftg_event *ev)
{
	return !strncmp(ev->sym, "vfs_", 4);
}

static bool init_vfs_or_cpu0(const struct ftg_event *ev)
{
	return !strcmp(ev->comm, "init") && (is_vfs_read(ev) || ev->cpu == 0);
}

static bool on_cpu1(const struct ftg_event *ev)
{
	return ev->cpu == 1;
}

static bool pid1(const struct ftg_event *ev)
{
	return ev->pid == 1;
}

static bool vfs_read_or_pid1(const struct ftg_event *ev)
{
	return is_vfs_read(ev) || ev->pid == 1;
}

static void test_field_filter(void **state)
{
	struct file f;
	struct seen all, got;

	make_file(&f, "raw-pages-cpu");
	all = read_with(&f, NULL, false);
	assert_int_equal(all.n, 775);
	/* an address field against a string compares the function's name */
	got = read_with(&f, "ip == \"vfs_read\"", false);
	assert_selects(&all, &got, is_vfs_read);
	free(got.ev);
	got = read_with(&f, "common_pid == 1", false);
	assert_selects(&all, &got, pid1);
	free(got.ev);
	free(all.ev);
	drop_file(&f);
}

static void test_and_or_not(void **state)
{
	struct file f;
	struct seen all, got, not;

	make_file(&f, "raw-pages-cpu");
	all = read_with(&f, NULL, false);
	got = read_with(&f, "COMM == \"init\" && (ip == \"vfs_read\" || CPU == 0)", false);
	assert_selects(&all, &got, init_vfs_or_cpu0);
	not = read_with(&f, "!(COMM == \"init\" && (ip == \"vfs_read\" || CPU == 0))", false);
	assert_int_equal(got.n + not.n, all.n);
	free(got.ev);
	free(not.ev);
	free(all.ev);
	drop_file(&f);
}

static void test_glob(void **state)
{
	struct file f;
	struct seen all, got, re;

	make_file(&f, "raw-pages-cpu");
	all = read_with(&f, NULL, false);
	got = read_with(&f, "ip ~ \"vfs_*\"", false);
	assert_selects(&all, &got, is_vfs_any);
	re = read_with(&f, "ip =~ \"^vfs_\"", false);
	assert_int_equal(re.n, got.n);
	free(re.ev);
	/* anchored: a glob without '*' is the whole name */
	re = read_with(&f, "ip ~ \"vfs_\"", false);
	assert_int_equal(re.n, 0);
	free(re.ev);
	free(got.ev);
	free(all.ev);
	drop_file(&f);
}

static void test_exclude(void **state)
{
	struct file f;
	struct seen all, in, out;
	size_t i;

	make_file(&f, "raw-pages-cpu");
	all = read_with(&f, NULL, false);
	in = read_with(&f, "ip == \"vfs_read\"", false);
	out = read_with(&f, "ip == \"vfs_read\"", true);
	assert_int_equal(in.n + out.n, all.n);
	for (i = 0; i < out.n; i++)
		assert_false(is_vfs_read(&out.ev[i]));
	free(in.ev);
	free(out.ev);
	free(all.ev);
	drop_file(&f);
}

/* Two including filters: an event passes either. */
static void test_filters_or(void **state)
{
	struct file f;
	struct seen all, got = { 0 };
	struct ftg_trace_file *tf;

	make_file(&f, "raw-pages-cpu");
	all = read_with(&f, NULL, false);
	tf = open_file(&f);
	assert_int_equal(ftg_trace_file_add_filter(tf, "ip == \"vfs_read\"", false), 0);
	assert_int_equal(ftg_trace_file_add_filter(tf, "common_pid == 1", false), 0);
	assert_int_equal(ftg_trace_file_iterate(tf, collect, &got), 0);
	ftg_trace_file_close(tf);
	assert_selects(&all, &got, vfs_read_or_pid1);
	free(got.ev);
	free(all.ev);
	drop_file(&f);
}

/* EVENT, SYSTEM/EVENT, SYSTEM:EVENT and EVENT: prefixes. */
static void test_event_names(void **state)
{
	struct file f;
	struct seen got;
	struct ftg_trace_file *tf;

	make_file(&f, "raw-ftguard-cpu");
	tf = open_file(&f);
	assert_true(ftg_trace_file_has_event(tf, "func"));
	assert_true(ftg_trace_file_has_event(tf, "ftguard:s*"));
	assert_false(ftg_trace_file_has_event(tf, "nosuch"));
	ftg_trace_file_close(tf);
	got = read_with(&f, "func", false);
	assert_int_equal(got.n, 12);
	free(got.ev);
	got = read_with(&f, "ftguard/func", false);
	assert_int_equal(got.n, 12);
	free(got.ev);
	got = read_with(&f, "ftguard:func", false);
	assert_int_equal(got.n, 12);
	free(got.ev);
	got = read_with(&f, "site,check", false);
	assert_int_equal(got.n, 11 + 2);
	free(got.ev);
	got = read_with(&f, "site: action == \"drop\"", false);
	assert_int_equal(got.n, 4);
	free(got.ev);
	/* no prefix: every event that has the field; the others never pass */
	got = read_with(&f, "name ~ \"init_*\"", false);
	assert_int_equal(got.n, 6);	/* site: init_one, _two, _three added, dropped */
	free(got.ev);
	got = read_with(&f, "n_ok == 1", false);
	assert_int_equal(got.n, 2);
	assert_string_equal(got.ev[0].name, "check");
	free(got.ev);
	drop_file(&f);
}

/* The message of a refused filter, asserting code and errno. */
static const char *refused(const struct file *f, const char *filter)
{
	static char msg[1024];
	struct ftg_trace_file *tf = open_file(f);

	assert_int_equal(ftg_trace_file_add_filter(tf, filter, false), -1);
	assert_int_equal(errno, EINVAL);
	assert_int_equal(ftg_error_code(), FTG_E_BAD_FILTER);
	snprintf(msg, sizeof(msg), "%s", ftg_error_last());
	ftg_trace_file_close(tf);
	return msg;
}

static void test_bad_filters(void **state)
{
	struct file f;

	make_file(&f, "raw-pages-cpu");
	assert_string_equal(refused(&f, "foo == 1"),
			    "filter 'foo == 1': unknown field 'foo' (no event the filter "
			    "applies to has it; trace-cmd report --events lists them)\n"
			    "  foo == 1\n  ^");
	/* the field exists, but not in the events named */
	assert_contains(refused(&f, "function: prev_pid == 0 || comm_x == 1"),
			"unknown field 'prev_pid'");
	assert_contains(refused(&f, "ip == \"vfs_read\" && nosuch > 2"),
			"\n  ip == \"vfs_read\" && nosuch > 2\n                      ^");
	assert_string_equal(refused(&f, "sched_switch"),
			    "filter 'sched_switch': no event of the file matches "
			    "(trace-cmd report --events lists them)\n  sched_switch\n  ^");
	assert_contains(refused(&f, "ftrace/nosuch: common_pid == 1"), "no event of the file");
	/* the engine's syntax errors, its caret moved under the user's text */
	assert_string_equal(refused(&f, "function: common_pid == x"),
			    "filter 'function: common_pid == x': Illegal rvalue\n"
			    "  function: common_pid == x\n"
			    "                          ^");
	assert_contains(refused(&f, "function: (ip == \"x\""), "Unbalanced number of '('");
	/* what libtraceevent 1.7.1 would crash on */
	assert_string_equal(refused(&f, "ip =="),
			    "filter 'ip ==': an operand is missing at the end\n"
			    "  ip ==\n       ^");
	assert_contains(refused(&f, "ip == \"vfs_read\" ||"), "an operand is missing");
	assert_string_equal(refused(&f, "ip ~ \"vfs"),
			    "filter 'ip ~ \"vfs': unterminated string\n"
			    "  ip ~ \"vfs\n       ^");
	assert_contains(refused(&f, "ip ~ vfs_read"), "'~' wants a \"quoted glob\"");
	assert_contains(refused(&f, "  "), "empty");
	drop_file(&f);
}

/* The CPUs of a list, or the error of a refused one. */
static const char *cpus(const struct file *f, const char *list, size_t *n)
{
	static char msg[512];
	struct ftg_trace_file *tf = open_file(f);
	struct seen s = { 0 };

	msg[0] = '\0';
	*n = 0;
	if (ftg_trace_file_add_cpus(tf, list)) {
		assert_int_equal(errno, EINVAL);
		assert_int_equal(ftg_error_code(), FTG_E_BAD_ARGUMENT);
		snprintf(msg, sizeof(msg), "%s", ftg_error_last());
	} else {
		assert_int_equal(ftg_trace_file_iterate(tf, collect, &s), 0);
		*n = s.n;
		free(s.ev);
	}
	ftg_trace_file_close(tf);
	return msg;
}

static void test_cpu_lists(void **state)
{
	struct file f;
	struct seen all;
	size_t n;

	make_file(&f, "raw-pages-cpu");
	all = read_with(&f, NULL, false);
	assert_string_equal(cpus(&f, "0-3,6", &n), "");
	assert_int_equal(n, all.n);
	assert_string_equal(cpus(&f, "1", &n), "");
	assert_int_equal(n, count_where(&all, on_cpu1));
	assert_string_equal(cpus(&f, "1-1,4-5", &n), "");
	assert_int_equal(n, count_where(&all, on_cpu1));
	assert_string_equal(cpus(&f, "2-3", &n), "");
	assert_int_equal(n, 0);
	assert_string_equal(cpus(&f, "3-1", &n),
			    "CPU list '3-1': range 3-1 runs backwards");
	assert_string_equal(cpus(&f, "a", &n),
			    "CPU list 'a': 'a' at character 1 is not a CPU number");
	assert_string_equal(cpus(&f, "1,,2", &n),
			    "CPU list '1,,2': a number is missing at character 3");
	assert_string_equal(cpus(&f, "1,", &n),
			    "CPU list '1,': a number is missing at character 3");
	assert_string_equal(cpus(&f, "", &n),
			    "CPU list '': a number is missing at character 1");
	assert_string_equal(cpus(&f, "0-", &n),
			    "CPU list '0-': a number is missing at character 3");
	assert_string_equal(cpus(&f, "1 2", &n),
			    "CPU list '1 2': ' ' at character 2: want N, N-M, or a list "
			    "of them (0-3,6)");
	assert_string_equal(cpus(&f, "8192", &n),
			    "CPU list '8192': CPU 8192 is beyond the largest, 8191");
	free(all.ev);
	drop_file(&f);
}

/* A refused list takes nothing: the file still shows every event. */
static void test_cpu_list_refused_takes_nothing(void **state)
{
	struct file f;
	struct ftg_trace_file *tf;
	struct seen s = { 0 };

	make_file(&f, "raw-pages-cpu");
	tf = open_file(&f);
	assert_int_equal(ftg_trace_file_add_cpus(tf, "1,3-1"), -1);
	assert_int_equal(ftg_trace_file_iterate(tf, collect, &s), 0);
	assert_int_equal(s.n, 775);
	free(s.ev);
	ftg_trace_file_close(tf);
	drop_file(&f);
}

/*
 * Kernel event filters are files of the instance: what is written where,
 * on a scratch tracefs (the kernel's refusal is for the VM test).
 */
static void test_kernel_filter_files(void **state)
{
	char *dir = tt_tmpdir(), *cmd, *text;
	struct ftg_instance *inst;
	size_t len;

	/* tracefs has a filter file for each system and event */
	assert_true(asprintf(&cmd, "cd %s && mkdir -p instances/ftguard/events/sched/sched_switch"
			     " && touch instances/ftguard/buffer_size_kb"
			     " instances/ftguard/events/sched/filter"
			     " instances/ftguard/events/sched/sched_switch/filter", dir) > 0);
	assert_int_equal(system(cmd), 0);
	free(cmd);
	inst = ftg_instance_open(test_root(NULL, NULL, NULL, dir));
	assert_non_null(inst);
	assert_int_equal(ftg_instance_event_filter(inst, "sched", "sched_switch",
						   "prev_pid == 0"), 0);
	assert_true(asprintf(&cmd, "%s/instances/ftguard/events/sched/sched_switch/filter",
			     dir) > 0);
	text = read_whole_file(cmd, &len);
	assert_string_equal(text, "prev_pid == 0");
	free(text);
	/* the restore clears what the handle set */
	assert_int_equal(ftg_instance_restore(inst), 0);
	text = read_whole_file(cmd, &len);
	assert_string_equal(text, "0");
	free(text);
	free(cmd);
	/* the system's own filter, for -e SYSTEM */
	assert_int_equal(ftg_instance_event_filter(inst, "sched", NULL, "common_pid != 1"), 0);
	assert_true(asprintf(&cmd, "%s/instances/ftguard/events/sched/filter", dir) > 0);
	text = read_whole_file(cmd, &len);
	assert_string_equal(text, "common_pid != 1");
	free(text);
	free(cmd);
	/* names cannot leave the events directory; an empty filter is no filter */
	assert_int_equal(ftg_instance_event_filter(inst, "..", "x", "a == 1"), -1);
	assert_int_equal(ftg_error_code(), FTG_E_BAD_ARGUMENT);
	assert_int_equal(ftg_instance_event_filter(inst, "sched", "a/b", "a == 1"), -1);
	assert_int_equal(ftg_instance_event_filter(inst, "sched", "sched_switch", " "), -1);
	assert_int_equal(errno, EINVAL);
	/* an event the instance does not have */
	assert_int_equal(ftg_instance_event_filter(inst, "irq", NULL, "a == 1"), -1);
	assert_int_equal(errno, ENOENT);
	assert_contains(ftg_error_last(), "irq: writing its filter");
	ftg_instance_free(inst);
	tt_rmdir(dir);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_field_filter),
		cmocka_unit_test(test_and_or_not),
		cmocka_unit_test(test_glob),
		cmocka_unit_test(test_exclude),
		cmocka_unit_test(test_filters_or),
		cmocka_unit_test(test_event_names),
		cmocka_unit_test(test_bad_filters),
		cmocka_unit_test(test_cpu_lists),
		cmocka_unit_test(test_cpu_list_refused_takes_nothing),
		cmocka_unit_test(test_kernel_filter_files),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
