// SPDX-License-Identifier: GPL-2.0-only
/* A read-only picture of what reclaim is doing per configured slice. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fsio.h"
#include "tune.h"
#include "util.h"

static const char *const stat_keys[] = {
	"workingset_refault_anon",
	"workingset_refault_file",
	"pgscan",
	"pgsteal",
};

static void stat_value(const char *stat, const char *key, char *buf, size_t n)
{
	size_t klen = strlen(key);

	snprintf(buf, n, "-");
	for (const char *l = stat; l && *l; l = strchr(l, '\n'), l = l ? l + 1 : NULL)
		if (strncmp(l, key, klen) == 0 && l[klen] == ' ') {
			snprintf(buf, n, "%.*s", (int)strcspn(l + klen + 1, "\n"), l + klen + 1);
			return;
		}
}

static void status_target(struct tune *t, const struct target *tg, void *userdata)
{
	struct conf_resolved res;
	char path[PATH_MAX + 32], value[64], *stat = NULL;

	(void)userdata;
	if (!tg->exists) {
		printf("\n%s: no cgroup at %s\n", tg->slice, tg->cgroup);
		return;
	}
	conf_resolve_slice(&t->conf, tg->slice, t->policy, &res);
	printf("\n%s (%s)\n", tg->slice, tg->cgroup);
	for (size_t i = 0; i < ARRAY_SIZE(cgroup_files); i++) {
		enum conf_key k = cgroup_files[i].key;
		uint64_t bytes;

		snprintf(path, sizeof(path), "%s/%s", tg->cgroup, cgroup_files[i].name);
		if (read_value(t->root, path, value, sizeof(value)) < 0)
			snprintf(value, sizeof(value), "-");
		printf("  %-24s %s", cgroup_files[i].name, value);
		if (res.set[k] && tune_size_bytes(t, &res.val[k].size, &bytes) == 0) {
			char want[32];

			cgroup_shown_value(bytes, t->page_size, want, sizeof(want));
			printf(" (%s=%s%s)", conf_key_name(k), want,
			       strcmp(want, value) == 0 ? "" : ", drifted");
		}
		putchar('\n');
	}
	snprintf(path, sizeof(path), "%s/memory.lru_gen_policy", tg->cgroup);
	if (read_value(t->root, path, value, sizeof(value)) < 0)
		snprintf(value, sizeof(value), "-");
	printf("  %-24s %s", "memory.lru_gen_policy", value);
	if (res.set[KEY_POLICY]) {
		enum policy cur;

		printf(" (Policy=%s%s)", policy_name((enum policy)res.val[KEY_POLICY].num),
		       slice_policy_read(t, tg->cgroup, &cur) == 0 &&
		       cur == res.val[KEY_POLICY].num ? "" : ", drifted");
	}
	putchar('\n');
	snprintf(path, sizeof(path), "%s/memory.current", tg->cgroup);
	if (read_value(t->root, path, value, sizeof(value)) < 0)
		snprintf(value, sizeof(value), "-");
	printf("  %-24s %s\n", "memory.current", value);
	snprintf(path, sizeof(path), "%s/memory.stat", tg->cgroup);
	if (read_file(t->root, path, 1 << 20, &stat, NULL) < 0)
		stat = NULL;
	for (size_t i = 0; i < ARRAY_SIZE(stat_keys); i++) {
		stat_value(stat, stat_keys[i], value, sizeof(value));
		printf("  %-24s %s\n", stat_keys[i], value);
	}
	free(stat);
	if (res.set[KEY_PROACTIVE_RECLAIM] && res.val[KEY_PROACTIVE_RECLAIM].is_auto) {
		reclaim_auto_status(t, tg, &res);
	} else if (res.set[KEY_PROACTIVE_RECLAIM]) {
		uint64_t bytes;

		if (tune_size_bytes(t, &res.val[KEY_PROACTIVE_RECLAIM].size, &bytes) == 0)
			printf("  %-24s %llu bytes every %llums\n", "ProactiveReclaim",
			       (unsigned long long)bytes,
			       (unsigned long long)reclaim_interval_ms(&res));
	}
}

int cmd_status(struct tune *t)
{
	char ttl[32];

	if (read_value(t->root, LRU_GEN_DIR "/min_ttl_ms", ttl, sizeof(ttl)) < 0)
		snprintf(ttl, sizeof(ttl), "-");
	printf("%-26s %s\n", "policy", policy_name(t->policy));
	printf("%-26s %s\n", "enabled", t->enabled[0] ? t->enabled : "-");
	printf("%-26s %s\n", "min_ttl_ms", ttl);
	tune_for_each_target(t, status_target, NULL);
	return 0;
}
