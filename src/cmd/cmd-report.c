// SPDX-License-Identifier: GPL-2.0
/*
 * `ftguard report`: the events of a trace.dat, one line each as trace-cmd
 * report prints them, or as JSON or CSV.
 */
#include <errno.h>
#include <fnmatch.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "cmd/ftguard-cmd.h"

#define REPORT_LINE_MAX 512
#define REPORT_MAX_FILTERS 16
#define REPORT_MAX_CPUS 4096

/*
 * A graph_entry waits for the next event: when that is its own return,
 * the call prints as one leaf line, "func();", as trace-cmd prints
 * function_graph.
 */
struct report_state {
	bool pending;
	struct ftg_event entry;
	bool full_ts;			/* -t */
};

/*
 * Prints @line, made for @ev; with @full_ts (-t) its timestamp to the
 * nanosecond instead of the microsecond.
 */
static int print_line(char *line, const struct ftg_event *ev, bool full_ts)
{
	char us[48], ns[48];
	uint64_t rounded = (ev->ts_ns + 500) / 1000;
	char *at;

	if (full_ts) {
		snprintf(us, sizeof(us), "] %" PRIu64 ".%06" PRIu64 ": ",
			 rounded / 1000000, rounded % 1000000);
		snprintf(ns, sizeof(ns), "] %" PRIu64 ".%09" PRIu64 ": ",
			 ev->ts_ns / 1000000000, ev->ts_ns % 1000000000);
		at = strstr(line, us);
		if (at && strlen(line) + strlen(ns) - strlen(us) < REPORT_LINE_MAX) {
			memmove(at + strlen(ns), at + strlen(us), strlen(at + strlen(us)) + 1);
			memcpy(at, ns, strlen(ns));
		}
	}
	ftg_print_safe(stdout, line);	/* comm and names come from the kernel */
	putchar('\n');
	return ferror(stdout) ? -1 : 0;
}

static int print_graph(const struct report_state *st, const struct ftg_event *entry,
		       const struct ftg_event *exit)
{
	char line[REPORT_LINE_MAX];

	ftg_graph_snprint(line, sizeof(line), entry, exit);
	return print_line(line, entry ? entry : exit, st->full_ts);
}

static int flush_entry(struct report_state *st)
{
	if (!st->pending)
		return 0;
	st->pending = false;
	return print_graph(st, &st->entry, NULL);
}

static bool returns_from(const struct ftg_event *exit, const struct ftg_event *entry)
{
	return ftg_event_is_graph_exit(exit) && exit->pid == entry->pid &&
	       exit->ip == entry->ip && exit->depth == entry->depth;
}

static int print_event_line(const struct ftg_event *ev, void *data)
{
	struct report_state *st = data;
	char line[REPORT_LINE_MAX];

	if (st->pending && returns_from(ev, &st->entry)) {
		st->pending = false;
		return print_graph(st, &st->entry, ev);
	}
	if (flush_entry(st))
		return -1;
	if (ftg_event_is_graph_entry(ev)) {
		st->entry = *ev;
		st->pending = true;
		return 0;
	}
	if (ftg_event_is_graph_exit(ev))
		return print_graph(st, NULL, ev);
	ftg_event_snprint(line, sizeof(line), ev);
	if (print_line(line, ev, st->full_ts))
		return -1;
	/* under the stack event's line, as trace-cmd report prints it */
	return ftg_cmd_print_stack(stdout, ev);
}

static void print_us(uint64_t ns)
{
	printf(" %10" PRIu64 ".%03" PRIu64, ns / 1000, ns % 1000);
}

static int print_stats(struct ftg_cmd_ctx *ctx, struct ftg_graph_stats *st,
		       const char *path)
{
	const struct ftg_graph_stat *f;
	size_t i;

	if (!ftg_graph_stats_count(st))
		ftg_cmd_info(ctx, "%s holds no function returns (record with -p function_graph)",
			     path);
	printf("%-40s %10s %14s %14s %14s\n", "function", "calls", "total us",
	       "mean us", "max us");
	for (i = 0; (f = ftg_graph_stats_get(st, i)); i++) {
		char name[FTG_SYM_LEN + 8];

		snprintf(name, sizeof(name), "%-40s", f->sym);
		ftg_print_safe(stdout, name);
		printf(" %10" PRIu64, f->calls);
		print_us(f->total_ns);
		print_us(f->total_ns / f->calls);
		print_us(f->max_ns);
		putchar('\n');
	}
	return ferror(stdout) ? -1 : 0;
}

/**
 * ftg_cmd_open_trace - open a trace.dat, saying where it is broken if it is
 * @ctx: the invocation
 * @path: the file
 *
 * Return: the open file, or NULL after a message naming file and offset.
 */
struct ftg_trace_file *ftg_cmd_open_trace(struct ftg_cmd_ctx *ctx, const char *path)
{
	struct ftg_trace_file *tf;

	tf = ftg_trace_file_open(path);
	if (!tf)
		ftg_cmd_error(ctx, "%s", ftg_error_last());
	return tf;
}

/* Runs every event of @tf through @cb; a failed iteration names the file. */
int ftg_cmd_iterate_trace(struct ftg_cmd_ctx *ctx, struct ftg_trace_file *tf,
			  const char *path, ftg_event_cb cb, void *data)
{
	int ret = ftg_trace_file_iterate(tf, cb, data);

	if (ret < 0) {
		ftg_cmd_error(ctx, "%s: %s", path, ftg_error_last());
		return FTG_CMD_ERROR;
	}
	if (ret > 0 || ferror(stdout)) {
		ftg_cmd_error(ctx, "writing the output: %s", strerror(errno));
		return FTG_CMD_ERROR;
	}
	return FTG_CMD_OK;
}

/*
 * Selection options (--cpu, -F) and -t, kept apart from the printing:
 * one -F is "EVENT" (an event name, or SYSTEM:EVENT) or "FIELD OP VALUE"
 * with FIELD func, parent, comm, event, pid or cpu, OP ==, != or ~ (a
 * glob, as the kernel's event filters use it), VALUE a word or a
 * "quoted string". An event is shown when it passes every -F.
 */
enum report_field { RF_EVENT, RF_FUNC, RF_PARENT, RF_COMM, RF_PID, RF_CPU };
enum report_op { RO_EQ, RO_NE, RO_GLOB };

struct report_filter {
	enum report_field field;
	enum report_op op;
	char value[128];
};

struct report_select {
	bool cpus_given;
	unsigned char *cpus;		/* REPORT_MAX_CPUS flags */
	struct report_filter filters[REPORT_MAX_FILTERS];
	int nfilters;
	bool full_ts;			/* -t */
	ftg_event_cb next;		/* what a selected event goes to */
	void *next_data;
};

static const char *const report_field_names[] = {
	[RF_EVENT] = "event", [RF_FUNC] = "func", [RF_PARENT] = "parent",
	[RF_COMM] = "comm", [RF_PID] = "pid", [RF_CPU] = "cpu",
};

static int report_parse_filter(struct ftg_cmd_ctx *ctx, const struct ftg_cmd_args *args,
			       const char *text, struct report_filter *f)
{
	char field[32], op[3];
	size_t i, len;
	int n = 0;

	if (sscanf(text, " %31[a-z_] %2[=!~] %n", field, op, &n) != 2 || !n) {
		/* no operator: an event name */
		if (!*text || strpbrk(text, " =!~\"")) {
			ftg_cmd_usage_error(ctx, args->entry, "-F '%s': want EVENT or FIELD "
					    "OP VALUE (FIELD func, parent, comm, event, pid, "
					    "cpu; OP ==, != or ~)", text);
			return FTG_CMD_ERROR;
		}
		f->field = RF_EVENT;
		f->op = RO_EQ;
		snprintf(f->value, sizeof(f->value), "%s", text);
		return 0;
	}
	for (i = 0; i < sizeof(report_field_names) / sizeof(report_field_names[0]); i++)
		if (!strcmp(field, report_field_names[i]))
			break;
	if (i == sizeof(report_field_names) / sizeof(report_field_names[0])) {
		ftg_cmd_usage_error(ctx, args->entry, "-F '%s': unknown field '%s' (func, "
				    "parent, comm, event, pid or cpu)", text, field);
		return FTG_CMD_ERROR;
	}
	f->field = (enum report_field)i;
	if (!strcmp(op, "=="))
		f->op = RO_EQ;
	else if (!strcmp(op, "!="))
		f->op = RO_NE;
	else if (!strcmp(op, "~"))
		f->op = RO_GLOB;
	else {
		ftg_cmd_usage_error(ctx, args->entry, "-F '%s': unknown operator '%s' "
				    "(==, != or ~)", text, op);
		return FTG_CMD_ERROR;
	}
	text += n;
	len = strlen(text);
	while (len && text[len - 1] == ' ')
		len--;
	if (len >= 2 && text[0] == '"' && text[len - 1] == '"') {
		text++;
		len -= 2;
	}
	if (!len || len >= sizeof(f->value) || memchr(text, '"', len)) {
		ftg_cmd_usage_error(ctx, args->entry, "-F: bad value after %s %s",
				    field, op);
		return FTG_CMD_ERROR;
	}
	snprintf(f->value, sizeof(f->value), "%.*s", (int)len, text);
	if ((f->field == RF_PID || f->field == RF_CPU) && f->op != RO_GLOB) {
		uint64_t num;

		if (ftg_parse_u64(f->value, &num) < 0) {
			ftg_cmd_usage_error(ctx, args->entry, "-F: %s wants a number, not '%s'",
					    report_field_names[f->field], f->value);
			return FTG_CMD_ERROR;
		}
	}
	return 0;
}

static int report_parse_cpus(struct ftg_cmd_ctx *ctx, const struct ftg_cmd_args *args,
			     struct report_select *sel)
{
	int i, n = ftg_args_count(args, FTG_OPT_CPU);

	if (!n)
		return 0;
	sel->cpus = calloc(REPORT_MAX_CPUS, 1);
	if (!sel->cpus)
		return ftg_cmd_lib_error(ctx, "--cpu");
	sel->cpus_given = true;
	for (i = 0; i < n; i++) {
		const char *arg = ftg_args_nth(args, FTG_OPT_CPU, i);
		char *copy = strdup(arg), *tok, *save = NULL;

		if (!copy)
			return ftg_cmd_lib_error(ctx, "--cpu");
		for (tok = strtok_r(copy, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
			uint64_t cpu;

			if (ftg_parse_u64(tok, &cpu) < 0 || cpu >= REPORT_MAX_CPUS) {
				ftg_cmd_usage_error(ctx, args->entry, "--cpu %s: not a CPU "
						    "number (or a list: 0,2)", arg);
				free(copy);
				return FTG_CMD_ERROR;
			}
			sel->cpus[cpu] = 1;
		}
		free(copy);
	}
	return 0;
}

/* Reads --cpu, -F and -t. Return: 0 or FTG_CMD_ERROR after a message. */
static int report_select_parse(struct ftg_cmd_ctx *ctx, const struct ftg_cmd_args *args,
			       struct report_select *sel)
{
	int i, n = ftg_args_count(args, 'F');

	sel->full_ts = ftg_args_has(args, 't');
	if (n > REPORT_MAX_FILTERS) {
		ftg_cmd_usage_error(ctx, args->entry, "at most %d -F", REPORT_MAX_FILTERS);
		return FTG_CMD_ERROR;
	}
	for (i = 0; i < n; i++)
		if (report_parse_filter(ctx, args, ftg_args_nth(args, 'F', i),
					&sel->filters[i]))
			return FTG_CMD_ERROR;
	sel->nfilters = n;
	return report_parse_cpus(ctx, args, sel);
}

/* The function name of "sym+0x10/0x40 [module]". */
static void bare_name(char *out, size_t len, const char *sym)
{
	snprintf(out, len, "%.*s", (int)strcspn(sym, "+ "), sym);
}

static bool filter_passes(const struct report_filter *f, const struct ftg_event *ev)
{
	char buf[FTG_SYM_LEN + FTG_EVENT_NAME_LEN + 2];
	bool eq;

	switch (f->field) {
	case RF_EVENT:
		if (strchr(f->value, ':'))
			snprintf(buf, sizeof(buf), "%s:%s", ev->system, ev->name);
		else
			snprintf(buf, sizeof(buf), "%s", ev->name);
		break;
	case RF_FUNC:
		bare_name(buf, sizeof(buf), ev->sym);
		break;
	case RF_PARENT:
		bare_name(buf, sizeof(buf), ev->parent_sym);
		break;
	case RF_COMM:
		snprintf(buf, sizeof(buf), "%s", ev->comm);
		break;
	case RF_PID:
		snprintf(buf, sizeof(buf), "%d", ev->pid);
		break;
	case RF_CPU:
		snprintf(buf, sizeof(buf), "%d", ev->cpu);
		break;
	}
	if (f->op == RO_GLOB)
		return fnmatch(f->value, buf, 0) == 0;
	if (f->field == RF_PID || f->field == RF_CPU)
		eq = strtoull(f->value, NULL, 0) == strtoull(buf, NULL, 10);
	else
		eq = !strcmp(f->value, buf);
	return f->op == RO_EQ ? eq : !eq;
}

static int select_cb(const struct ftg_event *ev, void *data)
{
	const struct report_select *sel = data;
	int i;

	if (sel->cpus_given &&
	    (ev->cpu < 0 || ev->cpu >= REPORT_MAX_CPUS || !sel->cpus[ev->cpu]))
		return 0;
	for (i = 0; i < sel->nfilters; i++)
		if (!filter_passes(&sel->filters[i], ev))
			return 0;
	return sel->next(ev, sel->next_data);
}

/*
 * A -F naming an event the file has no format for would select nothing
 * and say nothing: refuse it, as trace-cmd report does.
 */
static int report_check_events(struct ftg_cmd_ctx *ctx, struct ftg_trace_file *tf,
			       const char *path, const struct report_select *sel)
{
	const struct report_filter *f;
	int i;

	for (i = 0; i < sel->nfilters; i++) {
		f = &sel->filters[i];
		if (f->field != RF_EVENT || ftg_trace_file_has_event(tf, f->value))
			continue;
		ftg_cmd_error(ctx, "-F: %s has no event %s'%s' ('trace-cmd report "
			      "--events' lists them)", path,
			      f->op == RO_GLOB ? "matching " : "", f->value);
		return FTG_CMD_ERROR;
	}
	return 0;
}

static int report_exec(struct ftg_cmd_ctx *ctx, const struct ftg_cmd_args *args)
{
	const char *path = ftg_args_get(args, 'i');
	bool json = ftg_args_has(args, FTG_OPT_JSON);
	bool csv = ftg_args_has(args, FTG_OPT_CSV);
	bool stat = ftg_args_has(args, FTG_OPT_STAT);
	struct report_state st = { 0 };
	struct ftg_graph_stats *stats;
	struct ftg_trace_file *tf;
	struct ftg_exporter *ex = NULL;
	struct report_select sel = { 0 };
	int ret;

	if (json + csv + stat > 1) {
		ftg_cmd_usage_error(ctx, args->entry,
				    "--json, --csv and --stat exclude each other");
		return FTG_CMD_ERROR;
	}
	if (report_select_parse(ctx, args, &sel)) {
		free(sel.cpus);
		return FTG_CMD_ERROR;
	}
	if (!path)
		path = args->argc ? args->argv[0] : "trace.dat";
	tf = ftg_cmd_open_trace(ctx, path);
	if (!tf || report_check_events(ctx, tf, path, &sel)) {
		if (tf)
			ftg_trace_file_close(tf);
		free(sel.cpus);
		return FTG_CMD_ERROR;
	}
	if (stat) {
		stats = ftg_graph_stats_new();
		if (!stats) {
			ftg_trace_file_close(tf);
			free(sel.cpus);
			return ftg_cmd_lib_error(ctx, "counting the calls");
		}
		sel.next = ftg_graph_stats_cb;
		sel.next_data = stats;
		ret = ftg_cmd_iterate_trace(ctx, tf, path, select_cb, &sel);
		if (ret == FTG_CMD_OK && print_stats(ctx, stats, path))
			ret = ftg_cmd_lib_error(ctx, "writing the output");
		ftg_graph_stats_free(stats);
	} else if (json || csv) {
		ex = ftg_exporter_open(stdout, json ? FTG_EXPORT_JSON : FTG_EXPORT_CSV);
		if (!ex) {
			ftg_trace_file_close(tf);
			return ftg_cmd_lib_error(ctx, "starting the output");
		}
		sel.next = ftg_exporter_cb;
		sel.next_data = ex;
		ret = ftg_cmd_iterate_trace(ctx, tf, path, select_cb, &sel);
		if (ftg_exporter_close(ex) < 0 && ret == FTG_CMD_OK)
			ret = ftg_cmd_lib_error(ctx, "writing the output");
	} else {
		st.full_ts = sel.full_ts;
		sel.next = print_event_line;
		sel.next_data = &st;
		ret = ftg_cmd_iterate_trace(ctx, tf, path, select_cb, &sel);
		if (ret == FTG_CMD_OK && flush_entry(&st))
			ret = ftg_cmd_lib_error(ctx, "writing the output");
	}
	ftg_trace_file_close(tf);
	free(sel.cpus);
	return ret;
}

static const struct ftg_cmd_option report_options[] = {
	{ .key = 'i', .long_name = "input", .arg_name = "FILE",
	  .help = "read FILE (default trace.dat)",
	  .complete = FTG_COMPLETE_FILE },
	{ .key = FTG_OPT_CPU, .long_name = "cpu", .arg_name = "N[,N...]",
	  .help = "only events of these CPUs (repeatable)", .repeatable = true },
	{ .key = 'F', .long_name = "filter", .arg_name = "FILTER",
	  .help = "only events passing FILTER: EVENT, or FIELD OP VALUE (repeatable; "
		  "see DESCRIPTION)", .repeatable = true },
	{ .key = 't', .long_name = "nanoseconds",
	  .help = "print full timestamps, to the nanosecond" },
	FTG_OPTION_JSON,
	{ .key = FTG_OPT_CSV, .long_name = "csv",
	  .help = "print CSV with a header line" },
	{ .key = FTG_OPT_STAT, .long_name = "stat",
	  .help = "per function: calls, total, mean and max duration (function_graph)" },
	FTG_OPTION_END
};

const struct ftg_cmd_entry ftg_cmd_report_entry = {
	.name = "report",
	.usage = "[-i FILE] [--cpu N[,N...]]... [-F FILTER]... [-t] [--json | --csv | --stat] [FILE]",
	.summary = "Print the events of a trace.dat file",
	.description =
		"Reads a trace.dat written by 'ftguard record' (or by trace-cmd) and\n"
		"prints one line per event, in time order across CPUs, as\n"
		"'trace-cmd report' does: task and pid, CPU, timestamp, event name,\n"
		"and for function events 'function <- caller'.\n"
		"\n"
		"A record made with -T prints each entry's kernel stack as trace-cmd\n"
		"does: a 'kernel_stack: <stack trace >' line, then one line per\n"
		"caller, '=> function+0xoffset', innermost first.\n"
		"\n"
		"A record made with -p function_graph prints as trace-cmd prints\n"
		"the function_graph tracer: calls nest with '{' and '}', two spaces\n"
		"per depth, a call that returns before anything else happens is one\n"
		"line 'func();', and each return shows its duration in microseconds,\n"
		"marked + ! # * @ $ above 10 us, 100 us, 1 ms, 10 ms, 100 ms and 1 s.\n"
		"--stat prints instead, per function, the returns seen, their total,\n"
		"mean and longest duration, the largest total first.\n"
		"\n"
		"A damaged file is refused with the file name and the offset at\n"
		"which it stops making sense.\n"
		"\n"
		"--cpu keeps the events of the CPUs listed, and -t prints\n"
		"timestamps to the nanosecond, as trace-cmd report's --cpu and -t.\n"
		"-F takes a simple subset of trace-cmd's filters: EVENT (an event\n"
		"name, or SYSTEM:EVENT) keeps that event; FIELD OP VALUE compares\n"
		"FIELD, one of func (the function's name), parent (the caller's),\n"
		"comm, event, pid and cpu, with OP == or != (equal, not equal) or ~\n"
		"(a shell glob), to VALUE, a word or a \"quoted string\". An event\n"
		"is shown when it passes every -F. Other forms (&&, ||, other\n"
		"fields) are refused.",
	.exit_status = "0 the events were printed; 2 the file is unreadable or corrupt.",
	.examples =
		"ftguard report -i trace.dat | grep fn_a\n"
		"  The calls of fn_a, with their callers.\n"
		"\n"
		"ftguard report -F 'func == \"vfs_read\"' --cpu 1\n"
		"  The calls of vfs_read made on CPU 1.\n"
		"\n"
		"ftguard report --csv > events.csv\n"
		"  The events of ./trace.dat as CSV.\n"
		"\n"
		"ftguard report --stat graph.dat\n"
		"  Calls and durations per function of a function_graph record.",
	.options = report_options,
	.min_args = 0,
	.max_args = 1,
	.operand_complete = FTG_COMPLETE_FILE,
	.exec = report_exec,
};
