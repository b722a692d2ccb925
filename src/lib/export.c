// SPDX-License-Identifier: LGPL-2.1
/*
 * Exports of decoded events: Chrome trace-event JSON (what Perfetto and
 * chrome://tracing load), a plain JSON array, and CSV (RFC 4180).
 *
 * Names come from the traced system (comm, symbols, event text), so
 * every string is escaped: JSON gets \uXXXX for control characters, for
 * every non-ASCII character and for bytes that are not valid UTF-8 (taken
 * as Latin-1), so it is plain ASCII; CSV gets control and non-ASCII bytes
 * as \ooo (ftg_escape()) and quotes any field holding a comma or quote,
 * doubling the quotes.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ftguard-local.h"
#include "trace-local.h"

/* A thread seen in the export, and the comm it was first seen with. */
struct chrome_thread {
	int pid;
	int tgid;
	char comm[FTG_COMM_LEN];
};

struct ftg_exporter {
	FILE *out;
	enum ftg_export_format fmt;
	uint64_t count;
	struct chrome_thread *threads;	/* Chrome: named at the close */
	size_t nr_threads, alloc_threads;
	bool failed;
};

int ftg_export_format_parse(const char *name)
{
	ftg_error_clear();
	if (name && !strcmp(name, "chrome"))
		return FTG_EXPORT_CHROME;
	if (name && !strcmp(name, "json"))
		return FTG_EXPORT_JSON;
	if (name && !strcmp(name, "csv"))
		return FTG_EXPORT_CSV;
	return ftgl_err(FTG_E_BAD_ARGUMENT, EINVAL,
			"unknown export format '%s' (chrome, json or csv)", name ? name : "");
}

/* Control and non-ASCII bytes in ftg_escape()'s visible \\ooo form (CSV
 * has no escapes of its own, and is often read on a terminal). */
static void csv_field(FILE *out, const char *raw)
{
	char small[256], *buf = small;
	size_t n = ftg_escape(small, sizeof(small), raw, FTG_ESCAPE_TEXT);
	const char *s;

	if (n >= sizeof(small)) {
		buf = malloc(n + 1);
		if (!buf) {
			fputs("?", out);
			return;
		}
		ftg_escape(buf, n + 1, raw, FTG_ESCAPE_TEXT);
	}
	s = buf;
	if (!s[strcspn(s, ",\"")]) {
		fputs(s, out);
	} else {
		fputc('"', out);
		for (; *s; s++) {
			if (*s == '"')
				fputc('"', out);
			fputc(*s, out);
		}
		fputc('"', out);
	}
	if (buf != small)
		free(buf);
}

struct ftg_exporter *ftg_exporter_open(FILE *out, enum ftg_export_format fmt)
{
	struct ftg_exporter *ex;

	ftg_error_clear();
	if (!out || (fmt != FTG_EXPORT_CHROME && fmt != FTG_EXPORT_JSON &&
		     fmt != FTG_EXPORT_CSV)) {
		ftgl_err(FTG_E_BAD_ARGUMENT, EINVAL, "export: %s", out ? "unknown format" :
			 "no output stream");
		return NULL;
	}
	ex = calloc(1, sizeof(*ex));
	if (!ex) {
		ftgl_err(FTG_E_SYSTEM, ENOMEM, "out of memory");
		return NULL;
	}
	ex->out = out;
	ex->fmt = fmt;
	if (fmt == FTG_EXPORT_CHROME)
		fputs("{\"displayTimeUnit\":\"ns\",\"traceEvents\":[", out);
	else if (fmt == FTG_EXPORT_JSON)
		fputc('[', out);
	else
		fputs("ts_ns,cpu,pid,comm,system,event,ip,parent_ip,symbol,caller,info,tgid,"
		      "stack\r\n", out);
	return ex;
}

/*
 * Chrome's pid is the process, its tid the thread: the tgid and the pid.
 * A trace that does not say a pid's tgid (trace-cmd records none) shows
 * each thread as a process of its own.
 */
static int chrome_pid(const struct ftg_event *ev)
{
	return ev->tgid > 0 ? ev->tgid : ev->pid;
}

/* Remembers @ev's thread for the process_name and thread_name events. */
static void chrome_note_thread(struct ftg_exporter *ex, const struct ftg_event *ev)
{
	struct chrome_thread *grown;
	size_t i;

	for (i = 0; i < ex->nr_threads; i++)
		if (ex->threads[i].pid == ev->pid &&
		    ex->threads[i].tgid == chrome_pid(ev))
			return;
	if (ex->nr_threads == ex->alloc_threads) {
		ex->alloc_threads = ex->alloc_threads ? 2 * ex->alloc_threads : 64;
		grown = realloc(ex->threads, ex->alloc_threads * sizeof(*grown));
		if (!grown) {
			ex->failed = true;
			return;
		}
		ex->threads = grown;
	}
	ex->threads[ex->nr_threads].pid = ev->pid;
	ex->threads[ex->nr_threads].tgid = chrome_pid(ev);
	snprintf(ex->threads[ex->nr_threads].comm, FTG_COMM_LEN, "%s", ev->comm);
	ex->nr_threads++;
}

static void chrome_metadata(struct ftg_exporter *ex, const char *what, int pid,
			    int tid, const char *name)
{
	fprintf(ex->out, "%s\n{\"name\":\"%s\",\"ph\":\"M\",\"pid\":%d,"
		"\"tid\":%d,\"args\":{\"name\":", ex->count ? "," : "", what,
		pid, tid);
	ftg_fputs_json(ex->out, name);
	fputs("}}", ex->out);
	ex->count++;
}

/*
 * Metadata order does not matter to Chrome's format, so the names are
 * written at the end, when every thread is known: a process is named
 * after its group leader (pid == tgid) when the leader was seen, else
 * after its first thread.
 */
static void chrome_name_threads(struct ftg_exporter *ex)
{
	const struct chrome_thread *t, *name;
	size_t i, j;

	for (i = 0; i < ex->nr_threads; i++) {
		t = &ex->threads[i];
		for (j = 0; j < i && ex->threads[j].tgid != t->tgid; j++)
			;
		if (j < i)
			continue;	/* process named already */
		name = t;
		for (j = i; j < ex->nr_threads; j++)
			if (ex->threads[j].tgid == t->tgid &&
			    ex->threads[j].pid == t->tgid)
				name = &ex->threads[j];
		chrome_metadata(ex, "process_name", t->tgid, t->tgid, name->comm);
	}
	for (i = 0; i < ex->nr_threads; i++)
		chrome_metadata(ex, "thread_name", ex->threads[i].tgid,
				ex->threads[i].pid, ex->threads[i].comm);
}

/*
 * A call recorded with its return (function_graph): one complete slice,
 * "ph":"X" from its entry for its duration, on its thread's track, where
 * Perfetto nests the slices of the calls it made. The entry itself adds
 * nothing the slice does not say.
 */
static void chrome_slice(struct ftg_exporter *ex, const struct ftg_event *ev)
{
	uint64_t dur = ev->rettime > ev->calltime ? ev->rettime - ev->calltime : 0;
	FILE *out = ex->out;

	chrome_note_thread(ex, ev);
	fprintf(out, "%s\n{\"name\":", ex->count ? "," : "");
	ftg_fputs_json(out, ev->sym[0] ? ev->sym : ev->name);
	fprintf(out, ",\"cat\":\"function_graph\",\"ph\":\"X\",\"ts\":%" PRIu64
		".%03u,\"dur\":%" PRIu64 ".%03u,\"pid\":%d,\"tid\":%d,"
		"\"args\":{\"cpu\":%d,\"depth\":%d}}", ev->calltime / 1000,
		(unsigned int)(ev->calltime % 1000), dur / 1000,
		(unsigned int)(dur % 1000), chrome_pid(ev), ev->pid, ev->cpu,
		ev->depth);
}

/*
 * A stack event's callers, innermost first, as a JSON array of their
 * names ("symbol+0xoff [module]"): ,"stack":[...]. Nothing for other
 * events, so their objects keep the keys they always had.
 */
static void json_stack(FILE *out, const struct ftg_event *ev)
{
	const char *line, *nl;
	char name[FTG_SYM_LEN + 32];
	bool first = true;

	if (!ftg_event_is_stack(ev))
		return;
	fputs(",\"stack\":[", out);
	for (line = ev->stack_text; *line; line = *nl ? nl + 1 : nl) {
		nl = strchrnul(line, '\n');
		snprintf(name, sizeof(name), "%.*s", (int)(nl - line), line);
		if (!first)
			fputc(',', out);
		ftg_fputs_json(out, name);
		first = false;
	}
	fputc(']', out);
}

/* An instant event per trace event, named by its function when it has one. */
static void chrome_event(struct ftg_exporter *ex, const struct ftg_event *ev)
{
	FILE *out = ex->out;

	if (ftg_event_is_graph_exit(ev)) {
		chrome_slice(ex, ev);
		return;
	}
	chrome_note_thread(ex, ev);
	fprintf(out, "%s\n{\"name\":", ex->count ? "," : "");
	ftg_fputs_json(out, ev->sym[0] ? ev->sym : ev->name);
	fputs(",\"cat\":", out);
	ftg_fputs_json(out, ev->name);
	fprintf(out, ",\"ph\":\"i\",\"s\":\"t\",\"ts\":%" PRIu64 ".%03u,"
		"\"pid\":%d,\"tid\":%d,\"args\":{\"cpu\":%d", ev->ts_ns / 1000,
		(unsigned int)(ev->ts_ns % 1000), chrome_pid(ev), ev->pid, ev->cpu);
	if (ev->parent_sym[0]) {
		fputs(",\"caller\":", out);
		ftg_fputs_json(out, ev->parent_sym);
	}
	if (ev->ip)
		fprintf(out, ",\"ip\":\"0x%" PRIx64 "\"", ev->ip);
	if (ev->parent_ip)
		fprintf(out, ",\"parent_ip\":\"0x%" PRIx64 "\"", ev->parent_ip);
	fputs(",\"info\":", out);
	ftg_fputs_json(out, ev->info);
	json_stack(out, ev);
	fputs("}}", out);
}

static void json_event(struct ftg_exporter *ex, const struct ftg_event *ev)
{
	FILE *out = ex->out;

	fprintf(out, "%s\n{\"ts_ns\":%" PRIu64 ",\"cpu\":%d,\"pid\":%d,",
		ex->count ? "," : "", ev->ts_ns, ev->cpu, ev->pid);
	/* null: the trace does not say (trace-cmd records no tgids) */
	if (ev->tgid > 0)
		fprintf(out, "\"tgid\":%d,", ev->tgid);
	else
		fputs("\"tgid\":null,", out);
	fputs("\"comm\":", out);
	ftg_fputs_json(out, ev->comm);
	fputs(",\"system\":", out);
	ftg_fputs_json(out, ev->system);
	fputs(",\"event\":", out);
	ftg_fputs_json(out, ev->name);
	fprintf(out, ",\"ip\":\"0x%" PRIx64 "\",\"parent_ip\":\"0x%" PRIx64
		"\",\"symbol\":", ev->ip, ev->parent_ip);
	ftg_fputs_json(out, ev->sym);
	fputs(",\"caller\":", out);
	ftg_fputs_json(out, ev->parent_sym);
	fputs(",\"info\":", out);
	ftg_fputs_json(out, ev->info);
	json_stack(out, ev);
	fputc('}', out);
}

/*
 * A stack event's callers as one field, innermost first, joined by ';'
 * as the folded stacks flame graph tools read (there root first): a
 * spreadsheet or awk -F, sees one column whatever the depth. Empty for
 * other events.
 */
static void csv_stack(FILE *out, const struct ftg_event *ev)
{
	char text[sizeof(ev->stack_text)], *c;
	size_t n;

	if (!ftg_event_is_stack(ev))
		return;
	snprintf(text, sizeof(text), "%s", ev->stack_text);
	n = strlen(text);
	if (n && text[n - 1] == '\n')
		text[--n] = '\0';
	for (c = text; (c = strchr(c, '\n')); c++)
		*c = ';';
	csv_field(out, text);
}

static void csv_event(struct ftg_exporter *ex, const struct ftg_event *ev)
{
	FILE *out = ex->out;

	fprintf(out, "%" PRIu64 ",%d,%d,", ev->ts_ns, ev->cpu, ev->pid);
	csv_field(out, ev->comm);
	fputc(',', out);
	csv_field(out, ev->system);
	fputc(',', out);
	csv_field(out, ev->name);
	fprintf(out, ",0x%" PRIx64 ",0x%" PRIx64 ",", ev->ip, ev->parent_ip);
	csv_field(out, ev->sym);
	fputc(',', out);
	csv_field(out, ev->parent_sym);
	fputc(',', out);
	csv_field(out, ev->info);
	/* last, so that the older columns keep their places; empty: unknown */
	if (ev->tgid > 0)
		fprintf(out, ",%d", ev->tgid);
	else
		fputc(',', out);
	fputc(',', out);
	csv_stack(out, ev);
	fputs("\r\n", out);
}

int ftg_exporter_add(struct ftg_exporter *ex, const struct ftg_event *ev)
{
	ftg_error_clear();
	if (ex->fmt == FTG_EXPORT_CHROME && ftg_event_is_graph_entry(ev))
		return 0;	/* its graph_exit makes the slice */
	if (ex->fmt == FTG_EXPORT_CHROME)
		chrome_event(ex, ev);
	else if (ex->fmt == FTG_EXPORT_JSON)
		json_event(ex, ev);
	else
		csv_event(ex, ev);
	ex->count++;
	if (ferror(ex->out) || ex->failed) {
		ex->failed = true;
		errno = errno ? errno : EIO;
		return ftgl_err(FTG_E_SYSTEM, errno, "writing the export: %s", strerror(errno));
	}
	return 0;
}

int ftg_exporter_cb(const struct ftg_event *ev, void *data)
{
	return ftg_exporter_add(data, ev);
}

int ftg_exporter_close(struct ftg_exporter *ex)
{
	int ret;

	ftg_error_clear();
	if (!ex)
		return 0;
	if (ex->fmt == FTG_EXPORT_CHROME) {
		chrome_name_threads(ex);
		fputs("\n]}\n", ex->out);
	}
	else if (ex->fmt == FTG_EXPORT_JSON)
		fputs("\n]\n", ex->out);
	ret = fflush(ex->out) || ferror(ex->out) || ex->failed ? -1 : 0;
	if (ret)
		ftgl_err(FTG_E_SYSTEM, errno ? errno : EIO, "writing the export: %s",
			 strerror(errno ? errno : EIO));
	free(ex->threads);
	free(ex);
	return ret;
}
