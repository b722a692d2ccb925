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
 * The status file's keys, X(ID, "key", KIND), in the order it prints them
 * ("key value" lines after the header). The module prints exactly these
 * (FTG_SK_<ID>, one case each); libftguard knows exactly these and reads
 * each value by its KIND:
 *   BOOL 0|1, U64 decimal, HEX 0x..., TEXT free text to the line's end
 *   ("-" when empty), OWNER none|persistent|<pid> <comm>, LAST_CHECK
 *   never|<ms> ok|fail <n_ok> <n_bad>, ARM_MODE and GRAPH_HOOK a word of
 *   their sets below, ADDRS addresses or "-".
 * The alloc_* keys follow the module's object kinds, in their order.
 */
#define FTGUARD_STATUS_KEYS(X)						\
	X(LOADED,		"loaded",		BOOL)		\
	X(ARMED,		"armed",		BOOL)		\
	X(OWNER,		"owner",		OWNER)		\
	X(ARMED_SITES,		"armed_sites",		U64)		\
	X(KILLED,		"killed",		BOOL)		\
	X(KILL_REASON,		"kill_reason",		TEXT)		\
	X(SITES,		"sites",		U64)		\
	X(VMLINUX_SITES,	"vmlinux_sites",	U64)		\
	X(MODULE_SITES,		"module_sites",		U64)		\
	X(VMLINUX_RECORDS,	"vmlinux_records",	U64)		\
	X(ADMITTED,		"admitted",		U64)		\
	X(REJECTED,		"rejected",		U64)		\
	X(LAST_CHECK,		"last_check",		LAST_CHECK)	\
	X(LAST_ERROR,		"last_error",		TEXT)		\
	X(VERIFY_PERIOD_MS,	"verify_period_ms",	U64)		\
	X(MAX_ARM,		"max_arm",		U64)		\
	X(FAULT_INJECTION,	"fault_injection",	BOOL)		\
	X(MODULES_VADDR,	"modules_vaddr",	HEX)		\
	X(MODULES_END,		"modules_end",		HEX)		\
	X(VMALLOC_START,	"vmalloc_start",	HEX)		\
	X(VMALLOC_END,		"vmalloc_end",		HEX)		\
	X(ALLOC_SESSIONS,	"alloc_sessions",	U64)		\
	X(ALLOC_SELECTIONS,	"alloc_selections",	U64)		\
	X(ALLOC_RESPONSES,	"alloc_responses",	U64)		\
	X(ALLOC_REPORTS,	"alloc_reports",	U64)		\
	X(ALLOC_ARMSETS,	"alloc_armsets",	U64)		\
	X(ALLOC_SITES,		"alloc_sites",		U64)		\
	X(ALLOC_MODULES,	"alloc_modules",	U64)		\
	X(ALLOC_SCRATCH,	"alloc_scratch",	U64)		\
	X(ALLOC_GRAPHS,		"alloc_graphs",		U64)		\
	X(ARM_MODE,		"arm_mode",		ARM_MODE)	\
	X(GRAPH_HOOK,		"graph_hook",		GRAPH_HOOK)	\
	X(GRAPH_MISSED,		"graph_missed",		U64)		\
	X(EVENTS_FAST,		"events_fast",		U64)		\
	X(EVENTS_SLOW,		"events_slow",		U64)		\
	X(EVENTS_SHARED,	"events_shared",	U64)		\
	X(ARM_STACK,		"arm_stack",		BOOL)		\
	X(GRAPH_ROOTS,		"graph_roots",		ADDRS)		\
	X(GRAPH_MAX_DEPTH,	"graph_max_depth",	U64)		\
	X(VERIFY_RUNS,		"verify_runs",		U64)		\
	X(VERIFY_NS,		"verify_ns",		U64)		\
	X(EVENT_PATH,		"event_path",		EVENT_PATH)	\
	X(EVENT_PATH_REASON,	"event_path_reason",	TEXT)		\
	X(VERIFY_SLICE,		"verify_slice",		U64)		\
	X(VERIFY_CYCLE_MS,	"verify_cycle_ms",	U64)		\
	X(VERIFY_CYCLES,	"verify_cycles",	U64)		\
	X(VERIFY_MISSED,	"verify_missed",	U64)		\
	X(STUCK,		"stuck",		TEXT)

/*
 * status arm_mode, what the current arm records, and status graph_hook,
 * how this build hooks returns (arm graph): each word by name for the
 * side that writes it, and as a set, X(ID, word), for the side that reads.
 */
#define FTGUARD_ARM_MODE_NONE		"none"
#define FTGUARD_ARM_MODE_FUNCTION	"function"
#define FTGUARD_ARM_MODE_GRAPH		"graph"
#define FTGUARD_ARM_MODES(X)				\
	X(NONE,		FTGUARD_ARM_MODE_NONE)		\
	X(FUNCTION,	FTGUARD_ARM_MODE_FUNCTION)	\
	X(GRAPH,	FTGUARD_ARM_MODE_GRAPH)
#define FTGUARD_GRAPH_HOOK_FPROBE	"fprobe"
#define FTGUARD_GRAPH_HOOK_KRETPROBE	"kretprobe"
#define FTGUARD_GRAPH_HOOK_NONE		"none"
#define FTGUARD_GRAPH_HOOKS(X)				\
	X(FPROBE,	FTGUARD_GRAPH_HOOK_FPROBE)	\
	X(KRETPROBE,	FTGUARD_GRAPH_HOOK_KRETPROBE)	\
	X(NONE,		FTGUARD_GRAPH_HOOK_NONE)

/* status owner: no arm, or an arm no descriptor owns (else "<pid> <comm>") */
#define FTGUARD_OWNER_NONE		"none"
#define FTGUARD_OWNER_PERSISTENT	"persistent"

/*
 * The outcome of a check, in status last_check and the check table's
 * result line; "never" before the first check.
 */
#define FTGUARD_RESULT_OK		"ok"
#define FTGUARD_RESULT_FAIL		"fail"
#define FTGUARD_RESULT_NEVER		"never"

/*
 * Verdicts of the check table, X(ID, "word"): FTG_V_<ID> in the module,
 * FTG_VERDICT_<ID> in libftguard (whose public enum has this order).
 */
#define FTGUARD_VERDICTS(X)			\
	X(OK,		"ok")			\
	X(STALE,	"stale")		\
	X(FOREIGN,	"foreign")		\
	X(MISMATCH,	"mismatch")

/*
 * The debugfs directory and its files; each table's first line is
 * FTGUARD_HEADER(table) " <version>".
 */
#define FTGUARD_DIR			"ftguard"
#define FTGUARD_CONTROL			"control"
#define FTGUARD_TABLE_STATUS		"status"
#define FTGUARD_TABLE_SITES		"sites"
#define FTGUARD_TABLE_MODULES		"modules"
#define FTGUARD_TABLE_CHECK		"check"
#define FTGUARD_HEADER(table)		"ftguard-" table

/*
 * The control file's commands, X(ID, word) (FTGUARD_CMD_<ID> each), the
 * fault-injection build's last: the module runs exactly these.
 */
#define FTGUARD_CMD_ADMIT		"admit"
#define FTGUARD_CMD_VMLINUX_RECORDS	"vmlinux-records"
#define FTGUARD_CMD_SELECT		"select"
#define FTGUARD_CMD_SELECT_MODULE	"select-module"
#define FTGUARD_CMD_SELECT_ALL		"select-all"
#define FTGUARD_CMD_SITES		"sites"
#define FTGUARD_CMD_CLEAR		"clear"
#define FTGUARD_CMD_GRAPH_ROOTS		"graph-roots"
#define FTGUARD_CMD_CHECK		"check"
#define FTGUARD_CMD_ARM			"arm"
#define FTGUARD_CMD_DISARM		"disarm"
#define FTGUARD_CMD_RESET		"reset"
#define FTGUARD_CMD_VERIFY		"verify"
#define FTGUARD_CMD_PLANT		"plant"
#define FTGUARD_CMD_UNPLANT		"unplant"
#define FTGUARD_CMD_CORRUPT		"corrupt"
#define FTGUARD_CMD_DIVERT		"divert"
#define FTGUARD_CMD_FAIL_FTRACE		"fail-ftrace"
#define FTGUARD_CMD_FAIL_MEMORY		"fail-memory"
#define FTGUARD_COMMANDS(X)					\
	X(ADMIT,		FTGUARD_CMD_ADMIT)		\
	X(VMLINUX_RECORDS,	FTGUARD_CMD_VMLINUX_RECORDS)	\
	X(SELECT,		FTGUARD_CMD_SELECT)		\
	X(SELECT_MODULE,	FTGUARD_CMD_SELECT_MODULE)	\
	X(SELECT_ALL,		FTGUARD_CMD_SELECT_ALL)		\
	X(SITES,		FTGUARD_CMD_SITES)		\
	X(CLEAR,		FTGUARD_CMD_CLEAR)		\
	X(GRAPH_ROOTS,		FTGUARD_CMD_GRAPH_ROOTS)	\
	X(CHECK,		FTGUARD_CMD_CHECK)		\
	X(ARM,			FTGUARD_CMD_ARM)		\
	X(DISARM,		FTGUARD_CMD_DISARM)		\
	X(RESET,		FTGUARD_CMD_RESET)		\
	X(VERIFY,		FTGUARD_CMD_VERIFY)		\
	X(PLANT,		FTGUARD_CMD_PLANT)		\
	X(UNPLANT,		FTGUARD_CMD_UNPLANT)		\
	X(CORRUPT,		FTGUARD_CMD_CORRUPT)		\
	X(DIVERT,		FTGUARD_CMD_DIVERT)		\
	X(FAIL_FTRACE,		FTGUARD_CMD_FAIL_FTRACE)	\
	X(FAIL_MEMORY,		FTGUARD_CMD_FAIL_MEMORY)

/* arm's words, in any order; max-depth= takes its count */
#define FTGUARD_ARM_PERSISTENT		"persistent"
#define FTGUARD_ARM_FORCE		"force"
#define FTGUARD_ARM_GRAPH		"graph"
#define FTGUARD_ARM_STACK		"stack"
#define FTGUARD_ARM_MAX_DEPTH		"max-depth="

/* plant's kinds (fault-injection build) */
#define FTGUARD_PLANT_STALE		"stale"
#define FTGUARD_PLANT_FOREIGN		"foreign"
#define FTGUARD_PLANT_BLIND		"blind"

/*
 * A command's response: FTGUARD_OK [" <info>"], a table (check, sites),
 * or FTGUARD_ERROR " <errno-name> <reason>".
 */
#define FTGUARD_OK			"ok"
#define FTGUARD_ERROR			"error"

/*
 * status event_path, how hot events are written as the load-time proof
 * decided (kmod/ftg_trace.c): "fast" straight into the ring buffer, or
 * "kernel" the kernel's own event path, event_path_reason saying why
 * ("-" when fast).
 */
#define FTGUARD_EVENT_PATH_FAST		"fast"
#define FTGUARD_EVENT_PATH_KERNEL	"kernel"
#define FTGUARD_EVENT_PATHS(X)				\
	X(FAST,		FTGUARD_EVENT_PATH_FAST)	\
	X(KERNEL,	FTGUARD_EVENT_PATH_KERNEL)

/* The control file: one command line (bytes before its newline), one
 * write, one error reason */
#define FTGUARD_LINE_MAX		256
#define FTGUARD_WRITE_MAX		(64 * 1024)
#define FTGUARD_REASON_MAX		256
#define FTGUARD_ARGS_MAX		32	/* after the command's word */
#define FTGUARD_GRAPH_ROOTS_MAX		FTGUARD_ARGS_MAX	/* graph-roots */
/* arm's max-depth=: levels a call tree follows below a root, 0 all */
#define FTGUARD_GRAPH_DEPTH_MAX		1000

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

/* The section of a site's function in the sites table, X(ID, word) */
#define FTGUARD_SECTION_CORE		"core"
#define FTGUARD_SECTION_INIT		"init"
#define FTGUARD_SECTIONS(X)				\
	X(CORE,		FTGUARD_SECTION_CORE)		\
	X(INIT,		FTGUARD_SECTION_INIT)

/*
 * The actions of a site event, X(ID, "word"): a site added to the table
 * or dropped from it, or, at an armed site, another of the kernel's
 * ftrace users joining (shared) or the last of them leaving (alone), as
 * the call at the site tells (doc/design.md, "Sharing a site").
 */
#define FTGUARD_SITE_ADD		"add"
#define FTGUARD_SITE_DROP		"drop"
#define FTGUARD_SITE_SHARED		"shared"
#define FTGUARD_SITE_ALONE		"alone"
#define FTGUARD_SITE_ACTIONS(X)				\
	X(ADD,		FTGUARD_SITE_ADD)		\
	X(DROP,		FTGUARD_SITE_DROP)		\
	X(SHARED,	FTGUARD_SITE_SHARED)		\
	X(ALONE,	FTGUARD_SITE_ALONE)

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
