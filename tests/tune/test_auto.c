// SPDX-License-Identifier: GPL-2.0-only
/* ProactiveReclaim=auto through the whole program: the step under the
 * pressure target, the back-off over it, the bounds, the floor, the
 * protection, the state in /run, systemd-oomd's limit, status, and the
 * configuration errors. The stall is made exact by writing the state's
 * baseline: a pressure total equal to it is no stall at all, whatever
 * the time a run takes. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "cli.h"
#include "harness.h"
#include "tests.h"

#define STATE "/run/mglru-fg/reclaim-system.slice.state"
#define RECLAIM SYS_CG "/memory.reclaim"
#define PRESSURE SYS_CG "/memory.pressure"
#define SHOW_ARGS "show -p ManagedOOMMemoryPressure -p ManagedOOMMemoryPressureLimit "
/* 0.5% of the fake cgroup's 1 GiB, in whole 4 KiB pages */
#define STEP "5365760"
#define HALF_STEP "2682880"
#define QUARTER_STEP "1339392"

static uint64_t mono_us(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000 + (uint64_t)ts.tv_nsec / 1000;
}

static void pressure(struct fake *f, const char *path, uint64_t some_total)
{
	char buf[256];

	snprintf(buf, sizeof(buf), "some avg10=0.00 avg60=0.00 avg300=0.00 total=%llu\n"
		 "full avg10=0.00 avg60=0.00 avg300=0.00 total=%llu\n",
		 (unsigned long long)some_total, (unsigned long long)some_total / 2);
	fake_write(f, path, buf);
}

/* A state as a round `ago_s` seconds back left it. */
static void put_state(struct fake *f, const char *path, const char *state, uint64_t total,
		      unsigned ago_s, unsigned backoff, uint64_t given)
{
	char buf[512];

	if (mono_us() < ago_s * 1000000ull)
		h_fail(__FILE__, __LINE__, "CLOCK_MONOTONIC is under %u s: too early after boot", ago_s);
	snprintf(buf, sizeof(buf), "state=%s\nsome_total_us=%llu\ntime_us=%llu\nbackoff=%u\n"
		 "given_back=%llu\nlast_step=4096\nstall_ppm=0\n", state,
		 (unsigned long long)total, (unsigned long long)(mono_us() - ago_s * 1000000ull),
		 backoff, (unsigned long long)given);
	fake_write(f, path, buf);
}

static void check_state_has(struct fake *f, const char *path, const char *want, const char *file,
			    int line)
{
	char *s = fake_read(f, path);

	if (!s || !strstr(s, want))
		h_fail(file, line, "%s lacks \"%s\" in:\n%s", path, want, s ? s : "(missing)");
	free(s);
}
#define CHECK_STATE(f, want) check_state_has(f, STATE, want, __FILE__, __LINE__)

/* The fake tree with one auto slice, and nothing from the vendor. */
static void auto_slice(struct fake *f, const char *extra)
{
	char conf[1024];

	standard(f);
	fake_remove(f, VENDOR);
	snprintf(conf, sizeof(conf), "[Slice system.slice]\nProactiveReclaim=auto\n%s", extra);
	fake_write(f, LOCAL, conf);
}

/* One round; memory.reclaim is emptied first, so it shows this round's write. */
static void round_(struct fake *f, struct result *r)
{
	fake_write(f, RECLAIM, "");
	tune_run(f, r, "reclaim", NULL);
}

static void test_step_under_target(void)
{
	struct fake f;
	struct result r;
	char *s;

	auto_slice(&f, "ReclaimSwappiness=60\n");
	pressure(&f, PRESSURE, 5000);
	/* the first round only measures */
	round_(&f, &r);
	CHECK_INT(r.status, 0);
	CHECK_FILE(&f, RECLAIM, "");
	CHECK_HAS(r.err, "<6>system.slice: auto reclaim starting, PressureTarget=0.1%\n");
	CHECK_STATE(&f, "state=starting\n");
	CHECK_STATE(&f, "some_total_us=5000\n");
	CHECK_STATE(&f, "given_back=0\n");
	CHECK_SYSTEMCTL(&f, SHOW_ARGS "system.slice\n");
	result_free(&r);

	/* a minute on, no stall since: a full step, 0.5% of memory.current */
	put_state(&f, STATE, "starting", 5000, 60, 0, 0);
	round_(&f, &r);
	CHECK_INT(r.status, 0);
	CHECK_FILE(&f, RECLAIM, STEP " swappiness=60\n");
	CHECK_HAS(r.err, "<6>system.slice: starting -> reclaiming (stall 0% under target 0.1%)\n");
	CHECK_STATE(&f, "state=reclaiming\n");
	CHECK_STATE(&f, "given_back=" STEP "\n");
	CHECK_STATE(&f, "last_step=" STEP "\n");
	result_free(&r);

	/* not due again within ReclaimInterval= (1min) */
	round_(&f, &r);
	CHECK_INT(r.status, 0);
	CHECK_FILE(&f, RECLAIM, "");
	CHECK_STR(r.err, "");
	result_free(&r);

	/* a stall half the target: about half a step; no new log line
	 * (over ten minutes, so that a slow run barely counts) */
	put_state(&f, STATE, "reclaiming", 5000, 600, 0, 0);
	pressure(&f, PRESSURE, 5000 + 300000);	/* 0.05% of 600 s */
	round_(&f, &r);
	CHECK_INT(r.status, 0);
	s = fake_read(&f, RECLAIM);
	if (!s || strtoull(s, NULL, 10) < 2682880 || strtoull(s, NULL, 10) > 2760000)
		h_fail(__FILE__, __LINE__, "step %s, want about " HALF_STEP, s ? s : "(none)");
	free(s);
	CHECK_LACKS(r.err, "->");
	CHECK_STATE(&f, "state=reclaiming\n");
	result_free(&r);
	fake_cleanup(&f);
}

static void test_back_off(void)
{
	struct fake f;
	struct result r;

	auto_slice(&f, "");
	/* 0.6 s stalled in 60 s: 1%, over the 0.1% target */
	put_state(&f, STATE, "reclaiming", 0, 60, 0, 777);
	pressure(&f, PRESSURE, 600000);
	round_(&f, &r);
	CHECK_INT(r.status, 0);
	CHECK_FILE(&f, RECLAIM, "");
	/* (a hair under 1%: the run takes its time too) */
	CHECK_HAS(r.err, "<6>system.slice: reclaiming -> backing-off (stall 0.99");
	CHECK_HAS(r.err, "%, not under target 0.1%; steps 1/2, then a hold of 20 rounds)\n");
	CHECK_STATE(&f, "state=backing-off\n");
	CHECK_STATE(&f, "backoff=1\n");
	CHECK_STATE(&f, "hold=20\n");
	CHECK_STATE(&f, "given_back=777\n");
	CHECK_STATE(&f, "last_step=0\n");
	result_free(&r);

	/* over again: halved again, said once */
	put_state(&f, STATE, "backing-off", 0, 60, 1, 777);
	round_(&f, &r);
	CHECK_FILE(&f, RECLAIM, "");
	CHECK_LACKS(r.err, "->");
	CHECK_STATE(&f, "backoff=2\n");
	CHECK_STATE(&f, "hold=20\n");
	result_free(&r);

	/* under the target, the hold over (a state without hold=): a quarter
	 * step, the first of the harmless ones that grow the factor back */
	put_state(&f, STATE, "backing-off", 600000, 60, 2, 777);
	round_(&f, &r);
	CHECK_INT(r.status, 0);
	CHECK_FILE(&f, RECLAIM, QUARTER_STEP "\n");
	CHECK_HAS(r.err, "<6>system.slice: backing-off -> reclaiming (stall 0% under target 0.1%)\n");
	CHECK_STATE(&f, "backoff=2\n");
	CHECK_STATE(&f, "calm=1\n");
	CHECK_STATE(&f, "given_back=1340169\n");
	result_free(&r);

	/* PressureTarget= moves the line: 1% is under 2%, by half of it
	 * (over ten minutes, so that the time a run takes does not count) */
	fake_write(&f, LOCAL, "[Slice system.slice]\nProactiveReclaim=auto\nPressureTarget=2%\n");
	put_state(&f, STATE, "reclaiming", 0, 600, 0, 0);
	pressure(&f, PRESSURE, 6000000);
	round_(&f, &r);
	CHECK_INT(r.status, 0);
	CHECK_FILE(&f, RECLAIM, HALF_STEP "\n");	/* (2% - 1%) / 2% of a step */
	result_free(&r);
	fake_cleanup(&f);
}

static void test_min_max(void)
{
	struct fake f;
	struct result r;

	auto_slice(&f, "ReclaimMax=1M\n");
	put_state(&f, STATE, "reclaiming", 0, 60, 0, 0);
	round_(&f, &r);
	CHECK_INT(r.status, 0);
	CHECK_FILE(&f, RECLAIM, "1048576\n");
	result_free(&r);

	/* a minimum above the step, even when backing off */
	fake_write(&f, LOCAL, "[Slice system.slice]\nProactiveReclaim=auto\nReclaimMin=8M\n"
			      "ReclaimMax=1%\n");
	put_state(&f, STATE, "reclaiming", 0, 60, 3, 0);
	round_(&f, &r);
	CHECK_INT(r.status, 0);
	CHECK_FILE(&f, RECLAIM, "8388608\n");
	result_free(&r);

	/* the default maximum, 256M, bounds a big cgroup's step */
	fake_write(&f, LOCAL, "[Slice system.slice]\nProactiveReclaim=auto\n");
	fake_write(&f, SYS_CG "/memory.current", "1099511627776\n");	/* 1 TiB */
	put_state(&f, STATE, "reclaiming", 0, 60, 0, 0);
	round_(&f, &r);
	CHECK_FILE(&f, RECLAIM, "268435456\n");
	result_free(&r);
	fake_cleanup(&f);
}

static void test_floor(void)
{
	struct fake f;
	struct result r;

	/* 4 MiB above the floor: the step stops there */
	auto_slice(&f, "ReclaimFloor=1020M\n");
	put_state(&f, STATE, "reclaiming", 0, 60, 0, 0);
	round_(&f, &r);
	CHECK_INT(r.status, 0);
	CHECK_FILE(&f, RECLAIM, "4194304\n");
	result_free(&r);

	/* at the floor: nothing */
	fake_write(&f, LOCAL, "[Slice system.slice]\nProactiveReclaim=auto\nReclaimFloor=1G\n");
	put_state(&f, STATE, "reclaiming", 0, 60, 0, 0);
	round_(&f, &r);
	CHECK_INT(r.status, 0);
	CHECK_FILE(&f, RECLAIM, "");
	CHECK_HAS(r.err, "<6>system.slice: reclaiming -> at-floor (memory.current 1073741824 is not "
			 "above ReclaimFloor= 1073741824)\n");
	CHECK_STATE(&f, "state=at-floor\n");
	result_free(&r);
	fake_cleanup(&f);
}

static void test_protection(void)
{
	struct fake f;
	struct result r;

	auto_slice(&f, "");
	fake_write(&f, SYS_CG "/memory.low", "2147483648\n");
	put_state(&f, STATE, "reclaiming", 0, 60, 0, 0);
	round_(&f, &r);
	CHECK_INT(r.status, 0);
	CHECK_FILE(&f, RECLAIM, "");
	CHECK_HAS(r.err, "<6>system.slice: reclaiming -> protected (memory.current 1073741824 is not "
			 "above memory.min/memory.low 2147483648)\n");
	CHECK_STATE(&f, "state=protected\n");
	result_free(&r);

	/* memory.min of max protects everything */
	fake_write(&f, SYS_CG "/memory.low", "0\n");
	fake_write(&f, SYS_CG "/memory.min", "max\n");
	put_state(&f, STATE, "protected", 0, 60, 0, 0);
	round_(&f, &r);
	CHECK_FILE(&f, RECLAIM, "");
	CHECK_LACKS(r.err, "->");
	result_free(&r);

	/* protection below memory.current: the step stops at it */
	fake_write(&f, SYS_CG "/memory.min", "0\n");
	fake_write(&f, SYS_CG "/memory.low", "1072693248\n");	/* 1 MiB under */
	put_state(&f, STATE, "protected", 0, 60, 0, 0);
	round_(&f, &r);
	CHECK_FILE(&f, RECLAIM, "1048576\n");
	CHECK_HAS(r.err, "<6>system.slice: protected -> reclaiming");
	result_free(&r);

	/* at or above memory.high the kernel reclaims itself */
	fake_write(&f, SYS_CG "/memory.low", "0\n");
	fake_write(&f, SYS_CG "/memory.high", "1073741824\n");
	put_state(&f, STATE, "reclaiming", 0, 60, 0, 0);
	round_(&f, &r);
	CHECK_FILE(&f, RECLAIM, "");
	CHECK_HAS(r.err, "<6>system.slice: reclaiming -> at-high (memory.current 1073741824 is not "
			 "below memory.high 1073741824");
	result_free(&r);
	fake_cleanup(&f);
}

static void test_missing_slice(void)
{
	struct fake f;
	struct result r;

	standard(&f);
	fake_remove(&f, VENDOR);
	fake_write(&f, LOCAL, "[Slice nope.slice]\nProactiveReclaim=auto\n");
	tune_run(&f, &r, "reclaim", NULL);
	CHECK_INT(r.status, 0);
	CHECK_HAS(r.err, "<5>nope.slice: no cgroup at /sys/fs/cgroup/nope.slice, skipped\n");
	CHECK_SYSTEMCTL(&f, "");
	result_free(&r);
	/* said once */
	tune_run(&f, &r, "reclaim", NULL);
	CHECK_INT(r.status, 0);
	CHECK_LACKS(r.err, "nope.slice");
	result_free(&r);
	/* once it exists, it starts afresh: the old totals were another cgroup's */
	fake_cgroup(&f, "/sys/fs/cgroup/nope.slice");
	tune_run(&f, &r, "reclaim", NULL);
	CHECK_INT(r.status, 0);
	CHECK_FILE(&f, "/sys/fs/cgroup/nope.slice/memory.reclaim", "");
	CHECK_HAS(r.err, "<6>nope.slice: auto reclaim starting, PressureTarget=0.1%\n");
	check_state_has(&f, "/run/mglru-fg/reclaim-nope.slice.state", "state=starting\n", __FILE__,
			__LINE__);
	result_free(&r);

	/* prefix sections: every matching slice, each with its own state */
	fake_cgroup(&f, "/sys/fs/cgroup/user.slice/user-1000.slice");
	fake_cgroup(&f, "/sys/fs/cgroup/user.slice/user-1001.slice");
	fake_write(&f, LOCAL, "[Slice user-.slice]\nProactiveReclaim=auto\n");
	put_state(&f, "/run/mglru-fg/reclaim-user-1000.slice.state", "reclaiming", 0, 60, 0, 0);
	tune_run(&f, &r, "reclaim", NULL);
	CHECK_INT(r.status, 0);
	CHECK_FILE(&f, "/sys/fs/cgroup/user.slice/user-1000.slice/memory.reclaim", STEP "\n");
	CHECK_FILE(&f, "/sys/fs/cgroup/user.slice/user-1001.slice/memory.reclaim", "");
	check_state_has(&f, "/run/mglru-fg/reclaim-user-1001.slice.state", "state=starting\n",
			__FILE__, __LINE__);
	result_free(&r);
	fake_cleanup(&f);
}

static void test_restart_resumes(void)
{
	struct fake f;
	struct result r;

	/* what an earlier run left: back-off 1/4, 1000 bytes given back */
	auto_slice(&f, "");
	put_state(&f, STATE, "reclaiming", 7000, 60, 2, 1000);
	pressure(&f, PRESSURE, 7000);
	round_(&f, &r);
	CHECK_INT(r.status, 0);
	CHECK_FILE(&f, RECLAIM, QUARTER_STEP "\n");
	CHECK_LACKS(r.err, "->");
	CHECK_LACKS(r.err, "starting");
	CHECK_STATE(&f, "given_back=1340392\n");
	CHECK_STATE(&f, "backoff=2\n");
	CHECK_STATE(&f, "calm=1\n");
	CHECK_STATE(&f, "some_total_us=7000\n");
	result_free(&r);

	/* a pressure total below the state's: a new cgroup, start afresh */
	put_state(&f, STATE, "reclaiming", 9000, 60, 0, 1000);
	round_(&f, &r);
	CHECK_INT(r.status, 0);
	CHECK_FILE(&f, RECLAIM, "");
	CHECK_HAS(r.err, "<6>system.slice: auto reclaim starting, PressureTarget=0.1%\n");
	CHECK_STATE(&f, "state=starting\n");
	CHECK_STATE(&f, "given_back=0\n");
	result_free(&r);
	fake_cleanup(&f);
}

static void test_corrupt_state(void)
{
	static const char *const bad[][2] = {
		{ "garbage\n", "line 1 is not KEY=VALUE" },
		{ "state=reclaiming\nsome_total_us=1\ntime_us=1\nbackoff=0\ngiven_back=0\nlast_step=0\n",
		  "no stall_ppm=" },
		{ "state=dancing\nsome_total_us=1\ntime_us=1\nbackoff=0\ngiven_back=0\nlast_step=0\n"
		  "stall_ppm=0\n", "unknown state 'dancing'" },
		{ "state=reclaiming\nsome_total_us=1\ntime_us=1\nbackoff=99\ngiven_back=0\nlast_step=0\n"
		  "stall_ppm=0\n", "backoff=99 out of range" },
		{ "state=reclaiming\nsome_total_us=-1\ntime_us=1\nbackoff=0\ngiven_back=0\nlast_step=0\n"
		  "stall_ppm=0\n", "some_total_us= is not a number" },
		{ "state=reclaiming\nstate=reclaiming\n", "state= twice" },
		{ "", "no state=" },
	};
	struct fake f;
	struct result r;

	auto_slice(&f, "");
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		char want[256];

		fake_write(&f, STATE, bad[i][0]);
		round_(&f, &r);
		snprintf(want, sizeof(want), "<4>system.slice: " STATE " is corrupt (%s), starting afresh\n",
			 bad[i][1]);
		if (r.status != 0)
			h_fail(__FILE__, __LINE__, "case %zu: status %d", i, r.status);
		CHECK_HAS(r.err, want);
		CHECK_FILE(&f, RECLAIM, "");
		CHECK_STATE(&f, "state=starting\n");
		result_free(&r);
	}
	/* unreadable: a directory where the file goes */
	fake_remove(&f, STATE);
	fake_mkdir(&f, STATE);
	round_(&f, &r);
	CHECK_HAS(r.err, "<4>system.slice: cannot read " STATE ": Is a directory, starting afresh\n");
	CHECK_FILE(&f, RECLAIM, "");
	result_free(&r);
	fake_cleanup(&f);
}

/* Each is a configuration error with file:line: exit 2, and neither
 * apply nor reclaim changes anything. */
static void test_bad_values(void)
{
	static const char *const cases[][2] = {
		{ "ProactiveReclaim=auto\nPressureTarget=0%\n", LOCAL ":3: PressureTarget=0%: must be above 0%" },
		{ "ProactiveReclaim=auto\nPressureTarget=100%\n", LOCAL ":3: PressureTarget=100%: must be below 100%" },
		{ "ProactiveReclaim=auto\nPressureTarget=0.1\n", LOCAL ":3: PressureTarget=0.1: expected a percentage like 0.1%" },
		{ "ProactiveReclaim=auto\nPressureTarget=0.00001%\n", LOCAL ":3: PressureTarget=0.00001%: too many decimals" },
		{ "ProactiveReclaim=auto\nPressureTarget=101%\n", LOCAL ":3: PressureTarget=101%: percentage above 100%" },
		{ "ProactiveReclaim=autom\n", LOCAL ":2: ProactiveReclaim=autom: expected a number" },
		{ "ProactiveReclaim=auto\nReclaimMin=infinity\n", LOCAL ":3: ReclaimMin=infinity: a step bound cannot be infinity" },
		{ "ProactiveReclaim=auto\nReclaimFloor=infinity\n", LOCAL ":3: ReclaimFloor=infinity: a floor of infinity never reclaims" },
		{ "ProactiveReclaim=auto\nReclaimMax=0\n", LOCAL ":3: ReclaimMax=0: a step of at most 0 reclaims nothing" },
		{ "ProactiveReclaim=auto\nReclaimMax=0%\n", LOCAL ":3: ReclaimMax=0%: a step of at most 0 reclaims nothing" },
		{ "ProactiveReclaim=auto\nReclaimMin=lots\n", LOCAL ":3: ReclaimMin=lots: expected a number" },
		{ "ProactiveReclaim=auto\nReclaimFloor=1Q\n", LOCAL ":3: ReclaimFloor=1Q: unknown size suffix" },
		{ "ProactiveReclaim=auto\nReclaimMin=8M\nReclaimMax=1M\n",
		  LOCAL ":3: ReclaimMin= (8388608 bytes) is above ReclaimMax= (1048576 bytes, " LOCAL ":4)" },
		/* a percentage of MemTotal (16 GiB) against bytes */
		{ "ProactiveReclaim=auto\nReclaimMax=1G\nReclaimMin=10%\n",
		  LOCAL ":4: ReclaimMin= (1717986918 bytes) is above ReclaimMax= (1073741824 bytes, " LOCAL ":3)" },
		{ "ProactiveReclaim=64M\nPressureTarget=1%\n",
		  LOCAL ":3: PressureTarget= counts only with ProactiveReclaim=auto; system.slice has "
		  "ProactiveReclaim=67108864 (" LOCAL ":2)" },
		{ "MemoryLow=1M\nReclaimMin=1M\n",
		  LOCAL ":3: ReclaimMin= counts only with ProactiveReclaim=auto; system.slice has no ProactiveReclaim=" },
		{ "ProactiveReclaim=1%\nReclaimMax=1M\n", LOCAL ":3: ReclaimMax= counts only with ProactiveReclaim=auto" },
		{ "ProactiveReclaim=0\nReclaimFloor=1M\n", LOCAL ":3: ReclaimFloor= counts only with ProactiveReclaim=auto" },
		/* systemd-oomd's limit, as this configuration sets it */
		{ "ProactiveReclaim=auto\nPressureTarget=50%\nManagedOOMMemoryPressure=kill\n"
		  "ManagedOOMMemoryPressureLimit=40%\n",
		  LOCAL ":3: PressureTarget=50% is at or over systemd-oomd's limit for system.slice, "
		  "ManagedOOMMemoryPressureLimit=40% (" LOCAL ":5)" },
		{ "ProactiveReclaim=auto\nManagedOOMMemoryPressure=kill\nManagedOOMMemoryPressureLimit=0.10%\n",
		  LOCAL ":2: PressureTarget=0.1% (the default) is at or over systemd-oomd's limit for "
		  "system.slice, ManagedOOMMemoryPressureLimit=0.10% (" LOCAL ":4)" },
		{ "ProactiveReclaim=auto\nPressureTarget=60%\nManagedOOMMemoryPressure=kill\n",
		  LOCAL ":3: PressureTarget=60% is at or over systemd-oomd's limit for system.slice, "
		  "its default of 60%" },
	};
	struct fake f;
	struct result r;

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		char conf[1024], want[512];

		standard(&f);
		fake_remove(&f, VENDOR);
		snprintf(conf, sizeof(conf), "[Slice system.slice]\n%s", cases[i][0]);
		fake_write(&f, LOCAL, conf);
		snprintf(want, sizeof(want), "<3>%s", cases[i][1]);
		put_state(&f, STATE, "reclaiming", 0, 60, 0, 0);
		tune_run(&f, &r, "apply", NULL);
		if (r.status != 2)
			h_fail(__FILE__, __LINE__, "case %zu: apply: status %d", i, r.status);
		CHECK_HAS(r.err, want);
		CHECK_FILE(&f, SYS_DROPIN, NULL);
		result_free(&r);
		tune_run(&f, &r, "reclaim", NULL);
		if (r.status != 2)
			h_fail(__FILE__, __LINE__, "case %zu: reclaim: status %d", i, r.status);
		CHECK_HAS(r.err, want);
		CHECK_FILE(&f, RECLAIM, "");
		CHECK_STATE(&f, "state=reclaiming\n");
		CHECK_STATE(&f, "last_step=4096\n");
		result_free(&r);
		fake_cleanup(&f);
	}

	/* across files and sections: reported once, at the line that conflicts */
	standard(&f);
	fake_write(&f, VENDOR, "[Slice user-.slice]\nProactiveReclaim=auto\nPressureTarget=1%\n");
	fake_write(&f, LOCAL, "[Slice user-1000.slice]\nProactiveReclaim=4K\n"
			      "[Slice user-1001.slice]\nReclaimMax=1M\n");
	tune_run(&f, &r, "apply", NULL);
	CHECK_INT(r.status, 2);
	CHECK_HAS(r.err, "<3>" VENDOR ":3: PressureTarget= counts only with ProactiveReclaim=auto; "
			 "user-1000.slice has ProactiveReclaim=4096 (" LOCAL ":2)\n");
	CHECK_LACKS(r.err, "user-1001.slice has");
	CHECK_HAS(r.err, "<3>the configuration has errors in 1 file:");
	result_free(&r);
	fake_cleanup(&f);

	/* -.slice has no memory.current nor protection: refused when parsed */
	standard(&f);
	fake_write(&f, LOCAL, "[Slice -.slice]\nProactiveReclaim=auto\n");
	tune_run(&f, &r, "reclaim", NULL);
	CHECK_INT(r.status, 2);
	CHECK_HAS(r.err, "<3>" LOCAL ":2: ProactiveReclaim=auto: not on -.slice, which has no "
			 "memory.current, memory.min or memory.low to go by\n");
	result_free(&r);
	fake_cleanup(&f);
}

/* The unit's own limit, wherever systemd has it from. */
static void test_oomd_limit(void)
{
	static const char *const refused[][2] = {
		/* systemd 252 shows the limit scaled to 2^32 - 1 = 100% */
		{ "ManagedOOMMemoryPressure=kill\nManagedOOMMemoryPressureLimit=4294967\n", "0.10%" },
		{ "ManagedOOMMemoryPressure=kill\nManagedOOMMemoryPressureLimit=0.05%\n", "0.05%" },
	};
	struct fake f;
	struct result r;

	for (size_t i = 0; i < 2; i++) {
		char want[512];

		auto_slice(&f, "");
		fake_systemctl_show(&f, 0, refused[i][0]);
		put_state(&f, STATE, "reclaiming", 0, 60, 0, 0);
		round_(&f, &r);
		CHECK_INT(r.status, 2);
		snprintf(want, sizeof(want), "<3>system.slice: PressureTarget=0.1%% (" LOCAL ":2, the default) "
			 "is at or over systemd-oomd's limit for it, ManagedOOMMemoryPressureLimit=%s "
			 "(systemctl show): not reclaiming; keep the target well under it\n", refused[i][1]);
		CHECK_HAS(r.err, want);
		CHECK_FILE(&f, RECLAIM, "");
		CHECK_STATE(&f, "last_step=4096\n");
		CHECK_SYSTEMCTL(&f, SHOW_ARGS "system.slice\n");
		result_free(&r);
		fake_cleanup(&f);
	}

	/* kill with the default limit (0 = oomd.conf's), or auto: fine */
	auto_slice(&f, "PressureTarget=0.5%\n");
	fake_systemctl_show(&f, 0, "ManagedOOMMemoryPressure=kill\nManagedOOMMemoryPressureLimit=0\n");
	put_state(&f, STATE, "reclaiming", 0, 60, 0, 0);
	round_(&f, &r);
	CHECK_INT(r.status, 0);
	CHECK_FILE(&f, RECLAIM, STEP "\n");
	result_free(&r);
	fake_systemctl_show(&f, 0, "ManagedOOMMemoryPressure=auto\nManagedOOMMemoryPressureLimit=4294967\n");
	put_state(&f, STATE, "reclaiming", 0, 60, 0, 0);
	round_(&f, &r);
	CHECK_INT(r.status, 0);
	CHECK_FILE(&f, RECLAIM, STEP "\n");
	result_free(&r);
	/* systemctl fails: said, and the configuration's own check stands */
	fake_systemctl_show(&f, 1, "");
	put_state(&f, STATE, "reclaiming", 0, 60, 0, 0);
	round_(&f, &r);
	CHECK_INT(r.status, 0);
	CHECK_HAS(r.err, "<4>system.slice: cannot ask systemd for its systemd-oomd settings");
	CHECK_FILE(&f, RECLAIM, STEP "\n");
	result_free(&r);
	fake_cleanup(&f);
}

static void test_status_dry_run_revert(void)
{
	struct fake f;
	struct result r;

	auto_slice(&f, "PressureTarget=0.25%\nReclaimInterval=0\n");
	tune_run(&f, &r, "status", NULL);
	CHECK_INT(r.status, 0);
	CHECK_HAS(r.out, "  ProactiveReclaim         auto, PressureTarget 0.25% every 0ms\n"
			 "  reclaim state            - (no round yet)\n");
	result_free(&r);

	/* --dry-run: the step, and nothing written */
	put_state(&f, STATE, "backing-off", 0, 60, 1, 12345);
	tune_run(&f, &r, "--dry-run", "reclaim", NULL);
	CHECK_INT(r.status, 0);
	CHECK_STR(r.out, RECLAIM ": " HALF_STEP " (" LOCAL ":2; stall 0% under target 0.25%)\n");
	CHECK_FILE(&f, RECLAIM, "");
	CHECK_STATE(&f, "state=backing-off\n");
	result_free(&r);

	/* a round of a hold: no step, and how many rounds are left after it */
	{
		char st[256];

		snprintf(st, sizeof(st), "state=backing-off\nsome_total_us=0\ntime_us=%llu\nbackoff=1\n"
			 "given_back=12345\nlast_step=0\nstall_ppm=0\nhold=3\ncalm=0\n",
			 (unsigned long long)(mono_us() - 60000000ull));
		fake_write(&f, STATE, st);
	}
	tune_run(&f, &r, "--dry-run", "reclaim", NULL);
	CHECK_INT(r.status, 0);
	CHECK_HAS(r.out, "held after a stall; 2 more rounds to hold)\n");
	CHECK_FILE(&f, RECLAIM, "");
	result_free(&r);
	put_state(&f, STATE, "backing-off", 0, 60, 1, 12345);

	round_(&f, &r);
	CHECK_INT(r.status, 0);
	result_free(&r);
	pressure(&f, PRESSURE, 3000000);
	round_(&f, &r);		/* 3 s stalled since: over, and its stall stays in the state */
	CHECK_INT(r.status, 0);
	result_free(&r);
	tune_run(&f, &r, "status", NULL);
	CHECK_INT(r.status, 0);
	CHECK_HAS(r.out, "  ProactiveReclaim         auto, PressureTarget 0.25% every 0ms\n"
			 "  reclaim state            backing-off\n"
			 "  stall last round         ");
	CHECK_HAS(r.out, "\n  last step                0\n"
			 "  given back               2695225\n"
			 "  back-off                 1/4, 256 rounds to hold\n");
	result_free(&r);

	tune_run(&f, &r, "revert", NULL);
	CHECK_INT(r.status, 0);
	CHECK_HAS(r.err, "<6>removed " STATE "\n");
	CHECK(!fake_exists(&f, STATE));
	result_free(&r);
	fake_cleanup(&f);
}

/* Without PSI the loop cannot see anything: an error, not a guess. */
static void test_no_pressure_file(void)
{
	struct fake f;
	struct result r;

	auto_slice(&f, "");
	fake_remove(&f, PRESSURE);
	put_state(&f, STATE, "reclaiming", 0, 60, 0, 0);
	round_(&f, &r);
	CHECK_INT(r.status, 1);
	CHECK_HAS(r.err, "<3>cannot read " PRESSURE ": No such file or directory (ProactiveReclaim=auto "
			 "needs the kernel's pressure stall information, CONFIG_PSI)\n");
	CHECK_FILE(&f, RECLAIM, "");
	CHECK_STATE(&f, "last_step=4096\n");
	result_free(&r);
	fake_write(&f, PRESSURE, "full avg10=0.00 avg60=0.00 avg300=0.00 total=5\n");
	round_(&f, &r);
	CHECK_INT(r.status, 1);
	CHECK_HAS(r.err, "<3>cannot parse " PRESSURE ": no \"some ... total=\" line\n");
	result_free(&r);
	fake_cleanup(&f);
}

void tests_auto(void)
{
	h_run("auto: under the target, a step of 0.5% of memory.current, proportional to the margin",
	      test_step_under_target);
	h_run("auto: over the target, no step and a halved next one; under, it grows back",
	      test_back_off);
	h_run("auto: ReclaimMin= and ReclaimMax= bound each step", test_min_max);
	h_run("auto: never below ReclaimFloor=", test_floor);
	h_run("auto: memory.min, memory.low and memory.high: protected, capped, the kernel's",
	      test_protection);
	h_run("auto: a slice without a cgroup is skipped, said once; prefix slices", test_missing_slice);
	h_run("auto: a restart resumes from the state in /run", test_restart_resumes);
	h_run("auto: a corrupt or unreadable state starts afresh, with a warning", test_corrupt_state);
	h_run("auto: every bad value is a configuration error with file:line, nothing changes",
	      test_bad_values);
	h_run("auto: a PressureTarget= at or over the unit's systemd-oomd limit is refused",
	      test_oomd_limit);
	h_run("auto: status, --dry-run, revert", test_status_dry_run_revert);
	h_run("auto: no memory.pressure is a runtime error", test_no_pressure_file);
}
