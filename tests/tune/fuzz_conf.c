// SPDX-License-Identifier: GPL-2.0-only
/* libFuzzer target: the whole apply cycle on a fake tree. The input is
 * up to four configuration files, loaded as the program loads them, then
 * planned, rendered, applied, checked and reverted, with the invariants
 * the man pages promise checked after each step (abort() = a finding).
 * The parser is also driven directly, as are the parsers of reclaim's
 * state file, memory.pressure and systemctl's output. Crashes found here go
 * to tests/tune/corpus-regressions/, which the unit tests replay.
 *
 * Input: an optional flag byte (0x80 set; see enum below), then the
 * files, separated by 0xff bytes: /etc/mglru-fg/tune.conf, one each in
 * the three tune.d directories. Plain text is one file, flags 0. */
#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "conf.h"
#include "fsio.h"
#include "log.h"
#include "loop.h"
#include "tune.h"
#include "values.h"

enum {
	F_RECLAIM = 1 << 0,	/* also reclaim and status */
	F_POLICY = 3 << 1,	/* classic, mglru, fg, fg */
	F_GROUP_WRITABLE = 1 << 3,	/* the second file: refused */
	F_FIFO = 1 << 4,	/* the third file is a FIFO: refused */
	F_LEFTOVERS = 1 << 5,	/* a stale drop-in of ours, one of the admin's, and
				 * the records of an earlier apply (see cycle()) */
	F_NO_RELOAD = 1 << 6,	/* the first apply with --no-reload */
};

static const char *const conf_paths[] = {
	"/etc/mglru-fg/tune.conf",
	"/etc/mglru-fg/tune.d/10-etc.conf",
	"/run/mglru-fg/tune.d/20-run.conf",
	TUNE_VENDOR_DIR "/50-vendor.conf",
};
#define STALE DROPIN_DIR "/stale.slice.d/" DROPIN_NAME
#define ADMIN DROPIN_DIR "/system.slice.d/10-admin.conf"
#define GONE_POLICY STATE_DIR "/" POLICY_PREFIX "gone.slice" POLICY_SUFFIX

static char root[64];

/* A broken invariant: say which before the crash report. */
#define BROKEN(what) (fprintf(stderr, "fuzz_conf:%d: %s\n", __LINE__, what), abort())

static void put(const char *logical, const char *s, size_t n)
{
	char path[PATH_MAX];
	FILE *f;

	snprintf(path, sizeof(path), "%s%s", root, logical);
	for (char *p = strchr(path + strlen(root) + 1, '/'); p; p = strchr(p + 1, '/')) {
		*p = '\0';
		mkdir(path, 0755);
		*p = '/';
	}
	f = fopen(path, "w");
	if (!f || fwrite(s, 1, n, f) != n || fclose(f) != 0)
		abort();
}

static void put_str(const char *logical, const char *s)
{
	put(logical, s, strlen(s));
}

static void drop(const char *logical)
{
	char path[PATH_MAX];

	snprintf(path, sizeof(path), "%s%s", root, logical);
	if (unlink(path) < 0 && errno != ENOENT)
		abort();
}

static void cgroup(const char *dir)
{
	static const char *const files[][2] = {
		{ "memory.min", "0\n" }, { "memory.low", "0\n" }, { "memory.high", "max\n" },
		{ "memory.max", "max\n" }, { "memory.swap.max", "max\n" },
		{ "memory.zswap.max", "max\n" }, { "memory.current", "1073741824\n" },
		{ "memory.reclaim", "" }, { "memory.stat", "anon 1\npgscan 3\n" },
		{ "memory.pressure", "some avg10=0.00 avg60=0.00 avg300=0.00 total=7\n"
				     "full avg10=0.00 avg60=0.00 avg300=0.00 total=3\n" },
	};
	char path[PATH_MAX];

	for (size_t i = 0; i < sizeof(files) / sizeof(files[0]); i++) {
		snprintf(path, sizeof(path), "/sys/fs/cgroup/%s/%s", dir, files[i][0]);
		put_str(path, files[i][1]);
	}
}

static int rm_one(const char *p, const struct stat *st, int flag, struct FTW *ftw)
{
	(void)st;
	(void)ftw;
	return flag == FTW_DP ? rmdir(p) : unlink(p);
}

static void remove_root(void)
{
	nftw(root, rm_one, 16, FTW_DEPTH | FTW_PHYS);
}

static void setup(void)
{
	const char *tmp = access("/dev/shm", W_OK) == 0 ? "/dev/shm" : "/tmp";

	snprintf(root, sizeof(root), "%s/fuzz-tune.XXXXXX", tmp);
	if (!mkdtemp(root))
		abort();
	atexit(remove_root);
	put_str("/sys/fs/cgroup/cgroup.controllers", "memory\n");
	put_str(LRU_GEN_DIR "/min_ttl_ms", "0\n");
	put_str("/proc/meminfo", "MemTotal:       16777216 kB\n");
	cgroup("system.slice");
	cgroup("user.slice");
	cgroup("user.slice/user-1000.slice");
	cgroup("user.slice/user-1000.slice/user-1000-x.slice");
	cgroup("machine.slice");
	cgroup("_cpu.slice");
	cgroup("a.slice");
	cgroup("a.slice/a-b.slice");
	/* the root cgroup, for -.slice: reclaim, but no limits */
	put_str("/sys/fs/cgroup/memory.reclaim", "");
	put_str("/sys/fs/cgroup/memory.stat", "anon 1\n");
	put_str(DROPIN_DIR "/.keep", "");
	/* no systemctl: --root only says what it would run */
	unsetenv("MGLRU_FG_TUNE_SYSTEMCTL");
	if (!freopen("/dev/null", "w", stdout))
		abort();
	log_set_output(stdout);
}

/* What apply may change: drop-ins, /run/mglru-fg (not its tune.d) and
 * min_ttl_ms, hashed with names, so that "nothing changed" is testable. */
static uint64_t hash;

static int hash_one(const char *p, const struct stat *st, int flag, struct FTW *ftw)
{
	char *buf;
	size_t len;

	(void)ftw;
	if (strstr(p, "/run/mglru-fg/tune.d"))
		return 0;
	for (const char *c = p + strlen(root); *c; c++)
		hash = (hash ^ (unsigned char)*c) * 1099511628211ull;
	hash = (hash ^ (uint64_t)flag) * 1099511628211ull;
	if (flag == FTW_F && S_ISREG(st->st_mode) && read_file(NULL, p, 1 << 20, &buf, &len) == 0) {
		for (size_t i = 0; i < len; i++)
			hash = (hash ^ (unsigned char)buf[i]) * 1099511628211ull;
		free(buf);
	}
	return 0;
}

static uint64_t fingerprint(void)
{
	static const char *const dirs[] = { DROPIN_DIR, STATE_DIR, LRU_GEN_DIR };
	char path[PATH_MAX];

	hash = 14695981039346656037ull;
	for (size_t i = 0; i < sizeof(dirs) / sizeof(dirs[0]); i++) {
		snprintf(path, sizeof(path), "%s%s", root, dirs[i]);
		nftw(path, hash_one, 16, FTW_PHYS);
	}
	return hash;
}

/* One run of the program, as tune_main() sets it up. */
static unsigned run(enum mode mode, unsigned flags, int (*cmd)(struct tune *), bool no_reload,
		    unsigned *config_errors, unsigned *runtime_errors)
{
	static const enum policy pols[] = { POLICY_CLASSIC, POLICY_MGLRU, POLICY_FG, POLICY_FG };
	struct tune t = { .root = root, .has_root = true, .mode = mode, .no_reload = no_reload,
			  .policy = pols[(flags & F_POLICY) >> 1], .page_size = 4096 };

	conf_init(&t.conf);
	if (cmd != cmd_revert)
		tune_load_config(&t);
	cmd(&t);
	conf_free(&t.conf);
	if (config_errors)
		*config_errors = t.config_errors;
	*runtime_errors = t.runtime_errors;
	return t.changes;
}

static void cycle(unsigned flags, const uint8_t *data, size_t size)
{
	unsigned cfg, rt, planned, applied;
	uint64_t before, clean;
	size_t n = 0;

	for (const uint8_t *p = data, *end = data + size; n < 4 && p <= end; n++) {
		const uint8_t *sep = memchr(p, 0xff, (size_t)(end - p));
		const uint8_t *e = sep ? sep : end;
		char path[PATH_MAX];

		if (n == 2 && (flags & F_FIFO)) {
			snprintf(path, sizeof(path), "%s%s", root, conf_paths[n]);
			put_str(conf_paths[n], "");
			unlink(path);
			if (mkfifo(path, 0644) < 0)
				abort();
		} else {
			put(conf_paths[n], (const char *)p, (size_t)(e - p));
		}
		if (n == 1 && (flags & F_GROUP_WRITABLE)) {
			snprintf(path, sizeof(path), "%s%s", root, conf_paths[n]);
			chmod(path, 0664);
		}
		if (!sep)
			break;
		p = sep + 1;
	}
	if (flags & F_LEFTOVERS)
		put_str(ADMIN, "[Slice]\nCPUWeight=5\n");
	clean = fingerprint();
	if (flags & F_LEFTOVERS) {
		put_str(STALE, "[Slice]\nMemoryMax=1\n");
		/* an earlier apply set min_ttl_ms (from 0) and the policy of a
		 * slice stopped since: apply restores them once MinTTL= or
		 * Policy= is gone, revert does anyway, back to clean */
		put_str(LRU_GEN_DIR "/min_ttl_ms", "3000\n");
		put_str(MIN_TTL_SAVED, "0 3000\n");
		put_str(GONE_POLICY, "fg mglru\n");
	}
	before = fingerprint();

	planned = run(MODE_DRY_RUN, flags, cmd_apply, false, &cfg, &rt);
	if (fingerprint() != before || rt)
		BROKEN("--dry-run changed something, or failed");
	applied = run(MODE_APPLY, flags, cmd_apply, flags & F_NO_RELOAD, &cfg, &rt);
	if (cfg) {
		/* a configuration error changes nothing at all */
		if (fingerprint() != before || applied)
			BROKEN("apply changed something despite a configuration error");
	} else {
		bool owed = path_exists(root, RELOAD_PENDING);

		if (rt || applied != planned)
			BROKEN("apply failed, or did other than --dry-run planned");
		run(MODE_CHECK, flags, cmd_apply, false, NULL, &rt);
		if (rt)
			BROKEN("--check failed");
		/* apply again: nothing left to do but a reload it was told to skip */
		if (run(MODE_APPLY, flags, cmd_apply, false, NULL, &rt) != (owed ? 1u : 0u) || rt)
			BROKEN("a second apply found more to do");
		if (flags & F_RECLAIM) {
			run(MODE_DRY_RUN, flags, cmd_reclaim, false, NULL, &rt);
			run(MODE_APPLY, flags, cmd_reclaim, false, NULL, &rt);
			run(MODE_APPLY, flags, cmd_status, false, NULL, &rt);
			if (rt)
				BROKEN("reclaim or status failed");
		}
	}
	/* revert leaves what there was before apply, less our drop-ins */
	before = fingerprint();
	run(MODE_DRY_RUN, flags, cmd_revert, false, NULL, &rt);
	if (fingerprint() != before || rt)
		BROKEN("--dry-run revert changed something, or failed");
	run(MODE_APPLY, flags, cmd_revert, false, NULL, &rt);
	if (rt || fingerprint() != clean)
		BROKEN("revert failed, or left other than there was before apply");

	for (size_t i = 0; i < 4; i++)
		drop(conf_paths[i]);
	if (flags & F_LEFTOVERS) {
		char dir[PATH_MAX];

		drop(ADMIN);
		/* as before the input: revert may remove an empty .d it finds */
		snprintf(dir, sizeof(dir), "%s%s", root, ADMIN);
		*strrchr(dir, '/') = '\0';
		rmdir(dir);
	}
}

static void diag(void *userdata, enum conf_diag level, const char *file, unsigned line,
		 const char *msg)
{
	(void)userdata;
	/* Every diagnostic must name a real place and say something. */
	if (!file || !msg || !*msg || line == 0 || (level != CONF_ERROR && level != CONF_WARNING))
		abort();
}

static void exercise(const struct conf *c)
{
	char buf[4096];

	for (int p = 0; p < POLICY__MAX; p++) {
		struct conf_resolved r;

		/* the conflicts of the merged files: each names its place */
		conf_check(c, (enum policy)p, 16ull << 30, diag, NULL);
		conf_check(c, (enum policy)p, 0, diag, NULL);
		conf_resolve_global(c, (enum policy)p, &r);
		for (size_t i = 0; i < c->n_slices; i++) {
			const char *name = c->slices[i].name;
			bool is_prefix;
			const char *why;

			if (!slice_name_valid(name, &is_prefix, &why) || is_prefix != c->slices[i].is_prefix)
				abort();
			if (conf_section_for(c, name) != (long)i)
				abort();
			if (slice_cgroup_path(name, buf, sizeof(buf)) < 0)
				abort();
			conf_resolve_slice(c, name, (enum policy)p, &r);
			for (int k = 0; k < KEY__MAX; k++) {
				if (!r.set[k] || !conf_key_is_size((enum conf_key)k))
					continue;
				uint64_t bytes = size_resolve(&r.val[k].size, 16ull << 30);

				format_bytes(bytes, buf, sizeof(buf));
				cgroup_shown_value(bytes, 4096, buf, sizeof(buf));
			}
		}
	}
}

/* A round from any state that parses, with a slice made of the input's
 * first bytes: whatever they hold, the step is whole pages, never past
 * the protection or the floor, and the state stays one that parses. */
static void round_from(struct loop_state *s, const uint8_t *data, size_t size)
{
	struct loop_params p = { .target_ppm = 1000, .min = 0, .max = 256 << 20, .floor = 0,
				 .page_size = 4096 };
	struct loop_input in = { .high = UINT64_MAX };
	uint64_t v[5] = { 0 }, step, keep;
	char buf[LOOP_STATE_MAX], why[128];

	memcpy(v, data, size < sizeof(v) ? size : sizeof(v));
	in.now_us = v[0];
	in.some_total_us = v[1];
	in.current = v[2];
	in.protection = v[3] % (v[2] + 1);
	p.floor = v[4] % (v[2] + 1);
	p.target_ppm = (uint32_t)(v[4] % 1000000) + 1;
	p.max = 4096 + (v[4] >> 40);	/* up to 16M: under the least step too */
	step = loop_round(&p, s, &in);
	keep = p.floor > in.protection ? p.floor : in.protection;
	if (step % 4096 || (step && step > in.current - keep) || step > p.max)
		BROKEN("a step past ReclaimMax=, the floor or the protection, or not whole pages");
	if (s->backoff > LOOP_BACKOFF_MAX || s->hold > LOOP_HOLD_MAX ||
	    s->calm >= LOOP_CALM_STEPS)
		BROKEN("a round left a state out of range");
	loop_state_format(s, buf, sizeof(buf));
	if (loop_state_parse(buf, s, why, sizeof(why)) < 0)
		BROKEN("a round left a state that does not parse");
}

static void parser(const uint8_t *data, size_t size)
{
	struct conf merged, one, two;
	char *text = malloc(size + 1), buf[1024];
	enum policy pol;
	enum oom_mode oom;
	uint32_t limit, back;
	uint64_t total;
	struct loop_state state;
	const char *why;

	conf_init(&merged);
	conf_init(&one);
	conf_init(&two);
	conf_parse(&one, "/fuzz/10.conf", (const char *)data, size, diag, NULL);
	conf_merge(&merged, &one);
	/* a second copy merges into sections that already exist */
	conf_parse(&two, "/fuzz/20.conf", (const char *)data, size, diag, NULL);
	conf_merge(&merged, &two);
	exercise(&merged);
	conf_free(&merged);

	/* the kernel-file parsers take NUL-terminated text, and so do
	 * those of reclaim's state and of systemctl's output */
	memcpy(text, data, size);
	text[size] = '\0';
	parse_policy_file(text, &pol);
	parse_enabled_file(text, &pol);
	pressure_some_total(text, &total);
	parse_oomd_properties(text, &oom, &limit);
	if (parse_percent_ppm(text, &limit, &why) == 0) {
		format_ppm(limit, buf, sizeof(buf));
		if (parse_percent_ppm(buf, &back, &why) < 0 || back != limit)
			BROKEN("format_ppm() does not read back");
	}
	if (loop_state_parse(text, &state, buf, sizeof(buf)) == 0) {
		struct loop_state again;

		loop_state_format(&state, buf, sizeof(buf));
		if (loop_state_parse(buf, &again, buf + 512, sizeof(buf) - 512) < 0 ||
		    again.phase != state.phase || again.given_back != state.given_back ||
		    again.some_total_us != state.some_total_us || again.backoff != state.backoff ||
		    again.hold != state.hold || again.calm != state.calm)
			BROKEN("a state does not read back");
		round_from(&state, data, size);
	}
	free(text);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	unsigned flags = 2 << 1;	/* fg */

	if (!root[0])
		setup();
	parser(data, size);
	if (size && (data[0] & 0x80)) {
		flags = data[0];
		data++;
		size--;
	}
	cycle(flags, data, size);
	return 0;
}
