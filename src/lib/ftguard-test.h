/* SPDX-License-Identifier: LGPL-2.1 */
/*
 * libftguard's test seams: entry points that take a table's text, a page
 * or parts of a map as the tests and fuzzers build them, where the
 * library's users go through a root or a control handle. Not installed and
 * not exported: the tests and the fuzzers link libftguard-core.la, the
 * library's objects, instead of libftguard.so.
 */
#ifndef FTGUARD_TEST_H
#define FTGUARD_TEST_H

#include "ftguard.h"

#ifdef __cplusplus
extern "C" {
#endif

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

#ifdef __cplusplus
}
#endif

#endif /* FTGUARD_TEST_H */
