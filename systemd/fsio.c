// SPDX-License-Identifier: GPL-2.0-only
#include "fsio.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "util.h"
#include "values.h"

int path_join(const char *root, const char *logical, char *buf, size_t n)
{
	int w = snprintf(buf, n, "%s%s", root ? root : "", logical);

	if (w < 0 || (size_t)w >= n)
		return -ENAMETOOLONG;
	return 0;
}

int read_fd(int fd, size_t max, char **out, size_t *len)
{
	char *buf = NULL;
	size_t n = 0, cap = 0;
	int r;

	for (;;) {
		ssize_t got;

		if (cap - n < 4096) {
			cap = cap ? cap * 2 : 8192;
			buf = xrealloc(buf, cap);
		}
		got = read(fd, buf + n, cap - n - 1);
		if (got < 0) {
			if (errno == EINTR)
				continue;
			r = -errno;
			goto fail;
		}
		if (got == 0)
			break;
		n += (size_t)got;
		if (n > max) {
			r = -EFBIG;
			goto fail;
		}
	}
	close(fd);
	buf[n] = '\0';
	*out = buf;
	if (len)
		*len = n;
	return 0;
fail:
	close(fd);
	free(buf);
	return r;
}

int read_file(const char *root, const char *logical, size_t max, char **out, size_t *len)
{
	char path[PATH_MAX];
	int fd, r;

	r = path_join(root, logical, path, sizeof(path));
	if (r < 0)
		return r;
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	return read_fd(fd, max, out, len);
}

int read_value(const char *root, const char *logical, char *buf, size_t n)
{
	char *s;
	size_t len;
	int r = read_file(root, logical, 65536, &s, &len);

	if (r < 0)
		return r;
	while (len > 0 && (s[len - 1] == '\n' || s[len - 1] == ' ' || s[len - 1] == '\t'))
		s[--len] = '\0';
	if (len >= n) {
		free(s);
		return -EOVERFLOW;
	}
	memcpy(buf, s, len + 1);
	free(s);
	return 0;
}

static int parse_u64_value(const char *buf, uint64_t *out)
{
	char *end;
	unsigned long long v;

	if (buf[0] < '0' || buf[0] > '9')
		return -EINVAL;
	errno = 0;
	v = strtoull(buf, &end, 10);
	if (errno || *end)
		return -EINVAL;
	*out = v;
	return 0;
}

int read_u64(const char *root, const char *logical, uint64_t *out)
{
	char buf[64];
	int r = read_value(root, logical, buf, sizeof(buf));

	return r < 0 ? r : parse_u64_value(buf, out);
}

int read_u64_or_max(const char *root, const char *logical, uint64_t *out)
{
	char buf[64];
	int r = read_value(root, logical, buf, sizeof(buf));

	if (r < 0)
		return r;
	if (strcmp(buf, "max") == 0) {
		*out = UINT64_MAX;
		return 0;
	}
	return parse_u64_value(buf, out);
}

int write_value(const char *root, const char *logical, const char *s)
{
	char path[PATH_MAX];
	size_t len = strlen(s);
	ssize_t w;
	int fd, r;

	r = path_join(root, logical, path, sizeof(path));
	if (r < 0)
		return r;
	fd = open(path, O_WRONLY | O_TRUNC | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	w = write(fd, s, len);
	r = w < 0 ? -errno : (size_t)w != len ? -EIO : 0;
	if (close(fd) < 0 && r == 0)
		r = -errno;
	return r;
}

/* Creates the missing parents of path. *first is the offset of the '/'
 * that ends the first directory created here, 0 if none was, so that a
 * failed write can take back what it created (rmdir_created()). */
static int mkdir_parents(char *path, size_t *first)
{
	*first = 0;
	for (char *p = strchr(path + 1, '/'); p; p = strchr(p + 1, '/')) {
		*p = '\0';
		if (mkdir(path, 0755) == 0) {
			if (!*first)
				*first = (size_t)(p - path);
		} else if (errno != EEXIST) {
			int r = -errno;

			*p = '/';
			return r;
		}
		*p = '/';
	}
	return 0;
}

/* Deepest first, and only while empty: a directory someone else put a
 * file into meanwhile stays. */
static void rmdir_created(char *path, size_t first)
{
	char *p = strrchr(path, '/');

	while (first && p && (size_t)(p - path) >= first) {
		char *up;

		*p = '\0';
		rmdir(path);
		up = strrchr(path, '/');
		*p = '/';
		p = up;
	}
}

int write_file_atomic(const char *root, const char *logical, const char *s)
{
	char path[PATH_MAX], tmp[PATH_MAX + 16];
	size_t len = strlen(s), first;
	ssize_t w;
	int fd, r;

	r = path_join(root, logical, path, sizeof(path));
	if (r < 0)
		return r;
	r = mkdir_parents(path, &first);
	if (r < 0)
		goto out;
	snprintf(tmp, sizeof(tmp), "%s" ATOMIC_TMP_SUFFIX, path);
	fd = mkostemp(tmp, O_CLOEXEC);
	if (fd < 0) {
		r = -errno;
		goto out;
	}
	w = write(fd, s, len);
	r = w < 0 ? -errno : (size_t)w != len ? -EIO : 0;
	if (r == 0 && fchmod(fd, 0644) < 0)
		r = -errno;
	if (close(fd) < 0 && r == 0)
		r = -errno;
	if (r == 0 && rename(tmp, path) < 0)
		r = -errno;
	if (r < 0)
		unlink(tmp);
out:
	if (r < 0)
		rmdir_created(path, first);
	return r;
}

int remove_file(const char *root, const char *logical)
{
	char path[PATH_MAX];
	int r = path_join(root, logical, path, sizeof(path));

	if (r < 0)
		return r;
	return unlink(path) < 0 ? -errno : 0;
}

bool path_exists(const char *root, const char *logical)
{
	char path[PATH_MAX];
	struct stat st;

	return path_join(root, logical, path, sizeof(path)) == 0 && stat(path, &st) == 0;
}

bool path_is_dir(const char *root, const char *logical)
{
	char path[PATH_MAX];
	struct stat st;

	return path_join(root, logical, path, sizeof(path)) == 0 && stat(path, &st) == 0 &&
	       S_ISDIR(st.st_mode);
}
