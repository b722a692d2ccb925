// SPDX-License-Identifier: GPL-2.0
/*
 * `ftguard record`: check the selection, arm it for the life of this
 * process, run a command (or wait for Ctrl-C), and stream the ftguard
 * trace instance into a trace.dat.
 *
 * The arm belongs to this process's control descriptor: whatever ends the
 * process, SIGKILL included, the kernel disarms when the descriptor
 * closes. On a normal end, a signal or a failed command, record disarms
 * first, then drains the buffer and finishes the file, then restores the
 * pid filter and buffer size it changed. The trace writer publishes the
 * file by rename only once it is complete.
 */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "cmd/ftguard-cmd.h"

#define RECORD_POLL_MS		100
#define RECORD_PACE_MS		20	/* the least time between two reads */
#define RECORD_PROGRESS_MS	250
#define RECORD_INSTANCE		"ftguard"
#define RECORD_MAX_PIDS		64
#define RECORD_DRAIN_MS		500	/* the most the end may read */

struct record_session {
	struct ftg_cmd_ctx *ctx;
	const struct ftg_cmd_args *args;
	const char *out_path;
	struct ftg_session *sess;
	struct ftg_map *map;
	struct ftg_live *live;
	struct ftg_trace_writer *writer;
	struct ftg_instance *inst;	/* what it changes, restored at the end */
	struct ftg_cmd_events events;	/* -e */
	pid_t pids[RECORD_MAX_PIDS];	/* -P, and the command with -F */
	int npids;
	pid_t child;			/* 0: no command */
	int go_fd;			/* write end: lets the child exec */
	int exec_err_fd;		/* read end: errno of a failed exec */
	bool progress;			/* live line on a terminal */
	uint64_t last_progress_ms;
};

static uint64_t now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000 + (uint64_t)ts.tv_nsec / 1000000;
}

static void human_bytes(char *buf, size_t len, uint64_t bytes)
{
	if (bytes >= 10ULL << 20)
		snprintf(buf, len, "%llu MiB", (unsigned long long)(bytes >> 20));
	else if (bytes >= 10ULL << 10)
		snprintf(buf, len, "%llu KiB", (unsigned long long)(bytes >> 10));
	else
		snprintf(buf, len, "%llu B", (unsigned long long)bytes);
}

static void show_progress(struct record_session *s, bool force)
{
	struct ftg_trace_counters c;
	uint64_t now = now_ms();
	char bytes[32];

	if (!s->progress || (!force && now - s->last_progress_ms < RECORD_PROGRESS_MS))
		return;
	s->last_progress_ms = now;
	if (ftg_live_counters(s->live, &c) < 0)
		return;
	human_bytes(bytes, sizeof(bytes), ftg_trace_writer_bytes(s->writer));
	fprintf(stderr, "\rftguard record: %llu events, %llu lost, %s   ",
		(unsigned long long)c.events, (unsigned long long)c.lost, bytes);
	fflush(stderr);
}

static int parse_pids(struct record_session *s)
{
	int i, n = ftg_args_count(s->args, 'P');

	for (i = 0; i < n; i++) {
		const char *arg = ftg_args_nth(s->args, 'P', i);
		uint64_t pid;

		if (ftg_parse_u64(arg, &pid) < 0 || pid == 0 || pid > 0x7fffffff) {
			ftg_cmd_usage_error(s->ctx, s->args->entry, "-P %s: not a pid", arg);
			return FTG_CMD_ERROR;
		}
		if (kill((pid_t)pid, 0) < 0 && errno == ESRCH) {
			ftg_cmd_error(s->ctx, "-P %s: no such process", arg);
			return FTG_CMD_ERROR;
		}
		if (s->npids == RECORD_MAX_PIDS - 1) {
			ftg_cmd_usage_error(s->ctx, s->args->entry, "at most %d -P",
					    RECORD_MAX_PIDS - 1);
			return FTG_CMD_ERROR;
		}
		s->pids[s->npids++] = (pid_t)pid;
	}
	return 0;
}

/*
 * With a function on record's own path armed (vfs_read: its reads of the
 * stats files), record would trace itself. As trace-cmd does unless
 * --no-filter, its pid goes to the instance's set_event_notrace_pid: the
 * kernel drops those events before they take buffer space. A list
 * someone else set is left alone (and record's own events kept).
 */
static int hide_self(struct record_session *s)
{
	int pid = (int)getpid();

	if (ftg_args_has(s->args, FTG_OPT_NO_FILTER) ||
	    !ftg_instance_set_pids(s->inst, &pid, 1, FTG_INSTANCE_PIDS_NOTRACE) ||
	    errno == ENOTSUP)
		return 0;
	if (errno == EBUSY) {
		ftg_cmd_warn(s->ctx, "set_event_notrace_pid is in use: record's own "
			     "events are not filtered");
		return 0;
	}
	ftg_cmd_error(s->ctx, "leaving record's own pid out "
		      "(set_event_notrace_pid): %s", strerror(errno));
	return FTG_CMD_ERROR;
}

/*
 * Instance settings: buffer size (-b), pid filter (-P, -F), and the
 * kernel's tgid record (saved_tgids), which tells the file each pid's
 * process. The instance remembers each change for the end.
 */
static int setup_instance(struct record_session *s)
{
	const char *kb_arg = ftg_args_get(s->args, 'b');
	unsigned long kb;

	if (kb_arg) {
		if (ftg_parse_size_kb(kb_arg, &kb) < 0) {
			ftg_cmd_usage_error(s->ctx, s->args->entry, "-b %s: not a size in KiB",
					    kb_arg);
			return FTG_CMD_ERROR;
		}
		if (ftg_instance_set_buffer_kb(s->inst, kb) < 0) {
			ftg_cmd_error(s->ctx, "%s", ftg_error_last());
			return FTG_CMD_ERROR;
		}
	}
	ftg_instance_set_option(s->inst, "record-tgid", true);
	if (!s->npids)
		return hide_self(s);
	if (ftg_instance_set_pids(s->inst, s->pids, s->npids, 0) < 0) {
		ftg_cmd_error(s->ctx, "setting the pid filter: %s", strerror(errno));
		return FTG_CMD_ERROR;
	}
	/* children of the traced pids too, as trace-cmd -c */
	if (ftg_args_has(s->args, 'c'))
		ftg_instance_set_option(s->inst, "event-fork", true);
	return 0;
}

/*
 * Fork the command, held before exec until the pid filter is set and the
 * sites are armed, so its first calls are traced and nobody else's are.
 */
static int spawn_command(struct record_session *s)
{
	int go[2], err[2];

	if (pipe2(go, O_CLOEXEC) < 0 || pipe2(err, O_CLOEXEC) < 0) {
		ftg_cmd_error(s->ctx, "pipe: %s", strerror(errno));
		return FTG_CMD_ERROR;
	}
	fflush(NULL);
	s->child = fork();
	if (s->child < 0) {
		ftg_cmd_error(s->ctx, "fork: %s", strerror(errno));
		s->child = 0;
		return FTG_CMD_ERROR;
	}
	if (s->child == 0) {
		char c;
		int e;

		close(go[1]);
		close(err[0]);
		if (read(go[0], &c, 1) != 1)
			_exit(126);	/* record gave up before arming */
		execvp(s->args->argv[0], s->args->argv);
		e = errno;
		if (write(err[1], &e, sizeof(e)) < 0)
			_exit(127);
		_exit(127);
	}
	close(go[0]);
	close(err[1]);
	s->go_fd = go[1];
	s->exec_err_fd = err[0];
	if (ftg_args_has(s->args, 'F'))
		s->pids[s->npids++] = s->child;
	return 0;
}

/* Returns the errno of a failed exec, 0 when the command is running. */
static int release_command(struct record_session *s)
{
	ssize_t n;
	int e = 0;

	if (write(s->go_fd, "g", 1) != 1)
		e = errno;
	close(s->go_fd);
	s->go_fd = -1;
	do
		n = read(s->exec_err_fd, &e, sizeof(e));
	while (n < 0 && errno == EINTR);
	close(s->exec_err_fd);
	s->exec_err_fd = -1;
	return n == sizeof(e) ? e : 0;
}

/* The child never ran: closing the go pipe makes it exit. */
static void abandon_command(struct record_session *s)
{
	if (!s->child)
		return;
	if (s->go_fd >= 0)
		close(s->go_fd);
	if (s->exec_err_fd >= 0)
		close(s->exec_err_fd);
	s->go_fd = s->exec_err_fd = -1;
	waitpid(s->child, NULL, 0);
	s->child = 0;
}

static int arm_selection(struct record_session *s)
{
	size_t nsites;
	int ret;

	if (ftg_cmd_events_only(s->args, &s->events))
		return 0;
	ret = ftg_cmd_arm(s->ctx, s->args, s->sess, s->map, 0, &nsites);

	if (!ret && s->ctx->verbosity > 0)
		ftg_cmd_info(s->ctx, "armed %zu sites", nsites);
	return ret;
}

/*
 * Has the command exited? Then it is named while it can still be (the
 * kernel may never have saved its name), and the caller reaps it.
 */
static bool command_exited(struct record_session *s)
{
	siginfo_t info = { 0 };

	if (waitid(P_PID, (id_t)s->child, &info, WEXITED | WNOHANG | WNOWAIT) < 0 ||
	    info.si_pid != s->child)
		return false;
	ftg_live_name_task(s->live, s->child);	/* a name is not worth failing for */
	return true;
}

/*
 * A file wants throughput, not latency. The live session wakes its reader
 * at any event (ftg_live_pump()), and a read takes what a CPU's page holds
 * so far: read at every event, a busy trace is written a page an event,
 * each read a wake-up taken from the traced work. So after a read that
 * left nothing behind, the next waits RECORD_PACE_MS, and the pages fill
 * in between, as trace-cmd record sleeps between its reads. A signal
 * (Ctrl-C) cuts the wait short; the command's end is seen a pace later
 * at most.
 */
static void pace(void)
{
	struct timespec ts = { 0, RECORD_PACE_MS * 1000000L };

	nanosleep(&ts, NULL);
}

/* Pump until the command ends or a signal comes; returns the wait status
 * of the command (-1 when none ended). */
static int record_loop(struct record_session *s, int *loop_err)
{
	int status, pages;

	*loop_err = 0;
	while (!ftg_cmd_interrupted) {
		pages = ftg_live_pump(s->live, RECORD_POLL_MS, s->writer, NULL, NULL);
		if (pages < 0 && errno != EINTR) {
			*loop_err = ftg_cmd_lib_error(s->ctx, "reading events");
			return -1;
		}
		show_progress(s, false);
		if (s->child && command_exited(s)) {
			waitpid(s->child, &status, 0);
			s->child = 0;
			return status;
		}
		if (pages > 0 && !ftg_live_more(s->live))
			pace();
	}
	return -1;
}

/* Disarm first so the drain sees the end, then complete the file. */
static int finish_file(struct record_session *s)
{
	struct ftg_trace_counters c = { 0 };
	int cpu, r, ret = 0;
	char bytes[32];
	uint64_t end;

	if (ftg_control_disarm(ftg_session_control(s->sess)) < 0)
		ftg_cmd_lib_error(s->ctx, "disarming (closing the control disarms too)");
	/* Bounded: another tracer may still fill the instance. */
	end = now_ms() + RECORD_DRAIN_MS;
	do
		r = ftg_live_drain(s->live, s->writer, NULL, NULL);
	while (r > 0 && ftg_live_more(s->live) && now_ms() < end);
	if (r < 0)
		ret = ftg_cmd_lib_error(s->ctx, "reading the last events");
	show_progress(s, true);
	if (s->progress)
		fputc('\n', stderr);
	ftg_live_counters(s->live, &c);
	for (cpu = 0; cpu < ftg_live_ncpus(s->live); cpu++) {
		char *stats = ftg_live_cpu_stats(s->live, cpu);

		if (stats)
			ftg_trace_writer_set_cpu_stats(s->writer, cpu, stats);
		free(stats);
	}
	human_bytes(bytes, sizeof(bytes), ftg_trace_writer_bytes(s->writer));
	if (ftg_trace_writer_close(s->writer) < 0) {
		s->writer = NULL;
		return ftg_cmd_lib_error(s->ctx, "writing the trace file");
	}
	s->writer = NULL;
	ftg_cmd_info(s->ctx, "%llu events (%s) written to %s%s",
		     (unsigned long long)c.events, bytes, s->out_path,
		     ftg_cmd_interrupted ? " (interrupted)" : "");
	if (c.lost)
		ftg_cmd_warn(s->ctx, "%llu events lost: the buffer was too small "
			     "(try -b with more KiB)", (unsigned long long)c.lost);
	return ret;
}

static int record_prepare(struct record_session *s)
{
	s->sess = ftg_cmd_session_open(s->ctx);
	if (!s->sess)
		return FTG_CMD_ERROR;
	s->map = ftg_cmd_load_map(s->ctx);
	return 0;
}

static int record_open_output(struct record_session *s)
{
	struct ftg_root *root = ftg_cmd_root(s->ctx);
	const struct ftg_kallsyms *ks;

	/* Events left from an earlier arm are not this recording's. */
	if (ftg_instance_clear_buffer(s->inst) < 0)
		ftg_cmd_warn(s->ctx, "could not clear the instance buffer");
	ks = ftg_cmd_kallsyms(s->ctx);
	if (!ks)
		return FTG_CMD_ERROR;
	s->live = ftg_live_open_with_kallsyms(root, RECORD_INSTANCE, ks, 0);
	if (!s->live)
		return ftg_cmd_lib_error(s->ctx, "opening the ftguard trace instance");
	/* the events' formats go into the file: the writer takes them now */
	if (ftg_cmd_events_enable(s->ctx, &s->events, s->inst, s->live))
		return FTG_CMD_ERROR;
	s->writer = ftg_trace_writer_create(s->out_path, ftg_live_formats(s->live),
					    ftg_live_ncpus(s->live));
	if (!s->writer) {
		ftg_cmd_error(s->ctx, "%s", ftg_error_last());
		return FTG_CMD_ERROR;
	}
	return 0;
}

static int command_result(struct record_session *s, int status, int exec_err)
{
	const char *cmd = s->args->argv[0];

	if (exec_err) {
		ftg_cmd_error(s->ctx, "cannot run %s: %s", cmd, strerror(exec_err));
		return FTG_CMD_ERROR;
	}
	if (status < 0)
		return FTG_CMD_OK;	/* interrupted, or no command */
	if (WIFEXITED(status) && WEXITSTATUS(status) == 0)
		return FTG_CMD_OK;
	if (WIFEXITED(status))
		ftg_cmd_warn(s->ctx, "%s exited with status %d", cmd, WEXITSTATUS(status));
	else if (WIFSIGNALED(status))
		ftg_cmd_warn(s->ctx, "%s was killed by signal %d", cmd, WTERMSIG(status));
	return FTG_CMD_REFUSED;
}

static int record_exec(struct ftg_cmd_ctx *ctx, const struct ftg_cmd_args *args)
{
	struct record_session s = {
		.ctx = ctx, .args = args,
		.go_fd = -1, .exec_err_fd = -1,
	};
	struct ftg_saved_signals saved;
	int ret, status = -1, exec_err = 0, loop_err = 0;

	s.out_path = ftg_args_get(args, 'o') ? ftg_args_get(args, 'o') : "trace.dat";
	if (ftg_args_has(args, 'F') && !args->argc) {
		ftg_cmd_usage_error(ctx, args->entry, "-F follows the command: give one "
				    "after '--'");
		return FTG_CMD_ERROR;
	}
	if (ftg_args_has(args, 'c') && !ftg_args_has(args, 'F') && !ftg_args_has(args, 'P')) {
		ftg_cmd_usage_error(ctx, args->entry, "-c adds the children of -F's "
				    "command or of -P's processes: give -F or -P");
		return FTG_CMD_ERROR;
	}
	if (ftg_cmd_live_only(ctx, "arms the live system"))
		return FTG_CMD_ERROR;
	ret = ftg_cmd_check_globs(ctx, args);
	if (!ret)
		ret = parse_pids(&s);
	if (!ret)
		ret = ftg_cmd_events_parse(ctx, args, &s.events);
	if (ret || (ret = ftg_cmd_need(ctx, FTG_NEED_ROOT_USER | FTG_NEED_MODULE |
					    FTG_NEED_TRACEFS))) {
		ftg_cmd_events_release(&s.events);
		return ret;
	}
	s.inst = ftg_instance_open(ftg_cmd_root(ctx));
	if (!s.inst) {
		ftg_cmd_error(ctx, "no '%s' trace instance in %s: is ftguard.ko loaded?",
			      RECORD_INSTANCE, ftg_root_tracefs(ftg_cmd_root(ctx)));
		ftg_cmd_events_release(&s.events);
		return FTG_CMD_ERROR;
	}
	/* before anything is cleared, enabled or armed: a refused -f costs nothing */
	if (ftg_cmd_events_set_filters(ctx, &s.events, s.inst)) {
		ftg_instance_free(s.inst);
		ftg_cmd_events_release(&s.events);
		return FTG_CMD_ERROR;
	}
	s.progress = isatty(STDERR_FILENO) && ctx->verbosity >= 0 &&
		     !ftg_args_has(args, FTG_OPT_NO_PROGRESS);

	ret = record_prepare(&s);
	if (!ret)
		ret = record_open_output(&s);
	if (!ret && args->argc)
		ret = spawn_command(&s);
	if (!ret)
		ret = setup_instance(&s);
	ftg_cmd_catch_signals(&saved);
	if (!ret)
		ret = arm_selection(&s);
	if (ret) {
		abandon_command(&s);
		goto out;
	}

	if (s.child)
		exec_err = release_command(&s);
	else
		ftg_cmd_info(ctx, "recording; Ctrl-C stops");
	status = record_loop(&s, &loop_err);
	ret = finish_file(&s);
	if (!ret)
		ret = loop_err;
	if (s.child) {
		/* Interrupted while the command runs: it ends with us. */
		kill(s.child, SIGTERM);
		waitpid(s.child, &status, 0);
		s.child = 0;
	}
	if (!ret)
		ret = command_result(&s, status, exec_err);
out:
	ftg_session_close(s.sess);	/* disarms if anything is still armed */
	ftg_cmd_instance_restore(ctx, s.inst);
	ftg_cmd_restore_signals(&saved);
	ftg_trace_writer_free(s.writer);
	ftg_live_free(s.live);
	ftg_map_free(s.map);
	ftg_instance_free(s.inst);
	ftg_cmd_events_release(&s.events);
	return ret;
}

static const struct ftg_cmd_option record_options[] = {
	FTG_OPTIONS_TRACE_SETUP,
	{ .key = 'P', .long_name = "pid", .arg_name = "PID",
	  .help = "record only events of process PID (repeatable)", .repeatable = true },
	{ .key = 'F', .long_name = "follow",
	  .help = "record only events of COMMAND (its children too with -c)" },
	{ .key = 'c', .long_name = "children",
	  .help = "with -F or -P, record the children of those processes too" },
	{ .key = 'b', .long_name = "buffer-size", .arg_name = "KB",
	  .help = "per-CPU ring buffer size in KiB (restored at the end)" },
	{ .key = 'o', .long_name = "output", .arg_name = "FILE",
	  .help = "write FILE (default trace.dat)",
	  .complete = FTG_COMPLETE_FILE },
	FTG_OPTION_FORCE,
	{ .key = FTG_OPT_NO_PROGRESS, .long_name = "no-progress",
	  .help = "no live progress line on a terminal" },
	{ .key = FTG_OPT_NO_FILTER, .long_name = "no-filter",
	  .help = "record record's own events too (left out by default)" },
	FTG_OPTION_END
};

const struct ftg_cmd_entry ftg_cmd_record_entry = {
	.name = "record",
	.usage = "(-l GLOB | -m MODULE | -g GLOB | -e SYSTEM[:EVENT] [-f FILTER])... [-n GLOB]... "
		 "[-p TRACER] [-T] [--max-graph-depth N] [-P PID]... "
		 "[-F [-c]] [-b KB] "
		 "[-o FILE] [-- COMMAND [ARGS...]]",
	.summary = "Check, arm, run a command and record the events into trace.dat",
	.description =
		"Selects and checks sites as 'ftguard check' does and, if every one\n"
		"is consistent, arms them for as long as this command runs: the arm\n"
		"belongs to this process, so it ends with it whatever happens. Then\n"
		"runs COMMAND (or waits for Ctrl-C), streaming the 'ftguard' trace\n"
		"instance into FILE, which 'trace-cmd report' and 'ftguard report'\n"
		"read. On a terminal a progress line shows events, lost events and\n"
		"bytes.\n"
		"\n"
		"-p function_graph records each call's entry and return instead\n"
		"of entries alone: ftguard:graph_entry (function, depth) and\n"
		"ftguard:graph_exit (function, depth, call and return time), for the\n"
		"checked sites only, hooked through the kernel's fprobe (6.12) or a\n"
		"kretprobe on ftrace (6.1). FILE names them as ftrace's\n"
		"funcgraph_entry and funcgraph_exit, so 'trace-cmd report' and\n"
		"KernelShark print them as the kernel's function_graph (calls\n"
		"nested, with durations); 'ftguard report' prints them so too.\n"
		"A kernel that hooks returns neither way (arm64) refuses it.\n"
		"Other tracers are refused.\n"
		"\n"
		"-g FUNC records the call tree of FUNC, as trace-cmd record -p\n"
		"function_graph -g FUNC does: every function FUNC calls while it runs\n"
		"in a task, directly or through pointers, nested, each with its\n"
		"duration. Its callees are every function the kernel can trace, or\n"
		"those -l/-m select (-n leaves some out); each one is checked before\n"
		"the arm and verified while armed like any site, and the arm is\n"
		"made whatever max_arm says (the count is printed). A call outside\n"
		"the tree costs its callback and nothing is recorded for it. The\n"
		"first -g of every function offers the kernel's functions to\n"
		"ftguard.ko (as 'ftguard check --all' does); later ones let the\n"
		"module select them all itself, without reading the kernel's lists.\n"
		"--max-graph-depth N follows N levels below FUNC (1: its direct\n"
		"callees; 0, the default: all; trace-cmd counts FUNC itself, so\n"
		"its 2 is ftguard's 1).\n"
		"Every return and duration needs a kernel that hooks the callees'\n"
		"returns through one hook: fprobe (6.12) does. 6.1's kretprobes,\n"
		"one per function, do not scale to a tree: there only FUNC has its\n"
		"return, its callees are entries nested by depth without\n"
		"durations, and interrupts are left out. A kernel with no exit\n"
		"hook on ftrace refuses -g and says why.\n"
		"\n"
		"-T (--func-stack) follows each function entry with the kernel\n"
		"stack it was called from, as trace-cmd record --func-stack does:\n"
		"ftguard:stack, the callers from the traced function's caller on\n"
		"(at most 32). FILE names it ftrace:kernel_stack, so 'trace-cmd\n"
		"report' prints its '=>' lines; so does 'ftguard report'. With\n"
		"-p function_graph or -g (where trace-cmd has no stacks) each\n"
		"outermost call gets its stack, under its 'func() {' line: every\n"
		"call of a -g root, and with -l every call no traced call of its\n"
		"task encloses. The calls nested below it get none: their callers\n"
		"are that stack and the tree above them, and a stack with each of\n"
		"a tree's callees would cost more than the tree.\n"
		"\n"
		"At the end, on a signal or when COMMAND fails, record disarms,\n"
		"drains what is left, completes FILE and restores the pid filter and\n"
		"buffer size. FILE appears only once it is complete: an interrupted\n"
		"record leaves a whole, readable file of what was captured.\n"
		"\n"
		"-P and -F filter by process as in trace-cmd (the instance's\n"
		"set_event_pid): -F records COMMAND only; -c adds the children of\n"
		"COMMAND or of the -P processes (the event-fork option).\n"
		"Without them, record leaves its own process out as trace-cmd does\n"
		"(set_event_notrace_pid, restored at the end): a function on its\n"
		"read path (vfs_read) would otherwise trace record itself.\n"
		"--no-filter keeps its events. Events are read in bounded batches,\n"
		"so Ctrl-C ends a record promptly whatever the event rate.\n"
		"\n"
		"-e SYSTEM[:EVENT] enables kernel tracepoints (sched:sched_switch,\n"
		"irq, ...) in the 'ftguard' instance for the time of the record, as\n"
		"trace-cmd record -e does, and FILE carries their formats: both\n"
		"reports show them among the function records, in time order. A\n"
		"tracepoint patches no function site, so events need no check and\n"
		"none is made for them; with -e and no -l or -m, record arms\n"
		"nothing. -e all is refused (name a system); an unknown system or\n"
		"event is an error. The pid filters apply to them as to the\n"
		"functions.\n"
		"\n"
		"-f FILTER after an -e keeps only its events that match FILTER, the\n"
		"kernel's event-filter syntax ('prev_pid == 0 && next_comm ~\n"
		"\"kworker*\"'), as trace-cmd record -f: it is written to the event's\n"
		"filter file in the 'ftguard' instance (the system's for -e SYSTEM)\n"
		"before anything is enabled or armed, and cleared at the end. A\n"
		"filter the kernel refuses ends record with the kernel's message and\n"
		"a caret under the place, with nothing armed and no filter left.",
	.exit_status =
		"0 recorded; 1 refused (inconsistent sites, already armed), or\n"
		"COMMAND failed (the file is complete all the same); 2 usage or\n"
		"system error, a filter the kernel refused, or COMMAND could not\n"
		"be run.",
	.examples =
		"ftguard record -l fn_a -- sh -c 'echo 5 > /sys/kernel/debug/ftg_target/trigger'\n"
		"  Record the five calls of fn_a made by the trigger.\n"
		"\n"
		"ftguard record -p function_graph -l fn_outer -l fn_inner -- sh -c 'echo 9 > /sys/kernel/debug/ftg_target/graph'\n"
		"  Record the calls with their durations; 'ftguard report' nests them.\n"
		"\n"
		"ftguard record -g vfs_read -- dd if=/dev/zero of=/dev/null bs=1 count=3\n"
		"  Record everything vfs_read calls, nested with durations (6.12).\n"
		"\n"
		"ftguard record -T -l vfs_read -o s.dat -- dd if=/dev/zero of=/dev/null bs=1 count=3\n"
		"  Record each vfs_read call with the kernel stack it came from.\n"
		"\n"
		"ftguard record -p function_graph -g vfs_read -T -o g.dat -- dd if=/dev/zero of=/dev/null bs=1 count=3\n"
		"  Record vfs_read's call tree, each vfs_read call with its stack.\n"
		"\n"
		"ftguard record -e sched:sched_switch -l vfs_read -- dd if=/dev/zero of=/dev/null count=10\n"
		"  Record vfs_read and the context switches around it.\n"
		"\n"
		"ftguard record -e sched:sched_switch -f 'prev_pid == 0' -o idle.dat -- sleep 1\n"
		"  Record only the switches away from the idle task.\n"
		"\n"
		"ftguard record -m e1000e -o nic.dat\n"
		"  Record the e1000e driver until Ctrl-C.",
	.options = record_options,
	.min_args = 0,
	.max_args = -1,
	.operand_complete = FTG_COMPLETE_PROGRAM,
	.exec = record_exec,
};
