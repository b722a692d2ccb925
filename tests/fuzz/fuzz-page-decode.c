// SPDX-License-Identifier: LGPL-2.1
/*
 * Raw ring-buffer pages as trace_pipe_raw gives them (the live path of
 * record, stream and the TUI): ftg_page_decode() with the fixture event
 * formats and kallsyms, each event printed. The input is one page (or
 * less: a partial page from ftg_live_drain()); its first byte is the CPU.
 */
#include <stdio.h>
#include <stdlib.h>

#include "fuzz-common.h"

static struct ftg_trace_formats *fmt;

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	char tracefs[4096], proc[4096];

	snprintf(tracefs, sizeof(tracefs), "%s", fz_fixture("trace/tracefs"));
	snprintf(proc, sizeof(proc), "%s", fz_fixture("trace/proc"));
	fmt = ftg_trace_formats_read(tracefs, NULL, proc);
	if (!fmt) {
		fprintf(stderr, "fuzz-page-decode: fixture formats: %s\n",
			ftg_error_last());
		abort();
	}
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	if (!size)
		return 0;
	fz_use((uint64_t)ftg_page_decode(fmt, data[0] % 4, data + 1, size - 1,
					 fz_print_event, NULL));
	fz_use((uint64_t)ftg_page_decode(fmt, 0, data + 1, size - 1, NULL, NULL));
	return 0;
}
