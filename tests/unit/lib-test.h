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

static inline void count_warning(const char *msg, void *data)
{
	(void)msg;
	(*(int *)data)++;
}

#endif /* _FTG_LIB_TEST_H */
