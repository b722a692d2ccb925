// SPDX-License-Identifier: LGPL-2.1
/*
 * Bounded building blocks of the readers: arrays, a string pool, whole
 * files read to memory, line and word splitting, strict number parsing,
 * the module's name unescaping, and the escaping of kernel-supplied names
 * for display (ftg_escape()) and for JSON (ftg_fputs_json()).
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "ftguard-local.h"

void ftgl_vec_init(struct ftgl_vec *v, size_t elem_size)
{
	memset(v, 0, sizeof(*v));
	v->elem_size = elem_size;
}

void *ftgl_vec_push(struct ftgl_vec *v)
{
	void *elem;

	if (v->len == v->cap) {
		size_t cap = v->cap ? v->cap * 2 : 64;
		void *data;

		if (v->len >= FTG_MAX_ENTRIES) {
			ftgl_err(FTG_E_TOO_MANY, E2BIG,
				 "more than %u entries", FTG_MAX_ENTRIES);
			return NULL;
		}
		if (cap > FTG_MAX_ENTRIES)
			cap = FTG_MAX_ENTRIES;
		data = realloc(v->data, cap * v->elem_size);
		if (!data) {
			ftgl_err(FTG_E_SYSTEM, ENOMEM, "out of memory");
			return NULL;
		}
		v->data = data;
		v->cap = cap;
	}
	elem = (char *)v->data + v->len * v->elem_size;
	memset(elem, 0, v->elem_size);
	v->len++;
	return elem;
}

void *ftgl_vec_at(const struct ftgl_vec *v, size_t i)
{
	if (i >= v->len)
		return NULL;
	return (char *)v->data + i * v->elem_size;
}

void ftgl_vec_release(struct ftgl_vec *v)
{
	free(v->data);
	v->data = NULL;
	v->len = v->cap = 0;
}

#define POOL_CHUNK	(64 * 1024)

struct ftgl_pool_chunk {
	struct ftgl_pool_chunk *next;
	size_t used;
	size_t size;
	char data[];
};

const char *ftgl_pool_strndup(struct ftgl_pool *p, const char *s, size_t n)
{
	struct ftgl_pool_chunk *c = p->head;
	char *dst;

	if (!c || c->size - c->used < n + 1) {
		size_t size = n + 1 > POOL_CHUNK ? n + 1 : POOL_CHUNK;

		c = malloc(sizeof(*c) + size);
		if (!c) {
			ftgl_err(FTG_E_SYSTEM, ENOMEM, "out of memory");
			return NULL;
		}
		c->used = 0;
		c->size = size;
		c->next = p->head;
		p->head = c;
	}
	dst = c->data + c->used;
	memcpy(dst, s, n);
	dst[n] = '\0';
	c->used += n + 1;
	return dst;
}

const char *ftgl_pool_strdup(struct ftgl_pool *p, const char *s)
{
	return ftgl_pool_strndup(p, s, strlen(s));
}

void ftgl_pool_release(struct ftgl_pool *p)
{
	struct ftgl_pool_chunk *c, *next;

	for (c = p->head; c; c = next) {
		next = c->next;
		free(c);
	}
	p->head = NULL;
}

char *ftgl_path(const char *dir, const char *name)
{
	char *path;

	if (!dir || !*dir)
		path = strdup(name);
	else if (!name || !*name)
		path = strdup(dir);
	else if (asprintf(&path, "%s/%s", dir, name) < 0)
		path = NULL;
	if (!path)
		ftgl_err(FTG_E_SYSTEM, ENOMEM, "out of memory");
	return path;
}

char *ftgl_read_file(const char *dir, const char *name, size_t *len)
{
	size_t size = 0, cap = 0;
	char *path, *buf = NULL;
	int fd, saved;

	path = ftgl_path(dir, name);
	if (!path)
		return NULL;
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0) {
		saved = errno;
		ftgl_err(FTG_E_SYSTEM, saved, "%s: %s", path, strerror(saved));
		free(path);
		return NULL;
	}
	for (;;) {
		ssize_t r;

		if (cap - size < 4096 + 1) {
			size_t ncap = cap ? cap * 2 : 65536;
			char *nbuf;

			if (ncap > FTGL_FILE_MAX + 4096 + 1) {
				ftgl_err(FTG_E_TOO_MANY, EFBIG,
					 "%s: larger than %lu MiB", path,
					 FTGL_FILE_MAX >> 20);
				goto fail;
			}
			nbuf = realloc(buf, ncap);
			if (!nbuf) {
				ftgl_err(FTG_E_SYSTEM, ENOMEM, "out of memory");
				goto fail;
			}
			buf = nbuf;
			cap = ncap;
		}
		r = read(fd, buf + size, cap - size - 1);
		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0) {
			saved = errno;
			ftgl_err(FTG_E_SYSTEM, saved, "%s: %s", path,
				 strerror(saved));
			goto fail;
		}
		if (r == 0)
			break;
		size += r;
	}
	if (!buf) {
		buf = malloc(1);
		if (!buf) {
			ftgl_err(FTG_E_SYSTEM, ENOMEM, "out of memory");
			goto fail;
		}
	}
	buf[size] = '\0';
	close(fd);
	free(path);
	if (len)
		*len = size;
	return buf;
fail:
	saved = errno;
	close(fd);
	free(path);
	free(buf);
	errno = saved;
	return NULL;
}

void ftgl_lines_init(struct ftgl_lines *l, char *buf, size_t len)
{
	l->pos = buf;
	l->end = buf + len;
	l->lineno = 0;
	l->too_long = 0;
}

int ftgl_parse_lines(const char *file, char *buf, size_t len,
		     int (*fn)(void *obj, char *line), void *obj, size_t *skipped)
{
	struct ftgl_lines lines;
	char *line;
	int ret;

	ftgl_lines_init(&lines, buf, len);
	while ((line = ftgl_lines_next(&lines))) {
		ret = fn(obj, line);
		if (ret == -2)
			return ftgl_err_prefix("%s", file);
		if (ret)
			(*skipped)++;
	}
	*skipped += lines.too_long;
	if (*skipped)
		ftgl_warn("%s: %zu malformed lines skipped", file, *skipped);
	return 0;
}

char *ftgl_lines_next(struct ftgl_lines *l)
{
	while (l->pos < l->end) {
		char *line = l->pos;
		char *nl = memchr(line, '\n', l->end - line);
		size_t n;

		if (nl) {
			n = nl - line;
			*nl = '\0';
			l->pos = nl + 1;
		} else {
			n = l->end - line;
			*l->end = '\0';
			l->pos = l->end;
		}
		l->lineno++;
		if (n > FTGL_LINE_MAX) {
			l->too_long++;
			continue;
		}
		/* An embedded NUL ends the line for the parsers: what
		 * follows it on that line is ignored, nothing is read past
		 * the buffer. */
		return line;
	}
	return NULL;
}

int ftgl_split(char *line, char **words, int max)
{
	int n = 0;
	char *p = line;

	for (;;) {
		while (*p == ' ' || *p == '\t')
			p++;
		if (!*p)
			return n;
		if (n == max)
			return max + 1;
		words[n++] = p;
		while (*p && *p != ' ' && *p != '\t')
			p++;
		if (*p)
			*p++ = '\0';
	}
}

static int parse_unsigned(const char *s, int base, uint64_t *out)
{
	unsigned long long v;
	char *end;

	/* strtoull accepts leading blanks and a sign: refuse both. */
	if (!s || !((*s >= '0' && *s <= '9') || (*s >= 'a' && *s <= 'f') ||
		    (*s >= 'A' && *s <= 'F')))
		return -1;
	errno = 0;
	v = strtoull(s, &end, base);
	if (errno || *end || end == s)
		return -1;
	*out = v;
	return 0;
}

int ftgl_parse_hex(const char *s, uint64_t *out)
{
	if (s && s[0] == '0' && (s[1] == 'x' || s[1] == 'X'))
		s += 2;
	return parse_unsigned(s, 16, out);
}

int ftgl_parse_u64(const char *s, uint64_t *out)
{
	if (!s || *s < '0' || *s > '9')
		return -1;
	return parse_unsigned(s, 10, out);
}

int ftgl_parse_int(const char *s, int *out)
{
	uint64_t v;
	bool neg = s && *s == '-';

	if (ftgl_parse_u64(neg ? s + 1 : s, &v) || v > INT32_MAX)
		return -1;
	*out = neg ? -(int)v : (int)v;
	return 0;
}

void ftgl_sort(void *base, size_t n, size_t size,
	       int (*cmp)(const void *, const void *, void *), void *arg)
{
	if (n > 1)
		qsort_r(base, n, size, cmp, arg);
}

void *ftgl_search(const void *key, const void *base, size_t n, size_t size,
		  int (*cmp)(const void *, const void *))
{
	return n ? bsearch(key, base, n, size, cmp) : NULL;
}

bool ftgl_ksym_is_text(char type)
{
	return type == 't' || type == 'T' || type == 'w' || type == 'W';
}

/*
 * "ADDR TYPE NAME" for vmlinux and "ADDR TYPE NAME\t[MODULE]" for a module,
 * as the kernel's s_show() prints them. A name is one word: a line whose
 * name holds blanks is not one the kernel writes, and is refused rather
 * than read as a shorter name, so that the symbol index and the names in
 * reports (trace-syms.c) agree on every line. Leading blanks are allowed.
 * Return 0, or -1 for a line that is not of this form.
 */
int ftgl_ksym_line_parse(char *line, struct ftgl_ksym_line *out)
{
	char *p = line + strspn(line, " \t"), *tab, *end;
	size_t len;

	end = strchr(p, ' ');
	if (!end)
		return -1;
	*end = '\0';
	if (ftgl_parse_hex(p, &out->addr))
		return -1;
	p = end + 1;
	if (!*p || *p == ' ' || *p == '\t' || p[1] != ' ')
		return -1;
	out->type = *p;
	out->name = p + 2;
	out->module = NULL;
	tab = strchr(out->name, '\t');
	if (tab) {
		*tab = '\0';
		len = strlen(tab + 1);
		if (len < 3 || tab[1] != '[' || tab[len] != ']' ||
		    strpbrk(tab + 2, " \t"))
			return -1;
		tab[len] = '\0';
		out->module = tab + 2;
	}
	if (!*out->name || strpbrk(out->name, " "))
		return -1;
	return 0;
}

int ftg_unescape(char *s)
{
	char *r = s, *w = s;

	ftg_error_clear();
	if (!s)
		return ftgl_err(FTG_E_BAD_ESCAPE, EINVAL, "no string");
	while (*r) {
		unsigned int v;

		if (*r != '\\') {
			*w++ = *r++;
			continue;
		}
		if (r[1] < '0' || r[1] > '3' || r[2] < '0' || r[2] > '7' ||
		    r[3] < '0' || r[3] > '7')
			return ftgl_err(FTG_E_BAD_ESCAPE, EINVAL,
					"bad escape in \"%.64s\"", s);
		v = (r[1] - '0') << 6 | (r[2] - '0') << 3 | (r[3] - '0');
		if (!v)
			return ftgl_err(FTG_E_BAD_ESCAPE, EINVAL,
					"escaped NUL in a name");
		*w++ = (char)v;
		r += 4;
	}
	*w = '\0';
	return 0;
}

char *ftgl_unescape_dup(const char *s)
{
	char *copy = strdup(s);

	if (!copy) {
		ftgl_err(FTG_E_SYSTEM, ENOMEM, "out of memory");
		return NULL;
	}
	if (ftg_unescape(copy))
		strcpy(copy, s);	/* not well formed: kept as written */
	return copy;
}

static bool escape_keeps(unsigned char c, unsigned int flags)
{
	if (flags & FTG_ESCAPE_TEXT)
		return c >= 0x20 && c <= 0x7e;
	return c >= 0x21 && c <= 0x7e && c != '\\';
}

size_t ftg_escape(char *buf, size_t size, const char *s, unsigned int flags)
{
	const unsigned char *p = (const unsigned char *)(s ? s : "");
	size_t len = 0, w = 0;
	bool room = size > 0;

	for (; *p; p++) {
		char esc[5];
		size_t n;

		if (escape_keeps(*p, flags)) {
			esc[0] = (char)*p;
			n = 1;
		} else {
			esc[0] = '\\';
			esc[1] = (char)('0' + (*p >> 6));
			esc[2] = (char)('0' + ((*p >> 3) & 7));
			esc[3] = (char)('0' + (*p & 7));
			n = 4;
		}
		if (room && w + n < size) {
			memcpy(buf + w, esc, n);
			w += n;
		} else {
			room = false;
		}
		len += n;
	}
	if (size)
		buf[w] = '\0';
	return len;
}

/* Length of a valid UTF-8 sequence at @s, or 0. */
static size_t utf8_len(const unsigned char *s)
{
	size_t n, i;

	if (s[0] >= 0xc2 && s[0] <= 0xdf)
		n = 2;
	else if (s[0] >= 0xe0 && s[0] <= 0xef)
		n = 3;
	else if (s[0] >= 0xf0 && s[0] <= 0xf4)
		n = 4;
	else
		return 0;
	for (i = 1; i < n; i++)
		if ((s[i] & 0xc0) != 0x80)
			return 0;
	return n;
}

static uint32_t utf8_decode(const unsigned char *s, size_t n)
{
	uint32_t cp = s[0] & (0x7f >> n);
	size_t i;

	for (i = 1; i < n; i++)
		cp = cp << 6 | (s[i] & 0x3f);
	return cp;
}

static void json_code_point(FILE *out, uint32_t cp)
{
	if (cp < 0x10000) {
		fprintf(out, "\\u%04x", cp);
		return;
	}
	cp -= 0x10000;
	fprintf(out, "\\u%04x\\u%04x", 0xd800 + (cp >> 10), 0xdc00 + (cp & 0x3ff));
}

int ftg_fputs_json(FILE *out, const char *str)
{
	const unsigned char *s = (const unsigned char *)(str ? str : "");
	size_t n;

	fputc('"', out);
	while (*s) {
		switch (*s) {
		case '"':  fputs("\\\"", out); break;
		case '\\': fputs("\\\\", out); break;
		case '\n': fputs("\\n", out); break;
		case '\r': fputs("\\r", out); break;
		case '\t': fputs("\\t", out); break;
		default:
			if (*s < 0x20 || *s == 0x7f) {
				fprintf(out, "\\u%04x", *s);
			} else if (*s >= 0x80) {
				n = utf8_len(s);
				if (!n) {
					fprintf(out, "\\u%04x", *s);
					break;
				}
				json_code_point(out, utf8_decode(s, n));
				s += n;
				continue;
			} else {
				fputc(*s, out);
			}
		}
		s++;
	}
	fputc('"', out);
	return ferror(out) ? -1 : 0;
}
