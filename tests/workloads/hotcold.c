// SPDX-License-Identifier: GPL-2.0
/*
 * hotcold: does a working set survive a scan? A hot file is read at random,
 * every block in every round, while a cold file twice the memcg's size
 * streams past once. Before each hot read the page cache is asked whether
 * it holds the block (wl_incore()); a block it does not hold is a hot miss,
 * i.e. a refault of the working set. Every block read is verified.
 *
 * The hot set is read --warm times before the scan starts, so it has been
 * used repeatedly, which is what frequency-guided promotion rewards. With
 * --warm 0 it has to earn its place during the scan instead, and --files
 * and --passes make the scan the one the multi-gen LRU FG posting names:
 * many small cold files read over and over, each less often than the hot
 * set. The hot file's residency (mincore(), which touches no page) is
 * sampled after every round.
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <getopt.h>
#include <sys/stat.h>
#include <unistd.h>
#include "wl.h"

static void usage(FILE *f)
{
	fprintf(f,
		"usage: hotcold --dir DIR --hot SIZE --cold SIZE [--files N] [--passes N] [--rounds N]\n"
		"               [--warm N] [--seed N]\n"
		"  --dir DIR     where the files live (a disk file system; created if missing)\n"
		"  --hot SIZE    the hot file, read at random every round (K, M, G)\n"
		"  --cold SIZE   the cold data, read from start to end over the rounds\n"
		"  --files N     split the cold data into N files of equal size (default: one file)\n"
		"  --passes N    times the cold data is read over the rounds (default 1)\n"
		"  --rounds N    rounds the scan is spread over (default 8)\n"
		"  --warm N      hot passes before the scan (default 3)\n"
		"  --seed N      pattern and order seed (default 5)\n"
		"Prints hot_reads, hot_misses, cold_pages and hot_resident_mean (the hot file's\n"
		"share in the page cache after each round, averaged). Exit: 0 data intact,\n"
		"1 mismatch or runtime error, 2 usage.\n");
}

static unsigned long seed = 5, bad;
static uint64_t rng;
static char cdir[4096];

static void create(const char *path, unsigned long blocks, unsigned long file)
{
	static uint64_t buf[WL_WORDS];
	struct stat st;
	int fd;

	if (!stat(path, &st) && (unsigned long)st.st_size == blocks * WL_PAGE)
		return;
	fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
	if (fd < 0)
		wl_die(1, "create %s: %s", path, strerror(errno));
	for (unsigned long b = 0; b < blocks; b++) {
		wl_fill(buf, seed + file, b);
		if (write(fd, buf, WL_PAGE) != (ssize_t)WL_PAGE)
			wl_die(1, "write %s: %s", path, strerror(errno));
	}
	if (fsync(fd) || close(fd))
		wl_die(1, "fsync %s: %s", path, strerror(errno));
}

static void check(const uint64_t *buf, unsigned long file, unsigned long block)
{
	long w = wl_check(buf, seed + file, block);

	if (w >= 0 && bad++ < 10)
		fprintf(stderr, "hotcold: mismatch in file %lu, block %lu, word %ld\n",
			file, block, w);
}

/* Returns 1 when the page cache did not have the block; @map: wl_probe_map()'s, or NULL */
static int read_block(int fd, unsigned long file, unsigned long block, const char *map)
{
	static uint64_t buf[WL_WORDS];
	int miss = map && !wl_incore(map, block);
	ssize_t n;

	n = pread(fd, buf, WL_PAGE, block * WL_PAGE);
	if (n != (ssize_t)WL_PAGE)
		wl_die(1, "read block %lu: %s", block, n < 0 ? strerror(errno) : "short read");
	check(buf, file, block);
	return miss;
}

/* the cold data: one file, or --files files of bpf blocks each */
static unsigned long cfiles, bpf;

static void cold_path(char *path, size_t len, unsigned long f)
{
	if (cfiles)
		snprintf(path, len, "%s/%lu", cdir, f);
	else
		snprintf(path, len, "%s", cdir);
}

/* Block k of the cold data, as a reader of many small files would: open, read, close. */
static void read_cold(unsigned long k)
{
	static int fd = -1;
	static unsigned long open_f = -1UL;
	unsigned long f = k / bpf, b = k % bpf;
	char path[4200];

	if (f != open_f) {
		if (fd >= 0)
			close(fd);
		cold_path(path, sizeof(path), f);
		fd = open(path, O_RDONLY);
		if (fd < 0)
			wl_die(1, "open %s: %s", path, strerror(errno));
		open_f = f;
	}
	read_block(fd, 1 + f, b, NULL);
}

/* the share of the hot file's pages in the page cache */
static double resident(const char *map, unsigned long blocks)
{
	unsigned long in = 0;

	for (unsigned long b = 0; b < blocks; b++)
		in += wl_incore(map, b);
	return (double)in / blocks;
}

int main(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "dir", required_argument, NULL, 'd' },
		{ "hot", required_argument, NULL, 'h' },
		{ "cold", required_argument, NULL, 'c' },
		{ "files", required_argument, NULL, 'f' },
		{ "passes", required_argument, NULL, 'p' },
		{ "rounds", required_argument, NULL, 'r' },
		{ "warm", required_argument, NULL, 'w' },
		{ "seed", required_argument, NULL, 's' },
		{ "help", no_argument, NULL, 'H' },
		{ NULL, 0, NULL, 0 }
	};
	unsigned long long hot = 0, cold = 0;
	unsigned long rounds = 8, warm = 3, passes = 1, hb, cb, *order, misses = 0, reads = 0;
	unsigned long cdone = 0;
	const char *dir = NULL;
	char hpath[4096], cpath[4200];
	double res = 0;
	const char *hmap;
	int c, hfd;

	wl_prog = "hotcold";
	while ((c = getopt_long(argc, argv, "", opts, NULL)) != -1) {
		switch (c) {
		case 'd': dir = optarg; break;
		case 'h': hot = wl_size("--hot", optarg); break;
		case 'c': cold = wl_size("--cold", optarg); break;
		case 'f': cfiles = wl_num("--files", optarg, 1000000); break;
		case 'p': passes = wl_num("--passes", optarg, 1000); break;
		case 'r': rounds = wl_num("--rounds", optarg, 1000); break;
		case 'w': warm = wl_num("--warm", optarg, 1000); break;
		case 's': seed = wl_num("--seed", optarg, 1UL << 40); break;
		case 'H': usage(stdout); return 0;
		default: usage(stderr); return 2;
		}
	}
	if (optind != argc || !dir || hot < WL_PAGE || cold < WL_PAGE || !rounds || !passes ||
	    cold / WL_PAGE < (cfiles ? cfiles : 1)) {
		fprintf(stderr, "hotcold: --dir, --hot and --cold are required; sizes of at least 4K, a page of cold data per file, --rounds and --passes at least 1\n");
		usage(stderr);
		return 2;
	}
	hb = hot / WL_PAGE;
	bpf = cold / WL_PAGE / (cfiles ? cfiles : 1);
	cb = bpf * (cfiles ? cfiles : 1);
	rng = seed * 0x9e3779b97f4a7c15ULL | 1;
	if (mkdir(dir, 0755) && errno != EEXIST)
		wl_die(1, "mkdir %s: %s", dir, strerror(errno));
	snprintf(hpath, sizeof(hpath), "%s/hot-%lu", dir, seed);
	snprintf(cdir, sizeof(cdir), cfiles ? "%s/cold-%lu.d" : "%s/cold-%lu", dir, seed);
	if (cfiles && mkdir(cdir, 0755) && errno != EEXIST)
		wl_die(1, "mkdir %s: %s", cdir, strerror(errno));
	create(hpath, hb, 0);
	for (unsigned long f = 0; f < (cfiles ? cfiles : 1); f++) {
		int fd;

		cold_path(cpath, sizeof(cpath), f);
		create(cpath, bpf, 1 + f);
		/* every file starts out of the page cache, whoever wrote it */
		fd = open(cpath, O_RDONLY);
		if (fd < 0)
			wl_die(1, "open %s: %s", cpath, strerror(errno));
		posix_fadvise(fd, 0, 0, POSIX_FADV_DONTNEED);
		close(fd);
	}

	hfd = open(hpath, O_RDONLY);
	if (hfd < 0)
		wl_die(1, "open %s: %s", hpath, strerror(errno));
	/* the hot set is read at random: readahead would only blur the count */
	posix_fadvise(hfd, 0, 0, POSIX_FADV_RANDOM);
	posix_fadvise(hfd, 0, 0, POSIX_FADV_DONTNEED);
	hmap = wl_probe_map(hfd, hb);

	order = malloc(hb * sizeof(*order));
	if (!order)
		wl_die(1, "out of memory");
	for (unsigned long i = 0; i < hb; i++)
		order[i] = i;

	for (unsigned long p = 0; p < warm; p++) {
		wl_shuffle(order, hb, &rng);
		for (unsigned long i = 0; i < hb; i++)
			read_block(hfd, 0, order[i], NULL);
	}
	for (unsigned long r = 0; r < rounds; r++) {
		unsigned long cend = cb * passes * (r + 1) / rounds;

		wl_shuffle(order, hb, &rng);
		for (unsigned long i = 0; i < hb; i++) {
			misses += read_block(hfd, 0, order[i], hmap);
			reads++;
			/* interleave the scan: one cold block per hot block, then the rest */
			if (cdone < cend)
				read_cold(cdone++ % cb);
		}
		while (cdone < cend)
			read_cold(cdone++ % cb);
		res += resident(hmap, hb);
	}
	printf("hot_blocks=%lu cold_pages=%lu hot_reads=%lu hot_misses=%lu hot_miss_ratio=%.4f mismatches=%lu hot_resident_mean=%.4f\n",
	       hb, cdone, reads, misses, reads ? (double)misses / reads : 0.0, bad, res / rounds);
	free(order);
	munmap((void *)hmap, hb * WL_PAGE);
	close(hfd);
	return bad ? 1 : 0;
}
