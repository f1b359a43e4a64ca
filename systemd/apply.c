// SPDX-License-Identifier: GPL-2.0-only
/* apply, --dry-run and --check walk one plan; they differ only in what
 * they do with an item that is not as configured: write it, print it, or
 * count it as drift. */
#include <dirent.h>
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "fsio.h"
#include "log.h"
#include "tune.h"
#include "util.h"

struct run {
	struct tune *t;
	unsigned changes;
	unsigned drift;
	bool dropins_changed;	/* a drop-in was written or removed */
	bool pending;		/* the reload marker existed before this run */
	int memcg_policy;	/* memory.lru_gen_policy: 0 not looked for, 1 there, -1 not */
};

static void say_change(struct run *r, const char *what, const char *old, const char *new,
		       const char *file, unsigned line, const char *extra)
{
	char src[PATH_MAX + 32];

	if (file)
		snprintf(src, sizeof(src), "%s:%u", file, line);
	else
		snprintf(src, sizeof(src), "no longer configured");
	if (r->t->mode == MODE_DRY_RUN)
		printf("%s: %s -> %s (%s%s)\n", what, old, new, src, extra);
	else if (r->t->mode == MODE_APPLY)
		log_info("%s: %s -> %s (%s)", what, old, new, src);
}

static void say_same(struct run *r, const char *what, const char *value, const char *file,
		     unsigned line)
{
	if (r->t->mode == MODE_DRY_RUN)
		printf("%s: %s (unchanged, %s:%u)\n", what, value, file, line);
}

static void drift(struct run *r, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

static void drift(struct run *r, const char *fmt, ...)
{
	va_list ap;

	fputs("drift: ", stdout);
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	putchar('\n');
	r->drift++;
}

static void plan_min_ttl(struct run *r, const struct conf_resolved *g)
{
	struct tune *t = r->t;
	uint64_t cur, want = g->val[KEY_MIN_TTL].num;
	const char *file = g->file[KEY_MIN_TTL];
	unsigned line = g->line[KEY_MIN_TTL];
	char old[32], new[32];
	int e;

	if (t->policy == POLICY_CLASSIC) {
		log_notice("MinTTL= skipped: the running policy is classic (%s:%u)", file, line);
		return;
	}
	e = read_u64(t->root, LRU_GEN_DIR "/min_ttl_ms", &cur);
	if (e < 0) {
		runtime_error(t, "cannot read " LRU_GEN_DIR "/min_ttl_ms: %s", strerror(-e));
		return;
	}
	snprintf(old, sizeof(old), "%llu", (unsigned long long)cur);
	snprintf(new, sizeof(new), "%llu", (unsigned long long)want);
	if (min_ttl_same(cur, want)) {
		say_same(r, "min_ttl_ms", old, file, line);
		return;
	}
	if (t->mode == MODE_CHECK) {
		drift(r, "min_ttl_ms: %s, want %s (%s:%u)", old, new, file, line);
		return;
	}
	if (t->mode == MODE_APPLY) {
		char buf[40];

		/* Without the old value on record, revert could not undo this. */
		e = min_ttl_save(t, cur, want);
		if (e < 0) {
			runtime_error(t, "cannot write " MIN_TTL_SAVED ": %s; min_ttl_ms left at %s",
				      strerror(-e), old);
			return;
		}
		snprintf(buf, sizeof(buf), "%s\n", new);
		e = write_value(t->root, LRU_GEN_DIR "/min_ttl_ms", buf);
		if (e < 0) {
			runtime_error(t, "cannot write " LRU_GEN_DIR "/min_ttl_ms: %s", strerror(-e));
			return;
		}
	}
	say_change(r, "min_ttl_ms", old, new, file, line, "");
	r->changes++;
}

/* MinTTL= no longer configured (removed, emptied, or not counting under
 * the running policy): min_ttl_ms goes back to the value on record from
 * before the first apply, as revert puts it back, unless someone has set
 * it since; the record goes either way. Without this, apply said
 * "nothing to change" and --check "no drift" while our value stayed. */
static void restore_min_ttl(struct run *r)
{
	struct tune *t = r->t;
	uint64_t cur, orig;
	char old[32], new[32];
	int e = min_ttl_restorable(t, &cur, &orig);

	if (e == -ENOENT)
		return;
	if (e < 0) {
		runtime_error(t, "cannot read " MIN_TTL_SAVED ": %s", strerror(-e));
		return;
	}
	if (e > 0) {
		snprintf(old, sizeof(old), "%llu", (unsigned long long)cur);
		snprintf(new, sizeof(new), "%llu", (unsigned long long)orig);
		if (t->mode == MODE_CHECK) {
			drift(r, "min_ttl_ms: %s, want %s (MinTTL= no longer configured: the value "
			      "from before mglru-fg-tune)", old, new);
			return;
		}
		if (t->mode == MODE_APPLY) {
			char buf[40];

			snprintf(buf, sizeof(buf), "%s\n", new);
			e = write_value(t->root, LRU_GEN_DIR "/min_ttl_ms", buf);
			if (e < 0) {
				/* The record stays, so that the next run can still restore it. */
				runtime_error(t, "cannot write " LRU_GEN_DIR "/min_ttl_ms: %s",
					      strerror(-e));
				return;
			}
		}
		say_change(r, "min_ttl_ms", old, new, NULL, 0, "");
		r->changes++;
	}
	if (t->mode == MODE_APPLY && (e = remove_file(t->root, MIN_TTL_SAVED)) < 0 && e != -ENOENT)
		log_warning("cannot remove " MIN_TTL_SAVED ": %s", strerror(-e));
}

/* The value a drop-in holds for k, as systemd will read it. */
static int dropin_value(struct tune *t, const struct conf_resolved *res, enum conf_key k,
			char *buf, size_t n)
{
	uint64_t bytes;

	if (conf_key_is_size(k)) {
		if (tune_size_bytes(t, &res->val[k].size, &bytes) < 0)
			return -1;
		format_bytes(bytes, buf, n);
	} else if (k == KEY_OOM_PRESSURE) {
		snprintf(buf, n, "%s", oom_mode_name((enum oom_mode)res->val[k].num));
	} else {
		format_percent((uint32_t)res->val[k].num, buf, n);
	}
	return 0;
}

/* NULL (and 0) when nothing is configured, so no drop-in should exist. */
static int render_dropin(struct tune *t, const struct conf_resolved *res, char **out)
{
	char *text = NULL, value[64];
	size_t size = 0;
	bool any = false;
	FILE *f;

	*out = NULL;
	for (int k = KEY_FIRST_DROPIN; k <= KEY_LAST_DROPIN; k++)
		any |= res->set[k];
	if (!any)
		return 0;
	f = open_memstream(&text, &size);
	if (!f) {
		runtime_error(t, "open_memstream: %s", strerror(errno));
		return -1;
	}
	fputs("# Written by mglru-fg-tune(8) from mglru-fg-tune.conf(5). Do not edit:\n"
	      "# the next \"mglru-fg-tune apply\" replaces or removes this file.\n"
	      "[Slice]\n", f);
	for (int k = KEY_FIRST_DROPIN; k <= KEY_LAST_DROPIN; k++) {
		if (!res->set[k])
			continue;
		if (dropin_value(t, res, (enum conf_key)k, value, sizeof(value)) < 0) {
			fclose(f);
			free(text);
			return -1;
		}
		fprintf(f, "%s=%s\n", conf_key_name((enum conf_key)k), value);
	}
	fclose(f);
	*out = text;
	return 0;
}

static bool dropin_lookup(const char *text, const char *key, char *buf, size_t n)
{
	size_t klen = strlen(key);

	for (const char *l = text; l && *l; l = strchr(l, '\n'), l = l ? l + 1 : NULL) {
		if (strncmp(l, key, klen) == 0 && l[klen] == '=') {
			size_t vlen = strcspn(l + klen + 1, "\n");

			snprintf(buf, n, "%.*s", (int)vlen, l + klen + 1);
			return true;
		}
	}
	return false;
}

/* After the first drop-in that changed, not before: a marker for a write
 * that then failed (ENOSPC) made the next run reload for nothing and
 * count that as a change. The price is a window of one system call: if
 * we are killed right after the rename, no marker says a reload is owed
 * (the next boot, or any daemon-reload, still picks the drop-in up). */
static void dropin_changed(struct run *r)
{
	r->changes++;
	if (!r->dropins_changed)
		reload_mark(r->t);
	r->dropins_changed = true;
}

struct now {
	const char *file;	/* memory.max etc. */
	char value[64], slice[UNIT_NAME_MAX + 1];
	unsigned n;
	bool same;
};

static void now_target(struct tune *t, const struct target *tg, void *userdata)
{
	struct now *w = userdata;
	char path[PATH_MAX + 32], v[64];

	snprintf(path, sizeof(path), "%s/%s", tg->cgroup, w->file);
	if (!tg->exists || read_value(t->root, path, v, sizeof(v)) < 0)
		return;
	if (w->n++ == 0) {
		snprintf(w->value, sizeof(w->value), "%s", v);
		snprintf(w->slice, sizeof(w->slice), "%s", tg->slice);
		w->same = true;
	} else if (strcmp(w->value, v) != 0) {
		w->same = false;
	}
}

/* What the cgroups a section decides show now. For a prefix these are
 * the matching slices (its drop-in applies to them), not the parent
 * slice whose directory they live in. */
static void show_now(struct run *r, long section, const char *file, char *buf, size_t n)
{
	struct now w = { .file = file };

	tune_for_section(r->t, section, now_target, &w);
	if (w.n == 0)
		return;
	if (!r->t->conf.slices[section].is_prefix)
		snprintf(buf, n, "; %s now %s", file, w.value);
	else if (w.n == 1)
		snprintf(buf, n, "; %s now %s in %s", file, w.value, w.slice);
	else if (w.same)
		snprintf(buf, n, "; %s now %s in %u slices", file, w.value, w.n);
	else
		snprintf(buf, n, "; %s now varies across %u slices", file, w.n);
}

/* Per property: "old" is what our drop-in says now, since that is what
 * apply replaces; dry-run adds what the cgroups show. */
static void show_properties(struct run *r, long section, const struct conf_resolved *res,
			    const char *old)
{
	struct tune *t = r->t;
	const char *slice = t->conf.slices[section].name;

	for (int k = KEY_FIRST_DROPIN; k <= KEY_LAST_DROPIN; k++) {
		char what[UNIT_NAME_MAX + 64], oldv[64] = "-", newv[64] = "-",
		     extra[UNIT_NAME_MAX + 128] = "";
		bool has_old = old && dropin_lookup(old, conf_key_name((enum conf_key)k), oldv, sizeof(oldv));

		if (!res->set[k] && !has_old)
			continue;
		if (res->set[k] && dropin_value(t, res, (enum conf_key)k, newv, sizeof(newv)) < 0)
			return;
		snprintf(what, sizeof(what), "%s %s", slice, conf_key_name((enum conf_key)k));
		if (strcmp(oldv, newv) == 0) {
			say_same(r, what, newv, res->file[k], res->line[k]);
			continue;
		}
		for (size_t i = 0; t->mode == MODE_DRY_RUN && i < ARRAY_SIZE(cgroup_files); i++)
			if (cgroup_files[i].key == (enum conf_key)k)
				show_now(r, section, cgroup_files[i].name, extra, sizeof(extra));
		say_change(r, what, oldv, newv, res->set[k] ? res->file[k] : NULL, res->line[k], extra);
	}
}

/* Every configured slice, active or not: systemd reads a drop-in when the
 * slice starts, so one written at boot covers user-1000.slice later. */
static void plan_dropin(struct run *r, long section)
{
	struct tune *t = r->t;
	const struct conf_section *s = &t->conf.slices[section];
	struct conf_resolved res;
	char path[PATH_MAX], *want, *old = NULL;
	int e;

	if (dropin_path(s->name, path, sizeof(path)) < 0) {
		runtime_error(t, "%s: drop-in path too long", s->name);
		return;
	}
	conf_resolve_slice(&t->conf, s->name, t->policy, &res);
	if (render_dropin(t, &res, &want) < 0)
		return;
	e = read_file(t->root, path, CONF_FILE_MAX, &old, NULL);
	if (e < 0 && e != -ENOENT) {
		runtime_error(t, "cannot read %s: %s", path, strerror(-e));
		free(want);
		return;
	}
	if ((!want && !old) || (want && old && strcmp(want, old) == 0)) {
		show_properties(r, section, &res, old);
		goto out;
	}
	switch (t->mode) {
	case MODE_CHECK:
		drift(r, "%s: %s", path, !old ? "missing" : !want ? "left over, nothing configured" :
			  "differs from the configuration");
		break;
	case MODE_DRY_RUN:
		show_properties(r, section, &res, old);
		printf("%s %s\n", want ? "write" : "remove", path);
		r->changes++;
		r->dropins_changed = true;
		break;
	case MODE_APPLY:
		/* The properties are logged only once they are on disk. */
		e = want ? write_file_atomic(t->root, path, want) : dropin_remove(t, path);
		if (e < 0) {
			runtime_error(t, "cannot %s %s: %s", want ? "write" : "remove", path,
				      strerror(-e));
			break;
		}
		show_properties(r, section, &res, old);
		log_info("%s %s", want ? "wrote" : "removed", path);
		dropin_changed(r);
		break;
	}
out:
	free(want);
	free(old);
}

static bool configured(const struct conf *c, const char *slice)
{
	long i = conf_section_for(c, slice);

	return i >= 0 && strcmp(c->slices[i].name, slice) == 0;
}

/* Drop-ins of slices that left the configuration. */
static void plan_stale(struct run *r)
{
	struct tune *t = r->t;
	size_t n;
	char **names = dropin_slices(t, &n);

	for (size_t i = 0; i < n; i++) {
		char path[PATH_MAX];
		int e;

		if (configured(&t->conf, names[i]) || dropin_path(names[i], path, sizeof(path)) < 0 ||
		    !path_exists(t->root, path))
			continue;
		if (t->mode == MODE_CHECK) {
			drift(r, "%s: left over, %s is no longer configured", path, names[i]);
		} else if (t->mode == MODE_DRY_RUN) {
			printf("remove %s (%s is no longer configured)\n", path, names[i]);
			r->changes++;
			r->dropins_changed = true;
		} else if ((e = dropin_remove(t, path)) < 0) {
			runtime_error(t, "cannot remove %s: %s", path, strerror(-e));
		} else {
			log_info("removed %s", path);
			dropin_changed(r);
		}
	}
	free_strv(names, n);
}

static void check_target(struct tune *t, const struct target *tg, void *userdata)
{
	struct run *r = userdata;
	struct conf_resolved res;

	if (!tg->exists || slice_is_root(tg->slice))
		return;
	conf_resolve_slice(&t->conf, tg->slice, t->policy, &res);
	for (size_t i = 0; i < ARRAY_SIZE(cgroup_files); i++) {
		enum conf_key k = cgroup_files[i].key;
		char path[PATH_MAX + 32], want[32], cur[64];
		uint64_t bytes;
		int e;

		if (!res.set[k] || tune_size_bytes(t, &res.val[k].size, &bytes) < 0)
			continue;
		cgroup_shown_value(bytes, t->page_size, want, sizeof(want));
		snprintf(path, sizeof(path), "%s/%s", tg->cgroup, cgroup_files[i].name);
		e = read_value(t->root, path, cur, sizeof(cur));
		if (e < 0)
			drift(r, "%s %s: unreadable (%s), want %s (%s:%u)", tg->slice,
			      cgroup_files[i].name, strerror(-e), want, res.file[k], res.line[k]);
		else if (strcmp(cur, want) != 0)
			drift(r, "%s %s: %s, want %s (%s:%u)", tg->slice, cgroup_files[i].name, cur,
			      want, res.file[k], res.line[k]);
	}
}

/* Policy=: a slice's own memcg is charged only for pages its processes
 * charged before they moved into units, or for the pages of a child
 * without +memory in the slice's subtree_control; until then the kernel
 * takes a new policy at any time, and the units started in it afterwards
 * inherit it; running ones keep theirs. Once charged, the slice is sealed
 * (EBUSY, reported below). A slice with no cgroup yet is started first,
 * so that it is empty when it takes the policy. */
static void write_policy(struct run *r, const struct target *tg, const struct conf_resolved *res,
			 enum policy cur, enum policy want)
{
	struct tune *t = r->t;
	const char *file = res->file[KEY_POLICY];
	unsigned line = res->line[KEY_POLICY];
	char what[UNIT_NAME_MAX + 16], path[PATH_MAX + 32];
	int e;

	snprintf(what, sizeof(what), "%s Policy", tg->slice);
	if (t->mode == MODE_CHECK) {
		drift(r, "%s memory.lru_gen_policy: %s, want %s (%s:%u)", tg->slice,
		      policy_name(cur), policy_name(want), file, line);
		return;
	}
	if (t->mode == MODE_APPLY) {
		/* Without the old policy on record, revert could not undo this. */
		e = policy_save(t, tg->slice, cur, want);
		if (e < 0) {
			runtime_error(t, "cannot record %s's policy: %s; it stays %s", tg->slice,
				      strerror(-e), policy_name(cur));
			return;
		}
		snprintf(path, sizeof(path), "%s/memory.lru_gen_policy", tg->cgroup);
		e = write_value(t->root, path, policy_name(want));
		if (e == -EBUSY) {
			runtime_error(t, "%s: the kernel keeps %s (EBUSY): pages were charged to the "
				      "slice's own cgroup, which fixes its policy", tg->slice,
				      policy_name(cur));
			return;
		}
		if (e < 0) {
			runtime_error(t, "cannot write %s: %s", path, strerror(-e));
			return;
		}
	}
	say_change(r, what, policy_name(cur), policy_name(want), file, line, "");
	r->changes++;
}

/* A kernel with the per-memcg policy shows memory.lru_gen_policy in
 * every cgroup but the root, one without it in none: the root's children
 * tell, before a slice is started for a file it would not have either.
 * Looked for once a run, and said once. */
static bool memcg_policy_available(struct run *r)
{
	struct tune *t = r->t;
	char real[PATH_MAX];
	struct dirent *de;
	DIR *d;

	if (r->memcg_policy)
		return r->memcg_policy > 0;
	r->memcg_policy = -1;
	if (path_join(t->root, CGROUP_ROOT, real, sizeof(real)) == 0 && (d = opendir(real))) {
		while (r->memcg_policy < 0 && (de = readdir(d))) {
			char path[PATH_MAX];

			if (de->d_name[0] != '.' &&
			    (size_t)snprintf(path, sizeof(path), CGROUP_ROOT "/%s/memory.lru_gen_policy",
					     de->d_name) < sizeof(path) &&
			    path_exists(t->root, path))
				r->memcg_policy = 1;
		}
		closedir(d);
	}
	if (r->memcg_policy < 0)
		log_warning("no cgroup below " CGROUP_ROOT " has memory.lru_gen_policy (a kernel "
			    "without the per-memcg policy): Policy= and ExpectPolicy= ignored, no "
			    "slice started");
	return r->memcg_policy > 0;
}

static void policy_target(struct tune *t, const struct target *tg, void *userdata)
{
	struct run *r = userdata;
	struct conf_resolved res;
	struct target started = *tg;
	char msg[PATH_MAX + 2 * UNIT_NAME_MAX];
	enum policy cur;
	int e;

	conf_resolve_slice(&t->conf, tg->slice, t->policy, &res);
	if (!res.set[KEY_POLICY] && !res.set[KEY_EXPECT_POLICY])
		return;
	if (t->policy == POLICY_CLASSIC) {
		log_notice("%s: Policy= and ExpectPolicy= skipped: the running policy is classic",
			   tg->slice);
		return;
	}
	if (!memcg_policy_available(r))
		return;
	if (!tg->exists) {
		if (!res.set[KEY_POLICY] || t->mode == MODE_CHECK)
			return;
		/* Planned as apply will find it: with no systemctl run, no
		 * cgroup appears, and the policy waits (below). */
		if (!tune_runs_systemctl(t)) {
			if (t->mode == MODE_DRY_RUN)
				printf("%s has no cgroup, and --root starts no unit: Policy= waits for "
				       "an apply on the running system\n", tg->slice);
			else
				log_notice("%s: no cgroup, and --root starts no unit: Policy= waits "
					   "for an apply on the running system", tg->slice);
			return;
		}
		if (t->mode == MODE_DRY_RUN) {
			printf("run systemctl start %s, then write its memory.lru_gen_policy: %s\n",
			       tg->slice, policy_name((enum policy)res.val[KEY_POLICY].num));
			r->changes++;
			return;
		}
		if (tune_systemctl_unit(t, "start", tg->slice) < 0)
			return;
		started.exists = path_is_dir(t->root, tg->cgroup);
		if (!started.exists) {
			log_notice("%s: no cgroup after systemctl start; Policy= waits for the next "
				   "apply", tg->slice);
			return;
		}
		tg = &started;
	}
	e = slice_policy_read(t, tg->cgroup, &cur);
	if (e == -ENOENT) {
		log_warning("%s: no memory.lru_gen_policy (a kernel without the per-memcg policy): "
			    "Policy= and ExpectPolicy= ignored", tg->slice);
		return;
	}
	if (e < 0) {
		runtime_error(t, "cannot read %s/memory.lru_gen_policy: %s", tg->cgroup, strerror(-e));
		return;
	}
	if (res.set[KEY_POLICY] && res.val[KEY_POLICY].num != cur) {
		write_policy(r, tg, &res, cur, (enum policy)res.val[KEY_POLICY].num);
		if (t->mode == MODE_APPLY && slice_policy_read(t, tg->cgroup, &cur) < 0)
			return;
	}
	if (!res.set[KEY_EXPECT_POLICY] || res.val[KEY_EXPECT_POLICY].num == cur ||
	    (t->mode == MODE_DRY_RUN && res.set[KEY_POLICY]))
		return;
	snprintf(msg, sizeof(msg), "%s follows %s, but ExpectPolicy=%s (%s:%u)", tg->slice,
		 policy_name(cur), policy_name((enum policy)res.val[KEY_EXPECT_POLICY].num),
		 res.file[KEY_EXPECT_POLICY], res.line[KEY_EXPECT_POLICY]);
	if (t->mode == MODE_CHECK)
		drift(r, "%s", msg);
	else
		log_warning("%s", msg);
}

/* Policy= no longer configured for a slice whose policy apply changed:
 * back to the one on record, as for MinTTL= above. */
static void restore_policy(struct run *r, const char *slice)
{
	struct tune *t = r->t;
	char cgroup[PATH_MAX], path[PATH_MAX + 32], what[UNIT_NAME_MAX + 16];
	enum policy orig, cur;
	int e = policy_restorable(t, slice, cgroup, sizeof(cgroup), &cur, &orig);

	if (e == -ENOENT)
		return;
	if (e < 0) {
		runtime_error(t, "cannot read the policy recorded for %s: %s", slice, strerror(-e));
		return;
	}
	if (e > 0) {
		if (t->mode == MODE_CHECK) {
			drift(r, "%s memory.lru_gen_policy: %s, want %s (Policy= no longer configured: "
			      "the policy from before mglru-fg-tune)", slice, policy_name(cur),
			      policy_name(orig));
			return;
		}
		if (t->mode == MODE_APPLY) {
			snprintf(path, sizeof(path), "%s/memory.lru_gen_policy", cgroup);
			e = write_value(t->root, path, policy_name(orig));
			if (e == -EBUSY) {
				runtime_error(t, "%s: the kernel keeps %s (EBUSY): pages were charged to "
					      "the slice's own cgroup, which fixes its policy", slice,
					      policy_name(cur));
				return;
			}
			if (e < 0) {
				runtime_error(t, "cannot write %s: %s", path, strerror(-e));
				return;
			}
		}
		snprintf(what, sizeof(what), "%s Policy", slice);
		say_change(r, what, policy_name(cur), policy_name(orig), NULL, 0, "");
		r->changes++;
	}
	if (t->mode == MODE_APPLY && (e = policy_forget(t, slice)) < 0)
		log_warning("cannot remove the policy recorded for %s: %s", slice, strerror(-e));
}

static void restore_policies(struct run *r)
{
	struct tune *t = r->t;
	size_t n;
	char **names = state_slices(t, POLICY_PREFIX, POLICY_SUFFIX, &n);

	for (size_t i = 0; i < n; i++) {
		struct conf_resolved res;

		/* still configured: policy_target() keeps it as configured */
		conf_resolve_slice(&t->conf, names[i], t->policy, &res);
		if (!res.set[KEY_POLICY])
			restore_policy(r, names[i]);
	}
	free_strv(names, n);
}

static void reload(struct run *r)
{
	struct tune *t = r->t;

	if (!r->dropins_changed && !r->pending)
		return;
	if (t->mode == MODE_CHECK) {
		drift(r, "systemd has not reloaded the drop-ins yet (" RELOAD_PENDING " exists)");
		return;
	}
	if (t->mode == MODE_DRY_RUN) {
		if (!r->dropins_changed)
			r->changes++;
		printf("run systemctl daemon-reload\n");
		return;
	}
	if (t->no_reload) {
		log_notice("--no-reload: not running systemctl daemon-reload; the next apply will");
		return;
	}
	if (!r->dropins_changed) {
		log_info("an earlier daemon-reload did not happen, reloading now");
		r->changes++;
	}
	reload_now(t);
}

/* Any file with an error, even one that only repeats what others say,
 * may be the one that holds a limit in force now: rebuilding the drop-ins
 * without it would drop that limit. So nothing changes until it is fixed. */
static int refuse_config_errors(struct tune *t)
{
	log_error("the configuration has errors in %u file%s: nothing is changed, drop-ins and "
		  "min_ttl_ms stay as they are", t->config_errors, t->config_errors == 1 ? "" : "s");
	if (t->mode == MODE_DRY_RUN)
		printf("nothing to change: the configuration has errors\n");
	else if (t->mode == MODE_CHECK)
		printf("not compared: the configuration has errors\n");
	return 0;
}

int cmd_apply(struct tune *t)
{
	struct run r = { .t = t };
	struct conf_resolved g;

	if (t->config_errors)
		return refuse_config_errors(t);
	r.pending = path_exists(t->root, RELOAD_PENDING);
	conf_resolve_global(&t->conf, t->policy, &g);
	if (g.set[KEY_EXPECT_POLICY] && g.val[KEY_EXPECT_POLICY].num != t->policy)
		log_warning("the running policy is %s, but ExpectPolicy=%s (%s:%u)",
			    policy_name(t->policy),
			    policy_name((enum policy)g.val[KEY_EXPECT_POLICY].num),
			    g.file[KEY_EXPECT_POLICY], g.line[KEY_EXPECT_POLICY]);
	if (g.set[KEY_MIN_TTL])
		plan_min_ttl(&r, &g);
	else
		restore_min_ttl(&r);

	for (size_t i = 0; i < t->conf.n_slices; i++)
		plan_dropin(&r, (long)i);
	plan_stale(&r);
	if (t->mode == MODE_CHECK)
		tune_for_each_target(t, check_target, &r);
	reload(&r);
	/* before ExpectPolicy= is compared, which sees the restored policy */
	restore_policies(&r);
	/* after the reload: a slice started here gets its drop-in's limits */
	tune_for_each_target(t, policy_target, &r);
	t->changes = r.changes;

	switch (t->mode) {
	case MODE_CHECK:
		if (r.drift)
			printf("%u drifted item%s\n", r.drift, r.drift == 1 ? "" : "s");
		else
			printf("no drift\n");
		return r.drift ? EXIT_RUNTIME : 0;
	case MODE_DRY_RUN:
		if (r.changes)
			printf("%u change%s planned\n", r.changes, r.changes == 1 ? "" : "s");
		else
			printf("nothing to change\n");
		return 0;
	case MODE_APPLY:
		if (r.changes)
			log_info("%u change%s applied", r.changes, r.changes == 1 ? "" : "s");
		else if (!t->runtime_errors)
			log_info("nothing to change");
		return 0;
	}
	return 0;
}
