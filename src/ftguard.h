/* SPDX-License-Identifier: LGPL-2.1 */
/*
 * libftguard - the userspace side of ftguard, a safe function tracer.
 *
 * Conventions (as libtracefs): functions return -1 or NULL with errno set
 * on failure; every constructor has a matching _free(); a returned
 * "const char *" belongs to the object it came from and must not be freed.
 * Every reader takes the root directory it reads from (procfs, sysfs,
 * debugfs, tracefs) so that a saved snapshot can stand in for the live
 * system.
 */
#ifndef _FTGUARD_H
#define _FTGUARD_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#ifdef __cplusplus
extern "C" {
#endif

/* ==== Errors (owner: lib core) ==== */

/* ==== Kernel readers: kallsyms, modules, vmallocinfo, sections, ftrace files (owner: lib core) ==== */

/* ==== ftguard.ko tables and control (owner: lib core) ==== */

/* ==== Selection (owner: lib core) ==== */

/* ==== Address map (owner: lib core) ==== */

/* ==== Checker (owner: lib core) ==== */

/* ==== Live events: instance, decoding, streaming (owner: trace) ==== */

/* ==== Trace files: trace.dat writer/reader, exports (owner: trace) ==== */

#ifdef __cplusplus
}
#endif

#endif /* _FTGUARD_H */
