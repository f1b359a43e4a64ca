// SPDX-License-Identifier: GPL-2.0-only
/* One round of proactive reclaim. The timer fires every minute; each
 * slice keeps its own pace with ReclaimInterval= and a stamp in /run. */
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

struct round {
	unsigned configured;
};

static void reclaim_target(struct tune *t, const struct target *tg, void *userdata)
{
	struct round *round = userdata;
	struct conf_resolved res;
	uint64_t amount, interval, now, last, current;
	char stamp[PATH_MAX], path[PATH_MAX + 32], req[64], line[80];
	const char *file;
	unsigned lineno;
	int e;

	conf_resolve_slice(&t->conf, tg->slice, t->policy, &res);
	if (!res.set[KEY_PROACTIVE_RECLAIM])
		return;
	round->configured++;
	file = res.file[KEY_PROACTIVE_RECLAIM];
	lineno = res.line[KEY_PROACTIVE_RECLAIM];
	if (!tg->exists) {
		log_notice("%s skipped: no cgroup at %s", tg->slice, tg->cgroup);
		return;
	}
	if (tune_size_bytes(t, &res.val[KEY_PROACTIVE_RECLAIM].size, &amount) < 0 || amount == 0)
		return;
	interval = res.set[KEY_RECLAIM_INTERVAL] ? res.val[KEY_RECLAIM_INTERVAL].num
						 : DEFAULT_INTERVAL_MS;
	snprintf(stamp, sizeof(stamp), STATE_DIR "/" STAMP_PREFIX "%s" STAMP_SUFFIX, tg->slice);
	now = boottime_ms();
	if (read_u64(t->root, stamp, &last) == 0 && last <= now &&
	    now - last + TIMER_SLACK_MS < interval) {
		unsigned long long left = (interval - (now - last)) / 1000;

		if (t->mode == MODE_DRY_RUN)
			printf("%s: not due, next round in %llus\n", tg->slice, left);
		else
			log_info("%s: not due, next round in %llus", tg->slice, left);
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
		snprintf(req, sizeof(req), "%llu", (unsigned long long)amount);
		if (res.set[KEY_RECLAIM_SWAPPINESS])
			snprintf(req + strlen(req), sizeof(req) - strlen(req), " swappiness=%u",
				 (unsigned)res.val[KEY_RECLAIM_SWAPPINESS].num);
		snprintf(path, sizeof(path), "%s/memory.reclaim", tg->cgroup);
		if (t->mode == MODE_DRY_RUN) {
			printf("%s: %s (%s:%u)\n", path, req, file, lineno);
			return;
		}
		snprintf(line, sizeof(line), "%s\n", req);
		e = write_value(t->root, path, line);
		if (e == -EAGAIN) {
			log_notice("%s: reclaimed less than the %s asked for", tg->slice, req);
		} else if (e < 0) {
			runtime_error(t, "cannot write %s: %s", path, strerror(-e));
			return;
		} else {
			log_info("%s: reclaimed %s", tg->slice, req);
		}
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
