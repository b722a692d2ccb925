// SPDX-License-Identifier: LGPL-2.1
/*
 * Roots and snapshots: a snapshot saved from a root reads back the same
 * (byte for byte, and as a map), the live root's paths, and errors.
 */
#include <errno.h>
#include <ftw.h>
#include <sys/stat.h>

#include "lib-test.h"

static char *slurp(const char *dir, const char *name, size_t *len)
{
	char path[1024];

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	return read_whole_file(path, len);
}

static void assert_same_file(const char *a, const char *b, const char *name)
{
	size_t la, lb;
	char *x = slurp(a, name, &la), *y = slurp(b, name, &lb);

	if (!x || !y)
		fail_msg("%s missing (%s, %s)", name, x ? "ok" : a, y ? "ok" : b);
	assert_int_equal(la, lb);
	assert_memory_equal(x, y, la);
	free(x);
	free(y);
}

static int remove_entry(const char *path, const struct stat *sb, int flag,
			struct FTW *ftw)
{
	return remove(path);
}

static void test_save_and_reload(void **state)
{
	static const char *const files[] = {
		"proc/kallsyms", "proc/modules", "proc/vmallocinfo",
		"sys/module/target/sections/.init.text",
		"sys/module/e1000e/sections/.text",
		"debug/ftguard/status", "debug/ftguard/sites",
		"debug/ftguard/modules", "debug/ftguard/check",
		"tracing/available_filter_functions", "tracing/enabled_functions",
	};
	char dir[] = "/tmp/ftg-snap-XXXXXX", out[64];
	struct ftg_root *src, *copy;
	struct ftg_map *m1, *m2;
	struct stat st;
	size_t i, len;
	char *header;

	assert_non_null(mkdtemp(dir));
	snprintf(out, sizeof(out), "%s/snap", dir);
	src = ftg_root_open(FIXTURE("amd64", ""));
	assert_non_null(src);
	assert_true(ftg_root_is_snapshot(src));
	assert_int_equal(ftg_snapshot_save(src, out), 0);

	for (i = 0; i < sizeof(files) / sizeof(files[0]); i++)
		assert_same_file(FIXTURE("amd64", ""), out, files[i]);
	/* Built-in modules have no sections: nothing copied for them. */
	{
		char p[128];

		snprintf(p, sizeof(p), "%s/sys/module/printk", out);
		assert_int_equal(stat(p, &st), -1);
	}
	/* touched_functions is absent on 6.1: not copied, not an error. */
	header = slurp(out, "ftguard-snapshot", &len);
	assert_non_null(header);
	assert_true(!strncmp(header, "ftguard-snapshot 1\n", 19));
	free(header);

	copy = ftg_root_open(out);
	assert_non_null(copy);
	m1 = ftg_map_load(src);
	m2 = ftg_map_load(copy);
	assert_non_null(m1);
	assert_non_null(m2);
	assert_int_equal(ftg_map_region_count(m1), ftg_map_region_count(m2));
	assert_int_equal(ftg_map_site_count(m1), ftg_map_site_count(m2));
	ftg_map_free(m1);
	ftg_map_free(m2);
	ftg_root_free(copy);
	ftg_root_free(src);
	nftw(dir, remove_entry, 16, FTW_DEPTH | FTW_PHYS);
}

static void test_save_errors(void **state)
{
	struct ftg_root *src = ftg_root_open(FIXTURE("amd64", ""));
	char dir[] = "/tmp/ftg-snap-XXXXXX", out[64];

	assert_int_equal(ftg_snapshot_save(src, NULL), -1);
	assert_int_equal(errno, EINVAL);
	/* A file where the directory should be. */
	assert_int_equal(ftg_snapshot_save(src, FIXTURE("amd64", "proc/kallsyms")), -1);
	assert_contains(ftg_error_last(), "saving snapshot");
	ftg_root_free(src);

	/* A root without kallsyms cannot make a snapshot. */
	assert_non_null(mkdtemp(dir));
	src = ftg_root_open(FIXTURE("amd64", "sys"));	/* no proc/ */
	assert_null(src);
	assert_int_equal(ftg_error_code(), FTG_E_BAD_SNAPSHOT);
	snprintf(out, sizeof(out), "%s/proc", dir);
	assert_int_equal(mkdir(out, 0755), 0);
	src = ftg_root_open(dir);
	assert_non_null(src);
	snprintf(out, sizeof(out), "%s/out", dir);
	assert_int_equal(ftg_snapshot_save(src, out), -1);
	assert_int_equal(errno, ENOENT);
	assert_contains(ftg_error_last(), "kallsyms");
	ftg_root_free(src);
	nftw(dir, remove_entry, 16, FTW_DEPTH | FTW_PHYS);
}

static void test_live_root(void **state)
{
	struct ftg_root *live = ftg_root_open(NULL);

	assert_non_null(live);
	assert_false(ftg_root_is_snapshot(live));
	assert_string_equal(ftg_root_proc(live), "/proc");
	assert_string_equal(ftg_root_sys(live), "/sys");
	assert_string_equal(ftg_root_debugfs(live), "/sys/kernel/debug");
	assert_non_null(strstr(ftg_root_tracefs(live), "tracing"));
	ftg_root_free(live);
	ftg_root_free(NULL);
}

static void test_snapshot_paths(void **state)
{
	struct ftg_root *r = ftg_root_open(FIXTURE("i386", ""));

	assert_non_null(r);
	assert_string_equal(ftg_root_proc(r), FIXTURE("i386", "/proc"));
	assert_string_equal(ftg_root_debugfs(r), FIXTURE("i386", "/debug"));
	assert_string_equal(ftg_root_tracefs(r), FIXTURE("i386", "/tracing"));
	ftg_root_free(r);
}

static void test_snapshot_version(void **state)
{
	char dir[] = "/tmp/ftg-snapver-XXXXXX", path[64];
	struct ftg_root *r;
	FILE *f;

	assert_non_null(mkdtemp(dir));
	snprintf(path, sizeof(path), "%s/proc", dir);
	assert_int_equal(mkdir(path, 0755), 0);
	/* No ftguard-snapshot file: a hand-made snapshot is fine. */
	r = ftg_root_open(dir);
	assert_non_null(r);
	ftg_root_free(r);
	snprintf(path, sizeof(path), "%s/ftguard-snapshot", dir);
	f = fopen(path, "w");
	assert_non_null(f);
	fputs("ftguard-snapshot 2\narch amd64\n", f);
	fclose(f);
	assert_null(ftg_root_open(dir));
	assert_int_equal(errno, EPROTO);
	assert_int_equal(ftg_error_code(), FTG_E_BAD_VERSION);
	f = fopen(path, "w");
	fputs("garbage\n", f);
	fclose(f);
	assert_null(ftg_root_open(dir));
	assert_int_equal(ftg_error_code(), FTG_E_BAD_SNAPSHOT);
	unlink(path);
	snprintf(path, sizeof(path), "%s/proc", dir);
	rmdir(path);
	rmdir(dir);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_save_and_reload),
		cmocka_unit_test(test_save_errors),
		cmocka_unit_test(test_live_root),
		cmocka_unit_test(test_snapshot_paths),
		cmocka_unit_test(test_snapshot_version),
	};

	return cmocka_run_group_tests_name("snapshot", tests, NULL, NULL);
}
