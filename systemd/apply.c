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

/* The kernel keeps min_ttl_ms in jiffies and rounds up when storing it:
 * at HZ=100 a value can read back up to 9 ms larger than written. */
#define JIFFY_SLACK_MS 10

struct run {
	struct tune *t;
	unsigned changes;
	unsigned drift;
	bool dropins_changed;
	bool marker_written;
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
	if (cur >= want && cur - want < JIFFY_SLACK_MS) {
		say_same(r, "min_ttl_ms", old, file, line);
		return;
	}
	if (t->mode == MODE_CHECK) {
		drift(r, "min_ttl_ms: %s, want %s (%s:%u)", old, new, file, line);
		return;
	}
	if (t->mode == MODE_APPLY) {
		char buf[40];

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

static void mark_reload_pending(struct run *r)
{
	int e;

	if (r->marker_written)
		return;
	e = write_file_atomic(r->t->root, RELOAD_PENDING, "");
	if (e < 0)
		log_warning("cannot write " RELOAD_PENDING ": %s", strerror(-e));
	r->marker_written = true;
}

static void remove_dropin(struct run *r, const char *path)
{
	char dir[PATH_MAX], real[PATH_MAX];
	int e = remove_file(r->t->root, path);

	if (e < 0 && e != -ENOENT) {
		runtime_error(r->t, "cannot remove %s: %s", path, strerror(-e));
		return;
	}
	snprintf(dir, sizeof(dir), "%s", path);
	*strrchr(dir, '/') = '\0';
	/* Only if empty: the directory may hold the administrator's files. */
	if (path_join(r->t->root, dir, real, sizeof(real)) == 0)
		rmdir(real);
	log_info("removed %s", path);
}

/* Per property: "old" is what our drop-in says now, since that is what
 * apply replaces; dry-run adds what the cgroup shows. */
static void show_properties(struct run *r, const char *slice, const struct conf_resolved *res,
			    const char *old)
{
	struct tune *t = r->t;
	char cgdir[PATH_MAX];
	bool have_cg = slice_cgroup_dir(slice, cgdir, sizeof(cgdir)) == 0 &&
		       path_is_dir(t->root, cgdir);

	for (int k = KEY_FIRST_DROPIN; k <= KEY_LAST_DROPIN; k++) {
		char what[UNIT_NAME_MAX + 64], oldv[64] = "-", newv[64] = "-", extra[128] = "";
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
		for (size_t i = 0; have_cg && t->mode == MODE_DRY_RUN && i < ARRAY_SIZE(cgroup_files); i++) {
			char path[PATH_MAX + 32], now[64];

			if (cgroup_files[i].key != (enum conf_key)k)
				continue;
			snprintf(path, sizeof(path), "%s/%s", cgdir, cgroup_files[i].name);
			if (read_value(t->root, path, now, sizeof(now)) == 0)
				snprintf(extra, sizeof(extra), "; %s now %s", cgroup_files[i].name, now);
		}
		say_change(r, what, oldv, newv, res->set[k] ? res->file[k] : NULL, res->line[k], extra);
	}
}

static void plan_dropin(struct run *r, const struct conf_section *s)
{
	struct tune *t = r->t;
	struct conf_resolved res;
	char path[PATH_MAX], *want, *old = NULL;
	int e;

	conf_resolve_slice(&t->conf, s->name, t->policy, &res);
	snprintf(path, sizeof(path), DROPIN_DIR "/%s.d/" DROPIN_NAME, s->name);
	if (render_dropin(t, &res, &want) < 0)
		return;
	e = read_file(t->root, path, CONF_FILE_MAX, &old, NULL);
	if (e < 0 && e != -ENOENT) {
		runtime_error(t, "cannot read %s: %s", path, strerror(-e));
		free(want);
		return;
	}
	if ((!want && !old) || (want && old && strcmp(want, old) == 0)) {
		show_properties(r, s->name, &res, old);
		goto out;
	}
	switch (t->mode) {
	case MODE_CHECK:
		drift(r, "%s: %s", path, !old ? "missing" : !want ? "left over, nothing configured" :
			  "differs from the configuration");
		break;
	case MODE_DRY_RUN:
		show_properties(r, s->name, &res, old);
		printf("%s %s\n", want ? "write" : "remove", path);
		r->changes++;
		r->dropins_changed = true;
		break;
	case MODE_APPLY:
		show_properties(r, s->name, &res, old);
		mark_reload_pending(r);
		if (!want) {
			remove_dropin(r, path);
		} else if ((e = write_file_atomic(t->root, path, want)) < 0) {
			runtime_error(t, "cannot write %s: %s", path, strerror(-e));
			break;
		} else {
			log_info("wrote %s", path);
		}
		r->changes++;
		r->dropins_changed = true;
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

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Drop-ins of slices that left the configuration. Not while a file had
 * errors: the broken file may be the one that still wants them. */
static void plan_stale(struct run *r)
{
	struct tune *t = r->t;
	char real[PATH_MAX], **names = NULL;
	size_t n = 0, cap = 0;
	struct dirent *de;
	DIR *d;

	if (t->config_errors) {
		log_notice("the configuration has errors: keeping drop-ins of slices it no longer names");
		return;
	}
	if (path_join(t->root, DROPIN_DIR, real, sizeof(real)) < 0 || !(d = opendir(real)))
		return;
	while ((de = readdir(d))) {
		size_t len = strlen(de->d_name);

		if (len > 8 && strcmp(de->d_name + len - 8, ".slice.d") == 0) {
			names = grow(names, &cap, n, sizeof(*names));
			names[n++] = xstrndup(de->d_name, len - 2);
		}
	}
	closedir(d);
	if (n)
		qsort(names, n, sizeof(*names), cmp_str);
	for (size_t i = 0; i < n; i++) {
		char path[PATH_MAX];

		snprintf(path, sizeof(path), DROPIN_DIR "/%s.d/" DROPIN_NAME, names[i]);
		if (configured(&t->conf, names[i]) || !path_exists(t->root, path)) {
			free(names[i]);
			continue;
		}
		if (t->mode == MODE_CHECK) {
			drift(r, "%s: left over, %s is no longer configured", path, names[i]);
		} else if (t->mode == MODE_DRY_RUN) {
			printf("remove %s (%s is no longer configured)\n", path, names[i]);
			r->changes++;
			r->dropins_changed = true;
		} else {
			mark_reload_pending(r);
			remove_dropin(r, path);
			r->changes++;
			r->dropins_changed = true;
		}
		free(names[i]);
	}
	free(names);
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

static void reload(struct run *r)
{
	struct tune *t = r->t;
	bool pending = path_exists(t->root, RELOAD_PENDING);
	int e;

	if (!r->dropins_changed && !pending)
		return;
	if (t->mode == MODE_CHECK) {
		drift(r, "systemd has not reloaded the drop-ins yet (" RELOAD_PENDING " exists)");
		return;
	}
	if (!r->dropins_changed)
		r->changes++;
	if (t->mode == MODE_DRY_RUN) {
		printf("run systemctl daemon-reload\n");
		return;
	}
	if (t->no_reload) {
		mark_reload_pending(r);
		log_notice("--no-reload: not running systemctl daemon-reload; the next apply will");
		return;
	}
	if (!r->dropins_changed)
		log_info("an earlier daemon-reload did not happen, reloading now");
	if (tune_systemctl(t, "daemon-reload") < 0)
		return;
	e = remove_file(t->root, RELOAD_PENDING);
	if (e < 0 && e != -ENOENT)
		log_warning("cannot remove " RELOAD_PENDING ": %s", strerror(-e));
}

int cmd_apply(struct tune *t)
{
	struct run r = { .t = t };
	struct conf_resolved g;

	conf_resolve_global(&t->conf, t->policy, &g);
	if (g.set[KEY_EXPECT_POLICY] && g.val[KEY_EXPECT_POLICY].num != t->policy)
		log_warning("the running policy is %s, but ExpectPolicy=%s (%s:%u)",
			    policy_name(t->policy),
			    policy_name((enum policy)g.val[KEY_EXPECT_POLICY].num),
			    g.file[KEY_EXPECT_POLICY], g.line[KEY_EXPECT_POLICY]);
	if (g.set[KEY_MIN_TTL])
		plan_min_ttl(&r, &g);

	for (size_t i = 0; i < t->conf.n_slices; i++) {
		const struct conf_section *s = &t->conf.slices[i];
		char cg[PATH_MAX];

		if (slice_is_root(s->name))
			continue;
		if (slice_cgroup_dir(s->name, cg, sizeof(cg)) < 0) {
			runtime_error(t, "%s: cgroup path too long", s->name);
			continue;
		}
		if (!s->is_prefix && !path_is_dir(t->root, cg)) {
			log_notice("%s skipped: no cgroup at %s", s->name, cg);
			continue;
		}
		plan_dropin(&r, s);
	}
	plan_stale(&r);
	if (t->mode == MODE_CHECK)
		tune_for_each_target(t, check_target, &r);
	reload(&r);

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
