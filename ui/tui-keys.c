// SPDX-License-Identifier: GPL-2.0
/*
 * Global key bindings of ftguard-tui and key dispatch: a dialog, the help
 * screen or a prompt takes keys first, then the current screen's table,
 * then this one. Handlers only act and mark what is dirty; drawing
 * happens once per main-loop iteration.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>

#include "ui/tui.h"

#define CTRL(c) ((c) & 0x1f)

uint64_t tui_now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000 + (uint64_t)ts.tv_nsec / 1000000;
}

/* The screens in tab order: the tab bar, Tab and the help follow it. */
static const struct tui_screen_ops *const screen_table[TUI_NSCREENS] = {
	&tui_sites_ops, &tui_live_ops, &tui_map_ops,
};

const struct tui_screen_ops *tui_screen_find(const char *name)
{
	int i;

	for (i = 0; i < TUI_NSCREENS; i++)
		if (!strcasecmp(screen_table[i]->name, name))
			return screen_table[i];
	return NULL;
}

int tui_screen_show(struct tui *tui, const struct tui_screen_ops *ops)
{
	tui->screen = ops;
	if (ops->update)
		ops->update(tui);
	return TUI_DIRTY_ALL;
}

int tui_page(const struct tui *tui)
{
	return tui->page > 1 ? tui->page : 1;
}

/* The screen @delta tabs from the current one, wrapping round. */
static int switch_by(struct tui *tui, int delta)
{
	int i;

	for (i = 0; i < TUI_NSCREENS; i++)
		if (screen_table[i] == tui->screen)
			break;
	i = ((i + delta) % TUI_NSCREENS + TUI_NSCREENS) % TUI_NSCREENS;
	return tui_screen_show(tui, screen_table[i]);
}

static int key_next_screen(struct tui *tui) { return switch_by(tui, 1); }
static int key_prev_screen(struct tui *tui) { return switch_by(tui, -1); }
static int key_sites(struct tui *tui) { return tui_screen_show(tui, &tui_sites_ops); }
static int key_live(struct tui *tui) { return tui_screen_show(tui, &tui_live_ops); }
static int key_map(struct tui *tui) { return tui_screen_show(tui, &tui_map_ops); }

static int key_check(struct tui *tui)
{
	uint64_t *addrs = NULL;
	size_t n = tui_sites_marked(tui, &addrs);

	tui_action_check(tui, addrs, n);
	free(addrs);
	return TUI_DIRTY_ALL;
}

/* @flags: FTG_ARM_GRAPH arms with the returns too. */
static int arm_selection(struct tui *tui, unsigned int flags)
{
	uint64_t *addrs = NULL;
	size_t n = tui_sites_selection(tui, &addrs);

	tui_action_arm(tui, addrs, n, flags);
	free(addrs);
	return TUI_DIRTY_ALL;
}

static int key_arm(struct tui *tui) { return arm_selection(tui, 0); }
static int key_arm_graph(struct tui *tui) { return arm_selection(tui, FTG_ARM_GRAPH); }

static void tree_done(struct tui *tui, const char *text)
{
	tui_action_arm_tree(tui, text);
}

/*
 * The prompt starts with the function under the cursor (a site on the
 * Sites screen, a call in the Live screen's tree) as the root, so the
 * tree of what is in front of the user is T and Enter; C-u clears it.
 */
static int key_arm_tree(struct tui *tui)
{
	char root[FTG_SYM_LEN + 64] = "";
	const struct tui_screen_ops *ops = tui->screen;

	if (ops->cursor_function && ops->cursor_function(tui, root, sizeof(root) - 1))
		strcat(root, " ");
	tui_prompt_start(tui, "call tree: ROOT [CALLEE...] [depth=N] (no CALLEE: every site): ",
			 root, tree_done);
	return TUI_DIRTY_STATUS;
}

static int key_disarm(struct tui *tui)
{
	tui_action_disarm(tui);
	return TUI_DIRTY_ALL;
}

static void write_done(struct tui *tui, const char *text)
{
	tui_action_write(tui, *text ? text : "trace.dat");
}

static int key_write(struct tui *tui)
{
	tui_prompt_start(tui, "write capture to: ", "trace.dat", write_done);
	return TUI_DIRTY_STATUS;
}

static void search_done(struct tui *tui, const char *text)
{
	const struct tui_screen_ops *ops = tui->screen;

	snprintf(tui->last_search, sizeof(tui->last_search), "%s", text);
	if (ops->search && *text)
		ops->search(tui, text, 1);
}

static int key_search(struct tui *tui)
{
	tui_prompt_start(tui, "search: ", "", search_done);
	return TUI_DIRTY_STATUS;
}

static int search_again(struct tui *tui, int dir)
{
	const struct tui_screen_ops *ops = tui->screen;

	if (!tui->last_search[0])
		tui_message(tui, false, "no search yet (/)");
	else if (ops->search)
		ops->search(tui, tui->last_search, dir);
	return TUI_DIRTY_BODY | TUI_DIRTY_STATUS;
}

static int key_search_next(struct tui *tui) { return search_again(tui, 1); }
static int key_search_prev(struct tui *tui) { return search_again(tui, -1); }

static void add_done(struct tui *tui, const char *text)
{
	tui_admit_start(tui, text);
}

static int key_add(struct tui *tui)
{
	tui_prompt_start(tui, "add functions (GLOB, MODULE:GLOB, GLOB:mod:MODULE): ",
			 "", add_done);
	return TUI_DIRTY_STATUS;
}

/* The command line: "add PATTERN..." and "tree ROOT [CALLEE...] [depth=N]". */
static void command_done(struct tui *tui, const char *text)
{
	size_t n = strspn(text, " ");

	text += n;
	if (!strncmp(text, "add", 3) && (text[3] == ' ' || !text[3]))
		tui_admit_start(tui, text + 3);
	else if (!strncmp(text, "tree", 4) && (text[4] == ' ' || !text[4]))
		tui_action_arm_tree(tui, text + 4);
	else if (*text)
		tui_message(tui, true, "unknown command '%.40s': try add GLOB or tree ROOT", text);
}

static int key_command(struct tui *tui)
{
	tui_prompt_start(tui, ":", "", command_done);
	return TUI_DIRTY_STATUS;
}

static void filter_done(struct tui *tui, const char *text)
{
	const struct tui_screen_ops *ops = tui->screen;

	if (ops->filter)
		ops->filter(tui, text);
}

static int key_filter(struct tui *tui)
{
	const struct tui_screen_ops *ops = tui->screen;
	char label[96];

	if (!ops->filter) {
		tui_message(tui, false, "no filter on this screen");
		return TUI_DIRTY_STATUS;
	}
	snprintf(label, sizeof(label), "filter (%s): ", ops->filter_help);
	tui_prompt_start(tui, label, "", filter_done);
	return TUI_DIRTY_STATUS;
}

static int key_help(struct tui *tui)
{
	tui->show_help = !tui->show_help;
	tui->help_scroll = 0;
	return TUI_DIRTY_ALL;
}

static int key_reload(struct tui *tui)
{
	tui_model_refresh(&tui->m);
	tui_model_reload_map(&tui->m);
	for (int i = 0; i < TUI_NSCREENS; i++)
		if (tui->screens[i]->update)
			tui->screens[i]->update(tui);
	tui_message(tui, false, "reloaded");
	return TUI_DIRTY_ALL;
}

static int key_redraw(struct tui *tui)
{
	clearok(curscr, TRUE);
	return TUI_DIRTY_ALL;
}

static int key_quit(struct tui *tui)
{
	tui->quit = true;
	return 0;
}

const struct tui_key tui_global_keys[] = {
	{ '\t', "Tab", "next screen", key_next_screen },
	{ KEY_BTAB, "S-Tab", "previous screen", key_prev_screen },
	{ '1', "1", "Sites screen", key_sites },
	{ '2', "2", "Live screen", key_live },
	{ '3', "3", "Map screen", key_map },
	{ 'c', "c", "check the marked sites (all sites when none is marked)", key_check },
	{ 'a', "a", "arm the marked sites (or the site under the cursor)", key_arm },
	{ 'A', "A", "arm them with their returns: calls nest, with durations (function_graph)",
	  key_arm_graph },
	{ 'T', "T", "arm a call tree: a root, its callees, a depth (function_graph -g)",
	  key_arm_tree },
	{ 'd', "d", "disarm everything", key_disarm },
	{ 'w', "w", "write the captured events to a trace.dat file", key_write },
	{ '/', "/", "search (glob, or substring)", key_search },
	{ 'n', "n", "next match", key_search_next },
	{ 'N', "N", "previous match", key_search_prev },
	{ 'f', "f", "filter this screen (empty: no filter)", key_filter },
	{ '+', "+", "add kernel functions by glob (admitted, checked, listed)", key_add },
	{ ':', ":", "command line: add GLOB... (Esc cancels a long add), tree ROOT...", key_command },
	{ 'R', "R", "reload tables and the address map now", key_reload },
	{ CTRL('l'), "C-l", "redraw the screen", key_redraw },
	{ '?', "?", "this help", key_help },
	{ 'q', "q", "quit (disarms what this TUI armed)", key_quit },
	{ 0, NULL, NULL, NULL },
};

static void keys_markdown(FILE *out, const char *title, const struct tui_key *keys)
{
	fprintf(out, "| %s | |\n|---|---|\n", title);
	for (; keys->handler; keys++)
		if (keys->help)	/* no help: an alias, named in its key's row */
			fprintf(out, "| `%s` | %s |\n", keys->name, keys->help);
}

/**
 * tui_keys_markdown - every key table as Markdown tables
 * @out: where to
 *
 * The same tables the help screen is drawn from, so doc/tui.md can carry
 * them and make check can prove the two agree.
 */
void tui_keys_markdown(FILE *out)
{
	char title[32];
	int i;

	keys_markdown(out, "Every screen", tui_global_keys);
	for (i = 0; i < TUI_NSCREENS; i++) {
		snprintf(title, sizeof(title), "%d %s", i + 1, screen_table[i]->name);
		fprintf(out, "\n");
		keys_markdown(out, title, screen_table[i]->keys);
	}
}

void *tui_view(const struct tui *tui, const struct tui_screen_ops *ops)
{
	int i;

	for (i = 0; i < TUI_NSCREENS; i++)
		if (tui->screens[i] == ops)
			return tui->views[i];
	return NULL;
}

int tui_screens_open(struct tui *tui)
{
	int i;

	for (i = 0; i < TUI_NSCREENS; i++) {
		tui->screens[i] = screen_table[i];
		tui->views[i] = tui->screens[i]->open();
		if (!tui->views[i])
			return -1;
	}
	return 0;
}

void tui_screens_close(struct tui *tui)
{
	int i;

	for (i = 0; i < TUI_NSCREENS; i++) {
		if (tui->screens[i] && tui->views[i])
			tui->screens[i]->close(tui->views[i]);
		tui->views[i] = NULL;
	}
}

static int run_table(struct tui *tui, const struct tui_key *keys, int key, bool *found)
{
	for (; keys && keys->handler; keys++) {
		if (keys->key == key) {
			*found = true;
			return keys->handler(tui);
		}
	}
	return 0;
}

void tui_prompt_start(struct tui *tui, const char *label, const char *initial,
		      void (*done)(struct tui *tui, const char *text))
{
	struct tui_prompt *p = &tui->prompt;

	p->active = true;
	snprintf(p->label, sizeof(p->label), "%s", label);
	snprintf(p->text, sizeof(p->text), "%s", initial);
	p->len = strlen(p->text);
	p->done = done;
	curs_set(1);
}

/* Line editing with a bounded buffer: printable ASCII only. */
static int prompt_key(struct tui *tui, int key)
{
	struct tui_prompt *p = &tui->prompt;

	switch (key) {
	case 27:		/* Esc */
	case CTRL('c'):
	case CTRL('g'):
		p->active = false;
		break;
	case '\r':
	case '\n':
	case KEY_ENTER:
		p->active = false;
		curs_set(0);
		p->done(tui, p->text);
		return TUI_DIRTY_ALL;
	case KEY_BACKSPACE:
	case 127:
	case CTRL('h'):
		if (p->len)
			p->text[--p->len] = '\0';
		return TUI_DIRTY_STATUS;
	case CTRL('u'):
		p->len = 0;
		p->text[0] = '\0';
		return TUI_DIRTY_STATUS;
	default:
		if (key >= 0x20 && key < 0x7f && p->len + 1 < sizeof(p->text)) {
			p->text[p->len++] = (char)key;
			p->text[p->len] = '\0';
		}
		return TUI_DIRTY_STATUS;
	}
	curs_set(0);
	return TUI_DIRTY_ALL;
}

static int scroll_key(int key, int *scroll, int page)
{
	switch (key) {
	case KEY_UP: case 'k': (*scroll)--; return 1;
	case KEY_DOWN: case 'j': (*scroll)++; return 1;
	case KEY_PPAGE: *scroll -= page; return 1;
	case KEY_NPAGE: case ' ': *scroll += page; return 1;
	}
	return 0;
}

int tui_dispatch_key(struct tui *tui, int key)
{
	const struct tui_screen_ops *ops = tui->screen;
	bool found = false;
	int dirty;

	if (tui->prompt.active)
		return prompt_key(tui, key);
	if (tui->dialog.active) {
		if (scroll_key(key, &tui->dialog.scroll, tui_page(tui)))
			return TUI_DIRTY_ALL;
		if (key == 27 || key == '\r' || key == '\n' || key == KEY_ENTER ||
		    key == 'q')
			tui_dialog_close(tui);
		return TUI_DIRTY_ALL;
	}
	if (tui->show_help) {
		if (scroll_key(key, &tui->help_scroll, tui_page(tui)))
			return TUI_DIRTY_ALL;
		if (key == 27 || key == '?' || key == 'q' || key == '\r')
			tui->show_help = false;
		return TUI_DIRTY_ALL;
	}
	if (tui->admit.active && (key == 27 || key == CTRL('c')))
		return tui_admit_cancel(tui);
	if (tui->msg[0] && !tui->admit.active) {
		tui->msg[0] = '\0';
		tui->msg_bad = false;
		tui->dirty |= TUI_DIRTY_STATUS;
	}
	dirty = run_table(tui, ops->keys, key, &found);
	if (!found)
		dirty = run_table(tui, tui_global_keys, key, &found);
	return dirty;
}
