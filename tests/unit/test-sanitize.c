// SPDX-License-Identifier: LGPL-2.1
/*
 * The one visible form of kernel-supplied names (ftg_escape()), what the
 * command, the shell and the TUI print: the hostile names planted by
 * tests/modules/ftg_names.ko, every byte value, cutting to a buffer, the
 * round trip through ftg_unescape() and a module table; the JSON string
 * escaper ftg_fputs_json(); and the exports,
 * which must stay plain-ASCII JSON and control-free CSV.
 */
#include <errno.h>

#include "lib-test.h"

#define ESC "\033"

static const struct {
	const char *raw;
	const char *name;	/* as a name (one word) */
	const char *text;	/* as free text */
} hostile[] = {
	{ "ftg names space", "ftg\\040names\\040space", "ftg names space" },
	{ "ftg_names_nl\ninjected 0x1 ok", "ftg_names_nl\\012injected\\0400x1\\040ok",
	  "ftg_names_nl\\012injected 0x1 ok" },
	{ "ftg_names\ttab", "ftg_names\\011tab", "ftg_names\\011tab" },
	{ "ftg_names\\134back\\slash", "ftg_names\\134134back\\134slash",
	  "ftg_names\\134back\\slash" },
	{ "clear" ESC "[2J" ESC "[H", "clear\\033[2J\\033[H", "clear\\033[2J\\033[H" },
	{ "title" ESC "]0;pwned\a", "title\\033]0;pwned\\007", "title\\033]0;pwned\\007" },
	{ "cursor" ESC "[5;1H", "cursor\\033[5;1H", "cursor\\033[5;1H" },
	{ "rtl\342\200\256lanigiro", "rtl\\342\\200\\256lanigiro",
	  "rtl\\342\\200\\256lanigiro" },
	{ "del\177", "del\\177", "del\\177" },
	{ "plain_name", "plain_name", "plain_name" },
	{ "", "", "" },
};

static void test_hostile_names(void **state)
{
	char buf[256];
	size_t i, n;

	(void)state;
	for (i = 0; i < sizeof(hostile) / sizeof(hostile[0]); i++) {
		n = ftg_escape(buf, sizeof(buf), hostile[i].raw, 0);
		assert_string_equal(buf, hostile[i].name);
		assert_int_equal(n, strlen(hostile[i].name));
		n = ftg_escape(buf, sizeof(buf), hostile[i].raw, FTG_ESCAPE_TEXT);
		assert_string_equal(buf, hostile[i].text);
		assert_int_equal(n, strlen(hostile[i].text));
	}
	ftg_escape(buf, sizeof(buf), NULL, 0);
	assert_string_equal(buf, "");
}

/* Every byte value: a name has nothing outside 0x21..0x7e, text nothing
 * outside 0x20..0x7e, and a name unescapes back to the bytes. */
static void test_every_byte(void **state)
{
	char raw[256], name[1100], text[1100];
	const unsigned char *p;
	size_t n;
	int c;

	(void)state;
	for (c = 1; c < 256; c++)
		raw[c - 1] = (char)c;
	raw[255] = '\0';
	n = ftg_escape(name, sizeof(name), raw, 0);
	assert_int_equal(n, strlen(name));
	n = ftg_escape(text, sizeof(text), raw, FTG_ESCAPE_TEXT);
	assert_int_equal(n, strlen(text));
	for (p = (const unsigned char *)name; *p; p++)
		if (*p < 0x21 || *p > 0x7e)
			fail_msg("name escape left byte 0x%02x", *p);
	for (p = (const unsigned char *)text; *p; p++)
		if (*p < 0x20 || *p > 0x7e)
			fail_msg("text escape left byte 0x%02x", *p);
	/* 94 printable bytes, less the backslash, stay; 162 become \ooo */
	assert_int_equal(strlen(name), 93 + 162 * 4);
	assert_int_equal(ftg_unescape(name), 0);
	assert_memory_equal(name, raw, 256);
}

/* Cut like snprintf, never inside an escape, always terminated. */
static void test_cut(void **state)
{
	char buf[8];
	size_t n;

	(void)state;
	n = ftg_escape(buf, sizeof(buf), "ab" ESC "[2J", 0);
	assert_int_equal(n, 9);			/* ab\033[2J */
	assert_string_equal(buf, "ab\\033[");	/* 7 bytes + NUL */
	n = ftg_escape(buf, 5, "ab" ESC "[2J", 0);
	assert_string_equal(buf, "ab");	/* \033 would not fit whole */
	assert_int_equal(n, 9);
	assert_int_equal(ftg_escape(NULL, 0, "a b", 0), 6);	/* a\040b */
	buf[0] = 'x';
	ftg_escape(buf, 1, "abc", 0);
	assert_string_equal(buf, "");
}

/* The module's table (its escaping, doc/interface.md) parses, and each
 * name printed back through ftg_escape() is the table's field again. */
static void test_table_round_trip(void **state)
{
	static const char table[] =
		"ftguard-sites 1\n"
		"0xffffffffc0002020 ok core ftg_names 0 0 ftg\\040names\\040space\n"
		"0xffffffffc0002040 armed core ftg_names 5 1 ftg_names_nl\\012injected\\0400xffffffff81000000\\040ok\n"
		"0xffffffffc00020a0 ok core ftg_names 0 0 ftg_names_clear\\033[2J\\033[H\n"
		"0xffffffffc0002100 ok core ftg_names 0 0 ftg_names_rtl\\342\\200\\256lanigiro\n"
		"0xffffffffc0002080 ok core ftg_names 0 0 ftg_names\\134134back\\134slash\n";
	static const char *const fields[] = {
		"ftg\\040names\\040space",
		"ftg_names_nl\\012injected\\0400xffffffff81000000\\040ok",
		"ftg_names\\134134back\\134slash",
		"ftg_names_clear\\033[2J\\033[H",
		"ftg_names_rtl\\342\\200\\256lanigiro",
	};
	struct ftg_sites *sites = ftg_sites_parse(table, sizeof(table) - 1);
	char buf[256];
	size_t i;

	(void)state;
	assert_non_null(sites);
	assert_int_equal(ftg_sites_count(sites), 5);
	assert_string_equal(ftg_sites_get(sites, 0)->name, "ftg names space");
	assert_string_equal(ftg_sites_get(sites, 1)->name,
			    "ftg_names_nl\ninjected 0xffffffff81000000 ok");
	assert_int_equal(ftg_sites_get(sites, 1)->hits, 5);
	assert_string_equal(ftg_sites_get(sites, 2)->name, "ftg_names\\134back\\slash");
	for (i = 0; i < ftg_sites_count(sites); i++) {
		ftg_escape(buf, sizeof(buf), ftg_sites_get(sites, i)->name, 0);
		assert_string_equal(buf, fields[i]);
	}
	ftg_sites_free(sites);
}

static char *json_of(const char *s)
{
	char *text = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);

	assert_non_null(f);
	assert_int_equal(ftg_fputs_json(f, s), 0);
	fclose(f);
	return text;
}

/* The one JSON string escaper: plain ASCII, code points for UTF-8, a
 * byte outside valid UTF-8 taken as Latin-1. */
static void test_json_string(void **state)
{
	static const struct { const char *in, *out; } cases[] = {
		{ "plain", "\"plain\"" },
		{ NULL, "\"\"" },
		{ "q\"b\\n\nt\tr\r", "\"q\\\"b\\\\n\\nt\\tr\\r\"" },
		{ ESC "[2J\a\177", "\"\\u001b[2J\\u0007\\u007f\"" },
		{ "\342\200\256rlo", "\"\\u202erlo\"" },		/* U+202E */
		{ "\303\251", "\"\\u00e9\"" },			/* U+00E9 */
		{ "\360\237\230\200", "\"\\ud83d\\ude00\"" },	/* U+1F600 */
		{ "\377x", "\"\\u00ffx\"" },				/* not UTF-8 */
		{ "\342\200", "\"\\u00e2\\u0080\"" },		/* cut sequence */
	};
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		char *out = json_of(cases[i].in);

		assert_string_equal(out, cases[i].out);
		free(out);
	}
}

static char *export_one(enum ftg_export_format fmt, const struct ftg_event *ev)
{
	char *text = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);
	struct ftg_exporter *ex;

	assert_non_null(f);
	ex = ftg_exporter_open(f, fmt);
	assert_non_null(ex);
	assert_int_equal(ftg_exporter_add(ex, ev), 0);
	assert_int_equal(ftg_exporter_close(ex), 0);
	fclose(f);
	return text;
}

/* JSON and Chrome exports are plain ASCII with \u escapes; CSV holds no
 * control byte but its line ends. */
static void test_exports(void **state)
{
	static const enum ftg_export_format fmts[] = {
		FTG_EXPORT_JSON, FTG_EXPORT_CHROME, FTG_EXPORT_CSV,
	};
	struct ftg_event ev;
	size_t i;

	(void)state;
	memset(&ev, 0, sizeof(ev));
	ev.pid = 42;
	ev.ip = 0xffffffffc0002020ULL;
	strcpy(ev.comm, "sh" ESC "[2J");
	strcpy(ev.system, "ftguard");
	strcpy(ev.name, "func");
	strcpy(ev.sym, "ftg_names_rtl\342\200\256x [ftg_names]");
	strcpy(ev.parent_sym, "nl\nq\"\\ \360\237\230\200");	/* U+1F600 */
	for (i = 0; i < sizeof(fmts) / sizeof(fmts[0]); i++) {
		char *out = export_one(fmts[i], &ev);
		const unsigned char *p;

		/* CSV ends its records with CR LF (RFC 4180) */
		for (p = (const unsigned char *)out; *p; p++)
			if ((*p < 0x20 && *p != '\n' && *p != '\r') || *p > 0x7e)
				fail_msg("format %d: byte 0x%02x in \"%s\"", (int)fmts[i], *p, out);
		if (fmts[i] == FTG_EXPORT_CSV) {
			assert_contains(out, "sh\\033[2J");
			assert_contains(out, "ftg_names_rtl\\342\\200\\256x [ftg_names]");
		} else {
			assert_contains(out, "sh\\u001b[2J");
			assert_contains(out, "ftg_names_rtl\\u202ex [ftg_names]");
			assert_contains(out, "nl\\nq\\\"\\\\ \\ud83d\\ude00");
		}
		free(out);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_hostile_names),
		cmocka_unit_test(test_every_byte),
		cmocka_unit_test(test_cut),
		cmocka_unit_test(test_table_round_trip),
		cmocka_unit_test(test_json_string),
		cmocka_unit_test(test_exports),
	};

	return cmocka_run_group_tests_name("sanitize", tests, NULL, NULL);
}
