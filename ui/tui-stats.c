// SPDX-License-Identifier: GPL-2.0
/*
 * What a session cost, whatever fed it: --stats writes it for the kernel's
 * events, the benchmark's synthetic source prints the same report, so make
 * bench compares like with like. The last line is for scripts.
 */
#include <stdio.h>
#include <sys/resource.h>

#include "ui/tui.h"

int tui_usage_report(const struct tui *tui, FILE *out, uint64_t start_ms,
		     uint64_t events, const char *source)
{
	double secs = (tui_now_ms() - start_ms) / 1000.0, user, sys;
	struct rusage ru;

	if (getrusage(RUSAGE_SELF, &ru) < 0)
		return -1;
	user = ru.ru_utime.tv_sec + ru.ru_utime.tv_usec / 1e6;
	sys = ru.ru_stime.tv_sec + ru.ru_stime.tv_usec / 1e6;
	if (secs <= 0)
		secs = 1e-3;
	fprintf(out, "ftguard-tui %s: %.1f s, %dx%d, ring of %zu events\n",
		source, secs, COLS, LINES, ftg_event_ring_capacity(tui->m.ring));
	fprintf(out, "events:      %llu (%.0f/s), %llu lost\n",
		(unsigned long long)events, events / secs,
		(unsigned long long)tui->m.lost);
	fprintf(out, "refreshes:   %lu (%.1f/s)\n", tui->frames, tui->frames / secs);
	fprintf(out, "cpu:         user %.2f s + sys %.2f s = %.1f%% of one CPU\n",
		user, sys, 100.0 * (user + sys) / secs);
	fprintf(out, "peak rss:    %ld KiB\n", ru.ru_maxrss);
	fprintf(out, "bench refreshes_per_s=%.1f events_per_s=%.0f cpu_pct=%.1f peak_rss_kib=%ld\n",
		tui->frames / secs, events / secs, 100.0 * (user + sys) / secs,
		ru.ru_maxrss);
	return 0;
}

int tui_stats_report(const struct tui *tui, FILE *out)
{
	return tui_usage_report(tui, out, tui->start_ms, tui->m.events_total,
				"stats");
}
