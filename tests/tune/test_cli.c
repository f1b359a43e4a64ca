// SPDX-License-Identifier: GPL-2.0-only
/* The whole program against a fake tree: apply, --dry-run, --check,
 * status, reclaim, --cat-config, exit codes and error paths. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli.h"
#include "harness.h"
#include "tests.h"

/* Vendor MinTTL for fg, a local file for system.slice. */
void standard(struct fake *f)
{
	fake_init(f);
	fake_systemctl(f, 0);
	fake_write(f, VENDOR, "[Global]\nApplyWhenPolicy=fg\nMinTTL=1s\n");
	fake_write(f, LOCAL,
		   "[Slice system.slice]\n"
		   "MemoryHigh=1000000\n"
		   "MemoryMax=50%\n"
		   "ManagedOOMMemoryPressure=kill\n"
		   "ManagedOOMMemoryPressureLimit=60%\n");
}

const char standard_dropin[] = DROPIN_HEAD
	"MemoryHigh=1000000\n"
	"MemoryMax=8589934592\n"
	"ManagedOOMMemoryPressure=kill\n"
	"ManagedOOMMemoryPressureLimit=60%\n";

static void test_apply(void)
{
	struct fake f;
	struct result r;

	standard(&f);
	tune_run(&f, &r, "apply", NULL);
	CHECK_INT(r.status, 0);
	CHECK_STR(r.out, "");
	CHECK_FILE(&f, MIN_TTL, "1000\n");
	CHECK_FILE(&f, SYS_DROPIN, standard_dropin);
	CHECK_SYSTEMCTL(&f, "daemon-reload\n");
	CHECK(!fake_exists(&f, MARKER));
	CHECK_HAS(r.err, "<6>min_ttl_ms: 0 -> 1000 (" VENDOR ":3)\n");
	CHECK_HAS(r.err, "<6>system.slice MemoryHigh: - -> 1000000 (" LOCAL ":2)\n");
	CHECK_HAS(r.err, "<6>system.slice MemoryMax: - -> 8589934592 (" LOCAL ":3)\n");
	CHECK_HAS(r.err, "<6>system.slice ManagedOOMMemoryPressureLimit: - -> 60% (" LOCAL ":5)\n");
	CHECK_HAS(r.err, "<6>wrote " SYS_DROPIN "\n");
	CHECK_HAS(r.err, "<6>2 changes applied\n");
	/* systemd owns memory.*: nothing written there behind its back */
	CHECK_FILE(&f, SYS_CG "/memory.high", "max\n");
	CHECK_FILE(&f, SYS_CG "/memory.max", "max\n");
	result_free(&r);
	fake_cleanup(&f);
}

static void test_idempotent(void)
{
	struct fake f;
	struct result r;
	struct stat before, after, ttl;

	standard(&f);
	tune_run(&f, &r, NULL);		/* apply is the default */
	CHECK_INT(r.status, 0);
	result_free(&r);
	fake_age(&f, SYS_DROPIN);
	fake_age(&f, MIN_TTL);
	CHECK_INT(fake_stat(&f, SYS_DROPIN, &before), 0);

	tune_run(&f, &r, "apply", NULL);
	CHECK_INT(r.status, 0);
	CHECK_STR(r.err, "<6>nothing to change\n");
	CHECK_SYSTEMCTL(&f, "daemon-reload\n");	/* still only the first */
	CHECK_INT(fake_stat(&f, SYS_DROPIN, &after), 0);
	CHECK_INT(after.st_mtime, 1000000000);
	CHECK_INT(after.st_ino, before.st_ino);
	CHECK_INT(fake_stat(&f, MIN_TTL, &ttl), 0);
	CHECK_INT(ttl.st_mtime, 1000000000);
	result_free(&r);

	/* the kernel rounds min_ttl_ms up to whole jiffies */
	fake_write(&f, LOCAL, "[Global]\nMinTTL=1001ms\n");
	fake_write(&f, MIN_TTL, "1004\n");
	fake_remove(&f, VENDOR);
	tune_run(&f, &r, "apply", NULL);
	CHECK_INT(r.status, 0);
	CHECK_FILE(&f, MIN_TTL, "1004\n");
	CHECK_HAS(r.err, "<6>1 change applied\n");	/* the drop-in's removal */
	result_free(&r);
	fake_write(&f, MIN_TTL, "1011\n");
	tune_run(&f, &r, "apply", NULL);
	CHECK_FILE(&f, MIN_TTL, "1001\n");
	CHECK_HAS(r.err, "<6>min_ttl_ms: 1011 -> 1001 (" LOCAL ":2)\n");
	result_free(&r);
	fake_cleanup(&f);
}

static void test_dry_run(void)
{
	struct fake f;
	struct result r;

	standard(&f);
	tune_run(&f, &r, "--dry-run", NULL);
	CHECK_INT(r.status, 0);
	CHECK_STR(r.out,
		  "min_ttl_ms: 0 -> 1000 (" VENDOR ":3)\n"
		  "system.slice MemoryHigh: - -> 1000000 (" LOCAL ":2; memory.high now max)\n"
		  "system.slice MemoryMax: - -> 8589934592 (" LOCAL ":3; memory.max now max)\n"
		  "system.slice ManagedOOMMemoryPressure: - -> kill (" LOCAL ":4)\n"
		  "system.slice ManagedOOMMemoryPressureLimit: - -> 60% (" LOCAL ":5)\n"
		  "write " SYS_DROPIN "\n"
		  "run systemctl daemon-reload\n"
		  "2 changes planned\n");
	CHECK_FILE(&f, SYS_DROPIN, NULL);
	CHECK_FILE(&f, MIN_TTL, "0\n");
	CHECK(!fake_exists(&f, MARKER));
	CHECK_SYSTEMCTL(&f, "");
	result_free(&r);

	tune_run(&f, &r, "apply", NULL);
	result_free(&r);
	fake_write(&f, LOCAL, "[Slice system.slice]\nMemoryHigh=2G\nMemoryMax=50%\n");
	tune_run(&f, &r, "--dry-run", "apply", NULL);
	CHECK_INT(r.status, 0);
	CHECK_STR(r.out,
		  "min_ttl_ms: 1000 (unchanged, " VENDOR ":3)\n"
		  "system.slice MemoryHigh: 1000000 -> 2147483648 (" LOCAL ":2; memory.high now max)\n"
		  "system.slice MemoryMax: 8589934592 (unchanged, " LOCAL ":3)\n"
		  "system.slice ManagedOOMMemoryPressure: kill -> - (no longer configured)\n"
		  "system.slice ManagedOOMMemoryPressureLimit: 60% -> - (no longer configured)\n"
		  "write " SYS_DROPIN "\n"
		  "run systemctl daemon-reload\n"
		  "1 change planned\n");
	CHECK_FILE(&f, SYS_DROPIN, standard_dropin);
	result_free(&r);

	fake_write(&f, LOCAL, "[Slice system.slice]\nMemoryHigh=1000000\nMemoryMax=50%\n"
			      "ManagedOOMMemoryPressure=kill\nManagedOOMMemoryPressureLimit=60%\n");
	tune_run(&f, &r, "--dry-run", NULL);
	CHECK_HAS(r.out, "\nnothing to change\n");
	CHECK_LACKS(r.out, "->");
	result_free(&r);
	fake_cleanup(&f);
}

static void test_check(void)
{
	struct fake f;
	struct result r;

	standard(&f);
	tune_run(&f, &r, "--check", NULL);
	CHECK_INT(r.status, 1);
	CHECK_STR(r.out,
		  "drift: min_ttl_ms: 0, want 1000 (" VENDOR ":3)\n"
		  "drift: " SYS_DROPIN ": missing\n"
		  "drift: system.slice memory.high: max, want 999424 (" LOCAL ":2)\n"
		  "drift: system.slice memory.max: max, want 8589934592 (" LOCAL ":3)\n"
		  "4 drifted items\n");
	CHECK_FILE(&f, MIN_TTL, "0\n");
	CHECK_FILE(&f, SYS_DROPIN, NULL);
	result_free(&r);

	tune_run(&f, &r, "apply", NULL);
	result_free(&r);
	/* what systemd does after daemon-reload; memory.high page-rounded */
	fake_write(&f, SYS_CG "/memory.high", "999424\n");
	fake_write(&f, SYS_CG "/memory.max", "8589934592\n");
	tune_run(&f, &r, "--check", NULL);
	CHECK_INT(r.status, 0);
	CHECK_STR(r.out, "no drift\n");
	result_free(&r);

	fake_write(&f, SYS_CG "/memory.high", "1000000\n");
	fake_write(&f, MIN_TTL, "5\n");
	tune_run(&f, &r, "--check", "apply", NULL);
	CHECK_INT(r.status, 1);
	CHECK_STR(r.out,
		  "drift: min_ttl_ms: 5, want 1000 (" VENDOR ":3)\n"
		  "drift: system.slice memory.high: 1000000, want 999424 (" LOCAL ":2)\n"
		  "2 drifted items\n");
	CHECK_FILE(&f, MIN_TTL, "5\n");
	result_free(&r);

	fake_remove(&f, SYS_CG "/memory.max");
	fake_write(&f, SYS_CG "/memory.high", "999424\n");
	fake_write(&f, MIN_TTL, "1000\n");
	tune_run(&f, &r, "--check", NULL);
	CHECK_INT(r.status, 1);
	CHECK_STR(r.out, "drift: system.slice memory.max: unreadable (No such file or directory), "
			 "want 8589934592 (" LOCAL ":3)\n1 drifted item\n");
	result_free(&r);
	fake_cleanup(&f);
}

static void test_status(void)
{
	struct fake f;
	struct result r;

	standard(&f);
	fake_write(&f, LOCAL, "[Slice system.slice]\nMemoryHigh=1000000\nMemoryLow=0\n"
			      "ProactiveReclaim=64M\nReclaimInterval=30s\n"
			      "[Slice nope.slice]\nMemoryHigh=1G\n");
	tune_run(&f, &r, "status", NULL);
	CHECK_INT(r.status, 0);
	CHECK_STR(r.out,
		  "policy                     fg\n"
		  "enabled                    0x0007\n"
		  "min_ttl_ms                 0\n"
		  "\n"
		  "system.slice (/sys/fs/cgroup/system.slice)\n"
		  "  memory.min               0\n"
		  "  memory.low               0 (MemoryLow=0)\n"
		  "  memory.high              max (MemoryHigh=999424, drifted)\n"
		  "  memory.max               max\n"
		  "  memory.swap.max          max\n"
		  "  memory.zswap.max         max\n"
		  "  memory.lru_gen_policy    mglru [fg]\n"
		  "  memory.current           1073741824\n"
		  "  workingset_refault_anon  11\n"
		  "  workingset_refault_file  22\n"
		  "  pgscan                   33\n"
		  "  pgsteal                  44\n"
		  "  ProactiveReclaim         67108864 bytes every 30000ms\n"
		  "\n"
		  "nope.slice: no cgroup at /sys/fs/cgroup/nope.slice\n");
	CHECK_STR(r.err, "");
	CHECK_FILE(&f, SYS_DROPIN, NULL);
	result_free(&r);

	/* missing counters show as "-" */
	fake_remove(&f, SYS_CG "/memory.stat");
	fake_remove(&f, SYS_CG "/memory.current");
	tune_run(&f, &r, "status", NULL);
	CHECK_INT(r.status, 0);
	CHECK_HAS(r.out, "  memory.current           -\n  workingset_refault_anon  -\n");
	result_free(&r);
	fake_cleanup(&f);
}

static void test_reclaim(void)
{
	struct fake f;
	struct result r;
	char *stamp;

	standard(&f);
	fake_write(&f, LOCAL, "[Slice system.slice]\nProactiveReclaim=64M\nReclaimSwappiness=60\n");
	tune_run(&f, &r, "--dry-run", "reclaim", NULL);
	CHECK_INT(r.status, 0);
	CHECK_STR(r.out, SYS_CG "/memory.reclaim: 67108864 swappiness=60 (" LOCAL ":2)\n");
	CHECK_FILE(&f, SYS_CG "/memory.reclaim", "");
	CHECK(!fake_exists(&f, "/run/mglru-fg/reclaim-system.slice.stamp"));
	result_free(&r);

	tune_run(&f, &r, "reclaim", NULL);
	CHECK_INT(r.status, 0);
	CHECK_FILE(&f, SYS_CG "/memory.reclaim", "67108864 swappiness=60\n");
	CHECK_HAS(r.err, "<6>system.slice: reclaimed 67108864 swappiness=60\n");
	stamp = fake_read(&f, "/run/mglru-fg/reclaim-system.slice.stamp");
	CHECK(stamp && stamp[0] >= '0' && stamp[0] <= '9');
	free(stamp);
	/* reclaim is not systemd's business: no drop-in, no reload */
	CHECK_SYSTEMCTL(&f, "");
	CHECK_FILE(&f, SYS_DROPIN, NULL);
	result_free(&r);

	/* the default interval (1min) has not passed */
	fake_write(&f, SYS_CG "/memory.reclaim", "");
	tune_run(&f, &r, "reclaim", NULL);
	CHECK_INT(r.status, 0);
	CHECK_FILE(&f, SYS_CG "/memory.reclaim", "");
	CHECK_HAS(r.err, "<6>system.slice: not due, next round in ");
	result_free(&r);

	/* ReclaimInterval=0: every round; capped at memory.current; no swappiness */
	fake_write(&f, LOCAL, "[Slice system.slice]\nProactiveReclaim=64M\nReclaimInterval=0\n");
	fake_write(&f, SYS_CG "/memory.current", "1000\n");
	tune_run(&f, &r, "reclaim", NULL);
	CHECK_INT(r.status, 0);
	CHECK_FILE(&f, SYS_CG "/memory.reclaim", "1000\n");
	result_free(&r);

	/* a percentage of MemTotal (16 GiB), rounded down */
	fake_write(&f, LOCAL, "[Slice system.slice]\nProactiveReclaim=1%\nReclaimInterval=0\n");
	fake_write(&f, SYS_CG "/memory.current", "1073741824\n");
	tune_run(&f, &r, "reclaim", NULL);
	CHECK_FILE(&f, SYS_CG "/memory.reclaim", "171798691\n");
	result_free(&r);

	/* an empty cgroup: nothing to write, but the round counts */
	fake_write(&f, SYS_CG "/memory.current", "0\n");
	fake_write(&f, SYS_CG "/memory.reclaim", "");
	tune_run(&f, &r, "reclaim", NULL);
	CHECK_FILE(&f, SYS_CG "/memory.reclaim", "");
	CHECK_HAS(r.err, "<6>system.slice: nothing to reclaim\n");
	result_free(&r);

	/* the kernel file is missing: a runtime error, no new stamp */
	fake_write(&f, SYS_CG "/memory.current", "1073741824\n");
	fake_remove(&f, SYS_CG "/memory.reclaim");
	fake_remove(&f, "/run/mglru-fg/reclaim-system.slice.stamp");
	tune_run(&f, &r, "reclaim", NULL);
	CHECK_INT(r.status, 1);
	CHECK_HAS(r.err, "<3>cannot write " SYS_CG "/memory.reclaim: No such file or directory\n");
	CHECK(!fake_exists(&f, "/run/mglru-fg/reclaim-system.slice.stamp"));
	result_free(&r);

	/* prefix sections reclaim from every matching slice; a missing
	 * exact slice is skipped */
	fake_cgroup(&f, "/sys/fs/cgroup/user.slice/user-1000.slice");
	fake_cgroup(&f, "/sys/fs/cgroup/user.slice/user-1001.slice");
	fake_write(&f, LOCAL, "[Slice user-.slice]\nProactiveReclaim=4K\n"
			      "[Slice nope.slice]\nProactiveReclaim=4K\n");
	tune_run(&f, &r, "reclaim", NULL);
	CHECK_INT(r.status, 0);
	CHECK_FILE(&f, "/sys/fs/cgroup/user.slice/user-1000.slice/memory.reclaim", "4096\n");
	CHECK_FILE(&f, "/sys/fs/cgroup/user.slice/user-1001.slice/memory.reclaim", "4096\n");
	CHECK_HAS(r.err, "<5>nope.slice skipped: no cgroup at /sys/fs/cgroup/nope.slice\n");
	result_free(&r);

	fake_write(&f, LOCAL, "[Global]\nMinTTL=1s\n");
	tune_run(&f, &r, "reclaim", NULL);
	CHECK_INT(r.status, 0);
	CHECK_HAS(r.err, "<6>no slice has ProactiveReclaim=, nothing to do\n");
	result_free(&r);
	fake_cleanup(&f);
}

static void test_not_applicable(void)
{
	struct fake f;
	struct result r;

	standard(&f);
	fake_write(&f, "/etc/mglru-fg/tune.d/99-bad.conf", "[Global]\nMinTTL=never\n");
	fake_remove(&f, "/sys/fs/cgroup/cgroup.controllers");
	tune_run(&f, &r, "apply", NULL);
	CHECK_INT(r.status, 77);
	CHECK_HAS(r.err, "<5>no cgroup2 hierarchy at /sys/fs/cgroup");
	CHECK_FILE(&f, SYS_DROPIN, NULL);
	result_free(&r);
	tune_run(&f, &r, "status", NULL);
	CHECK_INT(r.status, 77);
	result_free(&r);
	fake_cleanup(&f);

	standard(&f);
	fake_remove(&f, "/sys/kernel/mm/lru_gen/policy");
	fake_remove(&f, "/sys/kernel/mm/lru_gen/enabled");
	fake_remove(&f, MIN_TTL);
	fake_remove(&f, "/sys/kernel/mm/lru_gen");
	tune_run(&f, &r, "reclaim", NULL);
	CHECK_INT(r.status, 77);
	CHECK_HAS(r.err, "<5>the kernel has no multi-gen LRU (no /sys/kernel/mm/lru_gen)");
	result_free(&r);
	tune_run(&f, &r, "--check", NULL);
	CHECK_INT(r.status, 77);
	CHECK_FILE(&f, SYS_DROPIN, NULL);
	CHECK_SYSTEMCTL(&f, "");
	result_free(&r);
	fake_cleanup(&f);
}

static void test_config_errors(void)
{
	struct fake f;
	struct result r;

	standard(&f);
	fake_write(&f, "/etc/mglru-fg/tune.d/10-good.conf", "[Global]\nMinTTL=5s\n");
	fake_write(&f, "/etc/mglru-fg/tune.d/95-bad.conf",
		   "[Slice system.slice]\nMemoryLow=1G\nMemoryHigh=lots\nBogus=1\n");
	tune_run(&f, &r, "apply", NULL);
	CHECK_INT(r.status, 2);
	CHECK_HAS(r.err, "<3>/etc/mglru-fg/tune.d/95-bad.conf:3: MemoryHigh=lots: expected a number\n");
	CHECK_HAS(r.err, "<4>/etc/mglru-fg/tune.d/95-bad.conf:4: unknown key Bogus=, ignoring it\n");
	CHECK_HAS(r.err, "<3>/etc/mglru-fg/tune.d/95-bad.conf: 1 error, nothing from this file is applied\n");
	/* nor from the others: nothing changes while any file is broken */
	CHECK_HAS(r.err, "<3>the configuration has errors in 1 file: nothing is changed, "
			 "drop-ins and min_ttl_ms stay as they are\n");
	CHECK_FILE(&f, MIN_TTL, "0\n");
	CHECK_FILE(&f, SYS_DROPIN, NULL);
	CHECK_SYSTEMCTL(&f, "");
	result_free(&r);
	tune_run(&f, &r, "--dry-run", NULL);
	CHECK_INT(r.status, 2);
	CHECK_STR(r.out, "nothing to change: the configuration has errors\n");
	result_free(&r);
	tune_run(&f, &r, "--check", NULL);
	CHECK_INT(r.status, 2);
	CHECK_STR(r.out, "not compared: the configuration has errors\n");
	result_free(&r);

	/* unreadable and oversized files are errors too */
	fake_remove(&f, "/etc/mglru-fg/tune.d/95-bad.conf");
	fake_mkdir(&f, "/etc/mglru-fg/tune.d/30-dir.conf");
	tune_run(&f, &r, "apply", NULL);
	CHECK_INT(r.status, 2);
	CHECK_HAS(r.err, "<3>/etc/mglru-fg/tune.d/30-dir.conf: refused: not a regular file (a directory), "
			 "nothing from this file is applied\n");
	result_free(&r);
	{
		char *big = malloc((1 << 20) + 16);

		memset(big, '#', (1 << 20) + 15);
		big[(1 << 20) + 15] = '\0';
		fake_remove(&f, "/etc/mglru-fg/tune.d/30-dir.conf");
		fake_write(&f, "/etc/mglru-fg/tune.d/30-big.conf", big);
		free(big);
	}
	tune_run(&f, &r, "--check", NULL);
	CHECK_INT(r.status, 2);
	CHECK_HAS(r.err, "<3>/etc/mglru-fg/tune.d/30-big.conf: cannot read: larger than 1 MiB");
	result_free(&r);
	fake_cleanup(&f);
}

static void test_runtime_errors(void)
{
	struct fake f;
	struct result r;

	/* an unparsable policy file */
	standard(&f);
	fake_write(&f, "/sys/kernel/mm/lru_gen/policy", "whatever\n");
	tune_run(&f, &r, "apply", NULL);
	CHECK_INT(r.status, 1);
	CHECK_HAS(r.err, "<3>cannot parse /sys/kernel/mm/lru_gen/policy: 'whatever'\n");
	CHECK_FILE(&f, SYS_DROPIN, NULL);
	result_free(&r);
	fake_cleanup(&f);

	/* daemon-reload fails: error, and the next apply retries it */
	standard(&f);
	fake_systemctl(&f, 3);
	tune_run(&f, &r, "apply", NULL);
	CHECK_INT(r.status, 1);
	CHECK_HAS(r.err, "daemon-reload failed (exit status 3)\n");
	CHECK(strstr(r.err, "<3>") != NULL);
	CHECK(fake_exists(&f, MARKER));
	result_free(&r);
	fake_systemctl(&f, 0);
	tune_run(&f, &r, "apply", NULL);
	CHECK_INT(r.status, 0);
	CHECK_HAS(r.err, "<6>an earlier daemon-reload did not happen, reloading now\n");
	CHECK_SYSTEMCTL(&f, "daemon-reload\ndaemon-reload\n");
	CHECK(!fake_exists(&f, MARKER));
	result_free(&r);
	/* a systemctl that cannot be run at all */
	setenv("MGLRU_FG_TUNE_SYSTEMCTL", "/nonexistent/systemctl", 1);
	fake_write(&f, LOCAL, "[Slice system.slice]\nMemoryHigh=2G\n");
	tune_run(&f, &r, "apply", NULL);
	CHECK_INT(r.status, 1);
	CHECK_HAS(r.err, "<3>cannot run /nonexistent/systemctl daemon-reload: No such file or directory\n");
	result_free(&r);
	fake_cleanup(&f);

	/* the old drop-in cannot be read: a file where its directory goes */
	standard(&f);
	fake_write(&f, "/run/systemd/system/system.slice.d", "a file\n");
	tune_run(&f, &r, "apply", NULL);
	CHECK_INT(r.status, 1);
	CHECK_HAS(r.err, "<3>cannot read " SYS_DROPIN ": Not a directory\n");
	CHECK_FILE(&f, MIN_TTL, "1000\n");	/* the rest still happens */
	result_free(&r);
	/* ... or cannot be written: its directory leads nowhere */
	fake_remove(&f, "/run/systemd/system/system.slice.d");
	fake_symlink(&f, "/nonexistent", "/run/systemd/system/system.slice.d");
	tune_run(&f, &r, "apply", NULL);
	CHECK_INT(r.status, 1);
	CHECK_HAS(r.err, "<3>cannot write " SYS_DROPIN ": No such file or directory\n");
	CHECK_LACKS(r.err, "nothing to change");
	result_free(&r);
	fake_cleanup(&f);

	/* min_ttl_ms that cannot be read, /proc/meminfo missing or bad */
	standard(&f);
	fake_remove(&f, MIN_TTL);
	fake_mkdir(&f, MIN_TTL);
	fake_remove(&f, "/proc/meminfo");
	tune_run(&f, &r, "apply", NULL);
	CHECK_INT(r.status, 1);
	CHECK_HAS(r.err, "<3>cannot read " MIN_TTL ": Is a directory\n");
	CHECK_HAS(r.err, "<3>cannot read /proc/meminfo: No such file or directory\n");
	CHECK_FILE(&f, SYS_DROPIN, NULL);	/* MemoryMax=50% unresolvable */
	result_free(&r);
	fake_write(&f, "/proc/meminfo", "MemFree: 12 kB\n");
	tune_run(&f, &r, "--check", NULL);
	CHECK_INT(r.status, 1);
	CHECK_HAS(r.err, "<3>no usable MemTotal in /proc/meminfo\n");
	result_free(&r);
	fake_cleanup(&f);
}

static void test_bad_flags(void)
{
	static const char *const cases[][3] = {
		{ "--bogus", NULL, "unknown option '--bogus'" },
		{ "-x", NULL, "unknown option '-x'" },
		{ "frobnicate", NULL, "unknown command 'frobnicate'" },
		{ "apply", "status", "unexpected argument 'status'" },
		{ "--dry-run", "--check", "--dry-run and --check exclude each other" },
		{ "--check", "status", "--check compares the configuration with the system; it does not go with 'status'" },
		{ "--check", "reclaim", "--check compares the configuration with the system; it does not go with 'reclaim'" },
		{ "--cat-config", "apply", "--cat-config takes no command" },
		{ "--cat-config", "--dry-run", "--cat-config takes no command" },
		{ "--dry-run", "status", "--dry-run has no meaning for 'status'" },
		{ "--root", NULL, "--root needs a directory" },
		{ "--root=", NULL, "--root needs a directory" },
		{ "--root", "/nonexistent/dir", "--root /nonexistent/dir: not a directory" },
	};
	struct fake f;
	struct result r;

	standard(&f);
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		char want[256];

		tune_run(&f, &r, cases[i][0], cases[i][1], NULL);
		snprintf(want, sizeof(want), "<3>%s", cases[i][2]);
		if (r.status != 2)
			h_fail(__FILE__, __LINE__, "%s %s: status %d", cases[i][0],
			       cases[i][1] ? cases[i][1] : "", r.status);
		CHECK_HAS(r.err, want);
		CHECK_HAS(r.err, "Usage: mglru-fg-tune [OPTIONS] [apply|status|reclaim|revert]\n");
		CHECK_STR(r.out, "");
		result_free(&r);
	}
	CHECK_FILE(&f, SYS_DROPIN, NULL);
	CHECK_FILE(&f, MIN_TTL, "0\n");
	CHECK_SYSTEMCTL(&f, "");

	tune_run(&f, &r, "--help", NULL);
	CHECK_INT(r.status, 0);
	CHECK_HAS(r.out, "Usage: mglru-fg-tune");
	CHECK_STR(r.err, "");
	result_free(&r);
	fake_cleanup(&f);
}

static void test_policy_conditions(void)
{
	struct fake f;
	struct result r;

	/* classic: MinTTL is skipped with a notice */
	standard(&f);
	fake_write(&f, "/sys/kernel/mm/lru_gen/policy", "[classic] mglru fg\n");
	fake_write(&f, LOCAL, "[Global]\nMinTTL=1s\nExpectPolicy=classic\n");
	tune_run(&f, &r, "apply", NULL);
	CHECK_INT(r.status, 0);
	CHECK_HAS(r.err, "<5>MinTTL= skipped: the running policy is classic (" LOCAL ":2)\n");
	CHECK_LACKS(r.err, "<4>");
	CHECK_FILE(&f, MIN_TTL, "0\n");
	result_free(&r);
	fake_cleanup(&f);

	/* mglru: the vendor default (fg only) sets nothing */
	standard(&f);
	fake_remove(&f, LOCAL);
	fake_write(&f, "/sys/kernel/mm/lru_gen/policy", "classic [mglru] fg\n");
	tune_run(&f, &r, "apply", NULL);
	CHECK_INT(r.status, 0);
	CHECK_STR(r.err, "<6>nothing to change\n");
	CHECK_FILE(&f, MIN_TTL, "0\n");
	result_free(&r);

	/* ExpectPolicy= mismatch is a warning, not an error */
	fake_write(&f, LOCAL, "[Global]\nExpectPolicy=fg\nMinTTL=2s\n");
	tune_run(&f, &r, "apply", NULL);
	CHECK_INT(r.status, 0);
	CHECK_HAS(r.err, "<4>the running policy is mglru, but ExpectPolicy=fg (" LOCAL ":2)\n");
	CHECK_FILE(&f, MIN_TTL, "2000\n");
	result_free(&r);

	/* no policy file: enabled decides between classic and mglru */
	fake_remove(&f, "/sys/kernel/mm/lru_gen/policy");
	fake_write(&f, "/sys/kernel/mm/lru_gen/enabled", "0x0000\n");
	tune_run(&f, &r, "status", NULL);
	CHECK_INT(r.status, 0);
	CHECK_HAS(r.out, "policy                     classic\nenabled                    0x0000\n");
	result_free(&r);
	fake_write(&f, "/sys/kernel/mm/lru_gen/enabled", "0x0003\n");
	tune_run(&f, &r, "status", NULL);
	CHECK_HAS(r.out, "policy                     mglru\n");
	result_free(&r);
	fake_write(&f, "/sys/kernel/mm/lru_gen/enabled", "maybe\n");
	tune_run(&f, &r, "status", NULL);
	CHECK_INT(r.status, 1);
	CHECK_HAS(r.err, "<3>cannot parse /sys/kernel/mm/lru_gen/enabled: 'maybe'\n");
	result_free(&r);
	fake_remove(&f, "/sys/kernel/mm/lru_gen/enabled");
	tune_run(&f, &r, "status", NULL);
	CHECK_INT(r.status, 1);
	CHECK_HAS(r.err, "<3>cannot read /sys/kernel/mm/lru_gen/policy or enabled\n");
	result_free(&r);
	fake_cleanup(&f);
}

static void test_stale_and_missing(void)
{
	struct fake f;
	struct result r;

	standard(&f);
	fake_write(&f, "/run/systemd/system/other.slice.d/10-admin.conf", "[Slice]\nMemoryMax=1G\n");
	fake_write(&f, "/run/systemd/system/system.slice.d/10-admin.conf", "[Slice]\nCPUWeight=5\n");
	tune_run(&f, &r, "apply", NULL);
	CHECK_INT(r.status, 0);
	result_free(&r);

	/* a file with errors: system.slice's drop-in stays */
	fake_write(&f, LOCAL, "[Slice system.slice]\nMemoryHigh=huge\n");
	tune_run(&f, &r, "apply", NULL);
	CHECK_INT(r.status, 2);
	CHECK_HAS(r.err, "<3>the configuration has errors in 1 file: nothing is changed");
	CHECK_FILE(&f, SYS_DROPIN, standard_dropin);
	result_free(&r);

	/* the slice left the configuration: --check sees it, apply removes it */
	fake_write(&f, LOCAL, "[Slice nope.slice]\nMemoryHigh=1G\n");
	tune_run(&f, &r, "--check", NULL);
	CHECK_INT(r.status, 1);
	CHECK_HAS(r.out, "drift: " SYS_DROPIN ": left over, system.slice is no longer configured\n");
	result_free(&r);
	tune_run(&f, &r, "apply", NULL);
	CHECK_INT(r.status, 0);
	CHECK_HAS(r.err, "<6>removed " SYS_DROPIN "\n");
	CHECK_FILE(&f, SYS_DROPIN, NULL);
	/* written although nope.slice is not running (test_apply.c) */
	CHECK_FILE(&f, "/run/systemd/system/nope.slice.d/50-mglru-fg-tune.conf",
		   DROPIN_HEAD "MemoryHigh=1073741824\n");
	CHECK_FILE(&f, "/run/systemd/system/system.slice.d/10-admin.conf", "[Slice]\nCPUWeight=5\n");
	CHECK_FILE(&f, "/run/systemd/system/other.slice.d/10-admin.conf", "[Slice]\nMemoryMax=1G\n");
	CHECK_SYSTEMCTL(&f, "daemon-reload\ndaemon-reload\n");
	result_free(&r);

	/* a slice section with only reclaim settings has no drop-in */
	tune_run(&f, &r, "apply", NULL);
	result_free(&r);
	fake_write(&f, LOCAL, "[Slice system.slice]\nMemoryHigh=1G\n");
	tune_run(&f, &r, "apply", NULL);
	CHECK_FILE(&f, SYS_DROPIN, DROPIN_HEAD "MemoryHigh=1073741824\n");
	result_free(&r);
	fake_write(&f, LOCAL, "[Slice system.slice]\nProactiveReclaim=1M\n");
	tune_run(&f, &r, "apply", NULL);
	CHECK_INT(r.status, 0);
	CHECK_HAS(r.err, "<6>system.slice MemoryHigh: 1073741824 -> - (no longer configured)\n");
	CHECK_FILE(&f, SYS_DROPIN, NULL);
	CHECK_FILE(&f, "/run/systemd/system/system.slice.d/10-admin.conf", "[Slice]\nCPUWeight=5\n");
	result_free(&r);
	fake_cleanup(&f);
}

static void test_no_reload_and_root(void)
{
	struct fake f;
	struct result r;

	standard(&f);
	tune_run(&f, &r, "--no-reload", NULL);
	CHECK_INT(r.status, 0);
	CHECK_FILE(&f, SYS_DROPIN, standard_dropin);
	CHECK_SYSTEMCTL(&f, "");
	CHECK(fake_exists(&f, MARKER));
	CHECK_HAS(r.err, "<5>--no-reload: not running systemctl daemon-reload; the next apply will\n");
	result_free(&r);
	fake_write(&f, SYS_CG "/memory.high", "999424\n");
	fake_write(&f, SYS_CG "/memory.max", "8589934592\n");
	tune_run(&f, &r, "--check", NULL);
	CHECK_INT(r.status, 1);
	CHECK_STR(r.out, "drift: systemd has not reloaded the drop-ins yet (" MARKER " exists)\n"
			 "1 drifted item\n");
	result_free(&r);
	tune_run(&f, &r, "--dry-run", NULL);
	CHECK_HAS(r.out, "run systemctl daemon-reload\n1 change planned\n");
	result_free(&r);
	tune_run(&f, &r, "apply", NULL);
	CHECK_INT(r.status, 0);
	CHECK_SYSTEMCTL(&f, "daemon-reload\n");
	CHECK(!fake_exists(&f, MARKER));
	result_free(&r);

	/* --root and no MGLRU_FG_TUNE_SYSTEMCTL: say it, do not run it */
	unsetenv("MGLRU_FG_TUNE_SYSTEMCTL");
	fake_write(&f, LOCAL, "[Slice system.slice]\nMemoryHigh=2G\n");
	tune_run(&f, &r, "apply", NULL);
	CHECK_INT(r.status, 0);
	CHECK_HAS(r.err, "<5>--root given, not running: systemctl daemon-reload\n");
	CHECK_SYSTEMCTL(&f, "daemon-reload\n");
	CHECK(!fake_exists(&f, MARKER));
	result_free(&r);
	fake_cleanup(&f);
}

static void test_prefix_slices(void)
{
	struct fake f;
	struct result r;

	standard(&f);
	fake_remove(&f, LOCAL);
	fake_cgroup(&f, "/sys/fs/cgroup/user.slice/user-1000.slice");
	fake_cgroup(&f, "/sys/fs/cgroup/user.slice/user-1001.slice");
	fake_cgroup(&f, "/sys/fs/cgroup/user.slice/user-1000.slice/user-1000-x.slice");
	fake_write(&f, LOCAL, "[Slice user-.slice]\nMemoryMax=8G\n"
			      "[Slice user-1000.slice]\nMemoryHigh=1G\n"
			      "[Slice machine-.slice]\nMemoryLow=1M\n");
	tune_run(&f, &r, "apply", NULL);
	CHECK_INT(r.status, 0);
	CHECK_FILE(&f, "/run/systemd/system/user-.slice.d/50-mglru-fg-tune.conf",
		   DROPIN_HEAD "MemoryMax=8589934592\n");
	/* same file name: the exact drop-in replaces the prefix one, so it
	 * carries the prefix settings too */
	CHECK_FILE(&f, "/run/systemd/system/user-1000.slice.d/50-mglru-fg-tune.conf",
		   DROPIN_HEAD "MemoryHigh=1073741824\nMemoryMax=8589934592\n");
	/* a prefix is written even before any matching slice exists */
	CHECK_FILE(&f, "/run/systemd/system/machine-.slice.d/50-mglru-fg-tune.conf",
		   DROPIN_HEAD "MemoryLow=1048576\n");
	CHECK_SYSTEMCTL(&f, "daemon-reload\n");
	result_free(&r);

	fake_write(&f, "/sys/fs/cgroup/user.slice/user-1001.slice/memory.max", "8589934592\n");
	tune_run(&f, &r, "--check", NULL);
	CHECK_INT(r.status, 1);
	CHECK_STR(r.out,
		  /* sections in configuration order: the prefix walk first */
		  "drift: user-1000-x.slice memory.max: max, want 8589934592 (" LOCAL ":2)\n"
		  "drift: user-1000.slice memory.high: max, want 1073741824 (" LOCAL ":4)\n"
		  "drift: user-1000.slice memory.max: max, want 8589934592 (" LOCAL ":2)\n"
		  "3 drifted items\n");
	result_free(&r);

	tune_run(&f, &r, "status", NULL);
	CHECK_HAS(r.out, "\nuser-1000-x.slice (/sys/fs/cgroup/user.slice/user-1000.slice/user-1000-x.slice)\n");
	CHECK_HAS(r.out, "\nuser-1001.slice (/sys/fs/cgroup/user.slice/user-1001.slice)\n"
			 "  memory.min               0\n");
	result_free(&r);
	fake_cleanup(&f);
}

static void test_cat_config(void)
{
	struct fake f;
	struct result r;

	standard(&f);
	fake_remove(&f, "/sys/fs/cgroup/cgroup.controllers");	/* not needed */
	fake_write(&f, "/etc/mglru-fg/tune.conf", "[Global]\nExpectPolicy=fg");
	fake_write(&f, "/usr/lib/mglru-fg/tune.d/20-vendor.conf", "# hidden by /run\n");
	fake_write(&f, "/run/mglru-fg/tune.d/20-vendor.conf", "# from /run\n");
	fake_symlink(&f, "/dev/null", "/etc/mglru-fg/tune.d/50-default.conf");
	tune_run(&f, &r, "--cat-config", NULL);
	CHECK_INT(r.status, 0);
	CHECK_STR(r.out,
		  "# /run/mglru-fg/tune.d/20-vendor.conf\n# from /run\n"
		  "\n# " LOCAL "\n[Slice system.slice]\nMemoryHigh=1000000\nMemoryMax=50%\n"
		  "ManagedOOMMemoryPressure=kill\nManagedOOMMemoryPressureLimit=60%\n"
		  "\n# /etc/mglru-fg/tune.conf\n[Global]\nExpectPolicy=fg\n");
	result_free(&r);
	fake_cleanup(&f);

	fake_init(&f);
	tune_run(&f, &r, "--cat-config", NULL);
	CHECK_INT(r.status, 0);
	CHECK_STR(r.out, "");
	CHECK_STR(r.err, "<5>no configuration files\n");
	result_free(&r);
	fake_cleanup(&f);
}

/* The plain -O2 build: main(), and exit codes through exec. */
static void test_real_binary(void)
{
	const char *bin = getenv("TUNE_BIN");
	struct fake f;
	struct result r;

	if (!bin || access(bin, X_OK) != 0) {
		h_fail(__FILE__, __LINE__, "TUNE_BIN=%s is not executable", bin ? bin : "");
		return;
	}
	prog_run(&r, bin, "--help", NULL);
	CHECK_INT(r.status, 0);
	CHECK_HAS(r.out, "Usage: mglru-fg-tune");
	result_free(&r);
	prog_run(&r, bin, "--frobnicate", NULL);
	CHECK_INT(r.status, 2);
	CHECK_HAS(r.err, "<3>unknown option '--frobnicate'\n");
	result_free(&r);

	standard(&f);
	prog_run(&r, bin, "--root", f.root, NULL);
	CHECK_INT(r.status, 0);
	CHECK_FILE(&f, SYS_DROPIN, standard_dropin);
	CHECK_SYSTEMCTL(&f, "daemon-reload\n");
	result_free(&r);
	prog_run(&r, bin, "--root", f.root, "--check", NULL);
	CHECK_INT(r.status, 1);
	result_free(&r);
	fake_remove(&f, "/sys/fs/cgroup/cgroup.controllers");
	prog_run(&r, bin, "--root", f.root, NULL);
	CHECK_INT(r.status, 77);
	result_free(&r);
	fake_cleanup(&f);
}

void tests_cli(void)
{
	h_run("apply: drop-ins, min_ttl_ms, one daemon-reload", test_apply);
	h_run("apply: second run changes nothing and says so", test_idempotent);
	h_run("--dry-run: plan with old -> new and file:line, no writes", test_dry_run);
	h_run("--check: drift and no drift, page rounding", test_check);
	h_run("status: policy, settings, counters", test_status);
	h_run("reclaim: memory.reclaim, swappiness, interval, caps", test_reclaim);
	h_run("exit 77: no cgroup2, no lru_gen", test_not_applicable);
	h_run("exit 2: a bad file is reported with file:line, nothing changes", test_config_errors);
	h_run("exit 1: runtime errors", test_runtime_errors);
	h_run("bad command lines: message, usage, exit 2, no change", test_bad_flags);
	h_run("policy: classic skips MinTTL, ApplyWhenPolicy, ExpectPolicy, enabled", test_policy_conditions);
	h_run("stale drop-ins, slices without a cgroup", test_stale_and_missing);
	h_run("--no-reload and --root without systemctl", test_no_reload_and_root);
	h_run("prefix slices: drop-ins, check, status", test_prefix_slices);
	h_run("--cat-config", test_cat_config);
	h_run("the installed binary: main and exit codes", test_real_binary);
}
