// SPDX-License-Identifier: GPL-2.0
/*
 * The control file: one session per open(), a selection per session, one
 * command per line. Commands run under ftg.lock; a write stops at its first
 * failing line and returns that line's error. The response to the last
 * command is readable from the same descriptor.
 *
 * Two transports share these file operations: debugfs ftguard/control and
 * the misc device /dev/ftguard. Kernel lockdown (integrity) makes debugfs
 * refuse every open for writing, but not a character device: /dev/ftguard
 * is how a locked-down kernel's ftguard checks, arms and disarms. Arming
 * goes through ftrace_ops, which integrity lockdown allows. What exists to
 * break things (the fault-injection commands) is refused under lockdown,
 * whichever transport carries it.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/ctype.h>
#include <linux/fs.h>
#include <linux/miscdevice.h>
#include <linux/security.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <linux/uaccess.h>

#include "ftg.h"
#include "ftg_trace.h"

struct ftg_cmd {
	const char *name;
	int (*exec)(struct ftg_session *sess, int argc, char **argv,
		    char *why, size_t len);
	bool fault_injection;		/* only in FTG_FAULT_INJECTION builds */
};

static int ftg_parse_ip(const char *tok, unsigned long *ip, char *why,
			size_t len)
{
	if (kstrtoul(tok, 0, ip) || !*ip) {
		snprintf(why, len, "bad address '%.40s'", tok);
		return -EINVAL;
	}
	return 0;
}

static int ftg_need_args(int argc, int min, int max, const char *usage,
			 char *why, size_t len)
{
	if (argc - 1 < min || argc - 1 > max) {
		snprintf(why, len, "usage: %s", usage);
		return -EINVAL;
	}
	return 0;
}

/* ---- selection ---------------------------------------------------------- */

/* Where @ip is in @sess's sorted selection, or would go (*@found false). */
static unsigned int ftg_sel_pos(const struct ftg_session *sess,
				unsigned long ip, bool *found)
{
	unsigned int lo = 0, hi = sess->nsel;

	*found = false;
	while (lo < hi) {
		unsigned int mid = lo + (hi - lo) / 2;

		if (sess->sel[mid] == ip) {
			*found = true;
			return mid;
		}
		if (sess->sel[mid] < ip)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

static bool ftg_sel_has(const struct ftg_session *sess, unsigned long ip)
{
	bool found;

	ftg_sel_pos(sess, ip, &found);
	return found;
}

static int ftg_sel_add(struct ftg_session *sess, unsigned long ip)
{
	bool found;
	unsigned int lo = ftg_sel_pos(sess, ip, &found);

	if (found)
		return 0;
	if (sess->nsel == sess->cap) {
		unsigned int cap = max(sess->cap * 2, 64U);
		unsigned long *sel = kvmalloc_array(cap, sizeof(*sel),
						    GFP_KERNEL);

		if (!sel)
			return -ENOMEM;
		ftg_obj_add(FTG_OBJ_SELECTION, sel);
		if (sess->nsel)
			memcpy(sel, sess->sel, sess->nsel * sizeof(*sel));
		ftg_obj_del(FTG_OBJ_SELECTION, sess->sel);
		kvfree(sess->sel);
		sess->sel = sel;
		sess->cap = cap;
	}
	memmove(&sess->sel[lo + 1], &sess->sel[lo],
		(sess->nsel - lo) * sizeof(*sess->sel));
	sess->sel[lo] = ip;
	sess->nsel++;
	return 0;
}

/* A dropped site leaves every selection, so no address is ever re-used. */
void ftg_sessions_forget(unsigned long ip)
{
	struct ftg_session *sess;
	unsigned int i;
	bool found;

	lockdep_assert_held(&ftg.lock);
	list_for_each_entry(sess, &ftg.sessions, node) {
		i = ftg_sel_pos(sess, ip, &found);
		if (found) {
			memmove(&sess->sel[i], &sess->sel[i + 1],
				(sess->nsel - i - 1) * sizeof(*sess->sel));
			sess->nsel--;
		}
		for (i = 0; i < sess->nroots; i++) {
			if (sess->roots[i] != ip)
				continue;
			sess->roots[i] = sess->roots[--sess->nroots];
			break;
		}
	}
}

/* ---- commands ----------------------------------------------------------- */

static int ftg_cmd_admit(struct ftg_session *sess, int argc, char **argv,
			 char *why, size_t len)
{
	unsigned long ip;
	int ret;

	ret = ftg_need_args(argc, 2, 2, "admit <name> <addr>", why, len);
	if (!ret)
		ret = ftg_parse_ip(argv[2], &ip, why, len);
	if (!ret)
		ret = ftg_admit(argv[1], ip, why, len);
	return ret;
}

/*
 * How many core-kernel ftrace records there are is known only from
 * available_filter_functions, whose read costs as much as a check of every
 * site. The core kernel's records do not change after boot, so userspace
 * counts them once, after offering them all, and leaves the number here:
 * a later "check everything" that finds as many vmlinux sites knows that
 * nothing is left to offer. A hint for userspace, never for a check.
 */
static int ftg_cmd_vmlinux_records(struct ftg_session *sess, int argc,
				   char **argv, char *why, size_t len)
{
	unsigned int n;
	int ret;

	ret = ftg_need_args(argc, 1, 1, "vmlinux-records <count>", why, len);
	if (ret)
		return ret;
	if (kstrtouint(argv[1], 10, &n) || !n) {
		snprintf(why, len, "bad count '%.40s'", argv[1]);
		return -EINVAL;
	}
	ftg.vmlinux_records = n;
	return 0;
}

static int ftg_cmd_select(struct ftg_session *sess, int argc, char **argv,
			  char *why, size_t len)
{
	unsigned long ip;
	int i, ret;

	ret = ftg_need_args(argc, 1, FTGUARD_ARGS_MAX, "select <addr>...",
			    why, len);
	for (i = 1; !ret && i < argc; i++) {
		ret = ftg_parse_ip(argv[i], &ip, why, len);
		if (ret)
			break;
		if (!ftg_site_find(ip)) {
			snprintf(why, len, "0x%lx is not a known site", ip);
			return -ENOENT;
		}
		ret = ftg_sel_add(sess, ip);
	}
	if (!ret)
		snprintf(why, len, "%u selected", sess->nsel);
	return ret;
}

static int ftg_cmd_select_module(struct ftg_session *sess, int argc,
				 char **argv, char *why, size_t len)
{
	struct ftg_patch_site *s;
	unsigned int n = 0;
	int ret;

	ret = ftg_need_args(argc, 1, 1, "select-module <module>", why, len);
	if (ret)
		return ret;
	for (s = ftg_site_first(); s && !ret; s = ftg_site_next(s)) {
		if (!s->owner || strcmp(s->owner->name, argv[1]))
			continue;
		ret = ftg_sel_add(sess, s->ip);
		n++;
	}
	if (!ret && !n) {
		snprintf(why, len, "no live site of module '%.60s'", argv[1]);
		return -ENOENT;
	}
	if (!ret)
		snprintf(why, len, "%u selected", sess->nsel);
	return ret;
}

/*
 * Every site but a planted one: what a selection of every function comes
 * to once every core-kernel record is a site (status vmlinux_records),
 * without one address a site crossing the control file.
 */
static int ftg_cmd_select_all(struct ftg_session *sess, int argc,
			      char **argv, char *why, size_t len)
{
	struct ftg_patch_site *s;
	int ret;

	ret = ftg_need_args(argc, 0, 0, "select-all", why, len);
	for (s = ftg_site_first(); s && !ret; s = ftg_site_next(s))
		if (!s->planted)
			ret = ftg_sel_add(sess, s->ip);
	if (ret)
		return ret;
	if (!sess->nsel) {
		snprintf(why, len, "no site");
		return -ENOENT;
	}
	snprintf(why, len, "%u selected", sess->nsel);
	return 0;
}

static int ftg_cmd_clear(struct ftg_session *sess, int argc, char **argv,
			 char *why, size_t len)
{
	int ret = ftg_need_args(argc, 0, 0, "clear", why, len);

	if (!ret) {
		sess->nsel = 0;
		sess->nroots = 0;
	}
	return ret;
}

/*
 * Adds roots of a call tree: an arm with graph then follows a call only
 * while one of them runs in the calling task (ftg_graph.c). Each root
 * must be selected, so the check before the arm covers it like the rest;
 * clear forgets them.
 */
static int ftg_cmd_graph_roots(struct ftg_session *sess, int argc,
			       char **argv, char *why, size_t len)
{
	unsigned long ip;
	unsigned int j;
	int i, ret;

	ret = ftg_need_args(argc, 1, FTGUARD_ARGS_MAX,
			    "graph-roots <addr>...", why, len);
	for (i = 1; !ret && i < argc; i++) {
		ret = ftg_parse_ip(argv[i], &ip, why, len);
		if (ret)
			break;
		if (!ftg_sel_has(sess, ip)) {
			snprintf(why, len, "0x%lx is not selected", ip);
			return -ENOENT;
		}
		for (j = 0; j < sess->nroots && sess->roots[j] != ip; j++)
			;
		if (j < sess->nroots)
			continue;
		if (sess->nroots == FTGUARD_GRAPH_ROOTS_MAX) {
			snprintf(why, len, "more than %d roots",
				 FTGUARD_GRAPH_ROOTS_MAX);
			return -E2BIG;
		}
		sess->roots[sess->nroots++] = ip;
	}
	if (!ret)
		snprintf(why, len, "%u roots", sess->nroots);
	return ret;
}

/* Takes over @text (kvmalloc'ed) as @sess's response. */
static void ftg_set_response(struct ftg_session *sess, char *text, size_t len)
{
	ftg_obj_del(FTG_OBJ_RESPONSE, sess->resp);
	kvfree(sess->resp);
	ftg_obj_add(FTG_OBJ_RESPONSE, text);
	sess->resp = text;
	sess->resp_len = len;
}

/*
 * The site table of the named owners, as ftguard/sites prints it: a
 * selection of module functions needs nothing else, where reading the
 * kernel's function lists would cost more than the whole record.
 */
static int ftg_cmd_sites(struct ftg_session *sess, int argc, char **argv,
			 char *why, size_t len)
{
	size_t text_len;
	char *text;
	int ret;

	ret = ftg_need_args(argc, 1, FTGUARD_ARGS_MAX, "sites <owner>...", why,
			    len);
	if (ret)
		return ret;
	ret = ftg_sites_render(argv + 1, argc - 1, &text, &text_len);
	if (ret)
		return ret;
	ftg_set_response(sess, text, text_len);
	return 1;	/* the response is set */
}

static int ftg_cmd_check(struct ftg_session *sess, int argc, char **argv,
			 char *why, size_t len)
{
	unsigned int n = 0, total = ftg_nsites();
	struct ftg_patch_site **sites, *s;
	char *report, *copy;
	size_t report_len;
	int ret;

	ret = ftg_need_args(argc, 0, 0, "check", why, len);
	if (!ret)
		ret = ftg_kernel_ftrace_off(why, len);
	if (ret)
		return ret;
	sites = kvmalloc_array(max(total, 1U), sizeof(*sites), GFP_KERNEL);
	if (!sites)
		return -ENOMEM;
	ftg_obj_add(FTG_OBJ_SCRATCH, sites);
	if (sess->nsel) {
		for (n = 0; n < sess->nsel; n++)
			sites[n] = ftg_site_find(sess->sel[n]);
	} else {
		for (s = ftg_site_first(); s; s = ftg_site_next(s))
			sites[n++] = s;
	}
	ret = ftg_check(sites, n, &report, &report_len);
	ftg_obj_del(FTG_OBJ_SCRATCH, sites);
	kvfree(sites);
	if (ret == -ENOMEM)
		snprintf(why, len, "out of memory: the check did not finish");
	if (ret < 0)
		return ret;
	copy = kvmalloc(report_len, GFP_KERNEL);
	if (copy) {
		memcpy(copy, report, report_len);
		ftg_set_response(sess, copy, report_len);
	}
	ftg_store_report(report, report_len);
	return copy ? 1 : -ENOMEM;	/* 1: the response is already set */
}

#define FTG_ARM_USAGE \
	"usage: arm [persistent] [force] [graph] [stack] [max-depth=<n>]"

static int ftg_cmd_arm(struct ftg_session *sess, int argc, char **argv,
		       char *why, size_t len)
{
	struct ftg_arm_req req = {};
	bool depth_set = false;
	int i;

	for (i = 1; i < argc; i++) {
		if (!strcmp(argv[i], FTGUARD_ARM_PERSISTENT)) {
			req.persistent = true;
		} else if (!strcmp(argv[i], FTGUARD_ARM_FORCE)) {
			req.force = true;
		} else if (!strcmp(argv[i], FTGUARD_ARM_GRAPH)) {
			req.graph = true;
		} else if (!strcmp(argv[i], FTGUARD_ARM_STACK)) {
			req.stack = true;
		} else if (str_has_prefix(argv[i], FTGUARD_ARM_MAX_DEPTH)) {
			const char *n = argv[i] + strlen(FTGUARD_ARM_MAX_DEPTH);

			if (kstrtouint(n, 10, &req.max_depth) ||
			    req.max_depth > FTGUARD_GRAPH_DEPTH_MAX) {
				snprintf(why, len,
					 "max-depth: '%.40s' is not a count from 0 (all) to %u",
					 argv[i], FTGUARD_GRAPH_DEPTH_MAX);
				return -EINVAL;
			}
			depth_set = true;
		} else {
			snprintf(why, len, FTG_ARM_USAGE);
			return -EINVAL;
		}
	}
	/* a depth counts levels below a root: it needs a call tree */
	if (depth_set && !sess->nroots) {
		snprintf(why, len, "max-depth needs graph-roots");
		return -EINVAL;
	}
	if (sess->nroots && !req.graph) {
		snprintf(why, len, "graph-roots need arm graph");
		return -EINVAL;
	}
	return ftg_arm(sess, &req, why, len);
}

static int ftg_cmd_disarm(struct ftg_session *sess, int argc, char **argv,
			  char *why, size_t len)
{
	int ret = ftg_need_args(argc, 0, 0, "disarm", why, len);

	if (!ret && ftg_disarm())
		ret = ftg_stuck_refusal(why, len);
	return ret;
}

static int ftg_cmd_reset(struct ftg_session *sess, int argc, char **argv,
			 char *why, size_t len)
{
	int ret = ftg_need_args(argc, 0, 0, "reset", why, len);

	if (ret)
		return ret;
	/* a stuck arm keeps its kill: nothing can be armed until reboot */
	if (ftg_disarm())
		return ftg_stuck_refusal(why, len);
	ftg.killed = false;
	ftg.kill_reason[0] = '\0';
	ftg.last_error[0] = '\0';
	/*
	 * 6.1 exports no way to clear an instance buffer from a module:
	 * the library truncates instances/ftguard/trace after this command.
	 */
	return 0;
}

static int ftg_cmd_verify(struct ftg_session *sess, int argc, char **argv,
			  char *why, size_t len)
{
	int ret = ftg_need_args(argc, 0, 0, "verify", why, len);

	return ret ?: ftg_verify(why, len);
}

#ifdef FTG_FAULT_INJECTION
/* Plants a site without proof, so checks can be shown to catch it. */
static int ftg_cmd_plant(struct ftg_session *sess, int argc, char **argv,
			 char *why, size_t len)
{
	bool stale = argc > 1 && !strcmp(argv[1], FTGUARD_PLANT_STALE);
	bool blind = argc > 1 && !strcmp(argv[1], FTGUARD_PLANT_BLIND);
	unsigned long ip;
	struct ftg_patch_site *s;
	int ret;

	if (stale || blind)
		ret = ftg_need_args(argc, 3, 3, stale ?
				    "plant stale <addr> <name>" :
				    "plant blind <addr> <name>", why, len);
	else if (argc > 1 && !strcmp(argv[1], FTGUARD_PLANT_FOREIGN))
		ret = ftg_need_args(argc, 2, 2, "plant foreign <addr>",
				    why, len);
	else
		ret = ftg_need_args(argc, -1, -1,
				    "plant stale|foreign|blind ...", why, len);
	if (!ret)
		ret = ftg_parse_ip(argv[2], &ip, why, len);
	if (ret)
		return ret;
	s = ftg_site_add(ip, 0, stale || blind ? argv[3] : "(foreign)", NULL,
			 false);
	if (!s) {
		snprintf(why, len, "0x%lx is already a site", ip);
		return -EEXIST;
	}
	s->planted = true;
	s->had_record = stale;
	s->blind = blind;
	s->state = FTG_PATCH_PLANTED;
	return 0;
}

static int ftg_cmd_unplant(struct ftg_session *sess, int argc, char **argv,
			   char *why, size_t len)
{
	struct ftg_patch_site *s, *next;
	int ret = ftg_need_args(argc, 0, 0, "unplant", why, len);

	if (ret)
		return ret;
	for (s = ftg_site_first(); s; s = next) {
		next = ftg_site_next(s);
		if (s->planted)
			ftg_site_drop(s, "unplant");
	}
	return 0;
}

static int ftg_cmd_corrupt(struct ftg_session *sess, int argc, char **argv,
			   char *why, size_t len)
{
	struct ftg_patch_site *s;
	unsigned long ip;
	unsigned int i;
	int ret;

	ret = ftg_need_args(argc, 1, 1, "corrupt <addr>", why, len);
	if (!ret)
		ret = ftg_parse_ip(argv[1], &ip, why, len);
	if (ret)
		return ret;
	s = ftg_site_find(ip);
	if (!s) {
		snprintf(why, len, "0x%lx is not a known site", ip);
		return -ENOENT;
	}
	for (i = 0; i < FTG_SITE_BYTES; i++)
		s->expect.nop[i] ^= 0xff;
	s->expect.call_op ^= 0xff;
	return 0;
}

/*
 * divert <addr> <target> [reads]: from now on a check judges the site at
 * @addr as if its bytes, once read, were a call to @target (0: as read),
 * for the next @reads reads only when given. Only the copy read is
 * changed, never the text: it stands for a call planted into a site, for
 * proving which calls are accepted and which are not; for a few reads,
 * for a copy torn by another tracer's patching, which a read after it
 * no longer shows.
 */
static int ftg_cmd_divert(struct ftg_session *sess, int argc, char **argv,
			  char *why, size_t len)
{
	struct ftg_patch_site *s;
	unsigned long ip, target;
	u8 probe[FTG_SITE_BYTES];
	unsigned int reads = 0;
	int ret;

	ret = ftg_need_args(argc, 2, 3, "divert <addr> <target> [reads]",
			    why, len);
	if (!ret)
		ret = ftg_parse_ip(argv[1], &ip, why, len);
	if (ret)
		return ret;
	if (kstrtoul(argv[2], 0, &target)) {
		snprintf(why, len, "bad address '%.40s'", argv[2]);
		return -EINVAL;
	}
	if (argc == 4 && (kstrtouint(argv[3], 0, &reads) || !reads)) {
		snprintf(why, len, "bad read count '%.40s'", argv[3]);
		return -EINVAL;
	}
	if (!ftg_arch_call_encode(ip, probe, FTG_ARCH_CALL_OP, target)) {
		snprintf(why, len, "divert is not built for this arch");
		return -EOPNOTSUPP;
	}
	s = ftg_site_find(ip);
	if (!s) {
		snprintf(why, len, "0x%lx is not a known site", ip);
		return -ENOENT;
	}
	s->divert = target;
	s->divert_reads = target ? reads : 0;
	return 0;
}

static int ftg_cmd_fail_ftrace(struct ftg_session *sess, int argc,
			       char **argv, char *why, size_t len)
{
	int ret = ftg_need_args(argc, 0, 0, "fail-ftrace", why, len);

	if (!ret)
		ftg.fi_fail_ftrace = true;
	return ret;
}

/*
 * fail-memory <n>|off: the next @n of ftguard's memory requests in check,
 * arm and verify pass and the one after fails (ftg_memory_fails());
 * ftrace's record lookup counts as one, answering -ENOMEM as ftrace does.
 * off: none fails.
 */
static int ftg_cmd_fail_memory(struct ftg_session *sess, int argc,
			       char **argv, char *why, size_t len)
{
	unsigned int skip;
	int ret = ftg_need_args(argc, 1, 1, "fail-memory <n>|off", why, len);

	if (ret)
		return ret;
	if (!strcmp(argv[1], "off")) {
		ftg.fi_memory_skip = -1;
		return 0;
	}
	if (kstrtouint(argv[1], 0, &skip) || skip > INT_MAX) {
		snprintf(why, len, "bad count '%.40s'", argv[1]);
		return -EINVAL;
	}
	ftg.fi_memory_skip = skip;
	return 0;
}
#else
#define ftg_cmd_fail_memory	NULL
#define ftg_cmd_fail_ftrace	NULL
#define ftg_cmd_plant	NULL
#define ftg_cmd_unplant	NULL
#define ftg_cmd_corrupt	NULL
#define ftg_cmd_divert	NULL
#endif

static const struct ftg_cmd ftg_cmds[] = {
	{ FTGUARD_CMD_ADMIT, ftg_cmd_admit },
	{ FTGUARD_CMD_VMLINUX_RECORDS, ftg_cmd_vmlinux_records },
	{ FTGUARD_CMD_SELECT, ftg_cmd_select },
	{ FTGUARD_CMD_SELECT_MODULE, ftg_cmd_select_module },
	{ FTGUARD_CMD_SELECT_ALL, ftg_cmd_select_all },
	{ FTGUARD_CMD_SITES, ftg_cmd_sites },
	{ FTGUARD_CMD_CLEAR, ftg_cmd_clear },
	{ FTGUARD_CMD_GRAPH_ROOTS, ftg_cmd_graph_roots },
	{ FTGUARD_CMD_CHECK, ftg_cmd_check },
	{ FTGUARD_CMD_ARM, ftg_cmd_arm },
	{ FTGUARD_CMD_DISARM, ftg_cmd_disarm },
	{ FTGUARD_CMD_RESET, ftg_cmd_reset },
	{ FTGUARD_CMD_VERIFY, ftg_cmd_verify },
	{ FTGUARD_CMD_PLANT, ftg_cmd_plant, true },
	{ FTGUARD_CMD_UNPLANT, ftg_cmd_unplant, true },
	{ FTGUARD_CMD_CORRUPT, ftg_cmd_corrupt, true },
	{ FTGUARD_CMD_DIVERT, ftg_cmd_divert, true },
	{ FTGUARD_CMD_FAIL_FTRACE, ftg_cmd_fail_ftrace, true },
	{ FTGUARD_CMD_FAIL_MEMORY, ftg_cmd_fail_memory, true },
};

static const char *ftg_errno_name(int err)
{
#define FTG_ERRNO_NAME(name)	{ name, #name },
	static const struct { int err; const char *name; } names[] = {
		FTGUARD_ERRNOS(FTG_ERRNO_NAME)
	};
#undef FTG_ERRNO_NAME
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(names); i++)
		if (names[i].err == -err)
			return names[i].name;
	return "EIO";
}

/* Keeps @why printable on one line: it may quote what the user wrote. */
static void ftg_sanitize(char *why)
{
	for (; *why; why++)
		if (!isprint(*why))
			*why = '?';
}

static int ftg_exec_line(struct ftg_session *sess, char *line, char *why,
			 size_t len)
{
	char *argv[FTGUARD_ARGS_MAX + 1];	/* the command and its arguments */
	int argc = 0;
	unsigned int i;
	char *tok;

	while ((tok = strsep(&line, " \t"))) {
		if (!*tok)
			continue;
		if (argc == ARRAY_SIZE(argv)) {
			snprintf(why, len, "more than %d arguments",
				 FTGUARD_ARGS_MAX);
			return -E2BIG;
		}
		argv[argc++] = tok;
	}
	if (!argc)
		return 0;
#define FTG_CMD_COUNT(id, word)	+ 1
	/* one entry per command of the protocol */
	BUILD_BUG_ON(ARRAY_SIZE(ftg_cmds) != 0 FTGUARD_COMMANDS(FTG_CMD_COUNT));
#undef FTG_CMD_COUNT
	for (i = 0; i < ARRAY_SIZE(ftg_cmds); i++) {
		if (strcmp(argv[0], ftg_cmds[i].name))
			continue;
		if (!ftg_cmds[i].exec) {
			snprintf(why, len, "%s: fault-injection build only",
				 argv[0]);
			return -EOPNOTSUPP;
		}
		/* debugfs's own reason: these commands are debugging tools */
		if (ftg_cmds[i].fault_injection &&
		    security_locked_down(LOCKDOWN_DEBUGFS)) {
			snprintf(why, len, "%s: refused by kernel lockdown",
				 argv[0]);
			return -EPERM;
		}
		return ftg_cmds[i].exec(sess, argc, argv, why, len);
	}
	snprintf(why, len, "unknown command '%.40s'", argv[0]);
	return -EINVAL;
}

static void ftg_respond(struct ftg_session *sess, int err, const char *why)
{
	size_t size = FTGUARD_REASON_MAX + 32;
	char *text = kvmalloc(size, GFP_KERNEL);
	size_t n;

	if (!text)
		return;
	if (err)
		n = scnprintf(text, size, FTGUARD_ERROR " %s %s\n",
			      ftg_errno_name(err), why);
	else
		n = scnprintf(text, size, why[0] ? FTGUARD_OK " %s\n" :
						   FTGUARD_OK "\n", why);
	ftg_set_response(sess, text, n);
}

static ssize_t ftg_control_write(struct file *file, const char __user *ubuf,
				 size_t count, loff_t *ppos)
{
	struct ftg_session *sess = file->private_data;
	char why[FTGUARD_REASON_MAX];
	char *buf, *next, *line, *nul;
	unsigned int lineno = 0;
	int ret = 0;

	if (count > FTGUARD_WRITE_MAX) {
		mutex_lock(&ftg.lock);
		snprintf(ftg.last_error, sizeof(ftg.last_error),
			 "write of %zu bytes > %d", count, FTGUARD_WRITE_MAX);
		ftg_respond(sess, -E2BIG, ftg.last_error);
		sess->resp_pos = 0;
		mutex_unlock(&ftg.lock);
		return -E2BIG;
	}
	buf = memdup_user_nul(ubuf, count);
	if (IS_ERR(buf))
		return PTR_ERR(buf);
	ftg_obj_add(FTG_OBJ_SCRATCH, buf);

	mutex_lock(&ftg.lock);
	/* A NUL would end the text early: "arm\0garbage" must not arm. */
	nul = memchr(buf, '\0', count);
	if (nul) {
		snprintf(ftg.last_error, sizeof(ftg.last_error),
			 "NUL byte at offset %td of the write", nul - buf);
		ftg_respond(sess, -EINVAL, ftg.last_error);
		ret = -EINVAL;
	}
	for (next = buf; !nul && next && *next && ret >= 0; ) {
		line = strsep(&next, "\n");
		lineno++;
		why[0] = '\0';
		if (strlen(line) > FTGUARD_LINE_MAX) {
			snprintf(why, sizeof(why), "line longer than %d bytes",
				 FTGUARD_LINE_MAX);
			ret = -E2BIG;
		} else {
			ret = ftg_exec_line(sess, line, why, sizeof(why));
		}
		ftg_sanitize(why);
		if (ret < 0) {
			if (lineno > 1) {
				char tmp[FTGUARD_REASON_MAX];

				snprintf(tmp, sizeof(tmp), "line %u: %s",
					 lineno, why);
				strscpy(why, tmp, sizeof(why));
			}
			strscpy(ftg.last_error, why, sizeof(ftg.last_error));
			ftg_respond(sess, ret, why);
		} else if (ret == 0) {
			ftg_respond(sess, 0, why);
		}
	}
	sess->resp_pos = 0;	/* also after a failed write: not via *ppos */
	mutex_unlock(&ftg.lock);
	ftg_obj_del(FTG_OBJ_SCRATCH, buf);
	kfree(buf);
	return ret < 0 ? ret : count;
}

static ssize_t ftg_control_read(struct file *file, char __user *ubuf,
				size_t count, loff_t *ppos)
{
	struct ftg_session *sess = file->private_data;
	ssize_t ret;

	mutex_lock(&ftg.lock);
	ret = simple_read_from_buffer(ubuf, count, &sess->resp_pos, sess->resp,
				      sess->resp_len);
	mutex_unlock(&ftg.lock);
	return ret;
}

static int ftg_control_open(struct inode *inode, struct file *file)
{
	struct ftg_session *sess = kzalloc(sizeof(*sess), GFP_KERNEL);

	if (!sess)
		return -ENOMEM;
	ftg_obj_add(FTG_OBJ_SESSION, sess);
	sess->pid = task_tgid_nr(current);
	get_task_comm(sess->comm, current);
	file->private_data = sess;
	mutex_lock(&ftg.lock);
	list_add(&sess->node, &ftg.sessions);
	mutex_unlock(&ftg.lock);
	return nonseekable_open(inode, file);
}

/* Closing the descriptor (SIGKILL included) ends the arm it owns. */
static int ftg_control_release(struct inode *inode, struct file *file)
{
	struct ftg_session *sess = file->private_data;

	mutex_lock(&ftg.lock);
	ftg_disarm_session(sess);
	list_del(&sess->node);
	mutex_unlock(&ftg.lock);
	ftg_obj_del(FTG_OBJ_SELECTION, sess->sel);
	kvfree(sess->sel);
	ftg_obj_del(FTG_OBJ_RESPONSE, sess->resp);
	kvfree(sess->resp);
	ftg_obj_del(FTG_OBJ_SESSION, sess);
	kfree(sess);
	return 0;
}

const struct file_operations ftg_control_fops = {
	.owner = THIS_MODULE,
	.open = ftg_control_open,
	.read = ftg_control_read,
	.write = ftg_control_write,
	.release = ftg_control_release,
#ifdef FTG_HAVE_NO_LLSEEK
	.llseek = no_llseek,
#endif
};

/*
 * /dev/ftguard: the control file as a character device. misc_open() takes
 * a reference on THIS_MODULE (fops owner) for every open descriptor, so
 * module exit never runs while one is open; misc_deregister() only stops
 * new opens.
 */
static struct miscdevice ftg_miscdev = {
	.minor = MISC_DYNAMIC_MINOR,
	.name = "ftguard",
	.fops = &ftg_control_fops,
	.mode = 0600,
};

int ftg_chrdev_init(void)
{
	int ret = misc_register(&ftg_miscdev);

	if (ret)
		pr_err("cannot register /dev/%s: %d\n", ftg_miscdev.name, ret);
	return ret;
}

void ftg_chrdev_exit(void)
{
	misc_deregister(&ftg_miscdev);
}
