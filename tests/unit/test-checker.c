// SPDX-License-Identifier: LGPL-2.1
/*
 * The checker's cross-check: the module's report against the map. A
 * foreign site is named with its ioremap region and caller, a stale one
 * with the freed init region; disagreements are findings too.
 */
#include <errno.h>

#include "lib-test.h"

#define TEXT(s)	(s), strlen(s)

static void test_amd64_verdict(void **state)
{
	struct ftg_map *map = load_fixture_map("amd64");
	struct ftg_check_report *rep = ftg_check_report_read(fixture_root("amd64"));
	struct ftg_verdict *v;
	const struct ftg_finding *f;

	assert_non_null(rep);
	v = ftg_verdict_new(rep, map);
	ftg_check_report_free(rep);	/* the verdict keeps its own copy */
	assert_non_null(v);
	assert_false(ftg_verdict_ok(v));
	assert_true(ftg_verdict_n_ok(v) == 9 && ftg_verdict_n_bad(v) == 2);
	assert_true(ftg_verdict_ms(v) == 3);
	assert_int_equal(ftg_verdict_count(v), 2);

	f = ftg_verdict_get(v, 0);
	assert_true(f->addr == 0xffffc90000100000ULL);
	assert_int_equal(f->module_verdict, FTG_VERDICT_FOREIGN);
	assert_int_equal(f->map_verdict, FTG_VERDICT_FOREIGN);
	assert_true(f->agree);
	assert_int_equal(f->region->kind, FTG_REGION_IOREMAP);
	assert_string_equal(f->region->caller, "e1000_probe+0x2f6/0x1200");
	assert_string_equal(f->reason,
			    "foreign: (foreign) at 0xffffc90000100000 lies in ioremap "
			    "0xffffc90000100000-0xffffc90000121000 (e1000_probe+0x2f6/0x1200 "
			    "[e1000e], phys 0xfeba0000)");

	f = ftg_verdict_get(v, 1);
	assert_string_equal(f->name, "target init");
	assert_string_equal(f->owner, "target");
	assert_int_equal(f->module_verdict, FTG_VERDICT_STALE);
	assert_int_equal(f->map_verdict, FTG_VERDICT_STALE);
	assert_true(f->agree);
	assert_int_equal(f->region->kind, FTG_REGION_INIT_FREED);
	assert_contains(f->reason, "stale: target init at 0xffffffffc0b05000 lies in "
			"freed init text of target");
	assert_contains(f->reason, "dropped at 120034 ms");
	assert_string_equal(f->expected, "0f1f440000");
	assert_string_equal(f->actual, "-");
	assert_null(ftg_verdict_get(v, 2));
	assert_non_null(ftg_verdict_report(v));
	ftg_verdict_free(v);
	ftg_map_free(map);
}

static void test_i386_reused_init(void **state)
{
	/* The 2008 failure: a site in freed __init text that an ioremap
	 * now occupies. Stale, and the ioremap is named. */
	struct ftg_map *map = load_fixture_map("i386");
	struct ftg_check_report *rep = ftg_check_report_read(fixture_root("i386"));
	struct ftg_verdict *v = ftg_verdict_new(rep, map);
	const struct ftg_finding *f;

	assert_non_null(v);
	assert_int_equal(ftg_verdict_count(v), 1);
	f = ftg_verdict_get(v, 0);
	assert_int_equal(f->map_verdict, FTG_VERDICT_STALE);
	assert_true(f->agree);
	assert_int_equal(f->region->kind, FTG_REGION_INIT_FREED);
	assert_contains(f->reason, "stale: target_init at 0xe082a000 lies in ioremap "
			"0xe082a000-0xe082c000 (__pci_enable_msix_range+0x1f2/0x4f0, "
			"phys 0xfebf0000); over freed init text of target");
	ftg_verdict_free(v);
	ftg_check_report_free(rep);
	ftg_map_free(map);
}

static void test_disagreement(void **state)
{
	static const char text[] =
		"ftguard-check 1\nresult ok 4 0 1\n"
		"0xffffffffc0b05000 ok target 0f1f440000 0f1f440000 target_init\n"
		"0xffffc9000001d000 ok vmlinux 0f1f440000 0f1f440000 in_vmalloc\n"
		"0xffffffff81003000 ok vmlinux 0f1f440000 0f1f440000 vfs_read\n"
		"0xffffffffc0b00020 ok target 0f1f440000 0f1f440000 fn_b\n";
	struct ftg_map *map = load_fixture_map("amd64");
	struct ftg_check_report *rep = ftg_check_report_parse(TEXT(text));
	struct ftg_verdict *v = ftg_verdict_new(rep, map);
	const struct ftg_finding *f;

	assert_non_null(v);
	/* The module said ok; the map still finds two of them wrong. */
	assert_false(ftg_verdict_ok(v));
	assert_int_equal(ftg_verdict_count(v), 2);
	f = ftg_verdict_get(v, 0);
	assert_false(f->agree);
	assert_int_equal(f->map_verdict, FTG_VERDICT_STALE);
	assert_contains(f->reason, "ftguard.ko found target_init at 0xffffffffc0b05000 ok "
			"but the map says stale");
	f = ftg_verdict_get(v, 1);
	assert_int_equal(f->map_verdict, FTG_VERDICT_FOREIGN);
	assert_int_equal(f->region->kind, FTG_REGION_VMALLOC);
	assert_contains(f->reason, "gen_pool_add_owner");
	ftg_verdict_free(v);
	ftg_check_report_free(rep);
	ftg_map_free(map);
}

static void test_mismatch_and_ok(void **state)
{
	static const char bad[] =
		"ftguard-check 1\nresult fail 0 1 0\n"
		"0xffffffff81003000 mismatch vmlinux 0f1f440000 e812345678 vfs_read\n";
	static const char good[] =
		"ftguard-check 1\nresult ok 2 0 0\n"
		"0xffffffff81003000 ok vmlinux 0f1f440000 0f1f440000 vfs_read\n"
		"0xffffffffc0b00000 ok target 0f1f440000 0f1f440000 fn_a\n";
	struct ftg_map *map = load_fixture_map("amd64");
	struct ftg_check_report *rep = ftg_check_report_parse(TEXT(bad));
	struct ftg_verdict *v = ftg_verdict_new(rep, map);
	const struct ftg_finding *f;

	assert_int_equal(ftg_verdict_count(v), 1);
	f = ftg_verdict_get(v, 0);
	/* The map cannot see bytes: live text + mismatch agree. */
	assert_true(f->agree);
	assert_int_equal(f->map_verdict, FTG_VERDICT_MISMATCH);
	assert_contains(f->reason, "mismatch: vfs_read at 0xffffffff81003000 holds "
			"e812345678, expected 0f1f440000 (vmlinux text");
	ftg_verdict_free(v);
	ftg_check_report_free(rep);

	rep = ftg_check_report_parse(TEXT(good));
	v = ftg_verdict_new(rep, map);
	assert_true(ftg_verdict_ok(v));
	assert_int_equal(ftg_verdict_count(v), 0);
	ftg_verdict_free(v);
	ftg_check_report_free(rep);
	ftg_map_free(map);
}

static void test_without_map(void **state)
{
	struct ftg_check_report *rep = ftg_check_report_read(fixture_root("amd64"));
	struct ftg_verdict *v = ftg_verdict_new(rep, NULL);
	size_t i;

	assert_non_null(v);
	assert_int_equal(ftg_verdict_count(v), 2);
	for (i = 0; i < 2; i++) {
		const struct ftg_finding *f = ftg_verdict_get(v, i);

		assert_true(f->agree);
		assert_null(f->region);
		assert_contains(f->reason, "no address map");
	}
	ftg_verdict_free(v);
	ftg_check_report_free(rep);

	assert_null(ftg_verdict_new(NULL, NULL));
	assert_int_equal(errno, EINVAL);
	ftg_verdict_free(NULL);
}

/*
 * A snapshot saved by ftg_snapshot_save() in the QEMU guest (Debian
 * 6.1.0-57-amd64, fault-injection ftguard.ko, ftg_target loaded, a stale
 * site planted at its freed init_one and a foreign one in e1000e's BAR0
 * ioremap); kallsyms and available_filter_functions trimmed to the
 * modules and the functions that are sites.
 */
static void test_real_vm_snapshot(void **state)
{
	struct ftg_map *map = load_fixture_map("amd64-vm");
	struct ftg_check_report *rep = ftg_check_report_read(fixture_root("amd64-vm"));
	struct ftg_verdict *v;
	const struct ftg_overlap *o;
	const struct ftg_finding *f;

	assert_int_equal(ftg_map_arch(map), FTG_ARCH_AMD64);
	assert_int_equal(ftg_map_site_count(map), 600);
	assert_int_equal(ftg_map_sites_outside(map), 2);
	/* ftg_target was loaded where ftguard's freed __init had been. */
	assert_int_equal(ftg_map_overlap_count(map), 1);
	o = ftg_map_overlap_get(map, 0);
	assert_string_equal(o->a->owner, "ftg_target");
	assert_int_equal(o->a->kind, FTG_REGION_MODULE_TEXT);
	assert_string_equal(o->b->owner, "ftguard");
	assert_int_equal(o->b->kind, FTG_REGION_INIT_FREED);

	v = ftg_verdict_new(rep, map);
	assert_non_null(v);
	assert_false(ftg_verdict_ok(v));
	assert_int_equal(ftg_verdict_count(v), 2);
	f = ftg_verdict_get(v, 0);
	assert_true(f->agree);
	assert_int_equal(f->region->kind, FTG_REGION_IOREMAP);
	assert_contains(f->reason, "(e1000_probe+0x238/0xc50 [e1000e], phys 0xfeba0000)");
	f = ftg_verdict_get(v, 1);
	assert_true(f->agree);
	assert_int_equal(f->map_verdict, FTG_VERDICT_STALE);
	assert_contains(f->reason, "stale: init_one at 0xffffffffc02ad000 lies in freed "
			"init text of ftg_target 0xffffffffc02ad000-0xffffffffc02ae000");
	ftg_verdict_free(v);
	ftg_check_report_free(rep);
	ftg_map_free(map);
}

/*
 * Saved in the i386 guest (Debian 6.1.0-57-686) by the VM test
 * i386-e1000e-reuse at the moment of overlap: ftg_initwait's freed __init
 * page holds e1000e's MSI-X ioremap, and the stale site planted there is
 * refused. Trimmed like amd64-vm.
 */
static void test_real_i386_reuse(void **state)
{
	struct ftg_map *map = load_fixture_map("i386-vm");
	struct ftg_check_report *rep = ftg_check_report_read(fixture_root("i386-vm"));
	struct ftg_verdict *v = ftg_verdict_new(rep, map);
	const struct ftg_overlap *o;
	const struct ftg_finding *f;

	assert_int_equal(ftg_map_arch(map), FTG_ARCH_I386);
	assert_int_equal(ftg_map_overlap_count(map), 1);
	o = ftg_map_overlap_get(map, 0);
	assert_int_equal(o->a->kind, FTG_REGION_IOREMAP);
	assert_int_equal(o->b->kind, FTG_REGION_INIT_FREED);
	assert_string_equal(o->b->owner, "ftg_initwait");

	assert_non_null(v);
	assert_int_equal(ftg_verdict_count(v), 1);
	f = ftg_verdict_get(v, 0);
	assert_true(f->agree);
	assert_int_equal(f->map_verdict, FTG_VERDICT_STALE);
	assert_int_equal(f->region->kind, FTG_REGION_INIT_FREED);
	assert_string_equal(f->reason,
			    "stale: initwait_tick at 0xe0804000 lies in ioremap 0xe0804000-0xe0806000 "
			    "(__pci_enable_msix_range+0x25d/0x590, phys 0xfebf0000); over freed init "
			    "text of ftg_initwait 0xe0804000-0xe0805000 (dropped at 144947 ms)");
	ftg_verdict_free(v);
	ftg_check_report_free(rep);
	ftg_map_free(map);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_amd64_verdict),
		cmocka_unit_test(test_i386_reused_init),
		cmocka_unit_test(test_disagreement),
		cmocka_unit_test(test_mismatch_and_ok),
		cmocka_unit_test(test_without_map),
		cmocka_unit_test(test_real_vm_snapshot),
		cmocka_unit_test(test_real_i386_reuse),
	};

	return cmocka_run_group_tests_name("checker", tests, NULL, NULL);
}
