// SPDX-License-Identifier: LGPL-2.1
/*
 * The module's answers on ftguard/control ("ok ...", "error <errno-name>
 * <reason>", a check report, a site table) as libftguard judges them. The control file
 * here is a regular file: the command is written at its start and the
 * answer is read from where the write left the position, so the file is
 * the command's length of padding followed by the input. A refused arm
 * reads ftguard/check too, which holds the input as well.
 */
#include <stdlib.h>
#include <string.h>

#include "fuzz-common.h"

/* Writes the control file so that after "@cmd\n" the input is read. */
static void plant_answer(const char *cmd, const uint8_t *data, size_t size)
{
	size_t pad = strlen(cmd) + 1;
	uint8_t *file = malloc(pad + size + 1);

	if (!file)
		abort();
	memset(file, ' ', pad);
	if (size)
		memcpy(file + pad, data, size);
	fz_write("debug/ftguard/control", file, pad + size);
	free(file);
}

static struct ftg_control *open_with_answer(const char *cmd, const uint8_t *data,
					    size_t size)
{
	plant_answer(cmd, data, size);
	return ftg_control_open(fz_lib_root());
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct ftg_check_report *rep = NULL;
	struct ftg_control *ctl;
	uint64_t addr = 0xffffffff81000000ULL;
	const char *owners[] = { "target" };
	struct ftg_sites *sites;

	fz_input("debug", "ftguard/check", data, size);
	ctl = open_with_answer("check", data, size);
	rep = ctl ? ftg_control_check(ctl) : NULL;
	fz_use(rep ? ftg_check_report_count(rep) : 0);
	ftg_check_report_free(rep);
	ftg_control_close(ctl);

	ctl = open_with_answer("arm", data, size);
	rep = NULL;
	fz_use(ctl ? (uint64_t)ftg_control_arm(ctl, 0, &rep) : 0);
	fz_use(rep ? ftg_check_report_n_ok(rep) : 0);
	ftg_check_report_free(rep);
	ftg_control_close(ctl);

	ctl = open_with_answer("sites target", data, size);
	sites = ctl ? ftg_control_sites(ctl, owners, 1) : NULL;
	fz_use(sites ? ftg_sites_count(sites) : 0);
	ftg_sites_free(sites);
	ftg_control_close(ctl);

	ctl = open_with_answer("select 0xffffffff81000000", data, size);
	fz_use(ctl ? (uint64_t)ftg_control_select_addrs(ctl, &addr, 1) : 0);
	fz_use_str(ctl ? ftg_control_response(ctl) : NULL);
	ftg_control_close(ctl);
	fz_use_str(ftg_error_last());
	return 0;
}
