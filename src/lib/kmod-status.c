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

enum status_kind {
	ST_BOOL, ST_U64, ST_HEX, ST_TEXT, ST_OWNER, ST_LAST_CHECK,
	ST_ARM_MODE, ST_GRAPH_HOOK, ST_ADDRS, ST_EVENT_PATH,
};

/* Every key the module prints, with the form of its value: ftg_uapi.h. */
#define STATUS_KEY_ID(id, key, kind)	SK_##id,
enum { FTGUARD_STATUS_KEYS(STATUS_KEY_ID) SK_COUNT };
#undef STATUS_KEY_ID

static const struct {
	const char *key;
	enum status_kind kind;
} status_keys[] = {
#define STATUS_KEY(id, key, kind)	[SK_##id] = { key, ST_##kind },
	FTGUARD_STATUS_KEYS(STATUS_KEY)
#undef STATUS_KEY
};

/*
 * Where a key's value goes in struct ftg_status, plus one (0: no field).
 * A key without a field is read all the same, so that a malformed value is
 * an error; ftg_status_keys_read() carries every key to the user.
 */
static const size_t status_fields[SK_COUNT] = {
#define FIELD(id, member)	[SK_##id] = offsetof(struct ftg_status, member) + 1
	FIELD(LOADED, loaded),
	FIELD(ARMED, armed),
	FIELD(OWNER, owner),
	FIELD(ARMED_SITES, armed_sites),
	FIELD(KILLED, killed),
	FIELD(KILL_REASON, kill_reason),
	FIELD(SITES, sites),
	FIELD(VMLINUX_SITES, vmlinux_sites),
	FIELD(VMLINUX_RECORDS, vmlinux_records),
	FIELD(MODULE_SITES, module_sites),
	FIELD(ADMITTED, admitted),
	FIELD(REJECTED, rejected),
	FIELD(LAST_CHECK, checked),
	FIELD(LAST_ERROR, last_error),
	FIELD(VERIFY_PERIOD_MS, verify_period_ms),
	FIELD(MAX_ARM, max_arm),
	FIELD(FAULT_INJECTION, fault_injection),
	FIELD(MODULES_VADDR, modules_vaddr),
	FIELD(MODULES_END, modules_end),
	FIELD(VMALLOC_START, vmalloc_start),
	FIELD(VMALLOC_END, vmalloc_end),
	FIELD(VERIFY_RUNS, verify_runs),
	FIELD(VERIFY_NS, verify_ns),
	FIELD(VERIFY_SLICE, verify_slice),
	FIELD(VERIFY_CYCLE_MS, verify_cycle_ms),
	FIELD(VERIFY_CYCLES, verify_cycles),
	FIELD(STUCK, stuck),
#undef FIELD
};

#define WORD(id, word)	word,
static const char *const arm_modes[] = { FTGUARD_ARM_MODES(WORD) };
static const char *const graph_hooks[] = { FTGUARD_GRAPH_HOOKS(WORD) };
static const char *const event_paths[] = { FTGUARD_EVENT_PATHS(WORD) };
#undef WORD

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

	if (n == 1 && !strcmp(w[0], FTGUARD_RESULT_NEVER)) {
		st->checked = false;
		return 0;
	}
	if (n != 4 || ftgl_parse_u64(w[0], &st->last_check_ms) ||
	    (strcmp(w[1], FTGUARD_RESULT_OK) &&
	     strcmp(w[1], FTGUARD_RESULT_FAIL)) ||
	    ftgl_parse_u64(w[2], &st->last_check_n_ok) ||
	    ftgl_parse_u64(w[3], &st->last_check_n_bad))
		return -1;
	st->checked = true;
	st->last_check_ok = !strcmp(w[1], FTGUARD_RESULT_OK);
	return 0;
}

/* "-", or addresses separated by single spaces. */
static int parse_addrs(const char *value)
{
	char addr[32];
	uint64_t v;
	size_t n;

	if (!strcmp(value, "-"))
		return 0;
	do {
		n = strcspn(value, " ");
		if (!n || n >= sizeof(addr))
			return -1;
		memcpy(addr, value, n);
		addr[n] = '\0';
		if (ftgl_parse_hex(addr, &v))
			return -1;
		value += n;
	} while (*value++ == ' ');
	return 0;
}

int ftgl_status_value_parse(struct ftg_status *st, size_t k, char *value)
{
	union {
		bool b;
		uint64_t u;
		char text[FTG_TEXT_LEN];
	} scratch;
	void *field = status_fields[k] ?
		      (void *)((char *)st + status_fields[k] - 1) :
		      (void *)&scratch;
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
		else if (strcmp(value, FTGUARD_OWNER_NONE) &&
			 strcmp(value, FTGUARD_OWNER_PERSISTENT))
			return -1;
		return 0;
	case ST_LAST_CHECK:
		return parse_last_check(st, value);
	case ST_ARM_MODE:
		return ftgl_name_index(arm_modes, FTGL_ARRAY_SIZE(arm_modes),
				       value) < 0 ? -1 : 0;
	case ST_GRAPH_HOOK:
		return ftgl_name_index(graph_hooks, FTGL_ARRAY_SIZE(graph_hooks),
				       value) < 0 ? -1 : 0;
	case ST_ADDRS:
		return parse_addrs(value);
	case ST_EVENT_PATH:
		return ftgl_name_index(event_paths, FTGL_ARRAY_SIZE(event_paths),
				       value) < 0 ? -1 : 0;
	}
	return -1;
}

int ftgl_status_key_index(const char *key)
{
	size_t k;

	for (k = 0; k < SK_COUNT; k++)
		if (!strcmp(key, status_keys[k].key))
			return k;
	return -1;
}

size_t ftgl_status_key_count(void)
{
	return SK_COUNT;
}

const char *ftgl_status_key_name(size_t k)
{
	return k < SK_COUNT ? status_keys[k].key : NULL;
}

static int parse_status_line(void *obj, char *line, unsigned long lineno,
			     unsigned int version)
{
	struct ftg_status *st = obj;
	char *value = strchr(line, ' ');
	int k;

	if (value)
		*value++ = '\0';
	k = ftgl_status_key_index(line);
	if (k < 0)
		return 0;	/* a newer key: ignore */
	if (!value)
		return ftgl_bad_line("status", lineno, "key without value");
	if (ftgl_status_value_parse(st, k, value))
		return ftgl_err(FTG_E_BAD_NUMBER, EINVAL,
				"status:%lu: bad value for %s", lineno, line);
	return 0;
}

int ftg_status_parse(const char *text, size_t len, struct ftg_status *st)
{
	ftg_error_clear();
	memset(st, 0, sizeof(*st));
	return ftgl_kmod_table_parse(FTGUARD_TABLE_STATUS, "status", text, len,
				     parse_status_line, st);
}

int ftg_status_read(const struct ftg_root *root, struct ftg_status *st)
{
	ftg_error_clear();
	memset(st, 0, sizeof(*st));
	return ftgl_kmod_table_read(ftg_root_debugfs(root), FTGUARD_TABLE_STATUS,
				    parse_status_line, st);
}
