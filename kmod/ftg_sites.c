// SPDX-License-Identifier: GPL-2.0
/*
 * The site table and the module lifecycle.
 *
 * Sites come only from build-time records: a module's ftrace_callsites
 * (taken at COMING, or when ftguard starts for modules already loaded) and
 * vmlinux candidates that the kernel itself confirms (ftg_admit). A site is
 * the ftrace record of its function, at the offset the arch's prologue
 * puts it (ftg_arch.h); the symbol table must name it exactly there. Init
 * sites are dropped in the LIVE notifier, the last moment before init text
 * is freed; every site of a module is dropped in its GOING notifier. All of
 * it runs under ftg.lock.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/kobject.h>
#include <linux/slab.h>
#include <linux/string.h>

#include "ftg.h"
#include "ftg_trace.h"

static const struct ftg_expect ftg_expect_default = {
	.nop = FTG_ARCH_NOP,
	.call_op = FTG_ARCH_CALL_OP,
};

struct ftg_patch_site *ftg_site_find(unsigned long ip)
{
	struct rb_node *n = ftg.sites.rb_node;

	lockdep_assert_held(&ftg.lock);
	while (n) {
		struct ftg_patch_site *s;

		s = rb_entry(n, struct ftg_patch_site, node);

		if (ip < s->ip)
			n = n->rb_left;
		else if (ip > s->ip)
			n = n->rb_right;
		else
			return s;
	}
	return NULL;
}

struct ftg_patch_site *ftg_site_first(void)
{
	struct rb_node *n = rb_first(&ftg.sites);

	return n ? rb_entry(n, struct ftg_patch_site, node) : NULL;
}

struct ftg_patch_site *ftg_site_next(struct ftg_patch_site *s)
{
	struct rb_node *n = rb_next(&s->node);

	return n ? rb_entry(n, struct ftg_patch_site, node) : NULL;
}

unsigned int ftg_nsites(void)
{
	return ftg.n_vmlinux + ftg.n_module;
}

const char *ftg_owner_name(const struct ftg_patch_site *s)
{
	return s->owner ? s->owner->name : "vmlinux";
}

/* Returns NULL (and adds nothing) if @ip is already a site or on -ENOMEM. */
struct ftg_patch_site *ftg_site_add(unsigned long ip, unsigned int offset,
			      const char *name, struct ftg_module *owner,
			      bool init)
{
	struct rb_node **link = &ftg.sites.rb_node, *parent = NULL;
	struct ftg_patch_site *s;

	/*
	 * Every site the kernel has is one of these: on x86-64 it stays one
	 * kmalloc-128 object (doc/performance.md, memory per site).
	 */
	BUILD_BUG_ON(IS_ENABLED(CONFIG_X86_64) && !FTG_FAULT_INJECTION_BUILD &&
		     sizeof(struct ftg_patch_site) > 128);
	lockdep_assert_held(&ftg.lock);
	while (*link) {
		struct ftg_patch_site *cur;

		cur = rb_entry(*link, struct ftg_patch_site, node);

		parent = *link;
		if (ip < cur->ip)
			link = &(*link)->rb_left;
		else if (ip > cur->ip)
			link = &(*link)->rb_right;
		else
			return NULL;
	}
	s = kzalloc(sizeof(*s), GFP_KERNEL);
	if (!s)
		return NULL;
	s->name = kstrdup(name, GFP_KERNEL);
	if (!s->name) {
		kfree(s);
		return NULL;
	}
	ftg_obj_add(FTG_OBJ_SITE, s);
	s->ip = ip;
	s->offset = offset;
	s->owner = owner;
	s->init = init;
	s->had_record = true;
	s->arm_idx = -1;
	s->expect = ftg_expect_default;
	INIT_LIST_HEAD(&s->mod_node);
	rb_link_node(&s->node, parent, link);
	rb_insert_color(&s->node, &ftg.sites);
	if (owner) {
		list_add_tail(&s->mod_node, &owner->sites);
		owner->nsites++;
		ftg.n_module++;
	} else {
		ftg.n_vmlinux++;
	}
	trace_site(ip, name, FTGUARD_SITE_ADD, owner ? owner->name : "admit");
	return s;
}

/* Disarms @s, takes it out of every selection and frees it. */
void ftg_site_drop(struct ftg_patch_site *s, const char *reason)
{
	lockdep_assert_held(&ftg.lock);
	ftg_disarm_site(s);
	ftg_sessions_forget(s->ip);
	trace_site(s->ip, s->name, FTGUARD_SITE_DROP, reason);
	rb_erase(&s->node, &ftg.sites);
	if (s->owner) {
		list_del(&s->mod_node);
		s->owner->nsites--;
		ftg.n_module--;
	} else {
		ftg.n_vmlinux--;
	}
	ftg_obj_del(FTG_OBJ_SITE, s);
	kfree(s->name);
	kfree(s);
}

/**
 * ftg_memory_fails - does this memory request fail? (fault injection)
 *
 * "fail-memory N" lets the next N of ftguard's memory requests in check,
 * arm and verify pass, fails the one after, and is spent; each failure
 * is logged, so a test knows it was reached.
 * Context: ftg.lock held.
 */
bool ftg_memory_fails(void)
{
	lockdep_assert_held(&ftg.lock);
	if (!FTG_FAULT_INJECTION_BUILD || ftg.fi_memory_skip < 0)
		return false;
	if (ftg.fi_memory_skip--)
		return false;
	pr_info("fault injection: a memory request fails\n");
	return true;
}

/**
 * ftg_record_is - is @ip a current ftrace record?
 * @ip: the address
 *
 * Asks the kernel's own record table: ftrace_set_filter_ip() refuses an
 * address without a record (-EINVAL). It allocates a filter hash first,
 * and out of memory it knows nothing of @ip: that is no answer, never
 * "not a record", which would call a module's live site stale. The probe
 * ops is never registered, so this patches nothing.
 * Context: ftg.lock held.
 * Return: 1 a record, 0 not, -ENOMEM no answer.
 */
int ftg_record_is(unsigned long ip)
{
	int ret;

	lockdep_assert_held(&ftg.lock);
	if (ftg_memory_fails())
		return -ENOMEM;
	ret = ftrace_set_filter_ip(&ftg.probe_ops, ip, 0, 1);
	if (ret == -ENOMEM)
		return ret;
	return !ret;
}

/* ftg_record_is(), where no answer is as good as no */
bool ftg_is_record(unsigned long ip)
{
	return ftg_record_is(ip) > 0;
}

/*
 * ftg_is_record() of @n sites in one filter update instead of n (each
 * call allocates a hash and frees the last one). True only when every
 * ip is a record: ftrace stops at the first that is not, and the caller
 * then asks one by one. The probe ops' filter is emptied again, so no
 * hash of a whole check is kept between checks.
 */
bool ftg_are_records(struct ftg_patch_site **sites, unsigned int n)
{
	unsigned long *ips;
	unsigned int i;
	int ret;

	lockdep_assert_held(&ftg.lock);
	if (n < 2 || ftg_memory_fails())
		return false;
	ips = kvmalloc_array(n, sizeof(*ips), GFP_KERNEL);
	if (!ips)
		return false;
	ftg_obj_add(FTG_OBJ_SCRATCH, ips);
	for (i = 0; i < n; i++)
		ips[i] = sites[i]->ip;
	ret = ftrace_set_filter_ips(&ftg.probe_ops, ips, n, 0, 1);
	if (ftrace_set_filter_ips(&ftg.probe_ops, NULL, 0, 0, 1))
		ret = -EIO;
	ftg_obj_del(FTG_OBJ_SCRATCH, ips);
	kvfree(ips);
	return !ret;
}

/*
 * Cuts sprint_symbol()'s "name+0xoff/0xsize [mod]" in @sym at the '+' and
 * returns off, or -1 when @sym names no symbol.
 */
long ftg_sym_offset(char *sym)
{
	char *plus = strchr(sym, '+'), *slash;
	unsigned long off;

	if (!plus)
		return -1;
	slash = strchr(plus, '/');
	if (!slash)
		return -1;
	*slash = '\0';
	*plus = '\0';
	if (kstrtoul(plus + 1, 16, &off) || off > LONG_MAX)
		off = -1;
	*slash = '/';
	return off;
}

/*
 * Classifies what the kernel's symbol table says is at @ip: exactly
 * "@name+@offset/..." in @modname (NULL: vmlinux), another symbol (or
 * offset), or none. Leaves the whole symbol in ftg.symbuf.
 */
enum ftg_sym ftg_sym_classify(unsigned long ip, const char *name,
			      unsigned int offset, const char *modname)
{
	char *buf = ftg.symbuf;
	size_t nlen = strlen(name);
	const char *plus, *mod;
	char want[24];

	lockdep_assert_held(&ftg.lock);
	sprint_symbol(buf, ip);
	plus = strchr(buf, '+');
	if (!plus)
		return FTG_SYM_NONE;
	snprintf(want, sizeof(want), "+0x%x/", offset);
	if (plus - buf != nlen || strncmp(buf, name, nlen) ||
	    strncmp(plus, want, strlen(want)))
		return FTG_SYM_OTHER;
	mod = strstr(plus, " [");
	if (!modname)
		return mod ? FTG_SYM_OTHER : FTG_SYM_EXACT;
	if (!mod)
		return FTG_SYM_OTHER;
	mod += 2;
	if (strncmp(mod, modname, strlen(modname)))
		return FTG_SYM_OTHER;
	mod += strlen(modname);
	return (*mod == ']' || *mod == ' ') ? FTG_SYM_EXACT : FTG_SYM_OTHER;
}

/*
 * Where @ip's function has its record when @ip is the function's start
 * but the arch may put the record after a prefix: ftrace_set_filter_ip()
 * takes a function's start for its record, and a record at +len covers
 * +len but not +len-1. 0 when the record is at @ip itself.
 */
static unsigned int ftg_record_after_prefix(unsigned long ip)
{
	unsigned int i, len, tried = 0;

	for (i = 0; i < ARRAY_SIZE(ftg_arch_prefixes); i++) {
		len = ftg_arch_prefixes[i].len;
		if (!len || len == tried)
			continue;	/* prefixes of one length are together */
		tried = len;
		if (ftg_is_record(ip + len) && !ftg_is_record(ip + len - 1))
			return len;
	}
	return 0;
}

int ftg_admit(const char *name, unsigned long ip, char *why, size_t len)
{
	struct ftg_patch_site *s = ftg_site_find(ip);
	unsigned int after;
	long off;

	if (s) {
		if (!s->owner && !strcmp(s->name, name))
			return 0;
		snprintf(why, len, "0x%lx is already the site of %s [%s]",
			 ip, s->name, ftg_owner_name(s));
		goto reject;
	}
	if (!ftg_is_record(ip)) {
		snprintf(why, len, "0x%lx is not an ftrace record", ip);
		goto reject;
	}
	sprint_symbol(ftg.symbuf, ip);
	off = ftg_sym_offset(ftg.symbuf);
	if (off < 0 || !ftg_arch_offset_ok(off) ||
	    ftg_sym_classify(ip, name, off, NULL) != FTG_SYM_EXACT) {
		sprint_symbol(ftg.symbuf, ip);	/* whole, for the reason */
		snprintf(why, len,
			 "0x%lx is %s, not the record of %s in vmlinux",
			 ip, ftg.symbuf, name);
		goto reject;
	}
	after = off ? 0 : ftg_record_after_prefix(ip);
	if (after) {
		snprintf(why, len,
			 "0x%lx is the start of %s; its record is at +0x%x",
			 ip, name, after);
		goto reject;
	}
	if (!ftg_site_add(ip, off, name, NULL, false)) {
		snprintf(why, len, "out of memory");
		return -ENOMEM;
	}
	ftg.admitted++;
	return 0;
reject:
	ftg.rejected++;
	return -EINVAL;
}

/* ---- modules ------------------------------------------------------------ */

static void ftg_module_layout(const struct module *mod, struct ftg_module *fm)
{
#ifdef FTG_HAVE_MODULE_MEM
	fm->core_base = (unsigned long)mod->mem[MOD_TEXT].base;
	fm->core_text_size = mod->mem[MOD_TEXT].size;
	fm->init_base = (unsigned long)mod->mem[MOD_INIT_TEXT].base;
	fm->init_text_size = mod->mem[MOD_INIT_TEXT].size;
#else
	fm->core_base = (unsigned long)mod->core_layout.base;
	fm->core_text_size = mod->core_layout.text_size;
	fm->init_base = (unsigned long)mod->init_layout.base;
	fm->init_text_size = mod->init_layout.text_size;
#endif
}

const char *ftg_mod_state_name(enum ftg_mod_state st)
{
#define FTG_MOD_STATE_WORD(id, word)	[FTG_MOD_##id] = word,
	static const char *const names[] = {
		FTGUARD_MODULE_STATES(FTG_MOD_STATE_WORD)
	};
#undef FTG_MOD_STATE_WORD

	return names[st];
}

static void ftg_module_event(struct ftg_module *fm)
{
	trace_module(fm->name, ftg_mod_state_name(fm->state), fm->nsites);
}

static struct ftg_module *ftg_module_find(const struct module *mod)
{
	struct ftg_module *fm;

	list_for_each_entry(fm, &ftg.modules, node)
		if (fm->mod == mod && fm->state != FTG_MOD_GONE)
			return fm;
	return NULL;
}

static bool ftg_in(unsigned long ip, unsigned long base, unsigned long size)
{
	return ip >= base && ip - base < size;
}

/*
 * Adds @fm's sites from its build-time call-site list. With @with_init
 * false, init text is not trusted (it may be freed without notice).
 */
static void ftg_module_add_sites(const struct module *mod,
				 struct ftg_module *fm, bool with_init)
{
	unsigned int i;

	for (i = 0; i < mod->num_ftrace_callsites; i++) {
		unsigned long ip =
			ftg_arch_callsite_record(mod->ftrace_callsites[i]);
		bool init;
		long off;

		if (ftg_in(ip, fm->core_base, fm->core_text_size))
			init = false;
		else if (with_init &&
			 ftg_in(ip, fm->init_base, fm->init_text_size))
			init = true;
		else
			continue;
		sprint_symbol(ftg.symbuf, ip);
		off = ftg_sym_offset(ftg.symbuf);
		if (off < 0 || !ftg_arch_offset_ok(off))
			continue;	/* not where a prologue ends: not a site */
		ftg_site_add(ip, off, ftg.symbuf, fm, init);
	}
}

static struct ftg_module *ftg_module_coming(const struct module *mod,
					    bool with_init)
{
	struct ftg_module *fm = ftg_module_find(mod);

	if (fm)
		return fm;
	fm = kzalloc(sizeof(*fm), GFP_KERNEL);
	if (!fm) {
		pr_err("no memory to track module %s\n", mod->name);
		return NULL;
	}
	ftg_obj_add(FTG_OBJ_MODULE, fm);
	INIT_LIST_HEAD(&fm->sites);
	strscpy(fm->name, mod->name, sizeof(fm->name));
	fm->mod = mod;
	fm->state = FTG_MOD_COMING;
	ftg_module_layout(mod, fm);
	if (!with_init)
		fm->init_text_size = 0;
	fm->init = fm->init_text_size ? FTG_INIT_LIVE : FTG_INIT_NONE;
	list_add(&fm->node, &ftg.modules);
	ftg_module_add_sites(mod, fm, with_init);
	ftg_module_event(fm);
	return fm;
}

static void ftg_module_drop_sites(struct ftg_module *fm, bool init_only,
				  const char *reason)
{
	struct ftg_patch_site *s, *tmp;

	list_for_each_entry_safe(s, tmp, &fm->sites, mod_node)
		if (s->init || !init_only)
			ftg_site_drop(s, reason);
}

static void ftg_module_live(const struct module *mod)
{
	struct ftg_module *fm = ftg_module_coming(mod, true);

	if (!fm)
		return;
	ftg_module_drop_sites(fm, true, "init-free");
	if (fm->init == FTG_INIT_LIVE) {
		fm->init = FTG_INIT_DROPPED;
		fm->dropped_ms = ftg_now_ms();
	}
	fm->state = FTG_MOD_LIVE;
	ftg_module_event(fm);
}

/* Keeps at most FTG_MAX_TOMBSTONES gone modules, dropping the oldest. */
static void ftg_module_bury(struct ftg_module *fm)
{
	struct ftg_module *old;

	fm->state = FTG_MOD_GONE;
	fm->mod = NULL;
	fm->dropped_ms = ftg_now_ms();
	if (++ftg.n_tombstones <= FTG_MAX_TOMBSTONES)
		return;
	list_for_each_entry_reverse(old, &ftg.modules, node) {
		if (old->state == FTG_MOD_GONE) {
			list_del(&old->node);
			ftg_obj_del(FTG_OBJ_MODULE, old);
			kfree(old);
			ftg.n_tombstones--;
			return;
		}
	}
}

static void ftg_module_going(const struct module *mod)
{
	struct ftg_module *fm = ftg_module_find(mod);

	if (!fm)
		return;
	fm->state = FTG_MOD_GOING;
	ftg_module_event(fm);
	ftg_module_drop_sites(fm, false, "going");
	ftg_module_bury(fm);
}

static int ftg_module_notify(struct notifier_block *nb, unsigned long action,
			     void *data)
{
	struct module *mod = data;

	mutex_lock(&ftg.lock);
	switch (action) {
	case MODULE_STATE_COMING:
		ftg_module_coming(mod, true);
		break;
	case MODULE_STATE_LIVE:
		ftg_module_live(mod);
		break;
	case MODULE_STATE_GOING:
		ftg_module_going(mod);
		break;
	}
	mutex_unlock(&ftg.lock);
	return NOTIFY_OK;
}

static struct notifier_block ftg_module_nb = {
	.notifier_call = ftg_module_notify,
};

#define FTG_SCAN_MAX	1024

/*
 * Takes in the modules loaded before ftguard, from the module kset. Each is
 * pinned with try_module_get() while its sites are read (a GOING module
 * refuses and is skipped: its notifier will find nothing to drop). A module
 * already LIVE may free its init text at any moment without telling us, so
 * only its core sites are taken; one still COMING will reach our LIVE
 * notifier, registered before this scan.
 */
static int ftg_scan_loaded(void)
{
	struct kset *kset = THIS_MODULE->mkobj.kobj.kset;
	struct module **mods;
	struct kobject *k;
	unsigned int n = 0, i;

	if (!kset)
		return 0;
	mods = kvmalloc_array(FTG_SCAN_MAX, sizeof(*mods), GFP_KERNEL);
	if (!mods)
		return -ENOMEM;
	ftg_obj_add(FTG_OBJ_SCRATCH, mods);
	spin_lock(&kset->list_lock);
	list_for_each_entry(k, &kset->list, entry) {
		struct module_kobject *mk =
			container_of(k, struct module_kobject, kobj);

		if (!mk->mod || mk->mod == THIS_MODULE)
			continue;	/* built-in, or ourselves */
		if (n == FTG_SCAN_MAX) {
			pr_warn("more than %d modules: scan truncated\n",
				FTG_SCAN_MAX);
			break;
		}
		if (try_module_get(mk->mod))
			mods[n++] = mk->mod;
	}
	spin_unlock(&kset->list_lock);

	for (i = 0; i < n; i++) {
		bool coming = READ_ONCE(mods[i]->state) == MODULE_STATE_COMING;
		struct ftg_module *fm = ftg_module_coming(mods[i], coming);

		if (fm && !coming) {
			fm->state = FTG_MOD_LIVE;
			ftg_module_event(fm);
		}
		module_put(mods[i]);
	}
	ftg_obj_del(FTG_OBJ_SCRATCH, mods);
	kvfree(mods);
	return 0;
}

int ftg_modules_init(void)
{
	int ret = register_module_notifier(&ftg_module_nb);

	if (ret)
		return ret;
	mutex_lock(&ftg.lock);
	ret = ftg_scan_loaded();
	mutex_unlock(&ftg.lock);
	if (ret)
		ftg_modules_exit();
	return ret;
}

/* Called after everything is disarmed: frees the tables. */
void ftg_modules_exit(void)
{
	struct ftg_module *fm, *tmp;
	struct ftg_patch_site *s;

	unregister_module_notifier(&ftg_module_nb);
	mutex_lock(&ftg.lock);
	while ((s = ftg_site_first()))
		ftg_site_drop(s, "unload");
	list_for_each_entry_safe(fm, tmp, &ftg.modules, node) {
		list_del(&fm->node);
		ftg_obj_del(FTG_OBJ_MODULE, fm);
		kfree(fm);
	}
	ftg.n_tombstones = 0;
	mutex_unlock(&ftg.lock);
}
