// SPDX-License-Identifier: GPL-2.0-only
/* make -C systemd check: TAP, ending with "N passed, N failed". */
#include <stdio.h>

#include "harness.h"
#include "tests.h"

int main(void)
{
	/* The children's output is captured; ours must not be duplicated
	 * by a fork with unflushed buffers. */
	setvbuf(stdout, NULL, _IOLBF, 0);
	tests_values();
	tests_conf();
	tests_cli();
	return h_summary();
}
