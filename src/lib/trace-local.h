/* SPDX-License-Identifier: LGPL-2.1 */
/*
 * Internals shared by the live-event and trace-file parts of libftguard
 * (src/lib/trace-*.c, event-*.c, export.c). Not installed.
 */
#ifndef _FTG_TRACE_LOCAL_H
#define _FTG_TRACE_LOCAL_H

#include <stdint.h>
#include <stddef.h>

#include "ftguard.h"
#include "ftguard-test.h"

#define __hidden __attribute__((visibility("hidden")))

struct tep_handle;
struct tep_record;

/* A named chunk of text copied from tracefs (a format file, kallsyms...). */
struct trace_blob {
	char *name;
	char *text;
	size_t size;
};

struct trace_system {
	char *name;
	struct trace_blob *events;
	size_t nr_events;
};

/*
 * Module symbols from kallsyms, sorted by address, so that a function's
 * start address (as libtraceevent resolves it) names its module. vmlinux
 * symbols are not kept: no entry means vmlinux.
 */
struct trace_modsym {
	uint64_t addr;
	const char *module;	/* points into trace_syms.modules */
};

struct trace_syms {
	struct trace_modsym *syms;
	size_t nr_syms;
	char **modules;
	size_t nr_modules;
};

/*
 * The trace.dat option holding the tgid map: an id of ftguard's own, far
 * above trace-cmd's (which count up from 0), as trace-cmd has none.
 */
#define TRACE_OPTION_SAVED_TGIDS	0x7f00

/*
 * ftguard's graph events and the ftrace function_graph names a trace.dat
 * gives them, so that trace-cmd prints them as function_graph
 * (trace-writer.c; the reader maps them back). Defined in
 * trace-formats.c.
 */
struct trace_graph_name {
	const char *ours;	/* ftguard:<ours> */
	const char *ftrace;	/* ftrace:<ftrace> in a file */
};

#define TRACE_NR_GRAPH_NAMES	2
__hidden extern const struct trace_graph_name
	trace_graph_names[TRACE_NR_GRAPH_NAMES];

/* pid -> tgid, sorted by pid (trace-tgids.c) */
struct trace_tgid {
	int pid;
	int tgid;
};

struct trace_tgids {
	struct trace_tgid *pairs;
	size_t nr, alloc;
};

struct ftg_trace_formats {
	struct trace_blob header_page;
	struct trace_blob header_event;
	struct trace_blob *ftrace;
	size_t nr_ftrace;
	struct trace_system *systems;
	size_t nr_systems;
	struct trace_blob kallsyms;
	struct trace_blob printk;
	struct trace_blob cmdlines;
	struct trace_blob clock;	/* trace_clock text; may be empty */
	struct trace_tgids tgids;	/* saved_tgids, written as an option */
	size_t page_size;		/* header_page: data offset + size */
	int long_size;			/* header_page: size of commit */
	struct tep_handle *tep;
	struct trace_syms syms;
};

/* Ring-buffer page layout (header_page, 64-bit little-endian kernel). */
#define TRACE_PAGE_HDR_SIZE	16
/*
 * The commit word's low bits are the data size; the kernel ORs the missed
 * events flags above them with a signed int (1 << 31), which on a 64-bit
 * long sets every high bit: mask the size in, as kbuffer does.
 */
#define TRACE_COMMIT_MASK	((1ULL << 27) - 1)

/* Event header type_len values (header_event). */
#define TRACE_TYPE_PADDING	29
#define TRACE_TYPE_TIME_EXTEND	30
#define TRACE_TYPE_TIME_STAMP	31
#define TRACE_TYPE_DATA_MAX	28
#define TRACE_DELTA_BITS	27

/* trace-syms.c */
__hidden int trace_syms_load(struct trace_syms *syms, const char *kallsyms);
__hidden void trace_syms_free(struct trace_syms *syms);
__hidden void trace_syms_format(const struct trace_syms *syms,
				struct tep_handle *tep, uint64_t addr,
				char *buf, size_t len);

/* trace-formats.c */
__hidden void trace_blob_free(struct trace_blob *blob);
__hidden int trace_formats_parse(struct ftg_trace_formats *fmt);
__hidden int trace_formats_add_system(struct ftg_trace_formats *fmt,
				      const char *tracefs_dir, const char *system);
__hidden int trace_formats_add_cmdline(struct ftg_trace_formats *fmt,
				       int pid, const char *comm);
__hidden struct ftg_trace_formats *
trace_formats_read(const char *tracefs_dir, const char *const *systems,
		   const char *proc_dir, const struct ftg_kallsyms *ks);

/* trace-stack.c */
struct tep_event;
__hidden void trace_stack_decode(struct tep_handle *tep,
				 const struct trace_syms *syms,
				 struct tep_event *event, struct tep_record *rec,
				 struct ftg_event *ev);
__hidden const struct trace_blob *
trace_stack_own_format(const struct ftg_trace_formats *fmt);
__hidden int trace_stack_kernel_stack_format(const struct ftg_trace_formats *fmt,
					     struct trace_blob *out);

/* trace-tgids.c */
__hidden int trace_tgids_set(struct trace_tgids *map, int pid, int tgid);
__hidden int trace_tgids_get(const struct trace_tgids *map, int pid);
__hidden int trace_tgids_parse(struct trace_tgids *map, const char *text);
__hidden char *trace_tgids_text(const struct trace_tgids *map, size_t *size);
__hidden void trace_tgids_free(struct trace_tgids *map);

/* event-decode.c */
__hidden int trace_event_from_record(struct tep_handle *tep,
				     const struct trace_syms *syms,
				     struct tep_record *rec,
				     struct ftg_event *ev);
__hidden int trace_page_check(const void *page, size_t size,
			      size_t page_size);

/*
 * A walk over one ring-buffer page, an event at a time, so that the pages
 * of several CPUs can be merged by timestamp. @event is NULL once the walk
 * ended (the page's end, or a malformed event with FTG_E_BAD_PAGE set).
 */
struct trace_page_cursor {
	struct kbuffer *kbuf;
	unsigned char *page;	/* a copy: kbuffer wants it whole, writable */
	size_t page_size;
	void *event;		/* the current event's payload */
	int size;		/* its size */
	unsigned long long ts;	/* its timestamp */
	int cpu;
	int last_offset;
};
__hidden int trace_cursor_init(struct trace_page_cursor *cur,
			       const struct ftg_trace_formats *fmt);
__hidden void trace_cursor_fini(struct trace_page_cursor *cur);
__hidden int trace_cursor_load(struct trace_page_cursor *cur, int cpu,
			       const void *page, size_t size);
__hidden int trace_cursor_next(struct trace_page_cursor *cur);
/* The current event decoded; -1 for a record that does not decode. */
__hidden int trace_cursor_event(const struct trace_page_cursor *cur,
				struct ftg_trace_formats *fmt,
				struct ftg_event *ev);
/* The current event's task (common_pid), the rest not decoded; -1: none. */
__hidden int trace_cursor_pid(const struct trace_page_cursor *cur,
			      const struct ftg_trace_formats *fmt);

/*
 * What trace_page_walk() does after its visitor saw an event: the walks
 * differ in what they do with an event, not in how they step a page.
 */
enum trace_walk {
	TRACE_WALK_SKIP,	/* not counted; on to the next event */
	TRACE_WALK_COUNT,	/* counted; on to the next event */
	TRACE_WALK_STOP,	/* counted; the walk ends here */
};
typedef enum trace_walk (*trace_page_visit)(const struct trace_page_cursor *cur,
					    void *arg);
/* Each event of one page to @visit (NULL: count them); -1 on a bad page. */
__hidden int trace_page_walk(const struct ftg_trace_formats *fmt, int cpu,
			     const void *page, size_t size,
			     trace_page_visit visit, void *arg);

/* trace-encode.c: decoded events back into ring-buffer pages. */
struct trace_page_builder {
	unsigned char *page;
	size_t page_size;
	size_t used;		/* bytes of data after the page header */
	uint64_t first_ts;	/* page timestamp */
	uint64_t last_ts;
	unsigned int nr_events;
};
__hidden int trace_page_builder_init(struct trace_page_builder *pb,
				     size_t page_size);
__hidden void trace_page_builder_fini(struct trace_page_builder *pb);
/* 1: added; 0: page full (flush it and retry); -1: cannot ever fit. */
__hidden int trace_page_builder_add(struct trace_page_builder *pb,
				    uint64_t ts, const void *payload,
				    size_t size);
/* Seals the page (timestamp, commit); reset starts the next one. */
__hidden void trace_page_builder_finish(struct trace_page_builder *pb);
__hidden void trace_page_builder_reset(struct trace_page_builder *pb);
__hidden int trace_event_payload(struct tep_handle *tep,
				 const struct ftg_event *ev,
				 unsigned char *buf, size_t len);

/* trace-reader.c: an open trace.dat. */
struct tracecmd_input;
struct trace_filter;
struct ftg_trace_file {
	struct tracecmd_input *handle;
	struct trace_syms syms;
	struct trace_tgids tgids;
	struct trace_filter *filter;	/* NULL: every event */
	int ncpus;
	/* IDs of ftguard's graph events filed as ftrace's; -1: none */
	int graph_ids[TRACE_NR_GRAPH_NAMES];
};

/* trace-filter.c: which events of a file a reader is shown. */
__hidden bool trace_filter_pass(const struct trace_filter *filter,
				struct tep_record *rec, int cpu);
__hidden void trace_filter_free(struct trace_filter *filter);

/* trace-check.c: what validation learned about a file. */
struct trace_file_info {
	int version;
	int big_endian;
	int long_size;
	uint32_t page_size;
	uint64_t kallsyms_offset;
	uint32_t kallsyms_size;
	uint32_t nr_cpus;
	uint64_t tgids_offset;		/* ftguard's saved-tgids option text */
	uint32_t tgids_size;		/* 0: the file has none */
};
__hidden int trace_file_validate(const char *path, struct trace_file_info *info,
				 char *err, size_t errlen);
/* Sets the library's error for @path from @msg (the validator's) or errno. */
__hidden int trace_file_error(const char *path, const char *msg);

#endif /* _FTG_TRACE_LOCAL_H */
