// SPDX-License-Identifier: GPL-2.0-only
/* The loop of ProactiveReclaim=auto on its own (loop.c): the arithmetic
 * of a round, exactly, and the state file's and memory.pressure's
 * syntax. test_auto.c runs it through the program. */
#include <stdio.h>
#include <string.h>

#include "harness.h"
#include "loop.h"
#include "tests.h"
#include "values.h"

#define GIB (1ull << 30)

static const struct loop_params defaults = {
	.target_ppm = LOOP_TARGET_PPM, .min = 0, .max = LOOP_MAX_BYTES, .floor = 0, .page_size = 4096,
};

/* A state from a round 60 s before `in`, with `stalled` us of stall since. */
static void prev(struct loop_state *s, const struct loop_input *in, uint64_t stalled, unsigned backoff)
{
	memset(s, 0, sizeof(*s));
	s->phase = PHASE_RECLAIMING;
	s->some_total_us = in->some_total_us - stalled;
	s->time_us = in->now_us - 60000000;
	s->backoff = backoff;
}

static struct loop_input input(uint64_t current)
{
	struct loop_input in = {
		.now_us = 1000000000, .some_total_us = 500000000, .current = current,
		.protection = 0, .high = UINT64_MAX,
	};
	return in;
}

static void test_step(void)
{
	struct loop_input in = input(GIB);
	struct loop_params p = defaults;
	struct loop_state s;

	/* no stall: 0.5% of memory.current, whole pages */
	prev(&s, &in, 0, 0);
	CHECK_U64(loop_round(&p, &s, &in), 5365760);
	CHECK_INT(s.phase, PHASE_RECLAIMING);
	CHECK_U64(s.stall_ppm, 0);
	CHECK_U64(s.last_step, 5365760);
	CHECK_U64(s.some_total_us, in.some_total_us);
	CHECK_U64(s.time_us, in.now_us);
	/* proportional to the margin: stall 0.025% of 0.1% leaves 3/4 */
	prev(&s, &in, 15000, 0);
	CHECK_U64(loop_round(&p, &s, &in), 4026368);	/* 5368709 * 3 / 4, in pages */
	CHECK_U64(s.stall_ppm, 250);
	/* 0.09%: a tenth */
	prev(&s, &in, 54000, 0);
	CHECK_U64(loop_round(&p, &s, &in), 536576);
	/* the step is of memory.current, not of anything fixed */
	in = input(4 * GIB);
	prev(&s, &in, 0, 0);
	CHECK_U64(loop_round(&p, &s, &in), 21474836 / 4096 * 4096);
}

static void test_back_off(void)
{
	struct loop_input in = input(GIB);
	struct loop_params p = defaults;
	struct loop_state s;

	/* at the target exactly: not under it */
	prev(&s, &in, 60000, 0);
	CHECK_U64(loop_round(&p, &s, &in), 0);
	CHECK_INT(s.phase, PHASE_BACKING_OFF);
	CHECK_INT(s.backoff, 1);
	CHECK_U64(s.last_step, 0);
	CHECK_U64(s.stall_ppm, 1000);
	CHECK_INT(s.hold, 2);		/* twice the stall over the target, in rounds */
	CHECK_INT(s.calm, 0);
	/* it halves down to 1/64, no further */
	for (unsigned i = 1; i < 10; i++) {
		prev(&s, &in, 600000, i < LOOP_BACKOFF_MAX ? i : LOOP_BACKOFF_MAX);
		CHECK_U64(loop_round(&p, &s, &in), 0);
		CHECK_INT(s.backoff, i + 1 < LOOP_BACKOFF_MAX ? i + 1 : LOOP_BACKOFF_MAX);
	}
	CHECK_INT(s.hold, 20);		/* 1 % against 0.1 % */
	/* under again: first the hold, a round at a time (4 GiB, so that
	 * 1/64 of a step is above the least one) */
	in = input(4 * GIB);
	prev(&s, &in, 0, 6);
	s.hold = 2;
	CHECK_U64(loop_round(&p, &s, &in), 0);
	CHECK_INT(s.phase, PHASE_BACKING_OFF);
	CHECK_INT(s.hold, 1);
	s.time_us -= 60000000;
	CHECK_U64(loop_round(&p, &s, &in), 0);
	CHECK_INT(s.hold, 0);
	/* then the step at the current factor, which grows back only after
	 * LOOP_CALM_STEPS harmless steps in a row */
	s.time_us -= 60000000;
	CHECK_U64(loop_round(&p, &s, &in), 21474836 / 64 / 4096 * 4096);
	CHECK_INT(s.phase, PHASE_RECLAIMING);
	CHECK_INT(s.backoff, 6);
	CHECK_INT(s.calm, 1);
	for (unsigned i = 2; i <= LOOP_CALM_STEPS; i++) {
		s.time_us -= 60000000;
		CHECK_U64(loop_round(&p, &s, &in), 21474836 / 64 / 4096 * 4096);
	}
	CHECK_INT(s.backoff, 5);
	CHECK_INT(s.calm, 0);
	s.time_us -= 60000000;
	CHECK_U64(loop_round(&p, &s, &in), 21474836 / 32 / 4096 * 4096);
	/* a stall ends the calm run */
	prev(&s, &in, 60000, 1);
	s.calm = LOOP_CALM_STEPS - 1;
	CHECK_U64(loop_round(&p, &s, &in), 0);
	CHECK_INT(s.backoff, 2);
	CHECK_INT(s.hold, 2);
	CHECK_INT(s.calm, 0);
	/* stalled rounds in a row add up, to at most LOOP_HOLD_MAX */
	prev(&s, &in, 90000, 2);
	s.hold = 7;
	CHECK_U64(loop_round(&p, &s, &in), 0);
	CHECK_INT(s.hold, 10);		/* 1500 ppm: 3 rounds more */
	prev(&s, &in, 60000000, 2);	/* stalled the whole time */
	s.hold = 7;
	CHECK_U64(loop_round(&p, &s, &in), 0);
	CHECK_INT(s.hold, LOOP_HOLD_MAX);
	/* a target of 1 ppm, the least there is */
	p.target_ppm = 1;
	prev(&s, &in, 60000000, 2);
	CHECK_U64(loop_round(&p, &s, &in), 0);
	CHECK_INT(s.hold, LOOP_HOLD_MAX);
	p.target_ppm = LOOP_TARGET_PPM;
	/* backed off to the end, still the least step the kernel takes */
	in = input(1 << 20);
	prev(&s, &in, 0, 6);
	CHECK_U64(loop_round(&p, &s, &in), LOOP_MIN_PAGES * 4096);
	CHECK_U64(loop_round(&p, &s, &in), 0);	/* no time passed: starts afresh */
	CHECK_INT(s.phase, PHASE_STARTING);
}

/* A slice at its working set, where every step comes back at once as a
 * stall well over the target (a refault costs the reader a disk read):
 * each probe buys a hold long enough that probing costs half the target
 * over a long run. The loop as first written probed every other round.
 * A 32 MiB slice, 3 s rounds; a probe stalls the next round 3 % (90 ms,
 * about what one cost in the image test). */
static void test_at_working_set(void)
{
	struct loop_input in = input(32 << 20);
	struct loop_params p = defaults;
	struct loop_state s;
	uint64_t stalled_us = 0;
	unsigned probes = 0, rounds = 2400;
	bool stalled = false;

	loop_start(&s, &in);
	for (unsigned round = 0; round < rounds; round++) {
		uint64_t step;

		in.now_us += 3000000;
		in.some_total_us += stalled ? 90000 : 0;
		stalled_us += stalled ? 90000 : 0;
		step = loop_round(&p, &s, &in);
		stalled = step != 0;
		probes += stalled;
	}
	/* 2 hours: a probe every 61 rounds (60 held, one step) */
	CHECK_INT(probes, 39);
	/* under half the target: 0.1 % of 7,200 s is 7.2 s */
	CHECK_INT(stalled_us * 1000 / ((uint64_t)rounds * 3000000) < LOOP_TARGET_PPM / 2 + 1, 1);
	CHECK_INT(s.backoff, LOOP_BACKOFF_MAX);
}

static void test_bounds(void)
{
	struct loop_input in = input(GIB);
	struct loop_params p = defaults;
	struct loop_state s;

	p.max = 1 << 20;
	prev(&s, &in, 0, 0);
	CHECK_U64(loop_round(&p, &s, &in), 1 << 20);
	/* ReclaimMax= under the least step the loop takes: the bound wins */
	p.max = 64 << 10;
	prev(&s, &in, 0, 6);
	CHECK_U64(loop_round(&p, &s, &in), 64 << 10);
	p.max = LOOP_MAX_BYTES;
	p.min = 8 << 20;
	prev(&s, &in, 54000, 3);
	CHECK_U64(loop_round(&p, &s, &in), 8 << 20);
	/* but never under the floor, nor into the protection */
	p.floor = GIB - (1 << 20);
	prev(&s, &in, 0, 0);
	CHECK_U64(loop_round(&p, &s, &in), 1 << 20);
	p.floor = 0;
	in.protection = GIB - (2 << 20);
	prev(&s, &in, 0, 0);
	CHECK_U64(loop_round(&p, &s, &in), 2 << 20);
	/* no step is a part of a page */
	p.min = 0;
	in.protection = GIB - 4095;
	prev(&s, &in, 0, 0);
	CHECK_U64(loop_round(&p, &s, &in), 0);
	CHECK_INT(s.phase, PHASE_RECLAIMING);
}

static void test_skips(void)
{
	struct loop_input in = input(GIB);
	struct loop_params p = defaults;
	struct loop_state s;

	in.protection = GIB;
	prev(&s, &in, 0, 2);
	CHECK_U64(loop_round(&p, &s, &in), 0);
	CHECK_INT(s.phase, PHASE_PROTECTED);
	CHECK_INT(s.backoff, 2);		/* left as it was */
	CHECK_U64(s.time_us, in.now_us);	/* but measured from here on */
	in.protection = UINT64_MAX;		/* "max" */
	prev(&s, &in, 0, 0);
	CHECK_U64(loop_round(&p, &s, &in), 0);
	CHECK_INT(s.phase, PHASE_PROTECTED);
	in.protection = 0;
	p.floor = GIB;
	prev(&s, &in, 0, 0);
	CHECK_U64(loop_round(&p, &s, &in), 0);
	CHECK_INT(s.phase, PHASE_AT_FLOOR);
	p.floor = 0;
	in.high = GIB;
	prev(&s, &in, 0, 0);
	CHECK_U64(loop_round(&p, &s, &in), 0);
	CHECK_INT(s.phase, PHASE_AT_HIGH);

	/* what cannot be a baseline starts afresh, nothing given back */
	in.high = UINT64_MAX;
	prev(&s, &in, 0, 3);
	s.given_back = 99;
	s.phase = PHASE_MISSING;
	CHECK_U64(loop_round(&p, &s, &in), 0);
	CHECK_INT(s.phase, PHASE_STARTING);
	CHECK_U64(s.given_back, 0);
	CHECK_INT(s.backoff, 0);
	prev(&s, &in, 0, 0);
	s.some_total_us = in.some_total_us + 1;	/* a new cgroup's totals */
	CHECK_U64(loop_round(&p, &s, &in), 0);
	CHECK_INT(s.phase, PHASE_STARTING);
}

static void test_state_file(void)
{
	struct loop_state s = {
		.phase = PHASE_BACKING_OFF, .some_total_us = 18446744073709551615ull, .time_us = 7,
		.backoff = 6, .given_back = 123456789, .last_step = 4096, .stall_ppm = 1000000,
		.hold = 64, .calm = 7,
	}, back;
	char buf[LOOP_STATE_MAX], why[128];

	loop_state_format(&s, buf, sizeof(buf));
	CHECK_STR(buf, "state=backing-off\nsome_total_us=18446744073709551615\ntime_us=7\nbackoff=6\n"
		       "given_back=123456789\nlast_step=4096\nstall_ppm=1000000\nhold=64\ncalm=7\n");
	CHECK_INT(loop_state_parse(buf, &back, why, sizeof(why)), 0);
	CHECK_INT(back.phase, s.phase);
	CHECK_U64(back.some_total_us, s.some_total_us);
	CHECK_U64(back.time_us, s.time_us);
	CHECK_INT(back.backoff, s.backoff);
	CHECK_U64(back.given_back, s.given_back);
	CHECK_U64(back.last_step, s.last_step);
	CHECK_U64(back.stall_ppm, s.stall_ppm);
	CHECK_INT(back.hold, s.hold);
	CHECK_INT(back.calm, s.calm);
	for (int p = 0; p < PHASE__MAX; p++) {
		s.phase = (enum loop_phase)p;
		loop_state_format(&s, buf, sizeof(buf));
		CHECK_INT(loop_state_parse(buf, &back, why, sizeof(why)), 0);
		CHECK_INT(back.phase, p);
	}
	/* the same fields in another order are the same state */
	CHECK_INT(loop_state_parse("stall_ppm=1\nlast_step=2\ngiven_back=3\nbackoff=4\ntime_us=5\n"
				   "some_total_us=6\nstate=at-high", &back, why, sizeof(why)), 0);
	CHECK_INT(back.phase, PHASE_AT_HIGH);
	CHECK_U64(back.some_total_us, 6);
	/* hold= and calm= may be absent (a state from before them): 0 */
	CHECK_INT(back.hold, 0);
	CHECK_INT(back.calm, 0);
	CHECK_INT(loop_state_parse("state=reclaiming\nhold=257\n", &back, why, sizeof(why)), -1);
	CHECK_STR(why, "hold=257 out of range");
	CHECK_INT(loop_state_parse("state=reclaiming\ncalm=8\n", &back, why, sizeof(why)), -1);
	CHECK_STR(why, "calm=8 out of range");

	CHECK_INT(loop_state_parse("state=reclaiming\nsome_total_us=18446744073709551616\n", &back,
				   why, sizeof(why)), -1);
	CHECK_STR(why, "some_total_us= is not a number");
	CHECK_INT(loop_state_parse("state=reclaiming\nstall_ppm=1000001\n", &back, why, sizeof(why)), -1);
	CHECK_STR(why, "stall_ppm=1000001 out of range");
	CHECK_INT(loop_state_parse("state=reclaiming\nfoo=1\n", &back, why, sizeof(why)), -1);
	CHECK_STR(why, "unknown key foo=");
	CHECK_INT(loop_state_parse("state=reclaiming\n\n", &back, why, sizeof(why)), -1);
	CHECK_STR(why, "line 2 is not KEY=VALUE");
	CHECK_INT(loop_state_parse("backoff=\n", &back, why, sizeof(why)), -1);
	CHECK_STR(why, "backoff= is not a number");
}

static void test_pressure_file(void)
{
	uint64_t v = 1;

	CHECK_INT(pressure_some_total("some avg10=0.00 avg60=0.00 avg300=0.00 total=123\n"
				      "full avg10=0.00 avg60=0.00 avg300=0.00 total=45\n", &v), 0);
	CHECK_U64(v, 123);
	CHECK_INT(pressure_some_total("full avg10=0.00 total=45\nsome avg10=1.50 total=18446744073709551615",
				      &v), 0);
	CHECK_U64(v, UINT64_MAX);
	CHECK_INT(pressure_some_total("full avg10=0.00 total=45\n", &v), -1);
	CHECK_INT(pressure_some_total("some avg10=0.00\nfull total=45\n", &v), -1);
	CHECK_INT(pressure_some_total("some total=\n", &v), -1);
	CHECK_INT(pressure_some_total("some total=12x\n", &v), -1);
	CHECK_INT(pressure_some_total("", &v), -1);
}

void tests_loop(void)
{
	h_run("loop: a step of 0.5% of memory.current, proportional to the margin under target",
	      test_step);
	h_run("loop: at or over the target no step, halving down to 1/64, a hold set by the stall",
	      test_back_off);
	h_run("loop: at the working set, probes get rarer and smaller", test_at_working_set);
	h_run("loop: ReclaimMin=, ReclaimMax=, the floor and the protection bound a step", test_bounds);
	h_run("loop: protected, at the floor, at memory.high; fresh starts", test_skips);
	h_run("loop: the state file round-trips; bad ones are refused with the reason", test_state_file);
	h_run("loop: memory.pressure's some total", test_pressure_file);
}
