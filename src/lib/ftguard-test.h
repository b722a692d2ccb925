/* SPDX-License-Identifier: LGPL-2.1 */
/*
 * libftguard's test seams: entry points that take a table's text, a page
 * or parts of a map as the tests and fuzzers build them, where the
 * library's users go through a root or a control handle; and the steps
 * below the public calls that only the tests and fuzzers call on their
 * own (the names' decoder, a raw control command, a trace file's formats
 * and validation). Not installed and not exported: the tests and the
 * fuzzers link libftguard-core.la, the library's objects, instead of
 * libftguard.so.
 */
#ifndef FTGUARD_TEST_H
#define FTGUARD_TEST_H

#include "ftguard.h"

#ifdef __cplusplus
extern "C" {
#endif

/**
 * ftg_root_open_dirs - a root made of four directories named one by one
 * @proc: the procfs directory (NULL: "/proc")
 * @sys: the sysfs directory (NULL: "/sys")
 * @debugfs: the debugfs directory (NULL: "/sys/kernel/debug")
 * @tracefs: the tracefs directory (NULL: the mounted tracefs)
 *
 * For fixtures that are not laid out as a snapshot (a scratch debugfs, a
 * copy of tracefs with an instance in it): nothing is checked, and the
 * root counts as live for ftg_root_is_snapshot(), since a fixture may be
 * written to. A NULL directory is the live system's, as with
 * ftg_root_open(NULL).
 *
 * Return: a root to free with ftg_root_free(), or NULL (ENOMEM).
 */
struct ftg_root *ftg_root_open_dirs(const char *proc, const char *sys,
				    const char *debugfs, const char *tracefs);

/**
 * ftg_status_parse - parse the text of ftguard/status
 * @text: the table's text
 * @len: its length
 * @st: filled on success
 *
 * Return: 0, or -1 with errno set.
 */
int ftg_status_parse(const char *text, size_t len, struct ftg_status *st);

/**
 * ftg_sites_parse - parse the text of ftguard/sites
 * @text: the table's text
 * @len: its length
 *
 * Return: the sites in address order, to free with ftg_sites_free(), or
 * NULL.
 */
struct ftg_sites *ftg_sites_parse(const char *text, size_t len);

/**
 * ftg_kmodules_parse - parse the text of ftguard/modules
 * @text: the table's text
 * @len: its length
 *
 * Return: the modules, to free with ftg_kmodules_free(), or NULL.
 */
struct ftg_kmodules *ftg_kmodules_parse(const char *text, size_t len);

/**
 * ftg_check_report_parse - parse a check report (table or response)
 * @text: the report's text
 * @len: its length
 *
 * Return: the report, to free with ftg_check_report_free(), or NULL.
 */
struct ftg_check_report *ftg_check_report_parse(const char *text, size_t len);

/**
 * ftg_unescape - undo the module's seq_escape() of a name
 * @s: the string, modified in place ("a\040b" -> "a b")
 *
 * Return: 0, or -1 (EINVAL, FTG_E_BAD_ESCAPE) for a backslash that does
 * not start three octal digits or escapes a NUL byte.
 */
int ftg_unescape(char *s);

/**
 * ftg_control_send - send one command and read the response
 * @ctl: the control
 * @cmd: one command line, without the newline (at most 256 bytes)
 *
 * Return: 0 when the module answered "ok..." or with a check report;
 * -1 otherwise: for "error <errno-name> <reason>" errno is that errno
 * (EPERM, EBUSY, ESTALE, E2BIG, ENOENT, EINVAL...), the code is
 * FTG_E_MODULE_REFUSED and ftg_error_last() is the reason.
 */
int ftg_control_send(struct ftg_control *ctl, const char *cmd);

/**
 * ftg_control_response - the last response
 * @ctl: the control
 *
 * Return: its text without the final newline ("" before any command);
 * owned by @ctl, valid until the next command.
 */
const char *ftg_control_response(const struct ftg_control *ctl);

/*
 * Building a map by parts, from tables the caller already holds: ftg_map_new(), then any of the ftg_map_add_*() (the map keeps
 * its own copies, the inputs may be freed afterwards), then
 * ftg_map_finish() to sort and overlay the sites. Any argument may be
 * NULL.
 */

/**
 * ftg_map_new - an empty map to build by parts
 *
 * Return: the map, to free with ftg_map_free(), or NULL.
 */
struct ftg_map *ftg_map_new(void);

/**
 * ftg_map_add_kallsyms - add core kernel text (and its freed init text)
 * @map: the map
 * @ks: /proc/kallsyms, or NULL
 *
 * Return: 0, or -1 (ENOENT when kallsyms hides _stext/_etext).
 */
int ftg_map_add_kallsyms(struct ftg_map *map, const struct ftg_kallsyms *ks);

/**
 * ftg_map_add_proc_modules - add modules from /proc/modules and sysfs
 * @map: the map
 * @pm: /proc/modules, or NULL
 * @sec: module sections, or NULL
 *
 * Without ftguard's modules table, a module's core region is its whole
 * core allocation (base, size from /proc/modules) and its init text
 * starts at .init.text and ends at the next section; a "Live" module's
 * init text is taken as freed (the kernel frees it right after init).
 * Where the module's memory is split into areas (6.4+: /proc/modules then
 * gives the text's base and the size of all parts), ftg_map_finish() cuts
 * the text region at the end of the vmalloc area holding it.
 *
 * Return: 0, or -1.
 */
int ftg_map_add_proc_modules(struct ftg_map *map, const struct ftg_proc_modules *pm,
			     const struct ftg_sections *sec);

/**
 * ftg_map_add_vmalloc - add vmalloc, vmap and ioremap areas
 * @map: the map
 * @vm: /proc/vmallocinfo, or NULL
 *
 * Areas being purged ("unpurged vm_area") hold nothing and are left out.
 *
 * Return: 0, or -1.
 */
int ftg_map_add_vmalloc(struct ftg_map *map, const struct ftg_vmalloc *vm);

/**
 * ftg_map_add_status - add the MODULES and VMALLOC bounds
 * @map: the map
 * @st: ftguard's status, or NULL
 *
 * When both ranges are the same (i386) one shared range is added.
 *
 * Return: 0, or -1.
 */
int ftg_map_add_status(struct ftg_map *map, const struct ftg_status *st);

/**
 * ftg_map_add_kmodules - add modules from ftguard's modules table
 * @map: the map
 * @mods: the table, or NULL
 *
 * Return: 0, or -1.
 */
int ftg_map_add_kmodules(struct ftg_map *map, const struct ftg_kmodules *mods);

/**
 * ftg_map_add_sites - add ftguard's sites, to overlay on the regions
 * @map: the map
 * @sites: the sites table, or NULL
 *
 * Return: 0, or -1.
 */
int ftg_map_add_sites(struct ftg_map *map, const struct ftg_sites *sites);

/**
 * ftg_map_finish - sort the regions, find overlaps, overlay the sites
 * @map: the map
 *
 * Queries need a finished map; adding after finishing fails (EBUSY).
 *
 * Return: 0, or -1.
 */
int ftg_map_finish(struct ftg_map *map);

/**
 * ftg_verdict_report - the report the verdict was made from
 * @v: the verdict
 *
 * Return: the report, owned by @v.
 */
const struct ftg_check_report *ftg_verdict_report(const struct ftg_verdict *v);

/**
 * ftg_page_decode - decode one raw ring-buffer page
 * @fmt: formats the page was written with
 * @cpu: CPU the page came from
 * @page: page bytes (as read from trace_pipe_raw)
 * @size: bytes at @page, at most the page size
 * @cb: called for each event (may be NULL to only count)
 * @data: passed to @cb
 *
 * Return: events decoded (stopping early when @cb returns non-zero), or
 * -1 with errno EINVAL for a malformed page.
 */
int ftg_page_decode(struct ftg_trace_formats *fmt, int cpu, const void *page,
		    size_t size, ftg_event_cb cb, void *data);

/**
 * ftg_trace_writer_add_page - append a raw ring-buffer page
 * @w: writer
 * @cpu: CPU it was read from
 * @page: page bytes as read from trace_pipe_raw
 * @size: bytes at @page (a short read is padded to the page size)
 *
 * Return: 0, or -1 with errno EINVAL (bad CPU or malformed page) or
 * the write error.
 */
int ftg_trace_writer_add_page(struct ftg_trace_writer *w, int cpu,
			      const void *page, size_t size);

/* Live events and trace files, below the public calls. */

struct tep_handle;

/**
 * ftg_live_tep - the decoding handle
 * @live: the session
 *
 * Return: the handle, owned by @live.
 */
struct tep_handle *ftg_live_tep(struct ftg_live *live);

/**
 * ftg_event_ring_cb - an ftg_event_cb that pushes into a ring
 * @ev: the event
 * @data: the struct ftg_event_ring
 *
 * Return: 0 (never stops a walk).
 */
int ftg_event_ring_cb(const struct ftg_event *ev, void *data);

/**
 * ftg_graph_stats_add - count one return
 * @st: the table
 * @ev: an event; only a graph_exit is counted, anything else is ignored
 *
 * Return: 0, or -1 with the error set (errno ENOMEM).
 */
int ftg_graph_stats_add(struct ftg_graph_stats *st, const struct ftg_event *ev);

/**
 * ftg_trace_formats_read - read what a trace.dat header needs
 * @tracefs_dir: tracing directory (NULL: the mounted tracefs)
 * @systems: NULL-terminated event systems to include (NULL: ftguard)
 * @proc_dir: procfs root for kallsyms (NULL: /proc)
 *
 * A directory laid out like tracefs works as @tracefs_dir too (tests,
 * snapshots). A missing kallsyms is not an error: ips then stay hex.
 *
 * Return: the formats (free with ftg_trace_formats_free()), or NULL with
 * the error set ("DIR: what: why") and errno: ENOENT when tracefs or an
 * event system is missing, EINVAL when header_page cannot be understood.
 */
struct ftg_trace_formats *ftg_trace_formats_read(const char *tracefs_dir,
						 const char * const *systems,
						 const char *proc_dir);

/**
 * ftg_trace_formats_free - free formats from ftg_trace_formats_read()
 * @fmt: the formats (NULL is ignored)
 */
void ftg_trace_formats_free(struct ftg_trace_formats *fmt);

/**
 * ftg_trace_formats_tep - the tep handle parsed from @fmt
 * @fmt: formats
 *
 * Return: the handle (kallsyms and cmdlines included), owned by @fmt (do
 * not free).
 */
struct tep_handle *ftg_trace_formats_tep(struct ftg_trace_formats *fmt);

/**
 * ftg_trace_formats_page_size - ring-buffer page size
 * @fmt: formats
 *
 * Return: the page size header_page describes (4096 on amd64).
 */
size_t ftg_trace_formats_page_size(const struct ftg_trace_formats *fmt);

/**
 * ftg_trace_file_ncpus - CPUs the file has data for
 * @tf: the file
 *
 * Return: the CPU count.
 */
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

/**
 * ftg_trace_file_check - validate a trace.dat file
 * @path: file
 *
 * Return: 0 if the file is sound, -1 with errno and the error set.
 */
int ftg_trace_file_check(const char *path);

/*
 * Steps below ftg_session_select() and ftg_session_admit_some() that the
 * tests drive on their own.
 */
/**
 * ftg_control_admit_one - offer one vmlinux function, to learn why not
 * @ctl: the control
 * @name: the function
 * @addr: its address
 *
 * As ftg_control_admit() for one candidate, with the module's answer: a
 * refusal is the failure, its reason in ftg_error_last() ("admit: ...").
 *
 * Return: 0 admitted (or already a site), or -1 (FTG_E_MODULE_REFUSED).
 */
int ftg_control_admit_one(struct ftg_control *ctl, const char *name,
			  uint64_t addr);

/**
 * ftg_candidates_without - the candidates of one list that another lacks
 * @c: the list
 * @drop: the addresses to leave out (ftg_selection_offer()'s refused, say)
 *
 * Return: a new list in address order, to free with ftg_candidates_free(),
 * or NULL (ENOMEM).
 */
struct ftg_candidates *ftg_candidates_without(const struct ftg_candidates *c,
					      const struct ftg_candidates *drop);

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

/*
 * The parts of a selection an arm request takes (session-arm.c): front
 * ends give them through ftg_arm_request_add().
 */
/**
 * ftg_selection_exclude - add a -n pattern
 * @sel: the selection
 * @pattern: same forms as ftg_selection_add()
 *
 * Return: 0, or -1 (EINVAL, FTG_E_BAD_PATTERN).
 */
int ftg_selection_exclude(struct ftg_selection *sel, const char *pattern);
/**
 * ftg_selection_add_module - add a -m module
 * @sel: the selection
 * @module: module name ("vmlinux" for the whole core kernel)
 *
 * Return: 0, or -1.
 */
int ftg_selection_add_module(struct ftg_selection *sel, const char *module);
/**
 * ftg_selection_empty - was nothing asked for?
 * @sel: the selection
 *
 * Return: true when no -l pattern and no -m module were added.
 */
bool ftg_selection_empty(const struct ftg_selection *sel);

/*
 * The steps of a session (struct ftg_session) below its calls: resolving a
 * selection, offering candidates to the module and selecting them on a
 * control descriptor. The session is their only user in the library's
 * users; the tests drive them one by one.
 */

/**
 * ftg_candidates_add - add one candidate
 * @c: the list
 * @name: function name (copied)
 * @addr: its address
 * @module: owner module (copied), NULL or "vmlinux" for the core kernel
 *
 * The list stays in address order.
 *
 * Return: 1 added, 0 already there (same address), -1 on error.
 */
int ftg_candidates_add(struct ftg_candidates *c, const char *name,
		       uint64_t addr, const char *module);

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
 * ftg_control_select - add sites to this descriptor's selection
 * @ctl: the control
 * @cand: the sites (vmlinux candidates must be admitted first)
 *
 * Return: 0, or -1 (errno ENOENT: a site the module does not know; the
 * message names it).
 */
int ftg_control_select(struct ftg_control *ctl, const struct ftg_candidates *cand);

/**
 * ftg_control_select_addrs - add sites by address to the selection
 * @ctl: the control
 * @addrs: the addresses
 * @n: how many
 *
 * Return: 0, or -1 (errno ENOENT names an unknown site).
 */
int ftg_control_select_addrs(struct ftg_control *ctl, const uint64_t *addrs,
			     size_t n);

/**
 * ftg_control_clear - empty this descriptor's selection
 * @ctl: the control
 *
 * Return: 0, or -1.
 */
int ftg_control_clear(struct ftg_control *ctl);

/**
 * ftg_control_sites - the site table of some owners
 * @ctl: the control
 * @owners: "vmlinux" or module names
 * @n: how many (1 to 32, the most one command takes)
 *
 * One command instead of the whole ftguard/sites: the module knows every
 * loaded module's sites by itself, so a selection confined to modules
 * needs this and no ftrace function list (ftg_selection_resolve_sites()).
 * An owner without sites adds nothing.
 *
 * Return: those sites in address order, to free with ftg_sites_free(),
 * or NULL.
 */
struct ftg_sites *ftg_control_sites(struct ftg_control *ctl,
				    const char *const *owners, size_t n);

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

/**
 * ftg_selection_resolve - expand the selection into candidate sites
 * @sel: the selection (its patterns remember whether they matched)
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

/**
 * ftg_selection_modules - the modules a selection is confined to
 * @sel: the selection
 * @modules: set to the first @max of them (pointers into @sel)
 * @max: room in @modules
 *
 * Return: how many modules the -l patterns and -m names name between
 * them, or 0 when some pattern has no module part or names vmlinux (the
 * selection may take any function). Above @max, only the first @max are
 * set.
 */
size_t ftg_selection_modules(const struct ftg_selection *sel,
			     const char **modules, size_t max);

/**
 * ftg_selection_resolve_sites - expand the selection over known sites
 * @sel: the selection (its patterns remember whether they matched)
 * @sites: the sites to choose from (ftg_control_sites(), ftg_sites_read())
 *
 * As ftg_selection_resolve(), with ftguard.ko's sites as the list of
 * functions: each site is its function's ftrace record, and a NAME@ADDR
 * pin matches the record or the function's first byte (the record less
 * its offset). Planted sites (fault injection) are no function's and are
 * left out.
 *
 * Return: the candidates, or NULL: errno ENOENT and FTG_E_NO_MATCH when
 * nothing matches.
 */
struct ftg_candidates *ftg_selection_resolve_sites(const struct ftg_selection *sel,
						   const struct ftg_sites *sites);

/**
 * ftg_candidates_new - an empty candidate list
 *
 * Return: the list, to free with ftg_candidates_free(), or NULL.
 */
struct ftg_candidates *ftg_candidates_new(void);
/**
 * ftg_candidates_free - free a candidate list
 * @c: the list, or NULL
 */
void ftg_candidates_free(struct ftg_candidates *c);
/**
 * ftg_session_resolve - the candidate sites of a selection
 * @sess: the session
 * @sel: the selection
 * @flags: FTG_SESSION_FROM_LISTS (every function the kernel can trace,
 *         whatever the module knows: what is to be offered), or as
 *         ftg_session_select()
 *
 * Resolves without admitting or selecting: with FTG_SESSION_LISTS in
 * ftg_session_how() the vmlinux candidates are still to be offered
 * (ftg_session_admit_some()).
 *
 * Return: the candidates, to free with ftg_candidates_free(), or NULL
 * with the library's error and ftg_session_step().
 */
struct ftg_candidates *ftg_session_resolve(struct ftg_session *sess,
					   const struct ftg_selection *sel,
					   unsigned int flags);
/**
 * ftg_session_admit_some - offer a part of a candidate list to the module
 * @sess: the session
 * @cand: the candidates (ftg_session_resolve()); module ones are not sent
 * @from: the first one offered
 * @n: how many, from @from on (cut at the end of @cand)
 * @refused: when not NULL, receives those the module refused
 *
 * A long list offered a part at a time leaves the caller free between
 * parts (to serve keys, to cancel).
 *
 * Return: the number of candidates sent, or -1.
 */
int ftg_session_admit_some(struct ftg_session *sess, const struct ftg_candidates *cand,
			   size_t from, size_t n, struct ftg_candidates *refused);
/**
 * ftg_control_arm - check and arm the selection, unjudged
 * @ctl: the control
 * @flags: FTG_ARM_PERSISTENT, FTG_ARM_FORCE, FTG_ARM_GRAPH (record each
 *         call's entry and return, ftguard:graph_entry/graph_exit, instead
 *         of ftguard:func), FTG_ARM_STACK (follow each ftguard:func with
 *         an ftguard:stack event holding the call's callers; with
 *         FTG_ARM_GRAPH, each ftguard:graph_entry of depth 0: a tree
 *         root's calls, or calls no armed call of their task encloses)
 * @report: if not NULL, set to the check report (from the response, or
 *          from ftguard/check when the arm was refused with ESTALE), or
 *          NULL when none could be read; free it with
 *          ftg_check_report_free()
 *
 * Products arm through ftg_session_arm(), which judges the check with the
 * address map first; the tests drive the module's arm command alone.
 *
 * Return: 0 armed, -1 refused (errno EPERM killed, EBUSY already armed,
 * ESTALE check failed, E2BIG too many sites, ENOENT empty selection,
 * EOPNOTSUPP FTG_ARM_GRAPH where the kernel cannot hook returns, or a
 * call tree where it cannot follow one).
 */
int ftg_control_arm(struct ftg_control *ctl, unsigned int flags,
		    struct ftg_check_report **report);

#ifdef __cplusplus
}
#endif

#endif /* FTGUARD_TEST_H */
