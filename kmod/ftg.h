/* SPDX-License-Identifier: GPL-2.0 */
/*
 * ftguard internals shared by the ftg_*.c files. The lock story is told at
 * the top of ftg_main.c and in doc/kmod.md.
 */
#ifndef FTG_H
#define FTG_H

#include <linux/atomic.h>
#include <linux/ftrace.h>
#include <linux/hash.h>
#include <linux/kallsyms.h>
#include <linux/list.h>
#include <linux/module.h>
#include <linux/mutex.h>
#include <linux/percpu.h>
#include <linux/rbtree.h>
#include <linux/sched.h>
#include <linux/string_helpers.h>
#include <linux/types.h>
#include <linux/workqueue.h>

#include "ftg_arch.h"
#include "ftg_uapi.h"

#define FTG_MAX_TOMBSTONES	64
#define FTG_REPORT_ALL_BELOW	64	/* check lists ok sites below this */

/*
 * Escaping of names and text in the tables (doc/interface.md): every byte
 * outside printable ASCII becomes \ooo (3 octal digits, never a C escape
 * like \n), and so does backslash; names also escape space, which
 * separates fields. ESCAPE_NAP passes printable ASCII; ESCAPE_APPEND makes
 * the listed characters escaped too instead of the only ones escaped.
 */
#define FTG_ESC_FLAGS		(ESCAPE_OCTAL | ESCAPE_NAP | ESCAPE_APPEND)
#define FTG_ESC_NAME		" \\"
#define FTG_ESC_TEXT		"\\"	/* free text keeps its spaces */

#ifdef FTG_FAULT_INJECTION
#define FTG_FAULT_INJECTION_BUILD	1
#else
#define FTG_FAULT_INJECTION_BUILD	0
#endif

#define FTG_MOD_STATE_ID(id, word)	FTG_MOD_##id,
enum ftg_mod_state { FTGUARD_MODULE_STATES(FTG_MOD_STATE_ID) };
#undef FTG_MOD_STATE_ID
#define FTG_INIT_STATE_ID(id, word)	FTG_INIT_##id,
enum ftg_init_state { FTGUARD_INIT_STATES(FTG_INIT_STATE_ID) };
#undef FTG_INIT_STATE_ID
const char *ftg_mod_state_name(enum ftg_mod_state st);

/* A module ftguard has seen; kept as a tombstone once gone. */
struct ftg_module {
	struct list_head node;		/* in ftg.modules */
	struct list_head sites;		/* its patch sites, by mod_node */
	char name[MODULE_NAME_LEN];
	const struct module *mod;	/* identity only; NULL once gone */
	enum ftg_mod_state state;
	unsigned long core_base;
	unsigned long core_text_size;
	unsigned long init_base;
	unsigned long init_text_size;
	enum ftg_init_state init;
	u64 dropped_ms;			/* when its text was let go */
	unsigned int nsites;		/* live sites it owns */
};

#define FTG_VERDICT_ID(id, word)	FTG_V_##id,
enum ftg_verdict { FTGUARD_VERDICTS(FTG_VERDICT_ID) };
#undef FTG_VERDICT_ID

#define FTG_PATCH_STATE_ID(id, word)	FTG_PATCH_##id,
enum ftg_patch_state { FTGUARD_SITE_STATES(FTG_PATCH_STATE_ID) };
#undef FTG_PATCH_STATE_ID

/* What a site's bytes may be: the arch NOP, or a call to a trampoline. */
struct ftg_expect {
	u8 nop[FTG_SITE_BYTES];
	u8 call_op;
};

/*
 * Who an armed site's call says is on it besides ftguard (doc/design.md,
 * "Sharing a site"). Only ftguard's own ops trampoline tells ftguard
 * alone from ftguard among others: where there is none (i386, arm64, an
 * arm with exits) every armed site calls a shared caller and the state
 * is unknown.
 */
enum ftg_share {
	FTG_SHARE_UNKNOWN,	/* the bytes cannot tell */
	FTG_SHARE_ALONE,	/* ftguard's own trampoline */
	FTG_SHARE_SHARED,	/* a list caller or another ops' trampoline */
	FTG_SHARE_DIRECT,	/* another user's direct trampoline */
};

/* One call site, from a module's build-time list or an admitted candidate. */
struct ftg_patch_site {
	struct rb_node node;		/* in ftg.sites, keyed by ip */
	struct list_head mod_node;	/* in owner->sites (empty: vmlinux) */
	unsigned long ip;
	const char *name;		/* kstrdup'd function name */
	struct ftg_module *owner;	/* NULL: vmlinux */
	bool init;			/* in init text */
	bool had_record;		/* was a current ftrace record once */
	bool planted;			/* fault injection */
	bool sym_proven;		/* kallsyms named it, for good */
	enum ftg_patch_state state;
	int arm_idx;			/* slot in ftg.armset, -1 if not armed */
	u64 hits;			/* hits folded in from past arms */
	unsigned int reads;		/* reads of its text, see ftg_read_text */
	u8 offset;			/* from its function's start: the prefix */
	struct ftg_expect expect;
	const struct ftg_prefix *prefix; /* the arch's prefix last read, or NULL */
	u8 actual[FTG_PROLOGUE_MAX];	/* prefix then site, as last read */
	bool actual_valid;
	u8 share;			/* enum ftg_share, last said while armed */
#if FTG_FAULT_INJECTION_BUILD
	unsigned long divert;		/* judged as a call here */
	unsigned int divert_reads;	/* for this many reads, 0: all */
	bool blind;			/* planted blind: a check passes it */
#endif
};

/*
 * The armed set: sorted ips and their per-CPU hit counters. Freed only
 * after a successful unregister of the ops or probes that read it, which
 * waits for every running callback (ftg_arm.c says when it is published).
 */
struct ftg_armset {
	unsigned int n;
	unsigned long *ips;		/* sorted: slot i is ips[i] */
	unsigned int hash_shift;	/* BITS_PER_LONG - log2(entries) */
	unsigned int hash_mask;		/* entries - 1 */
	u32 *hash;			/* ip to slot, FTG_SLOT_NONE empty */
	unsigned int nchunks;
	u64 __percpu **hits;		/* n counters per CPU, in chunks */
};

/* One open control file: its selection and the response to its last write. */
struct ftg_session {
	struct list_head node;		/* in ftg.sessions */
	unsigned long *sel;		/* sorted, unique site ips */
	unsigned int nsel;
	unsigned int cap;
	char *resp;
	size_t resp_len;
	loff_t resp_pos;		/* read position in resp */
	pid_t pid;
	char comm[TASK_COMM_LEN];
	unsigned long roots[FTGUARD_GRAPH_ROOTS_MAX];	/* graph-roots */
	unsigned int nroots;
};

/* What one `arm` line asks for (ftg_control.c parses it). */
struct ftg_arm_req {
	bool persistent;	/* outlives the descriptor */
	bool force;		/* beyond max_arm */
	bool graph;		/* entries and returns (ftg_graph.c) */
	bool stack;		/* each func event followed by its callers */
	unsigned int max_depth;	/* call tree: levels below a root, 0 all */
};

/*
 * What ftguard has allocated and not yet freed, by kind, shown in status
 * (alloc_<kind>): a test compares them before and after a client dies and
 * against what the tables list. Atomics, because sessions are created and
 * freed outside ftg.lock.
 */
enum ftg_obj {
	FTG_OBJ_SESSION,	/* struct ftg_session: one per open control */
	FTG_OBJ_SELECTION,	/* a session's selection array */
	FTG_OBJ_RESPONSE,	/* a session's response text */
	FTG_OBJ_REPORT,		/* a check report (ftg.report, or in flight) */
	FTG_OBJ_ARMSET,		/* struct ftg_armset with its ips and hits */
	FTG_OBJ_SITE,		/* struct ftg_patch_site with its name */
	FTG_OBJ_MODULE,		/* struct ftg_module, tombstones included */
	FTG_OBJ_SCRATCH,	/* a command's own buffers: 0 between commands */
	FTG_OBJ_GRAPH,		/* an arm's exit hooks (ftg_graph.c): 1 while */
	FTG_NR_OBJ
};

extern atomic_long_t ftg_objects[FTG_NR_OBJ];

/* Counts @p (if not NULL) as a live object of @kind: call after allocating. */
static inline void ftg_obj_add(enum ftg_obj kind, const void *p)
{
	if (p)
		atomic_long_inc(&ftg_objects[kind]);
}

/* Uncounts @p (if not NULL): call before freeing it. */
static inline void ftg_obj_del(enum ftg_obj kind, const void *p)
{
	if (p)
		atomic_long_dec(&ftg_objects[kind]);
}

struct ftg_state {
	/* Serialises everything below, the notifiers and control writes. */
	struct mutex lock;

	struct rb_root sites;		/* struct ftg_patch_site by ip */
	unsigned int n_vmlinux;
	unsigned int n_module;
	unsigned int vmlinux_records;	/* as userspace counted them, 0: unsaid */
	struct list_head modules;	/* struct ftg_module, newest first */
	unsigned int n_tombstones;
	unsigned long admitted;
	unsigned long rejected;
	struct list_head sessions;	/* open control files */

	struct ftrace_ops ops;		/* the arming ops */
	struct ftrace_ops probe_ops;	/* never registered: record lookups */
	struct ftg_armset *armset;	/* non-NULL while armed */
	bool graph;			/* armed with exits (ftg_graph.c) */
	bool stack;			/* armed with callers: stack events */
	unsigned int armed_sites;	/* sites still in ops' filter */
	struct ftg_session *owner;	/* NULL while armed: persistent */
	pid_t owner_pid;
	char owner_comm[TASK_COMM_LEN];

	/*
	 * While ftrace or the kernel's probes hold anything of ftguard's,
	 * ftguard holds a reference to itself (ftg_arm.c, "Staying
	 * loaded"); stuck says what an unregister that failed left there.
	 */
	bool held;
	char stuck[FTGUARD_REASON_MAX];

	bool fi_fail_ftrace;		/* fault injection: see fail-ftrace */
	int fi_memory_skip;		/* fail-memory: requests to let pass, <0 none */
	bool check_short;		/* this check ran short of memory */
	bool ftrace_off_said;		/* verify logged the kernel's ftrace off */
	bool killed;
	char kill_reason[FTGUARD_REASON_MAX];
	char last_error[FTGUARD_REASON_MAX];

	bool checked;			/* last_* valid */
	u64 last_check_ms;
	unsigned int last_ok;
	unsigned int last_bad;
	char *report;			/* last check report (kvmalloc) */
	size_t report_len;

	char symbuf[KSYM_SYMBOL_LEN];	/* sprint_symbol scratch */
	unsigned long tramps_ok[8];	/* trampolines this check accepted */
	unsigned int ntramps_ok;
	unsigned long list_caller_ok;	/* list caller this check named */
	unsigned long hook_tramp_ok;	/* the exits' hooks' trampoline */
	/* this check's first armed site whose call missed ftguard, and where */
	unsigned long stray_ip;
	unsigned long stray_call;

	struct delayed_work verify_work;
	u64 verify_runs;		/* runs of verify_work since load */
	u64 verify_missed;		/* runs short of memory: nothing verified */
	u64 verify_ns;			/* their time in all */
	unsigned int verify_next;	/* armed slot the next run starts at */
	u64 verify_cycles;		/* runs that reached the set's end */
	bool stopping;			/* module exit: no re-arming of work */
	struct trace_array *tr;
	struct dentry *dir;
};

extern struct ftg_state ftg;
extern unsigned int ftg_period_ms;
extern unsigned int ftg_max_arm;
extern unsigned int ftg_verify_slice;

static inline u64 ftg_now_ms(void)
{
	return ktime_to_ms(ktime_get_boottime());
}

/* ftg_sites.c */
enum ftg_sym { FTG_SYM_EXACT, FTG_SYM_OTHER, FTG_SYM_NONE };
struct ftg_patch_site *ftg_site_find(unsigned long ip);
struct ftg_patch_site *ftg_site_first(void);
struct ftg_patch_site *ftg_site_next(struct ftg_patch_site *s);
struct ftg_patch_site *ftg_site_add(unsigned long ip, unsigned int offset,
			      const char *name, struct ftg_module *owner,
			      bool init);
void ftg_site_drop(struct ftg_patch_site *s, const char *reason);
int ftg_record_is(unsigned long ip);
bool ftg_is_record(unsigned long ip);
bool ftg_are_records(struct ftg_patch_site **sites, unsigned int n);
enum ftg_sym ftg_sym_classify(unsigned long ip, const char *name,
			      unsigned int offset, const char *modname);
long ftg_sym_offset(char *sym);
int ftg_admit(const char *name, unsigned long ip, char *why, size_t len);
int ftg_modules_init(void);
void ftg_modules_exit(void);
const char *ftg_owner_name(const struct ftg_patch_site *s);
unsigned int ftg_nsites(void);

/* ftg_check.c */
int ftg_check(struct ftg_patch_site **sites, unsigned int n, char **report,
	      size_t *report_len);
int ftg_check_sites(struct ftg_patch_site **sites, unsigned int n,
		    char **report, size_t *report_len, bool recheck);
const char *ftg_verdict_name(enum ftg_verdict v);
const char *ftg_patch_state_name(enum ftg_patch_state st);
size_t ftg_escape(char *dst, size_t size, const char *src);
size_t ftg_site_bytes_hex(char *dst, const struct ftg_patch_site *s,
			  bool expected);
void ftg_escape_into(char *dst, size_t size, const char *src, const char *only);
enum ftg_share ftg_share_at_arm(const struct ftg_patch_site *s);

/* ftg_arm.c */
int ftg_arm(struct ftg_session *sess, const struct ftg_arm_req *req,
	    char *why, size_t len);
int ftg_disarm(void);
int ftg_stuck_refusal(char *why, size_t len);
void ftg_disarm_site(struct ftg_patch_site *s);
void ftg_disarm_session(struct ftg_session *sess);
int ftg_verify(char *why, size_t len);
u64 ftg_verify_cycle_ms(void);
void ftg_store_report(char *report, size_t len);
void ftg_kill(const char *fmt, ...) __printf(1, 2);
u64 ftg_site_hits(const struct ftg_patch_site *s);
bool ftg_memory_fails(void);
bool ftg_direct_is(unsigned long ip, unsigned long target);
bool ftg_tramp_is(unsigned long target, const char *func);
void ftg_enabled_forget(void);
bool ftg_graph_reaches(unsigned long ip, unsigned long target, bool prove);
int ftg_kernel_ftrace_off(char *why, size_t len);

/* ftg_kfile.c: one of the kernel's own files (see there) */
struct ftg_kfile {
	const char *const *dirs;	/* where its filesystem may be mounted */
	unsigned long magic;		/* that filesystem's */
	const char *names[4];		/* from the filesystem's root */
};

extern const struct ftg_kfile ftg_enabled_functions;
extern const struct ftg_kfile ftg_ftrace_enabled;
struct file *ftg_kfile_open(const struct ftg_kfile *kf);
ssize_t ftg_kfile_read(struct file *f, char *buf, size_t len, loff_t *pos);
bool ftg_ftrace_killed(void);
void ftg_arm_init(void);
void ftg_arm_exit(void);

/*
 * An arm counts its hits per CPU. The per-CPU allocator refuses (with a
 * WARN) any one allocation above its minimum unit size, so the counters
 * come in chunks of that size: site idx counts in chunk idx / FTG_CHUNK.
 */
#define FTG_CHUNK	(PCPU_MIN_UNIT_SIZE / sizeof(u64))

static inline u64 __percpu *ftg_hit_counter(const struct ftg_armset *set,
					    int idx)
{
	return &set->hits[idx / FTG_CHUNK][idx % FTG_CHUNK];
}

/*
 * The armed set the hit handlers read: the ops' once it is registered
 * (NULL while ftrace patches the sites), the probes' before they are;
 * freed only after they are unregistered (ftg_arm.c).
 */
extern struct ftg_armset *ftg_live_set;

#define FTG_SLOT_NONE	U32_MAX

/*
 * The entry of @set's hash index where the probe for @ip starts: the top
 * bits of a multiplicative hash (hash_long()'s, with the shift kept in the
 * set rather than computed on every hit).
 */
static __always_inline unsigned long
ftg_armset_hash(const struct ftg_armset *set, unsigned long ip)
{
	return (ip * GOLDEN_RATIO_PRIME) >> set->hash_shift;
}

/*
 * The slot of @ip in @set, -1 if it is not armed. A hit looks its ip up
 * in an open-addressing hash (linear probing, at most half full) rather
 * than by binary search of the sorted ips, so that the cost of a hit does
 * not grow with the armed set: with every vmlinux site armed a search
 * takes 16 steps on every call of every function. The loop ends because
 * the index always has empty entries.
 */
static __always_inline int ftg_armset_find(const struct ftg_armset *set,
					   unsigned long ip)
{
	unsigned long h = ftg_armset_hash(set, ip);
	u32 slot;

	while ((slot = set->hash[h]) != FTG_SLOT_NONE) {
		if (likely(set->ips[slot] == ip))
			return slot;
		h = (h + 1) & set->hash_mask;
	}
	return -1;
}

/**
 * ftg_count_hit - count a hit of @ip if it is in the armed set
 * @ip: the site hit
 *
 * Inline: it runs on every hit.
 * Context: an ftrace, fprobe or kretprobe handler; no lock.
 * Return: true if @ip is armed (and was counted).
 */
static __always_inline bool ftg_count_hit(unsigned long ip)
{
	struct ftg_armset *set = READ_ONCE(ftg_live_set);
	int idx;

	if (!set)
		return false;
	idx = ftg_armset_find(set, ip);
	if (idx < 0)
		return false;
	this_cpu_inc(*ftg_hit_counter(set, idx));
	return true;
}

/* ftg_graph.c */
extern const char *const ftg_graph_mechanism;
int ftg_graph_arm(struct ftg_armset *set, const unsigned long *roots,
		  unsigned int nroots, unsigned int max_depth, bool stack,
		  char *why, size_t len);
int ftg_graph_disarm(void);
bool ftg_graph_registered(void);
int ftg_graph_disarm_site(struct ftg_patch_site *s);
unsigned long ftg_graph_missed(void);
struct seq_file;
void ftg_graph_roots_show(struct seq_file *m);
unsigned int ftg_graph_max_depth(void);

/* ftg_trace.c: the hot events, written as doc/performance.md tells */
enum ftg_hot_count {
	FTG_HOT_COUNT_FAST,	/* straight into the ring buffer */
	FTG_HOT_COUNT_SLOW,	/* the kernel's event reserve and commit */
	FTG_HOT_COUNT_SHARED,	/* the tracepoint: another user wants them */
	FTG_NR_HOT_COUNTS
};
void ftg_func_callback(unsigned long ip, unsigned long parent_ip,
		       struct ftrace_ops *op, struct ftrace_regs *fregs);
void ftg_func_stack_callback(unsigned long ip, unsigned long parent_ip,
			     struct ftrace_ops *op, struct ftrace_regs *fregs);
void ftg_write_stack(unsigned long parent_ip);
void ftg_emit_graph_entry(unsigned long func, int depth);
void ftg_emit_graph_exit(unsigned long func, int depth, u64 calltime,
			 u64 rettime);
void ftg_hot_refresh(void);
unsigned long ftg_hot_events(enum ftg_hot_count kind);
bool ftg_hot_path(const char **reason);
void ftg_hot_init(const char *name);
void ftg_hot_exit(void);

/* ftg_control.c */
extern const struct file_operations ftg_control_fops;
void ftg_sessions_forget(unsigned long ip);
int ftg_chrdev_init(void);
void ftg_chrdev_exit(void);

/* ftg_tables.c */
int ftg_sites_render(char *const *owners, unsigned int n, char **text,
		     size_t *len);
int ftg_debugfs_init(void);
void ftg_debugfs_exit(void);

#endif /* FTG_H */
