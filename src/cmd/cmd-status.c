// SPDX-License-Identifier: GPL-2.0
/*
 * `ftguard status`: is the module loaded, armed, by whom, killed, how many
 * sites, the last check.
 */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <sys/utsname.h>
#include <unistd.h>

#include "cmd/ftguard-cmd.h"

#define FTG_STATUS_KILLED	3	/* exit status: the kill latch is set */

static bool file_exists(const char *path)
{
	return access(path, R_OK) == 0;
}

/**
 * ftg_cmd_module_hint - how to load ftguard.ko on this machine
 * @buf: filled with a command the user can run
 * @len: size of @buf
 *
 * Only a path that exists is named: an installed module (make install puts
 * it under /lib/modules/RELEASE, DKMS under updates/dkms) loads with
 * modprobe; else the module next to this ftguard in a build tree, or the
 * one the test VM ships.
 *
 * Return: @buf.
 */
const char *ftg_cmd_module_hint(char *buf, size_t len)
{
	static const char *const installed[] = { "extra", "updates/dkms", "updates" };
	char path[PATH_MAX], exe[PATH_MAX - 32], *slash;
	struct utsname u;
	ssize_t n;
	size_t i;

	if (uname(&u) == 0) {
		for (i = 0; i < sizeof(installed) / sizeof(installed[0]); i++) {
			snprintf(path, sizeof(path), "/lib/modules/%s/%s/ftguard.ko",
				 u.release, installed[i]);
			if (file_exists(path) ||
			    (strlen(path) + 3 < sizeof(path) &&
			     file_exists(strcat(path, ".xz")))) {
				snprintf(buf, len, "modprobe ftguard");
				return buf;
			}
		}
	}
	/* A build tree: ftguard (or libtool's .libs/ftguard) beside kmod/. */
	n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
	if (n > 0) {
		exe[n] = '\0';
		for (i = 0; i < 2 && (slash = strrchr(exe, '/')); i++) {
			*slash = '\0';
			snprintf(path, sizeof(path), "%s/kmod/ftguard.ko", exe);
			if (file_exists(path)) {
				snprintf(buf, len, "insmod %s", path);
				return buf;
			}
		}
	}
	if (file_exists("/lib/ftguard/ftguard.ko")) {
		snprintf(buf, len, "insmod /lib/ftguard/ftguard.ko");
		return buf;
	}
	snprintf(buf, len, "build and install it first: make && make install");
	return buf;
}

/**
 * ftg_cmd_kill_cure - what clears a kill, as status and show say it
 * @stuck: status's stuck ("" or "-" when nothing is)
 *
 * Return: a phrase without a final stop.
 */
const char *ftg_cmd_kill_cure(const char *stuck)
{
	return stuck && *stuck && strcmp(stuck, "-") ?
	       "only a reboot clears it: the kernel still holds ftguard's arm" :
	       "'ftguard reset' clears it";
}

static const char *text_or_dash(const char *s)
{
	return s && *s ? s : "-";
}

static void status_json(const struct ftg_status *st, const struct ftg_keys *keys)
{
	struct ftg_json *j = ftg_json_new(stdout);
	size_t i;

	ftg_json_object_begin(j, NULL);
	ftg_json_bool(j, "loaded", st->loaded);
	ftg_json_bool(j, "armed", st->armed);
	ftg_json_string(j, "owner", st->owner);
	ftg_json_int(j, "owner_pid", st->owner_pid);
	ftg_json_uint(j, "armed_sites", st->armed_sites);
	ftg_json_bool(j, "killed", st->killed);
	ftg_json_string(j, "kill_reason", st->killed ? st->kill_reason : NULL);
	ftg_json_string(j, "stuck", *st->stuck ? st->stuck : NULL);
	ftg_json_uint(j, "sites", st->sites);
	ftg_json_uint(j, "vmlinux_sites", st->vmlinux_sites);
	ftg_json_uint(j, "module_sites", st->module_sites);
	ftg_json_uint(j, "admitted", st->admitted);
	ftg_json_uint(j, "rejected", st->rejected);
	if (st->checked) {
		ftg_json_object_begin(j, "last_check");
		ftg_json_uint(j, "ms", st->last_check_ms);
		ftg_json_bool(j, "ok", st->last_check_ok);
		ftg_json_uint(j, "n_ok", st->last_check_n_ok);
		ftg_json_uint(j, "n_bad", st->last_check_n_bad);
		ftg_json_object_end(j);
	} else {
		ftg_json_null(j, "last_check");
	}
	ftg_json_string(j, "last_error", *st->last_error ? st->last_error : NULL);
	ftg_json_uint(j, "verify_period_ms", st->verify_period_ms);
	ftg_json_uint(j, "max_arm", st->max_arm);
	ftg_json_bool(j, "fault_injection", st->fault_injection);
	ftg_json_hex(j, "modules_vaddr", st->modules_vaddr);
	ftg_json_hex(j, "modules_end", st->modules_end);
	ftg_json_hex(j, "vmalloc_start", st->vmalloc_start);
	ftg_json_hex(j, "vmalloc_end", st->vmalloc_end);
	/* every key as the module wrote it, those above and newer ones */
	ftg_json_object_begin(j, "keys");
	for (i = 0; i < ftg_keys_count(keys); i++)
		ftg_json_string(j, ftg_keys_name(keys, i), ftg_keys_value(keys, i));
	ftg_json_object_end(j);
	ftg_json_uint(j, "verify_runs", st->verify_runs);
	ftg_json_uint(j, "verify_ns", st->verify_ns);
	ftg_json_uint(j, "verify_slice", st->verify_slice);
	ftg_json_uint(j, "verify_cycle_ms", st->verify_cycle_ms);
	ftg_json_uint(j, "verify_cycles", st->verify_cycles);
	ftg_json_object_end(j);
	ftg_json_free(j);
}

static void label(const char *name)
{
	printf("%-13s ", name);
}

static void status_text(const struct ftg_status *st, int kftrace)
{
	label("module:");
	printf("loaded%s\n", st->fault_injection ? " (fault-injection build)" : "");
	/* said only when nothing can be traced, whatever the sites are */
	if (kftrace == FTG_KFTRACE_OFF) {
		label("ftrace:");
		printf("off (kernel.ftrace_enabled = 0): nothing is traced until "
		       "sysctl kernel.ftrace_enabled=1\n");
	} else if (kftrace == FTG_KFTRACE_KILLED) {
		label("ftrace:");
		printf("killed by the kernel after an anomaly (see its log): "
		       "nothing can be traced until reboot\n");
	}
	label("armed:");
	if (st->armed) {
		printf("yes, %llu sites, owner ", (unsigned long long)st->armed_sites);
		ftg_print_safe(stdout, st->owner);
		putchar('\n');
	} else {
		printf("no\n");
	}
	label("killed:");
	if (st->killed) {
		printf("yes: ");
		ftg_print_safe(stdout, text_or_dash(st->kill_reason));
		printf(" (%s)\n", ftg_cmd_kill_cure(st->stuck));
	} else {
		printf("no\n");
	}
	if (*st->stuck) {
		label("stuck:");
		ftg_print_safe(stdout, st->stuck);
		printf(": ftguard.ko stays loaded until reboot\n");
	}
	label("sites:");
	printf("%llu (vmlinux %llu, modules %llu)\n", (unsigned long long)st->sites,
	       (unsigned long long)st->vmlinux_sites, (unsigned long long)st->module_sites);
	label("candidates:");
	printf("%llu admitted, %llu rejected\n", (unsigned long long)st->admitted,
	       (unsigned long long)st->rejected);
	label("last check:");
	if (st->checked)
		printf("%s, %llu ok, %llu bad, at %llu ms\n",
		       st->last_check_ok ? "ok" : "FAILED",
		       (unsigned long long)st->last_check_n_ok,
		       (unsigned long long)st->last_check_n_bad,
		       (unsigned long long)st->last_check_ms);
	else
		printf("never\n");
	label("last error:");
	ftg_print_safe(stdout, text_or_dash(st->last_error));
	putchar('\n');
	label("verify:");
	printf("every %llu ms; at most %llu sites armed without --force",
	       (unsigned long long)st->verify_period_ms, (unsigned long long)st->max_arm);
	/* a large arm is re-checked in slices: how long a whole pass takes */
	if (st->armed && st->verify_cycle_ms)
		printf("; %llu sites a run, every armed site within %llu ms",
		       (unsigned long long)(st->verify_slice ? st->verify_slice
							     : st->armed_sites),
		       (unsigned long long)st->verify_cycle_ms);
	if (st->verify_runs)
		printf("; ran %llu times, %.1f ms in all",
		       (unsigned long long)st->verify_runs, st->verify_ns / 1e6);
	putchar('\n');
	label("modules:");
	printf("0x%llx-0x%llx\n", (unsigned long long)st->modules_vaddr,
	       (unsigned long long)st->modules_end);
	label("vmalloc:");
	printf("0x%llx-0x%llx\n", (unsigned long long)st->vmalloc_start,
	       (unsigned long long)st->vmalloc_end);
}

static int status_exec(struct ftg_cmd_ctx *ctx, const struct ftg_cmd_args *args)
{
	bool json = ftg_args_has(args, FTG_OPT_JSON);
	struct ftg_keys *keys;
	struct ftg_status st;
	struct ftg_root *root;

	if (ftg_cmd_need(ctx, FTG_NEED_ROOT_USER))
		return FTG_CMD_ERROR;
	root = ftg_cmd_root(ctx);	/* opened by ftg_cmd_need() */
	memset(&st, 0, sizeof(st));
	if (ftg_status_read(root, &st) < 0) {
		if (ftg_error_code() != FTG_E_NO_MODULE)
			return ftg_cmd_lib_error(ctx, "reading ftguard/status");
		/* Not loaded is an answer, not a failure to give one. */
		if (json) {
			struct ftg_json *j = ftg_json_new(stdout);

			ftg_json_object_begin(j, NULL);
			ftg_json_bool(j, "loaded", false);
			ftg_json_object_end(j);
			ftg_json_free(j);
		} else {
			char hint[PATH_MAX + 32];

			label("module:");
			printf("not loaded\n");
			ftg_cmd_info(ctx, "load it: %s",
				     ftg_cmd_module_hint(hint, sizeof(hint)));
		}
		return FTG_CMD_REFUSED;
	}
	keys = ftg_status_keys_read(root);
	if (!keys)
		return ftg_cmd_lib_error(ctx, "reading ftguard/status");
	if (json) {
		status_json(&st, keys);
	} else {
		status_text(&st, ftg_kernel_ftrace_state(root));
		if (ctx->verbosity > 0)
			ftg_cmd_print_keys("every key of ftguard.ko's status", keys);
	}
	ftg_keys_free(keys);
	/* On the live system a kill is the answer that matters most: scripts
	 * see it too. A snapshot's kill is history, shown above. */
	if (!st.killed || ctx->root)
		return FTG_CMD_OK;
	if (!json) {
		char reason[FTG_TEXT_LEN * 4];

		ftg_escape(reason, sizeof(reason), text_or_dash(st.kill_reason),
			   FTG_ESCAPE_TEXT);
		ftg_cmd_error(ctx, "ftguard.ko killed tracing: %s (nothing is armed; %s)",
			      reason, ftg_cmd_kill_cure(st.stuck));
	}
	return FTG_STATUS_KILLED;
}

static const struct ftg_cmd_option status_options[] = {
	FTG_OPTION_JSON,
	FTG_OPTION_END
};

const struct ftg_cmd_entry ftg_cmd_status_entry = {
	.name = "status",
	.usage = "[--json]",
	.summary = "Show whether ftguard.ko is loaded, armed, by whom, and its last check",
	.description =
		"Reads ftguard.ko's status table: whether sites are armed and who\n"
		"owns the arm (a process, or 'persistent' after 'ftguard start'),\n"
		"whether the module killed tracing and why, how many sites it knows,\n"
		"and the result of the last check. With --root the status saved in\n"
		"a snapshot is shown. With -v (before the command) every key of the\n"
		"table follows as the module wrote it; --json has them all under\n"
		"\"keys\".",
	.exit_status =
		"0 the status was shown; 1 ftguard.ko is not loaded; 2 an error;\n"
		"3 ftguard.ko killed tracing (a site failed its verification;\n"
		"live system only): the status and the reason are printed, and\n"
		"'ftguard reset' clears it.",
	.options = status_options,
	.min_args = 0,
	.max_args = 0,
	.exec = status_exec,
};
