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

int path_join(const char *root, const char *logical, char *buf, size_t n)
{
	int w = snprintf(buf, n, "%s%s", root ? root : "", logical);

	if (w < 0 || (size_t)w >= n)
		return -ENAMETOOLONG;
	return 0;
}

int read_file(const char *root, const char *logical, size_t max, char **out, size_t *len)
{
	char path[PATH_MAX], *buf = NULL;
	size_t n = 0, cap = 0;
	int fd, r;

	r = path_join(root, logical, path, sizeof(path));
	if (r < 0)
		return r;
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
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

int read_u64(const char *root, const char *logical, uint64_t *out)
{
	char buf[64], *end;
	unsigned long long v;
	int r = read_value(root, logical, buf, sizeof(buf));

	if (r < 0)
		return r;
	if (buf[0] < '0' || buf[0] > '9')
		return -EINVAL;
	errno = 0;
	v = strtoull(buf, &end, 10);
	if (errno || *end)
		return -EINVAL;
	*out = v;
	return 0;
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

static int mkdir_parents(char *path)
{
	for (char *p = strchr(path + 1, '/'); p; p = strchr(p + 1, '/')) {
		*p = '\0';
		if (mkdir(path, 0755) < 0 && errno != EEXIST) {
			int r = -errno;

			*p = '/';
			return r;
		}
		*p = '/';
	}
	return 0;
}

int write_file_atomic(const char *root, const char *logical, const char *s)
{
	char path[PATH_MAX], tmp[PATH_MAX + 16];
	size_t len = strlen(s);
	ssize_t w;
	int fd, r;

	r = path_join(root, logical, path, sizeof(path));
	if (r < 0)
		return r;
	r = mkdir_parents(path);
	if (r < 0)
		return r;
	snprintf(tmp, sizeof(tmp), "%s.tmpXXXXXX", path);
	fd = mkostemp(tmp, O_CLOEXEC);
	if (fd < 0)
		return -errno;
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
