/* SPDX-License-Identifier: LGPL-2.1 */
/*
 * libftguard internals shared by the reader, control, selection, map and
 * checker sources. Not installed, and nothing here is exported
 * (libftguard.map exports only what ftguard.h declares). Internal names use
 * the ftgl_ prefix.
 */
#ifndef _FTGUARD_LOCAL_H
#define _FTGUARD_LOCAL_H

#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "ftguard.h"
#include "ftguard-test.h"

/* Longest line a reader accepts; longer ones are skipped and counted. */
#define FTGL_LINE_MAX		4096
/* Largest file a reader loads (kallsyms of a big kernel is ~15 MiB). */
#define FTGL_FILE_MAX		(256UL << 20)

#define FTGL_ARRAY_SIZE(a)	(sizeof(a) / sizeof((a)[0]))

/* error.c */
/*
 * Records @code with a printf-style message for ftg_error_last(), sets
 * errno to @errnum and returns -1, so that "return ftgl_err(...);" reads
 * naturally. The message is prefixed by nothing: callers say where.
 */
int ftgl_err(enum ftg_error code, int errnum, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
/* Same, errno and code kept from the previous ftgl_err(), message
 * prefixed with "@fmt: " (adds context to an inner error). */
int ftgl_err_prefix(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* Sends a warning to the handler set by ftg_set_warning_handler(). */
void ftgl_warn(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/*
 * users.c: the livepatches loaded, as sysfs lays them out:
 * sys/kernel/livepatch/PATCH/OBJECT/FUNCTION,SYMPOS/. What ftg_users_read()
 * reads of them is what a snapshot must copy, so both walk them here.
 */
struct ftgl_livepatch_ops {
	/* Each patch, before its functions; @dir is its directory. May be NULL. */
	int (*patch)(const char *dir, const char *patch, void *arg);
	/* Each function, @function named as its directory is: "NAME,SYMPOS". */
	int (*function)(const char *patch, const char *object,
			const char *function, void *arg);
};
/* Returns the first nonzero return of @ops, which ends the walk; 0 when
 * none is loaded; -1 on ENOMEM. */
int ftgl_livepatch_walk(const char *sys_dir,
			const struct ftgl_livepatch_ops *ops, void *arg);

/* users-bpf.c: the BPF programs behind a BPF trampoline. */
struct ftgl_bpf_prog {
	uint32_t target_obj_id;	/* the BTF object of the attach target */
	uint32_t target_btf_id;	/* the function's type in it */
	uint32_t prog_id;
	char name[16];		/* BPF_OBJ_NAME_LEN */
};
/* The ids a "bpf_trampoline_KEY[+off/size]" symbol is made of; -1 when it
 * is no trampoline on a kernel function. */
int ftgl_bpf_tramp_ids(const char *sym, uint32_t *obj_id, uint32_t *btf_id);
/* Does @p run in the trampoline whose symbol is @sym? */
bool ftgl_bpf_prog_on(const struct ftgl_bpf_prog *p, const char *sym);
/* Every program attached through a tracing link, *@count of them, to
 * free(); NULL (errno) when the kernel does not let this process look. */
struct ftgl_bpf_prog *ftgl_bpf_progs_read(size_t *count);

/* util.c: a growable array of fixed-size elements, bounded. */
struct ftgl_vec {
	void *data;
	size_t len;
	size_t cap;
	size_t elem_size;
};
void ftgl_vec_init(struct ftgl_vec *v, size_t elem_size);
/* Appends a zeroed element and returns it; NULL (FTG_E_TOO_MANY or
 * ENOMEM) when full. */
void *ftgl_vec_push(struct ftgl_vec *v);
void *ftgl_vec_at(const struct ftgl_vec *v, size_t i);
void ftgl_vec_release(struct ftgl_vec *v);

/* util.c: a string pool; strings stay put until the pool is released. */
struct ftgl_pool_chunk;
struct ftgl_pool {
	struct ftgl_pool_chunk *head;
};
const char *ftgl_pool_strndup(struct ftgl_pool *p, const char *s, size_t n);
const char *ftgl_pool_strdup(struct ftgl_pool *p, const char *s);
/* Returns the pooled copy of @s, sharing equal strings only with the
 * previous call (module names repeat in runs in kallsyms). */
void ftgl_pool_release(struct ftgl_pool *p);

/* util.c: whole files and their lines. */
/*
 * Reads @dir/@name (either may be NULL/"" to use the other alone) into a
 * NUL-terminated buffer of at most FTGL_FILE_MAX bytes. Reads until EOF,
 * so it works for procfs/debugfs files whose size is 0.
 */
char *ftgl_read_file(const char *dir, const char *name, size_t *len);
/* Joins @dir and @name into a malloc'ed path. */
char *ftgl_path(const char *dir, const char *name);

struct ftgl_lines {
	char *pos;		/* next unread byte */
	char *end;
	unsigned long lineno;	/* of the line last returned */
	size_t too_long;	/* lines skipped for exceeding FTGL_LINE_MAX */
};
/* Iterates over the lines of @buf[0..@len) in place (newlines become
 * NULs). @buf must have a byte after @len (ftgl_read_file() gives one). */
void ftgl_lines_init(struct ftgl_lines *l, char *buf, size_t len);
/* Next line without its newline, or NULL at the end. */
char *ftgl_lines_next(struct ftgl_lines *l);

/*
 * The line loop of the kernel-file readers (kallsyms, modules,
 * vmallocinfo, the ftrace lists): @fn parses one line of @buf[0..@len)
 * into @obj and returns 0, -1 for a malformed line (counted in *@skipped,
 * as is a line too long) or -2 for a failure that ends the read (its
 * error set; prefixed here with @file). A warning names @file and the
 * count when lines were skipped. Returns 0, or -1 after a -2.
 */
int ftgl_parse_lines(const char *file, char *buf, size_t len,
		     int (*fn)(void *obj, char *line), void *obj, size_t *skipped);

/* Splits @line in place at runs of spaces/tabs into at most @max words;
 * returns the number of words, or @max + 1 when there were more. */
int ftgl_split(char *line, char **words, int max);
/* A copy of @s with its escapes undone, or as written when they are not
 * well formed (free text of the module's tables); NULL on ENOMEM. */
char *ftgl_unescape_dup(const char *s);

/* Strict numbers: the whole string must be the number. Hex takes an
 * optional 0x. Return 0 or -1 (no error recorded). */
int ftgl_parse_hex(const char *s, uint64_t *out);
int ftgl_parse_u64(const char *s, uint64_t *out);
int ftgl_parse_int(const char *s, int *out);

/* util.c: qsort()/bsearch() that accept an empty (NULL) array. */
void ftgl_sort(void *base, size_t n, size_t size,
	       int (*cmp)(const void *, const void *, void *), void *arg);
void *ftgl_search(const void *key, const void *base, size_t n, size_t size,
		  int (*cmp)(const void *, const void *));

/* util.c: is @type (a kallsyms type letter) a text symbol? */
bool ftgl_ksym_is_text(char type);

/* One /proc/kallsyms line, split in place (util.c: the one reading of the
 * format for every reader of kallsyms text). */
struct ftgl_ksym_line {
	uint64_t addr;
	char type;
	char *name;
	char *module;		/* NULL: vmlinux */
};
int ftgl_ksym_line_parse(char *line, struct ftgl_ksym_line *out);

/* candidates.c: a placeholder name ftrace prints for a record that no
 * symbol covers ("__ftrace_invalid_address___<offset>")? */
bool ftgl_ftrace_name_invalid(const char *name);

/* instance.c: ftguard's trace instance in @tracefs_dir (NULL: the mounted
 * tracefs), or NULL with the error set (FTG_E_NO_MODULE when absent). */
struct tracefs_instance;
struct tracefs_instance *ftgl_instance_alloc(const char *tracefs_dir);
/* event-filter.c: write (clear) events/@system[/@event]/filter of @inst;
 * a filter the kernel refuses is the error, with its caret, and is
 * cleared again. They leave the previous error alone on success. */
int ftgl_event_filter_set(struct tracefs_instance *inst, const char *system,
			  const char *event, const char *filter);
int ftgl_event_filter_clear(struct tracefs_instance *inst, const char *system,
			    const char *event);

/* root.c: the mounted tracefs (/sys/kernel/tracing, else the debugfs one). */
const char *ftgl_live_tracefs(void);
/* root.c: a snapshot root's directory; NULL for the live system. */
const char *ftgl_root_dir(const struct ftg_root *root);

/* kmod-tables.c: reading ftguard/<table>, with the "why is it missing"
 * diagnosis shared with control.c. */
char *ftgl_kmod_read(const char *debugfs_dir, const char *table, size_t *len);
/* Records the right error for a failed open of @debugfs_dir/ftguard/@file
 * (errno @errnum): not root, debugfs not mounted, module not loaded. */
int ftgl_kmod_missing(const char *debugfs_dir, const char *file, int errnum);
/* The kernel lockdown mode in effect ("integrity", "confidentiality",
 * malloc'ed), NULL when none or unknown. */
char *ftgl_lockdown_mode(const char *debugfs_dir);
/* Checks "ftguard-@table N" on the first line; 0 or -1 with the error. */
int ftgl_kmod_header(const char *table, const char *line,
		     unsigned int *version);
/* "@table:@lineno: @what" as FTG_E_BAD_LINE; returns -1. */
int ftgl_bad_line(const char *table, unsigned long lineno, const char *what);
/* A NUL-terminated malloc'ed copy of @text (@len bytes). */
char *ftgl_copy_text(const char *text, size_t len);
/* Index of @word in @names[0..@n), or -1. */
int ftgl_name_index(const char *const *names, size_t n, const char *word);
/* Unescapes a name word in place and pools it; NULL on error (recorded,
 * prefixed "@table:@lineno"). */
const char *ftgl_pool_name(struct ftgl_pool *pool, char *word,
			   const char *table, unsigned long lineno);
/* Parses a check report from a response or file; @what names the source. */
struct ftg_check_report *ftgl_check_report_parse(const char *what,
						 const char *text, size_t len);

/* A deep copy of @rep. */
struct ftg_check_report *ftgl_check_report_copy(const struct ftg_check_report *rep);
/* ftg_check_report_read() of a debugfs directory: a control keeps the
 * directory it opened, where an arm's report is read back. */
struct ftg_check_report *ftgl_check_report_read(const char *debugfs_dir);

/* map.c: kinds of regions. */
static inline bool ftgl_region_is_range(enum ftg_region_kind kind)
{
	return kind == FTG_REGION_MODULES_RANGE ||
	       kind == FTG_REGION_VMALLOC_RANGE ||
	       kind == FTG_REGION_SHARED_RANGE;
}

/* Text let go: freed init text, an unloaded module's text. */
static inline bool ftgl_region_is_tombstone(enum ftg_region_kind kind)
{
	return kind == FTG_REGION_INIT_FREED || kind == FTG_REGION_MODULE_GONE;
}

static inline bool ftgl_region_is_text(enum ftg_region_kind kind)
{
	return kind == FTG_REGION_CORE_TEXT || kind == FTG_REGION_MODULE_TEXT ||
	       kind == FTG_REGION_MODULE_INIT;
}

/*
 * map.c builds, map-query.c answers. Parts are staged by ftg_map_add_*()
 * and become the sorted regions at ftg_map_finish().
 */
enum ftgl_map_source {
	FTGL_SRC_KALLSYMS, FTGL_SRC_PROC, FTGL_SRC_KMOD, FTGL_SRC_VMALLOC,
	FTGL_SRC_STATUS,
};

struct ftgl_staged {
	struct ftg_region r;
	enum ftgl_map_source src;
	uint64_t mapped_end;	/* vmalloc: end of the pages (no guard) */
};

/* A loaded module's section, kept to tell which area holds what. */
struct ftgl_mod_section {
	uint64_t addr;
	const char *module;	/* pooled */
	const char *name;	/* pooled */
	bool live;		/* false: init section of a module past init */
};

struct ftg_map {
	struct ftgl_vec staged;		/* struct ftgl_staged */
	struct ftgl_vec site_copies;	/* struct ftg_site */
	struct ftgl_vec mod_sections;	/* struct ftgl_mod_section */
	struct ftgl_pool pool;
	bool have_status;
	struct ftg_status status;
	/* After ftg_map_finish(): */
	bool finished;
	struct ftgl_vec regions;	/* struct ftg_region */
	struct ftgl_vec overlaps;	/* struct ftg_overlap */
	struct ftgl_vec sites;		/* struct ftg_map_site */
	size_t outside;
	enum ftg_arch arch;
};

/* control.c: ftg_control_admit() of candidates [@from, @end) only, for a
 * caller that offers a long list a part at a time. */
int ftgl_control_admit_range(struct ftg_control *ctl, const struct ftg_candidates *cand,
			     size_t from, size_t end, struct ftg_candidates *refused);

/* selection.c: what the session needs to know of a selection. */
/* Is it -l '*' alone: every function, no exclusion? */
bool ftgl_selection_everything(const struct ftg_selection *sel);
/* Does some -l pattern pin an address (NAME@ADDR)? */
bool ftgl_selection_has_pins(const struct ftg_selection *sel);
/*
 * The NAME@ADDR patterns that name a site of @sites (at most @max of
 * them) go to @addrs, *@n set to their count; the rest of @sel is the
 * returned selection, to free with ftg_selection_free(), or NULL.
 */
struct ftg_selection *ftgl_selection_take_pins(const struct ftg_selection *sel,
					       const struct ftg_sites *sites,
					       uint64_t *addrs, size_t max, size_t *n);

/* control.c: the commands only the session sends (session.c). */
/*
 * ftg_control_graph_tree - make this descriptor's graph arm a call tree
 * @ctl: the control
 * @roots: the tree's roots, sites already selected on @ctl
 * @n: how many (at most FTGUARD_GRAPH_ROOTS_MAX in all)
 *
 * An arm with FTG_ARM_GRAPH on @ctl then follows a call only while one of
 * @roots runs in the calling task, as trace-cmd's function_graph -g does:
 * the roots and every selected site they reach, down to the arm's
 * depth (ftgl_control_arm_tree()), with entry, return and duration. Every selected site is still
 * checked before the arm and verified while armed. The kernel needs a
 * return hook that covers every site at once (fprobe); with kretprobes
 * only, the arm is refused with EOPNOTSUPP and the reason.
 * ftg_control_clear() forgets the roots.
 *
 * Return: 0, or -1 (errno ENOENT: a root not selected; E2BIG: too many).
 */
int ftg_control_graph_tree(struct ftg_control *ctl, const uint64_t *roots,
			   size_t n);
/*
 * ftgl_control_arm_tree - ftg_control_arm() of a call tree
 * @ctl: the control
 * @flags: as ftg_control_arm()
 * @max_depth: levels the tree follows below a root, 0 all (at most
 *	FTGUARD_GRAPH_DEPTH_MAX: the module refuses more)
 * @report: as ftg_control_arm()
 *
 * Return: as ftg_control_arm().
 */
int ftgl_control_arm_tree(struct ftg_control *ctl, unsigned int flags,
			  unsigned int max_depth, struct ftg_check_report **report);

/*
 * ftg_control_select_all - add every site the module knows to the selection
 * @ctl: the control
 * @n: set to the number of sites selected then (may be NULL)
 *
 * Every site but a planted one (fault injection), vmlinux and modules
 * alike, selected by the module itself: no address crosses the control
 * file. It is every function a selection can take only once the module
 * has a site for each core-kernel record (ftg_status vmlinux_sites up to
 * vmlinux_records): the caller checks that first.
 *
 * Return: 0, or -1 (errno ENOENT: no site; EINVAL: an ftguard.ko older
 * than this libftguard, which has no such command).
 */
int ftg_control_select_all(struct ftg_control *ctl, size_t *n);

/*
 * ftg_control_vmlinux_records - tell the module how many core records exist
 * @ctl: the control
 * @records: the core kernel's ftrace records of functions, as counted in
 *           available_filter_functions
 *
 * The core kernel's records do not change after boot, so a count taken
 * once stays true for the module's life: struct ftg_status.vmlinux_records
 * gives it back, and once the module has as many vmlinux sites nothing is
 * left to offer without reading available_filter_functions again. The
 * module keeps the number only as that hint; no check depends on it.
 *
 * Return: 0, or -1 (the module refuses 0: errno EINVAL).
 */
int ftg_control_vmlinux_records(struct ftg_control *ctl, uint64_t records);

#define FTGL_DEFAULT_DEBUGFS	"/sys/kernel/debug"
/* ftguard.ko's misc device: the control file where lockdown closes debugfs */
#define FTGL_CONTROL_DEVICE	"/dev/ftguard"

/* session.c: the map ftg_session_arm() judges with (session-arm.c) */
const struct ftg_map *ftgl_session_map(const struct ftg_session *sess);
const struct ftg_map *ftgl_session_build_map(struct ftg_session *sess);
/* session.c: ftg_session_clear() when the descriptor may hold a selection */
int ftgl_session_clear_if_selected(struct ftg_session *sess);
/* session.c: one candidate offered alone (session-admit.c) */
/**
 * ftg_session_admit_one - offer one candidate again, to learn why not
 * @sess: the session
 * @cand: the candidate
 *
 * Return: 0 admitted (or already a site), or -1 with the module's reason
 * in ftg_error_last() (FTG_E_MODULE_REFUSED).
 */
int ftg_session_admit_one(struct ftg_session *sess, const struct ftg_candidate *cand);
/* session-arm.c: a request's functions, exclusions and modules (session-admit.c) */
const struct ftg_selection *ftgl_arm_request_sites(const struct ftg_arm_request *req);

#endif /* _FTGUARD_LOCAL_H */
