// SPDX-License-Identifier: GPL-2.0-only
/* Which configuration files count, in which order: the tune.d files by
 * the sysctl.d(5) and tmpfiles.d(5) scheme, so administrators need
 * nothing new to learn, then /etc/mglru-fg/tune.conf. That one comes
 * last because it is the administrator's: read first, as it once was,
 * the vendor's tune.d/50-default.conf overrode the MinTTL= set in it. */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "conf-files.h"
#include "fsio.h"
#include "log.h"
#include "tune.h"
#include "util.h"

#ifndef TUNE_VENDOR_DIR
#define TUNE_VENDOR_DIR "/usr/lib/mglru-fg/tune.d"
#endif

#define MAIN_CONF "/etc/mglru-fg/tune.conf"

/* Highest priority first: a basename found here hides it further down. */
static const char *const conf_dirs[] = {
	"/etc/mglru-fg/tune.d",
	"/run/mglru-fg/tune.d",
	TUNE_VENDOR_DIR,
};

struct entry {
	char *base;
	char *path;
};

static int cmp_entry(const void *a, const void *b)
{
	return strcmp(((const struct entry *)a)->base, ((const struct entry *)b)->base);
}

bool conf_file_masked(const char *root, const char *logical)
{
	char real[PATH_MAX], target[16];
	struct stat st;
	ssize_t n;

	if (path_join(root, logical, real, sizeof(real)) < 0 || lstat(real, &st) < 0)
		return false;
	if (S_ISLNK(st.st_mode)) {
		n = readlink(real, target, sizeof(target) - 1);
		if (n == 9 && memcmp(target, "/dev/null", 9) == 0)
			return true;
	}
	return stat(real, &st) == 0 && S_ISCHR(st.st_mode);
}

static bool wanted_name(const char *name)
{
	size_t len = strlen(name);

	return name[0] != '.' && len > 5 && strcmp(name + len - 5, ".conf") == 0;
}

/* 0, or -errno if the directory is there but cannot be read (EACCES,
 * ENOTDIR, EIO...): only a missing one means "no files", since the files
 * in it may hold the limits in force now. */
static int add_dir(const char *root, const char *dir, struct entry **v, size_t *n, size_t *cap)
{
	char real[PATH_MAX];
	struct dirent *de;
	DIR *d;
	int e;

	if (path_join(root, dir, real, sizeof(real)) < 0)
		return -ENAMETOOLONG;
	d = opendir(real);
	if (!d)
		return errno == ENOENT ? 0 : -errno;
	for (;;) {
		bool seen = false;
		char path[PATH_MAX];

		errno = 0;
		de = readdir(d);
		if (!de)
			break;
		if (!wanted_name(de->d_name))
			continue;
		for (size_t i = 0; i < *n && !seen; i++)
			seen = strcmp((*v)[i].base, de->d_name) == 0;
		if (seen || (size_t)snprintf(path, sizeof(path), "%s/%s", dir, de->d_name) >= sizeof(path))
			continue;
		*v = grow(*v, cap, *n, sizeof(**v));
		(*v)[*n].base = xstrdup(de->d_name);
		(*v)[*n].path = xstrdup(path);
		(*n)++;
	}
	e = errno ? -errno : 0;
	closedir(d);
	return e;
}

/* Only ENOENT says there is no such file. Any other failure (a directory
 * above it that cannot be searched, say) leaves it on the list, so that
 * reading it fails with the reason. */
static bool may_exist(const char *root, const char *logical)
{
	char real[PATH_MAX];
	struct stat st;

	return path_join(root, logical, real, sizeof(real)) < 0 || stat(real, &st) == 0 ||
	       errno != ENOENT;
}

int conf_files_list(const char *root, char ***out, size_t *n_out)
{
	struct entry *v = NULL;
	size_t n = 0, cap = 0, k = 0;
	char **paths;
	int bad = 0;

	for (size_t i = 0; i < ARRAY_SIZE(conf_dirs); i++) {
		int e = add_dir(root, conf_dirs[i], &v, &n, &cap);

		if (e < 0) {
			log_error("%s: cannot read the directory: %s", conf_dirs[i], strerror(-e));
			bad++;
		}
	}
	if (n)
		qsort(v, n, sizeof(*v), cmp_entry);
	paths = xcalloc(n + 2, sizeof(*paths));
	for (size_t i = 0; i < n; i++) {
		if (!conf_file_masked(root, v[i].path))
			paths[k++] = v[i].path;
		else
			free(v[i].path);
		free(v[i].base);
	}
	free(v);
	if (may_exist(root, MAIN_CONF) && !conf_file_masked(root, MAIN_CONF))
		paths[k++] = xstrdup(MAIN_CONF);
	paths[k] = NULL;
	*out = paths;
	*n_out = k;
	return bad;
}

void conf_files_free(char **paths)
{
	for (size_t i = 0; paths && paths[i]; i++)
		free(paths[i]);
	free(paths);
}

static void diag(void *userdata, enum conf_diag level, const char *file, unsigned line,
		 const char *msg)
{
	(void)userdata;
	log_msg(level == CONF_ERROR ? LOG_ERR : LOG_WARNING, "%s:%u: %s", file, line, msg);
}

int conf_file_read(const char *root, const char *logical, uid_t owner, char **buf, size_t *len,
		   char *why, size_t n)
{
	char real[PATH_MAX];
	struct stat st;
	int fd, r;

	if (path_join(root, logical, real, sizeof(real)) < 0) {
		snprintf(why, n, "cannot read: %s", strerror(ENAMETOOLONG));
		return -1;
	}
	/* O_NONBLOCK: opening a FIFO must not wait for a writer. */
	fd = open(real, O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOCTTY);
	if (fd < 0) {
		snprintf(why, n, "cannot read: %s", strerror(errno));
		return -1;
	}
	if (fstat(fd, &st) < 0) {
		snprintf(why, n, "cannot read: %s", strerror(errno));
		close(fd);
		return -1;
	}
	/* Checked on what was opened, not on the name, so a file swapped in
	 * meanwhile cannot slip through; symlinks count by their target. */
	if (!S_ISREG(st.st_mode)) {
		snprintf(why, n, "refused: not a regular file (%s)", S_ISDIR(st.st_mode) ? "a directory" :
			 S_ISFIFO(st.st_mode) ? "a FIFO" : S_ISSOCK(st.st_mode) ? "a socket" : "a device");
		close(fd);
		return -1;
	}
	/* These files decide memory limits as root: one that others can
	 * write is a way for them to do that (sudo and sshd refuse too). */
	if (st.st_mode & (S_IWGRP | S_IWOTH)) {
		snprintf(why, n, "refused: writable by %s (mode %04o); chmod go-w it",
			 st.st_mode & S_IWOTH ? "everyone" : "its group",
			 (unsigned)(st.st_mode & 07777));
		close(fd);
		return -1;
	}
	if (st.st_uid != 0 && st.st_uid != owner) {
		if (owner == 0)
			snprintf(why, n, "refused: owned by uid %u, not by root", (unsigned)st.st_uid);
		else
			snprintf(why, n, "refused: owned by uid %u, not by root or uid %u",
				 (unsigned)st.st_uid, (unsigned)owner);
		close(fd);
		return -1;
	}
	r = read_fd(fd, CONF_FILE_MAX, buf, len);
	if (r < 0) {
		snprintf(why, n, "cannot read: %s", r == -EFBIG ? "larger than 1 MiB" : strerror(-r));
		return -1;
	}
	return 0;
}

/* The files that hold a conflicting line, each counted once. */
struct conflicts {
	const char **files;
	size_t n;
};

static void conflict_diag(void *userdata, enum conf_diag level, const char *file, unsigned line,
			  const char *msg)
{
	struct conflicts *c = userdata;

	diag(NULL, level, file, line, msg);
	for (size_t i = 0; i < c->n; i++)
		if (c->files[i] == file)
			return;
	c->files = xrealloc(c->files, (c->n + 1) * sizeof(*c->files));
	c->files[c->n++] = file;
}

/* After merging: a conflict between files is an error of the file that
 * holds the line it is reported at. */
static void check_merged(struct tune *t)
{
	struct conflicts c = { NULL, 0 };
	uint64_t total = 0;

	if (conf_check_needs_mem_total(&t->conf))
		tune_mem_total(t, &total);
	conf_check(&t->conf, t->policy, total, conflict_diag, &c);
	t->config_errors += (unsigned)c.n;
	free(c.files);
}

int tune_load_config(struct tune *t)
{
	char **paths;
	size_t n;

	/* an unreadable directory counts as a file with errors */
	t->config_errors += (unsigned)conf_files_list(t->root, &paths, &n);
	for (size_t i = 0; i < n; i++) {
		struct conf one;
		char *buf, why[128];
		size_t len;
		int errors;

		if (conf_file_read(t->root, paths[i], geteuid(), &buf, &len, why, sizeof(why)) < 0) {
			log_error("%s: %s, nothing from this file is applied", paths[i], why);
			t->config_errors++;
			continue;
		}
		conf_init(&one);
		errors = conf_parse(&one, paths[i], buf, len, diag, NULL);
		free(buf);
		if (errors > 0) {
			log_error("%s: %d error%s, nothing from this file is applied", paths[i],
				  errors, errors == 1 ? "" : "s");
			t->config_errors++;
			conf_free(&one);
			continue;
		}
		conf_merge(&t->conf, &one);
	}
	conf_files_free(paths);
	check_merged(t);
	return t->config_errors ? -1 : 0;
}

int tune_cat_config(struct tune *t)
{
	char **paths;
	size_t n;
	int ret = conf_files_list(t->root, &paths, &n) ? -1 : 0;

	if (n == 0 && ret == 0)
		log_notice("no configuration files");
	for (size_t i = 0; i < n; i++) {
		char *buf, why[128];
		size_t len;

		if (conf_file_read(t->root, paths[i], geteuid(), &buf, &len, why, sizeof(why)) < 0) {
			runtime_error(t, "%s: %s", paths[i], why);
			ret = -1;
			continue;
		}
		printf("%s# %s\n", i ? "\n" : "", paths[i]);
		fwrite(buf, 1, len, stdout);
		if (len && buf[len - 1] != '\n')
			putchar('\n');
		free(buf);
	}
	conf_files_free(paths);
	return ret;
}
