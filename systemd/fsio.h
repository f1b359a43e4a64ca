/* SPDX-License-Identifier: GPL-2.0-only */
/* File access below an optional --root. Every path a caller passes is the
 * logical absolute path ("/sys/..."), which is also what messages show;
 * the root is only prefixed here. Errors are returned as -errno. */
#ifndef MGLRU_FG_FSIO_H
#define MGLRU_FG_FSIO_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

int path_join(const char *root, const char *logical, char *buf, size_t n);
/* Whole file, NUL-terminated; fails with -EFBIG past max bytes. */
/* Reads fd to its end and closes it; as read_file(). */
int read_fd(int fd, size_t max, char **out, size_t *len);
int read_file(const char *root, const char *logical, size_t max, char **out, size_t *len);
/* A small file with trailing whitespace removed. */
int read_value(const char *root, const char *logical, char *buf, size_t n);
int read_u64(const char *root, const char *logical, uint64_t *out);
/* A cgroup limit: a number, or "max" as UINT64_MAX. */
int read_u64_or_max(const char *root, const char *logical, uint64_t *out);
/* One write(2) into an existing file, as kernfs wants it. */
int write_value(const char *root, const char *logical, const char *s);
/* Creates parent directories, writes a temporary file and renames it, so
 * that readers (systemd) never see half a file. On failure nothing is
 * left: neither the temporary file nor the directories it created. */
int write_file_atomic(const char *root, const char *logical, const char *s);
int remove_file(const char *root, const char *logical);
bool path_exists(const char *root, const char *logical);
bool path_is_dir(const char *root, const char *logical);

#endif
