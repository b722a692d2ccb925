// SPDX-License-Identifier: LGPL-2.1
/*
 * Queries on a finished address map: regions, what is at an address (and
 * one line describing it), overlaps, sites outside live text. The map is
 * built in map.c.
 */
#include <inttypes.h>
#include <stdio.h>

#include "ftguard-local.h"

enum ftg_arch ftg_map_arch(const struct ftg_map *map)
{
	return map->arch;
}

const char *ftg_arch_name(enum ftg_arch arch)
{
	switch (arch) {
	case FTG_ARCH_AMD64:
		return "amd64";
	case FTG_ARCH_I386:
		return "i386";
	case FTG_ARCH_ARM64:
		return "arm64";
	default:
		return "unknown";
	}
}

static const char *const region_kind_names[] = {
	[FTG_REGION_CORE_TEXT] = "core-text",
	[FTG_REGION_MODULE_TEXT] = "module-text",
	[FTG_REGION_MODULE_INIT] = "module-init",
	[FTG_REGION_INIT_FREED] = "init-freed",
	[FTG_REGION_MODULE_GONE] = "module-gone",
	[FTG_REGION_VMALLOC] = "vmalloc",
	[FTG_REGION_IOREMAP] = "ioremap",
	[FTG_REGION_VMAP] = "vmap",
	[FTG_REGION_MODULES_RANGE] = "modules-range",
	[FTG_REGION_VMALLOC_RANGE] = "vmalloc-range",
	[FTG_REGION_SHARED_RANGE] = "modules-vmalloc-range",
};

const char *ftg_region_kind_name(enum ftg_region_kind kind)
{
	if ((unsigned int)kind >= FTGL_ARRAY_SIZE(region_kind_names))
		return "?";
	return region_kind_names[kind];
}

size_t ftg_map_region_count(const struct ftg_map *map)
{
	return map->regions.len;
}

const struct ftg_region *ftg_map_region_get(const struct ftg_map *map, size_t i)
{
	return ftgl_vec_at(&map->regions, i);
}

static uint64_t region_size(const struct ftg_region *r)
{
	return r->end - r->start;
}

size_t ftg_map_lookup(const struct ftg_map *map, uint64_t addr,
		      const struct ftg_region **out, size_t max)
{
	const struct ftg_region *r = map->regions.data;
	size_t i, n = 0;

	for (i = 0; i < map->regions.len && r[i].start <= addr; i++) {
		size_t k;

		if (addr >= r[i].end)
			continue;
		n++;
		if (!out || !max)
			continue;
		/* Keep the @max smallest, smallest first: insertion sort
		 * into a bounded array (the largest falls off the end). */
		k = n <= max ? n - 1 : max;
		if (k == max && region_size(out[max - 1]) <= region_size(&r[i]))
			continue;
		if (k == max)
			k--;
		for (; k > 0 && region_size(out[k - 1]) > region_size(&r[i]); k--)
			out[k] = out[k - 1];
		out[k] = &r[i];
	}
	return n;
}

static int describe_region(const struct ftg_region *r, char *buf, size_t len)
{
	const char *owner = r->owner ? r->owner : "?";

	switch (r->kind) {
	case FTG_REGION_CORE_TEXT:
		return snprintf(buf, len, "vmlinux text 0x%" PRIx64 "-0x%" PRIx64,
				r->start, r->end);
	case FTG_REGION_MODULE_TEXT:
		return snprintf(buf, len, "text of module %s 0x%" PRIx64 "-0x%" PRIx64,
				owner, r->start, r->end);
	case FTG_REGION_MODULE_INIT:
		return snprintf(buf, len, "init text of module %s 0x%" PRIx64 "-0x%" PRIx64,
				owner, r->start, r->end);
	case FTG_REGION_INIT_FREED:
		return snprintf(buf, len, "freed init text of %s 0x%" PRIx64 "-0x%" PRIx64
				" (dropped at %" PRIu64 " ms)", owner, r->start,
				r->end, r->dropped_ms);
	case FTG_REGION_MODULE_GONE:
		return snprintf(buf, len, "text of unloaded module %s 0x%" PRIx64 "-0x%" PRIx64
				" (gone at %" PRIu64 " ms)", owner, r->start,
				r->end, r->dropped_ms);
	case FTG_REGION_VMALLOC:
	case FTG_REGION_IOREMAP:
	case FTG_REGION_VMAP: {
		char phys[40] = "";

		if (r->has_phys)
			snprintf(phys, sizeof(phys), ", phys 0x%" PRIx64, r->phys);
		if (r->part && r->owner)
			return snprintf(buf, len, "%s of module %s, %s 0x%" PRIx64 "-0x%" PRIx64
					" (%s)", r->part, r->owner,
					ftg_region_kind_name(r->kind), r->start, r->end,
					r->caller ? r->caller : "no caller");
		return snprintf(buf, len, "%s 0x%" PRIx64 "-0x%" PRIx64 " (%s%s%s%s%s)",
				ftg_region_kind_name(r->kind), r->start, r->end,
				r->caller ? r->caller : "no caller",
				r->caller_module ? " [" : "",
				r->caller_module ? r->caller_module : "",
				r->caller_module ? "]" : "", phys);
	}
	default:
		return snprintf(buf, len, "unmapped space in the %s 0x%" PRIx64 "-0x%" PRIx64,
				ftg_region_kind_name(r->kind), r->start, r->end);
	}
}

int ftg_map_describe(const struct ftg_map *map, uint64_t addr, char *buf,
		     size_t len)
{
	const struct ftg_region *in[16], *primary = NULL, *tomb = NULL;
	size_t k, n = ftg_map_lookup(map, addr, in, FTGL_ARRAY_SIZE(in));
	size_t used;
	int ret;

	if (!n)
		return snprintf(buf, len, "nothing mapped");
	if (n > FTGL_ARRAY_SIZE(in))
		n = FTGL_ARRAY_SIZE(in);
	for (k = 0; k < n; k++) {
		if (ftgl_region_is_tombstone(in[k]->kind)) {
			if (!tomb)
				tomb = in[k];
		} else if (!primary) {
			primary = in[k];
		}
	}
	if (!primary || (ftgl_region_is_range(primary->kind) && tomb))
		primary = tomb;
	ret = describe_region(primary, buf, len);
	for (k = 0; k < n && ret >= 0; k++) {
		if (in[k] == primary || (!ftgl_region_is_tombstone(in[k]->kind) &&
					 in[k]->kind != FTG_REGION_IOREMAP))
			continue;
		used = (size_t)ret < len ? (size_t)ret : len;
		ret += snprintf(buf + used, len - used, "; over ");
		used = (size_t)ret < len ? (size_t)ret : len;
		ret += describe_region(in[k], buf + used, len - used);
	}
	return ret;
}

size_t ftg_map_overlap_count(const struct ftg_map *map)
{
	return map->overlaps.len;
}

const struct ftg_overlap *ftg_map_overlap_get(const struct ftg_map *map, size_t i)
{
	return ftgl_vec_at(&map->overlaps, i);
}

size_t ftg_map_site_count(const struct ftg_map *map)
{
	return map->sites.len;
}

const struct ftg_map_site *ftg_map_site_get(const struct ftg_map *map, size_t i)
{
	return ftgl_vec_at(&map->sites, i);
}

size_t ftg_map_sites_outside(const struct ftg_map *map)
{
	return map->outside;
}
