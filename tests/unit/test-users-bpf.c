// SPDX-License-Identifier: LGPL-2.1
/*
 * Which BPF programs a BPF trampoline runs (src/lib/users-bpf.c, built
 * into this test: its matching is internal). The trampoline is the one a
 * 6.12 kernel printed in enabled_functions (tests/fixtures/shared-612);
 * the programs stand for what the kernel's tracing links say.
 */
#include "lib-test.h"
#include "../../src/lib/ftguard-local.h"

/* The symbol after the first "direct-->bpf_trampoline_" in the fixture. */
static void fixture_tramp(char *sym, size_t size)
{
	char line[512];
	FILE *f = fopen(FIXTURE("shared-612", "tracing") "/enabled_functions", "r");

	assert_non_null(f);
	sym[0] = '\0';
	while (fgets(line, sizeof(line), f)) {
		char *d = strstr(line, "direct-->bpf_trampoline_");

		if (d) {
			snprintf(sym, size, "%s", d + strlen("direct-->"));
			sym[strcspn(sym, "\n")] = '\0';
			break;
		}
	}
	fclose(f);
	assert_string_equal(sym, "bpf_trampoline_6442475672+0x0/0x1000");
}

static void test_tramp_ids(void **state)
{
	uint32_t obj, btf;
	char sym[128];

	fixture_tramp(sym, sizeof(sym));
	/* 6442475672 = 1 << 32 | 0x80000000 | 24728: vmlinux's BTF (id 1) */
	assert_int_equal(ftgl_bpf_tramp_ids(sym, &obj, &btf), 0);
	assert_int_equal(obj, 1);
	assert_int_equal(btf, 24728);
	assert_int_equal(ftgl_bpf_tramp_ids("bpf_trampoline_6442475672", &obj, &btf), 0);
	assert_int_equal(btf, 24728);
	/* a trampoline on BPF program 5's function 24728: no ftrace site */
	assert_int_equal(ftgl_bpf_tramp_ids("bpf_trampoline_21474861208", &obj, &btf), -1);
	/* not a trampoline's symbol */
	assert_int_equal(ftgl_bpf_tramp_ids("my_tramp+0x0/0x1c [ftrace_direct]", &obj, &btf), -1);
	assert_int_equal(ftgl_bpf_tramp_ids("bpf_trampoline_", &obj, &btf), -1);
	assert_int_equal(ftgl_bpf_tramp_ids("bpf_trampoline_6442475672x", &obj, &btf), -1);
	assert_int_equal(ftgl_bpf_tramp_ids("bpf_trampoline_-1", &obj, &btf), -1);
	assert_int_equal(ftgl_bpf_tramp_ids("bpf_trampoline_99999999999999999999", &obj, &btf), -1);
}

static void test_prog_on(void **state)
{
	const struct ftgl_bpf_prog on = { 1, 24728, 42, "ftg_bpf_read" };
	const struct ftgl_bpf_prog other_fn = { 1, 24729, 43, "other" };
	const struct ftgl_bpf_prog other_btf = { 2, 24728, 44, "in_a_module" };
	char sym[128];

	fixture_tramp(sym, sizeof(sym));
	assert_true(ftgl_bpf_prog_on(&on, sym));
	assert_false(ftgl_bpf_prog_on(&other_fn, sym));
	assert_false(ftgl_bpf_prog_on(&other_btf, sym));
	assert_false(ftgl_bpf_prog_on(&on, "bpf_trampoline_21474861208"));
	assert_false(ftgl_bpf_prog_on(&on, "my_tramp+0x0/0x1c [ftrace_direct]"));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_tramp_ids),
		cmocka_unit_test(test_prog_on),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
