// SPDX-License-Identifier: LGPL-2.1
/*
 * The control client: one open() of ftguard/control (or of /dev/ftguard,
 * the same file as a device, where kernel lockdown closes debugfs),
 * commands written a line (or a batch of lines) at a time, the response
 * read back from the same descriptor. The module stops a write at its
 * first failing line and answers "error <ERRNO> line N: <reason>" (no
 * "line N:" for the first line), which is how batched admits find where
 * to resume.
 */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "ftguard-local.h"
#include "kmod-local.h"

#define CTL_RESPONSE_MAX (16UL << 20)	/* a check report of many sites */

struct ftg_control {
	int fd;
	char *debugfs;
	char *resp;		/* NUL-terminated, final newline removed */
	size_t resp_len;
	size_t resp_cap;
};

static const struct {
	const char *name;
	int err;
} errno_names[] = {
#define ERRNO_NAME(name)	{ #name, name },
	FTGUARD_ERRNOS(ERRNO_NAME)
#undef ERRNO_NAME
};

static int errno_from_name(const char *name, size_t len)
{
	size_t i;

	for (i = 0; i < FTGL_ARRAY_SIZE(errno_names); i++)
		if (strlen(errno_names[i].name) == len &&
		    !strncmp(errno_names[i].name, name, len))
			return errno_names[i].err;
	return EIO;
}

/* Why /dev/ftguard did not open either: a hint after strerror(). */
static const char *device_hint(int errnum)
{
	switch (errnum) {
	case ENOENT:
	case ENODEV:
	case ENXIO:
		return " (an ftguard.ko older than this libftguard has no device)";
	case EACCES:
	case EPERM:
		return " (run as root)";
	default:
		return "";
	}
}

/*
 * debugfs refused the control file with EPERM, or would: under kernel
 * lockdown (@lockdown, its mode, or NULL) it opens no file for writing,
 * root's included. ftguard.ko's misc device
 * /dev/ftguard is the same file and lockdown (integrity) does not close
 * it. Only for the live debugfs root: a fixture root has no device.
 * Return: the descriptor, or -1 with an error naming both paths.
 */
static int open_device(const char *debugfs_dir, const char *lockdown)
{
	int fd = open(FTGL_CONTROL_DEVICE, O_RDWR | O_CLOEXEC);
	int dev_errno = errno;

	if (fd >= 0)
		return fd;
	if (lockdown)
		ftgl_err(FTG_E_NOT_ROOT, EPERM,
			 "%s/ftguard/control: refused by kernel lockdown (%s): "
			 "debugfs opens no writable file while the kernel is "
			 "locked down; %s, which lockdown leaves open: %s%s; so "
			 "ftguard.ko can report but not check or arm (see "
			 "doc/secure-boot.md)",
			 debugfs_dir, lockdown, FTGL_CONTROL_DEVICE,
			 strerror(dev_errno), device_hint(dev_errno));
	else
		ftgl_err(FTG_E_NOT_ROOT, EPERM, "%s/ftguard/control: %s; %s: %s%s",
			 debugfs_dir, strerror(EPERM), FTGL_CONTROL_DEVICE,
			 strerror(dev_errno), device_hint(dev_errno));
	errno = EPERM;
	return -1;
}

struct ftg_control *ftg_control_open(const struct ftg_root *root)
{
	const char *debugfs_dir = ftg_root_debugfs(root);
	struct ftg_control *ctl;
	char *path, *lockdown = NULL;
	bool live;

	ftg_error_clear();
	ctl = calloc(1, sizeof(*ctl));
	path = ftgl_path(debugfs_dir, "ftguard/control");
	if (!ctl || !path || !(ctl->debugfs = strdup(debugfs_dir))) {
		ftgl_err(FTG_E_SYSTEM, ENOMEM, "out of memory");
		goto fail;
	}
	/*
	 * Under lockdown debugfs would refuse the open, and the kernel logs
	 * every refusal ("Lockdown: ftguard: debugfs access is restricted"):
	 * the lockdown state, read once, sends the open to the device
	 * directly. A lockdown raised between the read and the open is
	 * still met by the EPERM fallback.
	 */
	live = !strcmp(debugfs_dir, FTGL_DEFAULT_DEBUGFS);
	lockdown = live ? ftgl_lockdown_mode(debugfs_dir) : NULL;
	if (lockdown) {
		ctl->fd = -1;
		errno = EPERM;
	} else {
		ctl->fd = open(path, O_RDWR | O_CLOEXEC);
	}
	if (ctl->fd < 0 && errno == EPERM && live) {
		if (!lockdown)
			lockdown = ftgl_lockdown_mode(debugfs_dir);
		ctl->fd = open_device(debugfs_dir, lockdown);
		if (ctl->fd < 0)
			goto fail;
	} else if (ctl->fd < 0) {
		ftgl_kmod_missing(debugfs_dir, FTGUARD_CONTROL, errno);
		goto fail;
	}
	free(lockdown);
	free(path);
	return ctl;
fail:
	free(lockdown);
	free(path);
	if (ctl)
		free(ctl->debugfs);
	free(ctl);
	return NULL;
}

void ftg_control_close(struct ftg_control *ctl)
{
	if (!ctl)
		return;
	if (ctl->fd >= 0)
		close(ctl->fd);
	free(ctl->debugfs);
	free(ctl->resp);
	free(ctl);
}

const char *ftg_control_response(const struct ftg_control *ctl)
{
	return ctl->resp ? ctl->resp : "";
}

/* Reads the whole response (the module rewinds the position per write). */
static int read_response(struct ftg_control *ctl)
{
	ctl->resp_len = 0;
	for (;;) {
		ssize_t r;

		if (ctl->resp_cap - ctl->resp_len < 4096 + 1) {
			size_t cap = ctl->resp_cap ? ctl->resp_cap * 2 : 8192;
			char *p;

			if (cap > CTL_RESPONSE_MAX)
				return ftgl_err(FTG_E_BAD_RESPONSE, EFBIG,
						"control: response larger than %lu MiB",
						CTL_RESPONSE_MAX >> 20);
			p = realloc(ctl->resp, cap);
			if (!p)
				return ftgl_err(FTG_E_SYSTEM, ENOMEM, "out of memory");
			ctl->resp = p;
			ctl->resp_cap = cap;
		}
		r = read(ctl->fd, ctl->resp + ctl->resp_len,
			 ctl->resp_cap - ctl->resp_len - 1);
		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0)
			return ftgl_err(FTG_E_SYSTEM, errno, "control: read: %s",
					strerror(errno));
		if (r == 0)
			break;
		ctl->resp_len += r;
	}
	ctl->resp[ctl->resp_len] = '\0';
	while (ctl->resp_len && ctl->resp[ctl->resp_len - 1] == '\n')
		ctl->resp[--ctl->resp_len] = '\0';
	return 0;
}

int ftgl_control_judge(const char *r, unsigned int *failed_line)
{
	const char *name, *reason;
	size_t name_len;
	unsigned int line = 1;

	static const char ok[] = FTGUARD_OK, error[] = FTGUARD_ERROR " ",
		check[] = FTGUARD_HEADER(FTGUARD_TABLE_CHECK) " ",
		sites[] = FTGUARD_HEADER(FTGUARD_TABLE_SITES) " ";

	if (!strncmp(r, ok, strlen(ok)) &&
	    (r[strlen(ok)] == '\0' || r[strlen(ok)] == ' '))
		return 0;
	if (!strncmp(r, check, strlen(check)) ||
	    !strncmp(r, sites, strlen(sites)))
		return 0;
	if (strncmp(r, error, strlen(error)))
		return ftgl_err(FTG_E_BAD_RESPONSE, EPROTO,
				"control: unexpected response \"%.80s\"", r);
	name = r + strlen(error);
	name_len = strcspn(name, " ");
	reason = name + name_len;
	while (*reason == ' ')
		reason++;
	if (sscanf(reason, "line %u:", &line) != 1)
		line = 1;
	if (failed_line)
		*failed_line = line;
	return ftgl_err(FTG_E_MODULE_REFUSED, errno_from_name(name, name_len),
			"%s", *reason ? reason : ftg_strerror(FTG_E_MODULE_REFUSED));
}

/* Judges the response to the batch just written. */
static int judge_response(struct ftg_control *ctl, unsigned int *failed_line)
{
	return ftgl_control_judge(ftg_control_response(ctl), failed_line);
}

/* Writes @len bytes of commands as one write() and reads the answer. */
static int send_batch(struct ftg_control *ctl, const char *buf, size_t len,
		      unsigned int *failed_line)
{
	ssize_t w;
	int saved;

	if (failed_line)
		*failed_line = 0;
	do {
		w = write(ctl->fd, buf, len);
	} while (w < 0 && errno == EINTR);
	saved = w < 0 ? errno : 0;
	if (read_response(ctl))
		return -1;
	if (!judge_response(ctl, failed_line)) {
		if (saved)	/* failed write but an "ok": trust the write */
			return ftgl_err(FTG_E_SYSTEM, saved, "control: write: %s",
					strerror(saved));
		return 0;
	}
	return -1;
}

int ftg_control_send(struct ftg_control *ctl, const char *cmd)
{
	char line[FTGUARD_LINE_MAX + 2];
	size_t len = strlen(cmd);

	ftg_error_clear();
	if (len > FTGUARD_LINE_MAX || strchr(cmd, '\n'))
		return ftgl_err(FTG_E_LINE_TOO_LONG, E2BIG,
				"control: command must be one line of at most %d bytes",
				FTGUARD_LINE_MAX);
	memcpy(line, cmd, len);
	line[len++] = '\n';
	return send_batch(ctl, line, len, NULL);
}

/* A growing buffer of command lines flushed in writes of <= 64 KiB. */
struct batch {
	char buf[FTGUARD_WRITE_MAX];
	size_t len;
	unsigned int lines;
	size_t first;		/* index of the candidate on the first line */
};

static int refuse(struct ftg_candidates *refused, const struct ftg_candidate *c)
{
	if (!refused || ftg_candidates_add(refused, c->name, c->addr, NULL) >= 0)
		return 0;
	return ftgl_err(FTG_E_SYSTEM, ENOMEM, "out of memory");
}

/*
 * A candidate the module rejects (EINVAL) stops its write there; the rest
 * of the batch is sent again from the next line. Knowing the refusals from
 * the answers spares the caller a read of the whole site table.
 */
int ftgl_control_admit_range(struct ftg_control *ctl, const struct ftg_candidates *cand,
			     size_t from, size_t end, struct ftg_candidates *refused)
{
	size_t i = from;
	struct batch *b = malloc(sizeof(*b));
	int sent = 0;

	ftg_error_clear();
	if (!b)
		return ftgl_err(FTG_E_SYSTEM, ENOMEM, "out of memory");
	while (i < end) {
		size_t idx[FTGUARD_WRITE_MAX / 8];
		unsigned int failed;

		b->len = 0;
		b->lines = 0;
		for (; i < end && b->lines < FTGL_ARRAY_SIZE(idx); i++) {
			const struct ftg_candidate *c = ftg_candidates_get(cand, i);
			char line[FTGUARD_LINE_MAX + 2];
			int len;

			if (c->module)
				continue;
			len = snprintf(line, sizeof(line), FTGUARD_CMD_ADMIT " %s 0x%" PRIx64 "\n",
				       c->name, c->addr);
			/* the line and its newline */
			if (len < 0 || len > FTGUARD_LINE_MAX + 1) {
				/* A name no kernel has: no site either. */
				if (refuse(refused, c))
					goto fail;
				continue;
			}
			if (b->len + len > sizeof(b->buf))
				break;
			memcpy(b->buf + b->len, line, len);
			b->len += len;
			idx[b->lines++] = i;
		}
		if (!b->lines)
			break;
		sent += b->lines;
		if (!send_batch(ctl, b->buf, b->len, &failed))
			continue;
		if ((errno != EINVAL && errno != EEXIST) || !failed ||
		    failed > b->lines) {
			ftgl_err_prefix("admit");
			goto fail;
		}
		/* Rejected candidate: resume right after it. Only EINVAL
		 * says it is no site. */
		i = idx[failed - 1] + 1;
		sent -= b->lines - failed;
		if (errno == EINVAL &&
		    refuse(refused, ftg_candidates_get(cand, i - 1)))
			goto fail;
	}
	free(b);
	ftg_error_clear();
	return sent;
fail:
	free(b);
	return -1;
}

int ftg_control_admit(struct ftg_control *ctl, const struct ftg_candidates *cand,
		      struct ftg_candidates *refused)
{
	return ftgl_control_admit_range(ctl, cand, 0, ftg_candidates_count(cand),
					refused);
}

/*
 * The module's reason for a batch's failing line without its "line N: ",
 * a number that means nothing outside the batch: each line of addresses
 * names what it was refused for.
 */
static int batch_error(const char *verb)
{
	enum ftg_error code = ftg_error_code();
	const char *msg = ftg_error_last(), *colon;
	unsigned int n;
	int saved = errno;
	char reason[512];

	colon = strchr(msg, ':');
	if (sscanf(msg, "line %u:", &n) == 1 && colon && colon[1] == ' ')
		msg = colon + 2;
	snprintf(reason, sizeof(reason), "%s", msg);
	return ftgl_err(code, saved, "%s: %s", verb, reason);
}

/*
 * Sends @verb with as many addresses per line as fit in a line, and as
 * many lines per write as fit in one: the module runs a write's lines in
 * order and stops at the first it refuses, so a refusal still names its
 * own sites, and the lines before it count as they would alone. A
 * selection of every site (38,000 addresses, 3,000 lines) is a dozen
 * writes instead of 3,000 round trips.
 */
static int send_addrs(struct ftg_control *ctl, const char *verb,
		      const uint64_t *addrs, size_t n)
{
	size_t i = 0, cap = FTGUARD_WRITE_MAX;
	char *buf = malloc(cap);
	unsigned int failed;

	if (!buf)
		return ftgl_err(FTG_E_SYSTEM, ENOMEM, "out of memory");
	while (i < n) {
		size_t len = 0;

		/* whole lines only, each at most FTGUARD_LINE_MAX bytes */
		while (i < n && cap - len >= FTGUARD_LINE_MAX + 1) {
			size_t start = len;

			len += snprintf(buf + len, cap - len, "%s", verb);
			while (i < n && len - start + 20 < FTGUARD_LINE_MAX - 1) {
				len += snprintf(buf + len, cap - len,
						" 0x%" PRIx64, addrs[i]);
				i++;
			}
			buf[len++] = '\n';
		}
		if (send_batch(ctl, buf, len, &failed)) {
			free(buf);
			return batch_error(verb);
		}
	}
	free(buf);
	return 0;
}

int ftg_control_select_addrs(struct ftg_control *ctl, const uint64_t *addrs,
			     size_t n)
{
	ftg_error_clear();
	return send_addrs(ctl, FTGUARD_CMD_SELECT, addrs, n);
}

int ftg_control_select(struct ftg_control *ctl, const struct ftg_candidates *cand)
{
	size_t i, n = ftg_candidates_count(cand);
	uint64_t *addrs = malloc((n ? n : 1) * sizeof(*addrs));
	int ret;

	ftg_error_clear();
	if (!addrs)
		return ftgl_err(FTG_E_SYSTEM, ENOMEM, "out of memory");
	for (i = 0; i < n; i++)
		addrs[i] = ftg_candidates_get(cand, i)->addr;
	ret = ftg_control_select_addrs(ctl, addrs, n);
	free(addrs);
	return ret;
}

int ftg_control_graph_tree(struct ftg_control *ctl, const uint64_t *roots,
			   size_t n)
{
	ftg_error_clear();
	if (!n)
		return ftgl_err(FTG_E_BAD_ARGUMENT, EINVAL, "graph-roots: no root");
	return send_addrs(ctl, FTGUARD_CMD_GRAPH_ROOTS, roots, n) ? -1 : 0;
}

/* Sends "@verb" or "@verb @arg". */
static int send_cmd(struct ftg_control *ctl, const char *verb, const char *arg)
{
	char line[FTGUARD_LINE_MAX];

	if (snprintf(line, sizeof(line), "%s%s%s", verb, arg ? " " : "",
		     arg ? arg : "") >= (int)sizeof(line))
		return ftgl_err(FTG_E_LINE_TOO_LONG, E2BIG, "%s: argument too long", verb);
	if (ftg_control_send(ctl, line))
		return ftgl_err_prefix("%s", verb);
	return 0;
}

int ftg_control_admit_one(struct ftg_control *ctl, const char *name,
			  uint64_t addr)
{
	char arg[FTGUARD_LINE_MAX];

	ftg_error_clear();
	if (snprintf(arg, sizeof(arg), "%s 0x%" PRIx64, name, addr) >=
	    (int)sizeof(arg))
		return ftgl_err(FTG_E_LINE_TOO_LONG, E2BIG,
				FTGUARD_CMD_ADMIT ": name too long");
	return send_cmd(ctl, FTGUARD_CMD_ADMIT, arg);
}

int ftg_control_select_all(struct ftg_control *ctl, size_t *n)
{
	unsigned long long count;

	ftg_error_clear();
	if (send_cmd(ctl, FTGUARD_CMD_SELECT_ALL, NULL))
		return -1;
	if (sscanf(ctl->resp, FTGUARD_OK " %llu", &count) != 1)
		return ftgl_err(FTG_E_BAD_RESPONSE, EPROTO,
				FTGUARD_CMD_SELECT_ALL ": unexpected response \"%.80s\"",
				ctl->resp);
	if (n)
		*n = count;
	return 0;
}

struct ftg_sites *ftg_control_sites(struct ftg_control *ctl,
				    const char *const *owners, size_t n)
{
	char args[FTGUARD_LINE_MAX];
	size_t i, len = 0;

	ftg_error_clear();
	if (!n || n > FTGUARD_ARGS_MAX) {
		ftgl_err(FTG_E_BAD_ARGUMENT, EINVAL, "sites: want 1 to %d owners",
			 FTGUARD_ARGS_MAX);
		return NULL;
	}
	for (i = 0; i < n; i++) {
		if (!*owners[i] || strpbrk(owners[i], " \t\n")) {
			ftgl_err(FTG_E_BAD_ARGUMENT, EINVAL, "sites: bad owner name \"%s\"",
				 owners[i]);
			return NULL;
		}
		len += snprintf(args + len, sizeof(args) - len, "%s%s",
				i ? " " : "", owners[i]);
		if (len >= sizeof(args)) {
			ftgl_err(FTG_E_LINE_TOO_LONG, E2BIG, "sites: owner names too long");
			return NULL;
		}
	}
	if (send_cmd(ctl, FTGUARD_CMD_SITES, args))
		return NULL;
	return ftg_sites_parse(ctl->resp, ctl->resp_len);
}

int ftg_control_vmlinux_records(struct ftg_control *ctl, uint64_t records)
{
	char arg[24];

	ftg_error_clear();
	snprintf(arg, sizeof(arg), "%" PRIu64, records);
	return send_cmd(ctl, FTGUARD_CMD_VMLINUX_RECORDS, arg);
}

int ftg_control_clear(struct ftg_control *ctl)
{
	ftg_error_clear();
	return send_cmd(ctl, FTGUARD_CMD_CLEAR, NULL);
}

struct ftg_check_report *ftg_control_check(struct ftg_control *ctl)
{
	ftg_error_clear();
	if (send_cmd(ctl, FTGUARD_CMD_CHECK, NULL))
		return NULL;
	return ftgl_check_report_parse("check response", ctl->resp,
				       ctl->resp_len);
}

int ftg_control_arm(struct ftg_control *ctl, unsigned int flags,
		    struct ftg_check_report **report)
{
	return ftgl_control_arm_tree(ctl, flags, 0, report);
}

int ftgl_control_arm_tree(struct ftg_control *ctl, unsigned int flags,
			  unsigned int max_depth, struct ftg_check_report **report)
{
	char cmd[96], depth[32] = "";
	int ret, saved;
	char msg[512];
	enum ftg_error code;

	ftg_error_clear();
	if (report)
		*report = NULL;
	if (max_depth)
		snprintf(depth, sizeof(depth), " " FTGUARD_ARM_MAX_DEPTH "%u",
			 max_depth);
	snprintf(cmd, sizeof(cmd), FTGUARD_CMD_ARM "%s%s%s%s%s",
		 flags & FTG_ARM_PERSISTENT ? " " FTGUARD_ARM_PERSISTENT : "",
		 flags & FTG_ARM_FORCE ? " " FTGUARD_ARM_FORCE : "",
		 flags & FTG_ARM_GRAPH ? " " FTGUARD_ARM_GRAPH : "",
		 flags & FTG_ARM_STACK ? " " FTGUARD_ARM_STACK : "", depth);
	ret = ftg_control_send(ctl, cmd);
	saved = errno;
	if (!report || (ret && saved != ESTALE))
		return ret ? ftgl_err_prefix("arm") : 0;
	/* The module keeps the arm's check report in its check table. */
	code = ftg_error_code();
	snprintf(msg, sizeof(msg), "%s", ftg_error_last());
	*report = ftgl_check_report_read(ctl->debugfs);
	if (ret)
		return ftgl_err(code, saved, "arm: %s", msg);
	ftg_error_clear();
	return 0;
}

int ftg_control_disarm(struct ftg_control *ctl)
{
	ftg_error_clear();
	return send_cmd(ctl, FTGUARD_CMD_DISARM, NULL);
}

int ftg_control_reset(struct ftg_control *ctl)
{
	char *path;
	int fd;

	ftg_error_clear();
	if (send_cmd(ctl, FTGUARD_CMD_RESET, NULL))
		return -1;
	path = ftgl_path(ftgl_live_tracefs(), "instances/ftguard/trace");
	if (!path)
		return -1;
	fd = open(path, O_WRONLY | O_TRUNC | O_CLOEXEC);
	if (fd < 0) {
		int saved = errno;

		ftgl_err(saved == ENOENT ? FTG_E_NO_TRACEFS : FTG_E_SYSTEM, saved,
			 "reset: disarmed, but the trace buffer was not cleared: %s: %s",
			 path, strerror(saved));
		free(path);
		return -1;
	}
	close(fd);
	free(path);
	return 0;
}
