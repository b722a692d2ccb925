// SPDX-License-Identifier: LGPL-2.1
/*
 * Validation of a trace.dat file before libtracecmd sees it.
 *
 * libtracecmd trusts the sizes and offsets it reads: a huge size becomes
 * a huge malloc, a zero-sized CPUSTAT option a write before its buffer,
 * and kbuffer walks a page as far as its commit field and event lengths
 * say. So the whole v6 header is walked here with every size checked
 * against what is left of the file, every CPU run checked to lie inside
 * the file, and every page and event of the data checked to stay inside
 * its page. A v7 file gets the initial checks only (see
 * doc/trace-files.md). Errors name the file and the offset.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "ftguard-local.h"
#include "trace-local.h"

#define MAX_TEXT	(64U << 20)	/* one format, printk or cmdlines */
#define MAX_COUNT	65536U		/* events, systems */
#define MAX_CPUS	8192U
#define MAX_NAME	256U

/* Options libtracecmd parses in ways these checks cover. */
#define OPT_DONE	0
#define OPT_CPUSTAT	2
#define OPT_BUFFER	3
#define OPT_TRACECLOCK	4
#define OPT_LAST_SAFE	11	/* DATE..TRACEID, except PROCMAPS */
#define OPT_PROCMAPS	10

struct cursor {
	int fd;
	const char *path;
	uint64_t off;
	uint64_t size;
	bool swap;
	char *err;
	size_t errlen;
};

static int __attribute__((format(printf, 3, 4)))
fail(struct cursor *c, uint64_t off, const char *fmt, ...)
{
	char what[192];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(what, sizeof(what), fmt, ap);
	va_end(ap);
	if (c->err && c->errlen)
		snprintf(c->err, c->errlen, "%s: offset %llu: %s", c->path,
			 (unsigned long long)off, what);
	errno = EINVAL;
	return -1;
}

static int get(struct cursor *c, void *buf, size_t n, const char *what)
{
	ssize_t r;

	if (n > c->size - c->off)
		return fail(c, c->off, "%s truncated (%zu bytes needed, %llu left)",
			    what, n, (unsigned long long)(c->size - c->off));
	r = pread(c->fd, buf, n, c->off);
	if (r != (ssize_t)n)
		return fail(c, c->off, "%s: read error", what);
	c->off += n;
	return 0;
}

static uint64_t swap_n(const unsigned char *p, size_t n, bool swap)
{
	uint64_t v = 0;
	size_t i;

	for (i = 0; i < n; i++)
		v |= (uint64_t)p[swap ? n - 1 - i : i] << (8 * i);
	return v;
}

static int get_num(struct cursor *c, size_t n, uint64_t *v, const char *what)
{
	unsigned char b[8];

	if (get(c, b, n, what))
		return -1;
	*v = swap_n(b, n, c->swap);
	return 0;
}

/* Skips @n bytes whose size was read at @at (reported on error). */
static int skip(struct cursor *c, uint64_t at, uint64_t n, uint64_t max,
		const char *what)
{
	if (n > max)
		return fail(c, at, "%s size %llu is implausible", what,
			    (unsigned long long)n);
	if (n > c->size - c->off)
		return fail(c, at, "%s of %llu bytes runs past the end of "
			    "the file (%llu left)", what, (unsigned long long)n,
			    (unsigned long long)(c->size - c->off));
	c->off += n;
	return 0;
}

/* A size field of @width bytes followed by that many bytes. */
static int sized_blob(struct cursor *c, size_t width, uint64_t max,
		      const char *what)
{
	uint64_t at = c->off, n;

	return get_num(c, width, &n, what) ? -1 : skip(c, at, n, max, what);
}

static int counted(struct cursor *c, uint64_t *n, uint64_t max,
		   const char *what)
{
	uint64_t at = c->off;

	if (get_num(c, 4, n, what))
		return -1;
	if (*n > max)
		return fail(c, at, "%s count %llu is implausible", what,
			    (unsigned long long)*n);
	return 0;
}

static int tag(struct cursor *c, const char *want, size_t n)
{
	char buf[16];
	uint64_t at = c->off;

	if (get(c, buf, n, want))
		return -1;
	if (memcmp(buf, want, n))
		return fail(c, at, "expected \"%s\"", want);
	return 0;
}

static int skip_string(struct cursor *c, const char *what)
{
	uint64_t at = c->off;
	char ch;
	size_t i;

	for (i = 0; i < MAX_NAME; i++) {
		if (get(c, &ch, 1, what))
			return -1;
		if (!ch)
			return 0;
	}
	return fail(c, at, "%s is not a string", what);
}

static bool host_is_big_endian(void)
{
	const uint16_t one = 1;

	return *(const unsigned char *)&one == 0;
}

static int check_initial(struct cursor *c, struct trace_file_info *info)
{
	static const char magic[] = { 0x17, 0x08, 0x44, 't', 'r', 'a', 'c',
				      'i', 'n', 'g' };
	unsigned char buf[16];
	uint64_t page, at;
	size_t i;

	if (get(c, buf, sizeof(magic), "magic"))
		return -1;
	if (memcmp(buf, magic, sizeof(magic)))
		return fail(c, 0, "not a trace.dat file (bad magic)");
	at = c->off;
	for (i = 0; i < sizeof(buf); i++) {
		if (get(c, buf + i, 1, "version"))
			return -1;
		if (!buf[i])
			break;
	}
	if (i == sizeof(buf) || (strcmp((char *)buf, "6") && strcmp((char *)buf, "7")))
		return fail(c, at, "unsupported file version \"%.*s\"", (int)i, buf);
	info->version = buf[0] - '0';
	at = c->off;
	if (get(c, buf, 2, "endianness and long size"))
		return -1;
	if (buf[0] > 1)
		return fail(c, at, "bad endianness byte %u", buf[0]);
	if (buf[1] != 4 && buf[1] != 8)
		return fail(c, at + 1, "bad long size %u", buf[1]);
	info->big_endian = buf[0];
	info->long_size = buf[1];
	c->swap = info->big_endian != host_is_big_endian();
	at = c->off;
	if (get_num(c, 4, &page, "page size"))
		return -1;
	if (page < 1024 || page > (1U << 20) || (page & (page - 1)))
		return fail(c, at, "bad page size %llu", (unsigned long long)page);
	info->page_size = page;
	return 0;
}

/*
 * libtraceevent's printk-format parser reads one byte past a line that
 * has no ':' (it skips "the space" after it): every line needs ": ".
 */
static int check_printk(struct cursor *c)
{
	uint64_t at = c->off, size;
	char *text, *line, *end;
	int ret = 0;

	if (get_num(c, 4, &size, "printk formats") ||
	    skip(c, at, size, MAX_TEXT, "printk formats"))
		return -1;
	text = malloc(size + 1);
	if (!text)
		return -1;
	if (pread(c->fd, text, size, at + 4) != (ssize_t)size) {
		free(text);
		return fail(c, at, "printk formats: read error");
	}
	text[size] = '\0';
	for (line = text; *line && !ret; line = end + (*end == '\n')) {
		end = strchrnul(line, '\n');
		if (end == line)
			continue;
		if (!memmem(line, end - line, ": ", 2))
			ret = fail(c, at + 4 + (line - text),
				   "printk format line without \": \"");
	}
	free(text);
	return ret;
}

static int check_formats(struct cursor *c, struct trace_file_info *info)
{
	uint64_t n, systems, i, j, size;

	if (tag(c, "header_page", 12) || sized_blob(c, 8, MAX_TEXT, "header_page") ||
	    tag(c, "header_event", 13) || sized_blob(c, 8, MAX_TEXT, "header_event"))
		return -1;
	if (counted(c, &n, MAX_COUNT, "ftrace format"))
		return -1;
	for (i = 0; i < n; i++)
		if (sized_blob(c, 8, MAX_TEXT, "ftrace format"))
			return -1;
	if (counted(c, &systems, MAX_COUNT, "event system"))
		return -1;
	for (i = 0; i < systems; i++) {
		if (skip_string(c, "system name") ||
		    counted(c, &n, MAX_COUNT, "event format"))
			return -1;
		for (j = 0; j < n; j++)
			if (sized_blob(c, 8, MAX_TEXT, "event format"))
				return -1;
	}
	if (get_num(c, 4, &size, "kallsyms"))
		return -1;
	info->kallsyms_offset = c->off;
	info->kallsyms_size = size;
	if (skip(c, c->off - 4, size, UINT32_MAX, "kallsyms") ||
	    check_printk(c) ||
	    sized_blob(c, 8, MAX_TEXT, "cmdlines"))
		return -1;
	return 0;
}

static int check_options(struct cursor *c, bool *has_clock,
			 struct trace_file_info *info)
{
	uint64_t id, size, at, buffer_off;

	for (;;) {
		at = c->off;
		if (get_num(c, 2, &id, "option id"))
			return -1;
		if (id == OPT_DONE)
			return 0;
		if ((id > OPT_LAST_SAFE && id != TRACE_OPTION_SAVED_TGIDS) ||
		    id == OPT_PROCMAPS)
			return fail(c, at, "option %llu is not supported",
				    (unsigned long long)id);
		if (get_num(c, 4, &size, "option size"))
			return -1;
		if (!size && id == OPT_CPUSTAT)
			return fail(c, at, "empty CPUSTAT option");
		if (id == OPT_BUFFER) {
			if (size < 9 || get_num(c, 8, &buffer_off, "buffer offset"))
				return size < 9 ? fail(c, at, "short BUFFER option") : -1;
			if (buffer_off >= c->size)
				return fail(c, at, "BUFFER option points past the end");
			size -= 8;
		}
		if (id == OPT_TRACECLOCK)
			*has_clock = true;
		if (id == TRACE_OPTION_SAVED_TGIDS) {
			info->tgids_offset = c->off;
			info->tgids_size = size;
		}
		if (skip(c, at + 2, size, MAX_TEXT, "option"))
			return -1;
	}
}

/* Walks the events of one page the way kbuffer will. */
static int check_page(struct cursor *c, uint64_t page_off,
		      const unsigned char *page, uint32_t page_size)
{
	uint64_t commit = swap_n(page + 8, 8, c->swap) & TRACE_COMMIT_MASK;
	uint64_t pos = TRACE_PAGE_HDR_SIZE, end, len;
	unsigned int type_len;

	if (commit > page_size - TRACE_PAGE_HDR_SIZE)
		return fail(c, page_off, "page commit %llu larger than the page",
			    (unsigned long long)commit);
	end = TRACE_PAGE_HDR_SIZE + commit;
	while (pos + 4 <= end) {
		type_len = swap_n(page + pos, 4, c->swap) & 31;
		if (type_len >= 1 && type_len <= TRACE_TYPE_DATA_MAX)
			len = 4 + type_len * 4;
		else if (pos + 8 > end)
			return fail(c, page_off + pos, "event header cut by the commit");
		else if (type_len == TRACE_TYPE_TIME_EXTEND ||
			 type_len == TRACE_TYPE_TIME_STAMP)
			len = 8;
		else	/* padding, or type_len 0: a length word follows */
			len = 4 + swap_n(page + pos + 4, 4, c->swap);
		if (!type_len && len < 4 + 4 + 8)
			return fail(c, page_off + pos, "event too short");
		if (len > end - pos)
			return fail(c, page_off + pos, "event runs past the page commit");
		pos += len;
	}
	return 0;
}

static int check_cpu_data(struct cursor *c, uint32_t cpu, uint64_t off,
			  uint64_t size, uint32_t page_size)
{
	unsigned char *page;
	uint64_t p;
	int ret = 0;

	if (off > c->size || size > c->size - off)
		return fail(c, c->off - 16, "CPU %u data (offset %llu, %llu bytes) "
			    "lies past the end of the file (%llu bytes): truncated?",
			    cpu, (unsigned long long)off, (unsigned long long)size,
			    (unsigned long long)c->size);
	if (size % page_size)
		return fail(c, c->off - 16, "CPU %u data size %llu is not a "
			    "multiple of the page size", cpu, (unsigned long long)size);
	page = malloc(page_size);
	if (!page)
		return -1;
	for (p = off; p < off + size && !ret; p += page_size) {
		if (pread(c->fd, page, page_size, p) != (ssize_t)page_size)
			ret = fail(c, p, "read error");
		else
			ret = check_page(c, p, page, page_size);
	}
	free(page);
	return ret;
}

/* A CPU's data run: [off, off + size). */
struct cpu_run {
	uint64_t off;
	uint64_t size;
	uint32_t cpu;
};

static int cmp_run(const void *a, const void *b)
{
	const struct cpu_run *x = a, *y = b;

	return x->off < y->off ? -1 : x->off > y->off;
}

/*
 * Runs must lie after the header (from @data_start) and apart from each
 * other: libtracecmd would otherwise read header bytes, or the same pages
 * as two CPUs' events. Empty runs are not read and may be anywhere; runs
 * that leave the file are left to check_cpu_data() to name.
 */
static int check_runs_apart(struct cursor *c, const struct cpu_run *runs,
			    uint32_t n, uint64_t table_off, uint64_t data_start)
{
	struct cpu_run *sorted;
	uint32_t i, k = 0;
	int ret = 0;

	sorted = malloc(((size_t)n + 1) * sizeof(*sorted));
	if (!sorted)
		return -1;
	for (i = 0; i < n; i++)
		if (runs[i].size && runs[i].off <= c->size &&
		    runs[i].size <= c->size - runs[i].off)
			sorted[k++] = runs[i];
	qsort(sorted, k, sizeof(*sorted), cmp_run);
	if (k && sorted[0].off < data_start)
		ret = fail(c, table_off + 16 * sorted[0].cpu, "CPU %u data (offset "
			   "%llu) overlaps the file header (data starts at %llu)",
			   sorted[0].cpu, (unsigned long long)sorted[0].off,
			   (unsigned long long)data_start);
	for (i = 1; i < k && !ret; i++)
		if (sorted[i].off < sorted[i - 1].off + sorted[i - 1].size)
			ret = fail(c, table_off + 16 * sorted[i].cpu, "CPU %u data "
				   "(offset %llu) overlaps CPU %u data (offset %llu, "
				   "%llu bytes)", sorted[i].cpu,
				   (unsigned long long)sorted[i].off, sorted[i - 1].cpu,
				   (unsigned long long)sorted[i - 1].off,
				   (unsigned long long)sorted[i - 1].size);
	free(sorted);
	return ret;
}

static int check_flyrecord(struct cursor *c, struct trace_file_info *info,
			   bool has_clock)
{
	uint64_t table_off = c->off;
	struct cpu_run *runs;
	uint32_t i;
	int ret = 0;

	runs = calloc((size_t)info->nr_cpus + 1, sizeof(*runs));
	if (!runs)
		return -1;
	for (i = 0; i < info->nr_cpus && !ret; i++) {
		runs[i].cpu = i;
		if (get_num(c, 8, &runs[i].off, "CPU data table") ||
		    get_num(c, 8, &runs[i].size, "CPU data table"))
			ret = -1;
	}
	if (!ret && has_clock)
		ret = sized_blob(c, 8, MAX_TEXT, "trace clock");
	if (!ret)
		ret = check_runs_apart(c, runs, info->nr_cpus, table_off, c->off);
	for (i = 0; i < info->nr_cpus && !ret; i++)
		ret = check_cpu_data(c, i, runs[i].off, runs[i].size,
				     info->page_size);
	free(runs);
	return ret;
}

static int check_v6(struct cursor *c, struct trace_file_info *info)
{
	bool has_clock = false;
	uint64_t cpus, at;
	char kind[10];

	if (check_formats(c, info) || counted(c, &cpus, MAX_CPUS, "CPU"))
		return -1;
	info->nr_cpus = cpus;
	at = c->off;
	if (get(c, kind, 10, "options or data type"))
		return -1;
	if (!memcmp(kind, "options  ", 10)) {
		if (check_options(c, &has_clock, info))
			return -1;
		at = c->off;
		if (get(c, kind, 10, "data type"))
			return -1;
	}
	if (!memcmp(kind, "latency  ", 10))
		return fail(c, at, "latency-format file: no per-CPU event data");
	if (memcmp(kind, "flyrecord", 10))
		return fail(c, at, "expected \"flyrecord\"");
	return check_flyrecord(c, info, has_clock);
}

/*
 * trace_file_validate - check a trace.dat file before reading it
 * @path: file
 * @info: filled with what was learned (may be NULL)
 * @err: message "PATH: offset N: what" on failure (may be NULL)
 * @errlen: size of @err
 *
 * Return: 0 if the file can be handed to libtracecmd, -1 with errno set
 * (EINVAL for a corrupt file, else the open/read error).
 */
int trace_file_validate(const char *path, struct trace_file_info *info,
			char *err, size_t errlen)
{
	struct trace_file_info local;
	struct cursor c = { .path = path, .err = err, .errlen = errlen };
	struct stat st;
	int ret;

	if (!info)
		info = &local;
	memset(info, 0, sizeof(*info));
	c.fd = open(path, O_RDONLY | O_CLOEXEC);
	if (c.fd < 0 || fstat(c.fd, &st)) {
		if (err && errlen)
			snprintf(err, errlen, "%s: %s", path, strerror(errno));
		if (c.fd >= 0)
			close(c.fd);
		return -1;
	}
	if (!S_ISREG(st.st_mode)) {
		close(c.fd);
		if (err && errlen)
			snprintf(err, errlen, "%s: not a regular file", path);
		errno = EINVAL;
		return -1;
	}
	c.size = st.st_size;
	ret = check_initial(&c, info);
	if (!ret && info->version == 6)
		ret = check_v6(&c, info);
	close(c.fd);
	return ret;
}

int ftg_trace_file_check(const char *path)
{
	char err[512] = "";

	ftg_error_clear();
	if (trace_file_validate(path, NULL, err, sizeof(err)))
		return trace_file_error(path, err);
	return 0;
}

int trace_file_error(const char *path, const char *msg)
{
	int errnum = errno ? errno : EINVAL;

	if (!*msg)
		return ftgl_err(FTG_E_SYSTEM, errnum, "%s: %s", path,
				strerror(errnum));
	/* The validator's own words; EINVAL is its verdict on the bytes. */
	return ftgl_err(errnum == EINVAL ? FTG_E_BAD_TRACE : FTG_E_SYSTEM,
			errnum, "%s", msg);
}
