// SPDX-License-Identifier: LGPL-2.1
/*
 * Who else is on a function: the kernel's other ftrace users, each from
 * what the kernel itself publishes.
 *   tracefs enabled_functions  "vfs_read (2) R   \ttramp: T (CALLBACK)",
 *                              " ->CALLBACK", "\tops: O (CALLBACK)", and a
 *                              continuation "\tdirect-->TRAMPOLINE"
 *   tracefs kprobe_events      "p:GROUP/EVENT SYMBOL[+OFF]" (MOD:SYMBOL)
 *   debugfs kprobes/list       "ADDR  k  SYMBOL+0xOFF  [MOD] [FTRACE]"
 *   sysfs kernel/livepatch     PATCH/OBJECT/FUNCTION,SYMPOS/
 *   bpf() object info          the programs of a "bpf_trampoline_KEY"
 *                              (users-bpf.c), live only
 * A record's line names its callbacks only while one ops (or one with a
 * trampoline) is on it; the others are counted from its "(N)".
 */
#include <dirent.h>
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ftguard-local.h"

/* One record of enabled_functions: how many ftrace_ops it has. */
struct users_rec {
	const char *name;
	const char *module;
	int refcount;
};

struct ftg_users {
	struct ftgl_vec users;	/* struct ftg_site_user */
	struct ftgl_vec recs;	/* struct users_rec */
	struct ftgl_pool pool;
	/*
	 * The attached BPF programs, read at the first BPF trampoline, and
	 * only when the files read are the live kernel's: a snapshot's
	 * trampolines are not this kernel's programs.
	 */
	bool bpf_live;
	bool bpf_read;
	struct ftgl_bpf_prog *bpf;	/* NULL: not allowed to look */
	size_t bpf_count;
};

static const struct {
	const char *callback;
	enum ftg_user_kind kind;
	const char *who;
} known_callbacks[] = {
	{ "function_trace_call", FTG_USER_TRACER, "function tracer" },
	{ "function_stack_trace_call", FTG_USER_TRACER, "function tracer" },
	{ "ftrace_graph_func", FTG_USER_TRACER, "function_graph tracer" },
	{ "kprobe_ftrace_handler", FTG_USER_KPROBE, "kprobe" },
	{ "klp_ftrace_handler", FTG_USER_LIVEPATCH, "livepatch" },
	{ "perf_ftrace_function_call", FTG_USER_FTRACE_OPS, "perf" },
	{ "fprobe_handler", FTG_USER_FTRACE_OPS, "fprobe" },
	{ "fprobe_kprobe_handler", FTG_USER_FTRACE_OPS, "fprobe" },
};

static const char *const kind_names[] = {
	[FTG_USER_FTRACE_OPS] = "ftrace_ops",
	[FTG_USER_TRACER] = "tracer",
	[FTG_USER_KPROBE] = "kprobe",
	[FTG_USER_DIRECT] = "direct",
	[FTG_USER_BPF] = "bpf",
	[FTG_USER_LIVEPATCH] = "livepatch",
};

const char *ftg_user_kind_name(enum ftg_user_kind kind)
{
	if ((unsigned int)kind >= FTGL_ARRAY_SIZE(kind_names))
		return "?";
	return kind_names[kind];
}

static bool same_fn(const char *a_name, const char *a_mod, const char *b_name,
		    const char *b_mod)
{
	if (strcmp(a_name, b_name))
		return false;
	if (!a_mod || !b_mod)
		return !a_mod && !b_mod;
	return !strcmp(a_mod, b_mod);
}

static bool has_user(const struct ftg_users *u, const char *name,
		     const char *module, enum ftg_user_kind kind, const char *who)
{
	size_t i;

	for (i = 0; i < u->users.len; i++) {
		const struct ftg_site_user *x = ftgl_vec_at(&u->users, i);

		if (x->kind == kind && same_fn(x->name, x->module, name, module) &&
		    !strcmp(x->who, who))
			return true;
	}
	return false;
}

/* Adds a user unless the same one is there already; -1 on ENOMEM. */
static int add_user(struct ftg_users *u, const char *name, const char *module,
		    enum ftg_user_kind kind, const char *who)
{
	struct ftg_site_user *x;

	if (has_user(u, name, module, kind, who))
		return 0;
	x = ftgl_vec_push(&u->users);
	if (!x)
		return -1;
	x->name = ftgl_pool_strdup(&u->pool, name);
	x->module = module ? ftgl_pool_strdup(&u->pool, module) : NULL;
	x->kind = kind;
	x->who = ftgl_pool_strdup(&u->pool, who);
	return x->name && x->who && (!module || x->module) ? 0 : -1;
}

/* "sym+0x0/0x1c [mod]" -> "sym [mod]": what a user is called by. */
static void symbol_bare(char *dst, size_t size, const char *sym)
{
	const char *plus = strchr(sym, '+');
	const char *mod = strstr(sym, " [");

	if (!plus || (mod && plus > mod))
		plus = mod ? mod : sym + strlen(sym);
	snprintf(dst, size, "%.*s%s", (int)(plus - sym), sym, mod ? mod : "");
}

/* The callbacks a record line names: after "->", and in "tramp: T (F)". */
static int add_callbacks(struct ftg_users *u, const char *name,
			 const char *module, const char *rest)
{
	const char *p = rest;

	while ((p = strpbrk(p, "-(")) != NULL) {
		char sym[256], bare[256];
		const char *start, *end;
		size_t i;

		if (p[0] == '-' && p[1] == '>')
			start = p + 2;
		else if (p[0] == '(')
			start = p + 1;
		else {
			p++;
			continue;
		}
		end = start + strcspn(start, p[0] == '(' ? ")" : "\t");
		snprintf(sym, sizeof(sym), "%.*s", (int)(end - start), start);
		p = *end ? end + 1 : end;
		symbol_bare(bare, sizeof(bare), sym);
		if (!*bare || strstr(bare, " [ftguard]"))
			continue;	/* ftguard's own */
		if (!strcmp(bare, "call_direct_funcs"))
			continue;	/* a direct ops': its "direct-->" names it */
		if (!strcmp(bare, "arch_ftrace_ops_list_func") ||
		    !strcmp(bare, "ftrace_ops_list_func"))
			continue;	/* the list of several ops: nobody's */
		for (i = 0; i < FTGL_ARRAY_SIZE(known_callbacks); i++)
			if (!strcmp(bare, known_callbacks[i].callback))
				break;
		if (i < FTGL_ARRAY_SIZE(known_callbacks)) {
			if (add_user(u, name, module, known_callbacks[i].kind,
				     known_callbacks[i].who))
				return -1;
		} else if (add_user(u, name, module, FTG_USER_FTRACE_OPS, bare)) {
			return -1;
		}
	}
	return 0;
}

/*
 * A BPF trampoline's programs, each as "BPF NAME (id N)"; "BPF
 * trampoline" when none can be named (not allowed, or not live).
 */
static int add_bpf_users(struct ftg_users *u, const struct users_rec *r,
			 const char *tramp)
{
	bool named = false;
	size_t i;

	if (u->bpf_live && !u->bpf_read) {
		u->bpf_read = true;
		u->bpf = ftgl_bpf_progs_read(&u->bpf_count);
		if (!u->bpf && errno == ENOMEM)
			return -1;
	}
	for (i = 0; u->bpf && i < u->bpf_count; i++) {
		char who[64];

		if (!ftgl_bpf_prog_on(&u->bpf[i], tramp))
			continue;
		snprintf(who, sizeof(who), "BPF %s (id %" PRIu32 ")",
			 u->bpf[i].name, u->bpf[i].prog_id);
		if (add_user(u, r->name, r->module, FTG_USER_BPF, who))
			return -1;
		named = true;
	}
	if (!named)
		return add_user(u, r->name, r->module, FTG_USER_BPF, "BPF trampoline");
	return 0;
}

static int read_enabled(struct ftg_users *u, const char *tracefs_dir)
{
	struct users_rec *last = NULL;
	struct ftgl_lines lines;
	size_t len;
	char *buf = ftgl_read_file(tracefs_dir, "enabled_functions", &len);
	char *line;

	if (!buf)
		return -1;
	ftgl_lines_init(&lines, buf, len);
	while ((line = ftgl_lines_next(&lines)) != NULL) {
		char *paren, *mod, *close;
		struct users_rec *r;

		if (line[0] == '\t' || line[0] == ' ') {
			const char *d = strstr(line, "direct-->");
			char bare[256];

			if (!last || !d)
				continue;
			symbol_bare(bare, sizeof(bare), d + strlen("direct-->"));
			if (!strncmp(bare, "bpf_trampoline_", 15)) {
				if (add_bpf_users(u, last, bare))
					goto oom;
			} else {
				char who[300];

				snprintf(who, sizeof(who), "direct %s", bare);
				if (add_user(u, last->name, last->module,
					     FTG_USER_DIRECT, who))
					goto oom;
			}
			continue;
		}
		/* "NAME[ [MOD]] (N)REST" */
		last = NULL;
		paren = strstr(line, " (");
		if (!paren)
			continue;
		*paren = '\0';
		mod = strstr(line, " [");
		r = ftgl_vec_push(&u->recs);
		if (!r)
			goto oom;
		r->module = NULL;
		if (mod && (close = strchr(mod, ']')) != NULL) {
			*mod = '\0';
			*close = '\0';
			r->module = ftgl_pool_strdup(&u->pool, mod + 2);
		}
		r->name = ftgl_pool_strdup(&u->pool, line);
		r->refcount = atoi(paren + 2);
		if (!r->name || (mod && !r->module))
			goto oom;
		last = r;
		if (add_callbacks(u, r->name, r->module, strchr(paren + 2, ')') ?: ""))
			goto oom;
	}
	free(buf);
	return 0;
oom:
	free(buf);
	return ftgl_err(FTG_E_SYSTEM, ENOMEM, "out of memory reading enabled_functions");
}

/* "MOD:SYM+OFF" or "SYM" at offset 0: the function, else NULL. */
static bool split_probe_target(char *target, char **name, char **module)
{
	char *colon = strchr(target, ':');
	char *plus;

	*module = NULL;
	if (colon) {
		*colon = '\0';
		*module = target;
		target = colon + 1;
	}
	plus = strchr(target, '+');
	if (plus) {
		uint64_t off;

		*plus = '\0';
		if (ftgl_parse_u64(plus + 1, &off) || off)
			return false;	/* not the function's entry */
	}
	*name = target;
	return *target != '\0' && !strchr(target, '%');
}

/* The function a kprobe is on, and who it is said to be for. */
struct probe_user {
	char *name;
	char *module;		/* NULL: vmlinux */
	char who[300];
};

/* kprobe_events: "p:GROUP/EVENT [MOD:]SYMBOL", named by its event. */
static bool kprobe_event_line(const struct ftg_users *u, char *line,
			      struct probe_user *p)
{
	char *w[3];

	(void)u;
	if (ftgl_split(line, w, 2) < 2 || (w[0][0] != 'p' && w[0][0] != 'r') ||
	    w[0][1] != ':')
		return false;
	if (!split_probe_target(w[1], &p->name, &p->module))
		return false;
	snprintf(p->who, sizeof(p->who), "%s %s",
		 w[0][0] == 'r' ? "kretprobe" : "kprobe", w[0] + 2);
	return true;
}

/* kprobes/list: every kprobe, with [FTRACE] on those ftrace carries. */
static bool kprobe_list_line(const struct ftg_users *u, char *line,
			     struct probe_user *p)
{
	char *w[5], *plus;
	int n;

	if (!strstr(line, "[FTRACE]"))
		return false;
	n = ftgl_split(line, w, 5);
	if (n < 4)
		return false;
	plus = strchr(w[2], '+');
	if (plus)
		*plus = '\0';
	p->name = w[2];
	p->module = NULL;
	if (w[3][0] == '[' && w[3][strlen(w[3]) - 1] == ']') {
		w[3][strlen(w[3]) - 1] = '\0';
		if (strcmp(w[3] + 1, "FTRACE"))
			p->module = w[3] + 1;
	}
	/* named already by its event, or a kprobe of someone else's */
	if (ftg_users_find(u, p->name, p->module, FTG_USER_KPROBE))
		return false;
	snprintf(p->who, sizeof(p->who), "%s",
		 w[1][0] == 'r' ? "kretprobe" : "kprobe");
	return true;
}

/* The kprobes @dir/@file lists, one a line that @parse understands. */
static int read_kprobes(struct ftg_users *u, const char *dir, const char *file,
			bool (*parse)(const struct ftg_users *u, char *line,
				      struct probe_user *p))
{
	struct ftgl_lines lines;
	struct probe_user p;
	size_t len;
	char *buf = ftgl_read_file(dir, file, &len);
	char *line;

	if (!buf)
		return -1;
	ftgl_lines_init(&lines, buf, len);
	while ((line = ftgl_lines_next(&lines)) != NULL) {
		if (!parse(u, line, &p))
			continue;
		if (add_user(u, p.name, p.module, FTG_USER_KPROBE, p.who)) {
			free(buf);
			return ftgl_err(FTG_E_SYSTEM, ENOMEM,
					"out of memory reading %s", file);
		}
	}
	free(buf);
	return 0;
}

int ftgl_livepatch_walk(const char *sys_dir,
			const struct ftgl_livepatch_ops *ops, void *arg)
{
	char *top = ftgl_path(sys_dir, "kernel/livepatch");
	struct dirent *p, *o, *f;
	DIR *dp, *dop, *dfn;
	int ret = 0;

	if (!top)
		return -1;
	dp = opendir(top);
	if (!dp) {
		free(top);
		return 0;	/* no livepatch support, or none loaded */
	}
	while (!ret && (p = readdir(dp)) != NULL) {
		char path[4096];

		if (p->d_name[0] == '.')
			continue;
		snprintf(path, sizeof(path), "%s/%s", top, p->d_name);
		dop = opendir(path);
		if (!dop)
			continue;
		if (ops->patch)
			ret = ops->patch(path, p->d_name, arg);
		while (!ret && (o = readdir(dop)) != NULL) {
			char opath[4096 + 256];

			if (o->d_name[0] == '.')
				continue;
			snprintf(opath, sizeof(opath), "%s/%s", path, o->d_name);
			dfn = opendir(opath);
			if (!dfn)
				continue;	/* a file: enabled, transition... */
			while (!ret && (f = readdir(dfn)) != NULL) {
				if (f->d_name[0] == '.' || !strchr(f->d_name, ','))
					continue;
				ret = ops->function(p->d_name, o->d_name,
						    f->d_name, arg);
			}
			closedir(dfn);
		}
		closedir(dop);
	}
	closedir(dp);
	free(top);
	return ret;
}

static int add_livepatch_user(const char *patch, const char *object,
			      const char *function, void *arg)
{
	struct ftg_users *u = arg;
	char fn[256], who[300];

	snprintf(fn, sizeof(fn), "%s", function);
	fn[strcspn(fn, ",")] = '\0';	/* the SYMPOS */
	snprintf(who, sizeof(who), "livepatch %s", patch);
	if (add_user(u, fn, strcmp(object, "vmlinux") ? object : NULL,
		     FTG_USER_LIVEPATCH, who))
		return ftgl_err(FTG_E_SYSTEM, ENOMEM,
				"out of memory reading livepatches");
	return 0;
}

static int read_livepatch(struct ftg_users *u, const char *sys_dir)
{
	static const struct ftgl_livepatch_ops ops = {
		.function = add_livepatch_user,
	};

	return ftgl_livepatch_walk(sys_dir, &ops, u);
}

/*
 * A callback says only "kprobe" or "livepatch"; kprobe_events or the
 * livepatch's own directory say which: the bare word goes then.
 */
static void prune_generic(struct ftg_users *u)
{
	size_t i, j, kept = 0;

	for (i = 0; i < u->users.len; i++) {
		struct ftg_site_user *x = ftgl_vec_at(&u->users, i);
		bool generic = (x->kind == FTG_USER_KPROBE ||
				x->kind == FTG_USER_LIVEPATCH) &&
			       !strcmp(x->who, kind_names[x->kind]);
		bool named = false;

		for (j = 0; generic && j < u->users.len && !named; j++) {
			const struct ftg_site_user *y = ftgl_vec_at(&u->users, j);

			named = j != i && y->kind == x->kind &&
				strcmp(y->who, kind_names[y->kind]) &&
				same_fn(x->name, x->module, y->name, y->module);
		}
		if (generic && named)
			continue;
		if (kept != i)
			*(struct ftg_site_user *)ftgl_vec_at(&u->users, kept) = *x;
		kept++;
	}
	u->users.len = kept;
}

/*
 * The top-level tracer: current_tracer "function" or "function_graph",
 * on every function when set_ftrace_filter says "all functions enabled",
 * else on those it lists (instances' own tracers are not read).
 */
static int read_tracer(struct ftg_users *u, const char *tracefs_dir)
{
	struct ftgl_lines lines;
	char *cur, *buf, *line, *nl, who[64];
	size_t len, i, nrecs = u->recs.len;
	bool all;
	int ret = 0;

	cur = ftgl_read_file(tracefs_dir, "current_tracer", &len);
	if (!cur)
		return 0;
	nl = strchr(cur, '\n');
	if (nl)
		*nl = '\0';
	if (strcmp(cur, "function") && strcmp(cur, "function_graph")) {
		free(cur);
		return 0;
	}
	snprintf(who, sizeof(who), "%s tracer", cur);
	free(cur);
	buf = ftgl_read_file(tracefs_dir, "set_ftrace_filter", &len);
	if (!buf)
		return 0;
	all = strstr(buf, "all functions enabled") != NULL;
	ftgl_lines_init(&lines, buf, len);
	/* the functions it is on: every enabled record, or those listed */
	for (i = 0; i < nrecs && !ret; i++) {
		const struct users_rec *r = ftgl_vec_at(&u->recs, i);

		if (all && add_user(u, r->name, r->module, FTG_USER_TRACER, who))
			ret = -1;
	}
	while (!all && !ret && (line = ftgl_lines_next(&lines)) != NULL) {
		char *mod = strstr(line, " [");

		if (!*line || line[0] == '#')
			continue;
		if (mod) {
			*mod = '\0';
			mod += 2;
			mod[strcspn(mod, "]")] = '\0';
		}
		if (add_user(u, line, mod, FTG_USER_TRACER, who))
			ret = -1;
	}
	free(buf);
	return ret ? ftgl_err(FTG_E_SYSTEM, ENOMEM, "out of memory reading the tracer") : 0;
}

struct ftg_users *ftg_users_read(const struct ftg_root *root)
{
	const char *tracefs_dir = ftg_root_tracefs(root);
	struct ftg_users *u;

	ftg_error_clear();
	u = calloc(1, sizeof(*u));
	if (!u) {
		ftgl_err(FTG_E_SYSTEM, ENOMEM, "out of memory");
		return NULL;
	}
	ftgl_vec_init(&u->users, sizeof(struct ftg_site_user));
	ftgl_vec_init(&u->recs, sizeof(struct users_rec));
	u->bpf_live = !strcmp(tracefs_dir, "/sys/kernel/tracing") ||
		      !strcmp(tracefs_dir, "/sys/kernel/debug/tracing");
	if (read_enabled(u, tracefs_dir)) {
		ftg_users_free(u);
		return NULL;
	}
	/*
	 * What names the users beside the records: each optional (no
	 * kprobes, debugfs or livepatch in this kernel or snapshot), so a
	 * file that is not there is no failure, and leaves no message.
	 */
	if (read_kprobes(u, tracefs_dir, "kprobe_events",
			 kprobe_event_line) && errno == ENOMEM)
		goto fail;
	if (read_kprobes(u, ftg_root_debugfs(root), "kprobes/list",
			 kprobe_list_line) && errno == ENOMEM)
		goto fail;
	if (read_livepatch(u, ftg_root_sys(root)))
		goto fail;
	if (read_tracer(u, tracefs_dir))
		goto fail;
	prune_generic(u);
	ftg_error_clear();
	return u;
fail:
	ftg_users_free(u);
	return NULL;
}

void ftg_users_free(struct ftg_users *u)
{
	if (!u)
		return;
	ftgl_vec_release(&u->users);
	ftgl_vec_release(&u->recs);
	ftgl_pool_release(&u->pool);
	free(u->bpf);
	free(u);
}

size_t ftg_users_count(const struct ftg_users *u)
{
	return u->users.len;
}

const struct ftg_site_user *ftg_users_get(const struct ftg_users *u, size_t i)
{
	return i < u->users.len ? ftgl_vec_at(&u->users, i) : NULL;
}

const struct ftg_site_user *ftg_users_find(const struct ftg_users *u,
					   const char *name, const char *module,
					   int kind)
{
	size_t i;

	for (i = 0; i < u->users.len; i++) {
		const struct ftg_site_user *x = ftgl_vec_at(&u->users, i);

		if ((kind < 0 || (int)x->kind == kind) &&
		    same_fn(x->name, x->module, name, module))
			return x;
	}
	return NULL;
}

/* The ftrace_ops a kind stands for: every kprobe shares one, and so on. */
static size_t ops_named(const struct ftg_users *u, const char *name,
			const char *module)
{
	bool kind_seen[FTGL_ARRAY_SIZE(kind_names)] = { false };
	size_t i, n = 0;

	for (i = 0; i < u->users.len; i++) {
		const struct ftg_site_user *x = ftgl_vec_at(&u->users, i);

		if (!same_fn(x->name, x->module, name, module))
			continue;
		switch (x->kind) {
		case FTG_USER_KPROBE:
		case FTG_USER_LIVEPATCH:
		case FTG_USER_BPF:	/* one trampoline, one ops, for all */
			if (kind_seen[x->kind])
				break;
			kind_seen[x->kind] = true;
			n++;
			break;
		default:
			n++;
		}
	}
	return n;
}

size_t ftg_users_describe(const struct ftg_users *u, const char *name,
			  const char *module, unsigned int own_ops,
			  char *buf, size_t size)
{
	size_t i, n = 0, named, used = 0;
	int unnamed = 0;

	if (size)
		buf[0] = '\0';
	for (i = 0; i < u->recs.len; i++) {
		const struct users_rec *r = ftgl_vec_at(&u->recs, i);

		if (same_fn(r->name, r->module, name, module)) {
			unnamed = r->refcount - (int)own_ops;
			break;
		}
	}
	named = ops_named(u, name, module);
	unnamed -= (int)named;
	for (i = 0; i < u->users.len; i++) {
		const struct ftg_site_user *x = ftgl_vec_at(&u->users, i);

		if (!same_fn(x->name, x->module, name, module))
			continue;
		if (used < size)
			used += snprintf(buf + used, size - used, "%s%s",
					 n ? ", " : "", x->who);
		n++;
	}
	if (unnamed > 0) {
		if (used < size)
			snprintf(buf + used, size - used, "%s%d other ftrace user%s",
				 n ? ", " : "", unnamed, unnamed == 1 ? "" : "s");
		n += (size_t)unnamed;
	}
	return n;
}

int ftg_kernel_ftrace_state(const struct ftg_root *root)
{
	size_t len;
	char *buf;

	ftg_error_clear();
	/* killed: ftrace's files answer ENODEV to every open until reboot */
	buf = ftgl_read_file(ftg_root_tracefs(root), "available_filter_functions", &len);
	if (!buf && errno == ENODEV) {
		ftg_error_clear();
		return FTG_KFTRACE_KILLED;
	}
	free(buf);
	buf = ftgl_read_file(ftg_root_proc(root), "sys/kernel/ftrace_enabled", &len);
	ftg_error_clear();
	if (buf && buf[0] == '0') {
		free(buf);
		return FTG_KFTRACE_OFF;
	}
	free(buf);
	return FTG_KFTRACE_ON;
}
