// SPDX-License-Identifier: LGPL-2.1
/*
 * trace.dat reader: validation (trace-check.c), then libtracecmd's public
 * reader, then the same record decoding as the live path.
 */
#include <errno.h>
#include <fnmatch.h>
#include <signal.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include <trace-cmd/trace-cmd.h>
#include <traceevent/trace-seq.h>

#include "ftguard-local.h"
#include "trace-local.h"

/* @size bytes at @offset of @path, NUL-terminated (free() it), or NULL. */
static char *read_text(const char *path, uint64_t offset, uint32_t size)
{
	char *text = malloc((size_t)size + 1);
	int fd, failed;

	if (!text)
		return NULL;
	fd = open(path, O_RDONLY | O_CLOEXEC);
	failed = fd < 0 || pread(fd, text, size, offset) != size;
	if (fd >= 0)
		close(fd);
	if (failed) {
		free(text);
		return NULL;
	}
	text[size] = '\0';
	return text;
}

/* The module index needs the kallsyms text, which libtracecmd keeps. */
static int load_syms(struct ftg_trace_file *tf, const char *path,
		     const struct trace_file_info *info)
{
	char *text;
	int ret;

	if (!info->kallsyms_size)
		return trace_syms_load(&tf->syms, NULL);
	text = read_text(path, info->kallsyms_offset, info->kallsyms_size);
	if (!text)
		return -1;
	ret = trace_syms_load(&tf->syms, text);
	free(text);
	return ret;
}

/* The tgid map, in an option libtracecmd skips: read from the file. */
static int load_tgids(struct ftg_trace_file *tf, const char *path,
		      const struct trace_file_info *info)
{
	char *text;
	int ret;

	if (!info->tgids_size)
		return 0;
	text = read_text(path, info->tgids_offset, info->tgids_size);
	if (!text)
		return -1;
	ret = trace_tgids_parse(&tf->tgids, text);
	free(text);
	return ret;
}

/*
 * ftguard's writer files its graph events under ftrace's function_graph
 * names (trace-writer.c). In a file that has ftguard's events but not
 * its graph events under their own names (older files have them so),
 * ftrace:funcgraph_entry/exit are those: remember their IDs so that they
 * read back as ftguard:graph_entry/exit, as the live view and older
 * files give them. In any other file (trace-cmd's, of the kernel's
 * function_graph tracer) they stay what they are.
 */
static void find_graph_ids(struct ftg_trace_file *tf)
{
	struct tep_handle *tep = tracecmd_get_tep(tf->handle);
	struct tep_event **events;
	struct tep_event *ev;
	bool ours = false;
	int i, n;

	for (i = 0; i < TRACE_NR_GRAPH_NAMES; i++)
		tf->graph_ids[i] = -1;
	events = tep ? tep_list_events(tep, TEP_EVENT_SORT_ID) : NULL;
	n = tep ? tep_get_events_count(tep) : 0;
	for (i = 0; events && i < n; i++)
		ours |= !strcmp(events[i]->system, "ftguard");
	if (!ours)
		return;
	for (i = 0; i < TRACE_NR_GRAPH_NAMES; i++) {
		if (tep_find_event_by_name(tep, "ftguard", trace_graph_names[i].ours))
			continue;
		ev = tep_find_event_by_name(tep, "ftrace", trace_graph_names[i].ftrace);
		if (ev)
			tf->graph_ids[i] = ev->id;
	}
}

/* The name ftguard gives @id (the file's, @system:@name, unless mapped). */
static void event_name(const struct ftg_trace_file *tf, int id,
		       const char **system, const char **name)
{
	int i;

	for (i = 0; i < TRACE_NR_GRAPH_NAMES; i++) {
		if (id == tf->graph_ids[i]) {
			*system = "ftguard";
			*name = trace_graph_names[i].ours;
			return;
		}
	}
}

/* What in decoding is libtraceevent's: the format-driven rendering. */
static int render_only(struct tracecmd_input *handle, struct tep_record *rec,
		       int cpu, void *data)
{
	struct trace_seq s;

	trace_seq_init(&s);
	tep_print_event(tracecmd_get_tep(handle), &s, rec, "%s", TEP_PRINT_INFO);
	trace_seq_destroy(&s);
	return 0;
}

/*
 * libtraceevent's format parser and printer are not hardened: a flipped
 * byte in a format's print fmt can make tep_parse_event() dereference
 * NULL. Sizes and pages are checked in trace-check.c, but format text
 * and field contents can only be judged by parsing them. So a child
 * process reads and decodes the whole file first, and the file is
 * refused if the child does not come back cleanly. The cost is a
 * second pass over the file: about 1 s per million events on the build
 * host, where the decoding read itself takes about 2 s.
 */
static int preflight(const char *path, char *err, size_t errlen)
{
	struct tracecmd_input *handle;
	int status, devnull;
	pid_t pid;

	pid = fork();
	if (pid < 0)
		return -1;
	if (pid == 0) {
		/* a crash must end the child, not run the parent's handlers */
		signal(SIGSEGV, SIG_DFL);
		signal(SIGBUS, SIG_DFL);
		signal(SIGFPE, SIG_DFL);
		signal(SIGILL, SIG_DFL);
		signal(SIGABRT, SIG_DFL);
		/* libtracecmd may print on a bad file: keep it off the tty */
		devnull = open("/dev/null", O_RDWR | O_CLOEXEC);
		if (devnull >= 0) {
			dup2(devnull, STDOUT_FILENO);
			dup2(devnull, STDERR_FILENO);
		}
		handle = tracecmd_open(path, TRACECMD_FL_LOAD_NO_PLUGINS);
		if (!handle)
			_exit(2);
		if (tracecmd_iterate_events(handle, NULL, 0, render_only,
					    NULL) < 0)
			_exit(3);
		_exit(0);
	}
	while (waitpid(pid, &status, 0) < 0)
		if (errno != EINTR)
			return -1;
	if (WIFEXITED(status) && WEXITSTATUS(status) == 0)
		return 0;
	if (err && errlen) {
		if (WIFSIGNALED(status))
			snprintf(err, errlen, "%s: corrupt event formats or data: "
				 "reading them crashed libtraceevent (signal %d)",
				 path, WTERMSIG(status));
		else
			snprintf(err, errlen, "%s: corrupt event formats or data: "
				 "libtracecmd cannot read the file", path);
	}
	errno = EINVAL;
	return -1;
}

struct ftg_trace_file *ftg_trace_file_open(const char *path)
{
	struct trace_file_info info;
	struct ftg_trace_file *tf;
	char err[512] = "";
	int errnum;

	ftg_error_clear();
	if (trace_file_validate(path, &info, err, sizeof(err)) ||
	    preflight(path, err, sizeof(err))) {
		trace_file_error(path, err);
		return NULL;
	}
	tf = calloc(1, sizeof(*tf));
	if (!tf) {
		ftgl_err(FTG_E_SYSTEM, ENOMEM, "out of memory");
		return NULL;
	}
	if (info.version == 6 && load_syms(tf, path, &info)) {
		snprintf(err, sizeof(err), "%s: cannot read kallsyms: %s",
			 path, strerror(errno));
		goto fail;
	}
	if (load_tgids(tf, path, &info)) {
		snprintf(err, sizeof(err), "%s: cannot read the tgids: %s",
			 path, strerror(errno));
		goto fail;
	}
	/*
	 * libtracecmd warns on stderr about options it does not know, such
	 * as ftguard's tgid map, which is read above; the library prints
	 * nothing unasked, so only errors may pass, as in trace-cmd report.
	 * The level is libtracecmd's, for the whole process.
	 */
	tracecmd_set_loglevel(TEP_LOG_ERROR);
	/* no plugins: the output must not depend on what the host has */
	tf->handle = tracecmd_open(path, TRACECMD_FL_LOAD_NO_PLUGINS);
	if (!tf->handle) {
		snprintf(err, sizeof(err), "%s: libtracecmd cannot read the file",
			 path);
		errno = EINVAL;
		goto fail;
	}
	find_graph_ids(tf);
	tf->ncpus = info.version == 6 ? (int)info.nr_cpus :
		    tep_get_cpus(tracecmd_get_tep(tf->handle));
	return tf;
fail:
	errnum = errno;
	ftg_trace_file_close(tf);
	errno = errnum;
	trace_file_error(path, err);
	return NULL;
}

void ftg_trace_file_close(struct ftg_trace_file *tf)
{
	int saved = errno;

	if (!tf)
		return;
	if (tf->handle)
		tracecmd_close(tf->handle);
	trace_syms_free(&tf->syms);
	trace_tgids_free(&tf->tgids);
	trace_filter_free(tf->filter);
	free(tf);
	errno = saved;
}

int ftg_trace_file_ncpus(const struct ftg_trace_file *tf)
{
	return tf->ncpus;
}

bool ftg_trace_file_has_event(struct ftg_trace_file *tf, const char *pattern)
{
	struct tep_handle *tep = tracecmd_get_tep(tf->handle);
	const char *colon = strchr(pattern, ':');
	struct tep_event **events;
	const char *sys, *name;
	char system[128];
	int i, n;

	if (colon)
		snprintf(system, sizeof(system), "%.*s", (int)(colon - pattern), pattern);
	events = tep ? tep_list_events(tep, TEP_EVENT_SORT_ID) : NULL;
	n = tep ? tep_get_events_count(tep) : 0;
	for (i = 0; events && i < n; i++) {
		sys = events[i]->system;
		name = events[i]->name;
		event_name(tf, events[i]->id, &sys, &name);
		if (colon ? !fnmatch(system, sys, 0) && !fnmatch(colon + 1, name, 0) :
			    !fnmatch(pattern, name, 0))
			return true;
	}
	return false;
}

struct iterate_ctx {
	struct ftg_trace_file *tf;
	ftg_event_cb cb;
	void *data;
	int stopped;
};

static int iterate_one(struct tracecmd_input *handle, struct tep_record *rec,
		       int cpu, void *data)
{
	struct iterate_ctx *ctx = data;
	const char *system, *name;
	struct ftg_event ev;

	if (!trace_filter_pass(ctx->tf->filter, rec, cpu))
		return 0;
	if (trace_event_from_record(tracecmd_get_tep(handle), &ctx->tf->syms,
				    rec, &ev))
		return 0;
	ev.cpu = cpu;
	ev.tgid = trace_tgids_get(&ctx->tf->tgids, ev.pid);
	system = ev.system;
	name = ev.name;
	event_name(ctx->tf, ev.type, &system, &name);
	if (system != ev.system) {
		snprintf(ev.system, sizeof(ev.system), "%s", system);
		snprintf(ev.name, sizeof(ev.name), "%s", name);
	}
	ctx->stopped = ctx->cb(&ev, ctx->data);
	return ctx->stopped;
}

int ftg_trace_file_iterate(struct ftg_trace_file *tf, ftg_event_cb cb,
			   void *data)
{
	struct iterate_ctx ctx = { .tf = tf, .cb = cb, .data = data };
	int ret;

	ftg_error_clear();
	ret = tracecmd_iterate_events(tf->handle, NULL, 0, iterate_one, &ctx);
	if (ctx.stopped)
		return ctx.stopped;
	if (ret < 0)
		return ftgl_err(FTG_E_BAD_TRACE, errno ? errno : EINVAL,
				"cannot read the events (corrupt file?)");
	return 0;
}
