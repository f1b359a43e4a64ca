// SPDX-License-Identifier: GPL-2.0-only
/* Which configuration files are trusted, and the units' start limits. */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli.h"
#include "harness.h"
#include "tests.h"

#define FIFO "/etc/mglru-fg/tune.d/40-fifo.conf"

/* Read as a file, a FIFO blocks until someone writes to it: at boot,
 * forever. It is refused without being read. */
static void test_conf_fifo(void)
{
	struct fake f;
	struct result r;

	standard(&f);
	fake_mkfifo(&f, FIFO);
	tune_run(&f, &r, "apply", NULL);
	CHECK_INT(r.status, 2);
	CHECK_HAS(r.err, "<3>" FIFO ": refused: not a regular file (a FIFO), nothing from this file is applied\n");
	CHECK_FILE(&f, SYS_DROPIN, NULL);
	result_free(&r);
	tune_run(&f, &r, "--cat-config", NULL);
	CHECK_INT(r.status, 1);
	CHECK_HAS(r.err, "<3>" FIFO ": refused: not a regular file (a FIFO)\n");
	result_free(&r);
	fake_cleanup(&f);
}

static void refused(struct fake *f, const char *why, const char *file, int line)
{
	struct result r;
	char want[512];

	tune_run(f, &r, "apply", NULL);
	snprintf(want, sizeof(want), "<3>" LOCAL ": refused: %s, nothing from this file is applied\n", why);
	if (r.status != 2)
		h_fail(file, line, "status %d, want 2", r.status);
	if (!strstr(r.err, want))
		h_fail(file, line, "stderr lacks \"%s\" in:\n%s", want, r.err);
	result_free(&r);
	check_file(f, SYS_DROPIN, NULL, file, line);
	check_file(f, MIN_TTL, "0\n", file, line);
}
#define REFUSED(f, why) refused(f, why, __FILE__, __LINE__)

/* Whoever can write these files sets memory limits as root. */
static void test_conf_mode_owner(void)
{
	struct fake f;
	struct result r;

	standard(&f);
	fake_chmod(&f, LOCAL, 0666);
	REFUSED(&f, "writable by everyone (mode 0666); chmod go-w it");
	fake_chmod(&f, LOCAL, 0620);
	REFUSED(&f, "writable by its group (mode 0620); chmod go-w it");
	fake_chmod(&f, LOCAL, 0600);	/* private is fine */
	tune_run(&f, &r, "apply", NULL);
	CHECK_INT(r.status, 0);
	CHECK_FILE(&f, SYS_DROPIN, standard_dropin);
	result_free(&r);
	fake_cleanup(&f);

	/* owned by neither root nor the caller (the expected owner, so that
	 * an unprivileged test run trusts its own files) */
	standard(&f);
	if (geteuid() != 0 || !fake_chown(&f, LOCAL, 65534)) {
		printf("# skip: only root can give a file to uid 65534\n");
	} else {
		REFUSED(&f, "owned by uid 65534, not by root");
		/* a symlink counts by what it points to */
		fake_remove(&f, LOCAL);
		fake_write(&f, "/etc/mglru-fg/nobody.conf", "[Global]\nMinTTL=5s\n");
		CHECK(fake_chown(&f, "/etc/mglru-fg/nobody.conf", 65534));
		fake_symlink(&f, "../nobody.conf", LOCAL);
		REFUSED(&f, "owned by uid 65534, not by root");
	}
	fake_cleanup(&f);
}

/* What apply must leave alone when it cannot see the whole configuration:
 * the drop-in (unrewritten), min_ttl_ms and the reload count. */
static void unchanged(struct fake *f, const char *file, int line)
{
	struct stat st;

	check_file(f, SYS_DROPIN, standard_dropin, file, line);
	if (fake_stat(f, SYS_DROPIN, &st) == 0 && st.st_mtime != 1000000000)
		h_fail(file, line, "%s was rewritten", SYS_DROPIN);
	check_file(f, MIN_TTL, "1000\n", file, line);
	check_log(f, "daemon-reload\n", file, line);
}
#define UNCHANGED(f) unchanged(f, __FILE__, __LINE__)

/* A directory that is there but cannot be read may hold the limits in
 * force: apply must not take it for an empty one and remove them. The
 * runs lack CAP_DAC_OVERRIDE and CAP_DAC_READ_SEARCH, as the service. */
static void test_unreadable_dir(void)
{
	struct fake f;
	struct result r;

	standard(&f);
	tune_run(&f, &r, "apply", NULL);
	CHECK_INT(r.status, 0);
	result_free(&r);
	fake_age(&f, SYS_DROPIN);
	f.no_dac = true;

	/* /etc/mglru-fg not searchable: neither tune.conf nor tune.d */
	fake_chmod(&f, "/etc/mglru-fg", 0);
	tune_run(&f, &r, "apply", NULL);
	CHECK_INT(r.status, 2);
	CHECK_HAS(r.err, "<3>/etc/mglru-fg/tune.d: cannot read the directory: Permission denied\n");
	CHECK_HAS(r.err, "<3>/etc/mglru-fg/tune.conf: cannot read: Permission denied, "
			 "nothing from this file is applied\n");
	CHECK_HAS(r.err, "<3>the configuration has errors in 2 files: nothing is changed");
	UNCHANGED(&f);
	result_free(&r);
	tune_run(&f, &r, "--check", NULL);
	CHECK_INT(r.status, 2);
	CHECK_STR(r.out, "not compared: the configuration has errors\n");
	result_free(&r);
	tune_run(&f, &r, "--cat-config", NULL);
	CHECK_INT(r.status, 1);
	CHECK_HAS(r.err, "<3>/etc/mglru-fg/tune.d: cannot read the directory: Permission denied\n");
	result_free(&r);

	/* tune.d searchable but not readable: its names cannot be listed */
	fake_chmod(&f, "/etc/mglru-fg", 0755);
	fake_chmod(&f, "/etc/mglru-fg/tune.d", 0311);
	tune_run(&f, &r, "apply", NULL);
	CHECK_INT(r.status, 2);
	CHECK_HAS(r.err, "<3>/etc/mglru-fg/tune.d: cannot read the directory: Permission denied\n");
	CHECK_LACKS(r.err, "tune.conf");
	UNCHANGED(&f);
	result_free(&r);

	/* not a directory at all: only a missing one means "no files" */
	fake_chmod(&f, "/etc/mglru-fg/tune.d", 0755);
	fake_write(&f, "/run/mglru-fg/tune.d", "not a directory\n");
	tune_run(&f, &r, "apply", NULL);
	CHECK_INT(r.status, 2);
	CHECK_HAS(r.err, "<3>/run/mglru-fg/tune.d: cannot read the directory: Not a directory\n");
	UNCHANGED(&f);
	result_free(&r);

	/* all readable again: the same tree applies cleanly */
	fake_remove(&f, "/run/mglru-fg/tune.d");
	tune_run(&f, &r, "apply", NULL);
	CHECK_INT(r.status, 0);
	CHECK_STR(r.err, "<6>nothing to change\n");
	UNCHANGED(&f);
	result_free(&r);
	fake_cleanup(&f);
}

/* A typo in a section header is an error at FILE:LINE, not a warning
 * after which every limit under it is gone. */
static void test_unknown_section(void)
{
	struct fake f;
	struct result r;

	standard(&f);
	tune_run(&f, &r, "apply", NULL);
	CHECK_INT(r.status, 0);
	result_free(&r);
	fake_age(&f, SYS_DROPIN);
	fake_write(&f, LOCAL, "# system.slice\n[Slcie system.slice]\nMemoryHigh=1000000\n");
	tune_run(&f, &r, "apply", NULL);
	CHECK_INT(r.status, 2);
	CHECK_HAS(r.err, "<3>" LOCAL ":2: unknown section [Slcie system.slice], expected [Global] "
			 "or [Slice NAME.slice]\n");
	CHECK_HAS(r.err, "<3>" LOCAL ": 1 error, nothing from this file is applied\n");
	CHECK_LACKS(r.err, "<4>");
	UNCHANGED(&f);
	result_free(&r);
	tune_run(&f, &r, "--dry-run", NULL);
	CHECK_INT(r.status, 2);
	CHECK_STR(r.out, "nothing to change: the configuration has errors\n");
	result_free(&r);
	fake_cleanup(&f);
}

#define MAIN "/etc/mglru-fg/tune.conf"

/* The administrator's /etc/mglru-fg/tune.conf is read after every tune.d
 * file: the vendor's 50-default.conf must not override its MinTTL=. In
 * tune.d a same-named file in /etc masks the vendor's, and a later name
 * wins whatever its directory. */
static void test_precedence(void)
{
	struct fake f;
	struct result r;

	standard(&f);
	fake_write(&f, MAIN, "[Global]\nMinTTL=3s\n[Slice system.slice]\nMemoryHigh=2G\n");
	tune_run(&f, &r, "apply", NULL);
	CHECK_INT(r.status, 0);
	CHECK_FILE(&f, MIN_TTL, "3000\n");
	CHECK_HAS(r.err, "<6>min_ttl_ms: 0 -> 3000 (" MAIN ":2)\n");
	/* over the administrator's tune.d file too (LOCAL: MemoryHigh=1000000) */
	CHECK_HAS(r.err, "<6>system.slice MemoryHigh: - -> 2147483648 (" MAIN ":4)\n");
	result_free(&r);

	/* the vendor's file: masked by a same-named one in /etc, beaten by a
	 * later name in /run */
	fake_remove(&f, MAIN);
	fake_write(&f, "/etc/mglru-fg/tune.d/50-default.conf", "[Global]\nMinTTL=4s\n");
	tune_run(&f, &r, "apply", NULL);
	CHECK_FILE(&f, MIN_TTL, "4000\n");
	result_free(&r);
	fake_write(&f, "/run/mglru-fg/tune.d/60-run.conf", "[Global]\nMinTTL=6s\n");
	tune_run(&f, &r, "apply", NULL);
	CHECK_FILE(&f, MIN_TTL, "6000\n");
	result_free(&r);
	fake_write(&f, MAIN, "[Global]\nMinTTL=7s\n");
	tune_run(&f, &r, "apply", NULL);
	CHECK_FILE(&f, MIN_TTL, "7000\n");
	result_free(&r);
	fake_cleanup(&f);
}

/* The units are oneshots, for which systemd sets no start timeout by
 * default: one that hangs would hold up boot (mglru-fg-tune.service) or
 * every later timer round (mglru-fg-reclaim.service) for ever. */
static void test_unit_timeouts(void)
{
	const char *top = getenv("TUNE_TOP");
	char dir[4096];
	unsigned units = 0;
	struct dirent *de;
	DIR *d;

	snprintf(dir, sizeof(dir), "%s/systemd", top ? top : "");
	if (!top || !(d = opendir(dir))) {
		h_fail(__FILE__, __LINE__, "TUNE_TOP=%s has no systemd/", top ? top : "");
		return;
	}
	while ((de = readdir(d))) {
		size_t len = strlen(de->d_name);
		char path[8192], line[512], timeout[64] = "";
		bool oneshot = false;
		FILE *fp;

		if (len < 9 || strcmp(de->d_name + len - 8, ".service") != 0)
			continue;
		snprintf(path, sizeof(path), "%s/%s", dir, de->d_name);
		if (!(fp = fopen(path, "r")))
			continue;
		while (fgets(line, sizeof(line), fp)) {
			oneshot |= strcmp(line, "Type=oneshot\n") == 0;
			if (strncmp(line, "TimeoutStartSec=", 16) == 0)
				snprintf(timeout, sizeof(timeout), "%.*s", (int)strcspn(line + 16, "\n"),
					 line + 16);
		}
		fclose(fp);
		units++;
		if (oneshot && (!*timeout || strcmp(timeout, "infinity") == 0 || strcmp(timeout, "0") == 0))
			h_fail(__FILE__, __LINE__, "%s: Type=oneshot without a finite TimeoutStartSec= (\"%s\")",
			       de->d_name, timeout);
	}
	closedir(d);
	CHECK(units >= 2);
}

void tests_files(void)
{
	h_run("config files: a FIFO is refused, not read (no hang)", test_conf_fifo);
	h_run("config files: group/world-writable and foreign-owned files are refused", test_conf_mode_owner);
	h_run("config files: an unreadable or non-directory tune.d is an error, nothing changes",
	      test_unreadable_dir);
	h_run("config files: an unknown section header is an error, nothing changes",
	      test_unknown_section);
	h_run("config files: /etc/mglru-fg/tune.conf is read last, after the vendor's tune.d",
	      test_precedence);
	h_run("units: every oneshot service has a finite TimeoutStartSec=", test_unit_timeouts);
}
