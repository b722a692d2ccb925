/* SPDX-License-Identifier: LGPL-2.1 */
/*
 * What the readers of ftguard.ko's tables (kmod-status.c, kmod-sites.c,
 * kmod-check.c) share, from kmod-tables.c: one versioned-table frame that
 * reads or copies the text, checks the "ftguard-<table> <version>" header,
 * hands every non-empty line to the table's own parser and refuses
 * overlong lines. Private to libftguard, like ftguard-local.h.
 */
#ifndef _FTGUARD_KMOD_LOCAL_H
#define _FTGUARD_KMOD_LOCAL_H

#include <stddef.h>

/* The protocol's constants, one copy for the module and the library. */
#include "../../kmod/ftg_uapi.h"
#include "ftguard.h"
#include "ftguard-test.h"

_Static_assert(FTG_FORMAT_VERSION == FTGUARD_FORMAT_VERSION,
	       "the public format version is the module's");
_Static_assert(FTG_SITES_FORMAT_VERSION == FTGUARD_SITES_FORMAT_VERSION,
	       "the public sites format version is the module's");
_Static_assert(FTG_GRAPH_DEPTH_MAX == FTGUARD_GRAPH_DEPTH_MAX,
	       "the public depth limit is the module's");

/*
 * Parses one line of a table into @obj (the table's own object); @line
 * may be cut in place. Returns 0, or -1 with the error recorded (for
 * instance by ftgl_bad_line()), which stops the parse.
 */
bool ftgl_valid_bytes(const char *s);

/* One line of a table whose header named format @version. */
typedef int (*ftgl_table_line_fn)(void *obj, char *line, unsigned long lineno,
				  unsigned int version);

/*
 * Parses @len bytes of @text as the versioned table @table (its header
 * names it); @what names the source in messages ("check" or "check
 * response"). Returns 0, or -1 with errno and the error set.
 */
int ftgl_kmod_table_parse(const char *table, const char *what,
			  const char *text, size_t len,
			  ftgl_table_line_fn line_fn, void *obj);

/* Reads @debugfs_dir/ftguard/@table (NULL: the live debugfs) and parses
 * it as ftgl_kmod_table_parse() does. */
int ftgl_kmod_table_read(const char *debugfs_dir, const char *table,
			 ftgl_table_line_fn line_fn, void *obj);

/*
 * The status keys this library knows, those of FTGUARD_STATUS_KEYS in its
 * order (kmod-status.c): how many, the @k-th's word, the index of @key (or
 * -1), and the reading of @value as key @k's, into @st when it has a field
 * there (0, or -1 when malformed). For the tests that hold a module's
 * table against this library.
 */
size_t ftgl_status_key_count(void);
const char *ftgl_status_key_name(size_t k);
int ftgl_status_key_index(const char *key);
int ftgl_status_value_parse(struct ftg_status *st, size_t k, char *value);

/*
 * Judges the control response @r (its last newline cut): 0 for "ok
 * [<info>]" or a table; -1 for "error <errno-name> <reason>", with errno
 * the name's (EIO for a name the protocol does not have), the error
 * FTG_E_MODULE_REFUSED holding the reason and *@failed_line (may be NULL)
 * the failing line of the batch, 1 when the module did not say; -1 with
 * EPROTO for anything else.
 */
int ftgl_control_judge(const char *r, unsigned int *failed_line);

#endif /* _FTGUARD_KMOD_LOCAL_H */
