// SPDX-License-Identifier: GPL-2.0
/*
 * make-trace - write a trace.dat from the raw ring-buffer pages captured in
 * tests/fixtures/trace, for the command tests of report and export.
 *
 *   make-trace FIXTURE_DIR OUT
 */
#include <stdio.h>
#include <stdlib.h>

#include "ftguard.h"
#include "lib/ftguard-test.h"

int main(int argc, char **argv)
{
	struct ftg_trace_formats *fmt;
	struct ftg_trace_writer *w;
	char tracefs[4096], proc[4096], pages[4096];
	unsigned char *page;
	size_t page_size;
	int cpu, ret = 1;

	if (argc != 3) {
		fprintf(stderr, "usage: make-trace FIXTURE_DIR OUT\n");
		return 2;
	}
	snprintf(tracefs, sizeof(tracefs), "%s/tracefs", argv[1]);
	snprintf(proc, sizeof(proc), "%s/proc", argv[1]);
	fmt = ftg_trace_formats_read(tracefs, NULL, proc);
	if (!fmt) {
		fprintf(stderr, "make-trace: formats: %s\n", ftg_error_last());
		return 1;
	}
	page_size = ftg_trace_formats_page_size(fmt);
	page = malloc(page_size);
	w = ftg_trace_writer_create(argv[2], fmt, 2);
	if (!w || !page)
		goto out;
	for (cpu = 0; cpu < 2; cpu++) {
		FILE *f;

		snprintf(pages, sizeof(pages), "%s/raw-pages-cpu%d.bin", argv[1], cpu);
		f = fopen(pages, "rb");
		if (!f) {
			perror(pages);
			ftg_trace_writer_free(w);
			goto out;
		}
		while (fread(page, 1, page_size, f) == page_size)
			ftg_trace_writer_add_page(w, cpu, page, page_size);
		fclose(f);
	}
	ret = ftg_trace_writer_close(w) < 0;
out:
	if (ret)
		fprintf(stderr, "make-trace: %s\n", ftg_error_last());
	free(page);
	ftg_trace_formats_free(fmt);
	return ret;
}
