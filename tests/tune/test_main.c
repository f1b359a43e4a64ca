// SPDX-License-Identifier: GPL-2.0-only
/* make -C systemd check: TAP, ending with "N passed, N failed". */
#include <stdio.h>
#include <sys/stat.h>

#include "harness.h"
#include "tests.h"

int main(void)
{
	/* The children's output is captured; ours must not be duplicated
	 * by a fork with unflushed buffers. */
	setvbuf(stdout, NULL, _IOLBF, 0);
	/* The fake configuration files must not be group-writable, or
	 * mglru-fg-tune refuses them (test_files.c): a umask of 002 would. */
	umask(022);
	tests_values();
	tests_conf();
	tests_cli();
	tests_apply();
	tests_files();
	tests_revert();
	tests_loop();
	tests_auto();
	return h_summary();
}
