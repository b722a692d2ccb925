// SPDX-License-Identifier: LGPL-2.1
/*
 * Live events from the module's tracefs instance, through libtracefs:
 * each CPU's trace_pipe_raw read without blocking (tracefs_cpu_*), whole
 * pages handed to a trace.dat writer and/or decoded to a callback, and
 * lost events from per_cpu/cpuN/stats.
 *
 * Full pages are spliced (tracefs_cpu_buffered_read): a file holds no
 * half-empty pages while recording, ftg_live_drain() collects the partial
 * ones at the end, and splicing makes no vfs_read call of its own. Without
 * a writer each pump also read()s the page the kernel is filling, once per
 * CPU, so a live view is never a page behind.
 *
 * Events go to a callback in time order across the CPUs: a task that
 * migrates mid-call has its entry on one CPU and its return on another,
 * and a call tree built from them needs the entry first. Each CPU's page
 * is walked by a cursor and the earliest event of all of them goes next
 * (as trace-cmd merges a file's CPUs); a CPU's cursor is refilled before
 * anything later than its last event is given out.
 */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include <tracefs/tracefs.h>
#include <traceevent/event-parse.h>

#include "ftguard-local.h"
#include "trace-local.h"

#define DEFAULT_INSTANCE	"ftguard"
#define MAX_CPUS		4096
#define DEFAULT_BUDGET_PAGES	64	/* per CPU and call */
#define DEFAULT_BUDGET_MS	100
#define CMDLINES_PERIOD_MS	250
/* Tasks whose /proc name was asked for lately, so each is asked once. */
#define ASKED_PIDS		64

struct live_cpu {
	int fd;
	struct tracefs_cpu *tcpu;
	uint64_t lost_at_open;
	struct trace_page_cursor cur;	/* the page being merged */
	int flushes;			/* partial reads left in this call */
	bool dry;			/* nothing more in this call */
};

struct ftg_live {
	struct tracefs_instance *inst;
	struct tracefs_instance *top;	/* saved_cmdlines is top-level only */
	struct ftg_trace_formats *fmt;
	char *tracefs_dir;		/* NULL: the mounted tracefs */
	struct timespec cmdlines_read;
	struct live_cpu *cpus;
	int ncpus;
	unsigned char *page;
	struct ftg_trace_counters counters;
	size_t budget_bytes;		/* per pump or drain call */
	unsigned int budget_ms;
	bool more;			/* the last call stopped at its budget */
	int hide_pid;			/* 0: hide nobody */
	bool proc_comms;		/* live system: ask /proc for unknown tasks */
	int asked[ASKED_PIDS];		/* pids /proc was asked for, by pid % */
	struct ftg_event named;		/* an event given its task's name */
	struct ftg_event merged;	/* the event merge_events() gives out */
	size_t merge_bytes;		/* pages read by this merge call */
	int merge_pages;		/* pages it walked to their end */
};

static int count_cpus(struct tracefs_instance *inst)
{
	struct stat st;
	char name[64];
	char *path;
	int cpu, ret;

	for (cpu = 0; cpu < MAX_CPUS; cpu++) {
		snprintf(name, sizeof(name), "per_cpu/cpu%d", cpu);
		path = tracefs_instance_get_file(inst, name);
		if (!path)
			return -1;
		ret = stat(path, &st);
		tracefs_put_tracing_file(path);
		if (ret)
			break;
	}
	return cpu;
}

/* "overrun" + "dropped events" of one CPU's stats: what never reached us. */
static uint64_t read_lost(struct ftg_live *live, int cpu)
{
	unsigned long long overrun = 0, dropped = 0;
	const char *p;
	char name[64];
	char *stats;

	snprintf(name, sizeof(name), "per_cpu/cpu%d/stats", cpu);
	stats = tracefs_instance_file_read(live->inst, name, NULL);
	if (!stats)
		return 0;
	p = strstr(stats, "overrun:");
	if (p && (p == stats || p[-1] == '\n'))
		sscanf(p, "overrun: %llu", &overrun);
	p = strstr(stats, "dropped events:");
	if (p)
		sscanf(p, "dropped events: %llu", &dropped);
	free(stats);
	return overrun + dropped;
}

static int open_cpu(struct ftg_live *live, int cpu)
{
	struct live_cpu *c = &live->cpus[cpu];
	char name[64];
	char *path;

	snprintf(name, sizeof(name), "per_cpu/cpu%d/trace_pipe_raw", cpu);
	path = tracefs_instance_get_file(live->inst, name);
	if (!path)
		return -1;
	c->fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
	if (c->fd < 0) {
		ftgl_err(errno == EACCES || errno == EPERM ? FTG_E_NOT_ROOT : FTG_E_SYSTEM,
			 errno, "%s: %s", path, strerror(errno));
		tracefs_put_tracing_file(path);
		return -1;
	}
	tracefs_put_tracing_file(path);
	c->tcpu = tracefs_cpu_alloc_fd(c->fd, live->fmt->page_size, true);
	if (!c->tcpu)
		return ftgl_err(FTG_E_SYSTEM, errno ? errno : ENOMEM,
				"cpu %d: reading trace_pipe_raw: %s", cpu,
				strerror(errno ? errno : ENOMEM));
	c->lost_at_open = read_lost(live, cpu);
	return 0;
}

/* The instance may use another clock than the top level. */
static int use_instance_clock(struct ftg_live *live)
{
	struct trace_blob *clock = &live->fmt->clock;
	int size = 0;
	char *text;

	text = tracefs_instance_file_read(live->inst, "trace_clock", &size);
	if (!text)
		return 0;
	free(clock->text);
	clock->text = text;
	clock->size = size;
	return 0;
}

/*
 * Tasks started after the session opened (the recorded command, to begin
 * with) are only named in saved_cmdlines later: merge it in again now
 * and then, so both decoded events and the file's cmdlines name them.
 * saved_tgids likewise (it lists tasks only while an instance's
 * record-tgid option is on).
 */
static void refresh_cmdlines(struct ftg_live *live, bool now)
{
	struct timespec ts;
	char *text, *line, *end, comm[FTG_COMM_LEN];
	long long elapsed;
	int pid;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	elapsed = (ts.tv_sec - live->cmdlines_read.tv_sec) * 1000LL +
		  (ts.tv_nsec - live->cmdlines_read.tv_nsec) / 1000000;
	if (!now && elapsed < CMDLINES_PERIOD_MS)
		return;
	live->cmdlines_read = ts;
	text = tracefs_instance_file_read(live->top, "saved_cmdlines", NULL);
	for (line = text; line && *line; line = end + (*end == '\n')) {
		end = strchrnul(line, '\n');
		if (sscanf(line, "%d %15[^\n]", &pid, comm) == 2)
			trace_formats_add_cmdline(live->fmt, pid, comm);
	}
	free(text);
	text = tracefs_instance_file_read(live->top, "saved_tgids", NULL);
	trace_tgids_parse(&live->fmt->tgids, text);
	free(text);
}

static int drop_kallsyms(struct ftg_trace_formats *fmt)
{
	trace_blob_free(&fmt->kallsyms);
	fmt->kallsyms.text = calloc(1, 1);
	return fmt->kallsyms.text ? trace_formats_parse(fmt) : -1;
}

static struct ftg_live *live_open(const char *tracefs_dir, const char *instance,
				  const char *proc_dir,
				  const struct ftg_kallsyms *ks,
				  unsigned int flags);

struct ftg_live *ftg_live_open(const struct ftg_root *root, const char *instance,
			       unsigned int flags)
{
	return live_open(ftg_root_tracefs(root), instance, ftg_root_proc(root), NULL,
			 flags);
}

struct ftg_live *ftg_live_open_with_kallsyms(const struct ftg_root *root,
					     const char *instance,
					     const struct ftg_kallsyms *ks,
					     unsigned int flags)
{
	return live_open(ftg_root_tracefs(root), instance, NULL, ks, flags);
}

/*
 * poll() on trace_pipe_raw waits for the instance's buffer_percent of a
 * CPU's buffer to fill (50 by default). A live view wants every event as
 * it comes, and on 6.1 that wait also trips a WARN in the kernel's
 * ring_buffer_nr_dirty_pages() once the reader has swapped in more pages
 * than the writer touched (a small buffer read fast). 0 wakes on any
 * event and takes neither path. The instance is ftguard's own: nothing
 * else reads it with a watermark.
 */
static void wake_on_any_event(struct ftg_live *live)
{
	char *path = tracefs_instance_get_file(live->inst, "buffer_percent");

	if (path && access(path, W_OK) == 0)
		tracefs_instance_file_write(live->inst, "buffer_percent", "0");
	tracefs_put_tracing_file(path);
}

static struct ftg_live *live_open(const char *tracefs_dir, const char *instance,
				  const char *proc_dir,
				  const struct ftg_kallsyms *ks,
				  unsigned int flags)
{
	const char *name = instance ? instance : DEFAULT_INSTANCE;
	/* the running kernel's, named or not (a root's path names it) */
	bool live_system = !tracefs_dir || !strcmp(tracefs_dir, ftgl_live_tracefs());
	struct ftg_live *live;
	int cpu, saved;

	ftg_error_clear();
	live = calloc(1, sizeof(*live));
	if (!live) {
		ftgl_err(FTG_E_SYSTEM, ENOMEM, "out of memory");
		return NULL;
	}
	errno = 0;
	live->inst = tracefs_instance_alloc(tracefs_dir, name);
	if (!live->inst) {
		if (errno == EACCES)
			ftgl_err(FTG_E_NOT_ROOT, EACCES,
				 "trace instance %s: permission denied (run as root)", name);
		else
			ftgl_err(FTG_E_NO_MODULE, ENODEV,
				 "trace instance %s: not found (ftguard.ko makes it: is it loaded?)",
				 name);
		goto fail_set;
	}
	live->top = tracefs_instance_alloc(tracefs_dir, NULL);
	if (tracefs_dir && !(live->tracefs_dir = strdup(tracefs_dir)))
		goto fail;
	live->fmt = trace_formats_read(tracefs_dir, NULL, proc_dir, ks);
	if (!live->top)
		goto fail;
	if (!live->fmt || use_instance_clock(live) ||
	    ((flags & FTG_LIVE_NO_KALLSYMS) && drop_kallsyms(live->fmt)))
		goto fail;
	live->ncpus = count_cpus(live->inst);
	if (live->ncpus <= 0) {
		ftgl_err(FTG_E_NO_MODULE, ENODEV, "trace instance %s: no per_cpu directories",
			 name);
		goto fail_set;
	}
	live->cpus = calloc(live->ncpus, sizeof(*live->cpus));
	live->page = malloc(live->fmt->page_size);
	if (!live->cpus || !live->page)
		goto fail;
	for (cpu = 0; cpu < live->ncpus; cpu++)
		live->cpus[cpu].fd = -1;
	for (cpu = 0; cpu < live->ncpus; cpu++)
		if (open_cpu(live, cpu) ||
		    trace_cursor_init(&live->cpus[cpu].cur, live->fmt))
			goto fail;
	live->budget_bytes = (size_t)DEFAULT_BUDGET_PAGES * live->ncpus *
			     live->fmt->page_size;
	live->budget_ms = DEFAULT_BUDGET_MS;
	live->proc_comms = live_system;
	if (live_system)
		wake_on_any_event(live);
	return live;
fail:
	/* the steps that name their failure (formats, a CPU's pipe) set it */
	saved = errno ? errno : EIO;
	if (!*ftg_error_last())
		ftgl_err(FTG_E_SYSTEM, saved, "trace instance %s: %s", name, strerror(saved));
fail_set:
	saved = errno;
	ftg_live_free(live);
	errno = saved;
	return NULL;
}

void ftg_live_free(struct ftg_live *live)
{
	int cpu;

	if (!live)
		return;
	for (cpu = 0; live->cpus && cpu < live->ncpus; cpu++) {
		if (live->cpus[cpu].tcpu)
			tracefs_cpu_free_fd(live->cpus[cpu].tcpu);
		if (live->cpus[cpu].fd >= 0)
			close(live->cpus[cpu].fd);
		trace_cursor_fini(&live->cpus[cpu].cur);
	}
	free(live->cpus);
	free(live->page);
	ftg_trace_formats_free(live->fmt);
	tracefs_instance_free(live->inst);
	tracefs_instance_free(live->top);
	free(live->tracefs_dir);
	free(live);
}

int ftg_live_ncpus(const struct ftg_live *live)
{
	return live->ncpus;
}

size_t ftg_live_page_size(const struct ftg_live *live)
{
	return live->fmt->page_size;
}

struct tep_handle *ftg_live_tep(struct ftg_live *live)
{
	return live->fmt->tep;
}

struct ftg_trace_formats *ftg_live_formats(struct ftg_live *live)
{
	return live->fmt;
}

int ftg_live_add_system(struct ftg_live *live, const char *system)
{
	ftg_error_clear();
	if (!system || !*system || strchr(system, '/'))
		return ftgl_err(FTG_E_BAD_ARGUMENT, EINVAL, "'%s': not an event system",
				system ? system : "");
	if (trace_formats_add_system(live->fmt, live->tracefs_dir, system))
		return ftgl_err(FTG_E_SYSTEM, errno, "reading the formats of the %s events: %s",
				system, strerror(errno));
	return 0;
}

/* The system of the tracefs event whose id is @type, or NULL. */
static char *system_of_type(const char *tracing_dir, int type)
{
	char **systems, **events, path[4096], *found = NULL;
	int i, j, id;
	FILE *f;

	systems = tracefs_event_systems(tracing_dir);
	for (i = 0; systems && systems[i] && !found; i++) {
		events = tracefs_system_events(tracing_dir, systems[i]);
		for (j = 0; events && events[j] && !found; j++) {
			snprintf(path, sizeof(path), "%s/events/%s/%s/id",
				 tracing_dir, systems[i], events[j]);
			f = fopen(path, "re");
			if (!f)
				continue;
			if (fscanf(f, "%d", &id) == 1 && id == type)
				found = strdup(systems[i]);
			fclose(f);
		}
		tracefs_list_free(events);
	}
	tracefs_list_free(systems);
	return found;
}

int ftg_live_add_type(struct ftg_live *live, int type)
{
	const char *dir = live->tracefs_dir ? live->tracefs_dir : tracefs_tracing_dir();
	char *system;
	int ret;

	ftg_error_clear();
	if (!dir)
		return ftgl_err(FTG_E_NO_TRACEFS, ENOENT, "no tracefs mounted");
	system = system_of_type(dir, type);
	if (!system)
		return ftgl_err(FTG_E_BAD_EVENT, ENOENT, "no event with id %d in %s/events",
				type, dir);
	ret = trace_formats_add_system(live->fmt, live->tracefs_dir, system);
	if (ret < 0)
		ftgl_err(FTG_E_SYSTEM, errno, "reading the formats of the %s events: %s",
			 system, strerror(errno));
	free(system);
	return ret < 0 ? -1 : 0;
}

int ftg_live_set_budget(struct ftg_live *live, size_t max_bytes, unsigned int max_ms)
{
	live->budget_bytes = max_bytes;
	live->budget_ms = max_ms;
	return 0;
}

bool ftg_live_more(const struct ftg_live *live)
{
	return live->more;
}

int ftg_live_hide_pid(struct ftg_live *live, int pid)
{
	live->hide_pid = pid;
	return 0;
}

/*
 * saved_cmdlines learns a task's name only when the kernel records it,
 * which ftguard's own events do not make it do, and it is read now and
 * then: a short-lived task (the recorded dd) can come and go as "<...>".
 * On the live system its /proc entry names it while it lives: asked once
 * per task (a task already gone is not asked again for each event).
 */
static bool proc_name(struct ftg_live *live, int pid, char *comm, size_t size)
{
	int *asked = &live->asked[pid % ASKED_PIDS];
	char path[64];
	bool named;
	FILE *f;

	if (!live->proc_comms || pid <= 0 || *asked == pid)
		return false;
	*asked = pid;
	snprintf(path, sizeof(path), "/proc/%d/comm", pid);
	f = fopen(path, "re");
	if (!f)
		return false;
	named = fgets(comm, (int)size, f) != NULL;
	fclose(f);
	comm[strcspn(comm, "\n")] = '\0';
	return named && comm[0] &&
	       !trace_formats_add_cmdline(live->fmt, pid, comm);
}

int ftg_live_name_task(struct ftg_live *live, int pid)
{
	char comm[FTG_COMM_LEN];

	ftg_error_clear();
	if (!live->proc_comms || pid <= 0)
		return ftgl_err(FTG_E_BAD_ARGUMENT, EINVAL,
				"naming task %d: not a task of the live system", pid);
	live->asked[pid % ASKED_PIDS] = 0;	/* ask even if asked before */
	if (!proc_name(live, pid, comm, sizeof(comm)))
		return ftgl_err(FTG_E_SYSTEM, ENOENT, "naming task %d: not in /proc", pid);
	return 0;
}

static const struct ftg_event *name_task(struct ftg_live *live,
					 const struct ftg_event *ev)
{
	char comm[FTG_COMM_LEN];

	if (strcmp(ev->comm, "<...>") || !proc_name(live, ev->pid, comm, sizeof(comm)))
		return ev;
	live->named = *ev;
	snprintf(live->named.comm, sizeof(live->named.comm), "%s", comm);
	return &live->named;
}

/*
 * An event of a page for a writer: counted, not decoded, and its task
 * named from /proc when the file's cmdlines do not name it yet
 * (name_task()).
 */
static enum trace_walk name_unknown_task(const struct trace_page_cursor *cur,
					 void *arg)
{
	struct ftg_live *live = arg;
	char comm[FTG_COMM_LEN];
	int pid = trace_cursor_pid(cur, live->fmt);

	if (pid > 0 && live->proc_comms &&
	    !tep_is_pid_registered(live->fmt->tep, pid))
		proc_name(live, pid, comm, sizeof(comm));
	return TRACE_WALK_COUNT;
}

/* One decoded event to the caller, unless its task is hidden. */
static int deliver(struct ftg_live *live, const struct ftg_event *ev,
		   ftg_event_cb cb, void *data)
{
	if (live->hide_pid && ev->pid == live->hide_pid) {
		live->counters.hidden++;
		return 0;
	}
	live->counters.events++;
	return cb ? cb(name_task(live, ev), data) : 0;
}

/* A page read: counted, and handed whole to @writer. */
static int take_page(struct ftg_live *live, int cpu, int size,
		     struct ftg_trace_writer *writer)
{
	uint64_t commit;

	memcpy(&commit, live->page + 8, sizeof(commit));
	live->counters.pages++;
	live->counters.bytes += commit & TRACE_COMMIT_MASK;
	return writer ? ftg_trace_writer_add_page(writer, cpu, live->page, size) : 0;
}

/*
 * One page of @cpu: its size, 0 when the CPU has nothing, -1 on error.
 * Full pages are spliced, which never goes through vfs_read: a tool that
 * traces its own read path makes no event by taking them. @partial reads
 * the page the kernel is filling instead.
 */
static int read_page(struct ftg_live *live, int cpu, bool partial)
{
	struct tracefs_cpu *tcpu = live->cpus[cpu].tcpu;
	int r;

	if (partial)
		r = tracefs_cpu_flush(tcpu, live->page);
	else
		r = tracefs_cpu_buffered_read(tcpu, live->page, true);
	if (r < 0 && (errno == EAGAIN || errno == EINTR))
		return 0;
	if (r < 0)
		return ftgl_err(FTG_E_SYSTEM, errno, "cpu %d: reading trace_pipe_raw: %s",
				cpu, strerror(errno));
	return r;
}

static uint64_t mono_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000 + (uint64_t)ts.tv_nsec / 1000000;
}

/*
 * Pages without a callback: round-robin, one page per CPU per round, so
 * one busy CPU cannot starve the rest; within the budget of bytes and
 * time, so a reader that feeds itself still returns. @rounds bounds the
 * rounds too (0: no bound).
 */
static int read_pages(struct ftg_live *live, bool partial, int rounds,
		      struct ftg_trace_writer *writer)
{
	uint64_t deadline = mono_ms() + live->budget_ms;
	size_t bytes = 0;
	bool any;
	int cpu, n, r, total = 0;

	live->more = false;
	do {
		any = false;
		for (cpu = 0; cpu < live->ncpus; cpu++) {
			r = read_page(live, cpu, partial);
			if (r < 0)
				return -1;
			if (r < TRACE_PAGE_HDR_SIZE)
				continue;
			any = true;
			if (take_page(live, cpu, r, writer))
				return -1;
			n = trace_page_walk(live->fmt, cpu, live->page,
					    (size_t)r, name_unknown_task, live);
			/* a page that does not decode is skipped (a writer
			 * keeps it whole) */
			if (n > 0)
				live->counters.events += n;
			else
				ftg_error_clear();
			total++;
			bytes += (size_t)r;
		}
		if (any && (bytes >= live->budget_bytes || mono_ms() >= deadline)) {
			live->more = true;
			break;
		}
	} while (any && --rounds != 0);
	return total;
}

/*
 * The next page of @cpu into its cursor: a full one, else (while
 * @cpu's flushes last) the one the kernel is filling. 1: loaded; 0: the
 * CPU is dry for this call; -1: error. A page that does not decode is
 * skipped (a writer keeps it whole).
 */
static int refill(struct ftg_live *live, int cpu, struct ftg_trace_writer *writer)
{
	struct live_cpu *c = &live->cpus[cpu];
	int r;

	for (;;) {
		r = read_page(live, cpu, false);
		if (!r && c->flushes) {
			c->flushes--;
			r = read_page(live, cpu, true);
		}
		if (r < 0)
			return -1;
		if (r < TRACE_PAGE_HDR_SIZE) {
			c->dry = true;
			return 0;
		}
		if (take_page(live, cpu, r, writer))
			return -1;
		live->merge_bytes += (size_t)r;
		if (!trace_cursor_load(&c->cur, cpu, live->page, r) && c->cur.event)
			return 1;
		ftg_error_clear();
		/* an empty or malformed page is done at once */
		live->merge_pages++;
	}
}

/*
 * Events of all CPUs in time order to @cb. A CPU's page that is walked to
 * its end is refilled before the next event goes out; when the budget is
 * spent the walk stops there, and the pages still being walked wait in
 * their cursors for the next call. @flushes: partial reads per CPU (-1:
 * until none is left). Return: pages walked to their end.
 */
static int merge_events(struct ftg_live *live, int flushes,
			struct ftg_trace_writer *writer, ftg_event_cb cb,
			void *data)
{
	uint64_t deadline = mono_ms() + live->budget_ms;
	struct ftg_event *ev = &live->merged;
	struct live_cpu *next;
	int cpu, r;

	live->more = false;
	live->merge_bytes = 0;
	live->merge_pages = 0;
	for (cpu = 0; cpu < live->ncpus; cpu++) {
		live->cpus[cpu].dry = false;
		live->cpus[cpu].flushes = flushes;
	}
	for (;;) {
		next = NULL;
		for (cpu = 0; cpu < live->ncpus; cpu++) {
			struct live_cpu *c = &live->cpus[cpu];

			if (!c->cur.event && !c->dry) {
				/* a call walks one page to its end at least */
				if (live->merge_pages &&
				    (live->merge_bytes >= live->budget_bytes ||
				     mono_ms() >= deadline)) {
					live->more = true;
					return live->merge_pages;
				}
				r = refill(live, cpu, writer);
				if (r < 0)
					return -1;
				if (!r)
					continue;
			}
			if (c->cur.event && (!next || c->cur.ts < next->cur.ts))
				next = c;
		}
		if (!next)
			return live->merge_pages;
		r = trace_cursor_event(&next->cur, live->fmt, ev) ? 0 :
		    deliver(live, ev, cb, data);
		if (trace_cursor_next(&next->cur))
			ftg_error_clear();	/* the rest of a malformed page */
		if (!next->cur.event)
			live->merge_pages++;
		if (r) {	/* the caller asked to stop */
			live->more = true;
			return live->merge_pages;
		}
	}
}

int ftg_live_pump(struct ftg_live *live, int timeout_ms,
		  struct ftg_trace_writer *writer, ftg_event_cb cb, void *data)
{
	struct pollfd *fds;
	int cpu, r;

	ftg_error_clear();
	if (timeout_ms && !live->more) {
		fds = calloc(live->ncpus, sizeof(*fds));
		if (!fds)
			return ftgl_err(FTG_E_SYSTEM, ENOMEM, "out of memory");
		for (cpu = 0; cpu < live->ncpus; cpu++) {
			fds[cpu].fd = live->cpus[cpu].fd;
			fds[cpu].events = POLLIN;
		}
		r = poll(fds, live->ncpus, timeout_ms);
		free(fds);
		if (r < 0 && errno == EINTR)
			return 0;
		if (r < 0)
			return ftgl_err(FTG_E_SYSTEM, errno, "waiting for events: %s",
					strerror(errno));
	}
	refresh_cmdlines(live, false);
	if (cb)
		/* the page being filled, once per CPU, unless recording: a
		 * live view is never a page behind, and a reader whose reads
		 * are traced makes one event per CPU and call, not one per
		 * event it reads */
		return merge_events(live, writer ? 0 : 1, writer, cb, data);
	return read_pages(live, false, 0, writer);
}

int ftg_live_drain(struct ftg_live *live, struct ftg_trace_writer *writer,
		   ftg_event_cb cb, void *data)
{
	int full, partial;

	ftg_error_clear();
	refresh_cmdlines(live, true);
	if (cb)
		return merge_events(live, -1, writer, cb, data);
	full = read_pages(live, false, 0, writer);
	if (full < 0)
		return -1;
	if (live->more)
		return full;
	partial = read_pages(live, true, 0, writer);
	return partial < 0 ? -1 : full + partial;
}

int ftg_live_counters(struct ftg_live *live, struct ftg_trace_counters *out)
{
	uint64_t lost = 0, now;
	int cpu;

	for (cpu = 0; cpu < live->ncpus; cpu++) {
		now = read_lost(live, cpu);
		if (now > live->cpus[cpu].lost_at_open)
			lost += now - live->cpus[cpu].lost_at_open;
	}
	live->counters.lost = lost;
	*out = live->counters;
	return 0;
}

char *ftg_live_cpu_stats(struct ftg_live *live, int cpu)
{
	char name[64], *text;

	ftg_error_clear();
	if (cpu < 0 || cpu >= live->ncpus) {
		ftgl_err(FTG_E_BAD_ARGUMENT, EINVAL, "cpu %d: the session has %d CPUs", cpu,
			 live->ncpus);
		return NULL;
	}
	snprintf(name, sizeof(name), "per_cpu/cpu%d/stats", cpu);
	text = tracefs_instance_file_read(live->inst, name, NULL);
	if (!text)
		ftgl_err(FTG_E_SYSTEM, errno ? errno : EIO, "%s: %s", name,
			 strerror(errno ? errno : EIO));
	return text;
}

int ftg_live_fds(const struct ftg_live *live, int *fds, int max)
{
	int cpu;

	for (cpu = 0; cpu < live->ncpus && cpu < max; cpu++)
		fds[cpu] = live->cpus[cpu].fd;
	return live->ncpus;
}
