// SPDX-License-Identifier: GPL-2.0-only
/* What the running system looks like: cgroup2, the LRU policy, RAM, the
 * slice cgroups, and the one call out to systemd. */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <spawn.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "fsio.h"
#include "log.h"
#include "tune.h"
#include "util.h"

extern char **environ;

const struct cgroup_file cgroup_files[6] = {
	{ KEY_MEMORY_MIN, "memory.min" },
	{ KEY_MEMORY_LOW, "memory.low" },
	{ KEY_MEMORY_HIGH, "memory.high" },
	{ KEY_MEMORY_MAX, "memory.max" },
	{ KEY_MEMORY_SWAP_MAX, "memory.swap.max" },
	{ KEY_MEMORY_ZSWAP_MAX, "memory.zswap.max" },
};

void runtime_error(struct tune *t, const char *fmt, ...)
{
	char msg[1024];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	log_error("%s", msg);
	t->runtime_errors++;
}

int tune_applicable(struct tune *t)
{
	if (!path_exists(t->root, CGROUP_ROOT "/cgroup.controllers")) {
		log_notice("no cgroup2 hierarchy at " CGROUP_ROOT " (no cgroup.controllers), nothing to do");
		return EXIT_NOT_APPLICABLE;
	}
	if (!path_is_dir(t->root, LRU_GEN_DIR)) {
		log_notice("the kernel has no multi-gen LRU (no " LRU_GEN_DIR "), nothing to do");
		return EXIT_NOT_APPLICABLE;
	}
	return 0;
}

int tune_read_policy(struct tune *t)
{
	char buf[128];
	int r;

	r = read_value(t->root, LRU_GEN_DIR "/enabled", t->enabled, sizeof(t->enabled));
	if (r < 0)
		t->enabled[0] = '\0';
	r = read_value(t->root, LRU_GEN_DIR "/policy", buf, sizeof(buf));
	if (r == 0) {
		if (parse_policy_file(buf, &t->policy) < 0) {
			runtime_error(t, "cannot parse " LRU_GEN_DIR "/policy: '%s'", buf);
			return -1;
		}
		return 0;
	}
	if (r != -ENOENT) {
		runtime_error(t, "cannot read " LRU_GEN_DIR "/policy: %s", strerror(-r));
		return -1;
	}
	/* Kernels without the policy switch: enabled says MGLRU is on
	 * (any capability bit) or off. */
	if (!t->enabled[0]) {
		runtime_error(t, "cannot read " LRU_GEN_DIR "/policy or enabled");
		return -1;
	}
	if (parse_enabled_file(t->enabled, &t->policy) < 0) {
		runtime_error(t, "cannot parse " LRU_GEN_DIR "/enabled: '%s'", t->enabled);
		return -1;
	}
	return 0;
}

int tune_mem_total(struct tune *t, uint64_t *bytes)
{
	char *s, *p;
	unsigned long long kb;
	int r;

	if (t->mem_total) {
		*bytes = t->mem_total;
		return 0;
	}
	r = read_file(t->root, "/proc/meminfo", 1 << 20, &s, NULL);
	if (r < 0) {
		runtime_error(t, "cannot read /proc/meminfo: %s", strerror(-r));
		return -1;
	}
	p = strstr(s, "MemTotal:");
	if (!p || (p != s && p[-1] != '\n') || sscanf(p, "MemTotal: %llu kB", &kb) != 1 ||
	    kb == 0 || kb > UINT64_MAX / 1024) {
		free(s);
		runtime_error(t, "no usable MemTotal in /proc/meminfo");
		return -1;
	}
	free(s);
	t->mem_total = kb * 1024;
	*bytes = t->mem_total;
	return 0;
}

int tune_size_bytes(struct tune *t, const struct size_spec *s, uint64_t *bytes)
{
	uint64_t total = 0;

	if (s->kind == SIZE_PERCENT && tune_mem_total(t, &total) < 0)
		return -1;
	*bytes = size_resolve(s, total);
	return 0;
}

int tune_systemctl(struct tune *t, const char *verb)
{
	return tune_systemctl_unit(t, verb, NULL);
}

/* A tree under --root is not what the running manager sees: there only a
 * stand-in named by $MGLRU_FG_TUNE_SYSTEMCTL is run. */
static const char *systemctl_prog(const struct tune *t)
{
	const char *prog = getenv("MGLRU_FG_TUNE_SYSTEMCTL");

	if (prog && *prog)
		return prog;
	return t->has_root ? NULL : "systemctl";
}

bool tune_runs_systemctl(const struct tune *t)
{
	return systemctl_prog(t) != NULL;
}

/* Spawns prog with its stdout on out_fd, unless that is -1: 0 or an errno. */
static int spawn(const char *prog, char **argv, int out_fd, pid_t *pid)
{
	posix_spawn_file_actions_t fa;
	int r;

	fflush(stdout);
	fflush(stderr);
	r = posix_spawn_file_actions_init(&fa);
	if (r != 0)
		return r;
	if (out_fd >= 0)
		r = posix_spawn_file_actions_adddup2(&fa, out_fd, STDOUT_FILENO);
	if (r == 0)
		r = posix_spawnp(pid, prog, &fa, NULL, argv, environ);
	posix_spawn_file_actions_destroy(&fa);
	return r;
}

static int wait_for(pid_t pid, int *status)
{
	while (waitpid(pid, status, 0) < 0)
		if (errno != EINTR)
			return errno;
	return 0;
}

static void describe_status(int status, char *buf, size_t n)
{
	snprintf(buf, n, "%s %d", WIFEXITED(status) ? "exit status" : "signal",
		 WIFEXITED(status) ? WEXITSTATUS(status) : WTERMSIG(status));
}

int tune_systemctl_unit(struct tune *t, const char *verb, const char *unit)
{
	const char *prog = systemctl_prog(t);
	char *argv[] = { (char *)"systemctl", (char *)verb, (char *)unit, NULL };
	const char *sep = unit ? " " : "", *u = unit ? unit : "";
	char how[64];
	pid_t pid;
	int status, r;

	if (!prog) {
		log_notice("--root given, not running: systemctl %s%s%s", verb, sep, u);
		return 0;
	}
	r = spawn(prog, argv, -1, &pid);
	if (r != 0) {
		runtime_error(t, "cannot run %s %s%s%s: %s", prog, verb, sep, u, strerror(r));
		return -1;
	}
	r = wait_for(pid, &status);
	if (r != 0) {
		runtime_error(t, "waiting for %s: %s", prog, strerror(r));
		return -1;
	}
	if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) {
		describe_status(status, how, sizeof(how));
		runtime_error(t, "%s %s%s%s failed (%s)", prog, verb, sep, u, how);
		return -1;
	}
	return 0;
}

int tune_systemctl_show(struct tune *t, const char *unit, const char *const *props, char **out,
			char *why, size_t n)
{
	const char *prog = systemctl_prog(t);
	char *argv[32] = { (char *)"systemctl", (char *)"show" }, *text = NULL;
	size_t argc = 2;
	int fds[2], status, r, e;
	pid_t pid;

	if (!prog)
		return 1;
	for (size_t i = 0; props[i] && argc < ARRAY_SIZE(argv) - 2; i++) {
		argv[argc++] = (char *)"-p";
		argv[argc++] = (char *)props[i];
	}
	argv[argc++] = (char *)unit;
	argv[argc] = NULL;
	if (pipe2(fds, O_CLOEXEC) < 0) {
		snprintf(why, n, "pipe: %s", strerror(errno));
		return -1;
	}
	r = spawn(prog, argv, fds[1], &pid);
	close(fds[1]);
	if (r != 0) {
		close(fds[0]);
		snprintf(why, n, "cannot run %s: %s", prog, strerror(r));
		return -1;
	}
	/* to its end before waiting, so that a full pipe cannot block it */
	e = read_fd(fds[0], 1 << 16, &text, NULL);
	r = wait_for(pid, &status);
	if (r == 0 && e == 0 && WIFEXITED(status) && WEXITSTATUS(status) == 0) {
		*out = text;
		return 0;
	}
	if (r != 0)
		snprintf(why, n, "waiting for %s: %s", prog, strerror(r));
	else if (e < 0)
		snprintf(why, n, "reading its output: %s", strerror(-e));
	else
		describe_status(status, why, n);
	free(text);
	return -1;
}

int slice_cgroup_dir(const char *slice, char *buf, size_t n)
{
	char rel[PATH_MAX];
	int w;

	if (slice_cgroup_path(slice, rel, sizeof(rel)) < 0)
		return -1;
	w = snprintf(buf, n, CGROUP_ROOT "%s%s", rel[0] ? "/" : "", rel);
	return w < 0 || (size_t)w >= n ? -1 : 0;
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Depth-first under dir, in name order, for slices named prefix*. Only
 * matching slices are descended into: a deeper match a-b-c.slice always
 * sits below the match a-b.slice. */
static void walk_prefix(struct tune *t, long section, const char *dir, target_fn fn,
			void *userdata)
{
	const struct conf_section *s = &t->conf.slices[section];
	size_t plen = slice_prefix_len(s->name), n = 0, cap = 0;
	char real[PATH_MAX], **names = NULL;
	struct dirent *de;
	DIR *d;

	if (path_join(t->root, dir, real, sizeof(real)) < 0 || !(d = opendir(real)))
		return;
	while ((de = readdir(d))) {
		const char *name = cg_unescape(de->d_name);
		bool is_prefix;
		const char *why;

		if (strncmp(name, s->name, plen) != 0 ||
		    !slice_name_valid(name, &is_prefix, &why) || is_prefix ||
		    strlen(name) <= plen + 6)
			continue;
		names = grow(names, &cap, n, sizeof(*names));
		names[n++] = xstrdup(de->d_name);
	}
	closedir(d);
	if (n)
		qsort(names, n, sizeof(*names), cmp_str);
	for (size_t i = 0; i < n; i++) {
		struct target tg = { .section = section, .slice = cg_unescape(names[i]), .exists = true };
		int w = snprintf(tg.cgroup, sizeof(tg.cgroup), "%s/%s", dir, names[i]);

		if (w > 0 && (size_t)w < sizeof(tg.cgroup) && path_is_dir(t->root, tg.cgroup)) {
			if (conf_section_for(&t->conf, tg.slice) == section)
				fn(t, &tg, userdata);
			walk_prefix(t, section, tg.cgroup, fn, userdata);
		}
		free(names[i]);
	}
	free(names);
}

void tune_for_section(struct tune *t, long section, target_fn fn, void *userdata)
{
	const struct conf_section *s = &t->conf.slices[section];
	struct target tg = { .section = section, .slice = s->name };

	if (slice_cgroup_dir(s->name, tg.cgroup, sizeof(tg.cgroup)) < 0) {
		runtime_error(t, "%s: cgroup path too long", s->name);
		return;
	}
	if (s->is_prefix) {
		walk_prefix(t, section, tg.cgroup, fn, userdata);
		return;
	}
	tg.exists = path_is_dir(t->root, tg.cgroup);
	fn(t, &tg, userdata);
}

void tune_for_each_target(struct tune *t, target_fn fn, void *userdata)
{
	for (size_t i = 0; i < t->conf.n_slices; i++)
		tune_for_section(t, (long)i, fn, userdata);
}
