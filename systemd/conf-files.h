/* SPDX-License-Identifier: GPL-2.0-only */
/* The configuration search path; see mglru-fg-tune.conf(5) "FILES". */
#ifndef MGLRU_FG_CONF_FILES_H
#define MGLRU_FG_CONF_FILES_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

/* The files to read, as logical paths in read order, NULL-terminated:
 * the tune.d files by basename, then /etc/mglru-fg/tune.conf. Returns
 * the number of directories that exist but could not be read, each
 * logged as an error. */
int conf_files_list(const char *root, char ***paths, size_t *n);
void conf_files_free(char **paths);
/* A symlink to /dev/null (or any character device) hides a file. */
bool conf_file_masked(const char *root, const char *logical);
/* Reads a configuration file if it is one to trust: a regular file, not
 * writable by group or others, owned by root or `owner` (the caller's
 * effective uid, so that tests and --root trees need not be root's).
 * Otherwise -1, with the reason in why. */
int conf_file_read(const char *root, const char *logical, uid_t owner, char **buf, size_t *len,
		   char *why, size_t n);

#endif
