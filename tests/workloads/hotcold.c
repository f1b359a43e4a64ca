// SPDX-License-Identifier: GPL-2.0
/*
 * hotcold: does a working set survive a scan? A hot file is read at random,
 * every block in every round, while a cold file twice the memcg's size
 * streams past once. Each hot read first asks the page cache alone
 * (RWF_NOWAIT); a hot read it cannot serve is a hot miss, i.e. a refault
 * of the working set. Every block read is verified.
 *
 * The hot set is read --warm times before the scan starts, so it has been
 * used repeatedly, which is what frequency-guided promotion rewards.
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <getopt.h>
#include <sys/stat.h>
#include <sys/uio.h>
#include <unistd.h>
#include "wl.h"

static void usage(FILE *f)
{
	fprintf(f,
		"usage: hotcold --dir DIR --hot SIZE --cold SIZE [--rounds N] [--warm N] [--seed N]\n"
		"  --dir DIR     where the files live (a disk file system; created if missing)\n"
		"  --hot SIZE    the hot file, read at random every round (K, M, G)\n"
		"  --cold SIZE   the cold file, read once from start to end over the rounds\n"
		"  --rounds N    rounds the scan is spread over (default 8)\n"
		"  --warm N      hot passes before the scan (default 3)\n"
		"  --seed N      pattern and order seed (default 5)\n"
		"Prints hot_reads, hot_misses and cold_pages. Exit: 0 data intact,\n"
		"1 mismatch or runtime error, 2 usage.\n");
}

static unsigned long seed = 5, bad;
static uint64_t rng;

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

/* Returns 1 when the page cache did not have the block. */
static int read_block(int fd, unsigned long file, unsigned long block, int probe)
{
	static uint64_t buf[WL_WORDS];
	struct iovec iov = { buf, WL_PAGE };
	int miss = 0;
	ssize_t n = -1;

	if (probe) {
		n = preadv2(fd, &iov, 1, block * WL_PAGE, RWF_NOWAIT);
		if (n < 0 && errno != EAGAIN)
			wl_die(1, "preadv2(RWF_NOWAIT): %s", strerror(errno));
		miss = n != (ssize_t)WL_PAGE;
	}
	if (n != (ssize_t)WL_PAGE) {
		n = pread(fd, buf, WL_PAGE, block * WL_PAGE);
		if (n != (ssize_t)WL_PAGE)
			wl_die(1, "read block %lu: %s", block, n < 0 ? strerror(errno) : "short read");
	}
	check(buf, file, block);
	return miss;
}

int main(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "dir", required_argument, NULL, 'd' },
		{ "hot", required_argument, NULL, 'h' },
		{ "cold", required_argument, NULL, 'c' },
		{ "rounds", required_argument, NULL, 'r' },
		{ "warm", required_argument, NULL, 'w' },
		{ "seed", required_argument, NULL, 's' },
		{ "help", no_argument, NULL, 'H' },
		{ NULL, 0, NULL, 0 }
	};
	unsigned long long hot = 0, cold = 0;
	unsigned long rounds = 8, warm = 3, hb, cb, *order, misses = 0, reads = 0, cdone = 0;
	const char *dir = NULL;
	char hpath[4096], cpath[4096];
	int c, hfd, cfd;

	wl_prog = "hotcold";
	while ((c = getopt_long(argc, argv, "", opts, NULL)) != -1) {
		switch (c) {
		case 'd': dir = optarg; break;
		case 'h': hot = wl_size("--hot", optarg); break;
		case 'c': cold = wl_size("--cold", optarg); break;
		case 'r': rounds = wl_num("--rounds", optarg, 1000); break;
		case 'w': warm = wl_num("--warm", optarg, 1000); break;
		case 's': seed = wl_num("--seed", optarg, 1UL << 40); break;
		case 'H': usage(stdout); return 0;
		default: usage(stderr); return 2;
		}
	}
	if (optind != argc || !dir || hot < WL_PAGE || cold < WL_PAGE || !rounds) {
		fprintf(stderr, "hotcold: --dir, --hot and --cold are required; sizes of at least 4K, --rounds at least 1\n");
		usage(stderr);
		return 2;
	}
	hb = hot / WL_PAGE;
	cb = cold / WL_PAGE;
	rng = seed * 0x9e3779b97f4a7c15ULL | 1;
	if (mkdir(dir, 0755) && errno != EEXIST)
		wl_die(1, "mkdir %s: %s", dir, strerror(errno));
	snprintf(hpath, sizeof(hpath), "%s/hot-%lu", dir, seed);
	snprintf(cpath, sizeof(cpath), "%s/cold-%lu", dir, seed);
	create(hpath, hb, 0);
	create(cpath, cb, 1);

	hfd = open(hpath, O_RDONLY);
	cfd = open(cpath, O_RDONLY);
	if (hfd < 0 || cfd < 0)
		wl_die(1, "open: %s", strerror(errno));
	/* the hot set is read at random: readahead would only blur the count */
	posix_fadvise(hfd, 0, 0, POSIX_FADV_RANDOM);
	/* both files start out of the page cache, whoever wrote them */
	posix_fadvise(hfd, 0, 0, POSIX_FADV_DONTNEED);
	posix_fadvise(cfd, 0, 0, POSIX_FADV_DONTNEED);

	order = malloc(hb * sizeof(*order));
	if (!order)
		wl_die(1, "out of memory");
	for (unsigned long i = 0; i < hb; i++)
		order[i] = i;

	for (unsigned long p = 0; p < warm; p++) {
		wl_shuffle(order, hb, &rng);
		for (unsigned long i = 0; i < hb; i++)
			read_block(hfd, 0, order[i], 0);
	}
	for (unsigned long r = 0; r < rounds; r++) {
		unsigned long cend = cb * (r + 1) / rounds;

		wl_shuffle(order, hb, &rng);
		for (unsigned long i = 0; i < hb; i++) {
			misses += read_block(hfd, 0, order[i], 1);
			reads++;
			/* interleave the scan: one cold block per hot block, then the rest */
			if (cdone < cend)
				read_block(cfd, 1, cdone++, 0);
		}
		while (cdone < cend)
			read_block(cfd, 1, cdone++, 0);
	}
	printf("hot_blocks=%lu cold_pages=%lu hot_reads=%lu hot_misses=%lu hot_miss_ratio=%.4f mismatches=%lu\n",
	       hb, cdone, reads, misses, reads ? (double)misses / reads : 0.0, bad);
	free(order);
	close(hfd);
	close(cfd);
	return bad ? 1 : 0;
}
