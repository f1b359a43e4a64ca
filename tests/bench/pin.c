// SPDX-License-Identifier: GPL-2.0
/*
 * pin MIB: lock MIB MiB of memory (mlock'ed, so neither reclaim nor swap
 * can take it back) and wait for a signal. Takes a guest's memory away so
 * that the rest is under global reclaim, whatever swap there is.
 */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

int main(int argc, char **argv)
{
	char *end;
	long mib = argc == 2 ? strtol(argv[1], &end, 10) : -1;
	size_t len;
	void *p;

	if (argc != 2 || *end || mib < 1 || mib > (1L << 20)) {
		fprintf(stderr, "usage: pin MIB (1 to 1048576)\n");
		return 2;
	}
	len = (size_t)mib << 20;
	p = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_POPULATE, -1, 0);
	if (p == MAP_FAILED || mlock(p, len)) {
		perror("pin");
		return 1;
	}
	/* distinct bytes per page: nothing for KSM or zero-page tricks */
	for (size_t i = 0; i < len; i += 4096)
		memcpy((char *)p + i, &i, sizeof(i));
	printf("pinned %ld MiB\n", mib);
	fflush(stdout);
	pause();
	return 0;
}
