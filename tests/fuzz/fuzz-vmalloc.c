// SPDX-License-Identifier: LGPL-2.1
/* /proc/vmallocinfo: ftg_vmalloc_read() and lookups around each area. */
#include "fuzz-common.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct ftg_vmalloc *vm;
	size_t i, n;

	fz_input("proc", "vmallocinfo", data, size);
	vm = ftg_vmalloc_read(fz_lib_root());
	if (!vm)
		return 0;
	n = ftg_vmalloc_count(vm);
	fz_use(ftg_vmalloc_skipped(vm));
	for (i = 0; i < n; i++) {
		const struct ftg_vmarea *a = ftg_vmalloc_get(vm, i);

		fz_use(ftg_vmalloc_lookup(vm, a->start) != NULL);
		fz_use(ftg_vmalloc_lookup(vm, a->end) != NULL);
		fz_use(ftg_vmalloc_lookup(vm, a->end - 1) != NULL);
		fz_use(a->size + a->pages + a->phys + a->flags);
		fz_use_str(a->caller);
		fz_use_str(a->caller_module);
	}
	fz_use(ftg_vmalloc_get(vm, n) == NULL);
	ftg_vmalloc_free(vm);
	return 0;
}
