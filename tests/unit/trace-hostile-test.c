// SPDX-License-Identifier: LGPL-2.1
/*
 * Hostile trace.dat files: every one must give NULL, errno and a message
 * "FILE: offset N: ..." from ftg_trace_file_open(), never a crash (the
 * tests run under ASan and UBSan). The files start as a valid one written
 * from the fixture pages and are then truncated or patched at offsets
 * found by walking the v6 layout.
 */
#include "trace-test.h"

#include <errno.h>
#include <fcntl.h>
#include <sys/stat.h>

#define PAGE 4096

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
};

static uint64_t get64(const unsigned char *p) { uint64_t v; memcpy(&v, p, 8); return v; }
static uint32_t get32(const unsigned char *p) { uint32_t v; memcpy(&v, p, 4); return v; }

/* Offsets of the fields the tests patch, from the v6 layout. */
static void locate(struct hostile *h)
{
	const unsigned char *b = h->bytes;
	size_t off = 30, i, j, n, systems;

	off += 8 + get64(b + off);		/* header_page */
	off += 13;
	off += 8 + get64(b + off);		/* header_event */
	h->ftrace_count_off = off;
	n = get32(b + off);
	off += 4;
	for (i = 0; i < n; i++)
		off += 8 + get64(b + off);
	systems = get32(b + off);
	off += 4;
	for (i = 0; i < systems; i++) {
		off += strlen((const char *)b + off) + 1;
		n = get32(b + off);
		off += 4;
		for (j = 0; j < n; j++)
			off += 8 + get64(b + off);
	}
	h->kallsyms_off = off;
	off += 4 + get32(b + off);		/* kallsyms */
	h->printk_off = off;
	off += 4 + get32(b + off);		/* printk */
	off += 8 + get64(b + off);		/* cmdlines */
	h->cpus_off = off;
	assert_memory_equal(b + off + 4, "options  ", 10);
	h->cpustat_off = off + 14;
	assert_int_equal(b[h->cpustat_off], 2);	/* CPUSTAT */
	h->table_off = (const unsigned char *)memmem(b, h->size, "flyrecord", 10) - b + 10;
	h->cpu0_data = get64(b + h->table_off);
}

static int setup(void **state)
{
	struct ftg_trace_formats *fmt = tt_formats();
	struct hostile *h = calloc(1, sizeof(*h));
	unsigned char page[PAGE];
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
		char name[PATH_MAX];

		snprintf(name, sizeof(name), TRACE_FIXTURES "/raw-pages-cpu%d.bin", cpu);
		fp = fopen(name, "rb");
		assert_non_null(fp);
		while (fread(page, 1, PAGE, fp) == PAGE)
			assert_int_equal(ftg_trace_writer_add_page(w, cpu, page, PAGE), 0);
		fclose(fp);
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
	assert_null(ftg_trace_file_open(h->bad, err, sizeof(err)));
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

	tf = ftg_trace_file_open(h->good, err, sizeof(err));
	assert_non_null(tf);
	ftg_trace_file_close(tf);
	assert_int_equal(ftg_trace_file_check(h->good, err, sizeof(err)), 0);
}

static void test_not_trace_files(void **state)
{
	struct hostile *h = *state;
	char err[256];

	write_bad(h, (const unsigned char *)"", 0);
	assert_null(ftg_trace_file_open(h->bad, err, sizeof(err)));
	assert_non_null(strstr(err, "offset 0: magic truncated"));
	expect_rejected(h, 0, "\x17\x08\x45", 3, "bad magic");
	expect_rejected(h, 10, "9", 1, "unsupported file version");
	expect_rejected(h, 12, "\x07", 1, "bad endianness");
	expect_rejected(h, 13, "\x03", 1, "bad long size");
	expect_rejected(h, 14, &(uint32_t){ 1000 }, 4, "bad page size");
	assert_null(ftg_trace_file_open(h->dir, err, sizeof(err)));
	assert_non_null(strstr(err, "not a regular file"));
	assert_null(ftg_trace_file_open("/nonexistent/t.dat", err, sizeof(err)));
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
		if (ftg_trace_file_open(h->bad, err, sizeof(err)))
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
		tf = ftg_trace_file_open(h->bad, err, sizeof(err));
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

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_good_file_opens),
		cmocka_unit_test(test_not_trace_files),
		cmocka_unit_test(test_truncated_everywhere),
		cmocka_unit_test(test_huge_sizes),
		cmocka_unit_test(test_bad_options),
		cmocka_unit_test(test_bad_pages),
		cmocka_unit_test(test_random_flips),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
