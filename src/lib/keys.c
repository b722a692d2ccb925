// SPDX-License-Identifier: LGPL-2.1
/*
 * Keyed views, for what grows: every "key value" line of ftguard.ko's
 * status as the module wrote it (struct ftg_status holds the keys this
 * library knew when it was built; a newer module's keys still show), and
 * the settings of ftguard's trace instance (buffer, clock, events and
 * their filters), read through libtracefs.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <tracefs.h>

#include "ftguard-local.h"
#include "kmod-local.h"


struct ftg_keys {
	size_t n, cap;
	char **names;
	char **values;
};

static struct ftg_keys *keys_new(void)
{
	struct ftg_keys *k = calloc(1, sizeof(*k));

	if (!k)
		ftgl_err(FTG_E_SYSTEM, ENOMEM, "out of memory");
	return k;
}

static int keys_add(struct ftg_keys *k, const char *name, const char *value)
{
	char **names, **values;

	if (k->n == k->cap) {
		size_t cap = k->cap ? 2 * k->cap : 32;

		names = realloc(k->names, cap * sizeof(*names));
		if (names)
			k->names = names;
		values = names ? realloc(k->values, cap * sizeof(*values)) : NULL;
		if (!values)
			return ftgl_err(FTG_E_SYSTEM, ENOMEM, "out of memory");
		k->values = values;
		k->cap = cap;
	}
	k->names[k->n] = strdup(name);
	k->values[k->n] = strdup(value);
	if (!k->names[k->n] || !k->values[k->n]) {
		free(k->names[k->n]);
		free(k->values[k->n]);
		return ftgl_err(FTG_E_SYSTEM, ENOMEM, "out of memory");
	}
	k->n++;
	return 0;
}

void ftg_keys_free(struct ftg_keys *k)
{
	size_t i;

	if (!k)
		return;
	for (i = 0; i < k->n; i++) {
		free(k->names[i]);
		free(k->values[i]);
	}
	free(k->names);
	free(k->values);
	free(k);
}

size_t ftg_keys_count(const struct ftg_keys *k)
{
	return k ? k->n : 0;
}

const char *ftg_keys_name(const struct ftg_keys *k, size_t i)
{
	return k && i < k->n ? k->names[i] : NULL;
}

const char *ftg_keys_value(const struct ftg_keys *k, size_t i)
{
	return k && i < k->n ? k->values[i] : NULL;
}

const char *ftg_keys_get(const struct ftg_keys *k, const char *name)
{
	size_t i;

	for (i = 0; k && i < k->n; i++)
		if (!strcmp(k->names[i], name))
			return k->values[i];
	return NULL;
}

/* "key value": the value as the module wrote it, escapes undone. */
static int status_line(void *obj, char *line, unsigned long lineno,
		       unsigned int version)
{
	char *value = strchr(line, ' '), *copy;
	int r;

	(void)version;
	if (!value)
		return ftgl_bad_line("status", lineno, "key without value");
	*value++ = '\0';
	copy = ftgl_unescape_dup(value);
	if (!copy)
		return -1;
	r = keys_add(obj, line, copy);
	free(copy);
	return r;
}

struct ftg_keys *ftg_status_keys_read(const struct ftg_root *root)
{
	struct ftg_keys *k;

	ftg_error_clear();
	k = keys_new();
	if (k && ftgl_kmod_table_read(ftg_root_debugfs(root), FTGUARD_TABLE_STATUS,
				      status_line, k)) {
		ftg_keys_free(k);
		return NULL;
	}
	return k;
}

/* @rel of the instance, its last newline cut; NULL when absent. */
static char *instance_text(struct tracefs_instance *inst, const char *rel)
{
	char *text = tracefs_instance_file_read(inst, rel, NULL);
	size_t len;

	if (text) {
		len = strlen(text);
		while (len && text[len - 1] == '\n')
			text[--len] = '\0';
	}
	return text;
}

/* Each enabled event ("SYSTEM:EVENT" lines of set_event) with its filter. */
static int add_events(struct ftg_keys *k, struct tracefs_instance *inst)
{
	char *set = instance_text(inst, "set_event"), *line, *save = NULL;
	char name[512], rel[600], *filter;
	int r = 0;

	for (line = set ? strtok_r(set, "\n", &save) : NULL; line && !r;
	     line = strtok_r(NULL, "\n", &save)) {
		char *colon = strchr(line, ':');

		if (!colon || strchr(line, '/') || strstr(line, ".."))
			continue;
		snprintf(name, sizeof(name), "event:%s", line);
		snprintf(rel, sizeof(rel), "events/%.*s/%s/filter",
			 (int)(colon - line), line, colon + 1);
		filter = instance_text(inst, rel);
		r = keys_add(k, name, filter && strcmp(filter, "none") ? filter : "");
		free(filter);
	}
	free(set);
	return r;
}

struct ftg_keys *ftg_instance_settings_read(const struct ftg_root *root)
{
	static const char *const files[] = {
		"tracing_on", "buffer_size_kb", "buffer_total_size_kb",
		"current_tracer",
	};
	struct tracefs_instance *inst;
	struct ftg_keys *k;
	char *text;
	size_t i;
	int r = 0;

	ftg_error_clear();
	inst = ftgl_instance_alloc(ftg_root_tracefs(root));
	if (!inst)
		return NULL;
	k = keys_new();
	for (i = 0; k && !r && i < FTGL_ARRAY_SIZE(files); i++) {
		text = instance_text(inst, files[i]);
		/* "1410 (expanded: 1408)": the size now, before the kernel
		 * grows the buffer to the one set at its first use */
		if (text && strstr(files[i], "size_kb"))
			text[strcspn(text, " ")] = '\0';
		if (text)
			r = keys_add(k, files[i], text);
		free(text);
	}
	if (k && !r) {
		text = tracefs_get_clock(inst);
		if (text)
			r = keys_add(k, "trace_clock", text);
		free(text);
	}
	if (k && !r)
		r = add_events(k, inst);
	tracefs_instance_free(inst);
	if (r) {
		ftg_keys_free(k);
		return NULL;
	}
	return k;
}
