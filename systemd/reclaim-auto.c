// SPDX-License-Identifier: GPL-2.0-only
/* ProactiveReclaim=auto: one round of the loop of loop.c for one slice,
 * with what it reads from the cgroup and from systemd, and the state it
 * keeps in STATE_DIR/reclaim-SLICE.state between rounds (and restarts:
 * the state is all there is). Each change of state is logged once; the
 * steps themselves are not, status shows them. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "fsio.h"
#include "log.h"
#include "loop.h"
#include "tune.h"

/* SLICE_NAME_MAX keeps the stamp's name within NAME_MAX; so this one. */
_Static_assert(sizeof(LOOP_STATE_SUFFIX) == sizeof(STAMP_SUFFIX), "a state's name outgrows a stamp's");

static uint64_t monotonic_us(void)
{
	struct timespec ts;

	/* The pressure totals stand still in suspend, as this clock does, so
	 * the ratio of the two is the share of the time the slice ran. */
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000 + (uint64_t)ts.tv_nsec / 1000;
}

int reclaim_state_path(const char *slice, char *buf, size_t n)
{
	int w = snprintf(buf, n, STATE_DIR "/" STAMP_PREFIX "%s" LOOP_STATE_SUFFIX, slice);

	return w < 0 || (size_t)w >= n ? -1 : 0;
}

/* 1 with *s; 0 without a state; -1 with why for one that cannot be read
 * or is corrupt. */
static int state_read(struct tune *t, const char *path, struct loop_state *s, char *why, size_t n)
{
	char *text;
	int e = read_file(t->root, path, LOOP_STATE_MAX, &text, NULL);

	if (e == -ENOENT)
		return 0;
	if (e < 0) {
		snprintf(why, n, "cannot read %s: %s", path, strerror(-e));
		return -1;
	}
	e = loop_state_parse(text, s, why, n);
	free(text);
	return e < 0 ? -1 : 1;
}

/* The state, or none with a warning: a loop that starts afresh only
 * measures once before it steps again. */
static bool state_load(struct tune *t, const struct target *tg, const char *path,
		       struct loop_state *s)
{
	char why[128], what[PATH_MAX + 160];
	int r = state_read(t, path, s, why, sizeof(why));

	if (r >= 0)
		return r > 0;
	if (strncmp(why, "cannot read ", 12) == 0)
		snprintf(what, sizeof(what), "%s", why);
	else
		snprintf(what, sizeof(what), "%s is corrupt (%s)", path, why);
	if (t->mode == MODE_DRY_RUN)
		printf("%s: %s, would start afresh\n", tg->slice, what);
	else
		log_warning("%s: %s, starting afresh", tg->slice, what);
	return false;
}

static void state_save(struct tune *t, const char *path, const struct loop_state *s)
{
	char buf[LOOP_STATE_MAX];
	int e;

	loop_state_format(s, buf, sizeof(buf));
	e = write_file_atomic(t->root, path, buf);
	if (e < 0)
		log_warning("cannot write %s: %s", path, strerror(-e));
}

/* missing: what a file that is not there stands for; NULL: an error */
static int read_cgroup(struct tune *t, const struct target *tg, const char *file, bool or_max,
		       const uint64_t *missing, uint64_t *out)
{
	char path[PATH_MAX + 32];
	int e;

	snprintf(path, sizeof(path), "%s/%s", tg->cgroup, file);
	e = or_max ? read_u64_or_max(t->root, path, out) : read_u64(t->root, path, out);
	if (e == -ENOENT && missing) {
		*out = *missing;
		return 0;
	}
	if (e < 0) {
		runtime_error(t, "cannot read %s: %s", path, strerror(-e));
		return -1;
	}
	return 0;
}

static int read_input(struct tune *t, const struct target *tg, struct loop_input *in)
{
	static const uint64_t none = 0, unlimited = UINT64_MAX;
	char path[PATH_MAX + 32], *text;
	uint64_t min, low;
	int e;

	snprintf(path, sizeof(path), "%s/memory.pressure", tg->cgroup);
	e = read_file(t->root, path, 4096, &text, NULL);
	if (e < 0) {
		runtime_error(t, "cannot read %s: %s (ProactiveReclaim=auto needs the kernel's pressure "
			      "stall information, CONFIG_PSI)", path, strerror(-e));
		return -1;
	}
	e = pressure_some_total(text, &in->some_total_us);
	free(text);
	if (e < 0) {
		runtime_error(t, "cannot parse %s: no \"some ... total=\" line", path);
		return -1;
	}
	/* Without a protection or limit file, none applies; memory.current
	 * must be there. */
	if (read_cgroup(t, tg, "memory.current", false, NULL, &in->current) < 0 ||
	    read_cgroup(t, tg, "memory.min", true, &none, &min) < 0 ||
	    read_cgroup(t, tg, "memory.low", true, &none, &low) < 0 ||
	    read_cgroup(t, tg, "memory.high", true, &unlimited, &in->high) < 0)
		return -1;
	in->protection = min > low ? min : low;
	return 0;
}

static int loop_params(struct tune *t, const struct conf_resolved *res, struct loop_params *p)
{
	p->target_ppm = res->set[KEY_PRESSURE_TARGET] ? (uint32_t)res->val[KEY_PRESSURE_TARGET].num
						      : LOOP_TARGET_PPM;
	p->min = p->floor = 0;
	p->max = LOOP_MAX_BYTES;
	p->page_size = t->page_size;
	if (res->set[KEY_RECLAIM_MIN] && tune_size_bytes(t, &res->val[KEY_RECLAIM_MIN].size, &p->min) < 0)
		return -1;
	if (res->set[KEY_RECLAIM_MAX] && tune_size_bytes(t, &res->val[KEY_RECLAIM_MAX].size, &p->max) < 0)
		return -1;
	if (res->set[KEY_RECLAIM_FLOOR] &&
	    tune_size_bytes(t, &res->val[KEY_RECLAIM_FLOOR].size, &p->floor) < 0)
		return -1;
	/* a ReclaimMin= above the default maximum raises it */
	if (!res->set[KEY_RECLAIM_MAX] && p->max < p->min)
		p->max = p->min;
	return 0;
}

/* systemd-oomd acts on the unit's settings, wherever systemd has them
 * from (this configuration's drop-in, the unit's own files, another
 * drop-in), so those are asked for: a PressureTarget= at or over the
 * limit is a configuration error, and the slice is left alone. */
static bool oomd_refuses(struct tune *t, const struct target *tg, const struct conf_resolved *res,
			 uint32_t target_ppm)
{
	static const char *const props[] = {
		"ManagedOOMMemoryPressure", "ManagedOOMMemoryPressureLimit", NULL,
	};
	char *out = NULL, why[256], t_s[32], l_s[32], limit_s[96];
	enum oom_mode mode;
	uint32_t limit;
	enum conf_key at = res->set[KEY_PRESSURE_TARGET] ? KEY_PRESSURE_TARGET : KEY_PROACTIVE_RECLAIM;
	int r = tune_systemctl_show(t, tg->slice, props, &out, why, sizeof(why));

	if (r == 1)
		return false;
	if (r < 0) {
		log_warning("%s: cannot ask systemd for its systemd-oomd settings (%s): only those of "
			    "mglru-fg-tune.conf are checked against PressureTarget=", tg->slice, why);
		return false;
	}
	parse_oomd_properties(out, &mode, &limit);
	free(out);
	if (mode != OOM_KILL)
		return false;
	if (limit)
		format_percent(limit, l_s, sizeof(l_s));
	else
		format_percent(OOMD_DEFAULT_LIMIT_PERMYRIAD, l_s, sizeof(l_s));
	if (target_ppm < (limit ? limit : OOMD_DEFAULT_LIMIT_PERMYRIAD) * (PPM_ONE / 10000))
		return false;
	format_ppm(target_ppm, t_s, sizeof(t_s));
	if (limit)
		snprintf(limit_s, sizeof(limit_s), "ManagedOOMMemoryPressureLimit=%s (systemctl show)", l_s);
	else
		snprintf(limit_s, sizeof(limit_s), "its default of %s", l_s);
	log_error("%s: PressureTarget=%s (%s:%u%s) is at or over systemd-oomd's limit for it, %s: "
		  "not reclaiming; keep the target well under it", tg->slice, t_s, res->file[at],
		  res->line[at], at == KEY_PRESSURE_TARGET ? "" : ", the default", limit_s);
	t->config_errors++;
	return true;
}

static void limit_string(uint64_t v, char *buf, size_t n)
{
	if (v == UINT64_MAX)
		snprintf(buf, n, "max");
	else
		snprintf(buf, n, "%llu", (unsigned long long)v);
}

/* Why the loop is where it is, for the line that says it moved. */
static void reason(const struct loop_state *s, const struct loop_params *p,
		   const struct loop_input *in, char *buf, size_t n)
{
	char stall[32], target[32], lim[32];
	unsigned long long cur = (unsigned long long)in->current;

	format_ppm(s->stall_ppm, stall, sizeof(stall));
	format_ppm(p->target_ppm, target, sizeof(target));
	switch (s->phase) {
	case PHASE_RECLAIMING:
		snprintf(buf, n, "stall %s under target %s", stall, target);
		break;
	case PHASE_BACKING_OFF:
		if (s->stall_ppm >= p->target_ppm)
			snprintf(buf, n, "stall %s, not under target %s; steps 1/%u, then a hold of "
				 "%u rounds", stall, target, 1u << s->backoff, s->hold);
		else
			snprintf(buf, n, "stall %s under target %s, held after a stall; %u more "
				 "rounds to hold", stall, target, s->hold);
		break;
	case PHASE_PROTECTED:
		limit_string(in->protection, lim, sizeof(lim));
		snprintf(buf, n, "memory.current %llu is not above memory.min/memory.low %s", cur, lim);
		break;
	case PHASE_AT_FLOOR:
		snprintf(buf, n, "memory.current %llu is not above ReclaimFloor= %llu", cur,
			 (unsigned long long)p->floor);
		break;
	case PHASE_AT_HIGH:
		limit_string(in->high, lim, sizeof(lim));
		snprintf(buf, n, "memory.current %llu is not below memory.high %s: the kernel reclaims "
			 "there itself", cur, lim);
		break;
	default:
		snprintf(buf, n, "no earlier round to measure the stall from");
		break;
	}
}

static void missing(struct tune *t, const struct target *tg, const char *path, bool had,
		    struct loop_state *s)
{
	if (had && s->phase == PHASE_MISSING)
		return;		/* said when it went */
	if (t->mode == MODE_DRY_RUN) {
		printf("%s: no cgroup at %s\n", tg->slice, tg->cgroup);
		return;
	}
	log_notice("%s: no cgroup at %s, skipped", tg->slice, tg->cgroup);
	if (!had)
		memset(s, 0, sizeof(*s));
	s->phase = PHASE_MISSING;
	state_save(t, path, s);
}

void reclaim_auto(struct tune *t, const struct target *tg, const struct conf_resolved *res)
{
	struct loop_state old = { .phase = PHASE_STARTING }, s;
	struct loop_params p;
	struct loop_input in;
	char path[PATH_MAX], req[64], why[256], target[32];
	uint64_t step, after, left;
	bool had;
	int e;

	if (reclaim_state_path(tg->slice, path, sizeof(path)) < 0) {
		runtime_error(t, "%s: state path too long", tg->slice);
		return;
	}
	had = state_load(t, tg, path, &old);
	s = old;
	if (!tg->exists) {
		missing(t, tg, path, had, &s);
		return;
	}
	in.now_us = monotonic_us();
	if (had && old.phase != PHASE_MISSING &&
	    (left = reclaim_wait_ms(old.time_us / 1000, in.now_us / 1000, reclaim_interval_ms(res)))) {
		if (t->mode == MODE_DRY_RUN)
			printf("%s: not due, next round in %llus\n", tg->slice,
			       (unsigned long long)left / 1000);
		return;
	}
	if (read_input(t, tg, &in) < 0 || loop_params(t, res, &p) < 0 ||
	    oomd_refuses(t, tg, res, p.target_ppm))
		return;
	if (had) {
		step = loop_round(&p, &s, &in);
	} else {
		loop_start(&s, &in);
		step = 0;
	}
	reason(&s, &p, &in, why, sizeof(why));
	format_ppm(p.target_ppm, target, sizeof(target));
	if (t->mode == MODE_DRY_RUN) {
		reclaim_request(res, step, req, sizeof(req));
		if (step)
			printf("%s/memory.reclaim: %s (%s:%u; %s)\n", tg->cgroup, req,
			       res->file[KEY_PROACTIVE_RECLAIM], res->line[KEY_PROACTIVE_RECLAIM], why);
		else
			printf("%s: %s (%s)\n", tg->slice, loop_phase_name(s.phase), why);
		return;
	}
	if (step) {
		reclaim_request(res, step, req, sizeof(req));
		e = reclaim_write(t, tg, req);
		if (e == -EAGAIN) {
			/* what it did take, as far as memory.current tells */
			if (read_cgroup(t, tg, "memory.current", false, NULL, &after) < 0)
				return;
			s.given_back += in.current > after ? (in.current - after < step ? in.current - after
										: step) : 0;
		} else if (e < 0) {
			return;		/* nothing measured counts: the next round measures again */
		} else {
			s.given_back += step;
		}
	}
	if (s.phase == PHASE_STARTING)
		log_info("%s: auto reclaim starting, PressureTarget=%s", tg->slice, target);
	else if (s.phase != old.phase)
		log_info("%s: %s -> %s (%s)", tg->slice, loop_phase_name(old.phase),
			 loop_phase_name(s.phase), why);
	state_save(t, path, &s);
}

void reclaim_auto_status(struct tune *t, const struct target *tg, const struct conf_resolved *res)
{
	char path[PATH_MAX], why[256], target[32], stall[32];
	struct loop_state s;
	int r;

	format_ppm(res->set[KEY_PRESSURE_TARGET] ? (uint32_t)res->val[KEY_PRESSURE_TARGET].num
						  : LOOP_TARGET_PPM, target, sizeof(target));
	printf("  %-24s auto, PressureTarget %s every %llums\n", "ProactiveReclaim", target,
	       (unsigned long long)reclaim_interval_ms(res));
	if (reclaim_state_path(tg->slice, path, sizeof(path)) < 0)
		return;
	r = state_read(t, path, &s, why, sizeof(why));
	if (r == 0) {
		printf("  %-24s - (no round yet)\n", "reclaim state");
		return;
	}
	if (r < 0) {
		printf("  %-24s - (%s)\n", "reclaim state", why);
		return;
	}
	format_ppm(s.stall_ppm, stall, sizeof(stall));
	printf("  %-24s %s\n", "reclaim state", loop_phase_name(s.phase));
	printf("  %-24s %s\n", "stall last round", stall);
	printf("  %-24s %llu\n", "last step", (unsigned long long)s.last_step);
	printf("  %-24s %llu\n", "given back", (unsigned long long)s.given_back);
	if (s.backoff)
		printf("  %-24s 1/%u, %u rounds to hold\n", "back-off", 1u << s.backoff, s.hold);
	else
		printf("  %-24s none\n", "back-off");
}
