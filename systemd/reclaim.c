// SPDX-License-Identifier: GPL-2.0-only
/* One round of proactive reclaim. The timer fires every minute; each
 * slice keeps its own pace with ReclaimInterval= and a stamp in /run (or,
 * with ProactiveReclaim=auto, the state of its loop: reclaim-auto.c).
 *
 * A timer rather than a service that stays: a round is a few reads and
 * at most one write per slice, a minute apart, and the loop needs no
 * more than its state between rounds, which /run keeps across rounds as
 * it would across restarts of a daemon. A oneshot holds no memory
 * between rounds, cannot leak or wedge for longer than one round
 * (TimeoutStartSec=), and every round reads the configuration afresh,
 * with nothing to reload. What a resident loop would add is pace: the
 * kernel's stall counters move within seconds, and senpai-style tools
 * step every few seconds. A step here is bounded instead (a small share
 * of the slice, ReclaimMax=), so that a minute between looks at the
 * pressure is safe, and ReclaimInterval= slows it further where wanted. */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "fsio.h"
#include "log.h"
#include "tune.h"

#define DEFAULT_INTERVAL_MS 60000ull
/* A timer set to the same period as ReclaimInterval= would otherwise
 * find the slice a few milliseconds short of due every other round. */
#define TIMER_SLACK_MS 2000ull

static uint64_t boottime_ms(void)
{
	struct timespec ts;

	/* Boot time keeps counting in suspend, and /run starts empty at
	 * boot, so a stamp is never from another clock's epoch. */
	clock_gettime(CLOCK_BOOTTIME, &ts);
	return (uint64_t)ts.tv_sec * 1000 + (uint64_t)ts.tv_nsec / 1000000;
}

uint64_t reclaim_interval_ms(const struct conf_resolved *res)
{
	return res->set[KEY_RECLAIM_INTERVAL] ? res->val[KEY_RECLAIM_INTERVAL].num
					      : DEFAULT_INTERVAL_MS;
}

uint64_t reclaim_wait_ms(uint64_t last_ms, uint64_t now_ms, uint64_t interval_ms)
{
	if (last_ms > now_ms || now_ms - last_ms + TIMER_SLACK_MS >= interval_ms)
		return 0;
	return interval_ms - (now_ms - last_ms);
}

void reclaim_request(const struct conf_resolved *res, uint64_t amount, char *req, size_t n)
{
	int w = snprintf(req, n, "%llu", (unsigned long long)amount);

	if (res->set[KEY_RECLAIM_SWAPPINESS] && w > 0 && (size_t)w < n)
		snprintf(req + w, n - (size_t)w, " swappiness=%u",
			 (unsigned)res->val[KEY_RECLAIM_SWAPPINESS].num);
}

int reclaim_write(struct tune *t, const struct target *tg, const char *req)
{
	char path[PATH_MAX + 32], line[80];
	int e;

	snprintf(path, sizeof(path), "%s/memory.reclaim", tg->cgroup);
	snprintf(line, sizeof(line), "%s\n", req);
	e = write_value(t->root, path, line);
	if (e < 0 && e != -EAGAIN)
		runtime_error(t, "cannot write %s: %s", path, strerror(-e));
	return e;
}

struct round {
	unsigned configured;
};

static void reclaim_target(struct tune *t, const struct target *tg, void *userdata)
{
	struct round *round = userdata;
	struct conf_resolved res;
	uint64_t amount, now, last, left, current;
	char stamp[PATH_MAX], path[PATH_MAX + 32], req[64], line[80];
	const char *file;
	unsigned lineno;
	int e;

	conf_resolve_slice(&t->conf, tg->slice, t->policy, &res);
	if (!res.set[KEY_PROACTIVE_RECLAIM])
		return;
	round->configured++;
	/* its conflicts were reported when the files were read */
	if (!conf_slice_consistent(&res, tg->slice, t->mem_total))
		return;
	if (res.val[KEY_PROACTIVE_RECLAIM].is_auto) {
		reclaim_auto(t, tg, &res);
		return;
	}
	file = res.file[KEY_PROACTIVE_RECLAIM];
	lineno = res.line[KEY_PROACTIVE_RECLAIM];
	if (!tg->exists) {
		log_notice("%s skipped: no cgroup at %s", tg->slice, tg->cgroup);
		return;
	}
	if (tune_size_bytes(t, &res.val[KEY_PROACTIVE_RECLAIM].size, &amount) < 0 || amount == 0)
		return;
	snprintf(stamp, sizeof(stamp), STATE_DIR "/" STAMP_PREFIX "%s" STAMP_SUFFIX, tg->slice);
	now = boottime_ms();
	if (read_u64(t->root, stamp, &last) == 0 &&
	    (left = reclaim_wait_ms(last, now, reclaim_interval_ms(&res))) > 0) {
		if (t->mode == MODE_DRY_RUN)
			printf("%s: not due, next round in %llus\n", tg->slice,
			       (unsigned long long)left / 1000);
		else
			log_info("%s: not due, next round in %llus", tg->slice,
				 (unsigned long long)left / 1000);
		return;
	}
	/* Asking for more than the cgroup holds only makes the kernel retry
	 * and then fail with EAGAIN. */
	snprintf(path, sizeof(path), "%s/memory.current", tg->cgroup);
	if (read_u64(t->root, path, &current) == 0 && current < amount)
		amount = current;
	if (amount == 0) {
		log_info("%s: nothing to reclaim", tg->slice);
	} else {
		reclaim_request(&res, amount, req, sizeof(req));
		if (t->mode == MODE_DRY_RUN) {
			printf("%s/memory.reclaim: %s (%s:%u)\n", tg->cgroup, req, file, lineno);
			return;
		}
		e = reclaim_write(t, tg, req);
		if (e == -EAGAIN)
			log_notice("%s: reclaimed less than the %s asked for", tg->slice, req);
		else if (e < 0)
			return;
		else
			log_info("%s: reclaimed %s", tg->slice, req);
	}
	if (t->mode == MODE_DRY_RUN)
		return;
	snprintf(line, sizeof(line), "%llu\n", (unsigned long long)now);
	e = write_file_atomic(t->root, stamp, line);
	if (e < 0)
		log_warning("cannot write %s: %s", stamp, strerror(-e));
}

int cmd_reclaim(struct tune *t)
{
	struct round round = { 0 };

	tune_for_each_target(t, reclaim_target, &round);
	if (!round.configured)
		log_info("no slice has ProactiveReclaim=, nothing to do");
	return 0;
}
