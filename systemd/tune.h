/* SPDX-License-Identifier: GPL-2.0-only */
/* The state one run of mglru-fg-tune shares between its commands. */
#ifndef MGLRU_FG_TUNE_H
#define MGLRU_FG_TUNE_H

#include <limits.h>
#include <stdbool.h>
#include <stdint.h>

#include "conf.h"

#define EXIT_RUNTIME 1
#define EXIT_CONFIG 2
#define EXIT_NOT_APPLICABLE 77

#define CGROUP_ROOT "/sys/fs/cgroup"
#define LRU_GEN_DIR "/sys/kernel/mm/lru_gen"
#define DROPIN_DIR "/run/systemd/system"
#define DROPIN_NAME "50-mglru-fg-tune.conf"
#define STATE_DIR "/run/mglru-fg"
#define RELOAD_PENDING STATE_DIR "/reload-pending"
#define MIN_TTL_SAVED STATE_DIR "/min_ttl_ms.saved"

enum mode { MODE_APPLY, MODE_DRY_RUN, MODE_CHECK };

struct tune {
	const char *root;	/* "" without --root */
	bool has_root;
	enum mode mode;
	bool no_reload;
	enum policy policy;
	char enabled[32];	/* as the kernel shows it, or "" */
	uint64_t mem_total;	/* bytes; 0 until read */
	unsigned long page_size;
	struct conf conf;
	unsigned config_errors;	/* files with errors */
	unsigned runtime_errors;
	unsigned changes;	/* made (or planned) by the command */
};

/* A slice cgroup the configuration applies to. */
struct target {
	long section;		/* index into conf.slices */
	const char *slice;	/* unit name */
	char cgroup[PATH_MAX];	/* logical path of its directory */
	bool exists;
};
typedef void (*target_fn)(struct tune *t, const struct target *tg, void *userdata);

/* system.c */
int tune_applicable(struct tune *t);
int tune_read_policy(struct tune *t);
int tune_mem_total(struct tune *t, uint64_t *bytes);
/* Resolves a size setting to bytes (percentages need MemTotal). */
int tune_size_bytes(struct tune *t, const struct size_spec *s, uint64_t *bytes);
int tune_systemctl(struct tune *t, const char *verb);
/* false under --root without $MGLRU_FG_TUNE_SYSTEMCTL: systemctl is only logged */
bool tune_runs_systemctl(const struct tune *t);
/* systemctl VERB UNIT; UNIT may be NULL */
int tune_systemctl_unit(struct tune *t, const char *verb, const char *unit);
/* systemctl show -p PROP... UNIT (props NULL-terminated): 0 with its
 * output in *out (to free), 1 if systemctl is not run (--root), -1 with
 * the reason in why. Nothing is logged. */
int tune_systemctl_show(struct tune *t, const char *unit, const char *const *props, char **out,
			char *why, size_t n);
/* Exact sections in order, each with its cgroup (exists or not); prefix
 * sections with every existing cgroup they decide (see
 * conf_section_for()); the root slice as the cgroup root. */
void tune_for_each_target(struct tune *t, target_fn fn, void *userdata);
/* The same for one section. */
void tune_for_section(struct tune *t, long section, target_fn fn, void *userdata);
int slice_cgroup_dir(const char *slice, char *buf, size_t n);
void runtime_error(struct tune *t, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

struct cgroup_file {
	enum conf_key key;
	const char *name;
};
extern const struct cgroup_file cgroup_files[6];

/* conf-files.c */
int tune_load_config(struct tune *t);
int tune_cat_config(struct tune *t);

/* state.c: what apply leaves behind, and revert removes */
int dropin_path(const char *slice, char *buf, size_t n);
/* Sorted names of the slices with a directory in DROPIN_DIR. */
char **dropin_slices(struct tune *t, size_t *n);
char **state_slices(struct tune *t, const char *prefix, const char *suffix, size_t *n);
void free_strv(char **v, size_t n);
/* Removes our drop-in and its directory if that is then empty. */
int dropin_remove(struct tune *t, const char *path);
void reload_mark(struct tune *t);
int reload_now(struct tune *t);
/* The min_ttl_ms from before the first change, and the last one written. */
int min_ttl_saved(struct tune *t, uint64_t *orig, uint64_t *written);
int min_ttl_save(struct tune *t, uint64_t cur, uint64_t want);
int policy_saved(struct tune *t, const char *slice, enum policy *orig, enum policy *written);
int policy_save(struct tune *t, const char *slice, enum policy cur, enum policy want);
int policy_forget(struct tune *t, const char *slice);
/* Whether min_ttl_ms can go back to the value on record from before the
 * first apply, as revert does it, and apply once MinTTL= is gone: 1 with
 * *cur and *orig when it still shows what apply wrote last; 0 when that
 * is the original already, or, said as a notice, when someone has set it
 * since or it cannot be read (the record is then of no use); -ENOENT
 * without a record, another -errno when the record cannot be read. */
int min_ttl_restorable(struct tune *t, uint64_t *cur, uint64_t *orig);
/* The same for a slice's memory.lru_gen_policy, with its cgroup in
 * cgroup: 0 also when it has no cgroup now; -ENOENT for a name apply
 * never records (a prefix). */
int policy_restorable(struct tune *t, const char *slice, char *cgroup, size_t n,
		      enum policy *cur, enum policy *orig);
/* The policy of a slice cgroup's memcg (memory.lru_gen_policy). */
int slice_policy_read(struct tune *t, const char *cgroup, enum policy *out);
/* The kernel keeps min_ttl_ms in jiffies and rounds up when storing it:
 * at HZ=100 a value can read back up to 9 ms larger than written. */
#define JIFFY_SLACK_MS 10
/* Whether min_ttl_ms reading cur is what writing want left: within the
 * rounding, except that 0 (no thrashing protection) is only 0, since any
 * other value, 1 ms included, turns the protection on. */
bool min_ttl_same(uint64_t cur, uint64_t want);

/* apply.c: apply, --dry-run and --check */
int cmd_apply(struct tune *t);
/* revert.c: undo apply */
int cmd_revert(struct tune *t);
/* status.c */
int cmd_status(struct tune *t);
/* reclaim.c */
int cmd_reclaim(struct tune *t);
uint64_t reclaim_interval_ms(const struct conf_resolved *res);
/* How long until a slice last reclaimed at last_ms is due; 0 if it is. */
uint64_t reclaim_wait_ms(uint64_t last_ms, uint64_t now_ms, uint64_t interval_ms);
/* "AMOUNT[ swappiness=N]", as memory.reclaim takes it. */
void reclaim_request(const struct conf_resolved *res, uint64_t amount, char *req, size_t n);
/* Writes req to the slice's memory.reclaim: 0, -EAGAIN if the kernel
 * reclaimed less, or another -errno, said as a runtime error. */
int reclaim_write(struct tune *t, const struct target *tg, const char *req);
/* reclaim-auto.c: ProactiveReclaim=auto */
void reclaim_auto(struct tune *t, const struct target *tg, const struct conf_resolved *res);
void reclaim_auto_status(struct tune *t, const struct target *tg, const struct conf_resolved *res);
int reclaim_state_path(const char *slice, char *buf, size_t n);

/* mglru-fg-tune.c */
int tune_main(int argc, char **argv);

#endif
