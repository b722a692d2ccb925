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

/*
 * Who else uses ftrace travels with a snapshot: a root with a kprobe, a
 * livepatch, a direct trampoline and the function tracer (the 6.12
 * fixture's) names the same users when read back from its snapshot.
 */
static void test_save_users(void **state)
{
	char dir[] = "/tmp/ftg-snap-users-XXXXXX", src_dir[1100], out[1100];
	char *cmd, buf[256];
	struct ftg_root *src, *copy;
	struct ftg_users *u1, *u2;
	size_t i;

	(void)state;
	assert_non_null(mkdtemp(dir));
	snprintf(src_dir, sizeof(src_dir), "%s/root", dir);
	snprintf(out, sizeof(out), "%s/snap", dir);
	assert_true(asprintf(&cmd, "cp -r '%s' '%s' && cp -r '%s/.' '%s/'",
			     FIXTURE("amd64", ""), src_dir,
			     FIXTURE("shared-612", ""), src_dir) > 0);
	assert_int_equal(system(cmd), 0);
	free(cmd);
	src = ftg_root_open(src_dir);
	assert_non_null(src);
	assert_int_equal(ftg_snapshot_save(src, out), 0);
	copy = ftg_root_open(out);
	assert_non_null(copy);
	u1 = ftg_users_read(src);
	u2 = ftg_users_read(copy);
	assert_non_null(u1);
	assert_non_null(u2);
	assert_true(ftg_users_count(u1) > 0);
	assert_int_equal(ftg_users_count(u2), ftg_users_count(u1));
	for (i = 0; i < ftg_users_count(u1); i++) {
		const struct ftg_site_user *a = ftg_users_get(u1, i);

		assert_non_null(ftg_users_find(u2, a->name, a->module, a->kind));
	}
	assert_int_equal(ftg_users_describe(u2, "vfs_read", NULL, 0, buf, sizeof(buf)), 2);
	assert_string_equal(buf, "kprobe, function tracer");
	assert_int_equal(ftg_users_describe(u2, "cmdline_proc_show", NULL, 1,
					    buf, sizeof(buf)), 1);
	assert_string_equal(buf, "livepatch livepatch_sample");
	/* a livepatch's state goes with it, beside the functions it replaces */
	assert_true(asprintf(&cmd, "cmp -s '%s/sys/kernel/livepatch/livepatch_sample/enabled' "
			     "'%s'", out, FIXTURE("shared-612",
			     "sys/kernel/livepatch/livepatch_sample/enabled")) > 0);
	assert_int_equal(system(cmd), 0);
	free(cmd);
	assert_int_equal(ftg_kernel_ftrace_state(copy), ftg_kernel_ftrace_state(src));
	ftg_users_free(u1);
	ftg_users_free(u2);
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
	/* NULL is the live system wherever a root is taken */
	assert_false(ftg_root_is_snapshot(NULL));
	assert_string_equal(ftg_root_proc(NULL), "/proc");
	assert_string_equal(ftg_root_sys(NULL), "/sys");
	assert_string_equal(ftg_root_debugfs(NULL), "/sys/kernel/debug");
	assert_string_equal(ftg_root_tracefs(NULL), ftg_root_tracefs(live));
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

/* A root of directories named one by one: each kept as given, the live
 * system's where none is given, and nothing checked. */
static void test_dirs_root(void **state)
{
	struct ftg_root *r = ftg_root_open_dirs("/p", NULL, "/nonexistent/d", "/t");

	assert_non_null(r);
	assert_string_equal(ftg_error_last(), "");
	assert_false(ftg_root_is_snapshot(r));
	assert_string_equal(ftg_root_proc(r), "/p");
	assert_string_equal(ftg_root_sys(r), "/sys");
	assert_string_equal(ftg_root_debugfs(r), "/nonexistent/d");
	assert_string_equal(ftg_root_tracefs(r), "/t");
	ftg_root_free(r);
	r = ftg_root_open_dirs(NULL, NULL, NULL, NULL);
	assert_non_null(r);
	assert_string_equal(ftg_root_proc(r), "/proc");
	assert_string_equal(ftg_root_debugfs(r), "/sys/kernel/debug");
	assert_non_null(strstr(ftg_root_tracefs(r), "tracing"));
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

static void assert_612_kernel(const struct ftg_kernel_info *k)
{
	assert_true(k->snapshot);
	assert_string_equal(k->arch, "amd64");
	assert_string_equal(k->release, "6.12.118+deb12-amd64");
	assert_string_equal(k->machine, "x86_64");
	assert_true(!strncmp(k->version, "Linux version 6.12.118+deb12-amd64 ", 35));
	assert_string_equal(k->config, "/boot/config-6.12.118+deb12-amd64");
	assert_true(k->created == 1796357645);
	assert_int_equal(k->feature[FTG_KFEAT_IBT], FTG_FEATURE_YES);
	assert_string_equal(k->feature_source[FTG_KFEAT_IBT], "config");
	assert_int_equal(k->feature[FTG_KFEAT_CALL_PADDING], FTG_FEATURE_YES);
	assert_int_equal(k->feature[FTG_KFEAT_FTRACE_ADDRS], FTG_FEATURE_YES);
	assert_string_equal(k->feature_source[FTG_KFEAT_FTRACE_ADDRS], "tracefs");
}

/* Which kernel a snapshot came from, and that a copy keeps saying so. */
static void test_kernel_info(void **state)
{
	char dir[] = "/tmp/ftg-kinfo-XXXXXX", out[64];
	struct ftg_kernel_info k;
	struct ftg_root *r, *copy;
	char *config;
	size_t len;

	r = ftg_root_open(FIXTURE("amd64-612-vm", ""));
	assert_non_null(r);
	assert_int_equal(ftg_root_kernel(r, &k), 0);
	assert_612_kernel(&k);

	assert_non_null(mkdtemp(dir));
	snprintf(out, sizeof(out), "%s/snap", dir);
	assert_int_equal(ftg_snapshot_save(r, out), 0);
	ftg_root_free(r);
	copy = ftg_root_open(out);
	assert_non_null(copy);
	memset(&k, 0, sizeof(k));
	assert_int_equal(ftg_root_kernel(copy, &k), 0);
	assert_612_kernel(&k);
	config = slurp(out, "config", &len);
	assert_non_null(config);
	assert_contains(config, "CONFIG_X86_KERNEL_IBT=y\n");
	free(config);
	assert_same_file(FIXTURE("amd64-612-vm", ""), out,
			 "tracing/available_filter_functions_addrs");
	assert_same_file(FIXTURE("amd64-612-vm", ""), out, "proc/version");
	ftg_root_free(copy);
	nftw(dir, remove_entry, 16, FTW_DEPTH | FTW_PHYS);

	/* Saved before kernels were recorded: only the arch and time. */
	r = ftg_root_open(FIXTURE("amd64-vm", ""));
	assert_non_null(r);
	assert_int_equal(ftg_root_kernel(r, &k), 0);
	assert_string_equal(k.release, "");
	assert_string_equal(k.arch, "amd64");
	assert_true(k.created == 1796293514);
	assert_int_equal(k.feature[FTG_KFEAT_IBT], FTG_FEATURE_UNKNOWN);
	ftg_root_free(r);

	/* The live system: at least uname's release. */
	r = ftg_root_open(NULL);
	assert_int_equal(ftg_root_kernel(r, &k), 0);
	assert_false(k.snapshot);
	assert_true(*k.release);
	ftg_root_free(r);

	assert_string_equal(ftg_kernel_feature_name(FTG_KFEAT_CALL_PADDING), "call-padding");
	assert_string_equal(ftg_kernel_feature_name(FTG_KFEAT_COUNT), "?");
}

static void test_kernel_info_malformed(void **state)
{
	char dir[] = "/tmp/ftg-kbad-XXXXXX", path[64];
	struct ftg_kernel_info k;
	struct ftg_root *r;
	FILE *f;

	assert_non_null(mkdtemp(dir));
	snprintf(path, sizeof(path), "%s/proc", dir);
	assert_int_equal(mkdir(path, 0755), 0);
	snprintf(path, sizeof(path), "%s/ftguard-snapshot", dir);
	f = fopen(path, "w");
	assert_non_null(f);
	/* A feature a newer saver knows is skipped; a bad state is not. */
	fputs("ftguard-snapshot 1\nrelease 6.12.1\nfeature shadow-stack yes config\n"
	      "feature ibt maybe config\n", f);
	fclose(f);
	r = ftg_root_open(dir);
	assert_non_null(r);
	assert_int_equal(ftg_root_kernel(r, &k), -1);
	assert_int_equal(errno, EPROTO);
	assert_contains(ftg_error_last(), "ftguard-snapshot:4: malformed feature line");
	ftg_root_free(r);
	nftw(dir, remove_entry, 16, FTW_DEPTH | FTW_PHYS);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_save_and_reload),
		cmocka_unit_test(test_save_users),
		cmocka_unit_test(test_save_errors),
		cmocka_unit_test(test_live_root),
		cmocka_unit_test(test_snapshot_paths),
		cmocka_unit_test(test_dirs_root),
		cmocka_unit_test(test_snapshot_version),
		cmocka_unit_test(test_kernel_info),
		cmocka_unit_test(test_kernel_info_malformed),
	};

	return cmocka_run_group_tests_name("snapshot", tests, NULL, NULL);
}
