/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Shared by the workload programs: errors, size parsing and the data
 * pattern. The pattern is a pure function of (seed, block, word), so any
 * reader can check any block without keeping a copy; it is never zero,
 * because 6.12 does not write zero-filled pages to swap and the test would
 * then prove nothing.
 */
#ifndef WL_H
#define WL_H

#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/types.h>
#include <unistd.h>

#define WL_PAGE 4096UL
#define WL_WORDS (WL_PAGE / sizeof(uint64_t))

static const char *wl_prog = "workload";

static inline void wl_die(int code, const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, "%s: ", wl_prog);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	exit(code);
}

/* "64M", "1G", "4096" -> bytes; K/M/G are powers of 1024. */
/*
 * Fault injection (mglru-fg-test --fail) starts a workload with
 * MGLRU_FG_MAKE_IT_FAIL=1: it marks itself in /proc/self/make-it-fail
 * before main(), and from then on the kernel fails a share of its
 * allocations on purpose. A system call may then return ENOMEM, or EFAULT
 * or a short count when a page of its buffer could not be brought back
 * in; a robust program tries again, and what it reads must still verify.
 * Without the variable nothing is retried: on a healthy kernel every
 * error stays fatal.
 */
static int wl_faulty;
static unsigned long wl_retries;
#define WL_MAX_RETRIES 1000000UL

static void wl_fault_report(void)
{
	fprintf(stderr, "%s: %lu system calls retried after an injected allocation failure\n",
		wl_prog, wl_retries);
}

/*
 * Grow the stack now: under fault injection growing it later may fail to
 * allocate (the VMA's maple tree nodes), and the kernel then answers the
 * fault with SIGSEGV, as it would when memory is really exhausted.
 */
__attribute__((noinline)) static void wl_stack_prefault(void)
{
	volatile char pad[512 << 10];

	for (size_t i = 0; i < sizeof(pad); i += WL_PAGE)
		pad[i] = 1;
}

__attribute__((constructor)) static void wl_fault_init(void)
{
	const char *e = getenv("MGLRU_FG_MAKE_IT_FAIL");
	int fd;

	if (!e || strcmp(e, "1"))
		return;
	wl_stack_prefault();
	fd = open("/proc/self/make-it-fail", O_WRONLY);
	if (fd < 0 || write(fd, "1", 1) != 1) {
		fprintf(stderr, "workload: /proc/self/make-it-fail: %s (CONFIG_FAULT_INJECTION)\n",
			strerror(errno));
		exit(1);
	}
	close(fd);
	wl_faulty = 1;
	atexit(wl_fault_report);
}

/* After a failed call: is it worth another try? Only an injected fault is. */
static inline int wl_retry(void)
{
	if (!wl_faulty || (errno != ENOMEM && errno != EFAULT && errno != EINTR))
		return 0;
	if (++wl_retries > WL_MAX_RETRIES) {
		fprintf(stderr, "%s: more than %lu calls failed: giving up\n", wl_prog, WL_MAX_RETRIES);
		return 0;
	}
	return 1;
}

/* pread()/pwrite() of exactly @len bytes, or -1 with errno set (EIO: short). */
static inline ssize_t wl_pio(int write, int fd, void *buf, size_t len, off_t off)
{
	for (;;) {
		ssize_t n = write ? pwrite(fd, buf, len, off) : pread(fd, buf, len, off);

		if (n == (ssize_t)len)
			return n;
		if (n >= 0)
			errno = wl_faulty ? EFAULT : EIO;
		if (!wl_retry())
			return -1;
	}
}
#define wl_pread(fd, buf, len, off) wl_pio(0, fd, buf, len, off)
#define wl_pwrite(fd, buf, len, off) wl_pio(1, fd, (void *)(buf), len, off)

/*
 * A hot read asks first whether the page cache holds its block: a block it
 * does not hold is a miss. wl_probe_map() maps the file only to ask
 * (mincore(), which touches no page and starts no I/O), and wl_incore()
 * asks. A RWF_NOWAIT read would start readahead, which can complete
 * before the read looks again, and does under QEMU's -icount.
 */
static inline const char *wl_probe_map(int fd, unsigned long blocks)
{
	void *map = mmap(NULL, blocks * WL_PAGE, PROT_READ, MAP_SHARED, fd, 0);

	if (map == MAP_FAILED)
		wl_die(1, "cannot map the file to probe it: %s", strerror(errno));
	return map;
}

static inline int wl_incore(const char *map, unsigned long block)
{
	unsigned char in;

	if (mincore((void *)(map + block * WL_PAGE), WL_PAGE, &in))
		wl_die(1, "mincore: %s", strerror(errno));
	return in & 1;
}

static inline unsigned long long wl_size(const char *opt, const char *s)
{
	char *end;
	unsigned long long v;

	errno = 0;
	v = strtoull(s, &end, 10);
	if (errno || end == s || *s == '-')
		wl_die(2, "%s: '%s' is not a size (use a number with K, M or G)", opt, s);
	switch (*end) {
	case 'G': case 'g': v <<= 10; /* fall through */
	case 'M': case 'm': v <<= 10; /* fall through */
	case 'K': case 'k': v <<= 10; end++; break;
	case '\0': break;
	default:
		wl_die(2, "%s: '%s' has an unknown unit (use K, M or G)", opt, s);
	}
	if (*end)
		wl_die(2, "%s: '%s' has trailing characters", opt, s);
	return v;
}

static inline unsigned long wl_num(const char *opt, const char *s, unsigned long max)
{
	char *end;
	unsigned long v;

	errno = 0;
	v = strtoul(s, &end, 10);
	if (errno || end == s || *end || *s == '-' || v > max)
		wl_die(2, "%s: '%s' is not a number from 0 to %lu", opt, s, max);
	return v;
}

static inline uint64_t wl_word(uint64_t seed, uint64_t block, uint64_t word)
{
	/* splitmix64 of the position: cheap, and different everywhere */
	uint64_t z = seed + block * WL_WORDS + word + 0x9e3779b97f4a7c15ULL;

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	z ^= z >> 31;
	return z ? z : 1;
}

static inline void wl_fill(uint64_t *p, uint64_t seed, uint64_t block)
{
	for (uint64_t w = 0; w < WL_WORDS; w++)
		p[w] = wl_word(seed, block, w);
}

/* Returns the index of the first bad word, or -1 when the block is intact. */
static inline long wl_check(const uint64_t *p, uint64_t seed, uint64_t block)
{
	for (uint64_t w = 0; w < WL_WORDS; w++)
		if (p[w] != wl_word(seed, block, w))
			return (long)w;
	return -1;
}

/* xorshift64: a reproducible order from --seed, not cryptography */
static inline uint64_t wl_rand(uint64_t *state)
{
	*state ^= *state << 13;
	*state ^= *state >> 7;
	*state ^= *state << 17;
	return *state;
}

/* a new random order of @n block numbers (Fisher-Yates) */
static inline void wl_shuffle(unsigned long *order, unsigned long n, uint64_t *state)
{
	for (unsigned long i = n - 1; i > 0; i--) {
		unsigned long j = wl_rand(state) % (i + 1), t = order[i];

		order[i] = order[j];
		order[j] = t;
	}
}

#endif
