/* SPDX-License-Identifier: GPL-2.0-only */
/* What the tests that run the whole program share: paths, the standard
 * configuration (test_cli.c) and checks of files and systemctl calls. */
#ifndef TUNE_CLI_H
#define TUNE_CLI_H

#include "harness.h"

#define VENDOR "/usr/lib/mglru-fg/tune.d/50-default.conf"
#define LOCAL "/etc/mglru-fg/tune.d/90-local.conf"
#define SYS_DROPIN "/run/systemd/system/system.slice.d/50-mglru-fg-tune.conf"
#define MIN_TTL "/sys/kernel/mm/lru_gen/min_ttl_ms"
#define MARKER "/run/mglru-fg/reload-pending"
#define SYS_CG "/sys/fs/cgroup/system.slice"
#define DROPIN_HEAD "# Written by mglru-fg-tune(8) from mglru-fg-tune.conf(5). Do not edit:\n" \
		    "# the next \"mglru-fg-tune apply\" replaces or removes this file.\n[Slice]\n"

/* Vendor MinTTL=1s for fg, LOCAL for system.slice (standard_dropin). */
void standard(struct fake *f);
extern const char standard_dropin[];

/* want NULL: the file must not exist. */
void check_file(struct fake *f, const char *path, const char *want, const char *file, int line);
#define CHECK_FILE(f, p, w) check_file(f, p, w, __FILE__, __LINE__)
void check_log(struct fake *f, const char *want, const char *file, int line);
#define CHECK_SYSTEMCTL(f, w) check_log(f, w, __FILE__, __LINE__)

#endif
