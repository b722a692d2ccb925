// SPDX-License-Identifier: LGPL-2.1
/*
 * Naming ips as "symbol [module]".
 *
 * libtraceevent resolves an address to its function (name and start)
 * from the kallsyms text it was fed, but keeps the module to itself. The
 * module of each module symbol is therefore indexed here by start address,
 * from the same kallsyms text, and looked up with the start libtraceevent
 * found.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <traceevent/event-parse.h>

#include "ftguard-local.h"
#include "trace-local.h"

static int modsym_cmp(const void *a, const void *b)
{
	const struct trace_modsym *x = a, *y = b;

	return x->addr < y->addr ? -1 : x->addr > y->addr;
}

/* The module list stays short: a linear search keeps one copy per name. */
static const char *intern_module(struct trace_syms *syms, const char *name,
				 size_t len)
{
	char **grown;
	size_t i;

	for (i = 0; i < syms->nr_modules; i++)
		if (strlen(syms->modules[i]) == len &&
		    !strncmp(syms->modules[i], name, len))
			return syms->modules[i];
	grown = realloc(syms->modules, (syms->nr_modules + 1) * sizeof(*grown));
	if (!grown)
		return NULL;
	syms->modules = grown;
	grown[syms->nr_modules] = strndup(name, len);
	if (!grown[syms->nr_modules])
		return NULL;
	return grown[syms->nr_modules++];
}

static int add_modsym(struct trace_syms *syms, size_t *alloc, uint64_t addr,
		      const char *module, size_t len)
{
	struct trace_modsym *grown;

	if (syms->nr_syms == *alloc) {
		*alloc = *alloc ? *alloc * 2 : 256;
		grown = realloc(syms->syms, *alloc * sizeof(*grown));
		if (!grown)
			return -1;
		syms->syms = grown;
	}
	syms->syms[syms->nr_syms].module = intern_module(syms, module, len);
	if (!syms->syms[syms->nr_syms].module)
		return -1;
	syms->syms[syms->nr_syms++].addr = addr;
	return 0;
}

/*
 * trace_syms_load - index the module symbols of a kallsyms text
 * @syms: zeroed table to fill
 * @kallsyms: NUL-terminated /proc/kallsyms text (may be NULL)
 *
 * Lines are read as ftg_kallsyms_read() reads them (ftgl_ksym_line_parse),
 * so that a report names an address with the module the symbol index
 * gives it; lines it refuses are skipped, as libtraceevent skips lines.
 *
 * Return: 0, or -1 with errno ENOMEM.
 */
int trace_syms_load(struct trace_syms *syms, const char *kallsyms)
{
	struct ftgl_ksym_line l;
	size_t alloc = 0;
	char *copy, *line, *end;

	memset(syms, 0, sizeof(*syms));
	if (!kallsyms)
		return 0;
	copy = strdup(kallsyms);
	if (!copy)
		goto nomem;
	for (line = copy; *line; line = end) {
		end = strchrnul(line, '\n');
		if (*end)
			*end++ = '\0';
		if (ftgl_ksym_line_parse(line, &l) || !l.module)
			continue;
		if (add_modsym(syms, &alloc, l.addr, l.module, strlen(l.module)))
			goto nomem;
	}
	free(copy);
	if (syms->nr_syms)
		qsort(syms->syms, syms->nr_syms, sizeof(*syms->syms), modsym_cmp);
	return 0;
nomem:
	free(copy);
	trace_syms_free(syms);
	errno = ENOMEM;
	return -1;
}

void trace_syms_free(struct trace_syms *syms)
{
	size_t i;

	for (i = 0; i < syms->nr_modules; i++)
		free(syms->modules[i]);
	free(syms->modules);
	free(syms->syms);
	memset(syms, 0, sizeof(*syms));
}

static const char *module_of(const struct trace_syms *syms, uint64_t start)
{
	struct trace_modsym key = { .addr = start };
	const struct trace_modsym *hit;

	if (!syms || !syms->nr_syms)
		return NULL;
	hit = bsearch(&key, syms->syms, syms->nr_syms, sizeof(key), modsym_cmp);
	return hit ? hit->module : NULL;
}

/*
 * trace_syms_format - name an address
 * @syms: module index (may be NULL)
 * @tep: handle that was fed the same kallsyms (may be NULL)
 * @addr: the address
 * @buf: output, always NUL-terminated
 * @len: size of @buf
 *
 * Writes "symbol [module]", "symbol" (vmlinux) or "0x<hex>" when no
 * symbol covers @addr. No offset is printed, as "%ps" would.
 */
void trace_syms_format(const struct trace_syms *syms, struct tep_handle *tep,
		       uint64_t addr, char *buf, size_t len)
{
	unsigned long long start;
	const char *name = NULL;
	const char *module;

	if (tep && addr)
		name = tep_find_function(tep, addr);
	if (!name) {
		snprintf(buf, len, "0x%" PRIx64, addr);
		return;
	}
	start = tep_find_function_address(tep, addr);
	module = module_of(syms, start);
	if (module)
		snprintf(buf, len, "%s [%s]", name, module);
	else
		snprintf(buf, len, "%s", name);
}
