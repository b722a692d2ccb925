// SPDX-License-Identifier: LGPL-2.1
/*
 * ftguard.ko's debugfs tables: status, sites, modules, check, and the
 * sites answer on the control file. Version
 * refusal, missing header, malformed lines (which fail the read, naming
 * table and line), and the "why is it missing" diagnosis.
 */
#include <errno.h>
#include <sys/stat.h>
#include <sys/wait.h>

#include "lib-test.h"
#include "../../kmod/ftg_uapi.h"

#define TEXT(s)	(s), strlen(s)

static void test_status_amd64(void **state)
{
	struct ftg_status st;

	assert_int_equal(ftg_status_read(fixture_root("amd64"), &st), 0);
	assert_true(st.loaded);
	assert_false(st.armed);
	assert_string_equal(st.owner, "none");
	assert_int_equal(st.owner_pid, 0);
	assert_false(st.killed);
	assert_string_equal(st.kill_reason, "");
	assert_true(st.sites == 11 && st.vmlinux_sites == 4 && st.module_sites == 7);
	assert_true(st.admitted == 4 && st.rejected == 1);
	assert_true(st.checked);
	assert_true(st.last_check_ms == 123456);
	assert_false(st.last_check_ok);
	assert_true(st.last_check_n_ok == 9 && st.last_check_n_bad == 2);
	assert_string_equal(st.last_error, "2 sites failed the check");
	assert_true(st.verify_period_ms == 1000 && st.max_arm == 256);
	assert_true(st.fault_injection);
	assert_true(st.modules_vaddr == 0xffffffffc0000000ULL);
	assert_true(st.modules_end == 0xffffffffff000000ULL);
	assert_true(st.vmalloc_start == 0xffffc90000000000ULL);
	assert_true(st.vmalloc_end == 0xffffe8ffffffffffULL);
	assert_true(st.verify_runs == 3 && st.verify_ns == 4500000);
	assert_true(st.verify_slice == 8192 && st.verify_cycle_ms == 0 &&
		    st.verify_cycles == 2);
}

static void test_status_i386(void **state)
{
	struct ftg_status st;

	assert_int_equal(ftg_status_read(fixture_root("i386"), &st), 0);
	assert_true(st.armed);
	assert_string_equal(st.owner, "4242 ftguard rec");
	assert_int_equal(st.owner_pid, 4242);
	assert_false(st.checked);
	assert_string_equal(st.last_error, "");
	assert_true(st.modules_vaddr == st.vmalloc_start);
	assert_true(st.modules_end == 0xfebfe000ULL);
}

/* Every key of status in the module's order, those struct ftg_status has
 * no field for too, escapes undone. */
static void test_status_keys(void **state)
{
	char *dir = tt_tmpdir(), *cmd;
	struct ftg_keys *k;

	k = ftg_status_keys_read(fixture_root("amd64"));
	assert_non_null(k);
	assert_int_equal(ftg_keys_count(k), 25);
	assert_string_equal(ftg_keys_name(k, 0), "loaded");
	assert_string_equal(ftg_keys_value(k, 0), "1");
	assert_string_equal(ftg_keys_get(k, "last_error"), "2 sites failed the check");
	assert_string_equal(ftg_keys_get(k, "last_check"), "123456 fail 9 2");
	assert_null(ftg_keys_get(k, "arm_mode"));
	assert_null(ftg_keys_name(k, 25));
	assert_null(ftg_keys_value(k, 25));
	ftg_keys_free(k);

	/* a key of a newer module; an escape that is not one stays raw */
	assert_true(asprintf(&cmd, "mkdir -p '%s/ftguard' && printf '%%s\\n' "
			     "'ftguard-status 1' 'loaded 1' 'graph_roots 0xffffffff81000000 0x10' "
			     "'kill_reason bad\\9' > '%s/ftguard/status'", dir, dir) > 0);
	assert_int_equal(system(cmd), 0);
	free(cmd);
	k = ftg_status_keys_read(test_root(NULL, NULL, dir, NULL));
	assert_non_null(k);
	assert_int_equal(ftg_keys_count(k), 3);
	assert_string_equal(ftg_keys_get(k, "graph_roots"), "0xffffffff81000000 0x10");
	assert_string_equal(ftg_keys_get(k, "kill_reason"), "bad\\9");
	ftg_keys_free(k);
	tt_rmdir(dir);

	/* no module: the same diagnosis as ftg_status_read() */
	dir = tt_tmpdir();
	assert_null(ftg_status_keys_read(test_root(NULL, NULL, dir, NULL)));
	assert_int_equal(ftg_error_code(), FTG_E_NO_MODULE);
	tt_rmdir(dir);
}

/* The instance's settings, each enabled event with its filter. */
static void test_instance_settings(void **state)
{
	char *dir = tt_tmpdir(), *cmd;
	const struct ftg_root *root = test_root(NULL, NULL, NULL, dir);
	struct ftg_keys *k;

	assert_null(ftg_instance_settings_read(root));
	assert_int_equal(ftg_error_code(), FTG_E_NO_MODULE);
	assert_true(asprintf(&cmd, "i='%s/instances/ftguard' && "
			     "mkdir -p \"$i/events/sched/sched_switch\" \"$i/events/irq/irq_handler_entry\" && "
			     "echo 1 > \"$i/tracing_on\" && echo '7 (expanded: 1408)' > \"$i/buffer_size_kb\" && "
			     "echo 2816 > \"$i/buffer_total_size_kb\" && echo nop > \"$i/current_tracer\" && "
			     "echo '[local] global counter' > \"$i/trace_clock\" && "
			     "printf 'sched:sched_switch\\nirq:irq_handler_entry\\n' > \"$i/set_event\" && "
			     "echo 'prev_pid == 0' > \"$i/events/sched/sched_switch/filter\" && "
			     "echo none > \"$i/events/irq/irq_handler_entry/filter\"",
			     dir) > 0);
	assert_int_equal(system(cmd), 0);
	free(cmd);
	k = ftg_instance_settings_read(root);
	assert_non_null(k);
	assert_string_equal(ftg_keys_get(k, "tracing_on"), "1");
	assert_string_equal(ftg_keys_get(k, "buffer_size_kb"), "7");
	assert_string_equal(ftg_keys_get(k, "buffer_total_size_kb"), "2816");
	assert_string_equal(ftg_keys_get(k, "current_tracer"), "nop");
	assert_string_equal(ftg_keys_get(k, "trace_clock"), "local");
	assert_string_equal(ftg_keys_get(k, "event:sched:sched_switch"), "prev_pid == 0");
	assert_string_equal(ftg_keys_get(k, "event:irq:irq_handler_entry"), "");
	assert_int_equal(ftg_keys_count(k), 7);
	ftg_keys_free(k);
	tt_rmdir(dir);
}

/* The text of instances/ftguard/@rel under @dir, trailing newline cut. */
static char *inst_text(const char *dir, const char *rel)
{
	char *path, *text;
	size_t len;

	assert_true(asprintf(&path, "%s/instances/ftguard/%s", dir, rel) > 0);
	text = read_whole_file(path, &len);
	free(path);
	assert_non_null(text);
	if (len && text[len - 1] == '\n')
		text[len - 1] = '\0';
	return text;
}

#define assert_inst_file(dir, rel, want) do {				\
	char *_t = inst_text(dir, rel);					\
	assert_string_equal(_t, want);					\
	free(_t);							\
} while (0)

/*
 * What a command changes in ftguard's instance, and what the restore
 * puts back, on a scratch tracefs: only what the handle changed.
 */
static void test_instance_changes(void **state)
{
	char *dir = tt_tmpdir(), *cmd, **off;
	const struct ftg_root *root = test_root(NULL, NULL, NULL, dir);
	int pids[] = { 12, 34 }, self = 56;
	struct ftg_instance *inst;
	uint64_t entries;

	assert_null(ftg_instance_open(root));
	assert_int_equal(ftg_error_code(), FTG_E_NO_MODULE);
	assert_int_equal(errno, ENODEV);
	assert_true(asprintf(&cmd, "mkdir -p '%s/instances/ftguard' && cd '%s/instances/ftguard' && "
			     "mkdir -p events/sched/sched_switch events/irq/irq_handler_entry "
			     "events/ftguard/func options per_cpu/cpu0 per_cpu/cpu1 && "
			     "echo '7 (expanded: 1408)' > buffer_size_kb && echo old > trace && "
			     ": > set_event_pid && echo 99 > set_event_notrace_pid && "
			     "echo 0 > options/record-tgid && echo 1 > options/event-fork && "
			     "printf 'entries: 5\\noverrun: 0\\n' > per_cpu/cpu0/stats && "
			     "printf 'entries: 7\\noverrun: 1\\n' > per_cpu/cpu1/stats && "
			     "for e in sched sched/sched_switch; do echo 0 > events/$e/enable; "
			     "echo none > events/$e/filter; done && "
			     "for e in irq irq/irq_handler_entry ftguard ftguard/func; do "
			     "echo 1 > events/$e/enable; echo none > events/$e/filter; done",
			     dir, dir) > 0);
	assert_int_equal(system(cmd), 0);
	free(cmd);
	inst = ftg_instance_open(root);
	assert_non_null(inst);

	assert_int_equal(ftg_instance_buffer_entries(inst, &entries), 0);
	assert_int_equal(entries, 12);
	assert_int_equal(ftg_instance_clear_buffer(inst), 0);
	assert_inst_file(dir, "trace", "");

	assert_int_equal(ftg_instance_set_buffer_kb(inst, 4096), 0);
	assert_inst_file(dir, "buffer_size_kb", "4096");
	assert_int_equal(ftg_instance_set_buffer_kb(inst, 0), -1);
	assert_int_equal(ftg_error_code(), FTG_E_BAD_ARGUMENT);

	assert_int_equal(ftg_instance_set_option(inst, "record-tgid", true), 0);
	assert_inst_file(dir, "options/record-tgid", "1");
	/* on before: no change, so the restore leaves it on */
	assert_int_equal(ftg_instance_set_option(inst, "event-fork", true), 0);
	/* off here: on again after the restore */
	assert_int_equal(ftg_instance_set_option(inst, "event-fork", false), 0);
	assert_inst_file(dir, "options/event-fork", "0");
	assert_int_equal(ftg_instance_set_option(inst, "overwrite", true), -1);
	assert_int_equal(ftg_error_code(), FTG_E_BAD_ARGUMENT);

	assert_int_equal(ftg_instance_set_pids(inst, pids, 2, 0), 0);
	assert_inst_file(dir, "set_event_pid", "12 34 ");
	/* someone else's notrace list is left alone */
	assert_int_equal(ftg_instance_set_pids(inst, &self, 1, FTG_INSTANCE_PIDS_NOTRACE), -1);
	assert_int_equal(errno, EBUSY);
	assert_inst_file(dir, "set_event_notrace_pid", "99");
	assert_int_equal(ftg_instance_set_pids(inst, pids, 0, 0), -1);
	assert_int_equal(errno, EINVAL);

	assert_int_equal(ftg_instance_event_filter(inst, "sched", "sched_switch",
						   "prev_pid == 0"), 0);
	assert_int_equal(ftg_instance_event_enable(inst, "sched", "sched_switch"), 0);
	assert_inst_file(dir, "events/sched/sched_switch/enable", "1");
	/* already on: stays on after the restore */
	assert_int_equal(ftg_instance_event_enable(inst, "irq", "irq_handler_entry"), 0);
	assert_int_equal(ftg_instance_event_enable(inst, "sched", "../x"), -1);
	assert_int_equal(ftg_error_code(), FTG_E_BAD_ARGUMENT);

	assert_int_equal(ftg_instance_restore(inst), 0);
	assert_inst_file(dir, "events/sched/sched_switch/enable", "0");
	assert_inst_file(dir, "events/sched/sched_switch/filter", "0");
	assert_inst_file(dir, "events/irq/irq_handler_entry/enable", "1");
	assert_inst_file(dir, "set_event_pid", "");
	assert_inst_file(dir, "set_event_notrace_pid", "99");
	assert_inst_file(dir, "options/record-tgid", "0");
	assert_inst_file(dir, "options/event-fork", "1");
	assert_inst_file(dir, "buffer_size_kb", "1408");
	/* nothing left to undo: a size set since by someone else stays */
	assert_true(asprintf(&cmd, "echo 2048 > '%s/instances/ftguard/buffer_size_kb'",
			     dir) > 0);
	assert_int_equal(system(cmd), 0);
	free(cmd);
	assert_int_equal(ftg_instance_restore(inst), 0);
	assert_inst_file(dir, "buffer_size_kb", "2048");

	/* what start left on goes off, ftguard's own events stay */
	assert_int_equal(ftg_instance_events_off(inst, &off), 0);
	assert_non_null(off);
	assert_string_equal(off[0], "irq");
	assert_null(off[1]);
	ftg_event_names_free(off);
	assert_null(ftg_event_names(root, "nosuchsystem"));
	assert_int_equal(ftg_error_code(), FTG_E_BAD_EVENT);
	/* the system's files: in tracefs they reach each of its events */
	assert_inst_file(dir, "events/irq/enable", "0");
	assert_inst_file(dir, "events/irq/filter", "0");
	assert_inst_file(dir, "events/ftguard/func/enable", "1");
	ftg_instance_free(inst);
	tt_rmdir(dir);
}

static void test_status_parse(void **state)
{
	static const char text[] =
		"ftguard-status 1\nloaded 1\nkilled 1\nkill_reason site\\0400x10\\040changed\n"
		"a_future_key whatever it says\nowner persistent\nlast_check 5 ok 3 0\n";
	struct ftg_status st;

	assert_int_equal(ftg_status_parse(text, sizeof(text) - 1, &st), 0);
	assert_true(st.killed);
	assert_string_equal(st.kill_reason, "site 0x10 changed");
	assert_string_equal(st.owner, "persistent");
	assert_true(st.checked && st.last_check_ok && st.last_check_n_ok == 3);

	/* Empty text: no header. */
	assert_int_equal(ftg_status_parse(TEXT(""), &st), -1);
	assert_int_equal(ftg_error_code(), FTG_E_NO_HEADER);
	assert_int_equal(ftg_status_parse(TEXT("ftguard-status 1\nlast_check 5 maybe 1 1\n"), &st), -1);
	assert_int_equal(ftg_error_code(), FTG_E_BAD_NUMBER);
	assert_int_equal(ftg_status_parse(TEXT("ftguard-status 1\nloaded\n"), &st), -1);
	assert_int_equal(ftg_error_code(), FTG_E_BAD_LINE);
	assert_contains(ftg_error_last(), "status:2");
	/* Keys without a field in struct ftg_status are read all the same:
	 * each value must have its key's form. */
	assert_int_equal(ftg_status_parse(TEXT("ftguard-status 1\narm_mode graph\n"
		"graph_hook fprobe\ngraph_roots 0xffffffff81000000 0x10\n"
		"alloc_sites 3\narm_stack 1\n"), &st), 0);
	assert_int_equal(ftg_status_parse(TEXT("ftguard-status 1\narm_mode tree\n"), &st), -1);
	assert_int_equal(ftg_status_parse(TEXT("ftguard-status 1\ngraph_hook uprobe\n"), &st), -1);
	assert_int_equal(ftg_status_parse(TEXT("ftguard-status 1\ngraph_roots 0x10  0x20\n"), &st), -1);
	assert_int_equal(ftg_status_parse(TEXT("ftguard-status 1\ngraph_roots 0x10 root\n"), &st), -1);
	assert_int_equal(ftg_status_parse(TEXT("ftguard-status 1\narm_stack 2\n"), &st), -1);
	assert_int_equal(ftg_status_parse(TEXT("ftguard-status 1\nowner nobody\n"), &st), -1);
	assert_int_equal(ftg_error_code(), FTG_E_BAD_NUMBER);
	/* A key this library does not know, even bare, is skipped. */
	assert_int_equal(ftg_status_parse(TEXT("ftguard-status 1\nfuture_flag\narmed 1\n"), &st), 0);
	assert_true(st.armed);
	/* The longest reason the module sends, every byte escaped to four:
	 * the whole of it is unescaped before it is cut to the field. */
	{
		char *long_text, *p;
		int i;

		long_text = malloc(64 + 4 * FTGUARD_REASON_MAX);
		assert_non_null(long_text);
		p = long_text + sprintf(long_text, "ftguard-status 1\nkill_reason ");
		for (i = 0; i < FTGUARD_REASON_MAX - 1; i++)
			p += sprintf(p, "\\040");
		strcpy(p, "\n");
		assert_int_equal(ftg_status_parse(long_text, strlen(long_text), &st), 0);
		assert_int_equal(strlen(st.kill_reason), FTGUARD_REASON_MAX - 1);
		assert_int_equal(strspn(st.kill_reason, " "), FTGUARD_REASON_MAX - 1);
		free(long_text);
	}
}

static void test_sites(void **state)
{
	struct ftg_sites *s = ftg_sites_read(fixture_root("amd64"));
	const struct ftg_site *site;

	assert_non_null(s);
	assert_int_equal(ftg_sites_count(s), 11);
	site = ftg_sites_find(s, 0xffffffffc0b05000ULL);
	assert_non_null(site);
	assert_int_equal(site->state, FTG_SITE_PLANTED);
	assert_int_equal(site->section, FTG_SECTION_INIT);
	assert_string_equal(site->owner, "target");
	assert_string_equal(site->name, "target init");
	site = ftg_sites_find(s, 0xffffffffc0b00000ULL);
	assert_true(site->hits == 5 && site->reads == 1);
	assert_null(ftg_sites_find(s, 0x1234));
	/* Address order. */
	assert_true(ftg_sites_get(s, 0)->addr < ftg_sites_get(s, 1)->addr);
	ftg_sites_free(s);

	assert_string_equal(ftg_site_state_name(FTG_SITE_FOREIGN), "foreign");
	assert_string_equal(ftg_site_state_name((enum ftg_site_state)99), "?");
	assert_int_equal(ftg_site_state_parse("mismatch"), FTG_SITE_MISMATCH);
	assert_int_equal(ftg_site_state_parse("bogus"), -1);
}

/* Version 2: the record's offset and the prologue's bytes, prefix first. */
static void test_sites_v2(void **state)
{
	static const char text[] =
		"ftguard-sites 2\n"
		"0xffffffff81390124 ok core vmlinux 0 1 vfs_read 4 "
		"660f1f00:0f1f440000 660f1f00:0f1f440000\n"
		"0xffffffffc0002000 unchecked core target 0 0 fn_a 0 0f1f440000 -\n"
		"0xffffffffc0003004 mismatch core target 0 1 fn_b 4 "
		"f30f1efa:0f1f440000 cccccccc:0f1f440000\n";
	struct ftg_sites *s = ftg_sites_parse(TEXT(text));
	const struct ftg_site *site;

	assert_non_null(s);
	assert_int_equal(ftg_sites_count(s), 3);
	site = ftg_sites_find(s, 0xffffffff81390124ULL);
	assert_int_equal(site->offset, 4);
	assert_string_equal(site->expected, "660f1f00:0f1f440000");
	assert_string_equal(site->name, "vfs_read");
	site = ftg_sites_find(s, 0xffffffffc0002000ULL);
	assert_int_equal(site->offset, 0);
	assert_string_equal(site->actual, "-");
	site = ftg_sites_find(s, 0xffffffffc0003004ULL);
	assert_string_equal(site->actual, "cccccccc:0f1f440000");
	ftg_sites_free(s);

	/* Version 1 tables (older module, older snapshots) still read. */
	s = ftg_sites_parse(TEXT("ftguard-sites 1\n0x10 ok core vmlinux 0 1 f\n"));
	assert_non_null(s);
	assert_string_equal(ftg_sites_get(s, 0)->expected, "-");
	ftg_sites_free(s);

	/* A v1 line under a v2 header, bad bytes, a double colon: refused. */
	assert_null(ftg_sites_parse(TEXT("ftguard-sites 2\n0x10 ok core vmlinux 0 1 f\n")));
	assert_contains(ftg_error_last(), "expected 10 fields");
	assert_null(ftg_sites_parse(TEXT("ftguard-sites 2\n0x10 ok core vmlinux 0 1 f 0 0f1g 0f\n")));
	assert_contains(ftg_error_last(), "malformed bytes");
	assert_null(ftg_sites_parse(TEXT("ftguard-sites 2\n0x10 ok core vmlinux 0 1 f 4 aa:bb:cc -\n")));
	assert_null(ftg_sites_parse(TEXT("ftguard-sites 2\n0x10 ok core vmlinux 0 1 f 4 :bb -\n")));
}

static void test_kmodules(void **state)
{
	struct ftg_kmodules *km = ftg_kmodules_read(fixture_root("amd64"));
	const struct ftg_kmodule *m;

	assert_non_null(km);
	assert_int_equal(ftg_kmodules_count(km), 4);
	m = ftg_kmodules_find(km, "target");
	assert_int_equal(m->state, FTG_KMODULE_LIVE);
	assert_true(m->core_base == 0xffffffffc0b00000ULL && m->core_text_size == 4096);
	assert_true(m->init_base == 0xffffffffc0b05000ULL && m->init_text_size == 4096);
	assert_int_equal(m->init, FTG_INIT_DROPPED);
	assert_true(m->dropped_ms == 120034 && m->nsites == 3);
	m = ftg_kmodules_find(km, "oldmod");
	assert_int_equal(m->state, FTG_KMODULE_GONE);
	assert_int_equal(ftg_kmodules_find(km, "ftguard")->init, FTG_INIT_NONE);
	assert_string_equal(ftg_kmodule_state_name(FTG_KMODULE_GONE), "gone");
	ftg_kmodules_free(km);

	/* The doc's "init:live" spelling and hex sizes read too; a live
	 * entry wins over a tombstone of the same name. */
	static const char text[] = "ftguard-modules 1\n"
		"m gone 0x1000 0x100 0x0 0 init:none 7 0\n"
		"m live 0x2000 512 0x3000 0x20 init:live 0 2\n";
	km = ftg_kmodules_parse(text, sizeof(text) - 1);
	assert_non_null(km);
	m = ftg_kmodules_find(km, "m");
	assert_int_equal(m->state, FTG_KMODULE_LIVE);
	assert_int_equal(m->init, FTG_INIT_LIVE);
	assert_true(m->init_text_size == 0x20 && m->core_text_size == 512);
	assert_true(ftg_kmodules_get(km, 0)->core_text_size == 0x100);
	ftg_kmodules_free(km);
}

static void test_check_report(void **state)
{
	struct ftg_check_report *rep = ftg_check_report_read(fixture_root("amd64"));
	const struct ftg_check_line *cl;

	assert_non_null(rep);
	assert_true(ftg_check_report_checked(rep));
	assert_false(ftg_check_report_ok(rep));
	assert_true(ftg_check_report_n_ok(rep) == 9 && ftg_check_report_n_bad(rep) == 2);
	assert_true(ftg_check_report_ms(rep) == 3);
	assert_int_equal(ftg_check_report_count(rep), 5);
	cl = ftg_check_report_get(rep, 4);
	assert_int_equal(cl->verdict, FTG_VERDICT_STALE);
	assert_string_equal(cl->name, "target init");
	assert_string_equal(cl->expected, "0f1f440000");
	assert_string_equal(cl->actual, "-");
	assert_null(ftg_check_report_get(rep, 5));
	assert_string_equal(ftg_verdict_kind_name(FTG_VERDICT_MISMATCH), "mismatch");
	ftg_check_report_free(rep);

	rep = ftg_check_report_parse(TEXT("ftguard-check 1\nresult never\n"));
	assert_non_null(rep);
	assert_false(ftg_check_report_checked(rep));
	assert_false(ftg_check_report_ok(rep));
	assert_int_equal(ftg_check_report_count(rep), 0);
	ftg_check_report_free(rep);

	/* Truncated: no result line. */
	assert_null(ftg_check_report_parse(TEXT("ftguard-check 1\n")));
	assert_int_equal(ftg_error_code(), FTG_E_BAD_LINE);
	assert_null(ftg_check_report_parse(TEXT("ftguard-check 1\nresult ok 1 0 0\n0x10 ok vmlinux zz - f\n")));
	assert_contains(ftg_error_last(), "check:3: malformed bytes");
}

/* The frame every table shares: blank lines skipped, an overlong line
 * refused naming the table, escaped names in any table decoded. */
static void test_table_frame(void **state)
{
	static const char *const tables[] = { "status", "sites", "modules", "check" };
	struct ftg_check_report *rep;
	struct ftg_kmodules *km;
	struct ftg_status st;
	char *text, *p;
	size_t i, n;

	for (i = 0; i < sizeof(tables) / sizeof(tables[0]); i++) {
		n = (size_t)asprintf(&text, "ftguard-%s 1\n%s\n%*s\n", tables[i],
				     strcmp(tables[i], "check") ? "" : "result ok 1 0 0",
				     8000, "x");
		assert_true(n > 8000);
		for (p = text + n - 8001; *p == ' '; p++)
			*p = 'x';
		switch (i) {
		case 0: assert_int_equal(ftg_status_parse(text, n, &st), -1); break;
		case 1: assert_null(ftg_sites_parse(text, n)); break;
		case 2: assert_null(ftg_kmodules_parse(text, n)); break;
		default: assert_null(ftg_check_report_parse(text, n)); break;
		}
		assert_int_equal(ftg_error_code(), FTG_E_LINE_TOO_LONG);
		assert_contains(ftg_error_last(), tables[i]);
		free(text);
	}

	km = ftg_kmodules_parse(TEXT("ftguard-modules 1\n\n"
		"ftg\\033]0;x\\007 live 0xffffffffc0000000 4096 0x0 0 none 0 2\n\n"));
	assert_non_null(km);
	assert_int_equal(ftg_kmodules_count(km), 1);
	assert_string_equal(ftg_kmodules_get(km, 0)->name, "ftg\033]0;x\007");
	ftg_kmodules_free(km);

	rep = ftg_check_report_parse(TEXT("ftguard-check 1\n\nresult fail 0 1 2\n"
		"0xffffffffc0002040 mismatch ftg_names 0f1f440000 e8000000 "
		"ftg_names_nl\\012injected\\0400x1\\040ok\n"));
	assert_non_null(rep);
	assert_int_equal(ftg_check_report_count(rep), 1);
	assert_string_equal(ftg_check_report_get(rep, 0)->name, "ftg_names_nl\ninjected 0x1 ok");
	ftg_check_report_free(rep);
}

static void test_version_refused(void **state)
{
	const struct ftg_root *v2 = test_root(NULL, NULL, FIXTURE("malformed", "debug-v2"), NULL);
	const struct ftg_root *noheader = test_root(NULL, NULL, FIXTURE("malformed", "debug-noheader"),
						    NULL);
	struct ftg_status st;

	assert_int_equal(ftg_status_read(v2, &st), -1);
	assert_int_equal(errno, EPROTO);
	assert_int_equal(ftg_error_code(), FTG_E_BAD_VERSION);
	assert_contains(ftg_error_last(), "format version 2 is not supported");
	assert_null(ftg_sites_read(v2));
	assert_int_equal(ftg_error_code(), FTG_E_BAD_VERSION);
	assert_contains(ftg_error_last(), "format version 3 is not supported");
	assert_null(ftg_kmodules_read(v2));
	assert_int_equal(ftg_error_code(), FTG_E_BAD_VERSION);
	assert_null(ftg_check_report_read(v2));
	assert_int_equal(ftg_error_code(), FTG_E_BAD_VERSION);

	assert_int_equal(ftg_status_read(noheader, &st), -1);
	assert_int_equal(ftg_error_code(), FTG_E_NO_HEADER);
	assert_null(ftg_sites_read(noheader));
	assert_int_equal(ftg_error_code(), FTG_E_NO_HEADER);
}

static void test_malformed_tables(void **state)
{
	struct ftg_status st;

	assert_int_equal(ftg_status_read(fixture_root("malformed"), &st), -1);
	assert_contains(ftg_error_last(), "status:3: bad value for armed");
	assert_null(ftg_sites_read(fixture_root("malformed")));
	assert_contains(ftg_error_last(), "sites:3: unknown state");
	assert_null(ftg_kmodules_read(fixture_root("malformed")));
	assert_contains(ftg_error_last(), "modules:2: expected 9 fields");
	assert_null(ftg_check_report_read(fixture_root("malformed")));
	assert_int_equal(ftg_error_code(), FTG_E_BAD_ESCAPE);
	assert_contains(ftg_error_last(), "check:3");
}

static void test_module_missing(void **state)
{
	/* A debugfs directory without ftguard/: the module is not loaded. */
	const struct ftg_root *empty = test_root(NULL, NULL, FIXTURE("amd64", "proc"), NULL);
	struct ftg_status st;
	struct ftg_control *ctl;

	assert_int_equal(ftg_status_read(empty, &st), -1);
	assert_int_equal(errno, ENODEV);
	assert_int_equal(ftg_error_code(), FTG_E_NO_MODULE);
	assert_contains(ftg_error_last(), "insmod ftguard.ko");

	ctl = ftg_control_open(empty);
	assert_null(ctl);
	assert_int_equal(ftg_error_code(), FTG_E_NO_MODULE);

	/* ftguard/ exists but has no control (a snapshot): not the
	 * module missing, a file missing. */
	ctl = ftg_control_open(fixture_root("amd64"));
	assert_null(ctl);
	assert_int_equal(errno, ENOENT);
	assert_contains(ftg_error_last(), "control");
}

/*
 * The modules' sites through the control file. A regular file stands in:
 * the command is written at its start and the answer is read from where
 * the write left the position, so the file is the command's length of
 * padding followed by the answer. Bad owner lists are refused before
 * anything is written.
 */
static void test_control_sites(void **state)
{
	static const char cmd[] = "sites target e1000e\n";
	static const char answer[] =
		"ftguard-sites 2\n"
		"0xffffffffc0a00004 ok core e1000e 0 0 e1000_probe 4 f30f1efa:0f1f440000 -\n"
		"0xffffffffc0b00004 ok core target 0 0 fn_a 4 f30f1efa:0f1f440000 -\n";
	const char *owners[FTGUARD_ARGS_MAX + 1], *bad[] = { "target", "a b" };
	const char *empty[] = { "" }, *long_name[] = { NULL };
	char *dir = tt_tmpdir(), *sub = tt_path(dir, "ftguard");
	char *control = tt_path(sub, "control"), name[300];
	struct ftg_control *ctl;
	struct ftg_sites *sites;
	size_t i;
	FILE *fp;

	assert_int_equal(mkdir(sub, 0700), 0);
	fp = fopen(control, "w");
	assert_non_null(fp);
	fprintf(fp, "%*s%s", (int)strlen(cmd), "", answer);
	fclose(fp);
	ctl = ftg_control_open(test_root(NULL, NULL, dir, NULL));
	assert_non_null(ctl);
	owners[0] = "target";
	owners[1] = "e1000e";
	sites = ftg_control_sites(ctl, owners, 2);
	assert_non_null(sites);
	assert_int_equal(ftg_sites_count(sites), 2);
	assert_string_equal(ftg_sites_get(sites, 1)->name, "fn_a");
	assert_int_equal(ftg_sites_get(sites, 1)->offset, 4);
	ftg_sites_free(sites);

	for (i = 0; i <= FTGUARD_ARGS_MAX; i++)
		owners[i] = "m";
	memset(name, 'm', sizeof(name) - 1);
	name[sizeof(name) - 1] = '\0';
	long_name[0] = name;
	assert_null(ftg_control_sites(ctl, owners, 0));
	assert_int_equal(errno, EINVAL);
	assert_null(ftg_control_sites(ctl, owners, FTGUARD_ARGS_MAX + 1));
	assert_int_equal(errno, EINVAL);
	assert_null(ftg_control_sites(ctl, bad, 2));
	assert_int_equal(errno, EINVAL);
	assert_int_equal(ftg_error_code(), FTG_E_BAD_ARGUMENT);
	assert_contains(ftg_error_last(), "bad owner name \"a b\"");
	assert_null(ftg_control_sites(ctl, empty, 1));
	assert_int_equal(errno, EINVAL);
	assert_null(ftg_control_sites(ctl, long_name, 1));
	assert_int_equal(errno, E2BIG);
	assert_int_equal(ftg_error_code(), FTG_E_LINE_TOO_LONG);
	assert_int_equal(ftg_control_send(ctl, name), -1);
	assert_int_equal(ftg_error_code(), FTG_E_LINE_TOO_LONG);
	assert_int_equal(ftg_control_admit_one(ctl, name, 0x1000), -1);
	assert_int_equal(ftg_error_code(), FTG_E_LINE_TOO_LONG);
	ftg_control_close(ctl);
	/* None of the refused calls wrote a command over the answer. */
	fp = fopen(control, "r");
	assert_non_null(fp);
	assert_non_null(fgets(name, sizeof(name), fp));
	fclose(fp);
	assert_string_equal(name, cmd);
	free(control);
	free(sub);
	tt_rmdir(dir);
}

/* Reads a table that exists but may not be read: as root, from a child
 * that dropped to nobody; otherwise through a mode-000 file of our own. */
static void test_not_root(void **state)
{
	char dir[] = "/tmp/ftg-perm-XXXXXX", path[128];
	struct ftg_status st;
	FILE *f;
	int status;
	pid_t pid;

	assert_non_null(mkdtemp(dir));
	assert_int_equal(chmod(dir, 0755), 0);
	snprintf(path, sizeof(path), "%s/ftguard", dir);
	assert_int_equal(mkdir(path, 0755), 0);
	snprintf(path, sizeof(path), "%s/ftguard/status", dir);
	f = fopen(path, "w");
	assert_non_null(f);
	fputs("ftguard-status 1\n", f);
	fclose(f);
	assert_int_equal(chmod(path, geteuid() ? 0 : 0400), 0);

	pid = fork();
	assert_true(pid >= 0);
	if (!pid) {
		if (!geteuid() && setuid(65534))
			_exit(3);
		if (ftg_status_read(test_root(NULL, NULL, dir, NULL), &st) != -1)
			_exit(4);
		if (ftg_error_code() != FTG_E_NOT_ROOT || errno != EACCES)
			_exit(5);
		_exit(strstr(ftg_error_last(), "run as root") ? 0 : 6);
	}
	assert_int_equal(waitpid(pid, &status, 0), pid);
	assert_true(WIFEXITED(status));
	assert_int_equal(WEXITSTATUS(status), 0);
	unlink(path);
	snprintf(path, sizeof(path), "%s/ftguard", dir);
	rmdir(path);
	rmdir(dir);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_status_amd64),
		cmocka_unit_test(test_status_i386),
		cmocka_unit_test(test_status_parse),
		cmocka_unit_test(test_status_keys),
		cmocka_unit_test(test_instance_settings),
		cmocka_unit_test(test_instance_changes),
		cmocka_unit_test(test_sites),
		cmocka_unit_test(test_sites_v2),
		cmocka_unit_test(test_kmodules),
		cmocka_unit_test(test_check_report),
		cmocka_unit_test(test_table_frame),
		cmocka_unit_test(test_version_refused),
		cmocka_unit_test(test_malformed_tables),
		cmocka_unit_test(test_module_missing),
		cmocka_unit_test(test_control_sites),
		cmocka_unit_test(test_not_root),
	};

	return cmocka_run_group_tests_name("kmod-tables", tests, NULL, NULL);
}
