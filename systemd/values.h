/* SPDX-License-Identifier: GPL-2.0-only */
/* Value syntax of mglru-fg-tune.conf(5) and of the kernel files it reads.
 * Everything here is pure (no I/O) so the fuzzer and unit tests can drive
 * it directly. Parsers return 0 or -1 with *why set to a static string. */
#ifndef MGLRU_FG_VALUES_H
#define MGLRU_FG_VALUES_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* min_ttl_ms is parsed by the kernel with kstrtouint(), so no duration
 * above this can ever be applied; the same bound keeps ReclaimInterval=
 * arithmetic far away from overflow. */
#define DURATION_MAX_MS 4294967295ull

/* UINT64_MAX is systemd's and our "infinity"; a finite size must stay
 * below it. */
#define SIZE_INFINITY_BYTES UINT64_MAX

enum size_kind { SIZE_BYTES, SIZE_PERCENT, SIZE_INFINITY };

struct size_spec {
	enum size_kind kind;
	uint64_t bytes;      /* SIZE_BYTES */
	uint32_t permyriad;  /* SIZE_PERCENT: 1% = 100 */
};

enum policy { POLICY_CLASSIC, POLICY_MGLRU, POLICY_FG, POLICY__MAX };
#define POLICY_MASK(p) (1u << (p))
#define POLICY_MASK_ALL ((1u << POLICY__MAX) - 1)

enum oom_mode { OOM_AUTO, OOM_KILL };

int parse_size(const char *s, struct size_spec *out, const char **why);
int parse_percent(const char *s, uint32_t *permyriad, const char **why);
/* A share in parts per million, written as a percentage with up to four
 * decimals: "0.1%" is 1000 (PressureTarget=). */
#define PPM_ONE 1000000u
int parse_percent_ppm(const char *s, uint32_t *ppm, const char **why);
int parse_duration_ms(const char *s, uint64_t *ms, const char **why);
int parse_uint_range(const char *s, unsigned lo, unsigned hi, unsigned *out,
		     const char **why);
int parse_policy(const char *s, enum policy *out);
/* Whitespace-separated policy names; an empty list gives mask 0. */
int parse_policy_list(const char *s, unsigned *mask, const char **why);
int parse_oom_mode(const char *s, enum oom_mode *out);

/* "systemctl show -p ManagedOOMMemoryPressure -p ManagedOOMMemoryPressureLimit"
 * output: the mode, and the limit in permyriad (0: not set, oomd's
 * default applies). systemd shows the limit as a percentage, or (252 and
 * older) as the bus value, scaled so that 2^32 - 1 is 100%. Lines it
 * does not know, or cannot parse, are left out. */
void parse_oomd_properties(const char *text, enum oom_mode *mode, uint32_t *limit_permyriad);

const char *policy_name(enum policy p);
const char *oom_mode_name(enum oom_mode m);

/* Percentages are of mem_total bytes; infinity resolves to
 * SIZE_INFINITY_BYTES. Rounds down. */
uint64_t size_resolve(const struct size_spec *s, uint64_t mem_total);
/* "infinity" or the decimal byte count. */
void format_bytes(uint64_t bytes, char *buf, size_t n);
/* 6000 -> "60%", 6050 -> "60.50%" */
void format_percent(uint32_t permyriad, char *buf, size_t n);
/* 1000 -> "0.1%", 12345 -> "1.2345%", 10000 -> "1%" */
void format_ppm(uint32_t ppm, char *buf, size_t n);
/* As written, resolved as far as it goes without MemTotal: "67108864",
 * "1%", "infinity". */
void format_size_spec(const struct size_spec *s, char *buf, size_t n);
/* a * b / c, rounded down, saturating at UINT64_MAX (also for c = 0). */
uint64_t mul_div(uint64_t a, uint64_t b, uint64_t c);

/* What a memory.{min,low,high,max,swap.max,zswap.max} file shows after
 * the kernel stored `bytes`: pages are rounded down and the page counter
 * saturates at LONG_MAX / page_size, which it shows as "max". */
void cgroup_shown_value(uint64_t bytes, unsigned long page_size, char *buf,
			size_t n);

/* /sys/kernel/mm/lru_gen/policy: "classic mglru [fg]" */
int parse_policy_file(const char *content, enum policy *out);
/* /sys/kernel/mm/lru_gen/enabled: "0x0007"; 0 means classic. */
int parse_enabled_file(const char *content, enum policy *out);

#define UNIT_NAME_MAX 255
/* Files are named after slices, and each name must fit NAME_MAX (255).
 * The longest is the temporary file of a reclaim stamp (reclaim.c and
 * write_file_atomic()): "reclaim-NAME.stamp.tmpXXXXXX"; the drop-in
 * directory "NAME.d" and the cgroup "_NAME" are shorter. A longer name
 * would parse but fail later, so it is refused when parsed. */
#define STAMP_PREFIX "reclaim-"
#define STAMP_SUFFIX ".stamp"
/* STATE_DIR/policy-SLICE.saved: a slice policy apply changed, see state.c;
 * shorter than a stamp's name, so SLICE_NAME_MAX covers it */
/* STATE_DIR/reclaim-SLICE.state: ProactiveReclaim=auto's loop, see
 * reclaim-auto.c; as long as a stamp's name */
#define LOOP_STATE_SUFFIX ".state"
#define POLICY_PREFIX "policy-"
#define POLICY_SUFFIX ".saved"
#define ATOMIC_TMP_SUFFIX ".tmpXXXXXX"
#define FILE_NAME_MAX 255
#define SLICE_NAME_MAX (FILE_NAME_MAX - (sizeof(STAMP_PREFIX) - 1) - (sizeof(STAMP_SUFFIX) - 1) - \
			(sizeof(ATOMIC_TMP_SUFFIX) - 1))
/* Each dash in a slice name is one more level of cgroups, and every level
 * repeats the name so far: a 255-character name can need a path of some
 * 16 KiB, beyond PATH_MAX. Such names are refused when parsed. */
#define SLICE_PATH_MAX 2048

/* A slice unit name: "-.slice" (root), "a-b.slice", or a prefix drop-in
 * target "a-.slice" (is_prefix). */
bool slice_name_valid(const char *name, bool *is_prefix, const char **why);
bool slice_is_root(const char *name);
/* For "a-b.slice": "a.slice/a-b.slice"; for the root slice: "". For a
 * prefix "a-b-.slice": the directory its matches live in,
 * "a.slice/a-b.slice". Components are escaped as systemd names cgroups. */
int slice_cgroup_path(const char *name, char *buf, size_t n);
/* The unit name prefix a prefix slice matches ("user-" for user-.slice). */
size_t slice_prefix_len(const char *name);
/* systemd prefixes '_' to cgroup names that could clash with kernel
 * files; these map between unit names and directory names. */
int cg_escape(const char *name, char *buf, size_t n);
const char *cg_unescape(const char *dirname);

#endif
