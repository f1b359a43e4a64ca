// SPDX-License-Identifier: GPL-2.0
/*
 * zipf-limits: what a page cache of K blocks can do at best, and what plain
 * LRU would do, for fio's random_distribution=zipf:THETA over F files of N
 * blocks each, one file per job, all jobs at the same rate.
 *
 * fio draws a rank with Gray et al.'s quick zipfian: u uniform in [0, 1]
 * (32-bit), rank 1 if u*zetan < 1, rank 2 if below 1 + 2^-theta, else
 * 1 + floor(n * (eta*u - eta + 1)^(1/(1-theta))), zetan summed over at
 * most 10M terms. Solving that for u gives each rank's mass exactly:
 * P(1) = 1/zetan, P(2) = 2^-theta/zetan and, for k >= 3,
 * P(k) = ((k/n)^(1-theta) - ((k-1)/n)^(1-theta)) / eta (theta > 1 too).
 * The rank goes to block (rank0 * 0x61C8864680B583EB + off) mod n, which is
 * a permutation only when n is a power of two; otherwise ranks collide
 * and some blocks are never read, so masses are summed per block.
 *
 *   ideal: under independent references the best online policy keeps the
 *          K most probable blocks: miss = 1 - (their mass).
 *   lru:   Che's approximation: T with sum(1 - e^(-p T)) = K, then
 *          miss = 1 - sum(p (1 - e^(-p T))).
 *   opt:   Belady's MIN on a sampled trace (needs the future; a floor,
 *          not a target), the F streams interleaved.
 *
 * K is the cache over all F files (the memcg's file pages, K_eff); with
 * equal rates the ideal and Che split it evenly, which is optimal by
 * symmetry. Prints "name value" lines.
 */
#include <errno.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define GOLDEN_RATIO_64 0x61C8864680B583EBULL
#define ZETAN_MAX 10000000ULL

static void die(const char *msg)
{
	fprintf(stderr, "zipf-limits: %s\n", msg);
	exit(2);
}

static double num(const char *s, const char *what, double lo, double hi)
{
	char *end;
	double v;

	errno = 0;
	v = strtod(s, &end);
	if (errno || end == s || *end || !(v >= lo && v <= hi)) {
		fprintf(stderr, "zipf-limits: %s: '%s' is not a number in [%g, %g]\n", what, s, lo, hi);
		exit(2);
	}
	return v;
}

/* The mass of each block of one file, in p[0..n-1]. */
static void block_mass(double *p, uint64_t n, double theta, uint64_t off)
{
	double zetan = 0, zeta2 = 1 + pow(2, -theta), eta, e = 1 - theta;
	uint64_t k, terms = n < ZETAN_MAX ? n : ZETAN_MAX;

	for (k = 1; k <= terms; k++)
		zetan += pow((double)k, -theta);
	eta = (1 - pow(2.0 / n, e)) / (1 - zeta2 / zetan);
	memset(p, 0, n * sizeof(*p));
	for (k = 1; k <= n; k++) {
		double m;

		if (k == 1)
			m = 1 / zetan;
		else if (k == 2)
			m = pow(2, -theta) / zetan;
		else
			m = (pow((double)k / n, e) - pow((double)(k - 1) / n, e)) / eta;
		p[((k - 1) * GOLDEN_RATIO_64 + off) % n] += m;
	}
}

static int desc(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x < y) - (x > y);
}

/* p sorted descending; k may be fractional (a measured mean). */
static double ideal_miss(const double *p, uint64_t n, double k)
{
	double hit = 0;
	uint64_t i;

	for (i = 0; i < n && i + 1 <= k; i++)
		hit += p[i];
	if (i < n)
		hit += (k - i) * p[i];
	return 1 - hit;
}

static double che_lru_miss(const double *p, uint64_t n, double k)
{
	double lo = 0, hi = 1, hit = 0;
	uint64_t i;
	int it;

	if (k >= n)
		return 0;
	for (;;) {
		double occ = 0;

		for (i = 0; i < n; i++)
			occ += 1 - exp(-p[i] * hi);
		if (occ >= k)
			break;
		hi *= 2;
	}
	for (it = 0; it < 200; it++) {
		double t = (lo + hi) / 2, occ = 0;

		for (i = 0; i < n; i++)
			occ += 1 - exp(-p[i] * t);
		if (occ < k)
			lo = t;
		else
			hi = t;
	}
	for (i = 0; i < n; i++)
		hit += p[i] * (1 - exp(-p[i] * lo));
	return 1 - hit;
}

/* L'Ecuyer's taus88, the 32-bit generator fio draws zipf ranks from. */
struct taus88 {
	uint32_t s1, s2, s3;
};

static uint32_t taus88_next(struct taus88 *t)
{
	t->s1 = ((t->s1 & 0xfffffffeU) << 12) ^ (((t->s1 << 13) ^ t->s1) >> 19);
	t->s2 = ((t->s2 & 0xfffffff8U) << 4) ^ (((t->s2 << 2) ^ t->s2) >> 25);
	t->s3 = ((t->s3 & 0xfffffff0U) << 17) ^ (((t->s3 << 3) ^ t->s3) >> 11);
	return t->s1 ^ t->s2 ^ t->s3;
}

static void taus88_seed(struct taus88 *t, uint32_t seed)
{
	/* each word must exceed its shift mask: 1, 7, 15 */
	t->s1 = seed * 69069U + 2;
	t->s2 = t->s1 * 69069U + 8;
	t->s3 = t->s2 * 69069U + 16;
	if (t->s1 < 2)
		t->s1 += 2;
	if (t->s2 < 8)
		t->s2 += 8;
	if (t->s3 < 16)
		t->s3 += 16;
}

/* One draw of fio's zipf_next(), as a block. */
static uint64_t fio_zipf(struct taus88 *t, uint64_t n, double theta, double zetan, uint64_t off)
{
	double zeta2 = 1 + pow(2, -theta), alpha = 1 / (1 - theta);
	double eta = (1 - pow(2.0 / n, 1 - theta)) / (1 - zeta2 / zetan);
	double u = (double)taus88_next(t) / 4294967295.0, z = u * zetan;
	uint64_t r;

	if (z < 1)
		r = 1;
	else if (z < zeta2)
		r = 2;
	else
		r = 1 + (uint64_t)(n * pow(eta * u - eta + 1, alpha));
	return ((r - 1) * GOLDEN_RATIO_64 + off) % n;
}

/* Belady's MIN with demand paging: on a miss with a full cache, evict the
 * block whose next use is furthest away. A max-heap of (next use, block),
 * one push per reference, with lazy deletion: an entry is live while its
 * block is cached and its next use still equals the entry's.
 */
struct ent {
	uint64_t next;
	uint32_t blk;
};

static void heap_push(struct ent *h, size_t *len, struct ent e)
{
	size_t i = (*len)++;

	while (i && h[(i - 1) / 2].next < e.next) {
		h[i] = h[(i - 1) / 2];
		i = (i - 1) / 2;
	}
	h[i] = e;
}

static struct ent heap_pop(struct ent *h, size_t *len)
{
	struct ent top = h[0], last = h[--(*len)];
	size_t i = 0, c;

	while ((c = 2 * i + 1) < *len) {
		if (c + 1 < *len && h[c + 1].next > h[c].next)
			c++;
		if (h[c].next <= last.next)
			break;
		h[i] = h[c];
		i = c;
	}
	h[i] = last;
	return top;
}

static double opt_miss(uint64_t n, unsigned int files, double theta, uint64_t off,
		       uint64_t warm, uint64_t refs, uint64_t k)
{
	uint64_t len = warm + refs, i, misses = 0, used = 0, nb = n * files;
	uint32_t *trace = malloc(len * sizeof(*trace));
	uint64_t *next = malloc(len * sizeof(*next)), *upcoming = malloc(nb * sizeof(*upcoming));
	unsigned char *cached = calloc(nb, 1);
	struct ent *heap = malloc((len + 1) * sizeof(*heap));
	struct taus88 *t = calloc(files, sizeof(*t));
	double zetan = 0;
	size_t hl = 0;
	unsigned int f;

	if (!trace || !next || !upcoming || !cached || !heap || !t)
		die("out of memory for the OPT trace");
	for (i = 1; i <= (n < ZETAN_MAX ? n : ZETAN_MAX); i++)
		zetan += pow((double)i, -theta);
	for (f = 0; f < files; f++)
		taus88_seed(&t[f], 0x5eed + f);
	for (i = 0; i < len; i++) {
		f = i % files;
		trace[i] = f * n + fio_zipf(&t[f], n, theta, zetan, off);
	}
	for (i = 0; i < nb; i++)
		upcoming[i] = UINT64_MAX;
	for (i = len; i-- > 0;) {
		next[i] = upcoming[trace[i]];
		upcoming[trace[i]] = i;
	}
	for (i = 0; i < len; i++) {
		uint32_t b = trace[i];

		if (!cached[b]) {
			if (i >= warm)
				misses++;
			if (used == k) {
				struct ent e;

				do
					e = heap_pop(heap, &hl);
				while (!cached[e.blk] || upcoming[e.blk] != e.next);
				cached[e.blk] = 0;
				used--;
			}
			cached[b] = 1;
			used++;
		}
		upcoming[b] = next[i];
		heap_push(heap, &hl, (struct ent){ next[i], b });
	}
	free(trace);
	free(next);
	free(upcoming);
	free(cached);
	free(heap);
	free(t);
	return (double)misses / refs;
}

static void usage(FILE *f)
{
	fprintf(f,
		"usage: zipf-limits [-f FILES] [-o OFFSET] [-r REFS] -n BLOCKS -t THETA -k K\n"
		"       zipf-limits --check\n"
		"  -n  blocks per file (fio's nranges: file size / bs)\n"
		"  -t  fio's zipf theta (not 1)\n"
		"  -k  cache in blocks over all files (may be fractional: K_eff)\n"
		"  -f  files, one per job, same rate (default 1)\n"
		"  -o  fio's rand_off (matters only when BLOCKS is not a power of two)\n"
		"  -r  also simulate Belady's OPT on REFS references after as many of warm-up\n"
		"  --check  compare with the reference table (n = 65536, K/n 0.40, 0.25)\n"
		"Prints: ideal_miss, lru_che_miss [, opt_miss].\n");
}

static int check(void)
{
	static const double theta[] = { 0.8, 0.9, 1.1, 1.2 };
	static const double kn[] = { 0.40, 0.25 };
	/* the ideal miss ratios, computed independently; Che-LRU at 0.40 */
	static const double want[2][4] = {
		{ 0.1841, 0.1255, 0.0419, 0.0206 },
		{ 0.2662, 0.1855, 0.0650, 0.0327 },
	};
	static const double che40[4] = { 0.2541, 0.1766, 0.0609, 0.0303 };
	const uint64_t n = 65536;
	double *p = malloc(n * sizeof(*p));
	int i, j, bad = 0, t = 0;

	if (!p)
		die("out of memory");
	printf("TAP version 13\n1..%d\n", 4 * 3);
	for (i = 0; i < 4; i++) {
		block_mass(p, n, theta[i], 0);
		qsort(p, n, sizeof(*p), desc);
		for (j = 0; j < 2; j++) {
			double m = ideal_miss(p, n, kn[j] * n);
			int ok = fabs(m - want[j][i]) < 0.00005 + 1e-12;

			bad += !ok;
			printf("%sok %d ideal theta=%.1f K/n=%.2f: %.4f (want %.4f)\n", ok ? "" : "not ",
			       ++t, theta[i], kn[j], m, want[j][i]);
		}
		{
			double m = che_lru_miss(p, n, 0.40 * n);
			int ok = fabs(m - che40[i]) < 0.00005 + 1e-12;

			bad += !ok;
			printf("%sok %d lru-che theta=%.1f K/n=0.40: %.4f (want %.4f)\n", ok ? "" : "not ",
			       ++t, theta[i], m, che40[i]);
		}
	}
	free(p);
	printf("%d passed, %d failed\n", t - bad, bad);
	return bad ? 1 : 0;
}

int main(int argc, char **argv)
{
	double theta = NAN, k = -1, *p;
	uint64_t n = 0, off = 0, refs = 0;
	unsigned int files = 1;
	int i;

	if (argc == 2 && !strcmp(argv[1], "--check"))
		return check();
	for (i = 1; i < argc; i++) {
		const char *o = argv[i];

		if (!strcmp(o, "-h") || !strcmp(o, "--help")) {
			usage(stdout);
			return 0;
		}
		if (o[0] != '-' || !o[1] || o[2] || !strchr("nkftor", o[1])) {
			fprintf(stderr, "zipf-limits: unknown argument '%s'\n", o);
			usage(stderr);
			return 2;
		}
		if (++i == argc) {
			fprintf(stderr, "zipf-limits: %s needs a value\n", o);
			return 2;
		}
		switch (o[1]) {
		case 'n': n = (uint64_t)num(argv[i], "-n", 3, 1 << 30); break;
		case 't': theta = num(argv[i], "-t", 0.01, 10); break;
		case 'k': k = num(argv[i], "-k", 0, 1e12); break;
		case 'f': files = (unsigned int)num(argv[i], "-f", 1, 1024); break;
		case 'o': off = (uint64_t)num(argv[i], "-o", 0, 1.8e19); break;
		case 'r': refs = (uint64_t)num(argv[i], "-r", 1, 1e9); break;
		}
	}
	if (!n || isnan(theta) || k < 0) {
		usage(stderr);
		return 2;
	}
	if (theta == 1)
		die("theta 1 is not a zipf fio can draw (it refuses it too)");
	if (k > (double)n * files)
		die("-k: more cache than blocks");
	if (refs && (uint64_t)n * files > UINT32_MAX)
		die("-r: too many blocks for the OPT simulation");
	p = malloc(n * sizeof(*p));
	if (!p)
		die("out of memory");
	block_mass(p, n, theta, off);
	qsort(p, n, sizeof(*p), desc);
	printf("ideal_miss %.6f\n", ideal_miss(p, n, k / files));
	printf("lru_che_miss %.6f\n", che_lru_miss(p, n, k / files));
	if (refs)
		printf("opt_miss %.6f\n", opt_miss(n, files, theta, off, refs, refs, (uint64_t)k));
	free(p);
	return 0;
}
