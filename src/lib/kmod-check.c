// SPDX-License-Identifier: LGPL-2.1
/*
 * ftguard/check and the control response to check/arm (doc/interface.md):
 * a result line, then one line per reported site.
 */
#include <errno.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ftguard-local.h"
#include "kmod-local.h"

#define VERDICT_WORD(id, word)	[FTG_VERDICT_##id] = word,
static const char *const verdict_names[] = { FTGUARD_VERDICTS(VERDICT_WORD) };
#undef VERDICT_WORD
_Static_assert(FTGL_ARRAY_SIZE(verdict_names) == FTG_VERDICT_MISMATCH + 1,
	       "one verdict word per verdict kind");

const char *ftg_verdict_kind_name(enum ftg_verdict_kind kind)
{
	if ((unsigned int)kind >= FTGL_ARRAY_SIZE(verdict_names))
		return "?";
	return verdict_names[kind];
}

/* A hex byte string as the check table prints it, or "-". */
struct ftg_check_report {
	bool checked;		/* false: "result never" */
	bool ok;
	uint64_t n_ok;
	uint64_t n_bad;
	uint64_t ms;
	struct ftgl_vec lines;	/* struct ftg_check_line */
	struct ftgl_pool pool;
	const char *what;	/* while parsing: the source, for messages */
	bool have_result;	/* while parsing: the result line was read */
};

static int parse_result(struct ftg_check_report *rep, const char *what,
			char *line, unsigned long lineno)
{
	char *w[6];
	int n = line ? ftgl_split(line, w, 6) : 0;

	rep->have_result = true;
	if (n == 2 && !strcmp(w[0], "result") &&
	    !strcmp(w[1], FTGUARD_RESULT_NEVER))
		return 0;	/* no check yet: not ok, nothing counted */
	if (n != 5 || strcmp(w[0], "result") ||
	    (strcmp(w[1], FTGUARD_RESULT_OK) &&
	     strcmp(w[1], FTGUARD_RESULT_FAIL)) ||
	    ftgl_parse_u64(w[2], &rep->n_ok) || ftgl_parse_u64(w[3], &rep->n_bad) ||
	    ftgl_parse_u64(w[4], &rep->ms))
		return ftgl_bad_line(what, lineno,
				"expected \"result ok|fail <n_ok> <n_bad> <ms>\"");
	rep->checked = true;
	rep->ok = !strcmp(w[1], FTGUARD_RESULT_OK);
	return 0;
}

static int parse_check_line(struct ftg_check_report *rep, const char *what,
			    char *line, unsigned long lineno)
{
	struct ftg_check_line *cl;
	char *w[7];
	int verdict;
	uint64_t addr;

	if (ftgl_split(line, w, 7) != 6)
		return ftgl_bad_line(what, lineno, "expected 6 fields");
	verdict = ftgl_name_index(verdict_names, FTGL_ARRAY_SIZE(verdict_names), w[1]);
	if (ftgl_parse_hex(w[0], &addr))
		return ftgl_bad_line(what, lineno, "malformed address");
	if (verdict < 0)
		return ftgl_bad_line(what, lineno, "unknown verdict");
	if (!ftgl_valid_bytes(w[3]) || !ftgl_valid_bytes(w[4]))
		return ftgl_bad_line(what, lineno, "malformed bytes");
	cl = ftgl_vec_push(&rep->lines);
	if (!cl)
		return -1;
	cl->addr = addr;
	cl->verdict = verdict;
	cl->expected = ftgl_pool_strdup(&rep->pool, w[3]);
	cl->actual = ftgl_pool_strdup(&rep->pool, w[4]);
	cl->owner = ftgl_pool_name(&rep->pool, w[2], what, lineno);
	cl->name = cl->owner ? ftgl_pool_name(&rep->pool, w[5], what, lineno) : NULL;
	return cl->name && cl->expected && cl->actual ? 0 : -1;
}

/* The result line first, then one line per site. */
static int parse_report_line(void *obj, char *line, unsigned long lineno,
			     unsigned int version)
{
	struct ftg_check_report *rep = obj;

	if (!rep->have_result)
		return parse_result(rep, rep->what, line, lineno);
	return parse_check_line(rep, rep->what, line, lineno);
}

static struct ftg_check_report *report_new(const char *what)
{
	struct ftg_check_report *rep = calloc(1, sizeof(*rep));

	if (!rep) {
		ftgl_err(FTG_E_SYSTEM, ENOMEM, "out of memory");
		return NULL;
	}
	ftgl_vec_init(&rep->lines, sizeof(struct ftg_check_line));
	rep->what = what;
	return rep;
}

/* After the table frame returned @ret: the report, or freed (also when
 * the table ended before its result line). */
static struct ftg_check_report *report_done(struct ftg_check_report *rep, int ret)
{
	if (!ret && !rep->have_result)
		ret = parse_result(rep, rep->what, NULL, 2);
	rep->what = NULL;
	if (!ret)
		return rep;
	ftg_check_report_free(rep);
	return NULL;
}

struct ftg_check_report *ftgl_check_report_parse(const char *what,
						 const char *text, size_t len)
{
	struct ftg_check_report *rep = report_new(what);

	if (!rep)
		return NULL;
	return report_done(rep, ftgl_kmod_table_parse(FTGUARD_TABLE_CHECK, what, text, len,
						      parse_report_line, rep));
}

struct ftg_check_report *ftgl_check_report_copy(const struct ftg_check_report *rep)
{
	struct ftg_check_report *copy = calloc(1, sizeof(*copy));
	size_t i;

	if (!copy) {
		ftgl_err(FTG_E_SYSTEM, ENOMEM, "out of memory");
		return NULL;
	}
	copy->checked = rep->checked;
	copy->ok = rep->ok;
	copy->n_ok = rep->n_ok;
	copy->n_bad = rep->n_bad;
	copy->ms = rep->ms;
	ftgl_vec_init(&copy->lines, sizeof(struct ftg_check_line));
	for (i = 0; i < rep->lines.len; i++) {
		const struct ftg_check_line *src = ftgl_vec_at(&rep->lines, i);
		struct ftg_check_line *dst = ftgl_vec_push(&copy->lines);

		if (!dst)
			goto fail;
		*dst = *src;
		dst->owner = ftgl_pool_strdup(&copy->pool, src->owner);
		dst->name = ftgl_pool_strdup(&copy->pool, src->name);
		dst->expected = ftgl_pool_strdup(&copy->pool, src->expected);
		dst->actual = ftgl_pool_strdup(&copy->pool, src->actual);
		if (!dst->owner || !dst->name || !dst->expected || !dst->actual)
			goto fail;
	}
	return copy;
fail:
	ftg_check_report_free(copy);
	return NULL;
}

struct ftg_check_report *ftg_check_report_parse(const char *text, size_t len)
{
	ftg_error_clear();
	return ftgl_check_report_parse("check", text, len);
}

struct ftg_check_report *ftgl_check_report_read(const char *debugfs_dir)
{
	struct ftg_check_report *rep;

	ftg_error_clear();
	rep = report_new("check");
	if (!rep)
		return NULL;
	return report_done(rep, ftgl_kmod_table_read(debugfs_dir, FTGUARD_TABLE_CHECK,
						     parse_report_line, rep));
}

struct ftg_check_report *ftg_check_report_read(const struct ftg_root *root)
{
	return ftgl_check_report_read(ftg_root_debugfs(root));
}

void ftg_check_report_free(struct ftg_check_report *rep)
{
	if (!rep)
		return;
	ftgl_vec_release(&rep->lines);
	ftgl_pool_release(&rep->pool);
	free(rep);
}

bool ftg_check_report_ok(const struct ftg_check_report *rep)
{
	return rep->ok;
}

bool ftg_check_report_checked(const struct ftg_check_report *rep)
{
	return rep->checked;
}

uint64_t ftg_check_report_n_ok(const struct ftg_check_report *rep)
{
	return rep->n_ok;
}

uint64_t ftg_check_report_n_bad(const struct ftg_check_report *rep)
{
	return rep->n_bad;
}

uint64_t ftg_check_report_ms(const struct ftg_check_report *rep)
{
	return rep->ms;
}

size_t ftg_check_report_count(const struct ftg_check_report *rep)
{
	return rep->lines.len;
}

const struct ftg_check_line *ftg_check_report_get(const struct ftg_check_report *rep,
						  size_t i)
{
	return ftgl_vec_at(&rep->lines, i);
}
