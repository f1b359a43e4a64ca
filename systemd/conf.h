/* SPDX-License-Identifier: GPL-2.0-only */
/* mglru-fg-tune.conf(5): the parser and the merged configuration.
 *
 * Assignments are kept, not collapsed, because which one wins depends on
 * the policy running when the configuration is applied (ApplyWhenPolicy=)
 * and on which sections match a slice (prefix drop-ins); conf_resolve_*()
 * answers that once both are known. No I/O happens here. */
#ifndef MGLRU_FG_CONF_H
#define MGLRU_FG_CONF_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "values.h"

enum conf_key {
	/* [Global], and [Slice ...] for the slice's own policy */
	KEY_EXPECT_POLICY,
	KEY_MIN_TTL,
	/* [Slice ...]: owned by systemd, written as drop-ins */
	KEY_MEMORY_MIN,
	KEY_MEMORY_LOW,
	KEY_MEMORY_HIGH,
	KEY_MEMORY_MAX,
	KEY_MEMORY_SWAP_MAX,
	KEY_MEMORY_ZSWAP_MAX,
	KEY_OOM_PRESSURE,
	KEY_OOM_PRESSURE_LIMIT,
	/* [Slice ...]: used by the reclaim command */
	KEY_PROACTIVE_RECLAIM,
	KEY_RECLAIM_SWAPPINESS,
	KEY_RECLAIM_INTERVAL,
	/* [Slice ...]: ProactiveReclaim=auto only */
	KEY_PRESSURE_TARGET,
	KEY_RECLAIM_MIN,
	KEY_RECLAIM_MAX,
	KEY_RECLAIM_FLOOR,
	/* [Slice ...]: the slice's memory.lru_gen_policy */
	KEY_POLICY,
	KEY__MAX
};

#define KEY_FIRST_DROPIN KEY_MEMORY_MIN
#define KEY_LAST_DROPIN KEY_OOM_PRESSURE_LIMIT

struct conf_value {
	bool reset;		/* "Key=": back to unset */
	bool is_auto;		/* ProactiveReclaim=auto */
	struct size_spec size;	/* size keys */
	uint64_t num;		/* ms, swappiness, permyriad, ppm, policy, oom mode */
};

struct conf_assign {
	enum conf_key key;
	struct conf_value val;
	const char *file;	/* owned by struct conf */
	unsigned line;
	unsigned policy_mask;	/* 0: whatever the policy */
};

struct conf_section {
	char *name;		/* NULL for [Global] */
	bool is_prefix;
	struct conf_assign *v;
	size_t n, cap;
};

struct conf {
	struct conf_section global;
	struct conf_section *slices;
	size_t n_slices, cap_slices;
	char **files;
	size_t n_files;
};

enum conf_diag { CONF_ERROR, CONF_WARNING };
typedef void (*conf_diag_fn)(void *userdata, enum conf_diag level,
			     const char *file, unsigned line, const char *msg);

/* The largest file the loader accepts; the parser takes any length. */
#define CONF_FILE_MAX (1u << 20)

void conf_init(struct conf *c);
void conf_free(struct conf *c);

/* Parses buf (len bytes, need not be NUL-terminated) as file `file`,
 * adding to c. Returns the number of errors (0 if only warnings). */
int conf_parse(struct conf *c, const char *file, const char *buf, size_t len,
	       conf_diag_fn diag, void *userdata);

/* Moves everything src holds to the end of dst; src is left empty. */
void conf_merge(struct conf *dst, struct conf *src);

struct conf_resolved {
	bool set[KEY__MAX];
	struct conf_value val[KEY__MAX];
	const char *file[KEY__MAX];
	unsigned line[KEY__MAX];
};

void conf_resolve_global(const struct conf *c, enum policy policy,
			 struct conf_resolved *r);
/* The settings for a concrete slice or prefix name: the prefix sections
 * matching it, least specific first, then its own section, so that the
 * more specific section wins as systemd's prefix drop-ins do. */
void conf_resolve_slice(const struct conf *c, const char *name,
			enum policy policy, struct conf_resolved *r);
/* The section that decides `name`: its own, else the longest matching
 * prefix section; -1 if none. */
long conf_section_for(const struct conf *c, const char *name);
bool conf_prefix_matches(const struct conf_section *s, const char *name);

/* Settings that conflict once the files are merged: the keys of
 * ProactiveReclaim=auto without it, ReclaimMin= above ReclaimMax=, a
 * PressureTarget= at or over systemd-oomd's limit as this configuration
 * sets it. Checked on what each section resolves to under `policy` (a
 * slice a prefix section decides resolves as that section does); each
 * conflicting line is reported once, as an error. mem_total (0 if not
 * known) resolves percentages. Returns the number of lines reported. */
int conf_check(const struct conf *c, enum policy policy, uint64_t mem_total,
	       conf_diag_fn diag, void *userdata);
/* Whether conf_check() needs MemTotal: a ReclaimMin= or ReclaimMax= in
 * percent. */
bool conf_check_needs_mem_total(const struct conf *c);
/* Whether one resolved slice is free of such conflicts. */
bool conf_slice_consistent(const struct conf_resolved *r, const char *name, uint64_t mem_total);

const char *conf_key_name(enum conf_key k);
bool conf_key_is_size(enum conf_key k);

#endif
