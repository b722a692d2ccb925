// SPDX-License-Identifier: LGPL-2.1
/*
 * tracefs available_filter_functions, enabled_functions and
 * touched_functions: the input's first byte picks the file, the rest is
 * its text.
 */
#include "fuzz-common.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const char *const files[] = {
		"tracing/available_filter_functions",
		"tracing/enabled_functions",
		"tracing/touched_functions",
	};
	static const enum ftg_ftrace_file which[] = {
		FTG_FTRACE_AVAILABLE, FTG_FTRACE_ENABLED, FTG_FTRACE_TOUCHED,
	};
	struct ftg_ftrace_funcs *ff;
	unsigned int k;
	size_t i, n;

	if (!size)
		return 0;
	k = data[0] % 3;
	fz_reset();
	/* reading any of them wants available_filter_functions present */
	if (k)
		fz_write(files[0], "", 0);
	fz_write(files[k], data + 1, size - 1);
	ff = ftg_ftrace_funcs_read(fz_lib_root(), which[k]);
	if (!ff)
		return 0;
	n = ftg_ftrace_funcs_count(ff);
	fz_use(ftg_ftrace_funcs_skipped(ff));
	for (i = 0; i < n; i++) {
		const struct ftg_ftrace_func *f = ftg_ftrace_funcs_get(ff, i);

		fz_use(ftg_ftrace_funcs_has(ff, f->name, f->module));
		fz_use(ftg_ftrace_funcs_has(ff, f->name, "vmlinux"));
		fz_use(ftg_ftrace_funcs_has(ff, f->name, NULL));
		fz_use((uint64_t)f->refcount);
		fz_use_str(f->flags);
	}
	fz_use(ftg_ftrace_funcs_get(ff, n) == NULL);
	ftg_ftrace_funcs_free(ff);
	return 0;
}
