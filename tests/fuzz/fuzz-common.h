/* SPDX-License-Identifier: LGPL-2.1 */
/*
 * Shared by the libFuzzer harnesses of libftguard and the command.
 *
 * libftguard's readers take the root they read from, so a harness writes
 * its input under a private directory laid out as a snapshot (one per
 * process, removed at exit) and calls the public reader on a root of it:
 * the fuzzed code is exactly the code that reads /proc, /sys and debugfs.
 *
 * Some harnesses need several files at once (a whole snapshot). Their
 * input is a pack: entries "\001PATH\n" followed by the file's bytes, up
 * to the next "\001" (tests/fuzz/run makes seed packs from the fixture
 * snapshots). Only paths a snapshot may hold are written: see
 * fz_path_allowed().
 */
#ifndef FUZZ_COMMON_H
#define FUZZ_COMMON_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "ftguard.h"
#include "lib/ftguard-test.h"

#define FZ_PACK_MARK	'\001'

/* libFuzzer's entry points. */
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerInitialize(int *argc, char ***argv);

/* The private root ("/tmp/ftg-fuzz-XXXXXX"), created on first use. */
const char *fz_root(void);

/*
 * The library's root on fz_root(): its proc, sys, debug and tracing
 * directories, whether or not they exist yet (made once, kept).
 */
const struct ftg_root *fz_lib_root(void);

/* A malloc'ed "fz_root()/@rel". */
char *fz_path(const char *rel);

/*
 * Writes @size bytes to fz_root()/@rel, creating parent directories;
 * the file is removed by the next fz_reset(). Aborts on a system error
 * (the harness, not the library, failed).
 */
void fz_write(const char *rel, const void *data, size_t size);

/* Removes every file and directory under the root. */
void fz_reset(void);

/*
 * The one-file harness: fz_reset(), then @data[0..@size) as @dir/@file.
 * Returns fz_root()/@dir, the root to hand to the reader (kept until the
 * next call with another @dir).
 */
const char *fz_input(const char *dir, const char *file, const void *data,
		     size_t size);

/*
 * fz_reset(), then writes the files of the pack @data[0..@size). Entries
 * whose path is not allowed are dropped. Returns the number written.
 */
size_t fz_unpack(const uint8_t *data, size_t size);

/*
 * The bytes of the first entry of the pack @data[0..@size) for @rel, or
 * NULL; *@len is set to their length. The pack stays in place.
 */
const uint8_t *fz_pack_get(const uint8_t *data, size_t size, const char *rel,
			   size_t *len);

/* Is @rel a path of a snapshot (proc/kallsyms, sys/module/M/sections/S,
 * debug/ftguard/status, ...)? */
bool fz_path_allowed(const char *rel);

/* A NUL-terminated malloc'ed copy of @data (embedded NULs kept). */
char *fz_strndup(const uint8_t *data, size_t size);

/*
 * Splits @data into at most @max NUL-terminated pieces at '\n' (copies;
 * free with fz_free_lines()). Returns the count.
 */
size_t fz_lines(const uint8_t *data, size_t size, char **lines, size_t max);
void fz_free_lines(char **lines, size_t n);

/* A fixture file path: FTG_FIXTURES "/" @rel (static buffer). */
const char *fz_fixture(const char *rel);

/*
 * An ftg_event_cb that formats each event as `ftguard report` prints it;
 * @data, if not NULL, is a size_t counting the events (the walk stops
 * after 100,000, to bound a harness's time per input).
 */
int fz_print_event(const struct ftg_event *ev, void *data);

/* Sinks that keep results "used" so that the compiler keeps the calls. */
extern volatile uint64_t fz_sink;
static inline void fz_use(uint64_t v) { fz_sink += v; }
static inline void fz_use_str(const char *s)
{
	while (s && *s)
		fz_sink += (unsigned char)*s++;
}

#endif /* FUZZ_COMMON_H */
