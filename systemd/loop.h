/* SPDX-License-Identifier: GPL-2.0-only */
/* The pressure-guided loop of ProactiveReclaim=auto: what one round
 * decides from what it has read, and the state kept from one round to
 * the next. Pure, so that the unit tests and the fuzzer drive it
 * directly; reclaim-auto.c reads the cgroup and writes memory.reclaim.
 *
 * A round compares the share of wall time the slice stalled on memory
 * since the last round (memory.pressure "some") with PressureTarget=.
 * Under it, the slice gets a step proportional to its size and to the
 * margin; at or over it, no step, the next ones are halved, and the loop
 * holds: no step for 2 * stall / target rounds, so that the stall,
 * spread over the hold, is half the target. A refault costs the reader
 * a disk read, so near the working set a round's stall is either nothing
 * or well over a 0.1 % target: one step too many shows only after it has
 * been taken, and what that probe cost sets how long until the next one.
 * A slice that has cold memory again (the steps stay harmless) gets back
 * to full steps. */
#ifndef MGLRU_FG_LOOP_H
#define MGLRU_FG_LOOP_H

#include <stddef.h>
#include <stdint.h>

/* The defaults; mglru-fg-tune.conf(5) says how they were chosen. */
#define LOOP_TARGET_PPM 1000u		/* PressureTarget=0.1% */
#define LOOP_STEP_PPM 5000u		/* 0.5% of memory.current a round, at no stall */
#define LOOP_MAX_BYTES (256ull << 20)	/* ReclaimMax=256M */
/* Backing off halves the step down to 1/64 of it. The hold after a
 * round at or over the target is 2 * stall / target rounds (a round that
 * stalled 9 % against 0.1 %: 180 rounds, 9 minutes at a 3 s interval),
 * added up over such rounds in a row and at most LOOP_HOLD_MAX, so that
 * one burst cannot stop the loop for days (at the packaged 1 minute,
 * 256 rounds are about four hours). LOOP_CALM_STEPS steps in a row with
 * no round at or over the target undo one halving: from 1/64, 48
 * harmless steps to full again. */
#define LOOP_BACKOFF_MAX 6u
#define LOOP_HOLD_MAX 256u
#define LOOP_CALM_STEPS 8u
/* The least a step asks for: a write to memory.reclaim reclaims at least
 * SWAP_CLUSTER_MAX pages (try_to_free_mem_cgroup_pages() in 6.12), so a
 * smaller step would only count less than it took. */
#define LOOP_MIN_PAGES 32u
/* systemd-oomd's DefaultMemoryPressureLimit=, for a unit that sets no
 * ManagedOOMMemoryPressureLimit= of its own. */
#define OOMD_DEFAULT_LIMIT_PERMYRIAD 6000u

enum loop_phase {
	PHASE_STARTING,		/* measured once: no stall to go by yet */
	PHASE_RECLAIMING,	/* under the target: a step */
	PHASE_BACKING_OFF,	/* at or over the target: none */
	PHASE_PROTECTED,	/* within memory.min or memory.low */
	PHASE_AT_FLOOR,		/* not above ReclaimFloor= */
	PHASE_AT_HIGH,		/* at memory.high: the kernel reclaims itself */
	PHASE_MISSING,		/* no cgroup */
	PHASE__MAX
};

struct loop_state {
	enum loop_phase phase;
	uint64_t some_total_us;	/* memory.pressure "some" total at the last round */
	uint64_t time_us;	/* CLOCK_MONOTONIC then */
	unsigned backoff;	/* the next step is divided by 2^backoff */
	unsigned hold;		/* rounds under the target still to wait before a step */
	unsigned calm;		/* steps in a row since the last round at or over the target */
	uint64_t given_back;	/* bytes memory.reclaim took so far */
	uint64_t last_step;	/* bytes asked for by the last round */
	uint32_t stall_ppm;	/* the stall the last round measured */
};

struct loop_params {
	uint32_t target_ppm;
	uint64_t min, max;	/* bounds of a step; max may be UINT64_MAX */
	uint64_t floor;		/* ReclaimFloor= */
	unsigned long page_size;
};

struct loop_input {
	uint64_t now_us;
	uint64_t some_total_us;
	uint64_t current;	/* memory.current */
	uint64_t protection;	/* the larger of memory.min and memory.low; "max" is UINT64_MAX */
	uint64_t high;		/* memory.high; "max" is UINT64_MAX */
};

const char *loop_phase_name(enum loop_phase p);

/* The first measurement: a baseline, nothing given back yet. */
void loop_start(struct loop_state *s, const struct loop_input *in);

/* One round from s (what the last one left): s becomes what this one
 * leaves, and the bytes to write to memory.reclaim are returned (whole
 * pages; 0 for none). Starts afresh (PHASE_STARTING) where s cannot be
 * a baseline: after PHASE_MISSING (a new cgroup has new totals), or when
 * the totals or the clock went back. */
uint64_t loop_round(const struct loop_params *p, struct loop_state *s, const struct loop_input *in);

/* The state file: KEY=VALUE lines, each once; all of them but hold=
 * and calm= (0 when absent, as a state file written before they existed
 * has them). */
#define LOOP_STATE_MAX 512
void loop_state_format(const struct loop_state *s, char *buf, size_t n);
/* 0, or -1 with the reason in why. */
int loop_state_parse(const char *text, struct loop_state *s, char *why, size_t n);

/* The "some" line's total= of a memory.pressure file, in microseconds. */
int pressure_some_total(const char *text, uint64_t *total_us);

#endif
