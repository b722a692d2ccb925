// SPDX-License-Identifier: GPL-2.0
/*
 * `ftguard map`: the kernel's address map (text, module core and init,
 * tombstones of freed init, vmalloc and ioremap areas) with the sites laid
 * over it; or what lies at one address.
 */
#include <errno.h>
#include <string.h>
#include <time.h>

#include "cmd/ftguard-cmd.h"

#define MAP_LOOKUP_MAX 8

static void region_detail_text(const struct ftg_region *r)
{
	if (r->part)
		printf(" %s", r->part);
	if (r->caller) {
		printf(" caller ");
		ftg_print_name(stdout, r->caller);
		if (r->caller_module) {
			printf(" [");
			ftg_print_name(stdout, r->caller_module);
			putchar(']');
		}
	}
	if (r->has_phys)
		printf(" phys 0x%llx", (unsigned long long)r->phys);
	if (r->kind == FTG_REGION_INIT_FREED || r->kind == FTG_REGION_MODULE_GONE)
		printf(" dropped at %llu ms", (unsigned long long)r->dropped_ms);
}

static void region_text(const struct ftg_region *r, int digits)
{
	printf("0x%0*llx 0x%0*llx %-21s %-4s ", digits, (unsigned long long)r->start,
	       digits, (unsigned long long)r->end, ftg_region_kind_name(r->kind),
	       r->live ? "live" : "-");
	ftg_print_name(stdout, r->owner ? r->owner : "-");
	region_detail_text(r);
	putchar('\n');
}

static void region_json(struct ftg_json *j, const char *key, const struct ftg_region *r)
{
	ftg_json_object_begin(j, key);
	ftg_json_hex(j, "start", r->start);
	ftg_json_hex(j, "end", r->end);
	ftg_json_string(j, "kind", ftg_region_kind_name(r->kind));
	ftg_json_bool(j, "live", r->live);
	ftg_json_string(j, "owner", r->owner);
	ftg_json_string(j, "caller", r->caller);
	ftg_json_string(j, "caller_module", r->caller_module);
	ftg_json_string(j, "part", r->part);
	if (r->has_phys)
		ftg_json_hex(j, "phys", r->phys);
	else
		ftg_json_null(j, "phys");
	if (r->kind == FTG_REGION_INIT_FREED || r->kind == FTG_REGION_MODULE_GONE)
		ftg_json_uint(j, "dropped_ms", r->dropped_ms);
	ftg_json_object_end(j);
}

static void site_text(const struct ftg_map_site *ms, int digits)
{
	printf("  0x%0*llx %-9s ", digits, (unsigned long long)ms->site->addr,
	       ftg_site_state_name(ms->site->state));
	ftg_print_name(stdout, ms->site->owner);
	putchar(':');
	ftg_print_name(stdout, ms->site->name);
	if (ms->region) {
		printf(" in %s ", ftg_region_kind_name(ms->region->kind));
		ftg_print_name(stdout, ms->region->owner ? ms->region->owner : "-");
		region_detail_text(ms->region);
	} else {
		printf(" in nothing mapped");
	}
	putchar('\n');
}

/*
 * "kernel 6.12.118+deb12-amd64 x86_64 (snapshot saved 2026-12-04 03:51
 * UTC), ibt yes (config), ...": which kernel the addresses belong to.
 */
static void kernel_text(const struct ftg_kernel_info *k)
{
	int f;

	printf("kernel ");
	if (*k->release) {
		ftg_print_name(stdout, k->release);
		putchar(' ');
		ftg_print_name(stdout, *k->machine ? k->machine : k->arch);
	} else {
		printf("unknown");
	}
	if (k->snapshot) {
		time_t t = (time_t)k->created;
		char when[32] = "at an unknown time";
		struct tm tm;

		if (t && gmtime_r(&t, &tm))
			strftime(when, sizeof(when), "%Y-%m-%d %H:%M UTC", &tm);
		printf(" (snapshot saved %s)", when);
	}
	for (f = 0; f < FTG_KFEAT_COUNT; f++) {
		if (k->feature[f] == FTG_FEATURE_UNKNOWN)
			continue;
		printf(", %s %s (", ftg_kernel_feature_name(f),
		       k->feature[f] == FTG_FEATURE_YES ? "yes" : "no");
		ftg_print_name(stdout, k->feature_source[f]);
		putchar(')');
	}
	putchar('\n');
}

static void kernel_json(struct ftg_json *j, const struct ftg_kernel_info *k)
{
	int f;

	ftg_json_object_begin(j, "kernel");
	ftg_json_bool(j, "snapshot", k->snapshot);
	if (k->snapshot && k->created)
		ftg_json_int(j, "created", k->created);
	ftg_json_string(j, "arch", k->arch);
	ftg_json_string(j, "release", *k->release ? k->release : NULL);
	ftg_json_string(j, "machine", *k->machine ? k->machine : NULL);
	ftg_json_string(j, "version", *k->version ? k->version : NULL);
	ftg_json_string(j, "config", *k->config ? k->config : NULL);
	ftg_json_object_begin(j, "features");
	for (f = 0; f < FTG_KFEAT_COUNT; f++) {
		if (k->feature[f] == FTG_FEATURE_UNKNOWN)
			ftg_json_null(j, ftg_kernel_feature_name(f));
		else
			ftg_json_bool(j, ftg_kernel_feature_name(f),
				      k->feature[f] == FTG_FEATURE_YES);
	}
	ftg_json_object_end(j);
	ftg_json_object_end(j);
}

static int map_digits(const struct ftg_map *map)
{
	return ftg_map_arch(map) == FTG_ARCH_I386 ? 8 : 16;
}

static void map_all_text(const struct ftg_map *map, const struct ftg_kernel_info *k)
{
	int digits = map_digits(map);
	size_t i;

	if (k)
		kernel_text(k);
	printf("arch %s, %zu regions, %zu sites (%zu outside live text)\n",
	       ftg_arch_name(ftg_map_arch(map)), ftg_map_region_count(map),
	       ftg_map_site_count(map), ftg_map_sites_outside(map));
	printf("%-*s %-*s %-21s %-4s %s\n", digits + 2, "START", digits + 2, "END",
	       "KIND", "LIVE", "OWNER");
	for (i = 0; i < ftg_map_region_count(map); i++)
		region_text(ftg_map_region_get(map, i), digits);
	if (ftg_map_overlap_count(map)) {
		printf("\noverlapping regions:\n");
		for (i = 0; i < ftg_map_overlap_count(map); i++) {
			const struct ftg_overlap *o = ftg_map_overlap_get(map, i);

			printf("  ");
			region_text(o->a, digits);
			printf("    overlaps ");
			region_text(o->b, digits);
		}
	}
	if (ftg_map_sites_outside(map)) {
		printf("\nsites outside live text:\n");
		for (i = 0; i < ftg_map_site_count(map); i++) {
			const struct ftg_map_site *ms = ftg_map_site_get(map, i);

			if (!ms->in_live_text)
				site_text(ms, digits);
		}
	}
}

static void map_all_json(const struct ftg_map *map, const struct ftg_kernel_info *k)
{
	struct ftg_json *j = ftg_json_new(stdout);
	size_t i;

	ftg_json_object_begin(j, NULL);
	ftg_json_string(j, "arch", ftg_arch_name(ftg_map_arch(map)));
	if (k)
		kernel_json(j, k);
	ftg_json_array_begin(j, "regions");
	for (i = 0; i < ftg_map_region_count(map); i++)
		region_json(j, NULL, ftg_map_region_get(map, i));
	ftg_json_array_end(j);
	ftg_json_array_begin(j, "overlaps");
	for (i = 0; i < ftg_map_overlap_count(map); i++) {
		const struct ftg_overlap *o = ftg_map_overlap_get(map, i);

		ftg_json_object_begin(j, NULL);
		region_json(j, "a", o->a);
		region_json(j, "b", o->b);
		ftg_json_object_end(j);
	}
	ftg_json_array_end(j);
	ftg_json_array_begin(j, "sites");
	for (i = 0; i < ftg_map_site_count(map); i++) {
		const struct ftg_map_site *ms = ftg_map_site_get(map, i);

		ftg_json_object_begin(j, NULL);
		ftg_json_hex(j, "addr", ms->site->addr);
		ftg_json_string(j, "name", ms->site->name);
		ftg_json_string(j, "owner", ms->site->owner);
		ftg_json_string(j, "state", ftg_site_state_name(ms->site->state));
		ftg_json_bool(j, "in_live_text", ms->in_live_text);
		if (ms->region)
			region_json(j, "region", ms->region);
		else
			ftg_json_null(j, "region");
		ftg_json_object_end(j);
	}
	ftg_json_array_end(j);
	ftg_json_object_end(j);
	ftg_json_free(j);
}

static int map_at(const struct ftg_map *map, uint64_t addr, bool json)
{
	const struct ftg_region *found[MAP_LOOKUP_MAX];
	size_t i, n = ftg_map_lookup(map, addr, found, MAP_LOOKUP_MAX);
	char line[512];

	if (n > MAP_LOOKUP_MAX)
		n = MAP_LOOKUP_MAX;
	ftg_map_describe(map, addr, line, sizeof(line));
	if (json) {
		struct ftg_json *j = ftg_json_new(stdout);

		ftg_json_object_begin(j, NULL);
		ftg_json_hex(j, "addr", addr);
		ftg_json_string(j, "description", line);
		ftg_json_array_begin(j, "regions");
		for (i = 0; i < n; i++)
			region_json(j, NULL, found[i]);
		ftg_json_array_end(j);
		ftg_json_object_end(j);
		ftg_json_free(j);
	} else {
		printf("0x%llx: ", (unsigned long long)addr);
		ftg_print_safe(stdout, line);
		putchar('\n');
		for (i = 0; i < n; i++) {
			printf("  ");
			region_text(found[i], map_digits(map));
		}
	}
	return n ? FTG_CMD_OK : FTG_CMD_REFUSED;
}

static int map_exec(struct ftg_cmd_ctx *ctx, const struct ftg_cmd_args *args)
{
	const char *at = ftg_args_get(args, FTG_OPT_AT);
	const char *dir = ftg_args_get(args, FTG_OPT_ROOT);
	bool json = ftg_args_has(args, FTG_OPT_JSON);
	struct ftg_kernel_info kinfo;
	struct ftg_root *root;
	struct ftg_map *map;
	uint64_t addr = 0;
	bool have_kinfo;
	int ret;

	if (at && ftg_parse_u64(at, &addr) < 0) {
		ftg_cmd_usage_error(ctx, args->entry, "--at %s: not an address", at);
		return FTG_CMD_ERROR;
	}
	if (dir) {
		/* map's own --root, same meaning as the global one */
		ftg_cmd_ctx_release(ctx);
		ctx->root = dir;
	}
	if (ftg_cmd_need(ctx, FTG_NEED_ROOT_USER))
		return FTG_CMD_ERROR;
	root = ftg_cmd_root(ctx);	/* opened by ftg_cmd_need() */
	map = ftg_map_load(root);
	if (!map)
		return ftg_cmd_lib_error(ctx, "building the address map");
	/* Which kernel the addresses belong to matters most for a snapshot
	 * looked at elsewhere; an unreadable header only leaves it out. */
	have_kinfo = !ftg_root_kernel(root, &kinfo);
	if (!have_kinfo)
		ftg_cmd_warn(ctx, "%s", ftg_error_last());
	if (at) {
		ret = map_at(map, addr, json);
	} else {
		if (json)
			map_all_json(map, have_kinfo ? &kinfo : NULL);
		else
			map_all_text(map, have_kinfo ? &kinfo : NULL);
		ret = FTG_CMD_OK;
	}
	ftg_map_free(map);
	return ret;
}

static const struct ftg_cmd_option map_options[] = {
	{ .key = FTG_OPT_AT, .long_name = "at", .arg_name = "ADDR",
	  .help = "say what lies at ADDR (hex with 0x, or decimal)" },
	{ .key = FTG_OPT_ROOT, .long_name = "root", .arg_name = "DIR",
	  .help = "read a saved snapshot in DIR instead of the " "live system",
	  .complete = FTG_COMPLETE_DIR },
	FTG_OPTION_JSON,
	FTG_OPTION_END
};

const struct ftg_cmd_entry ftg_cmd_map_entry = {
	.name = "map",
	.usage = "[--at ADDR] [--root DIR] [--json]",
	.summary = "Show the kernel address map with the sites laid over it",
	.description =
		"Builds the map of kernel space from /proc/kallsyms (core text),\n"
		"/proc/modules and /sys/module/*/sections (each module's core and\n"
		"init text), /proc/vmallocinfo (vmalloc and ioremap areas, with the\n"
		"caller that made them and the physical address mapped) and\n"
		"ftguard.ko's tables (MODULES and VMALLOC bounds, modules whose init\n"
		"text was freed, kept as tombstones, and the sites). Each area a\n"
		"module's memory was allocated in is named after the module and the\n"
		"part it holds (text, rodata, data, ro-after-init, init-text...;\n"
		"one area holds several on 6.1, each part has its own from 6.4).\n"
		"The first line names the kernel (for a snapshot, the one it was\n"
		"saved on) and what is known of its IBT, call padding and ftrace\n"
		"record addresses.\n"
		"\n"
		"Without --at it lists every region, the regions that overlap (a\n"
		"freed init area reused by an ioremap is the dangerous case), and\n"
		"the sites that lie outside live text. With --at it says what lies\n"
		"at one address. Addresses need root (kptr_restrict) on a live\n"
		"system; --root reads a snapshot instead.",
	.exit_status =
		"0 the map was shown (with --at: something lies there); 1 with\n"
		"--at, nothing is mapped at ADDR; 2 an error.",
	.examples =
		"ftguard map --at 0xffffffffc0a01000\n"
		"  What is at that address, innermost region first.\n"
		"\n"
		"ftguard map --root tests/fixtures/snap-amd64 --json\n"
		"  The map of a saved snapshot, as JSON.",
	.options = map_options,
	.min_args = 0,
	.max_args = 0,
	.exec = map_exec,
};
