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

static const char *const feature_names[FTG_KFEAT_COUNT] = {
	[FTG_KFEAT_IBT] = "ibt",
	[FTG_KFEAT_CALL_PADDING] = "call-padding",
	[FTG_KFEAT_FTRACE_ADDRS] = "ftrace-addrs",
};

static const char *const feature_states[] = {
	[FTG_FEATURE_UNKNOWN] = "unknown",
	[FTG_FEATURE_NO] = "no",
	[FTG_FEATURE_YES] = "yes",
};

const char *ftg_kernel_feature_name(enum ftg_kernel_feature f)
{
	if ((unsigned int)f >= FTG_KFEAT_COUNT)
		return "?";
	return feature_names[f];
}

/* Copies the first line of @src. */
static void set_text(char *dst, size_t size, const char *src)
{
	snprintf(dst, size, "%.*s", (int)strcspn(src, "\n"), src);
}

static void set_feature(struct ftg_kernel_info *info, enum ftg_kernel_feature f,
			enum ftg_feature_state state, const char *source)
{
	info->feature[f] = state;
	set_text(info->feature_source[f], sizeof(info->feature_source[f]), source);
}

static const char *arch_of_machine(const char *machine)
{
	if (!strcmp(machine, "x86_64"))
		return "amd64";
	if (machine[0] == 'i' && !strcmp(machine + 2, "86"))
		return "i386";
	if (!strcmp(machine, "aarch64"))
		return "arm64";
	return "unknown";
}

/*
 * "CONFIG_X=y" or "=m" is set; "# CONFIG_X is not set" and an option the
 * file does not name (it does not exist in that kernel) are not.
 */
static enum ftg_feature_state config_option(const char *config, const char *option)
{
	size_t len = strlen(option);
	const char *p;

	for (p = config; (p = strstr(p, option)); p += len) {
		if (p != config && p[-1] != '\n')
			continue;
		if (p[len] == '=')
			return p[len + 1] == 'y' || p[len + 1] == 'm' ?
			       FTG_FEATURE_YES : FTG_FEATURE_NO;
	}
	return FTG_FEATURE_NO;
}

/*
 * A symbol only the feature makes: the endbr64 seal list's bounds, the
 * padding before each function. Its absence proves nothing (a kernel
 * without KALLSYMS_ALL, addresses hidden...), so only presence is said.
 */
static void features_from_kallsyms(struct ftg_kernel_info *info, const char *ks)
{
	if (info->feature[FTG_KFEAT_IBT] == FTG_FEATURE_UNKNOWN &&
	    strstr(ks, " __ibt_endbr_seal\n"))
		set_feature(info, FTG_KFEAT_IBT, FTG_FEATURE_YES, "kallsyms");
	if (info->feature[FTG_KFEAT_CALL_PADDING] == FTG_FEATURE_UNKNOWN &&
	    strstr(ks, " __pfx_"))
		set_feature(info, FTG_KFEAT_CALL_PADDING, FTG_FEATURE_YES, "kallsyms");
}

static bool file_exists(const char *dir, const char *name)
{
	char *path = ftgl_path(dir, name);
	bool ret = path && !access(path, F_OK);

	free(path);
	return ret;
}

static void feature_ftrace_addrs(struct ftg_kernel_info *info, const char *tracefs)
{
	if (file_exists(tracefs, "available_filter_functions_addrs"))
		set_feature(info, FTG_KFEAT_FTRACE_ADDRS, FTG_FEATURE_YES, "tracefs");
	else if (file_exists(tracefs, "available_filter_functions"))
		set_feature(info, FTG_KFEAT_FTRACE_ADDRS, FTG_FEATURE_NO, "tracefs");
}

/* The running kernel; @ks (kallsyms text, may be NULL) adds what it shows. */
static void kernel_live(const struct ftg_root *root, const char *ks,
			struct ftg_kernel_info *info)
{
	struct utsname u;
	char *text;

	memset(info, 0, sizeof(*info));
	snprintf(info->arch, sizeof(info->arch), "unknown");
	if (!uname(&u)) {
		set_text(info->release, sizeof(info->release), u.release);
		set_text(info->machine, sizeof(info->machine), u.machine);
		snprintf(info->arch, sizeof(info->arch), "%s", arch_of_machine(u.machine));
	}
	text = ftgl_read_file(ftg_root_proc(root), "version", NULL);
	if (text)
		set_text(info->version, sizeof(info->version), text);
	free(text);
	if (*info->release) {
		char path[FTG_KERNEL_TEXT + 16];

		snprintf(path, sizeof(path), "/boot/config-%s", info->release);
		text = ftgl_read_file(NULL, path, NULL);
		if (text) {
			set_text(info->config, sizeof(info->config), path);
			set_feature(info, FTG_KFEAT_IBT,
				    config_option(text, "CONFIG_X86_KERNEL_IBT"), "config");
			set_feature(info, FTG_KFEAT_CALL_PADDING,
				    config_option(text, "CONFIG_CALL_PADDING"), "config");
		}
		free(text);
	}
	if (ks)
		features_from_kallsyms(info, ks);
	feature_ftrace_addrs(info, ftg_root_tracefs(root));
	ftg_error_clear();	/* files that were absent */
}

static int parse_feature(struct ftg_kernel_info *info, char *value)
{
	char *w[4];
	size_t f, st;

	if (ftgl_split(value, w, 4) != 3)
		return -1;
	for (f = 0; f < FTG_KFEAT_COUNT && strcmp(w[0], feature_names[f]); f++)
		;
	for (st = 0; st < FTGL_ARRAY_SIZE(feature_states) &&
		     strcmp(w[1], feature_states[st]); st++)
		;
	if (f == FTG_KFEAT_COUNT)
		return 0;	/* a feature a newer saver knows */
	if (st == FTGL_ARRAY_SIZE(feature_states))
		return -1;
	set_feature(info, f, st, strcmp(w[2], "-") ? w[2] : "");
	return 0;
}

/* DIR/ftguard-snapshot: "key value" lines after the format line. */
static int kernel_snapshot(const char *header, size_t len, const char *path,
			   struct ftg_kernel_info *info)
{
	char *buf = ftgl_copy_text(header, len), *line;
	struct ftgl_lines lines;
	int ret = 0;

	if (!buf)
		return -1;
	memset(info, 0, sizeof(*info));
	info->snapshot = true;
	snprintf(info->arch, sizeof(info->arch), "unknown");
	ftgl_lines_init(&lines, buf, strlen(buf));
	while (!ret && (line = ftgl_lines_next(&lines))) {
		size_t klen = strcspn(line, " ");
		char *value = line[klen] ? line + klen + 1 : line + klen;

		line[klen] = '\0';
		if (!strcmp(line, "arch"))
			set_text(info->arch, sizeof(info->arch), value);
		else if (!strcmp(line, "created"))
			info->created = strtoll(value, NULL, 10);
		else if (!strcmp(line, "release"))
			set_text(info->release, sizeof(info->release), value);
		else if (!strcmp(line, "machine"))
			set_text(info->machine, sizeof(info->machine), value);
		else if (!strcmp(line, "version"))
			set_text(info->version, sizeof(info->version), value);
		else if (!strcmp(line, "config"))
			set_text(info->config, sizeof(info->config), value);
		else if (!strcmp(line, "feature") && parse_feature(info, value))
			ret = ftgl_err(FTG_E_BAD_SNAPSHOT, EPROTO,
				       "%s:%lu: malformed feature line", path,
				       lines.lineno);
	}
	free(buf);
	return ret;
}

int ftg_root_kernel(const struct ftg_root *root, struct ftg_kernel_info *info)
{
	char *text;
	size_t len;
	int ret;

	ftg_error_clear();
	if (!ftg_root_is_snapshot(root)) {
		kernel_live(root, NULL, info);
		return 0;
	}
	text = ftgl_read_file(ftgl_root_dir(root), "ftguard-snapshot", &len);
	if (!text && errno == ENOENT) {	/* made by hand: says nothing */
		memset(info, 0, sizeof(*info));
		info->snapshot = true;
		snprintf(info->arch, sizeof(info->arch), "unknown");
		ftg_error_clear();
		return 0;
	}
	ret = text ? kernel_snapshot(text, len, "ftguard-snapshot", info) : -1;
	free(text);
	return ret;
}

static void header_text(char *buf, size_t size, const struct ftg_kernel_info *info)
{
	size_t used;
	int f;

	snprintf(buf, size, "ftguard-snapshot 1\narch %s\ncreated %lld\n"
		 "release %s\nmachine %s\nversion %s\n", info->arch,
		 (long long)info->created, info->release, info->machine,
		 info->version);
	if (*info->config) {
		used = strlen(buf);
		snprintf(buf + used, size - used, "config %s\n", info->config);
	}
	for (f = 0; f < FTG_KFEAT_COUNT; f++) {
		used = strlen(buf);
		snprintf(buf + used, size - used, "feature %s %s %s\n",
			 feature_names[f], feature_states[info->feature[f]],
			 *info->feature_source[f] ? info->feature_source[f] : "-");
	}
}

/* What the header says of the kernel: the source snapshot's own record
 * when saving from one, else the running kernel's. */
static int describe_kernel(const struct ftg_root *root, const char *dir,
			   struct ftg_kernel_info *info)
{
	char *ks;
	int ret = 0;

	if (ftg_root_is_snapshot(root)) {
		if (ftg_root_kernel(root, info))
			return -1;
		if (*info->config)
			ret = copy_file(ftgl_root_dir(root), dir, "config", false);
	} else {
		/* kallsyms is in the snapshot already: read it from there */
		ks = ftgl_read_file(dir, "proc/kallsyms", NULL);
		kernel_live(root, ks, info);
		free(ks);
		if (*info->config) {
			char *text = ftgl_read_file(NULL, info->config, NULL);
			char *dst = ftgl_path(dir, "config");

			ret = text && dst ? write_file(dst, text, strlen(text)) : -1;
			free(text);
			free(dst);
		}
	}
	/* A copy of a snapshot holds the state of when that one was saved. */
	if (!ftg_root_is_snapshot(root))
		info->created = time(NULL);
	return ret;
}

/* @src_dir/@rel into @dst/@top/@rel when it exists (its directories made). */
static int copy_optional(const char *src_dir, const char *dst,
			 const char *top, const char *rel)
{
	char *out = NULL, *path = NULL, *slash, *buf;
	size_t len;
	int ret;

	buf = ftgl_read_file(src_dir, rel, &len);
	if (!buf)
		return 0;
	if (asprintf(&out, "%s/%s", top, rel) < 0)
		out = NULL;
	slash = out ? strrchr(out, '/') : NULL;
	if (!slash) {
		ret = ftgl_err(FTG_E_SYSTEM, ENOMEM, "out of memory");
	} else {
		*slash = '\0';
		ret = make_dirs(dst, out);
		*slash = '/';
		path = ret ? NULL : ftgl_path(dst, out);
		ret = path ? write_file(path, buf, len) : -1;
	}
	free(path);
	free(out);
	free(buf);
	return ret;
}

static int copy_livepatch(const char *dir, const char *patch, void *arg)
{
	const char *dst = arg;
	char rel[1024], *out;
	int ret;

	snprintf(rel, sizeof(rel), "sys/kernel/livepatch/%s", patch);
	ret = make_dirs(dst, rel);
	if (ret)
		return ret;
	out = ftgl_path(dst, rel);
	ret = out ? copy_file(dir, out, "enabled", false) : -1;
	free(out);
	return ret;
}

static int copy_livepatch_function(const char *patch, const char *object,
				   const char *function, void *arg)
{
	const char *dst = arg;
	char rel[1024];

	snprintf(rel, sizeof(rel), "sys/kernel/livepatch/%s/%s/%s", patch,
		 object, function);
	return make_dirs(dst, rel);
}

/*
 * sys/kernel/livepatch: PATCH/enabled and PATCH/OBJECT/FUNCTION,SYMPOS/,
 * the names being what ftg_users_read() reads of a livepatch.
 */
static int copy_livepatches(const char *sys_dir, const char *dst)
{
	static const struct ftgl_livepatch_ops ops = {
		.patch = copy_livepatch,
		.function = copy_livepatch_function,
	};

	return ftgl_livepatch_walk(sys_dir, &ops, (void *)dst);
}

static int save_to(const struct ftg_root *root, const char *dir)
{
	static const char *const proc_files[] = { "kallsyms", "modules" };
	static const char *const proc_optional[] = {
		"vmallocinfo", "version", "cmdline",
	};
	static const char *const kmod_tables[] = {
		"status", "sites", "modules", "check",
	};
	/* the kernel's view of ftrace, and who else uses it (ftg_users_read) */
	static const char *const ftrace_names[] = {
		"available_filter_functions", "available_filter_functions_addrs",
		"enabled_functions", "touched_functions",
		"kprobe_events", "current_tracer", "set_ftrace_filter",
	};
	struct ftg_kernel_info info;
	char *sub = NULL, *kdir = NULL, header[2048];
	size_t i;
	int ret;

	ret = make_dir(dir);
	if (!ret)
		ret = make_dirs(dir, "proc");
	sub = ret ? NULL : ftgl_path(dir, "proc");
	for (i = 0; sub && !ret && i < FTGL_ARRAY_SIZE(proc_files); i++)
		ret = copy_file(ftg_root_proc(root), sub, proc_files[i], true);
	for (i = 0; sub && !ret && i < FTGL_ARRAY_SIZE(proc_optional); i++)
		ret = copy_file(ftg_root_proc(root), sub, proc_optional[i], false);
	free(sub);
	if (ret)
		return ret;

	ret = copy_sections(ftg_root_sys(root), dir);
	if (!ret)
		ret = copy_livepatches(ftg_root_sys(root), dir);
	if (!ret)
		ret = copy_optional(ftg_root_proc(root), dir, "proc",
				    "sys/kernel/ftrace_enabled");
	if (!ret)
		ret = copy_optional(ftg_root_debugfs(root), dir, "debug",
				    "kprobes/list");
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
	if (ret || describe_kernel(root, dir, &info))
		return -1;

	header_text(header, sizeof(header), &info);
	sub = ftgl_path(dir, "ftguard-snapshot");
	ret = sub ? write_file(sub, header, strlen(header)) : -1;
	free(sub);
	return ret;
}

int ftg_snapshot_save(const struct ftg_root *root, const char *dir)
{
	ftg_error_clear();
	if (!dir || !*dir)
		return ftgl_err(FTG_E_BAD_ARGUMENT, EINVAL, "no directory to save into");
	if (save_to(root, dir))
		return ftgl_err_prefix("saving snapshot %s", dir);
	ftg_error_clear();	/* optional files that were absent */
	return 0;
}
