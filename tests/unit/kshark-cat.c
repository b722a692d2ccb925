// SPDX-License-Identifier: GPL-2.0
/*
 * kshark-cat FILE: the entries of a trace.dat as KernelShark's library
 * (libkshark) loads them, one "task-pid system/event: info" line each in
 * its order, the info being what KernelShark's table shows. The unit
 * tests run it, as they run trace-cmd report, on the files ftguard
 * writes: KernelShark opens them without a display.
 */
#include <stdio.h>
#include <stdlib.h>

#include <libkshark.h>

int main(int argc, char **argv)
{
	struct kshark_context *ctx = NULL;
	struct kshark_entry **rows = NULL;
	ssize_t n, i;
	int sd;

	if (argc != 2) {
		fprintf(stderr, "usage: kshark-cat FILE\n");
		return 2;
	}
	if (!kshark_instance(&ctx))
		return 2;
	sd = kshark_open(ctx, argv[1]);
	if (sd < 0) {
		fprintf(stderr, "kshark-cat: cannot open %s (%d)\n", argv[1], sd);
		kshark_free(ctx);
		return 1;
	}
	n = kshark_load_entries(ctx, sd, &rows);
	for (i = 0; i < n; i++) {
		char *task = kshark_get_task(rows[i]);
		char *name = kshark_get_event_name(rows[i]);
		char *info = kshark_get_info(rows[i]);

		printf("%s-%d %s: %s\n", task ? task : "?", kshark_get_pid(rows[i]),
		       name ? name : "?", info ? info : "");
		free(task);
		free(name);
		free(info);
		free(rows[i]);
	}
	free(rows);
	kshark_close(ctx, sd);
	kshark_free(ctx);
	return n < 0 ? 1 : 0;
}
