// SPDX-License-Identifier: GPL-2.0-only
/* revert, and the package scripts that run it on removal. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"
#include "harness.h"
#include "tests.h"

#define STAMP "/run/mglru-fg/reclaim-system.slice.stamp"
#define SAVED "/run/mglru-fg/min_ttl_ms.saved"
#define ADMIN "/run/systemd/system/system.slice.d/10-admin.conf"
#define RUN_CONF "/run/mglru-fg/tune.d/20-run.conf"

/* standard(), applied, with a reclaim round and the admin's own files
 * beside ours. */
static void applied(struct fake *f)
{
	struct result r;

	standard(f);
	fake_write(f, LOCAL, "[Slice system.slice]\nMemoryHigh=1000000\nMemoryMax=50%\n"
			     "ManagedOOMMemoryPressure=kill\nManagedOOMMemoryPressureLimit=60%\n"
			     "ProactiveReclaim=4K\n");
	fake_write(f, ADMIN, "[Slice]\nCPUWeight=5\n");
	fake_write(f, RUN_CONF, "# the admin's\n");
	tune_run(f, &r, "apply", NULL);
	CHECK_INT(r.status, 0);
	result_free(&r);
	tune_run(f, &r, "reclaim", NULL);
	CHECK_INT(r.status, 0);
	result_free(&r);
	CHECK_FILE(f, SYS_DROPIN, standard_dropin);
	CHECK_FILE(f, MIN_TTL, "1000\n");
	CHECK(fake_exists(f, STAMP));
}

static void test_revert(void)
{
	struct fake f;
	struct result r;

	applied(&f);
	tune_run(&f, &r, "--dry-run", "revert", NULL);
	CHECK_INT(r.status, 0);
	CHECK_STR(r.out, "min_ttl_ms: 1000 -> 0 (as before mglru-fg-tune)\n"
			 "remove " SYS_DROPIN "\n"
			 "remove " STAMP "\n"
			 "run systemctl daemon-reload\n"
			 "3 changes planned\n");
	CHECK_FILE(&f, MIN_TTL, "1000\n");
	CHECK_FILE(&f, SYS_DROPIN, standard_dropin);
	result_free(&r);

	tune_run(&f, &r, "revert", NULL);
	CHECK_INT(r.status, 0);
	CHECK_HAS(r.err, "<6>min_ttl_ms: 1000 -> 0 (as before mglru-fg-tune)\n");
	CHECK_HAS(r.err, "<6>removed " SYS_DROPIN "\n");
	CHECK_HAS(r.err, "<6>3 changes reverted\n");
	CHECK_FILE(&f, MIN_TTL, "0\n");
	CHECK_FILE(&f, SYS_DROPIN, NULL);
	CHECK_FILE(&f, ADMIN, "[Slice]\nCPUWeight=5\n");
	CHECK_FILE(&f, RUN_CONF, "# the admin's\n");
	CHECK(!fake_exists(&f, STAMP));
	CHECK(!fake_exists(&f, SAVED));
	CHECK(!fake_exists(&f, MARKER));
	CHECK_SYSTEMCTL(&f, "daemon-reload\ndaemon-reload\n");
	result_free(&r);

	/* twice is harmless */
	tune_run(&f, &r, "revert", NULL);
	CHECK_INT(r.status, 0);
	CHECK_STR(r.err, "<6>nothing to revert\n");
	CHECK_SYSTEMCTL(&f, "daemon-reload\ndaemon-reload\n");
	result_free(&r);
	fake_cleanup(&f);
}

/* Removal must work whatever state the system is in by then. */
static void test_revert_anyway(void)
{
	struct fake f;
	struct result r;

	/* a broken configuration, no cgroup2, no policy file, --no-reload */
	applied(&f);
	fake_write(&f, "/etc/mglru-fg/tune.d/95-bad.conf", "[Global]\nMinTTL=never\n");
	fake_remove(&f, "/sys/fs/cgroup/cgroup.controllers");
	fake_remove(&f, "/sys/kernel/mm/lru_gen/policy");
	tune_run(&f, &r, "--no-reload", "revert", NULL);
	CHECK_INT(r.status, 0);
	CHECK_FILE(&f, SYS_DROPIN, NULL);
	CHECK_FILE(&f, MIN_TTL, "0\n");
	CHECK(fake_exists(&f, MARKER));	/* the reload is still owed */
	CHECK_SYSTEMCTL(&f, "daemon-reload\n");
	result_free(&r);
	fake_cleanup(&f);

	/* someone set min_ttl_ms since: theirs stays */
	applied(&f);
	fake_write(&f, MIN_TTL, "5000\n");
	tune_run(&f, &r, "revert", NULL);
	CHECK_INT(r.status, 0);
	CHECK_HAS(r.err, "<5>min_ttl_ms is 5000, not the 1000 mglru-fg-tune wrote: left as it is\n");
	CHECK_FILE(&f, MIN_TTL, "5000\n");
	CHECK(!fake_exists(&f, SAVED));
	result_free(&r);
	fake_cleanup(&f);

	/* the first value is the one restored, however often apply ran */
	applied(&f);
	fake_write(&f, LOCAL, "[Global]\nMinTTL=3s\n");
	tune_run(&f, &r, "apply", NULL);
	CHECK_FILE(&f, MIN_TTL, "3000\n");
	result_free(&r);
	fake_write(&f, MIN_TTL, "3004\n");	/* jiffy rounding */
	tune_run(&f, &r, "revert", NULL);
	CHECK_INT(r.status, 0);
	CHECK_FILE(&f, MIN_TTL, "0\n");
	result_free(&r);
	fake_cleanup(&f);

	/* a few milliseconds are not 0: 0 turns the protection off, 1 ms (a
	 * jiffy, 4 ms read back at HZ=250) on; found by the fuzzer */
	applied(&f);
	fake_write(&f, LOCAL, "[Global]\nMinTTL=0.001s\n");
	tune_run(&f, &r, "apply", NULL);
	CHECK_FILE(&f, MIN_TTL, "1\n");
	result_free(&r);
	fake_write(&f, MIN_TTL, "4\n");
	tune_run(&f, &r, "revert", NULL);
	CHECK_INT(r.status, 0);
	CHECK_HAS(r.err, "<6>min_ttl_ms: 4 -> 0 (as before mglru-fg-tune)\n");
	CHECK_FILE(&f, MIN_TTL, "0\n");
	result_free(&r);
	fake_cleanup(&f);

	/* a removal that fails is an error, and nothing is claimed */
	applied(&f);
	fake_remove(&f, ADMIN);
	fake_remove(&f, SYS_DROPIN);
	fake_mkdir(&f, SYS_DROPIN "/x");
	tune_run(&f, &r, "revert", NULL);
	CHECK_INT(r.status, 1);
	CHECK_HAS(r.err, "<3>cannot remove " SYS_DROPIN ": Is a directory\n");
	result_free(&r);
	tune_run(&f, &r, "--check", "revert", NULL);
	CHECK_INT(r.status, 2);
	CHECK_HAS(r.err, "<3>--check compares the configuration with the system; it does not go with 'revert'\n");
	result_free(&r);
	fake_cleanup(&f);
}

/* Runs tests/tune/pkg-scriptlet; out gets "exit N" and the calls. */
static int scriptlet(struct result *r, const char *kind, const char *name, const char *arg)
{
	const char *top = getenv("TUNE_TOP");
	char prog[4096];

	snprintf(prog, sizeof(prog), "%s/tests/tune/pkg-scriptlet", top ? top : ".");
	prog_run(r, "/bin/sh", prog, top ? top : ".", kind, name, arg, NULL);
	return r->status;
}

/* prerm remove undoes apply, after dh_installsystemd's stop; an upgrade
 * keeps everything (postinst restarts the unit), and a failing revert
 * does not block the removal. */
static void test_deb_prerm(void)
{
	struct result r;
	const char *revert = access("/run/systemd/system", F_OK) == 0
				     ? "mglru-fg-tune revert\n" : "mglru-fg-tune --no-reload revert\n";

	scriptlet(&r, "deb", "prerm", "remove");
	CHECK_INT(r.status, 0);
	CHECK_HAS(r.out, "exit 0\n");
	CHECK_HAS(r.out, revert);
	result_free(&r);
	scriptlet(&r, "deb", "prerm", "upgrade");
	CHECK_STR(r.out, "exit 0\n");
	result_free(&r);
	setenv("STUB_STATUS", "1", 1);
	scriptlet(&r, "deb", "prerm", "remove");
	CHECK_HAS(r.out, "exit 0\n");
	CHECK_HAS(r.out, revert);
	unsetenv("STUB_STATUS");
	result_free(&r);
}

/* %preun: revert on erase ($1 = 0) only; %postun: restart on upgrade,
 * as dh_installsystemd does on Debian. This is the spec's fallback for
 * an rpm without systemd-rpm-macros, the one Debian's rpm builds. */
static void test_rpm_scriptlets(void)
{
	const char *revert = access("/run/systemd/system", F_OK) == 0
				     ? "mglru-fg-tune revert\n" : "mglru-fg-tune --no-reload revert\n";
	struct result r;

	if (scriptlet(&r, "rpm", "preun", "0") == 3) {
		printf("# skip: no rpmspec\n");
		result_free(&r);
		return;
	}
	CHECK_HAS(r.out, "exit 0\n");
	CHECK_HAS(r.out, "systemctl --no-reload disable --now mglru-fg-tune.service");
	CHECK_HAS(r.out, revert);
	result_free(&r);
	scriptlet(&r, "rpm", "preun", "1");
	CHECK_STR(r.out, "exit 0\n");
	result_free(&r);
	scriptlet(&r, "rpm", "postun", "1");
	CHECK_HAS(r.out, "exit 0\n");
	CHECK_HAS(r.out, "systemctl try-restart mglru-fg-tune.service mglru-fg-reclaim.timer\n");
	result_free(&r);
	scriptlet(&r, "rpm", "postun", "0");
	CHECK_HAS(r.out, "exit 0\n");
	CHECK_LACKS(r.out, "restart");
	CHECK_LACKS(r.out, "mglru-fg-tune ");
	result_free(&r);
}

void tests_revert(void)
{
	h_run("revert: removes our drop-ins and stamps, restores min_ttl_ms, reloads", test_revert);
	h_run("revert: broken config, no cgroup2, changed min_ttl_ms, failures", test_revert_anyway);
	h_run("deb prerm: revert on remove, not on upgrade, never blocking", test_deb_prerm);
	h_run("rpm %preun/%postun: revert on erase, restart on upgrade", test_rpm_scriptlets);
}
