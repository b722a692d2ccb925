// SPDX-License-Identifier: GPL-2.0
/*
 * A small streaming JSON writer for --json output: compact, one document
 * per command, commas and nesting tracked here so callers cannot get them
 * wrong.
 */
#include <stdlib.h>

#include "cmd/ftguard-cmd.h"

#define FTG_JSON_DEPTH 16

struct ftg_json {
	FILE *f;
	int depth;
	bool need_comma[FTG_JSON_DEPTH];
	bool in_object[FTG_JSON_DEPTH];
};

struct ftg_json *ftg_json_new(FILE *f)
{
	struct ftg_json *j = calloc(1, sizeof(*j));

	if (j)
		j->f = f;
	return j;
}

void ftg_json_free(struct ftg_json *j)
{
	if (!j)
		return;
	fputc('\n', j->f);
	free(j);
}

/* The library's escaper: plain ASCII, the same as the exports. */
void ftg_json_escape(FILE *f, const char *s)
{
	ftg_fputs_json(f, s);
}

/* Comma and key before a value; @key is ignored inside arrays. */
static void value_prefix(struct ftg_json *j, const char *key)
{
	if (j->need_comma[j->depth])
		fputc(',', j->f);
	j->need_comma[j->depth] = true;
	if (j->depth > 0 && j->in_object[j->depth] && key) {
		ftg_json_escape(j->f, key);
		fputc(':', j->f);
	}
}

static void open_container(struct ftg_json *j, const char *key, bool object)
{
	value_prefix(j, key);
	fputc(object ? '{' : '[', j->f);
	if (j->depth + 1 < FTG_JSON_DEPTH)
		j->depth++;
	j->need_comma[j->depth] = false;
	j->in_object[j->depth] = object;
}

static void close_container(struct ftg_json *j, bool object)
{
	fputc(object ? '}' : ']', j->f);
	if (j->depth > 0)
		j->depth--;
}

void ftg_json_object_begin(struct ftg_json *j, const char *key)
{
	open_container(j, key, true);
}

void ftg_json_object_end(struct ftg_json *j)
{
	close_container(j, true);
}

void ftg_json_array_begin(struct ftg_json *j, const char *key)
{
	open_container(j, key, false);
}

void ftg_json_array_end(struct ftg_json *j)
{
	close_container(j, false);
}

void ftg_json_string(struct ftg_json *j, const char *key, const char *val)
{
	value_prefix(j, key);
	if (val)
		ftg_json_escape(j->f, val);
	else
		fputs("null", j->f);
}

void ftg_json_int(struct ftg_json *j, const char *key, long long val)
{
	value_prefix(j, key);
	fprintf(j->f, "%lld", val);
}

void ftg_json_uint(struct ftg_json *j, const char *key, unsigned long long val)
{
	value_prefix(j, key);
	fprintf(j->f, "%llu", val);
}

/* Addresses as "0x..." strings: JSON numbers lose precision above 2^53. */
void ftg_json_hex(struct ftg_json *j, const char *key, unsigned long long val)
{
	value_prefix(j, key);
	fprintf(j->f, "\"0x%llx\"", val);
}

void ftg_json_bool(struct ftg_json *j, const char *key, bool val)
{
	value_prefix(j, key);
	fputs(val ? "true" : "false", j->f);
}

void ftg_json_null(struct ftg_json *j, const char *key)
{
	value_prefix(j, key);
	fputs("null", j->f);
}
