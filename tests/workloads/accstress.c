// SPDX-License-Identifier: GPL-2.0
/*
 * accstress: every way a folio's access count can change, at once, under
 * memory pressure. The FG series counts accesses from read(), page-table
 * walks, GUP, smaps/clear_refs and MADV_COLD/PAGEOUT, and moves folios
 * between generations while other CPUs isolate, migrate, split, free and
 * reparent them; the upstream RFC met a WARN on exactly such an off-LRU
 * folio. One thread per access path runs until --seconds pass:
 *
 *   read     pread() of random file blocks
 *   shared   a MAP_SHARED read-only file mapping, touched at random
 *   private  a MAP_PRIVATE file mapping, read, then written (COW)
 *   anon     anonymous memory with MADV_COLD, MADV_PAGEOUT and MADV_FREE
 *   gup      O_DIRECT reads into anonymous and file-backed mappings, and
 *            vmsplice() of anonymous pages through a pipe
 *   proc     /proc/self/smaps reads and clear_refs writes
 *   system   drop_caches, compact_memory, THP collapse and split
 *   memcg    (with --cgroup) child cgroups that charge file and anonymous
 *            pages, then are removed with the pages still charged
 *
 * Every byte read back is checked against the pattern it must hold. Exit:
 * 0 all data intact, 1 a mismatch or runtime error, 2 usage.
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <getopt.h>
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/uio.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include "wl.h"

#ifndef MADV_COLLAPSE
#define MADV_COLLAPSE 25
#endif

enum { W_READ, W_SHARED, W_PRIVATE, W_ANON, W_GUP, W_PROC, W_SYSTEM, W_MEMCG, NR_W };
static const char *const wname[NR_W] = {
	"read", "shared", "private", "anon", "gup", "proc", "system", "memcg",
};

static uint64_t seed = 11;
static unsigned long file_blocks, anon_pages;
static const char *dir, *cgroup;
static int file_fd, direct_fd;
static time_t deadline;
static atomic_ulong ops[NR_W], bad;

/* One line per mismatch, the first few only: the count tells the rest. */
static void mismatch(int w, const char *what, unsigned long page, long word)
{
	if (atomic_fetch_add(&bad, 1) < 20)
		fprintf(stderr, "accstress: %s: %s page %lu word %ld differs\n",
			wname[w], what, page, word);
}

static int running(void)
{
	return time(NULL) < deadline;
}

static void *map_file(int prot, int flags)
{
	void *p = mmap(NULL, file_blocks * WL_PAGE, prot, flags, file_fd, 0);

	if (p == MAP_FAILED)
		wl_die(1, "mmap the file: %s", strerror(errno));
	return p;
}

static void *w_read(void *arg)
{
	uint64_t buf[WL_WORDS], r = seed + 1;
	long w;

	(void)arg;
	while (running()) {
		unsigned long b = wl_rand(&r) % file_blocks;

		if (pread(file_fd, buf, WL_PAGE, b * WL_PAGE) != (ssize_t)WL_PAGE)
			wl_die(1, "read: pread: %s", strerror(errno));
		if ((w = wl_check(buf, seed, b)) >= 0)
			mismatch(W_READ, "file", b, w);
		atomic_fetch_add(&ops[W_READ], 1);
	}
	return NULL;
}

static void *w_shared(void *arg)
{
	const uint64_t *m = map_file(PROT_READ, MAP_SHARED);
	uint64_t r = seed + 2;
	long w;

	(void)arg;
	while (running()) {
		unsigned long b = wl_rand(&r) % file_blocks;

		if ((w = wl_check(m + b * WL_WORDS, seed, b)) >= 0)
			mismatch(W_SHARED, "file", b, w);
		atomic_fetch_add(&ops[W_SHARED], 1);
	}
	munmap((void *)m, file_blocks * WL_PAGE);
	return NULL;
}

/* A private copy must read as the file until written, then as written. */
static void *w_private(void *arg)
{
	uint64_t *m = map_file(PROT_READ | PROT_WRITE, MAP_PRIVATE), r = seed + 3;
	unsigned char *written = calloc(file_blocks, 1);
	long w;

	(void)arg;
	if (!written)
		wl_die(1, "private: out of memory");
	while (running()) {
		unsigned long b = wl_rand(&r) % file_blocks;
		uint64_t *p = m + b * WL_WORDS;

		if ((w = wl_check(p, written[b] ? ~seed : seed, b)) >= 0)
			mismatch(W_PRIVATE, written[b] ? "copied" : "file", b, w);
		if (!written[b] && (wl_rand(&r) & 3) == 0) {
			wl_fill(p, ~seed, b);
			written[b] = 1;
		}
		atomic_fetch_add(&ops[W_PRIVATE], 1);
	}
	munmap(m, file_blocks * WL_PAGE);
	free(written);
	return NULL;
}

static int zero_page(const uint64_t *p)
{
	for (unsigned long w = 0; w < WL_WORDS; w++)
		if (p[w])
			return 0;
	return 1;
}

/*
 * Anonymous pages hold the pattern, except after MADV_FREE: a freed page
 * the kernel reclaimed reads as zeros, one it kept still holds the
 * pattern; a page written again after MADV_FREE must keep the new data.
 */
static void *w_anon(void *arg)
{
	unsigned long n = anon_pages, chunk = 64;
	uint64_t *m = mmap(NULL, n * WL_PAGE, PROT_READ | PROT_WRITE,
			   MAP_PRIVATE | MAP_ANONYMOUS, -1, 0), r = seed + 4;
	unsigned char *maybe_zero = calloc(n, 1);
	long w;

	(void)arg;
	if (m == MAP_FAILED || !maybe_zero)
		wl_die(1, "anon: cannot map %lu pages", n);
	for (unsigned long i = 0; i < n; i++)
		wl_fill(m + i * WL_WORDS, seed + 4, i);
	while (running()) {
		unsigned long at = wl_rand(&r) % (n - chunk + 1);
		uint64_t *p = m + at * WL_WORDS;
		int advice[] = { MADV_COLD, MADV_PAGEOUT, MADV_FREE };
		int a = advice[wl_rand(&r) % 3];

		if (madvise(p, chunk * WL_PAGE, a) && errno != EINVAL)
			wl_die(1, "anon: madvise(%d): %s", a, strerror(errno));
		for (unsigned long i = 0; i < chunk; i++) {
			uint64_t *q = p + i * WL_WORDS;

			if (a == MADV_FREE && (i & 1)) {
				/* written again: must survive */
				wl_fill(q, seed + 4, at + i);
				maybe_zero[at + i] = 0;
			} else if (a == MADV_FREE) {
				maybe_zero[at + i] = 1;
			}
		}
		/* check another random chunk, then restore its freed pages */
		at = wl_rand(&r) % (n - chunk + 1);
		for (unsigned long i = at; i < at + chunk; i++) {
			uint64_t *q = m + i * WL_WORDS;

			w = wl_check(q, seed + 4, i);
			if (w >= 0 && !(maybe_zero[i] && zero_page(q)))
				mismatch(W_ANON, maybe_zero[i] ? "freed" : "anon", i, w);
			if (maybe_zero[i]) {
				wl_fill(q, seed + 4, i);
				maybe_zero[i] = 0;
			}
		}
		atomic_fetch_add(&ops[W_ANON], 1);
	}
	munmap(m, n * WL_PAGE);
	free(maybe_zero);
	return NULL;
}

/* GUP: O_DIRECT pins the destination pages; vmsplice pins the source. */
static void *w_gup(void *arg)
{
	const unsigned long pages = 16;
	char path[4096];
	uint64_t *anon, *filemap, *out, r = seed + 5;
	int pipefd[2], scratch;
	long w;

	(void)arg;
	snprintf(path, sizeof(path), "%s/accstress-gup.%d", dir, getpid());
	scratch = open(path, O_RDWR | O_CREAT | O_TRUNC, 0600);
	if (scratch < 0 || ftruncate(scratch, pages * WL_PAGE))
		wl_die(1, "gup: %s: %s", path, strerror(errno));
	unlink(path);
	anon = mmap(NULL, pages * WL_PAGE, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	filemap = mmap(NULL, pages * WL_PAGE, PROT_READ | PROT_WRITE, MAP_SHARED, scratch, 0);
	out = mmap(NULL, WL_PAGE, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (anon == MAP_FAILED || filemap == MAP_FAILED || out == MAP_FAILED || pipe(pipefd))
		wl_die(1, "gup: setup: %s", strerror(errno));
	while (running()) {
		unsigned long b = wl_rand(&r) % (file_blocks - pages + 1), i;
		uint64_t *dst = (wl_rand(&r) & 1) ? anon : filemap;

		if (pread(direct_fd, dst, pages * WL_PAGE, b * WL_PAGE) != (ssize_t)(pages * WL_PAGE))
			wl_die(1, "gup: O_DIRECT pread: %s", strerror(errno));
		for (i = 0; i < pages; i++)
			if ((w = wl_check(dst + i * WL_WORDS, seed, b + i)) >= 0)
				mismatch(W_GUP, dst == anon ? "direct->anon" : "direct->file", b + i, w);

		i = wl_rand(&r) % pages;
		wl_fill(anon + i * WL_WORDS, seed + 5, i);
		struct iovec iov = { .iov_base = anon + i * WL_WORDS, .iov_len = WL_PAGE };

		if (vmsplice(pipefd[1], &iov, 1, 0) != (ssize_t)WL_PAGE ||
		    read(pipefd[0], out, WL_PAGE) != (ssize_t)WL_PAGE)
			wl_die(1, "gup: vmsplice: %s", strerror(errno));
		if ((w = wl_check(out, seed + 5, i)) >= 0)
			mismatch(W_GUP, "vmsplice", i, w);
		atomic_fetch_add(&ops[W_GUP], 1);
	}
	return NULL;
}

static void write_str(const char *path, const char *s, int w)
{
	int fd = open(path, O_WRONLY);

	if (fd < 0)
		return;	/* absent on this kernel: nothing to stress */
	if (write(fd, s, strlen(s)) < 0 && errno != EBUSY && errno != EAGAIN)
		fprintf(stderr, "accstress: %s: write %s: %s\n", wname[w], path, strerror(errno));
	close(fd);
}

static void *w_proc(void *arg)
{
	static char buf[1 << 16];

	(void)arg;
	while (running()) {
		int fd = open("/proc/self/smaps", O_RDONLY);

		if (fd < 0)
			wl_die(1, "proc: /proc/self/smaps: %s", strerror(errno));
		while (read(fd, buf, sizeof(buf)) > 0)
			;
		close(fd);
		write_str("/proc/self/clear_refs", "1", W_PROC);
		atomic_fetch_add(&ops[W_PROC], 1);
	}
	return NULL;
}

/*
 * A huge page, collapsed, then mapped by PTEs (mprotect of one page) and
 * partly unmapped, which queues it for a deferred split; the system
 * thread also splits every THP through debugfs.
 */
static void thp_cycle(uint64_t *r)
{
	const unsigned long huge = 2UL << 20, n = huge / WL_PAGE;
	char *raw = mmap(NULL, 2 * huge, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	uint64_t *m;
	long w;

	if (raw == MAP_FAILED)
		return;
	m = (uint64_t *)(((unsigned long)raw + huge - 1) & ~(huge - 1));
	madvise(m, huge, MADV_HUGEPAGE);
	for (unsigned long i = 0; i < n; i++)
		wl_fill(m + i * WL_WORDS, seed + 7, i);
	madvise(m, huge, MADV_COLLAPSE);
	mprotect(m + (wl_rand(r) % n) * WL_WORDS, WL_PAGE, PROT_READ);
	madvise(m + (n - 1) * WL_WORDS, WL_PAGE, MADV_DONTNEED);
	for (unsigned long i = 0; i < n - 1; i++)
		if ((w = wl_check(m + i * WL_WORDS, seed + 7, i)) >= 0)
			mismatch(W_SYSTEM, "thp", i, w);
	munmap(raw, 2 * huge);
}

static void *w_system(void *arg)
{
	uint64_t r = seed + 6;

	(void)arg;
	while (running()) {
		switch (wl_rand(&r) % 4) {
		case 0: write_str("/proc/sys/vm/drop_caches", "3", W_SYSTEM); break;
		case 1: write_str("/proc/sys/vm/compact_memory", "1", W_SYSTEM); break;
		case 2: write_str("/sys/kernel/debug/split_huge_pages", "1", W_SYSTEM); break;
		default: thp_cycle(&r); break;
		}
		atomic_fetch_add(&ops[W_SYSTEM], 1);
		usleep(100 * 1000);
	}
	return NULL;
}

/* A child in a fresh cgroup charges pages, exits; the cgroup goes away. */
static void *w_memcg(void *arg)
{
	char path[4096], procs[4200];
	uint64_t r = seed + 8;

	(void)arg;
	for (unsigned long n = 0; running(); n++) {
		snprintf(path, sizeof(path), "%s/accstress.%d.%lu", cgroup, getpid(), n);
		snprintf(procs, sizeof(procs), "%s/cgroup.procs", path);
		if (mkdir(path, 0755))
			wl_die(1, "memcg: mkdir %s: %s", path, strerror(errno));
		pid_t pid = fork();

		if (pid == 0) {
			uint64_t buf[WL_WORDS];
			unsigned long at = wl_rand(&r) % file_blocks, len = 512;
			char *anon;

			write_str(procs, "0", W_MEMCG);
			for (unsigned long b = 0; b < len; b++) {
				unsigned long blk = (at + b) % file_blocks;

				if (pread(file_fd, buf, WL_PAGE, blk * WL_PAGE) != (ssize_t)WL_PAGE ||
				    wl_check(buf, seed, blk) >= 0)
					_exit(3);
			}
			anon = malloc(len * WL_PAGE);
			if (!anon)
				_exit(4);
			memset(anon, 0x5a, len * WL_PAGE);
			_exit(0);
		}
		int st = 0;

		if (pid < 0 || waitpid(pid, &st, 0) != pid)
			wl_die(1, "memcg: fork: %s", strerror(errno));
		if (WIFEXITED(st) && WEXITSTATUS(st) == 3)
			mismatch(W_MEMCG, "file read in a child cgroup", 0, -1);
		/* the page cache it charged stays behind, reparented */
		for (int tries = 0; rmdir(path) && errno == EBUSY && tries < 100; tries++)
			usleep(10 * 1000);
		atomic_fetch_add(&ops[W_MEMCG], 1);
	}
	return NULL;
}

static void *(*const worker[NR_W])(void *) = {
	w_read, w_shared, w_private, w_anon, w_gup, w_proc, w_system, w_memcg,
};

static void make_file(unsigned long blocks)
{
	char path[4096];
	uint64_t buf[WL_WORDS];
	int fd;

	snprintf(path, sizeof(path), "%s/accstress.%d", dir, getpid());
	fd = open(path, O_RDWR | O_CREAT | O_TRUNC, 0600);
	if (fd < 0)
		wl_die(1, "create %s: %s", path, strerror(errno));
	for (unsigned long b = 0; b < blocks; b++) {
		wl_fill(buf, seed, b);
		if (write(fd, buf, WL_PAGE) != (ssize_t)WL_PAGE)
			wl_die(1, "write %s: %s", path, strerror(errno));
	}
	if (fsync(fd))
		wl_die(1, "fsync %s: %s", path, strerror(errno));
	file_fd = fd;
	direct_fd = open(path, O_RDONLY | O_DIRECT);
	if (direct_fd < 0)
		wl_die(1, "%s: O_DIRECT: %s", path, strerror(errno));
	unlink(path);
}

static void usage(FILE *f)
{
	fprintf(f,
		"usage: accstress --dir DIR --file SIZE --anon SIZE [--seconds N]\n"
		"                 [--cgroup DIR] [--seed N]\n"
		"  --dir DIR      a disk file system (O_DIRECT) for the test file\n"
		"  --file SIZE    the file every path reads (K, M, G; >= 64K)\n"
		"  --anon SIZE    anonymous memory of the anon path (>= 256K)\n"
		"  --seconds N    run time (default 60)\n"
		"  --cgroup DIR   a cgroup v2 directory with the memory controller\n"
		"                 enabled for children: the memcg path runs there\n"
		"  --seed N       pattern seed (default 11)\n"
		"Stresses read, mmap (shared/private), anon with MADV_COLD/PAGEOUT/FREE,\n"
		"GUP (O_DIRECT, vmsplice), smaps/clear_refs, drop_caches, compaction,\n"
		"THP collapse/split and cgroup removal at once; verifies all data.\n"
		"Exit: 0 data intact, 1 mismatch or runtime error, 2 usage.\n");
}

int main(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "dir", required_argument, NULL, 'd' },
		{ "file", required_argument, NULL, 'f' },
		{ "anon", required_argument, NULL, 'a' },
		{ "seconds", required_argument, NULL, 's' },
		{ "cgroup", required_argument, NULL, 'c' },
		{ "seed", required_argument, NULL, 'S' },
		{ "help", no_argument, NULL, 'h' },
		{ 0 }
	};
	unsigned long long file_size = 0, anon_size = 0;
	unsigned long seconds = 60;
	pthread_t t[NR_W];
	struct stat st;
	int c;

	wl_prog = "accstress";
	while ((c = getopt_long(argc, argv, "", opts, NULL)) != -1) {
		switch (c) {
		case 'd': dir = optarg; break;
		case 'f': file_size = wl_size("--file", optarg); break;
		case 'a': anon_size = wl_size("--anon", optarg); break;
		case 's': seconds = wl_num("--seconds", optarg, 7 * 24 * 3600); break;
		case 'c': cgroup = optarg; break;
		case 'S': seed = wl_num("--seed", optarg, ~0UL); break;
		case 'h': usage(stdout); return 0;
		default: usage(stderr); return 2;
		}
	}
	if (optind < argc)
		wl_die(2, "unexpected argument '%s'", argv[optind]);
	if (!dir || !file_size || !anon_size) {
		usage(stderr);
		return 2;
	}
	if (file_size < 16 * WL_PAGE || anon_size < 64 * WL_PAGE)
		wl_die(2, "--file must be at least 64K and --anon at least 256K");
	if (stat(dir, &st) || !S_ISDIR(st.st_mode))
		wl_die(2, "--dir %s is not a directory", dir);
	if (cgroup) {
		char ctl[4096];

		snprintf(ctl, sizeof(ctl), "%s/cgroup.subtree_control", cgroup);
		if (access(ctl, W_OK))
			wl_die(2, "--cgroup %s: no writable cgroup.subtree_control", cgroup);
	}
	file_blocks = file_size / WL_PAGE;
	anon_pages = anon_size / WL_PAGE;
	make_file(file_blocks);
	signal(SIGPIPE, SIG_IGN);

	deadline = time(NULL) + (time_t)seconds;
	for (int w = 0; w < NR_W; w++)
		if ((w != W_MEMCG || cgroup) && pthread_create(&t[w], NULL, worker[w], NULL))
			wl_die(1, "cannot start the %s thread", wname[w]);
	for (int w = 0; w < NR_W; w++)
		if (w != W_MEMCG || cgroup)
			pthread_join(t[w], NULL);

	printf("accstress: seconds=%lu", seconds);
	for (int w = 0; w < NR_W; w++)
		printf(" %s=%lu", wname[w], atomic_load(&ops[w]));
	printf(" mismatches=%lu\n", atomic_load(&bad));
	return atomic_load(&bad) ? 1 : 0;
}
