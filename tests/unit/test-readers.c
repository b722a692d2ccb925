// SPDX-License-Identifier: LGPL-2.1
/*
 * Readers of the kernel's own files: kallsyms, /proc/modules,
 * vmallocinfo, module sections, the ftrace function lists, and the
 * name unescaping. amd64 and i386 fixtures, plus malformed input that
 * must be skipped and counted, never crash.
 */
#include <errno.h>

#include "lib-test.h"

static void test_kallsyms_amd64(void **state)
{
	struct ftg_kallsyms *ks = ftg_kallsyms_read(fixture_root("amd64"));
	const struct ftg_ksym *found[4], *s;
	uint64_t start, end, off;

	assert_non_null(ks);
	assert_int_equal(ftg_kallsyms_count(ks), 21);
	assert_int_equal(ftg_kallsyms_skipped(ks), 0);

	s = ftg_kallsyms_get(ks, 13);
	assert_string_equal(s->name, "e1000_probe");
	assert_string_equal(s->module, "e1000e");
	assert_int_equal(s->type, 't');
	assert_true(s->addr == 0xffffffffc0a00000ULL);
	assert_null(ftg_kallsyms_get(ks, 0)->module);
	assert_null(ftg_kallsyms_get(ks, 21));

	/* A static name in vmlinux twice and in a module once. */
	assert_int_equal(ftg_kallsyms_find(ks, "cleanup", NULL, found, 4), 3);
	assert_int_equal(ftg_kallsyms_find(ks, "cleanup", "vmlinux", found, 4), 2);
	assert_true(found[0]->addr == 0xffffffff81002000ULL);
	assert_true(found[1]->addr == 0xffffffff81004000ULL);
	assert_int_equal(ftg_kallsyms_find(ks, "cleanup", "e1000e", found, 4), 1);
	assert_string_equal(found[0]->module, "e1000e");
	/* Counting only, and more matches than room. */
	assert_int_equal(ftg_kallsyms_find(ks, "cleanup", NULL, NULL, 0), 3);
	assert_int_equal(ftg_kallsyms_find(ks, "cleanup", NULL, found, 1), 3);
	assert_int_equal(ftg_kallsyms_find(ks, "no_such", NULL, found, 4), 0);

	s = ftg_kallsyms_lookup(ks, 0xffffffff81003010ULL, &off);
	assert_non_null(s);
	assert_string_equal(s->name, "vfs_read");
	assert_true(off == 0x10);
	/* Data symbols are not text: jiffies is skipped. */
	s = ftg_kallsyms_lookup(ks, 0xffffffff82a05000ULL, &off);
	assert_string_equal(s->name, "_etext");
	assert_null(ftg_kallsyms_lookup(ks, 0x1000, NULL));

	assert_int_equal(ftg_kallsyms_text_bounds(ks, &start, &end), 0);
	assert_true(start == 0xffffffff81000000ULL);
	assert_true(end == 0xffffffff81e00000ULL);
	ftg_kallsyms_free(ks);
}

static void test_kallsyms_i386(void **state)
{
	struct ftg_kallsyms *ks = ftg_kallsyms_read(fixture_root("i386"));
	const struct ftg_ksym *s;
	uint64_t start, end;

	assert_non_null(ks);
	assert_int_equal(ftg_kallsyms_count(ks), 7);
	assert_int_equal(ftg_kallsyms_text_bounds(ks, &start, &end), 0);
	assert_true(start == 0xc1000000ULL && end == 0xc1a00000ULL);
	s = ftg_kallsyms_lookup(ks, 0xe0826021ULL, NULL);
	assert_string_equal(s->name, "fn_b");
	assert_string_equal(s->module, "target");
	ftg_kallsyms_free(ks);
}

static void test_kallsyms_malformed(void **state)
{
	int warnings = 0;
	struct ftg_kallsyms *ks;
	const struct ftg_ksym *s = NULL;

	ftg_set_warning_handler(count_warning, &warnings);
	ks = ftg_kallsyms_read(fixture_root("malformed"));
	ftg_set_warning_handler(NULL, NULL);
	assert_non_null(ks);
	assert_int_equal(ftg_kallsyms_count(ks), 5);
	assert_int_equal(ftg_kallsyms_skipped(ks), 8);
	assert_int_equal(warnings, 1);
	assert_int_equal(ftg_kallsyms_find(ks, "no_newline_at_end", NULL, &s, 1), 1);
	assert_true(s->addr == 0xffffffff81000060ULL);
	assert_int_equal(ftg_kallsyms_find(ks, "leading_blank_ok", NULL, &s, 1), 1);
	ftg_kallsyms_free(ks);
}

static void test_kallsyms_missing(void **state)
{
	struct ftg_kallsyms *ks =
		ftg_kallsyms_read(test_root(FIXTURE("none", "proc"), NULL, NULL, NULL));

	assert_null(ks);
	assert_int_equal(errno, ENOENT);
	assert_contains(ftg_error_last(), "kallsyms");
}

static void test_kallsyms_hidden(void **state)
{
	/* kptr_restrict: every address 0. */
	char dir[] = "/tmp/ftg-test-XXXXXX", path[64];
	struct ftg_kallsyms *ks;
	uint64_t start, end;
	FILE *f;

	assert_non_null(mkdtemp(dir));
	snprintf(path, sizeof(path), "%s/kallsyms", dir);
	f = fopen(path, "w");
	assert_non_null(f);
	fputs("0000000000000000 T _stext\n0000000000000000 T _etext\n", f);
	fclose(f);
	ks = ftg_kallsyms_read(test_root(dir, NULL, NULL, NULL));
	assert_non_null(ks);
	assert_int_equal(ftg_kallsyms_text_bounds(ks, &start, &end), -1);
	assert_int_equal(errno, ENOENT);
	assert_contains(ftg_error_last(), "kptr_restrict");
	ftg_kallsyms_free(ks);
	unlink(path);
	rmdir(dir);
}

static void test_proc_modules(void **state)
{
	struct ftg_proc_modules *pm = ftg_proc_modules_read(fixture_root("amd64"));
	const struct ftg_proc_module *m;

	assert_non_null(pm);
	assert_int_equal(ftg_proc_modules_count(pm), 3);
	m = ftg_proc_modules_find(pm, "target");
	assert_non_null(m);
	assert_true(m->size == 16384);
	assert_int_equal(m->refcount, 0);
	assert_string_equal(m->deps, "-");
	assert_string_equal(m->state, "Live");
	assert_true(m->base == 0xffffffffc0b00000ULL);
	assert_string_equal(m->taints, "(OE)");
	m = ftg_proc_modules_find(pm, "e1000e");
	assert_null(m->taints);
	assert_null(ftg_proc_modules_find(pm, "nope"));
	ftg_proc_modules_free(pm);

	pm = ftg_proc_modules_read(fixture_root("malformed"));
	assert_non_null(pm);
	assert_int_equal(ftg_proc_modules_count(pm), 2);
	assert_int_equal(ftg_proc_modules_skipped(pm), 4);
	m = ftg_proc_modules_find(pm, "unloading");
	assert_int_equal(m->refcount, -1);
	assert_string_equal(m->state, "Unloading");
	ftg_proc_modules_free(pm);
}

static void test_vmalloc_amd64(void **state)
{
	struct ftg_vmalloc *vm = ftg_vmalloc_read(fixture_root("amd64"));
	const struct ftg_vmarea *a;

	assert_non_null(vm);
	assert_int_equal(ftg_vmalloc_count(vm), 11);
	assert_int_equal(ftg_vmalloc_skipped(vm), 0);

	a = ftg_vmalloc_lookup(vm, 0xffffc90000100010ULL);
	assert_non_null(a);
	assert_true(a->start == 0xffffc90000100000ULL);
	assert_true(a->end == 0xffffc90000121000ULL);
	assert_true(a->size == 135168);
	assert_string_equal(a->caller, "e1000_probe+0x2f6/0x1200");
	assert_string_equal(a->caller_module, "e1000e");
	assert_true(a->has_phys);
	assert_true(a->phys == 0xfeba0000ULL);
	assert_int_equal(a->flags, FTG_VM_IOREMAP);

	a = ftg_vmalloc_get(vm, 2);
	assert_int_equal(a->flags, FTG_VM_VMALLOC);
	assert_true(a->pages == 1);
	assert_false(a->has_phys);
	assert_null(a->caller_module);

	a = ftg_vmalloc_get(vm, 5);
	assert_int_equal(a->flags, FTG_VM_UNPURGED);
	assert_null(a->caller);
	a = ftg_vmalloc_get(vm, 6);
	assert_int_equal(a->flags, FTG_VM_MAP_RAM);
	a = ftg_vmalloc_get(vm, 7);
	assert_int_equal(a->flags, FTG_VM_VMALLOC | FTG_VM_USER);

	assert_null(ftg_vmalloc_lookup(vm, 0xffffc90000121000ULL));
	ftg_vmalloc_free(vm);
}

static void test_vmalloc_i386(void **state)
{
	struct ftg_vmalloc *vm = ftg_vmalloc_read(fixture_root("i386"));
	const struct ftg_vmarea *a;

	assert_non_null(vm);
	assert_int_equal(ftg_vmalloc_count(vm), 5);
	a = ftg_vmalloc_lookup(vm, 0xe082a000ULL);
	assert_string_equal(a->caller, "__pci_enable_msix_range+0x1f2/0x4f0");
	assert_true(a->phys == 0xfebf0000ULL);
	ftg_vmalloc_free(vm);
}

static void test_vmalloc_malformed(void **state)
{
	struct ftg_vmalloc *vm = ftg_vmalloc_read(fixture_root("malformed"));

	assert_non_null(vm);
	assert_int_equal(ftg_vmalloc_count(vm), 2);
	assert_int_equal(ftg_vmalloc_skipped(vm), 7);
	assert_int_equal(ftg_vmalloc_get(vm, 1)->flags, FTG_VM_VMALLOC);
	ftg_vmalloc_free(vm);
}

static void test_sections(void **state)
{
	struct ftg_sections *sec = ftg_sections_read(fixture_root("amd64"));
	const struct ftg_section *s;
	uint64_t addr;

	assert_non_null(sec);
	assert_int_equal(ftg_sections_count(sec), 9);
	assert_int_equal(ftg_sections_skipped(sec), 0);
	assert_int_equal(ftg_sections_find(sec, "target", ".init.text", &addr), 0);
	assert_true(addr == 0xffffffffc0b05000ULL);
	assert_int_equal(ftg_sections_find(sec, "ftguard", ".init.text", &addr), -1);
	assert_int_equal(errno, ENOENT);
	assert_int_equal(ftg_sections_find(sec, "printk", ".text", &addr), -1);
	/* Sorted by module, then section. */
	s = ftg_sections_get(sec, 0);
	assert_string_equal(s->module, "e1000e");
	assert_string_equal(s->name, ".data");
	ftg_sections_free(sec);

	sec = ftg_sections_read(fixture_root("malformed"));
	assert_non_null(sec);
	assert_int_equal(ftg_sections_count(sec), 1);
	assert_int_equal(ftg_sections_skipped(sec), 1);
	ftg_sections_free(sec);

	/* No module directory: an empty list, not an error. */
	sec = ftg_sections_read(test_root(NULL, FIXTURE("none", "sys"), NULL, NULL));
	assert_non_null(sec);
	assert_int_equal(ftg_sections_count(sec), 0);
	ftg_sections_free(sec);
}

static void test_ftrace_available(void **state)
{
	struct ftg_ftrace_funcs *ff;
	const struct ftg_ftrace_func *f;

	ff = ftg_ftrace_funcs_read(fixture_root("amd64"), FTG_FTRACE_AVAILABLE);
	assert_non_null(ff);
	assert_int_equal(ftg_ftrace_funcs_count(ff), 12);
	f = ftg_ftrace_funcs_get(ff, 6);
	assert_string_equal(f->name, "e1000_probe");
	assert_string_equal(f->module, "e1000e");
	assert_int_equal(f->refcount, -1);
	assert_string_equal(f->flags, "");
	assert_int_equal(ftg_ftrace_funcs_has(ff, "cleanup", NULL), 3);
	assert_int_equal(ftg_ftrace_funcs_has(ff, "cleanup", "vmlinux"), 2);
	assert_int_equal(ftg_ftrace_funcs_has(ff, "cleanup", "e1000e"), 1);
	assert_int_equal(ftg_ftrace_funcs_has(ff, "fn_a", "vmlinux"), 0);
	ftg_ftrace_funcs_free(ff);
}

/* 6.5+: available_filter_functions_addrs, the record's address first. */
static void test_ftrace_addrs(void **state)
{
	char dir[] = "/tmp/ftg-addrs-XXXXXX", path[64];
	struct ftg_ftrace_funcs *ff;
	const struct ftg_ftrace_func *f;
	FILE *out;

	ff = ftg_ftrace_funcs_read(fixture_root("amd64-612-vm"),
				   FTG_FTRACE_AVAILABLE_ADDRS);
	assert_non_null(ff);
	assert_true(ftg_ftrace_funcs_has_addrs(ff));
	assert_int_equal(ftg_ftrace_funcs_count(ff), 423);
	assert_int_equal(ftg_ftrace_funcs_skipped(ff), 0);
	assert_int_equal(ftg_ftrace_funcs_has(ff, "e1000_probe", "e1000e"), 1);
	f = ftg_ftrace_funcs_get(ff, 0);
	assert_true(f->addr == 0xffffffffa1602014ULL);
	assert_string_equal(f->name, "__traceiter_initcall_level");
	assert_null(f->module);
	ftg_ftrace_funcs_free(ff);

	/* 6.1 has none: ENOENT when asked for it alone. */
	assert_null(ftg_ftrace_funcs_read(fixture_root("amd64"),
					  FTG_FTRACE_AVAILABLE_ADDRS));
	assert_int_equal(errno, ENOENT);

	/* A line without an address, or with a bad one, is skipped. */
	assert_non_null(mkdtemp(dir));
	snprintf(path, sizeof(path), "%s/available_filter_functions_addrs", dir);
	out = fopen(path, "w");
	assert_non_null(out);
	fputs("ffffffff81000004 vfs_read\nvfs_write\nxyz schedule\n"
	      "ffffffffc0000004 fn_a [target]\n", out);
	fclose(out);
	ff = ftg_ftrace_funcs_read(test_root(NULL, NULL, NULL, dir), FTG_FTRACE_AVAILABLE);
	assert_non_null(ff);
	assert_int_equal(ftg_ftrace_funcs_count(ff), 2);
	assert_int_equal(ftg_ftrace_funcs_skipped(ff), 2);
	f = ftg_ftrace_funcs_get(ff, 1);
	assert_true(f->addr == 0xffffffffc0000004ULL);
	assert_string_equal(f->module, "target");
	ftg_ftrace_funcs_free(ff);
	unlink(path);
	rmdir(dir);
}

static void test_ftrace_enabled(void **state)
{
	struct ftg_ftrace_funcs *ff;
	const struct ftg_ftrace_func *f;

	ff = ftg_ftrace_funcs_read(fixture_root("amd64"), FTG_FTRACE_ENABLED);
	assert_non_null(ff);
	assert_int_equal(ftg_ftrace_funcs_count(ff), 2);
	f = ftg_ftrace_funcs_get(ff, 0);
	assert_string_equal(f->name, "vfs_read");
	assert_null(f->module);
	assert_int_equal(f->refcount, 1);
	assert_contains(f->flags, "tramp: 0xffffffffc0200000");
	f = ftg_ftrace_funcs_get(ff, 1);
	assert_string_equal(f->module, "target");
	assert_int_equal(f->refcount, 2);
	ftg_ftrace_funcs_free(ff);

	/* 6.1 has no touched_functions: ENOENT, a plain absence. */
	ff = ftg_ftrace_funcs_read(fixture_root("amd64"), FTG_FTRACE_TOUCHED);
	assert_null(ff);
	assert_int_equal(errno, ENOENT);
}

/* The other users of each function, as a 6.12 kernel prints them. */
static void test_users(void **state)
{
	const struct ftg_site_user *x;
	struct ftg_users *u;
	char buf[256];

	u = ftg_users_read(fixture_root("shared-612"));
	assert_non_null(u);
	assert_string_equal(ftg_error_last(), "");

	/* a kprobe: its callback, and kprobes/list's [FTRACE] at +0x4; the
	 * function tracer, by current_tracer and set_ftrace_filter */
	assert_int_equal(ftg_users_describe(u, "vfs_read", NULL, 0, buf, sizeof(buf)), 2);
	assert_string_equal(buf, "kprobe, function tracer");
	/* the direct sample's trampoline, by the name ftrace prints */
	x = ftg_users_find(u, "wake_up_process", NULL, FTG_USER_DIRECT);
	assert_non_null(x);
	assert_string_equal(x->who, "direct my_tramp [ftrace_direct]");
	assert_null(ftg_users_find(u, "wake_up_process", "ftrace_direct", -1));
	assert_int_equal(ftg_users_describe(u, "wake_up_process", NULL, 0, buf, sizeof(buf)), 1);
	/* a BPF trampoline is named as one */
	x = ftg_users_find(u, "schedule_tail", NULL, -1);
	assert_non_null(x);
	assert_int_equal(x->kind, FTG_USER_BPF);
	assert_string_equal(x->who, "BPF trampoline");
	/* a livepatch, and one ops the kernel counts but names nowhere ... */
	assert_int_equal(ftg_users_describe(u, "cmdline_proc_show", NULL, 0,
					    buf, sizeof(buf)), 2);
	assert_string_equal(buf, "livepatch livepatch_sample, 1 other ftrace user");
	/* ... which is ftguard's own where it is armed */
	assert_int_equal(ftg_users_describe(u, "cmdline_proc_show", NULL, 1,
					    buf, sizeof(buf)), 1);
	assert_string_equal(buf, "livepatch livepatch_sample");
	/* ftguard's own callback is nobody else */
	assert_int_equal(ftg_users_describe(u, "fn_a", "ftg_target", 1, buf, sizeof(buf)), 0);
	assert_string_equal(buf, "");
	x = ftg_users_find(u, "fn_b", "ftg_target", -1);
	assert_non_null(x);
	assert_int_equal(x->kind, FTG_USER_TRACER);
	assert_null(ftg_users_find(u, "fn_b", NULL, -1));
	assert_string_equal(ftg_user_kind_name(FTG_USER_LIVEPATCH), "livepatch");
	ftg_users_free(u);

	/* enabled_functions is needed; the rest is optional */
	u = ftg_users_read(test_root(NULL, NULL, NULL, FIXTURE("amd64", "tracing")));
	assert_non_null(u);
	assert_string_equal(ftg_error_last(), "");
	ftg_users_free(u);
	/* the kernel's ftrace as a whole: off by its sysctl, on by default */
	assert_int_equal(ftg_kernel_ftrace_state(fixture_root("shared-612")),
			 FTG_KFTRACE_OFF);
	assert_int_equal(ftg_kernel_ftrace_state(fixture_root("amd64")), FTG_KFTRACE_ON);
	assert_string_equal(ftg_error_last(), "");
	assert_null(ftg_users_read(test_root(NULL, NULL, NULL, NULL)));
	assert_int_equal(errno, ENOENT);
	assert_string_not_equal(ftg_error_last(), "");
}

static void write_text(const char *dir, const char *name, const char *text)
{
	char path[512];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	f = fopen(path, "w");
	assert_non_null(f);
	assert_true(fputs(text, f) >= 0);
	assert_int_equal(fclose(f), 0);
}

/*
 * kprobes named by their events in kprobe_events, and those only
 * kprobes/list has, there by what kind they are: a function that an
 * event names is not named again by the list.
 */
static void test_users_kprobes(void **state)
{
	char dir[] = "/tmp/ftg-kprobes-XXXXXX", tracing[64], debug[64], cmd[256];
	const struct ftg_site_user *x;
	struct ftg_users *u;
	char buf[256];

	assert_non_null(mkdtemp(dir));
	snprintf(tracing, sizeof(tracing), "%s/tracing", dir);
	snprintf(debug, sizeof(debug), "%s/debug", dir);
	snprintf(cmd, sizeof(cmd), "mkdir -p %s/kprobes && cp -r %s %s",
		 debug, FIXTURE("shared-612", "tracing"), dir);
	assert_int_equal(system(cmd), 0);
	write_text(tracing, "kprobe_events",
		   "p:kprobes/read_in vfs_read\n"
		   "r:kprobes/a_out ftg_target:fn_a\n"
		   "p:kprobes/mid vfs_write+8\n");
	write_text(debug, "kprobes/list",
		   "ffffffff8131e2c4  k  vfs_read+0x4    [FTRACE]\n"
		   "ffffffff8131e500  r  ksys_read+0x0    [FTRACE]\n"
		   "ffffffffc0203000  k  fn_b+0x4  [ftg_target] [FTRACE]\n"
		   "ffffffff8131f000  k  vfs_write+0x8\n");

	u = ftg_users_read(test_root(NULL, NULL, debug, tracing));
	assert_non_null(u);
	assert_string_equal(ftg_error_last(), "");
	assert_int_equal(ftg_users_describe(u, "vfs_read", NULL, 0, buf, sizeof(buf)), 2);
	assert_string_equal(buf, "kprobe kprobes/read_in, function tracer");
	x = ftg_users_find(u, "fn_a", "ftg_target", FTG_USER_KPROBE);
	assert_non_null(x);
	assert_string_equal(x->who, "kretprobe kprobes/a_out");
	x = ftg_users_find(u, "ksys_read", NULL, FTG_USER_KPROBE);
	assert_non_null(x);
	assert_string_equal(x->who, "kretprobe");
	x = ftg_users_find(u, "fn_b", "ftg_target", FTG_USER_KPROBE);
	assert_non_null(x);
	assert_string_equal(x->who, "kprobe");
	/* off the function's entry: not on its ftrace site */
	assert_null(ftg_users_find(u, "vfs_write", NULL, -1));
	ftg_users_free(u);

	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
	assert_int_equal(system(cmd), 0);
}

static void test_ftrace_malformed(void **state)
{
	struct ftg_ftrace_funcs *ff;

	ff = ftg_ftrace_funcs_read(fixture_root("malformed"), FTG_FTRACE_AVAILABLE);
	assert_non_null(ff);
	assert_int_equal(ftg_ftrace_funcs_count(ff), 3);
	assert_int_equal(ftg_ftrace_funcs_skipped(ff), 3);
	ftg_ftrace_funcs_free(ff);

	ff = ftg_ftrace_funcs_read(fixture_root("malformed"), FTG_FTRACE_ENABLED);
	assert_non_null(ff);
	assert_int_equal(ftg_ftrace_funcs_count(ff), 2);
	assert_int_equal(ftg_ftrace_funcs_skipped(ff), 1);
	ftg_ftrace_funcs_free(ff);

	ff = ftg_ftrace_funcs_read(test_root(NULL, NULL, NULL, FIXTURE("none", "tracing")),
				   FTG_FTRACE_AVAILABLE);
	assert_null(ff);
	assert_int_equal(ftg_error_code(), FTG_E_NO_TRACEFS);
	assert_contains(ftg_error_last(), "mount -t tracefs");

	ff = ftg_ftrace_funcs_read(fixture_root("amd64"), (enum ftg_ftrace_file)7);
	assert_null(ff);
	assert_int_equal(errno, EINVAL);
}

static void test_unescape(void **state)
{
	char ok[] = "a\\040b\\011c\\134d", plain[] = "plain";
	char bad1[] = "x\\9", bad2[] = "x\\04", bad3[] = "x\\000", bad4[] = "x\\";

	assert_int_equal(ftg_unescape(ok), 0);
	assert_string_equal(ok, "a b\tc\\d");
	assert_int_equal(ftg_unescape(plain), 0);
	assert_string_equal(plain, "plain");
	assert_int_equal(ftg_unescape(bad1), -1);
	assert_int_equal(errno, EINVAL);
	assert_int_equal(ftg_error_code(), FTG_E_BAD_ESCAPE);
	assert_int_equal(ftg_unescape(bad2), -1);
	assert_int_equal(ftg_unescape(bad3), -1);
	assert_int_equal(ftg_unescape(bad4), -1);
	assert_int_equal(ftg_unescape(NULL), -1);
}

static void test_errors(void **state)
{
	assert_string_equal(ftg_strerror(FTG_E_OK), "success");
	assert_contains(ftg_strerror(FTG_E_NO_MODULE), "insmod ftguard.ko");
	assert_contains(ftg_strerror(FTG_E_NO_DEBUGFS),
			"mount -t debugfs none /sys/kernel/debug");
	assert_string_equal(ftg_strerror(FTG_E_COUNT), "unknown error");
	assert_string_equal(ftg_strerror((enum ftg_error)-1), "unknown error");
	ftg_kallsyms_read(test_root(FIXTURE("none", "proc"), NULL, NULL, NULL));
	assert_int_not_equal(ftg_error_code(), FTG_E_OK);
	ftg_error_clear();
	assert_int_equal(ftg_error_code(), FTG_E_OK);
	assert_string_equal(ftg_error_last(), "");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_kallsyms_amd64),
		cmocka_unit_test(test_kallsyms_i386),
		cmocka_unit_test(test_kallsyms_malformed),
		cmocka_unit_test(test_kallsyms_missing),
		cmocka_unit_test(test_kallsyms_hidden),
		cmocka_unit_test(test_proc_modules),
		cmocka_unit_test(test_vmalloc_amd64),
		cmocka_unit_test(test_vmalloc_i386),
		cmocka_unit_test(test_vmalloc_malformed),
		cmocka_unit_test(test_sections),
		cmocka_unit_test(test_ftrace_available),
		cmocka_unit_test(test_ftrace_addrs),
		cmocka_unit_test(test_ftrace_enabled),
		cmocka_unit_test(test_ftrace_malformed),
		cmocka_unit_test(test_users),
		cmocka_unit_test(test_users_kprobes),
		cmocka_unit_test(test_unescape),
		cmocka_unit_test(test_errors),
	};

	return cmocka_run_group_tests_name("readers", tests, NULL, NULL);
}
