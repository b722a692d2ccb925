// SPDX-License-Identifier: LGPL-2.1
/*
 * trace.dat files: ftg_trace_file_check(), then ftg_trace_file_open()
 * (validation, the forked preflight read, libtracecmd) and a full
 * ftg_trace_file_iterate() with each event printed as `ftguard report`
 * prints it. Seeds are trace.dat files written from the fixture pages.
 */
#include <stdlib.h>

#include "fuzz-common.h"

/*
 * libtracecmd 1.3 never frees the trace-clock name it sscanf("%ms")s from
 * a file's TRACECLOCK option (as tests/unit/lib-test.h explains): not
 * ours, and not a finding.
 */
const char *__lsan_default_suppressions(void);
const char *__lsan_default_suppressions(void)
{
	return "leak:libtracecmd.so\nleak:__isoc99_vsscanf\n";
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static char *path;
	struct ftg_trace_file *tf;
	size_t events = 0;

	if (!path)
		path = fz_path("t.dat");
	fz_write("t.dat", data, size);
	fz_use(ftg_trace_file_check(path));
	tf = ftg_trace_file_open(path);
	if (!tf) {
		fz_use_str(ftg_error_last());
		return 0;
	}
	fz_use((uint64_t)ftg_trace_file_ncpus(tf));
	fz_use((uint64_t)ftg_trace_file_iterate(tf, fz_print_event, &events));
	ftg_trace_file_close(tf);
	return 0;
}
