// SPDX-License-Identifier: GPL-2.0
/*
 * The debugfs directory ftguard/: control and the read-only tables, in the
 * versioned line formats of doc/interface.md. Each table is rendered whole
 * under ftg.lock (single_open), so a reader sees one consistent snapshot.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/debugfs.h>
#include <linux/seq_file.h>
#include <linux/vmalloc.h>

#include "ftg.h"

/* A name as one field: see FTG_ESC_FLAGS. */
static void ftg_seq_name(struct seq_file *m, const char *name)
{
	seq_escape_str(m, name, FTG_ESC_FLAGS, FTG_ESC_NAME);
}

static void ftg_show_text(struct seq_file *m, const char *val)
{
	if (*val)	/* text runs to end of line */
		seq_escape_str(m, val, FTG_ESC_FLAGS, FTG_ESC_TEXT);
	else
		seq_putc(m, '-');
}

#define FTG_STATUS_KEY_ID(id, key, kind)	FTG_SK_##id,
enum ftg_status_key { FTGUARD_STATUS_KEYS(FTG_STATUS_KEY_ID) FTG_NR_SK };
#undef FTG_STATUS_KEY_ID

/*
 * The value of status key @k. One case per key of FTGUARD_STATUS_KEYS and
 * no default: a key added there and not here fails the build (-Wswitch
 * is an error for this file, see Kbuild).
 */
static void ftg_status_value(struct seq_file *m, enum ftg_status_key k)
{
	const char *reason;

	switch (k) {
	case FTG_SK_LOADED:
		seq_putc(m, '1');
		break;
	case FTG_SK_ARMED:
		seq_printf(m, "%d", !!ftg.armset);
		break;
	case FTG_SK_OWNER:
		if (!ftg.armset) {
			seq_puts(m, FTGUARD_OWNER_NONE);
		} else if (!ftg.owner) {
			seq_puts(m, FTGUARD_OWNER_PERSISTENT);
		} else {
			seq_printf(m, "%d ", ftg.owner_pid);
			ftg_seq_name(m, ftg.owner_comm);
		}
		break;
	case FTG_SK_ARMED_SITES:
		seq_printf(m, "%u", ftg.armed_sites);
		break;
	case FTG_SK_KILLED:
		seq_printf(m, "%d", ftg.killed);
		break;
	case FTG_SK_KILL_REASON:
		ftg_show_text(m, ftg.kill_reason);
		break;
	case FTG_SK_SITES:
		seq_printf(m, "%u", ftg_nsites());
		break;
	case FTG_SK_VMLINUX_SITES:
		seq_printf(m, "%u", ftg.n_vmlinux);
		break;
	case FTG_SK_MODULE_SITES:
		seq_printf(m, "%u", ftg.n_module);
		break;
	case FTG_SK_VMLINUX_RECORDS:
		seq_printf(m, "%u", ftg.vmlinux_records);
		break;
	case FTG_SK_ADMITTED:
		seq_printf(m, "%lu", ftg.admitted);
		break;
	case FTG_SK_REJECTED:
		seq_printf(m, "%lu", ftg.rejected);
		break;
	case FTG_SK_LAST_CHECK:
		if (ftg.checked)
			seq_printf(m, "%llu %s %u %u", ftg.last_check_ms,
				   ftg.last_bad ? FTGUARD_RESULT_FAIL :
						  FTGUARD_RESULT_OK,
				   ftg.last_ok, ftg.last_bad);
		else
			seq_puts(m, FTGUARD_RESULT_NEVER);
		break;
	case FTG_SK_LAST_ERROR:
		ftg_show_text(m, ftg.last_error);
		break;
	case FTG_SK_VERIFY_PERIOD_MS:
		seq_printf(m, "%u", ftg_period_ms);
		break;
	case FTG_SK_MAX_ARM:
		seq_printf(m, "%u", ftg_max_arm);
		break;
	case FTG_SK_FAULT_INJECTION:
		seq_printf(m, "%d", FTG_FAULT_INJECTION_BUILD);
		break;
	case FTG_SK_MODULES_VADDR:
		seq_printf(m, "0x%lx", (unsigned long)MODULES_VADDR);
		break;
	case FTG_SK_MODULES_END:
		seq_printf(m, "0x%lx", (unsigned long)MODULES_END);
		break;
	case FTG_SK_VMALLOC_START:
		seq_printf(m, "0x%lx", (unsigned long)VMALLOC_START);
		break;
	case FTG_SK_VMALLOC_END:
		seq_printf(m, "0x%lx", (unsigned long)VMALLOC_END);
		break;
	case FTG_SK_ALLOC_SESSIONS:
	case FTG_SK_ALLOC_SELECTIONS:
	case FTG_SK_ALLOC_RESPONSES:
	case FTG_SK_ALLOC_REPORTS:
	case FTG_SK_ALLOC_ARMSETS:
	case FTG_SK_ALLOC_SITES:
	case FTG_SK_ALLOC_MODULES:
	case FTG_SK_ALLOC_SCRATCH:
	case FTG_SK_ALLOC_GRAPHS:
		/* the object kinds' order (checked in ftg_status_show()) */
		seq_printf(m, "%ld", atomic_long_read(
			&ftg_objects[k - FTG_SK_ALLOC_SESSIONS]));
		break;
	case FTG_SK_ARM_MODE:
		seq_puts(m, !ftg.armset ? FTGUARD_ARM_MODE_NONE :
			    ftg.graph ? FTGUARD_ARM_MODE_GRAPH :
			    FTGUARD_ARM_MODE_FUNCTION);
		break;
	case FTG_SK_GRAPH_HOOK:
		seq_puts(m, ftg_graph_mechanism);
		break;
	case FTG_SK_GRAPH_MISSED:
		seq_printf(m, "%lu", ftg_graph_missed());
		break;
	case FTG_SK_EVENTS_FAST:
		seq_printf(m, "%lu", ftg_hot_events(FTG_HOT_COUNT_FAST));
		break;
	case FTG_SK_EVENTS_SLOW:
		seq_printf(m, "%lu", ftg_hot_events(FTG_HOT_COUNT_SLOW));
		break;
	case FTG_SK_EVENTS_SHARED:
		seq_printf(m, "%lu", ftg_hot_events(FTG_HOT_COUNT_SHARED));
		break;
	case FTG_SK_ARM_STACK:
		seq_printf(m, "%d", ftg.armset && ftg.stack);
		break;
	case FTG_SK_GRAPH_ROOTS:
		ftg_graph_roots_show(m);
		break;
	case FTG_SK_GRAPH_MAX_DEPTH:
		seq_printf(m, "%u", ftg_graph_max_depth());
		break;
	case FTG_SK_VERIFY_RUNS:
		seq_printf(m, "%llu", ftg.verify_runs);
		break;
	case FTG_SK_VERIFY_NS:
		seq_printf(m, "%llu", ftg.verify_ns);
		break;
	case FTG_SK_EVENT_PATH:
		seq_puts(m, ftg_hot_path(&reason) ? FTGUARD_EVENT_PATH_FAST :
			    FTGUARD_EVENT_PATH_KERNEL);
		break;
	case FTG_SK_EVENT_PATH_REASON:
		ftg_hot_path(&reason);
		ftg_show_text(m, reason);
		break;
	case FTG_SK_VERIFY_SLICE:
		seq_printf(m, "%u", ftg_verify_slice);
		break;
	case FTG_SK_VERIFY_CYCLE_MS:
		seq_printf(m, "%llu", ftg_verify_cycle_ms());
		break;
	case FTG_SK_VERIFY_CYCLES:
		seq_printf(m, "%llu", ftg.verify_cycles);
		break;
	case FTG_SK_VERIFY_MISSED:
		seq_printf(m, "%llu", ftg.verify_missed);
		break;
	case FTG_SK_STUCK:
		ftg_show_text(m, ftg.stuck);
		break;
	case FTG_NR_SK:
		break;
	}
}

static int ftg_status_show(struct seq_file *m, void *unused)
{
#define FTG_STATUS_KEY_WORD(id, key, kind)	[FTG_SK_##id] = key,
	static const char *const keys[FTG_NR_SK] = {
		FTGUARD_STATUS_KEYS(FTG_STATUS_KEY_WORD)
	};
#undef FTG_STATUS_KEY_WORD
	unsigned int k;

	BUILD_BUG_ON(FTG_SK_ALLOC_GRAPHS - FTG_SK_ALLOC_SESSIONS + 1 !=
		     FTG_NR_OBJ);
	BUILD_BUG_ON(FTG_SK_ALLOC_GRAPHS - FTG_SK_ALLOC_SESSIONS !=
		     FTG_OBJ_GRAPH - FTG_OBJ_SESSION);
	mutex_lock(&ftg.lock);
	seq_printf(m, FTGUARD_HEADER(FTGUARD_TABLE_STATUS) " %d\n",
		   FTGUARD_FORMAT_VERSION);
	for (k = 0; k < FTG_NR_SK; k++) {
		seq_printf(m, "%s ", keys[k]);
		ftg_status_value(m, k);
		seq_putc(m, '\n');
	}
	mutex_unlock(&ftg.lock);
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(ftg_status);

/* Worst case: every name char escaped to 4, plus the fixed fields. */
static size_t ftg_site_line_max(const struct ftg_patch_site *s)
{
	return 96 + 2 * (2 * FTG_PROLOGUE_MAX + 2) +
	       4 * (strlen(s->name) + strlen(ftg_owner_name(s)));
}

static size_t ftg_site_line(char *p, const struct ftg_patch_site *s,
			    size_t room)
{
	size_t n;

	n = sprintf(p, "0x%lx %s %s ", s->ip, ftg_patch_state_name(s->state),
		    s->init ? FTGUARD_SECTION_INIT : FTGUARD_SECTION_CORE);
	n += ftg_escape(p + n, room - n, ftg_owner_name(s));
	n += sprintf(p + n, " %llu %u ", ftg_site_hits(s), s->reads);
	n += ftg_escape(p + n, room - n, s->name);
	n += sprintf(p + n, " %u ", s->offset);
	n += ftg_site_bytes_hex(p + n, s, true);
	p[n++] = ' ';
	n += ftg_site_bytes_hex(p + n, s, false);
	p[n++] = '\n';
	return n;
}

static bool ftg_owner_listed(const struct ftg_patch_site *s,
			     char *const *owners, unsigned int n)
{
	unsigned int i;

	if (!n)
		return true;
	for (i = 0; i < n; i++)
		if (!strcmp(ftg_owner_name(s), owners[i]))
			return true;
	return false;
}

/**
 * ftg_sites_render - the site table in the format of ftguard/sites
 * @owners: only the sites of these owners ("vmlinux" or a module name)
 * @n: how many owners; 0: every site
 * @text: on success, the kvmalloc'ed table, which the caller frees
 * @len: its length
 *
 * Context: ftg.lock held.
 * Return: 0 or -ENOMEM.
 */
int ftg_sites_render(char *const *owners, unsigned int n, char **text,
		     size_t *len)
{
	size_t size = 32, used;
	struct ftg_patch_site *s;
	char *buf;

	lockdep_assert_held(&ftg.lock);
	for (s = ftg_site_first(); s; s = ftg_site_next(s))
		if (ftg_owner_listed(s, owners, n))
			size += ftg_site_line_max(s);
	buf = kvmalloc(size, GFP_KERNEL);
	if (!buf)
		return -ENOMEM;
	used = sprintf(buf, FTGUARD_HEADER(FTGUARD_TABLE_SITES) " %d\n",
		       FTGUARD_SITES_FORMAT_VERSION);
	for (s = ftg_site_first(); s; s = ftg_site_next(s))
		if (ftg_owner_listed(s, owners, n))
			used += ftg_site_line(buf + used, s, size - used);
	*text = buf;
	*len = used;
	return 0;
}

static int ftg_sites_show(struct seq_file *m, void *unused)
{
	char *text;
	size_t len;
	int ret;

	mutex_lock(&ftg.lock);
	ret = ftg_sites_render(NULL, 0, &text, &len);
	mutex_unlock(&ftg.lock);
	if (ret)
		return ret;
	ftg_obj_add(FTG_OBJ_SCRATCH, text);
	seq_write(m, text, len);
	ftg_obj_del(FTG_OBJ_SCRATCH, text);
	kvfree(text);
	return 0;
}

/*
 * seq_read() runs a show that overflows its buffer again with one twice
 * the size: from one page, a table of 38,000 sites (2 MiB) was rendered
 * ten times over, about 920 ms under QEMU. The buffer is sized for the
 * table at open instead; a guess that falls short costs one more render.
 * (An iterator would render once too, but a table cut across read()s
 * would no longer be one snapshot.)
 */
#define FTG_SITE_LINE_GUESS	160

static int ftg_sites_open(struct inode *inode, struct file *file)
{
	/* Unlocked: a guess; a table grown since costs one more render. */
	size_t size = ((size_t)ftg_nsites() + 1) * FTG_SITE_LINE_GUESS;

	return single_open_size(file, ftg_sites_show, inode->i_private, size);
}

static const struct file_operations ftg_sites_fops = {
	.owner		= THIS_MODULE,
	.open		= ftg_sites_open,
	.read		= seq_read,
	.llseek		= seq_lseek,
	.release	= single_release,
};

static int ftg_modules_show(struct seq_file *m, void *unused)
{
#define FTG_INIT_STATE_WORD(id, word)	[FTG_INIT_##id] = word,
	static const char *const inits[] = {
		FTGUARD_INIT_STATES(FTG_INIT_STATE_WORD)
	};
#undef FTG_INIT_STATE_WORD
	struct ftg_module *fm;

	mutex_lock(&ftg.lock);
	seq_printf(m, FTGUARD_HEADER(FTGUARD_TABLE_MODULES) " %d\n",
		   FTGUARD_FORMAT_VERSION);
	list_for_each_entry(fm, &ftg.modules, node) {
		ftg_seq_name(m, fm->name);
		seq_printf(m, " %s 0x%lx %lu 0x%lx %lu %s %llu %u\n",
			   ftg_mod_state_name(fm->state), fm->core_base,
			   fm->core_text_size, fm->init_base,
			   fm->init_text_size, inits[fm->init],
			   fm->dropped_ms, fm->nsites);
	}
	mutex_unlock(&ftg.lock);
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(ftg_modules);

static int ftg_check_show(struct seq_file *m, void *unused)
{
	mutex_lock(&ftg.lock);
	if (ftg.report)
		seq_write(m, ftg.report, ftg.report_len);
	else
		seq_printf(m, FTGUARD_HEADER(FTGUARD_TABLE_CHECK)
			   " %d\nresult %s\n", FTGUARD_FORMAT_VERSION,
			   FTGUARD_RESULT_NEVER);
	mutex_unlock(&ftg.lock);
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(ftg_check);

int ftg_debugfs_init(void)
{
	ftg.dir = debugfs_create_dir(FTGUARD_DIR, NULL);
	if (IS_ERR(ftg.dir))
		return PTR_ERR(ftg.dir);
	debugfs_create_file(FTGUARD_CONTROL, 0600, ftg.dir, NULL,
			    &ftg_control_fops);
	debugfs_create_file(FTGUARD_TABLE_STATUS, 0400, ftg.dir, NULL,
			    &ftg_status_fops);
	debugfs_create_file(FTGUARD_TABLE_SITES, 0400, ftg.dir, NULL,
			    &ftg_sites_fops);
	debugfs_create_file(FTGUARD_TABLE_MODULES, 0400, ftg.dir, NULL,
			    &ftg_modules_fops);
	debugfs_create_file(FTGUARD_TABLE_CHECK, 0400, ftg.dir, NULL,
			    &ftg_check_fops);
	return 0;
}

/* Waits for every open file's running operation; take no ftg.lock here. */
void ftg_debugfs_exit(void)
{
	debugfs_remove(ftg.dir);
	ftg.dir = NULL;
}
