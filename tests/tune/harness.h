/* SPDX-License-Identifier: GPL-2.0-only */
/* A small TAP harness and a fake system tree for mglru-fg-tune tests.
 *
 * The program runs in a forked child with --root pointing at the fake
 * tree, so every test sees the real exit status, stdout and stderr, and
 * LeakSanitizer checks each run on its own. */
#ifndef TUNE_HARNESS_H
#define TUNE_HARNESS_H

#include <limits.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/stat.h>

void h_fail(const char *file, int line, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
void h_run(const char *name, void (*fn)(void));
int h_summary(void);

#define CHECK(c) do { if (!(c)) h_fail(__FILE__, __LINE__, "%s", #c); } while (0)
#define CHECK_INT(a, b) do { long long a_ = (a), b_ = (b); \
	if (a_ != b_) h_fail(__FILE__, __LINE__, "%s == %lld, want %lld", #a, a_, b_); } while (0)
#define CHECK_U64(a, b) do { unsigned long long a_ = (a), b_ = (b); \
	if (a_ != b_) h_fail(__FILE__, __LINE__, "%s == %llu, want %llu", #a, a_, b_); } while (0)
#define CHECK_STR(a, b) do { const char *a_ = (a), *b_ = (b); \
	if (!a_ || strcmp(a_, b_) != 0) h_fail(__FILE__, __LINE__, "%s == \"%s\", want \"%s\"", #a, a_ ? a_ : "(null)", b_); } while (0)
#define CHECK_HAS(hay, needle) do { const char *h_ = (hay), *n_ = (needle); \
	if (!h_ || !strstr(h_, n_)) h_fail(__FILE__, __LINE__, "%s lacks \"%s\" in:\n%s", #hay, n_, h_ ? h_ : "(null)"); } while (0)
#define CHECK_LACKS(hay, needle) do { const char *h_ = (hay), *n_ = (needle); \
	if (h_ && strstr(h_, n_)) h_fail(__FILE__, __LINE__, "%s has \"%s\" in:\n%s", #hay, n_, h_); } while (0)

struct fake {
	char root[PATH_MAX];
	char log[PATH_MAX];	/* the fake systemctl's log */
	char mounts[4][PATH_MAX];	/* fake_tmpfs(), unmounted by fake_cleanup() */
	unsigned n_mounts;
	/* tune_run() without CAP_DAC_OVERRIDE and CAP_DAC_READ_SEARCH, as
	 * mglru-fg-tune.service runs (CapabilityBoundingSet=CAP_SYS_ADMIN),
	 * so that a root test run sees the EACCES the service would */
	bool no_dac;
};

/* A tree with cgroup2, lru_gen (policy fg, enabled 0x0007, min_ttl_ms 0),
 * 16 GiB of RAM and system.slice; no configuration, no systemctl. */
void fake_init(struct fake *f);
void fake_cleanup(struct fake *f);
void fake_write(struct fake *f, const char *logical, const char *content);
char *fake_read(struct fake *f, const char *logical);	/* NULL if missing */
bool fake_exists(struct fake *f, const char *logical);
void fake_mkdir(struct fake *f, const char *logical);
void fake_symlink(struct fake *f, const char *target, const char *logical);
void fake_remove(struct fake *f, const char *logical);
int fake_stat(struct fake *f, const char *logical, struct stat *st);
/* Sets a file's mtime to a fixed past time, to see if it is rewritten. */
void fake_age(struct fake *f, const char *logical);
void fake_chmod(struct fake *f, const char *logical, mode_t mode);
/* false if not permitted (only root may give a file away). */
bool fake_chown(struct fake *f, const char *logical, uid_t uid);
void fake_mkfifo(struct fake *f, const char *logical);
/* A tmpfs of `size` (mount(8) syntax) at a directory, to run out of
 * space on; false if mounting is not permitted. */
bool fake_tmpfs(struct fake *f, const char *logical, const char *size);
/* A slice cgroup directory with the memory files of an unlimited cgroup. */
void fake_cgroup(struct fake *f, const char *logical_dir);
/* A systemctl that logs its arguments and exits with `status`. */
void fake_systemctl(struct fake *f, int status);
/* The same, printing `show` on "systemctl show ...". */
void fake_systemctl_show(struct fake *f, int status, const char *show);
char *fake_systemctl_log(struct fake *f);

struct result {
	int status;
	char *out;
	char *err;
};
/* Runs tune_main("--root", f->root, args...) in a child; NULL ends args. */
void tune_run(struct fake *f, struct result *r, ...) __attribute__((sentinel));
/* Runs a program (the real binary) with args; NULL ends args. */
void prog_run(struct result *r, const char *prog, ...) __attribute__((sentinel));
void result_free(struct result *r);

#endif
