// SPDX-License-Identifier: GPL-2.0-only
#include "loop.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "values.h"

static const char *const phase_names[PHASE__MAX] = {
	[PHASE_STARTING] = "starting",
	[PHASE_RECLAIMING] = "reclaiming",
	[PHASE_BACKING_OFF] = "backing-off",
	[PHASE_PROTECTED] = "protected",
	[PHASE_AT_FLOOR] = "at-floor",
	[PHASE_AT_HIGH] = "at-high",
	[PHASE_MISSING] = "missing",
};

const char *loop_phase_name(enum loop_phase p)
{
	return (unsigned)p < PHASE__MAX ? phase_names[p] : "?";
}

void loop_start(struct loop_state *s, const struct loop_input *in)
{
	memset(s, 0, sizeof(*s));
	s->phase = PHASE_STARTING;
	s->some_total_us = in->some_total_us;
	s->time_us = in->now_us;
}

uint64_t loop_round(const struct loop_params *p, struct loop_state *s, const struct loop_input *in)
{
	uint64_t stall, step, keep, room, hold;

	if (s->phase == PHASE_MISSING || in->some_total_us < s->some_total_us ||
	    in->now_us <= s->time_us) {
		loop_start(s, in);
		return 0;
	}
	stall = mul_div(in->some_total_us - s->some_total_us, PPM_ONE, in->now_us - s->time_us);
	/* "some" cannot exceed the wall time but for rounding */
	s->stall_ppm = (uint32_t)(stall < PPM_ONE ? stall : PPM_ONE);
	s->some_total_us = in->some_total_us;
	s->time_us = in->now_us;
	s->last_step = 0;
	/* memory.reclaim on a cgroup ignores that cgroup's own protection
	 * (only its children's counts), so it is honoured here. */
	if (in->current <= in->protection) {
		s->phase = PHASE_PROTECTED;
		return 0;
	}
	if (in->current <= p->floor) {
		s->phase = PHASE_AT_FLOOR;
		return 0;
	}
	/* There the kernel reclaims on every charge already, and the stall
	 * that costs is not one a step of ours should add to. */
	if (in->current >= in->high) {
		s->phase = PHASE_AT_HIGH;
		return 0;
	}
	if (s->stall_ppm >= p->target_ppm) {
		s->phase = PHASE_BACKING_OFF;
		if (s->backoff < LOOP_BACKOFF_MAX)
			s->backoff++;
		/* the stall is at most 1e6 ppm and the target at least 1, so
		 * this cannot overflow; rounded up */
		hold = s->hold + (2ull * s->stall_ppm + p->target_ppm - 1) / p->target_ppm;
		s->hold = hold < LOOP_HOLD_MAX ? (unsigned)hold : LOOP_HOLD_MAX;
		s->calm = 0;
		return 0;
	}
	if (s->hold) {
		s->hold--;
		s->phase = PHASE_BACKING_OFF;
		return 0;
	}
	step = mul_div(in->current, LOOP_STEP_PPM, PPM_ONE);
	step = mul_div(step, p->target_ppm - s->stall_ppm, p->target_ppm);
	step >>= s->backoff;
	/* backed off to the end, the loop still probes, with what the
	 * kernel takes at least; ReclaimMin=/ReclaimMax= still bound it */
	if (step < (uint64_t)LOOP_MIN_PAGES * p->page_size)
		step = (uint64_t)LOOP_MIN_PAGES * p->page_size;
	if (step < p->min)
		step = p->min;
	if (step > p->max)
		step = p->max;
	keep = p->floor > in->protection ? p->floor : in->protection;
	room = in->current - keep;
	if (step > room)
		step = room;
	step -= step % (p->page_size ? p->page_size : 1);
	s->phase = PHASE_RECLAIMING;
	if (s->backoff && ++s->calm >= LOOP_CALM_STEPS) {
		s->backoff--;
		s->calm = 0;
	}
	s->last_step = step;
	return step;
}

enum { F_STATE, F_TOTAL, F_TIME, F_BACKOFF, F_GIVEN, F_STEP, F_STALL, F_HOLD, F_CALM, F__MAX };

static const char *const field_names[F__MAX] = {
	"state", "some_total_us", "time_us", "backoff", "given_back", "last_step", "stall_ppm",
	"hold", "calm",
};

/* the fields a state file may lack: added after the first release */
#define F_OPTIONAL ((1u << F_HOLD) | (1u << F_CALM))

void loop_state_format(const struct loop_state *s, char *buf, size_t n)
{
	snprintf(buf, n, "%s=%s\n%s=%llu\n%s=%llu\n%s=%u\n%s=%llu\n%s=%llu\n%s=%u\n%s=%u\n%s=%u\n",
		 field_names[F_STATE], loop_phase_name(s->phase),
		 field_names[F_TOTAL], (unsigned long long)s->some_total_us,
		 field_names[F_TIME], (unsigned long long)s->time_us,
		 field_names[F_BACKOFF], s->backoff,
		 field_names[F_GIVEN], (unsigned long long)s->given_back,
		 field_names[F_STEP], (unsigned long long)s->last_step,
		 field_names[F_STALL], (unsigned)s->stall_ppm,
		 field_names[F_HOLD], s->hold,
		 field_names[F_CALM], s->calm);
}

static int parse_u64(const char *v, size_t len, uint64_t *out)
{
	uint64_t r = 0;

	if (len == 0)
		return -1;
	for (size_t i = 0; i < len; i++) {
		unsigned d = (unsigned)(v[i] - '0');

		if (v[i] < '0' || v[i] > '9' || r > (UINT64_MAX - d) / 10)
			return -1;
		r = r * 10 + d;
	}
	*out = r;
	return 0;
}

static int parse_field(int f, const char *v, size_t len, struct loop_state *s, char *why, size_t n)
{
	uint64_t u;

	if (f == F_STATE) {
		for (int p = 0; p < PHASE__MAX; p++)
			if (strlen(phase_names[p]) == len && strncmp(v, phase_names[p], len) == 0) {
				s->phase = (enum loop_phase)p;
				return 0;
			}
		snprintf(why, n, "unknown state '%.*s'", (int)(len < 32 ? len : 32), v);
		return -1;
	}
	if (parse_u64(v, len, &u) < 0) {
		snprintf(why, n, "%s= is not a number", field_names[f]);
		return -1;
	}
	if ((f == F_BACKOFF && u > LOOP_BACKOFF_MAX) || (f == F_STALL && u > PPM_ONE) ||
	    (f == F_HOLD && u > LOOP_HOLD_MAX) || (f == F_CALM && u >= LOOP_CALM_STEPS)) {
		snprintf(why, n, "%s=%llu out of range", field_names[f], (unsigned long long)u);
		return -1;
	}
	switch (f) {
	case F_TOTAL: s->some_total_us = u; break;
	case F_TIME: s->time_us = u; break;
	case F_BACKOFF: s->backoff = (unsigned)u; break;
	case F_GIVEN: s->given_back = u; break;
	case F_STEP: s->last_step = u; break;
	case F_STALL: s->stall_ppm = (uint32_t)u; break;
	case F_HOLD: s->hold = (unsigned)u; break;
	case F_CALM: s->calm = (unsigned)u; break;
	}
	return 0;
}

int loop_state_parse(const char *text, struct loop_state *s, char *why, size_t n)
{
	struct loop_state r;
	unsigned seen = 0, lineno = 0;
	const char *l = text;

	memset(&r, 0, sizeof(r));
	while (*l) {
		size_t len = strcspn(l, "\n"), klen = strcspn(l, "=\n");
		int f = -1;

		lineno++;
		if (klen == len || klen == 0) {
			snprintf(why, n, "line %u is not KEY=VALUE", lineno);
			return -1;
		}
		for (int i = 0; i < F__MAX; i++)
			if (strlen(field_names[i]) == klen && strncmp(l, field_names[i], klen) == 0)
				f = i;
		if (f < 0) {
			snprintf(why, n, "unknown key %.*s=", (int)(klen < 32 ? klen : 32), l);
			return -1;
		}
		if (seen & (1u << f)) {
			snprintf(why, n, "%s= twice", field_names[f]);
			return -1;
		}
		seen |= 1u << f;
		if (parse_field(f, l + klen + 1, len - klen - 1, &r, why, n) < 0)
			return -1;
		l += len + (l[len] == '\n');
	}
	for (int i = 0; i < F__MAX; i++)
		if (!(seen & (1u << i)) && !(F_OPTIONAL & (1u << i))) {
			snprintf(why, n, "no %s=", field_names[i]);
			return -1;
		}
	*s = r;
	return 0;
}

int pressure_some_total(const char *text, uint64_t *total_us)
{
	for (const char *l = text; l && *l; l = strchr(l, '\n'), l = l ? l + 1 : NULL) {
		size_t len = strcspn(l, "\n");
		const char *t;

		if (strncmp(l, "some ", 5) != 0)
			continue;
		t = strstr(l, " total=");
		if (!t || t >= l + len)
			return -1;
		t += 7;
		return parse_u64(t, strcspn(t, " \n"), total_us);
	}
	return -1;
}
