// SPDX-License-Identifier: LGPL-2.1
/*
 * The address map on the amd64 and i386 fixture snapshots: regions from
 * each source, the module table winning over sysfs guesses, lookups,
 * descriptions, overlaps (freed init reused by an ioremap on i386) and
 * sites outside live text.
 */
#include <errno.h>

#include "lib-test.h"

static const struct ftg_region *innermost(const struct ftg_map *map, uint64_t addr)
{
	const struct ftg_region *r = NULL;

	ftg_map_lookup(map, addr, &r, 1);
	return r;
}

static void test_amd64_regions(void **state)
{
	struct ftg_map *map = load_fixture_map("amd64");
	const struct ftg_region *r, *all[8];
	size_t i, n;

	assert_int_equal(ftg_map_arch(map), FTG_ARCH_AMD64);
	assert_string_equal(ftg_arch_name(ftg_map_arch(map)), "amd64");

	r = innermost(map, 0xffffffff81003000ULL);
	assert_int_equal(r->kind, FTG_REGION_CORE_TEXT);
	assert_true(r->live);
	assert_string_equal(r->owner, "vmlinux");

	/* target's text from the module table: exactly 4096 bytes, not the
	 * 16 KiB /proc/modules gives for the whole module. */
	r = innermost(map, 0xffffffffc0b00020ULL);
	assert_int_equal(r->kind, FTG_REGION_MODULE_TEXT);
	assert_string_equal(r->owner, "target");
	assert_true(r->end - r->start == 4096);
	r = innermost(map, 0xffffffffc0b01000ULL);
	assert_int_equal(r->kind, FTG_REGION_VMALLOC);	/* its data */
	assert_string_equal(r->caller, "load_module+0x1b0f/0x2580");

	r = innermost(map, 0xffffffffc0b05000ULL);
	assert_int_equal(r->kind, FTG_REGION_INIT_FREED);
	assert_false(r->live);
	assert_true(r->dropped_ms == 120034);

	r = innermost(map, 0xffffffffc0d00100ULL);
	assert_int_equal(r->kind, FTG_REGION_MODULE_GONE);
	assert_string_equal(r->owner, "oldmod");

	r = innermost(map, 0xffffc90000100000ULL);
	assert_int_equal(r->kind, FTG_REGION_IOREMAP);
	assert_string_equal(r->caller_module, "e1000e");
	assert_true(r->has_phys && r->phys == 0xfeba0000ULL);

	/* Unpurged areas are left out; the vmalloc range still holds it. */
	n = ftg_map_lookup(map, 0xffffc90000200000ULL, all, 8);
	assert_int_equal(n, 1);
	assert_int_equal(all[0]->kind, FTG_REGION_VMALLOC_RANGE);

	/* Several regions: innermost first. */
	n = ftg_map_lookup(map, 0xffffffffc0b00000ULL, all, 8);
	assert_int_equal(n, 3);
	assert_int_equal(all[0]->kind, FTG_REGION_MODULE_TEXT);
	assert_int_equal(all[1]->kind, FTG_REGION_VMALLOC);
	assert_int_equal(all[2]->kind, FTG_REGION_MODULES_RANGE);
	assert_int_equal(ftg_map_lookup(map, 0x1000, all, 8), 0);

	/* Sorted by start. */
	for (i = 1; i < ftg_map_region_count(map); i++)
		assert_true(ftg_map_region_get(map, i - 1)->start <=
			    ftg_map_region_get(map, i)->start);
	assert_null(ftg_map_region_get(map, ftg_map_region_count(map)));
	ftg_map_free(map);
}

static void test_amd64_describe(void **state)
{
	struct ftg_map *map = load_fixture_map("amd64");
	char buf[512], tiny[8];

	ftg_map_describe(map, 0xffffc90000100000ULL, buf, sizeof(buf));
	assert_string_equal(buf, "ioremap 0xffffc90000100000-0xffffc90000121000 "
			    "(e1000_probe+0x2f6/0x1200 [e1000e], phys 0xfeba0000)");
	ftg_map_describe(map, 0xffffffffc0b05000ULL, buf, sizeof(buf));
	assert_string_equal(buf, "freed init text of target 0xffffffffc0b05000-"
			    "0xffffffffc0b06000 (dropped at 120034 ms)");
	ftg_map_describe(map, 0x10, buf, sizeof(buf));
	assert_string_equal(buf, "nothing mapped");
	ftg_map_describe(map, 0xffffffffc1000000ULL, buf, sizeof(buf));
	assert_contains(buf, "unmapped space in the modules-range");
	/* Truncation is safe and says how long it would have been. */
	assert_true(ftg_map_describe(map, 0xffffc90000100000ULL, tiny, sizeof(tiny)) >
		    (int)sizeof(tiny));
	assert_int_equal(strlen(tiny), sizeof(tiny) - 1);
	ftg_map_free(map);
}

static void test_amd64_sites(void **state)
{
	struct ftg_map *map = load_fixture_map("amd64");
	const struct ftg_map_site *ms;
	size_t i, outside = 0;

	assert_int_equal(ftg_map_site_count(map), 11);
	/* The planted foreign site (ioremap) and stale one (freed init). */
	assert_int_equal(ftg_map_sites_outside(map), 2);
	for (i = 0; i < ftg_map_site_count(map); i++) {
		ms = ftg_map_site_get(map, i);
		if (!ms->in_live_text)
			outside++;
	}
	assert_int_equal(outside, 2);
	ms = ftg_map_site_get(map, 0);
	assert_true(ms->site->addr == 0xffffc90000100000ULL);
	assert_false(ms->in_live_text);
	assert_int_equal(ms->region->kind, FTG_REGION_IOREMAP);
	ms = ftg_map_site_get(map, 10);
	assert_string_equal(ms->site->name, "target init");
	assert_int_equal(ms->region->kind, FTG_REGION_INIT_FREED);
	ms = ftg_map_site_get(map, 7);
	assert_true(ms->in_live_text);
	ftg_map_free(map);
}

static void test_amd64_no_overlaps(void **state)
{
	/* Module text inside its own allocation, areas inside ranges: how
	 * things are meant to be, not overlaps. */
	struct ftg_map *map = load_fixture_map("amd64");

	assert_int_equal(ftg_map_overlap_count(map), 0);
	assert_null(ftg_map_overlap_get(map, 0));
	ftg_map_free(map);
}

static void test_i386_shared_range(void **state)
{
	struct ftg_map *map = load_fixture_map("i386");
	const struct ftg_region *all[8];
	const struct ftg_overlap *o;
	char buf[512];
	size_t n;

	assert_int_equal(ftg_map_arch(map), FTG_ARCH_I386);
	/* One range for modules and vmalloc. */
	n = ftg_map_lookup(map, 0xe0826000ULL, all, 8);
	assert_int_equal(n, 3);
	assert_int_equal(all[0]->kind, FTG_REGION_MODULE_TEXT);
	assert_int_equal(all[2]->kind, FTG_REGION_SHARED_RANGE);
	assert_true(all[2]->start == 0xe07e0000ULL && all[2]->end == 0xfebfe000ULL);

	/* target's freed __init reused by the MSI-X ioremap. */
	n = ftg_map_lookup(map, 0xe082a000ULL, all, 8);
	assert_int_equal(n, 3);
	assert_int_equal(ftg_map_overlap_count(map), 1);
	o = ftg_map_overlap_get(map, 0);
	assert_true((o->a->kind == FTG_REGION_INIT_FREED && o->b->kind == FTG_REGION_IOREMAP) ||
		    (o->b->kind == FTG_REGION_INIT_FREED && o->a->kind == FTG_REGION_IOREMAP));
	ftg_map_describe(map, 0xe082a000ULL, buf, sizeof(buf));
	assert_contains(buf, "__pci_enable_msix_range+0x1f2/0x4f0, phys 0xfebf0000");
	assert_contains(buf, "; over freed init text of target");

	assert_int_equal(ftg_map_sites_outside(map), 1);
	ftg_map_free(map);
}

static void test_without_module_table(void **state)
{
	/* /proc/modules and sysfs alone: the whole core allocation, and a
	 * Live module's init text taken as freed, ending at the next
	 * section. */
	struct ftg_kallsyms *ks = ftg_kallsyms_read(fixture_root("amd64"));
	struct ftg_proc_modules *pm = ftg_proc_modules_read(fixture_root("amd64"));
	struct ftg_sections *sec = ftg_sections_read(fixture_root("amd64"));
	struct ftg_map *map = ftg_map_new();
	const struct ftg_region *r;

	assert_int_equal(ftg_map_add_kallsyms(map, ks), 0);
	assert_int_equal(ftg_map_add_proc_modules(map, pm, sec), 0);
	assert_int_equal(ftg_map_add_vmalloc(map, NULL), 0);
	assert_int_equal(ftg_map_add_status(map, NULL), 0);
	assert_int_equal(ftg_map_finish(map), 0);
	ftg_kallsyms_free(ks);
	ftg_proc_modules_free(pm);
	ftg_sections_free(sec);

	r = innermost(map, 0xffffffffc0b03000ULL);
	assert_int_equal(r->kind, FTG_REGION_MODULE_TEXT);
	assert_true(r->end == 0xffffffffc0b04000ULL);
	r = innermost(map, 0xffffffffc0b05800ULL);
	assert_int_equal(r->kind, FTG_REGION_INIT_FREED);
	assert_true(r->end == 0xffffffffc0b06000ULL);	/* .init.data */
	r = innermost(map, 0xffffffff83000100ULL);	/* vmlinux __init */
	assert_int_equal(r->kind, FTG_REGION_INIT_FREED);
	assert_string_equal(r->owner, "vmlinux");
	assert_int_equal(ftg_map_arch(map), FTG_ARCH_AMD64);

	/* Finished: no more parts. */
	assert_int_equal(ftg_map_add_sites(map, NULL), -1);
	assert_int_equal(ftg_map_add_status(map, &(struct ftg_status){ .modules_end = 1 }), -1);
	assert_int_equal(errno, EBUSY);
	ftg_map_free(map);
}

static void test_empty_map(void **state)
{
	struct ftg_map *map = ftg_map_new();

	assert_int_equal(ftg_map_finish(map), 0);
	assert_int_equal(ftg_map_finish(map), 0);
	assert_int_equal(ftg_map_arch(map), FTG_ARCH_UNKNOWN);
	assert_int_equal(ftg_map_region_count(map), 0);
	assert_int_equal(ftg_map_site_count(map), 0);
	assert_string_equal(ftg_region_kind_name(FTG_REGION_IOREMAP), "ioremap");
	assert_string_equal(ftg_region_kind_name((enum ftg_region_kind)42), "?");
	ftg_map_free(map);
	ftg_map_free(NULL);
}

/*
 * A map built from kallsyms the caller read, without the site overlay (as
 * the commands build it for checking): the same regions, no sites; and
 * the kallsyms text kept is the file.
 */
static void test_load_with(void **state)
{
	char dir[512], *file;
	struct ftg_map *full = load_fixture_map("amd64"), *lean;
	struct ftg_kallsyms *ks;
	struct ftg_root *root;
	const char *text;
	size_t i, len, file_len;
	FILE *f;

	snprintf(dir, sizeof(dir), "%s/amd64", FTG_FIXTURES);
	root = ftg_root_open(dir);
	assert_non_null(root);
	ks = ftg_kallsyms_read(root);
	assert_non_null(ks);
	lean = ftg_map_load_with(root, ks, FTG_MAP_NO_SITES);
	assert_non_null(lean);
	assert_true(ftg_map_site_count(full) > 0);
	assert_int_equal(ftg_map_site_count(lean), 0);
	assert_int_equal(ftg_map_region_count(lean), ftg_map_region_count(full));
	for (i = 0; i < ftg_map_region_count(full); i++) {
		const struct ftg_region *a = ftg_map_region_get(full, i);
		const struct ftg_region *b = ftg_map_region_get(lean, i);

		assert_int_equal(a->kind, b->kind);
		assert_true(a->start == b->start && a->end == b->end);
	}

	snprintf(dir, sizeof(dir), "%s/amd64/proc/kallsyms", FTG_FIXTURES);
	f = fopen(dir, "r");
	assert_non_null(f);
	file = calloc(1, 1 << 20);
	file_len = fread(file, 1, (1 << 20) - 1, f);
	fclose(f);
	text = ftg_kallsyms_text(ks, &len);
	assert_int_equal(len, file_len);
	assert_memory_equal(text, file, len);
	assert_int_equal(text[len], '\0');

	free(file);
	ftg_map_free(lean);
	ftg_map_free(full);
	ftg_kallsyms_free(ks);
	ftg_root_free(root);
}

static void test_load_errors(void **state)
{
	struct ftg_root *root = ftg_root_open(FIXTURE("malformed", ""));
	struct ftg_map *map;

	/* Malformed kernel files are skipped; the map still loads. */
	assert_non_null(root);
	map = ftg_map_load(root);
	assert_non_null(map);
	ftg_map_free(map);
	ftg_root_free(root);

	assert_null(ftg_root_open(FIXTURE("none", "")));
	assert_int_equal(ftg_error_code(), FTG_E_BAD_SNAPSHOT);
}

/*
 * Debian's 6.12 (amd64-612-vm, saved in the guest): each module is one
 * vmalloc area per part; /proc/modules' size (all parts) must not make
 * e1000e's text run over its data and rodata; e1000e's freed init text
 * page is dummy's text now.
 */
static const struct ftg_region *area_at(const struct ftg_map *map, uint64_t addr)
{
	const struct ftg_region *all[8];
	size_t i, n = ftg_map_lookup(map, addr, all, 8);

	for (i = 0; i < n && i < 8; i++)
		if (all[i]->kind == FTG_REGION_VMALLOC)
			return all[i];
	fail_msg("no vmalloc area at 0x%llx", (unsigned long long)addr);
	return NULL;
}

static void test_612_module_areas(void **state)
{
	struct ftg_map *map = load_fixture_map("amd64-612-vm");
	const struct ftg_region *r;
	char buf[512];
	size_t i, n = 0;

	r = innermost(map, 0xffffffffc0552ab4ULL);	/* e1000_probe's record */
	assert_int_equal(r->kind, FTG_REGION_MODULE_TEXT);
	assert_string_equal(r->owner, "e1000e");
	assert_true(r->start == 0xffffffffc052d000ULL);
	assert_true(r->end == 0xffffffffc052d000ULL + 42 * 4096);	/* pages=42 */
	assert_null(r->part);

	r = area_at(map, 0xffffffffc052d000ULL);
	assert_string_equal(r->owner, "e1000e");
	assert_string_equal(r->part, "text");
	r = area_at(map, 0xffffffffc0558d60ULL);	/* .data */
	assert_string_equal(r->owner, "e1000e");
	assert_string_equal(r->part, "data");
	assert_int_equal(innermost(map, 0xffffffffc0558d60ULL)->kind, FTG_REGION_VMALLOC);
	r = area_at(map, 0xffffffffc056f000ULL);	/* .rodata */
	assert_string_equal(r->part, "rodata");
	r = area_at(map, 0xffffffffc0587000ULL);	/* __jump_table alone */
	assert_string_equal(r->owner, "e1000e");
	assert_string_equal(r->part, "ro-after-init");
	/* e1000e's .symtab points into the freed init data that is
	 * dummy's data now: the area is dummy's alone. */
	r = area_at(map, 0xffffffffc058c000ULL);
	assert_string_equal(r->owner, "dummy");
	assert_string_equal(r->part, "data");
	r = area_at(map, 0xffffffffc058a000ULL);
	assert_string_equal(r->owner, "dummy");
	assert_string_equal(r->part, "text");

	ftg_map_describe(map, 0xffffffffc056f100ULL, buf, sizeof(buf));
	assert_string_equal(buf, "rodata of module e1000e, vmalloc 0xffffffffc056f000-"
			    "0xffffffffc0587000 (load_module+0x784/0x21b0)");
	ftg_map_describe(map, 0xffffffffc058a010ULL, buf, sizeof(buf));
	assert_contains(buf, "text of module dummy 0xffffffffc058a000-0xffffffffc058b000");
	assert_contains(buf, "; over freed init text of e1000e 0xffffffffc058a000");

	/* That reuse is the one overlap. */
	for (i = 0; i < ftg_map_overlap_count(map); i++) {
		const struct ftg_overlap *o = ftg_map_overlap_get(map, i);

		if (o->a->kind == FTG_REGION_INIT_FREED || o->b->kind == FTG_REGION_INIT_FREED)
			n++;
	}
	assert_int_equal(ftg_map_overlap_count(map), 1);
	assert_int_equal(n, 1);
	ftg_map_free(map);
}

/* 6.1 (amd64-vm, saved in the guest): a module's core is one area. */
static void test_61_module_areas(void **state)
{
	struct ftg_map *map = load_fixture_map("amd64-vm");
	const struct ftg_region *r = area_at(map, 0xffffffffc024a000ULL);

	assert_string_equal(r->owner, "e1000e");
	assert_string_equal(r->part, "text+rodata+data");
	ftg_map_free(map);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_amd64_regions),
		cmocka_unit_test(test_amd64_describe),
		cmocka_unit_test(test_amd64_sites),
		cmocka_unit_test(test_amd64_no_overlaps),
		cmocka_unit_test(test_i386_shared_range),
		cmocka_unit_test(test_without_module_table),
		cmocka_unit_test(test_empty_map),
		cmocka_unit_test(test_load_with),
		cmocka_unit_test(test_load_errors),
		cmocka_unit_test(test_612_module_areas),
		cmocka_unit_test(test_61_module_areas),
	};

	return cmocka_run_group_tests_name("map", tests, NULL, NULL);
}
