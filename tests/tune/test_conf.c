// SPDX-License-Identifier: GPL-2.0-only
/* The parser, resolution rules, the search path, and the fuzzer's
 * regression inputs. */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "conf-files.h"
#include "conf.h"
#include "harness.h"
#include "tests.h"

/* Diagnostics as "E file:line: msg" / "W file:line: msg" lines. */
struct diags {
	char text[16384];
	unsigned errors, warnings;
};

static void collect(void *userdata, enum conf_diag level, const char *file, unsigned line,
		    const char *msg)
{
	struct diags *d = userdata;
	size_t n = strlen(d->text);

	snprintf(d->text + n, sizeof(d->text) - n, "%c %s:%u: %s\n",
		 level == CONF_ERROR ? 'E' : 'W', file, line, msg);
	if (level == CONF_ERROR)
		d->errors++;
	else
		d->warnings++;
}

static int parse(struct conf *c, struct diags *d, const char *file, const char *text)
{
	return conf_parse(c, file, text, strlen(text), collect, d);
}

static void test_sections_comments_whitespace(void)
{
	const char *text =
		"\xef\xbb\xbf# a comment\r\n"
		"; another comment\n"
		"\n"
		"   [Global]   \n"
		"\tMinTTL = 2s \t\r\n"
		"[ Slice   system.slice ]\n"
		"  MemoryHigh=  1G\n"
		"#MemoryMax=5G\n"
		"[Slice system.slice]\n"
		"MemoryMax=2G";		/* no final newline */
	struct conf c;
	struct diags d = { "", 0, 0 };
	struct conf_resolved r;

	conf_init(&c);
	CHECK_INT(parse(&c, &d, "/t/a.conf", text), 0);
	CHECK_STR(d.text, "");
	CHECK_INT(c.n_slices, 1);
	conf_resolve_global(&c, POLICY_FG, &r);
	CHECK(r.set[KEY_MIN_TTL]);
	CHECK_U64(r.val[KEY_MIN_TTL].num, 2000);
	CHECK_STR(r.file[KEY_MIN_TTL], "/t/a.conf");
	CHECK_INT(r.line[KEY_MIN_TTL], 5);
	conf_resolve_slice(&c, "system.slice", POLICY_FG, &r);
	CHECK(r.set[KEY_MEMORY_HIGH]);
	CHECK_U64(r.val[KEY_MEMORY_HIGH].size.bytes, 1ull << 30);
	CHECK_INT(r.line[KEY_MEMORY_HIGH], 7);
	CHECK(r.set[KEY_MEMORY_MAX]);
	CHECK_U64(r.val[KEY_MEMORY_MAX].size.bytes, 2ull << 30);
	CHECK_INT(r.line[KEY_MEMORY_MAX], 10);
	CHECK(!r.set[KEY_MEMORY_LOW]);
	conf_free(&c);
}

static void test_every_key(void)
{
	const char *text =
		"[Global]\n"
		"ExpectPolicy=mglru\n"
		"MinTTL=1500ms\n"
		"[Slice work.slice]\n"
		"MemoryMin=1M\n"
		"MemoryLow=2%\n"
		"MemoryHigh=3G\n"
		"MemoryMax=infinity\n"
		"MemorySwapMax=0\n"
		"MemoryZSwapMax=512K\n"
		"ManagedOOMMemoryPressure=kill\n"
		"ManagedOOMMemoryPressureLimit=60.5%\n"
		"ProactiveReclaim=1%\n"
		"ReclaimSwappiness=200\n"
		"ReclaimInterval=2min\n"
		"PressureTarget=0.25%\n"
		"ReclaimMin=1M\n"
		"ReclaimMax=2%\n"
		"ReclaimFloor=3G\n"
		"Policy=fg\n"
		"ExpectPolicy=fg\n";
	struct conf c;
	struct diags d = { "", 0, 0 };
	struct conf_resolved r;

	conf_init(&c);
	CHECK_INT(parse(&c, &d, "f", text), 0);
	CHECK_STR(d.text, "");
	conf_resolve_global(&c, POLICY_CLASSIC, &r);
	CHECK_U64(r.val[KEY_EXPECT_POLICY].num, POLICY_MGLRU);
	CHECK_U64(r.val[KEY_MIN_TTL].num, 1500);
	conf_resolve_slice(&c, "work.slice", POLICY_CLASSIC, &r);
	for (int k = KEY_MEMORY_MIN; k < KEY__MAX; k++)
		CHECK(r.set[k]);
	CHECK_U64(r.val[KEY_MEMORY_MIN].size.bytes, 1 << 20);
	CHECK_INT(r.val[KEY_MEMORY_LOW].size.kind, SIZE_PERCENT);
	CHECK_INT(r.val[KEY_MEMORY_LOW].size.permyriad, 200);
	CHECK_U64(r.val[KEY_MEMORY_HIGH].size.bytes, 3ull << 30);
	CHECK_INT(r.val[KEY_MEMORY_MAX].size.kind, SIZE_INFINITY);
	CHECK_U64(r.val[KEY_MEMORY_SWAP_MAX].size.bytes, 0);
	CHECK_INT(r.val[KEY_MEMORY_SWAP_MAX].size.kind, SIZE_BYTES);
	CHECK_U64(r.val[KEY_MEMORY_ZSWAP_MAX].size.bytes, 512 << 10);
	CHECK_U64(r.val[KEY_OOM_PRESSURE].num, OOM_KILL);
	CHECK_U64(r.val[KEY_POLICY].num, POLICY_FG);
	CHECK_U64(r.val[KEY_EXPECT_POLICY].num, POLICY_FG);
	CHECK_U64(r.val[KEY_OOM_PRESSURE_LIMIT].num, 6050);
	CHECK_INT(r.val[KEY_PROACTIVE_RECLAIM].size.permyriad, 100);
	CHECK_U64(r.val[KEY_RECLAIM_SWAPPINESS].num, 200);
	CHECK_U64(r.val[KEY_RECLAIM_INTERVAL].num, 120000);
	CHECK_INT(r.line[KEY_RECLAIM_INTERVAL], 15);
	CHECK(!r.val[KEY_PROACTIVE_RECLAIM].is_auto);
	CHECK_U64(r.val[KEY_PRESSURE_TARGET].num, 2500);
	CHECK_U64(r.val[KEY_RECLAIM_MIN].size.bytes, 1 << 20);
	CHECK_INT(r.val[KEY_RECLAIM_MAX].size.permyriad, 200);
	CHECK_U64(r.val[KEY_RECLAIM_FLOOR].size.bytes, 3ull << 30);
	CHECK_INT(r.line[KEY_RECLAIM_FLOOR], 19);
	CHECK_STR(conf_key_name(KEY_OOM_PRESSURE_LIMIT), "ManagedOOMMemoryPressureLimit");
	conf_free(&c);
}

/* Each bad value is one error naming file:line and the key. */
static void test_bad_values(void)
{
	static const char *const cases[][3] = {
		{ "[Global]\nExpectPolicy=lru\n", "bad.conf:2: ExpectPolicy=lru: unknown policy", NULL },
		{ "[Global]\nMinTTL=5h\n", "bad.conf:2: MinTTL=5h: unknown time unit", NULL },
		{ "[Global]\nMinTTL=4294967296ms\n", "bad.conf:2: MinTTL=4294967296ms: duration too long", NULL },
		{ "[Slice a.slice]\nMemoryMin=1Q\n", "bad.conf:2: MemoryMin=1Q: unknown size suffix", NULL },
		{ "[Slice a.slice]\n\nMemoryLow=-1\n", "bad.conf:3: MemoryLow=-1: expected a number", NULL },
		{ "[Slice a.slice]\nMemoryHigh=101%\n", "bad.conf:2: MemoryHigh=101%: percentage above 100%", NULL },
		{ "[Slice a.slice]\nMemoryMax=16777216T\n", "bad.conf:2: MemoryMax=16777216T: size too large", NULL },
		{ "[Slice a.slice]\nMemorySwapMax=1.5\n", "bad.conf:2: MemorySwapMax=1.5: a fractional size", NULL },
		{ "[Slice a.slice]\nMemoryZSwapMax=lots\n", "bad.conf:2: MemoryZSwapMax=lots: expected a number", NULL },
		{ "[Slice a.slice]\nManagedOOMMemoryPressure=yes\n", "bad.conf:2: ManagedOOMMemoryPressure=yes: expected auto or kill", NULL },
		{ "[Slice a.slice]\nManagedOOMMemoryPressureLimit=60\n", "bad.conf:2: ManagedOOMMemoryPressureLimit=60: expected a percentage", NULL },
		{ "[Slice a.slice]\nProactiveReclaim=infinity\n", "bad.conf:2: ProactiveReclaim=infinity: a reclaim amount cannot be infinity", NULL },
		{ "[Slice a.slice]\nReclaimSwappiness=201\n", "bad.conf:2: ReclaimSwappiness=201: expected a whole number from 0 to 200", NULL },
		{ "[Slice a.slice]\nReclaimInterval=soon\n", "bad.conf:2: ReclaimInterval=soon: expected a number", NULL },
		{ "[Slice a.slice]\nApplyWhenPolicy=fg never\n", "bad.conf:2: ApplyWhenPolicy=fg never: unknown policy", NULL },
		/* systemd stops user-*.slice when unneeded: a policy would not stick */
		{ "[Slice user-1000.slice]\nMemoryMax=1G\nPolicy=fg\n",
		  "bad.conf:3: Policy= cannot stick on user-1000.slice: systemd stops user-*.slice when "
		  "unneeded (StopWhenUnneeded=yes) and a later login gets a new cgroup; set it on "
		  "user.slice, whose new user slices take its policy", NULL },
		{ "[Slice user-.slice]\nPolicy=mglru\n", "bad.conf:2: Policy= cannot stick on user-.slice:", NULL },
		{ "[Slice user-1000-x.slice]\nPolicy=mglru\n", "bad.conf:2: Policy= cannot stick on user-1000-x.slice:", NULL },
		/* syntax */
		{ "[Global]\nMinTTL\n", "bad.conf:2: expected KEY=VALUE", NULL },
		{ "[Global]\n=5\n", "bad.conf:2: missing key name", NULL },
		{ "[Global\nMinTTL=1s\n", "bad.conf:1: malformed section header", NULL },
		{ "[Slice]\n", "bad.conf:1: [Slice] needs a slice name", NULL },
		/* unknown sections: what is under them would be lost unseen */
		{ "[Slcie system.slice]\nMemoryMax=1G\n",
		  "bad.conf:1: unknown section [Slcie system.slice], expected [Global] or [Slice NAME.slice]", NULL },
		{ "[Slicesystem.slice]\n", "bad.conf:1: unknown section [Slicesystem.slice]", NULL },
		{ "[global]\nMinTTL=1s\n", "bad.conf:1: unknown section [global]", NULL },
		{ "[Slice system]\n", "bad.conf:1: invalid slice name 'system': not a slice name", NULL },
		{ "[Slice a--b.slice]\n", "bad.conf:1: invalid slice name 'a--b.slice': empty component", NULL },
		{ "[Slice a-a-a-a-a-a-a-a-a-a-a-a-a-a-a-a-a-a-a-a-a-a-a-a-a-a-a-a-a-a-a-a-a-a-a-a-a-a-a-a"
		  "-a-a-a-a-a-a-a-a-a-a-a-a-a-a-a-a-a-a-a-a-a-a-a-a-a-a-a-a-a-a-a-a-a-a-a-a-a-a-a-a.slice]\n",
		  "bad.conf:1: invalid slice name 'a-a-a-a-", NULL },
		{ "[Global]\nMinTTL=1s\0\n", NULL, NULL },	/* NUL: see below */
	};

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct conf c;
		struct diags d = { "", 0, 0 };
		const char *text = cases[i][0];
		size_t len = strlen(text);
		int errors;

		if (!cases[i][1])
			len += 2;	/* the NUL case: include "\0\n" */
		conf_init(&c);
		errors = conf_parse(&c, "bad.conf", text, len, collect, &d);
		if (errors != 1)
			h_fail(__FILE__, __LINE__, "case %zu: %d errors:\n%s", i, errors, d.text);
		CHECK_HAS(d.text, cases[i][1] ? cases[i][1] : "bad.conf:2: NUL byte in line");
		CHECK(strncmp(d.text, "E ", 2) == 0);
		conf_free(&c);
	}
}

static void test_warnings(void)
{
	const char *text =
		"Orphan=1\n"
		"[Global]\n"
		"Frobnicate=yes\n"
		"MemoryHigh=1G\n"
		"[Slice -.slice]\n"
		"MemoryMax=1G\n"
		"ProactiveReclaim=1M\n"
		"[Slice a.slice]\n"
		"MinTTL=1s\n"
		"ApplyWhenPolicy=fg\n"
		"ApplyWhenPolicy=mglru\n";
	struct conf c;
	struct diags d = { "", 0, 0 };
	struct conf_resolved r;

	conf_init(&c);
	CHECK_INT(parse(&c, &d, "w.conf", text), 0);
	CHECK_INT(d.errors, 0);
	CHECK_INT(d.warnings, 6);
	CHECK_HAS(d.text, "W w.conf:1: Orphan= outside of any section");
	CHECK_HAS(d.text, "W w.conf:3: unknown key Frobnicate=");
	CHECK_HAS(d.text, "W w.conf:4: MemoryHigh= belongs in a [Slice ...] section");
	CHECK_HAS(d.text, "W w.conf:6: MemoryMax= has no effect on -.slice");
	CHECK_HAS(d.text, "W w.conf:9: MinTTL= belongs in [Global]");
	CHECK_HAS(d.text, "W w.conf:11: ApplyWhenPolicy= given twice");
	conf_resolve_slice(&c, "-.slice", POLICY_FG, &r);
	CHECK(!r.set[KEY_MEMORY_MAX]);
	CHECK(r.set[KEY_PROACTIVE_RECLAIM]);
	conf_free(&c);
}

/* Policy= is refused on user-*.slice only: user.slice takes it, and a
 * reset or ExpectPolicy= there changes nothing that could fail. */
static void test_user_slice_policy(void)
{
	struct conf c;
	struct diags d = { "", 0, 0 };
	struct conf_resolved r;

	conf_init(&c);
	CHECK_INT(parse(&c, &d, "u.conf", "[Slice user.slice]\nPolicy=fg\n"
			"[Slice user-1000.slice]\nPolicy=\nExpectPolicy=fg\n"
			"[Slice users.slice]\nPolicy=mglru\n"), 0);
	CHECK_STR(d.text, "");
	conf_resolve_slice(&c, "user.slice", POLICY_FG, &r);
	CHECK(r.set[KEY_POLICY]);
	conf_resolve_slice(&c, "user-1000.slice", POLICY_FG, &r);
	CHECK(!r.set[KEY_POLICY]);
	CHECK(r.set[KEY_EXPECT_POLICY]);
	conf_free(&c);
}

static void test_reset_and_merge_order(void)
{
	struct conf c, second;
	struct diags d = { "", 0, 0 };
	struct conf_resolved r;

	conf_init(&c);
	conf_init(&second);
	CHECK_INT(parse(&c, &d, "10.conf",
			"[Slice a.slice]\nMemoryHigh=1G\nMemoryMax=2G\nMemoryLow=1M\n"), 0);
	CHECK_INT(parse(&second, &d, "20.conf",
			"[Slice a.slice]\nMemoryHigh=3G\nMemoryMax=\n[Slice b.slice]\nMemoryLow=5M\n"), 0);
	conf_merge(&c, &second);
	CHECK_INT(second.n_slices, 0);
	CHECK_INT(c.n_slices, 2);
	CHECK_INT(c.n_files, 2);
	conf_resolve_slice(&c, "a.slice", POLICY_FG, &r);
	CHECK_U64(r.val[KEY_MEMORY_HIGH].size.bytes, 3ull << 30);	/* later wins */
	CHECK_STR(r.file[KEY_MEMORY_HIGH], "20.conf");
	CHECK(!r.set[KEY_MEMORY_MAX]);					/* reset */
	CHECK_U64(r.val[KEY_MEMORY_LOW].size.bytes, 1 << 20);		/* untouched */
	CHECK_STR(r.file[KEY_MEMORY_LOW], "10.conf");
	conf_resolve_slice(&c, "b.slice", POLICY_FG, &r);
	CHECK_U64(r.val[KEY_MEMORY_LOW].size.bytes, 5 << 20);
	conf_free(&c);
}

static void test_apply_when_policy(void)
{
	const char *text =
		"[Global]\n"
		"MinTTL=1s\n"
		"[Global]\n"
		"MinTTL=2s\n"
		"ApplyWhenPolicy=fg\n"		/* covers line 4 too */
		"[Global]\n"
		"ApplyWhenPolicy=mglru classic\n"
		"ExpectPolicy=mglru\n"
		"[Global]\n"
		"ApplyWhenPolicy=\n"		/* empty: no condition */
		"ExpectPolicy=fg\n"
		"[Global]\n"
		"ApplyWhenPolicy=classic\n"
		"MinTTL=\n";			/* reset only under classic */
	struct conf c;
	struct diags d = { "", 0, 0 };
	struct conf_resolved r;

	conf_init(&c);
	CHECK_INT(parse(&c, &d, "p.conf", text), 0);
	CHECK_STR(d.text, "");
	conf_resolve_global(&c, POLICY_FG, &r);
	CHECK_U64(r.val[KEY_MIN_TTL].num, 2000);
	CHECK_INT(r.line[KEY_MIN_TTL], 4);
	CHECK_U64(r.val[KEY_EXPECT_POLICY].num, POLICY_FG);
	conf_resolve_global(&c, POLICY_MGLRU, &r);
	CHECK_U64(r.val[KEY_MIN_TTL].num, 1000);
	CHECK_INT(r.line[KEY_MIN_TTL], 2);
	CHECK_U64(r.val[KEY_EXPECT_POLICY].num, POLICY_FG);
	conf_resolve_global(&c, POLICY_CLASSIC, &r);
	CHECK(!r.set[KEY_MIN_TTL]);
	conf_free(&c);
}

static void test_prefix_resolution(void)
{
	struct conf c, later;
	struct diags d = { "", 0, 0 };
	struct conf_resolved r;

	conf_init(&c);
	conf_init(&later);
	CHECK_INT(parse(&c, &d, "a.conf",
			"[Slice user-1000.slice]\nMemoryMax=1G\n"
			"[Slice user-1000-.slice]\nMemoryLow=7M\n"), 0);
	/* a later file does not let a prefix beat an exact section */
	CHECK_INT(parse(&later, &d, "b.conf",
			"[Slice user-.slice]\nMemoryMax=8G\nMemoryHigh=6G\nMemoryLow=1M\n"), 0);
	conf_merge(&c, &later);
	conf_resolve_slice(&c, "user-1000.slice", POLICY_FG, &r);
	CHECK_U64(r.val[KEY_MEMORY_MAX].size.bytes, 1ull << 30);
	CHECK_U64(r.val[KEY_MEMORY_HIGH].size.bytes, 6ull << 30);
	CHECK_U64(r.val[KEY_MEMORY_LOW].size.bytes, 1 << 20);
	conf_resolve_slice(&c, "user-1001.slice", POLICY_FG, &r);
	CHECK_U64(r.val[KEY_MEMORY_MAX].size.bytes, 8ull << 30);
	conf_resolve_slice(&c, "user-1000-x.slice", POLICY_FG, &r);
	CHECK_U64(r.val[KEY_MEMORY_LOW].size.bytes, 7 << 20);	/* longer prefix wins */
	CHECK_U64(r.val[KEY_MEMORY_MAX].size.bytes, 8ull << 30);
	/* a prefix's own drop-in carries what shorter prefixes set */
	conf_resolve_slice(&c, "user-1000-.slice", POLICY_FG, &r);
	CHECK_U64(r.val[KEY_MEMORY_HIGH].size.bytes, 6ull << 30);
	CHECK_U64(r.val[KEY_MEMORY_LOW].size.bytes, 7 << 20);
	conf_resolve_slice(&c, "system.slice", POLICY_FG, &r);
	CHECK(!r.set[KEY_MEMORY_MAX]);
	CHECK_INT(conf_section_for(&c, "user-1000.slice"), 0);
	CHECK_INT(conf_section_for(&c, "user-1000-x.slice"), 1);
	CHECK_INT(conf_section_for(&c, "user-5.slice"), 2);
	CHECK_INT(conf_section_for(&c, "user.slice"), -1);
	CHECK_INT(conf_section_for(&c, "userx.slice"), -1);
	conf_free(&c);
}

/* The search path against a fake tree. */
static void test_masking_order(void)
{
	struct fake f;
	char **paths;
	size_t n;

	fake_init(&f);
	fake_write(&f, "/etc/mglru-fg/tune.conf", "[Global]\n");
	fake_write(&f, "/usr/lib/mglru-fg/tune.d/10-a.conf", "");
	fake_write(&f, "/usr/lib/mglru-fg/tune.d/30-same.conf", "");
	fake_write(&f, "/run/mglru-fg/tune.d/30-same.conf", "");
	fake_write(&f, "/etc/mglru-fg/tune.d/30-same.conf", "");
	fake_write(&f, "/usr/lib/mglru-fg/tune.d/40-run.conf", "");
	fake_write(&f, "/run/mglru-fg/tune.d/40-run.conf", "");
	fake_write(&f, "/run/mglru-fg/tune.d/15-c.conf", "");
	fake_write(&f, "/etc/mglru-fg/tune.d/20-b.conf", "");
	fake_write(&f, "/usr/lib/mglru-fg/tune.d/50-masked.conf", "");
	fake_symlink(&f, "/dev/null", "/etc/mglru-fg/tune.d/50-masked.conf");
	fake_write(&f, "/usr/lib/mglru-fg/tune.d/60-runmasked.conf", "");
	fake_symlink(&f, "/dev/null", "/run/mglru-fg/tune.d/60-runmasked.conf");
	fake_write(&f, "/etc/mglru-fg/tune.d/README", "");
	fake_write(&f, "/etc/mglru-fg/tune.d/.hidden.conf", "");
	fake_write(&f, "/etc/mglru-fg/tune.d/70-x.conf.bak", "");

	conf_files_list(f.root, &paths, &n);
	CHECK_INT(n, 6);
	if (n == 6) {
		CHECK_STR(paths[0], "/usr/lib/mglru-fg/tune.d/10-a.conf");
		CHECK_STR(paths[1], "/run/mglru-fg/tune.d/15-c.conf");
		CHECK_STR(paths[2], "/etc/mglru-fg/tune.d/20-b.conf");
		CHECK_STR(paths[3], "/etc/mglru-fg/tune.d/30-same.conf");
		CHECK_STR(paths[4], "/run/mglru-fg/tune.d/40-run.conf");
		/* the administrator's main file last, so that it wins */
		CHECK_STR(paths[5], "/etc/mglru-fg/tune.conf");
	}
	CHECK(paths[n] == NULL);
	conf_files_free(paths);
	CHECK(conf_file_masked(f.root, "/etc/mglru-fg/tune.d/50-masked.conf"));
	CHECK(!conf_file_masked(f.root, "/etc/mglru-fg/tune.d/20-b.conf"));
	CHECK(!conf_file_masked(f.root, "/etc/mglru-fg/tune.d/none.conf"));

	/* tune.conf itself can be masked too */
	fake_remove(&f, "/etc/mglru-fg/tune.conf");
	fake_symlink(&f, "/dev/null", "/etc/mglru-fg/tune.conf");
	conf_files_list(f.root, &paths, &n);
	CHECK_INT(n, 5);
	CHECK_STR(paths[0], "/usr/lib/mglru-fg/tune.d/10-a.conf");
	CHECK_STR(paths[4], "/run/mglru-fg/tune.d/40-run.conf");
	conf_files_free(paths);
	fake_cleanup(&f);

	/* no directories at all */
	fake_init(&f);
	conf_files_list(f.root, &paths, &n);
	CHECK_INT(n, 0);
	conf_files_free(paths);
	fake_cleanup(&f);
}

/* Every input the fuzzer ever crashed on, plus hand-made nasty ones,
 * must parse without a sanitizer finding. */
static void test_regressions(void)
{
	const char *dir = getenv("TUNE_REGRESSIONS");
	struct dirent *de;
	unsigned files = 0;
	DIR *d;

	if (!dir || !(d = opendir(dir))) {
		h_fail(__FILE__, __LINE__, "TUNE_REGRESSIONS=%s is not a directory", dir ? dir : "");
		return;
	}
	while ((de = readdir(d))) {
		char path[PATH_MAX], *buf = NULL;
		size_t n = 0;
		FILE *fp, *mem;
		struct conf c;
		int ch;

		if (de->d_name[0] == '.' || strcmp(de->d_name, "README") == 0)
			continue;
		snprintf(path, sizeof(path), "%s/%s", dir, de->d_name);
		fp = fopen(path, "rb");
		if (!fp)
			continue;
		mem = open_memstream(&buf, &n);
		while ((ch = fgetc(fp)) != EOF)
			fputc(ch, mem);
		fclose(mem);
		fclose(fp);
		conf_init(&c);
		conf_parse(&c, path, buf, n, NULL, NULL);
		for (size_t i = 0; i < c.n_slices; i++)
			for (int p = 0; p < POLICY__MAX; p++) {
				struct conf_resolved r;

				conf_resolve_slice(&c, c.slices[i].name, (enum policy)p, &r);
			}
		conf_free(&c);
		free(buf);
		files++;
	}
	closedir(d);
	printf("# replayed %u regression inputs\n", files);
	CHECK(files >= 1);
}

void tests_conf(void)
{
	h_run("parser: sections, comments, whitespace, CRLF, BOM", test_sections_comments_whitespace);
	h_run("parser: every key and its value", test_every_key);
	h_run("parser: bad values and syntax errors name file:line", test_bad_values);
	h_run("parser: unknown keys are warnings", test_warnings);
	h_run("parser: Policy= on user-*.slice is refused, on user.slice taken", test_user_slice_policy);
	h_run("parser: later assignments win, empty resets", test_reset_and_merge_order);
	h_run("parser: ApplyWhenPolicy= scopes its section block", test_apply_when_policy);
	h_run("parser: prefix sections merge, most specific wins", test_prefix_resolution);
	h_run("files: /etc over /run over /usr/lib, /dev/null masks, tune.conf last", test_masking_order);
	h_run("fuzz regressions replay cleanly", test_regressions);
}
