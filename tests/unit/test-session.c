// SPDX-License-Identifier: LGPL-2.1
/*
 * The session: which list a selection resolves over (the modules' own
 * sites, the module's site table, the kernel's lists), what it leaves
 * with the module on the way, and where a failed call stopped. A scratch
 * debugfs holds ftguard/status and ftguard/sites, and a regular file
 * stands in for ftguard/control: the one command of a call is written at
 * its start and the answer read from where the write left the position,
 * so the file is the command's length of padding, then the answer.
 */
#include <errno.h>
#include <sys/stat.h>

#include "lib-test.h"

#define PROC		FIXTURE("amd64", "proc")
#define TRACING		FIXTURE("amd64", "tracing")

/* What one test works on: a scratch debugfs, one pattern, a session. */
struct fix {
	char *dir;
	char *control;
	struct ftg_selection *sel;
	struct ftg_session *sess;
};

/* @dst, a copy of the fixture table @src, and @extra after it. */
static void copy_file(const char *src, const char *dst, const char *extra)
{
	FILE *in = fopen(src, "r"), *out = fopen(dst, "w");
	char buf[4096];
	size_t n;

	assert_non_null(in);
	assert_non_null(out);
	while ((n = fread(buf, 1, sizeof(buf), in)) > 0)
		assert_int_equal(fwrite(buf, 1, n, out), n);
	fputs(extra, out);
	fclose(in);
	fclose(out);
}

/*
 * The amd64 fixture's status (with @records as vmlinux_records, 0: none)
 * and sites; the control file holds @cmd's room (the command overwrites
 * it), then @answer, or "untouched" when @cmd is NULL.
 */
static void fix_init(struct fix *f, unsigned int records, const char *pattern,
		     const char *cmd, const char *answer)
{
	char *sub, *path, extra[64] = "";
	FILE *fp;

	f->dir = tt_tmpdir();
	sub = tt_path(f->dir, "ftguard");
	assert_int_equal(mkdir(sub, 0700), 0);
	if (records)
		snprintf(extra, sizeof(extra), "vmlinux_records %u\n", records);
	path = tt_path(sub, "status");
	copy_file(FIXTURE("amd64", "debug/ftguard/status"), path, extra);
	free(path);
	path = tt_path(sub, "sites");
	copy_file(FIXTURE("amd64", "debug/ftguard/sites"), path, "");
	free(path);
	f->control = tt_path(sub, "control");
	fp = fopen(f->control, "w");
	assert_non_null(fp);
	if (cmd)
		fprintf(fp, "%*s%s", (int)strlen(cmd), "", answer);
	else
		fputs("untouched\n", fp);
	fclose(fp);
	free(sub);
	f->sel = ftg_selection_new();
	assert_non_null(f->sel);
	assert_int_equal(ftg_selection_add(f->sel, pattern), 0);
	f->sess = NULL;
}

/* The session, over @proc and @tracefs (NULL: none) and the scratch debugfs. */
static struct ftg_session *fix_open(struct fix *f, const char *proc, const char *tracefs)
{
	f->sess = ftg_session_open(test_root(proc, NULL, f->dir, tracefs));
	assert_non_null(f->sess);
	return f->sess;
}

static void fix_release(struct fix *f)
{
	ftg_session_close(f->sess);
	ftg_selection_free(f->sel);
	free(f->control);
	tt_rmdir(f->dir);
}

/* What the library wrote to the control file: its first line. */
static const char *first_line(const struct fix *f)
{
	static char line[256];
	FILE *fp = fopen(f->control, "r");

	assert_non_null(fp);
	if (!fgets(line, sizeof(line), fp))
		line[0] = '\0';
	fclose(fp);
	return line;
}

/* A macro, so that a failure names the test's line. */
#define assert_sent(f, cmd)	assert_string_equal(first_line(f), (cmd))

static void test_open_without_module(void **state)
{
	const struct ftg_root *empty = test_root(NULL, NULL, PROC, NULL);

	(void)state;
	assert_null(ftg_session_open(empty));
	assert_int_equal(ftg_error_code(), FTG_E_NO_MODULE);
}

/* A selection of module functions asks the module for their sites: no
 * kallsyms, no function list, nothing to admit. */
static void test_modules_over_their_sites(void **state)
{
	static const char cmd[] = "sites target\n";
	struct ftg_candidates *cand;
	struct fix f;

	(void)state;
	fix_init(&f, 0, "target:fn_*", cmd,
		 "ftguard-sites 2\n"
		 "0xffffffffc0b00004 ok core target 0 0 fn_a 4 f30f1efa:0f1f440000 -\n"
		 "0xffffffffc0b00024 ok core target 0 0 fn_b 4 f30f1efa:0f1f440000 -\n");
	cand = ftg_session_resolve(fix_open(&f, NULL, NULL), f.sel, 0);
	assert_non_null(cand);
	assert_int_equal(ftg_session_how(f.sess), FTG_SESSION_MODULES);
	assert_sent(&f, cmd);
	/* the module's answer, not the whole table (fn_a at ...c0b00000) */
	assert_true(ftg_candidates_get(cand, 0)->addr == 0xffffffffc0b00004ULL);
	ftg_candidates_free(cand);
	fix_release(&f);
}

/* Once the module holds a site for every core record, any selection
 * resolves over its site table (no kallsyms, no function list here), and
 * sends nothing. */
static void test_knows_all_over_site_table(void **state)
{
	struct ftg_candidates *cand;
	struct fix f;

	(void)state;
	fix_init(&f, 4, "vfs_*", NULL, NULL);
	cand = ftg_session_resolve(fix_open(&f, NULL, NULL), f.sel, 0);
	assert_non_null(cand);
	assert_int_equal(ftg_session_how(f.sess), FTG_SESSION_KNOWS_ALL);
	assert_true(ftg_session_vmlinux_records(f.sess) == 4);
	assert_sent(&f, "untouched\n");
	ftg_candidates_free(cand);
	fix_release(&f);
}

/* One core record more than the module's sites: the kernel's lists. */
static void test_knows_all_needs_every_record(void **state)
{
	struct fix f;

	(void)state;
	fix_init(&f, 5, "vfs_*", NULL, NULL);
	assert_null(ftg_session_resolve(fix_open(&f, NULL, NULL), f.sel, 0));
	assert_int_equal(ftg_session_how(f.sess) & FTG_SESSION_KNOWS_ALL, 0);
	assert_int_equal(ftg_session_step(f.sess), FTG_SESSION_STEP_KALLSYMS);
	fix_release(&f);
}

/*
 * Over the kernel's lists the core record count is left with the module:
 * six core records, the weak functions' placeholders not among them. An
 * older module that keeps no count says why, and the selection goes on.
 */
static void test_lists_leave_the_count(void **state)
{
	static const char cmd[] = "vmlinux-records 6\n";
	static const struct {
		const char *answer;
		unsigned int how;
		const char *refusal;
	} cases[] = {
		{ "ok\n", FTG_SESSION_LISTS, NULL },
		{ "error EINVAL unknown command\n", FTG_SESSION_LISTS | FTG_SESSION_NO_COUNT,
		  "unknown command" },
	};
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct ftg_candidates *cand;
		struct fix f;

		fix_init(&f, 0, "vfs_*", cmd, cases[i].answer);
		cand = ftg_session_resolve(fix_open(&f, PROC, TRACING), f.sel, 0);
		assert_non_null(cand);
		assert_int_equal(ftg_session_how(f.sess), cases[i].how);
		if (cases[i].refusal)
			assert_contains(ftg_session_records_refusal(f.sess), cases[i].refusal);
		else
			assert_null(ftg_session_records_refusal(f.sess));
		assert_sent(&f, cmd);
		ftg_candidates_free(cand);
		fix_release(&f);
	}
}

static int kallsyms_calls;

static const struct ftg_kallsyms *given_kallsyms(void *data)
{
	kallsyms_calls++;
	return data;
}

/* The caller's kallsyms stand in for a read of the session's own, once;
 * without them the call fails at that step. No procfs of its own: only
 * the caller's symbols will do. */
static void test_given_kallsyms(void **state)
{
	struct ftg_kallsyms *ks = ftg_kallsyms_read(fixture_root("amd64"));
	struct ftg_candidates *cand;
	struct fix f;

	(void)state;
	assert_non_null(ks);
	fix_init(&f, 0, "vfs_read", NULL, NULL);
	kallsyms_calls = 0;
	ftg_session_set_kallsyms(fix_open(&f, NULL, TRACING), given_kallsyms, ks);
	cand = ftg_session_resolve(f.sess, f.sel, FTG_SESSION_FROM_LISTS);
	assert_non_null(cand);
	ftg_candidates_free(cand);
	ftg_candidates_free(ftg_session_resolve(f.sess, f.sel, FTG_SESSION_FROM_LISTS));
	assert_int_equal(kallsyms_calls, 1);
	fix_release(&f);
	ftg_kallsyms_free(ks);

	fix_init(&f, 0, "vfs_read", NULL, NULL);
	ftg_session_set_kallsyms(fix_open(&f, NULL, TRACING), given_kallsyms, NULL);
	ftg_candidates_free(ftg_session_resolve(f.sess, f.sel, FTG_SESSION_FROM_LISTS));
	assert_int_equal(ftg_session_step(f.sess), FTG_SESSION_STEP_KALLSYMS);
	fix_release(&f);
}

/* Where a failed call stopped, with the library's error (a step is set
 * only by a failure). */
static void test_steps(void **state)
{
	struct fix f;

	(void)state;
	fix_init(&f, 4, "no_such_fn", NULL, NULL);
	ftg_candidates_free(ftg_session_resolve(fix_open(&f, NULL, NULL), f.sel, 0));
	assert_int_equal(ftg_session_step(f.sess), FTG_SESSION_STEP_RESOLVE);
	assert_int_equal(ftg_error_code(), FTG_E_NO_MATCH);
	assert_contains(ftg_error_last(), "no_such_fn");
	/* the kernel's lists asked for, and no kallsyms to read */
	ftg_candidates_free(ftg_session_resolve(f.sess, f.sel, FTG_SESSION_FROM_LISTS));
	assert_int_equal(ftg_session_step(f.sess), FTG_SESSION_STEP_KALLSYMS);
	fix_release(&f);

	/* symbols but no function list */
	fix_init(&f, 0, "vfs_read", NULL, NULL);
	ftg_candidates_free(ftg_session_resolve(fix_open(&f, PROC, NULL), f.sel,
						FTG_SESSION_FROM_LISTS));
	assert_int_equal(ftg_session_step(f.sess), FTG_SESSION_STEP_FUNCTIONS);
	fix_release(&f);
}

/* -l '*' alone, once the module knows every function: one command. */
static void test_select_everything(void **state)
{
	struct fix f;
	size_t n = 0;

	(void)state;
	fix_init(&f, 4, "*", "select-all\n", "ok 9\n");
	assert_int_equal(ftg_session_select(fix_open(&f, NULL, NULL), f.sel, 0, &n), 0);
	assert_int_equal(ftg_session_how(f.sess), FTG_SESSION_KNOWS_ALL | FTG_SESSION_ALL);
	assert_int_equal(n, 9);	/* the module's count, from its answer */
	fix_release(&f);
}

/* A NAME@ADDR pin of a site the module holds is selected by address, and
 * nothing else is resolved (no kallsyms, no function list here). */
static void test_select_pin(void **state)
{
	static const char cmd[] = "select 0xffffffffc0b05000\n";
	struct fix f;
	size_t n = 0;
	int ret;

	(void)state;
	fix_init(&f, 0, "target:target*@0xffffffffc0b05000", cmd, "ok\n");
	ret = ftg_session_select(fix_open(&f, NULL, NULL), f.sel, 0, &n);
	assert_sent(&f, cmd);
	assert_int_equal(ret, 0);
	assert_int_equal(n, 1);
	assert_int_equal(ftg_session_how(f.sess), 0);
	fix_release(&f);
}

/* A part of a long list: only candidates [from, from + n) are offered. */
static void test_admit_some(void **state)
{
	static const char cmd[] = "admit fn_b 0xffffffff81002000\n";
	struct ftg_candidates *cand = ftg_candidates_new(), *refused = ftg_candidates_new();
	struct fix f;

	(void)state;
	/* names of one length: an offer of the wrong one reads the answer too */
	ftg_candidates_add(cand, "fn_a", 0xffffffff81001000ULL, NULL);
	ftg_candidates_add(cand, "fn_b", 0xffffffff81002000ULL, NULL);
	ftg_candidates_add(cand, "fn_c", 0xffffffff81003000ULL, NULL);
	fix_init(&f, 0, "fn_*", cmd, "ok\n");
	assert_int_equal(ftg_session_admit_some(fix_open(&f, NULL, NULL), cand, 1, 1,
						refused), 1);
	assert_sent(&f, cmd);
	fix_release(&f);
	ftg_candidates_free(refused);
	ftg_candidates_free(cand);
}

/* Every candidate refused: no site to select, and the call says so. */
static void test_all_refused(void **state)
{
	const struct ftg_candidates *refused;
	size_t offered = 0, n = 7;
	struct fix f;

	(void)state;
	fix_init(&f, 0, "vfs_read", "admit vfs_read 0xffffffff81003000\n",
		 "error EINVAL admit: no ftrace record at vfs_read\n");
	assert_int_equal(ftg_session_select(fix_open(&f, PROC, TRACING), f.sel,
					    FTG_SESSION_FROM_LISTS, &n), -1);
	assert_int_equal(ftg_session_step(f.sess), FTG_SESSION_STEP_REFUSED);
	assert_int_equal(ftg_error_code(), FTG_E_MODULE_REFUSED);
	assert_int_equal(n, 0);
	refused = ftg_session_refused(f.sess, &offered);
	assert_non_null(refused);
	assert_int_equal(offered, 1);
	fix_release(&f);
}

/* What the library wrote to the control file, whole. */
static char *control_text(const struct fix *f)
{
	static char text[4096];
	FILE *fp = fopen(f->control, "r");
	size_t n;

	assert_non_null(fp);
	n = fread(text, 1, sizeof(text) - 1, fp);
	text[n] = '\0';
	fclose(fp);
	return text;
}

/*
 * An admission offers a part per step; a refused function's reason is
 * asked again alone, once; what was not refused is the sites.
 */
static void test_admission(void **state)
{
	static const char cmd[] = "admit vfs_read 0xffffffff81003000\n";
	struct ftg_arm_request *req = ftg_arm_request_new();
	struct ftg_admission *adm;
	const uint64_t *sites;
	const char *reason;
	size_t n = 7;
	struct fix f;

	(void)state;
	assert_non_null(req);
	assert_int_equal(ftg_arm_request_add_words(req, "vfs_read", FTG_ARM_FUNCTIONS,
						   FTG_ARM_FUNCTIONS), 0);
	fix_init(&f, 0, "vfs_read", cmd, "error EINVAL admit: no ftrace record at vfs_read\n");
	adm = ftg_session_admission(fix_open(&f, PROC, TRACING), req);
	assert_non_null(adm);
	assert_int_equal(ftg_admission_total(adm), 1);
	assert_int_equal(ftg_admission_offered(adm), 0);
	assert_string_equal(control_text(&f) + strlen(cmd),
			    "error EINVAL admit: no ftrace record at vfs_read\n");
	assert_int_equal(ftg_admission_step(adm, 256), 0);
	assert_sent(&f, cmd);
	assert_int_equal(ftg_admission_offered(adm), 1);
	assert_int_equal(ftg_candidates_count(ftg_admission_refused(adm)), 1);
	sites = ftg_admission_sites(adm, &n);
	assert_non_null(sites);
	assert_int_equal(n, 0);
	/* asked once (the fixture answers one command: the module's words on
	 * the second offer are the VM test tui-add's), then kept */
	reason = ftg_admission_reason(adm, 0);
	assert_non_null(reason);
	assert_ptr_equal(ftg_admission_reason(adm, 0), reason);
	assert_null(ftg_admission_reason(adm, 1));
	assert_int_equal(ftg_error_code(), FTG_E_BAD_ARGUMENT);
	/* all offered: a step more offers nothing */
	assert_int_equal(ftg_admission_step(adm, 256), 0);
	ftg_admission_free(adm);
	fix_release(&f);

	fix_init(&f, 0, "vfs_read", cmd, "ok\n");
	adm = ftg_session_admission(fix_open(&f, PROC, TRACING), req);
	assert_non_null(adm);
	assert_int_equal(ftg_admission_step(adm, 1), 0);
	assert_int_equal(ftg_candidates_count(ftg_admission_refused(adm)), 0);
	sites = ftg_admission_sites(adm, &n);
	assert_int_equal(n, 1);
	assert_true(sites[0] == 0xffffffff81003000ULL);
	ftg_admission_free(adm);

	/* no roots, nothing a request's fault makes of it */
	assert_int_equal(ftg_arm_request_add(req, FTG_ARM_ROOTS, "vfs_read"), 0);
	assert_null(ftg_session_admission(f.sess, req));
	assert_int_equal(ftg_error_code(), FTG_E_BAD_ARGUMENT);
	ftg_arm_request_free(req);
	req = ftg_arm_request_new();
	assert_int_equal(ftg_arm_request_add_words(req, "vfs_read depth=2",
						   FTG_ARM_FUNCTIONS, FTG_ARM_FUNCTIONS), 0);
	assert_null(ftg_session_admission(f.sess, req));
	assert_contains(ftg_error_last(), "depth");
	ftg_arm_request_free(req);
	fix_release(&f);
}

/*
 * What goes together: a tree records returns, a depth needs a tree,
 * exclusions need something to leave out of; the patterns stay as added.
 */
static void test_arm_request_faults(void **state)
{
	struct ftg_arm_request *req = ftg_arm_request_new();

	(void)state;
	assert_non_null(req);
	assert_int_equal(ftg_arm_request_fault(req), FTG_ARM_REQUEST_EMPTY);
	assert_int_equal(ftg_arm_request_add(req, FTG_ARM_EXCLUDE, "fn_b"), 0);
	assert_int_equal(ftg_arm_request_fault(req), FTG_ARM_REQUEST_ONLY_EXCLUSIONS);
	assert_int_equal(ftg_arm_request_set_max_depth(req, 2), 0);
	assert_int_equal(ftg_arm_request_fault(req), FTG_ARM_REQUEST_DEPTH_WITHOUT_TREE);
	assert_int_equal(ftg_error_code(), FTG_E_BAD_ARGUMENT);
	assert_int_equal(ftg_arm_request_add(req, FTG_ARM_ROOTS, "vfs_read"), 0);
	assert_int_equal(ftg_arm_request_add(req, FTG_ARM_ROOTS, "vfs_write"), 0);
	assert_int_equal(ftg_arm_request_fault(req), FTG_ARM_REQUEST_OK);
	ftg_arm_request_set_tracer(req, FTG_TRACER_FUNCTION);
	assert_int_equal(ftg_arm_request_fault(req), FTG_ARM_REQUEST_TREE_WITHOUT_RETURNS);
	ftg_arm_request_set_tracer(req, FTG_TRACER_FUNCTION_GRAPH);
	assert_int_equal(ftg_arm_request_fault(req), FTG_ARM_REQUEST_OK);

	assert_int_equal(ftg_arm_request_count(req, FTG_ARM_ROOTS), 2);
	assert_int_equal(ftg_arm_request_count(req, FTG_ARM_EXCLUDE), 1);
	assert_int_equal(ftg_arm_request_count(req, FTG_ARM_FUNCTIONS), 0);
	assert_string_equal(ftg_arm_request_pattern(req, FTG_ARM_ROOTS, 0), "vfs_read");
	assert_string_equal(ftg_arm_request_pattern(req, FTG_ARM_ROOTS, 1), "vfs_write");
	assert_string_equal(ftg_arm_request_pattern(req, FTG_ARM_EXCLUDE, 0), "fn_b");
	assert_null(ftg_arm_request_pattern(req, FTG_ARM_ROOTS, 2));
	assert_null(ftg_arm_request_pattern(req, FTG_ARM_MODULE, 0));
	/* a refused pattern is not kept */
	assert_int_equal(ftg_arm_request_add(req, FTG_ARM_FUNCTIONS, "fn_[a"), -1);
	assert_int_equal(ftg_arm_request_count(req, FTG_ARM_FUNCTIONS), 0);
	ftg_arm_request_free(req);
}

/* A prompt's words: the first pattern of its kind, "!GLOB", "depth=N". */
static void test_arm_request_words(void **state)
{
	static const char *const bad[] = {
		"depth=x", "depth=", "depth=1001", "depth=4294967296",
		"depth=18446744073709551616", "depth=-1", "fn_[",
	};
	struct ftg_arm_request *req = ftg_arm_request_new();
	size_t i;

	(void)state;
	assert_non_null(req);
	assert_int_equal(ftg_arm_request_add_words(req, "  \t ", FTG_ARM_ROOTS,
						   FTG_ARM_FUNCTIONS), 0);
	assert_int_equal(ftg_arm_request_fault(req), FTG_ARM_REQUEST_EMPTY);
	assert_int_equal(ftg_arm_request_add_words(req, " vfs_read\tfn_a !fn_b "
						   "depth=1000 ftg_target:fn_c",
						   FTG_ARM_ROOTS, FTG_ARM_FUNCTIONS), 0);
	assert_int_equal(ftg_arm_request_count(req, FTG_ARM_ROOTS), 1);
	assert_string_equal(ftg_arm_request_pattern(req, FTG_ARM_ROOTS, 0), "vfs_read");
	assert_int_equal(ftg_arm_request_count(req, FTG_ARM_FUNCTIONS), 2);
	assert_string_equal(ftg_arm_request_pattern(req, FTG_ARM_FUNCTIONS, 0), "fn_a");
	assert_string_equal(ftg_arm_request_pattern(req, FTG_ARM_FUNCTIONS, 1),
			    "ftg_target:fn_c");
	assert_string_equal(ftg_arm_request_pattern(req, FTG_ARM_EXCLUDE, 0), "fn_b");
	assert_int_equal(ftg_arm_request_fault(req), FTG_ARM_REQUEST_OK);
	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		assert_int_equal(ftg_arm_request_add_words(req, bad[i], FTG_ARM_FUNCTIONS,
							   FTG_ARM_FUNCTIONS), -1);
		assert_int_equal(errno, EINVAL);
		assert_non_null(strstr(ftg_error_last(), bad[i]));
	}
	assert_int_equal(ftg_arm_request_count(req, FTG_ARM_FUNCTIONS), 2);
	ftg_arm_request_free(req);

	/* a depth alone is no tree */
	req = ftg_arm_request_new();
	assert_non_null(req);
	assert_int_equal(ftg_arm_request_add_words(req, "fn_a depth=2", FTG_ARM_FUNCTIONS,
						   FTG_ARM_FUNCTIONS), 0);
	assert_int_equal(ftg_arm_request_fault(req), FTG_ARM_REQUEST_DEPTH_WITHOUT_TREE);
	ftg_arm_request_free(req);
}

/*
 * A request with a fault (nothing selected, a depth without a tree) arms
 * nothing and stops before the session sends anything.
 */
static void test_arm_request_fault_stops(void **state)
{
	static const struct {
		const char *words;
		const char *reason;
	} faulty[] = {
		{ "", "nothing selected" },
		{ "vfs_read depth=3", "a depth limits a call tree: the request has no root" },
	};
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(faulty) / sizeof(faulty[0]); i++) {
		struct ftg_arm_request *req = ftg_arm_request_new();
		struct ftg_arm_outcome *out = NULL;
		const char *reason;
		struct fix f;

		assert_non_null(req);
		assert_int_equal(ftg_arm_request_add_words(req, faulty[i].words,
							   FTG_ARM_FUNCTIONS,
							   FTG_ARM_FUNCTIONS), 0);
		fix_init(&f, 0, "vfs_read", NULL, NULL);
		assert_int_equal(ftg_session_arm(fix_open(&f, NULL, NULL), req, &out), -1);
		assert_non_null(out);
		assert_int_equal(ftg_arm_outcome_stage(out), FTG_ARM_STAGE_REQUEST);
		assert_int_equal(ftg_arm_outcome_error(out, &reason), EINVAL);
		assert_string_equal(reason, faulty[i].reason);
		assert_null(ftg_arm_outcome_verdict(out));
		assert_string_equal(control_text(&f), "untouched\n");
		ftg_arm_outcome_free(out);
		ftg_arm_request_free(req);
		fix_release(&f);
	}
}

/* A malformed pattern is refused as it is added, whatever its kind. */
static void test_arm_request_bad_pattern(void **state)
{
	static const enum ftg_arm_pattern kinds[] = {
		FTG_ARM_FUNCTIONS, FTG_ARM_EXCLUDE, FTG_ARM_ROOTS,
	};
	struct ftg_arm_request *req = ftg_arm_request_new();
	size_t i;

	(void)state;
	assert_non_null(req);
	for (i = 0; i < sizeof(kinds) / sizeof(kinds[0]); i++) {
		assert_int_equal(ftg_arm_request_add(req, kinds[i], "fn_[a"), -1);
		assert_int_equal(ftg_error_code(), FTG_E_BAD_PATTERN);
		assert_int_equal(ftg_arm_request_add(req, kinds[i], "fn_a"), 0);
	}
	assert_int_equal(ftg_arm_request_add(req, FTG_ARM_MODULE, ""), -1);
	ftg_arm_request_free(req);
}

/* A tree's depth: 0 (all) to the protocol's limit, which the module holds too. */
static void test_arm_request_depth_limit(void **state)
{
	struct ftg_arm_request *req = ftg_arm_request_new();

	(void)state;
	assert_non_null(req);
	assert_int_equal(ftg_arm_request_set_max_depth(req, 0), 0);
	assert_int_equal(ftg_arm_request_set_max_depth(req, FTG_GRAPH_DEPTH_MAX), 0);
	assert_int_equal(ftg_arm_request_set_max_depth(req, FTG_GRAPH_DEPTH_MAX + 1), -1);
	assert_int_equal(errno, EINVAL);
	assert_int_equal(ftg_error_code(), FTG_E_BAD_ARGUMENT);
	assert_contains(ftg_error_last(), "0 (all) to 1000");
	ftg_arm_request_free(req);
}

/*
 * An arm whose selection fails stops there, saying where: no check and
 * no arm reach the module.
 */
static void test_arm_stops_at_select(void **state)
{
	static const char cmd[] = "sites target\n";
	struct ftg_arm_request *req = ftg_arm_request_new();
	struct ftg_arm_outcome *out = NULL;
	struct fix f;

	(void)state;
	assert_non_null(req);
	assert_int_equal(ftg_arm_request_add(req, FTG_ARM_FUNCTIONS, "target:fn_*"), 0);
	ftg_arm_request_set_flags(req, FTG_ARM_PERSISTENT);
	fix_init(&f, 0, "target:fn_*", cmd, "error ENOENT no module target\n");
	assert_int_equal(ftg_session_arm(fix_open(&f, NULL, NULL), req, &out), -1);
	assert_int_equal(ftg_arm_outcome_stage(out), FTG_ARM_STAGE_SELECT);
	assert_int_equal(ftg_session_step(f.sess), FTG_SESSION_STEP_MODULE_SITES);
	assert_int_equal(ftg_arm_outcome_selected(out), 0);
	assert_int_equal(ftg_arm_outcome_checked(out), 0);
	assert_sent(&f, cmd);
	assert_null(strstr(control_text(&f), "check"));
	assert_null(strstr(control_text(&f), "arm"));
	ftg_arm_outcome_free(out);
	ftg_arm_request_free(req);
	fix_release(&f);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_open_without_module),
		cmocka_unit_test(test_modules_over_their_sites),
		cmocka_unit_test(test_knows_all_over_site_table),
		cmocka_unit_test(test_knows_all_needs_every_record),
		cmocka_unit_test(test_lists_leave_the_count),
		cmocka_unit_test(test_given_kallsyms),
		cmocka_unit_test(test_steps),
		cmocka_unit_test(test_select_everything),
		cmocka_unit_test(test_select_pin),
		cmocka_unit_test(test_admit_some),
		cmocka_unit_test(test_all_refused),
		cmocka_unit_test(test_arm_request_faults),
		cmocka_unit_test(test_arm_request_fault_stops),
		cmocka_unit_test(test_arm_request_words),
		cmocka_unit_test(test_admission),
		cmocka_unit_test(test_arm_request_bad_pattern),
		cmocka_unit_test(test_arm_request_depth_limit),
		cmocka_unit_test(test_arm_stops_at_select),
	};

	return cmocka_run_group_tests_name("session", tests, NULL, NULL);
}
