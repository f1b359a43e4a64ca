// SPDX-License-Identifier: GPL-2.0
/*
 * lazyfree: MADV_FREE'd memory must go before the page cache a program
 * still uses. A hot file is read at random every round; in between, the
 * program maps anonymous memory, writes it, uses it twice through the
 * kernel (so it looks used), MADV_FREEs it and moves on. Each hot read
 * first asks the page cache whether it holds the block (wl_incore()): a
 * block it does not hold is a refault of the hot set, which a kernel that
 * keeps lazyfree folios warm causes.
 *
 * Data check: after MADV_FREE, every eighth page is written again; those
 * must keep the new content, the others must read as their old content or
 * as zeros (freed), never anything else.
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <getopt.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>
#include "wl.h"

static unsigned long seed = 3, bad, hot_reads, hot_misses, freed_pages, kept_pages;
static uint64_t rng;

static void usage(FILE *f)
{
	fprintf(f,
		"usage: lazyfree --dir DIR --hot SIZE --anon SIZE [--rounds N] [--touch N]\n"
		"                [--seed N]\n"
		"  --dir DIR     where the hot file lives (a disk file system)\n"
		"  --hot SIZE    the hot file, read at random every round (K, M, G)\n"
		"  --anon SIZE   anonymous memory written, used and MADV_FREEd per round\n"
		"  --rounds N    rounds (default 8)\n"
		"  --touch N     kernel accesses (/proc/self/mem) before MADV_FREE (default 2)\n"
		"  --seed N      pattern seed (default 3)\n"
		"Prints hot_reads, hot_misses and the lazyfree page fates. Exit: 0 data\n"
		"intact, 1 mismatch or runtime error, 2 usage.\n");
}

static int hot_file(const char *dir, unsigned long blocks)
{
	static uint64_t buf[WL_WORDS];
	char path[4096];
	struct stat st;
	int fd;

	snprintf(path, sizeof(path), "%s/lazyfree-hot-%lu", dir, seed);
	if (stat(path, &st) || (unsigned long)st.st_size != blocks * WL_PAGE) {
		fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
		if (fd < 0)
			wl_die(1, "create %s: %s", path, strerror(errno));
		for (unsigned long b = 0; b < blocks; b++) {
			wl_fill(buf, seed, b);
			if (write(fd, buf, WL_PAGE) != (ssize_t)WL_PAGE)
				wl_die(1, "write %s: %s", path, strerror(errno));
		}
		if (fsync(fd) || close(fd))
			wl_die(1, "fsync %s: %s", path, strerror(errno));
	}
	fd = open(path, O_RDONLY);
	if (fd < 0)
		wl_die(1, "open %s: %s", path, strerror(errno));
	posix_fadvise(fd, 0, 0, POSIX_FADV_RANDOM);
	posix_fadvise(fd, 0, 0, POSIX_FADV_DONTNEED);
	return fd;
}

/* every block once per round, in a new random order */
/* @map: wl_probe_map()'s, to count the misses, or NULL */
static void read_hot(int fd, unsigned long *order, unsigned long blocks, const char *map)
{
	static uint64_t buf[WL_WORDS];

	wl_shuffle(order, blocks, &rng);
	for (unsigned long i = 0; i < blocks; i++) {
		unsigned long b = order[i];

		if (map) {
			hot_reads++;
			hot_misses += !wl_incore(map, b);
		}
		if (pread(fd, buf, WL_PAGE, b * WL_PAGE) != (ssize_t)WL_PAGE)
			wl_die(1, "read hot block %lu: %s", b, strerror(errno));
		if (wl_check(buf, seed, b) >= 0 && bad++ < 10)
			fprintf(stderr, "lazyfree: hot block %lu corrupt\n", b);
	}
}

static int all_zero(const uint64_t *p)
{
	for (unsigned long w = 0; w < WL_WORDS; w++)
		if (p[w])
			return 0;
	return 1;
}

/*
 * One round of anon, a chunk at a time: write it, use it --touch times
 * through the kernel (a read of /proc/self/mem, which takes the pages
 * with FOLL_TOUCH as I/O through get_user_pages() does), MADV_FREE it; then
 * rewrite every eighth page of the round. Under the multi-gen LRU each
 * kernel access counts as a use: two leave PG_referenced and
 * PG_workingset set, more add LRU refs (under fg, an access count). That
 * is the state a lazyfree folio must not keep. Page-table accesses alone would not do it on 6.12, and a
 * swap-in refault does it only while its generation is still the oldest,
 * which this churn never leaves it (every chunk is freed at once).
 */
#define LAZY_CHUNK 64

static unsigned long touches = 2;

static int self_mem = -1;

static void touch_chunk(uint64_t *chunk, unsigned long n)
{
	static uint64_t buf[LAZY_CHUNK * WL_WORDS];

	if (pread(self_mem, buf, n * WL_PAGE, (off_t)(uintptr_t)chunk) != (ssize_t)(n * WL_PAGE))
		wl_die(1, "read /proc/self/mem: %s", strerror(errno));
}

static uint64_t *lazy_round(unsigned long pages, unsigned long round)
{
	uint64_t *a = mmap(NULL, pages * WL_PAGE, PROT_READ | PROT_WRITE,
			   MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

	if (a == MAP_FAILED)
		wl_die(1, "mmap: %s", strerror(errno));
	for (unsigned long c = 0; c < pages; c += LAZY_CHUNK) {
		unsigned long n = pages - c < LAZY_CHUNK ? pages - c : LAZY_CHUNK;
		uint64_t *chunk = a + c * WL_WORDS;

		for (unsigned long p = c; p < c + n; p++)
			wl_fill(a + p * WL_WORDS, seed + 100 + round, p);
		for (unsigned long t = 0; t < touches; t++)
			touch_chunk(chunk, n);
		if (madvise(chunk, n * WL_PAGE, MADV_FREE))
			wl_die(1, "madvise(MADV_FREE): %s", strerror(errno));
	}
	for (unsigned long p = 0; p < pages; p += 8)
		wl_fill(a + p * WL_WORDS, seed + 200 + round, p);
	return a;
}

static void lazy_check(uint64_t *a, unsigned long pages, unsigned long round)
{
	for (unsigned long p = 0; p < pages; p++) {
		uint64_t *pg = a + p * WL_WORDS;

		if (p % 8 == 0) {
			if (wl_check(pg, seed + 200 + round, p) >= 0 && bad++ < 10)
				fprintf(stderr, "lazyfree: rewritten page %lu of round %lu lost its data\n",
					p, round);
		} else if (all_zero(pg)) {
			freed_pages++;
		} else if (wl_check(pg, seed + 100 + round, p) < 0) {
			kept_pages++;
		} else if (bad++ < 10) {
			fprintf(stderr, "lazyfree: lazyfree page %lu of round %lu is neither old nor zero\n",
				p, round);
		}
	}
	munmap(a, pages * WL_PAGE);
}

int main(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "dir", required_argument, NULL, 'd' },
		{ "hot", required_argument, NULL, 'h' },
		{ "anon", required_argument, NULL, 'a' },
		{ "rounds", required_argument, NULL, 'r' },
		{ "touch", required_argument, NULL, 't' },
		{ "seed", required_argument, NULL, 's' },
		{ "help", no_argument, NULL, 'H' },
		{ NULL, 0, NULL, 0 }
	};
	unsigned long long hot = 0, anon = 0;
	unsigned long rounds = 8, hb, ap, *order;
	const char *dir = NULL, *map;
	uint64_t *prev = NULL;
	int c, fd;

	wl_prog = "lazyfree";
	while ((c = getopt_long(argc, argv, "", opts, NULL)) != -1) {
		switch (c) {
		case 'd': dir = optarg; break;
		case 'h': hot = wl_size("--hot", optarg); break;
		case 'a': anon = wl_size("--anon", optarg); break;
		case 'r': rounds = wl_num("--rounds", optarg, 1000); break;
		case 't': touches = wl_num("--touch", optarg, 100); break;
		case 's': seed = wl_num("--seed", optarg, 1UL << 40); break;
		case 'H': usage(stdout); return 0;
		default: usage(stderr); return 2;
		}
	}
	if (optind != argc || !dir || hot < WL_PAGE || anon < 8 * WL_PAGE || !rounds) {
		fprintf(stderr, "lazyfree: --dir, --hot (at least 4K) and --anon (at least 32K) are required\n");
		usage(stderr);
		return 2;
	}
	hb = hot / WL_PAGE;
	ap = anon / WL_PAGE;
	rng = seed * 0x9e3779b97f4a7c15ULL | 1;
	if (mkdir(dir, 0755) && errno != EEXIST)
		wl_die(1, "mkdir %s: %s", dir, strerror(errno));
	fd = hot_file(dir, hb);
	map = wl_probe_map(fd, hb);
	self_mem = open("/proc/self/mem", O_RDONLY);
	if (self_mem < 0)
		wl_die(1, "open /proc/self/mem: %s", strerror(errno));
	order = malloc(hb * sizeof(*order));
	if (!order)
		wl_die(1, "out of memory");
	for (unsigned long i = 0; i < hb; i++)
		order[i] = i;

	/* the hot set is used several times before the lazyfree churn starts */
	for (int i = 0; i < 3; i++)
		read_hot(fd, order, hb, NULL);
	for (unsigned long r = 0; r < rounds; r++) {
		uint64_t *a = lazy_round(ap, r);

		/* the previous round's memory has had a round of pressure */
		if (prev)
			lazy_check(prev, ap, r - 1);
		prev = a;
		read_hot(fd, order, hb, map);
	}
	lazy_check(prev, ap, rounds - 1);
	free(order);
	close(fd);
	close(self_mem);
	printf("hot_reads=%lu hot_misses=%lu hot_miss_ratio=%.4f lazyfree_freed=%lu lazyfree_kept=%lu mismatches=%lu\n",
	       hot_reads, hot_misses, hot_reads ? (double)hot_misses / hot_reads : 0.0,
	       freed_pages, kept_pages, bad);
	return bad ? 1 : 0;
}
