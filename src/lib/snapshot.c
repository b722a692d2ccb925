// SPDX-License-Identifier: LGPL-2.1
/*
 * Saving a snapshot: a copy of the files libftguard reads, laid out as
 * doc/snapshot.md describes, so that "--root DIR" can stand in for the
 * live system later or on another machine.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/utsname.h>
#include <time.h>
#include <unistd.h>

#include "ftguard-local.h"

static int make_dir(const char *path)
{
	if (mkdir(path, 0755) && errno != EEXIST)
		return ftgl_err(FTG_E_SYSTEM, errno, "%s: %s", path,
				strerror(errno));
	return 0;
}

/* mkdir -p of @base/@rel. */
static int make_dirs(const char *base, const char *rel)
{
	char *path = ftgl_path(base, rel), *p;
	int ret = 0;

	if (!path)
		return -1;
	for (p = strchr(path + strlen(base) + 1, '/'); p && !ret;
	     p = strchr(p + 1, '/')) {
		*p = '\0';
		ret = make_dir(path);
		*p = '/';
	}
	if (!ret)
		ret = make_dir(path);
	free(path);
	return ret;
}

static int write_file(const char *path, const char *buf, size_t len)
{
	int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	size_t done = 0;

	if (fd < 0)
		return ftgl_err(FTG_E_SYSTEM, errno, "%s: %s", path,
				strerror(errno));
	while (done < len) {
		ssize_t w = write(fd, buf + done, len - done);

		if (w < 0 && errno == EINTR)
			continue;
		if (w < 0) {
			int saved = errno;

			close(fd);
			return ftgl_err(FTG_E_SYSTEM, saved, "%s: %s", path,
					strerror(saved));
		}
		done += w;
	}
	if (close(fd))
		return ftgl_err(FTG_E_SYSTEM, errno, "%s: %s", path,
				strerror(errno));
	return 0;
}

/* Copies @src_dir/@name to @dst_dir/@name; a missing source is an error
 * only when @required. */
static int copy_file(const char *src_dir, const char *dst_dir,
		     const char *name, bool required)
{
	size_t len;
	char *buf = ftgl_read_file(src_dir, name, &len);
	char *dst;
	int ret;

	if (!buf)
		return required ? -1 : 0;
	dst = ftgl_path(dst_dir, name);
	ret = dst ? write_file(dst, buf, len) : -1;
	free(dst);
	free(buf);
	return ret;
}

static int copy_sections(const char *sys_dir, const char *dst)
{
	char *mod_dir = ftgl_path(sys_dir, "module");
	struct dirent *de;
	DIR *d;
	int ret = 0;

	if (!mod_dir)
		return -1;
	d = opendir(mod_dir);
	if (!d) {
		free(mod_dir);
		return 0;	/* a kernel without modules */
	}
	while (!ret && (de = readdir(d))) {
		char *src = NULL, *rel = NULL, *out = NULL;
		struct dirent *se;
		DIR *sd;

		if (de->d_name[0] == '.')
			continue;
		if (asprintf(&src, "%s/%s/sections", mod_dir, de->d_name) < 0)
			src = NULL;
		if (asprintf(&rel, "sys/module/%s/sections", de->d_name) < 0)
			rel = NULL;
		if (!src || !rel) {
			ret = ftgl_err(FTG_E_SYSTEM, ENOMEM, "out of memory");
			goto next;
		}
		sd = opendir(src);
		if (!sd)
			goto next;	/* built-in: no sections */
		ret = make_dirs(dst, rel);
		out = ret ? NULL : ftgl_path(dst, rel);
		while (out && !ret && (se = readdir(sd))) {
			if (!strcmp(se->d_name, ".") || !strcmp(se->d_name, ".."))
				continue;
			ret = copy_file(src, out, se->d_name, false);
		}
		closedir(sd);
next:
		free(src);
		free(rel);
		free(out);
	}
	closedir(d);
	free(mod_dir);
	return ret;
}

static const char *machine_arch(void)
{
	struct utsname u;

	if (uname(&u))
		return "unknown";
	if (!strcmp(u.machine, "x86_64"))
		return "amd64";
	if (u.machine[0] == 'i' && !strcmp(u.machine + 2, "86"))
		return "i386";
	return "unknown";
}

static int save_to(const struct ftg_root *root, const char *dir)
{
	static const char *const proc_files[] = { "kallsyms", "modules" };
	static const char *const kmod_tables[] = {
		"status", "sites", "modules", "check",
	};
	static const char *const ftrace_names[] = {
		"available_filter_functions", "enabled_functions",
		"touched_functions",
	};
	char *sub = NULL, *kdir = NULL, header[256];
	size_t i;
	int ret;

	ret = make_dir(dir);
	if (!ret)
		ret = make_dirs(dir, "proc");
	sub = ret ? NULL : ftgl_path(dir, "proc");
	for (i = 0; sub && !ret && i < FTGL_ARRAY_SIZE(proc_files); i++)
		ret = copy_file(ftg_root_proc(root), sub, proc_files[i], true);
	if (!ret && sub)
		ret = copy_file(ftg_root_proc(root), sub, "vmallocinfo", false);
	free(sub);
	if (ret)
		return ret;

	ret = copy_sections(ftg_root_sys(root), dir);
	if (!ret)
		ret = make_dirs(dir, "debug/ftguard");
	sub = ret ? NULL : ftgl_path(dir, "debug/ftguard");
	kdir = ftgl_path(ftg_root_debugfs(root), "ftguard");
	for (i = 0; sub && kdir && !ret && i < FTGL_ARRAY_SIZE(kmod_tables); i++)
		ret = copy_file(kdir, sub, kmod_tables[i], false);
	free(sub);
	free(kdir);
	if (ret)
		return ret;

	ret = make_dirs(dir, "tracing");
	sub = ret ? NULL : ftgl_path(dir, "tracing");
	for (i = 0; sub && !ret && i < FTGL_ARRAY_SIZE(ftrace_names); i++)
		ret = copy_file(ftg_root_tracefs(root), sub, ftrace_names[i],
				false);
	free(sub);
	if (ret)
		return ret;

	snprintf(header, sizeof(header), "ftguard-snapshot 1\narch %s\ncreated %lld\n",
		 ftg_root_is_snapshot(root) ? "unknown" : machine_arch(),
		 (long long)time(NULL));
	sub = ftgl_path(dir, "ftguard-snapshot");
	ret = sub ? write_file(sub, header, strlen(header)) : -1;
	free(sub);
	return ret;
}

/**
 * ftg_snapshot_save - copy what libftguard reads into a snapshot directory
 * @root: where to read from (usually the live system)
 * @dir: directory to create or fill
 *
 * Return: 0, or -1 with errno set and ftg_error_last() naming the file.
 */
int ftg_snapshot_save(const struct ftg_root *root, const char *dir)
{
	if (!root || !dir || !*dir)
		return ftgl_err(FTG_E_SYSTEM, EINVAL, "no root or directory");
	if (save_to(root, dir))
		return ftgl_err_prefix("saving snapshot %s", dir);
	ftg_error_clear();	/* optional files that were absent */
	return 0;
}
