// SPDX-License-Identifier: LGPL-2.1
/*
 * ftguard/status (doc/interface.md): "key value" lines after the header;
 * unknown keys are skipped so the module may add some.
 */
#include <errno.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ftguard-local.h"
#include "kmod-local.h"

enum status_kind { ST_BOOL, ST_U64, ST_HEX, ST_TEXT, ST_OWNER, ST_LAST_CHECK };

static const struct {
	const char *key;
	enum status_kind kind;
	size_t offset;
} status_keys[] = {
#define KEY(name, kind) { #name, kind, offsetof(struct ftg_status, name) }
	KEY(loaded, ST_BOOL),
	KEY(armed, ST_BOOL),
	KEY(owner, ST_OWNER),
	KEY(armed_sites, ST_U64),
	KEY(killed, ST_BOOL),
	KEY(kill_reason, ST_TEXT),
	KEY(sites, ST_U64),
	KEY(vmlinux_sites, ST_U64),
	KEY(vmlinux_records, ST_U64),
	KEY(module_sites, ST_U64),
	KEY(admitted, ST_U64),
	KEY(rejected, ST_U64),
	{ "last_check", ST_LAST_CHECK, 0 },
	KEY(last_error, ST_TEXT),
	KEY(verify_period_ms, ST_U64),
	KEY(max_arm, ST_U64),
	KEY(fault_injection, ST_BOOL),
	KEY(modules_vaddr, ST_HEX),
	KEY(modules_end, ST_HEX),
	KEY(vmalloc_start, ST_HEX),
	KEY(vmalloc_end, ST_HEX),
	{ FTGUARD_STATUS_VERIFY_RUNS, ST_U64, offsetof(struct ftg_status, verify_runs) },
	{ FTGUARD_STATUS_VERIFY_NS, ST_U64, offsetof(struct ftg_status, verify_ns) },
	{ FTGUARD_STATUS_VERIFY_SLICE, ST_U64, offsetof(struct ftg_status, verify_slice) },
	{ FTGUARD_STATUS_VERIFY_CYCLE_MS, ST_U64, offsetof(struct ftg_status, verify_cycle_ms) },
	{ FTGUARD_STATUS_VERIFY_CYCLES, ST_U64, offsetof(struct ftg_status, verify_cycles) },
#undef KEY
};

/*
 * Free text: "-" means empty; escapes are undone when well formed. The
 * module escapes a reason of up to FTGUARD_REASON_MAX bytes, which can
 * take four times that: unescape the whole value, then cut.
 */
static int set_text(char *dst, const char *value)
{
	char *tmp;

	if (!strcmp(value, "-")) {
		dst[0] = '\0';
		return 0;
	}
	tmp = ftgl_unescape_dup(value);
	if (!tmp)
		return -1;
	snprintf(dst, FTG_TEXT_LEN, "%s", tmp);
	free(tmp);
	return 0;
}

static int parse_last_check(struct ftg_status *st, char *value)
{
	char *w[5];
	int n = ftgl_split(value, w, 5);

	if (n == 1 && !strcmp(w[0], "never")) {
		st->checked = false;
		return 0;
	}
	if (n != 4 || ftgl_parse_u64(w[0], &st->last_check_ms) ||
	    (strcmp(w[1], "ok") && strcmp(w[1], "fail")) ||
	    ftgl_parse_u64(w[2], &st->last_check_n_ok) ||
	    ftgl_parse_u64(w[3], &st->last_check_n_bad))
		return -1;
	st->checked = true;
	st->last_check_ok = !strcmp(w[1], "ok");
	return 0;
}

static int parse_status_value(struct ftg_status *st, size_t k, char *value)
{
	void *field = (char *)st + status_keys[k].offset;
	uint64_t v;

	switch (status_keys[k].kind) {
	case ST_BOOL:
		if (ftgl_parse_u64(value, &v) || v > 1)
			return -1;
		*(bool *)field = v;
		return 0;
	case ST_U64:
		return ftgl_parse_u64(value, field);
	case ST_HEX:
		return ftgl_parse_hex(value, field);
	case ST_TEXT:
		return set_text(field, value);
	case ST_OWNER:
		if (set_text(st->owner, value))
			return -1;
		st->owner_pid = 0;
		if (value[0] >= '1' && value[0] <= '9')
			st->owner_pid = atoi(value);
		return 0;
	case ST_LAST_CHECK:
		return parse_last_check(st, value);
	}
	return -1;
}

static int parse_status_line(void *obj, char *line, unsigned long lineno,
			     unsigned int version)
{
	struct ftg_status *st = obj;
	char *value = strchr(line, ' ');
	size_t k;

	if (value)
		*value++ = '\0';
	for (k = 0; k < FTGL_ARRAY_SIZE(status_keys); k++)
		if (!strcmp(line, status_keys[k].key))
			break;
	if (k == FTGL_ARRAY_SIZE(status_keys))
		return 0;	/* a newer key: ignore */
	if (!value)
		return ftgl_bad_line("status", lineno, "key without value");
	if (parse_status_value(st, k, value))
		return ftgl_err(FTG_E_BAD_NUMBER, EINVAL,
				"status:%lu: bad value for %s", lineno, line);
	return 0;
}

int ftg_status_parse(const char *text, size_t len, struct ftg_status *st)
{
	ftg_error_clear();
	memset(st, 0, sizeof(*st));
	return ftgl_kmod_table_parse("status", "status", text, len,
				     parse_status_line, st);
}

int ftg_status_read(const char *debugfs_dir, struct ftg_status *st)
{
	ftg_error_clear();
	memset(st, 0, sizeof(*st));
	return ftgl_kmod_table_read(debugfs_dir, "status", parse_status_line, st);
}
