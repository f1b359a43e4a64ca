// SPDX-License-Identifier: GPL-2.0-only
#include "values.h"

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Six decimals keep fraction * 2^40 (the T multiplier) below 2^64. */
#define MAX_DECIMALS 6

static const char SLICE_SUFFIX[] = ".slice";
_Static_assert(SLICE_NAME_MAX == 231, "update the 'slice name too long' message");
#define SLICE_SUFFIX_LEN (sizeof(SLICE_SUFFIX) - 1)

/* Locale-independent on purpose: the config must mean the same thing
 * whatever LANG the service manager passes. */
static bool is_digit(char c)
{
	return c >= '0' && c <= '9';
}

static int parse_digits(const char **p, uint64_t *v, const char **why)
{
	const char *s = *p;
	uint64_t r = 0;

	if (!is_digit(*s)) {
		*why = "expected a number";
		return -1;
	}
	for (; is_digit(*s); s++) {
		unsigned d = (unsigned)(*s - '0');

		if (r > (UINT64_MAX - d) / 10) {
			*why = "number too large";
			return -1;
		}
		r = r * 10 + d;
	}
	*p = s;
	*v = r;
	return 0;
}

/* The digits after a '.', as numerator and power-of-ten denominator. */
static int parse_fraction(const char **p, unsigned max_digits, uint64_t *num,
			  uint64_t *den, const char **why)
{
	const char *s = *p;
	unsigned n = 0;

	*num = 0;
	*den = 1;
	if (*s != '.')
		return 0;
	s++;
	if (!is_digit(*s)) {
		*why = "expected digits after '.'";
		return -1;
	}
	for (; is_digit(*s); s++, n++) {
		if (n == max_digits) {
			*why = "too many decimals";
			return -1;
		}
		*num = *num * 10 + (uint64_t)(*s - '0');
		*den *= 10;
	}
	*p = s;
	return 0;
}

/* N% with up to `decimals` decimals, from 0 to 100%, in units of
 * 10^-decimals percent. */
static int parse_scaled_percent(const char *s, unsigned decimals, uint64_t *out, const char **why)
{
	uint64_t ip, num, den, one = 1;
	const char *p = s;

	for (unsigned i = 0; i < decimals; i++)
		one *= 10;
	if (parse_digits(&p, &ip, why) < 0)
		return -1;
	if (parse_fraction(&p, decimals, &num, &den, why) < 0)
		return -1;
	if (p[0] != '%' || p[1] != '\0') {
		*why = decimals > 2 ? "expected a percentage like 0.1%" :
				      "expected a percentage like 60% or 12.5%";
		return -1;
	}
	if (ip > 100) {
		*why = "percentage above 100%";
		return -1;
	}
	ip = ip * one + num * (one / den);
	if (ip > 100 * one) {
		*why = "percentage above 100%";
		return -1;
	}
	*out = ip;
	return 0;
}

int parse_percent(const char *s, uint32_t *permyriad, const char **why)
{
	uint64_t v;

	if (parse_scaled_percent(s, 2, &v, why) < 0)
		return -1;
	*permyriad = (uint32_t)v;
	return 0;
}

int parse_percent_ppm(const char *s, uint32_t *ppm, const char **why)
{
	uint64_t v;

	if (parse_scaled_percent(s, 4, &v, why) < 0)
		return -1;
	*ppm = (uint32_t)v;
	return 0;
}

int parse_size(const char *s, struct size_spec *out, const char **why)
{
	uint64_t ip, num, den, mult, total, frac;
	const char *p = s;
	size_t len = strlen(s);

	if (strcmp(s, "infinity") == 0) {
		out->kind = SIZE_INFINITY;
		out->bytes = SIZE_INFINITY_BYTES;
		out->permyriad = 0;
		return 0;
	}
	if (len > 0 && s[len - 1] == '%') {
		out->kind = SIZE_PERCENT;
		out->bytes = 0;
		return parse_percent(s, &out->permyriad, why);
	}
	if (parse_digits(&p, &ip, why) < 0)
		return -1;
	if (parse_fraction(&p, MAX_DECIMALS, &num, &den, why) < 0)
		return -1;
	switch (*p) {
	case '\0': mult = 1; break;
	case 'K': mult = 1ull << 10; break;
	case 'M': mult = 1ull << 20; break;
	case 'G': mult = 1ull << 30; break;
	case 'T': mult = 1ull << 40; break;
	default:
		*why = "unknown size suffix (use K, M, G, T, N% or infinity)";
		return -1;
	}
	if (mult != 1 && p[1] != '\0') {
		*why = "unknown size suffix (use K, M, G, T, N% or infinity)";
		return -1;
	}
	if (mult == 1 && den != 1) {
		*why = "a fractional size needs a K, M, G or T suffix";
		return -1;
	}
	if (ip > UINT64_MAX / mult) {
		*why = "size too large";
		return -1;
	}
	total = ip * mult;
	frac = num * mult / den;
	if (total > UINT64_MAX - 1 - frac) {
		*why = "size too large";
		return -1;
	}
	out->kind = SIZE_BYTES;
	out->bytes = total + frac;
	out->permyriad = 0;
	return 0;
}

int parse_duration_ms(const char *s, uint64_t *ms, const char **why)
{
	uint64_t ip, num, den, unit, total;
	const char *p = s;

	if (parse_digits(&p, &ip, why) < 0)
		return -1;
	if (parse_fraction(&p, MAX_DECIMALS, &num, &den, why) < 0)
		return -1;
	if (*p == '\0' || strcmp(p, "s") == 0)
		unit = 1000;
	else if (strcmp(p, "ms") == 0)
		unit = 1;
	else if (strcmp(p, "min") == 0)
		unit = 60000;
	else {
		*why = "unknown time unit (use ms, s or min)";
		return -1;
	}
	if (ip > DURATION_MAX_MS / unit) {
		*why = "duration too long (at most 4294967295ms)";
		return -1;
	}
	total = ip * unit + num * unit / den;
	if (total > DURATION_MAX_MS) {
		*why = "duration too long (at most 4294967295ms)";
		return -1;
	}
	*ms = total;
	return 0;
}

int parse_uint_range(const char *s, unsigned lo, unsigned hi, unsigned *out,
		     const char **why)
{
	uint64_t v;
	const char *p = s;

	if (parse_digits(&p, &v, why) < 0)
		return -1;
	if (*p != '\0') {
		*why = "expected a whole number";
		return -1;
	}
	if (v < lo || v > hi) {
		*why = "number out of range";
		return -1;
	}
	*out = (unsigned)v;
	return 0;
}

static const char *const policy_names[POLICY__MAX] = {
	[POLICY_CLASSIC] = "classic",
	[POLICY_MGLRU] = "mglru",
	[POLICY_FG] = "fg",
};

const char *policy_name(enum policy p)
{
	return (unsigned)p < POLICY__MAX ? policy_names[p] : "unknown";
}

int parse_policy(const char *s, enum policy *out)
{
	for (unsigned i = 0; i < POLICY__MAX; i++)
		if (strcmp(s, policy_names[i]) == 0) {
			*out = (enum policy)i;
			return 0;
		}
	return -1;
}

int parse_policy_list(const char *s, unsigned *mask, const char **why)
{
	unsigned m = 0;

	while (*s) {
		char word[16];
		size_t n = strcspn(s, " \t");

		if (n == 0) {
			s++;
			continue;
		}
		enum policy p;
		if (n >= sizeof(word)) {
			*why = "unknown policy (use classic, mglru or fg)";
			return -1;
		}
		memcpy(word, s, n);
		word[n] = '\0';
		if (parse_policy(word, &p) < 0) {
			*why = "unknown policy (use classic, mglru or fg)";
			return -1;
		}
		m |= POLICY_MASK(p);
		s += n;
	}
	*mask = m;
	return 0;
}

int parse_oom_mode(const char *s, enum oom_mode *out)
{
	if (strcmp(s, "auto") == 0)
		*out = OOM_AUTO;
	else if (strcmp(s, "kill") == 0)
		*out = OOM_KILL;
	else
		return -1;
	return 0;
}

void parse_oomd_properties(const char *text, enum oom_mode *mode, uint32_t *limit_permyriad)
{
	static const char MODE[] = "ManagedOOMMemoryPressure=", LIMIT[] = "ManagedOOMMemoryPressureLimit=";

	*mode = OOM_AUTO;
	*limit_permyriad = 0;
	for (const char *l = text; l && *l; l = strchr(l, '\n'), l = l ? l + 1 : NULL) {
		char v[32];
		size_t len = strcspn(l, "\n");
		const char *why;

		if (strncmp(l, MODE, sizeof(MODE) - 1) == 0) {
			len -= sizeof(MODE) - 1;
			if (len < sizeof(v)) {
				memcpy(v, l + sizeof(MODE) - 1, len);
				v[len] = '\0';
				parse_oom_mode(v, mode);
			}
		} else if (strncmp(l, LIMIT, sizeof(LIMIT) - 1) == 0) {
			uint32_t pm;
			uint64_t raw;
			const char *p = v;

			len -= sizeof(LIMIT) - 1;
			if (len >= sizeof(v))
				continue;
			memcpy(v, l + sizeof(LIMIT) - 1, len);
			v[len] = '\0';
			if (len && v[len - 1] == '%') {
				if (parse_percent(v, &pm, &why) == 0)
					*limit_permyriad = pm;
			} else if (parse_digits(&p, &raw, &why) == 0 && !*p && raw <= UINT32_MAX) {
				/* to the nearest permyriad */
				*limit_permyriad = (uint32_t)((raw * 10000 + UINT32_MAX / 2) / UINT32_MAX);
			}
		}
	}
}

const char *oom_mode_name(enum oom_mode m)
{
	return m == OOM_KILL ? "kill" : "auto";
}

uint64_t size_resolve(const struct size_spec *s, uint64_t mem_total)
{
	switch (s->kind) {
	case SIZE_INFINITY:
		return SIZE_INFINITY_BYTES;
	case SIZE_PERCENT:
		/* Split so that nothing overflows without 128-bit math. */
		return mem_total / 10000 * s->permyriad +
		       mem_total % 10000 * s->permyriad / 10000;
	case SIZE_BYTES:
	default:
		return s->bytes;
	}
}

void format_bytes(uint64_t bytes, char *buf, size_t n)
{
	if (bytes == SIZE_INFINITY_BYTES)
		snprintf(buf, n, "infinity");
	else
		snprintf(buf, n, "%llu", (unsigned long long)bytes);
}

void format_percent(uint32_t permyriad, char *buf, size_t n)
{
	if (permyriad % 100 == 0)
		snprintf(buf, n, "%u%%", permyriad / 100);
	else
		snprintf(buf, n, "%u.%02u%%", permyriad / 100, permyriad % 100);
}

void format_ppm(uint32_t ppm, char *buf, size_t n)
{
	unsigned frac = ppm % 10000, digits = 4;

	if (!frac) {
		snprintf(buf, n, "%u%%", ppm / 10000);
		return;
	}
	while (frac % 10 == 0) {
		frac /= 10;
		digits--;
	}
	snprintf(buf, n, "%u.%0*u%%", ppm / 10000, (int)digits, frac);
}

void format_size_spec(const struct size_spec *s, char *buf, size_t n)
{
	if (s->kind == SIZE_PERCENT)
		format_percent(s->permyriad, buf, n);
	else
		format_bytes(s->kind == SIZE_INFINITY ? SIZE_INFINITY_BYTES : s->bytes, buf, n);
}

uint64_t mul_div(uint64_t a, uint64_t b, uint64_t c)
{
	uint64_t q, r, hi, lo;

	if (c == 0)
		return UINT64_MAX;
	/* Without 128-bit arithmetic, which not every compiler has: a / c
	 * whole, times b, plus the remainder's share, r * b / c, where only
	 * r * b can overflow. Then the larger of r and b is halved with c,
	 * which keeps the result but for low bits; as r < c, c stays >= 1. */
	q = a / c;
	r = a % c;
	if (q && b > UINT64_MAX / q)
		return UINT64_MAX;
	hi = q * b;
	while (b && r > UINT64_MAX / b) {
		if (b > r)
			b >>= 1;
		else
			r >>= 1;
		c >>= 1;
	}
	lo = r * b / c;
	return hi > UINT64_MAX - lo ? UINT64_MAX : hi + lo;
}

void cgroup_shown_value(uint64_t bytes, unsigned long page_size, char *buf,
			size_t n)
{
	uint64_t counter_max = (uint64_t)LONG_MAX / page_size;
	uint64_t pages = bytes / page_size;

	if (bytes == SIZE_INFINITY_BYTES || pages >= counter_max)
		snprintf(buf, n, "max");
	else
		snprintf(buf, n, "%llu", (unsigned long long)(pages * page_size));
}

int parse_policy_file(const char *content, enum policy *out)
{
	const char *open = strchr(content, '[');
	const char *close;
	char word[16];

	if (!open)
		return -1;
	close = strchr(open, ']');
	if (!close || (size_t)(close - open - 1) >= sizeof(word))
		return -1;
	memcpy(word, open + 1, (size_t)(close - open - 1));
	word[close - open - 1] = '\0';
	return parse_policy(word, out);
}

int parse_enabled_file(const char *content, enum policy *out)
{
	char *end;
	unsigned long long v;

	while (*content == ' ' || *content == '\t')
		content++;
	if (!is_digit(*content))
		return -1;
	errno = 0;
	v = strtoull(content, &end, 0);
	if (errno || end == content)
		return -1;
	while (*end == ' ' || *end == '\t' || *end == '\n')
		end++;
	if (*end)
		return -1;
	*out = v == 0 ? POLICY_CLASSIC : POLICY_MGLRU;
	return 0;
}

static bool unit_char_ok(char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
	       is_digit(c) || c == ':' || c == '_' || c == '.' || c == '\\' ||
	       c == '-';
}

bool slice_is_root(const char *name)
{
	return strcmp(name, "-.slice") == 0;
}

bool slice_name_valid(const char *name, bool *is_prefix, const char **why)
{
	size_t len = strlen(name), base;

	*is_prefix = false;
	if (len > SLICE_NAME_MAX) {
		*why = "slice name too long: at most 231 characters, so that the file names "
		       "derived from it fit in 255 bytes";
		return false;
	}
	if (len <= SLICE_SUFFIX_LEN ||
	    strcmp(name + len - SLICE_SUFFIX_LEN, SLICE_SUFFIX) != 0) {
		*why = "not a slice name (NAME.slice)";
		return false;
	}
	if (slice_is_root(name))
		return true;
	base = len - SLICE_SUFFIX_LEN;
	for (size_t i = 0; i < base; i++)
		if (!unit_char_ok(name[i])) {
			*why = "invalid character in slice name";
			return false;
		}
	/* Dashes are the slice hierarchy: each must separate two
	 * non-empty components, except one trailing dash, which makes a
	 * prefix drop-in name like user-.slice. */
	if (name[0] == '-' || strstr(name, "--")) {
		*why = "empty component in slice name";
		return false;
	}
	*is_prefix = name[base - 1] == '-';
	{
		char path[SLICE_PATH_MAX];

		if (slice_cgroup_path(name, path, sizeof(path)) < 0) {
			*why = "nested too deep: its cgroup path would be too long";
			return false;
		}
	}
	return true;
}

size_t slice_prefix_len(const char *name)
{
	size_t len = strlen(name);

	return len > SLICE_SUFFIX_LEN ? len - SLICE_SUFFIX_LEN : 0;
}

static const char *const controllers[] = {
	"cpu", "cpuacct", "cpuset", "io", "blkio", "memory", "devices",
	"pids", "bpf-firewall", "bpf-devices", "bpf-foreign",
	"bpf-socket-bind", "bpf-restrict-network-interfaces",
};

int cg_escape(const char *name, char *buf, size_t n)
{
	bool prefix = name[0] == '_' || name[0] == '.' ||
		      strcmp(name, "notify_on_release") == 0 ||
		      strcmp(name, "release_agent") == 0 ||
		      strcmp(name, "tasks") == 0 ||
		      strncmp(name, "cgroup.", 7) == 0;
	const char *dot = strrchr(name, '.');

	for (size_t i = 0; !prefix && dot && i < sizeof(controllers) / sizeof(*controllers); i++)
		prefix = strlen(controllers[i]) == (size_t)(dot - name) &&
			 strncmp(name, controllers[i], (size_t)(dot - name)) == 0;
	if ((size_t)snprintf(buf, n, "%s%s", prefix ? "_" : "", name) >= n)
		return -1;
	return 0;
}

const char *cg_unescape(const char *dirname)
{
	return dirname[0] == '_' ? dirname + 1 : dirname;
}

int slice_cgroup_path(const char *name, char *buf, size_t n)
{
	char base[UNIT_NAME_MAX + 1], comp[UNIT_NAME_MAX + 8], esc[UNIT_NAME_MAX + 8];
	size_t blen, off = 0;

	if (slice_is_root(name)) {
		if (n == 0)
			return -1;
		buf[0] = '\0';
		return 0;
	}
	blen = slice_prefix_len(name);
	if (blen == 0 || blen >= sizeof(base))
		return -1;
	memcpy(base, name, blen);
	if (base[blen - 1] == '-')
		blen--;	/* a prefix lives where its parent slice does */
	base[blen] = '\0';
	for (size_t i = 0; i <= blen; i++) {
		int w;

		if (i < blen && base[i] != '-')
			continue;
		snprintf(comp, sizeof(comp), "%.*s.slice", (int)i, base);
		if (cg_escape(comp, esc, sizeof(esc)) < 0)
			return -1;
		w = snprintf(buf + off, n - off, "%s%s", off ? "/" : "", esc);
		if (w < 0 || (size_t)w >= n - off)
			return -1;
		off += (size_t)w;
	}
	return 0;
}
