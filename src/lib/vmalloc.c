// SPDX-License-Identifier: LGPL-2.1
/*
 * /proc/vmallocinfo. Lines look like
 *   0xffffc90000100000-0xffffc90000121000  135168 e1000_probe+0x2f6/0x1200 [e1000e] phys=0x00000000feba0000 ioremap
 *   0xffffc9000001d000-0xffffc9000001f000    8192 gen_pool_add_owner+0x42/0xb0 pages=1 vmalloc N0=1
 *   0xffffc90000200000-0xffffc90000202000    8192 unpurged vm_area
 *   0xffffc90000300000-0xffffc90000302000    8192 vm_map_ram
 * Words after the caller are "key=value" (pages, phys, Nn) or flags.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "ftguard-local.h"

struct ftg_vmalloc {
	struct ftgl_vec areas;	/* struct ftg_vmarea */
	struct ftgl_pool pool;
	size_t skipped;
};

static const struct {
	const char *word;
	unsigned int flag;
} vm_flag_words[] = {
	{ "ioremap", FTG_VM_IOREMAP },
	{ "vmalloc", FTG_VM_VMALLOC },
	{ "vmap", FTG_VM_VMAP },
	{ "user", FTG_VM_USER },
	{ "dma-coherent", FTG_VM_DMA_COHERENT },
	{ "vpages", FTG_VM_VPAGES },
};

static int parse_range(char *word, uint64_t *start, uint64_t *end)
{
	char *dash = strchr(word, '-');

	if (!dash)
		return -1;
	*dash = '\0';
	if (ftgl_parse_hex(word, start) || ftgl_parse_hex(dash + 1, end) ||
	    *end < *start)
		return -1;
	return 0;
}

/* The words after the size: caller [module], then keys and flags. */
static int parse_tail(struct ftg_vmalloc *vm, struct ftg_vmarea *a,
		      char **w, int n)
{
	int i = 0;
	size_t k;

	if (n >= 2 && !strcmp(w[0], "unpurged") && !strcmp(w[1], "vm_area")) {
		a->flags |= FTG_VM_UNPURGED;
		return n == 2 ? 0 : -1;
	}
	if (n >= 1 && !strcmp(w[0], "vm_map_ram")) {
		a->flags |= FTG_VM_MAP_RAM;
		return n == 1 ? 0 : -1;
	}
	if (n >= 1 && strchr(w[0], '+')) {	/* "sym+0x1/0x2" or raw */
		a->caller = ftgl_pool_strdup(&vm->pool, w[0]);
		if (!a->caller)
			return -2;
		i = 1;
	} else if (n >= 1 && !strncmp(w[0], "0x", 2)) {
		a->caller = ftgl_pool_strdup(&vm->pool, w[0]);
		if (!a->caller)
			return -2;
		i = 1;
	}
	if (i == 1 && i < n && w[i][0] == '[') {
		size_t len = strlen(w[i]);

		if (len < 3 || w[i][len - 1] != ']')
			return -1;
		a->caller_module = ftgl_pool_strndup(&vm->pool, w[i] + 1, len - 2);
		if (!a->caller_module)
			return -2;
		i++;
	}
	for (; i < n; i++) {
		if (!strncmp(w[i], "pages=", 6)) {
			if (ftgl_parse_u64(w[i] + 6, &a->pages))
				return -1;
			continue;
		}
		if (!strncmp(w[i], "phys=", 5)) {
			if (ftgl_parse_hex(w[i] + 5, &a->phys))
				return -1;
			a->has_phys = true;
			continue;
		}
		for (k = 0; k < FTGL_ARRAY_SIZE(vm_flag_words); k++)
			if (!strcmp(w[i], vm_flag_words[k].word))
				a->flags |= vm_flag_words[k].flag;
		/* Anything else (N0=1, new flags) is not ours to judge. */
	}
	return 0;
}

#define VM_MAX_WORDS	64

static int parse_line(void *obj, char *line)
{
	struct ftg_vmalloc *vm = obj;
	struct ftg_vmarea *a;
	char *w[VM_MAX_WORDS];
	int n = ftgl_split(line, w, VM_MAX_WORDS);
	uint64_t start, end, size;
	int ret;

	if (n < 3 || n > VM_MAX_WORDS || parse_range(w[0], &start, &end) ||
	    ftgl_parse_u64(w[1], &size))
		return -1;
	a = ftgl_vec_push(&vm->areas);
	if (!a)
		return -2;
	a->start = start;
	a->end = end;
	a->size = size;
	ret = parse_tail(vm, a, w + 2, n - 2);
	if (ret)
		vm->areas.len--;	/* drop the half-filled entry */
	return ret;
}

struct ftg_vmalloc *ftg_vmalloc_read(const struct ftg_root *root)
{
	struct ftg_vmalloc *vm;
	char *buf;
	size_t len;

	ftg_error_clear();
	buf = ftgl_read_file(ftg_root_proc(root), "vmallocinfo", &len);
	if (!buf)
		return NULL;
	vm = calloc(1, sizeof(*vm));
	if (!vm) {
		free(buf);
		ftgl_err(FTG_E_SYSTEM, ENOMEM, "out of memory");
		return NULL;
	}
	ftgl_vec_init(&vm->areas, sizeof(struct ftg_vmarea));
	if (ftgl_parse_lines("vmallocinfo", buf, len, parse_line, vm, &vm->skipped)) {
		ftg_vmalloc_free(vm);
		vm = NULL;
	}
	free(buf);
	return vm;
}

void ftg_vmalloc_free(struct ftg_vmalloc *vm)
{
	if (!vm)
		return;
	ftgl_vec_release(&vm->areas);
	ftgl_pool_release(&vm->pool);
	free(vm);
}

size_t ftg_vmalloc_count(const struct ftg_vmalloc *vm)
{
	return vm->areas.len;
}

size_t ftg_vmalloc_skipped(const struct ftg_vmalloc *vm)
{
	return vm->skipped;
}

const struct ftg_vmarea *ftg_vmalloc_get(const struct ftg_vmalloc *vm, size_t i)
{
	return ftgl_vec_at(&vm->areas, i);
}

const struct ftg_vmarea *ftg_vmalloc_lookup(const struct ftg_vmalloc *vm,
					    uint64_t addr)
{
	size_t i;

	for (i = 0; i < vm->areas.len; i++) {
		const struct ftg_vmarea *a = ftgl_vec_at(&vm->areas, i);

		if (a->start <= addr && addr < a->end)
			return a;
	}
	return NULL;
}
