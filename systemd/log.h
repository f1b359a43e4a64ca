/* SPDX-License-Identifier: GPL-2.0-only */
/* Diagnostics go to stderr with sd-daemon(3) "<N>" priority prefixes, so
 * that journald files them at the right level when we run as a service. */
#ifndef MGLRU_FG_LOG_H
#define MGLRU_FG_LOG_H

#include <stdio.h>
#include <syslog.h>

/* stderr unless set; the fuzzer sends the messages elsewhere. */
void log_set_output(FILE *f);
void log_msg(int prio, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

#define log_error(...) log_msg(LOG_ERR, __VA_ARGS__)
#define log_warning(...) log_msg(LOG_WARNING, __VA_ARGS__)
#define log_notice(...) log_msg(LOG_NOTICE, __VA_ARGS__)
#define log_info(...) log_msg(LOG_INFO, __VA_ARGS__)

#endif
