// SPDX-License-Identifier: LGPL-2.1
/*
 * vm-probe: libftguard against the real ftguard.ko, run in the QEMU guest
 * by tests/unit/vm-probe.sh (fault-injection build, ftg_target loaded, a
 * stale site planted at its freed init_one and a foreign one in e1000e's
 * BAR0 ioremap). Not a cmocka test: it needs root and the module.
 *
 *   vm-probe STALE FOREIGN PATTERN...
 *
 * Checks the map (both planted sites outside live text, named), a check
 * of all sites cross-checked by the map, selection + admit + select + an
 * fd-owned arm (armed by this pid, EBUSY on a second arm, disarmed by
 * close), a refused arm (ESTALE, report read back), ENOENT for an unknown
 * site, a batched admit resuming after a rejected candidate, and a
 * snapshot that reads back as the same map and names this kernel. Also
 * where the ftrace records sit relative to kallsyms (+0, or +4 after an
 * endbr64 where available_filter_functions_addrs gives them), and that
 * every module's text lies in an area the map names as that module's
 * text. Prints PROBE-FAIL lines and exits 1 on any failure.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/utsname.h>

#include "ftguard.h"
#include "../../src/lib/ftguard-test.h"

static int failures;

#define EXPECT(cond, ...)						\
	do {								\
		if (!(cond)) {						\
			failures++;					\
			printf("PROBE-FAIL %s:%d: ", __FILE__, __LINE__); \
			printf(__VA_ARGS__);				\
			printf(" [%s]\n", ftg_error_last());		\
		}							\
	} while (0)

static void print_warning(const char *msg, void *data)
{
	printf("warning: %s\n", msg);
}

static void print_verdict(const char *what, const struct ftg_verdict *v)
{
	size_t i;

	printf("%s: ok=%d n_ok=%" PRIu64 " n_bad=%" PRIu64 " findings=%zu\n",
	       what, ftg_verdict_ok(v), ftg_verdict_n_ok(v),
	       ftg_verdict_n_bad(v), ftg_verdict_count(v));
	for (i = 0; i < ftg_verdict_count(v); i++) {
		const struct ftg_finding *f = ftg_verdict_get(v, i);

		printf("  [%s/%s agree=%d] %s\n",
		       ftg_verdict_kind_name(f->module_verdict),
		       ftg_verdict_kind_name(f->map_verdict), f->agree, f->reason);
	}
}

static void probe_map(const struct ftg_map *map, uint64_t stale, uint64_t foreign)
{
	char buf[512];
	size_t i;

	printf("map %s: %zu regions, %zu overlaps, %zu sites, %zu outside live text\n",
	       ftg_arch_name(ftg_map_arch(map)), ftg_map_region_count(map),
	       ftg_map_overlap_count(map), ftg_map_site_count(map),
	       ftg_map_sites_outside(map));
	for (i = 0; i < ftg_map_site_count(map); i++) {
		const struct ftg_map_site *ms = ftg_map_site_get(map, i);

		if (ms->in_live_text)
			continue;
		ftg_map_describe(map, ms->site->addr, buf, sizeof(buf));
		printf("  outside: 0x%" PRIx64 " %s: %s\n", ms->site->addr,
		       ms->site->name, buf);
	}
	EXPECT(ftg_map_sites_outside(map) == 2, "two planted sites outside");
	ftg_map_describe(map, stale, buf, sizeof(buf));
	EXPECT(strstr(buf, "freed init text of ftg_target"), "stale: %s", buf);
	ftg_map_describe(map, foreign, buf, sizeof(buf));
	EXPECT(strstr(buf, "ioremap") && strstr(buf, "e1000_probe"), "foreign: %s", buf);
}

static void probe_check_all(const struct ftg_root *root, const struct ftg_map *map,
			    uint64_t stale, uint64_t foreign)
{
	struct ftg_control *ctl = ftg_control_open(root);
	struct ftg_verdict *v = ctl ? ftg_check_run(ctl, map) : NULL;
	unsigned int seen = 0;
	size_t i;

	EXPECT(v, "check run");
	if (!v)
		goto out;
	print_verdict("check all", v);
	EXPECT(!ftg_verdict_ok(v), "not ok");
	for (i = 0; i < ftg_verdict_count(v); i++) {
		const struct ftg_finding *f = ftg_verdict_get(v, i);

		if (f->addr == stale && f->agree &&
		    f->map_verdict == FTG_VERDICT_STALE)
			seen |= 1;
		if (f->addr == foreign && f->agree &&
		    f->map_verdict == FTG_VERDICT_FOREIGN &&
		    strstr(f->reason, "e1000_probe"))
			seen |= 2;
	}
	EXPECT(seen == 3, "stale and foreign both found and named (%u)", seen);
out:
	ftg_verdict_free(v);
	ftg_control_close(ctl);
}

static void probe_arm(const struct ftg_root *root, const struct ftg_candidates *cand)
{
	struct ftg_control *ctl = ftg_control_open(root);
	struct ftg_check_report *rep = NULL;
	struct ftg_status st;
	int ret;

	EXPECT(ctl, "control open");
	if (!ctl)
		return;
	ret = ftg_control_admit(ctl, cand, NULL);
	EXPECT(ret >= 1, "admit (%d)", ret);
	EXPECT(!ftg_control_select(ctl, cand), "select");
	EXPECT(!ftg_control_arm(ctl, 0, &rep), "arm");
	EXPECT(rep && ftg_check_report_ok(rep), "arm's check report");
	ftg_check_report_free(rep);
	EXPECT(!ftg_status_read(root, &st), "status");
	printf("armed=%d owner='%s' armed_sites=%" PRIu64 "\n", st.armed,
	       st.owner, st.armed_sites);
	EXPECT(st.armed && st.owner_pid == getpid(), "armed by this process");
	ret = ftg_control_arm(ctl, 0, NULL);
	EXPECT(ret == -1 && errno == EBUSY, "second arm: EBUSY");
	ftg_control_close(ctl);
	EXPECT(!ftg_status_read(root, &st) && !st.armed, "close disarms");
}

/* Event lines (not "#" comments) in instances/ftguard/trace, or -1. */
static int trace_events(void)
{
	FILE *f = fopen("/sys/kernel/tracing/instances/ftguard/trace", "r");
	char line[512];
	int n = 0;

	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f))
		if (line[0] != '#')
			n++;
	fclose(f);
	return n;
}

static void probe_refusals(const struct ftg_root *root, const struct ftg_map *map,
			   uint64_t stale, uint64_t foreign,
			   const struct ftg_candidates *vmlinux)
{
	struct ftg_control *ctl = ftg_control_open(root);
	struct ftg_candidates *mixed = ftg_candidates_new();
	struct ftg_candidates *refused = ftg_candidates_new();
	struct ftg_check_report *rep = NULL;
	struct ftg_status before, after;
	uint64_t addrs[2] = { stale, foreign };
	struct ftg_verdict *v;
	size_t i;
	int ret;

	EXPECT(ctl, "control open");
	if (!ctl)
		goto out;
	EXPECT(!ftg_control_select_addrs(ctl, addrs, 2), "select planted");
	ret = ftg_control_arm(ctl, FTG_ARM_PERSISTENT, &rep);
	printf("arm of planted sites: %d, %s\n", ret, ftg_error_last());
	EXPECT(ret == -1 && errno == ESTALE, "ESTALE");
	EXPECT(rep, "report after the refusal");
	v = rep ? ftg_verdict_new(rep, map) : NULL;
	if (v)
		print_verdict("refused arm", v);
	EXPECT(v && ftg_verdict_count(v) == 2, "two findings");
	ftg_verdict_free(v);
	ftg_check_report_free(rep);

	addrs[0] = 0x1234;
	EXPECT(ftg_control_select_addrs(ctl, addrs, 1) == -1 && errno == ENOENT,
	       "unknown site: ENOENT");

	/* A candidate the module rejects first, then good ones. */
	ftg_candidates_add(mixed, "vfs_read", 1, NULL);
	for (i = 0; i < ftg_candidates_count(vmlinux) && i < 200; i++) {
		const struct ftg_candidate *c = ftg_candidates_get(vmlinux, i);

		ftg_candidates_add(mixed, c->name, c->addr, NULL);
	}
	EXPECT(trace_events() > 0, "events in the buffer before reset");
	ftg_status_read(root, &before);
	ret = ftg_control_admit(ctl, mixed, refused);
	ftg_status_read(root, &after);
	printf("mixed admit: sent %d, admitted %" PRIu64 " -> %" PRIu64
	       ", rejected %" PRIu64 " -> %" PRIu64 "\n", ret, before.admitted,
	       after.admitted, before.rejected, after.rejected);
	EXPECT(ret == (int)ftg_candidates_count(mixed), "every candidate sent");
	EXPECT(after.rejected == before.rejected + 1, "one rejected");
	EXPECT(ftg_candidates_count(refused) == 1 &&
	       !strcmp(ftg_candidates_get(refused, 0)->name, "vfs_read"),
	       "the refusal reported: vfs_read at 0x1");
	/*
	 * A refusal deep in a write of many lines of addresses: the lines
	 * before it selected, its own reason named without the line's
	 * number within the write.
	 */
	{
		size_t k, n = 0, nmixed = ftg_candidates_count(mixed);
		uint64_t *many = calloc(nmixed + 1, sizeof(*many));

		for (k = 0; many && k < nmixed; k++)
			if (ftg_candidates_get(mixed, k)->addr != 1)
				many[n++] = ftg_candidates_get(mixed, k)->addr;
		if (many)
			many[n++] = 0x1234;
		EXPECT(many && n > 100, "%zu addresses for a long select", n);
		EXPECT(!ftg_control_clear(ctl), "clear");
		ret = many ? ftg_control_select_addrs(ctl, many, n) : 0;
		printf("select of %zu, the last unknown: %d, %s\n", n, ret,
		       ftg_error_last());
		EXPECT(ret == -1 && errno == ENOENT, "deep refusal: ENOENT");
		EXPECT(strstr(ftg_error_last(), "0x1234 is not a known site") &&
		       !strstr(ftg_error_last(), "line "),
		       "deep refusal names its address, not a line");
		rep = ftg_control_check(ctl);
		EXPECT(rep && ftg_check_report_n_ok(rep) + ftg_check_report_n_bad(rep) == n - 1,
		       "the addresses before the refusal selected (%" PRIu64 " of %zu)",
		       rep ? ftg_check_report_n_ok(rep) + ftg_check_report_n_bad(rep) : 0, n - 1);
		ftg_check_report_free(rep);
		rep = NULL;
		free(many);
	}
	EXPECT(!ftg_control_reset(ctl), "reset");
	EXPECT(trace_events() == 0, "reset cleared the instance buffer (%d events)",
	       trace_events());
out:
	ftg_candidates_free(refused);
	ftg_candidates_free(mixed);
	ftg_control_close(ctl);
}

/*
 * Each vmlinux record against the kallsyms symbol it falls in: at the
 * symbol (6.1; no endbr) or 4 bytes in (an endbr64 or its sealing NOP
 * first, x86 IBT). Anything else is a record the library mislabels.
 */
static void probe_records(const struct ftg_kallsyms *ks, const struct ftg_ftrace_funcs *avail,
			  const struct ftg_candidates *vmlinux)
{
	size_t i, at0 = 0, at4 = 0, other = 0;

	for (i = 0; i < ftg_candidates_count(vmlinux); i++) {
		const struct ftg_candidate *c = ftg_candidates_get(vmlinux, i);
		uint64_t off = 0;

		if (!ftg_kallsyms_lookup(ks, c->addr, &off))
			other++;
		else if (off == 0)
			at0++;
		else if (off == 4)
			at4++;
		else if (other++ < 5)
			printf("record %s at 0x%" PRIx64 ": +%" PRIu64 " from its symbol\n",
			       c->name, c->addr, off);
	}
	printf("records from %s: %zu at +0, %zu at +4, %zu elsewhere\n",
	       ftg_ftrace_funcs_has_addrs(avail) ? "available_filter_functions_addrs" :
	       "kallsyms", at0, at4, other);
	EXPECT(!other && at0 + at4 == ftg_candidates_count(vmlinux), "records at +0 or +4");
	EXPECT(ftg_ftrace_funcs_has_addrs(avail) == !access(
		"/sys/kernel/tracing/available_filter_functions_addrs", F_OK),
	       "addresses read where the kernel lists them");
}

/* Every live module's text lies in an area named "<module> text..." */
static void probe_module_areas(const struct ftg_map *map)
{
	size_t i, k, n, modules = 0;

	for (i = 0; i < ftg_map_region_count(map); i++) {
		const struct ftg_region *r = ftg_map_region_get(map, i), *in[8];
		bool named = false;

		if (r->kind != FTG_REGION_MODULE_TEXT)
			continue;
		modules++;
		n = ftg_map_lookup(map, r->start, in, 8);
		for (k = 0; k < n && k < 8; k++)
			named |= in[k]->kind == FTG_REGION_VMALLOC && in[k]->owner &&
				 in[k]->part && !strcmp(in[k]->owner, r->owner) &&
				 !strncmp(in[k]->part, "text", 4) &&
				 r->end <= in[k]->end;
		EXPECT(named, "text of %s in an area named for it", r->owner);
	}
	printf("module text regions: %zu\n", modules);
}

static void probe_kernel(const struct ftg_root *live, const struct ftg_root *snap)
{
	struct ftg_kernel_info a, b;
	struct utsname u;

	EXPECT(!uname(&u) && !ftg_root_kernel(live, &a) && !strcmp(a.release, u.release),
	       "live kernel is uname's");
	EXPECT(snap && !ftg_root_kernel(snap, &b) && !strcmp(b.release, u.release) &&
	       b.snapshot && !strcmp(b.version, a.version) &&
	       b.feature[FTG_KFEAT_FTRACE_ADDRS] == a.feature[FTG_KFEAT_FTRACE_ADDRS],
	       "snapshot names this kernel");
	if (snap && !ftg_root_kernel(snap, &b)) {
		static const char *const st[] = { "unknown", "yes", "no" };
		int f;

		printf("snapshot kernel %s %s:", b.release, b.machine);
		for (f = 0; f < FTG_KFEAT_COUNT; f++)
			printf(" %s %s (%s)", ftg_kernel_feature_name(f),
			       st[b.feature[f] == FTG_FEATURE_YES ? 1 :
				  b.feature[f] == FTG_FEATURE_NO ? 2 : 0],
			       *b.feature_source[f] ? b.feature_source[f] : "-");
		putchar('\n');
	}
}

static void probe_snapshot(const struct ftg_root *root)
{
	struct ftg_map *live = ftg_map_load(root), *copy = NULL;
	struct ftg_root *snap;

	/* The admits above changed the sites: compare with a fresh live map
	 * taken right before the save (the guest is otherwise quiet). */
	EXPECT(!ftg_snapshot_save(root, "/tmp/snap"), "snapshot save");
	snap = ftg_root_open("/tmp/snap");
	if (snap)
		copy = ftg_map_load(snap);
	EXPECT(live && copy && ftg_map_region_count(copy) == ftg_map_region_count(live) &&
	       ftg_map_site_count(copy) == ftg_map_site_count(live),
	       "snapshot reads back as the live map");
	probe_kernel(root, snap);
	ftg_map_free(copy);
	ftg_map_free(live);
	ftg_root_free(snap);
}

int main(int argc, char **argv)
{
	struct ftg_root *root;
	struct ftg_map *map;
	struct ftg_kallsyms *ks;
	struct ftg_ftrace_funcs *avail;
	struct ftg_selection *sel;
	struct ftg_candidates *cand = NULL, *vmlinux = NULL;
	uint64_t stale, foreign;
	int i;

	if (argc < 4) {
		fprintf(stderr, "usage: vm-probe STALE FOREIGN PATTERN...\n");
		return 2;
	}
	stale = strtoull(argv[1], NULL, 0);
	foreign = strtoull(argv[2], NULL, 0);
	ftg_set_warning_handler(print_warning, NULL);
	root = ftg_root_open(NULL);
	map = root ? ftg_map_load(root) : NULL;
	if (!map) {
		printf("PROBE-FAIL map: %s\n", ftg_error_last());
		return 1;
	}
	probe_map(map, stale, foreign);
	probe_module_areas(map);
	probe_check_all(root, map, stale, foreign);

	ks = ftg_kallsyms_read(root);
	avail = ftg_ftrace_funcs_read(root, FTG_FTRACE_AVAILABLE);
	EXPECT(ks && avail, "readers");
	sel = ftg_selection_new();
	for (i = 3; i < argc; i++)
		EXPECT(!ftg_selection_add(sel, argv[i]), "pattern %s", argv[i]);
	if (ks && avail) {
		vmlinux = ftg_candidates_vmlinux(ks, avail);
		cand = ftg_selection_resolve(sel, ks, avail);
		printf("kallsyms %zu, available %zu, vmlinux candidates %zu, selected %zu\n",
		       ftg_kallsyms_count(ks), ftg_ftrace_funcs_count(avail),
		       vmlinux ? ftg_candidates_count(vmlinux) : 0,
		       cand ? ftg_candidates_count(cand) : 0);
	}
	EXPECT(cand && vmlinux, "selection");
	if (vmlinux)
		probe_records(ks, avail, vmlinux);
	if (cand && vmlinux) {
		probe_arm(root, cand);
		probe_refusals(root, map, stale, foreign, vmlinux);
	}
	probe_snapshot(root);

	ftg_candidates_free(cand);
	ftg_candidates_free(vmlinux);
	ftg_selection_free(sel);
	ftg_kallsyms_free(ks);
	ftg_ftrace_funcs_free(avail);
	ftg_map_free(map);
	ftg_root_free(root);
	printf("probe failures: %d\n", failures);
	return failures ? 1 : 0;
}
