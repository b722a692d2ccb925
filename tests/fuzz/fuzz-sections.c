// SPDX-License-Identifier: LGPL-2.1
/*
 * /sys/module/<m>/sections/<s>: the input is a pack (fuzz-common.h) of
 * section files; ftg_sections_read() reads them back and every section
 * is looked up by name.
 */
#include "fuzz-common.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct ftg_sections *sec;
	uint64_t addr;
	size_t i, n;

	fz_unpack(data, size);
	fz_write("sys/module/.keep", "", 0);	/* sys/module always exists */
	sec = ftg_sections_read(fz_lib_root());
	if (!sec)
		return 0;
	n = ftg_sections_count(sec);
	fz_use(ftg_sections_skipped(sec));
	for (i = 0; i < n; i++) {
		const struct ftg_section *s = ftg_sections_get(sec, i);

		if (!ftg_sections_find(sec, s->module, s->name, &addr))
			fz_use(addr);
	}
	fz_use(ftg_sections_get(sec, n) == NULL);
	fz_use(ftg_sections_find(sec, "", ".text", &addr) == 0);
	ftg_sections_free(sec);
	return 0;
}
