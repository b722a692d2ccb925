// SPDX-License-Identifier: LGPL-2.1
/*
 * ftguard.ko's debugfs tables: status, sites, modules and check
 * (doc/interface.md, format version 1). Unlike the kernel's own files
 * these are a versioned contract: an unknown version is refused and a
 * malformed line fails the read, naming table and line.
 */
#include <errno.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/vfs.h>

#include "ftguard-local.h"

#define DEBUGFS_MAGIC	0x64626720

int ftgl_kmod_missing(const char *debugfs_dir, const char *file, int errnum)
{
	struct statfs sfs;
	struct stat st;
	char *dir;
	bool have_dir;

	if (errnum == EACCES || errnum == EPERM)
		return ftgl_err(FTG_E_NOT_ROOT, errnum,
				"%s/ftguard/%s: permission denied (run as root)",
				debugfs_dir, file);
	if (stat(debugfs_dir, &st) && (errno == EACCES || errno == EPERM))
		return ftgl_err(FTG_E_NOT_ROOT, errno,
				"%s: permission denied (run as root)", debugfs_dir);
	dir = ftgl_path(debugfs_dir, "ftguard");
	if (!dir)
		return -1;
	have_dir = !stat(dir, &st);
	free(dir);
	if (have_dir)
		return ftgl_err(errnum == ENOENT ? FTG_E_BAD_VERSION : FTG_E_SYSTEM,
				errnum, "%s/ftguard/%s: %s%s", debugfs_dir, file,
				strerror(errnum),
				errnum == ENOENT ? " (a saved snapshot, or an ftguard.ko older than this libftguard)" : "");
	/* No ftguard directory: is debugfs itself there? A live debugfs
	 * root has its magic; a snapshot directory is only checked to
	 * exist. */
	if (!strcmp(debugfs_dir, FTGL_DEFAULT_DEBUGFS) &&
	    (statfs(debugfs_dir, &sfs) || sfs.f_type != DEBUGFS_MAGIC))
		return ftgl_err(FTG_E_NO_DEBUGFS, ENODEV,
				"debugfs is not mounted on %s (mount -t debugfs none /sys/kernel/debug)",
				debugfs_dir);
	return ftgl_err(FTG_E_NO_MODULE, ENODEV,
			"no %s/ftguard: ftguard.ko is not loaded (insmod ftguard.ko or modprobe ftguard)",
			debugfs_dir);
}

char *ftgl_kmod_read(const char *debugfs_dir, const char *table, size_t *len)
{
	char *dir, *buf;

	if (!debugfs_dir)
		debugfs_dir = FTGL_DEFAULT_DEBUGFS;
	dir = ftgl_path(debugfs_dir, "ftguard");
	if (!dir)
		return NULL;
	buf = ftgl_read_file(dir, table, len);
	free(dir);
	if (!buf && errno != ENOMEM && errno != EFBIG)
		ftgl_kmod_missing(debugfs_dir, table, errno);
	return buf;
}

int ftgl_kmod_header(const char *table, const char *line)
{
	char want[64];
	uint64_t version;
	size_t n;

	n = (size_t)snprintf(want, sizeof(want), "ftguard-%s ", table);
	if (!line || strncmp(line, want, n))
		return ftgl_err(FTG_E_NO_HEADER, EPROTO,
				"%s: no \"ftguard-%s <version>\" header line",
				table, table);
	if (ftgl_parse_u64(line + n, &version))
		return ftgl_err(FTG_E_NO_HEADER, EPROTO,
				"%s: malformed header \"%.64s\"", table, line);
	if (version != FTG_FORMAT_VERSION)
		return ftgl_err(FTG_E_BAD_VERSION, EPROTO,
				"%s: format version %llu is not supported (this libftguard reads version %d); use matching ftguard.ko and libftguard",
				table, (unsigned long long)version,
				FTG_FORMAT_VERSION);
	return 0;
}

static int bad_line(const char *table, unsigned long lineno, const char *what)
{
	return ftgl_err(FTG_E_BAD_LINE, EINVAL, "%s:%lu: %s", table, lineno,
			what);
}

/* A mutable copy of @text for the parsers, which cut lines in place. */
static char *copy_text(const char *text, size_t len)
{
	char *buf;

	if (!text) {
		ftgl_err(FTG_E_SYSTEM, EINVAL, "no text");
		return NULL;
	}
	buf = malloc(len + 1);
	if (!buf) {
		ftgl_err(FTG_E_SYSTEM, ENOMEM, "out of memory");
		return NULL;
	}
	memcpy(buf, text, len);
	buf[len] = '\0';
	return buf;
}

/* Looks @word up in a NULL-terminated list of names; -1 if absent. */
static int name_index(const char *const *names, size_t n, const char *word)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (names[i] && !strcmp(names[i], word))
			return (int)i;
	return -1;
}

/* A hex byte string as the check table prints it, or "-". */
static bool valid_bytes(const char *s)
{
	size_t n = strlen(s);

	if (!strcmp(s, "-"))
		return true;
	if (!n || n > 32)
		return false;
	return strspn(s, "0123456789abcdefABCDEF") == n;
}

/* ------------------------------------------------------------ status */

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
#undef KEY
};

/* Free text: "-" means empty; escapes are undone when well formed. */
static void set_text(char *dst, const char *value)
{
	char tmp[FTG_TEXT_LEN];

	if (!strcmp(value, "-")) {
		dst[0] = '\0';
		return;
	}
	snprintf(tmp, sizeof(tmp), "%s", value);
	if (ftg_unescape(tmp))
		snprintf(tmp, sizeof(tmp), "%s", value);	/* keep raw */
	memcpy(dst, tmp, FTG_TEXT_LEN);
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
		set_text(field, value);
		return 0;
	case ST_OWNER:
		set_text(st->owner, value);
		st->owner_pid = 0;
		if (value[0] >= '1' && value[0] <= '9')
			st->owner_pid = atoi(value);
		return 0;
	case ST_LAST_CHECK:
		return parse_last_check(st, value);
	}
	return -1;
}

static int status_parse(char *buf, size_t len, struct ftg_status *st)
{
	struct ftgl_lines lines;
	char *line;

	memset(st, 0, sizeof(*st));
	ftgl_lines_init(&lines, buf, len);
	if (ftgl_kmod_header("status", ftgl_lines_next(&lines)))
		return -1;
	while ((line = ftgl_lines_next(&lines))) {
		char *value = strchr(line, ' ');
		size_t k;

		if (!*line)
			continue;
		if (value)
			*value++ = '\0';
		for (k = 0; k < FTGL_ARRAY_SIZE(status_keys); k++)
			if (!strcmp(line, status_keys[k].key))
				break;
		if (k == FTGL_ARRAY_SIZE(status_keys))
			continue;	/* a newer key: ignore */
		if (!value)
			return bad_line("status", lines.lineno, "key without value");
		if (parse_status_value(st, k, value))
			return ftgl_err(FTG_E_BAD_NUMBER, EINVAL,
					"status:%lu: bad value for %s", lines.lineno,
					line);
	}
	if (lines.too_long)
		return ftgl_err(FTG_E_LINE_TOO_LONG, EINVAL, "status: line too long");
	return 0;
}

/**
 * ftg_status_parse - parse the text of ftguard/status
 * @text: the table's text
 * @len: its length
 * @st: filled on success
 *
 * Return: 0, or -1 with errno set.
 */
int ftg_status_parse(const char *text, size_t len, struct ftg_status *st)
{
	char *buf = copy_text(text, len);
	int ret;

	if (!buf)
		return -1;
	ret = status_parse(buf, len, st);
	free(buf);
	return ret;
}

/**
 * ftg_status_read - read ftguard/status
 * @debugfs_dir: debugfs root (NULL: /sys/kernel/debug)
 * @st: filled on success
 *
 * Return: 0, or -1 with errno set.
 */
int ftg_status_read(const char *debugfs_dir, struct ftg_status *st)
{
	size_t len;
	char *buf = ftgl_kmod_read(debugfs_dir, "status", &len);
	int ret;

	if (!buf)
		return -1;
	ret = status_parse(buf, len, st);
	free(buf);
	return ret;
}

/* ------------------------------------------------------------- sites */

static const char *const site_state_names[] = {
	[FTG_SITE_OK] = "ok",
	[FTG_SITE_ARMED] = "armed",
	[FTG_SITE_UNCHECKED] = "unchecked",
	[FTG_SITE_STALE] = "stale",
	[FTG_SITE_FOREIGN] = "foreign",
	[FTG_SITE_MISMATCH] = "mismatch",
	[FTG_SITE_PLANTED] = "planted",
};

static const char *const section_names[] = {
	[FTG_SECTION_CORE] = "core",
	[FTG_SECTION_INIT] = "init",
};

/**
 * ftg_site_state_name - the table's word for a site state
 * @state: the state
 *
 * Return: "ok", "armed", ...; "?" out of range.
 */
const char *ftg_site_state_name(enum ftg_site_state state)
{
	if ((unsigned int)state >= FTGL_ARRAY_SIZE(site_state_names))
		return "?";
	return site_state_names[state];
}

/**
 * ftg_site_state_parse - the state a table word names
 * @name: "ok", "armed", ...
 *
 * Return: the enum ftg_site_state, or -1 (EINVAL) if unknown.
 */
int ftg_site_state_parse(const char *name)
{
	int i = name_index(site_state_names, FTGL_ARRAY_SIZE(site_state_names),
			   name);

	if (i < 0)
		errno = EINVAL;
	return i;
}

struct ftg_sites {
	struct ftgl_vec sites;	/* struct ftg_site, address order */
	struct ftgl_pool pool;
};

/* Unescapes a name word and pools it; NULL on error (recorded). */
static const char *pool_name(struct ftgl_pool *pool, char *word,
			     const char *table, unsigned long lineno)
{
	if (ftg_unescape(word)) {
		ftgl_err_prefix("%s:%lu", table, lineno);
		return NULL;
	}
	return ftgl_pool_strdup(pool, word);
}

static int parse_site(struct ftg_sites *s, char *line, unsigned long lineno)
{
	struct ftg_site *site;
	char *w[8];
	int state, section;
	uint64_t addr, hits, reads;

	if (ftgl_split(line, w, 8) != 7)
		return bad_line("sites", lineno, "expected 7 fields");
	state = name_index(site_state_names, FTGL_ARRAY_SIZE(site_state_names), w[1]);
	section = name_index(section_names, FTGL_ARRAY_SIZE(section_names), w[2]);
	if (ftgl_parse_hex(w[0], &addr) || ftgl_parse_u64(w[4], &hits) ||
	    ftgl_parse_u64(w[5], &reads))
		return bad_line("sites", lineno, "malformed number");
	if (state < 0)
		return bad_line("sites", lineno, "unknown state");
	if (section < 0)
		return bad_line("sites", lineno, "unknown section");
	site = ftgl_vec_push(&s->sites);
	if (!site)
		return -1;
	site->addr = addr;
	site->state = state;
	site->section = section;
	site->hits = hits;
	site->reads = reads;
	site->owner = pool_name(&s->pool, w[3], "sites", lineno);
	site->name = site->owner ? pool_name(&s->pool, w[6], "sites", lineno) : NULL;
	return site->name ? 0 : -1;
}

static int cmp_site(const void *a, const void *b)
{
	const struct ftg_site *x = a, *y = b;

	return x->addr < y->addr ? -1 : x->addr > y->addr;
}

static int cmp_site_r(const void *a, const void *b, void *arg)
{
	return cmp_site(a, b);
}

static struct ftg_sites *sites_parse(char *buf, size_t len)
{
	struct ftg_sites *s = calloc(1, sizeof(*s));
	struct ftgl_lines lines;
	char *line;

	if (!s) {
		ftgl_err(FTG_E_SYSTEM, ENOMEM, "out of memory");
		return NULL;
	}
	ftgl_vec_init(&s->sites, sizeof(struct ftg_site));
	ftgl_lines_init(&lines, buf, len);
	if (ftgl_kmod_header("sites", ftgl_lines_next(&lines)))
		goto fail;
	while ((line = ftgl_lines_next(&lines)))
		if (*line && parse_site(s, line, lines.lineno))
			goto fail;
	if (lines.too_long) {
		ftgl_err(FTG_E_LINE_TOO_LONG, EINVAL, "sites: line too long");
		goto fail;
	}
	ftgl_sort(s->sites.data, s->sites.len, sizeof(struct ftg_site),
		  cmp_site_r, NULL);
	return s;
fail:
	ftg_sites_free(s);
	return NULL;
}

/**
 * ftg_sites_parse - parse the text of ftguard/sites
 * @text: the table's text
 * @len: its length
 *
 * Return: the sites in address order, to free with ftg_sites_free(), or
 * NULL.
 */
struct ftg_sites *ftg_sites_parse(const char *text, size_t len)
{
	char *buf = copy_text(text, len);
	struct ftg_sites *s;

	if (!buf)
		return NULL;
	s = sites_parse(buf, len);
	free(buf);
	return s;
}

/**
 * ftg_sites_read - read ftguard/sites
 * @debugfs_dir: debugfs root (NULL: /sys/kernel/debug)
 *
 * Return: the sites in address order, to free with ftg_sites_free(), or
 * NULL.
 */
struct ftg_sites *ftg_sites_read(const char *debugfs_dir)
{
	size_t len;
	char *buf = ftgl_kmod_read(debugfs_dir, "sites", &len);
	struct ftg_sites *s;

	if (!buf)
		return NULL;
	s = sites_parse(buf, len);
	free(buf);
	return s;
}

/**
 * ftg_sites_free - free a sites table
 * @sites: the table, or NULL
 */
void ftg_sites_free(struct ftg_sites *sites)
{
	if (!sites)
		return;
	ftgl_vec_release(&sites->sites);
	ftgl_pool_release(&sites->pool);
	free(sites);
}

/**
 * ftg_sites_count - number of sites
 * @sites: the table
 *
 * Return: the count.
 */
size_t ftg_sites_count(const struct ftg_sites *sites)
{
	return sites->sites.len;
}

/**
 * ftg_sites_get - the @i-th site in address order
 * @sites: the table
 * @i: index
 *
 * Return: the site (owned by @sites), or NULL when @i >= count.
 */
const struct ftg_site *ftg_sites_get(const struct ftg_sites *sites, size_t i)
{
	return ftgl_vec_at(&sites->sites, i);
}

/**
 * ftg_sites_find - the site at @addr
 * @sites: the table
 * @addr: the site's address
 *
 * Return: the site, or NULL.
 */
const struct ftg_site *ftg_sites_find(const struct ftg_sites *sites, uint64_t addr)
{
	struct ftg_site key = { .addr = addr };

	return ftgl_search(&key, sites->sites.data, sites->sites.len,
			   sizeof(struct ftg_site), cmp_site);
}

/* ----------------------------------------------------------- modules */

static const char *const kmodule_state_names[] = {
	[FTG_KMODULE_COMING] = "coming",
	[FTG_KMODULE_LIVE] = "live",
	[FTG_KMODULE_GOING] = "going",
	[FTG_KMODULE_GONE] = "gone",
};

/* ftguard.ko prints "live"; doc/interface.md once wrote "init:live":
 * both are read. */
static const char *const init_state_names[] = {
	[FTG_INIT_LIVE] = "live",
	[FTG_INIT_DROPPED] = "dropped",
	[FTG_INIT_NONE] = "none",
};

static int parse_init_state(const char *word)
{
	if (!strncmp(word, "init:", 5))
		word += 5;
	return name_index(init_state_names, FTGL_ARRAY_SIZE(init_state_names),
			  word);
}

/* Sizes are decimal; a 0x prefix is read as hex. */
static int parse_size(const char *word, uint64_t *out)
{
	if (word[0] == '0' && (word[1] == 'x' || word[1] == 'X'))
		return ftgl_parse_hex(word, out);
	return ftgl_parse_u64(word, out);
}

/**
 * ftg_kmodule_state_name - the table's word for a module state
 * @state: the state
 *
 * Return: "coming", "live", "going", "gone"; "?" out of range.
 */
const char *ftg_kmodule_state_name(enum ftg_kmodule_state state)
{
	if ((unsigned int)state >= FTGL_ARRAY_SIZE(kmodule_state_names))
		return "?";
	return kmodule_state_names[state];
}

struct ftg_kmodules {
	struct ftgl_vec mods;	/* struct ftg_kmodule, table order */
	struct ftgl_pool pool;
};

static int parse_kmodule(struct ftg_kmodules *km, char *line,
			 unsigned long lineno)
{
	struct ftg_kmodule *m;
	char *w[10];
	int state, init;
	uint64_t v[6];

	if (ftgl_split(line, w, 10) != 9)
		return bad_line("modules", lineno, "expected 9 fields");
	state = name_index(kmodule_state_names,
			   FTGL_ARRAY_SIZE(kmodule_state_names), w[1]);
	init = parse_init_state(w[6]);
	if (state < 0)
		return bad_line("modules", lineno, "unknown state");
	if (init < 0)
		return bad_line("modules", lineno, "unknown init state");
	if (ftgl_parse_hex(w[2], &v[0]) || parse_size(w[3], &v[1]) ||
	    ftgl_parse_hex(w[4], &v[2]) || parse_size(w[5], &v[3]) ||
	    ftgl_parse_u64(w[7], &v[4]) || ftgl_parse_u64(w[8], &v[5]))
		return bad_line("modules", lineno, "malformed number");
	m = ftgl_vec_push(&km->mods);
	if (!m)
		return -1;
	m->state = state;
	m->init = init;
	m->core_base = v[0];
	m->core_text_size = v[1];
	m->init_base = v[2];
	m->init_text_size = v[3];
	m->dropped_ms = v[4];
	m->nsites = v[5];
	m->name = pool_name(&km->pool, w[0], "modules", lineno);
	return m->name ? 0 : -1;
}

static struct ftg_kmodules *kmodules_parse(char *buf, size_t len)
{
	struct ftg_kmodules *km = calloc(1, sizeof(*km));
	struct ftgl_lines lines;
	char *line;

	if (!km) {
		ftgl_err(FTG_E_SYSTEM, ENOMEM, "out of memory");
		return NULL;
	}
	ftgl_vec_init(&km->mods, sizeof(struct ftg_kmodule));
	ftgl_lines_init(&lines, buf, len);
	if (ftgl_kmod_header("modules", ftgl_lines_next(&lines)))
		goto fail;
	while ((line = ftgl_lines_next(&lines)))
		if (*line && parse_kmodule(km, line, lines.lineno))
			goto fail;
	if (lines.too_long) {
		ftgl_err(FTG_E_LINE_TOO_LONG, EINVAL, "modules: line too long");
		goto fail;
	}
	return km;
fail:
	ftg_kmodules_free(km);
	return NULL;
}

/**
 * ftg_kmodules_parse - parse the text of ftguard/modules
 * @text: the table's text
 * @len: its length
 *
 * Return: the modules, to free with ftg_kmodules_free(), or NULL.
 */
struct ftg_kmodules *ftg_kmodules_parse(const char *text, size_t len)
{
	char *buf = copy_text(text, len);
	struct ftg_kmodules *km;

	if (!buf)
		return NULL;
	km = kmodules_parse(buf, len);
	free(buf);
	return km;
}

/**
 * ftg_kmodules_read - read ftguard/modules
 * @debugfs_dir: debugfs root (NULL: /sys/kernel/debug)
 *
 * Return: the modules, to free with ftg_kmodules_free(), or NULL.
 */
struct ftg_kmodules *ftg_kmodules_read(const char *debugfs_dir)
{
	size_t len;
	char *buf = ftgl_kmod_read(debugfs_dir, "modules", &len);
	struct ftg_kmodules *km;

	if (!buf)
		return NULL;
	km = kmodules_parse(buf, len);
	free(buf);
	return km;
}

/**
 * ftg_kmodules_free - free a modules table
 * @mods: the table, or NULL
 */
void ftg_kmodules_free(struct ftg_kmodules *mods)
{
	if (!mods)
		return;
	ftgl_vec_release(&mods->mods);
	ftgl_pool_release(&mods->pool);
	free(mods);
}

/**
 * ftg_kmodules_count - number of entries (live modules and tombstones)
 * @mods: the table
 *
 * Return: the count.
 */
size_t ftg_kmodules_count(const struct ftg_kmodules *mods)
{
	return mods->mods.len;
}

/**
 * ftg_kmodules_get - the @i-th entry in table order
 * @mods: the table
 * @i: index
 *
 * Return: the entry (owned by @mods), or NULL when @i >= count.
 */
const struct ftg_kmodule *ftg_kmodules_get(const struct ftg_kmodules *mods, size_t i)
{
	return ftgl_vec_at(&mods->mods, i);
}

/**
 * ftg_kmodules_find - the entry for module @name
 * @mods: the table
 * @name: module name
 *
 * A module loaded twice has a tombstone and a live entry: the entry that
 * is not gone wins, else the last tombstone.
 *
 * Return: the entry, or NULL.
 */
const struct ftg_kmodule *ftg_kmodules_find(const struct ftg_kmodules *mods,
					    const char *name)
{
	const struct ftg_kmodule *found = NULL;
	size_t i;

	for (i = 0; i < mods->mods.len; i++) {
		const struct ftg_kmodule *m = ftgl_vec_at(&mods->mods, i);

		if (strcmp(m->name, name))
			continue;
		if (m->state != FTG_KMODULE_GONE)
			return m;
		found = m;
	}
	return found;
}

/* ------------------------------------------------------------- check */

static const char *const verdict_names[] = {
	[FTG_VERDICT_OK] = "ok",
	[FTG_VERDICT_STALE] = "stale",
	[FTG_VERDICT_FOREIGN] = "foreign",
	[FTG_VERDICT_MISMATCH] = "mismatch",
};

/**
 * ftg_verdict_kind_name - the table's word for a verdict
 * @kind: the verdict
 *
 * Return: "ok", "stale", "foreign", "mismatch"; "?" out of range.
 */
const char *ftg_verdict_kind_name(enum ftg_verdict_kind kind)
{
	if ((unsigned int)kind >= FTGL_ARRAY_SIZE(verdict_names))
		return "?";
	return verdict_names[kind];
}

struct ftg_check_report {
	bool checked;		/* false: "result never" */
	bool ok;
	uint64_t n_ok;
	uint64_t n_bad;
	uint64_t ms;
	struct ftgl_vec lines;	/* struct ftg_check_line */
	struct ftgl_pool pool;
};

static int parse_result(struct ftg_check_report *rep, const char *what,
			char *line, unsigned long lineno)
{
	char *w[6];
	int n = line ? ftgl_split(line, w, 6) : 0;

	if (n == 2 && !strcmp(w[0], "result") && !strcmp(w[1], "never"))
		return 0;	/* no check yet: not ok, nothing counted */
	if (n != 5 || strcmp(w[0], "result") ||
	    (strcmp(w[1], "ok") && strcmp(w[1], "fail")) ||
	    ftgl_parse_u64(w[2], &rep->n_ok) || ftgl_parse_u64(w[3], &rep->n_bad) ||
	    ftgl_parse_u64(w[4], &rep->ms))
		return bad_line(what, lineno,
				"expected \"result ok|fail <n_ok> <n_bad> <ms>\"");
	rep->checked = true;
	rep->ok = !strcmp(w[1], "ok");
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
		return bad_line(what, lineno, "expected 6 fields");
	verdict = name_index(verdict_names, FTGL_ARRAY_SIZE(verdict_names), w[1]);
	if (ftgl_parse_hex(w[0], &addr))
		return bad_line(what, lineno, "malformed address");
	if (verdict < 0)
		return bad_line(what, lineno, "unknown verdict");
	if (!valid_bytes(w[3]) || !valid_bytes(w[4]))
		return bad_line(what, lineno, "malformed bytes");
	cl = ftgl_vec_push(&rep->lines);
	if (!cl)
		return -1;
	cl->addr = addr;
	cl->verdict = verdict;
	cl->expected = ftgl_pool_strdup(&rep->pool, w[3]);
	cl->actual = ftgl_pool_strdup(&rep->pool, w[4]);
	cl->owner = pool_name(&rep->pool, w[2], what, lineno);
	cl->name = cl->owner ? pool_name(&rep->pool, w[5], what, lineno) : NULL;
	return cl->name && cl->expected && cl->actual ? 0 : -1;
}

struct ftg_check_report *ftgl_check_report_parse(const char *what,
						 const char *text, size_t len)
{
	struct ftg_check_report *rep = calloc(1, sizeof(*rep));
	char *buf = copy_text(text, len), *line;
	struct ftgl_lines lines;

	if (!rep || !buf) {
		if (!rep)
			ftgl_err(FTG_E_SYSTEM, ENOMEM, "out of memory");
		goto fail;
	}
	ftgl_vec_init(&rep->lines, sizeof(struct ftg_check_line));
	ftgl_lines_init(&lines, buf, len);
	if (ftgl_kmod_header("check", ftgl_lines_next(&lines)))
		goto fail;
	line = ftgl_lines_next(&lines);
	if (parse_result(rep, what, line, lines.lineno))
		goto fail;
	while ((line = ftgl_lines_next(&lines)))
		if (*line && parse_check_line(rep, what, line, lines.lineno))
			goto fail;
	if (lines.too_long) {
		ftgl_err(FTG_E_LINE_TOO_LONG, EINVAL, "%s: line too long", what);
		goto fail;
	}
	free(buf);
	return rep;
fail:
	free(buf);
	ftg_check_report_free(rep);
	return NULL;
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

/**
 * ftg_check_report_parse - parse a check report (table or response)
 * @text: the report's text
 * @len: its length
 *
 * Return: the report, to free with ftg_check_report_free(), or NULL.
 */
struct ftg_check_report *ftg_check_report_parse(const char *text, size_t len)
{
	return ftgl_check_report_parse("check", text, len);
}

/**
 * ftg_check_report_read - read ftguard/check (the last check's report)
 * @debugfs_dir: debugfs root (NULL: /sys/kernel/debug)
 *
 * Return: the report, to free with ftg_check_report_free(), or NULL.
 */
struct ftg_check_report *ftg_check_report_read(const char *debugfs_dir)
{
	size_t len;
	char *buf = ftgl_kmod_read(debugfs_dir, "check", &len);
	struct ftg_check_report *rep;

	if (!buf)
		return NULL;
	rep = ftgl_check_report_parse("check", buf, len);
	free(buf);
	return rep;
}

/**
 * ftg_check_report_free - free a check report
 * @rep: the report, or NULL
 */
void ftg_check_report_free(struct ftg_check_report *rep)
{
	if (!rep)
		return;
	ftgl_vec_release(&rep->lines);
	ftgl_pool_release(&rep->pool);
	free(rep);
}

/**
 * ftg_check_report_ok - did the module find every checked site ok?
 * @rep: the report
 *
 * Return: true for "result ok".
 */
bool ftg_check_report_ok(const struct ftg_check_report *rep)
{
	return rep->ok;
}

/**
 * ftg_check_report_checked - has the module checked anything yet?
 * @rep: the report
 *
 * Return: false for the module's "result never" (no check since load).
 */
bool ftg_check_report_checked(const struct ftg_check_report *rep)
{
	return rep->checked;
}

/**
 * ftg_check_report_n_ok - sites the module found ok
 * @rep: the report
 *
 * Return: the count from the result line.
 */
uint64_t ftg_check_report_n_ok(const struct ftg_check_report *rep)
{
	return rep->n_ok;
}

/**
 * ftg_check_report_n_bad - sites the module found wrong
 * @rep: the report
 *
 * Return: the count from the result line.
 */
uint64_t ftg_check_report_n_bad(const struct ftg_check_report *rep)
{
	return rep->n_bad;
}

/**
 * ftg_check_report_ms - how long the check took
 * @rep: the report
 *
 * Return: milliseconds, from the result line.
 */
uint64_t ftg_check_report_ms(const struct ftg_check_report *rep)
{
	return rep->ms;
}

/**
 * ftg_check_report_count - number of site lines in the report
 * @rep: the report
 *
 * Return: the count (bad sites, and ok ones when fewer than 64 were
 * checked).
 */
size_t ftg_check_report_count(const struct ftg_check_report *rep)
{
	return rep->lines.len;
}

/**
 * ftg_check_report_get - the @i-th site line
 * @rep: the report
 * @i: index
 *
 * Return: the line (owned by @rep), or NULL when @i >= count.
 */
const struct ftg_check_line *ftg_check_report_get(const struct ftg_check_report *rep,
						  size_t i)
{
	return ftgl_vec_at(&rep->lines, i);
}
