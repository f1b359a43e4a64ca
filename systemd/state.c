// SPDX-License-Identifier: GPL-2.0-only
/* What apply leaves behind besides the kernel's own files: drop-ins, the
 * reload marker, reclaim stamps and the min_ttl_ms it replaced. Kept in
 * one place so that revert undoes exactly what apply and reclaim do. */
#include <dirent.h>
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "fsio.h"
#include "log.h"
#include "tune.h"
#include "util.h"

int dropin_path(const char *slice, char *buf, size_t n)
{
	int w = snprintf(buf, n, DROPIN_DIR "/%s.d/" DROPIN_NAME, slice);

	return w < 0 || (size_t)w >= n ? -1 : 0;
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/*
 * The names in DIR (under the root) that start with PREFIX and end with
 * SUFFIX, sorted, each without PREFIX and without all but the first KEEP
 * characters of SUFFIX.
 */
static char **dir_names(struct tune *t, const char *dir, const char *prefix, const char *suffix,
			size_t keep, size_t *n_out)
{
	size_t pre = strlen(prefix), suf = strlen(suffix), n = 0, cap = 0;
	char real[PATH_MAX], **names = NULL;
	struct dirent *de;
	DIR *d;

	*n_out = 0;
	if (path_join(t->root, dir, real, sizeof(real)) < 0 || !(d = opendir(real)))
		return NULL;
	while ((de = readdir(d))) {
		size_t len = strlen(de->d_name);

		if (len > pre + suf && strncmp(de->d_name, prefix, pre) == 0 &&
		    strcmp(de->d_name + len - suf, suffix) == 0) {
			names = grow(names, &cap, n, sizeof(*names));
			names[n++] = xstrndup(de->d_name + pre, len - pre - suf + keep);
		}
	}
	closedir(d);
	if (n)
		qsort(names, n, sizeof(*names), cmp_str);
	*n_out = n;
	return names;
}

/* The slices that have a drop-in directory (<slice>.d) in DROPIN_DIR, sorted. */
char **dropin_slices(struct tune *t, size_t *n_out)
{
	return dir_names(t, DROPIN_DIR, "", ".slice.d", strlen(".slice"), n_out);
}

/* The slices that have a STATE_DIR/PREFIX<slice>SUFFIX record, sorted. */
char **state_slices(struct tune *t, const char *prefix, const char *suffix, size_t *n_out)
{
	return dir_names(t, STATE_DIR, prefix, suffix, 0, n_out);
}

void free_strv(char **v, size_t n)
{
	for (size_t i = 0; i < n; i++)
		free(v[i]);
	free(v);
}

int dropin_remove(struct tune *t, const char *path)
{
	char dir[PATH_MAX], real[PATH_MAX];
	int e = remove_file(t->root, path);

	if (e < 0 && e != -ENOENT)
		return e;
	snprintf(dir, sizeof(dir), "%s", path);
	*strrchr(dir, '/') = '\0';
	/* Only if empty: the directory may hold the administrator's files. */
	if (path_join(t->root, dir, real, sizeof(real)) == 0)
		rmdir(real);
	return 0;
}

void reload_mark(struct tune *t)
{
	int e = write_file_atomic(t->root, RELOAD_PENDING, "");

	if (e < 0)
		log_warning("cannot write " RELOAD_PENDING ": %s", strerror(-e));
}

int reload_now(struct tune *t)
{
	int e;

	if (tune_systemctl(t, "daemon-reload") < 0)
		return -1;
	e = remove_file(t->root, RELOAD_PENDING);
	if (e < 0 && e != -ENOENT)
		log_warning("cannot remove " RELOAD_PENDING ": %s", strerror(-e));
	return 0;
}

/* "ORIGINAL WRITTEN\n": the value before the first write, kept across
 * applies, and the last value written, so that revert can tell whether
 * someone else has changed it since. */
int min_ttl_saved(struct tune *t, uint64_t *orig, uint64_t *written)
{
	char buf[64], end;
	unsigned long long o, w;
	int e = read_value(t->root, MIN_TTL_SAVED, buf, sizeof(buf));

	if (e < 0)
		return e;
	if (buf[0] < '0' || buf[0] > '9' || sscanf(buf, "%llu %llu%c", &o, &w, &end) != 2)
		return -EINVAL;
	*orig = o;
	*written = w;
	return 0;
}

int min_ttl_save(struct tune *t, uint64_t cur, uint64_t want)
{
	uint64_t orig = cur, last;
	char buf[64];

	if (min_ttl_saved(t, &orig, &last) < 0)
		orig = cur;
	snprintf(buf, sizeof(buf), "%" PRIu64 " %" PRIu64 "\n", orig, want);
	return write_file_atomic(t->root, MIN_TTL_SAVED, buf);
}

bool min_ttl_same(uint64_t cur, uint64_t want)
{
	if (!cur || !want)
		return cur == want;
	return cur >= want && cur - want < JIFFY_SLACK_MS;
}

int min_ttl_restorable(struct tune *t, uint64_t *cur, uint64_t *orig)
{
	uint64_t written;
	int e = min_ttl_saved(t, orig, &written);

	if (e < 0)
		return e;
	e = read_u64(t->root, LRU_GEN_DIR "/min_ttl_ms", cur);
	if (e < 0) {
		log_notice("cannot read " LRU_GEN_DIR "/min_ttl_ms (%s): nothing to restore",
			   strerror(-e));
		return 0;
	}
	if (!min_ttl_same(*cur, written)) {
		log_notice("min_ttl_ms is %llu, not the %llu mglru-fg-tune wrote: left as it is",
			   (unsigned long long)*cur, (unsigned long long)written);
		return 0;
	}
	/* a later apply may have written the original value again */
	return !min_ttl_same(*cur, *orig);
}

static int policy_path(const char *slice, char *buf, size_t n)
{
	int w = snprintf(buf, n, STATE_DIR "/" POLICY_PREFIX "%s" POLICY_SUFFIX, slice);

	return w < 0 || (size_t)w >= n ? -1 : 0;
}

/* "ORIG WRITTEN": the slice's policy before the first apply that changed
 * it, and the one apply wrote last, so that revert restores the first
 * only where nobody has changed the second since. */
int policy_saved(struct tune *t, const char *slice, enum policy *orig, enum policy *written)
{
	char path[PATH_MAX], buf[64], *sp;
	int e;

	if (policy_path(slice, path, sizeof(path)) < 0)
		return -ENAMETOOLONG;
	e = read_value(t->root, path, buf, sizeof(buf));
	if (e < 0)
		return e;
	sp = strchr(buf, ' ');
	if (!sp)
		return -EINVAL;
	*sp = '\0';
	if (parse_policy(buf, orig) < 0 || parse_policy(sp + 1, written) < 0)
		return -EINVAL;
	return 0;
}

int policy_save(struct tune *t, const char *slice, enum policy cur, enum policy want)
{
	enum policy orig = cur, last;
	char path[PATH_MAX], buf[64];

	if (policy_path(slice, path, sizeof(path)) < 0)
		return -ENAMETOOLONG;
	if (policy_saved(t, slice, &orig, &last) < 0)
		orig = cur;
	snprintf(buf, sizeof(buf), "%s %s\n", policy_name(orig), policy_name(want));
	return write_file_atomic(t->root, path, buf);
}

int policy_forget(struct tune *t, const char *slice)
{
	char path[PATH_MAX];
	int e;

	if (policy_path(slice, path, sizeof(path)) < 0)
		return -ENAMETOOLONG;
	e = remove_file(t->root, path);
	return e == -ENOENT ? 0 : e;
}

int policy_restorable(struct tune *t, const char *slice, char *cgroup, size_t n,
		      enum policy *cur, enum policy *orig)
{
	enum policy written;
	bool is_prefix;
	const char *why;
	int e;

	/* only apply writes these records, and only for plain slices */
	if (!slice_name_valid(slice, &is_prefix, &why) || is_prefix)
		return -ENOENT;
	e = policy_saved(t, slice, orig, &written);
	if (e < 0)
		return e;
	if (slice_cgroup_dir(slice, cgroup, n) < 0 || slice_policy_read(t, cgroup, cur) < 0) {
		log_notice("%s has no cgroup now: no policy to restore", slice);
		return 0;
	}
	if (*cur != written) {
		log_notice("%s follows %s, not the %s mglru-fg-tune wrote: left as it is", slice,
			   policy_name(*cur), policy_name(written));
		return 0;
	}
	return *cur != *orig;
}

/* The kernel shows "mglru [fg]", or "classic" while the classic LRU
 * runs; a plain word is taken too. */
int slice_policy_read(struct tune *t, const char *cgroup, enum policy *out)
{
	char path[PATH_MAX + 32], v[64];
	int e;

	snprintf(path, sizeof(path), "%s/memory.lru_gen_policy", cgroup);
	e = read_value(t->root, path, v, sizeof(v));
	if (e < 0)
		return e;
	if ((strchr(v, '[') ? parse_policy_file(v, out) : parse_policy(v, out)) < 0)
		return -EINVAL;
	return 0;
}
