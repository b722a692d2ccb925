// SPDX-License-Identifier: LGPL-2.1
/*
 * The address map: what lives where in kernel space, and where the sites
 * fall. Built in two steps: parts are staged by the ftg_map_add_*()
 * calls (copies, so the inputs may be freed), then ftg_map_finish() turns
 * them into the final sorted regions, overlaps and overlaid sites. The
 * module's own modules table is more precise than /proc/modules and
 * sysfs (exact text sizes, init let go or not, tombstones), so when both
 * describe a module the table wins.
 *
 * A module's memory is one vmalloc area for its core and one for its init
 * on 6.1, and one area per part (text, data, rodata, ro_after_init, init
 * text, ...) from 6.4 on. Which area holds what is read from the module's
 * sections in sysfs, not from the kernel's version.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ftguard-local.h"

#define PAGE_SIZE_GUESS	4096

struct ftg_map *ftg_map_new(void)
{
	struct ftg_map *map = calloc(1, sizeof(*map));

	ftg_error_clear();
	if (!map) {
		ftgl_err(FTG_E_SYSTEM, ENOMEM, "out of memory");
		return NULL;
	}
	ftgl_vec_init(&map->staged, sizeof(struct ftgl_staged));
	ftgl_vec_init(&map->site_copies, sizeof(struct ftg_site));
	ftgl_vec_init(&map->mod_sections, sizeof(struct ftgl_mod_section));
	ftgl_vec_init(&map->regions, sizeof(struct ftg_region));
	ftgl_vec_init(&map->overlaps, sizeof(struct ftg_overlap));
	ftgl_vec_init(&map->sites, sizeof(struct ftg_map_site));
	return map;
}

void ftg_map_free(struct ftg_map *map)
{
	if (!map)
		return;
	ftgl_vec_release(&map->staged);
	ftgl_vec_release(&map->site_copies);
	ftgl_vec_release(&map->mod_sections);
	ftgl_vec_release(&map->regions);
	ftgl_vec_release(&map->overlaps);
	ftgl_vec_release(&map->sites);
	ftgl_pool_release(&map->pool);
	free(map);
}

static const char *pooled(struct ftg_map *map, const char *s, int *failed)
{
	const char *p;

	if (!s)
		return NULL;
	p = ftgl_pool_strdup(&map->pool, s);
	if (!p)
		*failed = 1;
	return p;
}

/* The map's parts are frozen by ftg_map_finish(). */
static int check_open(const struct ftg_map *map)
{
	if (map->finished)
		return ftgl_err(FTG_E_BAD_ARGUMENT, EBUSY, "map: already finished");
	return 0;
}

/* Stages a region; strings are copied. Empty ranges are dropped. */
static int stage_dropped(struct ftg_map *map, enum ftgl_map_source src,
			 enum ftg_region_kind kind, uint64_t start, uint64_t end,
			 const char *owner, bool live, uint64_t dropped_ms)
{
	struct ftgl_staged *s;
	int failed = 0;

	if (end <= start)
		return 0;
	s = ftgl_vec_push(&map->staged);
	if (!s)
		return -1;
	s->src = src;
	s->r.kind = kind;
	s->r.start = start;
	s->r.end = end;
	s->r.live = live;
	s->r.dropped_ms = dropped_ms;
	s->r.owner = pooled(map, owner, &failed);
	return failed ? ftgl_err(FTG_E_SYSTEM, ENOMEM, "out of memory") : 0;
}

static int stage(struct ftg_map *map, enum ftgl_map_source src, enum ftg_region_kind kind,
		 uint64_t start, uint64_t end, const char *owner, bool live)
{
	return stage_dropped(map, src, kind, start, end, owner, live, 0);
}

static struct ftgl_staged *last_staged(struct ftg_map *map)
{
	return ftgl_vec_at(&map->staged, map->staged.len - 1);
}

int ftg_map_add_kallsyms(struct ftg_map *map, const struct ftg_kallsyms *ks)
{
	const struct ftg_ksym *is = NULL, *ie = NULL;
	uint64_t start, end;

	ftg_error_clear();
	if (check_open(map))
		return -1;

	if (!ks)
		return 0;
	if (ftg_kallsyms_text_bounds(ks, &start, &end))
		return -1;
	if (stage(map, FTGL_SRC_KALLSYMS, FTG_REGION_CORE_TEXT, start, end,
		  "vmlinux", true))
		return -1;
	/* vmlinux's __init text is freed once boot is over. */
	ftg_kallsyms_find(ks, "_sinittext", "vmlinux", &is, 1);
	ftg_kallsyms_find(ks, "_einittext", "vmlinux", &ie, 1);
	if (is && ie && is->addr && ie->addr > is->addr)
		return stage(map, FTGL_SRC_KALLSYMS, FTG_REGION_INIT_FREED, is->addr,
			     ie->addr, "vmlinux", false);
	return 0;
}

/* End of @module's section at @start: the next section above it. */
static uint64_t section_end(const struct ftg_sections *sec, const char *module,
			    uint64_t start)
{
	uint64_t end = UINT64_MAX;
	size_t i, n = ftg_sections_count(sec);

	for (i = 0; i < n; i++) {
		const struct ftg_section *s = ftg_sections_get(sec, i);

		if (!strcmp(s->module, module) && s->addr > start && s->addr < end)
			end = s->addr;
	}
	return end == UINT64_MAX ? start + PAGE_SIZE_GUESS : end;
}

/*
 * The kernel lays out a module's full symbol table with its init data
 * (layout_symtab()): sysfs keeps .symtab and .strtab pointing there
 * after init is freed, when the pages may be another module's by then.
 */
static bool is_init_section(const char *name)
{
	return !strncmp(name, ".init", 5) || !strcmp(name, ".symtab") ||
	       !strcmp(name, ".strtab");
}

/* Keeps @m's sections for telling its areas apart at ftg_map_finish(). */
static int keep_sections(struct ftg_map *map, const struct ftg_proc_module *m,
			 const struct ftg_sections *sec)
{
	/* Past init, init sections name freed memory that others may reuse. */
	bool init_live = !strcmp(m->state, "Loading");
	size_t i, n = ftg_sections_count(sec);
	const char *module = NULL;

	for (i = 0; i < n; i++) {
		const struct ftg_section *s = ftg_sections_get(sec, i);
		struct ftgl_mod_section *k;

		if (strcmp(s->module, m->name) || !s->addr)
			continue;
		if (!module && !(module = ftgl_pool_strdup(&map->pool, m->name)))
			return -1;
		k = ftgl_vec_push(&map->mod_sections);
		if (!k)
			return -1;
		k->addr = s->addr;
		k->module = module;
		k->name = ftgl_pool_strdup(&map->pool, s->name);
		k->live = init_live || !is_init_section(s->name);
		if (!k->name)
			return -1;
	}
	return 0;
}

int ftg_map_add_proc_modules(struct ftg_map *map, const struct ftg_proc_modules *pm,
			     const struct ftg_sections *sec)
{
	size_t i, n = pm ? ftg_proc_modules_count(pm) : 0;

	ftg_error_clear();
	if (check_open(map))
		return -1;

	for (i = 0; i < n; i++) {
		const struct ftg_proc_module *m = ftg_proc_modules_get(pm, i);
		uint64_t init;

		if (m->base && stage(map, FTGL_SRC_PROC, FTG_REGION_MODULE_TEXT, m->base,
				     m->base + m->size, m->name, true))
			return -1;
		if (sec && keep_sections(map, m, sec))
			return ftgl_err(FTG_E_SYSTEM, ENOMEM, "out of memory");
		if (!sec || ftg_sections_find(sec, m->name, ".init.text", &init) ||
		    !init)
			continue;
		if (!strcmp(m->state, "Loading")) {
			if (stage(map, FTGL_SRC_PROC, FTG_REGION_MODULE_INIT, init,
				  section_end(sec, m->name, init), m->name, true))
				return -1;
		} else if (stage(map, FTGL_SRC_PROC, FTG_REGION_INIT_FREED, init,
				 section_end(sec, m->name, init), m->name, false)) {
			return -1;
		}
	}
	return 0;
}

/* Allocations that legitimately hold module (or trampoline) text. */
static bool is_text_allocation(const char *caller)
{
	static const char *const prefixes[] = {
		"module_alloc", "move_module", "load_module",
		"layout_and_allocate", "alloc_tramp", "create_trampoline",
		"alloc_insn_page", "bpf_jit", "execmem_alloc",
		"module_memory_alloc",
	};
	size_t i;

	for (i = 0; caller && i < FTGL_ARRAY_SIZE(prefixes); i++)
		if (!strncmp(caller, prefixes[i], strlen(prefixes[i])))
			return true;
	return false;
}

int ftg_map_add_vmalloc(struct ftg_map *map, const struct ftg_vmalloc *vm)
{
	size_t i, n = vm ? ftg_vmalloc_count(vm) : 0;

	ftg_error_clear();
	if (check_open(map))
		return -1;

	for (i = 0; i < n; i++) {
		const struct ftg_vmarea *a = ftg_vmalloc_get(vm, i);
		enum ftg_region_kind kind = FTG_REGION_VMAP;
		struct ftgl_staged *s;
		int failed = 0;

		if (a->flags & FTG_VM_UNPURGED || a->end <= a->start)
			continue;
		if (a->flags & FTG_VM_IOREMAP)
			kind = FTG_REGION_IOREMAP;
		else if (a->flags & FTG_VM_VMALLOC)
			kind = FTG_REGION_VMALLOC;
		if (stage(map, FTGL_SRC_VMALLOC, kind, a->start, a->end,
			  a->caller_module, false))
			return -1;
		s = last_staged(map);
		s->r.caller = pooled(map, a->caller, &failed);
		s->r.caller_module = pooled(map, a->caller_module, &failed);
		s->r.phys = a->phys;
		s->r.has_phys = a->has_phys;
		/* vmallocinfo's size counts the guard page; pages= does not. */
		s->mapped_end = a->pages && a->start + a->pages * PAGE_SIZE_GUESS < a->end ?
				a->start + a->pages * PAGE_SIZE_GUESS : a->end;
		if (failed)
			return ftgl_err(FTG_E_SYSTEM, ENOMEM, "out of memory");
	}
	return 0;
}

int ftg_map_add_status(struct ftg_map *map, const struct ftg_status *st)
{
	ftg_error_clear();
	if (check_open(map))
		return -1;
	if (!st)
		return 0;
	map->status = *st;
	map->have_status = true;
	if (st->modules_vaddr == st->vmalloc_start &&
	    st->modules_end == st->vmalloc_end)
		return stage(map, FTGL_SRC_STATUS, FTG_REGION_SHARED_RANGE,
			     st->modules_vaddr, st->modules_end, NULL, false);
	if (stage(map, FTGL_SRC_STATUS, FTG_REGION_MODULES_RANGE, st->modules_vaddr,
		  st->modules_end, NULL, false))
		return -1;
	return stage(map, FTGL_SRC_STATUS, FTG_REGION_VMALLOC_RANGE,
		     st->vmalloc_start, st->vmalloc_end, NULL, false);
}

int ftg_map_add_kmodules(struct ftg_map *map, const struct ftg_kmodules *mods)
{
	size_t i, n = mods ? ftg_kmodules_count(mods) : 0;

	ftg_error_clear();
	if (check_open(map))
		return -1;

	for (i = 0; i < n; i++) {
		const struct ftg_kmodule *m = ftg_kmodules_get(mods, i);
		bool gone = m->state == FTG_KMODULE_GONE;
		enum ftg_region_kind init_kind = FTG_REGION_MODULE_INIT;

		if (m->core_base &&
		    stage_dropped(map, FTGL_SRC_KMOD,
				  gone ? FTG_REGION_MODULE_GONE : FTG_REGION_MODULE_TEXT,
				  m->core_base, m->core_base + m->core_text_size,
				  m->name, !gone, gone ? m->dropped_ms : 0))
			return -1;
		if (m->init == FTG_INIT_NONE || !m->init_base)
			continue;
		if (m->init == FTG_INIT_DROPPED || gone)
			init_kind = FTG_REGION_INIT_FREED;
		if (stage_dropped(map, FTGL_SRC_KMOD, init_kind, m->init_base,
				  m->init_base + m->init_text_size, m->name,
				  init_kind == FTG_REGION_MODULE_INIT,
				  init_kind == FTG_REGION_INIT_FREED ? m->dropped_ms : 0))
			return -1;
	}
	return 0;
}

int ftg_map_add_sites(struct ftg_map *map, const struct ftg_sites *sites)
{
	size_t i, n = sites ? ftg_sites_count(sites) : 0;

	ftg_error_clear();
	if (check_open(map))
		return -1;

	for (i = 0; i < n; i++) {
		const struct ftg_site *s = ftg_sites_get(sites, i);
		struct ftg_site *copy = ftgl_vec_push(&map->site_copies);
		int failed = 0;

		if (!copy)
			return -1;
		*copy = *s;
		copy->owner = pooled(map, s->owner, &failed);
		copy->name = pooled(map, s->name, &failed);
		if (failed)
			return ftgl_err(FTG_E_SYSTEM, ENOMEM, "out of memory");
	}
	return 0;
}

/* Does the module table describe @module? Then sysfs guesses give way. */
static bool kmod_knows(const struct ftg_map *map, const char *module)
{
	size_t i;

	for (i = 0; module && i < map->staged.len; i++) {
		const struct ftgl_staged *s = ftgl_vec_at(&map->staged, i);

		if (s->src == FTGL_SRC_KMOD && s->r.owner && !strcmp(s->r.owner, module))
			return true;
	}
	return false;
}

static int cmp_region(const void *a, const void *b, void *arg)
{
	const struct ftg_region *x = a, *y = b;

	if (x->start != y->start)
		return x->start < y->start ? -1 : 1;
	if (x->end != y->end)
		return x->end > y->end ? -1 : 1;	/* larger first */
	return (int)x->kind - (int)y->kind;
}

/*
 * Overlaps that mean something: a tombstone under anything current
 * (address reuse: a stale site there would patch someone else's bytes),
 * live text under an ioremap, two live texts. A module's text inside its
 * own vmalloc allocation, and everything inside the MODULES/VMALLOC
 * ranges, is how things are meant to be.
 */
static bool overlap_matters(const struct ftg_region *a, const struct ftg_region *b)
{
	bool ta = ftgl_region_is_tombstone(a->kind), tb = ftgl_region_is_tombstone(b->kind);

	if (ftgl_region_is_range(a->kind) || ftgl_region_is_range(b->kind) || (ta && tb))
		return false;
	if (ta || tb) {
		const struct ftg_region *cur = ta ? b : a;

		/* The allocation holding a module's text is reported
		 * through that text region itself. */
		return cur->kind == FTG_REGION_IOREMAP || ftgl_region_is_text(cur->kind) ||
		       !is_text_allocation(cur->caller);
	}
	if (a->kind == FTG_REGION_IOREMAP || b->kind == FTG_REGION_IOREMAP)
		return ftgl_region_is_text(a->kind) || ftgl_region_is_text(b->kind);
	return ftgl_region_is_text(a->kind) && ftgl_region_is_text(b->kind);
}

static int find_overlaps(struct ftg_map *map)
{
	const struct ftg_region *r = map->regions.data;
	size_t i, j, n = map->regions.len;

	for (i = 0; i < n; i++) {
		for (j = i + 1; j < n && r[j].start < r[i].end; j++) {
			struct ftg_overlap *o;

			if (!overlap_matters(&r[i], &r[j]))
				continue;
			o = ftgl_vec_push(&map->overlaps);
			if (!o)
				return -1;
			o->a = &r[i];
			o->b = &r[j];
		}
	}
	return 0;
}

/*
 * Where the core kernel's text lies tells the layout: amd64 links it in
 * the top 2 GiB (the kernel code model), arm64 in its vmalloc area below
 * that, i386 under 4 GiB. Without it, the width of the addresses.
 */
static enum ftg_arch guess_arch(const struct ftg_map *map)
{
	const struct ftg_region *r = map->regions.data;
	bool any = false;
	size_t i;

	for (i = 0; i < map->regions.len; i++) {
		if (r[i].kind != FTG_REGION_CORE_TEXT)
			continue;
		if (r[i].start >= 0xffffffff80000000ULL)
			return FTG_ARCH_AMD64;
		return r[i].start > UINT32_MAX ? FTG_ARCH_ARM64 : FTG_ARCH_I386;
	}
	if (map->have_status && map->status.vmalloc_end) {
		if (map->status.vmalloc_end > UINT32_MAX + 1ULL)
			return FTG_ARCH_AMD64;
		return FTG_ARCH_I386;
	}
	for (i = 0; i < map->regions.len; i++) {
		if (r[i].end > UINT32_MAX + 1ULL)
			return FTG_ARCH_AMD64;
		any = true;
	}
	return any ? FTG_ARCH_I386 : FTG_ARCH_UNKNOWN;
}

static int overlay_sites(struct ftg_map *map)
{
	size_t i;

	for (i = 0; i < map->site_copies.len; i++) {
		const struct ftg_site *s = ftgl_vec_at(&map->site_copies, i);
		const struct ftg_region *in[16];
		struct ftg_map_site *ms = ftgl_vec_push(&map->sites);
		size_t k, n;

		if (!ms)
			return -1;
		ms->site = s;
		n = ftg_map_lookup(map, s->addr, in, FTGL_ARRAY_SIZE(in));
		if (n > FTGL_ARRAY_SIZE(in))
			n = FTGL_ARRAY_SIZE(in);
		ms->region = n ? in[0] : NULL;
		/* In live text unless an ioremap covers it; a tombstone under
		 * live text is a module reloaded at the same place. */
		for (k = 0; k < n; k++) {
			if (in[k]->kind == FTG_REGION_IOREMAP) {
				ms->in_live_text = false;
				break;
			}
			if (ftgl_region_is_text(in[k]->kind) && in[k]->live)
				ms->in_live_text = true;
		}
		if (!ms->in_live_text)
			map->outside++;
	}
	return 0;
}

/* Parts of a module's memory, in the order their names are joined. */
enum part_bit {
	PART_TEXT = 1 << 0, PART_RODATA = 1 << 1, PART_RO_AFTER_INIT = 1 << 2,
	PART_DATA = 1 << 3, PART_INIT_TEXT = 1 << 4, PART_INIT_RODATA = 1 << 5,
	PART_INIT_DATA = 1 << 6,
};

static const char *const part_names[] = {
	"text", "rodata", "ro-after-init", "data", "init-text", "init-rodata",
	"init-data",
};

/*
 * Which part a section lands in. The sections that name a part outright
 * decide; the others (__param, .orc_unwind, __jump_table...) only label
 * an area that holds none of those, as they move between parts across
 * kernels (__jump_table is data on 6.1, ro_after_init later).
 */
static unsigned int section_part(const char *name, bool *decisive)
{
	static const struct {
		const char *name;
		unsigned int part;
	} decides[] = {
		{ ".text", PART_TEXT }, { ".rodata", PART_RODATA },
		{ ".data..ro_after_init", PART_RO_AFTER_INIT },
		{ ".data", PART_DATA }, { ".bss", PART_DATA },
		{ ".init.text", PART_INIT_TEXT }, { ".init.rodata", PART_INIT_RODATA },
		{ ".init.data", PART_INIT_DATA },
	};
	static const char *const ro_prefixes[] = {
		".rodata", "__param", "__mcount_loc", "__ksymtab", "__kcrctab",
		".orc_", "__versions", ".note", ".smp_locks", ".retpoline_sites",
		".return_sites", ".call_sites", ".ibt_endbr_seal", ".altinstructions",
		"__tracepoints_ptrs", "__tracepoints_strings", ".modinfo",
		"__ex_table", ".static_call_sites",
	};
	size_t i;

	*decisive = true;
	for (i = 0; i < FTGL_ARRAY_SIZE(decides); i++)
		if (!strcmp(name, decides[i].name))
			return decides[i].part;
	*decisive = false;
	if (is_init_section(name))
		return strstr(name, ".text") ? PART_INIT_TEXT : PART_INIT_DATA;
	if (strstr(name, "text") || !strcmp(name, ".altinstr_replacement"))
		return PART_TEXT;
	if (!strcmp(name, "__jump_table"))
		return PART_RO_AFTER_INIT;
	for (i = 0; i < FTGL_ARRAY_SIZE(ro_prefixes); i++)
		if (!strncmp(name, ro_prefixes[i], strlen(ro_prefixes[i])))
			return PART_RODATA;
	return PART_DATA;
}

static int cmp_mod_section(const void *a, const void *b, void *arg)
{
	const struct ftgl_mod_section *x = a, *y = b;

	(void)arg;
	return x->addr < y->addr ? -1 : x->addr > y->addr;
}

/* "text", "text+rodata+data", ... pooled; NULL for no part. */
static const char *part_name(struct ftg_map *map, unsigned int parts)
{
	char buf[128] = "";
	size_t i;

	for (i = 0; i < FTGL_ARRAY_SIZE(part_names); i++) {
		if (!(parts & (1U << i)))
			continue;
		if (*buf)
			strcat(buf, "+");
		strcat(buf, part_names[i]);
	}
	return *buf ? ftgl_pool_strdup(&map->pool, buf) : NULL;
}

/*
 * Names the owner and the part of each module allocation from the live
 * sections that start inside it. An area holding sections of two modules
 * is left unnamed rather than given to either.
 */
static int label_module_areas(struct ftg_map *map)
{
	const struct ftgl_mod_section *ms = map->mod_sections.data;
	size_t i, n = map->mod_sections.len;

	ftgl_sort(map->mod_sections.data, n, sizeof(*ms), cmp_mod_section, NULL);
	for (i = 0; i < map->staged.len; i++) {
		struct ftgl_staged *s = ftgl_vec_at(&map->staged, i);
		unsigned int decided = 0, guessed = 0;
		const char *owner = NULL;
		bool mixed = false;
		size_t lo = 0, hi = n;

		if (s->src != FTGL_SRC_VMALLOC || !is_text_allocation(s->r.caller))
			continue;
		while (lo < hi) {	/* first section at or above the area */
			size_t mid = lo + (hi - lo) / 2;

			if (ms[mid].addr < s->r.start)
				lo = mid + 1;
			else
				hi = mid;
		}
		for (; lo < n && ms[lo].addr < s->r.end; lo++) {
			bool decisive;
			unsigned int part;

			if (!ms[lo].live)
				continue;
			if (owner && strcmp(owner, ms[lo].module))
				mixed = true;
			owner = ms[lo].module;
			part = section_part(ms[lo].name, &decisive);
			if (decisive)
				decided |= part;
			else
				guessed |= part;
		}
		if (!owner || mixed)
			continue;
		s->r.owner = owner;
		s->r.part = part_name(map, decided ? decided : guessed);
		if (!s->r.part)
			return ftgl_err(FTG_E_SYSTEM, ENOMEM, "out of memory");
	}
	return 0;
}

/*
 * /proc/modules gives a module's text base and the size of all its
 * parts: where the parts are separate areas (6.4+) that size runs past
 * the text into whatever follows. The text ends with the pages of the
 * area that holds it.
 */
static void clip_to_areas(struct ftg_map *map)
{
	size_t i, j;

	for (i = 0; i < map->staged.len; i++) {
		struct ftgl_staged *t = ftgl_vec_at(&map->staged, i);

		if (t->src != FTGL_SRC_PROC || !t->r.live)
			continue;
		for (j = 0; j < map->staged.len; j++) {
			const struct ftgl_staged *a = ftgl_vec_at(&map->staged, j);

			if (a->src != FTGL_SRC_VMALLOC || !is_text_allocation(a->r.caller) ||
			    t->r.start < a->r.start || t->r.start >= a->mapped_end)
				continue;
			if (t->r.end > a->mapped_end)
				t->r.end = a->mapped_end;
			break;
		}
	}
}

int ftg_map_finish(struct ftg_map *map)
{
	size_t i;

	ftg_error_clear();
	if (map->finished)
		return 0;
	if (label_module_areas(map))
		return -1;
	clip_to_areas(map);
	for (i = 0; i < map->staged.len; i++) {
		const struct ftgl_staged *s = ftgl_vec_at(&map->staged, i);
		struct ftg_region *r;

		if (s->src == FTGL_SRC_PROC && kmod_knows(map, s->r.owner))
			continue;
		r = ftgl_vec_push(&map->regions);
		if (!r)
			return -1;
		*r = s->r;
	}
	ftgl_sort(map->regions.data, map->regions.len, sizeof(struct ftg_region),
		  cmp_region, NULL);
	map->finished = true;
	map->arch = guess_arch(map);
	if (find_overlaps(map) || overlay_sites(map))
		return -1;
	return 0;
}

struct ftg_map *ftg_map_load(const struct ftg_root *root)
{
	ftg_error_clear();
	return ftg_map_load_with(root, NULL, 0);
}

struct ftg_map *ftg_map_load_with(const struct ftg_root *root,
				  const struct ftg_kallsyms *given,
				  unsigned int flags)
{
	struct ftg_kallsyms *ks = NULL;
	const struct ftg_kallsyms *syms = given;
	struct ftg_proc_modules *pm = NULL;
	struct ftg_sections *sec = NULL;
	struct ftg_vmalloc *vm = NULL;
	struct ftg_kmodules *km = NULL;
	struct ftg_sites *sites = NULL;
	struct ftg_status st;
	bool have_st;
	struct ftg_map *map = NULL;
	int ret = -1;

	ftg_error_clear();
	if (!syms)
		syms = ks = ftg_kallsyms_read(root);
	pm = syms ? ftg_proc_modules_read(root) : NULL;
	if (!pm)
		goto out;
	/* The rest is optional: a missing part only leaves a gap. */
	sec = ftg_sections_read(root);
	vm = ftg_vmalloc_read(root);
	have_st = !ftg_status_read(root, &st);
	if (have_st) {
		km = ftg_kmodules_read(root);
		if (!(flags & FTG_MAP_NO_SITES))
			sites = ftg_sites_read(root);
	}
	map = ftg_map_new();
	if (!map)
		goto out;
	ret = ftg_map_add_kallsyms(map, syms);
	if (ret && errno != ENOENT)
		goto out;
	if (ret)	/* hidden addresses: say so, go on */
		ftgl_warn("%s", ftg_error_last());
	ret = ftg_map_add_proc_modules(map, pm, sec) ||
	      ftg_map_add_vmalloc(map, vm) ||
	      ftg_map_add_status(map, have_st ? &st : NULL) ||
	      ftg_map_add_kmodules(map, km) ||
	      ftg_map_add_sites(map, sites) ||
	      ftg_map_finish(map);
out:
	ftg_kallsyms_free(ks);
	ftg_proc_modules_free(pm);
	ftg_sections_free(sec);
	ftg_vmalloc_free(vm);
	ftg_kmodules_free(km);
	ftg_sites_free(sites);
	if (ret) {
		ftg_map_free(map);
		return NULL;
	}
	ftg_error_clear();
	return map;
}
