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
 * The file is read as the kernel's own (ftg_kfile.c), once per check, on
 * the check's first question; its words are kept until the check ends
 * (ftg_enabled_forget()), under ftg.lock, which every change of what ftrace
 * holds of ftguard, and module load and unload, take too. What others
 * register after that read is learnt by one more read, on the first
 * question the words do not answer (ftg_kword_reread()). ftrace takes its
 * own locks while it prints, none of which is ever held around a call
 * into ftguard.
 *
 * A trampoline is bound by address: an allocated one has no symbol, and
 * the kernel prints it as its address; a named one is printed by the same
 * printer that names the call's target here. A record is found by the
 * name its function prints as (the file gives no address); its direct
 * trampoline must still be the very call the site makes.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/err.h>
#include <linux/file.h>
#include <linux/fs.h>
#include <linux/list.h>
#include <linux/overflow.h>
#include <linux/slab.h>
#include <linux/string.h>

#include "ftg.h"

#define FTG_DIRECT_TAG		"\tdirect-->"
#define FTG_TRAMP_TAG		"\ttramp: "
#define FTG_LINE_MAX		(2 * KSYM_SYMBOL_LEN)
#define FTG_READ_CHUNK		4096

/* One thing enabled_functions says. */
struct ftg_word {
	struct list_head node;
	bool direct;
	/*
	 * direct: the record's function (%ps) and its direct trampoline
	 * (%pS); else a trampoline (%pS) and its ops' callback (%pS)
	 */
	const char *key;
	const char *val;
	char text[];
};

/* What this check read of enabled_functions; ftg.lock guards it. */
static struct {
	bool read;		/* this check asked: @words is all there is */
	bool reread;		/* ... and read again (ftg_kword_reread()) */
	struct list_head words;
	char target[KSYM_SYMBOL_LEN];	/* a question's call target, %pS */
	char rec[KSYM_SYMBOL_LEN];	/* a question's function, %ps */
} ftg_kword = { .words = LIST_HEAD_INIT(ftg_kword.words) };

/* The reader's state, allocated for one read. */
struct ftg_scan {
	char line[FTG_LINE_MAX];
	size_t len;
	bool overlong;		/* the line outgrew @line: skipped */
	char rec[KSYM_SYMBOL_LEN];	/* the last record line's function */
	bool in_rec;		/* @rec is valid */
	bool short_of_memory;
	char chunk[FTG_READ_CHUNK];
};

static bool ftg_word_is(const struct ftg_word *w, bool direct,
			const char *key, size_t klen, const char *val,
			size_t vlen)
{
	return w->direct == direct && strlen(w->key) == klen &&
	       !memcmp(w->key, key, klen) && strlen(w->val) == vlen &&
	       !memcmp(w->val, val, vlen);
}

static bool ftg_word_said(bool direct, const char *key, size_t klen,
			  const char *val, size_t vlen)
{
	struct ftg_word *w;

	list_for_each_entry(w, &ftg_kword.words, node)
		if (ftg_word_is(w, direct, key, klen, val, vlen))
			return true;
	return false;
}

/* Keeps one word, once: every record of an ops names its trampoline. */
static void ftg_word_add(struct ftg_scan *sc, bool direct, const char *key,
			 size_t klen, const char *val, size_t vlen)
{
	struct ftg_word *w;

	if (ftg_word_said(direct, key, klen, val, vlen))
		return;
	w = kmalloc(struct_size(w, text, klen + vlen + 2), GFP_KERNEL);
	if (!w) {
		sc->short_of_memory = true;
		return;
	}
	ftg_obj_add(FTG_OBJ_SCRATCH, w);
	w->direct = direct;
	memcpy(w->text, key, klen);
	w->text[klen] = '\0';
	memcpy(w->text + klen + 1, val, vlen);
	w->text[klen + 1 + vlen] = '\0';
	w->key = w->text;
	w->val = w->text + klen + 1;
	list_add_tail(&w->node, &ftg_kword.words);
}

/*
 * A record's line: "NAME (count) flags..." and, per trampoline ops on it,
 * "\ttramp: TRAMPOLINE (CALLBACK)".
 */
static void ftg_record_line(struct ftg_scan *sc, const char *line)
{
	const char *p = strstr(line, " (");

	sc->in_rec = p && p > line && p - line < sizeof(sc->rec);
	if (sc->in_rec)
		strscpy(sc->rec, line, p - line + 1);
	p = line;
	while ((p = strstr(p, FTG_TRAMP_TAG))) {
		const char *tramp = p + strlen(FTG_TRAMP_TAG);
		const char *open = strstr(tramp, " (");
		const char *close = open ? strchr(open, ')') : NULL;

		if (!close)
			return;
		ftg_word_add(sc, false, tramp, open - tramp, open + 2,
			     close - open - 2);
		p = close;
	}
}

/* One whole line of enabled_functions, without its newline. */
static void ftg_scan_line(struct ftg_scan *sc)
{
	const char *line = sc->line;

	sc->line[sc->len] = '\0';
	if (line[0] != '\t') {
		ftg_record_line(sc, line);
		return;
	}
	/* a continuation of the record line above it */
	if (sc->in_rec && str_has_prefix(line, FTG_DIRECT_TAG)) {
		line += strlen(FTG_DIRECT_TAG);
		ftg_word_add(sc, true, sc->rec, strlen(sc->rec), line,
			     strlen(line));
	}
}

static void ftg_scan_feed(struct ftg_scan *sc, const char *p, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++) {
		if (p[i] == '\n') {
			if (!sc->overlong)
				ftg_scan_line(sc);
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

/* Reads enabled_functions into ftg_kword.words, once per check. */
static void ftg_kword_read(void)
{
	struct ftg_scan *sc;
	struct file *f;
	loff_t pos = 0;
	ssize_t got;

	lockdep_assert_held(&ftg.lock);
	if (ftg_kword.read)
		return;
	ftg_kword.read = true;
	f = ftg_kfile_open(&ftg_enabled_functions);
	if (IS_ERR(f)) {
		pr_debug("enabled_functions unreadable (%ld): no trampoline accepted on its word\n",
			 PTR_ERR(f));
		return;
	}
	sc = ftg_memory_fails() ? NULL : kzalloc(sizeof(*sc), GFP_KERNEL);
	ftg_obj_add(FTG_OBJ_SCRATCH, sc);
	while (sc &&
	       (got = ftg_kfile_read(f, sc->chunk, sizeof(sc->chunk),
				     &pos)) > 0) {
		ftg_scan_feed(sc, sc->chunk, got);
		cond_resched();
	}
	fput(f);
	/* what the file says is not all there: no verdict rests on it */
	if (!sc || sc->short_of_memory)
		ftg.check_short = true;
	ftg_obj_del(FTG_OBJ_SCRATCH, sc);
	kfree(sc);
}

static void ftg_kword_drop(void)
{
	struct ftg_word *w, *next;

	list_for_each_entry_safe(w, next, &ftg_kword.words, node) {
		list_del(&w->node);
		ftg_obj_del(FTG_OBJ_SCRATCH, w);
		kfree(w);
	}
	ftg_kword.read = false;
}

/*
 * A question the words this check read do not answer is asked again of a
 * fresh read, once per check: a trampoline registered after the first
 * read is then known, and a call nobody names costs one more read.
 */
static bool ftg_kword_reread(void)
{
	if (ftg_kword.reread)
		return false;
	ftg_kword_drop();
	ftg_kword.reread = true;
	ftg_kword_read();
	return true;
}

/**
 * ftg_enabled_forget - drop what this check read of enabled_functions
 *
 * Called when a check ends: the next check reads the file again.
 * Context: ftg.lock held.
 */
void ftg_enabled_forget(void)
{
	lockdep_assert_held(&ftg.lock);
	ftg_kword_drop();
	ftg_kword.reread = false;
}

/* ftg_kword.rec's record names ftg_kword.target as its direct trampoline */
static bool ftg_direct_said(void)
{
	return ftg_word_said(true, ftg_kword.rec, strlen(ftg_kword.rec),
			     ftg_kword.target, strlen(ftg_kword.target));
}

/**
 * ftg_direct_is - is @target the direct trampoline ftrace records for @ip?
 * @ip: a proven site (its record was just proven)
 * @target: where the site's call goes
 *
 * Context: process context, may sleep; within a check, ftg.lock held.
 * Return: true only when enabled_functions says so (see the top).
 */
bool ftg_direct_is(unsigned long ip, unsigned long target)
{
	ftg_kword_read();
	sprint_symbol_no_offset(ftg_kword.rec, ip);
	sprint_symbol(ftg_kword.target, target);
	return ftg_direct_said() || (ftg_kword_reread() && ftg_direct_said());
}

/* ftg_kword.target is a trampoline of an ops whose callback is @func */
static bool ftg_tramp_said(const char *func)
{
	struct ftg_word *w;

	list_for_each_entry(w, &ftg_kword.words, node)
		if (!w->direct && !strcmp(w->key, ftg_kword.target) &&
		    (!func || str_has_prefix(w->val, func)))
			return true;
	return false;
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
 * Context: process context, may sleep; within a check, ftg.lock held.
 */
bool ftg_tramp_is(unsigned long target, const char *func)
{
	ftg_kword_read();
	sprint_symbol(ftg_kword.target, target);
	return ftg_tramp_said(func) ||
	       (ftg_kword_reread() && ftg_tramp_said(func));
}
