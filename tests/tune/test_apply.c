// SPDX-License-Identifier: GPL-2.0-only
/* apply, --check and --dry-run where the review found them wrong:
 * slices without a cgroup, files with errors, a full /run, the longest
 * slice names and what --dry-run shows for prefix sections. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "cli.h"
#include "harness.h"
#include "tests.h"

#define DROPIN(s) "/run/systemd/system/" s ".d/50-mglru-fg-tune.conf"

/* At boot user-1000.slice does not exist yet; its drop-in must be there
 * when it starts, or the user gets the prefix's limit. */
static void test_inactive_slice_written(void)
{
	struct fake f;
	struct result r;

	standard(&f);
	fake_write(&f, LOCAL, "[Slice user-.slice]\nMemoryMax=8G\n"
			      "[Slice user-1000.slice]\nMemoryMax=12G\n");
	tune_run(&f, &r, "apply", NULL);
	CHECK_INT(r.status, 0);
	CHECK_FILE(&f, DROPIN("user-1000.slice"), DROPIN_HEAD "MemoryMax=12884901888\n");
	CHECK_FILE(&f, DROPIN("user-.slice"), DROPIN_HEAD "MemoryMax=8589934592\n");
	CHECK_LACKS(r.err, "skipped");
	CHECK_SYSTEMCTL(&f, "daemon-reload\n");
	result_free(&r);
	tune_run(&f, &r, "--check", NULL);
	CHECK_INT(r.status, 0);
	CHECK_STR(r.out, "no drift\n");
	result_free(&r);
	fake_cleanup(&f);
}

/* A slice that stopped keeps a drop-in that no longer matches the
 * configuration: --check must see it and apply must fix it. */
static void test_inactive_stale(void)
{
	struct fake f;
	struct result r;

	standard(&f);
	fake_remove(&f, VENDOR);
	fake_mkdir(&f, "/sys/fs/cgroup/app.slice");
	fake_write(&f, LOCAL, "[Slice app.slice]\nMemoryHigh=1G\n");
	tune_run(&f, &r, "apply", NULL);
	CHECK_FILE(&f, DROPIN("app.slice"), DROPIN_HEAD "MemoryHigh=1073741824\n");
	result_free(&r);

	fake_remove(&f, "/sys/fs/cgroup/app.slice");
	fake_write(&f, LOCAL, "[Slice app.slice]\nMemoryHigh=2G\n");
	tune_run(&f, &r, "--check", NULL);
	CHECK_INT(r.status, 1);
	CHECK_STR(r.out, "drift: " DROPIN("app.slice") ": differs from the configuration\n"
			 "1 drifted item\n");
	result_free(&r);
	tune_run(&f, &r, "apply", NULL);
	CHECK_INT(r.status, 0);
	CHECK_FILE(&f, DROPIN("app.slice"), DROPIN_HEAD "MemoryHigh=2147483648\n");
	CHECK_SYSTEMCTL(&f, "daemon-reload\ndaemon-reload\n");
	result_free(&r);

	/* still configured, but with nothing for the drop-in */
	fake_write(&f, LOCAL, "[Slice app.slice]\nProactiveReclaim=1M\n");
	tune_run(&f, &r, "--check", NULL);
	CHECK_INT(r.status, 1);
	CHECK_HAS(r.out, "drift: " DROPIN("app.slice") ": left over, nothing configured\n");
	result_free(&r);
	tune_run(&f, &r, "apply", NULL);
	CHECK_INT(r.status, 0);
	CHECK(!fake_exists(&f, "/run/systemd/system/app.slice.d"));
	result_free(&r);
	fake_cleanup(&f);
}

/* 60-b.conf shares system.slice with 10-a.conf; once it breaks, the
 * MemoryMax= it set must stay in force, and so must everything else. */
static void test_config_error_keeps_all(void)
{
	struct fake f;
	struct result r;
	struct stat st;

	standard(&f);
	fake_remove(&f, LOCAL);
	fake_mkdir(&f, "/sys/fs/cgroup/app.slice");
	fake_write(&f, "/etc/mglru-fg/tune.d/10-a.conf", "[Slice system.slice]\nMemoryHigh=1G\n");
	fake_write(&f, "/etc/mglru-fg/tune.d/60-b.conf", "[Global]\nMinTTL=2s\n"
		   "[Slice system.slice]\nMemoryMax=2G\n[Slice app.slice]\nMemoryLow=1M\n");
	tune_run(&f, &r, "--no-reload", NULL);
	CHECK_INT(r.status, 0);
	CHECK_FILE(&f, SYS_DROPIN, DROPIN_HEAD "MemoryHigh=1073741824\nMemoryMax=2147483648\n");
	CHECK_FILE(&f, MIN_TTL, "2000\n");
	CHECK(fake_exists(&f, MARKER));
	result_free(&r);
	fake_age(&f, SYS_DROPIN);
	fake_age(&f, DROPIN("app.slice"));

	fake_write(&f, "/etc/mglru-fg/tune.d/60-b.conf", "[Global]\nMinTTL=2s\n"
		   "[Slice system.slice]\nMemoryMax=2G\nMemoryLow=lots\n[Slice app.slice]\nMemoryLow=1M\n");
	tune_run(&f, &r, "apply", NULL);
	CHECK_INT(r.status, 2);
	CHECK_HAS(r.err, "<3>/etc/mglru-fg/tune.d/60-b.conf:5: MemoryLow=lots: expected a number\n");
	CHECK_FILE(&f, SYS_DROPIN, DROPIN_HEAD "MemoryHigh=1073741824\nMemoryMax=2147483648\n");
	CHECK_INT(fake_stat(&f, SYS_DROPIN, &st), 0);
	CHECK_INT(st.st_mtime, 1000000000);
	CHECK_FILE(&f, DROPIN("app.slice"), DROPIN_HEAD "MemoryLow=1048576\n");
	CHECK_INT(fake_stat(&f, DROPIN("app.slice"), &st), 0);
	CHECK_INT(st.st_mtime, 1000000000);
	CHECK_FILE(&f, MIN_TTL, "2000\n");	/* not the vendor's 1000 */
	/* not even the reload --no-reload left pending */
	CHECK_SYSTEMCTL(&f, "");
	CHECK(fake_exists(&f, MARKER));
	result_free(&r);

	/* fixed: now the change is made, and the pending reload done */
	fake_write(&f, "/etc/mglru-fg/tune.d/60-b.conf", "[Slice app.slice]\nMemoryLow=1M\n");
	tune_run(&f, &r, "apply", NULL);
	CHECK_INT(r.status, 0);
	CHECK_FILE(&f, SYS_DROPIN, DROPIN_HEAD "MemoryHigh=1073741824\n");
	CHECK_FILE(&f, MIN_TTL, "1000\n");
	CHECK_SYSTEMCTL(&f, "daemon-reload\n");
	CHECK(!fake_exists(&f, MARKER));
	result_free(&r);
	fake_cleanup(&f);
}

/* /run/systemd/system full: an error, and no claim that anything was
 * written or needs reloading; nothing of the failed write stays. */
static void test_enospc(void)
{
	struct fake f;
	struct result r;
	char filler[4097];

	standard(&f);
	fake_remove(&f, VENDOR);	/* so that the drop-in is the only change */
	if (!fake_tmpfs(&f, "/run/systemd/system", "4k")) {
		printf("# skip: cannot mount a tmpfs here (not root?)\n");
		fake_cleanup(&f);
		return;
	}
	memset(filler, 'x', sizeof(filler) - 1);
	filler[sizeof(filler) - 1] = '\0';
	fake_write(&f, "/run/systemd/system/filler", filler);
	tune_run(&f, &r, "apply", NULL);
	CHECK_INT(r.status, 1);
	CHECK_HAS(r.err, "<3>cannot write " SYS_DROPIN ": No space left on device\n");
	CHECK_LACKS(r.err, "change");
	CHECK_LACKS(r.err, "daemon-reload");
	CHECK_LACKS(r.err, "MemoryHigh");
	CHECK_SYSTEMCTL(&f, "");
	CHECK(!fake_exists(&f, MARKER));
	CHECK(!fake_exists(&f, "/run/systemd/system/system.slice.d"));
	result_free(&r);
	tune_run(&f, &r, "--check", NULL);
	CHECK_LACKS(r.out, "reloaded");
	result_free(&r);

	fake_remove(&f, "/run/systemd/system/filler");
	tune_run(&f, &r, "apply", NULL);
	CHECK_INT(r.status, 0);
	CHECK_FILE(&f, SYS_DROPIN, standard_dropin);
	CHECK_HAS(r.err, "<6>1 change applied\n");
	CHECK_SYSTEMCTL(&f, "daemon-reload\n");
	result_free(&r);
	fake_cleanup(&f);
}

/* The longest name the parser takes must work everywhere a name is
 * used: drop-in directory, cgroup, reclaim stamp (and its temporary). */
static void test_longest_slice_name(void)
{
	char name[300], cg[400], conf[600], path[600];
	struct fake f;
	struct result r;

	memset(name, 'a', 225);
	strcpy(name + 225, ".slice");	/* 231 characters */
	standard(&f);
	fake_remove(&f, VENDOR);
	snprintf(cg, sizeof(cg), "/sys/fs/cgroup/%s", name);
	fake_cgroup(&f, cg);
	snprintf(conf, sizeof(conf), "[Slice %s]\nMemoryHigh=1G\nProactiveReclaim=4K\n", name);
	fake_write(&f, LOCAL, conf);
	tune_run(&f, &r, "apply", NULL);
	CHECK_INT(r.status, 0);
	snprintf(path, sizeof(path), "/run/systemd/system/%s.d/50-mglru-fg-tune.conf", name);
	CHECK_FILE(&f, path, DROPIN_HEAD "MemoryHigh=1073741824\n");
	result_free(&r);
	tune_run(&f, &r, "reclaim", NULL);
	CHECK_INT(r.status, 0);
	CHECK_LACKS(r.err, "<4>");
	snprintf(path, sizeof(path), "/run/mglru-fg/reclaim-%s.stamp", name);
	CHECK(fake_exists(&f, path));
	result_free(&r);

	/* one more is refused when parsed, with the reason */
	memset(name, 'a', 226);
	strcpy(name + 226, ".slice");
	snprintf(conf, sizeof(conf), "[Slice %s]\nMemoryHigh=1G\n", name);
	fake_write(&f, LOCAL, conf);
	tune_run(&f, &r, "apply", NULL);
	CHECK_INT(r.status, 2);
	CHECK_HAS(r.err, ": slice name too long: at most 231 characters, so that the file names "
			 "derived from it fit in 255 bytes\n");
	result_free(&r);
	fake_cleanup(&f);
}

/* A prefix drop-in applies to the matching slices, not to the parent
 * slice whose directory they share: those are what "now" must show. */
static void test_dry_run_prefix_now(void)
{
	struct fake f;
	struct result r;

	standard(&f);
	fake_remove(&f, VENDOR);
	fake_cgroup(&f, "/sys/fs/cgroup/user.slice");
	fake_write(&f, "/sys/fs/cgroup/user.slice/memory.max", "17179869184\n");
	fake_cgroup(&f, "/sys/fs/cgroup/user.slice/user-1000.slice");
	fake_cgroup(&f, "/sys/fs/cgroup/user.slice/user-1001.slice");
	fake_write(&f, LOCAL, "[Slice user-.slice]\nMemoryMax=8G\n"
			      "[Slice machine-.slice]\nMemoryLow=1M\n");
	tune_run(&f, &r, "--dry-run", NULL);
	CHECK_INT(r.status, 0);
	CHECK_HAS(r.out, "user-.slice MemoryMax: - -> 8589934592 (" LOCAL
			 ":2; memory.max now max in 2 slices)\n");
	CHECK_HAS(r.out, "machine-.slice MemoryLow: - -> 1048576 (" LOCAL ":4)\n");
	CHECK_LACKS(r.out, "17179869184");
	result_free(&r);

	fake_write(&f, "/sys/fs/cgroup/user.slice/user-1001.slice/memory.max", "8589934592\n");
	tune_run(&f, &r, "--dry-run", NULL);
	CHECK_HAS(r.out, "(" LOCAL ":2; memory.max now varies across 2 slices)\n");
	result_free(&r);

	/* user-1000.slice's own section decides it: the prefix has one left */
	fake_write(&f, LOCAL, "[Slice user-.slice]\nMemoryMax=8G\n"
			      "[Slice user-1000.slice]\nMemoryHigh=1G\n");
	tune_run(&f, &r, "--dry-run", NULL);
	CHECK_HAS(r.out, "user-.slice MemoryMax: - -> 8589934592 (" LOCAL
			 ":2; memory.max now 8589934592 in user-1001.slice)\n");
	CHECK_HAS(r.out, "user-1000.slice MemoryMax: - -> 8589934592 (" LOCAL
			 ":2; memory.max now max)\n");
	result_free(&r);
	fake_cleanup(&f);
}

#define SYS_POLICY SYS_CG "/memory.lru_gen_policy"
#define POLICY_SAVED "/run/mglru-fg/policy-system.slice.saved"

/* Policy= on a slice with a cgroup: written, recorded for revert, then
 * no drift; a slice with none is started first; revert puts it back. */
static void test_policy(void)
{
	struct fake f;
	struct result r;

	standard(&f);
	fake_systemctl(&f, 0);
	fake_write(&f, LOCAL, "[Slice system.slice]\nPolicy=mglru\nExpectPolicy=mglru\n"
			      "[Slice app.slice]\nPolicy=mglru\n");
	tune_run(&f, &r, "--check", NULL);
	CHECK_INT(r.status, 1);
	CHECK_HAS(r.out, "drift: system.slice memory.lru_gen_policy: fg, want mglru (" LOCAL ":2)\n");
	CHECK_HAS(r.out, "drift: system.slice follows fg, but ExpectPolicy=mglru (" LOCAL ":3)\n");
	CHECK_LACKS(r.out, "app.slice");
	result_free(&r);
	tune_run(&f, &r, "--dry-run", NULL);
	CHECK_HAS(r.out, "system.slice Policy: fg -> mglru (" LOCAL ":2)\n");
	CHECK_HAS(r.out, "run systemctl start app.slice, then write its memory.lru_gen_policy: mglru\n");
	CHECK_FILE(&f, SYS_POLICY, "mglru [fg]\n");
	result_free(&r);

	tune_run(&f, &r, "apply", NULL);
	CHECK_INT(r.status, 0);
	CHECK_FILE(&f, SYS_POLICY, "mglru");
	CHECK_FILE(&f, POLICY_SAVED, "fg mglru\n");
	CHECK_HAS(r.err, "system.slice Policy: fg -> mglru (" LOCAL ":2)");
	/* the fake systemctl makes no cgroup: the policy waits */
	CHECK_HAS(r.err, "app.slice: no cgroup after systemctl start");
	CHECK_LACKS(r.err, "ExpectPolicy");
	CHECK_SYSTEMCTL(&f, "start app.slice\n");
	result_free(&r);
	tune_run(&f, &r, "--check", NULL);
	CHECK_INT(r.status, 0);
	CHECK_STR(r.out, "no drift\n");
	result_free(&r);

	/* a second apply keeps the first policy on record */
	fake_write(&f, LOCAL, "[Slice system.slice]\nPolicy=fg\n");
	fake_write(&f, SYS_POLICY, "[mglru] fg\n");
	tune_run(&f, &r, "apply", NULL);
	CHECK_FILE(&f, SYS_POLICY, "fg");
	CHECK_FILE(&f, POLICY_SAVED, "fg fg\n");
	result_free(&r);

	fake_write(&f, POLICY_SAVED, "fg mglru\n");
	fake_write(&f, SYS_POLICY, "[mglru] fg\n");
	tune_run(&f, &r, "revert", "--dry-run", NULL);
	CHECK_HAS(r.out, "system.slice Policy: mglru -> fg (as before mglru-fg-tune)\n");
	CHECK_FILE(&f, SYS_POLICY, "[mglru] fg\n");
	result_free(&r);
	tune_run(&f, &r, "revert", NULL);
	CHECK_INT(r.status, 0);
	CHECK_FILE(&f, SYS_POLICY, "fg");
	CHECK_FILE(&f, POLICY_SAVED, NULL);
	result_free(&r);

	/* changed by someone else since: left alone, the record goes */
	fake_write(&f, POLICY_SAVED, "fg mglru\n");
	tune_run(&f, &r, "revert", NULL);
	CHECK_FILE(&f, SYS_POLICY, "fg");
	CHECK_HAS(r.err, "not the mglru mglru-fg-tune wrote: left as it is");
	CHECK_FILE(&f, POLICY_SAVED, NULL);
	result_free(&r);
	fake_cleanup(&f);
}

/* --root with no stand-in runs no systemctl start: dry-run plans what
 * apply then does, which is to leave the policy waiting. */
static void test_policy_root_unstarted(void)
{
	struct fake f;
	struct result r;

	standard(&f);
	unsetenv("MGLRU_FG_TUNE_SYSTEMCTL");
	fake_write(&f, VENDOR, "");
	fake_write(&f, LOCAL, "[Slice app.slice]\nPolicy=mglru\n");
	tune_run(&f, &r, "--dry-run", NULL);
	CHECK_INT(r.status, 0);
	CHECK_HAS(r.out, "app.slice has no cgroup, and --root starts no unit: Policy= waits");
	CHECK_HAS(r.out, "nothing to change\n");
	result_free(&r);
	tune_run(&f, &r, "apply", NULL);
	CHECK_INT(r.status, 0);
	CHECK_HAS(r.err, "app.slice: no cgroup, and --root starts no unit: Policy= waits");
	CHECK_HAS(r.err, "nothing to change");
	CHECK_LACKS(r.err, "systemctl start");
	CHECK(!fake_exists(&f, "/run/mglru-fg/policy-app.slice.saved"));
	result_free(&r);
	fake_cleanup(&f);
}

/* What stops Policy=: classic, a kernel without the file, a bad value,
 * a user-*.slice. */
static void test_policy_refused(void)
{
	struct fake f;
	struct result r;

	standard(&f);
	fake_write(&f, LOCAL, "[Slice system.slice]\nPolicy=classic\n");
	tune_run(&f, &r, "apply", NULL);
	CHECK_INT(r.status, 2);
	CHECK_HAS(r.err, "Policy=classic: a slice follows mglru or fg");
	CHECK_FILE(&f, SYS_POLICY, "mglru [fg]\n");
	result_free(&r);

	fake_write(&f, LOCAL, "[Slice -.slice]\nPolicy=mglru\n[Global]\nPolicy=fg\n");
	tune_run(&f, &r, "apply", NULL);
	CHECK_HAS(r.err, "Policy= has no effect on -.slice");
	CHECK_HAS(r.err, "Policy= belongs in a [Slice ...] section");
	result_free(&r);

	/* a user slice is stopped when unneeded: refused, nothing started */
	fake_cgroup(&f, "/sys/fs/cgroup/user.slice");
	fake_write(&f, LOCAL, "[Slice user.slice]\nMemoryHigh=1G\n[Slice user-1000.slice]\nPolicy=fg\n");
	tune_run(&f, &r, "apply", NULL);
	CHECK_INT(r.status, 2);
	CHECK_HAS(r.err, "<3>" LOCAL ":4: Policy= cannot stick on user-1000.slice: systemd stops "
			 "user-*.slice when unneeded (StopWhenUnneeded=yes) and a later login gets a new "
			 "cgroup; set it on user.slice, whose new user slices take its policy\n");
	CHECK_SYSTEMCTL(&f, "");
	CHECK(!fake_exists(&f, "/run/systemd/system/user.slice.d"));
	CHECK(!fake_exists(&f, "/run/mglru-fg/policy-user-1000.slice.saved"));
	result_free(&r);

	fake_write(&f, LOCAL, "[Slice system.slice]\nPolicy=mglru\n");
	fake_remove(&f, SYS_POLICY);
	tune_run(&f, &r, "apply", NULL);
	CHECK_INT(r.status, 0);
	CHECK_HAS(r.err, "system.slice: no memory.lru_gen_policy");
	CHECK(!fake_exists(&f, SYS_POLICY));
	CHECK_FILE(&f, POLICY_SAVED, NULL);
	result_free(&r);

	fake_write(&f, SYS_POLICY, "classic\n");
	fake_write(&f, "/sys/kernel/mm/lru_gen/policy", "[classic] mglru fg\n");
	fake_write(&f, "/sys/kernel/mm/lru_gen/enabled", "0x0000\n");
	tune_run(&f, &r, "apply", NULL);
	CHECK_INT(r.status, 0);
	CHECK_HAS(r.err, "system.slice: Policy= and ExpectPolicy= skipped: the running policy is classic");
	CHECK_FILE(&f, SYS_POLICY, "classic\n");
	result_free(&r);
	fake_cleanup(&f);
}

/* A kernel without the per-memcg policy: no slice is started for it, in
 * the plan as in apply, and that is said once. */
static void test_policy_no_memcg_policy(void)
{
	struct fake f;
	struct result r;

	standard(&f);
	fake_remove(&f, VENDOR);
	fake_remove(&f, SYS_POLICY);
	fake_write(&f, LOCAL, "[Slice system.slice]\nPolicy=mglru\n"
			      "[Slice app.slice]\nPolicy=fg\nExpectPolicy=fg\n"
			      "[Slice batch.slice]\nPolicy=fg\n");
	tune_run(&f, &r, "--dry-run", NULL);
	CHECK_INT(r.status, 0);
	CHECK_STR(r.out, "nothing to change\n");
	CHECK_STR(r.err, "<4>no cgroup below /sys/fs/cgroup has memory.lru_gen_policy (a kernel "
			 "without the per-memcg policy): Policy= and ExpectPolicy= ignored, no slice "
			 "started\n");
	result_free(&r);
	tune_run(&f, &r, "apply", NULL);
	CHECK_INT(r.status, 0);
	CHECK_HAS(r.err, "<4>no cgroup below /sys/fs/cgroup has memory.lru_gen_policy");
	CHECK_HAS(r.err, "<6>nothing to change\n");
	CHECK_LACKS(r.err, "systemctl start");
	CHECK_SYSTEMCTL(&f, "");
	CHECK(!fake_exists(&f, POLICY_SAVED));
	CHECK(!fake_exists(&f, "/run/mglru-fg/policy-app.slice.saved"));
	result_free(&r);
	tune_run(&f, &r, "--check", NULL);
	CHECK_INT(r.status, 0);
	CHECK_STR(r.out, "no drift\n");
	result_free(&r);
	fake_cleanup(&f);
}

#define MIN_TTL_SAVED "/run/mglru-fg/min_ttl_ms.saved"
#define VENDOR_MASK "/etc/mglru-fg/tune.d/50-default.conf"

/* MinTTL=0 turns the thrashing protection off, and a jiffy's 4 ms left
 * by someone else is not "the same within the rounding". */
static void test_min_ttl_zero(void)
{
	struct fake f;
	struct result r;

	standard(&f);
	fake_write(&f, LOCAL, "[Global]\nMinTTL=0\n");
	fake_write(&f, MIN_TTL, "4\n");
	tune_run(&f, &r, "--check", "apply", NULL);
	CHECK_INT(r.status, 1);
	CHECK_HAS(r.out, "drift: min_ttl_ms: 4, want 0 (" LOCAL ":2)\n");
	result_free(&r);
	tune_run(&f, &r, "apply", NULL);
	CHECK_INT(r.status, 0);
	CHECK_FILE(&f, MIN_TTL, "0\n");
	result_free(&r);
	fake_cleanup(&f);
}

/* MinTTL= gone from the configuration (masked, or not counting under the
 * running policy): min_ttl_ms goes back to the value from before, as
 * revert puts it back, and until then --check counts it as drift. */
static void test_min_ttl_removed(void)
{
	struct fake f;
	struct result r;

	standard(&f);
	fake_remove(&f, LOCAL);		/* only the vendor's MinTTL=1s */
	tune_run(&f, &r, "apply", NULL);
	CHECK_FILE(&f, MIN_TTL, "1000\n");
	CHECK_FILE(&f, MIN_TTL_SAVED, "0 1000\n");
	result_free(&r);

	fake_symlink(&f, "/dev/null", VENDOR_MASK);
	tune_run(&f, &r, "--check", NULL);
	CHECK_INT(r.status, 1);
	CHECK_HAS(r.out, "drift: min_ttl_ms: 1000, want 0 (MinTTL= no longer configured: the value "
			 "from before mglru-fg-tune)\n");
	result_free(&r);
	tune_run(&f, &r, "--dry-run", NULL);
	CHECK_INT(r.status, 0);
	CHECK_HAS(r.out, "min_ttl_ms: 1000 -> 0 (no longer configured)\n");
	CHECK_HAS(r.out, "1 change planned\n");
	CHECK_FILE(&f, MIN_TTL, "1000\n");
	result_free(&r);
	tune_run(&f, &r, "apply", NULL);
	CHECK_INT(r.status, 0);
	CHECK_HAS(r.err, "<6>min_ttl_ms: 1000 -> 0 (no longer configured)\n");
	CHECK_FILE(&f, MIN_TTL, "0\n");
	CHECK(!fake_exists(&f, MIN_TTL_SAVED));
	result_free(&r);
	tune_run(&f, &r, "apply", NULL);
	CHECK_STR(r.err, "<6>nothing to change\n");
	result_free(&r);

	/* the vendor's MinTTL= counts only under fg */
	fake_remove(&f, VENDOR_MASK);
	fake_write(&f, MIN_TTL, "7\n");
	tune_run(&f, &r, "apply", NULL);
	CHECK_FILE(&f, MIN_TTL, "1000\n");
	result_free(&r);
	fake_write(&f, "/sys/kernel/mm/lru_gen/policy", "classic [mglru] fg\n");
	tune_run(&f, &r, "apply", NULL);
	CHECK_INT(r.status, 0);
	CHECK_FILE(&f, MIN_TTL, "7\n");
	result_free(&r);

	/* set by someone else since: theirs stays, the record goes */
	fake_write(&f, "/sys/kernel/mm/lru_gen/policy", "classic mglru [fg]\n");
	tune_run(&f, &r, "apply", NULL);
	CHECK_FILE(&f, MIN_TTL, "1000\n");
	result_free(&r);
	fake_write(&f, MIN_TTL, "5000\n");
	fake_symlink(&f, "/dev/null", VENDOR_MASK);
	tune_run(&f, &r, "--check", NULL);
	CHECK_INT(r.status, 0);
	CHECK_STR(r.out, "no drift\n");
	result_free(&r);
	tune_run(&f, &r, "apply", NULL);
	CHECK_INT(r.status, 0);
	CHECK_HAS(r.err, "<5>min_ttl_ms is 5000, not the 1000 mglru-fg-tune wrote: left as it is\n");
	CHECK_FILE(&f, MIN_TTL, "5000\n");
	CHECK(!fake_exists(&f, MIN_TTL_SAVED));
	result_free(&r);

	/* a later apply wrote the original back (MinTTL=0 after 2s): no
	 * "0 -> 0" to claim, the record just goes */
	fake_write(&f, MIN_TTL, "0\n");
	fake_write(&f, MIN_TTL_SAVED, "0 0\n");
	tune_run(&f, &r, "--check", NULL);
	CHECK_STR(r.out, "no drift\n");
	result_free(&r);
	tune_run(&f, &r, "apply", NULL);
	CHECK_STR(r.err, "<6>nothing to change\n");
	CHECK(!fake_exists(&f, MIN_TTL_SAVED));
	result_free(&r);
	fake_cleanup(&f);
}

/* The same for Policy=: the slice goes back to the policy on record. */
static void test_policy_removed(void)
{
	struct fake f;
	struct result r;

	standard(&f);
	fake_write(&f, LOCAL, "[Slice system.slice]\nPolicy=mglru\n");
	tune_run(&f, &r, "apply", NULL);
	CHECK_FILE(&f, SYS_POLICY, "mglru");
	CHECK_FILE(&f, POLICY_SAVED, "fg mglru\n");
	result_free(&r);
	fake_write(&f, SYS_POLICY, "[mglru] fg\n");	/* as the kernel shows it */

	fake_write(&f, LOCAL, "[Slice system.slice]\nExpectPolicy=fg\n");
	tune_run(&f, &r, "--check", NULL);
	CHECK_INT(r.status, 1);
	CHECK_HAS(r.out, "drift: system.slice memory.lru_gen_policy: mglru, want fg (Policy= no longer "
			 "configured: the policy from before mglru-fg-tune)\n");
	result_free(&r);
	tune_run(&f, &r, "--dry-run", NULL);
	CHECK_HAS(r.out, "system.slice Policy: mglru -> fg (no longer configured)\n");
	CHECK_FILE(&f, SYS_POLICY, "[mglru] fg\n");
	result_free(&r);
	tune_run(&f, &r, "apply", NULL);
	CHECK_INT(r.status, 0);
	CHECK_HAS(r.err, "<6>system.slice Policy: mglru -> fg (no longer configured)\n");
	CHECK_LACKS(r.err, "ExpectPolicy");	/* compared with the restored one */
	CHECK_FILE(&f, SYS_POLICY, "fg");
	CHECK(!fake_exists(&f, POLICY_SAVED));
	result_free(&r);
	fake_write(&f, SYS_POLICY, "mglru [fg]\n");
	tune_run(&f, &r, "--check", NULL);
	CHECK_INT(r.status, 0);
	CHECK_STR(r.out, "no drift\n");
	result_free(&r);

	/* changed by someone else since, or no cgroup now: left, record gone */
	fake_write(&f, POLICY_SAVED, "fg mglru\n");
	fake_write(&f, "/run/mglru-fg/policy-app.slice.saved", "fg mglru\n");
	fake_write(&f, LOCAL, "[Slice system.slice]\nMemoryLow=1M\n");
	tune_run(&f, &r, "apply", NULL);
	CHECK_INT(r.status, 0);
	CHECK_HAS(r.err, "<5>system.slice follows fg, not the mglru mglru-fg-tune wrote: left as it is\n");
	CHECK_HAS(r.err, "<5>app.slice has no cgroup now: no policy to restore\n");
	CHECK_FILE(&f, SYS_POLICY, "mglru [fg]\n");
	CHECK(!fake_exists(&f, POLICY_SAVED));
	CHECK(!fake_exists(&f, "/run/mglru-fg/policy-app.slice.saved"));
	result_free(&r);
	fake_cleanup(&f);
}

void tests_apply(void)
{
	h_run("apply: an exact slice without a cgroup still gets its drop-in",
	      test_inactive_slice_written);
	h_run("apply, --check: a stale drop-in of a configured slice without a cgroup",
	      test_inactive_stale);
	h_run("config errors: every drop-in, min_ttl_ms and a pending reload stay",
	      test_config_error_keeps_all);
	h_run("ENOSPC: no marker, no reload, no change claimed, no empty .d left", test_enospc);
	h_run("slice names: the longest accepted works end to end, one more is refused",
	      test_longest_slice_name);
	h_run("--dry-run: a prefix section's \"now\" is its matching slices'",
	      test_dry_run_prefix_now);
	h_run("Policy=: written, checked, started first, reverted", test_policy);
	h_run("Policy=: --root starts no slice, in the plan as in apply", test_policy_root_unstarted);
	h_run("Policy=: refused for classic, -.slice and user-*.slice, skipped without the file or under classic",
	      test_policy_refused);
	h_run("Policy=: a kernel without memory.lru_gen_policy: no slice started, said once",
	      test_policy_no_memcg_policy);
	h_run("MinTTL=0 is written over a few milliseconds", test_min_ttl_zero);
	h_run("MinTTL= removed: min_ttl_ms restored as revert does, drift until then",
	      test_min_ttl_removed);
	h_run("Policy= removed: the slice's policy restored as revert does, drift until then",
	      test_policy_removed);
}
