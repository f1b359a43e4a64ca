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
 * Given the exact streams of a run (fio's iologs, -W for the warm-up and
 * -M for the measured window, one log per job: the same fio command with
 * ioengine=null and write_iolog), it also prints what that very window
 * allowed, which a model cannot promise once the window depends on the
 * past:
 *   trace_ideal: the share of the window's reads outside the top-K set
 *          (the set that ideal keeps);
 *   trace_opt: Belady's MIN over the warm-up and then the window, the
 *          window's misses only: no policy that saw the same reads can
 *          miss less.
 * The logs' streams are interleaved one read each in turn, as equal
 * rates would.
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
#include <unistd.h>

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

/* Block indices 0..n-1 by mass, the most probable first. */
static const double *sort_mass;

static int desc_idx(const void *a, const void *b)
{
	double x = sort_mass[*(const uint32_t *)a], y = sort_mass[*(const uint32_t *)b];

	return (x < y) - (x > y);
}

/* The weight of each block in the top-kf set of one file: 1 for the
 * floor(kf) most probable blocks, the fraction for the next, 0 after. */
static double *top_weights(const double *p, uint64_t n, double kf)
{
	uint32_t *idx = malloc(n * sizeof(*idx));
	double *w = calloc(n, sizeof(*w));
	uint64_t i;

	if (!idx || !w)
		die("out of memory for the top-K set");
	for (i = 0; i < n; i++)
		idx[i] = (uint32_t)i;
	sort_mass = p;
	qsort(idx, n, sizeof(*idx), desc_idx);
	for (i = 0; i < n && i + 1 <= kf; i++)
		w[idx[i]] = 1;
	if (i < n)
		w[idx[i]] = kf - i;
	free(idx);
	return w;
}

/* A run's reads, in the order of the interleaved streams: file f's block
 * b is f * n + b. */
struct trace {
	uint32_t *ref;
	uint64_t len, cap;
};

static void trace_add(struct trace *t, uint32_t b)
{
	if (t->len == t->cap) {
		t->cap = t->cap ? 2 * t->cap : 1 << 16;
		t->ref = realloc(t->ref, t->cap * sizeof(*t->ref));
		if (!t->ref)
			die("out of memory for the trace");
	}
	t->ref[t->len++] = b;
}

/* fio's version 3 iolog: "TIME FILE ACTION [OFFSET LENGTH]" after a
 * header line. The blocks read, in order, go to r. */
static void read_iolog(struct trace *r, const char *path, uint64_t n)
{
	FILE *f = fopen(path, "r");
	char line[4096], file[4096], act[32];
	unsigned long long ts, off, sz;
	uint64_t lineno = 1;

	if (!f) {
		fprintf(stderr, "zipf-limits: %s: %s\n", path, strerror(errno));
		exit(2);
	}
	if (!fgets(line, sizeof(line), f) || strcmp(line, "fio version 3 iolog\n")) {
		fprintf(stderr, "zipf-limits: %s: not a fio version 3 iolog\n", path);
		exit(2);
	}
	while (fgets(line, sizeof(line), f)) {
		int got = sscanf(line, "%llu %4095s %31s %llu %llu", &ts, file, act, &off, &sz);

		lineno++;
		if (!strcmp(line, "fio version 3 iolog\n")) {
			fprintf(stderr, "zipf-limits: %s:%llu: a second header (fio appends to an old log: remove it before the run)\n",
				path, (unsigned long long)lineno);
			exit(2);
		}
		if (got >= 3 && strcmp(act, "read")) /* add, open, close */
			continue;
		if (got != 5 || sz != 4096 || off % 4096 || off / 4096 >= n) {
			fprintf(stderr, "zipf-limits: %s:%llu: not a 4 KiB read within %llu blocks\n",
				path, (unsigned long long)lineno, (unsigned long long)n);
			exit(2);
		}
		trace_add(r, (uint32_t)(off / 4096));
	}
	if (ferror(f) || fclose(f)) {
		fprintf(stderr, "zipf-limits: %s: read error\n", path);
		exit(2);
	}
	if (!r->len) {
		fprintf(stderr, "zipf-limits: %s: no reads\n", path);
		exit(2);
	}
}

/* The logs in LIST (comma-separated, one per file), interleaved. */
static void trace_logs(struct trace *t, const char *list, unsigned int files, uint64_t n)
{
	char *copy = strdup(list), *save = NULL, *name;
	struct trace *log = calloc(files, sizeof(*log));
	uint64_t i, most = 0;
	unsigned int f = 0;

	if (!copy || !log)
		die("out of memory");
	for (name = strtok_r(copy, ",", &save); name; name = strtok_r(NULL, ",", &save)) {
		if (f == files) {
			fprintf(stderr, "zipf-limits: more logs than -f %u files in '%s'\n", files, list);
			exit(2);
		}
		read_iolog(&log[f], name, n);
		if (log[f].len > most)
			most = log[f].len;
		f++;
	}
	if (f != files) {
		fprintf(stderr, "zipf-limits: %u logs for -f %u files in '%s'\n", f, files, list);
		exit(2);
	}
	for (i = 0; i < most; i++)
		for (f = 0; f < files; f++)
			if (i < log[f].len)
				trace_add(t, (uint32_t)(f * n + log[f].ref[i]));
	for (f = 0; f < files; f++)
		free(log[f].ref);
	free(log);
	free(copy);
}

/* fio's streams drawn here, from seeds of our own: warm + refs reads. */
static void trace_sim(struct trace *t, uint64_t n, unsigned int files, double theta,
		      uint64_t off, uint64_t len)
{
	struct taus88 *g = calloc(files, sizeof(*g));
	double zetan = 0;
	uint64_t i;
	unsigned int f;

	if (!g)
		die("out of memory for the OPT trace");
	for (i = 1; i <= (n < ZETAN_MAX ? n : ZETAN_MAX); i++)
		zetan += pow((double)i, -theta);
	for (f = 0; f < files; f++)
		taus88_seed(&g[f], 0x5eed + f);
	for (i = 0; i < len; i++) {
		f = i % files;
		trace_add(t, (uint32_t)(f * n + fio_zipf(&g[f], n, theta, zetan, off)));
	}
	free(g);
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

/* Belady's MIN over t with a cache of k >= 1 blocks, counting the misses
 * of the references from warm on. */
static double opt_miss(const struct trace *t, uint64_t nb, uint64_t warm, uint64_t k)
{
	uint64_t len = t->len, i, misses = 0, used = 0;
	uint64_t *next = malloc(len * sizeof(*next)), *upcoming = malloc(nb * sizeof(*upcoming));
	unsigned char *cached = calloc(nb, 1);
	struct ent *heap = malloc((len + 1) * sizeof(*heap));
	size_t hl = 0;

	if (!next || !upcoming || !cached || !heap)
		die("out of memory for the OPT simulation");
	for (i = 0; i < nb; i++)
		upcoming[i] = UINT64_MAX;
	for (i = len; i-- > 0;) {
		next[i] = upcoming[t->ref[i]];
		upcoming[t->ref[i]] = i;
	}
	for (i = 0; i < len; i++) {
		uint32_t b = t->ref[i];

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
	free(next);
	free(upcoming);
	free(cached);
	free(heap);
	return (double)misses / (len - warm);
}

/* The window's share of reads outside the top-K set (w per block). */
static double trace_ideal_miss(const struct trace *t, uint64_t warm, const double *w, uint64_t n)
{
	double hit = 0;
	uint64_t i;

	for (i = warm; i < t->len; i++)
		hit += w[t->ref[i] % n];
	return 1 - hit / (t->len - warm);
}

static void usage(FILE *f)
{
	fprintf(f,
		"usage: zipf-limits [-f FILES] [-o OFFSET | -c CENTER] [-r REFS] [-W LOGS -M LOGS]\n"
		"                   -n BLOCKS -t THETA -k K\n"
		"       zipf-limits --check\n"
		"  -n  blocks per file (fio's nranges: file size / bs)\n"
		"  -t  fio's zipf theta (not 1)\n"
		"  -k  cache in blocks over all files (may be fractional: K_eff)\n"
		"  -f  files, one per job, same rate (default 1)\n"
		"  -o  fio's rand_off (it places the ranks on blocks)\n"
		"  -c  fio's zipf centre (zipf:THETA:CENTER): rand_off = BLOCKS x CENTER\n"
		"  -r  also simulate Belady's OPT on REFS references after as many of warm-up\n"
		"  -W, -M  the warm-up's and the measured window's fio iologs, comma-separated,\n"
		"      one per file: also the window's realised ideal and OPT\n"
		"  --check  compare with the reference table (n = 65536, K/n 0.40, 0.25)\n"
		"Prints: ideal_miss, lru_che_miss [, opt_miss] [, trace_ideal_miss, trace_opt_miss].\n");
}

/* An iolog of one file's reads, for check_traces. */
static void write_log(const char *path, const unsigned int *blk, unsigned int nr)
{
	FILE *f = fopen(path, "w");
	unsigned int i;

	if (!f)
		die("cannot write a test iolog");
	fprintf(f, "fio version 3 iolog\n0 /d/w1.0.0 add\n1 /d/w1.0.0 open\n");
	for (i = 0; i < nr; i++)
		fprintf(f, "%u /d/w1.0.0 read %u 4096\n", i + 2, blk[i] * 4096);
	fprintf(f, "%u /d/w1.0.0 close\n", nr + 2);
	if (fclose(f))
		die("cannot write a test iolog");
}

static int check_one(int *t, const char *what, double got, double want, double tol)
{
	int ok = fabs(got - want) <= tol;

	printf("%sok %d %s: %.4f (want %.4f)\n", ok ? "" : "not ", ++*t, what, got, want);
	return !ok;
}

/* OPT over two logs worked by hand: warm-up 0 1 0, window 2 0 2 0. With
 * one block every window read misses; with two, MIN evicts 1 (never used
 * again) for 2, and only 2's first read misses. The window ideal of a
 * sampled stream must match the model's ideal within sampling error. */
static int check_traces(int *t)
{
	static const unsigned int warm[] = { 0, 1, 0 }, window[] = { 2, 0, 2, 0 };
	char dir[] = "/tmp/zipf-limits.XXXXXX", wl[64], ml[64];
	const uint64_t n = 65536;
	struct trace tr = { 0 };
	double *p, *w;
	uint64_t split;
	int bad = 0;

	if (!mkdtemp(dir))
		die("cannot make a directory for the test iologs");
	snprintf(wl, sizeof(wl), "%s/warm", dir);
	snprintf(ml, sizeof(ml), "%s/window", dir);
	write_log(wl, warm, 3);
	write_log(ml, window, 4);
	trace_logs(&tr, wl, 1, 4);
	split = tr.len;
	trace_logs(&tr, ml, 1, 4);
	bad += check_one(t, "OPT on iologs, 1 block", opt_miss(&tr, 4, split, 1), 1, 1e-12);
	bad += check_one(t, "OPT on iologs, 2 blocks", opt_miss(&tr, 4, split, 2), 0.25, 1e-12);
	free(tr.ref);
	unlink(wl);
	unlink(ml);
	rmdir(dir);

	p = malloc(n * sizeof(*p));
	if (!p)
		die("out of memory");
	block_mass(p, n, 1.2, 19661);
	w = top_weights(p, n, 0.40 * n);
	qsort(p, n, sizeof(*p), desc);
	tr = (struct trace){ 0 };
	trace_sim(&tr, n, 1, 1.2, 19661, 2000000);
	bad += check_one(t, "window ideal of 2M sampled reads, theta=1.2 K/n=0.40",
			 trace_ideal_miss(&tr, 0, w, n), ideal_miss(p, n, 0.40 * n), 0.001);
	free(tr.ref);
	free(w);
	free(p);
	return bad;
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
	printf("TAP version 13\n1..%d\n", 4 * 3 + 3);
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
	bad += check_traces(&t);
	free(p);
	printf("%d passed, %d failed\n", t - bad, bad);
	return bad ? 1 : 0;
}

int main(int argc, char **argv)
{
	double theta = NAN, k = -1, center = -1, *p, *w;
	uint64_t n = 0, off = 0, refs = 0;
	const char *warm_logs = NULL, *window_logs = NULL;
	struct trace t = { 0 };
	uint64_t warm = 0;
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
		if (o[0] != '-' || !o[1] || o[2] || !strchr("nkftorcWM", o[1])) {
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
		case 'c': center = num(argv[i], "-c", 0, 1); break;
		case 'W': warm_logs = argv[i]; break;
		case 'M': window_logs = argv[i]; break;
		}
	}
	if (!n || isnan(theta) || k < 0 || !warm_logs != !window_logs) {
		usage(stderr);
		return 2;
	}
	if (center >= 0)
		off = (uint64_t)(n * center);
	if (theta == 1)
		die("theta 1 is not a zipf fio can draw (it refuses it too)");
	if (k > (double)n * files)
		die("-k: more cache than blocks");
	if ((refs || warm_logs) && (uint64_t)n * files > UINT32_MAX)
		die("too many blocks for the OPT simulation");
	p = malloc(n * sizeof(*p));
	if (!p)
		die("out of memory");
	block_mass(p, n, theta, off);
	/* where the top-K blocks are, before sorting loses it */
	w = warm_logs ? top_weights(p, n, k / files) : NULL;
	qsort(p, n, sizeof(*p), desc);
	if (warm_logs) {
		trace_logs(&t, warm_logs, files, n);
		warm = t.len;
		trace_logs(&t, window_logs, files, n);
	}
	printf("ideal_miss %.6f\n", ideal_miss(p, n, k / files));
	printf("lru_che_miss %.6f\n", che_lru_miss(p, n, k / files));
	if (refs) {
		struct trace sim = { 0 };

		trace_sim(&sim, n, files, theta, off, 2 * refs);
		printf("opt_miss %.6f\n", opt_miss(&sim, n * files, refs, (uint64_t)k));
		free(sim.ref);
	}
	if (warm_logs) {
		printf("trace_ideal_miss %.6f\n", trace_ideal_miss(&t, warm, w, n));
		printf("trace_opt_miss %.6f\n", opt_miss(&t, n * files, warm, (uint64_t)k));
		free(t.ref);
		free(w);
	}
	free(p);
	return 0;
}
