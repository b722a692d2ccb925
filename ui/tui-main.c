// SPDX-License-Identifier: GPL-2.0
/*
 * ftguard-tui: the interactive view of ftguard (run by `ftguard tui`).
 *
 * The loop follows tmux's: it waits in one ppoll() on the terminal and
 * the live trace descriptors, with no timeout but the status refresh's,
 * so an idle TUI sleeps; input and data only mark what is dirty; after
 * them, one draw per iteration; KEY_RESIZE only marks a full redraw. The
 * terminal is restored on every exit path (normal return, exit(), the
 * terminating signals), and the arm this TUI made is owned by its control
 * descriptor, so even SIGKILL leaves nothing armed.
 */
#include <errno.h>
#include <getopt.h>
#include <locale.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "config.h"
#include "cmd/tui-options.h"
#include "ui/tui.h"

#define DEFAULT_REFRESH_MS	FTG_TUI_DEFAULT_REFRESH_MS
#define DEFAULT_POLL_MS		FTG_TUI_DEFAULT_POLL_MS
/* After a pump that took none but the TUI's own events (its reads are
 * traced), the next waits this long: its own reads do not keep it awake. */
#define OWN_EVENTS_BACKOFF_MS	250
#define DEFAULT_RING		FTG_TUI_DEFAULT_EVENTS
#define MIN_COLS		40
#define MIN_LINES		10

static volatile sig_atomic_t quit_signal;
/* Taken only inside ppoll(): none comes between a check and the wait. */
static sigset_t loop_signals;

static void on_quit_signal(int sig)
{
	quit_signal = sig;
}

/* A crash must not leave the terminal in raw mode (best effort). */
static void on_fatal_signal(int sig)
{
	tui_term_end();
	raise(sig);	/* SA_RESETHAND: the default action now */
}

static void install_signals(void)
{
	static const int quit_sigs[] = { SIGINT, SIGTERM, SIGHUP, SIGQUIT };
	static const int fatal_sigs[] = { SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGABRT };
	struct sigaction sa;
	size_t i;

	memset(&sa, 0, sizeof(sa));
	sigemptyset(&sa.sa_mask);
	sa.sa_handler = on_quit_signal;	/* ppoll() returns EINTR */
	sigemptyset(&loop_signals);
	sigaddset(&loop_signals, SIGWINCH);	/* ncurses' handler: KEY_RESIZE */
	for (i = 0; i < sizeof(quit_sigs) / sizeof(quit_sigs[0]); i++) {
		sigaction(quit_sigs[i], &sa, NULL);
		sigaddset(&loop_signals, quit_sigs[i]);
	}
	sa.sa_handler = on_fatal_signal;
	sa.sa_flags = SA_RESETHAND;
	for (i = 0; i < sizeof(fatal_sigs) / sizeof(fatal_sigs[0]); i++)
		sigaction(fatal_sigs[i], &sa, NULL);
	signal(SIGPIPE, SIG_IGN);
}

enum {
	OPT_ROOT = 256, OPT_FEED, OPT_KEYS,
#define TUI_OPT_KEY(id, name, arg, completion, help) OPT_##id,
	FTG_TUI_OPTIONS(TUI_OPT_KEY)
#undef TUI_OPT_KEY
};

/* The options `ftguard tui` passes on (cmd/tui-options.h), then this
 * program's own. */
static const struct tui_option {
	int key;
	const char *name, *arg, *help;
} tui_options[] = {
	{ OPT_ROOT, "root", "DIR", "read a saved snapshot (ftguard snapshot) "
	  "instead of the live system; nothing can be changed" },
#define TUI_OPT(id, name, arg, completion, help) { OPT_##id, name, arg, help },
	FTG_TUI_OPTIONS(TUI_OPT)
#undef TUI_OPT
	{ OPT_FEED, "feed", "FILE", "show the canned events of FILE on the "
	  "Live screen (the screen tests' input: see tui-model.c)" },
	{ OPT_KEYS, "keys", NULL, "print the key tables (Markdown) and exit" },
	{ 'h', "help", NULL, "this help" },
	{ 'V', "version", NULL, "print the version" },
};
#define NR_TUI_OPTIONS (sizeof(tui_options) / sizeof(tui_options[0]))

/* "  --name ARG" (-h, --help for a letter) in 20 columns, the help
 * wrapped at 78 beside it. */
static void usage_option(FILE *out, const struct tui_option *o)
{
	const char *p = o->help, *end;
	int col;

	if (o->key < 256)
		col = fprintf(out, "  -%c, --%s", o->key, o->name);
	else
		col = fprintf(out, "  --%s%s%s", o->name, o->arg ? " " : "",
			      o->arg ? o->arg : "");
	while (*p) {
		end = p + strlen(p);
		if (end - p > 78 - 20) {
			end = p + 78 - 20;
			while (end > p && *end != ' ')
				end--;
			if (end == p)
				end = p + 78 - 20;
		}
		fprintf(out, "%*s%.*s\n", col < 20 ? 20 - col : 1, "",
			(int)(end - p), p);
		col = 0;
		p = *end == ' ' ? end + 1 : end;
	}
}

static void usage(FILE *out)
{
	size_t i;

	fprintf(out,
		"Usage: ftguard-tui [OPTIONS]\n"
		"The interactive view of ftguard: patch sites, live calls, address map.\n"
		"\n");
	for (i = 0; i < NR_TUI_OPTIONS; i++)
		usage_option(out, &tui_options[i]);
	fprintf(out, "\nKeys: press ? in the TUI for the keys of each screen.\n");
}

struct options {
	const char *root;
	int refresh_ms;
	int poll_ms;
	size_t ring;
	bool no_filter;
	const struct tui_screen_ops *screen;
	bool ascii;
	const char *stats;
	const char *feed;
};

static int parse_number(const char *opt, const char *s, long min, long max, long *out)
{
	char *end;

	errno = 0;
	*out = strtol(s, &end, 10);
	if (errno || end == s || *end || *out < min || *out > max) {
		fprintf(stderr, "ftguard-tui: %s wants a number from %ld to %ld, not '%s'\n",
			opt, min, max, s);
		return -1;
	}
	return 0;
}

/* Returns -1 on a bad option, 1 when the program is done (help), else 0. */
static int parse_options(int argc, char **argv, struct options *o)
{
	struct option longopts[NR_TUI_OPTIONS + 1] = { { 0 } };
	size_t i;
	long v;
	int c;

	for (i = 0; i < NR_TUI_OPTIONS; i++) {
		longopts[i].name = tui_options[i].name;
		longopts[i].has_arg = tui_options[i].arg ? required_argument :
							   no_argument;
		longopts[i].val = tui_options[i].key;
	}
	while ((c = getopt_long(argc, argv, "hV", longopts, NULL)) != -1) {
		switch (c) {
		case OPT_ROOT:
			o->root = optarg;
			break;
		case OPT_REFRESH:
			if (parse_number("--refresh", optarg, 50, 3600000, &v))
				return -1;
			o->refresh_ms = (int)v;
			break;
		case OPT_POLL:
			if (parse_number("--poll", optarg, 0, 10000, &v))
				return -1;
			o->poll_ms = (int)v;
			break;
		case OPT_EVENTS:
			if (parse_number("--events", optarg, 16, 10000000, &v))
				return -1;
			o->ring = (size_t)v;
			break;
		case OPT_SCREEN:
			o->screen = tui_screen_find(optarg);
			if (!o->screen) {
				fprintf(stderr, "ftguard-tui: --screen is sites, live or map\n");
				return -1;
			}
			break;
		case OPT_ASCII:
			o->ascii = true;
			break;
		case OPT_NO_FILTER:
			o->no_filter = true;
			break;
		case OPT_STATS:
			o->stats = optarg;
			break;
		case OPT_FEED:
			o->feed = optarg;
			break;
		case OPT_KEYS:
			tui_keys_markdown(stdout);
			return 1;
		case 'h':
			usage(stdout);
			return 1;
		case 'V':
			printf("ftguard-tui %s\n", PACKAGE_VERSION);
			return 1;
		default:
			usage(stderr);
			return -1;
		}
	}
	if (optind < argc) {
		fprintf(stderr, "ftguard-tui: unexpected argument '%s'\n", argv[optind]);
		return -1;
	}
	return 0;
}

/*
 * The screen goes to the terminal even when stdout is redirected (the
 * benchmark prints its report on stdout).
 */
static int start_curses(struct tui *tui)
{
	FILE *tty;

	tui->tty_fd = STDIN_FILENO;
	if (isatty(STDOUT_FILENO) && isatty(STDIN_FILENO))
		return initscr() ? 0 : -1;
	tty = fopen("/dev/tty", "r+");
	if (!tty)
		return -1;
	tui->tty_fd = fileno(tty);
	return newterm(NULL, tty, tty) ? 0 : -1;
}

static void draw(struct tui *tui)
{
	const struct tui_screen_ops *ops = tui->screen;
	int dirty = tui->dirty;

	tui->dirty = 0;
	if (COLS < MIN_COLS || LINES < MIN_LINES) {
		erase();
		mvprintw(0, 0, "terminal too small (%dx%d): at least %dx%d", COLS,
			 LINES, MIN_COLS, MIN_LINES);
		refresh();
		return;
	}
	if (dirty & TUI_DIRTY_ALL)
		tui_draw_tabs(tui);
	if (dirty & (TUI_DIRTY_ALL | TUI_DIRTY_BODY)) {
		ops->display(tui, 1, LINES - 2);
		if (tui->show_help)
			tui_draw_help(tui);
		if (tui->dialog.active)
			tui_draw_dialog(tui);
	}
	tui_draw_status(tui);
	refresh();
	tui->frames++;
}

/*
 * A kill disarms everything behind the user's back: the status line says
 * so for as long as it lasts, and a dialog says it once, when it is seen.
 */
static void notice_kill(struct tui *tui)
{
	const struct ftg_status *st = &tui->m.status;
	char reason[FTG_TEXT_LEN];

	if (!tui->m.have_status || !st->killed) {
		tui->kill_seen = false;
		return;
	}
	if (tui->kill_seen)
		return;
	tui->kill_seen = true;
	tui->msg[0] = '\0';	/* an answer from before the kill is stale */
	tui->msg_bad = false;
	tui_dialog_open(tui, true, "Tracing killed by ftguard.ko");
	tui_dialog_add(tui, "%s", tui_safe(reason, sizeof(reason), st->kill_reason));
	tui_dialog_add(tui, "%s", "");
	tui_dialog_add(tui, "%s", "Everything was disarmed, and nothing can be armed");
	tui_dialog_add(tui, "%s", "until 'ftguard reset' clears the kill latch.");
	tui->dirty |= TUI_DIRTY_ALL;
}

/* Room for the terminal and every live descriptor in @w. */
struct waitset {
	struct pollfd *pfd;
	int *fds;
	int cap;
};

static int waitset_fill(struct waitset *w, struct tui *tui, bool live)
{
	int n = live ? tui_model_fds(&tui->m, w->fds, w->cap) : 0, i;

	if (n > w->cap) {
		int *fds = realloc(w->fds, n * sizeof(*fds));
		struct pollfd *pfd = NULL;

		if (fds) {
			w->fds = fds;
			pfd = realloc(w->pfd, (n + 1) * sizeof(*pfd));
		}
		if (pfd) {
			w->pfd = pfd;
			w->cap = n;
			n = tui_model_fds(&tui->m, w->fds, w->cap);
		} else {
			n = 0;	/* out of memory: the terminal and the refresh */
		}
	}
	if (!w->pfd && !(w->pfd = calloc(1, sizeof(*w->pfd))))
		return -1;
	w->pfd[0] = (struct pollfd){ .fd = tui->tty_fd, .events = POLLIN };
	for (i = 0; i < n; i++)
		w->pfd[1 + i] = (struct pollfd){ .fd = w->fds[i], .events = POLLIN };
	return n;
}

/*
 * One key, so that the next acts on what this one drew; true when a key
 * was read (ncurses may hold more than poll() sees: ask again at once).
 */
static bool take_key(struct tui *tui)
{
	int ch = getch();

	if (ch == ERR)
		return false;
	if (ch == KEY_RESIZE) {
		if (tui->screen->resize)
			tui->screen->resize(tui);
		tui->dirty |= TUI_DIRTY_ALL;
	} else {
		tui->dirty |= tui_dispatch_key(tui, ch);
	}
	return true;
}

static uint64_t min_u64(uint64_t a, uint64_t b)
{
	return a < b ? a : b;
}

/*
 * One wait per turn, for the terminal, the live events, or the next
 * timer: the status refresh (every --refresh ms), and while events flow,
 * the next pump (at most every --poll ms, so a flood is drawn at a
 * bounded rate). With no events and no keys the TUI sleeps until the
 * refresh.
 */
static int run(struct tui *tui, const struct options *o)
{
	uint64_t now = tui_now_ms(), next_refresh = now + (uint64_t)o->refresh_ms;
	uint64_t next_pump = now, last_pump = 0, until;
	struct waitset w = { 0 };
	struct timespec ts;
	sigset_t wait_mask;
	bool pump, watch, input, keys_pending = false;
	int nlive, i, r;
	long took;

	tui->start_ms = now;
	tui_model_rate(&tui->m, now);
	if (!tui->bench)
		notice_kill(tui);
	tui->dirty = TUI_DIRTY_ALL;
	nodelay(stdscr, TRUE);
	sigprocmask(SIG_BLOCK, &loop_signals, &wait_mask);
	while (!tui->quit && !quit_signal) {
		if (tui->dirty)
			draw(tui);
		now = tui_now_ms();
		until = next_refresh;
		watch = !tui->bench && tui->m.live && now >= next_pump;
		if (tui->bench || (tui->m.live && !watch))
			until = min_u64(until, next_pump);
		if (keys_pending || tui->admit.active || (tui->m.more && !tui->bench))
			until = now;	/* work is waiting: look, do not sleep */
		nlive = waitset_fill(&w, tui, watch);
		if (nlive < 0)
			break;
		until = until > now ? until - now : 0;
		ts.tv_sec = (time_t)(until / 1000);
		ts.tv_nsec = (long)(until % 1000) * 1000000;
		r = ppoll(w.pfd, 1 + nlive, &ts, &wait_mask);
		if (r < 0 && errno != EINTR)
			break;
		if (r > 0 && (w.pfd[0].revents & (POLLHUP | POLLERR | POLLNVAL))) {
			/* the terminal went away (emulator closed, tmux server
			 * killed): an orphan must not keep its arm */
			quit_signal = SIGHUP;
			break;
		}
		now = tui_now_ms();
		input = keys_pending || r < 0 || (w.pfd[0].revents & POLLIN);
		pump = tui->m.more;
		for (i = 1; r > 0 && i <= nlive; i++) {
			if (w.pfd[i].revents & POLLIN)
				pump = true;
			/* an instance going away: wait for the refresh to see it */
			if (w.pfd[i].revents & (POLLERR | POLLHUP | POLLNVAL))
				next_pump = next_refresh;
		}
		/* a key acts on fresh events (read at most every --poll ms) */
		if (input && now >= last_pump + (uint64_t)o->poll_ms)
			pump = true;
		if (pump && tui->m.live && !tui->bench) {
			took = tui_model_pump(&tui->m);
			last_pump = now;
			if (tui->m.more)
				next_pump = now;
			else
				next_pump = now + (uint64_t)(took > 0 ? o->poll_ms :
							     OWN_EVENTS_BACKOFF_MS);
			if (took > 0 && tui->screen == &tui_live_ops)
				tui->dirty |= TUI_DIRTY_BODY;
		}
		if (input)
			keys_pending = take_key(tui);	/* r < 0: SIGWINCH? */
		else if (tui->admit.active)
			tui->dirty |= tui_admit_step(tui);
		now = tui_now_ms();
		if (now >= next_refresh) {
			if (!tui->bench) {
				tui_model_refresh(&tui->m);
				notice_kill(tui);
			}
			tui_model_rate(&tui->m, now);
			tui->dirty |= TUI_DIRTY_BODY | TUI_DIRTY_STATUS;
			next_refresh = now + (uint64_t)o->refresh_ms;
		}
		if (tui->bench && now >= next_pump) {
			next_pump = now + (uint64_t)o->poll_ms;
			tui->source->feed(tui, now);
			if (tui->source->done(tui, now))
				break;
		}
	}
	sigprocmask(SIG_SETMASK, &wait_mask, NULL);
	free(w.pfd);
	free(w.fds);
	return 0;
}

static struct tui the_tui;

/* exit() from anywhere still restores the terminal and disarms. */
static void cleanup(void)
{
	tui_term_end();
	tui_dialog_close(&the_tui);
	tui_admit_free(&the_tui);
	tui_screens_close(&the_tui);
	tui_model_close(&the_tui.m);
}

int tui_main(int argc, char **argv, const struct tui_source *source)
{
	struct options o = {
		.refresh_ms = DEFAULT_REFRESH_MS, .poll_ms = DEFAULT_POLL_MS,
		.ring = DEFAULT_RING, .screen = &tui_sites_ops,
	};
	struct tui *tui = &the_tui;
	FILE *stats = NULL;
	int ret;

	setlocale(LC_ALL, "");
	ret = parse_options(argc, argv, &o);
	if (ret)
		return ret < 0 ? 2 : 0;
	/* Opened now: a bad path is said before the session, not after it. */
	if (o.stats) {
		stats = fopen(o.stats, "we");
		if (!stats) {
			fprintf(stderr, "ftguard-tui: --stats %s: %s\n", o.stats, strerror(errno));
			return 2;
		}
	}
	if (tui_model_open(&tui->m, o.root, o.ring) < 0) {
		fprintf(stderr, "ftguard-tui: %s%s\n", o.root ? o.root : "",
			ftg_error_last());
		tui_model_close(&tui->m);
		return 1;
	}
	if (o.feed && tui_model_feed(&tui->m, o.feed) < 0) {
		tui_model_close(&tui->m);
		return 2;
	}
	if (tui_screens_open(tui) < 0) {
		fprintf(stderr, "ftguard-tui: %s\n", strerror(ENOMEM));
		tui_screens_close(tui);
		tui_model_close(&tui->m);
		return 1;
	}
	tui->screen = source ? &tui_live_ops : o.screen;
	tui_model_show_own(&tui->m, o.no_filter);
	install_signals();
	atexit(cleanup);
	if (start_curses(tui) < 0) {
		fprintf(stderr, "ftguard-tui: cannot start the terminal (TERM=%s)\n",
			getenv("TERM") ? getenv("TERM") : "");
		return 1;
	}
	tui_term_init(tui, o.ascii);
	if (source) {
		tui->source = source;
		tui->bench = true;
		source->start(tui);
	}
	run(tui, &o);
	tui_term_end();
	if (source)
		source->report(tui, stdout);
	if (stats && (tui_stats_report(tui, stats) < 0 || fclose(stats) < 0)) {
		fprintf(stderr, "ftguard-tui: writing %s: %s\n", o.stats, strerror(errno));
		return 1;
	}
	return quit_signal ? 128 + quit_signal : 0;
}
