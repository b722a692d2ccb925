// SPDX-License-Identifier: LGPL-2.1
/*
 * Errors and warnings: the last error of each thread (code + text) and the
 * caller's warning hook. The library itself never prints.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "ftguard-local.h"

#define _FTG_ERR(code, text) [FTG_E_##code] = text,
static const char *const ftg_error_texts[] = { FTG_ERRORS };
#undef _FTG_ERR

static __thread enum ftg_error last_code;
static __thread char last_msg[512];

static void (*warning_fn)(const char *msg, void *data);
static void *warning_data;

const char *ftg_strerror(enum ftg_error code)
{
	if ((unsigned int)code >= FTGL_ARRAY_SIZE(ftg_error_texts))
		return "unknown error";
	return ftg_error_texts[code];
}

const char *ftg_error_last(void)
{
	return last_msg;
}

enum ftg_error ftg_error_code(void)
{
	return last_code;
}

void ftg_error_clear(void)
{
	last_code = FTG_E_OK;
	last_msg[0] = '\0';
}

int ftgl_err(enum ftg_error code, int errnum, const char *fmt, ...)
{
	va_list ap;

	last_code = code;
	if (fmt) {
		va_start(ap, fmt);
		vsnprintf(last_msg, sizeof(last_msg), fmt, ap);
		va_end(ap);
	} else {
		snprintf(last_msg, sizeof(last_msg), "%s", ftg_strerror(code));
	}
	errno = errnum;
	return -1;
}

int ftgl_err_prefix(const char *fmt, ...)
{
	char prefix[256], inner[sizeof(last_msg)];
	int saved = errno;
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(prefix, sizeof(prefix), fmt, ap);
	va_end(ap);
	snprintf(inner, sizeof(inner), "%s", last_msg);
	/* A message cut at 511 bytes is still a message. */
	if (snprintf(last_msg, sizeof(last_msg), "%s: %s", prefix, inner) < 0)
		last_msg[0] = '\0';
	errno = saved;
	return -1;
}

void ftgl_warn(const char *fmt, ...)
{
	char msg[512];
	va_list ap;

	if (!warning_fn)
		return;
	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	warning_fn(msg, warning_data);
}

void ftg_set_warning_handler(void (*fn)(const char *msg, void *data),
			     void *data)
{
	warning_fn = fn;
	warning_data = data;
}
