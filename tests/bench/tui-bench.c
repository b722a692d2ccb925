// SPDX-License-Identifier: GPL-2.0
/*
 * ftg-tui-bench: ftguard-tui with a synthetic event source instead of the
 * kernel (make bench's figure 7; not installed). It feeds the Live screen
 * a sustained event rate through the same ring and redraw path as real
 * events, then prints refreshes/s, CPU time and peak RSS on stdout.
 *
 *   ftg-tui-bench [--bench[=SECS]] [--bench-rate N] [ftguard-tui options]
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ui/tui.h"

#define BENCH_TEMPLATES 64

static struct {
	double seconds;
	unsigned long rate;
	uint64_t start_ms;
	uint64_t fed;
	struct ftg_event templates[BENCH_TEMPLATES];
} B = { .seconds = 10, .rate = 200000 };

static void bench_start(struct tui *tui)
{
	int i;

	(void)tui;
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
}

/* Pushes the events due by @now_ms (at most a tenth of a second's worth). */
static void bench_feed(struct tui *tui, uint64_t now_ms)
{
	uint64_t due = (now_ms - B.start_ms) * B.rate / 1000, n;

	if (due <= B.fed)
		return;
	n = due - B.fed;
	if (n > B.rate / 10 + 1)
		n = B.rate / 10 + 1;
	while (n--) {
		struct ftg_event *ev = &B.templates[B.fed % BENCH_TEMPLATES];

		ev->ts_ns = B.start_ms * 1000000ULL + B.fed * 1000000000ULL / B.rate;
		ftg_event_ring_push(tui->m.ring, ev);
		B.fed++;
	}
	tui->m.events_total = B.fed;
	tui->dirty |= TUI_DIRTY_BODY;
}

static bool bench_done(const struct tui *tui, uint64_t now_ms)
{
	(void)tui;
	return now_ms - B.start_ms >= (uint64_t)(B.seconds * 1000);
}

static int bench_report(const struct tui *tui, FILE *out)
{
	fprintf(out, "synthetic source asked for %lu events/s\n", B.rate);
	return tui_usage_report(tui, out, B.start_ms, B.fed, "bench");
}

static const struct tui_source bench_source = {
	.start = bench_start, .feed = bench_feed, .done = bench_done,
	.report = bench_report,
};

/*
 * "--NAME=N", or "--NAME N" when the option needs N (@dflt < 0), or
 * "--NAME" alone for @dflt: N from @min to @max into *@out. Returns the
 * words taken (0: not this option).
 */
static int bench_option(char **argv, int i, const char *name, long min,
			long max, long dflt, long *out)
{
	size_t len = strlen(name);
	const char *arg = argv[i], *num = NULL;
	char *end;
	int taken = 1;

	if (strncmp(arg, name, len) || (arg[len] && arg[len] != '='))
		return 0;
	if (arg[len] == '=')
		num = arg + len + 1;
	else if (dflt < 0 && argv[i + 1])
		num = argv[i + 1], taken = 2;
	*out = dflt;
	if (num) {
		*out = strtol(num, &end, 10);
		if (end == num || *end || *out < min || *out > max)
			num = NULL, *out = -1;
	}
	if (*out < 0) {
		fprintf(stderr, "ftg-tui-bench: %s wants a number from %ld to %ld\n",
			name, min, max);
		exit(2);
	}
	return taken;
}

int main(int argc, char **argv)
{
	int i, n = 1, taken;
	long v;

	/* The bench's own options out; the rest is ftguard-tui's. */
	for (i = 1; i < argc; i += taken) {
		taken = bench_option(argv, i, "--bench-rate", 1, 100000000, -1, &v);
		if (taken) {
			B.rate = (unsigned long)v;
			continue;
		}
		taken = bench_option(argv, i, "--bench", 1, 3600, 10, &v);
		if (taken) {
			B.seconds = (double)v;
			continue;
		}
		argv[n++] = argv[i];
		taken = 1;
	}
	argv[n] = NULL;
	return tui_main(n, argv, &bench_source);
}
