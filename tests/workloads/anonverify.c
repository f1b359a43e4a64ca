// SPDX-License-Identifier: GPL-2.0
/*
 * anonverify: fill anonymous memory with a per-page pattern, push it out
 * (memcg pressure, and MADV_PAGEOUT on request), read it all back and
 * verify every word. Run inside a memcg whose memory.max is well below
 * --size, it proves that swap-out and swap-in keep data intact.
 */
#include <getopt.h>
#include <sys/mman.h>
#include <unistd.h>
#include "wl.h"

#ifndef MADV_PAGEOUT
#define MADV_PAGEOUT 21
#endif

static void usage(FILE *f)
{
	fprintf(f,
		"usage: anonverify [--size SIZE] [--passes N] [--seed N] [--pageout] [--corrupt]\n"
		"  --size SIZE   anonymous memory to fill (default 64M; K, M, G)\n"
		"  --passes N    verify passes after the fill (default 2)\n"
		"  --seed N      pattern seed (default 1)\n"
		"  --pageout     MADV_PAGEOUT everything after the fill\n"
		"  --corrupt     self-test: flip one byte after the fill; the run must then fail\n"
		"Exit: 0 all data intact, 1 mismatch or runtime error, 2 usage.\n");
}

int main(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "size", required_argument, 0, 's' },
		{ "passes", required_argument, 0, 'p' },
		{ "seed", required_argument, 0, 'S' },
		{ "pageout", no_argument, 0, 'o' },
		{ "corrupt", no_argument, 0, 'c' },
		{ "help", no_argument, 0, 'h' },
		{ 0 }
	};
	unsigned long long size = 64ULL << 20;
	unsigned long passes = 2, seed = 1, bad = 0;
	int pageout = 0, corrupt = 0, c;
	uint64_t *mem;
	size_t pages;

	wl_prog = "anonverify";
	while ((c = getopt_long(argc, argv, "", opts, NULL)) != -1) {
		switch (c) {
		case 's': size = wl_size("--size", optarg); break;
		case 'p': passes = wl_num("--passes", optarg, 1000); break;
		case 'S': seed = wl_num("--seed", optarg, -1UL); break;
		case 'o': pageout = 1; break;
		case 'c': corrupt = 1; break;
		case 'h': usage(stdout); return 0;
		default: usage(stderr); return 2;
		}
	}
	if (optind != argc) {
		usage(stderr);
		wl_die(2, "unexpected argument '%s'", argv[optind]);
	}
	pages = size / WL_PAGE;
	if (!pages)
		wl_die(2, "--size must be at least one page");

	while ((mem = mmap(NULL, pages * WL_PAGE, PROT_READ | PROT_WRITE,
			   MAP_PRIVATE | MAP_ANONYMOUS, -1, 0)) == MAP_FAILED && wl_retry())
		;
	if (mem == MAP_FAILED)
		wl_die(1, "mmap %zu pages: %s", pages, strerror(errno));
	madvise(mem, pages * WL_PAGE, MADV_NOHUGEPAGE);

	for (size_t i = 0; i < pages; i++)
		wl_fill(mem + i * WL_WORDS, seed, i);
	if (corrupt)
		((volatile unsigned char *)mem)[(pages / 2) * WL_PAGE + 123] ^= 0x40;
	while (pageout && madvise(mem, pages * WL_PAGE, MADV_PAGEOUT))
		if (!wl_retry())
			wl_die(1, "MADV_PAGEOUT: %s", strerror(errno));

	for (unsigned long p = 0; p < passes; p++) {
		for (size_t i = 0; i < pages; i++) {
			long w = wl_check(mem + i * WL_WORDS, seed, i);

			if (w >= 0 && bad++ < 10)
				fprintf(stderr, "anonverify: mismatch in pass %lu, page %zu, word %ld\n",
					p, i, w);
		}
	}
	printf("anonverify: pages=%zu passes=%lu mismatches=%lu%s\n", pages, passes, bad,
	       corrupt ? " (self-test: one byte was flipped on purpose)" : "");
	return bad ? 1 : 0;
}
