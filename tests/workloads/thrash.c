// SPDX-License-Identifier: GPL-2.0
/*
 * thrash: a working set larger than its memcg, read uniformly at random.
 * Nearly every read past the first pass is a refault of a page evicted
 * moments ago, which is what workingset_activate_*, workingset_restore_*
 * and PSI's memory stall are there to report. --mode read uses pread()
 * (refaults in read(), through the page cache), --mode mmap touches the
 * pages through a shared mapping (refaults in page faults). --mode prepare
 * only writes the file, so that a caller can write it outside the memcg
 * and drop it from the cache: the first read of a block is then a plain
 * miss, not the refault of a page the write pushed out. --sequential reads
 * the blocks in order instead, pass after pass, so that every refault
 * comes a file's length of reads after its eviction. Every block read is
 * verified. --count FILE keeps the number of reads done so far in FILE,
 * for a caller that samples the rate of a run it stops when it likes
 * (tests/pkg/reclaim-auto-guest): /proc/PID/io is not in every kernel.
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <getopt.h>
#include <stdbool.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>
#include "wl.h"

static void usage(FILE *f)
{
	fprintf(f,
		"usage: thrash --dir DIR --size SIZE [--reads N] [--mode read|mmap|prepare] [--sequential] [--seed N]\n"
		"              [--count FILE]\n"
		"  --dir DIR     where the file lives (a disk file system; created if missing)\n"
		"  --size SIZE   the file, read at random (K, M, G); written unless it has that size\n"
		"  --reads N     blocks read (required unless --mode prepare)\n"
		"  --mode        read: pread(); mmap: a shared mapping; prepare: only write the\n"
		"                file (default read)\n"
		"  --sequential  read the blocks in order, wrapping at the end, with readahead\n"
		"  --seed N      pattern and order seed (default 11)\n"
		"  --count FILE  the reads done so far, rewritten every 256 reads and at the end\n"
		"Prints reads. Exit: 0 data intact, 1 mismatch or runtime error, 2 usage.\n");
}

/* The count as one fixed-width line at the start, so that a reader
 * never sees the digits of an older, longer one. */
static void count_write(int fd, const char *path, unsigned long n)
{
	char line[24];
	int len = snprintf(line, sizeof(line), "%20lu\n", n);

	if (wl_pwrite(fd, line, (size_t)len, 0) < 0)
		wl_die(1, "write %s: %s", path, strerror(errno));
}

int main(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "dir", required_argument, NULL, 'd' },
		{ "size", required_argument, NULL, 'z' },
		{ "reads", required_argument, NULL, 'n' },
		{ "mode", required_argument, NULL, 'm' },
		{ "seed", required_argument, NULL, 's' },
		{ "sequential", no_argument, NULL, 'q' },
		{ "count", required_argument, NULL, 'c' },
		{ "help", no_argument, NULL, 'H' },
		{ NULL, 0, NULL, 0 }
	};
	static uint64_t buf[WL_WORDS];
	unsigned long long size = 0;
	unsigned long seed = 11, reads = 0, blocks, bad = 0;
	bool sequential = false;
	const char *dir = NULL, *mode = "read", *count = NULL;
	uint64_t rng;
	char path[4096];
	char *map = NULL;
	struct stat st;
	int c, fd, cfd = -1;

	wl_prog = "thrash";
	while ((c = getopt_long(argc, argv, "", opts, NULL)) != -1) {
		switch (c) {
		case 'd': dir = optarg; break;
		case 'z': size = wl_size("--size", optarg); break;
		case 'n': reads = wl_num("--reads", optarg, 1UL << 40); break;
		case 'm': mode = optarg; break;
		case 's': seed = wl_num("--seed", optarg, 1UL << 40); break;
		case 'q': sequential = true; break;
		case 'c': count = optarg; break;
		case 'H': usage(stdout); return 0;
		default: usage(stderr); return 2;
		}
	}
	if (optind != argc || !dir || size < WL_PAGE ||
	    (strcmp(mode, "read") && strcmp(mode, "mmap") && strcmp(mode, "prepare")) ||
	    (!reads && strcmp(mode, "prepare"))) {
		fprintf(stderr, "thrash: --dir and --size (4K or more) are required, --reads too except with --mode prepare; --mode is read, mmap or prepare\n");
		usage(stderr);
		return 2;
	}
	blocks = size / WL_PAGE;
	rng = seed * 0x9e3779b97f4a7c15ULL | 1;
	while (mkdir(dir, 0755) && errno != EEXIST)
		if (!wl_retry())
			wl_die(1, "mkdir %s: %s", dir, strerror(errno));
	snprintf(path, sizeof(path), "%s/thrash-%lu", dir, seed);
	while ((fd = open(path, O_RDWR | O_CREAT, 0644)) < 0 && wl_retry())
		;
	if (fd < 0 || fstat(fd, &st))
		wl_die(1, "open %s: %s", path, strerror(errno));
	if ((unsigned long long)st.st_size != blocks * WL_PAGE) {
		if (ftruncate(fd, 0))
			wl_die(1, "truncate %s: %s", path, strerror(errno));
		for (unsigned long b = 0; b < blocks; b++) {
			wl_fill(buf, seed, b);
			if (wl_pwrite(fd, buf, WL_PAGE, b * WL_PAGE) < 0)
				wl_die(1, "write %s: %s", path, strerror(errno));
		}
		while (fsync(fd))
			if (!wl_retry())
				wl_die(1, "fsync %s: %s", path, strerror(errno));
	}
	if (!strcmp(mode, "prepare"))
		return close(fd) ? 1 : 0;
	/* random reads: readahead would only blur the refaults; in order, it is what a scan gets */
	posix_fadvise(fd, 0, 0, sequential ? POSIX_FADV_SEQUENTIAL : POSIX_FADV_RANDOM);
	if (!strcmp(mode, "mmap")) {
		/*
		 * No MADV_RANDOM: VM_RAND_READ keeps the multi-gen LRU from
		 * treating these faults as faults (lru_gen_enter_fault()),
		 * and what a fault refault reports is the point here.
		 */
		while ((map = mmap(NULL, blocks * WL_PAGE, PROT_READ, MAP_SHARED, fd, 0)) == MAP_FAILED &&
		       wl_retry())
			;
		if (map == MAP_FAILED)
			wl_die(1, "mmap: %s", strerror(errno));
	}

	if (count && (cfd = open(count, O_WRONLY | O_CREAT | O_TRUNC, 0644)) < 0)
		wl_die(1, "open %s: %s", count, strerror(errno));
	for (unsigned long i = 0; i < reads; i++) {
		unsigned long b = sequential ? i % blocks : wl_rand(&rng) % blocks;
		const uint64_t *p = buf;

		if (map) {
			p = (const uint64_t *)(map + b * WL_PAGE);
		} else if (wl_pread(fd, buf, WL_PAGE, b * WL_PAGE) < 0) {
			wl_die(1, "read block %lu: %s", b, strerror(errno));
		}
		if (wl_check(p, seed, b) >= 0 && bad++ < 10)
			fprintf(stderr, "thrash: mismatch in block %lu\n", b);
		if (cfd >= 0 && (i + 1) % 256 == 0)
			count_write(cfd, count, i + 1);
	}
	if (cfd >= 0)
		count_write(cfd, count, reads);
	printf("reads %lu\n", reads);
	if (bad)
		fprintf(stderr, "thrash: %lu blocks did not verify\n", bad);
	return bad ? 1 : 0;
}
