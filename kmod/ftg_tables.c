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

static void ftg_show_dash(struct seq_file *m, const char *key, const char *val)
{
	seq_printf(m, "%s ", key);
	if (*val)	/* text runs to end of line */
		seq_escape_str(m, val, FTG_ESC_FLAGS, FTG_ESC_TEXT);
	else
		seq_putc(m, '-');
	seq_putc(m, '\n');
}

static void ftg_show_objects(struct seq_file *m)
{
	static const char *const kinds[FTG_NR_OBJ] = {
		[FTG_OBJ_SESSION] = "sessions",
		[FTG_OBJ_SELECTION] = "selections",
		[FTG_OBJ_RESPONSE] = "responses",
		[FTG_OBJ_REPORT] = "reports",
		[FTG_OBJ_ARMSET] = "armsets",
		[FTG_OBJ_SITE] = "sites",
		[FTG_OBJ_MODULE] = "modules",
		[FTG_OBJ_SCRATCH] = "scratch",
		[FTG_OBJ_GRAPH] = "graphs",
	};
	unsigned int i;

	for (i = 0; i < FTG_NR_OBJ; i++)
		seq_printf(m, "alloc_%s %ld\n", kinds[i],
			   atomic_long_read(&ftg_objects[i]));
}

static int ftg_status_show(struct seq_file *m, void *unused)
{
	mutex_lock(&ftg.lock);
	seq_printf(m, "ftguard-status %d\nloaded 1\narmed %d\n",
		   FTGUARD_FORMAT_VERSION, !!ftg.armset);
	if (!ftg.armset) {
		seq_puts(m, "owner none\n");
	} else if (!ftg.owner) {
		seq_puts(m, "owner persistent\n");
	} else {
		seq_printf(m, "owner %d ", ftg.owner_pid);
		ftg_seq_name(m, ftg.owner_comm);
		seq_putc(m, '\n');
	}
	seq_printf(m, "armed_sites %u\nkilled %d\n", ftg.armed_sites,
		   ftg.killed);
	ftg_show_dash(m, "kill_reason", ftg.kill_reason);
	seq_printf(m, "sites %u\nvmlinux_sites %u\nmodule_sites %u\n",
		   ftg_nsites(), ftg.n_vmlinux, ftg.n_module);
	seq_printf(m, "vmlinux_records %u\n", ftg.vmlinux_records);
	seq_printf(m, "admitted %lu\nrejected %lu\n", ftg.admitted,
		   ftg.rejected);
	if (ftg.checked)
		seq_printf(m, "last_check %llu %s %u %u\n", ftg.last_check_ms,
			   ftg.last_bad ? "fail" : "ok", ftg.last_ok,
			   ftg.last_bad);
	else
		seq_puts(m, "last_check never\n");
	ftg_show_dash(m, "last_error", ftg.last_error);
	seq_printf(m, "verify_period_ms %u\nmax_arm %u\n", ftg_period_ms,
		   ftg_max_arm);
	seq_printf(m, "fault_injection %d\n",
		   FTG_FAULT_INJECTION_BUILD);
	seq_printf(m, "modules_vaddr 0x%lx\nmodules_end 0x%lx\n",
		   (unsigned long)MODULES_VADDR, (unsigned long)MODULES_END);
	seq_printf(m, "vmalloc_start 0x%lx\nvmalloc_end 0x%lx\n",
		   (unsigned long)VMALLOC_START, (unsigned long)VMALLOC_END);
	ftg_show_objects(m);
	seq_printf(m, "arm_mode %s\ngraph_hook %s\ngraph_missed %lu\n",
		   !ftg.armset ? "none" : ftg.graph ? "graph" : "function",
		   ftg_graph_mechanism, ftg_graph_missed());
	seq_printf(m, "events_fast %lu\nevents_slow %lu\nevents_shared %lu\n",
		   ftg_hot_events(FTG_HOT_COUNT_FAST),
		   ftg_hot_events(FTG_HOT_COUNT_SLOW),
		   ftg_hot_events(FTG_HOT_COUNT_SHARED));
	seq_printf(m, "arm_stack %d\n", ftg.armset && ftg.stack);
	ftg_graph_show(m);
	seq_printf(m, FTGUARD_STATUS_VERIFY_RUNS " %llu\n"
		   FTGUARD_STATUS_VERIFY_NS " %llu\n",
		   ftg.verify_runs, ftg.verify_ns);
	seq_printf(m, FTGUARD_STATUS_VERIFY_SLICE " %u\n"
		   FTGUARD_STATUS_VERIFY_CYCLE_MS " %llu\n"
		   FTGUARD_STATUS_VERIFY_CYCLES " %llu\n",
		   ftg_verify_slice, ftg_verify_cycle_ms(), ftg.verify_cycles);
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
		    s->init ? "init" : "core");
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
	used = sprintf(buf, "ftguard-sites %d\n", FTGUARD_SITES_FORMAT_VERSION);
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
	seq_printf(m, "ftguard-modules %d\n", FTGUARD_FORMAT_VERSION);
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
		seq_printf(m, "ftguard-check %d\nresult never\n",
			   FTGUARD_FORMAT_VERSION);
	mutex_unlock(&ftg.lock);
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(ftg_check);

int ftg_debugfs_init(void)
{
	ftg.dir = debugfs_create_dir("ftguard", NULL);
	if (IS_ERR(ftg.dir))
		return PTR_ERR(ftg.dir);
	debugfs_create_file("control", 0600, ftg.dir, NULL, &ftg_control_fops);
	debugfs_create_file("status", 0400, ftg.dir, NULL, &ftg_status_fops);
	debugfs_create_file("sites", 0400, ftg.dir, NULL, &ftg_sites_fops);
	debugfs_create_file("modules", 0400, ftg.dir, NULL,
			    &ftg_modules_fops);
	debugfs_create_file("check", 0400, ftg.dir, NULL, &ftg_check_fops);
	return 0;
}

/* Waits for every open file's running operation; take no ftg.lock here. */
void ftg_debugfs_exit(void)
{
	debugfs_remove(ftg.dir);
	ftg.dir = NULL;
}
