// SPDX-License-Identifier: GPL-2.0
/* Instantiates ftguard's trace events (see ftg_trace.h). */
#define CREATE_TRACE_POINTS
#include "ftg_trace.h"
