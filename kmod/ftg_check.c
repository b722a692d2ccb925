// SPDX-License-Identifier: GPL-2.0
/*
 * Checking sites. A site's text is read only once it is proven text: it is
 * still a current ftrace record, its owner is not going, and the symbol
 * table still names it at its offset in its function. What is read is the
 * prologue, from the function's start to the end of the site (ftg_arch.h).
 * Reads go through ftg_read_text() (and, for a call through its module's
 * PLT, ftg_read_plt()), which count them per site, so a test can prove
 * what was never read.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/delay.h>
#include <linux/mm.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <linux/string_helpers.h>
#include <linux/uaccess.h>

#include "ftg.h"
#include "ftg_trace.h"

/* A patch in flight (ftg_arch_patch_in_flight): re-read at most this often. */
#define FTG_IN_FLIGHT_RETRIES	10
/* A mismatch is read again until two reads agree, at most this often. */
#define FTG_STABLE_READS	20

const char *ftg_verdict_name(enum ftg_verdict v)
{
#define FTG_VERDICT_WORD(id, word)	[FTG_V_##id] = word,
	static const char *const names[] = {
		FTGUARD_VERDICTS(FTG_VERDICT_WORD)
	};
#undef FTG_VERDICT_WORD

	return names[v];
}

const char *ftg_patch_state_name(enum ftg_patch_state st)
{
#define FTG_SITE_STATE_WORD(id, word)	[FTG_PATCH_##id] = word,
	static const char *const names[] = {
		FTGUARD_SITE_STATES(FTG_SITE_STATE_WORD)
	};
#undef FTG_SITE_STATE_WORD

	return names[st];
}

/*
 * Verdict on what @s claims to be, before any of its bytes is touched.
 * @proven: its ftrace record was just proven with the whole check's.
 */
static enum ftg_verdict ftg_prove_text(struct ftg_patch_site *s, bool proven)
{
	enum ftg_sym sym;
	int record;

	if (s->owner && s->owner->state >= FTG_MOD_GOING)
		return FTG_V_STALE;
	record = proven ? 1 : ftg_record_is(s->ip);
	if (record < 0) {
		/* no answer: no verdict, and the whole check fails (-ENOMEM) */
		ftg.check_short = true;
		return FTG_V_OK;
	}
	/*
	 * Text neither moves nor changes owner while its owner is loaded
	 * (the core kernel always is; its init text is gone before ftguard
	 * loads), and a module's sites go before it does (init sites when
	 * init is freed): once kallsyms named a site, it always will. A
	 * module's lookup scans its whole symbol table and the core
	 * kernel's expands a compressed name: both worth remembering. A
	 * planted site was never named, so it is looked up every time.
	 */
	if (s->sym_proven)
		sym = FTG_SYM_EXACT;
	else
		sym = ftg_sym_classify(s->ip, s->name, s->offset,
				       s->owner ? s->owner->name : NULL);
	if (s->had_record && !record)
		return FTG_V_STALE;	/* its record went away */
	if (sym == FTG_SYM_OTHER)
		return FTG_V_STALE;	/* the address is someone else's now */
	if (!record)
		return FTG_V_FOREIGN;	/* never was text */
	if (sym != FTG_SYM_EXACT)
		return FTG_V_STALE;
	s->sym_proven = !s->planted;
	return FTG_V_OK;
}

/*
 * Text that is there for good: a vmlinux site whose record and exact
 * symbol a check has proven. The core kernel's records are fixed once its
 * init text is freed, before any module can load, and its text is never
 * unmapped; a planted site is never proven.
 */
static bool ftg_text_permanent(const struct ftg_patch_site *s)
{
	return !s->owner && !s->planted && s->sym_proven;
}

/*
 * The only place ftguard reads a site's text: its prologue. Proven text
 * only; the prefix belongs to the same symbol as the proven record.
 */
static int ftg_read_text(struct ftg_patch_site *s, u8 *buf)
{
	const void *text = (const void *)(s->ip - s->offset);
	size_t len = s->offset + FTG_SITE_BYTES;

	s->reads++;
	/*
	 * Permanent text cannot fault: a plain copy (memcpy is assembly,
	 * never a traced function), so that a re-check of the whole kernel
	 * armed does not run an armed callback for every site it reads.
	 */
	if (ftg_text_permanent(s)) {
		memcpy(buf, text, len);
		return 0;
	}
	return copy_from_kernel_nofault(buf, text, len);
}

/*
 * The PLT entry an armed site of a module calls through (arm64): read only
 * when it lies in the core text of the site's own live module.
 */
static int ftg_read_plt(struct ftg_patch_site *s, unsigned long plt, u8 *buf)
{
	const struct ftg_module *fm = s->owner;

	if (!FTG_ARCH_PLT_BYTES || !fm || fm->state >= FTG_MOD_GOING ||
	    plt < fm->core_base ||
	    plt - fm->core_base + FTG_ARCH_PLT_BYTES > fm->core_text_size)
		return -EFAULT;
	s->reads++;
	return copy_from_kernel_nofault(buf, (const void *)plt,
					FTG_ARCH_PLT_BYTES);
}

/*
 * ftrace's list callers: a site with several ops on its record calls one
 * of them at its start, and it walks every ops whose filter holds the
 * site (ftrace_ops_list_func()). A site with one ops that has no
 * trampoline calls them too (i386 makes none, arm64 neither).
 */
static bool ftg_is_list_caller(unsigned long target)
{
	static const char *const callers[] = {
		"ftrace_caller+0x0/",
		"ftrace_regs_caller+0x0/",
	};
	unsigned int i;

	if (ftg.list_caller_ok && target == ftg.list_caller_ok)
		return true;
	sprint_symbol(ftg.symbuf, target);
	for (i = 0; i < ARRAY_SIZE(callers); i++) {
		if (!strncmp(ftg.symbuf, callers[i], strlen(callers[i]))) {
			ftg.list_caller_ok = target;
			return true;
		}
	}
	return false;
}

/*
 * Does a site's call go to an ftrace trampoline? is_ftrace_trampoline() is
 * not exported, and sprint_symbol() does not resolve allocated trampolines
 * (only /proc/kallsyms lists them, as ftrace_trampoline). Accepted, without
 * reading the target:
 *  - the list callers at +0 (ftg_is_list_caller()), ftrace_trampoline
 *    at +0;
 *  - a trampoline ftrace allocated for another ops alone on a record (the
 *    function tracer, kprobes), on the kernel's word: enabled_functions
 *    names it as a record's trampoline (ftg_tramp_is()). Being unnamed
 *    and page-aligned in module space proves nothing: so are the holes
 *    unloaded modules leave, BPF's packs and kprobes' instruction pages.
 * Never ftguard's own (ops.trampoline): a site it does not hold armed has
 * no ftguard ops on its record, so ftrace made no such call. A site
 * ftguard holds armed is judged by ftg_calls_ftguard() instead: for it,
 * another's trampoline means ftguard is no longer called.
 */
static bool ftg_is_trampoline(unsigned long target)
{
	if (ftg_is_list_caller(target))
		return true;
	/* ftg.symbuf names @target now */
	if (str_has_prefix(ftg.symbuf, "ftrace_trampoline+0x0/"))
		return true;
	return ftg_tramp_is(target, NULL);
}

/*
 * ftg_is_trampoline() with the call targets it accepted during this check
 * remembered (ftg.tramps_ok, emptied when a check starts): every site
 * shared with another ops calls the same list caller, and each ops alone
 * on its sites the same trampoline; naming one costs a symbol lookup, and
 * proving an allocated one a search of what enabled_functions said.
 * Nothing the answer depends on can change within one check: it runs
 * under ftg.lock, which module load and unload and every arm take.
 */
static bool ftg_trampoline_seen(unsigned long target)
{
	unsigned int i;

	for (i = 0; i < ftg.ntramps_ok; i++)
		if (ftg.tramps_ok[i] == target)
			return true;
	if (!ftg_is_trampoline(target))
		return false;
	if (ftg.ntramps_ok < ARRAY_SIZE(ftg.tramps_ok))
		ftg.tramps_ok[ftg.ntramps_ok++] = target;
	else
		ftg.tramps_ok[target % ARRAY_SIZE(ftg.tramps_ok)] = target;
	return true;
}

/*
 * A site ftguard holds armed: its ops (ftguard's own, or the graph's hooks)
 * is on the site's record, so ftrace makes the site call the start of that
 * ops' trampoline (the ops alone there) or a list caller (among others, or
 * no trampoline). Nothing else reaches ftguard: a call to another ops' or
 * a direct trampoline, or into the middle of ftguard's own, means ftguard
 * is no longer called, whoever made it.
 */
static bool ftg_reaches_ftguard(const struct ftg_patch_site *s,
				unsigned long target)
{
	/* what costs nothing first: a whole-kernel verify asks per site */
	if (ftg.graph ? ftg_graph_reaches(s->ip, target, false) :
			ftg.ops.trampoline && target == ftg.ops.trampoline)
		return true;
	if (ftg_is_list_caller(target))
		return true;
	return ftg.graph && ftg_graph_reaches(s->ip, target, true);
}

/* The call of an armed site, @target, through its module's PLT (arm64). */
static bool ftg_calls_ftguard(struct ftg_patch_site *s, unsigned long target)
{
	u8 plt[FTG_ARCH_PLT_BYTES + 1];	/* +1: x86 has none */

	if (ftg_reaches_ftguard(s, target))
		return true;
	return !ftg_read_plt(s, target, plt) &&
	       ftg_arch_plt_target(target, plt, &target) &&
	       ftg_reaches_ftguard(s, target);
}

/* Whom the call at a site goes to, as a check read it. */
struct ftg_call_seen {
	unsigned long target;	/* 0: no call (the NOP) */
	bool direct;		/* ftrace's word: a direct trampoline */
	bool lost;		/* an armed site whose call misses ftguard */
};

/*
 * Reads proven text into @s->actual; a patch in flight (int3 written,
 * text_poke_bp()) is read again until it has landed, a few times.
 * Return: 0 landed, 1 still in flight, -EFAULT unreadable.
 */
static int ftg_read_landed(struct ftg_patch_site *s)
{
	unsigned int tries = 0;

	for (;;) {
		if (ftg_read_text(s, s->actual)) {
			s->actual_valid = false;
			return -EFAULT;
		}
		s->actual_valid = true;
		if (!ftg_arch_patch_in_flight(s->actual + s->offset))
			return 0;
		if (++tries > FTG_IN_FLIGHT_RETRIES)
			return 1;
		usleep_range(100, 200);
	}
}

/*
 * Judges the prologue in @s->actual against @s->expect; @seen says what
 * the call went to (for ftg_share_note()).
 */
static enum ftg_verdict ftg_judge_copy(struct ftg_patch_site *s,
				       struct ftg_call_seen *seen)
{
	const u8 *site = s->actual + s->offset;
	u8 plt[FTG_ARCH_PLT_BYTES + 1];	/* +1: x86 has none */
	unsigned long target;

#if FTG_FAULT_INJECTION_BUILD
	if (s->divert) {
		ftg_arch_call_encode(s->ip, s->actual + s->offset,
				     s->expect.call_op, s->divert);
		if (s->divert_reads && !--s->divert_reads)
			s->divert = 0;
	}
#endif
	s->prefix = ftg_arch_prefix_of(s->actual, s->offset);
	if (!s->prefix)
		return FTG_V_MISMATCH;
	if (ftg_bytes_equal(site, s->expect.nop, FTG_SITE_BYTES))
		return FTG_V_OK;
	if (!ftg_arch_call_target(s->ip, site, s->expect.call_op, &target))
		return FTG_V_MISMATCH;
	seen->target = target;
	if (s->arm_idx >= 0) {
		if (ftg_calls_ftguard(s, target))
			return FTG_V_OK;
		seen->lost = true;
		return FTG_V_MISMATCH;
	}
	if (ftg_trampoline_seen(target))
		return FTG_V_OK;
	/* another user's trampoline, alone on the site: ftrace's word only */
	if (ftg_direct_is(s->ip, target)) {
		seen->direct = true;
		return FTG_V_OK;
	}
	if (ftg_read_plt(s, target, plt) ||
	    !ftg_arch_plt_target(target, plt, &target))
		return FTG_V_MISMATCH;
	return ftg_trampoline_seen(target) ? FTG_V_OK : FTG_V_MISMATCH;
}

/*
 * Reads proven text and judges it (ftg_judge_copy()). A mismatch counts
 * only on a stable view: the same landed bytes read twice in a row. A
 * copy is several loads, and another tracer's text_poke_bp() on the same
 * function writes the int3, then the tail, then the first byte: a copy
 * taken across those writes can hold the old first byte with the new
 * tail, a call to nowhere that no read after it shows.
 */
static enum ftg_verdict ftg_judge_bytes(struct ftg_patch_site *s,
					struct ftg_call_seen *seen)
{
	size_t len = s->offset + FTG_SITE_BYTES;
	u8 last[FTG_PROLOGUE_MAX];
	unsigned int reads = 0;
	enum ftg_verdict v;
	int in_flight;

	for (;;) {
		in_flight = ftg_read_landed(s);
		if (in_flight < 0)
			return FTG_V_STALE;
		memset(seen, 0, sizeof(*seen));
		v = ftg_judge_copy(s, seen);
		if (v != FTG_V_MISMATCH)
			return v;
		if (reads && !in_flight && !memcmp(last, s->actual, len))
			break;
		if (++reads > FTG_STABLE_READS)
			break;
		memcpy(last, s->actual, len);
		usleep_range(100, 200);
	}
	if (seen->lost && !ftg.stray_ip) {
		ftg.stray_ip = s->ip;
		ftg.stray_call = seen->target;
	}
	return v;
}

/*
 * What the call at an armed site says (enum ftg_share). With ftguard's ops
 * alone on a record, ftrace makes the site call that ops' own trampoline;
 * with another ops on the record too it calls the list caller
 * (ftrace_caller, ftrace_regs_caller), which walks every ops. Without a
 * trampoline of its own (i386 makes none, arm64 neither, and an arm with
 * exits hooks through fprobe or kprobes, whose trampolines ftguard does
 * not know) ftguard cannot tell, and says nothing.
 */
static enum ftg_share ftg_share_now(const struct ftg_call_seen *seen)
{
	unsigned long tramp = ftg.ops.trampoline;

	if (ftg.graph || !tramp || !seen->target)
		return FTG_SHARE_UNKNOWN;
	if (seen->target - tramp < ftg.ops.trampoline_size)
		return FTG_SHARE_ALONE;
	return seen->direct ? FTG_SHARE_DIRECT : FTG_SHARE_SHARED;
}

/**
 * ftg_share_at_arm - what an armed site's call will say once armed
 * @s: a site the arm's check just found ok, before ftguard's ops is on it
 *
 * A site that called nobody then has ftguard alone on it now; one that
 * called someone has ftguard beside them. Said by the arm, so that a user
 * who joins before the first verify of the site is told too.
 * Context: ftg.lock held, the ops registered.
 */
enum ftg_share ftg_share_at_arm(const struct ftg_patch_site *s)
{
	if (ftg.graph || !ftg.ops.trampoline || !s->actual_valid)
		return FTG_SHARE_UNKNOWN;
	return ftg_bytes_equal(s->actual + s->offset, s->expect.nop,
			       FTG_SITE_BYTES) ? FTG_SHARE_ALONE :
						 FTG_SHARE_SHARED;
}

/*
 * An armed site's call changed whom it goes to: another ftrace user
 * joined or left. Said in a site event, never judged: the verdict was ok.
 * Only a change is said, so a verify of the whole kernel armed calls no
 * kernel function for a site that stayed as it was.
 */
static void ftg_share_note(struct ftg_patch_site *s,
			   const struct ftg_call_seen *seen)
{
	enum ftg_share now = ftg_share_now(seen);
	char why[FTGUARD_REASON_MAX];

	if (now == FTG_SHARE_UNKNOWN || now == s->share)
		return;
	if (s->share != FTG_SHARE_UNKNOWN) {
		if (now == FTG_SHARE_ALONE)
			snprintf(why, sizeof(why),
				 "calls ftguard's own trampoline: no other ftrace user");
		else if (now == FTG_SHARE_DIRECT)
			snprintf(why, sizeof(why),
				 "direct call to %ps: another ftrace user",
				 (void *)seen->target);
		else
			snprintf(why, sizeof(why),
				 "calls %ps: another ftrace user",
				 (void *)seen->target);
		trace_site(s->ip, s->name, now == FTG_SHARE_ALONE ?
			   FTGUARD_SITE_ALONE : FTGUARD_SITE_SHARED, why);
	}
	s->share = now;
}

/*
 * Fault injection: a site planted blind stands for a fault of ftguard.ko's
 * own proof, a site it would call consistent whatever is there; its text
 * is never read. The address map must refuse it on its own word.
 */
static bool ftg_site_blind(const struct ftg_patch_site *s)
{
#if FTG_FAULT_INJECTION_BUILD
	return s->blind;
#else
	return false;
#endif
}

static enum ftg_verdict ftg_check_site(struct ftg_patch_site *s, bool proven)
{
	enum ftg_verdict v;
	struct ftg_call_seen seen = { 0 };

	s->actual_valid = false;
	s->prefix = NULL;
	if (ftg_site_blind(s)) {
		s->state = FTG_PATCH_OK;
		return FTG_V_OK;
	}
	v = ftg_prove_text(s, proven);
	if (ftg.check_short)
		return v;	/* judged nothing, changed nothing */
	if (v == FTG_V_OK)
		v = ftg_judge_bytes(s, &seen);
	if (ftg.check_short)
		return v;	/* judged on less than the kernel said */
	switch (v) {
	case FTG_V_OK:
		s->state = s->arm_idx >= 0 ? FTG_PATCH_ARMED : FTG_PATCH_OK;
		if (s->arm_idx >= 0)
			ftg_share_note(s, &seen);
		break;
	case FTG_V_STALE:
		s->state = FTG_PATCH_STALE;
		break;
	case FTG_V_FOREIGN:
		s->state = FTG_PATCH_FOREIGN;
		break;
	case FTG_V_MISMATCH:
		s->state = FTG_PATCH_MISMATCH;
		break;
	}
	return v;
}

size_t ftg_escape(char *dst, size_t size, const char *src)
{
	int n = string_escape_str(src, dst, size, FTG_ESC_FLAGS, FTG_ESC_NAME);

	return min_t(size_t, n, size);
}

/* @src escaped with the @only set, cut to fit @size and NUL-terminated. */
void ftg_escape_into(char *dst, size_t size, const char *src, const char *only)
{
	int n = string_escape_str(src, dst, size - 1, FTG_ESC_FLAGS, only);

	dst[min_t(size_t, n, size - 1)] = '\0';
}

static size_t ftg_hex(char *dst, const u8 *bytes, unsigned int n)
{
	return n ? sprintf(dst, "%*phN", n, bytes) : 0;
}

/**
 * ftg_site_bytes_hex - a site's prologue as "prefix:site" hex
 * @dst: room for 2 * FTG_PROLOGUE_MAX + 2 bytes
 * @s: the site
 * @expected: what a check expects (the prefix it read, else the arch's
 *	first of that length) rather than what it read
 *
 * No prefix, no colon: "0f1f440000". "-" when nothing was read.
 * Return: the length written, without the NUL.
 */
size_t ftg_site_bytes_hex(char *dst, const struct ftg_patch_site *s,
			  bool expected)
{
	const struct ftg_prefix *prefix = s->prefix;
	size_t n = 0;

	if (!expected && !s->actual_valid)
		return sprintf(dst, "-");
	if (s->offset) {
		if (expected) {
			if (!prefix)
				prefix = ftg_arch_prefix_first(s->offset);
			n = ftg_hex(dst, prefix->bytes, s->offset);
		} else {
			n = ftg_hex(dst, s->actual, s->offset);
		}
		dst[n++] = ':';
	}
	n += ftg_hex(dst + n, expected ? s->expect.nop : s->actual + s->offset,
		     FTG_SITE_BYTES);
	return n;
}

/* Worst case: every name char escaped to 4, plus the fixed fields. */
static size_t ftg_line_max(const struct ftg_patch_site *s)
{
	return 128 + 4 * strlen(s->name) + 4 * strlen(ftg_owner_name(s));
}

static size_t ftg_report_line(char *p, struct ftg_patch_site *s,
			      enum ftg_verdict v, size_t room)
{
	size_t n;

	n = sprintf(p, "0x%lx %s ", s->ip, ftg_verdict_name(v));
	n += ftg_escape(p + n, room - n, ftg_owner_name(s));
	p[n++] = ' ';
	n += ftg_site_bytes_hex(p + n, s, true);
	p[n++] = ' ';
	n += ftg_site_bytes_hex(p + n, s, false);
	p[n++] = ' ';
	n += ftg_escape(p + n, room - n, s->name);
	p[n++] = '\n';
	return n;
}

/*
 * A re-check's proof of records: only of the sites whose text is not
 * permanent (module sites, planted ones), in one filter update. The
 * others' records cannot have gone since a check proved them. Sets
 * @permanent[i] for those, which need no proof.
 */
static bool ftg_reprove_records(struct ftg_patch_site **sites, unsigned int n,
				bool *permanent)
{
	struct ftg_patch_site **rest;
	unsigned int i, m = 0;
	bool proven;

	rest = kvmalloc_array(max(n, 1U), sizeof(*rest), GFP_KERNEL);
	if (!rest)
		return false;	/* each is then asked alone */
	ftg_obj_add(FTG_OBJ_SCRATCH, rest);
	for (i = 0; i < n; i++) {
		permanent[i] = ftg_text_permanent(sites[i]);
		if (!permanent[i])
			rest[m++] = sites[i];
	}
	proven = ftg_are_records(rest, m);
	ftg_obj_del(FTG_OBJ_SCRATCH, rest);
	kvfree(rest);
	return proven;
}

/**
 * ftg_check_sites - check @n sites and write the report
 * @sites: the sites (all live, from the table)
 * @n: how many
 * @report: on success, a kvmalloc'ed report the caller owns
 * @report_len: its length
 * @recheck: sites a check proved before (the verify of an arm): the
 *	records of permanent text are not asked for again
 *
 * Context: ftg.lock held.
 * Return: the number of sites that are not ok, or -ENOMEM.
 */
int ftg_check_sites(struct ftg_patch_site **sites, unsigned int n,
		    char **report, size_t *report_len, bool recheck)
{
	bool list_all = n < FTG_REPORT_ALL_BELOW;
	enum ftg_verdict *verdicts;
	unsigned int i, bad = 0;
	size_t size = 128, len;
	u64 start = ftg_now_ms();
	bool *permanent = NULL;
	bool proven;
	char *buf;

	lockdep_assert_held(&ftg.lock);
	verdicts = ftg_memory_fails() ? NULL :
		   kvmalloc_array(max(n, 1U), sizeof(*verdicts), GFP_KERNEL);
	if (recheck)
		permanent = kvcalloc(max(n, 1U), sizeof(*permanent),
				     GFP_KERNEL);
	if (!verdicts || (recheck && !permanent)) {
		kvfree(verdicts);
		kvfree(permanent);
		return -ENOMEM;
	}
	ftg_obj_add(FTG_OBJ_SCRATCH, verdicts);
	ftg_obj_add(FTG_OBJ_SCRATCH, permanent);
	ftg.ntramps_ok = 0;
	ftg.list_caller_ok = 0;
	ftg.hook_tramp_ok = 0;
	ftg.stray_ip = 0;
	ftg.check_short = false;
	if (recheck)
		proven = ftg_reprove_records(sites, n, permanent);
	else
		proven = ftg_are_records(sites, n);
	for (i = 0; i < n && !ftg.check_short; i++) {
		bool known = proven || (permanent && permanent[i]);

		verdicts[i] = ftg_check_site(sites[i], known);
		if (verdicts[i] != FTG_V_OK)
			bad++;
		if (verdicts[i] != FTG_V_OK || list_all)
			size += ftg_line_max(sites[i]);
		if (!(i % 256))
			cond_resched();
	}
	ftg_enabled_forget();
	ftg_obj_del(FTG_OBJ_SCRATCH, permanent);
	kvfree(permanent);
	buf = ftg.check_short || ftg_memory_fails() ? NULL :
	      kvmalloc(size, GFP_KERNEL);
	if (!buf) {
		ftg_obj_del(FTG_OBJ_SCRATCH, verdicts);
		kvfree(verdicts);
		return -ENOMEM;
	}
	ftg_obj_add(FTG_OBJ_REPORT, buf);
	len = sprintf(buf, FTGUARD_HEADER(FTGUARD_TABLE_CHECK)
		      " %d\nresult %s %u %u %llu\n",
		      FTGUARD_FORMAT_VERSION,
		      bad ? FTGUARD_RESULT_FAIL : FTGUARD_RESULT_OK,
		      n - bad, bad, ftg_now_ms() - start);
	for (i = 0; i < n; i++)
		if (verdicts[i] != FTG_V_OK || list_all)
			len += ftg_report_line(buf + len, sites[i], verdicts[i],
					       size - len);
	ftg_obj_del(FTG_OBJ_SCRATCH, verdicts);
	kvfree(verdicts);

	ftg.checked = true;
	ftg.last_check_ms = ftg_now_ms();
	ftg.last_ok = n - bad;
	ftg.last_bad = bad;
	trace_check(n - bad, bad);
	*report = buf;
	*report_len = len;
	return bad;
}

/**
 * ftg_check - check @n sites and write the report
 * @sites: the sites (all live, from the table)
 * @n: how many
 * @report: on success, a kvmalloc'ed report the caller owns
 * @report_len: its length
 *
 * Every site's record is proven again.
 * Context: ftg.lock held.
 * Return: the number of sites that are not ok, or -ENOMEM.
 */
int ftg_check(struct ftg_patch_site **sites, unsigned int n, char **report,
	      size_t *report_len)
{
	return ftg_check_sites(sites, n, report, report_len, false);
}
