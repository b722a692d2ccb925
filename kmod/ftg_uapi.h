/* SPDX-License-Identifier: (GPL-2.0 WITH Linux-syscall-note) OR LGPL-2.1 */
/*
 * The constants of ftguard.ko's text protocol (doc/interface.md), included
 * by the module and by libftguard alike, so that the two sides cannot
 * drift apart: the format versions the tables' header lines carry, the
 * control file's limits and the words of the site states. Macros only:
 * each side keeps its own types, and the protocol is the words, never the
 * numbers behind them.
 */
#ifndef FTG_UAPI_H
#define FTG_UAPI_H

/* "ftguard-<table> <version>": status, modules, check; sites has its own */
#define FTGUARD_FORMAT_VERSION		1
#define FTGUARD_SITES_FORMAT_VERSION	2	/* offset and bytes added */

/*
 * Status keys of the periodic verify work: its runs since load and the
 * time they took in all (ns of the monotonic clock), so that
 * userspace can tell what verifying costs per period.
 */
#define FTGUARD_STATUS_VERIFY_RUNS	"verify_runs"
#define FTGUARD_STATUS_VERIFY_NS	"verify_ns"

/* The control file: one command line, one write, one error reason */
#define FTGUARD_LINE_MAX		256
#define FTGUARD_WRITE_MAX		(64 * 1024)
#define FTGUARD_REASON_MAX		256
#define FTGUARD_ARGS_MAX		32	/* after the command's word */
#define FTGUARD_GRAPH_ROOTS_MAX		FTGUARD_ARGS_MAX	/* graph-roots */

/*
 * Site states, X(ID, "word"): the word is what the tables print; ID
 * names the state on either side (FTG_SITE_<ID> in libftguard,
 * FTG_PATCH_<ID> in the module), in the module's order.
 */
#define FTGUARD_SITE_STATES(X)			\
	X(UNCHECKED,	"unchecked")		\
	X(OK,		"ok")			\
	X(ARMED,	"armed")		\
	X(STALE,	"stale")		\
	X(FOREIGN,	"foreign")		\
	X(MISMATCH,	"mismatch")		\
	X(PLANTED,	"planted")

#endif /* FTG_UAPI_H */
