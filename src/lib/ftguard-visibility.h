/* SPDX-License-Identifier: LGPL-2.1 */
/*
 * Forced first (-include) into every libftguard source, which is compiled
 * with -fvisibility=hidden: the public header is declared here with
 * default visibility, so what ftguard.h declares is exported and
 * everything else stays inside the library. ftguard.h's include guard
 * makes later #include "ftguard.h" lines no-ops.
 */
#pragma GCC visibility push(default)
#include "ftguard.h"
#pragma GCC visibility pop
