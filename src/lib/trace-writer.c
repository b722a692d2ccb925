// SPDX-License-Identifier: LGPL-2.1
/*
 * trace.dat writer, file format version 6 (trace-cmd.dat.v6(5); the
 * layout is summarized in doc/trace-files.md).
 *
 * Why the data goes through per-CPU temporary files: a v6 file is one
 * header followed by each CPU's pages in one contiguous run, with the
 * offsets and sizes of those runs in the header. While recording, the
 * CPUs' pages arrive interleaved and their final sizes are unknown. So
 * each CPU's pages are appended to an unlinked temporary file in the
 * target directory; close() writes the header and then each run into
 * "PATH.tmp", fsyncs it and renames it over PATH. The rename is the
 * commit point: PATH is either absent (or the previous file) or complete,
 * never a half-written file. If the process dies before close(), the
 * temporary files vanish with their descriptors.
 */
#include <errno.h>
#include <fcntl.h>
#include <libgen.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <traceevent/event-parse.h>

#include "ftguard-local.h"
#include "trace-local.h"

#define OPTION_DONE		0
#define OPTION_CPUSTAT		2
#define OPTION_TRACECLOCK	4

struct writer_cpu {
	int fd;				/* unlinked file with this CPU's pages */
	uint64_t size;
	struct trace_page_builder pb;	/* decoded-event path, lazily set up */
	char *stats;			/* CPUSTAT text, may be NULL */
};

struct ftg_trace_writer {
	char *path;
	struct ftg_trace_formats *fmt;
	int ncpus;
	struct writer_cpu *cpus;
	uint64_t bytes;
};

/* A growing in-memory buffer for the header. */
struct outbuf {
	unsigned char *data;
	size_t len, alloc;
	bool failed;
};

static void out_put(struct outbuf *o, const void *p, size_t n)
{
	unsigned char *grown;

	if (o->failed)
		return;
	if (o->len + n > o->alloc) {
		size_t want = o->alloc ? o->alloc : 1 << 16;

		while (want < o->len + n)
			want *= 2;
		grown = realloc(o->data, want);
		if (!grown) {
			o->failed = true;
			return;
		}
		o->data = grown;
		o->alloc = want;
	}
	memcpy(o->data + o->len, p, n);
	o->len += n;
}

/* The file is little-endian, as is every host we build for (checked at
 * create time). */
static void out_u16(struct outbuf *o, uint16_t v) { out_put(o, &v, 2); }
static void out_u32(struct outbuf *o, uint32_t v) { out_put(o, &v, 4); }
static void out_u64(struct outbuf *o, uint64_t v) { out_put(o, &v, 8); }

static void out_blob64(struct outbuf *o, const struct trace_blob *b)
{
	out_u64(o, b->size);
	out_put(o, b->text, b->size);
}

static void out_blob32(struct outbuf *o, const struct trace_blob *b)
{
	out_u32(o, b->size);
	out_put(o, b->text, b->size);
}

static int open_unlinked(const char *path, int cpu)
{
	char *copy = strdup(path), *tmpl = NULL;
	int fd = -1;

	if (!copy)
		return -1;
	fd = open(dirname(copy), O_TMPFILE | O_RDWR | O_CLOEXEC, 0600);
	if (fd < 0 && asprintf(&tmpl, "%s.cpu%d.XXXXXX", path, cpu) >= 0) {
		/* filesystems without O_TMPFILE: create, then unlink at once */
		fd = mkostemp(tmpl, O_CLOEXEC);
		if (fd >= 0)
			unlink(tmpl);
	}
	free(tmpl);
	free(copy);
	return fd;
}

static int write_all(int fd, const void *buf, size_t len)
{
	const char *p = buf;
	ssize_t r;

	while (len) {
		r = write(fd, p, len);
		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0)
			return -1;
		p += r;
		len -= r;
	}
	return 0;
}

struct ftg_trace_writer *ftg_trace_writer_create(const char *path,
						 struct ftg_trace_formats *fmt,
						 int ncpus)
{
	struct ftg_trace_writer *w;
	int i;

	ftg_error_clear();
	if (!path || !fmt) {
		ftgl_err(FTG_E_BAD_ARGUMENT, EINVAL, "trace writer: no path or no formats");
		return NULL;
	}
	if (ncpus < 1 || ncpus > 4096) {
		ftgl_err(FTG_E_BAD_ARGUMENT, EINVAL, "%s: %d CPUs (1..4096 are written)",
			 path, ncpus);
		return NULL;
	}
	if (fmt->long_size != 8 || tep_is_bigendian()) {
		ftgl_err(FTG_E_BAD_ARGUMENT, EINVAL,
			 "%s: only 64-bit little-endian trace files are written", path);
		return NULL;
	}
	w = calloc(1, sizeof(*w));
	if (!w) {
		ftgl_err(FTG_E_SYSTEM, ENOMEM, "out of memory");
		return NULL;
	}
	w->fmt = fmt;
	w->ncpus = ncpus;
	w->path = strdup(path);
	w->cpus = calloc(ncpus, sizeof(*w->cpus));
	if (!w->path || !w->cpus) {
		ftgl_err(FTG_E_SYSTEM, ENOMEM, "out of memory");
		goto fail;
	}
	for (i = 0; i < ncpus; i++)
		w->cpus[i].fd = -1;
	for (i = 0; i < ncpus; i++) {
		w->cpus[i].fd = open_unlinked(path, i);
		if (w->cpus[i].fd < 0) {
			ftgl_err(FTG_E_SYSTEM, errno, "%s: temporary file for cpu %d: %s",
				 path, i, strerror(errno));
			goto fail;
		}
	}
	return w;
fail:
	ftg_trace_writer_free(w);
	return NULL;
}

static int append_page(struct ftg_trace_writer *w, int cpu, const void *page,
		       size_t size)
{
	struct writer_cpu *c = &w->cpus[cpu];
	size_t pad = w->fmt->page_size - size;
	uint64_t commit;

	if (write_all(c->fd, page, size))
		goto fail;
	if (pad) {
		unsigned char *zero = calloc(1, pad);
		int ret = zero ? write_all(c->fd, zero, pad) : -1;

		free(zero);
		if (ret)
			goto fail;
	}
	memcpy(&commit, (const char *)page + 8, sizeof(commit));
	w->bytes += commit & TRACE_COMMIT_MASK;
	c->size += w->fmt->page_size;
	return 0;
fail:
	return ftgl_err(FTG_E_SYSTEM, errno, "%s: cpu %d: writing its pages: %s",
			w->path, cpu, strerror(errno));
}

/* The CPU numbers a caller passes index the writer's own arrays. */
static int check_cpu(const struct ftg_trace_writer *w, int cpu)
{
	if (cpu >= 0 && cpu < w->ncpus)
		return 0;
	return ftgl_err(FTG_E_BAD_ARGUMENT, EINVAL, "%s: cpu %d, the file has %d CPUs",
			w->path, cpu, w->ncpus);
}

int ftg_trace_writer_add_page(struct ftg_trace_writer *w, int cpu,
			      const void *page, size_t size)
{
	ftg_error_clear();
	if (check_cpu(w, cpu))
		return -1;
	if (trace_page_check(page, size, w->fmt->page_size))
		return ftgl_err(FTG_E_BAD_PAGE, EINVAL, "%s: cpu %d: malformed ring-buffer page",
				w->path, cpu);
	return append_page(w, cpu, page, size);
}

static int flush_built_page(struct ftg_trace_writer *w, int cpu)
{
	struct trace_page_builder *pb = &w->cpus[cpu].pb;
	int ret;

	if (!pb->page || !pb->nr_events)
		return 0;
	trace_page_builder_finish(pb);
	ret = append_page(w, cpu, pb->page, pb->page_size);
	trace_page_builder_reset(pb);
	return ret;
}

int ftg_trace_writer_add_event(struct ftg_trace_writer *w,
			       const struct ftg_event *ev)
{
	unsigned char payload[FTG_EVENT_RAW_MAX > 512 ? FTG_EVENT_RAW_MAX : 512];
	struct trace_page_builder *pb;
	int size, ret;

	ftg_error_clear();
	if (check_cpu(w, ev->cpu))
		return -1;
	size = trace_event_payload(w->fmt->tep, ev, payload, sizeof(payload));
	if (size < 0)
		return ftgl_err(errno == ENOENT || errno == E2BIG ? FTG_E_BAD_EVENT :
				FTG_E_BAD_ARGUMENT, errno, "%s: event %s:%s (type %d): %s",
				w->path, ev->system, ev->name, ev->type, strerror(errno));
	pb = &w->cpus[ev->cpu].pb;
	if (!pb->page && trace_page_builder_init(pb, w->fmt->page_size))
		return ftgl_err(FTG_E_SYSTEM, ENOMEM, "out of memory");
	ret = trace_page_builder_add(pb, ev->ts_ns, payload, size);
	if (ret == 0) {
		if (flush_built_page(w, ev->cpu))
			return -1;
		ret = trace_page_builder_add(pb, ev->ts_ns, payload, size);
	}
	if (ret <= 0)
		return ftgl_err(FTG_E_BAD_EVENT, ret ? errno : E2BIG,
				"%s: event %s:%s is larger than a page", w->path,
				ev->system, ev->name);
	if (trace_tgids_set(&w->fmt->tgids, ev->pid, ev->tgid) ||
	    trace_formats_add_cmdline(w->fmt, ev->pid, ev->comm))
		return ftgl_err(FTG_E_SYSTEM, ENOMEM, "out of memory");
	return 0;
}

int ftg_trace_writer_set_cpu_stats(struct ftg_trace_writer *w, int cpu,
				   const char *stats)
{
	char *copy;

	ftg_error_clear();
	if (check_cpu(w, cpu))
		return -1;
	if (!stats)
		return ftgl_err(FTG_E_BAD_ARGUMENT, EINVAL, "%s: cpu %d: no stats", w->path, cpu);
	if (asprintf(&copy, "CPU: %d\n%s", cpu, stats) < 0)
		return ftgl_err(FTG_E_SYSTEM, ENOMEM, "out of memory");
	free(w->cpus[cpu].stats);
	w->cpus[cpu].stats = copy;
	return 0;
}

uint64_t ftg_trace_writer_bytes(const struct ftg_trace_writer *w)
{
	return w->bytes;
}

static void put_options(struct outbuf *o, struct ftg_trace_writer *w)
{
	const struct trace_blob *clock = &w->fmt->clock;
	size_t tgids_size;
	char *tgids;
	int i;

	out_put(o, "options  ", 10);
	for (i = 0; i < w->ncpus; i++) {
		if (!w->cpus[i].stats)
			continue;
		out_u16(o, OPTION_CPUSTAT);
		out_u32(o, strlen(w->cpus[i].stats) + 1);
		out_put(o, w->cpus[i].stats, strlen(w->cpus[i].stats) + 1);
	}
	if (clock->size) {
		/* v6: the option says the clock text follows the CPU table */
		out_u16(o, OPTION_TRACECLOCK);
		out_u32(o, clock->size + 1);
		out_put(o, clock->text, clock->size + 1);
	}
	if (w->fmt->tgids.nr) {
		tgids = trace_tgids_text(&w->fmt->tgids, &tgids_size);
		if (!tgids) {
			o->failed = true;
			return;
		}
		out_u16(o, TRACE_OPTION_SAVED_TGIDS);
		out_u32(o, tgids_size + 1);
		out_put(o, tgids, tgids_size + 1);
		free(tgids);
	}
	out_u16(o, OPTION_DONE);
}

/*
 * ftguard's graph events go into the file as ftrace's function_graph
 * events: trace-cmd (and KernelShark, which uses its library) prints
 * function_graph nesting and durations only for events it finds as
 * ftrace:funcgraph_entry and ftrace:funcgraph_exit, reading their
 * fields by name (func, depth, calltime, rettime), which ftguard's
 * events have. So their format text is written under those names in
 * the ftrace formats, with their own IDs and fields, and the kernel's
 * formats of those names are left out: their events never reach
 * ftguard's instance, and two formats of one name would leave it to
 * chance which one a reader takes. The reader (trace-reader.c) gives
 * the events back under their own names.
 */

/*
 * ftguard's format of @name, when it is there to be written as ftrace's
 * (its text starts with its name line, as tracefs gives it), else NULL.
 */
static const struct trace_blob *graph_format(const struct ftg_trace_formats *fmt,
					     const char *name)
{
	const struct trace_blob *b;
	char line[64];
	size_t i, j;

	snprintf(line, sizeof(line), "name: %s\n", name);
	for (i = 0; i < fmt->nr_systems; i++) {
		if (strcmp(fmt->systems[i].name, "ftguard"))
			continue;
		for (j = 0; j < fmt->systems[i].nr_events; j++) {
			b = &fmt->systems[i].events[j];
			if (!strcmp(b->name, name) &&
			    !strncmp(b->text, line, strlen(line)))
				return b;
		}
	}
	return NULL;
}

/* Is @name, a format of @system, written in another place or not at all? */
static bool graph_moved(const struct ftg_trace_formats *fmt,
			const char *system, const char *name)
{
	bool ftrace = !strcmp(system, "ftrace");
	size_t i;

	if (!ftrace && strcmp(system, "ftguard"))
		return false;
	for (i = 0; i < TRACE_NR_GRAPH_NAMES; i++)
		if (!strcmp(name, ftrace ? trace_graph_names[i].ftrace :
			    trace_graph_names[i].ours) &&
		    graph_format(fmt, trace_graph_names[i].ours))
			return true;
	return false;
}

/*
 * ftguard:stack goes into the file as ftrace's kernel_stack
 * (trace-stack.c), so that trace-cmd report prints its callers as it
 * prints the kernel's stacks. That handler is bound to one event of that
 * name: the kernel's own kernel_stack format gives way (ftguard's
 * instance does not record the kernel's stack events).
 */
static bool stack_moved(const struct ftg_trace_formats *fmt,
			const char *system, const char *name)
{
	if (!trace_stack_own_format(fmt))
		return false;
	return (!strcmp(system, "ftrace") && !strcmp(name, "kernel_stack")) ||
	       (!strcmp(system, "ftguard") && !strcmp(name, "stack"));
}

/* ftguard:stack's format as kernel_stack: 1 written, 0 none there. */
static int put_stack_format(struct outbuf *o, const struct ftg_trace_formats *fmt,
			    bool count_only)
{
	struct trace_blob stack;
	int ret = trace_stack_kernel_stack_format(fmt, &stack);

	if (ret < 0)
		o->failed = true;
	if (ret <= 0)
		return 0;
	if (!count_only)
		out_blob64(o, &stack);
	trace_blob_free(&stack);
	return 1;
}

static bool format_moved(const struct ftg_trace_formats *fmt,
			 const char *system, const char *name)
{
	return graph_moved(fmt, system, name) || stack_moved(fmt, system, name);
}

static void put_ftrace_formats(struct outbuf *o, const struct ftg_trace_formats *fmt)
{
	const struct trace_blob *b;
	uint32_t n = 0;
	size_t i, skip;

	for (i = 0; i < fmt->nr_ftrace; i++)
		n += !format_moved(fmt, "ftrace", fmt->ftrace[i].name);
	for (i = 0; i < TRACE_NR_GRAPH_NAMES; i++)
		n += graph_format(fmt, trace_graph_names[i].ours) != NULL;
	n += put_stack_format(o, fmt, true);
	out_u32(o, n);
	for (i = 0; i < fmt->nr_ftrace; i++)
		if (!format_moved(fmt, "ftrace", fmt->ftrace[i].name))
			out_blob64(o, &fmt->ftrace[i]);
	put_stack_format(o, fmt, false);
	for (i = 0; i < TRACE_NR_GRAPH_NAMES; i++) {
		b = graph_format(fmt, trace_graph_names[i].ours);
		if (!b)
			continue;
		/* the name line replaced, the rest (ID, fields) as it is */
		skip = strlen("name: ") + strlen(trace_graph_names[i].ours);
		out_u64(o, strlen("name: ") + strlen(trace_graph_names[i].ftrace) +
			b->size - skip);
		out_put(o, "name: ", strlen("name: "));
		out_put(o, trace_graph_names[i].ftrace, strlen(trace_graph_names[i].ftrace));
		out_put(o, b->text + skip, b->size - skip);
	}
}

static void put_system_formats(struct outbuf *o, const struct trace_system *sys,
			       const struct ftg_trace_formats *fmt)
{
	uint32_t n = 0;
	size_t j;

	for (j = 0; j < sys->nr_events; j++)
		n += !format_moved(fmt, sys->name, sys->events[j].name);
	out_put(o, sys->name, strlen(sys->name) + 1);
	out_u32(o, n);
	for (j = 0; j < sys->nr_events; j++)
		if (!format_moved(fmt, sys->name, sys->events[j].name))
			out_blob64(o, &sys->events[j]);
}

/* Everything up to the CPU table; returns the offset of the table. */
static size_t put_header(struct outbuf *o, struct ftg_trace_writer *w)
{
	static const char magic[] = { 0x17, 0x08, 0x44, 't', 'r', 'a', 'c',
				      'i', 'n', 'g', '6', '\0' };
	const struct ftg_trace_formats *fmt = w->fmt;
	size_t i, table;

	out_put(o, magic, sizeof(magic));
	out_put(o, "\0", 1);			/* little-endian */
	out_put(o, &(char){ sizeof(long) }, 1);	/* userspace long size */
	out_u32(o, fmt->page_size);
	out_put(o, "header_page", 12);
	out_blob64(o, &fmt->header_page);
	out_put(o, "header_event", 13);
	out_blob64(o, &fmt->header_event);
	put_ftrace_formats(o, fmt);
	out_u32(o, fmt->nr_systems);
	for (i = 0; i < fmt->nr_systems; i++)
		put_system_formats(o, &fmt->systems[i], fmt);
	out_blob32(o, &fmt->kallsyms);
	out_blob32(o, &fmt->printk);
	out_blob64(o, &fmt->cmdlines);
	out_u32(o, w->ncpus);
	put_options(o, w);
	out_put(o, "flyrecord", 10);
	table = o->len;
	for (i = 0; i < (size_t)w->ncpus; i++) {
		out_u64(o, 0);
		out_u64(o, 0);
	}
	if (fmt->clock.size)
		out_blob64(o, &fmt->clock);
	return table;
}

static int copy_run(int out, int in, uint64_t size)
{
	char buf[1 << 16];
	uint64_t off = 0;
	ssize_t r;

	while (off < size) {
		r = pread(in, buf, sizeof(buf) < size - off ? sizeof(buf) :
			  size - off, off);
		if (r < 0 && errno == EINTR)
			continue;
		if (r == 0)
			errno = EIO;	/* the temporary file shrank */
		if (r <= 0)
			return -1;
		if (write_all(out, buf, r))
			return -1;
		off += r;
	}
	return 0;
}

static int write_file(struct ftg_trace_writer *w, const char *tmp)
{
	struct outbuf o = { 0 };
	uint64_t offset;
	size_t table, i;
	int fd, ret = -1;

	table = put_header(&o, w);
	offset = (o.len + w->fmt->page_size - 1) / w->fmt->page_size *
		 w->fmt->page_size;
	for (i = 0; i < (size_t)w->ncpus; i++) {
		memcpy(o.data + table + 16 * i, &offset, 8);
		memcpy(o.data + table + 16 * i + 8, &w->cpus[i].size, 8);
		offset += w->cpus[i].size;
	}
	while (!o.failed && o.len % w->fmt->page_size)
		out_put(&o, "\0", 1);
	if (o.failed) {
		free(o.data);
		return (errno = ENOMEM), -1;
	}
	fd = open(tmp, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	if (fd < 0)
		goto out;
	if (write_all(fd, o.data, o.len))
		goto out;
	for (i = 0; i < (size_t)w->ncpus; i++)
		if (copy_run(fd, w->cpus[i].fd, w->cpus[i].size))
			goto out;
	ret = fsync(fd);
out:
	if (fd >= 0 && close(fd) && !ret)
		ret = -1;
	free(o.data);
	return ret;
}

static void sync_dir_of(const char *path)
{
	char *copy = strdup(path);
	int fd;

	if (!copy)
		return;
	fd = open(dirname(copy), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (fd >= 0) {
		fsync(fd);
		close(fd);
	}
	free(copy);
}

int ftg_trace_writer_close(struct ftg_trace_writer *w)
{
	char *tmp = NULL;
	int ret = -1, saved, i;

	ftg_error_clear();
	for (i = 0; i < w->ncpus; i++)
		if (flush_built_page(w, i))
			goto out;
	if (asprintf(&tmp, "%s.tmp", w->path) < 0) {
		tmp = NULL;
		ftgl_err(FTG_E_SYSTEM, ENOMEM, "out of memory");
		goto out;
	}
	if (write_file(w, tmp)) {
		saved = errno;
		unlink(tmp);
		ftgl_err(FTG_E_SYSTEM, saved, "%s: %s", tmp, strerror(saved));
		goto out;
	}
	if (rename(tmp, w->path)) {
		saved = errno;
		unlink(tmp);
		ftgl_err(FTG_E_SYSTEM, saved, "%s: renaming %s to it: %s", w->path, tmp,
			 strerror(saved));
		goto out;
	}
	sync_dir_of(w->path);
	ret = 0;
out:
	saved = errno;
	free(tmp);
	ftg_trace_writer_free(w);
	errno = saved;
	return ret;
}

void ftg_trace_writer_free(struct ftg_trace_writer *w)
{
	int i;

	if (!w)
		return;
	for (i = 0; w->cpus && i < w->ncpus; i++) {
		if (w->cpus[i].fd >= 0)
			close(w->cpus[i].fd);
		trace_page_builder_fini(&w->cpus[i].pb);
		free(w->cpus[i].stats);
	}
	free(w->cpus);
	free(w->path);
	free(w);
}
