// SPDX-License-Identifier: GPL-2.0-only
/* revert: undo apply, for package removal. The /run drop-ins and
 * min_ttl_ms would otherwise stay in force until the next boot. It reads
 * no configuration (which may be broken, or already gone) and needs no
 * multi-gen LRU: what it removes is what state.c says apply left. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "fsio.h"
#include "log.h"
#include "tune.h"
#include "util.h"

struct undo {
	struct tune *t;
	unsigned changes;
	bool dropins_removed;
};

/* Prints the step under --dry-run, does it otherwise. */
static void step_remove(struct undo *u, const char *path)
{
	struct tune *t = u->t;
	int e;

	u->changes++;
	if (t->mode == MODE_DRY_RUN) {
		printf("remove %s\n", path);
		return;
	}
	e = remove_file(t->root, path);
	if (e < 0 && e != -ENOENT) {
		u->changes--;
		runtime_error(t, "cannot remove %s: %s", path, strerror(-e));
		return;
	}
	log_info("removed %s", path);
}

/* Back to the value from before the first apply, unless someone else has
 * set it since: then theirs is the one to keep. */
static void revert_min_ttl(struct undo *u)
{
	struct tune *t = u->t;
	uint64_t orig, cur;
	char buf[40];
	int e = min_ttl_restorable(t, &cur, &orig);

	if (e == -ENOENT)
		return;
	if (e < 0) {
		runtime_error(t, "cannot read " MIN_TTL_SAVED ": %s", strerror(-e));
		return;
	}
	if (e > 0 && t->mode == MODE_DRY_RUN) {
		printf("min_ttl_ms: %llu -> %llu (as before mglru-fg-tune)\n",
		       (unsigned long long)cur, (unsigned long long)orig);
		u->changes++;
	} else if (e > 0) {
		snprintf(buf, sizeof(buf), "%llu\n", (unsigned long long)orig);
		e = write_value(t->root, LRU_GEN_DIR "/min_ttl_ms", buf);
		if (e < 0) {
			/* The record stays, so that a second try can still restore it. */
			runtime_error(t, "cannot write " LRU_GEN_DIR "/min_ttl_ms: %s", strerror(-e));
			return;
		}
		log_info("min_ttl_ms: %llu -> %llu (as before mglru-fg-tune)",
			 (unsigned long long)cur, (unsigned long long)orig);
		u->changes++;
	}
	if (t->mode == MODE_APPLY && (e = remove_file(t->root, MIN_TTL_SAVED)) < 0 && e != -ENOENT)
		log_warning("cannot remove " MIN_TTL_SAVED ": %s", strerror(-e));
}

/* One slice's policy back to the one before the first apply, unless
 * someone has changed it since; the record goes either way. */
static void revert_policy(struct undo *u, const char *slice)
{
	struct tune *t = u->t;
	char cgroup[PATH_MAX], path[PATH_MAX + 32];
	enum policy orig, cur;
	int e = policy_restorable(t, slice, cgroup, sizeof(cgroup), &cur, &orig);

	if (e == -ENOENT)
		return;
	if (e < 0) {
		runtime_error(t, "cannot read the policy recorded for %s: %s", slice, strerror(-e));
		return;
	}
	if (e > 0 && t->mode == MODE_DRY_RUN) {
		printf("%s Policy: %s -> %s (as before mglru-fg-tune)\n", slice, policy_name(cur),
		       policy_name(orig));
		u->changes++;
	} else if (e > 0) {
		snprintf(path, sizeof(path), "%s/memory.lru_gen_policy", cgroup);
		e = write_value(t->root, path, policy_name(orig));
		if (e < 0) {
			/* The record stays, so that a second try can still restore it. */
			runtime_error(t, "cannot write %s: %s", path, strerror(-e));
			return;
		}
		log_info("%s Policy: %s -> %s (as before mglru-fg-tune)", slice, policy_name(cur),
			 policy_name(orig));
		u->changes++;
	}
	if (t->mode == MODE_APPLY && (e = policy_forget(t, slice)) < 0)
		log_warning("cannot remove the policy recorded for %s: %s", slice, strerror(-e));
}

static void revert_policies(struct undo *u)
{
	size_t n;
	char **names = state_slices(u->t, POLICY_PREFIX, POLICY_SUFFIX, &n);

	for (size_t i = 0; i < n; i++)
		revert_policy(u, names[i]);
	free_strv(names, n);
}

static void revert_dropins(struct undo *u)
{
	struct tune *t = u->t;
	size_t n;
	char **names = dropin_slices(t, &n);

	for (size_t i = 0; i < n; i++) {
		char path[PATH_MAX];
		int e;

		if (dropin_path(names[i], path, sizeof(path)) < 0 || !path_exists(t->root, path))
			continue;
		u->changes++;
		u->dropins_removed = true;
		if (t->mode == MODE_DRY_RUN) {
			printf("remove %s\n", path);
		} else if ((e = dropin_remove(t, path)) < 0) {
			u->changes--;
			runtime_error(t, "cannot remove %s: %s", path, strerror(-e));
		} else {
			log_info("removed %s", path);
		}
	}
	free_strv(names, n);
}

/* The reclaim stamps and the states of ProactiveReclaim=auto: only the
 * next reclaim round would read them. */
static void revert_stamps(struct undo *u)
{
	static const char *const suffixes[] = { STAMP_SUFFIX, LOOP_STATE_SUFFIX };

	for (size_t k = 0; k < ARRAY_SIZE(suffixes); k++) {
		size_t n;
		char **names = state_slices(u->t, STAMP_PREFIX, suffixes[k], &n);

		for (size_t i = 0; i < n; i++) {
			char path[PATH_MAX];

			if ((size_t)snprintf(path, sizeof(path), STATE_DIR "/" STAMP_PREFIX "%s%s",
					     names[i], suffixes[k]) < sizeof(path))
				step_remove(u, path);
		}
		free_strv(names, n);
	}
}

static void revert_reload(struct undo *u)
{
	struct tune *t = u->t;
	bool pending = path_exists(t->root, RELOAD_PENDING);

	if (!u->dropins_removed && !pending)
		return;
	if (t->mode == MODE_DRY_RUN) {
		printf("run systemctl daemon-reload\n");
		return;
	}
	if (t->no_reload) {
		if (u->dropins_removed)
			reload_mark(t);
		log_notice("--no-reload: not running systemctl daemon-reload");
		return;
	}
	reload_now(t);
}

int cmd_revert(struct tune *t)
{
	struct undo u = { .t = t };
	char real[PATH_MAX];

	revert_min_ttl(&u);
	revert_policies(&u);
	revert_dropins(&u);
	revert_stamps(&u);
	revert_reload(&u);
	/* systemd made it (RuntimeDirectory=) but keeps it (...Preserve=yes);
	 * only if empty, since /run/mglru-fg/tune.d is configuration. */
	if (t->mode == MODE_APPLY && path_join(t->root, STATE_DIR, real, sizeof(real)) == 0)
		rmdir(real);
	t->changes = u.changes;
	if (t->mode == MODE_DRY_RUN && u.changes)
		printf("%u change%s planned\n", u.changes, u.changes == 1 ? "" : "s");
	else if (t->mode == MODE_DRY_RUN)
		printf("nothing to revert\n");
	else if (u.changes)
		log_info("%u change%s reverted", u.changes, u.changes == 1 ? "" : "s");
	else if (!t->runtime_errors)
		log_info("nothing to revert");
	return 0;
}
