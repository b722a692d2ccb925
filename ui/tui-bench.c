// SPDX-License-Identifier: GPL-2.0
/*
 * --bench: feed the live screen a sustained event rate from a synthetic
 * source (no kernel needed) through the same ring and redraw path as real
 * events, then report refreshes/s, CPU time and peak RSS.
 */
#include <stdio.h>
#include <string.h>
#include <sys/resource.h>

#include "ui/tui.h"

#define BENCH_TEMPLATES 64

static struct {
	double seconds;
	unsigned long rate;
	uint64_t start_ms;
	uint64_t fed;
	struct ftg_event templates[BENCH_TEMPLATES];
} B;

void tui_bench_start(struct tui *tui, double seconds, unsigned long rate)
{
	int i;

	B.seconds = seconds;
	B.rate = rate;
	B.start_ms = tui_now_ms();
	B.fed = 0;
	for (i = 0; i < BENCH_TEMPLATES; i++) {
		struct ftg_event *ev = &B.templates[i];

		memset(ev, 0, sizeof(*ev));
		ev->cpu = i % 2;
		ev->pid = 4000 + i % 7;
		snprintf(ev->comm, sizeof(ev->comm), "bench%d", i % 7);
		snprintf(ev->system, sizeof(ev->system), "ftguard");
		snprintf(ev->name, sizeof(ev->name), "func");
		ev->ip = 0xffffffffc0000000ULL + (uint64_t)i * 0x40;
		ev->parent_ip = 0xffffffffc0001000ULL + (uint64_t)(i % 5) * 0x40;
		snprintf(ev->sym, sizeof(ev->sym), "bench_fn_%02d [ftg_bench]", i);
		snprintf(ev->parent_sym, sizeof(ev->parent_sym), "bench_caller_%d [ftg_bench]", i % 5);
		snprintf(ev->info, sizeof(ev->info), "ip=%s parent=%s", ev->sym, ev->parent_sym);
	}
	tui->bench = true;
}

/* Pushes the events due by @now_ms (at most a tenth of a second's worth). */
void tui_bench_feed(struct tui *tui, uint64_t now_ms)
{
	uint64_t due = (now_ms - B.start_ms) * B.rate / 1000, n;

	if (due <= B.fed)
		return;
	n = due - B.fed;
	if (n > B.rate / 10 + 1)
		n = B.rate / 10 + 1;
	while (n--) {
		struct ftg_event *ev = &B.templates[B.fed % BENCH_TEMPLATES];

		ev->ts_ns = B.start_ms * 1000000ULL + B.fed * 1000000000ULL / (B.rate ? B.rate : 1);
		ftg_event_ring_push(tui->m.ring, ev);
		B.fed++;
	}
	tui->m.events_total = B.fed;
	tui->dirty |= TUI_DIRTY_BODY;
}

bool tui_bench_done(const struct tui *tui, uint64_t now_ms)
{
	return now_ms - B.start_ms >= (uint64_t)(B.seconds * 1000);
}

/*
 * What a session cost, whatever fed it: one report for --bench (synthetic
 * events) and --stats (the real ones), so make bench compares like with
 * like. The last line is for scripts.
 */
static int report_usage(const struct tui *tui, FILE *out, uint64_t start_ms,
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

int tui_bench_report(const struct tui *tui, FILE *out)
{
	fprintf(out, "synthetic source asked for %lu events/s\n", B.rate);
	return report_usage(tui, out, B.start_ms, B.fed, "bench");
}

int tui_stats_report(const struct tui *tui, FILE *out)
{
	return report_usage(tui, out, tui->start_ms, tui->m.events_total, "stats");
}
