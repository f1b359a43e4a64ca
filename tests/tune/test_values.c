// SPDX-License-Identifier: GPL-2.0-only
/* Value syntax: sizes, percentages, durations, policies, slice names. */
#include <limits.h>
#include <string.h>

#include "harness.h"
#include "tests.h"
#include "values.h"

static void size_ok(const char *s, enum size_kind kind, uint64_t bytes, uint32_t pm)
{
	struct size_spec v = { 0 };
	const char *why = NULL;

	if (parse_size(s, &v, &why) < 0) {
		h_fail(__FILE__, __LINE__, "parse_size(\"%s\") failed: %s", s, why);
		return;
	}
	if (v.kind != kind || (kind == SIZE_BYTES && v.bytes != bytes) ||
	    (kind == SIZE_PERCENT && v.permyriad != pm))
		h_fail(__FILE__, __LINE__, "parse_size(\"%s\") = kind %d bytes %llu pm %u", s,
		       v.kind, (unsigned long long)v.bytes, v.permyriad);
}

static void size_bad(const char *s, const char *why_part)
{
	struct size_spec v;
	const char *why = NULL;

	if (parse_size(s, &v, &why) == 0)
		h_fail(__FILE__, __LINE__, "parse_size(\"%s\") accepted", s);
	else if (!why || !strstr(why, why_part))
		h_fail(__FILE__, __LINE__, "parse_size(\"%s\"): \"%s\", want \"%s\"", s,
		       why ? why : "(null)", why_part);
}

static void test_sizes(void)
{
	size_ok("0", SIZE_BYTES, 0, 0);
	size_ok("4096", SIZE_BYTES, 4096, 0);
	size_ok("1K", SIZE_BYTES, 1024, 0);
	size_ok("64M", SIZE_BYTES, 64ull << 20, 0);
	size_ok("8G", SIZE_BYTES, 8ull << 30, 0);
	size_ok("2T", SIZE_BYTES, 2ull << 40, 0);
	size_ok("1.5G", SIZE_BYTES, 3ull << 29, 0);
	size_ok("0.5K", SIZE_BYTES, 512, 0);
	size_ok("007M", SIZE_BYTES, 7ull << 20, 0);
	size_ok("infinity", SIZE_INFINITY, 0, 0);
	size_ok("50%", SIZE_PERCENT, 0, 5000);
	size_ok("12.5%", SIZE_PERCENT, 0, 1250);
	size_ok("0.01%", SIZE_PERCENT, 0, 1);
	size_ok("100%", SIZE_PERCENT, 0, 10000);
	size_ok("18446744073709551614", SIZE_BYTES, UINT64_MAX - 1, 0);
	size_ok("16777215T", SIZE_BYTES, 16777215ull << 40, 0);

	size_bad("", "expected a number");
	size_bad("-1", "expected a number");
	size_bad(" 1", "expected a number");
	size_bad("1X", "unknown size suffix");
	size_bad("1KB", "unknown size suffix");
	size_bad("1k", "unknown size suffix");
	size_bad("1 G", "unknown size suffix");
	size_bad("1.5", "needs a K, M, G or T suffix");
	size_bad("1.G", "expected digits after '.'");
	size_bad(".5G", "expected a number");
	size_bad("1.0000001G", "too many decimals");
	size_bad("infinityx", "expected a number");
	/* overflow: UINT64_MAX is infinity, 2^24 T is 2^64, 2^64 as digits */
	size_bad("18446744073709551615", "too large");
	size_bad("16777216T", "too large");
	size_bad("18446744073709551616", "too large");
	size_bad("99999999999999999999999", "too large");
	size_bad("16777216.0T", "too large");
	size_bad("101%", "above 100%");
	size_bad("100.01%", "above 100%");
	size_bad("99999999999999999999999%", "too large");
	size_bad("1.234%", "too many decimals");
	size_bad("5 %", "percentage");
}

static void test_size_resolve(void)
{
	struct size_spec half = { SIZE_PERCENT, 0, 5000 }, tiny = { SIZE_PERCENT, 0, 1 },
			 all = { SIZE_PERCENT, 0, 10000 }, inf = { SIZE_INFINITY, 0, 0 },
			 b = { SIZE_BYTES, 12345, 0 };
	uint64_t ram = 16777216ull * 1024;
	char buf[32];

	CHECK_U64(size_resolve(&half, ram), 8589934592ull);
	CHECK_U64(size_resolve(&tiny, ram), 1717986ull);	/* rounded down */
	CHECK_U64(size_resolve(&all, ram), ram);
	CHECK_U64(size_resolve(&all, UINT64_MAX - 1), UINT64_MAX - 1);	/* no overflow */
	CHECK_U64(size_resolve(&inf, ram), UINT64_MAX);
	CHECK_U64(size_resolve(&b, ram), 12345);
	format_bytes(UINT64_MAX, buf, sizeof(buf));
	CHECK_STR(buf, "infinity");
	format_bytes(4096, buf, sizeof(buf));
	CHECK_STR(buf, "4096");
}

static void dur_ok(const char *s, uint64_t ms)
{
	uint64_t v = 12345678;
	const char *why = NULL;

	if (parse_duration_ms(s, &v, &why) < 0)
		h_fail(__FILE__, __LINE__, "parse_duration_ms(\"%s\") failed: %s", s, why);
	else if (v != ms)
		h_fail(__FILE__, __LINE__, "parse_duration_ms(\"%s\") = %llu, want %llu", s,
		       (unsigned long long)v, (unsigned long long)ms);
}

static void dur_bad(const char *s, const char *why_part)
{
	uint64_t v;
	const char *why = NULL;

	if (parse_duration_ms(s, &v, &why) == 0)
		h_fail(__FILE__, __LINE__, "parse_duration_ms(\"%s\") accepted", s);
	else if (!why || !strstr(why, why_part))
		h_fail(__FILE__, __LINE__, "parse_duration_ms(\"%s\"): \"%s\", want \"%s\"", s,
		       why ? why : "(null)", why_part);
}

static void test_durations(void)
{
	dur_ok("0", 0);
	dur_ok("1", 1000);
	dur_ok("1s", 1000);
	dur_ok("250ms", 250);
	dur_ok("2min", 120000);
	dur_ok("1.5s", 1500);
	dur_ok("0.25min", 15000);
	dur_ok("1.9ms", 1);
	dur_ok("4294967295ms", 4294967295ull);
	dur_ok("4294967s", 4294967000ull);
	dur_ok("71582min", 4294920000ull);

	dur_bad("", "expected a number");
	dur_bad("s", "expected a number");
	dur_bad("-1s", "expected a number");
	dur_bad("1h", "unknown time unit");
	dur_bad("1 s", "unknown time unit");
	dur_bad("1sec", "unknown time unit");
	dur_bad("4294967296ms", "too long");
	dur_bad("4294968s", "too long");
	dur_bad("71583min", "too long");
	dur_bad("4294967295.5s", "too long");
	dur_bad("99999999999999999999999", "too large");
	dur_bad("1.1234567s", "too many decimals");
}

static void test_percent_and_numbers(void)
{
	uint32_t pm = 0;
	unsigned u = 0;
	const char *why;
	char buf[16];

	CHECK_INT(parse_percent("60%", &pm, &why), 0);
	CHECK_INT(pm, 6000);
	CHECK_INT(parse_percent("60.5%", &pm, &why), 0);
	CHECK_INT(pm, 6050);
	CHECK_INT(parse_percent("0%", &pm, &why), 0);
	CHECK_INT(pm, 0);
	CHECK_INT(parse_percent("60", &pm, &why), -1);
	CHECK_INT(parse_percent("60 %", &pm, &why), -1);
	CHECK_INT(parse_percent("abc%", &pm, &why), -1);
	CHECK_INT(parse_percent("%", &pm, &why), -1);
	format_percent(6050, buf, sizeof(buf));
	CHECK_STR(buf, "60.50%");
	format_percent(6000, buf, sizeof(buf));
	CHECK_STR(buf, "60%");
	format_percent(5, buf, sizeof(buf));
	CHECK_STR(buf, "0.05%");

	CHECK_INT(parse_uint_range("0", 0, 200, &u, &why), 0);
	CHECK_INT(u, 0);
	CHECK_INT(parse_uint_range("200", 0, 200, &u, &why), 0);
	CHECK_INT(u, 200);
	CHECK_INT(parse_uint_range("201", 0, 200, &u, &why), -1);
	CHECK_INT(parse_uint_range("1x", 0, 200, &u, &why), -1);
	CHECK_INT(parse_uint_range("", 0, 200, &u, &why), -1);
	CHECK_INT(parse_uint_range("99999999999999999999999", 0, 200, &u, &why), -1);
}

static void test_ppm_and_oomd(void)
{
	uint32_t ppm = 7, pm = 7;
	enum oom_mode m;
	const char *why = NULL;
	char buf[16];

	CHECK_INT(parse_percent_ppm("0.1%", &ppm, &why), 0);
	CHECK_INT(ppm, 1000);
	CHECK_INT(parse_percent_ppm("0.0001%", &ppm, &why), 0);
	CHECK_INT(ppm, 1);
	CHECK_INT(parse_percent_ppm("100%", &ppm, &why), 0);
	CHECK_INT(ppm, 1000000);
	CHECK_INT(parse_percent_ppm("12.3456%", &ppm, &why), 0);
	CHECK_INT(ppm, 123456);
	CHECK_INT(parse_percent_ppm("0.00001%", &ppm, &why), -1);
	CHECK_STR(why, "too many decimals");
	CHECK_INT(parse_percent_ppm("100.0001%", &ppm, &why), -1);
	CHECK_STR(why, "percentage above 100%");
	CHECK_INT(parse_percent_ppm("0.1", &ppm, &why), -1);
	CHECK_STR(why, "expected a percentage like 0.1%");
	format_ppm(1000, buf, sizeof(buf));
	CHECK_STR(buf, "0.1%");
	format_ppm(123456, buf, sizeof(buf));
	CHECK_STR(buf, "12.3456%");
	format_ppm(10000, buf, sizeof(buf));
	CHECK_STR(buf, "1%");
	format_ppm(0, buf, sizeof(buf));
	CHECK_STR(buf, "0%");
	format_ppm(1, buf, sizeof(buf));
	CHECK_STR(buf, "0.0001%");

	CHECK_U64(mul_div(3, 5, 2), 7);
	CHECK_U64(mul_div(UINT64_MAX, 1000000, 1000000), UINT64_MAX);
	CHECK_U64(mul_div(UINT64_MAX, 3, 2), UINT64_MAX);	/* saturated, no wrap */
	CHECK_U64(mul_div(1000001, UINT64_MAX / 1000, UINT64_MAX / 1000), 1000001);
	CHECK_U64(mul_div(1ull << 62, 1ull << 20, 1ull << 40), 1ull << 42);
	CHECK_U64(mul_div(1, 1, 0), UINT64_MAX);

	/* percentages, or (systemd 252) the bus value: 2^32 - 1 is 100% */
	parse_oomd_properties("ManagedOOMMemoryPressure=kill\nManagedOOMMemoryPressureLimit=2576980377\n",
			      &m, &pm);
	CHECK_INT(m, OOM_KILL);
	CHECK_INT(pm, 6000);
	parse_oomd_properties("ManagedOOMMemoryPressureLimit=12.50%\nManagedOOMMemoryPressure=auto",
			      &m, &pm);
	CHECK_INT(m, OOM_AUTO);
	CHECK_INT(pm, 1250);
	parse_oomd_properties("ManagedOOMMemoryPressure=kill\nManagedOOMMemoryPressureLimit=4294967296\n",
			      &m, &pm);
	CHECK_INT(m, OOM_KILL);
	CHECK_INT(pm, 0);	/* out of range: not set */
	parse_oomd_properties("ManagedOOMMemoryPressure=sometimes\nManagedOOMMemoryPressureLimit=0\n",
			      &m, &pm);
	CHECK_INT(m, OOM_AUTO);
	CHECK_INT(pm, 0);
}

static void test_policies(void)
{
	enum policy p = POLICY__MAX;
	enum oom_mode m;
	unsigned mask = 99;
	const char *why;

	CHECK_INT(parse_policy("fg", &p), 0);
	CHECK_INT(p, POLICY_FG);
	CHECK_INT(parse_policy("FG", &p), -1);
	CHECK_INT(parse_policy_list("fg", &mask, &why), 0);
	CHECK_INT(mask, POLICY_MASK(POLICY_FG));
	CHECK_INT(parse_policy_list(" mglru\tfg  ", &mask, &why), 0);
	CHECK_INT(mask, POLICY_MASK(POLICY_MGLRU) | POLICY_MASK(POLICY_FG));
	CHECK_INT(parse_policy_list("", &mask, &why), 0);
	CHECK_INT(mask, 0);
	CHECK_INT(parse_policy_list("fg bogus", &mask, &why), -1);
	CHECK_INT(parse_policy_list("averyveryverylongpolicyname", &mask, &why), -1);
	CHECK_INT(parse_oom_mode("kill", &m), 0);
	CHECK_INT(m, OOM_KILL);
	CHECK_INT(parse_oom_mode("auto", &m), 0);
	CHECK_INT(m, OOM_AUTO);
	CHECK_INT(parse_oom_mode("stop", &m), -1);

	CHECK_INT(parse_policy_file("classic mglru [fg]\n", &p), 0);
	CHECK_INT(p, POLICY_FG);
	CHECK_INT(parse_policy_file("[classic] mglru fg", &p), 0);
	CHECK_INT(p, POLICY_CLASSIC);
	CHECK_INT(parse_policy_file("classic [mglru] fg", &p), 0);
	CHECK_INT(p, POLICY_MGLRU);
	CHECK_INT(parse_policy_file("classic mglru fg", &p), -1);
	CHECK_INT(parse_policy_file("classic [bogus", &p), -1);
	CHECK_INT(parse_policy_file("[bogus]", &p), -1);
	CHECK_INT(parse_enabled_file("0x0000\n", &p), 0);
	CHECK_INT(p, POLICY_CLASSIC);
	CHECK_INT(parse_enabled_file("0x0007\n", &p), 0);
	CHECK_INT(p, POLICY_MGLRU);
	CHECK_INT(parse_enabled_file("0x0001", &p), 0);
	CHECK_INT(p, POLICY_MGLRU);
	CHECK_INT(parse_enabled_file("0", &p), 0);
	CHECK_INT(p, POLICY_CLASSIC);
	CHECK_INT(parse_enabled_file("y", &p), -1);
	CHECK_INT(parse_enabled_file("", &p), -1);
	CHECK_INT(parse_enabled_file("0x7 junk", &p), -1);
}

static void test_cgroup_rounding(void)
{
	char buf[32];

	cgroup_shown_value(UINT64_MAX, 4096, buf, sizeof(buf));
	CHECK_STR(buf, "max");
	cgroup_shown_value(1000000, 4096, buf, sizeof(buf));
	CHECK_STR(buf, "999424");
	cgroup_shown_value(4095, 4096, buf, sizeof(buf));
	CHECK_STR(buf, "0");
	cgroup_shown_value(8589934592ull, 4096, buf, sizeof(buf));
	CHECK_STR(buf, "8589934592");
	/* the page counter saturates at LONG_MAX / PAGE_SIZE pages */
	cgroup_shown_value((uint64_t)LONG_MAX, 4096, buf, sizeof(buf));
	CHECK_STR(buf, "max");
	cgroup_shown_value((uint64_t)LONG_MAX / 4096 * 4096 - 4096, 4096, buf, sizeof(buf));
	CHECK_STR(buf, "9223372036854767616");
	cgroup_shown_value(100000, 65536, buf, sizeof(buf));
	CHECK_STR(buf, "65536");
}

static void name_ok(const char *name, bool prefix)
{
	bool is_prefix = !prefix;
	const char *why = NULL;

	if (!slice_name_valid(name, &is_prefix, &why))
		h_fail(__FILE__, __LINE__, "\"%s\" rejected: %s", name, why);
	else if (is_prefix != prefix)
		h_fail(__FILE__, __LINE__, "\"%s\": prefix %d", name, is_prefix);
}

static void name_bad(const char *name)
{
	bool is_prefix;
	const char *why = NULL;

	if (slice_name_valid(name, &is_prefix, &why))
		h_fail(__FILE__, __LINE__, "\"%s\" accepted", name);
	else if (!why)
		h_fail(__FILE__, __LINE__, "\"%s\" rejected without a reason", name);
}

static void path_is(const char *name, const char *want)
{
	char buf[PATH_MAX];

	if (slice_cgroup_path(name, buf, sizeof(buf)) < 0)
		h_fail(__FILE__, __LINE__, "slice_cgroup_path(\"%s\") failed", name);
	else if (strcmp(buf, want) != 0)
		h_fail(__FILE__, __LINE__, "slice_cgroup_path(\"%s\") = \"%s\", want \"%s\"", name,
		       buf, want);
}

static void test_slice_names(void)
{
	char long_name[300], buf[64];

	name_ok("system.slice", false);
	name_ok("-.slice", false);
	name_ok("user-1000.slice", false);
	name_ok("user-.slice", true);
	name_ok("a-b-.slice", true);
	name_ok("machine-qemu\\x2d1.slice", false);
	name_bad("system");
	name_bad(".slice");
	name_bad("foo.service");
	name_bad("-foo.slice");
	name_bad("a--b.slice");
	name_bad("a b.slice");
	name_bad("a/b.slice");
	name_bad("a@b.slice");
	/* 231 characters: "reclaim-NAME.stamp.tmpXXXXXX" then fills 255 */
	memset(long_name, 'a', sizeof(long_name));
	strcpy(long_name + 226, ".slice");
	name_bad(long_name);
	strcpy(long_name + 225, ".slice");
	name_ok(long_name, false);
	memset(long_name, 'a', sizeof(long_name));
	strcpy(long_name + 249, ".slice");
	name_bad(long_name);
	/* found by the fuzzer: 120 levels of cgroups */
	for (int i = 0; i < 240; i += 2)
		memcpy(long_name + i, "a-", 2);
	strcpy(long_name + 240, "b.slice");
	name_bad(long_name);
	for (int i = 0; i < 20; i += 2)
		memcpy(long_name + i, "a-", 2);
	strcpy(long_name + 20, "b.slice");
	name_ok(long_name, false);

	path_is("-.slice", "");
	path_is("system.slice", "system.slice");
	path_is("a-b-c.slice", "a.slice/a-b.slice/a-b-c.slice");
	path_is("user-.slice", "user.slice");
	path_is("a-b-.slice", "a.slice/a-b.slice");
	/* names that could clash with kernel files get systemd's '_' */
	path_is("memory.slice", "_memory.slice");
	path_is("cpu-x.slice", "_cpu.slice/cpu-x.slice");
	CHECK_INT(cg_escape("_x.slice", buf, sizeof(buf)), 0);
	CHECK_STR(buf, "__x.slice");
	CHECK_INT(cg_escape("cgroup.x", buf, sizeof(buf)), 0);
	CHECK_STR(buf, "_cgroup.x");
	CHECK_INT(cg_escape("system.slice", buf, sizeof(buf)), 0);
	CHECK_STR(buf, "system.slice");
	CHECK_STR(cg_unescape("_memory.slice"), "memory.slice");
	CHECK_STR(cg_unescape("user.slice"), "user.slice");
	CHECK_INT(cg_escape("system.slice", buf, 5), -1);
	CHECK_INT(slice_cgroup_path("a-b-c.slice", buf, 10), -1);
}

void tests_values(void)
{
	h_run("values: sizes, suffixes, percent, infinity, overflow", test_sizes);
	h_run("values: percentages resolve against MemTotal", test_size_resolve);
	h_run("values: durations ms/s/min and bounds", test_durations);
	h_run("values: percent limits and swappiness range", test_percent_and_numbers);
	h_run("values: PressureTarget= shares in ppm, mul_div, systemctl's oomd properties",
	      test_ppm_and_oomd);
	h_run("values: policy names, lists, policy and enabled files", test_policies);
	h_run("values: cgroup page rounding and saturation", test_cgroup_rounding);
	h_run("values: slice names and cgroup paths", test_slice_names);
}
