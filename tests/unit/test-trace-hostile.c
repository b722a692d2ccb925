// SPDX-License-Identifier: LGPL-2.1
/*
 * Hostile trace.dat files: every one must give NULL, errno and a message
 * "FILE: offset N: ..." from ftg_trace_file_open(), never a crash (the
 * tests run under ASan and UBSan). The files start as a valid one written
 * from the fixture pages and are then truncated or patched at offsets
 * found by walking the v6 layout.
 */
#include "lib-test.h"

#include <errno.h>
#include <fcntl.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>

#define PAGE 4096

/* A size field of the layout: where, and how wide. */
struct size_field {
	size_t off;
	size_t width;		/* 4 or 8 */
	const char *what;
};

#define MAX_SIZE_FIELDS	64

struct hostile {
	char *dir;
	char *good;		/* path of the valid file */
	char *bad;		/* path mutated copies are written to */
	unsigned char *bytes;	/* the valid file */
	size_t size;
	size_t ftrace_count_off;
	size_t kallsyms_off;
	size_t printk_off;
	size_t cpus_off;
	size_t table_off;	/* flyrecord CPU table */
	size_t cpustat_off;	/* first option (a CPUSTAT) */
	uint64_t cpu0_data;
	struct size_field sizes[MAX_SIZE_FIELDS];
	size_t nsizes;
};

static void add_size(struct hostile *h, size_t off, size_t width, const char *what)
{
	assert_true(h->nsizes < MAX_SIZE_FIELDS);
	h->sizes[h->nsizes++] = (struct size_field){ off, width, what };
}

static uint64_t get64(const unsigned char *p) { uint64_t v; memcpy(&v, p, 8); return v; }
static uint32_t get32(const unsigned char *p) { uint32_t v; memcpy(&v, p, 4); return v; }

/* Notes the @width-byte size field at @off; the offset after its payload. */
static size_t skip_sized(struct hostile *h, size_t off, size_t width, const char *what)
{
	const unsigned char *p = h->bytes + off;

	add_size(h, off, width, what);
	return off + width + (width == 8 ? get64(p) : get32(p));
}

/* A 4-byte count of formats, each with its 8-byte size. */
static size_t skip_formats(struct hostile *h, size_t off, const char *count_what,
			   const char *what)
{
	uint32_t i, n = get32(h->bytes + off);

	add_size(h, off, 4, count_what);
	off += 4;
	for (i = 0; i < n; i++)
		off = skip_sized(h, off, 8, what);
	return off;
}

/* Offsets of the fields the tests patch, from the v6 layout. */
static void locate(struct hostile *h)
{
	const unsigned char *b = h->bytes;
	size_t off = 30, i, systems;

	off = skip_sized(h, off, 8, "header_page");
	off += 13;
	off = skip_sized(h, off, 8, "header_event");
	h->ftrace_count_off = off;
	off = skip_formats(h, off, "ftrace format count", "ftrace format");
	add_size(h, off, 4, "event system count");
	systems = get32(b + off);
	off += 4;
	for (i = 0; i < systems; i++) {
		off += strlen((const char *)b + off) + 1;
		off = skip_formats(h, off, "event format count", "event format");
	}
	h->kallsyms_off = off;
	off = skip_sized(h, off, 4, "kallsyms");
	h->printk_off = off;
	off = skip_sized(h, off, 4, "printk");
	off = skip_sized(h, off, 8, "cmdlines");
	h->cpus_off = off;
	add_size(h, off, 4, "CPU count");
	assert_memory_equal(b + off + 4, "options  ", 10);
	h->cpustat_off = off + 14;
	assert_int_equal(b[h->cpustat_off], 2);	/* CPUSTAT */
	add_size(h, h->cpustat_off + 2, 4, "CPUSTAT option");
	h->table_off = (const unsigned char *)memmem(b, h->size, "flyrecord", 10) - b + 10;
	h->cpu0_data = get64(b + h->table_off);
	for (i = 0; i < 2; i++) {
		add_size(h, h->table_off + 16 * i, 8, "CPU data offset");
		add_size(h, h->table_off + 16 * i + 8, 8, "CPU data size");
	}
}

static int setup(void **state)
{
	struct ftg_trace_formats *fmt = tt_formats();
	struct hostile *h = calloc(1, sizeof(*h));
	struct ftg_trace_writer *w;
	struct stat st;
	FILE *fp;
	int cpu;

	h->dir = tt_tmpdir();
	h->good = tt_path(h->dir, "good.dat");
	h->bad = tt_path(h->dir, "bad.dat");
	w = ftg_trace_writer_create(h->good, fmt, 2);
	assert_non_null(w);
	for (cpu = 0; cpu < 2; cpu++) {
		tt_add_fixture_pages(w, cpu, "raw-pages-cpu");
		assert_int_equal(ftg_trace_writer_set_cpu_stats(w, cpu, "overrun: 0\n"), 0);
	}
	assert_int_equal(ftg_trace_writer_close(w), 0);
	ftg_trace_formats_free(fmt);

	assert_int_equal(stat(h->good, &st), 0);
	h->size = st.st_size;
	h->bytes = malloc(h->size);
	fp = fopen(h->good, "rb");
	assert_int_equal(fread(h->bytes, 1, h->size, fp), h->size);
	fclose(fp);
	locate(h);
	*state = h;
	return 0;
}

static int teardown(void **state)
{
	struct hostile *h = *state;

	tt_rmdir(h->dir);
	free(h->good);
	free(h->bad);
	free(h->bytes);
	free(h);
	return 0;
}

static void write_bad(struct hostile *h, const unsigned char *bytes, size_t size)
{
	FILE *fp = fopen(h->bad, "wb");

	assert_non_null(fp);
	assert_int_equal(fwrite(bytes, 1, size, fp), size);
	fclose(fp);
}

/* Writes @h's file with @len bytes at @off replaced, expects rejection. */
static void expect_rejected(struct hostile *h, size_t off, const void *patch,
			    size_t len, const char *why)
{
	unsigned char *copy = malloc(h->size);
	char err[512];

	memcpy(copy, h->bytes, h->size);
	memcpy(copy + off, patch, len);
	write_bad(h, copy, h->size);
	free(copy);
	err[0] = '\0';
	errno = 0;
	assert_null(tt_open(h->bad, err, sizeof(err)));
	assert_int_equal(errno, EINVAL);
	assert_int_equal(strncmp(err, h->bad, strlen(h->bad)), 0);
	assert_non_null(strstr(err, ": offset "));
	if (!strstr(err, why))
		fail_msg("\"%s\" does not say \"%s\"", err, why);
}

static void test_good_file_opens(void **state)
{
	struct hostile *h = *state;
	struct ftg_trace_file *tf;
	char err[256];

	tf = tt_open(h->good, err, sizeof(err));
	assert_non_null(tf);
	ftg_trace_file_close(tf);
	assert_int_equal(ftg_trace_file_check(h->good), 0);
}

/* A failure's message does not outlive a later success. */
static void test_no_stale_error(void **state)
{
	struct hostile *h = *state;
	struct ftg_trace_file *tf;

	write_bad(h, (const unsigned char *)"", 0);
	assert_null(ftg_trace_file_open(h->bad));
	assert_int_equal(ftg_error_code(), FTG_E_BAD_TRACE);
	assert_non_null(strstr(ftg_error_last(), "magic truncated"));
	tf = ftg_trace_file_open(h->good);
	assert_non_null(tf);
	assert_int_equal(ftg_error_code(), FTG_E_OK);
	assert_string_equal(ftg_error_last(), "");
	ftg_trace_file_close(tf);

	assert_int_equal(ftg_trace_file_check(h->bad), -1);
	assert_int_equal(ftg_error_code(), FTG_E_BAD_TRACE);
	assert_int_equal(ftg_trace_file_check(h->good), 0);
	assert_string_equal(ftg_error_last(), "");

	assert_null(ftg_trace_file_open("/nonexistent/t.dat"));
	assert_int_equal(errno, ENOENT);
	assert_int_equal(ftg_error_code(), FTG_E_SYSTEM);
	assert_int_equal(ftg_trace_file_check(h->good), 0);
	assert_int_equal(ftg_error_code(), FTG_E_OK);
}

static void test_not_trace_files(void **state)
{
	struct hostile *h = *state;
	char err[256];

	write_bad(h, (const unsigned char *)"", 0);
	assert_null(tt_open(h->bad, err, sizeof(err)));
	assert_non_null(strstr(err, "offset 0: magic truncated"));
	expect_rejected(h, 0, "\x17\x08\x45", 3, "bad magic");
	expect_rejected(h, 10, "9", 1, "unsupported file version");
	expect_rejected(h, 12, "\x07", 1, "bad endianness");
	expect_rejected(h, 13, "\x03", 1, "bad long size");
	expect_rejected(h, 14, &(uint32_t){ 1000 }, 4, "bad page size");
	assert_null(tt_open(h->dir, err, sizeof(err)));
	assert_non_null(strstr(err, "not a regular file"));
	assert_null(tt_open("/nonexistent/t.dat", err, sizeof(err)));
	assert_int_equal(errno, ENOENT);
	assert_non_null(strstr(err, "/nonexistent/t.dat: "));
}

/* Every truncation of a valid file is an error, never a partial read. */
static void test_truncated_everywhere(void **state)
{
	struct hostile *h = *state;
	char err[512];
	size_t len;

	for (len = 0; len < h->size; len += len < 2 * PAGE ? 1 : 251) {
		write_bad(h, h->bytes, len);
		err[0] = '\0';
		if (tt_open(h->bad, err, sizeof(err)))
			fail_msg("truncated to %zu bytes but opened", len);
		assert_int_equal(errno, EINVAL);
		assert_non_null(strstr(err, ": offset "));
	}
}

static void test_huge_sizes(void **state)
{
	struct hostile *h = *state;
	uint64_t huge = 1ULL << 62;
	uint32_t many = 0x7fffffff;

	expect_rejected(h, 30, &huge, 8, "header_page size");
	expect_rejected(h, h->ftrace_count_off, &many, 4, "ftrace format count");
	expect_rejected(h, h->kallsyms_off, &many, 4, "kallsyms of 2147483647 bytes");
	expect_rejected(h, h->cpus_off, &many, 4, "CPU count");
	/* the printk text starts with "0x...ffff : \"..." : drop its ':' */
	expect_rejected(h, h->printk_off + 4 + 19, "X", 1, "printk format line without");
	expect_rejected(h, h->table_off + 8, &huge, 8, "past the end of the file");
	expect_rejected(h, h->table_off + 16, &(uint64_t){ h->size + PAGE }, 8,
			"past the end of the file");
	expect_rejected(h, h->table_off + 8, &(uint64_t){ PAGE + 1 }, 8,
			"not a multiple of the page size");
}

static void test_bad_options(void **state)
{
	struct hostile *h = *state;

	expect_rejected(h, h->cpustat_off + 2, &(uint32_t){ 0 }, 4, "empty CPUSTAT");
	expect_rejected(h, h->cpustat_off, &(uint16_t){ 12 }, 2, "option 12 is not supported");
	expect_rejected(h, h->cpustat_off + 2, &(uint32_t){ 0x7fffffff }, 4,
			"option size 2147483647 is implausible");
	expect_rejected(h, h->table_off - 10, "latency  ", 10, "latency-format");
}

static void test_bad_pages(void **state)
{
	struct hostile *h = *state;
	uint32_t long_event[2] = { 0, 0xffff };	/* type_len 0, huge length */
	uint32_t short_event[2] = { 0, 4 };

	expect_rejected(h, h->cpu0_data + 8, &(uint64_t){ PAGE }, 8,
			"commit 4096 larger than the page");
	expect_rejected(h, h->cpu0_data + 16, long_event, 8, "past the page commit");
	expect_rejected(h, h->cpu0_data + 16, short_event, 8, "event too short");
}

/* Random byte flips: open fails cleanly or the file reads to the end. */
static int count_events(const struct ftg_event *ev, void *data)
{
	(*(size_t *)data)++;
	return 0;
}

static void test_random_flips(void **state)
{
	struct hostile *h = *state;
	unsigned char *copy = malloc(h->size);
	unsigned int seed = 12345, round, k;
	struct ftg_trace_file *tf;
	size_t events, opened = 0;
	char err[512];

	for (round = 0; round < 300; round++) {
		memcpy(copy, h->bytes, h->size);
		for (k = 0; k < 1 + round % 8; k++) {
			/* half the flips land in the header, half in the data */
			size_t off = rand_r(&seed) % (k % 2 ? h->size : h->cpu0_data);

			copy[off] ^= 1 << (rand_r(&seed) % 8);
		}
		write_bad(h, copy, h->size);
		tf = tt_open(h->bad, err, sizeof(err));
		if (!tf)
			continue;
		opened++;
		events = 0;
		assert_true(ftg_trace_file_iterate(tf, count_events, &events) >= -1);
		ftg_trace_file_close(tf);
	}
	free(copy);
	/* not every flip can be detected (e.g. in a timestamp) */
	assert_true(opened > 0);
}

/*
 * A raw ring-buffer page whose "module" event has a name __data_loc
 * pointing outside its record (fuzz-page-decode found libtraceevent
 * allocating 4 GiB for one): that event is dropped, the others decode.
 */
static void test_data_loc_outside_record(void **state)
{
	/* name at 20 (8 bytes, "ftguard"), state at 28 (7, "coming") */
	static const unsigned char locs[8] = { 0x14, 0, 0x08, 0, 0x1c, 0, 0x07, 0 };
	static const uint32_t bad_locs[] = {
		0xffff0014,	/* length past the record */
		0x0008fff0,	/* offset past the record */
		0x00080000,	/* inside the record, but... */
	};
	struct ftg_trace_formats *fmt = tt_formats();
	unsigned char page[PAGE], copy[PAGE];
	size_t events, i, at;
	unsigned char *p;
	FILE *fp;
	int n0, n;

	fp = fopen(TRACE_FIXTURES "/raw-ftguard-cpu1.bin", "rb");
	assert_non_null(fp);
	assert_int_equal(fread(page, 1, PAGE, fp), PAGE);
	fclose(fp);
	events = 0;
	n0 = ftg_page_decode(fmt, 0, page, PAGE, count_events, &events);
	assert_true(n0 > 1);
	p = memmem(page, PAGE, locs, sizeof(locs));
	assert_non_null(p);
	at = p - page;
	/* the last case points at the record's own header: still inside it,
	 * so the event decodes (nonsense text, but no read outside) */
	for (i = 0; i < sizeof(bad_locs) / sizeof(bad_locs[0]); i++) {
		memcpy(copy, page, PAGE);
		memcpy(copy + at, &bad_locs[i], 4);
		events = 0;
		n = ftg_page_decode(fmt, 0, copy, PAGE, count_events, &events);
		assert_int_equal(n, i < 2 ? n0 - 1 : n0);
	}
	ftg_trace_formats_free(fmt);
}

/*
 * A partial page on which kbuffer stops advancing and hands back the same
 * event for ever (fuzz-page-decode hung on it; the input is kept in
 * tests/fuzz/regressions, first byte the CPU): refused with EINVAL. If the
 * walk ever loops again, SIGALRM ends this test as a failure.
 */
static void test_page_walk_stuck(void **state)
{
	struct ftg_trace_formats *fmt = tt_formats();
	unsigned char buf[PAGE + 1];
	size_t size, events = 0;
	FILE *fp;
	int n;

	fp = fopen(FTG_FIXTURES "/../fuzz/regressions/page-decode/"
		   "kbuffer-walk-stuck-endless-loop", "rb");
	assert_non_null(fp);
	size = fread(buf, 1, sizeof(buf), fp);
	fclose(fp);
	assert_true(size > 16);
	alarm(20);
	errno = 0;
	n = ftg_page_decode(fmt, buf[0], buf + 1, size - 1, count_events, &events);
	alarm(0);
	assert_int_equal(n, -1);
	assert_int_equal(errno, EINVAL);
	ftg_trace_formats_free(fmt);
}

/*
 * CPU data runs that overlap each other or the header: libtracecmd would
 * read the same pages as two CPUs' events, or header bytes as events.
 */
static void test_overlapping_offsets(void **state)
{
	struct hostile *h = *state;
	uint64_t cpu0_size = get64(h->bytes + h->table_off + 8);

	/* CPU 1's run is CPU 0's */
	expect_rejected(h, h->table_off + 16, &h->cpu0_data, 8, "overlaps");
	/* CPU 1 starts one page into CPU 0's run (both page-aligned) */
	assert_true(cpu0_size >= 2 * PAGE);
	expect_rejected(h, h->table_off + 16, &(uint64_t){ h->cpu0_data + PAGE }, 8,
			"overlaps");
	/* CPU 0's run starts inside the header it follows */
	expect_rejected(h, h->table_off, &(uint64_t){ 0 }, 8, "overlaps");
	expect_rejected(h, h->table_off, &(uint64_t){ h->table_off }, 8, "overlaps");
}

/*
 * The file is never trusted for an allocation size: every size and count
 * field, set to a value larger than the file or absurdly large, is refused
 * by the validator before libtracecmd sees it.
 */
static void test_huge_sizes_everywhere(void **state)
{
	struct hostile *h = *state;
	static const uint64_t values64[] = { 1ULL << 31, 0xffffffffULL, 1ULL << 40,
					     1ULL << 62, UINT64_MAX };
	static const uint32_t values32[] = { 1U << 28, 0x7fffffff, 1U << 31,
					     0xffffffff };
	unsigned char *copy = malloc(h->size);
	char err[512];
	size_t i, k, nvalues;
	uint64_t value;

	assert_true(h->nsizes > 12);
	for (i = 0; i < h->nsizes; i++) {
		const struct size_field *f = &h->sizes[i];

		nvalues = f->width == 8 ? sizeof(values64) / sizeof(values64[0]) :
					  sizeof(values32) / sizeof(values32[0]);
		for (k = 0; k < nvalues; k++) {
			memcpy(copy, h->bytes, h->size);
			if (f->width == 8)
				memcpy(copy + f->off, &values64[k], 8);
			else
				memcpy(copy + f->off, &values32[k], 4);
			value = f->width == 8 ? values64[k] : values32[k];
			write_bad(h, copy, h->size);
			err[0] = '\0';
			errno = 0;
			if (tt_open(h->bad, err, sizeof(err)))
				fail_msg("%s at offset %zu set to %#llx: file opened",
					 f->what, f->off, (unsigned long long)value);
			if (errno != EINVAL || !strstr(err, ": offset "))
				fail_msg("%s at offset %zu set to %#llx: errno %d, \"%s\"",
					 f->what, f->off, (unsigned long long)value,
					 errno, err);
		}
	}
	free(copy);
}

#if defined(__SANITIZE_ADDRESS__)
#define UNDER_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define UNDER_ASAN 1
#endif
#endif

/* Address space the test process uses now, from /proc/self/statm. */
static size_t vm_size_now(void)
{
	unsigned long pages = 0;
	FILE *f = fopen("/proc/self/statm", "r");

	assert_non_null(f);
	assert_int_equal(fscanf(f, "%lu", &pages), 1);
	fclose(f);
	return pages * (size_t)sysconf(_SC_PAGESIZE);
}

#define MEMORY_SLACK	(64UL << 20)

/*
 * Opens and reads @path in a child limited to its current address space
 * plus MEMORY_SLACK (RLIMIT_AS): an allocation taken from a hostile size
 * fails there instead of succeeding lazily. Returns the child's status:
 * 0 opened and read, 1 refused by the validator (EINVAL, "offset N: ..."),
 * 2 refused otherwise (ENOMEM: something tried to allocate beyond the
 * limit), 128 + N killed by signal N.
 */
static int open_limited(const char *path)
{
	struct rlimit lim;
	int status;
	pid_t pid = fork();

	assert_true(pid >= 0);
	if (pid == 0) {
		struct ftg_trace_file *tf;
		size_t events = 0;
		char err[512];

		lim.rlim_cur = lim.rlim_max = vm_size_now() + MEMORY_SLACK;
		if (setrlimit(RLIMIT_AS, &lim))
			_exit(3);
		err[0] = '\0';
		tf = tt_open(path, err, sizeof(err));
		if (!tf)	/* the validator's clear error names an offset */
			_exit(errno == EINVAL && strstr(err, ": offset ") ? 1 : 2);
		ftg_trace_file_iterate(tf, count_events, &events);
		ftg_trace_file_close(tf);
		_exit(events ? 0 : 4);
	}
	assert_int_equal(waitpid(pid, &status, 0), pid);
	if (WIFSIGNALED(status))
		return 128 + WTERMSIG(status);
	return WEXITSTATUS(status);
}

/*
 * No unbounded allocation: under a 64 MiB address-space allowance the
 * valid file opens and reads (so the allowance is enough for a real
 * file), and each hostile size is refused with EINVAL, never ENOMEM.
 * ASan reserves terabytes of shadow memory, so this runs in the plain
 * build only (the sanitized build catches oversized allocations itself).
 */
static void test_bounded_memory(void **state)
{
	struct hostile *h = *state;
	const uint64_t huge64 = 1ULL << 40;
	const uint32_t huge32 = 0xfffffff0;
	unsigned char *copy;
	size_t i;
	int ret;

#ifdef UNDER_ASAN
	skip();
#endif
	assert_int_equal(open_limited(h->good), 0);
	copy = malloc(h->size);
	for (i = 0; i < h->nsizes; i++) {
		memcpy(copy, h->bytes, h->size);
		if (h->sizes[i].width == 8)
			memcpy(copy + h->sizes[i].off, &huge64, 8);
		else
			memcpy(copy + h->sizes[i].off, &huge32, 4);
		write_bad(h, copy, h->size);
		ret = open_limited(h->bad);
		if (ret != 1)
			fail_msg("%s at offset %zu made huge: child status %d (1: EINVAL)",
				 h->sizes[i].what, h->sizes[i].off, ret);
	}
	free(copy);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_good_file_opens),
		cmocka_unit_test(test_not_trace_files),
		cmocka_unit_test(test_no_stale_error),
		cmocka_unit_test(test_truncated_everywhere),
		cmocka_unit_test(test_huge_sizes),
		cmocka_unit_test(test_bad_options),
		cmocka_unit_test(test_bad_pages),
		cmocka_unit_test(test_random_flips),
		cmocka_unit_test(test_overlapping_offsets),
		cmocka_unit_test(test_huge_sizes_everywhere),
		cmocka_unit_test(test_bounded_memory),
		cmocka_unit_test(test_data_loc_outside_record),
		cmocka_unit_test(test_page_walk_stuck),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
