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

/* ==== Errors (owner: lib core) ==== */

/* ==== Kernel readers: kallsyms, modules, vmallocinfo, sections, ftrace files (owner: lib core) ==== */

/* ==== ftguard.ko tables and control (owner: lib core) ==== */

/* ==== Selection (owner: lib core) ==== */

/* ==== Address map (owner: lib core) ==== */

/* ==== Checker (owner: lib core) ==== */

/* ==== Live events: instance, decoding, streaming (owner: trace) ==== */

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
	int type;			/* event id (common_type) */
	char comm[FTG_COMM_LEN];
	char system[FTG_EVENT_NAME_LEN];
	char name[FTG_EVENT_NAME_LEN];	/* "func", "module", "site", ... */
	uint64_t ip;			/* 0 when the event has no ip */
	uint64_t parent_ip;		/* 0 when the event has no parent_ip */
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
 */
struct ftg_trace_counters {
	uint64_t events;
	uint64_t lost;
	uint64_t bytes;
	uint64_t pages;
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
void ftg_live_free(struct ftg_live *live);
int ftg_live_ncpus(const struct ftg_live *live);
size_t ftg_live_page_size(const struct ftg_live *live);
struct tep_handle *ftg_live_tep(struct ftg_live *live);
/* The trace.dat metadata (formats, kallsyms...) of this live system. */
struct ftg_trace_formats *ftg_live_formats(struct ftg_live *live);
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

/* ==== Trace files: trace.dat writer/reader, exports (owner: trace) ==== */

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
 * on failure NULL is returned, errno set and a message "FILE: offset N:
 * what" is written into @err (if not NULL).
 */
struct ftg_trace_file;
struct ftg_trace_file *ftg_trace_file_open(const char *path, char *err,
					   size_t errlen);
void ftg_trace_file_close(struct ftg_trace_file *tf);
int ftg_trace_file_ncpus(const struct ftg_trace_file *tf);
struct tep_handle *ftg_trace_file_tep(struct ftg_trace_file *tf);
/* Validation only (same checks and message as ftg_trace_file_open()). */
int ftg_trace_file_check(const char *path, char *err, size_t errlen);
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
