// SPDX-License-Identifier: GPL-2.0-only
#include "log.h"

#include <stdarg.h>
#include <stdio.h>

void log_msg(int prio, const char *fmt, ...)
{
	char msg[1024];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	/* One fprintf per line: interleaving with a child's output (systemctl)
	 * must not split a prefix from its message. */
	fprintf(stderr, "<%d>%s\n", prio, msg);
}
