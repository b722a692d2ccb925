// SPDX-License-Identifier: LGPL-2.1
/* /proc/modules: ftg_proc_modules_read() and lookups by the names read. */
#include "fuzz-common.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct ftg_proc_modules *pm;
	size_t i, n;

	fz_input("proc", "modules", data, size);
	pm = ftg_proc_modules_read(fz_lib_root());
	if (!pm)
		return 0;
	n = ftg_proc_modules_count(pm);
	fz_use(ftg_proc_modules_skipped(pm));
	for (i = 0; i < n; i++) {
		const struct ftg_proc_module *m = ftg_proc_modules_get(pm, i);

		fz_use(ftg_proc_modules_find(pm, m->name) != NULL);
		fz_use(m->size + m->base + (uint64_t)m->refcount);
		fz_use_str(m->deps);
		fz_use_str(m->state);
		fz_use_str(m->taints);
	}
	fz_use(ftg_proc_modules_get(pm, n) == NULL);
	fz_use(ftg_proc_modules_find(pm, "") != NULL);
	ftg_proc_modules_free(pm);
	return 0;
}
