// SPDX-License-Identifier: GPL-2.0
/*
 * `ftguard export`: convert a trace.dat to Chrome trace-event JSON (for
 * Perfetto and chrome://tracing), a JSON array, or CSV.
 *
 * The output never replaces anything through a symlink: it is written to
 * a new file created with O_EXCL next to OUT and renamed over OUT at the
 * end (rename replaces a symlink, it does not follow it). An interrupted
 * export leaves OUT as it was.
 */
#include <errno.h>
#include <fcntl.h>
#include <libgen.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cmd/ftguard-cmd.h"

struct export_output {
	char *tmp_path;		/* NULL when writing to stdout */
	const char *path;
	FILE *f;
};

static const char *const export_formats[] = { "chrome", "json", "csv", NULL };

static int output_open(struct ftg_cmd_ctx *ctx, struct export_output *out, const char *path)
{
	int fd;

	memset(out, 0, sizeof(*out));
	out->path = path;
	if (strcmp(path, "-") == 0) {
		out->f = stdout;
		return 0;
	}
	if (asprintf(&out->tmp_path, "%s.XXXXXX", path) < 0) {
		out->tmp_path = NULL;
		ftg_cmd_error(ctx, "%s", strerror(errno));
		return FTG_CMD_ERROR;
	}
	/* mkstemp() opens with O_CREAT|O_EXCL: a planted symlink fails it. */
	fd = mkostemp(out->tmp_path, O_CLOEXEC);
	if (fd < 0) {
		ftg_cmd_error(ctx, "creating a file next to %s: %s", path, strerror(errno));
		free(out->tmp_path);
		out->tmp_path = NULL;
		return FTG_CMD_ERROR;
	}
	if (fchmod(fd, 0644) < 0 || !(out->f = fdopen(fd, "w"))) {
		ftg_cmd_error(ctx, "%s: %s", out->tmp_path, strerror(errno));
		close(fd);
		unlink(out->tmp_path);
		free(out->tmp_path);
		out->tmp_path = NULL;
		return FTG_CMD_ERROR;
	}
	return 0;
}

/* @ok: keep the output (rename into place), else remove it. */
static int output_close(struct ftg_cmd_ctx *ctx, struct export_output *out, bool ok)
{
	int ret = 0;

	if (!out->tmp_path)
		return fflush(stdout) == 0 || !ok ? 0 : FTG_CMD_ERROR;
	if (ok && (fflush(out->f) != 0 || fsync(fileno(out->f)) != 0)) {
		ftg_cmd_error(ctx, "writing %s: %s", out->path, strerror(errno));
		ok = false;
		ret = FTG_CMD_ERROR;
	}
	if (fclose(out->f) != 0 && ok) {
		ftg_cmd_error(ctx, "writing %s: %s", out->path, strerror(errno));
		ok = false;
		ret = FTG_CMD_ERROR;
	}
	if (ok && rename(out->tmp_path, out->path) < 0) {
		ftg_cmd_error(ctx, "renaming into %s: %s", out->path, strerror(errno));
		ret = FTG_CMD_ERROR;
		ok = false;
	}
	if (!ok)
		unlink(out->tmp_path);
	free(out->tmp_path);
	return ret;
}

struct export_state {
	struct ftg_exporter *ex;
	uint64_t events;
};

static int export_event(const struct ftg_event *ev, void *data)
{
	struct export_state *st = data;

	if (ftg_cmd_interrupted)
		return 1;
	st->events++;
	return ftg_exporter_add(st->ex, ev) < 0 ? -1 : 0;
}

static int export_exec(struct ftg_cmd_ctx *ctx, const struct ftg_cmd_args *args)
{
	const char *in = ftg_args_get(args, 'i');
	const char *out_path = ftg_args_get(args, 'o');
	const char *format = ftg_args_get(args, 'f');
	struct export_state st = { 0 };
	struct ftg_saved_signals saved;
	struct export_output out;
	struct ftg_trace_file *tf;
	int fmt, ret;

	if (!in || !out_path || !format) {
		ftg_cmd_usage_error(ctx, args->entry, "-i FILE, -f FORMAT and -o OUT are needed");
		return FTG_CMD_ERROR;
	}
	fmt = ftg_export_format_parse(format);
	if (fmt < 0) {
		ftg_cmd_usage_error(ctx, args->entry, "unknown format '%s' (chrome, json "
				    "or csv)", format);
		return FTG_CMD_ERROR;
	}
	tf = ftg_cmd_open_trace(ctx, in);
	if (!tf)
		return FTG_CMD_ERROR;
	if (output_open(ctx, &out, out_path)) {
		ftg_trace_file_close(tf);
		return FTG_CMD_ERROR;
	}
	st.ex = ftg_exporter_open(out.f, fmt);
	if (!st.ex) {
		ret = ftg_cmd_lib_error(ctx, "starting the export");
		output_close(ctx, &out, false);
		ftg_trace_file_close(tf);
		return ret;
	}
	ftg_cmd_catch_signals(&saved);
	ret = ftg_trace_file_iterate(tf, export_event, &st);
	ftg_cmd_restore_signals(&saved);
	if (ret < 0) {
		ftg_cmd_error(ctx, "%s: %s", in, ftg_error_last());
		ret = FTG_CMD_ERROR;
	} else if (ret > 0) {
		ftg_cmd_error(ctx, ftg_cmd_interrupted ? "interrupted: %s left as it was"
				   : "writing %s failed", out_path);
		ret = FTG_CMD_ERROR;
	}
	if (ftg_exporter_close(st.ex) < 0 && ret == 0)
		ret = ftg_cmd_lib_error(ctx, "writing the export");
	if (output_close(ctx, &out, ret == 0) && ret == 0)
		ret = FTG_CMD_ERROR;
	if (ret == 0)
		ftg_cmd_info(ctx, "%llu events written to %s",
			     (unsigned long long)st.events, out_path);
	ftg_trace_file_close(tf);
	return ret;
}

static const struct ftg_cmd_option export_options[] = {
	{ .key = 'i', .long_name = "input", .arg_name = "FILE",
	  .help = "the trace.dat to read",
	  .complete = FTG_COMPLETE_FILE },
	{ .key = 'f', .long_name = "format", .arg_name = "FORMAT",
	  .help = "chrome (trace-event JSON for Perfetto), json or csv",
	  .complete = FTG_COMPLETE_WORDS, .words = export_formats },
	{ .key = 'o', .long_name = "output", .arg_name = "OUT",
	  .help = "the file to write ('-' for standard output)",
	  .complete = FTG_COMPLETE_FILE },
	FTG_OPTION_END
};

const struct ftg_cmd_entry ftg_cmd_export_entry = {
	.name = "export",
	.usage = "-i FILE -f chrome|json|csv -o OUT",
	.summary = "Convert a trace.dat to Chrome trace JSON, JSON or CSV",
	.description =
		"Writes the events of FILE to OUT: 'chrome' is the trace-event\n"
		"format that Perfetto (ui.perfetto.dev) and chrome://tracing open,\n"
		"one instant event per function call (a complete slice with its\n"
		"duration per function_graph return), one track per thread under\n"
		"its process (the tgid, when the file records it); 'json' an array\n"
		"of event objects with every field (tgid null when the file does\n"
		"not record it), a stack event's callers as its 'stack' array; 'csv'\n"
		"one line per event after a header, the tgid (empty when unknown)\n"
		"and then the stack last: a stack event's callers, innermost first,\n"
		"joined by ';' in one field (empty for other events).\n"
		"\n"
		"OUT is replaced only once the export is complete, and a symlink at\n"
		"OUT is replaced, never followed.",
	.exit_status = "0 written; 2 unreadable input, unwritable output or interrupted.",
	.examples =
		"ftguard export -i trace.dat -f chrome -o trace.json\n"
		"  Open trace.json in ui.perfetto.dev.",
	.options = export_options,
	.min_args = 0,
	.max_args = 0,
	.exec = export_exec,
};
