// SPDX-License-Identifier: GPL-2.0-only
#include "conf.h"

#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "loop.h"
#include "util.h"

enum vtype { VT_POLICY, VT_DURATION, VT_SIZE, VT_OOM, VT_PERCENT, VT_SWAPPINESS, VT_RECLAIM,
	     VT_SHARE };

/* where a key may stand */
#define IN_GLOBAL 1u
#define IN_SLICE 2u

struct keydef {
	const char *name;
	enum conf_key key;
	unsigned where;
	enum vtype type;
};

static const struct keydef keydefs[] = {
	{ "ExpectPolicy", KEY_EXPECT_POLICY, IN_GLOBAL | IN_SLICE, VT_POLICY },
	{ "MinTTL", KEY_MIN_TTL, IN_GLOBAL, VT_DURATION },
	{ "MemoryMin", KEY_MEMORY_MIN, IN_SLICE, VT_SIZE },
	{ "MemoryLow", KEY_MEMORY_LOW, IN_SLICE, VT_SIZE },
	{ "MemoryHigh", KEY_MEMORY_HIGH, IN_SLICE, VT_SIZE },
	{ "MemoryMax", KEY_MEMORY_MAX, IN_SLICE, VT_SIZE },
	{ "MemorySwapMax", KEY_MEMORY_SWAP_MAX, IN_SLICE, VT_SIZE },
	{ "MemoryZSwapMax", KEY_MEMORY_ZSWAP_MAX, IN_SLICE, VT_SIZE },
	{ "ManagedOOMMemoryPressure", KEY_OOM_PRESSURE, IN_SLICE, VT_OOM },
	{ "ManagedOOMMemoryPressureLimit", KEY_OOM_PRESSURE_LIMIT, IN_SLICE, VT_PERCENT },
	{ "ProactiveReclaim", KEY_PROACTIVE_RECLAIM, IN_SLICE, VT_RECLAIM },
	{ "ReclaimSwappiness", KEY_RECLAIM_SWAPPINESS, IN_SLICE, VT_SWAPPINESS },
	{ "ReclaimInterval", KEY_RECLAIM_INTERVAL, IN_SLICE, VT_DURATION },
	{ "PressureTarget", KEY_PRESSURE_TARGET, IN_SLICE, VT_SHARE },
	{ "ReclaimMin", KEY_RECLAIM_MIN, IN_SLICE, VT_SIZE },
	{ "ReclaimMax", KEY_RECLAIM_MAX, IN_SLICE, VT_SIZE },
	{ "ReclaimFloor", KEY_RECLAIM_FLOOR, IN_SLICE, VT_SIZE },
	{ "Policy", KEY_POLICY, IN_SLICE, VT_POLICY },
};

static const char APPLY_WHEN[] = "ApplyWhenPolicy";

const char *conf_key_name(enum conf_key k)
{
	for (size_t i = 0; i < ARRAY_SIZE(keydefs); i++)
		if (keydefs[i].key == k)
			return keydefs[i].name;
	return "?";
}

bool conf_key_is_size(enum conf_key k)
{
	return k >= KEY_MEMORY_MIN && k <= KEY_MEMORY_ZSWAP_MAX;
}

void conf_init(struct conf *c)
{
	memset(c, 0, sizeof(*c));
}

static void section_free(struct conf_section *s)
{
	free(s->name);
	free(s->v);
	memset(s, 0, sizeof(*s));
}

void conf_free(struct conf *c)
{
	section_free(&c->global);
	for (size_t i = 0; i < c->n_slices; i++)
		section_free(&c->slices[i]);
	free(c->slices);
	for (size_t i = 0; i < c->n_files; i++)
		free(c->files[i]);
	free(c->files);
	conf_init(c);
}

static long find_slice(const struct conf *c, const char *name)
{
	for (size_t i = 0; i < c->n_slices; i++)
		if (strcmp(c->slices[i].name, name) == 0)
			return (long)i;
	return -1;
}

static size_t add_slice(struct conf *c, char *name, bool is_prefix)
{
	struct conf_section *s;

	c->slices = grow(c->slices, &c->cap_slices, c->n_slices, sizeof(*c->slices));
	s = &c->slices[c->n_slices];
	memset(s, 0, sizeof(*s));
	s->name = name;
	s->is_prefix = is_prefix;
	return c->n_slices++;
}

static void add_assign(struct conf_section *s, const struct conf_assign *a)
{
	s->v = grow(s->v, &s->cap, s->n, sizeof(*s->v));
	s->v[s->n++] = *a;
}

enum cur { SEC_NONE, SEC_GLOBAL, SEC_SLICE, SEC_IGNORED };

struct parser {
	struct conf *c;
	const char *file;
	conf_diag_fn diag;
	void *userdata;
	int errors;
	unsigned line;
	enum cur cur;
	size_t slice;
	/* ApplyWhenPolicy= covers its whole section block in this file,
	 * wherever in the block it stands. */
	size_t block_start;
	unsigned block_mask;
	bool block_mask_seen;
};

static void report(struct parser *p, enum conf_diag level, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static void report(struct parser *p, enum conf_diag level, const char *fmt, ...)
{
	char msg[512];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	if (level == CONF_ERROR)
		p->errors++;
	if (p->diag)
		p->diag(p->userdata, level, p->file, p->line, msg);
}

static struct conf_section *cur_section(struct parser *p)
{
	if (p->cur == SEC_GLOBAL)
		return &p->c->global;
	if (p->cur == SEC_SLICE)
		return &p->c->slices[p->slice];
	return NULL;
}

static void close_block(struct parser *p)
{
	struct conf_section *s = cur_section(p);

	if (s && p->block_mask_seen)
		for (size_t i = p->block_start; i < s->n; i++)
			s->v[i].policy_mask = p->block_mask;
	p->block_mask_seen = false;
	p->block_mask = 0;
}

static void open_block(struct parser *p, enum cur cur, size_t slice)
{
	close_block(p);
	p->cur = cur;
	p->slice = slice;
	p->block_start = cur_section(p) ? cur_section(p)->n : 0;
}

static bool is_space(char c)
{
	return c == ' ' || c == '\t' || c == '\r' || c == '\f' || c == '\v';
}

static char *trim(char *s)
{
	size_t n;

	while (is_space(*s))
		s++;
	n = strlen(s);
	while (n > 0 && is_space(s[n - 1]))
		s[--n] = '\0';
	return s;
}

static void parse_header(struct parser *p, char *line)
{
	size_t n = strlen(line);
	char *inner, *name;
	bool is_prefix;
	const char *why;
	long idx;

	if (n < 2 || line[n - 1] != ']') {
		report(p, CONF_ERROR, "malformed section header, expected [Global] or [Slice NAME.slice]");
		open_block(p, SEC_IGNORED, 0);
		return;
	}
	line[n - 1] = '\0';
	inner = trim(line + 1);
	if (strcmp(inner, "Global") == 0) {
		open_block(p, SEC_GLOBAL, 0);
		return;
	}
	if (strncmp(inner, "Slice", 5) != 0 || (inner[5] && !is_space(inner[5]))) {
		/* An error, not a warning: a typo such as [Slcie system.slice]
		 * would otherwise drop every limit under it without a word. */
		report(p, CONF_ERROR, "unknown section [%.64s], expected [Global] or [Slice NAME.slice]",
		       inner);
		open_block(p, SEC_IGNORED, 0);
		return;
	}
	name = trim(inner + 5);
	if (!*name) {
		report(p, CONF_ERROR, "[Slice] needs a slice name, e.g. [Slice system.slice]");
		open_block(p, SEC_IGNORED, 0);
		return;
	}
	if (!slice_name_valid(name, &is_prefix, &why)) {
		report(p, CONF_ERROR, "invalid slice name '%.64s': %s", name, why);
		open_block(p, SEC_IGNORED, 0);
		return;
	}
	idx = find_slice(p->c, name);
	if (idx < 0)
		idx = (long)add_slice(p->c, xstrdup(name), is_prefix);
	open_block(p, SEC_SLICE, (size_t)idx);
}

static int parse_value(const struct keydef *kd, const char *v, struct conf_value *out,
		       const char **why)
{
	enum policy pol;
	enum oom_mode oom;
	uint32_t pm;
	unsigned u;

	switch (kd->type) {
	case VT_POLICY:
		if (parse_policy(v, &pol) < 0) {
			*why = "unknown policy (use classic, mglru or fg)";
			return -1;
		}
		/* the classic LRU is the machine's, chosen with lru_gen= */
		if (kd->key == KEY_POLICY && pol == POLICY_CLASSIC) {
			*why = "a slice follows mglru or fg; classic is chosen at boot with lru_gen=";
			return -1;
		}
		out->num = pol;
		return 0;
	case VT_DURATION:
		return parse_duration_ms(v, &out->num, why);
	case VT_RECLAIM:
		if (strcmp(v, "auto") == 0) {
			out->is_auto = true;
			return 0;
		}
		if (parse_size(v, &out->size, why) < 0)
			return -1;
		if (out->size.kind == SIZE_INFINITY) {
			*why = "a reclaim amount cannot be infinity";
			return -1;
		}
		return 0;
	case VT_SIZE:
		if (parse_size(v, &out->size, why) < 0)
			return -1;
		if (kd->key == KEY_RECLAIM_MIN && out->size.kind == SIZE_INFINITY) {
			*why = "a step bound cannot be infinity";
			return -1;
		}
		if (kd->key == KEY_RECLAIM_FLOOR && out->size.kind == SIZE_INFINITY) {
			*why = "a floor of infinity never reclaims; ProactiveReclaim=0 turns reclaim off";
			return -1;
		}
		if (kd->key == KEY_RECLAIM_MAX && out->size.kind != SIZE_INFINITY &&
		    (out->size.kind == SIZE_PERCENT ? out->size.permyriad : out->size.bytes) == 0) {
			*why = "a step of at most 0 reclaims nothing; ProactiveReclaim=0 turns reclaim off";
			return -1;
		}
		return 0;
	case VT_SHARE:
		if (parse_percent_ppm(v, &pm, why) < 0)
			return -1;
		if (pm == 0) {
			*why = "must be above 0%";
			return -1;
		}
		if (pm >= PPM_ONE) {
			*why = "must be below 100%: the share of time the slice may stall";
			return -1;
		}
		out->num = pm;
		return 0;
	case VT_OOM:
		if (parse_oom_mode(v, &oom) < 0) {
			*why = "expected auto or kill";
			return -1;
		}
		out->num = oom;
		return 0;
	case VT_PERCENT:
		if (parse_percent(v, &pm, why) < 0)
			return -1;
		out->num = pm;
		return 0;
	case VT_SWAPPINESS:
		if (parse_uint_range(v, 0, 200, &u, why) < 0) {
			*why = "expected a whole number from 0 to 200";
			return -1;
		}
		out->num = u;
		return 0;
	}
	return -1;
}

static void parse_assignment(struct parser *p, char *line)
{
	char *eq = strchr(line, '='), *key, *val;
	const struct keydef *kd = NULL;
	struct conf_assign a;
	struct conf_section *s;
	const char *why = "invalid value";

	if (!eq) {
		report(p, CONF_ERROR, "expected KEY=VALUE, a [section] header or a comment");
		return;
	}
	*eq = '\0';
	key = trim(line);
	val = trim(eq + 1);
	if (!*key) {
		report(p, CONF_ERROR, "missing key name before '='");
		return;
	}
	if (p->cur == SEC_IGNORED)
		return;
	if (p->cur == SEC_NONE) {
		report(p, CONF_WARNING, "%.64s= outside of any section, ignoring it", key);
		return;
	}
	s = cur_section(p);
	if (strcmp(key, APPLY_WHEN) == 0) {
		unsigned mask;

		if (parse_policy_list(val, &mask, &why) < 0) {
			report(p, CONF_ERROR, "%s=%.64s: %s", APPLY_WHEN, val, why);
			return;
		}
		if (p->block_mask_seen)
			report(p, CONF_WARNING, "%s= given twice in one section, the last one counts",
			       APPLY_WHEN);
		p->block_mask_seen = true;
		p->block_mask = mask;
		return;
	}
	for (size_t i = 0; i < ARRAY_SIZE(keydefs); i++)
		if (strcmp(keydefs[i].name, key) == 0)
			kd = &keydefs[i];
	if (!kd) {
		report(p, CONF_WARNING, "unknown key %.64s=, ignoring it", key);
		return;
	}
	if (!(kd->where & (p->cur == SEC_GLOBAL ? IN_GLOBAL : IN_SLICE))) {
		report(p, CONF_WARNING, "%s= belongs in %s, ignoring it", kd->name,
		       kd->where & IN_GLOBAL ? "[Global]" : "a [Slice ...] section");
		return;
	}
	memset(&a, 0, sizeof(a));
	a.key = kd->key;
	a.file = p->file;
	a.line = p->line;
	if (!*val)
		a.val.reset = true;
	else if (parse_value(kd, val, &a.val, &why) < 0) {
		report(p, CONF_ERROR, "%s=%.64s: %s", kd->name, val, why);
		return;
	}
	/* The root cgroup has no memory.min/low/high/max/swap files and
	 * systemd-oomd does not manage it: such settings would be lost. Its
	 * policy is lru_gen='s, which [Global] ExpectPolicy= checks. */
	if (p->cur == SEC_SLICE && slice_is_root(s->name) &&
	    ((kd->key >= KEY_FIRST_DROPIN && kd->key <= KEY_LAST_DROPIN) ||
	     kd->key == KEY_POLICY || kd->key == KEY_EXPECT_POLICY)) {
		report(p, CONF_WARNING, "%s= has no effect on -.slice, ignoring it", kd->name);
		return;
	}
	if (kd->key == KEY_PROACTIVE_RECLAIM && a.val.is_auto && p->cur == SEC_SLICE &&
	    slice_is_root(s->name)) {
		report(p, CONF_ERROR, "ProactiveReclaim=auto: not on -.slice, which has no "
		       "memory.current, memory.min or memory.low to go by");
		return;
	}
	/* systemd's user-.slice.d/10-defaults.conf gives every user-*.slice
	 * (prefix drop-ins reach user-1000-x.slice too) StopWhenUnneeded=yes:
	 * one that apply starts for its policy is stopped again, and the next
	 * login gets a new cgroup, which takes its parent's policy. */
	if (kd->key == KEY_POLICY && !a.val.reset && p->cur == SEC_SLICE &&
	    strncmp(s->name, "user-", 5) == 0) {
		report(p, CONF_ERROR, "Policy= cannot stick on %.64s: systemd stops user-*.slice "
		       "when unneeded (StopWhenUnneeded=yes) and a later login gets a new cgroup; "
		       "set it on user.slice, whose new user slices take its policy", s->name);
		return;
	}
	add_assign(s, &a);
}

static void parse_line(struct parser *p, const char *start, size_t n)
{
	char *buf, *line;

	if (memchr(start, '\0', n)) {
		report(p, CONF_ERROR, "NUL byte in line");
		return;
	}
	buf = xstrndup(start, n);
	line = buf;
	if (p->line == 1 && strncmp(line, "\xef\xbb\xbf", 3) == 0)
		line += 3;
	line = trim(line);
	if (!*line || *line == '#' || *line == ';')
		;
	else if (*line == '[')
		parse_header(p, line);
	else
		parse_assignment(p, line);
	free(buf);
}

int conf_parse(struct conf *c, const char *file, const char *buf, size_t len,
	       conf_diag_fn diag, void *userdata)
{
	struct parser p = { .c = c, .diag = diag, .userdata = userdata, .cur = SEC_NONE };
	const char *pos = buf, *end = buf + len;

	c->files = xrealloc(c->files, (c->n_files + 1) * sizeof(*c->files));
	c->files[c->n_files] = xstrdup(file);
	p.file = c->files[c->n_files++];

	while (pos < end) {
		const char *nl = memchr(pos, '\n', (size_t)(end - pos));
		const char *le = nl ? nl : end;

		p.line++;
		parse_line(&p, pos, (size_t)(le - pos));
		pos = nl ? nl + 1 : end;
	}
	close_block(&p);
	return p.errors;
}

static void append_section(struct conf_section *dst, const struct conf_section *src)
{
	for (size_t i = 0; i < src->n; i++)
		add_assign(dst, &src->v[i]);
}

void conf_merge(struct conf *dst, struct conf *src)
{
	append_section(&dst->global, &src->global);
	for (size_t i = 0; i < src->n_slices; i++) {
		struct conf_section *s = &src->slices[i];
		long idx = find_slice(dst, s->name);

		if (idx < 0) {
			idx = (long)add_slice(dst, s->name, s->is_prefix);
			s->name = NULL;
		}
		append_section(&dst->slices[idx], s);
	}
	dst->files = xrealloc(dst->files, (dst->n_files + src->n_files) * sizeof(*dst->files));
	memcpy(dst->files + dst->n_files, src->files, src->n_files * sizeof(*src->files));
	dst->n_files += src->n_files;
	src->n_files = 0;
	conf_free(src);
}

static void resolve_section(const struct conf_section *s, enum policy policy,
			    struct conf_resolved *r)
{
	for (size_t i = 0; i < s->n; i++) {
		const struct conf_assign *a = &s->v[i];

		if (a->policy_mask && !(a->policy_mask & POLICY_MASK(policy)))
			continue;
		r->set[a->key] = !a->val.reset;
		r->val[a->key] = a->val;
		r->file[a->key] = a->file;
		r->line[a->key] = a->line;
	}
}

void conf_resolve_global(const struct conf *c, enum policy policy, struct conf_resolved *r)
{
	memset(r, 0, sizeof(*r));
	resolve_section(&c->global, policy, r);
}

bool conf_prefix_matches(const struct conf_section *s, const char *name)
{
	size_t plen;

	if (!s->is_prefix)
		return false;
	plen = slice_prefix_len(s->name);
	return strncmp(name, s->name, plen) == 0 && strlen(name) > plen + 6;
}

void conf_resolve_slice(const struct conf *c, const char *name, enum policy policy,
			struct conf_resolved *r)
{
	size_t *order = xcalloc(c->n_slices, sizeof(*order)), n = 0;
	long exact = find_slice(c, name);

	memset(r, 0, sizeof(*r));
	for (size_t i = 0; i < c->n_slices; i++) {
		size_t j;

		if ((long)i == exact || !conf_prefix_matches(&c->slices[i], name))
			continue;
		/* shorter prefix = less specific = applied first */
		for (j = n; j > 0 && strlen(c->slices[order[j - 1]].name) >
				     strlen(c->slices[i].name); j--)
			order[j] = order[j - 1];
		order[j] = i;
		n++;
	}
	for (size_t i = 0; i < n; i++)
		resolve_section(&c->slices[order[i]], policy, r);
	if (exact >= 0)
		resolve_section(&c->slices[exact], policy, r);
	free(order);
}

long conf_section_for(const struct conf *c, const char *name)
{
	long best = find_slice(c, name);
	size_t best_len = 0;

	if (best >= 0)
		return best;
	for (size_t i = 0; i < c->n_slices; i++) {
		size_t len = strlen(c->slices[i].name);

		if (conf_prefix_matches(&c->slices[i], name) && len > best_len) {
			best = (long)i;
			best_len = len;
		}
	}
	return best;
}

/* The conflicts of one resolved slice; ck NULL only counts them. */
struct checker {
	conf_diag_fn diag;
	void *userdata;
	const char **files;	/* lines reported so far */
	unsigned *lines;
	size_t n, cap;
	int reported;
};

static void conflict(struct checker *ck, const char *file, unsigned line, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));

static void conflict(struct checker *ck, const char *file, unsigned line, const char *fmt, ...)
{
	char msg[512];
	va_list ap;

	if (!ck)
		return;
	/* A prefix section's line is in every slice it decides. */
	for (size_t i = 0; i < ck->n; i++)
		if (ck->files[i] == file && ck->lines[i] == line)
			return;
	if (ck->n == ck->cap) {
		ck->cap = ck->cap ? ck->cap * 2 : 8;
		ck->files = xrealloc(ck->files, ck->cap * sizeof(*ck->files));
		ck->lines = xrealloc(ck->lines, ck->cap * sizeof(*ck->lines));
	}
	ck->files[ck->n] = file;
	ck->lines[ck->n++] = line;
	ck->reported++;
	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	if (ck->diag)
		ck->diag(ck->userdata, CONF_ERROR, file, line, msg);
}

static const enum conf_key auto_keys[] = {
	KEY_PRESSURE_TARGET, KEY_RECLAIM_MIN, KEY_RECLAIM_MAX, KEY_RECLAIM_FLOOR,
};

static int check_auto_keys(const struct conf_resolved *r, const char *name, struct checker *ck)
{
	char amount[32];
	int n = 0;

	if (r->set[KEY_PROACTIVE_RECLAIM] && r->val[KEY_PROACTIVE_RECLAIM].is_auto)
		return 0;
	for (size_t i = 0; i < ARRAY_SIZE(auto_keys); i++) {
		enum conf_key k = auto_keys[i];

		if (!r->set[k])
			continue;
		n++;
		if (!r->set[KEY_PROACTIVE_RECLAIM]) {
			conflict(ck, r->file[k], r->line[k], "%s= counts only with ProactiveReclaim=auto; "
				 "%s has no ProactiveReclaim=", conf_key_name(k), name);
			continue;
		}
		format_size_spec(&r->val[KEY_PROACTIVE_RECLAIM].size, amount, sizeof(amount));
		conflict(ck, r->file[k], r->line[k], "%s= counts only with ProactiveReclaim=auto; "
			 "%s has ProactiveReclaim=%s (%s:%u)", conf_key_name(k), name, amount,
			 r->file[KEY_PROACTIVE_RECLAIM], r->line[KEY_PROACTIVE_RECLAIM]);
	}
	return n;
}

static int check_bounds(const struct conf_resolved *r, uint64_t mem_total, struct checker *ck)
{
	const struct size_spec *min = &r->val[KEY_RECLAIM_MIN].size, *max = &r->val[KEY_RECLAIM_MAX].size;
	uint64_t lo, hi;

	if (!r->set[KEY_RECLAIM_MIN] || !r->set[KEY_RECLAIM_MAX] ||
	    (!mem_total && (min->kind == SIZE_PERCENT || max->kind == SIZE_PERCENT)))
		return 0;
	lo = size_resolve(min, mem_total);
	hi = size_resolve(max, mem_total);
	if (lo <= hi)
		return 0;
	conflict(ck, r->file[KEY_RECLAIM_MIN], r->line[KEY_RECLAIM_MIN],
		 "ReclaimMin= (%llu bytes) is above ReclaimMax= (%llu bytes, %s:%u)",
		 (unsigned long long)lo, (unsigned long long)hi, r->file[KEY_RECLAIM_MAX],
		 r->line[KEY_RECLAIM_MAX]);
	return 1;
}

/* oomd kills on the "full" share of its slice over its limit; "full"
 * never exceeds "some", which the target is of, so a target under the
 * limit can never be what brings oomd's limit about. */
static int check_oomd(const struct conf_resolved *r, const char *name, struct checker *ck)
{
	bool own_limit = r->set[KEY_OOM_PRESSURE_LIMIT] && r->val[KEY_OOM_PRESSURE_LIMIT].num;
	uint64_t limit = own_limit ? r->val[KEY_OOM_PRESSURE_LIMIT].num : OOMD_DEFAULT_LIMIT_PERMYRIAD;
	bool own_target = r->set[KEY_PRESSURE_TARGET];
	uint32_t target = own_target ? (uint32_t)r->val[KEY_PRESSURE_TARGET].num : LOOP_TARGET_PPM;
	enum conf_key at = own_target ? KEY_PRESSURE_TARGET : KEY_PROACTIVE_RECLAIM;
	char t[32], l[32], which[PATH_MAX + 64];

	if (!r->set[KEY_OOM_PRESSURE] || r->val[KEY_OOM_PRESSURE].num != OOM_KILL ||
	    target < limit * (PPM_ONE / 10000))
		return 0;
	format_ppm(target, t, sizeof(t));
	format_percent((uint32_t)limit, l, sizeof(l));
	if (own_limit)
		snprintf(which, sizeof(which), "ManagedOOMMemoryPressureLimit=%s (%s:%u)", l,
			 r->file[KEY_OOM_PRESSURE_LIMIT], r->line[KEY_OOM_PRESSURE_LIMIT]);
	else
		snprintf(which, sizeof(which), "its default of %s", l);
	conflict(ck, r->file[at], r->line[at], "PressureTarget=%s%s is at or over systemd-oomd's "
		 "limit for %s, %s: oomd would kill at a stall the target allows; keep the target "
		 "well under it", t, own_target ? "" : " (the default)", name, which);
	return 1;
}

static int check_resolved(const struct conf_resolved *r, const char *name, uint64_t mem_total,
			  struct checker *ck)
{
	int n = check_auto_keys(r, name, ck);

	if (!r->set[KEY_PROACTIVE_RECLAIM] || !r->val[KEY_PROACTIVE_RECLAIM].is_auto)
		return n;
	return n + check_bounds(r, mem_total, ck) + check_oomd(r, name, ck);
}

int conf_check(const struct conf *c, enum policy policy, uint64_t mem_total,
	       conf_diag_fn diag, void *userdata)
{
	struct checker ck = { .diag = diag, .userdata = userdata };
	struct conf_resolved r;

	for (size_t i = 0; i < c->n_slices; i++) {
		conf_resolve_slice(c, c->slices[i].name, policy, &r);
		check_resolved(&r, c->slices[i].name, mem_total, &ck);
	}
	free(ck.files);
	free(ck.lines);
	return ck.reported;
}

bool conf_check_needs_mem_total(const struct conf *c)
{
	for (size_t i = 0; i < c->n_slices; i++)
		for (size_t j = 0; j < c->slices[i].n; j++) {
			const struct conf_assign *a = &c->slices[i].v[j];

			if ((a->key == KEY_RECLAIM_MIN || a->key == KEY_RECLAIM_MAX) && !a->val.reset &&
			    a->val.size.kind == SIZE_PERCENT)
				return true;
		}
	return false;
}

bool conf_slice_consistent(const struct conf_resolved *r, const char *name, uint64_t mem_total)
{
	return check_resolved(r, name, mem_total, NULL) == 0;
}
