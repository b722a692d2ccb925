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
/*
 * How the periodic verify covers an arm: the armed sites one run
 * re-checks (the next slice of the armed set, 0: all), the time in which
 * every armed site of the current arm is re-checked once (ms, in
 * periods; 0 while nothing is armed) and the runs that finished a pass
 * over an armed set since load.
 */
#define FTGUARD_STATUS_VERIFY_SLICE	"verify_slice"
#define FTGUARD_STATUS_VERIFY_CYCLE_MS	"verify_cycle_ms"
#define FTGUARD_STATUS_VERIFY_CYCLES	"verify_cycles"

/* The control file: one command line (bytes before its newline), one
 * write, one error reason */
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

/*
 * Module states in the modules table and module events, X(ID, "word"),
 * and the states of a module's init text: FTG_MOD_<ID> and FTG_INIT_<ID>
 * in the module, FTG_KMODULE_<ID> and FTG_INIT_<ID> in libftguard.
 */
#define FTGUARD_MODULE_STATES(X)		\
	X(COMING,	"coming")		\
	X(LIVE,		"live")			\
	X(GOING,	"going")		\
	X(GONE,		"gone")
#define FTGUARD_INIT_STATES(X)			\
	X(NONE,		"none")			\
	X(LIVE,		"live")			\
	X(DROPPED,	"dropped")

/*
 * The errno names a control response carries ("-NAME reason"), X(NAME):
 * the module sends any other error as EIO, and the library maps exactly
 * these back.
 */
#define FTGUARD_ERRNOS(X)						\
	X(EINVAL) X(E2BIG) X(ENOENT) X(EPERM) X(EBUSY) X(ESTALE)	\
	X(EOPNOTSUPP) X(ENOMEM) X(ENODEV) X(EEXIST) X(EIO)

#endif /* FTG_UAPI_H */
