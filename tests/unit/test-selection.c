// SPDX-License-Identifier: LGPL-2.1
/*
 * Selection: globs, -n exclusions, -m modules, NAME@ADDR and MODULE:NAME
 * qualifiers expanded into candidate sites; vmlinux candidates for admit.
 */
#include <errno.h>

#include "lib-test.h"

struct inputs {
	struct ftg_kallsyms *ks;
	struct ftg_ftrace_funcs *avail;
};

static int setup(void **state)
{
	struct inputs *in = calloc(1, sizeof(*in));

	in->ks = ftg_kallsyms_read(fixture_root("amd64"));
	in->avail = ftg_ftrace_funcs_read(fixture_root("amd64"),
					  FTG_FTRACE_AVAILABLE);
	if (!in->ks || !in->avail)
		return -1;
	*state = in;
	return 0;
}

static int teardown(void **state)
{
	struct inputs *in = *state;

	ftg_kallsyms_free(in->ks);
	ftg_ftrace_funcs_free(in->avail);
	free(in);
	return 0;
}

/* @patterns (NULL-terminated; "-n X" excludes, "-m X" a module) added to a
 * new selection. */
static struct ftg_selection *selection_of(const char *const *patterns)
{
	struct ftg_selection *sel = ftg_selection_new();

	assert_non_null(sel);
	for (; *patterns; patterns++) {
		int ret;

		if (!strncmp(*patterns, "-n ", 3))
			ret = ftg_selection_exclude(sel, *patterns + 3);
		else if (!strncmp(*patterns, "-m ", 3))
			ret = ftg_selection_add_module(sel, *patterns + 3);
		else
			ret = ftg_selection_add(sel, *patterns);
		assert_int_equal(ret, 0);
	}
	return sel;
}

/* @patterns resolved over the fixture's function lists. */
static struct ftg_candidates *resolve(struct inputs *in, const char *const *patterns)
{
	struct ftg_selection *sel = selection_of(patterns);
	struct ftg_candidates *c;

	c = ftg_selection_resolve(sel, in->ks, in->avail);
	ftg_selection_free(sel);
	return c;
}

static void assert_candidate(const struct ftg_candidates *c, size_t i,
			     const char *name, uint64_t addr, const char *module)
{
	const struct ftg_candidate *cand = ftg_candidates_get(c, i);

	assert_non_null(cand);
	assert_string_equal(cand->name, name);
	assert_true(cand->addr == addr);
	if (module)
		assert_string_equal(cand->module, module);
	else
		assert_null(cand->module);
}

static void test_glob(void **state)
{
	const char *const p[] = { "vfs_*", NULL };
	struct ftg_candidates *c = resolve(*state, p);

	assert_non_null(c);
	assert_int_equal(ftg_candidates_count(c), 2);
	assert_candidate(c, 0, "vfs_read", 0xffffffff81003000ULL, NULL);
	assert_candidate(c, 1, "vfs_write", 0xffffffff81003400ULL, NULL);
	ftg_candidates_free(c);
}

static void test_duplicate_names(void **state)
{
	/* A static name: every address of every owner. */
	const char *const p[] = { "cleanup", NULL };
	const char *const q[] = { "vmlinux:cleanup", NULL };
	const char *const r[] = { "cleanup@0xffffffff81004000", NULL };
	const char *const e[] = { "e1000e:cleanup", NULL };
	struct ftg_candidates *c = resolve(*state, p);

	assert_int_equal(ftg_candidates_count(c), 3);
	assert_candidate(c, 2, "cleanup", 0xffffffffc0a02000ULL, "e1000e");
	ftg_candidates_free(c);

	c = resolve(*state, q);
	assert_int_equal(ftg_candidates_count(c), 2);
	ftg_candidates_free(c);

	c = resolve(*state, r);
	assert_int_equal(ftg_candidates_count(c), 1);
	assert_candidate(c, 0, "cleanup", 0xffffffff81004000ULL, NULL);
	ftg_candidates_free(c);

	c = resolve(*state, e);
	assert_int_equal(ftg_candidates_count(c), 1);
	assert_candidate(c, 0, "cleanup", 0xffffffffc0a02000ULL, "e1000e");
	ftg_candidates_free(c);
}

static void test_module_and_exclusions(void **state)
{
	const char *const p[] = { "-m target", "-n fn_b", NULL };
	const char *const q[] = { "*", "-n *cleanup*", "-n e1000e:*", "-n target:fn_?", NULL };
	struct ftg_candidates *c = resolve(*state, p);

	assert_int_equal(ftg_candidates_count(c), 2);
	assert_candidate(c, 0, "fn_a", 0xffffffffc0b00000ULL, "target");
	assert_candidate(c, 1, "trigger_write", 0xffffffffc0b00040ULL, "target");
	ftg_candidates_free(c);

	c = resolve(*state, q);
	assert_non_null(c);
	/* do_one_initcall vfs_read vfs_write schedule trigger_write */
	assert_int_equal(ftg_candidates_count(c), 5);
	assert_candidate(c, 4, "trigger_write", 0xffffffffc0b00040ULL, "target");
	ftg_candidates_free(c);
}

/* trace-cmd's GLOB:mod:MODULE and :mod:MODULE select as MODULE:GLOB. */
static void test_mod_form(void **state)
{
	const char *const p[] = { "fn_?:mod:target", NULL };
	const char *const q[] = { ":mod:target", NULL };
	const char *const r[] = { "cleanup:mod:e1000e", NULL };
	const char *const e[] = { "*", "-n :mod:target", "-n *:mod:e1000e", NULL };
	struct ftg_candidates *c = resolve(*state, p);

	assert_int_equal(ftg_candidates_count(c), 2);
	assert_candidate(c, 0, "fn_a", 0xffffffffc0b00000ULL, "target");
	ftg_candidates_free(c);
	c = resolve(*state, q);
	assert_int_equal(ftg_candidates_count(c), 3);
	assert_candidate(c, 2, "trigger_write", 0xffffffffc0b00040ULL, "target");
	ftg_candidates_free(c);
	c = resolve(*state, r);
	assert_int_equal(ftg_candidates_count(c), 1);
	assert_candidate(c, 0, "cleanup", 0xffffffffc0a02000ULL, "e1000e");
	ftg_candidates_free(c);
	c = resolve(*state, e);
	/* do_one_initcall cleanup x2 vfs_read vfs_write schedule */
	assert_int_equal(ftg_candidates_count(c), 6);
	ftg_candidates_free(c);
}

static void test_no_match(void **state)
{
	const char *const p[] = { "no_such_fn*", NULL };
	const char *const q[] = { "vfs_read@0xffffffff81003001", NULL };
	const char *const r[] = { "vfs_read", "-n vfs_*", NULL };
	const char *const m[] = { "-m nomodule", NULL };
	int warnings = 0;
	const char *const partial[] = { "vfs_read", "nothing_here", NULL };
	struct ftg_candidates *c;

	assert_null(resolve(*state, p));
	assert_int_equal(errno, ENOENT);
	assert_int_equal(ftg_error_code(), FTG_E_NO_MATCH);
	assert_contains(ftg_error_last(), "no_such_fn*");
	/* NAME@ADDR must be exact: an address inside vfs_read is no site. */
	assert_null(resolve(*state, q));
	assert_null(resolve(*state, r));
	assert_null(resolve(*state, m));

	/* One pattern matching nothing among others: a warning only. */
	ftg_set_warning_handler(count_warning, &warnings);
	c = resolve(*state, partial);
	ftg_set_warning_handler(NULL, NULL);
	assert_non_null(c);
	assert_int_equal(ftg_candidates_count(c), 1);
	assert_int_equal(warnings, 1);
	ftg_candidates_free(c);
}

static void test_bad_patterns(void **state)
{
	struct ftg_selection *sel = ftg_selection_new();
	static const char *const bad[] = {
		"", "fn[abc", ":fn", "mod:", "fn@", "fn@zz", "fn@0", "@0x10",
		":mod:", "fn:mod:", "fn:mod:a:b",
	};
	size_t i;

	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		assert_int_equal(ftg_selection_add(sel, bad[i]), -1);
		assert_int_equal(errno, EINVAL);
		assert_int_equal(ftg_error_code(), FTG_E_BAD_PATTERN);
	}
	assert_int_equal(ftg_selection_add(sel, NULL), -1);
	assert_int_equal(ftg_selection_add_module(sel, ""), -1);
	assert_int_equal(ftg_selection_add_module(sel, "a b"), -1);
	assert_true(ftg_selection_empty(sel));
	assert_int_equal(ftg_selection_add(sel, "fn[ab]c"), 0);
	assert_int_equal(ftg_selection_add(sel, "fn[]]"), 0);
	assert_int_equal(ftg_selection_exclude(sel, "x*"), 0);
	assert_false(ftg_selection_empty(sel));
	ftg_selection_free(sel);
}

static void test_vmlinux_candidates(void **state)
{
	struct inputs *in = *state;
	struct ftg_candidates *c = ftg_candidates_vmlinux(in->ks, in->avail);

	assert_non_null(c);
	/* do_one_initcall cleanup x2 vfs_read vfs_write schedule */
	assert_int_equal(ftg_candidates_count(c), 6);
	assert_candidate(c, 0, "do_one_initcall", 0xffffffff81001000ULL, NULL);
	assert_candidate(c, 1, "cleanup", 0xffffffff81002000ULL, NULL);
	assert_candidate(c, 3, "vfs_write", 0xffffffff81003400ULL, NULL);
	assert_candidate(c, 4, "cleanup", 0xffffffff81004000ULL, NULL);
	ftg_candidates_free(c);
}

static void test_candidates_add(void **state)
{
	struct ftg_candidates *c = ftg_candidates_new();

	assert_int_equal(ftg_candidates_add(c, "b", 0x20, "vmlinux"), 1);
	assert_int_equal(ftg_candidates_add(c, "a", 0x10, "m"), 1);
	assert_int_equal(ftg_candidates_add(c, "a2", 0x10, NULL), 0);
	assert_int_equal(ftg_candidates_add(c, "c", 0x30, NULL), 1);
	assert_int_equal(ftg_candidates_count(c), 3);
	assert_candidate(c, 0, "a", 0x10, "m");
	assert_candidate(c, 1, "b", 0x20, NULL);
	assert_null(ftg_candidates_get(c, 3));

	/* without: those whose address the other list has go (the names
	 * may differ), the rest keep their order and owners */
	{
		struct ftg_candidates *drop = ftg_candidates_new(), *kept;

		assert_int_equal(ftg_candidates_add(drop, "b-other", 0x20, NULL), 1);
		assert_int_equal(ftg_candidates_add(drop, "z", 0x05, NULL), 1);
		assert_int_equal(ftg_candidates_add(drop, "y", 0x40, NULL), 1);
		kept = ftg_candidates_without(c, drop);
		assert_non_null(kept);
		assert_int_equal(ftg_candidates_count(kept), 2);
		assert_candidate(kept, 0, "a", 0x10, "m");
		assert_candidate(kept, 1, "c", 0x30, NULL);
		ftg_candidates_free(kept);
		kept = ftg_candidates_without(c, NULL);
		assert_int_equal(ftg_candidates_count(kept), 3);
		ftg_candidates_free(kept);
		ftg_candidates_free(drop);
	}
	ftg_candidates_free(c);
}

static void test_hidden_addresses(void **state)
{
	/* Not root: kallsyms prints every address as 0. */
	struct inputs *in = *state;
	char dir[] = "/tmp/ftg-hidden-XXXXXX", path[64];
	struct ftg_selection *sel = ftg_selection_new();
	struct ftg_kallsyms *ks;
	FILE *f;

	assert_non_null(mkdtemp(dir));
	snprintf(path, sizeof(path), "%s/kallsyms", dir);
	f = fopen(path, "w");
	assert_non_null(f);
	fputs("0000000000000000 T vfs_read\n0000000000000000 t fn_a\t[target]\n", f);
	fclose(f);
	ks = ftg_kallsyms_read(test_root(dir, NULL, NULL, NULL));
	assert_non_null(ks);
	assert_int_equal(ftg_selection_add(sel, "vfs_read"), 0);
	assert_null(ftg_selection_resolve(sel, ks, in->avail));
	assert_int_equal(errno, EACCES);
	assert_int_equal(ftg_error_code(), FTG_E_NOT_ROOT);
	assert_contains(ftg_error_last(), "run as root");
	ftg_selection_free(sel);
	ftg_kallsyms_free(ks);
	unlink(path);
	rmdir(dir);
}

/*
 * Debian's 6.12 (the amd64-612-vm fixture, saved in the guest): most
 * records sit 4 bytes into their function, after the endbr64.
 */
static void test_records_612(void **state)
{
	struct ftg_ftrace_funcs *avail;
	struct ftg_candidates *c;
	const struct ftg_candidate *cand;
	size_t i;

	avail = ftg_ftrace_funcs_read(fixture_root("amd64-612-vm"),
				      FTG_FTRACE_AVAILABLE);
	assert_non_null(avail);
	assert_true(ftg_ftrace_funcs_has_addrs(avail));
	/* No kallsyms needed: every address is the record itself. */
	c = ftg_candidates_vmlinux(NULL, avail);
	assert_non_null(c);
	assert_int_equal(ftg_candidates_count(c), 21);
	for (i = 0; i < ftg_candidates_count(c); i++) {
		cand = ftg_candidates_get(c, i);
		assert_null(cand->module);
		if (!strcmp(cand->name, "vfs_read"))	/* kallsyms: ...ce0 */
			assert_true(cand->addr == 0xffffffffa1a57ce4ULL);
		if (!strcmp(cand->name, "mmio_read"))	/* no endbr: +0 */
			assert_true(cand->addr == 0xffffffffa1603c60ULL);
		/* one record for two aliases at one address */
		assert_string_not_equal(cand->name, "__x64_sys_rt_sigreturn");
	}
	ftg_candidates_free(c);
	ftg_ftrace_funcs_free(avail);
}

/* The same kernel seen through available_filter_functions alone (as on
 * 6.1): the kallsyms join offers the function's first byte, which on
 * this kernel is the endbr64 and no record; the module must refuse it. */
static void test_join_without_addrs(void **state)
{
	char dir[] = "/tmp/ftg-names-XXXXXX", cmd[256];
	struct ftg_ftrace_funcs *avail;
	struct ftg_kallsyms *ks;
	struct ftg_candidates *c;
	size_t i, mmio = 0;

	assert_non_null(mkdtemp(dir));
	snprintf(cmd, sizeof(cmd), "cp %s %s/", FIXTURE("amd64-612-vm",
		 "tracing/available_filter_functions"), dir);
	assert_int_equal(system(cmd), 0);
	avail = ftg_ftrace_funcs_read(test_root(NULL, NULL, NULL, dir), FTG_FTRACE_AVAILABLE);
	assert_non_null(avail);
	assert_false(ftg_ftrace_funcs_has_addrs(avail));
	assert_true(ftg_ftrace_funcs_get(avail, 0)->addr == 0);
	/* Names alone and no kallsyms: nothing to offer. */
	c = ftg_candidates_vmlinux(NULL, avail);
	assert_non_null(c);
	assert_int_equal(ftg_candidates_count(c), 0);
	ftg_candidates_free(c);
	ks = ftg_kallsyms_read(fixture_root("amd64-612-vm"));
	assert_non_null(ks);
	c = ftg_candidates_vmlinux(ks, avail);
	assert_non_null(c);
	for (i = 0; i < ftg_candidates_count(c); i++) {
		const struct ftg_candidate *cand = ftg_candidates_get(c, i);

		if (!strcmp(cand->name, "vfs_read"))
			assert_true(cand->addr == 0xffffffffa1a57ce0ULL);
		if (!strcmp(cand->name, "mmio_read"))
			mmio++;
	}
	assert_int_equal(mmio, 2);	/* both static copies; ftrace has one */
	ftg_candidates_free(c);
	ftg_kallsyms_free(ks);
	ftg_ftrace_funcs_free(avail);
	snprintf(cmd, sizeof(cmd), "rm -r %s", dir);
	assert_int_equal(system(cmd), 0);
}

static struct ftg_candidates *resolve_612(const char *pattern, bool with_ks)
{
	struct ftg_ftrace_funcs *avail;
	struct ftg_kallsyms *ks = NULL;
	struct ftg_selection *sel = ftg_selection_new();
	struct ftg_candidates *c;

	avail = ftg_ftrace_funcs_read(fixture_root("amd64-612-vm"),
				      FTG_FTRACE_AVAILABLE);
	assert_non_null(avail);
	if (with_ks)
		assert_non_null(ks = ftg_kallsyms_read(fixture_root("amd64-612-vm")));
	if (!strncmp(pattern, "-m ", 3))
		assert_int_equal(ftg_selection_add_module(sel, pattern + 3), 0);
	else
		assert_int_equal(ftg_selection_add(sel, pattern), 0);
	c = ftg_selection_resolve(sel, ks, avail);
	ftg_selection_free(sel);
	ftg_kallsyms_free(ks);
	ftg_ftrace_funcs_free(avail);
	return c;
}

static void test_selection_612(void **state)
{
	struct ftg_candidates *c;

	c = resolve_612("vfs_read", false);
	assert_non_null(c);
	assert_int_equal(ftg_candidates_count(c), 1);
	assert_candidate(c, 0, "vfs_read", 0xffffffffa1a57ce4ULL, NULL);
	ftg_candidates_free(c);
	/* A pin may name the record or the function as kallsyms has it. */
	c = resolve_612("vfs_read@0xffffffffa1a57ce4", true);
	assert_non_null(c);
	assert_candidate(c, 0, "vfs_read", 0xffffffffa1a57ce4ULL, NULL);
	ftg_candidates_free(c);
	c = resolve_612("vfs_read@0xffffffffa1a57ce0", true);
	assert_non_null(c);
	assert_candidate(c, 0, "vfs_read", 0xffffffffa1a57ce4ULL, NULL);
	ftg_candidates_free(c);
	assert_null(resolve_612("vfs_read@0xffffffffa1a57ce8", true));
	assert_int_equal(ftg_error_code(), FTG_E_NO_MATCH);
	/* Module functions are records too. */
	c = resolve_612("e1000e:e1000_probe", false);
	assert_non_null(c);
	assert_candidate(c, 0, "e1000_probe", 0xffffffffc0552ab4ULL, "e1000e");
	ftg_candidates_free(c);
	c = resolve_612("-m e1000e", false);
	assert_non_null(c);
	assert_int_equal(ftg_candidates_count(c), 395);
	ftg_candidates_free(c);
	c = resolve_612("init_once", false);
	assert_non_null(c);
	assert_int_equal(ftg_candidates_count(c), 8);
	ftg_candidates_free(c);
}

/* @patterns resolved over @sites. */
static struct ftg_candidates *resolve_sites(const struct ftg_sites *sites,
					    const char *const *patterns)
{
	struct ftg_selection *sel = selection_of(patterns);
	struct ftg_candidates *c = ftg_selection_resolve_sites(sel, sites);

	ftg_selection_free(sel);
	return c;
}

/* A selection confined to modules can be resolved over their sites. */
static void test_selection_modules(void **state)
{
	const char *const p[] = { "target:fn_a", "-m e1000e", "target:*", ":mod:target",
				  "-n vmlinux:*", NULL };
	const char *const any[] = { "target:fn_a", "fn_b", NULL };
	const char *const core[] = { "-m target", "vmlinux:vfs_read", NULL };
	const char *const core_m[] = { "target:fn_a", "-m vmlinux", NULL };
	const char *mods[2] = { NULL, NULL };
	struct ftg_selection *sel = selection_of(p);

	assert_int_equal(ftg_selection_modules(sel, mods, 2), 2);
	assert_string_equal(mods[0], "target");
	assert_string_equal(mods[1], "e1000e");
	mods[1] = NULL;
	/* Above max: the count, and only max set. */
	assert_int_equal(ftg_selection_modules(sel, mods, 1), 2);
	assert_string_equal(mods[0], "target");
	assert_null(mods[1]);
	ftg_selection_free(sel);
	sel = selection_of(any);
	assert_int_equal(ftg_selection_modules(sel, mods, 2), 0);
	ftg_selection_free(sel);
	sel = selection_of(core);
	assert_int_equal(ftg_selection_modules(sel, mods, 2), 0);
	ftg_selection_free(sel);
	sel = selection_of(core_m);
	assert_int_equal(ftg_selection_modules(sel, mods, 2), 0);
	ftg_selection_free(sel);
}

/* Over the module's sites, a module selection gives what the function
 * lists give; planted sites are no function's. */
static void test_resolve_sites(void **state)
{
	static const char table[] =
		"ftguard-sites 2\n"
		"0xffffffffc0b00004 ok core target 0 0 fn_a 4 f30f1efa:0f1f440000 -\n"
		"0xffffffffc0b00024 armed core target 7 1 fn_b 4 f30f1efa:0f1f440000 -\n"
		"0xffffffffc0b00044 ok core target 0 0 trigger_write 4 f30f1efa:0f1f440000 -\n"
		"0xffffffffc0b05000 planted init target 0 0 target\\040init 0 0f1f440000 -\n";
	const char *const all[] = { "-m target", NULL };
	const char *const glob[] = { "target:fn_?", "-n target:fn_b", NULL };
	const char *const pin_start[] = { "target:fn_a@0xffffffffc0b00000", NULL };
	const char *const pin_record[] = { "target:fn_b@0xffffffffc0b00024", NULL };
	const char *const pin_wrong[] = { "target:fn_a@0xffffffffc0b00008", NULL };
	const char *const none[] = { "target:nosuch*", NULL };
	const char *const planted[] = { "target:target*", NULL };
	struct ftg_sites *sites = ftg_sites_parse(table, strlen(table));
	struct ftg_candidates *c;

	assert_non_null(sites);
	c = resolve_sites(sites, all);
	assert_non_null(c);
	assert_int_equal(ftg_candidates_count(c), 3);
	assert_candidate(c, 0, "fn_a", 0xffffffffc0b00004ULL, "target");
	assert_candidate(c, 2, "trigger_write", 0xffffffffc0b00044ULL, "target");
	ftg_candidates_free(c);
	c = resolve_sites(sites, glob);
	assert_non_null(c);
	assert_int_equal(ftg_candidates_count(c), 1);
	assert_candidate(c, 0, "fn_a", 0xffffffffc0b00004ULL, "target");
	ftg_candidates_free(c);
	c = resolve_sites(sites, pin_start);
	assert_non_null(c);
	assert_int_equal(ftg_candidates_count(c), 1);
	assert_candidate(c, 0, "fn_a", 0xffffffffc0b00004ULL, "target");
	ftg_candidates_free(c);
	c = resolve_sites(sites, pin_record);
	assert_non_null(c);
	assert_candidate(c, 0, "fn_b", 0xffffffffc0b00024ULL, "target");
	ftg_candidates_free(c);
	assert_null(resolve_sites(sites, pin_wrong));
	assert_int_equal(ftg_error_code(), FTG_E_NO_MATCH);
	assert_null(resolve_sites(sites, none));
	assert_int_equal(ftg_error_code(), FTG_E_NO_MATCH);
	assert_non_null(strstr(ftg_error_last(), "target:nosuch*"));
	assert_null(resolve_sites(sites, planted));
	assert_int_equal(ftg_error_code(), FTG_E_NO_MATCH);
	ftg_sites_free(sites);
}

/* The fixture's module functions, resolved both ways, are the same. */
static void test_resolve_sites_agrees(void **state)
{
	const char *const *cases[] = {
		(const char *const[]){ "-m target", NULL },
		(const char *const[]){ "target:fn_*", "-n target:fn_b", NULL },
		(const char *const[]){ "e1000e:e1000_*", NULL },
	};
	struct ftg_sites *sites = ftg_sites_read(fixture_root("amd64"));
	size_t k, i;

	assert_non_null(sites);
	for (k = 0; k < sizeof(cases) / sizeof(cases[0]); k++) {
		struct ftg_candidates *a = resolve(*state, cases[k]);
		struct ftg_candidates *b = resolve_sites(sites, cases[k]);

		assert_non_null(a);
		assert_non_null(b);
		assert_int_equal(ftg_candidates_count(a), ftg_candidates_count(b));
		for (i = 0; i < ftg_candidates_count(a); i++)
			assert_candidate(b, i, ftg_candidates_get(a, i)->name,
					 ftg_candidates_get(a, i)->addr,
					 ftg_candidates_get(a, i)->module);
		ftg_candidates_free(a);
		ftg_candidates_free(b);
	}
	ftg_sites_free(sites);
}

/* A site table filtered by the selection (sites -l) takes exactly the
 * sites a resolve over the same table gives. */
static void test_wants_site_agrees(void **state)
{
	static const char table[] =
		"ftguard-sites 2\n"
		"0xffffffffc0b00004 ok core target 0 0 fn_a 4 f30f1efa:0f1f440000 -\n"
		"0xffffffffc0b00024 armed core target 7 1 fn_b 4 f30f1efa:0f1f440000 -\n"
		"0xffffffffc0b00044 ok core target 0 0 trigger_write 4 f30f1efa:0f1f440000 -\n"
		"0xffffffff81000104 ok core vmlinux 0 0 fn_a 4 f30f1efa:0f1f440000 -\n";
	const char *const *cases[] = {
		(const char *const[]){ "fn_a", NULL },
		(const char *const[]){ "target:fn_*", "-n target:fn_b", NULL },
		(const char *const[]){ "fn_*:mod:target", NULL },
		(const char *const[]){ ":mod:target", NULL },
		(const char *const[]){ "vmlinux:*", NULL },
		(const char *const[]){ "-m target", "-n *_write", NULL },
		(const char *const[]){ "fn_a@0xffffffffc0b00000", NULL },
		(const char *const[]){ "fn_b@0xffffffffc0b00024", NULL },
	};
	struct ftg_sites *sites = ftg_sites_parse(table, strlen(table));
	size_t k, i, j;

	assert_non_null(sites);
	for (k = 0; k < sizeof(cases) / sizeof(cases[0]); k++) {
		struct ftg_selection *sel = selection_of(cases[k]);
		struct ftg_candidates *c = ftg_selection_resolve_sites(sel, sites);

		assert_non_null(c);
		for (i = 0; i < ftg_sites_count(sites); i++) {
			const struct ftg_site *site = ftg_sites_get(sites, i);
			bool resolved = false;

			for (j = 0; j < ftg_candidates_count(c); j++)
				resolved |= ftg_candidates_get(c, j)->addr == site->addr;
			assert_int_equal(ftg_selection_wants_site(sel, site), resolved);
		}
		ftg_candidates_free(c);
		ftg_selection_free(sel);
	}
	ftg_sites_free(sites);
}

/* NAME@ADDR: one parser for the library and the command; hex, 0x optional. */
static void test_pattern_addr(void **state)
{
	static const struct {
		const char *pattern;
		int ret;
		uint64_t addr;
		size_t at;
	} cases[] = {
		{ "fn@0xffffffff81000000", 1, 0xffffffff81000000ULL, 2 },
		{ "fn@0XFFFFFFFF81000000", 1, 0xffffffff81000000ULL, 2 },
		{ "fn@ffffffff81000000", 1, 0xffffffff81000000ULL, 2 },
		/* hex, not octal or decimal as strtoull's base 0 would read it */
		{ "fn@010", 1, 0x10, 2 },
		{ "mod:fn@10", 1, 0x10, 6 },
		/* the last '@' is the pin */
		{ "a@b@0x20", 1, 0x20, 3 },
		{ "fn@0xffffffffffffffff", 1, UINT64_MAX, 2 },
		{ "fn", 0, 0, 0 },
		{ "fn@0x10000000000000000", -1, 0, 0 },
		{ "fn@fffffffffffffffff", -1, 0, 0 },
		{ "fn@0x10 ", -1, 0, 0 },
		{ "fn@0x10g", -1, 0, 0 },
		{ "fn@10:", -1, 0, 0 },
		{ "fn@", -1, 0, 0 },
		{ "fn@0x", -1, 0, 0 },
		{ "fn@0", -1, 0, 0 },
		{ "fn@-1", -1, 0, 0 },
		{ "fn@+1", -1, 0, 0 },
		{ "fn@ 1", -1, 0, 0 },
		{ "fn@0x-1", -1, 0, 0 },
	};
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		uint64_t addr = 0;
		size_t at = 0;
		int ret = ftg_pattern_addr(cases[i].pattern, &addr, &at);

		if (ret != cases[i].ret)
			fail_msg("%s: returned %d, want %d", cases[i].pattern, ret,
				 cases[i].ret);
		if (ret < 0) {
			assert_int_equal(errno, EINVAL);
			assert_int_equal(ftg_error_code(), FTG_E_BAD_PATTERN);
			continue;
		}
		assert_string_equal(ftg_error_last(), "");
		if (ret == 1) {
			assert_true(addr == cases[i].addr);
			assert_int_equal(at, cases[i].at);
		}
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_glob),
		cmocka_unit_test(test_duplicate_names),
		cmocka_unit_test(test_module_and_exclusions),
		cmocka_unit_test(test_mod_form),
		cmocka_unit_test(test_no_match),
		cmocka_unit_test(test_bad_patterns),
		cmocka_unit_test(test_vmlinux_candidates),
		cmocka_unit_test(test_candidates_add),
		cmocka_unit_test(test_hidden_addresses),
		cmocka_unit_test(test_records_612),
		cmocka_unit_test(test_join_without_addrs),
		cmocka_unit_test(test_selection_612),
		cmocka_unit_test(test_selection_modules),
		cmocka_unit_test(test_resolve_sites_agrees),
		cmocka_unit_test(test_resolve_sites),
		cmocka_unit_test(test_wants_site_agrees),
		cmocka_unit_test(test_pattern_addr),
	};

	return cmocka_run_group_tests_name("selection", tests, setup, teardown);
}
