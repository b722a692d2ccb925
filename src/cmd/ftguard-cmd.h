/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The ftguard command: private interfaces shared by main.c, the registry and
 * the subcommands (cmd-*.c).
 *
 * Every subcommand is described by one struct ftg_cmd_entry. The registry
 * parses options for it (from the entry's option table), checks the number
 * of operands and calls ->exec with the parsed arguments. ->exec never exits
 * and never calls die(): it returns an exit status, one of enum
 * ftg_cmd_status. The same descriptors produce --help, the man pages
 * (checked against doc/ftguard-*.1), shell and bash completion.
 */
#ifndef _FTGUARD_CMD_H
#define _FTGUARD_CMD_H

#include <signal.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "ftguard.h"

enum ftg_cmd_status {
	FTG_CMD_OK = 0,		/* done; for check: consistent */
	FTG_CMD_REFUSED = 1,	/* inconsistent, refused, nothing matched */
	FTG_CMD_ERROR = 2,	/* usage or system error */
};

/* Keys of long-only options (short options use their letter). */
enum ftg_cmd_long_key {
	FTG_OPT_JSON = 256,
	FTG_OPT_CSV,
	FTG_OPT_STATE,
	FTG_OPT_AT,
	FTG_OPT_ROOT,
	FTG_OPT_HELP,
	FTG_OPT_NO_PROGRESS,
	FTG_OPT_FORCE,
	FTG_OPT_PERSISTENT,
	FTG_OPT_NO_FILTER,
	FTG_OPT_CPU,
	FTG_OPT_STAT,
	FTG_OPT_MAX_GRAPH_DEPTH,
	FTG_OPT_SHARED,
};

/* What an option's argument (or an operand) completes to. */
enum ftg_cmd_complete {
	FTG_COMPLETE_NONE,
	FTG_COMPLETE_FUNCTION,	/* available_filter_functions names */
	FTG_COMPLETE_MODULE,	/* /proc/modules names */
	FTG_COMPLETE_EVENT,	/* SYSTEM and SYSTEM:EVENT of tracefs events/ */
	FTG_COMPLETE_FILE,
	FTG_COMPLETE_DIR,
	FTG_COMPLETE_COMMAND,	/* a subcommand name */
	FTG_COMPLETE_WORDS,	/* the option's ->words list */
	FTG_COMPLETE_PROGRAM,	/* an executable (record -- COMMAND) */
};

struct ftg_cmd_option {
	int key;			/* letter, or enum ftg_cmd_long_key */
	const char *long_name;		/* without "--" */
	const char *arg_name;		/* NULL: a flag without argument */
	const char *help;		/* one sentence, no final newline */
	enum ftg_cmd_complete complete;
	const char *const *words;	/* for FTG_COMPLETE_WORDS */
	bool words_only;		/* the argument must be one of ->words */
	bool repeatable;		/* may be given more than once */
};

/* Common options, shared so they read the same everywhere. */
#define FTG_OPTION_JSON \
	{ .key = FTG_OPT_JSON, .long_name = "json", .arg_name = NULL, \
	  .help = "print machine-readable JSON instead of a table" }
#define FTG_OPTION_FUNCTIONS \
	{ .key = 'l', .long_name = "function", .arg_name = "GLOB", \
	  .help = "select functions matching GLOB, MODULE:GLOB or GLOB:mod:MODULE (trace-cmd's " \
		 "form; :mod:MODULE for all of it), or the one at NAME@ADDR (repeatable)", \
	  .complete = FTG_COMPLETE_FUNCTION, .repeatable = true }
#define FTG_OPTION_NOTRACE \
	{ .key = 'n', .long_name = "notrace", .arg_name = "GLOB", \
	  .help = "leave out functions matching GLOB (repeatable)", \
	  .complete = FTG_COMPLETE_FUNCTION, .repeatable = true }
#define FTG_OPTION_MODULE \
	{ .key = 'm', .long_name = "module", .arg_name = "MODULE", \
	  .help = "select every site of MODULE (repeatable)", \
	  .complete = FTG_COMPLETE_MODULE, .repeatable = true }
/* -p: what an arm records, trace-cmd's tracer names (cmd-start.c) */
extern const char *const ftg_cmd_tracers[];
#define FTG_OPTION_TRACER \
	{ .key = 'p', .long_name = "plugin", .arg_name = "TRACER", \
	  .help = "function (entries, the default) or function_graph " \
		  "(entries and returns, with durations)", \
	  .complete = FTG_COMPLETE_WORDS, .words = ftg_cmd_tracers, \
	  .words_only = true }
#define FTG_OPTION_FUNC_STACK \
	{ .key = 'T', .long_name = "func-stack", \
	  .help = "record the kernel stack of each function entry (with " \
		  "-p function_graph or -g: of each outermost call)" }
/* -g and --max-graph-depth: a call tree (cmd-select.c) */
#define FTG_OPTIONS_CALL_TREE \
	{ .key = 'g', .long_name = "graph-function", .arg_name = "GLOB", \
	  .help = "trace, with returns, what a function matching GLOB calls while it " \
		  "runs, as function_graph -g does (repeatable; implies -p " \
		  "function_graph; -l/-m then limit the callees, else every function)", \
	  .complete = FTG_COMPLETE_FUNCTION, .repeatable = true }, \
	{ .key = FTG_OPT_MAX_GRAPH_DEPTH, .long_name = "max-graph-depth", \
	  .arg_name = "N", \
	  .help = "follow a -g call tree only N levels below its function (0: all)" }
#define FTG_OPTION_END { 0 }

struct ftg_cmd_ctx;
struct ftg_cmd_args;

struct ftg_cmd_entry {
	const char *name;
	const char *usage;		/* after "ftguard NAME " */
	const char *summary;		/* one line, for the command list */
	const char *description;	/* paragraphs separated by blank lines */
	const struct ftg_cmd_option *options;
	int min_args;
	int max_args;			/* -1: no limit */
	enum ftg_cmd_complete operand_complete;
	const char *exit_status;	/* man page EXIT STATUS text, or NULL */
	const char *examples;		/* "command\n  what it does\n..." */
	bool hidden;			/* not listed, no man page */
	int (*exec)(struct ftg_cmd_ctx *ctx, const struct ftg_cmd_args *args);
};

/* Global state of one ftguard invocation (or of one shell session). */
struct ftg_cmd_ctx {
	const char *root;	/* snapshot root (--root), NULL: live system */
	struct ftg_root *froot;	/* opened from root on first use */
	struct ftg_kallsyms *kallsyms;	/* read once per subcommand */
	int verbosity;		/* -1 quiet (-q), 0 normal, >0 verbose (-v) */
	bool in_shell;		/* running inside `ftguard shell` */
	const char *cmd_name;	/* subcommand running, for messages */
	const char *argv0;	/* how ftguard was invoked (for ftguard-tui) */
};

/* Parsed command line of one subcommand. */
struct ftg_cmd_args {
	const struct ftg_cmd_entry *entry;
	int nopts;
	struct ftg_cmd_arg_value {
		int key;
		const char *value;	/* NULL for flags */
	} *opts;
	int argc;			/* operands after the options */
	char **argv;
};

/* cmd-registry.c */
extern const struct ftg_cmd_entry *const ftg_cmd_table[];
extern const struct ftg_cmd_option ftg_global_options[];
const struct ftg_cmd_entry *ftg_cmd_find(const char *name, bool *ambiguous);
int ftg_cmd_run(struct ftg_cmd_ctx *ctx, int argc, char **argv);
void ftg_cmd_print_usage(FILE *f, const struct ftg_cmd_entry *entry);
void ftg_cmd_print_help(FILE *f, const struct ftg_cmd_entry *entry);
void ftg_cmd_print_list(FILE *f);
void ftg_cmd_print_options(FILE *f, const struct ftg_cmd_option *opts);
const struct ftg_cmd_option *ftg_cmd_option_find(const struct ftg_cmd_entry *e, int key);

/* cmd-args.c */
bool ftg_args_has(const struct ftg_cmd_args *args, int key);
const char *ftg_args_get(const struct ftg_cmd_args *args, int key);
int ftg_args_count(const struct ftg_cmd_args *args, int key);
const char *ftg_args_nth(const struct ftg_cmd_args *args, int key, int n);
int ftg_args_parse(struct ftg_cmd_args *args, const struct ftg_cmd_entry *entry,
		   int argc, char **argv, const char *prog);
void ftg_args_release(struct ftg_cmd_args *args);

/* cmd-util.c: messages. All go to stderr, prefixed "ftguard CMD: ". */
void ftg_cmd_error(const struct ftg_cmd_ctx *ctx, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
void ftg_cmd_error_lines(const struct ftg_cmd_ctx *ctx, const char *prefix,
			 const char *text);
void ftg_cmd_warn(const struct ftg_cmd_ctx *ctx, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
void ftg_cmd_info(const struct ftg_cmd_ctx *ctx, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
void ftg_cmd_usage_error(const struct ftg_cmd_ctx *ctx, const struct ftg_cmd_entry *e,
			 const char *fmt, ...) __attribute__((format(printf, 3, 4)));

/* cmd-util.c: what a subcommand needs from the system; 0 or FTG_CMD_ERROR. */
/* The live debugfs (ftg_root_debugfs() of the live root): named in the
 * explanation for an unprivileged user, who may not open the root at all. */
#define FTG_CMD_LIVE_DEBUGFS	"/sys/kernel/debug"
enum ftg_cmd_need {
	FTG_NEED_ROOT_USER = 1 << 0,	/* euid 0 (live system only) */
	FTG_NEED_DEBUGFS = 1 << 1,
	FTG_NEED_MODULE = 1 << 2,	/* ftguard.ko tables in debugfs */
	FTG_NEED_TRACEFS = 1 << 3,
};
int ftg_cmd_need(struct ftg_cmd_ctx *ctx, unsigned int needs);
struct ftg_root *ftg_cmd_root(struct ftg_cmd_ctx *ctx);
void ftg_cmd_ctx_release(struct ftg_cmd_ctx *ctx);
char *ftg_cmd_path(const char *dir, const char *rel);
int ftg_cmd_lib_error(const struct ftg_cmd_ctx *ctx, const char *what);
const struct ftg_kallsyms *ftg_cmd_kallsyms(struct ftg_cmd_ctx *ctx);
void ftg_cmd_forget_kallsyms(struct ftg_cmd_ctx *ctx);
/* FTG_CMD_OK, or FTG_CMD_ERROR after "CMD @does: --root is not allowed"
 * when a snapshot was given to a subcommand that works on the live system. */
int ftg_cmd_live_only(struct ftg_cmd_ctx *ctx, const char *does);
/* Opens the live control file, runs @send, closes it (stop, reset). */
int ftg_cmd_control_send(struct ftg_cmd_ctx *ctx,
			 int (*send)(struct ftg_cmd_ctx *ctx, struct ftg_control *ctl,
				     void *data),
			 void *data, const char *doing);

/* cmd-util.c: SIGINT, SIGTERM, SIGHUP set ftg_cmd_interrupted (no
 * SA_RESTART, so a blocking read or poll returns EINTR). */
extern volatile sig_atomic_t ftg_cmd_interrupted;
struct ftg_saved_signals {
	struct sigaction old[3];
};
void ftg_cmd_catch_signals(struct ftg_saved_signals *saved);
void ftg_cmd_restore_signals(const struct ftg_saved_signals *saved);

/* cmd-report.c: trace files, with errors naming file and offset. */
struct ftg_trace_file *ftg_cmd_open_trace(struct ftg_cmd_ctx *ctx, const char *path);
int ftg_cmd_iterate_trace(struct ftg_cmd_ctx *ctx, struct ftg_trace_file *tf,
			  const char *path, ftg_event_cb cb, void *data);

/* cmd-events.c: -e SYSTEM[:EVENT], tracepoints beside the functions. */
#define FTG_OPTION_FORCE \
	{ .key = FTG_OPT_FORCE, .long_name = "force", \
	  .help = "arm more sites than the module's max_arm" }
#define FTG_OPTION_EVENTS \
	{ .key = 'e', .long_name = "event", .arg_name = "SYSTEM[:EVENT]", \
	  .help = "also record kernel event(s) SYSTEM[:EVENT] (repeatable; no site is " \
		  "patched, so nothing is checked)", .repeatable = true, \
	  .complete = FTG_COMPLETE_EVENT }
#define FTG_OPTION_EVENT_FILTER \
	{ .key = 'f', .long_name = "filter", .arg_name = "FILTER", \
	  .help = "after -e: keep only its events matching FILTER, the kernel's " \
		  "event-filter syntax (one per -e)", .repeatable = true }
/* What record, start and stream trace: the options they share, in order. */
#define FTG_OPTIONS_TRACE_SETUP \
	FTG_OPTION_FUNCTIONS, \
	FTG_OPTION_TRACER, \
	FTG_OPTIONS_CALL_TREE, \
	FTG_OPTION_FUNC_STACK, \
	FTG_OPTION_NOTRACE, \
	FTG_OPTION_MODULE, \
	FTG_OPTION_EVENTS, \
	FTG_OPTION_EVENT_FILTER

struct ftg_cmd_event {
	char *system;
	char *event;			/* NULL: every event of the system */
	const char *filter;		/* -f after it, or NULL */
	bool filter_set;		/* already written through the instance */
};
struct ftg_cmd_events {
	struct ftg_cmd_event *ev;
	int n;
};
int ftg_cmd_events_parse(struct ftg_cmd_ctx *ctx, const struct ftg_cmd_args *args,
			 struct ftg_cmd_events *out);
int ftg_cmd_events_enable(struct ftg_cmd_ctx *ctx, struct ftg_cmd_events *evs,
			  struct ftg_instance *inst, struct ftg_live *live);
int ftg_cmd_events_set_filters(struct ftg_cmd_ctx *ctx, struct ftg_cmd_events *evs,
			       struct ftg_instance *inst);
void ftg_cmd_instance_restore(struct ftg_cmd_ctx *ctx, struct ftg_instance *inst);
void ftg_cmd_events_release(struct ftg_cmd_events *evs);
bool ftg_cmd_events_only(const struct ftg_cmd_args *args,
			 const struct ftg_cmd_events *evs);
int ftg_cmd_events_off(struct ftg_cmd_ctx *ctx);
bool ftg_cmd_event_system_allowed(const char *system);
/* cmd-util.c: the start of a subcommand that arms -l/-m/-n and enables -e on the live
 * system: ftg_cmd_live_only(), the globs, the events parsed into @events
 * (released again on failure), root, the module and tracefs. */
int ftg_cmd_live_args(struct ftg_cmd_ctx *ctx, const struct ftg_cmd_args *args,
		      struct ftg_cmd_events *events, const char *does);

/* cmd-util.c: output of kernel-supplied text, escaped by ftg_escape():
 * free text keeps its spaces, a name becomes one word. */
void ftg_print_safe(FILE *f, const char *s);
/* -v's listing of a keyed view: a blank line, "@title:", "  name value". */
void ftg_cmd_print_keys(const char *title, const struct ftg_keys *keys);
/* A stack event's "=> caller" lines (none for other events); 0 or -1. */
int ftg_cmd_print_stack(FILE *f, const struct ftg_event *ev);
void ftg_print_name(FILE *f, const char *s);
void ftg_print_name_width(FILE *f, const char *s, int width);
int ftg_addr_digits(uint64_t max_addr);
int ftg_parse_u64(const char *s, uint64_t *val);
int ftg_parse_size_kb(const char *s, unsigned long *kb);
bool ftg_glob_valid(const char *glob, const char **why);

/* cmd-json.c: a small streaming JSON writer (objects, arrays, scalars). */
struct ftg_json;
struct ftg_json *ftg_json_new(FILE *f);
void ftg_json_free(struct ftg_json *j);	/* finishes the line */
void ftg_json_object_begin(struct ftg_json *j, const char *key);
void ftg_json_object_end(struct ftg_json *j);
void ftg_json_array_begin(struct ftg_json *j, const char *key);
void ftg_json_array_end(struct ftg_json *j);
void ftg_json_string(struct ftg_json *j, const char *key, const char *val);
void ftg_json_int(struct ftg_json *j, const char *key, long long val);
void ftg_json_uint(struct ftg_json *j, const char *key, unsigned long long val);
void ftg_json_hex(struct ftg_json *j, const char *key, unsigned long long val);
void ftg_json_bool(struct ftg_json *j, const char *key, bool val);
void ftg_json_null(struct ftg_json *j, const char *key);
void ftg_json_escape(FILE *f, const char *s);

/* cmd-select.c: the arm request of -l/-n/-m/-g/-p/-T/--force, the
 * session's words and check verdicts, for check, start, record, stream. */
int ftg_cmd_check_globs(const struct ftg_cmd_ctx *ctx, const struct ftg_cmd_args *args);
bool ftg_cmd_has_selection(const struct ftg_cmd_args *args, bool or_exclusions);
int ftg_cmd_arm_request(struct ftg_cmd_ctx *ctx, const struct ftg_cmd_args *args,
			unsigned int flags, bool required, struct ftg_arm_request **req);
int ftg_cmd_select(struct ftg_cmd_ctx *ctx, const struct ftg_cmd_args *args,
		   struct ftg_session *sess, bool required, size_t *nsites);
struct ftg_session *ftg_cmd_session_open(struct ftg_cmd_ctx *ctx);
void ftg_cmd_session_said(struct ftg_cmd_ctx *ctx, const struct ftg_session *sess);
int ftg_cmd_session_error(struct ftg_cmd_ctx *ctx, const struct ftg_session *sess);
int ftg_cmd_session_done(struct ftg_cmd_ctx *ctx, const struct ftg_session *sess, int ret);
void ftg_cmd_print_verdict(const struct ftg_cmd_ctx *ctx, const struct ftg_verdict *v,
			   bool json);
struct ftg_map *ftg_cmd_load_map(struct ftg_cmd_ctx *ctx);
/* cmd-status.c: a command that loads ftguard.ko here, naming only a
 * path that exists. */
const char *ftg_cmd_module_hint(char *buf, size_t len);
/* cmd-status.c: what clears a kill, as status and show say it. */
const char *ftg_cmd_kill_cure(const char *stuck);
/* cmd-start.c: select, check and arm (refusals printed), for start,
 * record and stream. */
int ftg_cmd_arm(struct ftg_cmd_ctx *ctx, const struct ftg_cmd_args *args,
		struct ftg_session *sess, const struct ftg_map *map,
		unsigned int flags, size_t *nsites);

/* cmd-complete.c */
char **ftg_complete_words(struct ftg_cmd_ctx *ctx, int argc, char **argv,
			  const char *word, bool in_shell, enum ftg_cmd_complete *fallback);
void ftg_complete_free(char **list);

/* cmd-shell.c */
int ftg_split_words(const char *line, int *argcp, char ***argvp, const char **why);
void ftg_free_words(int argc, char **argv);

#endif /* _FTGUARD_CMD_H */
