// SPDX-License-Identifier: LGPL-2.1
/*
 * Kernel stacks (record -T): an ftguard:stack event decodes into its
 * callers and prints as trace-cmd's "=>" lines, live and from a trace.dat,
 * and trace-cmd report itself prints the file's stacks (the writer
 * describes ftguard:stack as ftrace:kernel_stack).
 *
 * The formats are the fixture tracefs plus ftguard:stack's format as
 * ftguard.ko's TRACE_EVENT makes it; the page is built here: a func event
 * of vfs_read, then its stack.
 */
#include "lib-test.h"

#include <errno.h>

#define FUNC_ID		1343	/* the fixture's ftguard:func */
#define STACK_ID	1351	/* unused by the fixture */

#define VFS_READ	0xffffffffafd669e0ULL
#define KSYS_READ_6B	0xffffffffafd675bbULL	/* ksys_read+0x6b */
#define SYS_READ_19	0xffffffffafd67659ULL	/* __x64_sys_read+0x19 */
#define FN_B_10		0xffffffffc0427030ULL	/* fn_b+0x10 [ftg_target] */

static const char stack_format[] =
	"name: stack\n"
	"ID: 1351\n"
	"format:\n"
	"\tfield:unsigned short common_type;\toffset:0;\tsize:2;\tsigned:0;\n"
	"\tfield:unsigned char common_flags;\toffset:2;\tsize:1;\tsigned:0;\n"
	"\tfield:unsigned char common_preempt_count;\toffset:3;\tsize:1;\tsigned:0;\n"
	"\tfield:int common_pid;\toffset:4;\tsize:4;\tsigned:1;\n"
	"\n"
	"\tfield:int size;\toffset:8;\tsize:4;\tsigned:1;\n"
	"\tfield:__data_loc unsigned long[] caller;\toffset:12;\tsize:4;\tsigned:0;\n"
	"\n"
	"print fmt: \"size=%d caller=%s\", REC->size, __print_array(__get_dynamic_array(caller), REC->size, sizeof(unsigned long))\n";

struct page {
	unsigned char data[4096];
	size_t used;			/* bytes after the 16-byte header */
};

static void put_event(struct page *p, uint32_t delta, const void *payload,
		      size_t size)
{
	uint32_t header = (uint32_t)(size / 4) | delta << 5;

	assert_true(size % 4 == 0 && size <= 112);
	memcpy(p->data + 16 + p->used, &header, 4);
	memcpy(p->data + 20 + p->used, payload, size);
	p->used += 4 + size;
	memcpy(p->data + 8, &(uint64_t){ p->used }, 8);
}

static void put_common(unsigned char *rec, uint16_t type, int32_t pid)
{
	memcpy(rec, &type, 2);
	rec[2] = 0;
	rec[3] = 1;
	memcpy(rec + 4, &pid, 4);
}

/* A func event of vfs_read from ksys_read, then its stack of @n callers. */
static void build_page(struct page *p, const uint64_t *callers, int n,
		       int size_field)
{
	unsigned char func[24], stack[16 + 8 * 8];
	uint64_t ip = VFS_READ, parent = KSYS_READ_6B;
	uint32_t loc = (uint32_t)(n * 8) << 16 | 16;

	assert_true(n <= 8);
	memset(p, 0, sizeof(*p));
	memcpy(p->data, &(uint64_t){ 4000000000ULL }, 8);	/* page time */
	put_common(func, FUNC_ID, 127);
	memcpy(func + 8, &ip, 8);
	memcpy(func + 16, &parent, 8);
	put_event(p, 0, func, sizeof(func));
	put_common(stack, STACK_ID, 127);
	memcpy(stack + 8, &size_field, 4);
	memcpy(stack + 12, &loc, 4);
	memcpy(stack + 16, callers, n * 8);
	put_event(p, 1000, stack, 16 + n * 8);
}

/* The fixture tracefs with ftguard:stack's format added. */
static char *stack_tracefs(void)
{
	char *dir = tt_tmpdir(), *cmd, *path;
	FILE *fp;

	assert_true(asprintf(&cmd, "cp -r '%s/tracefs/.' '%s/' && mkdir -p '%s/events/ftguard/stack'",
			     TRACE_FIXTURES, dir, dir) > 0);
	assert_int_equal(system(cmd), 0);
	free(cmd);
	path = tt_path(dir, "events/ftguard/stack/format");
	fp = fopen(path, "w");
	assert_non_null(fp);
	fputs(stack_format, fp);
	fclose(fp);
	free(path);
	return dir;
}

struct seen {
	struct ftg_event ev[4];
	int n;
};

static int keep(const struct ftg_event *ev, void *data)
{
	struct seen *s = data;

	if (s->n < 4)
		s->ev[s->n] = *ev;
	s->n++;
	return 0;
}

static const uint64_t callers[] = { KSYS_READ_6B, SYS_READ_19, FN_B_10 };
static const char want_lines[] =
	"=> ksys_read+0x6b\n=> __x64_sys_read+0x19\n=> fn_b+0x10 [ftg_target]\n";

static void assert_stack(const struct ftg_event *ev, const char *system,
			 const char *name)
{
	char buf[512];

	assert_true(ftg_event_is_stack(ev));
	assert_string_equal(ev->system, system);
	assert_string_equal(ev->name, name);
	assert_int_equal(ev->pid, 127);
	assert_int_equal(ev->nr_stack, 3);
	assert_true(ev->stack[0] == KSYS_READ_6B && ev->stack[2] == FN_B_10);
	assert_string_equal(ev->info, "<stack trace >");
	assert_int_equal(ftg_stack_snprint(buf, sizeof(buf), ev),
			 (int)strlen(want_lines));
	assert_string_equal(buf, want_lines);
	/* a short buffer gets what fits; the length says what was needed */
	assert_int_equal(ftg_stack_snprint(buf, 10, ev), (int)strlen(want_lines));
	assert_string_equal(buf, "=> ksys_r");
}

/* Live: the ring buffer's ftguard:stack, its callers in a dynamic array. */
static void test_stack_live_decode(void **state)
{
	struct ftg_trace_formats *fmt;
	struct seen s = { 0 };
	struct page p;
	char *dir = stack_tracefs();
	char buf[64];

	(void)state;
	fmt = ftg_trace_formats_read(dir, NULL, TRACE_FIXTURES "/proc");
	assert_non_null(fmt);
	build_page(&p, callers, 3, 3);
	assert_int_equal(ftg_page_decode(fmt, 0, p.data, sizeof(p.data), keep, &s), 2);
	assert_string_equal(s.ev[0].name, "func");
	assert_false(ftg_event_is_stack(&s.ev[0]));
	assert_int_equal(s.ev[0].nr_stack, 0);
	errno = 0;
	assert_int_equal(ftg_stack_snprint(buf, sizeof(buf), &s.ev[0]), -1);
	assert_int_equal(errno, EINVAL);
	assert_stack(&s.ev[1], "ftguard", "stack");

	/* "size" bounds the callers read, and a -1 ends them, as for trace-cmd */
	s.n = 0;
	build_page(&p, callers, 3, 2);
	assert_int_equal(ftg_page_decode(fmt, 0, p.data, sizeof(p.data), keep, &s), 2);
	assert_int_equal(s.ev[1].nr_stack, 2);
	s.n = 0;
	build_page(&p, (const uint64_t[]){ KSYS_READ_6B, UINT64_MAX, FN_B_10 }, 3, 3);
	assert_int_equal(ftg_page_decode(fmt, 0, p.data, sizeof(p.data), keep, &s), 2);
	assert_int_equal(s.ev[1].nr_stack, 1);
	assert_int_equal(ftg_stack_snprint(buf, sizeof(buf), &s.ev[1]), 18);
	assert_string_equal(buf, "=> ksys_read+0x6b\n");
	ftg_trace_formats_free(fmt);
	tt_rmdir(dir);
}

/*
 * A kallsyms line the symbol index refuses (a name with a blank, here
 * inside fn_b) is dropped for libtraceevent and the module index too:
 * fn_b+0x10 is still named from fn_b, not from a symbol "fn" that
 * ftg_kallsyms_read() never listed.
 */
static void test_stack_kallsyms_one_reading(void **state)
{
	struct ftg_trace_formats *fmt;
	struct ftg_kallsyms *ks;
	const struct ftg_ksym *sym = NULL;
	struct seen s = { 0 };
	struct page p;
	char *dir = stack_tracefs(), *proc = tt_tmpdir(), *cmd;

	(void)state;
	assert_true(asprintf(&cmd, "cp '%s/proc/kallsyms' '%s/' && printf "
			     "'ffffffffc0427028 t fn b\\t[ftg_target]\\n' >> '%s/kallsyms'",
			     TRACE_FIXTURES, proc, proc) > 0);
	assert_int_equal(system(cmd), 0);
	free(cmd);
	ks = ftg_kallsyms_read(test_root(proc, NULL, NULL, NULL));
	assert_non_null(ks);
	assert_int_equal(ftg_kallsyms_find(ks, "fn", NULL, &sym, 1), 0);
	assert_int_equal(ftg_kallsyms_find(ks, "fn b", NULL, &sym, 1), 0);
	ftg_kallsyms_free(ks);
	fmt = ftg_trace_formats_read(dir, NULL, proc);
	assert_non_null(fmt);
	build_page(&p, callers, 3, 3);
	assert_int_equal(ftg_page_decode(fmt, 0, p.data, sizeof(p.data), keep, &s), 2);
	assert_stack(&s.ev[1], "ftguard", "stack");
	ftg_trace_formats_free(fmt);
	tt_rmdir(proc);
	tt_rmdir(dir);
}

/* The text of an export in @format of @ev, then a func event after it. */
static char *export_text(const struct ftg_event *ev, enum ftg_export_format format)
{
	struct ftg_exporter *ex;
	struct ftg_event func = *ev;
	char *text = NULL;
	size_t len = 0;
	FILE *fp = open_memstream(&text, &len);

	assert_non_null(fp);
	strcpy(func.name, "func");
	strcpy(func.system, "ftguard");
	ex = ftg_exporter_open(fp, format);
	assert_non_null(ex);
	assert_int_equal(ftg_exporter_add(ex, ev), 0);
	assert_int_equal(ftg_exporter_add(ex, &func), 0);
	assert_int_equal(ftg_exporter_close(ex), 0);
	fclose(fp);
	return text;
}

/* The JSON export carries the callers' names; other events get no key. */
static void assert_json_stack(const struct ftg_event *ev)
{
	char *text = export_text(ev, FTG_EXPORT_JSON);

	assert_contains(text, ",\"stack\":[\"ksys_read+0x6b\",\"__x64_sys_read+0x19\","
			"\"fn_b+0x10 [ftg_target]\"]}");
	/* the func event after it has no "stack" key */
	assert_null(strstr(strstr(text, "\"event\":\"func\""), "\"stack\":"));
	free(text);
}

/*
 * The CSV export: the callers in the last column, joined by ';' in one
 * field; the func event's is empty.
 */
static void assert_csv_stack(const struct ftg_event *ev)
{
	char *text = export_text(ev, FTG_EXPORT_CSV);

	assert_contains(text, ",info,tgid,stack\r\n");
	assert_contains(text, ",<stack trace >,,ksys_read+0x6b;__x64_sys_read+0x19;"
			"fn_b+0x10 [ftg_target]\r\n");
	assert_contains(strstr(text, ",func,"), ",,\r\n");
	free(text);
}

/*
 * A trace.dat: the file names the event ftrace:kernel_stack; ftguard's
 * reader gives the same callers and trace-cmd report prints them under
 * the entry as "=> name (address)".
 */
static void test_stack_file(void **state)
{
	struct ftg_trace_formats *fmt;
	struct ftg_trace_writer *w;
	struct ftg_trace_file *tf;
	struct seen s = { 0 };
	struct page p;
	char *dir = stack_tracefs(), *file = tt_path(dir, "s.dat");
	char err[256], **lines;
	size_t i, n;

	(void)state;
	fmt = ftg_trace_formats_read(dir, NULL, TRACE_FIXTURES "/proc");
	assert_non_null(fmt);
	build_page(&p, callers, 3, 3);
	w = ftg_trace_writer_create(file, fmt, 1);
	assert_non_null(w);
	assert_int_equal(ftg_trace_writer_add_page(w, 0, p.data, sizeof(p.data)), 0);
	assert_int_equal(ftg_trace_writer_close(w), 0);

	tf = tt_open(file, err, sizeof(err));
	if (!tf)
		fail_msg("open: %s", err);
	assert_false(ftg_trace_file_has_event(tf, "ftguard:stack"));
	assert_true(ftg_trace_file_has_event(tf, "ftrace:kernel_stack"));
	assert_int_equal(ftg_trace_file_iterate(tf, keep, &s), 0);
	assert_int_equal(s.n, 2);
	assert_string_equal(s.ev[0].name, "func");
	assert_stack(&s.ev[1], "ftrace", "kernel_stack");
	ftg_trace_file_close(tf);
	assert_json_stack(&s.ev[1]);
	assert_csv_stack(&s.ev[1]);

	lines = tt_report(file, "", &n);
	for (i = 0; i < n && !strstr(lines[i], "kernel_stack:"); i++)
		;
	if (i + 3 >= n)
		fail_msg("trace-cmd report shows no stack of 3 callers");
	assert_true(strstr(lines[i - 1], "func:") && strstr(lines[i - 1], "vfs_read"));
	assert_non_null(strstr(lines[i], "<stack trace >"));
	assert_string_equal(lines[i + 1], "=> ksys_read (ffffffffafd675bb)");
	assert_string_equal(lines[i + 2], "=> __x64_sys_read (ffffffffafd67659)");
	assert_string_equal(lines[i + 3], "=> fn_b (ffffffffc0427030)");
	assert_int_equal(tt_count(lines, "=> "), 3);
	tt_lines_free(lines);

	/* KernelShark's library: the same "=>" lines, in the stack's row */
	lines = tt_kshark(file, &n);
	for (i = 0; i < n && !strstr(lines[i], "ftrace/kernel_stack: <stack trace >"); i++)
		;
	if (i + 3 >= n)
		fail_msg("KernelShark shows no kernel_stack of 3 callers");
	assert_non_null(strstr(lines[i - 1], "ftguard/func: ip=vfs_read"));
	assert_string_equal(lines[i + 1], "=> ksys_read (ffffffffafd675bb)");
	assert_string_equal(lines[i + 3], "=> fn_b (ffffffffc0427030)");
	tt_lines_free(lines);
	ftg_trace_formats_free(fmt);
	free(file);
	tt_rmdir(dir);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_stack_live_decode),
		cmocka_unit_test(test_stack_kallsyms_one_reading),
		cmocka_unit_test(test_stack_file),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
