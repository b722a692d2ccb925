/* SPDX-License-Identifier: LGPL-2.1 */
/*
 * libftguard - the userspace side of ftguard, a safe function tracer.
 *
 * Conventions (as libtracefs): functions return -1 or NULL with errno set
 * on failure; every constructor has a matching _free(); a returned
 * "const char *" belongs to the object it came from and must not be freed.
 * Every reader takes the root directory it reads from (procfs, sysfs,
 * debugfs, tracefs) so that a saved snapshot can stand in for the live
 * system.
 */
#ifndef _FTGUARD_H
#define _FTGUARD_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#ifdef __cplusplus
extern "C" {
#endif

/* ==== Errors ==== */

/*
 * Every error the library reports has a code (enum ftg_error, made from the
 * one table below) and a text. ftg_error_last() gives the text of the last
 * failure in this thread: the library's own message, or the reason the
 * module gave in its "error <errno-name> <reason>" response. errno is set
 * too, as libtracefs does.
 */
#define FTG_ERRORS							\
	_FTG_ERR(OK,		"success")				\
	_FTG_ERR(SYSTEM,	"system error")				\
	_FTG_ERR(NO_HEADER,	"missing or malformed table header")	\
	_FTG_ERR(BAD_VERSION,	"unknown table format version")		\
	_FTG_ERR(BAD_LINE,	"malformed line")			\
	_FTG_ERR(BAD_NUMBER,	"malformed number or address")		\
	_FTG_ERR(BAD_ESCAPE,	"malformed octal escape in a name")	\
	_FTG_ERR(LINE_TOO_LONG,	"line too long")			\
	_FTG_ERR(TOO_MANY,	"too many entries")			\
	_FTG_ERR(NO_DEBUGFS,	"debugfs is not mounted (mount -t debugfs none /sys/kernel/debug)") \
	_FTG_ERR(NO_TRACEFS,	"tracefs is not mounted (mount -t tracefs none /sys/kernel/tracing)") \
	_FTG_ERR(NO_MODULE,	"ftguard.ko is not loaded (insmod ftguard.ko or modprobe ftguard)") \
	_FTG_ERR(NOT_ROOT,	"permission denied (run as root)")	\
	_FTG_ERR(MODULE_REFUSED, "ftguard.ko refused the command")	\
	_FTG_ERR(BAD_RESPONSE,	"malformed response from ftguard.ko")	\
	_FTG_ERR(BAD_PATTERN,	"malformed function pattern")		\
	_FTG_ERR(NO_MATCH,	"no function matches")			\
	_FTG_ERR(BAD_SNAPSHOT,	"not an ftguard snapshot directory")	\
	_FTG_ERR(BAD_TRACE,	"malformed trace.dat file")

#undef _FTG_ERR
#define _FTG_ERR(code, text) FTG_E_##code,
/* Error codes; FTG_E_OK is 0. */
enum ftg_error { FTG_ERRORS FTG_E_COUNT };
#undef _FTG_ERR

/**
 * ftg_error_last - text of the last error in this thread
 *
 * Return: a message such as "sites:3: malformed line" or the module's own
 * reason ("site 0xffffffffc0a01000 is stale"); "" when nothing failed
 * since ftg_error_clear(). Owned by the library, valid until the next
 * library call in this thread; do not free.
 */
const char *ftg_error_last(void);

/**
 * ftg_error_code - code of the last error in this thread
 *
 * Return: an enum ftg_error value, FTG_E_OK when nothing failed.
 */
enum ftg_error ftg_error_code(void);

/**
 * ftg_error_clear - forget the last error of this thread
 */
void ftg_error_clear(void);

/**
 * ftg_strerror - the fixed text of an error code
 * @code: an enum ftg_error value
 *
 * Return: a static string; "unknown error" for a code out of range.
 */
const char *ftg_strerror(enum ftg_error code);

/**
 * ftg_set_warning_handler - receive the library's warnings
 * @fn: called with each warning (e.g. "kallsyms: 2 malformed lines
 *      skipped"); NULL restores the default, which drops them
 * @data: passed to @fn
 *
 * The library never prints on its own.
 */
void ftg_set_warning_handler(void (*fn)(const char *msg, void *data),
			     void *data);

/*
 * Where to read from. A root is either the live system (/proc, /sys,
 * /sys/kernel/debug, the mounted tracefs) or a snapshot directory laid out
 * as doc/snapshot.md says: DIR/proc, DIR/sys/module, DIR/debug/ftguard,
 * DIR/tracing.
 */
struct ftg_root;

/**
 * ftg_root_open - describe where the kernel's files are
 * @dir: a snapshot directory, or NULL for the live system
 *
 * A snapshot must contain DIR/proc (errno ENOENT and FTG_E_BAD_SNAPSHOT
 * otherwise); a DIR/ftguard-snapshot of another format version is refused
 * (EPROTO, FTG_E_BAD_VERSION). For the live system tracefs is /sys/kernel/tracing when
 * mounted there, else /sys/kernel/debug/tracing.
 *
 * Return: a root to free with ftg_root_free(), or NULL with errno set.
 */
struct ftg_root *ftg_root_open(const char *dir);

/**
 * ftg_root_free - free a root from ftg_root_open()
 * @root: the root, or NULL
 */
void ftg_root_free(struct ftg_root *root);

/* Directories of a root; owned by @root. */
const char *ftg_root_proc(const struct ftg_root *root);    /* /proc */
const char *ftg_root_sys(const struct ftg_root *root);     /* /sys */
const char *ftg_root_debugfs(const struct ftg_root *root); /* /sys/kernel/debug */
const char *ftg_root_tracefs(const struct ftg_root *root); /* /sys/kernel/tracing */
/* true when @root is a saved snapshot (nothing may be written to it). */
bool ftg_root_is_snapshot(const struct ftg_root *root);

/**
 * ftg_snapshot_save - copy what libftguard reads into a snapshot directory
 * @root: where to read from (usually the live system)
 * @dir: directory to create or fill (created with mode 0755)
 *
 * Copies proc/{kallsyms,modules,vmallocinfo,version,cmdline},
 * sys/module/<m>/sections/<s>, debug/ftguard/{status,sites,modules,check}
 * when ftguard.ko is loaded, tracing/{available_filter_functions,
 * available_filter_functions_addrs,enabled_functions,touched_functions}
 * when present, the kernel's config (as DIR/config) when
 * /boot/config-RELEASE exists, and writes DIR/ftguard-snapshot: format
 * line, arch, time, and the kernel (release, machine, /proc/version,
 * config, features: see ftg_root_kernel()).
 * Files that cannot be read are skipped (kallsyms and modules are
 * required).
 *
 * Return: 0, or -1 with errno set and ftg_error_last() naming the file.
 */
int ftg_snapshot_save(const struct ftg_root *root, const char *dir);

/*
 * Which kernel a root shows: for a snapshot, what ftg_snapshot_save()
 * recorded in DIR/ftguard-snapshot; for the live system, uname(2),
 * /proc/version and /boot/config-RELEASE when present. Features that
 * decide where patch sites are come with how they were learnt.
 */
enum ftg_kernel_feature {
	FTG_KFEAT_IBT,		/* x86 IBT: functions begin with endbr64 */
	FTG_KFEAT_CALL_PADDING,	/* padding (__pfx_ symbols) before functions */
	FTG_KFEAT_FTRACE_ADDRS,	/* tracefs has available_filter_functions_addrs */
	FTG_KFEAT_COUNT
};
enum ftg_feature_state { FTG_FEATURE_UNKNOWN, FTG_FEATURE_NO, FTG_FEATURE_YES };
#define FTG_KERNEL_TEXT	256
struct ftg_kernel_info {
	bool snapshot;			/* read from a snapshot's header */
	int64_t created;		/* snapshot: when saved (Unix time); 0 */
	char arch[16];			/* "amd64", "i386", "unknown" */
	char release[FTG_KERNEL_TEXT];	/* uname -r; "" unknown */
	char machine[64];		/* uname -m; "" unknown */
	char version[2 * FTG_KERNEL_TEXT];	/* /proc/version; "" unknown */
	char config[FTG_KERNEL_TEXT];	/* config file read; "" none */
	enum ftg_feature_state feature[FTG_KFEAT_COUNT];
	/* "config", "kallsyms", "tracefs"; "" when unknown */
	char feature_source[FTG_KFEAT_COUNT][16];
};

/**
 * ftg_root_kernel - which kernel @root shows
 * @root: the live system or a snapshot
 * @info: filled (fields stay "" or unknown where nothing says)
 *
 * A snapshot saved before kernels were recorded gives an @info with an
 * empty release. The live system's features come from its config file
 * and tracefs only (kallsyms, the other source a snapshot uses, is too
 * dear to read for this).
 *
 * Return: 0, or -1 with errno set (a snapshot header that cannot be read).
 */
int ftg_root_kernel(const struct ftg_root *root, struct ftg_kernel_info *info);
/* "ibt", "call-padding", "ftrace-addrs"; "?" out of range. */
const char *ftg_kernel_feature_name(enum ftg_kernel_feature f);

/* ==== Kernel readers: kallsyms, modules, vmallocinfo, sections, ftrace files ==== */

/*
 * Readers. Each reads one kernel file below the directory it is given and
 * keeps it in memory; entries are plain read-only records owned by the
 * reader object. Lines longer than 4 KiB and malformed lines of kernel
 * files are skipped and counted (ftg_*_skipped(); a warning goes to the
 * warning handler). A file of more than FTG_MAX_ENTRIES entries fails with
 * FTG_E_TOO_MANY. Names are unescaped (octal \ooo).
 */
#define FTG_MAX_ENTRIES	(4U << 20)

/* /proc/kallsyms */
struct ftg_ksym {
	uint64_t addr;
	char type;		/* 't', 'T', 'd', ... as the kernel prints it */
	const char *name;
	const char *module;	/* NULL for vmlinux */
};
struct ftg_kallsyms;

/**
 * ftg_kallsyms_read - read @proc_dir/kallsyms
 * @proc_dir: "/proc" or a snapshot's proc directory
 *
 * Return: the symbols, to free with ftg_kallsyms_free(), or NULL.
 */
struct ftg_kallsyms *ftg_kallsyms_read(const char *proc_dir);
void ftg_kallsyms_free(struct ftg_kallsyms *ks);

/**
 * ftg_kallsyms_text - the file these symbols were read from
 * @ks: the symbols
 * @len: set to its length (may be NULL)
 *
 * Reading /proc/kallsyms costs the kernel far more than parsing it: a
 * command reads it once and hands the same symbols to the map
 * (ftg_map_load_with()) and the trace reader
 * (ftg_live_open_with_kallsyms()).
 *
 * Return: the bytes as read, NUL-terminated, owned by @ks.
 */
const char *ftg_kallsyms_text(const struct ftg_kallsyms *ks, size_t *len);
size_t ftg_kallsyms_count(const struct ftg_kallsyms *ks);
size_t ftg_kallsyms_skipped(const struct ftg_kallsyms *ks);
/* @i-th symbol in file order; NULL when @i >= count. */
const struct ftg_ksym *ftg_kallsyms_get(const struct ftg_kallsyms *ks, size_t i);

/**
 * ftg_kallsyms_find - every symbol called @name
 * @ks: the symbols
 * @name: exact name
 * @module: owner to match (see below)
 * @out: where to store up to @max pointers (may be NULL when @max is 0)
 * @max: size of @out
 *
 * @module NULL matches any owner, "vmlinux" only the core kernel, else
 * only that module. Static functions share names, hence several results.
 *
 * Return: the number of matches (may exceed @max: only @max are stored),
 * stored in address order.
 */
size_t ftg_kallsyms_find(const struct ftg_kallsyms *ks, const char *name,
			 const char *module, const struct ftg_ksym **out,
			 size_t max);

/**
 * ftg_kallsyms_lookup - the symbol at or just below @addr
 * @ks: the symbols
 * @addr: an address
 * @offset: set to @addr minus the symbol's address (may be NULL)
 *
 * Only text symbols (type t/T/w/W) are considered.
 *
 * Return: the symbol, or NULL when none is below @addr.
 */
const struct ftg_ksym *ftg_kallsyms_lookup(const struct ftg_kallsyms *ks,
					   uint64_t addr, uint64_t *offset);

/**
 * ftg_kallsyms_text_bounds - core kernel text, _stext.._etext
 * @ks: the symbols
 * @start: set to _stext
 * @end: set to _etext
 *
 * Return: 0, or -1 (ENOENT) when either symbol is missing or zero
 * (kptr_restrict hides addresses).
 */
int ftg_kallsyms_text_bounds(const struct ftg_kallsyms *ks, uint64_t *start,
			     uint64_t *end);

/* /proc/modules */
struct ftg_proc_module {
	const char *name;
	uint64_t size;
	int refcount;		/* -1 when the kernel printed "-" */
	const char *deps;	/* as printed, "-" when none */
	const char *state;	/* "Live", "Loading", "Unloading" */
	uint64_t base;		/* 0 when hidden */
	const char *taints;	/* "(OE)" or NULL */
};
struct ftg_proc_modules;
struct ftg_proc_modules *ftg_proc_modules_read(const char *proc_dir);
void ftg_proc_modules_free(struct ftg_proc_modules *pm);
size_t ftg_proc_modules_count(const struct ftg_proc_modules *pm);
size_t ftg_proc_modules_skipped(const struct ftg_proc_modules *pm);
const struct ftg_proc_module *ftg_proc_modules_get(const struct ftg_proc_modules *pm,
						   size_t i);
/* The module called @name, or NULL. */
const struct ftg_proc_module *ftg_proc_modules_find(const struct ftg_proc_modules *pm,
						    const char *name);

/* /proc/vmallocinfo */
enum ftg_vm_flag {
	FTG_VM_IOREMAP		= 1 << 0,
	FTG_VM_VMALLOC		= 1 << 1,
	FTG_VM_VMAP		= 1 << 2,
	FTG_VM_USER		= 1 << 3,
	FTG_VM_DMA_COHERENT	= 1 << 4,
	FTG_VM_VPAGES		= 1 << 5,
	FTG_VM_MAP_RAM		= 1 << 6,	/* "vm_map_ram" line */
	FTG_VM_UNPURGED		= 1 << 7,	/* "unpurged vm_area" line */
};
struct ftg_vmarea {
	uint64_t start;
	uint64_t end;		/* exclusive */
	uint64_t size;		/* as printed (includes the guard page) */
	const char *caller;	/* "e1000_probe+0x2f6/0x1200" or NULL */
	const char *caller_module;	/* "e1000e" or NULL */
	uint64_t pages;		/* 0 when not printed */
	uint64_t phys;
	bool has_phys;
	unsigned int flags;	/* enum ftg_vm_flag */
};
struct ftg_vmalloc;
/*
 * Reads @proc_dir/vmallocinfo. Without root (or with kptr_restrict 0) the
 * kernel prints hashed addresses: a line whose end is below its start is
 * skipped and counted like a malformed one.
 */
struct ftg_vmalloc *ftg_vmalloc_read(const char *proc_dir);
void ftg_vmalloc_free(struct ftg_vmalloc *vm);
size_t ftg_vmalloc_count(const struct ftg_vmalloc *vm);
size_t ftg_vmalloc_skipped(const struct ftg_vmalloc *vm);
/* Areas in file order (sorted by address on 6.1, not always on 6.12). */
const struct ftg_vmarea *ftg_vmalloc_get(const struct ftg_vmalloc *vm, size_t i);
/* The area containing @addr, or NULL. */
const struct ftg_vmarea *ftg_vmalloc_lookup(const struct ftg_vmalloc *vm,
					    uint64_t addr);

/* /sys/module/<module>/sections/<section> */
struct ftg_section {
	const char *module;
	const char *name;	/* ".text", ".init.text", ... */
	uint64_t addr;
};
struct ftg_sections;

/**
 * ftg_sections_read - read the sections of every module under @sys_dir
 * @sys_dir: "/sys" or a snapshot's sys directory
 *
 * Reads @sys_dir/module/<m>/sections/<s> for each module that has a
 * sections directory (built-in modules have none). Every section is
 * kept, sorted by module then section name; a file that does not hold
 * one hex address is skipped and counted. No @sys_dir/module directory
 * at all gives an empty list.
 *
 * Return: the sections, to free with ftg_sections_free(), or NULL.
 */
struct ftg_sections *ftg_sections_read(const char *sys_dir);
void ftg_sections_free(struct ftg_sections *sec);
size_t ftg_sections_count(const struct ftg_sections *sec);
size_t ftg_sections_skipped(const struct ftg_sections *sec);
const struct ftg_section *ftg_sections_get(const struct ftg_sections *sec, size_t i);
/* Address of @section of @module; -1 (ENOENT) when absent. */
int ftg_sections_find(const struct ftg_sections *sec, const char *module,
		      const char *section, uint64_t *addr);

/* The kernel's ftrace files in tracefs. */
enum ftg_ftrace_file {
	FTG_FTRACE_AVAILABLE,	/* available_filter_functions */
	FTG_FTRACE_ENABLED,	/* enabled_functions */
	FTG_FTRACE_TOUCHED,	/* touched_functions (6.4+; ENOENT before) */
	/* available_filter_functions_addrs only (6.5+; ENOENT before) */
	FTG_FTRACE_AVAILABLE_ADDRS,
};
struct ftg_ftrace_func {
	const char *name;
	const char *module;	/* from the " [module]" suffix, NULL: vmlinux */
	int refcount;		/* enabled/touched: "(N)"; -1 otherwise */
	const char *flags;	/* rest of an enabled/touched line, or "" */
	/*
	 * The ftrace record (the patch site) as available_filter_functions_addrs
	 * prints it; 0 when read from a file without addresses. Not always the
	 * function's kallsyms address: after an endbr64 (x86 IBT) it is +4.
	 */
	uint64_t addr;
};
struct ftg_ftrace_funcs;

/**
 * ftg_ftrace_funcs_read - read one of the kernel's ftrace function lists
 * @tracefs_dir: the tracefs mount (or a snapshot's tracing directory)
 * @which: which file
 *
 * FTG_FTRACE_AVAILABLE reads available_filter_functions_addrs when the
 * kernel has it (6.5+): the same records, one a line, each with its
 * address ("ffffffff81234564 vfs_read"), so that every entry's @addr is
 * the patch site itself and no kallsyms join is needed. Older kernels
 * (and snapshots of them) give available_filter_functions, names only,
 * with @addr 0.
 *
 * Return: the list, to free with ftg_ftrace_funcs_free(), or NULL with
 * errno ENOENT when the file does not exist (FTG_E_NO_TRACEFS when
 * @tracefs_dir has no available_filter_functions at all).
 */
struct ftg_ftrace_funcs *ftg_ftrace_funcs_read(const char *tracefs_dir,
					       enum ftg_ftrace_file which);
void ftg_ftrace_funcs_free(struct ftg_ftrace_funcs *ff);
size_t ftg_ftrace_funcs_count(const struct ftg_ftrace_funcs *ff);
size_t ftg_ftrace_funcs_skipped(const struct ftg_ftrace_funcs *ff);
/* true when the entries carry record addresses (..._addrs was read). */
bool ftg_ftrace_funcs_has_addrs(const struct ftg_ftrace_funcs *ff);
const struct ftg_ftrace_func *ftg_ftrace_funcs_get(const struct ftg_ftrace_funcs *ff,
						   size_t i);
/* Number of entries called @name owned by @module (NULL: any, "vmlinux"). */
size_t ftg_ftrace_funcs_has(const struct ftg_ftrace_funcs *ff, const char *name,
			    const char *module);

/**
 * ftg_unescape - undo the module's seq_escape() of a name
 * @s: the string, modified in place ("a\040b" -> "a b")
 *
 * Return: 0, or -1 (EINVAL, FTG_E_BAD_ESCAPE) for a backslash that does
 * not start three octal digits or escapes a NUL byte.
 */
int ftg_unescape(char *s);

/* ==== Names: display of kernel-supplied text ==== */

/*
 * Names (functions, modules, comm, vmalloc callers) and the module's
 * reasons come from the kernel and may hold any byte but NUL: a space, a
 * newline or an escape sequence that would reprogram a terminal.
 * ftg_escape() gives the visible form every ftguard output uses, the
 * module's own octal escaping: bytes outside printable ASCII (0x21..0x7e),
 * and the backslash, become "\ooo". ftg_unescape() undoes it.
 */
enum ftg_escape_flags {
	/* Free text (messages, reasons): space and backslash stay as they
	 * are; control bytes, DEL and non-ASCII bytes are still escaped. */
	FTG_ESCAPE_TEXT = 1 << 0,
};
size_t ftg_escape(char *buf, size_t size, const char *s, unsigned int flags);
/* @s as a JSON string literal in plain ASCII (\uXXXX for non-ASCII). */
int ftg_fputs_json(FILE *out, const char *s);

/* ==== ftguard.ko tables and control ==== */

struct ftg_candidates;

/*
 * ftguard.ko's debugfs tables (doc/interface.md, format version 1). Each
 * reader takes the debugfs root ("/sys/kernel/debug" or a snapshot's
 * "debug") and reads ftguard/<table>. A table whose header names another
 * format version is refused (FTG_E_BAD_VERSION, errno EPROTO); a malformed
 * line fails the whole read with "<table>:<line>: <what>" (the module's
 * tables are a contract, unlike the kernel's own files).
 */
#define FTG_FORMAT_VERSION	1
/* The sites table is at version 2 (record offset and bytes); 1 still reads. */
#define FTG_SITES_FORMAT_VERSION	2

/* ftguard/status */
#define FTG_TEXT_LEN	256
struct ftg_status {
	bool loaded;
	bool armed;
	char owner[FTG_TEXT_LEN];	/* "none", "persistent", "<pid> <comm>" */
	int owner_pid;			/* 0 unless owned by a process */
	uint64_t armed_sites;
	bool killed;
	char kill_reason[FTG_TEXT_LEN];	/* "" for "-" */
	uint64_t sites;
	uint64_t vmlinux_sites;
	uint64_t vmlinux_records;	/* core records, as counted; 0 unsaid */
	uint64_t module_sites;
	uint64_t admitted;
	uint64_t rejected;
	bool checked;			/* false: "last_check never" */
	uint64_t last_check_ms;
	bool last_check_ok;
	uint64_t last_check_n_ok;
	uint64_t last_check_n_bad;
	char last_error[FTG_TEXT_LEN];	/* "" for "-" */
	uint64_t verify_period_ms;
	uint64_t max_arm;
	bool fault_injection;
	uint64_t modules_vaddr;
	uint64_t modules_end;
	uint64_t vmalloc_start;
	uint64_t vmalloc_end;
};

/**
 * ftg_status_read - read ftguard/status
 * @debugfs_dir: debugfs root (NULL: /sys/kernel/debug)
 * @st: filled on success
 *
 * Unknown keys are ignored (the format may grow); a missing key keeps 0.
 * When the table is absent the error says why: FTG_E_NO_DEBUGFS,
 * FTG_E_NO_MODULE or FTG_E_NOT_ROOT.
 *
 * Return: 0, or -1 with errno set.
 */
int ftg_status_read(const char *debugfs_dir, struct ftg_status *st);
/* Same, from text in memory (@len bytes). */
int ftg_status_parse(const char *text, size_t len, struct ftg_status *st);

/* ftguard/sites */
enum ftg_site_state {
	FTG_SITE_OK, FTG_SITE_ARMED, FTG_SITE_UNCHECKED, FTG_SITE_STALE,
	FTG_SITE_FOREIGN, FTG_SITE_MISMATCH, FTG_SITE_PLANTED,
};
enum ftg_site_section { FTG_SECTION_CORE, FTG_SECTION_INIT };
struct ftg_site {
	uint64_t addr;
	enum ftg_site_state state;
	enum ftg_site_section section;
	const char *owner;	/* "vmlinux" or a module name */
	uint64_t hits;
	uint64_t reads;
	/*
	 * The record's offset in its function (after endbr64 or arm64's
	 * "mov x9, x30"), and the prologue as the last check expected and
	 * read it, hex "[prefix:]site"; "-" when not read (or, for
	 * expected, from a version 1 table).
	 */
	unsigned int offset;
	const char *expected;
	const char *actual;
	const char *name;
};
struct ftg_sites;
struct ftg_sites *ftg_sites_read(const char *debugfs_dir);
struct ftg_sites *ftg_sites_parse(const char *text, size_t len);
void ftg_sites_free(struct ftg_sites *sites);
size_t ftg_sites_count(const struct ftg_sites *sites);
const struct ftg_site *ftg_sites_get(const struct ftg_sites *sites, size_t i);
/* The site at @addr, or NULL. */
const struct ftg_site *ftg_sites_find(const struct ftg_sites *sites, uint64_t addr);
/* "ok", "armed", ...; "?" out of range. */
const char *ftg_site_state_name(enum ftg_site_state state);
/* Reverse of ftg_site_state_name(); -1 (EINVAL) if unknown. */
int ftg_site_state_parse(const char *name);

/* ftguard/modules */
enum ftg_kmodule_state {
	FTG_KMODULE_COMING, FTG_KMODULE_LIVE, FTG_KMODULE_GOING, FTG_KMODULE_GONE,
};
enum ftg_init_state { FTG_INIT_LIVE, FTG_INIT_DROPPED, FTG_INIT_NONE };
struct ftg_kmodule {
	const char *name;
	enum ftg_kmodule_state state;
	uint64_t core_base;
	uint64_t core_text_size;
	uint64_t init_base;
	uint64_t init_text_size;
	enum ftg_init_state init;
	uint64_t dropped_ms;	/* when init (or a gone module's text) was let go */
	uint64_t nsites;
};
struct ftg_kmodules;
struct ftg_kmodules *ftg_kmodules_read(const char *debugfs_dir);
struct ftg_kmodules *ftg_kmodules_parse(const char *text, size_t len);
void ftg_kmodules_free(struct ftg_kmodules *mods);
size_t ftg_kmodules_count(const struct ftg_kmodules *mods);
const struct ftg_kmodule *ftg_kmodules_get(const struct ftg_kmodules *mods, size_t i);
/* The newest entry called @name (a live one before tombstones), or NULL. */
const struct ftg_kmodule *ftg_kmodules_find(const struct ftg_kmodules *mods,
					    const char *name);
const char *ftg_kmodule_state_name(enum ftg_kmodule_state state);

/* ftguard/check, and the control response to check/arm */
enum ftg_verdict_kind {
	FTG_VERDICT_OK, FTG_VERDICT_STALE, FTG_VERDICT_FOREIGN,
	FTG_VERDICT_MISMATCH,
};
struct ftg_check_line {
	uint64_t addr;
	enum ftg_verdict_kind verdict;
	const char *owner;
	const char *expected;	/* the prologue: hex "[prefix:]site", or "-" */
	const char *actual;	/* as read, or "-" when not read */
	const char *name;
};
struct ftg_check_report;
struct ftg_check_report *ftg_check_report_read(const char *debugfs_dir);
struct ftg_check_report *ftg_check_report_parse(const char *text, size_t len);
void ftg_check_report_free(struct ftg_check_report *rep);
/* The "result" line; "result never" (no check since the module loaded)
 * reads as not checked, not ok, nothing counted. */
bool ftg_check_report_checked(const struct ftg_check_report *rep);
bool ftg_check_report_ok(const struct ftg_check_report *rep);
uint64_t ftg_check_report_n_ok(const struct ftg_check_report *rep);
uint64_t ftg_check_report_n_bad(const struct ftg_check_report *rep);
uint64_t ftg_check_report_ms(const struct ftg_check_report *rep);
size_t ftg_check_report_count(const struct ftg_check_report *rep);
const struct ftg_check_line *ftg_check_report_get(const struct ftg_check_report *rep,
						  size_t i);
/* "ok", "stale", "foreign", "mismatch"; "?" out of range. */
const char *ftg_verdict_kind_name(enum ftg_verdict_kind kind);

/*
 * The control file. Each ftg_control is one open() of ftguard/control (or
 * of /dev/ftguard, the same file as a character device), with its own
 * selection; an arm made without FTG_ARM_PERSISTENT lasts
 * while it stays open (ftg_control_close() disarms it). An ftg_control is
 * not thread-safe: use it from one thread at a time (the module serializes
 * commands from different descriptors itself).
 */
struct ftg_control;

/**
 * ftg_control_open - open ftguard/control, or /dev/ftguard under lockdown
 * @debugfs_dir: debugfs root (NULL: "/sys/kernel/debug")
 *
 * Opens @debugfs_dir/ftguard/control. When that open fails with EPERM
 * (kernel lockdown: debugfs then opens no file for writing, root's
 * included) and @debugfs_dir is the live root "/sys/kernel/debug" (NULL
 * too; not a fixture or snapshot root), opens ftguard.ko's misc device
 * /dev/ftguard instead: the same control file, which integrity lockdown
 * leaves open. The table reads (ftg_control_arm()'s check report) still go
 * to @debugfs_dir, whose 0400 files lockdown leaves readable.
 *
 * Fails with an actionable message: FTG_E_NOT_ROOT (EACCES/EPERM; when
 * both paths refused, EPERM and a message naming both, and the lockdown
 * mode when one is in effect), FTG_E_NO_DEBUGFS (debugfs not mounted),
 * FTG_E_NO_MODULE (ENODEV: ftguard.ko not loaded).
 *
 * Return: the control, to close with ftg_control_close(), or NULL.
 */
struct ftg_control *ftg_control_open(const char *debugfs_dir);
void ftg_control_close(struct ftg_control *ctl);

/**
 * ftg_control_send - send one command and read the response
 * @ctl: the control
 * @cmd: one command line, without the newline (at most 255 bytes)
 *
 * Return: 0 when the module answered "ok..." or with a check report;
 * -1 otherwise: for "error <errno-name> <reason>" errno is that errno
 * (EPERM, EBUSY, ESTALE, E2BIG, ENOENT, EINVAL...), the code is
 * FTG_E_MODULE_REFUSED and ftg_error_last() is the reason.
 */
int ftg_control_send(struct ftg_control *ctl, const char *cmd);
/* The last response text, without its final newline; owned by @ctl. */
const char *ftg_control_response(const struct ftg_control *ctl);

/**
 * ftg_control_admit - offer vmlinux candidates to the module
 * @ctl: the control
 * @cand: candidates; entries with a module are not sent
 * @refused: when not NULL, receives the candidates the module refused
 *
 * Sends "admit <name> <addr>" lines packed into writes of at most 64 KiB.
 * A rejected candidate is not an error (the module counts it: see
 * struct ftg_status.rejected); when @refused is not NULL each one is added
 * to it, in the order of @cand.
 *
 * Return: the number of candidates sent, or -1.
 */
int ftg_control_admit(struct ftg_control *ctl, const struct ftg_candidates *cand,
		      struct ftg_candidates *refused);

/**
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

/**
 * ftg_control_select - add sites to this descriptor's selection
 * @ctl: the control
 * @cand: the sites (vmlinux candidates must be admitted first)
 *
 * Return: 0, or -1 (errno ENOENT: a site the module does not know; the
 * message names it).
 */
int ftg_control_select(struct ftg_control *ctl, const struct ftg_candidates *cand);
int ftg_control_select_addrs(struct ftg_control *ctl, const uint64_t *addrs,
			     size_t n);
int ftg_control_clear(struct ftg_control *ctl);

/**
 * ftg_control_check - check the selection (all sites when empty)
 * @ctl: the control
 *
 * Return: the module's report, to free with ftg_check_report_free(),
 * or NULL.
 */
struct ftg_check_report *ftg_control_check(struct ftg_control *ctl);

#define FTG_ARM_PERSISTENT	(1U << 0)	/* outlives this descriptor */
#define FTG_ARM_FORCE		(1U << 1)	/* beyond max_arm */
#define FTG_ARM_GRAPH		(1U << 2)	/* entries and returns */
/**
 * ftg_control_arm - check and arm the selection
 * @ctl: the control
 * @flags: FTG_ARM_PERSISTENT, FTG_ARM_FORCE, FTG_ARM_GRAPH (record each
 *         call's entry and return, ftguard:graph_entry/graph_exit, instead
 *         of ftguard:func)
 * @report: if not NULL, set to the check report (from the response, or
 *          from ftguard/check when the arm was refused with ESTALE), or
 *          NULL when none could be read; free it with
 *          ftg_check_report_free()
 *
 * Return: 0 armed, -1 refused (errno EPERM killed, EBUSY already armed,
 * ESTALE check failed, E2BIG too many sites, ENOENT empty selection).
 */
int ftg_control_arm(struct ftg_control *ctl, unsigned int flags,
		    struct ftg_check_report **report);
int ftg_control_disarm(struct ftg_control *ctl);
/* Module "reset", then truncates instances/ftguard/trace (6.1 gives the
 * module no way to clear its buffer). */
int ftg_control_reset(struct ftg_control *ctl);

/* ==== Selection ==== */

/*
 * A candidate site: a function entry address and who owns it. Lists of
 * candidates come from the selection or from ftg_candidates_vmlinux().
 */
struct ftg_candidate {
	const char *name;
	uint64_t addr;
	const char *module;	/* NULL for vmlinux */
};
struct ftg_candidates;
struct ftg_candidates *ftg_candidates_new(void);
/* Adds a copy of (@name, @addr, @module) in address order; returns 1,
 * 0 when @addr is already there, -1 on error. */
int ftg_candidates_add(struct ftg_candidates *c, const char *name,
		       uint64_t addr, const char *module);
void ftg_candidates_free(struct ftg_candidates *c);
size_t ftg_candidates_count(const struct ftg_candidates *c);
/* Sorted by address. */
const struct ftg_candidate *ftg_candidates_get(const struct ftg_candidates *c,
					       size_t i);

/**
 * ftg_candidates_vmlinux - every vmlinux function ftrace can patch
 * @ks: /proc/kallsyms (may be NULL when @avail carries addresses)
 * @avail: available_filter_functions (ftg_ftrace_funcs_read())
 *
 * Each candidate's address is the function's ftrace record, the address
 * the module admits. When @avail was read from
 * available_filter_functions_addrs (6.5+) that is each entry's own
 * address, taken as is: with x86 IBT it lies 4 bytes into the function,
 * after the endbr64, not at the kallsyms address. On older kernels
 * (6.1) the list has names only; each vmlinux name is then paired with
 * every text address kallsyms has for it (a duplicated static name
 * yields all its addresses; the record is at the function's first byte
 * there, and the module checks each one before admitting it).
 * Placeholders for records without a symbol
 * ("__ftrace_invalid_address___N") are left out.
 *
 * Return: the candidates, or NULL.
 */
struct ftg_candidates *ftg_candidates_vmlinux(const struct ftg_kallsyms *ks,
					      const struct ftg_ftrace_funcs *avail);

/*
 * A selection: what -l/-n/-m asked for.
 *   -l GLOB          fnmatch() glob over function names (all owners)
 *   -l MODULE:GLOB   only functions of MODULE ("vmlinux" for the core)
 *   -l NAME@ADDR     exactly that function at that address (hex)
 *   -n GLOB          leave out matches (same forms)
 *   -m MODULE        every function of MODULE
 */
struct ftg_selection;
struct ftg_selection *ftg_selection_new(void);
void ftg_selection_free(struct ftg_selection *sel);

/**
 * ftg_selection_add - add a -l pattern
 * @sel: the selection
 * @pattern: GLOB, MODULE:GLOB or NAME@ADDR
 *
 * Return: 0, or -1 (EINVAL, FTG_E_BAD_PATTERN) for an empty pattern, an
 * unbalanced '[' or a bad address.
 */
int ftg_selection_add(struct ftg_selection *sel, const char *pattern);

/**
 * ftg_pattern_addr - the address that pins a NAME@ADDR pattern
 * @pattern: a -l or -n pattern (the part after its last '@' is the address)
 * @addr: set to ADDR: hex, "0x" optional, the whole rest of @pattern, not 0
 * @at: set to the offset of that '@' in @pattern
 *
 * The one parser of the form, for callers that look a pinned site up
 * themselves before they add the pattern.
 *
 * Return: 1 when @pattern ends in @ADDR, 0 when it has no '@', -1 (EINVAL,
 * FTG_E_BAD_PATTERN) when what follows the '@' is no such address (no
 * digits, other characters, more than 64 bits).
 */
int ftg_pattern_addr(const char *pattern, uint64_t *addr, size_t *at);
/* Adds a -n pattern (same forms as ftg_selection_add()). */
int ftg_selection_exclude(struct ftg_selection *sel, const char *pattern);
/* Adds a -m module. */
int ftg_selection_add_module(struct ftg_selection *sel, const char *module);
/* true when nothing was added with _add() or _add_module(). */
bool ftg_selection_empty(const struct ftg_selection *sel);

/**
 * ftg_selection_resolve - expand the selection into candidate sites
 * @sel: the selection
 * @ks: /proc/kallsyms (addresses)
 * @avail: available_filter_functions (what ftrace can patch)
 *
 * A function is a candidate when available_filter_functions lists it
 * (with its owner). Its address is its ftrace record: the entry's own
 * address when @avail carries them (6.5+, see ftg_candidates_vmlinux();
 * a NAME@ADDR pin then matches the record or the function's kallsyms
 * address), else every text address kallsyms has for the name.
 * Exclusions apply last.
 *
 * Return: the candidates, or NULL: errno ENOENT and FTG_E_NO_MATCH when
 * nothing matches (the message names the first pattern that matched
 * nothing); EACCES and FTG_E_NOT_ROOT when functions matched but kallsyms
 * hid their addresses (not root, kptr_restrict).
 */
struct ftg_candidates *ftg_selection_resolve(const struct ftg_selection *sel,
					     const struct ftg_kallsyms *ks,
					     const struct ftg_ftrace_funcs *avail);

/* ==== Address map ==== */

/*
 * The address map: what lives where in kernel space, from kallsyms,
 * /proc/modules, /sys/module/<m>/sections, /proc/vmallocinfo and
 * ftguard.ko's status/modules/sites tables.
 */
enum ftg_arch { FTG_ARCH_UNKNOWN, FTG_ARCH_AMD64, FTG_ARCH_I386, FTG_ARCH_ARM64 };

enum ftg_region_kind {
	FTG_REGION_CORE_TEXT,		/* vmlinux _stext.._etext */
	FTG_REGION_MODULE_TEXT,		/* a module's core text */
	FTG_REGION_MODULE_INIT,		/* a module's live init text */
	FTG_REGION_INIT_FREED,		/* tombstone: init text let go */
	FTG_REGION_MODULE_GONE,		/* tombstone: an unloaded module's text */
	FTG_REGION_VMALLOC,		/* vmallocinfo: vmalloc */
	FTG_REGION_IOREMAP,		/* vmallocinfo: ioremap */
	FTG_REGION_VMAP,		/* vmallocinfo: vmap, vm_map_ram, other */
	FTG_REGION_MODULES_RANGE,	/* MODULES_VADDR..MODULES_END */
	FTG_REGION_VMALLOC_RANGE,	/* VMALLOC_START..VMALLOC_END */
	FTG_REGION_SHARED_RANGE,	/* i386: modules and vmalloc, one range */
};

struct ftg_region {
	uint64_t start;
	uint64_t end;			/* exclusive */
	enum ftg_region_kind kind;
	const char *owner;		/* "vmlinux", a module name, or NULL */
	const char *caller;		/* vmallocinfo caller, or NULL */
	const char *caller_module;	/* vmallocinfo caller's module, or NULL */
	uint64_t phys;
	bool has_phys;
	uint64_t dropped_ms;		/* tombstones: when it was let go */
	bool live;			/* text that may hold sites now */
	/*
	 * A module's memory area (vmalloc kinds): which part of @owner it
	 * holds, named from the module's sections found in it: "text",
	 * "rodata", "ro-after-init", "data", "init-text", "init-rodata",
	 * "init-data", joined with '+' when one area holds several (6.1 puts
	 * a module's core in one area, "text+rodata+data"; 6.4+ gives each
	 * part its own). NULL for any other region.
	 */
	const char *part;
};

struct ftg_map_site {
	const struct ftg_site *site;		/* from the sites table */
	const struct ftg_region *region;	/* innermost region, or NULL */
	bool in_live_text;
};

struct ftg_map;

/**
 * ftg_map_load - build the map of a root
 * @root: the live system or a snapshot
 *
 * Reads kallsyms and /proc/modules (required), module sections,
 * vmallocinfo, and ftguard.ko's status, modules and sites tables when
 * present (a missing module table only leaves its part out).
 *
 * Return: the map, to free with ftg_map_free(), or NULL.
 */
struct ftg_map *ftg_map_load(const struct ftg_root *root);

/* Flags for ftg_map_load_with(). */
#define FTG_MAP_NO_SITES	(1U << 0)	/* no site overlay (ftg_map_site_count() 0) */

/**
 * ftg_map_load_with - ftg_map_load(), reusing what the caller already read
 * @root: the live system or a snapshot
 * @given: @root's kallsyms, already read (NULL: read them)
 * @flags: FTG_MAP_NO_SITES leaves ftguard's sites out
 *
 * Judging addresses (ftg_verdict_new()) needs the regions only, and
 * rendering ftguard.ko's sites table is the dearest read of a map, so a
 * map built for checking takes FTG_MAP_NO_SITES.
 *
 * Return: the map, to free with ftg_map_free(), or NULL.
 */
struct ftg_map *ftg_map_load_with(const struct ftg_root *root,
				  const struct ftg_kallsyms *given,
				  unsigned int flags);

/*
 * Building a map by parts (for tests and for callers that already hold the
 * tables): ftg_map_new(), then any of the ftg_map_add_*() (the map keeps
 * its own copies, the inputs may be freed afterwards), then
 * ftg_map_finish() to sort and overlay the sites. Any argument may be
 * NULL.
 */
struct ftg_map *ftg_map_new(void);
int ftg_map_add_kallsyms(struct ftg_map *map, const struct ftg_kallsyms *ks);
int ftg_map_add_proc_modules(struct ftg_map *map, const struct ftg_proc_modules *pm,
			     const struct ftg_sections *sec);
int ftg_map_add_vmalloc(struct ftg_map *map, const struct ftg_vmalloc *vm);
int ftg_map_add_status(struct ftg_map *map, const struct ftg_status *st);
int ftg_map_add_kmodules(struct ftg_map *map, const struct ftg_kmodules *mods);
int ftg_map_add_sites(struct ftg_map *map, const struct ftg_sites *sites);
int ftg_map_finish(struct ftg_map *map);
void ftg_map_free(struct ftg_map *map);

/* amd64 when addresses are 64-bit, i386 when they fit 32 bits. */
enum ftg_arch ftg_map_arch(const struct ftg_map *map);
const char *ftg_arch_name(enum ftg_arch arch);	/* "amd64", "i386", "arm64", "unknown" */
const char *ftg_region_kind_name(enum ftg_region_kind kind);

/* Regions sorted by start (larger first on equal starts). */
size_t ftg_map_region_count(const struct ftg_map *map);
const struct ftg_region *ftg_map_region_get(const struct ftg_map *map, size_t i);

/**
 * ftg_map_lookup - what is at @addr
 * @map: a finished map
 * @addr: an address
 * @out: up to @max regions containing @addr, innermost (smallest) first
 * @max: size of @out
 *
 * Return: the number of regions containing @addr (may exceed @max).
 */
size_t ftg_map_lookup(const struct ftg_map *map, uint64_t addr,
		      const struct ftg_region **out, size_t max);

/**
 * ftg_map_describe - one line saying what is at @addr
 * @map: a finished map
 * @addr: an address
 * @buf: output (always NUL-terminated when @len > 0)
 * @len: size of @buf
 *
 * E.g. "ioremap 0xffffc90000100000-0xffffc90000120000 (e1000_probe+0x2f6/0x1200
 * [e1000e], phys 0xfeba0000)" or "freed init text of target (dropped at
 * 1234 ms)" or "nothing mapped". What occupies @addr now comes first (the
 * innermost region that is not a tombstone, else the tombstone itself
 * rather than a bare range); the tombstones and other ioremap areas under
 * it follow after "; over ".
 *
 * Return: as snprintf().
 */
int ftg_map_describe(const struct ftg_map *map, uint64_t addr, char *buf,
		     size_t len);

/*
 * Overlaps between concrete regions (text, init, tombstones, vmalloc
 * areas; not the MODULES/VMALLOC ranges, which contain them). A freed
 * init tombstone overlapped by an ioremap area is the address reuse that
 * makes a stale site dangerous.
 */
struct ftg_overlap {
	const struct ftg_region *a;
	const struct ftg_region *b;
};
size_t ftg_map_overlap_count(const struct ftg_map *map);
const struct ftg_overlap *ftg_map_overlap_get(const struct ftg_map *map, size_t i);

/* Sites overlaid on the map, in address order. */
size_t ftg_map_site_count(const struct ftg_map *map);
const struct ftg_map_site *ftg_map_site_get(const struct ftg_map *map, size_t i);
/* Number of sites outside live text; their indexes via ftg_map_site_get()
 * have in_live_text false. */
size_t ftg_map_sites_outside(const struct ftg_map *map);

/* ==== Checker ==== */

/*
 * The checker: the module's check report cross-checked with the map, as
 * one verdict. Each finding is one site the module or the map finds
 * wrong, with the region it falls in.
 */
struct ftg_finding {
	uint64_t addr;
	const char *name;
	const char *owner;
	enum ftg_verdict_kind module_verdict;	/* what ftguard.ko said */
	enum ftg_verdict_kind map_verdict;	/* what the map says */
	bool agree;				/* both say the same */
	const char *expected;			/* bytes, or "-" */
	const char *actual;
	const struct ftg_region *region;	/* what the map verdict is
						 * about (points into the
						 * map), or NULL */
	const char *reason;	/* one line: "stale: 0x... in freed init
				 * text of target (dropped at 1234 ms)" */
};
struct ftg_verdict;

/**
 * ftg_verdict_new - cross-check a check report with the map
 * @rep: the module's report (copied: it may be freed afterwards)
 * @map: a finished map, or NULL (then findings carry no region); the
 *       findings point into it, so keep it while using the verdict
 *
 * A site the module calls ok but the map places outside live text is a
 * finding with agree false (the map verdict is stale for a tombstone,
 * foreign for a vmalloc/ioremap area or unmapped space).
 *
 * Return: the verdict, to free with ftg_verdict_free(), or NULL.
 */
struct ftg_verdict *ftg_verdict_new(const struct ftg_check_report *rep,
				    const struct ftg_map *map);

/**
 * ftg_check_run - ask the module to check and cross-check the answer
 * @ctl: control, its selection already made (all sites when empty)
 * @map: the map (may be NULL)
 *
 * Return: the verdict, or NULL with errno set.
 */
struct ftg_verdict *ftg_check_run(struct ftg_control *ctl, const struct ftg_map *map);
void ftg_verdict_free(struct ftg_verdict *v);
/* true when the module said ok and the map found nothing. */
bool ftg_verdict_ok(const struct ftg_verdict *v);
uint64_t ftg_verdict_n_ok(const struct ftg_verdict *v);
uint64_t ftg_verdict_n_bad(const struct ftg_verdict *v);
uint64_t ftg_verdict_ms(const struct ftg_verdict *v);
size_t ftg_verdict_count(const struct ftg_verdict *v);
const struct ftg_finding *ftg_verdict_get(const struct ftg_verdict *v, size_t i);
/* The report the verdict was made from; owned by @v. */
const struct ftg_check_report *ftg_verdict_report(const struct ftg_verdict *v);

/* ==== Live events: instance, decoding, streaming ==== */

struct tep_handle;

#define FTG_COMM_LEN		16	/* the kernel's TASK_COMM_LEN */
#define FTG_EVENT_NAME_LEN	32
#define FTG_SYM_LEN		128	/* "symbol [module]" or "0x..." */
#define FTG_INFO_LEN		192	/* the event's own print format */
#define FTG_EVENT_RAW_MAX	192	/* raw payload kept for re-encoding */

/**
 * struct ftg_event - one decoded trace event
 *
 * A plain value: copy it freely. @sym and @parent_sym are the ips resolved
 * through kallsyms as "symbol [module]" ("symbol" for vmlinux), or "0x..."
 * when no symbol covers the address. @info is libtraceevent's rendering of
 * the event's print format. @raw holds the event's payload exactly as the
 * ring buffer stored it (common fields first) so that the trace.dat writer
 * can re-encode a decoded event byte for byte; @raw_size is 0 when the
 * payload was larger than FTG_EVENT_RAW_MAX.
 */
struct ftg_event {
	uint64_t ts_ns;			/* trace clock, nanoseconds */
	int cpu;
	int pid;
	int tgid;			/* pid's thread group; 0: not known */
	int type;			/* event id (common_type) */
	char comm[FTG_COMM_LEN];
	char system[FTG_EVENT_NAME_LEN];
	char name[FTG_EVENT_NAME_LEN];	/* "func", "module", "site", ... */
	uint64_t ip;			/* 0 when the event has no ip */
	uint64_t parent_ip;		/* 0 when the event has no parent_ip */
	int depth;			/* graph_entry/graph_exit: calls open below */
	uint64_t calltime;		/* graph_exit: entry, trace clock ns */
	uint64_t rettime;		/* graph_exit: return, trace clock ns */
	char sym[FTG_SYM_LEN];
	char parent_sym[FTG_SYM_LEN];
	char info[FTG_INFO_LEN];
	unsigned int raw_size;
	unsigned char raw[FTG_EVENT_RAW_MAX];
};

/**
 * ftg_event_cb - called once per decoded event
 * @ev: the event, valid only during the call (copy it to keep it)
 * @data: the caller's pointer
 *
 * Return: 0 to go on, non-zero to stop the walk (the walker returns it).
 */
typedef int (*ftg_event_cb)(const struct ftg_event *ev, void *data);

/**
 * struct ftg_trace_counters - progress of a live session
 * @events: events decoded (or, when pages are only written, events in
 *          the pages handed to a writer)
 * @lost: events the kernel dropped: the sum over CPUs of "overrun" and
 *        "dropped events" from per_cpu/cpuN/stats, minus what they were
 *        when the session opened
 * @bytes: ring-buffer payload bytes read (page commits)
 * @pages: ring-buffer pages read
 * @hidden: events of the hidden task (ftg_live_hide_pid()), read and
 *          left out (not in @events)
 */
struct ftg_trace_counters {
	uint64_t events;
	uint64_t lost;
	uint64_t bytes;
	uint64_t pages;
	uint64_t hidden;
};

struct ftg_live;
struct ftg_trace_writer;
struct ftg_trace_formats;

/* Flags for ftg_live_open(). */
#define FTG_LIVE_NO_KALLSYMS	(1U << 0)	/* ips print as hex only */

/*
 * Opens the tracefs instance @instance (NULL: "ftguard") under
 * @tracefs_dir (NULL: the mounted tracefs), parses event formats from it
 * and kallsyms from @proc_dir (NULL: "/proc"), and opens every CPU's
 * trace_pipe_raw for non-blocking reads. Does not create the instance:
 * the module owns it (errno ENODEV when it is absent).
 */
struct ftg_live *ftg_live_open(const char *tracefs_dir, const char *instance,
			       const char *proc_dir, unsigned int flags);
/* The same, with kallsyms the caller already read (ftg_kallsyms_text()). */
struct ftg_live *ftg_live_open_with_kallsyms(const char *tracefs_dir,
					     const char *instance,
					     const struct ftg_kallsyms *ks,
					     unsigned int flags);
void ftg_live_free(struct ftg_live *live);
int ftg_live_ncpus(const struct ftg_live *live);
size_t ftg_live_page_size(const struct ftg_live *live);
struct tep_handle *ftg_live_tep(struct ftg_live *live);
/* The trace.dat metadata (formats, kallsyms...) of this live system. */
struct ftg_trace_formats *ftg_live_formats(struct ftg_live *live);
/*
 * Adds the formats of event system @system (sched, irq...) to the
 * session, for tracepoints enabled in the instance beside ftguard's own:
 * they decode, and a writer created afterwards records their formats.
 * Returns 0, or -1 (ENOENT: no such system).
 */
int ftg_live_add_system(struct ftg_live *live, const char *system);
/**
 * ftg_live_add_type - decode and record the system of one event type
 * @live: the session
 * @type: an event id found in the buffer (struct ftg_event.type of an
 *        event whose system is empty: its format is not known yet)
 *
 * A buffer can hold tracepoints that a command before this one enabled
 * and disabled again (start -e, then stop): only their ids tell which.
 * A writer writes the formats when it closes, so a file whose pages are
 * already written still gets them.
 *
 * Return: 0, or -1 with the error set (errno ENOENT: no event of tracefs
 * has @type).
 */
int ftg_live_add_type(struct ftg_live *live, int type);
/*
 * Reads what is available on every CPU, waiting at most @timeout_ms for
 * a first page (0: do not wait, -1: wait for ever, EINTR returns 0).
 * Each full page goes to @writer (if not NULL) as raw bytes and is
 * decoded to @cb (if not NULL). Returns pages read, or -1.
 */
int ftg_live_pump(struct ftg_live *live, int timeout_ms,
		  struct ftg_trace_writer *writer, ftg_event_cb cb, void *data);
/* Like ftg_live_pump() without waiting, and takes partial pages too. */
int ftg_live_drain(struct ftg_live *live, struct ftg_trace_writer *writer,
		   ftg_event_cb cb, void *data);
/*
 * Bounds one pump or drain call by bytes read and by time, so a reader
 * whose own reads are traced still returns (default: 64 pages per CPU,
 * 100 ms). ftg_live_more() says whether the last call left data.
 */
int ftg_live_set_budget(struct ftg_live *live, size_t max_bytes, unsigned int max_ms);
bool ftg_live_more(const struct ftg_live *live);
/* Leaves the events of task @pid (0: nobody) out of the callbacks and
 * counts them in ftg_trace_counters.hidden. */
int ftg_live_hide_pid(struct ftg_live *live, int pid);
/* Refreshes lost counts from per_cpu stats and fills @out. */
int ftg_live_counters(struct ftg_live *live, struct ftg_trace_counters *out);
/* The text of per_cpu/cpu@cpu/stats (malloc'ed, caller frees). */
char *ftg_live_cpu_stats(struct ftg_live *live, int cpu);
/* Decodes one raw ring-buffer page of @cpu with the formats and kallsyms
 * of @fmt. Returns events decoded, or -1 (EINVAL for a malformed page). */
int ftg_page_decode(struct ftg_trace_formats *fmt, int cpu, const void *page,
		    size_t size, ftg_event_cb cb, void *data);

/*
 * A bounded ring of the last N events, for the TUI. Not thread-safe:
 * a reader in another thread must hold the caller's lock.
 */
struct ftg_event_ring;
struct ftg_event_ring *ftg_event_ring_alloc(size_t capacity);
void ftg_event_ring_free(struct ftg_event_ring *ring);
void ftg_event_ring_push(struct ftg_event_ring *ring, const struct ftg_event *ev);
/* An ftg_event_cb that pushes into the ring passed as @data. */
int ftg_event_ring_cb(const struct ftg_event *ev, void *data);
size_t ftg_event_ring_count(const struct ftg_event_ring *ring);
size_t ftg_event_ring_capacity(const struct ftg_event_ring *ring);
/* @i = 0 is the oldest kept event; NULL when @i >= count. */
const struct ftg_event *ftg_event_ring_get(const struct ftg_event_ring *ring,
					   size_t i);
/* Events pushed out because the ring was full, since alloc or clear. */
uint64_t ftg_event_ring_overwritten(const struct ftg_event_ring *ring);
void ftg_event_ring_clear(struct ftg_event_ring *ring);

/*
 * One line like trace-cmd report's: "comm-pid [cpu] secs.usecs: name: info"
 * where info for func is "sym <- parent_sym". Returns snprintf's value.
 */
int ftg_event_snprint(char *buf, size_t len, const struct ftg_event *ev);

/* ==== Function graph: calls with durations ==== */

/*
 * An arm made with FTG_ARM_GRAPH emits ftguard:graph_entry (ip, depth) when
 * a call starts and ftguard:graph_exit (ip, depth, calltime, rettime) when
 * it returns; struct ftg_event carries those fields. These helpers print
 * them as trace-cmd's function_graph output and sum them per function.
 */

/* Is @ev a graph_entry or graph_exit of ftguard's? */
bool ftg_event_is_graph_entry(const struct ftg_event *ev);
bool ftg_event_is_graph_exit(const struct ftg_event *ev);

/**
 * ftg_graph_snprint - one function_graph line, as trace-cmd report prints
 * @buf: output
 * @len: size of @buf
 * @entry: a graph_entry, or NULL for a return whose entry is not shown
 * @exit: its graph_exit, or NULL for a call that has not returned yet
 *
 * Both: a leaf call, "DURATION us | func();". @entry alone: "| func() {".
 * @exit alone: "DURATION us | }" and the function's name in a C comment,
 * as the kernel's funcgraph-tail option prints it. The line starts like
 * ftg_event_snprint()'s ("comm-pid [cpu] secs.usecs: name:") with the
 * earlier event's stamp, indents two spaces per depth, and marks a
 * duration over 10 us, 100 us, 1 ms, 10 ms, 100 ms, 1 s with + ! # * @ $
 * as the kernel's function_graph tracer does.
 *
 * Return: what snprintf() returns; -1 with errno EINVAL when both are NULL.
 */
int ftg_graph_snprint(char *buf, size_t len, const struct ftg_event *entry,
		      const struct ftg_event *exit);

/**
 * ftg_graph_call_snprint - the call part of a function_graph line
 * @buf: output
 * @len: size of @buf
 * @entry: as for ftg_graph_snprint()
 * @exit: as for ftg_graph_snprint()
 *
 * What ftg_graph_snprint() prints after the event's name: the duration
 * (blank for an entry) and its mark, "|", and the call indented by its
 * depth, for a caller that shows the task and time in columns of its own.
 *
 * Return: what snprintf() returns; -1 with errno EINVAL when both are NULL.
 */
int ftg_graph_call_snprint(char *buf, size_t len, const struct ftg_event *entry,
			   const struct ftg_event *exit);

/**
 * struct ftg_graph_stat - the returns of one function, summed
 * @sym: the function, "symbol [module]" or "0x..."
 * @calls: returns seen
 * @total_ns: sum of their durations
 * @max_ns: the longest
 */
struct ftg_graph_stat {
	char sym[FTG_SYM_LEN];
	uint64_t calls;
	uint64_t total_ns;
	uint64_t max_ns;
};

struct ftg_graph_stats;
/* Returns NULL (ENOMEM) or an empty table, freed by ftg_graph_stats_free(). */
struct ftg_graph_stats *ftg_graph_stats_new(void);
void ftg_graph_stats_free(struct ftg_graph_stats *st);
/* Counts @ev if it is a graph_exit; 0, or -1 (ENOMEM). */
int ftg_graph_stats_add(struct ftg_graph_stats *st, const struct ftg_event *ev);
/* An ftg_event_cb adding to the table passed as @data. */
int ftg_graph_stats_cb(const struct ftg_event *ev, void *data);
size_t ftg_graph_stats_count(const struct ftg_graph_stats *st);
/* @i = 0 is the function with the largest total; NULL past the end. The
 * order is fixed by the first call after the last add. */
const struct ftg_graph_stat *ftg_graph_stats_get(struct ftg_graph_stats *st,
						 size_t i);

/* ==== Trace files: trace.dat writer/reader, exports ==== */

/*
 * The metadata a trace.dat header carries: header_page, header_event,
 * ftrace and event formats, kallsyms, printk formats, saved cmdlines.
 */
struct ftg_trace_formats;
/*
 * Reads them from @tracefs_dir (NULL: the mounted tracefs; a directory
 * laid out like tracefs works too, for tests and snapshots), the event
 * systems in the NULL-terminated @systems (NULL: { "ftguard", NULL }),
 * and @proc_dir/kallsyms (NULL @proc_dir: "/proc"; a missing kallsyms is
 * not an error, ips then stay hex).
 */
struct ftg_trace_formats *ftg_trace_formats_read(const char *tracefs_dir,
						 const char * const *systems,
						 const char *proc_dir);
void ftg_trace_formats_free(struct ftg_trace_formats *fmt);
/* A tep parsed from @fmt (kallsyms, cmdlines included); owned by @fmt. */
struct tep_handle *ftg_trace_formats_tep(struct ftg_trace_formats *fmt);
/* Ring-buffer page size given by header_page (4096 on 6.1 amd64). */
size_t ftg_trace_formats_page_size(const struct ftg_trace_formats *fmt);

/*
 * trace.dat writer, format version 6 (see doc/trace-files.md).
 *
 * Data is streamed per CPU into unlinked temporary files next to @path;
 * ftg_trace_writer_close() writes header + data to "@path.tmp", fsyncs it
 * and renames it to @path. So @path is either absent/old or complete:
 * a writer freed without close, or a process killed before close, never
 * leaves a partial @path. @fmt must outlive the writer.
 */
struct ftg_trace_writer *ftg_trace_writer_create(const char *path,
						 struct ftg_trace_formats *fmt,
						 int ncpus);
/* Path (a): one raw ring-buffer page as read from trace_pipe_raw. */
int ftg_trace_writer_add_page(struct ftg_trace_writer *w, int cpu,
			      const void *page, size_t size);
/*
 * Path (b): one decoded event, re-encoded into ring-buffer pages. Events
 * of one CPU must come in time order (an older one starts a new page).
 * Uses @ev->raw when present, else builds the payload from @ev->type or
 * @ev->system/@ev->name, @ev->pid, @ev->ip and @ev->parent_ip. Also
 * records @ev->comm for @ev->pid in the file's cmdlines.
 */
int ftg_trace_writer_add_event(struct ftg_trace_writer *w,
			       const struct ftg_event *ev);
/* Stores per-CPU stats text (lost events) as a CPUSTAT option. */
int ftg_trace_writer_set_cpu_stats(struct ftg_trace_writer *w, int cpu,
				   const char *stats);
/* Bytes of event data written so far (all CPUs). */
uint64_t ftg_trace_writer_bytes(const struct ftg_trace_writer *w);
/* Finalizes @path (see above) and frees @w, also on failure. */
int ftg_trace_writer_close(struct ftg_trace_writer *w);
/* Abandons @w: @path is left untouched. */
void ftg_trace_writer_free(struct ftg_trace_writer *w);

/*
 * trace.dat reader, through libtracecmd. The header is validated first
 * (magic, version 6 or 7, sizes within the file, CPU data in bounds);
 * on failure NULL is returned and the library's error set, as for the
 * readers: ftg_error_last() says "FILE: offset N: what" (FTG_E_BAD_TRACE,
 * errno EINVAL) or "FILE: <strerror>" (FTG_E_SYSTEM, errno kept). A
 * success clears the error.
 */
struct ftg_trace_file;
struct ftg_trace_file *ftg_trace_file_open(const char *path);
void ftg_trace_file_close(struct ftg_trace_file *tf);
int ftg_trace_file_ncpus(const struct ftg_trace_file *tf);
/**
 * ftg_trace_file_has_event - does the file know an event of this name?
 * @tf: the file
 * @pattern: NAME or SYSTEM:NAME, each part a glob (fnmatch(3))
 *
 * A filter naming an event the file has no format for would select
 * nothing without saying why; this is how a reader can tell.
 *
 * Return: true when an event format of @tf matches @pattern.
 */
bool ftg_trace_file_has_event(struct ftg_trace_file *tf, const char *pattern);
/* Validation only (same checks and error as ftg_trace_file_open()). */
int ftg_trace_file_check(const char *path);
/*
 * Calls @cb for each event in time order across CPUs. Returns 0 at the
 * end, the callback's non-zero value if it stopped, -1 on error.
 */
int ftg_trace_file_iterate(struct ftg_trace_file *tf, ftg_event_cb cb,
			   void *data);

/* Exports of decoded events. */
enum ftg_export_format {
	FTG_EXPORT_CHROME,	/* Chrome trace-event JSON (Perfetto) */
	FTG_EXPORT_JSON,	/* a JSON array of event objects */
	FTG_EXPORT_CSV,		/* RFC 4180 CSV with a header line */
};
/* "chrome", "json", "csv" -> format; -1 (EINVAL) for anything else. */
int ftg_export_format_parse(const char *name);
struct ftg_exporter;
/* Writes to @out (not closed by the exporter). */
struct ftg_exporter *ftg_exporter_open(FILE *out, enum ftg_export_format fmt);
int ftg_exporter_add(struct ftg_exporter *ex, const struct ftg_event *ev);
/* An ftg_event_cb adding to the exporter passed as @data. */
int ftg_exporter_cb(const struct ftg_event *ev, void *data);
/* Writes the trailer and frees @ex; -1 if any write failed. */
int ftg_exporter_close(struct ftg_exporter *ex);

#ifdef __cplusplus
}
#endif

#endif /* _FTGUARD_H */
