// SPDX-License-Identifier: LGPL-2.1
/*
 * The metadata a trace.dat header carries, read once from tracefs (or from
 * a directory laid out like it) and parsed into a tep handle. The same
 * object serves the live decoder and the writer, so a file is always
 * written with the formats its pages were decoded with.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <tracefs/tracefs.h>
#include <traceevent/event-parse.h>

#include "ftguard-local.h"
#include "trace-local.h"

static const char *const default_systems[] = { "ftguard", NULL };

const struct trace_graph_name trace_graph_names[TRACE_NR_GRAPH_NAMES] = {
	{ "graph_entry", "funcgraph_entry" },
	{ "graph_exit", "funcgraph_exit" },
};

void trace_blob_free(struct trace_blob *blob)
{
	free(blob->name);
	free(blob->text);
	memset(blob, 0, sizeof(*blob));
}

/* An empty blob still has a NUL-terminated text, so parsers can take it. */
static int blob_set_empty(struct trace_blob *blob)
{
	blob->text = calloc(1, 1);
	blob->size = 0;
	return blob->text ? 0 : -1;
}

/*
 * Reads a file relative to the tracing directory through libtracefs.
 * @optional files that are missing become empty blobs.
 */
static int blob_read_tracefs(struct trace_blob *blob,
			     struct tracefs_instance *top, const char *file,
			     bool optional)
{
	int size = 0;

	blob->text = tracefs_instance_file_read(top, file, &size);
	if (!blob->text) {
		if (optional)
			return blob_set_empty(blob);
		if (!errno)
			errno = ENOENT;
		return -1;
	}
	blob->size = size;
	return 0;
}

/*
 * Keeps only the lines the symbol index reads (ftgl_ksym_line_parse), in
 * place, so that libtraceevent, the module index of trace-syms.c and
 * trace.dat's copy see the same symbols as ftg_kallsyms_read(). Among the
 * lines dropped: the tail of a module symbol whose name holds a newline
 * (the kernel prints names raw), which libtraceevent would take for a
 * symbol of its own, its map then wrong for the neighbours too; the name
 * that had the newline stays cut at it.
 */
static void kallsyms_keep_symbol_lines(struct trace_blob *blob)
{
	char *r = blob->text, *w = blob->text, *end = blob->text + blob->size;
	char line[1024];
	struct ftgl_ksym_line l;

	while (r < end) {
		char *nl = memchr(r, '\n', end - r);
		size_t len = nl ? (size_t)(nl - r + 1) : (size_t)(end - r);
		size_t text = len - (nl != NULL);

		if (text < sizeof(line)) {
			memcpy(line, r, text);
			line[text] = '\0';
			if (!ftgl_ksym_line_parse(line, &l)) {
				memmove(w, r, len);
				w += len;
			}
		}
		r += len;
	}
	blob->size = w - blob->text;
	*w = '\0';
}

/* kallsyms is procfs, not tracefs: a plain read. Missing is not fatal. */
static int blob_read_file(struct trace_blob *blob, const char *path)
{
	size_t alloc = 1 << 16;
	char *text, *grown;
	ssize_t r;
	int fd;

	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return blob_set_empty(blob);
	text = malloc(alloc);
	if (!text)
		goto fail;
	blob->size = 0;
	for (;;) {
		if (alloc - blob->size < 4096) {
			grown = realloc(text, alloc * 2);
			if (!grown)
				goto fail;
			text = grown;
			alloc *= 2;
		}
		r = read(fd, text + blob->size, alloc - blob->size - 1);
		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0)
			goto fail;
		if (!r)
			break;
		blob->size += r;
	}
	text[blob->size] = '\0';
	blob->text = text;
	close(fd);
	return 0;
fail:
	free(text);
	close(fd);
	return -1;
}

static int read_event_formats(struct tracefs_instance *top,
			      const char *tracing_dir, const char *system,
			      struct trace_blob **out, size_t *nr)
{
	char **events;
	char *file;
	int count, i, ret = -1;

	*out = NULL;
	*nr = 0;
	events = tracefs_system_events(tracing_dir, system);
	if (!events) {
		errno = ENOENT;
		return -1;
	}
	count = tracefs_list_size(events);
	*out = calloc(count ? count : 1, sizeof(**out));
	if (!*out)
		goto out;
	for (i = 0; i < count; i++) {
		struct trace_blob *blob = &(*out)[*nr];

		if (asprintf(&file, "events/%s/%s/format", system,
			     events[i]) < 0)
			goto out;
		blob->name = strdup(events[i]);
		ret = blob->name ? blob_read_tracefs(blob, top, file, false) : -1;
		free(file);
		if (ret < 0) {
			/* an event can vanish between listing and reading */
			trace_blob_free(blob);
			if (errno == ENOENT)
				continue;
			goto out;
		}
		(*nr)++;
	}
	ret = 0;
out:
	tracefs_list_free(events);
	return ret;
}

/* "field: char data;\toffset:16;\tsize:4080;" gives the page size. */
static int header_page_geometry(struct ftg_trace_formats *fmt)
{
	const char *data = strstr(fmt->header_page.text, " data;");
	const char *commit = strstr(fmt->header_page.text, " commit;");
	unsigned int offset, size, lsize;

	if (!data || !commit ||
	    sscanf(data, " data;\toffset:%u;\tsize:%u;", &offset, &size) != 2 ||
	    sscanf(commit, " commit;\toffset:%*u;\tsize:%u;", &lsize) != 1 ||
	    (lsize != 4 && lsize != 8) || offset + size < 64 ||
	    offset + size > (1U << 24)) {
		errno = EINVAL;
		return -1;
	}
	fmt->page_size = offset + size;
	fmt->long_size = lsize;
	return 0;
}

/*
 * trace_formats_parse - (re)build the tep handle and symbol index
 * @fmt: formats whose blobs are filled
 *
 * Return: 0, or -1 with errno set (EINVAL for a header_page that makes
 * no sense; a single event format that fails to parse is skipped, as
 * trace-cmd does).
 */
int trace_formats_parse(struct ftg_trace_formats *fmt)
{
	struct tep_handle *tep;
	size_t i, j;

	if (header_page_geometry(fmt))
		return -1;
	tep = tep_alloc();
	if (!tep)
		return -1;
	tep_set_file_bigendian(tep, TEP_LITTLE_ENDIAN);
	tep_set_local_bigendian(tep, tep_is_bigendian() ?
				TEP_BIG_ENDIAN : TEP_LITTLE_ENDIAN);
	tep_set_long_size(tep, fmt->long_size);
	tep_set_page_size(tep, fmt->page_size);
	if (tep_parse_header_page(tep, fmt->header_page.text,
				  fmt->header_page.size, fmt->long_size)) {
		tep_free(tep);
		errno = EINVAL;
		return -1;
	}
	for (i = 0; i < fmt->nr_ftrace; i++)
		tep_parse_event(tep, fmt->ftrace[i].text, fmt->ftrace[i].size,
				"ftrace");
	for (i = 0; i < fmt->nr_systems; i++)
		for (j = 0; j < fmt->systems[i].nr_events; j++)
			tep_parse_event(tep, fmt->systems[i].events[j].text,
					fmt->systems[i].events[j].size,
					fmt->systems[i].name);
	tep_parse_kallsyms(tep, fmt->kallsyms.text);
	tep_parse_printk_formats(tep, fmt->printk.text);
	tep_parse_saved_cmdlines(tep, fmt->cmdlines.text);

	trace_syms_free(&fmt->syms);
	if (trace_syms_load(&fmt->syms, fmt->kallsyms.text)) {
		tep_free(tep);
		return -1;
	}
	if (fmt->tep)
		tep_free(fmt->tep);
	fmt->tep = tep;
	return 0;
}

/* Drops the "pid comm" line of @pid from the saved cmdlines, if any. */
static void drop_cmdline(struct trace_blob *cmdlines, int pid)
{
	char *line, *end;
	char *text = cmdlines->text;

	for (line = text; line && *line; line = end) {
		end = strchrnul(line, '\n');
		if (*end)
			end++;
		if (atoi(line) == pid && line[strspn(line, "0123456789")] == ' ') {
			memmove(line, end, cmdlines->size - (end - text) + 1);
			cmdlines->size -= end - line;
			return;
		}
	}
}

/*
 * trace_formats_add_cmdline - remember a pid's comm for the file
 * @fmt: formats
 * @pid: task id
 * @comm: its name (not stored when empty or "<...>")
 *
 * Makes the saved cmdlines map @pid to @comm (replacing an older name:
 * pids get reused) and tells the tep.
 *
 * Return: 0, or -1 with errno ENOMEM.
 */
int trace_formats_add_cmdline(struct ftg_trace_formats *fmt, int pid,
			      const char *comm)
{
	const char *known;
	char line[64];
	char *grown;
	int n;

	if (!comm[0] || !strcmp(comm, "<...>") || pid <= 0)
		return 0;
	known = tep_data_comm_from_pid(fmt->tep, pid);
	if (known && !strcmp(known, comm))
		return 0;
	if (known)
		drop_cmdline(&fmt->cmdlines, pid);
	n = snprintf(line, sizeof(line), "%d %.*s\n", pid, FTG_COMM_LEN - 1,
		     comm);
	grown = realloc(fmt->cmdlines.text, fmt->cmdlines.size + n + 1);
	if (!grown)
		return -1;
	memcpy(grown + fmt->cmdlines.size, line, n + 1);
	fmt->cmdlines.text = grown;
	fmt->cmdlines.size += n;
	return tep_override_comm(fmt->tep, comm, pid) < 0 ? -1 : 0;
}

static int read_systems(struct ftg_trace_formats *fmt,
			struct tracefs_instance *top, const char *tracing_dir,
			const char *const *systems)
{
	size_t n;

	for (n = 0; systems[n]; n++)
		;
	fmt->systems = calloc(n ? n : 1, sizeof(*fmt->systems));
	if (!fmt->systems)
		return -1;
	for (fmt->nr_systems = 0; fmt->nr_systems < n; fmt->nr_systems++) {
		struct trace_system *sys = &fmt->systems[fmt->nr_systems];

		sys->name = strdup(systems[fmt->nr_systems]);
		if (!sys->name ||
		    read_event_formats(top, tracing_dir, sys->name,
				       &sys->events, &sys->nr_events)) {
			fmt->nr_systems++;	/* so that free sees it */
			return -1;
		}
	}
	return 0;
}

/*
 * trace_formats_add_system - add the formats of one more event system
 * @fmt: formats already read
 * @tracefs_dir: tracing directory (NULL: the mounted tracefs)
 * @system: the system (sched, irq...); one already there is not read again
 *
 * The tep is rebuilt, so events of @system decode and a file written with
 * @fmt carries their formats.
 *
 * Return: 0, or -1 with errno ENOENT when @system has no events.
 */
int trace_formats_add_system(struct ftg_trace_formats *fmt,
			     const char *tracefs_dir, const char *system)
{
	struct tracefs_instance *top;
	struct trace_system *grown, *sys;
	size_t i;
	int ret;

	for (i = 0; i < fmt->nr_systems; i++)
		if (!strcmp(fmt->systems[i].name, system))
			return 0;
	grown = realloc(fmt->systems, (fmt->nr_systems + 1) * sizeof(*grown));
	if (!grown)
		return -1;
	fmt->systems = grown;
	sys = memset(&grown[fmt->nr_systems], 0, sizeof(*sys));
	sys->name = strdup(system);
	top = tracefs_instance_alloc(tracefs_dir, NULL);
	if (!sys->name || !top) {
		free(sys->name);
		tracefs_instance_free(top);
		return -1;
	}
	ret = read_event_formats(top, tracefs_dir, system, &sys->events,
				 &sys->nr_events);
	tracefs_instance_free(top);
	fmt->nr_systems++;	/* so that free sees what was read */
	if (!ret && !sys->nr_events) {
		errno = ENOENT;
		ret = -1;
	}
	return ret ? -1 : trace_formats_parse(fmt);
}

/* The kallsyms a caller already read: a copy, cut down in place later. */
static int blob_from_kallsyms(struct trace_blob *blob,
			      const struct ftg_kallsyms *ks)
{
	size_t len;
	const char *text = ftg_kallsyms_text(ks, &len);

	blob->text = malloc(len + 1);
	if (!blob->text)
		return -1;
	memcpy(blob->text, text, len + 1);
	blob->size = len;
	return 0;
}

struct ftg_trace_formats *ftg_trace_formats_read(const char *tracefs_dir,
						 const char *const *systems,
						 const char *proc_dir)
{
	return trace_formats_read(tracefs_dir, systems, proc_dir, NULL);
}

/*
 * ftg_trace_formats_read(), kallsyms taken from @ks when not NULL (then
 * @proc_dir is not used).
 */
struct ftg_trace_formats *trace_formats_read(const char *tracefs_dir,
					     const char *const *systems,
					     const char *proc_dir,
					     const struct ftg_kallsyms *ks)
{
	struct tracefs_instance *top;
	struct ftg_trace_formats *fmt = NULL;
	const char *where = tracefs_dir ? tracefs_dir : "tracefs";
	const char *what = "opening it";
	char *path = NULL;
	int saved;

	ftg_error_clear();
	errno = 0;
	top = tracefs_instance_alloc(tracefs_dir, NULL);
	if (!top) {
		errno = errno ? errno : ENOENT;
		goto fail;
	}
	fmt = calloc(1, sizeof(*fmt));
	what = "the formats' header files";
	if (!fmt ||
	    blob_read_tracefs(&fmt->header_page, top, "events/header_page", false) ||
	    blob_read_tracefs(&fmt->header_event, top, "events/header_event", false) ||
	    blob_read_tracefs(&fmt->printk, top, "printk_formats", true) ||
	    blob_read_tracefs(&fmt->cmdlines, top, "saved_cmdlines", true) ||
	    blob_read_tracefs(&fmt->clock, top, "trace_clock", true))
		goto fail;
	/* ftrace's own formats are optional: ftguard does not need them */
	what = "the ftrace event formats";
	if (read_event_formats(top, tracefs_dir, "ftrace", &fmt->ftrace,
			       &fmt->nr_ftrace) && errno != ENOENT)
		goto fail;
	what = "the event systems' formats";
	if (read_systems(fmt, top, tracefs_dir, systems ? systems : default_systems))
		goto fail;
	what = "kallsyms";
	if (ks) {
		if (blob_from_kallsyms(&fmt->kallsyms, ks))
			goto fail;
	} else if (asprintf(&path, "%s/kallsyms", proc_dir ? proc_dir : "/proc") < 0) {
		path = NULL;
		goto fail;
	} else if (blob_read_file(&fmt->kallsyms, path)) {
		where = path;
		what = NULL;
		goto fail;
	}
	kallsyms_keep_symbol_lines(&fmt->kallsyms);
	what = "parsing the formats";
	if (trace_formats_parse(fmt))
		goto fail;
	free(path);
	tracefs_instance_free(top);
	return fmt;
fail:
	saved = errno ? errno : EIO;
	ftgl_err(FTG_E_SYSTEM, saved, "%s: %s%s%s", where, what ? what : "", what ? ": " : "",
		 strerror(saved));
	free(path);
	ftg_trace_formats_free(fmt);
	tracefs_instance_free(top);
	return NULL;
}

void ftg_trace_formats_free(struct ftg_trace_formats *fmt)
{
	size_t i, j;

	if (!fmt)
		return;
	trace_blob_free(&fmt->header_page);
	trace_blob_free(&fmt->header_event);
	for (i = 0; i < fmt->nr_ftrace; i++)
		trace_blob_free(&fmt->ftrace[i]);
	free(fmt->ftrace);
	for (i = 0; i < fmt->nr_systems; i++) {
		for (j = 0; j < fmt->systems[i].nr_events; j++)
			trace_blob_free(&fmt->systems[i].events[j]);
		free(fmt->systems[i].events);
		free(fmt->systems[i].name);
	}
	free(fmt->systems);
	trace_blob_free(&fmt->kallsyms);
	trace_blob_free(&fmt->printk);
	trace_blob_free(&fmt->cmdlines);
	trace_blob_free(&fmt->clock);
	trace_tgids_free(&fmt->tgids);
	trace_syms_free(&fmt->syms);
	if (fmt->tep)
		tep_free(fmt->tep);
	free(fmt);
}

struct tep_handle *ftg_trace_formats_tep(struct ftg_trace_formats *fmt)
{
	return fmt->tep;
}

size_t ftg_trace_formats_page_size(const struct ftg_trace_formats *fmt)
{
	return fmt->page_size;
}
