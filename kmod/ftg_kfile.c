// SPDX-License-Identifier: GPL-2.0
/*
 * The kernel's own files: what ftrace publishes in tracefs
 * (enabled_functions) and the sysctl kernel.ftrace_enabled, read as the
 * kernel's word, not as whatever a path names.
 *
 * A path is only a name in some mount namespace: whoever runs a check may
 * have a file bind-mounted over enabled_functions, or a namespace with
 * none. So no path is taken from the caller. From the root of init (pid 1
 * of the initial pid namespace) a directory is looked up only to find a
 * mount of the filesystem that owns the file (tracefs, procfs): it counts
 * only when it is that filesystem's root (its magic, the superblock's root
 * dentry). From there the file is found dentry by dentry
 * (lookup_positive_unlocked()), which sees no mount at all: a file or
 * directory mounted over the kernel's one hides nothing and replaces
 * nothing. Only that dentry is opened (dentry_open()). Every function used
 * here is exported on the kernels ftguard builds for.
 *
 * kernel_read() reads only files with ->read_iter, and ftrace's files have
 * ->read = seq_read: for those, proven by that very pointer (seq_read is
 * exported), ftguard does what seq_read() does, seq_read_iter() (exported)
 * on its own kernel buffer; a file that is neither is not read.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/err.h>
#include <linux/fs.h>
#include <linux/fs_struct.h>
#include <linux/magic.h>
#include <linux/mount.h>
#include <linux/namei.h>
#include <linux/pid.h>
#include <linux/pid_namespace.h>
#include <linux/sched/task.h>
#include <linux/seq_file.h>
#include <linux/uio.h>

#include "ftg.h"

#ifndef FTG_HAVE_VFS_PATH_LOOKUP_DECL
/* exported by fs/namei.c with this signature; declared in fs/internal.h */
int vfs_path_lookup(struct dentry *dentry, struct vfsmount *mnt,
		    const char *name, unsigned int flags, struct path *path);
#endif

static const char *const ftg_tracefs_dirs[] = {
	"sys/kernel/tracing",
	"sys/kernel/debug/tracing",	/* debugfs mounts tracefs there */
	NULL,
};

static const char *const ftg_procfs_dirs[] = { "proc", NULL };

const struct ftg_kfile ftg_enabled_functions = {
	.dirs = ftg_tracefs_dirs,
	.magic = TRACEFS_MAGIC,
	.names = { "enabled_functions", NULL },
};

const struct ftg_kfile ftg_ftrace_enabled = {
	.dirs = ftg_procfs_dirs,
	.magic = PROC_SUPER_MAGIC,
	.names = { "sys", "kernel", "ftrace_enabled", NULL },
};

/* The root of init's filesystem view: the initial mount namespace's. */
static int ftg_init_root(struct path *root)
{
	struct task_struct *init;
	int ret = -ESRCH;

	rcu_read_lock();
	init = get_pid_task(find_pid_ns(1, &init_pid_ns), PIDTYPE_PID);
	rcu_read_unlock();
	if (!init)
		return ret;
	task_lock(init);
	if (init->fs) {
		get_fs_root(init->fs, root);
		ret = 0;
	}
	task_unlock(init);
	put_task_struct(init);
	return ret;
}

/* A mount of @kf's filesystem at its root, found at one of @kf->dirs. */
static int ftg_kfile_mount(const struct ftg_kfile *kf, struct path *mnt)
{
	const char *const *dir;
	struct path root;
	int ret;

	ret = ftg_init_root(&root);
	if (ret)
		return ret;
	ret = -ENOENT;
	for (dir = kf->dirs; *dir; dir++) {
		struct super_block *sb;

		if (vfs_path_lookup(root.dentry, root.mnt, *dir,
				    LOOKUP_FOLLOW | LOOKUP_DIRECTORY, mnt))
			continue;
		sb = mnt->mnt->mnt_sb;
		if (sb->s_magic == kf->magic && mnt->dentry == sb->s_root &&
		    mnt->mnt->mnt_root == sb->s_root) {
			ret = 0;
			break;
		}
		path_put(mnt);
	}
	path_put(&root);
	return ret;
}

/**
 * ftg_kfile_open - open one of the kernel's own files
 * @kf: which (ftg_enabled_functions, ftg_ftrace_enabled)
 *
 * Context: process context, may sleep.
 * Return: the file, opened for reading with the caller's credentials, or
 *	an ERR_PTR: -ENOENT when no mount of its filesystem's root is
 *	found, or what the lookup or the open said.
 */
struct file *ftg_kfile_open(const struct ftg_kfile *kf)
{
	const char *const *name;
	struct file *f;
	struct path p;
	int ret;

	ret = ftg_kfile_mount(kf, &p);
	if (ret)
		return ERR_PTR(ret);
	for (name = kf->names; *name; name++) {
		struct dentry *d = lookup_positive_unlocked(*name, p.dentry,
							    strlen(*name));

		if (IS_ERR(d)) {
			path_put(&p);
			return ERR_CAST(d);
		}
		dput(p.dentry);
		p.dentry = d;
	}
	f = dentry_open(&p, O_RDONLY, current_cred());
	path_put(&p);
	return f;
}

/**
 * ftg_kfile_read - read from a file ftg_kfile_open() opened
 * @f: the file
 * @buf: into this kernel buffer
 * @len: up to this many bytes
 * @pos: from this position, moved on by what was read
 *
 * Return: the bytes read, 0 at the end, -EINVAL for a file that neither
 *	has ->read_iter nor is a seq_file, or the read's -errno.
 */
ssize_t ftg_kfile_read(struct file *f, char *buf, size_t len, loff_t *pos)
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
