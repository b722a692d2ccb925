// SPDX-License-Identifier: LGPL-2.1
/*
 * /proc/kallsyms: ftg_kallsyms_read() on the input, then every query the
 * map and the selection make of it (names and addresses taken from the
 * parsed symbols themselves, so the indexes are walked on hostile data).
 */
#include "fuzz-common.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const struct ftg_ksym *found[4];
	struct ftg_kallsyms *ks;
	uint64_t start, end, off;
	size_t i, n;

	fz_input("proc", "kallsyms", data, size);
	ks = ftg_kallsyms_read(fz_lib_root());
	if (!ks)
		return 0;
	n = ftg_kallsyms_count(ks);
	fz_use(ftg_kallsyms_skipped(ks));
	for (i = 0; i < n && i < 64; i++) {
		const struct ftg_ksym *s = ftg_kallsyms_get(ks, i);

		fz_use(ftg_kallsyms_find(ks, s->name, s->module, found, 4));
		fz_use(ftg_kallsyms_find(ks, s->name, "vmlinux", found, 4));
		fz_use(ftg_kallsyms_find(ks, s->name, NULL, NULL, 0));
		if (ftg_kallsyms_lookup(ks, s->addr + 1, &off))
			fz_use(off);
		fz_use(ftg_kallsyms_lookup(ks, s->addr - 1, NULL) != NULL);
	}
	fz_use(ftg_kallsyms_get(ks, n) == NULL);
	fz_use(ftg_kallsyms_lookup(ks, UINT64_MAX, &off) != NULL);
	if (!ftg_kallsyms_text_bounds(ks, &start, &end))
		fz_use(end - start);
	ftg_kallsyms_free(ks);
	return 0;
}
