/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What a patch site looks like on each architecture ftguard supports.
 *
 * A site is the kernel's ftrace record: the instruction that ftrace turns
 * into a call. It is not always at the function's first byte. The bytes
 * between the function's start and the record, the prefix, are text that
 * the site relies on (a sealed endbr is still the function's first
 * instruction), so a check reads and verifies the whole prologue: prefix
 * then site. Which prefixes an arch may put there is a build-time fact of
 * the kernel's config, not of its version number:
 *  - x86 without IBT: the record is the function's first instruction;
 *  - x86 with X86_KERNEL_IBT: functions that may be called indirectly
 *    begin with endbr64, and boot (or module load) seals the ones whose
 *    address is never taken by overwriting endbr64 with a 4-byte NOP;
 *    the record follows at +4. Functions without endbr keep it at +0;
 *  - arm64 (patchable function entry): two NOPs at the entry, the first
 *    becomes "mov x9, x30" when ftrace initialises the site and the
 *    second is the record; with BTI, "bti c" comes first.
 */
#ifndef FTG_ARCH_H
#define FTG_ARCH_H

#include <linux/ftrace.h>
#include <linux/string.h>
#include <linux/types.h>

#include "ftg_conftest.h"
#ifdef FTG_HAVE_LINUX_UNALIGNED_H
#include <linux/unaligned.h>
#else
#include <asm/unaligned.h>
#endif

#define FTG_SITE_BYTES		MCOUNT_INSN_SIZE	/* 5 x86, 4 arm64 */
#define FTG_PREFIX_MAX		8
#define FTG_PROLOGUE_MAX	(FTG_PREFIX_MAX + FTG_SITE_BYTES)

/* Bytes that may stand between a function's start and its record. */
struct ftg_prefix {
	u8 len;
	u8 bytes[FTG_PREFIX_MAX];
};

#if defined(CONFIG_X86)
#include <asm/nops.h>

#define FTG_ARCH_NOP		{ BYTES_NOP5 }
#define FTG_ARCH_CALL_OP	0xe8	/* call rel32 */

static const struct ftg_prefix ftg_arch_prefixes[] = {
	{ 0 },
#ifdef CONFIG_X86_KERNEL_IBT
	{ 4, { 0xf3, 0x0f, 0x1e, 0xfa } },	/* endbr64 */
	{ 4, { 0x66, 0x0f, 0x1f, 0x00 } },	/* endbr64 sealed */
#endif
};

/* A first byte int3 is another patch in flight (text_poke_bp). */
static inline bool ftg_arch_patch_in_flight(const u8 *site)
{
	return site[0] == 0xcc;
}

/*
 * The target of the call that an armed site holds, from its bytes; false
 * if they are no call. @call_op is the site's expected opcode (changed
 * by fault injection).
 */
static inline bool ftg_arch_call_target(unsigned long ip, const u8 *site,
					u8 call_op, unsigned long *target)
{
	if (site[0] != call_op)
		return false;
	*target = ip + FTG_SITE_BYTES + (s32)get_unaligned_le32(&site[1]);
	return true;
}

/*
 * Fault injection only: makes @site (a copy of what was read, never text)
 * the call to @target that an armed site at @ip would hold.
 */
static inline bool ftg_arch_call_encode(unsigned long ip, u8 *site,
					u8 call_op, unsigned long target)
{
	site[0] = call_op;
	put_unaligned_le32((u32)(target - (ip + FTG_SITE_BYTES)), &site[1]);
	return true;
}

/* A module's build-time call sites are its records already. */
static inline unsigned long ftg_arch_callsite_record(unsigned long callsite)
{
	return callsite;
}

/* x86 calls reach every trampoline directly: modules have no PLT for it. */
#define FTG_ARCH_PLT_BYTES	0

static inline bool ftg_arch_plt_target(unsigned long plt, const u8 *bytes,
				       unsigned long *target)
{
	return false;
}

#elif defined(CONFIG_ARM64)

#define FTG_ARCH_NOP		{ 0x1f, 0x20, 0x03, 0xd5 }	/* nop */
#define FTG_ARCH_CALL_OP	0x94	/* bl: top 6 bits 100101 */

static const struct ftg_prefix ftg_arch_prefixes[] = {
	{ 4, { 0xe9, 0x03, 0x1e, 0xaa } },			/* mov x9, x30 */
	{ 8, { 0x5f, 0x24, 0x03, 0xd5, 0xe9, 0x03, 0x1e, 0xaa } }, /* bti c */
};

/* arm64 patches one aligned word at a time: no site is ever half-written. */
static inline bool ftg_arch_patch_in_flight(const u8 *site)
{
	return false;
}

static inline bool ftg_arch_call_target(unsigned long ip, const u8 *site,
					u8 call_op, unsigned long *target)
{
	u32 insn = get_unaligned_le32(site);

	if ((insn >> 24 & 0xfc) != call_op)
		return false;
	*target = ip + ((long)(s32)((insn & 0x03ffffff) << 6) >> 4);
	return true;
}

/* Fault injection's planted calls are x86's only. */
static inline bool ftg_arch_call_encode(unsigned long ip, u8 *site,
					u8 call_op, unsigned long target)
{
	return false;
}

/*
 * A module's build-time call site is the first NOP the compiler emitted
 * for ftrace; the record is the NOP after "mov x9, x30", and with
 * DYNAMIC_FTRACE_WITH_CALL_OPS two more NOPs before the function hold the
 * ops literal. The kernel adjusts the same way (ftrace_call_adjust(),
 * not exported on 6.12). With CALL_OPS and ARM64_BTI_KERNEL a "bti c"
 * would come between: such a kernel's sites fail the prologue check
 * (mismatch), so they are never armed.
 */
static inline unsigned long ftg_arch_callsite_record(unsigned long callsite)
{
#ifdef CONFIG_DYNAMIC_FTRACE_WITH_CALL_OPS
	callsite += 2 * AARCH64_INSN_SIZE;
#endif
	return callsite + AARCH64_INSN_SIZE;
}

/*
 * A module loaded beyond bl's 128 MiB reaches ftrace_caller through a PLT
 * entry in its own text (.text.ftrace_trampoline, one per ftrace entry):
 * adrp x16, dst; add x16, x16, :lo12:dst; br x16. Decodes where it goes.
 */
#define FTG_ARCH_PLT_BYTES	12

static inline bool ftg_arch_plt_target(unsigned long plt, const u8 *bytes,
				       unsigned long *target)
{
	u32 adrp = get_unaligned_le32(bytes);
	u32 add = get_unaligned_le32(bytes + 4);
	u32 br = get_unaligned_le32(bytes + 8);
	u64 page;

	if ((adrp & 0x9f00001f) != 0x90000010 ||	/* adrp x16 */
	    (add & 0xffc003ff) != 0x91000210 ||	/* add x16, x16, #imm */
	    br != 0xd61f0200)				/* br x16 */
		return false;
	page = ((u64)(adrp >> 5 & 0x7ffff) << 2 | (adrp >> 29 & 3)) << 12;
	*target = (plt & ~0xfffUL) + ((long)(page << 31) >> 31) +
		  (add >> 10 & 0xfff);
	return true;
}

#else
#error "ftguard knows the patch sites of x86 and arm64 only"
#endif

/* Is @off a record offset some prefix of this kernel's arch can make? */
static inline bool ftg_arch_offset_ok(unsigned long off)
{
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(ftg_arch_prefixes); i++)
		if (ftg_arch_prefixes[i].len == off)
			return true;
	return false;
}

/*
 * memcmp() for equality, inline: a check must not call a function that
 * an arm of the whole kernel traces once per site.
 */
static inline bool ftg_bytes_equal(const u8 *a, const u8 *b, unsigned int n)
{
	unsigned int i;

	for (i = 0; i < n; i++)
		if (a[i] != b[i])
			return false;
	return true;
}

/* The prefix @bytes (of length @len) is, or NULL if the arch makes none such. */
static inline const struct ftg_prefix *ftg_arch_prefix_of(const u8 *bytes,
							  unsigned int len)
{
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(ftg_arch_prefixes); i++)
		if (ftg_arch_prefixes[i].len == len &&
		    ftg_bytes_equal(ftg_arch_prefixes[i].bytes, bytes, len))
			return &ftg_arch_prefixes[i];
	return NULL;
}

/* The first prefix of length @len: what a check expected when none matched. */
static inline const struct ftg_prefix *ftg_arch_prefix_first(unsigned int len)
{
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(ftg_arch_prefixes); i++)
		if (ftg_arch_prefixes[i].len == len)
			return &ftg_arch_prefixes[i];
	return NULL;
}

#endif /* FTG_ARCH_H */
