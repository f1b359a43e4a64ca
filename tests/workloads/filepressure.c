// SPDX-License-Identifier: GPL-2.0
/*
 * filepressure: create files with a known pattern, then read them again
 * and again (a hot subset more often than the rest) and verify every
 * block. Run inside a memcg smaller than the files, it exercises page
 * cache reclaim and refault, and catches any corruption on the way.
 */
#include <fcntl.h>
#include <getopt.h>
#include <sys/stat.h>
#include <unistd.h>
#include "wl.h"

#define CHUNK (16 * WL_PAGE)

static void usage(FILE *f)
{
	fprintf(f,
		"usage: filepressure --dir DIR [--size SIZE] [--files N] [--hot PCT] [--passes N] [--seed N]\n"
		"  --dir DIR     where the files live (an ext4 mount; created if missing)\n"
		"  --size SIZE   total size of the files (default 64M; K, M, G)\n"
		"  --files N     number of files (default 16)\n"
		"  --hot PCT     percentage of files read 4x per pass (default 25)\n"
		"  --passes N    read passes (default 3)\n"
		"  --seed N      pattern seed (default 2)\n"
		"Files that exist with the right size are reused, not rewritten.\n"
		"Exit: 0 all data intact, 1 mismatch or runtime error, 2 usage.\n");
}

static unsigned long seed = 2, bad;

static void path_of(char *buf, size_t len, const char *dir, unsigned long i)
{
	snprintf(buf, len, "%s/fp-%lu-%04lu", dir, seed, i);
}

static void create(const char *path, unsigned long long bytes, unsigned long file)
{
	static uint64_t buf[CHUNK / sizeof(uint64_t)];
	struct stat st;
	int fd;

	if (!stat(path, &st) && (unsigned long long)st.st_size == bytes)
		return;
	while ((fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0644)) < 0 && wl_retry())
		;
	if (fd < 0)
		wl_die(1, "create %s: %s", path, strerror(errno));
	for (unsigned long long off = 0; off < bytes; off += CHUNK) {
		for (unsigned long b = 0; b < CHUNK / WL_PAGE; b++)
			wl_fill(buf + b * WL_WORDS, seed + file, off / WL_PAGE + b);
		if (wl_pwrite(fd, buf, CHUNK, off) < 0)
			wl_die(1, "write %s: %s", path, strerror(errno));
	}
	while (fsync(fd))
		if (!wl_retry())
			wl_die(1, "fsync %s: %s", path, strerror(errno));
	if (close(fd))
		wl_die(1, "fsync %s: %s", path, strerror(errno));
}

static unsigned long long verify(const char *path, unsigned long long bytes, unsigned long file)
{
	static uint64_t buf[CHUNK / sizeof(uint64_t)];
	int fd;

	while ((fd = open(path, O_RDONLY)) < 0 && wl_retry())
		;
	if (fd < 0)
		wl_die(1, "open %s: %s", path, strerror(errno));
	for (unsigned long long off = 0; off < bytes; off += CHUNK) {
		if (wl_pread(fd, buf, CHUNK, off) < 0)
			wl_die(1, "read %s at %llu: %s", path, off, strerror(errno));
		for (unsigned long b = 0; b < CHUNK / WL_PAGE; b++) {
			long w = wl_check(buf + b * WL_WORDS, seed + file, off / WL_PAGE + b);

			if (w >= 0 && bad++ < 10)
				fprintf(stderr, "filepressure: mismatch in %s, block %llu, word %ld\n",
					path, off / WL_PAGE + b, w);
		}
	}
	close(fd);
	return bytes / WL_PAGE;
}

int main(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "dir", required_argument, 0, 'd' },
		{ "size", required_argument, 0, 's' },
		{ "files", required_argument, 0, 'f' },
		{ "hot", required_argument, 0, 'H' },
		{ "passes", required_argument, 0, 'p' },
		{ "seed", required_argument, 0, 'S' },
		{ "help", no_argument, 0, 'h' },
		{ 0 }
	};
	unsigned long long size = 64ULL << 20, per, blocks = 0;
	unsigned long files = 16, hot = 25, passes = 3, nhot;
	const char *dir = NULL;
	char path[4096];
	int c;

	wl_prog = "filepressure";
	while ((c = getopt_long(argc, argv, "", opts, NULL)) != -1) {
		switch (c) {
		case 'd': dir = optarg; break;
		case 's': size = wl_size("--size", optarg); break;
		case 'f': files = wl_num("--files", optarg, 100000); break;
		case 'H': hot = wl_num("--hot", optarg, 100); break;
		case 'p': passes = wl_num("--passes", optarg, 1000); break;
		case 'S': seed = wl_num("--seed", optarg, 1UL << 32); break;
		case 'h': usage(stdout); return 0;
		default: usage(stderr); return 2;
		}
	}
	if (optind != argc) {
		usage(stderr);
		wl_die(2, "unexpected argument '%s'", argv[optind]);
	}
	if (!dir)
		wl_die(2, "--dir is required");
	if (!files)
		wl_die(2, "--files must be at least 1");
	per = size / files / CHUNK * CHUNK;
	if (!per)
		wl_die(2, "--size %llu is too small for %lu files of at least %lu bytes",
		       size, files, CHUNK);
	while (mkdir(dir, 0755) && errno != EEXIST)
		if (!wl_retry())
			wl_die(1, "mkdir %s: %s", dir, strerror(errno));

	for (unsigned long i = 0; i < files; i++) {
		path_of(path, sizeof(path), dir, i);
		create(path, per, i);
	}
	nhot = (files * hot + 99) / 100;
	for (unsigned long p = 0; p < passes; p++) {
		for (int r = 0; r < 4; r++)
			for (unsigned long i = 0; i < nhot; i++) {
				path_of(path, sizeof(path), dir, i);
				blocks += verify(path, per, i);
			}
		for (unsigned long i = nhot; i < files; i++) {
			path_of(path, sizeof(path), dir, i);
			blocks += verify(path, per, i);
		}
	}
	printf("filepressure: files=%lu hot=%lu bytes=%llu passes=%lu blocks_read=%llu mismatches=%lu\n",
	       files, nhot, per * files, passes, blocks, bad);
	return bad ? 1 : 0;
}
