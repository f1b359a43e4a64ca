// SPDX-License-Identifier: GPL-2.0
/*
 * sqlite-lookup DB TABLE N [--scan] [--count FILE]: N indexed point
 * lookups (SELECT by INTEGER PRIMARY KEY, ids uniform over the table) in
 * DB, with a 1 MiB SQLite cache so that the page cache does the caching;
 * --scan first reads the whole table. Prints "lookups N p50_us X p99_us Y
 * mean_us Z". The latencies are wall clock: indicative only in an
 * emulated guest. --count FILE keeps the lookups done so far in FILE
 * instead, for a service whose rate a caller samples while it runs
 * (tests/pkg/reclaim-auto-guest): no latencies are kept then, since an
 * array of them would grow the service's memory as it runs.
 */
#include <fcntl.h>
#include <sqlite3.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

static double now_us(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1e6 + ts.tv_nsec / 1e3;
}

static int cmp(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

static void fail(sqlite3 *db, const char *what)
{
	fprintf(stderr, "sqlite-lookup: %s: %s\n", what, db ? sqlite3_errmsg(db) : "?");
	exit(1);
}

/* One fixed-width line at the start, as thrash writes its count: a reader
 * never sees the digits of an older, longer one. */
static void count_write(int fd, long n)
{
	char line[24];
	int len = snprintf(line, sizeof(line), "%20ld\n", n);

	if (pwrite(fd, line, len, 0) != len)
		fail(NULL, "write the count");
}

int main(int argc, char **argv)
{
	const char *table, *count = NULL;
	char sql[256], *end;
	sqlite3_stmt *st;
	sqlite3 *db;
	long n, i, rows;
	double *lat = NULL, sum = 0;
	uint64_t x = 0x9e3779b97f4a7c15ULL;
	int scan = 0, cfd = -1, a;

	for (a = 4; a < argc; a++) {
		if (!strcmp(argv[a], "--scan") && !scan) {
			scan = 1;
		} else if (!strcmp(argv[a], "--count") && !count && a + 1 < argc) {
			count = argv[++a];
		} else {
			break;
		}
	}
	if (argc < 4 || a != argc || strspn(argv[2], "abcdefghijklmnopqrstuvwxyz_") != strlen(argv[2])) {
		fprintf(stderr, "usage: sqlite-lookup DB TABLE N [--scan] [--count FILE]\n");
		return 2;
	}
	table = argv[2];
	n = strtol(argv[3], &end, 10);
	if (*end || n < 1 || n > 100000000) {
		fprintf(stderr, "sqlite-lookup: N '%s' is not a count of lookups\n", argv[3]);
		return 2;
	}
	/* opened once the arguments are known good: bad ones change nothing */
	if (count && (cfd = open(count, O_WRONLY | O_CREAT | O_TRUNC, 0644)) < 0) {
		perror(count);
		return 1;
	}
	if (sqlite3_open_v2(argv[1], &db, SQLITE_OPEN_READONLY, NULL) != SQLITE_OK)
		fail(db, argv[1]);
	if (sqlite3_exec(db, "PRAGMA cache_size=-1024", NULL, NULL, NULL) != SQLITE_OK)
		fail(db, "cache_size");
	snprintf(sql, sizeof(sql), "SELECT max(id) FROM %s", table);
	if (sqlite3_prepare_v2(db, sql, -1, &st, NULL) != SQLITE_OK || sqlite3_step(st) != SQLITE_ROW)
		fail(db, sql);
	rows = sqlite3_column_int64(st, 0);
	sqlite3_finalize(st);
	if (rows < 1)
		fail(db, "empty table");
	if (scan) {
		snprintf(sql, sizeof(sql), "SELECT count(*) FROM %s WHERE data LIKE '%%no such thing%%'", table);
		if (sqlite3_exec(db, sql, NULL, NULL, NULL) != SQLITE_OK)
			fail(db, sql);
	}
	snprintf(sql, sizeof(sql), "SELECT length(data) FROM %s WHERE id = ?", table);
	if (sqlite3_prepare_v2(db, sql, -1, &st, NULL) != SQLITE_OK)
		fail(db, sql);
	if (cfd >= 0)
		count_write(cfd, 0);
	else if (!(lat = malloc(n * sizeof(*lat))))
		fail(NULL, "out of memory");
	for (i = 0; i < n; i++) {
		double t0;

		/* xorshift64: the same ids on every kernel */
		x ^= x << 13;
		x ^= x >> 7;
		x ^= x << 17;
		t0 = now_us();
		sqlite3_bind_int64(st, 1, 1 + (sqlite3_int64)(x % rows));
		if (sqlite3_step(st) != SQLITE_ROW)
			fail(db, "lookup");
		sqlite3_reset(st);
		if (cfd >= 0) {
			if ((i + 1) % 100 == 0)
				count_write(cfd, i + 1);
			continue;
		}
		lat[i] = now_us() - t0;
		sum += lat[i];
	}
	if (cfd >= 0) {
		count_write(cfd, n);
		printf("lookups %ld\n", n);
	} else {
		qsort(lat, n, sizeof(*lat), cmp);
		printf("lookups %ld p50_us %.1f p99_us %.1f mean_us %.1f\n", n, lat[n / 2],
		       lat[(n * 99) / 100], sum / n);
	}
	sqlite3_finalize(st);
	sqlite3_close(db);
	free(lat);
	return 0;
}
