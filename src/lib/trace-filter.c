// SPDX-License-Identifier: LGPL-2.1
/*
 * Which events of a trace.dat a reader is shown: trace-cmd report's -F
 * filters, compiled and matched by libtraceevent's filter engine, and a
 * CPU list (--cpu 0-3,6).
 *
 * libtraceevent takes "EVENTS:EXPR" (EVENTS regexes over SYSTEM/EVENT,
 * comma-separated) or "EVENTS" alone. Around it this file adds only what
 * a reader of ftguard's files needs and the engine does not say:
 *   - EXPR without EVENTS: applies to every event, as if ".*:EXPR";
 *   - SYSTEM:EVENT, as -e writes it, means SYSTEM/EVENT;
 *   - FIELD ~ "GLOB", the kernel filters' glob, becomes the engine's
 *     regex match (=~) of the same strings, anchored;
 *   - a field no selected event has is an error: the engine turns it
 *     into FALSE silently, and a typo would select nothing.
 * Errors show the filter with a caret under the place, as the engine's
 * own syntax errors do.
 */
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <signal.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include <trace-cmd/trace-cmd.h>
#include <traceevent/event-parse.h>

#include "ftguard-local.h"
#include "trace-local.h"

/* Linux's largest NR_CPUS on the architectures ftguard builds for. */
#define TRACE_FILTER_MAX_CPUS	8192

struct trace_filter {
	struct tep_event_filter **include;	/* an event passes one of them */
	size_t nr_include;
	struct tep_event_filter **exclude;	/* and none of these */
	size_t nr_exclude;
	unsigned char *cpus;			/* NULL: every CPU */
};

/* Characters of an expression, never of the EVENTS part before its ':'. */
#define EXPR_CHARS	"=!<>&|()\"'~"

static bool is_ident_start(char c)
{
	return isalpha((unsigned char)c) || c == '_';
}

static bool is_ident_char(char c)
{
	return isalnum((unsigned char)c) || c == '_';
}

/* The first ':' of @s outside a quoted string, or NULL. */
static const char *unquoted_colon(const char *s)
{
	char quote = 0;

	for (; *s; s++) {
		if (quote) {
			if (*s == '\\' && s[1])
				s++;
			else if (*s == quote)
				quote = 0;
		} else if (*s == '"' || *s == '\'') {
			quote = *s;
		} else if (*s == ':') {
			return s;
		}
	}
	return NULL;
}

/* Sets the error: "@what\n  @text\n  ^" with the caret under @col. */
static int filter_error(const char *text, size_t col, const char *what)
{
	size_t len = strlen(text);

	if (col > len)
		col = len;
	return ftgl_err(FTG_E_BAD_FILTER, EINVAL, "filter '%s': %s\n  %s\n  %*s^",
			text, what, text, (int)col, "");
}

/*
 * The engine's message for @ret, its caret (if it drew one) moved from
 * @expr's start to @expr_off in the user's @text.
 */
static int engine_error(struct tep_event_filter *flt, int ret, const char *text,
			size_t expr_off)
{
	char buf[TEP_FILTER_ERROR_BUFSZ], *caret_line, *msg, *caret;

	if (tep_filter_strerror(flt, ret, buf, sizeof(buf)) < 0)
		snprintf(buf, sizeof(buf), "libtraceevent error %d", ret);
	/* "EXPR\n    ^\nMESSAGE" for a parse error; a bare message else */
	caret_line = strchr(buf, '\n');
	msg = caret_line ? strchr(caret_line + 1, '\n') : NULL;
	caret = caret_line ? strchr(caret_line + 1, '^') : NULL;
	if (!msg || !caret || caret > msg)
		return filter_error(text, expr_off, buf);
	return filter_error(text, expr_off + (size_t)(caret - caret_line - 1), msg + 1);
}

/* Does an event @flt applies to have a field @name? COMM and CPU are
 * the engine's own, valid for every event. */
static bool any_event_has(struct tep_event_filter *flt, const char *name)
{
	int i;

	if (!strcmp(name, "COMM") || !strcmp(name, "CPU"))
		return true;
	for (i = 0; i < flt->filters; i++)
		if (tep_find_any_field(flt->event_filters[i].event, name))
			return true;
	return false;
}

/*
 * Every word of @expr outside quotes that is not a number names a field
 * (the grammar has no keywords): refuse the first that no event of @flt
 * has.
 */
static int check_fields(struct tep_event_filter *flt, const char *text,
			const char *expr)
{
	const char *p = expr, *start;
	char name[128], what[256];
	char quote = 0;

	while (*p) {
		if (quote) {
			if (*p == '\\' && p[1])
				p++;
			else if (*p == quote)
				quote = 0;
			p++;
			continue;
		}
		if (*p == '"' || *p == '\'') {
			quote = *p++;
			continue;
		}
		if (isdigit((unsigned char)*p)) {
			while (is_ident_char(*p))
				p++;
			continue;
		}
		if (!is_ident_start(*p)) {
			p++;
			continue;
		}
		start = p;
		while (is_ident_char(*p))
			p++;
		snprintf(name, sizeof(name), "%.*s", (int)(p - start), start);
		if (!any_event_has(flt, name)) {
			snprintf(what, sizeof(what), "unknown field '%s' (no event the filter "
				 "applies to has it; trace-cmd report --events lists them)", name);
			return filter_error(text, (size_t)(start - text), what);
		}
	}
	return 0;
}

/* Appends @c to @out (of @len) at *@n, keeping room for the NUL. */
static bool put(char *out, size_t len, size_t *n, char c)
{
	if (*n + 1 >= len)
		return false;
	out[(*n)++] = c;
	return true;
}

/*
 * @expr with each FIELD ~ "GLOB" made FIELD =~ "^REGEX$", into @out.
 * Return: 0, 1 when there was no '~', -1 after setting the error.
 */
static int globs_to_regex(const char *text, const char *expr, char *out, size_t len)
{
	const char *p = expr;
	bool found = false;
	char quote = 0;
	size_t n = 0;

	while (*p) {
		if (quote) {
			if (*p == '\\' && p[1] && !put(out, len, &n, *p++))
				goto too_long;
			if (*p == quote)
				quote = 0;
		} else if (*p == '"' || *p == '\'') {
			quote = *p;
		} else if (*p == '~' && (p == expr || (p[-1] != '=' && p[-1] != '!'))) {
			const char *g = p + 1;
			char q;

			while (*g == ' ' || *g == '\t')
				g++;
			if (*g != '"' && *g != '\'')
				return filter_error(text, (size_t)(g - text),
						    "'~' wants a \"quoted glob\"");
			q = *g++;
			if (!put(out, len, &n, '=') || !put(out, len, &n, '~') ||
			    !put(out, len, &n, ' ') || !put(out, len, &n, q) ||
			    !put(out, len, &n, '^'))
				goto too_long;
			for (; *g && *g != q; g++) {
				bool ok = true;

				if (*g == '*')
					ok = put(out, len, &n, '.') && put(out, len, &n, '*');
				else if (*g == '?')
					ok = put(out, len, &n, '.');
				else if (strchr(".^$+(){}|\\", *g))
					ok = put(out, len, &n, '\\') && put(out, len, &n, *g);
				else
					ok = put(out, len, &n, *g);
				if (!ok)
					goto too_long;
			}
			if (!*g)
				return filter_error(text, (size_t)(g - text),
						    "unterminated string");
			if (!put(out, len, &n, '$') || !put(out, len, &n, q))
				goto too_long;
			p = g + 1;
			found = true;
			continue;
		}
		if (!put(out, len, &n, *p++))
			goto too_long;
	}
	out[n] = '\0';
	return found ? 0 : 1;
too_long:
	return filter_error(text, 0, "too long");
}

/* "SYSTEM:EVENT" alone, as -e writes it: two names around one ':'. */
static bool is_system_event(const char *text, const char *colon)
{
	const char *p;

	if (colon == text || !colon[1])
		return false;
	for (p = text; *p; p++)
		if (p != colon && !is_ident_char(*p) && !strchr("*.?", *p))
			return false;
	return true;
}

/*
 * libtraceevent's filter parser is not hardened: 1.7.1 dereferences NULL
 * on an operator without its right operand ("ip ==", "a && b ||"). Those
 * are refused before it sees them (missing_operand()); anything else that
 * crashes it is caught here, by compiling in a child first.
 */
static int compiles_safely(struct tep_handle *tep, const char *full)
{
	struct tep_event_filter *flt;
	int status;
	pid_t pid;

	fflush(NULL);
	pid = fork();
	if (pid < 0)
		return 0;	/* no child: trust the parser */
	if (pid == 0) {
		signal(SIGSEGV, SIG_DFL);
		signal(SIGABRT, SIG_DFL);
		signal(SIGBUS, SIG_DFL);
		flt = tep_filter_alloc(tep);
		if (flt)
			tep_filter_add_filter_str(flt, full);
		_exit(0);
	}
	while (waitpid(pid, &status, 0) < 0)
		if (errno != EINTR)
			return 0;
	return WIFSIGNALED(status) ? -1 : 0;
}

/* Compiles @events:@expr (or @events alone) into a new filter. */
static struct tep_event_filter *compile(struct tep_handle *tep, const char *text,
					const char *events, const char *expr,
					size_t expr_off)
{
	struct tep_event_filter *flt = tep_filter_alloc(tep);
	char *full = NULL;
	int ret;

	if (!flt || asprintf(&full, "%s%s%s", events, expr ? ":" : "",
			     expr ? expr : "") < 0) {
		tep_filter_free(flt);
		ftgl_err(FTG_E_SYSTEM, ENOMEM, "out of memory");
		return NULL;
	}
	if (compiles_safely(tep, full)) {
		free(full);
		tep_filter_free(flt);
		filter_error(text, strlen(text), "libtraceevent's filter parser "
			     "crashed on it (is an operand missing?)");
		return NULL;
	}
	ret = tep_filter_add_filter_str(flt, full);
	free(full);
	if (ret < 0) {
		if (ret == TEP_ERRNO__EVENT_NOT_FOUND || ret == TEP_ERRNO__FILTER_NOT_FOUND)
			filter_error(text, 0, "no event of the file matches "
				     "(trace-cmd report --events lists them)");
		else
			engine_error(flt, ret, text, expr_off);
		tep_filter_free(flt);
		return NULL;
	}
	return flt;
}

/* An open string or an operator at the end: see compiles_safely(). */
static int missing_operand(const char *text, const char *expr)
{
	const char *p, *open = NULL;
	size_t len = strlen(expr);

	for (p = expr; *p; p++) {
		if (open && *p == '\\' && p[1])
			p++;
		else if (open && *p == *open)
			open = NULL;
		else if (!open && (*p == '"' || *p == '\''))
			open = p;
	}
	if (open)
		return filter_error(text, (size_t)(open - text), "unterminated string");

	while (len && isspace((unsigned char)expr[len - 1]))
		len--;
	if (!len || !strchr("=!<>&|~", expr[len - 1]))
		return 0;
	return filter_error(text, (size_t)(expr - text) + len,
			    "an operand is missing at the end");
}

static struct tep_event_filter *parse(struct tep_handle *tep, const char *text)
{
	const char *colon = unquoted_colon(text), *expr = NULL, *op;
	struct tep_event_filter *flt;
	char events[256], *regex;
	size_t expr_off = 0;
	int ret;

	if (!text[strspn(text, " \t")])
		return filter_error(text, 0, "empty"), NULL;
	op = strpbrk(text, EXPR_CHARS);
	if (colon && is_system_event(text, colon)) {
		snprintf(events, sizeof(events), "%.*s/%s", (int)(colon - text), text,
			 colon + 1);
	} else if (colon && (!op || op > colon)) {
		if ((size_t)(colon - text) >= sizeof(events))
			return filter_error(text, 0, "too long an event list"), NULL;
		snprintf(events, sizeof(events), "%.*s", (int)(colon - text), text);
		expr = colon + 1;
		expr_off = (size_t)(expr - text);
	} else if (op) {
		snprintf(events, sizeof(events), ".*");	/* every event */
		expr = text;
	} else {
		if (strlen(text) >= sizeof(events))
			return filter_error(text, 0, "too long an event list"), NULL;
		snprintf(events, sizeof(events), "%s", text);
	}
	if (expr && missing_operand(text, expr))
		return NULL;
	/* As written first, so that errors point into the user's text. */
	flt = compile(tep, text, events, expr, expr_off);
	if (!flt || !expr)
		return flt;
	regex = malloc(strlen(expr) * 3 + 16);
	if (!regex) {
		tep_filter_free(flt);
		ftgl_err(FTG_E_SYSTEM, ENOMEM, "out of memory");
		return NULL;
	}
	ret = globs_to_regex(text, expr, regex, strlen(expr) * 3 + 16);
	if (ret < 0 || check_fields(flt, text, expr)) {
		tep_filter_free(flt);
		flt = NULL;
	} else if (ret == 0) {
		tep_filter_free(flt);
		flt = compile(tep, text, events, regex, expr_off);
	}
	free(regex);
	return flt;
}

static struct trace_filter *filter_of(struct ftg_trace_file *tf)
{
	if (!tf->filter)
		tf->filter = calloc(1, sizeof(*tf->filter));
	if (!tf->filter)
		ftgl_err(FTG_E_SYSTEM, ENOMEM, "out of memory");
	return tf->filter;
}

int ftg_trace_file_add_filter(struct ftg_trace_file *tf, const char *filter,
			      bool exclude)
{
	struct tep_event_filter *flt, ***list, **grown;
	struct trace_filter *f;
	size_t *nr;

	ftg_error_clear();
	if (!tf || !filter)
		return ftgl_err(FTG_E_BAD_ARGUMENT, EINVAL, "no file or no filter");
	f = filter_of(tf);
	if (!f)
		return -1;
	flt = parse(tracecmd_get_tep(tf->handle), filter);
	if (!flt)
		return -1;
	list = exclude ? &f->exclude : &f->include;
	nr = exclude ? &f->nr_exclude : &f->nr_include;
	grown = realloc(*list, (*nr + 1) * sizeof(**list));
	if (!grown) {
		tep_filter_free(flt);
		return ftgl_err(FTG_E_SYSTEM, ENOMEM, "out of memory");
	}
	grown[(*nr)++] = flt;
	*list = grown;
	return 0;
}

/* A CPU number of @list at *@p: decimal digits only, below the limit. */
static int cpu_number(const char *list, const char **p, unsigned long *cpu)
{
	const char *start = *p;
	char *end;

	if (!isdigit((unsigned char)**p)) {
		if (!**p || **p == ',')
			return ftgl_err(FTG_E_BAD_ARGUMENT, EINVAL, "CPU list '%s': a "
					"number is missing at character %zu", list,
					(size_t)(start - list) + 1);
		return ftgl_err(FTG_E_BAD_ARGUMENT, EINVAL, "CPU list '%s': '%c' at "
				"character %zu is not a CPU number", list, **p,
				(size_t)(start - list) + 1);
	}
	errno = 0;
	*cpu = strtoul(start, &end, 10);
	if (errno || *cpu >= TRACE_FILTER_MAX_CPUS)
		return ftgl_err(FTG_E_BAD_ARGUMENT, EINVAL, "CPU list '%s': CPU %.*s "
				"is beyond the largest, %d", list, (int)(end - start), start,
				TRACE_FILTER_MAX_CPUS - 1);
	*p = end;
	return 0;
}

int ftg_trace_file_add_cpus(struct ftg_trace_file *tf, const char *list)
{
	unsigned char want[TRACE_FILTER_MAX_CPUS] = { 0 };
	unsigned long first, last, cpu;
	struct trace_filter *f;
	const char *p = list;

	ftg_error_clear();
	if (!tf || !list)
		return ftgl_err(FTG_E_BAD_ARGUMENT, EINVAL, "no file or no CPU list");
	/* the whole list is checked before any of it is taken */
	for (;;) {
		if (cpu_number(list, &p, &first))
			return -1;
		last = first;
		if (*p == '-') {
			p++;
			if (cpu_number(list, &p, &last))
				return -1;
			if (last < first)
				return ftgl_err(FTG_E_BAD_ARGUMENT, EINVAL, "CPU list '%s': "
						"range %lu-%lu runs backwards", list, first,
						last);
		}
		for (cpu = first; cpu <= last; cpu++)
			want[cpu] = 1;
		if (!*p)
			break;
		if (*p != ',')
			return ftgl_err(FTG_E_BAD_ARGUMENT, EINVAL, "CPU list '%s': '%c' at "
					"character %zu: want N, N-M, or a list of them "
					"(0-3,6)", list, *p, (size_t)(p - list) + 1);
		p++;
	}
	f = filter_of(tf);
	if (!f)
		return -1;
	if (!f->cpus)
		f->cpus = calloc(TRACE_FILTER_MAX_CPUS, 1);
	if (!f->cpus)
		return ftgl_err(FTG_E_SYSTEM, ENOMEM, "out of memory");
	for (cpu = 0; cpu < TRACE_FILTER_MAX_CPUS; cpu++)
		f->cpus[cpu] |= want[cpu];
	return 0;
}

static bool any_match(struct tep_event_filter **list, size_t n, struct tep_record *rec)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (tep_filter_match(list[i], rec) == TEP_ERRNO__FILTER_MATCH)
			return true;
	return false;
}

/* As trace-cmd report: one -F selecting the event is enough, and any
 * excluding one (-v) leaves it out. */
bool trace_filter_pass(const struct trace_filter *f, struct tep_record *rec, int cpu)
{
	if (!f)
		return true;
	if (f->cpus && (cpu < 0 || cpu >= TRACE_FILTER_MAX_CPUS || !f->cpus[cpu]))
		return false;
	if (f->nr_include && !any_match(f->include, f->nr_include, rec))
		return false;
	return !any_match(f->exclude, f->nr_exclude, rec);
}

void trace_filter_free(struct trace_filter *f)
{
	size_t i;

	if (!f)
		return;
	for (i = 0; i < f->nr_include; i++)
		tep_filter_free(f->include[i]);
	for (i = 0; i < f->nr_exclude; i++)
		tep_filter_free(f->exclude[i]);
	free(f->include);
	free(f->exclude);
	free(f->cpus);
	free(f);
}
