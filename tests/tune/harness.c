// SPDX-License-Identifier: GPL-2.0-only
#include "harness.h"

#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sched.h>
#include <linux/capability.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include "cli.h"
#include "tune.h"

/* The sanitizers exit with this (see TESTENV in systemd/Makefile), so a
 * finding in a child is never mistaken for the program's own status. */
#define SANITIZER_STATUS 66
/* A run that blocks (a FIFO read, say) fails its test instead of hanging
 * the whole suite: SIGALRM ends it, seen as status 128 + 14. */
#define CHILD_TIMEOUT_S 20

static unsigned n_tests, n_failed, cur_failures;

static void diag_lines(const char *text)
{
	const char *l = text;

	while (l && *l) {
		size_t n = strcspn(l, "\n");

		printf("#   %.*s\n", (int)n, l);
		l += n + (l[n] == '\n');
	}
}

void h_fail(const char *file, int line, const char *fmt, ...)
{
	char msg[8192];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	printf("# %s:%d: check failed:\n", file, line);
	diag_lines(msg);
	cur_failures++;
}

void h_run(const char *name, void (*fn)(void))
{
	cur_failures = 0;
	fn();
	n_tests++;
	if (cur_failures)
		n_failed++;
	printf("%sok %u - %s\n", cur_failures ? "not " : "", n_tests, name);
	fflush(stdout);
}

int h_summary(void)
{
	printf("1..%u\n", n_tests);
	printf("%u passed, %u failed\n", n_tests - n_failed, n_failed);
	return n_failed ? 1 : 0;
}

static void die(const char *what)
{
	printf("Bail out! %s: %s\n", what, strerror(errno));
	exit(99);
}

static void real_path(struct fake *f, const char *logical, char *buf, size_t n)
{
	if ((size_t)snprintf(buf, n, "%s%s", f->root, logical) >= n) {
		errno = ENAMETOOLONG;
		die(logical);
	}
}

static void mkdir_p(char *path)
{
	for (char *p = strchr(path + 1, '/'); p; p = strchr(p + 1, '/')) {
		*p = '\0';
		if (mkdir(path, 0755) < 0 && errno != EEXIST)
			die(path);
		*p = '/';
	}
	if (mkdir(path, 0755) < 0 && errno != EEXIST)
		die(path);
}

void fake_mkdir(struct fake *f, const char *logical)
{
	char path[PATH_MAX];

	real_path(f, logical, path, sizeof(path));
	mkdir_p(path);
}

static void mkdir_parent(char *path)
{
	char *slash = strrchr(path, '/');

	*slash = '\0';
	mkdir_p(path);
	*slash = '/';
}

void fake_write(struct fake *f, const char *logical, const char *content)
{
	char path[PATH_MAX];
	FILE *fp;

	real_path(f, logical, path, sizeof(path));
	mkdir_parent(path);
	fp = fopen(path, "w");
	if (!fp)
		die(path);
	fputs(content, fp);
	if (fclose(fp) != 0)
		die(path);
}

char *fake_read(struct fake *f, const char *logical)
{
	char path[PATH_MAX], *buf = NULL;
	size_t n = 0;
	FILE *fp, *mem;
	int c;

	real_path(f, logical, path, sizeof(path));
	fp = fopen(path, "r");
	if (!fp)
		return NULL;
	mem = open_memstream(&buf, &n);
	while ((c = fgetc(fp)) != EOF)
		fputc(c, mem);
	fclose(mem);
	fclose(fp);
	return buf;
}

bool fake_exists(struct fake *f, const char *logical)
{
	char path[PATH_MAX];
	struct stat st;

	real_path(f, logical, path, sizeof(path));
	return lstat(path, &st) == 0;
}

int fake_stat(struct fake *f, const char *logical, struct stat *st)
{
	char path[PATH_MAX];

	real_path(f, logical, path, sizeof(path));
	return stat(path, st);
}

void fake_age(struct fake *f, const char *logical)
{
	char path[PATH_MAX];
	struct timespec t[2] = { { 1000000000, 0 }, { 1000000000, 0 } };

	real_path(f, logical, path, sizeof(path));
	if (utimensat(AT_FDCWD, path, t, 0) < 0)
		die(path);
}

void fake_symlink(struct fake *f, const char *target, const char *logical)
{
	char path[PATH_MAX];

	real_path(f, logical, path, sizeof(path));
	mkdir_parent(path);
	if (symlink(target, path) < 0)
		die(path);
}

void fake_remove(struct fake *f, const char *logical)
{
	char path[PATH_MAX];

	real_path(f, logical, path, sizeof(path));
	if (remove(path) < 0)
		die(path);
}

void fake_chmod(struct fake *f, const char *logical, mode_t mode)
{
	char path[PATH_MAX];

	real_path(f, logical, path, sizeof(path));
	if (chmod(path, mode) < 0)
		die(path);
}

bool fake_chown(struct fake *f, const char *logical, uid_t uid)
{
	char path[PATH_MAX];

	real_path(f, logical, path, sizeof(path));
	return lchown(path, uid, (gid_t)-1) == 0;
}

void fake_mkfifo(struct fake *f, const char *logical)
{
	char path[PATH_MAX];

	real_path(f, logical, path, sizeof(path));
	mkdir_parent(path);
	if (mkfifo(path, 0644) < 0)
		die(path);
}

/* The mounts go into a mount namespace of this process's own, made on
 * first use, so that none outlives the test run. */
bool fake_tmpfs(struct fake *f, const char *logical, const char *size)
{
	static bool private;
	char path[PATH_MAX], opts[64];

	if (!private) {
		if (unshare(CLONE_NEWNS) < 0 || mount(NULL, "/", NULL, MS_REC | MS_PRIVATE, NULL) < 0)
			return false;
		private = true;
	}
	fake_mkdir(f, logical);
	real_path(f, logical, path, sizeof(path));
	snprintf(opts, sizeof(opts), "size=%s,mode=0755", size);
	if (mount("tune-test", path, "tmpfs", 0, opts) < 0)
		return false;
	if (f->n_mounts < sizeof(f->mounts) / sizeof(f->mounts[0]))
		snprintf(f->mounts[f->n_mounts++], sizeof(f->mounts[0]), "%s", path);
	return true;
}

void fake_cgroup(struct fake *f, const char *dir)
{
	static const char *const files[][2] = {
		{ "memory.min", "0\n" }, { "memory.low", "0\n" },
		{ "memory.high", "max\n" }, { "memory.max", "max\n" },
		{ "memory.swap.max", "max\n" }, { "memory.zswap.max", "max\n" },
		{ "memory.current", "1073741824\n" }, { "memory.reclaim", "" },
		/* no stall yet (ProactiveReclaim=auto reads it) */
		{ "memory.pressure", "some avg10=0.00 avg60=0.00 avg300=0.00 total=0\n"
				     "full avg10=0.00 avg60=0.00 avg300=0.00 total=0\n" },
		/* a memcg under an fg root, as the kernel shows it */
		{ "memory.lru_gen_policy", "mglru [fg]\n" },
		{ "memory.stat", "anon 1\nfile 2\nworkingset_refault_anon 11\n"
				 "workingset_refault_file 22\npgscan 33\npgscan_kswapd 34\n"
				 "pgsteal 44\npgsteal_kswapd 45\n" },
	};
	char path[PATH_MAX];

	for (size_t i = 0; i < sizeof(files) / sizeof(files[0]); i++) {
		snprintf(path, sizeof(path), "%s/%s", dir, files[i][0]);
		fake_write(f, path, files[i][1]);
	}
}

void fake_init(struct fake *f)
{
	const char *tmp = getenv("TMPDIR");

	snprintf(f->root, sizeof(f->root), "%s/tune-test.XXXXXX", tmp && *tmp ? tmp : "/tmp");
	if (!mkdtemp(f->root))
		die("mkdtemp");
	f->log[0] = '\0';
	f->n_mounts = 0;
	f->no_dac = false;
	fake_write(f, "/sys/fs/cgroup/cgroup.controllers", "cpu io memory pids\n");
	fake_write(f, "/sys/kernel/mm/lru_gen/policy", "classic mglru [fg]\n");
	fake_write(f, "/sys/kernel/mm/lru_gen/enabled", "0x0007\n");
	fake_write(f, "/sys/kernel/mm/lru_gen/min_ttl_ms", "0\n");
	fake_write(f, "/proc/meminfo", "MemTotal:       16777216 kB\nMemFree:         1048576 kB\n");
	fake_cgroup(f, "/sys/fs/cgroup/system.slice");
	fake_mkdir(f, "/run/systemd/system");
}

static int rm_one(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
	(void)st;
	(void)ftw;
	if (flag == FTW_DP)
		rmdir(path);
	else
		unlink(path);
	return 0;
}

void fake_cleanup(struct fake *f)
{
	while (f->n_mounts > 0)
		umount2(f->mounts[--f->n_mounts], MNT_DETACH);
	nftw(f->root, rm_one, 16, FTW_DEPTH | FTW_PHYS);
	unsetenv("MGLRU_FG_TUNE_SYSTEMCTL");
}

void fake_systemctl(struct fake *f, int status)
{
	fake_systemctl_show(f, status, "");
}

void fake_systemctl_show(struct fake *f, int status, const char *show)
{
	char script[2 * PATH_MAX + 64], path[PATH_MAX], out[PATH_MAX];

	real_path(f, "/systemctl.log", f->log, sizeof(f->log));
	/* printed by "systemctl show", kept in a file to need no quoting */
	fake_write(f, "/systemctl.show", show);
	real_path(f, "/systemctl.show", out, sizeof(out));
	snprintf(script, sizeof(script),
		 "#!/bin/sh\necho \"$*\" >> '%s'\n[ \"$1\" != show ] || cat '%s'\nexit %d\n",
		 f->log, out, status);
	fake_write(f, "/fake-systemctl", script);
	real_path(f, "/fake-systemctl", path, sizeof(path));
	chmod(path, 0755);
	setenv("MGLRU_FG_TUNE_SYSTEMCTL", path, 1);
}

char *fake_systemctl_log(struct fake *f)
{
	char *s = fake_read(f, "/systemctl.log");

	return s ? s : strdup("");
}

static char *slurp_fd(int fd)
{
	char *buf = NULL;
	size_t n = 0;
	FILE *mem = open_memstream(&buf, &n);
	char chunk[4096];
	ssize_t got;

	lseek(fd, 0, SEEK_SET);
	while ((got = read(fd, chunk, sizeof(chunk))) > 0)
		fwrite(chunk, 1, (size_t)got, mem);
	fclose(mem);
	close(fd);
	return buf;
}

/* Clears the two capabilities from the effective set (root keeps its
 * uid, as the service does); a no-op for a user who has neither. */
static void drop_dac(void)
{
	struct __user_cap_header_struct head = { .version = _LINUX_CAPABILITY_VERSION_3 };
	struct __user_cap_data_struct data[_LINUX_CAPABILITY_U32S_3];

	if (syscall(SYS_capget, &head, data) < 0)
		die("capget");
	data[CAP_TO_INDEX(CAP_DAC_OVERRIDE)].effective &= ~CAP_TO_MASK(CAP_DAC_OVERRIDE);
	data[CAP_TO_INDEX(CAP_DAC_READ_SEARCH)].effective &= ~CAP_TO_MASK(CAP_DAC_READ_SEARCH);
	if (syscall(SYS_capset, &head, data) < 0)
		die("capset");
}

static void run_child(struct result *r, bool exec, bool no_dac, char **argv, int argc)
{
	char out_tmpl[] = "/tmp/tune-out.XXXXXX", err_tmpl[] = "/tmp/tune-err.XXXXXX";
	int out = mkstemp(out_tmpl), err = mkstemp(err_tmpl), status;
	pid_t pid;

	if (out < 0 || err < 0)
		die("mkstemp");
	unlink(out_tmpl);
	unlink(err_tmpl);
	fflush(stdout);
	fflush(stderr);
	pid = fork();
	if (pid < 0)
		die("fork");
	if (pid == 0) {
		dup2(out, 1);
		dup2(err, 2);
		alarm(CHILD_TIMEOUT_S);
		if (no_dac)
			drop_dac();
		if (exec) {
			execv(argv[0], argv);
			_exit(127);
		}
		/* exit(), not _exit(): LeakSanitizer runs at exit. */
		exit(tune_main(argc, argv));
	}
	while (waitpid(pid, &status, 0) < 0)
		if (errno != EINTR)
			die("waitpid");
	r->status = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
	r->out = slurp_fd(out);
	r->err = slurp_fd(err);
	if (r->status == SANITIZER_STATUS || WIFSIGNALED(status)) {
		printf("# child %s (status %d), its stderr:\n", argv[0], r->status);
		diag_lines(r->err);
	}
}

void tune_run(struct fake *f, struct result *r, ...)
{
	char *argv[32] = { "mglru-fg-tune", "--root", f->root };
	int argc = 3;
	va_list ap;

	va_start(ap, r);
	for (char *a; argc < 31 && (a = va_arg(ap, char *)); )
		argv[argc++] = a;
	va_end(ap);
	argv[argc] = NULL;
	run_child(r, false, f->no_dac, argv, argc);
}

void prog_run(struct result *r, const char *prog, ...)
{
	char *argv[32] = { (char *)prog };
	int argc = 1;
	va_list ap;

	va_start(ap, prog);
	for (char *a; argc < 31 && (a = va_arg(ap, char *)); )
		argv[argc++] = a;
	va_end(ap);
	argv[argc] = NULL;
	run_child(r, true, false, argv, argc);
}

void result_free(struct result *r)
{
	free(r->out);
	free(r->err);
	r->out = r->err = NULL;
}

void check_file(struct fake *f, const char *path, const char *want, const char *file, int line)
{
	char *got = fake_read(f, path);

	if (!want && got)
		h_fail(file, line, "%s exists, with:\n%s", path, got);
	else if (want && !got)
		h_fail(file, line, "%s is missing", path);
	else if (want && strcmp(got, want) != 0)
		h_fail(file, line, "%s is:\n%s\nwant:\n%s", path, got, want);
	free(got);
}

void check_log(struct fake *f, const char *want, const char *file, int line)
{
	char *got = fake_systemctl_log(f);

	if (strcmp(got, want) != 0)
		h_fail(file, line, "systemctl calls:\n%s\nwant:\n%s", got, want);
	free(got);
}
