/* SPDX-License-Identifier: LGPL-2.1 */
/*
 * Shared bits of libftguard's unit tests: cmocka, the fixture trees
 * (tests/fixtures/<name>, laid out as a snapshot, doc/snapshot.md) and a
 * warning collector.
 */
#ifndef _FTG_LIB_TEST_H
#define _FTG_LIB_TEST_H

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>

#include "ftguard.h"

#ifndef FTG_FIXTURES
#error "FTG_FIXTURES must name tests/fixtures"
#endif

/* FTG_FIXTURES "/<tree>/<sub>" as a string literal. */
#define FIXTURE(tree, sub)	FTG_FIXTURES "/" tree "/" sub

/* Asserts that a string contains @needle, printing both when not. */
#define assert_contains(haystack, needle)				\
	do {								\
		const char *_h = (haystack), *_n = (needle);		\
		if (!_h || !strstr(_h, _n))				\
			fail_msg("\"%s\" does not contain \"%s\"",	\
				 _h ? _h : "(null)", _n);		\
	} while (0)

/* The address map of fixture tree @tree; the test fails when it cannot load. */
static inline struct ftg_map *load_fixture_map(const char *tree)
{
	char dir[512];
	struct ftg_root *root;
	struct ftg_map *map;

	snprintf(dir, sizeof(dir), "%s/%s", FTG_FIXTURES, tree);
	root = ftg_root_open(dir);
	assert_non_null(root);
	map = ftg_map_load(root);
	ftg_root_free(root);
	assert_non_null(map);
	return map;
}

/*
 * The whole of @path, NUL-terminated, its length in @len; NULL when it
 * cannot be opened (a short read fails the test).
 */
static inline char *read_whole_file(const char *path, size_t *len)
{
	FILE *f = fopen(path, "r");
	char *buf;
	long n;

	*len = 0;
	if (!f)
		return NULL;
	fseek(f, 0, SEEK_END);
	n = ftell(f);
	rewind(f);
	buf = malloc(n + 1);
	assert_non_null(buf);
	assert_int_equal(fread(buf, 1, n, f), (size_t)n);
	fclose(f);
	buf[n] = '\0';
	*len = n;
	return buf;
}

static inline void count_warning(const char *msg, void *data)
{
	(void)msg;
	(*(int *)data)++;
}

#endif /* _FTG_LIB_TEST_H */
