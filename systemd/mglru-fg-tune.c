// SPDX-License-Identifier: GPL-2.0-only
/* mglru-fg-tune(8): command line and dispatch. The work is in apply.c,
 * reclaim.c, revert.c and status.c; tune_main() is separate from main()
 * so the tests can run the whole program against a fake tree. */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "log.h"
#include "tune.h"
#include "util.h"

static void usage(FILE *f)
{
	fputs("Usage: mglru-fg-tune [OPTIONS] [apply|status|reclaim|revert]\n"
	      "\n"
	      "Applies the per-slice memory settings of mglru-fg-tune.conf(5).\n"
	      "\n"
	      "Commands:\n"
	      "  apply          apply the configuration (the default)\n"
	      "  status         the LRU policy and each configured slice's memory state\n"
	      "  reclaim        one proactive-reclaim round (ProactiveReclaim=)\n"
	      "  revert         undo apply: remove its drop-ins, restore min_ttl_ms\n"
	      "\n"
	      "Options:\n"
	      "  --root DIR     work on the tree below DIR; systemctl is not run unless\n"
	      "                 $MGLRU_FG_TUNE_SYSTEMCTL names a program to run instead\n"
	      "  --dry-run      print the plan (old -> new, with file:line), write nothing\n"
	      "  --check        list drift from the configuration, exit 1 if there is any\n"
	      "  --cat-config   print the configuration files in the order they are read\n"
	      "  --no-reload    write drop-ins, but leave systemctl daemon-reload for later\n"
	      "  -h, --help     show this help\n"
	      "\n"
	      "Exit status: 0 success, 1 runtime error or drift, 2 configuration or usage\n"
	      "error, 77 not applicable (no cgroup2 or no multi-gen LRU).\n",
	      f);
}

static int usage_error(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

static int usage_error(const char *fmt, ...)
{
	char msg[512];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	log_error("%s", msg);
	usage(stderr);
	return EXIT_CONFIG;
}

struct options {
	const char *root;
	const char *command;
	bool dry_run, check, cat_config, no_reload, help;
};

static int parse_options(int argc, char **argv, struct options *o)
{
	for (int i = 1; i < argc; i++) {
		const char *a = argv[i];

		if (strcmp(a, "--root") == 0 || strncmp(a, "--root=", 7) == 0) {
			o->root = a[6] == '=' ? a + 7 : i + 1 < argc ? argv[++i] : NULL;
			if (!o->root || !*o->root)
				return usage_error("--root needs a directory");
		} else if (strcmp(a, "--dry-run") == 0) {
			o->dry_run = true;
		} else if (strcmp(a, "--check") == 0) {
			o->check = true;
		} else if (strcmp(a, "--cat-config") == 0) {
			o->cat_config = true;
		} else if (strcmp(a, "--no-reload") == 0) {
			o->no_reload = true;
		} else if (strcmp(a, "-h") == 0 || strcmp(a, "--help") == 0) {
			o->help = true;
		} else if (a[0] == '-') {
			return usage_error("unknown option '%s'", a);
		} else if (o->command) {
			return usage_error("unexpected argument '%s': one command at most", a);
		} else if (strcmp(a, "apply") && strcmp(a, "status") && strcmp(a, "reclaim") &&
			   strcmp(a, "revert")) {
			return usage_error("unknown command '%s'", a);
		} else {
			o->command = a;
		}
	}
	if (o->help)
		return 0;
	if (o->dry_run && o->check)
		return usage_error("--dry-run and --check exclude each other");
	if (o->cat_config && (o->dry_run || o->check || o->command))
		return usage_error("--cat-config takes no command, --dry-run or --check");
	if (o->check && o->command && strcmp(o->command, "apply") != 0)
		return usage_error("--check compares the configuration with the system; it does not go with '%s'",
				   o->command);
	if (o->dry_run && o->command && strcmp(o->command, "status") == 0)
		return usage_error("--dry-run has no meaning for '%s'", o->command);
	return 0;
}

/* "--root /x/" and "--root /x" are the same tree; "--root /" is the real
 * one, but still keeps systemctl from being run. */
static char *normalize_root(const char *root)
{
	char *r = xstrdup(root);
	size_t n = strlen(r);

	while (n > 0 && r[n - 1] == '/')
		r[--n] = '\0';
	return r;
}

static int run(struct tune *t, const struct options *o)
{
	const char *cmd = o->command ? o->command : "apply";
	int rc;

	if (o->cat_config)
		return tune_cat_config(t) < 0 ? EXIT_RUNTIME : 0;
	/* Before the checks below: package removal must be able to undo
	 * apply whatever the kernel or the configuration is now. */
	if (strcmp(cmd, "revert") == 0) {
		cmd_revert(t);
		return t->runtime_errors ? EXIT_RUNTIME : 0;
	}
	rc = tune_applicable(t);
	if (rc)
		return rc;
	if (tune_read_policy(t) < 0)
		return EXIT_RUNTIME;
	tune_load_config(t);
	if (strcmp(cmd, "status") == 0)
		rc = cmd_status(t);
	else if (strcmp(cmd, "reclaim") == 0)
		rc = cmd_reclaim(t);
	else
		rc = cmd_apply(t);
	if (t->config_errors)
		return EXIT_CONFIG;
	if (t->runtime_errors)
		return EXIT_RUNTIME;
	return rc;
}

int tune_main(int argc, char **argv)
{
	struct options o = { 0 };
	struct tune t = { .root = "" };
	char *root = NULL;
	long page;
	int rc;

	rc = parse_options(argc, argv, &o);
	if (rc)
		return rc;
	if (o.help) {
		usage(stdout);
		return 0;
	}
	if (o.root) {
		struct stat st;

		if (stat(o.root, &st) < 0 || !S_ISDIR(st.st_mode))
			return usage_error("--root %s: not a directory", o.root);
		root = normalize_root(o.root);
		t.root = root;
		t.has_root = true;
	}
	t.mode = o.check ? MODE_CHECK : o.dry_run ? MODE_DRY_RUN : MODE_APPLY;
	t.no_reload = o.no_reload;
	page = sysconf(_SC_PAGESIZE);
	t.page_size = page > 0 ? (unsigned long)page : 4096;
	conf_init(&t.conf);

	rc = run(&t, &o);

	conf_free(&t.conf);
	free(root);
	if (fflush(stdout) != 0 || ferror(stdout)) {
		log_error("cannot write to standard output: %s", strerror(errno));
		if (rc == 0)
			rc = EXIT_RUNTIME;
	}
	return rc;
}

#ifndef TUNE_NO_MAIN
int main(int argc, char **argv)
{
	return tune_main(argc, argv);
}
#endif
