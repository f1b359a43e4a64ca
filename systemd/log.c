// SPDX-License-Identifier: GPL-2.0-only
#include "log.h"

#include <stdarg.h>
#include <stdio.h>

static FILE *log_out;

void log_set_output(FILE *f)
{
	log_out = f;
}

void log_msg(int prio, const char *fmt, ...)
{
	char msg[1024];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	/* One fprintf per line: interleaving with a child's output (systemctl)
	 * must not split a prefix from its message. */
	fprintf(log_out ? log_out : stderr, "<%d>%s\n", prio, msg);
}
