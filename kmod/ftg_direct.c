// SPDX-License-Identifier: GPL-2.0
/*
 * Trampolines, on the kernel's word. Another user may register a
 * trampoline of its own on a function with register_ftrace_direct() (the
 * kernel's ftrace-direct samples, BPF trampolines): while it is alone
 * there, the site calls that trampoline straight, and the trampoline is
 * ordinary module or allocated text. The kernel keeps which trampoline
 * belongs to which record in a hash it does not export
 * (ftrace_find_rec_direct() is not exported on 6.1 or 6.12); what it does
 * publish is tracefs's enabled_functions (Documentation/trace/ftrace.rst),
 * where a record's line, its function printed with %ps, is followed by
 * "\tdirect-->" and the trampoline printed with %pS.
 *
 * So a call that no other rule accepts is accepted when, in that file,
 * the record printed as the site's function names as its direct
 * trampoline exactly what sprint_symbol() (which %pS is) prints for the
 * call's target. Nothing is accepted by a name of ftguard's choosing, the
 * target's bytes are never read, and when the file cannot be read (no
 * tracefs mounted, lockdown) nothing is accepted: the call stays a
 * mismatch, as any other call into module text does.
 *
 * The same file names the trampolines ftrace allocates for an ops alone
 * on a record ("\ttramp: " and the trampoline, %pS, then the ops'
 * callback in parentheses, %pS, on the record's line): an allocated
 * trampoline has no symbol of its own, and this is the kernel's only
 * published word that an unnamed address is one (ftg_tramp_is()).
 *
 * The file is opened at the two paths the kernel documents for it
 * (filp_open()), by whoever runs the check. kernel_read() reads only files
 * with ->read_iter, and ftrace's files have ->read = seq_read: for those,
 * proven by that very pointer (seq_read is exported), ftguard does what
 * seq_read() does, seq_read_iter() (exported) on its own kernel buffer;
 * a file that is neither is not read. ftrace takes its own locks while it
 * prints, none of which is ever held around a call into ftguard.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/err.h>
#include <linux/fs.h>
#include <linux/seq_file.h>
#include <linux/slab.h>
#include <linux/uio.h>
#include <linux/string.h>

#include "ftg.h"

#define FTG_DIRECT_TAG		"\tdirect-->"
#define FTG_TRAMP_TAG		"\ttramp: "
#define FTG_DIRECT_LINE_MAX	(2 * KSYM_SYMBOL_LEN)
#define FTG_DIRECT_CHUNK	4096

static const char *const ftg_enabled_paths[] = {
	"/sys/kernel/tracing/enabled_functions",
	"/sys/kernel/debug/tracing/enabled_functions",
};

struct ftg_direct_scan {
	/* the site's function, as %ps; "": any record's (ftg_tramp_is()) */
	char rec[KSYM_SYMBOL_LEN];
	char tramp[KSYM_SYMBOL_LEN];	/* the call's target, as %pS */
	const char *func;		/* its ops' callback's prefix */
	char line[FTG_DIRECT_LINE_MAX];
	size_t len;
	bool overlong;		/* the line outgrew @line: skipped */
	bool in_rec;		/* the last record line was @rec's */
	bool found;
	char chunk[FTG_DIRECT_CHUNK];
};

/* Does @line name @sc->tramp as a record's trampoline (of @sc->func)? */
static bool ftg_tramp_line(const struct ftg_direct_scan *sc, const char *line)
{
	size_t n = strlen(sc->tramp);
	const char *p = line;

	while ((p = strstr(p, FTG_TRAMP_TAG))) {
		p += strlen(FTG_TRAMP_TAG);
		if (strncmp(p, sc->tramp, n) || strncmp(p + n, " (", 2))
			continue;
		if (!sc->func || str_has_prefix(p + n + 2, sc->func))
			return true;
	}
	return false;
}

/* One whole line of enabled_functions, without its newline. */
static void ftg_direct_line(struct ftg_direct_scan *sc)
{
	size_t n = strlen(sc->rec);

	sc->line[sc->len] = '\0';
	if (!n) {
		sc->found = ftg_tramp_line(sc, sc->line);
		return;
	}
	if (sc->line[0] == '\t') {
		/* a continuation of the record line above it */
		if (sc->in_rec &&
		    str_has_prefix(sc->line, FTG_DIRECT_TAG) &&
		    !strcmp(sc->line + strlen(FTG_DIRECT_TAG), sc->tramp))
			sc->found = true;
		return;
	}
	/* "NAME (count) flags...": the name is all before " (" */
	sc->in_rec = sc->len > n + 2 && !strncmp(sc->line, sc->rec, n) &&
		     sc->line[n] == ' ' && sc->line[n + 1] == '(';
}

static void ftg_direct_feed(struct ftg_direct_scan *sc, const char *p,
			    size_t n)
{
	size_t i;

	for (i = 0; i < n && !sc->found; i++) {
		if (p[i] == '\n') {
			if (!sc->overlong)
				ftg_direct_line(sc);
			else
				sc->in_rec = false;
			sc->len = 0;
			sc->overlong = false;
		} else if (sc->len < sizeof(sc->line) - 1) {
			sc->line[sc->len++] = p[i];
		} else {
			sc->overlong = true;
		}
	}
}

static struct file *ftg_direct_open(void)
{
	struct file *f = ERR_PTR(-ENOENT);
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(ftg_enabled_paths); i++) {
		f = filp_open(ftg_enabled_paths[i], O_RDONLY, 0);
		if (!IS_ERR(f))
			break;
	}
	return f;
}

/* Up to @len bytes of @f at *@pos into @buf; 0 at the end, -errno. */
static ssize_t ftg_direct_read(struct file *f, char *buf, size_t len,
			       loff_t *pos)
{
	struct kvec kv = { .iov_base = buf, .iov_len = len };
	struct iov_iter iter;
	struct kiocb kiocb;
	ssize_t ret;

	if (f->f_op->read_iter)
		return kernel_read(f, buf, len, pos);
	if (f->f_op->read != seq_read)
		return -EINVAL;
	init_sync_kiocb(&kiocb, f);
	kiocb.ki_pos = *pos;
	iov_iter_kvec(&iter, READ, &kv, 1, len);
	ret = seq_read_iter(&kiocb, &iter);
	if (ret > 0)
		*pos = kiocb.ki_pos;
	return ret;
}

/* Reads enabled_functions until @sc finds what it looks for. */
static bool ftg_enabled_scan(struct ftg_direct_scan *sc)
{
	struct file *f;
	loff_t pos = 0;
	ssize_t got;

	f = ftg_direct_open();
	if (IS_ERR(f)) {
		pr_debug("enabled_functions unreadable (%ld): no trampoline accepted on its word\n",
			 PTR_ERR(f));
		return false;
	}
	while (!sc->found &&
	       (got = ftg_direct_read(f, sc->chunk, sizeof(sc->chunk),
				      &pos)) > 0) {
		ftg_direct_feed(sc, sc->chunk, got);
		cond_resched();
	}
	filp_close(f, NULL);
	return sc->found;
}

static struct ftg_direct_scan *ftg_scan_new(unsigned long target)
{
	struct ftg_direct_scan *sc = kzalloc(sizeof(*sc), GFP_KERNEL);

	if (!sc)
		return NULL;
	ftg_obj_add(FTG_OBJ_SCRATCH, sc);
	sprint_symbol(sc->tramp, target);
	return sc;
}

static void ftg_scan_free(struct ftg_direct_scan *sc)
{
	ftg_obj_del(FTG_OBJ_SCRATCH, sc);
	kfree(sc);
}

/**
 * ftg_direct_is - is @target the direct trampoline ftrace records for @ip?
 * @ip: a proven site (its record was just proven)
 * @target: where the site's call goes
 *
 * Context: process context, may sleep; ftg.lock held.
 * Return: true only when enabled_functions says so (see the top).
 */
bool ftg_direct_is(unsigned long ip, unsigned long target)
{
	struct ftg_direct_scan *sc = ftg_scan_new(target);
	bool found;

	if (!sc)
		return false;
	sprint_symbol_no_offset(sc->rec, ip);
	found = ftg_enabled_scan(sc);
	ftg_scan_free(sc);
	return found;
}

/**
 * ftg_tramp_is - is @target a trampoline ftrace allocated for an ops?
 * @target: where a site's call goes
 * @func: how the ops' callback prints (a prefix of its %pS), or NULL for
 *	any ops
 *
 * True when some record's line of enabled_functions names @target, as
 * sprint_symbol() prints it, as its trampoline: the kernel's word that
 * the address is ftrace's trampoline, not a hole, a BPF pack or a kprobe
 * instruction page that happens to be page-aligned and unnamed.
 *
 * Context: process context, may sleep; ftg.lock held.
 */
bool ftg_tramp_is(unsigned long target, const char *func)
{
	struct ftg_direct_scan *sc = ftg_scan_new(target);
	bool found;

	if (!sc)
		return false;
	sc->func = func;
	found = ftg_enabled_scan(sc);
	ftg_scan_free(sc);
	return found;
}
