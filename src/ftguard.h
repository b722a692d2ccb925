/* SPDX-License-Identifier: LGPL-2.1 */
/*
 * libftguard - the userspace side of ftguard, a safe function tracer.
 *
 * Conventions (as libtracefs): functions return -1 or NULL with errno set
 * on failure; every constructor has a matching _free(); a returned
 * "const char *" belongs to the object it came from and must not be freed.
 * Every reader takes the root it reads from (struct ftg_root: where
 * procfs, sysfs, debugfs and tracefs are) so that a saved snapshot can
 * stand in for the live system.
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
	_FTG_ERR(BAD_TRACE,	"malformed trace.dat file")		\
	_FTG_ERR(BAD_ARGUMENT,	"invalid argument")			\
	_FTG_ERR(BAD_PAGE,	"malformed ring-buffer page")		\
	_FTG_ERR(BAD_EVENT,	"event not in the formats or too large for a page") \
	_FTG_ERR(BAD_FILTER,	"malformed event filter")

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
 * DIR/tracing. Every function that takes a root takes NULL for the live
 * system, as libtracefs takes NULL for its top instance.
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

/**
 * ftg_root_proc - the procfs directory of @root
 * @root: the root
 *
 * Return: "/proc" or DIR/proc; owned by @root.
 */
const char *ftg_root_proc(const struct ftg_root *root);
/**
 * ftg_root_sys - the sysfs directory of @root
 * @root: the root
 *
 * Return: "/sys" or DIR/sys; owned by @root.
 */
const char *ftg_root_sys(const struct ftg_root *root);
/**
 * ftg_root_debugfs - the debugfs directory of @root
 * @root: the root
 *
 * Return: "/sys/kernel/debug" or DIR/debug; owned by @root.
 */
const char *ftg_root_debugfs(const struct ftg_root *root);
/**
 * ftg_root_tracefs - the tracefs directory of @root
 * @root: the root
 *
 * Return: the tracefs mount or DIR/tracing; owned by @root.
 */
const char *ftg_root_tracefs(const struct ftg_root *root);
/**
 * ftg_root_is_snapshot - is @root a saved snapshot?
 * @root: the root
 *
 * Return: true for a snapshot directory (nothing may be written to it),
 * false for the live system.
 */
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
/**
 * ftg_kernel_feature_name - the name of a kernel feature
 * @f: the feature
 *
 * Return: "ibt", "call-padding", "ftrace-addrs"; "?" out of range.
 */
const char *ftg_kernel_feature_name(enum ftg_kernel_feature f);

/* ==== Kernel readers: kallsyms, modules, vmallocinfo, sections, ftrace files ==== */

/*
 * Readers. Each reads one kernel file under the root it is given and
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
 * ftg_kallsyms_read - read kallsyms under @root's procfs
 * @root: the live system (/proc/kallsyms) or a snapshot (DIR/proc/kallsyms)
 *
 * Return: the symbols, to free with ftg_kallsyms_free(), or NULL.
 */
struct ftg_kallsyms *ftg_kallsyms_read(const struct ftg_root *root);
/**
 * ftg_kallsyms_free - free what ftg_kallsyms_read() returned
 * @ks: the symbols, or NULL
 */
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
/**
 * ftg_kallsyms_count - number of symbols read
 * @ks: the symbols
 *
 * Return: the count.
 */
size_t ftg_kallsyms_count(const struct ftg_kallsyms *ks);
/**
 * ftg_kallsyms_skipped - number of malformed or overlong lines skipped
 * @ks: the symbols
 *
 * Return: the count.
 */
size_t ftg_kallsyms_skipped(const struct ftg_kallsyms *ks);
/**
 * ftg_kallsyms_get - the @i-th symbol in file order
 * @ks: the symbols
 * @i: index
 *
 * Return: the symbol (owned by @ks), or NULL when @i >= count.
 */
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
/**
 * ftg_proc_modules_read - read modules under @root's procfs
 * @root: the live system (/proc/modules) or a snapshot (DIR/proc/modules)
 *
 * Return: the modules, to free with ftg_proc_modules_free(), or NULL.
 */
struct ftg_proc_modules *ftg_proc_modules_read(const struct ftg_root *root);
/**
 * ftg_proc_modules_free - free what ftg_proc_modules_read() returned
 * @pm: the modules, or NULL
 */
void ftg_proc_modules_free(struct ftg_proc_modules *pm);
/**
 * ftg_proc_modules_count - number of modules read
 * @pm: the modules
 *
 * Return: the count.
 */
size_t ftg_proc_modules_count(const struct ftg_proc_modules *pm);
/**
 * ftg_proc_modules_skipped - number of malformed lines skipped
 * @pm: the modules
 *
 * Return: the count.
 */
size_t ftg_proc_modules_skipped(const struct ftg_proc_modules *pm);
/**
 * ftg_proc_modules_get - the @i-th module in file order
 * @pm: the modules
 * @i: index
 *
 * Return: the module (owned by @pm), or NULL when @i >= count.
 */
const struct ftg_proc_module *ftg_proc_modules_get(const struct ftg_proc_modules *pm,
						   size_t i);
/**
 * ftg_proc_modules_find - the module called @name
 * @pm: the modules
 * @name: module name
 *
 * Return: the module, or NULL.
 */
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
/**
 * ftg_vmalloc_read - read vmallocinfo under @root's procfs
 * @root: the live system (/proc/vmallocinfo) or a snapshot
 *	(DIR/proc/vmallocinfo)
 *
 * Without root (or with kptr_restrict 0) the kernel prints hashed
 * addresses; a line whose end is below its start is skipped and counted.
 *
 * Return: the areas, to free with ftg_vmalloc_free(), or NULL.
 */
struct ftg_vmalloc *ftg_vmalloc_read(const struct ftg_root *root);
/**
 * ftg_vmalloc_free - free what ftg_vmalloc_read() returned
 * @vm: the areas, or NULL
 */
void ftg_vmalloc_free(struct ftg_vmalloc *vm);
/**
 * ftg_vmalloc_count - number of areas read
 * @vm: the areas
 *
 * Return: the count.
 */
size_t ftg_vmalloc_count(const struct ftg_vmalloc *vm);
/**
 * ftg_vmalloc_skipped - number of malformed or overlong lines skipped
 * @vm: the areas
 *
 * Return: the count.
 */
size_t ftg_vmalloc_skipped(const struct ftg_vmalloc *vm);
/**
 * ftg_vmalloc_get - the @i-th area in file order
 * @vm: the areas
 * @i: index
 *
 * File order is address order on 6.1, not always on 6.12.
 *
 * Return: the area (owned by @vm), or NULL when @i >= count.
 */
const struct ftg_vmarea *ftg_vmalloc_get(const struct ftg_vmalloc *vm, size_t i);
/**
 * ftg_vmalloc_lookup - the area containing @addr
 * @vm: the areas
 * @addr: an address
 *
 * Return: the first area (in file order) with start <= @addr < end, or
 * NULL.
 */
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
 * ftg_sections_read - read the sections of every module under @root's sysfs
 * @root: the live system (/sys) or a snapshot (DIR/sys)
 *
 * Reads module/<m>/sections/<s> under @root's sysfs for each module that
 * has a sections directory (built-in modules have none). Every section
 * is kept, sorted by module then section name; a file that does not hold
 * one hex address is skipped and counted. No module directory there at
 * all gives an empty list.
 *
 * Return: the sections, to free with ftg_sections_free(), or NULL.
 */
struct ftg_sections *ftg_sections_read(const struct ftg_root *root);
/**
 * ftg_sections_free - free what ftg_sections_read() returned
 * @sec: the sections, or NULL
 */
void ftg_sections_free(struct ftg_sections *sec);
/**
 * ftg_sections_count - number of sections read
 * @sec: the sections
 *
 * Return: the count.
 */
size_t ftg_sections_count(const struct ftg_sections *sec);
/**
 * ftg_sections_skipped - number of section files skipped
 * @sec: the sections
 *
 * Return: the count.
 */
size_t ftg_sections_skipped(const struct ftg_sections *sec);
/**
 * ftg_sections_get - the @i-th section (sorted by module, then name)
 * @sec: the sections
 * @i: index
 *
 * Return: the section (owned by @sec), or NULL when @i >= count.
 */
const struct ftg_section *ftg_sections_get(const struct ftg_sections *sec, size_t i);
/**
 * ftg_sections_find - the address of one section of one module
 * @sec: the sections
 * @module: module name
 * @section: section name (".text", ".init.text", ...)
 * @addr: set to the address
 *
 * Return: 0, or -1 (ENOENT) when absent.
 */
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
 * @root: the live system (the tracefs mount) or a snapshot (DIR/tracing)
 * @which: which file in that directory
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
 * @root's tracefs has no available_filter_functions at all).
 */
struct ftg_ftrace_funcs *ftg_ftrace_funcs_read(const struct ftg_root *root,
					       enum ftg_ftrace_file which);
/**
 * ftg_ftrace_funcs_free - free what ftg_ftrace_funcs_read() returned
 * @ff: the list, or NULL
 */
void ftg_ftrace_funcs_free(struct ftg_ftrace_funcs *ff);
/**
 * ftg_ftrace_funcs_count - number of entries read
 * @ff: the list
 *
 * Return: the count.
 */
size_t ftg_ftrace_funcs_count(const struct ftg_ftrace_funcs *ff);
/**
 * ftg_ftrace_funcs_skipped - number of malformed or overlong lines skipped
 * @ff: the list
 *
 * Return: the count.
 */
size_t ftg_ftrace_funcs_skipped(const struct ftg_ftrace_funcs *ff);
/**
 * ftg_ftrace_funcs_has_addrs - do the entries carry record addresses?
 * @ff: the list
 *
 * Return: true when @ff was read from available_filter_functions_addrs.
 */
bool ftg_ftrace_funcs_has_addrs(const struct ftg_ftrace_funcs *ff);
/**
 * ftg_ftrace_funcs_get - the @i-th entry in file order
 * @ff: the list
 * @i: index
 *
 * Return: the entry (owned by @ff), or NULL when @i >= count.
 */
const struct ftg_ftrace_func *ftg_ftrace_funcs_get(const struct ftg_ftrace_funcs *ff,
						   size_t i);
/**
 * ftg_ftrace_funcs_has - how many entries are called @name
 * @ff: the list
 * @name: exact function name
 * @module: NULL for any owner, "vmlinux" for the core kernel, or a module
 *
 * Return: the number of matching entries (a static name may repeat).
 */
size_t ftg_ftrace_funcs_has(const struct ftg_ftrace_funcs *ff, const char *name,
			    const char *module);

/* ==== Other users of a function ==== */

/*
 * The kernel's other ftrace users of each function, named from what the
 * kernel publishes: enabled_functions (the callbacks it prints, its
 * "direct-->" trampolines), kprobe_events and kprobes/list,
 * /sys/kernel/livepatch, and the programs behind a BPF trampoline (the
 * kernel's BPF objects, through libbpf). A set is read whole and owned
 * by the caller; the strings live as long as it does. Not thread-safe to
 * share while being freed; read-only use from several threads is fine.
 */
enum ftg_user_kind {
	FTG_USER_FTRACE_OPS,	/* an ftrace_ops, named by its callback */
	FTG_USER_TRACER,	/* the function or function_graph tracer */
	FTG_USER_KPROBE,	/* a kprobe (or kretprobe) on ftrace */
	FTG_USER_DIRECT,	/* a direct trampoline: register_ftrace_direct */
	FTG_USER_BPF,		/* a BPF trampoline (fentry, fexit...) */
	FTG_USER_LIVEPATCH,	/* a livepatch that replaces the function */
};
struct ftg_site_user {
	const char *name;	/* the function */
	const char *module;	/* NULL: vmlinux */
	enum ftg_user_kind kind;
	/* what to call it: "kprobe kprobes/p_vfs_read_0", "direct
	 * my_tramp [ftrace_direct]", "livepatch livepatch_sample", "BPF
	 * prog_name (id 42)" */
	const char *who;
};
struct ftg_users;

/**
 * ftg_users_read - who else is on each function, as the kernel says
 * @root: the live system or a snapshot
 *
 * Reads @root's tracefs (enabled_functions, kprobe_events, the current
 * tracer), debugfs (kprobes/list) and sysfs (kernel/livepatch). Only
 * enabled_functions is needed: a kernel or snapshot without the others
 * is read without them. A BPF trampoline's programs are named only when
 * @root's tracefs is the live kernel's and the caller may read its BPF
 * objects (CAP_SYS_ADMIN); otherwise it is "BPF trampoline".
 *
 * Return: the set, to free with ftg_users_free(), or NULL with errno set.
 */
struct ftg_users *ftg_users_read(const struct ftg_root *root);
/**
 * ftg_users_free - free what ftg_users_read() returned
 * @u: the set, or NULL
 */
void ftg_users_free(struct ftg_users *u);
/**
 * ftg_users_count - number of users named
 * @u: the set
 *
 * Return: the count.
 */
size_t ftg_users_count(const struct ftg_users *u);
/**
 * ftg_users_get - the @i-th user named
 * @u: the set
 * @i: index below ftg_users_count()
 *
 * Return: the user, owned by @u, or NULL past the end.
 */
const struct ftg_site_user *ftg_users_get(const struct ftg_users *u, size_t i);
/**
 * ftg_users_find - the first user of a function, of one kind or any
 * @u: the set
 * @name: the function
 * @module: its module, NULL for vmlinux
 * @kind: an enum ftg_user_kind, or -1 for any
 *
 * Return: the user, owned by @u, or NULL.
 */
const struct ftg_site_user *ftg_users_find(const struct ftg_users *u,
					   const char *name, const char *module,
					   int kind);
/**
 * ftg_users_describe - the other users of one function, as one line
 * @u: the set
 * @name: the function
 * @module: its module, NULL for vmlinux
 * @own_ops: the ftrace_ops the caller itself has there (1 where
 *	ftguard.ko is armed), left out of the count
 * @buf: where to write "kprobe kprobes/x, direct my_tramp [m]"; "" when
 *	none; with "N other ftrace users" for ops the kernel counts but
 *	names nowhere
 * @size: its size (the line is cut to fit)
 *
 * Return: how many other users there are.
 */
size_t ftg_users_describe(const struct ftg_users *u, const char *name,
			  const char *module, unsigned int own_ops,
			  char *buf, size_t size);
/**
 * ftg_user_kind_name - a word for a kind of user
 * @kind: the kind
 *
 * Return: "kprobe", "direct", "bpf", "livepatch", "tracer" or
 * "ftrace_ops"; "?" when out of range.
 */
const char *ftg_user_kind_name(enum ftg_user_kind kind);

/* The kernel's ftrace as a whole: whether anything can be traced. */
enum ftg_kftrace_state {
	FTG_KFTRACE_ON,
	FTG_KFTRACE_OFF,	/* sysctl kernel.ftrace_enabled = 0 */
	FTG_KFTRACE_KILLED,	/* disabled by the kernel after an anomaly */
};
/**
 * ftg_kernel_ftrace_state - is the kernel's ftrace on, off or killed?
 * @root: the live system or a snapshot
 *
 * Reads @root's procfs (sys/kernel/ftrace_enabled) and tracefs
 * (available_filter_functions, whose open answers ENODEV once ftrace is
 * killed). What cannot be read (a snapshot keeps neither) counts as on.
 * Never fails; leaves no error.
 *
 * Return: an enum ftg_kftrace_state.
 */
int ftg_kernel_ftrace_state(const struct ftg_root *root);

/* ==== Names: display of kernel-supplied text ==== */

/*
 * Names (functions, modules, comm, vmalloc callers) and the module's
 * reasons come from the kernel and may hold any byte but NUL: a space, a
 * newline or an escape sequence that would reprogram a terminal.
 * ftg_escape() gives the visible form every ftguard output uses, the
 * module's own octal escaping: bytes outside printable ASCII (0x21..0x7e),
 * and the backslash, become "\ooo", which the readers of the tables undo.
 */
enum ftg_escape_flags {
	/* Free text (messages, reasons): space and backslash stay as they
	 * are; control bytes, DEL and non-ASCII bytes are still escaped. */
	FTG_ESCAPE_TEXT = 1 << 0,
};
/**
 * ftg_escape - the visible form of a kernel-supplied name or text
 * @buf: where to write it (may be NULL when @size is 0)
 * @size: size of @buf
 * @s: the name (NULL is taken as "")
 * @flags: 0 for a name; FTG_ESCAPE_TEXT for free text
 *
 * Every byte outside printable ASCII 0x21..0x7e, and the backslash,
 * becomes a backslash and three octal digits, as ftguard.ko writes its
 * tables: "a b\033[2J" -> "a\040b\033[2J" (ESC is 033). The result has
 * no control byte, no byte above 0x7e and no space, so it is one
 * whitespace-separated word that the tables' decoder turns back into @s. With
 * FTG_ESCAPE_TEXT, space and backslash are kept (a message stays
 * readable); control bytes, DEL and non-ASCII bytes are still escaped.
 *
 * Like snprintf(), the output is cut to fit @size (never inside an
 * escape) and NUL-terminated when @size > 0.
 *
 * Return: the length of the whole escaped string, without the NUL; the
 * output was cut when this is >= @size.
 */
size_t ftg_escape(char *buf, size_t size, const char *s, unsigned int flags);
/**
 * ftg_fputs_json - write a string as a JSON string literal
 * @out: the stream
 * @str: the string (NULL is written as "")
 *
 * Quotes and escapes @str so that the result is valid JSON in plain ASCII:
 * quote, backslash and control characters as JSON escapes, every
 * non-ASCII character as \uXXXX (a surrogate pair above U+FFFF), so
 * that no invisible character such as U+202E (right-to-left override)
 * reorders a terminal's line; a byte that is not part of valid UTF-8 is
 * taken as Latin-1 (\u00XX).
 *
 * Return: 0, or -1 (EOF) when writing failed.
 */
int ftg_fputs_json(FILE *out, const char *s);

/* ==== ftguard.ko tables and control ==== */

struct ftg_candidates;

/*
 * ftguard.ko's debugfs tables (doc/interface.md, format version 1). Each
 * reader takes a root and reads ftguard/<table> in its debugfs
 * (/sys/kernel/debug/ftguard/<table> live, DIR/debug/ftguard/<table> in a
 * snapshot). A table whose header names another format version is refused
 * (FTG_E_BAD_VERSION, errno EPROTO); a malformed line fails the whole read
 * with "<table>:<line>: <what>" (the module's tables are a contract,
 * unlike the kernel's own files).
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
	uint64_t verify_runs;		/* periodic verify runs since load */
	uint64_t verify_ns;		/* their time in all, ns */
	uint64_t verify_slice;		/* armed sites one run re-checks, 0 all */
	uint64_t verify_cycle_ms;	/* every armed site re-checked within */
	uint64_t verify_cycles;		/* passes over an armed set since load */
	/*
	 * "" unless the kernel still holds an arm whose unregister failed
	 * (it killed ftrace): what stays registered. ftguard.ko then stays
	 * loaded and refuses arm, disarm and reset until reboot.
	 */
	char stuck[FTG_TEXT_LEN];
};

/**
 * ftg_status_read - read ftguard/status
 * @root: the live system or a snapshot
 * @st: filled on success
 *
 * Unknown keys are ignored (the format may grow); a missing key keeps 0.
 * When the table is absent the error says why: FTG_E_NO_DEBUGFS,
 * FTG_E_NO_MODULE or FTG_E_NOT_ROOT.
 *
 * Return: 0, or -1 with errno set.
 */
int ftg_status_read(const struct ftg_root *root, struct ftg_status *st);

/*
 * Keyed views: what grows with the module and the kernel, as ordered
 * "name value" pairs that a newer source may extend without changing
 * this header.
 */
struct ftg_keys;
/**
 * ftg_status_keys_read - every key of ftguard/status, in the module's order
 * @root: the live system or a snapshot
 *
 * Each value is the rest of its line, escapes undone; keys this library
 * has no field for in struct ftg_status are there too (arm_mode,
 * graph_roots, ...: doc/interface.md lists them).
 *
 * Return: the keys, to free with ftg_keys_free(), or NULL with errno set
 * and the error as for ftg_status_read().
 */
struct ftg_keys *ftg_status_keys_read(const struct ftg_root *root);
/**
 * ftg_instance_settings_read - the settings of ftguard's trace instance
 * @root: the live system
 *
 * Reads instances/ftguard/ under @root's tracefs. Keys: tracing_on,
 * buffer_size_kb (per CPU, now: before its first use the kernel keeps it
 * small), buffer_total_size_kb, current_tracer, trace_clock (the one in
 * use), then "event:SYSTEM:EVENT" for each enabled event (ftguard's own
 * included), its value the event's filter ("" for none).
 *
 * Return: the keys, to free with ftg_keys_free(), or NULL with errno set
 * (FTG_E_NO_MODULE when the instance is absent).
 */
struct ftg_keys *ftg_instance_settings_read(const struct ftg_root *root);
/**
 * ftg_keys_count - how many keys
 * @keys: the keys (NULL: none)
 *
 * Return: their number.
 */
size_t ftg_keys_count(const struct ftg_keys *keys);
/**
 * ftg_keys_name - the name of key @i
 * @keys: the keys
 * @i: its index, from 0
 *
 * Return: the name, or NULL past the end.
 */
const char *ftg_keys_name(const struct ftg_keys *keys, size_t i);
/**
 * ftg_keys_value - the value of key @i
 * @keys: the keys
 * @i: its index, from 0
 *
 * Return: the value, or NULL past the end.
 */
const char *ftg_keys_value(const struct ftg_keys *keys, size_t i);
/**
 * ftg_keys_get - the value of the first key named @name
 * @keys: the keys
 * @name: a key name
 *
 * Return: the value, or NULL when there is no such key.
 */
const char *ftg_keys_get(const struct ftg_keys *keys, const char *name);
/**
 * ftg_keys_free - free keys
 * @keys: from ftg_status_keys_read() or ftg_instance_settings_read(), or NULL
 */
void ftg_keys_free(struct ftg_keys *keys);

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
/**
 * ftg_sites_read - read ftguard/sites
 * @root: the live system or a snapshot
 *
 * Return: the sites in address order, to free with ftg_sites_free(), or
 * NULL.
 */
struct ftg_sites *ftg_sites_read(const struct ftg_root *root);
/**
 * ftg_sites_free - free a sites table
 * @sites: the table, or NULL
 */
void ftg_sites_free(struct ftg_sites *sites);
/**
 * ftg_sites_count - number of sites
 * @sites: the table
 *
 * Return: the count.
 */
size_t ftg_sites_count(const struct ftg_sites *sites);
/**
 * ftg_sites_get - the @i-th site in address order
 * @sites: the table
 * @i: index
 *
 * Return: the site (owned by @sites), or NULL when @i >= count.
 */
const struct ftg_site *ftg_sites_get(const struct ftg_sites *sites, size_t i);
/**
 * ftg_sites_find - the site at @addr
 * @sites: the table
 * @addr: the site's address
 *
 * Return: the site, or NULL.
 */
const struct ftg_site *ftg_sites_find(const struct ftg_sites *sites, uint64_t addr);
/**
 * ftg_site_state_name - the table's word for a site state
 * @state: the state
 *
 * Return: "ok", "armed", ...; "?" out of range.
 */
const char *ftg_site_state_name(enum ftg_site_state state);
/**
 * ftg_site_state_parse - the state a table word names
 * @name: "ok", "armed", ...
 *
 * Return: the enum ftg_site_state, or -1 (EINVAL) if unknown.
 */
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
/**
 * ftg_kmodules_read - read ftguard/modules
 * @root: the live system or a snapshot
 *
 * Return: the modules, to free with ftg_kmodules_free(), or NULL.
 */
struct ftg_kmodules *ftg_kmodules_read(const struct ftg_root *root);
/**
 * ftg_kmodules_free - free a modules table
 * @mods: the table, or NULL
 */
void ftg_kmodules_free(struct ftg_kmodules *mods);
/**
 * ftg_kmodules_count - number of entries (live modules and tombstones)
 * @mods: the table
 *
 * Return: the count.
 */
size_t ftg_kmodules_count(const struct ftg_kmodules *mods);
/**
 * ftg_kmodules_get - the @i-th entry in table order
 * @mods: the table
 * @i: index
 *
 * Return: the entry (owned by @mods), or NULL when @i >= count.
 */
const struct ftg_kmodule *ftg_kmodules_get(const struct ftg_kmodules *mods, size_t i);
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
					    const char *name);
/**
 * ftg_kmodule_state_name - the table's word for a module state
 * @state: the state
 *
 * Return: "coming", "live", "going", "gone"; "?" out of range.
 */
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
/**
 * ftg_check_report_read - read ftguard/check (the last check's report)
 * @root: the live system or a snapshot
 *
 * Return: the report, to free with ftg_check_report_free(), or NULL.
 */
struct ftg_check_report *ftg_check_report_read(const struct ftg_root *root);
/**
 * ftg_check_report_free - free a check report
 * @rep: the report, or NULL
 */
void ftg_check_report_free(struct ftg_check_report *rep);
/**
 * ftg_check_report_checked - has the module checked anything yet?
 * @rep: the report
 *
 * Return: false for the module's "result never" (no check since load):
 * such a report is not ok either, and counts nothing.
 */
bool ftg_check_report_checked(const struct ftg_check_report *rep);
/**
 * ftg_check_report_ok - did the module find every checked site ok?
 * @rep: the report
 *
 * Return: true for "result ok".
 */
bool ftg_check_report_ok(const struct ftg_check_report *rep);
/**
 * ftg_check_report_n_ok - sites the module found ok
 * @rep: the report
 *
 * Return: the count from the result line.
 */
uint64_t ftg_check_report_n_ok(const struct ftg_check_report *rep);
/**
 * ftg_check_report_n_bad - sites the module found wrong
 * @rep: the report
 *
 * Return: the count from the result line.
 */
uint64_t ftg_check_report_n_bad(const struct ftg_check_report *rep);
/**
 * ftg_check_report_ms - how long the check took
 * @rep: the report
 *
 * Return: milliseconds, from the result line.
 */
uint64_t ftg_check_report_ms(const struct ftg_check_report *rep);
/**
 * ftg_check_report_count - number of site lines in the report
 * @rep: the report
 *
 * Return: the count (bad sites, and ok ones when fewer than 64 were
 * checked).
 */
size_t ftg_check_report_count(const struct ftg_check_report *rep);
/**
 * ftg_check_report_get - the @i-th site line
 * @rep: the report
 * @i: index
 *
 * Return: the line (owned by @rep), or NULL when @i >= count.
 */
const struct ftg_check_line *ftg_check_report_get(const struct ftg_check_report *rep,
						  size_t i);
/**
 * ftg_verdict_kind_name - the table's word for a verdict
 * @kind: the verdict
 *
 * Return: "ok", "stale", "foreign", "mismatch"; "?" out of range.
 */
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
 * @root: the live system (a snapshot keeps no control file)
 *
 * Opens ftguard/control in @root's debugfs. When that open fails with
 * EPERM (kernel lockdown: debugfs then opens no file for writing, root's
 * included) and that debugfs is the live one, /sys/kernel/debug, opens
 * ftguard.ko's misc device /dev/ftguard instead: the same control file,
 * which integrity lockdown leaves open. The table reads
 * (an arm's check report) still go to @root's debugfs, whose
 * 0400 files lockdown leaves readable.
 *
 * Fails with an actionable message: FTG_E_NOT_ROOT (EACCES/EPERM; when
 * both paths refused, EPERM and a message naming both, and the lockdown
 * mode when one is in effect), FTG_E_NO_DEBUGFS (debugfs not mounted),
 * FTG_E_NO_MODULE (ENODEV: ftguard.ko not loaded).
 *
 * Return: the control, to close with ftg_control_close(), or NULL.
 */
struct ftg_control *ftg_control_open(const struct ftg_root *root);
/**
 * ftg_control_close - close the control
 * @ctl: the control, or NULL
 *
 * Closing disarms what this descriptor armed without FTG_ARM_PERSISTENT.
 */
void ftg_control_close(struct ftg_control *ctl);




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
#define FTG_ARM_STACK		(1U << 3)	/* each entry's callers */
/**
 * ftg_control_disarm - disarm everything
 * @ctl: the control
 *
 * Return: 0, or -1.
 */
int ftg_control_disarm(struct ftg_control *ctl);
/**
 * ftg_control_reset - disarm, clear the kill latch and the trace buffer
 * @ctl: the control
 *
 * Linux 6.1 exports no way for a module to clear its instance's buffer,
 * so after the module's "reset" the library truncates
 * instances/ftguard/trace of the mounted tracefs (doc/interface.md).
 *
 * Return: 0, or -1 (the module refused, or the buffer could not be
 * cleared: the message says which).
 */
int ftg_control_reset(struct ftg_control *ctl);

/* ==== Selection ==== */

/*
 * A candidate site: a function entry address and who owns it. Lists of
 * candidates are a session's or an admission's refusals, owned by them.
 */
struct ftg_candidate {
	const char *name;
	uint64_t addr;
	const char *module;	/* NULL for vmlinux */
};
struct ftg_candidates;
/**
 * ftg_candidates_count - number of candidates
 * @c: the list
 *
 * Return: the count.
 */
size_t ftg_candidates_count(const struct ftg_candidates *c);
/**
 * ftg_candidates_get - the @i-th candidate in address order
 * @c: the list
 * @i: index
 *
 * Return: the candidate (owned by @c), or NULL when @i >= count.
 */
const struct ftg_candidate *ftg_candidates_get(const struct ftg_candidates *c,
					       size_t i);


/*
 * A selection: what -l/-n/-m asked for.
 *   -l GLOB          fnmatch() glob over function names (all owners)
 *   -l MODULE:GLOB   only functions of MODULE ("vmlinux" for the core)
 *   -l GLOB:mod:MODULE  trace-cmd's form of MODULE:GLOB (":mod:MODULE": all of it)
 *   -l NAME@ADDR     exactly that function at that address (hex)
 *   -n GLOB          leave out matches (same forms)
 *   -m MODULE        every function of MODULE
 */
struct ftg_selection;
/**
 * ftg_selection_new - an empty selection
 *
 * Return: the selection, to free with ftg_selection_free(), or NULL.
 */
struct ftg_selection *ftg_selection_new(void);
/**
 * ftg_selection_free - free a selection
 * @sel: the selection, or NULL
 */
void ftg_selection_free(struct ftg_selection *sel);

/**
 * ftg_selection_add - add a -l pattern
 * @sel: the selection
 * @pattern: GLOB, MODULE:GLOB, GLOB:mod:MODULE (":mod:MODULE": all of it)
 *           or NAME@ADDR (or MODULE:NAME@ADDR)
 *
 * Return: 0, or -1 (EINVAL, FTG_E_BAD_PATTERN) for an empty pattern, an
 * unbalanced '[' or a bad address.
 */
int ftg_selection_add(struct ftg_selection *sel, const char *pattern);

/**
 * ftg_selection_wants_site - does the selection take this site?
 * @sel: the selection
 * @site: a site of a table (ftg_sites_read())
 *
 * The selection's own matching, for a caller that filters a site table
 * rather than resolving it: a -l pattern or a -m module covers the
 * site's function and no -n pattern leaves it out; a NAME@ADDR pin names
 * the site's address or its function's first byte.
 *
 * Return: true when the selection takes it.
 */
bool ftg_selection_wants_site(const struct ftg_selection *sel,
			      const struct ftg_site *site);




/* ==== Session ==== */

/*
 * A session: one control descriptor (struct ftg_control) and the one way
 * a selection reaches it, the same for every front end. A selection
 * resolves over the cheapest list that holds every function it may take:
 * when it is confined to modules, over those modules' sites, which
 * ftguard.ko knows by itself; when the module already holds a site for
 * every core-kernel ftrace record (struct ftg_status vmlinux_sites up to
 * vmlinux_records), over its site table; otherwise over kallsyms and
 * available_filter_functions, whose vmlinux candidates the module admits
 * first (and the core record count is left with the module, so that a
 * later selection of everything needs neither list). The session never
 * prints: ftg_session_how() says which way a call went and
 * ftg_session_step() where a failed one stopped, for the caller to word.
 * Not thread-safe, as struct ftg_control.
 */
struct ftg_session;

/* ftg_session_how(): the way the last call went */
#define FTG_SESSION_MODULES	(1U << 0)	/* over the modules' own sites */
#define FTG_SESSION_KNOWS_ALL	(1U << 1)	/* ftguard.ko knows every function */
#define FTG_SESSION_LISTS	(1U << 2)	/* kallsyms, available_filter_functions */
#define FTG_SESSION_ALL		(1U << 3)	/* the module selected every site */
#define FTG_SESSION_NO_COUNT	(1U << 4)	/* the module keeps no record count */
#define FTG_SESSION_KNOWN	(1U << 5)	/* over the site table (KNOWN_FIRST) */

/* flags of ftg_session_select(), ftg_session_graph_roots(), ftg_session_resolve() */
#define FTG_SESSION_KNOWN_FIRST	(1U << 0)	/* the site table, then the lists */
#define FTG_SESSION_FROM_LISTS	(1U << 1)	/* the lists, whatever the module knows */

/* ftg_session_step(): where the last call failed */
enum ftg_session_step {
	FTG_SESSION_STEP_NONE,
	FTG_SESSION_STEP_STATUS,	/* reading ftguard/status */
	FTG_SESSION_STEP_MODULE_SITES,	/* the modules' sites, from the module */
	FTG_SESSION_STEP_SITES,		/* reading ftguard/sites */
	FTG_SESSION_STEP_KALLSYMS,	/* kallsyms (the client's, when it gives them) */
	FTG_SESSION_STEP_FUNCTIONS,	/* reading available_filter_functions */
	FTG_SESSION_STEP_RESOLVE,	/* choosing the functions (FTG_E_NO_MATCH: none) */
	FTG_SESSION_STEP_ADMIT,		/* offering candidates to the module */
	FTG_SESSION_STEP_REFUSED,	/* the module admitted none of them */
	FTG_SESSION_STEP_SELECT,	/* selecting on the descriptor */
	FTG_SESSION_STEP_SELECT_ALL,	/* the module's select of every site */
	FTG_SESSION_STEP_GRAPH,		/* selecting the call tree's roots */
};

/**
 * ftg_session_open - open a session on ftguard.ko's control file
 * @root: the live system (NULL: /sys/kernel/debug; a snapshot has no
 *        control file)
 *
 * Fails as ftg_control_open().
 *
 * Return: the session, to close with ftg_session_close(), or NULL.
 */
struct ftg_session *ftg_session_open(const struct ftg_root *root);
/**
 * ftg_session_close - close the session and its control descriptor
 * @sess: the session, or NULL
 *
 * As ftg_control_close(): what the descriptor armed without
 * FTG_ARM_PERSISTENT is disarmed.
 */
void ftg_session_close(struct ftg_session *sess);
/**
 * ftg_session_control - the session's control descriptor
 * @sess: the session
 *
 * For what follows a selection: ftg_control_check(), ftg_check_run(),
 * ftg_control_disarm(); arming is ftg_session_arm()'s.
 *
 * Return: the descriptor, owned by @sess.
 */
struct ftg_control *ftg_session_control(struct ftg_session *sess);
/**
 * ftg_session_set_kallsyms - where the session takes kallsyms from
 * @sess: the session
 * @get: called the first time the kernel's lists are needed; returns
 *       symbols that stay the caller's and outlive @sess, or NULL (the
 *       call then fails at FTG_SESSION_STEP_KALLSYMS)
 * @data: passed to @get
 *
 * Reading /proc/kallsyms is the dear part of a selection: a caller that
 * reads it for more (an address map) shares one read. Without @get the
 * session reads its own, once.
 */
void ftg_session_set_kallsyms(struct ftg_session *sess,
			      const struct ftg_kallsyms *(*get)(void *data),
			      void *data);

/**
 * ftg_session_select - resolve a selection and add its sites
 * @sess: the session
 * @sel: the selection
 * @flags: FTG_SESSION_KNOWN_FIRST (the module's site table first, the
 *         kernel's lists only when it has none of the functions),
 *         FTG_SESSION_FROM_LISTS (the kernel's lists, whatever the module
 *         knows), or 0
 * @nsites: when not NULL, set to the sites this call selected, with the
 *          roots of ftg_session_graph_roots() that are not among them
 *
 * -l '*' alone is every site: once the module knows every function it
 * selects them itself (FTG_SESSION_ALL). A NAME@ADDR pin of a site the
 * module holds is selected by address, since a freed init function is in
 * no ftrace list. The vmlinux candidates of the kernel's lists are
 * admitted first; those the module refuses leave the selection
 * (ftg_session_refused()), and a selection of refused ones fails
 * (FTG_SESSION_STEP_REFUSED, FTG_E_MODULE_REFUSED).
 *
 * Return: 0, or -1 with the library's error and ftg_session_step().
 */
int ftg_session_select(struct ftg_session *sess, const struct ftg_selection *sel,
		       unsigned int flags, size_t *nsites);
/**
 * ftg_session_graph_roots - select a call tree's roots and name them
 * @sess: the session
 * @sel: the roots (-g)
 * @flags: as ftg_session_select()
 *
 * Resolves @sel as ftg_session_select() does, selects its sites and makes
 * them the roots of the descriptor's graph arm: an arm with FTG_ARM_GRAPH
 * then follows a call only while one of them runs in the calling task, as
 * trace-cmd's function_graph -g does, down to the arm's depth (at most
 * FTGUARD_GRAPH_ROOTS_MAX roots in all). The callees are a later
 * ftg_session_select(); ftg_session_clear() forgets the roots. The kernel
 * needs a return hook that covers every site at once (fprobe); with
 * kretprobes only, the arm is refused with EOPNOTSUPP.
 *
 * Return: 0, or -1 with the library's error and ftg_session_step().
 */
int ftg_session_graph_roots(struct ftg_session *sess, const struct ftg_selection *sel,
			    unsigned int flags);
/**
 * ftg_session_select_addrs - add sites the module knows, by address
 * @sess: the session
 * @addrs: the addresses
 * @n: how many
 *
 * Return: 0, or -1 (errno ENOENT names an unknown site).
 */
int ftg_session_select_addrs(struct ftg_session *sess, const uint64_t *addrs, size_t n);
/**
 * ftg_session_clear - empty the selection and forget the call tree
 * @sess: the session
 *
 * Return: 0, or -1.
 */
int ftg_session_clear(struct ftg_session *sess);

/**
 * ftg_session_admit_all - offer every vmlinux function ftrace can patch
 * @sess: the session
 * @sent: set to the number offered (0 when the module knew them all)
 *
 * What a check of all sites needs first: the module knows modules' sites
 * by itself but vmlinux functions only once offered. When it already
 * holds as many vmlinux sites as the core kernel has records
 * (FTG_SESSION_KNOWS_ALL), nothing is read or offered.
 *
 * Return: 0, or -1 with the library's error and ftg_session_step().
 */
int ftg_session_admit_all(struct ftg_session *sess, size_t *sent);

/**
 * ftg_session_how - the way the last call went
 * @sess: the session
 *
 * Return: FTG_SESSION_* flags.
 */
unsigned int ftg_session_how(const struct ftg_session *sess);
/**
 * ftg_session_step - where the last call failed
 * @sess: the session
 *
 * Return: the step, FTG_SESSION_STEP_NONE when it did not fail.
 */
enum ftg_session_step ftg_session_step(const struct ftg_session *sess);
/**
 * ftg_session_vmlinux_records - the core kernel's records the module knows
 * @sess: the session
 *
 * Return: struct ftg_status vmlinux_records as the last call read it,
 * with FTG_SESSION_KNOWS_ALL; else 0.
 */
uint64_t ftg_session_vmlinux_records(const struct ftg_session *sess);
/**
 * ftg_session_records_refusal - why the module kept no record count
 * @sess: the session
 *
 * Return: the module's answer, with FTG_SESSION_NO_COUNT (an older
 * ftguard.ko), or NULL.
 */
const char *ftg_session_records_refusal(const struct ftg_session *sess);
/**
 * ftg_session_refused - the candidates the last call's admit refused
 * @sess: the session
 * @offered: when not NULL, set to how many were offered
 *
 * Return: the refused ones in address order (owned by @sess, until its
 * next call), or NULL when nothing was offered.
 */
const struct ftg_candidates *ftg_session_refused(const struct ftg_session *sess,
						 size_t *offered);

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

/**
 * ftg_map_free - free a map
 * @map: the map, or NULL
 */
void ftg_map_free(struct ftg_map *map);

/**
 * ftg_map_arch - the layout the map's addresses describe
 * @map: a finished map
 *
 * amd64 when addresses are 64-bit, i386 when they fit 32 bits.
 *
 * Return: FTG_ARCH_AMD64, FTG_ARCH_I386, FTG_ARCH_ARM64, or
 * FTG_ARCH_UNKNOWN (empty map).
 */
enum ftg_arch ftg_map_arch(const struct ftg_map *map);
/**
 * ftg_arch_name - the name of a layout
 * @arch: the layout
 *
 * Return: "amd64", "i386", "arm64" or "unknown".
 */
const char *ftg_arch_name(enum ftg_arch arch);
/**
 * ftg_region_kind_name - a short name for a region kind
 * @kind: the kind
 *
 * Return: "core-text", "module-text", "ioremap", ...; "?" out of range.
 */
const char *ftg_region_kind_name(enum ftg_region_kind kind);

/**
 * ftg_map_region_count - number of regions
 * @map: a finished map
 *
 * Regions are sorted by start (the larger first on equal starts).
 *
 * Return: the count.
 */
size_t ftg_map_region_count(const struct ftg_map *map);
/**
 * ftg_map_region_get - the @i-th region by start address
 * @map: a finished map
 * @i: index
 *
 * Return: the region (owned by @map), or NULL when @i >= count.
 */
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
/**
 * ftg_map_overlap_count - number of overlaps that matter
 * @map: a finished map
 *
 * Return: the count.
 */
size_t ftg_map_overlap_count(const struct ftg_map *map);
/**
 * ftg_map_overlap_get - the @i-th overlap (by the first region's start)
 * @map: a finished map
 * @i: index
 *
 * Return: the overlap (owned by @map), or NULL when @i >= count.
 */
const struct ftg_overlap *ftg_map_overlap_get(const struct ftg_map *map, size_t i);

/**
 * ftg_map_site_count - number of sites overlaid
 * @map: a finished map
 *
 * Sites are in address order.
 *
 * Return: the count.
 */
size_t ftg_map_site_count(const struct ftg_map *map);
/**
 * ftg_map_site_get - the @i-th site in address order
 * @map: a finished map
 * @i: index
 *
 * Return: the site and where it falls (owned by @map), or NULL.
 */
const struct ftg_map_site *ftg_map_site_get(const struct ftg_map *map, size_t i);
/**
 * ftg_map_sites_outside - number of sites outside live text
 * @map: a finished map
 *
 * Return: the count of sites whose in_live_text is false.
 */
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
/**
 * ftg_verdict_free - free a verdict
 * @v: the verdict, or NULL
 */
void ftg_verdict_free(struct ftg_verdict *v);
/**
 * ftg_verdict_ok - is everything consistent?
 * @v: the verdict
 *
 * Return: true when the module said ok and the map found nothing.
 */
bool ftg_verdict_ok(const struct ftg_verdict *v);
/**
 * ftg_verdict_n_ok - sites the module found ok
 * @v: the verdict
 *
 * Return: the count.
 */
uint64_t ftg_verdict_n_ok(const struct ftg_verdict *v);
/**
 * ftg_verdict_n_bad - sites the module found wrong
 * @v: the verdict
 *
 * Return: the count.
 */
uint64_t ftg_verdict_n_bad(const struct ftg_verdict *v);
/**
 * ftg_verdict_ms - how long the module's check took
 * @v: the verdict
 *
 * Return: milliseconds.
 */
uint64_t ftg_verdict_ms(const struct ftg_verdict *v);
/**
 * ftg_verdict_count - number of findings
 * @v: the verdict
 *
 * Return: the count.
 */
size_t ftg_verdict_count(const struct ftg_verdict *v);
/**
 * ftg_verdict_get - the @i-th finding, in the report's order
 * @v: the verdict
 * @i: index
 *
 * Return: the finding (owned by @v), or NULL when @i >= count.
 */
const struct ftg_finding *ftg_verdict_get(const struct ftg_verdict *v, size_t i);

/* ==== Arming: a request, and the one call that keeps the promise ==== */

/*
 * What a front end asks to arm, filled from its own options (the
 * command's option table, the TUI's prompt), and armed by
 * ftg_session_arm(): resolve and select the sites, have ftguard.ko check
 * them, judge the report with the address map, and arm only when both
 * call every site consistent.
 */
struct ftg_arm_request;

/* What a pattern of ftg_arm_request_add() names */
enum ftg_arm_pattern {
	FTG_ARM_FUNCTIONS,	/* functions by glob, or NAME@ADDR pins */
	FTG_ARM_EXCLUDE,	/* functions left out of the others */
	FTG_ARM_MODULE,		/* every site of a module */
	FTG_ARM_ROOTS,		/* a call tree's roots: returns, and what they reach */
};

/* What an arm records */
enum ftg_tracer {
	FTG_TRACER_FUNCTION,		/* entries (ftguard:func) */
	FTG_TRACER_FUNCTION_GRAPH,	/* entries and returns (graph_entry/exit) */
};

/**
 * ftg_arm_request_new - an empty request: the function tracer, no sites
 *
 * Return: the request, to free with ftg_arm_request_free(), or NULL.
 */
struct ftg_arm_request *ftg_arm_request_new(void);
/**
 * ftg_arm_request_free - free a request
 * @req: the request, or NULL
 */
void ftg_arm_request_free(struct ftg_arm_request *req);
/**
 * ftg_arm_request_add - add a pattern
 * @req: the request
 * @kind: what @pattern names
 * @pattern: a glob, NAME@ADDR, or a module name (FTG_ARM_MODULE)
 *
 * Roots (FTG_ARM_ROOTS) make the arm a call tree: it records returns and
 * may hold more than max_arm sites; without functions or modules the
 * tree follows every function the roots reach, as trace-cmd's -g does.
 *
 * Return: 0, or -1 (EINVAL, FTG_E_BAD_PATTERN) for a malformed pattern.
 */
int ftg_arm_request_add(struct ftg_arm_request *req, enum ftg_arm_pattern kind,
			const char *pattern);
/**
 * ftg_arm_request_add_words - add what a prompt's words ask for
 * @req: the request
 * @text: words separated by blanks: patterns, "!GLOB" leaving GLOB out
 *        (as set_ftrace_filter takes it), "depth=N" a call tree's depth
 * @first: the kind of the first pattern (FTG_ARM_ROOTS: "ROOT CALLEE...")
 * @rest: the kind of the patterns after it
 *
 * The one reading of a front end's line of patterns, so that every
 * prompt takes the same words.
 *
 * Return: 0, or -1 (EINVAL) with the word at fault in the library's
 * error; the words before it stay added.
 */
int ftg_arm_request_add_words(struct ftg_arm_request *req, const char *text,
			      enum ftg_arm_pattern first, enum ftg_arm_pattern rest);
/**
 * ftg_arm_request_count - how many patterns of a kind were added
 * @req: the request
 * @kind: the kind
 */
size_t ftg_arm_request_count(const struct ftg_arm_request *req,
			     enum ftg_arm_pattern kind);
/**
 * ftg_arm_request_pattern - a pattern as it was added
 * @req: the request
 * @kind: its kind
 * @i: which of them, from 0, in the order added
 *
 * Return: the pattern (owned by @req), or NULL past the last.
 */
const char *ftg_arm_request_pattern(const struct ftg_arm_request *req,
				    enum ftg_arm_pattern kind, size_t i);
/**
 * ftg_arm_request_add_sites - add sites ftguard.ko knows, by address
 * @req: the request
 * @addrs: the sites' addresses (as its site table gives them)
 * @n: how many
 *
 * Return: 0, or -1 (ENOMEM).
 */
int ftg_arm_request_add_sites(struct ftg_arm_request *req, const uint64_t *addrs,
			      size_t n);
/**
 * ftg_arm_request_set_resolve - how the patterns resolve
 * @req: the request
 * @flags: as ftg_session_select(): FTG_SESSION_KNOWN_FIRST (the site
 *         table first, then the kernel's lists), 0 (the default: the
 *         cheapest list that holds every function a pattern may take)
 */
void ftg_arm_request_set_resolve(struct ftg_arm_request *req, unsigned int flags);
/**
 * ftg_arm_request_set_tracer - what the arm records
 * @req: the request
 * @tracer: FTG_TRACER_FUNCTION (the default) or FTG_TRACER_FUNCTION_GRAPH
 */
void ftg_arm_request_set_tracer(struct ftg_arm_request *req, enum ftg_tracer tracer);
/**
 * ftg_arm_request_set_max_depth - levels a call tree follows below a root
 * @req: the request
 * @depth: 0 (the default) for all, at most FTG_GRAPH_DEPTH_MAX
 *
 * Return: 0, or -1 (EINVAL, FTG_E_BAD_ARGUMENT) beyond the limit, which
 * ftguard.ko enforces too.
 */
int ftg_arm_request_set_max_depth(struct ftg_arm_request *req, unsigned int depth);
/*
 * The deepest call tree ftguard.ko follows (ftg_arm_request_set_max_depth()):
 * its protocol's limit, which the library is built to agree with.
 */
#define FTG_GRAPH_DEPTH_MAX	1000
/**
 * ftg_arm_request_set_flags - how the arm is held
 * @req: the request
 * @flags: FTG_ARM_PERSISTENT (outlives the session), FTG_ARM_FORCE (more
 *         than max_arm sites), FTG_ARM_STACK (each entry's callers);
 *         other flags are ignored: the tracer and the roots set the rest
 */
void ftg_arm_request_set_flags(struct ftg_arm_request *req, unsigned int flags);

/* What makes a request one that cannot be armed (ftg_arm_request_fault()) */
enum ftg_arm_request_fault {
	FTG_ARM_REQUEST_OK,
	FTG_ARM_REQUEST_EMPTY,			/* it names no site */
	FTG_ARM_REQUEST_ONLY_EXCLUSIONS,	/* exclusions, and nothing to
						 * leave them out of */
	FTG_ARM_REQUEST_DEPTH_WITHOUT_TREE,	/* a depth, and no root */
	FTG_ARM_REQUEST_TREE_WITHOUT_RETURNS,	/* roots, under the function
						 * tracer asked for */
};
/**
 * ftg_arm_request_fault - can the request be armed as it stands?
 * @req: the request
 *
 * The rules of what goes together, for a front end to refuse a request
 * in its own words before it opens anything; ftg_session_arm() stops at
 * FTG_ARM_STAGE_REQUEST on the same rules.
 *
 * Return: FTG_ARM_REQUEST_OK, or the fault, with the library's error
 * (FTG_E_BAD_ARGUMENT) saying it.
 */
enum ftg_arm_request_fault ftg_arm_request_fault(const struct ftg_arm_request *req);

/* Where ftg_session_arm() stopped (ftg_arm_outcome_stage()) */
enum ftg_arm_stage {
	FTG_ARM_STAGE_REQUEST,	/* the request's fault (ftg_arm_request_fault()) */
	FTG_ARM_STAGE_SELECT,	/* resolving or selecting: ftg_session_step() */
	FTG_ARM_STAGE_CHECK,	/* the check failed, or found inconsistent sites */
	FTG_ARM_STAGE_ARM,	/* ftguard.ko refused to arm, or failed */
	FTG_ARM_STAGE_ARMED,	/* armed */
};
struct ftg_arm_outcome;

/**
 * ftg_session_set_map - the address map that judges the session's checks
 * @sess: the session
 * @map: a finished map, kept by the caller while the session is open; NULL
 *       (the default) builds one only when a check report has lines to
 *       judge (sites found bad, or every site of a check of fewer than 64)
 */
void ftg_session_set_map(struct ftg_session *sess, const struct ftg_map *map);
/**
 * ftg_session_select_request - select a request's sites, without arming
 * @sess: the session
 * @req: the request
 * @nsites: set to the number of sites selected
 *
 * What the session selected before is cleared first. The roots first
 * (ftg_session_graph_roots(), with the request's depth), then the sites
 * by address and the functions and modules (ftg_session_select()); roots
 * alone are followed into every function. What `ftguard check` checks is what
 * ftg_session_arm() would arm.
 *
 * Return: 0, or -1 with the library's error and ftg_session_step().
 */
int ftg_session_select_request(struct ftg_session *sess, const struct ftg_arm_request *req,
			       size_t *nsites);
/**
 * ftg_session_arm - select, check, judge and arm a request
 * @sess: the session; its descriptor owns the arm unless FTG_ARM_PERSISTENT
 * @req: what to arm
 * @outcome: set to what happened (even on failure, unless out of
 *           memory), to free with ftg_arm_outcome_free() before @sess
 *           is closed (its verdict may point into the session's map)
 *
 * The sites are resolved and selected as ftg_session_select() does, the
 * roots first; ftguard.ko checks them and the map judges its report: a
 * site either calls bad, or the map places outside live text, refuses
 * the whole arm. Only then is the module asked to arm; it checks again
 * under its lock and may refuse on its own word.
 *
 * Return: 0 armed, or -1 with the library's error (FTG_E_MODULE_REFUSED
 * for a refusal: ESTALE inconsistent sites; the module's EPERM killed,
 * EBUSY already armed or stuck, E2BIG more sites than max_arm, ENOENT
 * an empty selection, EOPNOTSUPP returns or a call tree the kernel
 * cannot hook) and the stage in @outcome.
 */
int ftg_session_arm(struct ftg_session *sess, const struct ftg_arm_request *req,
		    struct ftg_arm_outcome **outcome);
/**
 * ftg_arm_outcome_stage - where the arm stopped (FTG_ARM_STAGE_ARMED: armed)
 * @out: the outcome
 */
enum ftg_arm_stage ftg_arm_outcome_stage(const struct ftg_arm_outcome *out);
/**
 * ftg_arm_outcome_selected - sites selected (the roots' among them)
 * @out: the outcome
 */
size_t ftg_arm_outcome_selected(const struct ftg_arm_outcome *out);
/**
 * ftg_arm_outcome_checked - sites the check covered (0 before it)
 * @out: the outcome
 */
uint64_t ftg_arm_outcome_checked(const struct ftg_arm_outcome *out);
/**
 * ftg_arm_outcome_verdict - the judged report of a refusal
 * @out: the outcome
 *
 * Return: the check's verdict (consistent, once armed), or the verdict
 * on the report of the module's refusal to arm (when it gave one); NULL
 * when no check was made. Owned by @out.
 */
const struct ftg_verdict *ftg_arm_outcome_verdict(const struct ftg_arm_outcome *out);
/**
 * ftg_arm_outcome_take_verdict - take the verdict out of the outcome
 * @out: the outcome
 *
 * For a caller that keeps the verdict (to show it) past the outcome: it
 * may point into the session's map, so it lives no longer than the
 * session or the map given to ftg_session_set_map().
 *
 * Return: ftg_arm_outcome_verdict()'s, to free with ftg_verdict_free()
 * (the outcome holds none afterwards), or NULL.
 */
struct ftg_verdict *ftg_arm_outcome_take_verdict(struct ftg_arm_outcome *out);
/**
 * ftg_arm_outcome_error - why the arm was not made
 * @out: the outcome
 * @reason: when not NULL, set to the message (owned by @out)
 *
 * Return: 0 when armed, else the errno of the failure.
 */
int ftg_arm_outcome_error(const struct ftg_arm_outcome *out, const char **reason);
/**
 * ftg_arm_outcome_map_error - why no map judged the report
 * @out: the outcome
 *
 * Return: the map's error when one was needed and could not be built
 * (the sites were then judged on the module's word alone), else NULL.
 */
const char *ftg_arm_outcome_map_error(const struct ftg_arm_outcome *out);
/**
 * ftg_arm_outcome_free - free an outcome
 * @out: the outcome, or NULL
 */
void ftg_arm_outcome_free(struct ftg_arm_outcome *out);

/*
 * An admission (ftg_session_admission()): a request's functions offered
 * to ftguard.ko a part at a time, for a front end that serves its user
 * between parts and may stop early; what it admitted is then checked
 * like any selection.
 */
struct ftg_admission;
/**
 * ftg_session_admission - resolve a request's functions, to offer them
 * @sess: the session
 * @req: functions and modules, with exclusions (no roots; sites added by
 *       address are sites already and are not offered)
 *
 * The patterns resolve over every function the kernel can trace, the
 * module's sites or not (FTG_SESSION_FROM_LISTS); nothing is offered yet.
 *
 * Return: the admission, to free with ftg_admission_free() before @sess
 * is closed, or NULL with the library's error (a request's fault, roots,
 * no function or module, none matching).
 */
struct ftg_admission *ftg_session_admission(struct ftg_session *sess,
					    const struct ftg_arm_request *req);
/**
 * ftg_admission_step - offer the next part
 * @adm: the admission
 * @n: how many candidates at most (a module's are counted, not sent)
 *
 * Return: 1 while some are left to offer, 0 once all were, -1 with the
 * library's error (what was admitted before stays admitted).
 */
int ftg_admission_step(struct ftg_admission *adm, size_t n);
/**
 * ftg_admission_total - how many candidates the patterns resolved to
 * @adm: the admission
 */
size_t ftg_admission_total(const struct ftg_admission *adm);
/**
 * ftg_admission_offered - how many were offered so far
 * @adm: the admission
 */
size_t ftg_admission_offered(const struct ftg_admission *adm);
/**
 * ftg_admission_refused - the offered functions the module refused
 * @adm: the admission
 *
 * Return: the list, in address order, owned by @adm.
 */
const struct ftg_candidates *ftg_admission_refused(const struct ftg_admission *adm);
/**
 * ftg_admission_reason - why the module refused one
 * @adm: the admission
 * @i: its index in ftg_admission_refused()
 *
 * The module's answer to a batch names one refusal; this offers the
 * function again alone, once, and keeps the answer.
 *
 * Return: the module's reason, "admitted when asked again" when it took
 * the function this time, or NULL with the library's error. Owned by @adm.
 */
const char *ftg_admission_reason(struct ftg_admission *adm, size_t i);
/**
 * ftg_admission_sites - the sites admitted so far
 * @adm: the admission
 * @n: set to how many
 *
 * The offered candidates the module did not refuse (a module's function
 * is a site already), for a check or an arm (ftg_arm_request_add_sites()).
 *
 * Return: their addresses in address order, owned by @adm until the next
 * call, or NULL (ENOMEM).
 */
const uint64_t *ftg_admission_sites(struct ftg_admission *adm, size_t *n);
/**
 * ftg_admission_free - free an admission (what was admitted stays so)
 * @adm: the admission, or NULL
 */
void ftg_admission_free(struct ftg_admission *adm);

/* ==== ftguard's trace instance: what a command sets, and restores ==== */

/*
 * An open handle on the "ftguard" trace instance (ftguard.ko makes it).
 * Each change made through it is remembered, and ftg_instance_restore()
 * undoes exactly those, so that what was set before (by another tool, or
 * by 'ftguard start') stays as it was. Changes outlive the handle unless
 * restored: ftg_instance_free() keeps them.
 */
struct ftg_instance;

/**
 * ftg_instance_open - open ftguard's trace instance
 * @root: the live system (instances/ftguard/ under its tracefs)
 *
 * Return: the handle, to free with ftg_instance_free(), or NULL with
 * errno set: ENODEV and FTG_E_NO_MODULE when the instance does not exist
 * (the module is not loaded), EACCES and FTG_E_NOT_ROOT.
 */
struct ftg_instance *ftg_instance_open(const struct ftg_root *root);
/**
 * ftg_instance_free - close the handle, keeping the changes
 * @inst: the handle, or NULL
 */
void ftg_instance_free(struct ftg_instance *inst);
/**
 * ftg_instance_restore - undo every change made through @inst
 * @inst: the handle, or NULL
 *
 * In this order: the events it enabled are disabled, then the filters it
 * set cleared (so no unfiltered event gets in between), the pid filters
 * emptied, the options it turned on (off) turned off (on), the buffer
 * size put back. Every step is tried; the handle then holds no change.
 *
 * Return: 0, or -1 with errno EIO and ftg_error_last() naming each step
 * that failed ("could not disable sched:sched_switch; ...").
 */
int ftg_instance_restore(struct ftg_instance *inst);
/**
 * ftg_instance_event_filter - filter a kernel event in the instance
 * @inst: the handle
 * @system: the event's system ("sched")
 * @event: the event ("sched_switch"), or NULL for every event of @system
 * @filter: the kernel's event-filter syntax ("prev_pid == 0"), written to
 *          events/@system[/@event]/filter as trace-cmd record -f does
 *
 * The kernel then drops the events that do not match before they take
 * buffer space. ftg_instance_restore() clears the filter.
 *
 * Return: 0; or -1 with errno EINVAL and FTG_E_BAD_FILTER when the kernel
 * refused the filter (whatever errno its write failed with):
 * ftg_error_last() is "SYSTEM:EVENT: the kernel refused filter 'FILTER':
 * parse_error: WHY", then the filter and the kernel's caret under the
 * place (the instance's error_log entry when the filter file does not
 * say), and the refused filter is cleared, so nothing is left behind; or
 * -1 with errno EINVAL and FTG_E_BAD_ARGUMENT for a name with '/' or
 * "..", or an empty filter; or -1 with errno and FTG_E_SYSTEM when the
 * file cannot be written (no such event: ENOENT).
 */
int ftg_instance_event_filter(struct ftg_instance *inst, const char *system,
			      const char *event, const char *filter);
/**
 * ftg_instance_event_enable - enable a kernel event in the instance
 * @inst: the handle
 * @system: the event's system
 * @event: the event, or NULL for every event of @system
 *
 * An event already on stays as it is, and ftg_instance_restore() leaves
 * it on; one this call turned on, it turns off. Set its filter first
 * (ftg_instance_event_filter()), so that no event it would drop gets in.
 *
 * Return: 0, or -1 with errno set: EINVAL and FTG_E_BAD_ARGUMENT for a
 * name with '/' or "..", ENOENT and FTG_E_BAD_EVENT for an event tracefs
 * does not have, else FTG_E_SYSTEM ("enabling SYSTEM:EVENT: why").
 */
int ftg_instance_event_enable(struct ftg_instance *inst, const char *system,
			      const char *event);
/**
 * ftg_instance_events_off - turn off every kernel event but ftguard's own
 * @inst: the handle
 * @turned_off: set to the systems that had events on and were turned
 *              off, a NULL-terminated list to free with
 *              ftg_event_names_free() (NULL: none); or NULL
 *
 * For what 'ftguard start -e' left on, which is kept nowhere else: each
 * system with an event on is disabled and its filters (its events' too)
 * cleared. The ftguard system stays on. Not undone by
 * ftg_instance_restore().
 *
 * Return: 0, or -1 with errno set when a system could not be listed,
 * disabled or cleared (every other system is still done, and
 * @turned_off still names those turned off).
 */
int ftg_instance_events_off(struct ftg_instance *inst, char ***turned_off);
/**
 * ftg_instance_set_buffer_kb - set the per-CPU buffer size
 * @inst: the handle
 * @kb: KiB per CPU (buffer_size_kb)
 *
 * ftg_instance_restore() puts back the size before the first call (the
 * size the kernel expands to when the buffer was not used yet).
 *
 * Return: 0, or -1 with errno set (EINVAL and FTG_E_BAD_ARGUMENT for 0).
 */
int ftg_instance_set_buffer_kb(struct ftg_instance *inst, unsigned long kb);
/**
 * ftg_instance_set_option - turn a trace option of the instance on or off
 * @inst: the handle
 * @name: "record-tgid" (the kernel keeps each task's tgid in saved_tgids)
 *        or "event-fork" (children of the pid filter's tasks join it)
 * @on: the state wanted
 *
 * Only a real change is remembered for ftg_instance_restore().
 *
 * Return: 0, or -1 with errno set (EINVAL and FTG_E_BAD_ARGUMENT for
 * another name).
 */
int ftg_instance_set_option(struct ftg_instance *inst, const char *name, bool on);

/* ftg_instance_set_pids() flags */
#define FTG_INSTANCE_PIDS_NOTRACE	0x1	/* leave the pids out instead */

/**
 * ftg_instance_set_pids - trace only (or all but) the given processes
 * @inst: the handle
 * @pids: the pids
 * @n: how many, 1 to 64
 * @flags: 0 writes set_event_pid (only their events are kept, as
 *         trace-cmd -P); FTG_INSTANCE_PIDS_NOTRACE writes
 *         set_event_notrace_pid (their events are dropped), but never
 *         over a list someone else left there
 *
 * ftg_instance_restore() empties the list again.
 *
 * Return: 0, or -1 with errno set: with FTG_INSTANCE_PIDS_NOTRACE,
 * ENOTSUP when the kernel has no set_event_notrace_pid and EBUSY when it
 * holds another list (nothing written); EINVAL for no pid, a pid <= 0 or
 * more than 64.
 */
int ftg_instance_set_pids(struct ftg_instance *inst, const int *pids, size_t n,
			  unsigned int flags);
/**
 * ftg_instance_clear_buffer - empty the instance's trace buffer
 * @inst: the handle
 *
 * Return: 0, or -1 with errno set.
 */
int ftg_instance_clear_buffer(struct ftg_instance *inst);
/**
 * ftg_instance_buffer_entries - events now in the instance's buffer
 * @inst: the handle
 * @entries: set to the sum of "entries" in every CPU's per_cpu stats
 *
 * Return: 0, or -1 with errno ENOENT when no CPU's stats can be read.
 */
int ftg_instance_buffer_entries(struct ftg_instance *inst, uint64_t *entries);

/* ==== Live events: instance, decoding, streaming ==== */

#define FTG_COMM_LEN		16	/* the kernel's TASK_COMM_LEN */
#define FTG_EVENT_NAME_LEN	32
#define FTG_SYM_LEN		128	/* "symbol [module]" or "0x..." */
#define FTG_INFO_LEN		192	/* the event's own print format */
#define FTG_EVENT_RAW_MAX	288	/* raw payload kept for re-encoding */
#define FTG_STACK_MAX		32	/* callers a stack event holds */
#define FTG_STACK_TEXT_LEN	1024	/* their names, one a line */

/**
 * struct ftg_event - one decoded trace event
 *
 * A plain value: copy it freely. @sym and @parent_sym are the ips resolved
 * through kallsyms as "symbol [module]" ("symbol" for vmlinux), or "0x..."
 * when no symbol covers the address. @info is libtraceevent's rendering of
 * the event's print format. @raw holds the event's payload exactly as the
 * ring buffer stored it (common fields first) so that the trace.dat writer
 * can re-encode a decoded event byte for byte; @raw_size is 0 when the
 * payload was larger than FTG_EVENT_RAW_MAX (a stack event never is).
 * A kernel stack (ftguard:stack, or ftrace:kernel_stack as a trace.dat
 * names it) has its callers in @stack, innermost first, and their names
 * in @stack_text, "symbol+0xoff [module]" one a line (fewer lines than
 * @nr_stack when they did not fit); @nr_stack is 0 for other events.
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
	unsigned int nr_stack;		/* a kernel stack: callers in stack[] */
	uint64_t stack[FTG_STACK_MAX];
	char stack_text[FTG_STACK_TEXT_LEN];
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

/**
 * ftg_event_names - the kernel's trace event systems, or a system's events
 * @root: the live system (events/ under its tracefs; a snapshot keeps none)
 * @system: NULL for the systems, else the name of one
 *
 * Return: the names in byte order, NULL-terminated, to free with
 * ftg_event_names_free(), or NULL with errno set (EINVAL and
 * FTG_E_BAD_ARGUMENT for a name that is no system; ENOENT and
 * FTG_E_BAD_EVENT for a system tracefs does not have, FTG_E_NO_TRACEFS
 * when it has no events at all).
 */
char **ftg_event_names(const struct ftg_root *root, const char *system);
/**
 * ftg_event_names_free - free what ftg_event_names() returned
 * @names: the list (NULL is ignored)
 */
void ftg_event_names_free(char **names);

/* Flags for ftg_live_open(). */
#define FTG_LIVE_NO_KALLSYMS	(1U << 0)	/* ips print as hex only */

/**
 * ftg_live_open - open the module's trace instance for reading
 * @root: the live system
 * @instance: instance name (NULL: "ftguard")
 * @flags: FTG_LIVE_NO_KALLSYMS to skip symbol names
 *
 * Reads the event formats (system ftguard, plus ftrace's own) under
 * @root's tracefs and kallsyms under its procfs, and opens every CPU's
 * instances/@instance/per_cpu/cpuN/trace_pipe_raw without blocking. The
 * instance is not created: ftguard.ko owns it.
 *
 * Return: the session (free with ftg_live_free()), or NULL with errno:
 * ENODEV when the instance does not exist (module not loaded), EACCES
 * when not root, ENOENT when tracefs or the ftguard events are missing.
 */
struct ftg_live *ftg_live_open(const struct ftg_root *root, const char *instance,
			       unsigned int flags);
/**
 * ftg_live_open_with_kallsyms - ftg_live_open() with kallsyms already read
 * @root: the live system (its procfs is not read)
 * @instance: instance name (NULL: "ftguard")
 * @ks: the kallsyms the caller holds (copied: they may be freed after)
 * @flags: as for ftg_live_open()
 *
 * Return: as ftg_live_open().
 */
struct ftg_live *ftg_live_open_with_kallsyms(const struct ftg_root *root,
					     const char *instance,
					     const struct ftg_kallsyms *ks,
					     unsigned int flags);
/**
 * ftg_live_free - close a live session
 * @live: the session (NULL is ignored)
 */
void ftg_live_free(struct ftg_live *live);
/**
 * ftg_live_ncpus - CPUs of the instance
 * @live: the session
 *
 * Return: the count.
 */
int ftg_live_ncpus(const struct ftg_live *live);
/**
 * ftg_live_page_size - ring-buffer page size
 * @live: the session
 *
 * Return: the size in bytes.
 */
size_t ftg_live_page_size(const struct ftg_live *live);
/**
 * ftg_live_formats - the formats a trace.dat of this live capture needs
 * @live: the session
 *
 * Pass them to ftg_trace_writer_create(). Return: owned by @live.
 */
struct ftg_trace_formats *ftg_live_formats(struct ftg_live *live);
/**
 * ftg_live_add_system - decode and record the events of one more system
 * @live: the session
 * @system: an event system of tracefs (sched, irq, ...)
 *
 * The session reads ftguard's own events; tracepoints a caller enables
 * in the instance (tracefs_event_enable()) need their formats too, for
 * decoding and for a trace.dat that trace-cmd reads without warnings.
 * Call before ftg_trace_writer_create() takes ftg_live_formats(): a
 * writer made earlier writes the formats of its time.
 *
 * Return: 0, or -1 with errno ENOENT when tracefs has no such system.
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
/**
 * ftg_live_pump - read what the CPUs have, within the budget
 * @live: the session
 * @timeout_ms: wait at most this long for data first (0: do not wait,
 *              -1: wait until data or a signal)
 * @writer: gets every page read, raw (may be NULL)
 * @cb: gets every event decoded (may be NULL)
 * @data: passed to @cb
 *
 * The kernel wakes pollers of trace_pipe_raw when a CPU buffer is filled
 * to buffer_percent; a session on the running kernel sets that of
 * ftguard's instance to 0 (any event), one on a directory leaves it, so
 * a timeout may be the way out there; the CPUs are read whether or not
 * poll() said so. No wait when the last
 * call left data. At most the budget (ftg_live_set_budget()) is read.
 *
 * Return: pages read (0 if none or interrupted by a signal), or -1 with
 * errno set.
 */
int ftg_live_pump(struct ftg_live *live, int timeout_ms,
		  struct ftg_trace_writer *writer, ftg_event_cb cb, void *data);
/**
 * ftg_live_drain - read what is left, partial pages included
 * @live: the session
 * @writer: as for ftg_live_pump()
 * @cb: as for ftg_live_pump()
 * @data: passed to @cb
 *
 * Call after the tracing stopped (disarmed), before closing the writer,
 * until it returns 0 or ftg_live_more() is false; each call reads at
 * most the budget, so a drain of a source that is still armed ends too.
 *
 * Return: pages read, or -1 with errno set.
 */
int ftg_live_drain(struct ftg_live *live, struct ftg_trace_writer *writer,
		   ftg_event_cb cb, void *data);
/**
 * ftg_live_set_budget - bound the work of one pump or drain call
 * @live: the session
 * @max_bytes: stop after reading this many bytes of pages (0: one page
 *             per CPU)
 * @max_ms: stop after this many milliseconds (0: one round over the CPUs
 *          too)
 *
 * A reader whose own reads are traced (vfs_read armed, say) never finds
 * the buffer empty: each read makes the next event. The budget makes
 * every call return, so the caller serves its input and signals between
 * calls; ftg_live_more() then says data was left. The default is 64
 * pages per CPU and 100 ms.
 *
 * Return: 0.
 */
int ftg_live_set_budget(struct ftg_live *live, size_t max_bytes, unsigned int max_ms);
/**
 * ftg_live_more - did the last pump or drain stop at its budget?
 * @live: the session
 *
 * Return: true when a CPU still had data at the end of the last call.
 */
bool ftg_live_more(const struct ftg_live *live);
/**
 * ftg_live_fds - the descriptors to wait on for events
 * @live: the session
 * @fds: filled with up to @max descriptors, one per CPU
 * @max: room in @fds
 *
 * For a caller that waits in its own poll() on its input and the events
 * together (a TUI's terminal, say) instead of in ftg_live_pump()'s: a
 * descriptor is readable (POLLIN) while its CPU's buffer holds events
 * (on the live system the session has ftguard's instance wake readers on
 * any event), and then ftg_live_pump() with a timeout of 0 reads them.
 * The descriptors are the session's: do not read or close them; they
 * stay valid until ftg_live_free().
 *
 * Return: the number of descriptors the session has (more than @max:
 * call again with room for them all).
 */
int ftg_live_fds(const struct ftg_live *live, int *fds, int max);
/**
 * ftg_live_hide_pid - leave out the events of one task
 * @live: the session
 * @pid: the task (0: hide nobody)
 *
 * A tool tracing a function on its own read path sees its own calls: real
 * hits, but rarely what the user wants (trace-cmd filters its own threads
 * unless given --no-filter). Hidden events are not passed to callbacks
 * and are counted in ftg_trace_counters.hidden; pages handed to a writer
 * stay whole (filter those in the kernel, set_event_notrace_pid).
 *
 * Return: 0.
 */
int ftg_live_hide_pid(struct ftg_live *live, int pid);
/**
 * ftg_live_name_task - name a task from /proc now, before it goes
 * @live: the session (on the live system)
 * @pid: the task: a child that has exited and is not reaped yet, say
 *
 * The kernel's saved_cmdlines may never learn the name of a short-lived
 * task, and the session names unknown tasks from /proc as their events
 * are read, which can be after the task is gone. A caller that runs the
 * traced command calls this between the command's exit and its reaping
 * (waitid() with WNOWAIT), so the decoded events and the file's cmdlines
 * name it.
 *
 * Return: 0 when @pid was named, -1 with errno set otherwise (ENOENT: no
 * such task; EINVAL: not the live system or a bad @pid).
 */
int ftg_live_name_task(struct ftg_live *live, int pid);
/**
 * ftg_live_counters - events, lost events, bytes and pages so far
 * @live: the session
 * @out: filled in
 *
 * Lost events are re-read from per_cpu/cpuN/stats ("overrun" plus
 * "dropped events", counted from when the session opened).
 *
 * Return: 0.
 */
int ftg_live_counters(struct ftg_live *live, struct ftg_trace_counters *out);
/**
 * ftg_live_cpu_stats - a CPU's ring-buffer stats text
 * @live: the session
 * @cpu: the CPU
 *
 * Return: per_cpu/cpu@cpu/stats (free() it), or NULL with errno set.
 */
char *ftg_live_cpu_stats(struct ftg_live *live, int cpu);

/*
 * A bounded ring of the last N events, for the TUI. Not thread-safe:
 * a reader in another thread must hold the caller's lock.
 */
struct ftg_event_ring;
/**
 * ftg_event_ring_alloc - allocate a ring of @capacity events
 * @capacity: events kept (at least 1)
 *
 * Return: the ring (free with ftg_event_ring_free()), or NULL with errno
 * EINVAL or ENOMEM.
 */
struct ftg_event_ring *ftg_event_ring_alloc(size_t capacity);
/**
 * ftg_event_ring_free - free a ring
 * @ring: the ring (NULL is ignored)
 */
void ftg_event_ring_free(struct ftg_event_ring *ring);
/**
 * ftg_event_ring_push - add a copy of @ev, dropping the oldest if full
 * @ring: the ring
 * @ev: the event
 */
void ftg_event_ring_push(struct ftg_event_ring *ring, const struct ftg_event *ev);
/**
 * ftg_event_ring_count - events held
 * @ring: the ring
 *
 * Return: the number of events, at most the capacity.
 */
size_t ftg_event_ring_count(const struct ftg_event_ring *ring);
/**
 * ftg_event_ring_capacity - events the ring can hold
 * @ring: the ring
 *
 * Return: the capacity given to ftg_event_ring_alloc().
 */
size_t ftg_event_ring_capacity(const struct ftg_event_ring *ring);
/**
 * ftg_event_ring_get - the @i-th oldest event held
 * @ring: the ring
 * @i: 0 for the oldest, count - 1 for the newest
 *
 * Return: the event (owned by the ring, valid until the next push or
 * clear), or NULL when @i >= count.
 */
const struct ftg_event *ftg_event_ring_get(const struct ftg_event_ring *ring,
					   size_t i);
/**
 * ftg_event_ring_overwritten - events dropped because the ring was full
 * @ring: the ring
 *
 * Return: the count since allocation or the last clear.
 */
uint64_t ftg_event_ring_overwritten(const struct ftg_event_ring *ring);
/**
 * ftg_event_ring_clear - drop every event and reset the counter
 * @ring: the ring
 */
void ftg_event_ring_clear(struct ftg_event_ring *ring);

/**
 * ftg_event_snprint - one report line for an event
 * @buf: output
 * @len: size of @buf
 * @ev: the event
 *
 * "comm-pid [cpu] secs.usecs: name: info", with "sym <- parent_sym" as
 * info for events that carry both ips, as trace-cmd report prints them.
 *
 * Return: what snprintf() returns.
 */
int ftg_event_snprint(char *buf, size_t len, const struct ftg_event *ev);

/* ==== Kernel stacks ==== */

/*
 * An arm made with FTG_ARM_STACK follows each ftguard:func event (with
 * FTG_ARM_GRAPH, each ftguard:graph_entry of depth 0) with an
 * ftguard:stack event of the same task: the call's callers, the traced
 * function's caller first. A trace.dat names it ftrace:kernel_stack, as
 * trace-cmd knows it.
 */

/**
 * ftg_event_is_stack - is @ev a kernel stack?
 * @ev: an event
 *
 * Return: true for ftguard:stack and ftrace:kernel_stack.
 */
bool ftg_event_is_stack(const struct ftg_event *ev);
/**
 * ftg_stack_snprint - a kernel stack's callers, as trace-cmd report prints
 * @buf: output
 * @len: size of @buf
 * @ev: a stack event (ftg_event_is_stack())
 *
 * One line per caller, "=> symbol+0xoff [module]", each ending in a
 * newline; nothing for an event without callers.
 *
 * Return: what snprintf() returns; -1 with errno EINVAL when @ev is not a
 * stack event.
 */
int ftg_stack_snprint(char *buf, size_t len, const struct ftg_event *ev);

/* ==== Function graph: calls with durations ==== */

/*
 * An arm made with FTG_ARM_GRAPH emits ftguard:graph_entry (ip, depth) when
 * a call starts and ftguard:graph_exit (ip, depth, calltime, rettime) when
 * it returns; struct ftg_event carries those fields. These helpers print
 * them as trace-cmd's function_graph output and sum them per function.
 */

/**
 * ftg_event_is_graph_entry - is @ev ftguard's graph_entry?
 * @ev: an event
 *
 * Return: true for an ftguard:graph_entry event.
 */
bool ftg_event_is_graph_entry(const struct ftg_event *ev);
/**
 * ftg_event_is_graph_exit - is @ev ftguard's graph_exit?
 * @ev: an event
 *
 * Return: true for an ftguard:graph_exit event.
 */
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
/**
 * ftg_graph_stats_new - an empty table of per-function sums
 *
 * Return: the table, to free with ftg_graph_stats_free(), or NULL with
 * the error set (errno ENOMEM).
 */
struct ftg_graph_stats *ftg_graph_stats_new(void);
/**
 * ftg_graph_stats_free - free a table
 * @st: the table (NULL is ignored)
 */
void ftg_graph_stats_free(struct ftg_graph_stats *st);
/**
 * ftg_graph_stats_cb - an ftg_event_cb adding to a table
 * @ev: the event
 * @data: the struct ftg_graph_stats
 *
 * Return: 0, or -1 (stopping the walk) when adding failed.
 */
int ftg_graph_stats_cb(const struct ftg_event *ev, void *data);
/**
 * ftg_graph_stats_count - number of functions in the table
 * @st: the table
 *
 * Return: the count.
 */
size_t ftg_graph_stats_count(const struct ftg_graph_stats *st);
/**
 * ftg_graph_stats_get - the @i-th function, largest total first
 * @st: the table (sorted by the first call after the last add)
 * @i: index
 *
 * Return: the sums (owned by @st), or NULL
 * when @i >= count.
 */
const struct ftg_graph_stat *ftg_graph_stats_get(struct ftg_graph_stats *st,
						 size_t i);

/* ==== Trace files: trace.dat writer/reader, exports ==== */

/*
 * The metadata a trace.dat header carries: header_page, header_event,
 * ftrace and event formats, kallsyms, printk formats, saved cmdlines;
 * a live capture's come from ftg_live_formats().
 */
struct ftg_trace_formats;

/*
 * trace.dat writer, format version 6 (see doc/trace-files.md).
 *
 * Data is streamed per CPU into unlinked temporary files next to @path;
 * ftg_trace_writer_close() writes header + data to "@path.tmp", fsyncs it
 * and renames it to @path. So @path is either absent/old or complete:
 * a writer freed without close, or a process killed before close, never
 * leaves a partial @path. @fmt must outlive the writer.
 */

/**
 * ftg_trace_writer_create - start a trace.dat file
 * @path: final file name
 * @fmt: formats of the data to come (must outlive the writer; the
 *       decoded-event path adds the events' comms to its cmdlines)
 * @ncpus: number of CPUs (1..4096)
 *
 * Return: the writer, or NULL with errno set.
 */
struct ftg_trace_writer *ftg_trace_writer_create(const char *path,
						 struct ftg_trace_formats *fmt,
						 int ncpus);
/**
 * ftg_trace_writer_add_event - append a decoded event
 * @w: writer
 * @ev: the event; @ev->cpu picks the CPU
 *
 * The event is re-encoded into ring-buffer pages: events of one CPU must
 * come in time order (an older one starts a new page). @ev->raw is used
 * when present, else the payload is built from @ev->type or
 * @ev->system/@ev->name, @ev->pid, @ev->ip and @ev->parent_ip. @ev->comm
 * is recorded for @ev->pid in the file's cmdlines.
 *
 * Return: 0, or -1 with the error set (FTG_E_BAD_EVENT for an event the
 * formats cannot encode) and errno EINVAL (bad CPU, event without raw bytes
 * and with a variable layout), ENOENT (event not in the formats), E2BIG
 * (event larger than a page) or the write error.
 */
int ftg_trace_writer_add_event(struct ftg_trace_writer *w,
			       const struct ftg_event *ev);
/**
 * ftg_trace_writer_set_cpu_stats - keep a CPU's ring-buffer stats
 * @w: writer
 * @cpu: CPU
 * @stats: per_cpu/cpuN/stats text (copied)
 *
 * Stored as a CPUSTAT option: `trace-cmd report --stat` shows it.
 *
 * Return: 0, or -1 with errno EINVAL or ENOMEM.
 */
int ftg_trace_writer_set_cpu_stats(struct ftg_trace_writer *w, int cpu,
				   const char *stats);
/**
 * ftg_trace_writer_bytes - event bytes written so far
 * @w: writer
 *
 * Return: the sum of the commits of all pages written.
 */
uint64_t ftg_trace_writer_bytes(const struct ftg_trace_writer *w);
/**
 * ftg_trace_writer_close - finish the file and free the writer
 * @w: writer
 *
 * Seals the pages of the decoded-event path, writes "PATH.tmp" (header,
 * then each CPU's pages), fsyncs it and renames it to PATH. On failure
 * PATH is untouched and "PATH.tmp" removed.
 *
 * Return: 0, or -1 with errno set.
 */
int ftg_trace_writer_close(struct ftg_trace_writer *w);
/**
 * ftg_trace_writer_free - abandon a writer
 * @w: writer (NULL is ignored)
 *
 * The final file is not created or changed; the temporary data goes.
 */
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
/**
 * ftg_trace_file_open - open a trace.dat file for reading
 * @path: file (version 6 fully validated; version 7 initial checks only;
 *        then read once in a child process, see preflight())
 *
 * Sets libtracecmd's log level to errors only, as trace-cmd report does,
 * for the whole process: its warnings (an option it does not know, such
 * as ftguard's tgid map) are not for the user of this library.
 *
 * Return: the file (close with ftg_trace_file_close()), or NULL with
 * errno and the error set ("PATH: offset N: what" for a corrupt file).
 */
struct ftg_trace_file *ftg_trace_file_open(const char *path);
/**
 * ftg_trace_file_close - close a file from ftg_trace_file_open()
 * @tf: the file (NULL is ignored)
 */
void ftg_trace_file_close(struct ftg_trace_file *tf);
/**
 * ftg_trace_file_add_filter - show only the events a filter selects
 * @tf: the file, before ftg_trace_file_iterate()
 * @filter: trace-cmd report's -F syntax, compiled by libtraceevent's
 *          filter engine: "EVENTS:EXPR", or "EVENTS" alone (keep those
 *          events), or "EXPR" alone (for every event). EVENTS is a
 *          comma-separated list of EVENT or SYSTEM/EVENT, each a regex
 *          over the names (SYSTEM:EVENT alone, as -e writes it, is taken
 *          too). EXPR compares fields (common_pid, ip, prev_pid...; COMM
 *          and CPU for any event) with == != < <= > >= & and =~ (a regex),
 *          or ~ with a "glob" as the kernel's event filters; combines them
 *          with && || ! and parentheses. A function address field
 *          compared with a string compares the function's name.
 * @exclude: false: an event is shown when it passes any of the including
 *           filters; true: it is left out when it passes this one (as
 *           trace-cmd report -v -F)
 *
 * A field that no event the filter applies to has is refused: the engine
 * would make it false without saying so.
 *
 * Return: 0, or -1 with errno EINVAL and FTG_E_BAD_FILTER: ftg_error_last()
 * is "filter 'TEXT': WHAT", then the filter again and a caret under the
 * place it goes wrong (a syntax error, an unknown field, the events when
 * none of the file matches).
 */
int ftg_trace_file_add_filter(struct ftg_trace_file *tf, const char *filter,
			      bool exclude);
/**
 * ftg_trace_file_add_cpus - show only the events of some CPUs
 * @tf: the file, before ftg_trace_file_iterate()
 * @list: CPU numbers and ranges, "0-3,6"; several calls add up
 *
 * The whole list is checked before any of it is taken.
 *
 * Return: 0, or -1 with errno EINVAL and FTG_E_BAD_ARGUMENT for a list
 * with an empty entry ("1,,2"), a word ("a"), a range that runs backwards
 * ("3-1") or a CPU above 8191, the message naming the place.
 */
int ftg_trace_file_add_cpus(struct ftg_trace_file *tf, const char *list);
/**
 * ftg_trace_file_iterate - walk the events in time order
 * @tf: the file
 * @cb: called for each event
 * @data: passed to @cb
 *
 * One pass per open file: a second call sees no more events. Only the
 * events the file's filters and CPU list select reach @cb (every event
 * when none was added).
 *
 * Return: 0 after the last event, @cb's non-zero value if it stopped
 * the walk, -1 on error.
 */
int ftg_trace_file_iterate(struct ftg_trace_file *tf, ftg_event_cb cb,
			   void *data);

/* Exports of decoded events. */
enum ftg_export_format {
	FTG_EXPORT_CHROME,	/* Chrome trace-event JSON (Perfetto) */
	FTG_EXPORT_JSON,	/* a JSON array of event objects */
	FTG_EXPORT_CSV,		/* RFC 4180 CSV with a header line */
};
/**
 * ftg_export_format_parse - format from its name
 * @name: "chrome", "json" or "csv"
 *
 * Return: the enum ftg_export_format value, or -1 with errno EINVAL.
 */
int ftg_export_format_parse(const char *name);
struct ftg_exporter;
/**
 * ftg_exporter_open - start an export
 * @out: stream to write to (not closed by the exporter)
 * @fmt: the format
 *
 * Return: the exporter (finish with ftg_exporter_close()), or NULL with
 * errno EINVAL or ENOMEM.
 */
struct ftg_exporter *ftg_exporter_open(FILE *out, enum ftg_export_format fmt);
/**
 * ftg_exporter_add - write one event
 * @ex: exporter
 * @ev: the event
 *
 * Return: 0, or -1 with errno set once a write failed.
 */
int ftg_exporter_add(struct ftg_exporter *ex, const struct ftg_event *ev);
/**
 * ftg_exporter_cb - an ftg_event_cb adding to an exporter
 * @ev: the event
 * @data: the struct ftg_exporter
 *
 * Return: 0, or -1 (stopping the walk) when writing failed.
 */
int ftg_exporter_cb(const struct ftg_event *ev, void *data);
/**
 * ftg_exporter_close - write the trailer and free the exporter
 * @ex: exporter (NULL is ignored)
 *
 * Flushes the stream but does not close it.
 *
 * Return: 0, or -1 with errno set if any write failed.
 */
int ftg_exporter_close(struct ftg_exporter *ex);

#ifdef __cplusplus
}
#endif

#endif /* _FTGUARD_H */
