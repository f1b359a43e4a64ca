// SPDX-License-Identifier: GPL-2.0
/*
 * memcg-scale: the memcg walk of global reclaim, at N memcgs.
 *
 *   memcg-scale --cgroup DIR --memcgs N --file FILE --anon-kib K --idle-pct P
 *               --warm S --window S {--room-mib M | --reclaim-mib R}
 *
 * N children, each in its own memcg DIR/m.I (made here; DIR must have
 * +memory in its subtree_control), each owning one N-th of FILE: it reads
 * its share once (the page cache is charged to its memcg), dirties K KiB of
 * anonymous memory, then, unless it is one of the idle P %, reads 4 KiB of
 * its share at random forever, writing one of its anonymous pages every 16
 * reads. Then one of two pressures:
 *   --room-mib M: memory is locked (mlock) until the free pages and the
 *       file cache come to M MiB, so that global reclaim chooses which
 *       memcgs give memory back (MemAvailable would not do: it is an
 *       estimate, and at 4,096 memcgs it left the busy readers' whole
 *       set in memory);
 *   --reclaim-mib R: nothing is locked; every second R MiB is asked of the
 *       root's memory.reclaim (the memcg LRU's own test, in its cover
 *       letter: fair is the same pgsteal from each memcg, and about what
 *       was asked).
 * Then the readers run S seconds to warm up, and S more are measured.
 * Out, one "key=value" a line: the window's reclaim (/proc/vmstat; under
 * --reclaim-mib the root memcg's memory.stat), its guest time per page
 * reclaimed and per read (under QEMU's -icount, with the CPU never idle,
 * 1 ns is one instruction), the kernel's share as /proc/stat samples it
 * and kswapd's own from its schedstat, and per memcg the pages reclaimed
 * and the reads done, as their spread over the memcgs. The memcgs go at
 * exit. Progress goes to stderr: each phase, and under --room-mib each
 * second of the window with what it has reclaimed so far.
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <linux/sched.h>
#include <math.h>
#include <sched.h>
#include <signal.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define PAGE 4096L

static const char *dir, *file;
static long memcgs, anon_kib = -1, idle_pct = -1, warm = -1, window;
static long room_mib, reclaim_mib;
static pid_t parent;
/* the start line: the readers block on it until the parent closes it */
static int go[2];

static void die(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	fprintf(stderr, "memcg-scale: ");
	vfprintf(stderr, fmt, ap);
	fprintf(stderr, "\n");
	va_end(ap);
	/* the parent leads the readers' process group: none is left behind */
	if (getpid() == parent) {
		signal(SIGTERM, SIG_IGN);
		kill(0, SIGTERM);
	}
	exit(1);
}

static void usage(void)
{
	fprintf(stderr, "usage: memcg-scale --cgroup DIR --memcgs N --file FILE --anon-kib K\n"
		"       --idle-pct P --warm S --window S {--room-mib M | --reclaim-mib R}\n");
	exit(2);
}

static long number(const char *opt, const char *s, long min, long max)
{
	char *end;
	long v;

	errno = 0;
	v = strtol(s, &end, 10);
	if (errno || end == s || *end || v < min || v > max) {
		fprintf(stderr, "memcg-scale: %s '%s' is not a number from %ld to %ld\n", opt, s, min, max);
		exit(2);
	}
	return v;
}

/* keyed FILE KEY: the number after "KEY " in a "key value" file, or -1 */
static long long keyed(const char *path, const char *key)
{
	char line[256];
	size_t n = strlen(key);
	long long v = -1;
	FILE *f = fopen(path, "r");

	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f))
		if (!strncmp(line, key, n) && line[n] == ' ') {
			v = atoll(line + n + 1);
			break;
		}
	fclose(f);
	return v;
}

/* MiB free or in the file cache: what global reclaim has to choose from */
static long long room_now(void)
{
	return (keyed("/proc/meminfo", "MemFree:") + keyed("/proc/meminfo", "Active(file):") +
		keyed("/proc/meminfo", "Inactive(file):")) / 1024;
}

static void note(const char *what);

/*
 * root_reclaim: ask the root's memory.reclaim for MIB MiB. Returns 0, or
 * the write's -errno (-EAGAIN: less came back than asked).
 */
static int root_reclaim(long long mib)
{
	char req[32];
	int fd = open("/sys/fs/cgroup/memory.reclaim", O_WRONLY), err = 0;

	if (fd < 0)
		die("/sys/fs/cgroup/memory.reclaim: %s", strerror(errno));
	snprintf(req, sizeof(req), "%lldM", mib);
	if (write(fd, req, strlen(req)) < 0)
		err = -errno;
	close(fd);
	return err;
}

/* the memory locked at the start (0) and as the window opens (1) */
static void *pin[2];
static size_t pinned[2];

/*
 * lock_room: lock in pin[k] what the room has over room_mib, faulting it
 * in now, so that the reclaim it takes falls outside the window. Returns
 * the MiB locked: 0 when there is no excess.
 *
 * The lock as the window opens (k = 1) first has the root's memory.reclaim
 * free the excess and a little more, so that the lock then finds free
 * pages. Left to the lock's own faults, the excess would come back 32
 * pages at a time, each by a walk over every memcg (at 4,096 memcgs more
 * than an hour of host time went there without the window opening);
 * memory.reclaim asks in larger batches. Reclaim leaves the room as it
 * was (what it frees becomes free memory), so the lock takes the same
 * amount either way.
 */
static long long lock_room(int k)
{
	long long excess = room_now() - room_mib;

	if (excess <= 0)
		return 0;
	if (k) {
		/* EAGAIN: less came back than asked; the lock reclaims the rest */
		int err = root_reclaim(excess + 16);

		if (err && err != -EAGAIN)
			die("/sys/fs/cgroup/memory.reclaim: %s", strerror(-err));
		note("reclaimed for the lock");
	}
	pinned[k] = (size_t)excess << 20;
	pin[k] = mmap(NULL, pinned[k], PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (pin[k] == MAP_FAILED || mlock(pin[k], pinned[k]))
		die("cannot lock %lld MiB: %s", excess, strerror(errno));
	return excess;
}

/* The global counters a window reads, at one instant. */
struct snap {
	long long vm[12];
	long long kernel_ticks, idle_ticks;
	long long kswapd_ns;
	/*
	 * The root memcg's pgsteal and pgscan: reclaim that a cgroup asked
	 * for (memory.reclaim) is counted in the memcgs' events only, not in
	 * /proc/vmstat, so --reclaim-mib reads its window here.
	 */
	long long root_steal, root_scan;
	struct timespec at;
};

static const char *const vm_keys[] = {
	"pgsteal_kswapd", "pgsteal_direct", "pgscan_kswapd", "pgscan_direct",
	"allocstall_dma32", "allocstall_normal", "allocstall_movable", "pageoutrun",
	"workingset_refault_file", "workingset_refault_anon", "pswpout", "workingset_activate_file",
};
enum { STEAL_K, STEAL_D, SCAN_K, SCAN_D, STALL0, STALL1, STALL2, OUTRUN, REF_F, REF_A, SWPOUT, ACT_F };

/*
 * The kswapd threads' schedstat files, found once before the readers are
 * spawned: scanning /proc at each snapshot would open thousands of
 * entries inside the window, and under heavy reclaim that took tens of
 * guest seconds between the counters and the clock.
 */
static char kswapd_path[16][64];
static int kswapds;

static void find_kswapds(void)
{
	char path[300], comm[64];
	struct dirent *d;
	DIR *proc = opendir("/proc");
	FILE *f;

	if (!proc)
		die("no /proc");
	while ((d = readdir(proc)) && kswapds < 16) {
		if (d->d_name[0] < '1' || d->d_name[0] > '9')
			continue;
		snprintf(path, sizeof(path), "/proc/%s/comm", d->d_name);
		f = fopen(path, "r");
		if (!f)
			continue;
		if (fgets(comm, sizeof(comm), f) && !strncmp(comm, "kswapd", 6))
			snprintf(kswapd_path[kswapds++], sizeof(kswapd_path[0]), "/proc/%.20s/schedstat",
				 d->d_name);
		fclose(f);
	}
	closedir(proc);
	if (!kswapds)
		die("no kswapd thread in /proc");
}

/*
 * kswapd_ns: the CPU time of every kswapd thread (schedstat's first
 * field), or -1 on a kernel without CONFIG_SCHED_INFO (no schedstat file)
 */
static long long kswapd_ns(void)
{
	long long sum = 0, ns;

	for (int k = 0; k < kswapds; k++) {
		FILE *f = fopen(kswapd_path[k], "r");

		if (!f && errno == ENOENT)
			return -1;
		if (!f || fscanf(f, "%lld", &ns) != 1)
			die("cannot read %s", kswapd_path[k]);
		fclose(f);
		sum += ns;
	}
	return sum;
}

/*
 * take: the clock and the global counters, read back to back so that the
 * counters' window is the clock's: one pass over /proc/vmstat, then
 * /proc/stat and the kswapd threads.
 */
static void take(struct snap *s)
{
	long long user, nice, sys, idle, iow, irq, softirq;
	char line[256];
	FILE *f;

	clock_gettime(CLOCK_MONOTONIC, &s->at);
	f = fopen("/proc/vmstat", "r");
	if (!f)
		die("cannot read /proc/vmstat");
	for (size_t i = 0; i < sizeof(vm_keys) / sizeof(vm_keys[0]); i++)
		s->vm[i] = -1;
	while (fgets(line, sizeof(line), f))
		for (size_t i = 0; i < sizeof(vm_keys) / sizeof(vm_keys[0]); i++) {
			size_t n = strlen(vm_keys[i]);

			if (!strncmp(line, vm_keys[i], n) && line[n] == ' ')
				s->vm[i] = atoll(line + n + 1);
		}
	fclose(f);
	f = fopen("/proc/stat", "r");
	if (!f || fscanf(f, "cpu %lld %lld %lld %lld %lld %lld %lld", &user, &nice, &sys, &idle, &iow,
			 &irq, &softirq) != 7)
		die("cannot read /proc/stat");
	fclose(f);
	s->kernel_ticks = sys + irq + softirq;
	s->idle_ticks = idle + iow;
	s->kswapd_ns = kswapd_ns();
	/* only then: the read flushes every memcg's stats, thousands at W12 */
	if (reclaim_mib) {
		s->root_steal = keyed("/sys/fs/cgroup/memory.stat", "pgsteal");
		s->root_scan = keyed("/sys/fs/cgroup/memory.stat", "pgscan");
	}
}

static long long memcg_pgsteal(long i)
{
	char path[512];

	snprintf(path, sizeof(path), "%s/m.%ld/memory.stat", dir, i);
	return keyed(path, "pgsteal");
}

static int idle(long i)
{
	/* spread the idle ones: every memcg whose share of 100 crosses P */
	return (i * idle_pct) / 100 != ((i + 1) * idle_pct) / 100;
}

/*
 * spawn I: a reader born in memcg I (clone3's CLONE_INTO_CGROUP): 4,096
 * writes to cgroup.procs would each take the cgroup threadgroup lock.
 */
static pid_t spawn(long i)
{
	char path[512];
	struct clone_args ca = { .flags = CLONE_INTO_CGROUP, .exit_signal = SIGCHLD };
	int cg;
	pid_t p;

	snprintf(path, sizeof(path), "%s/m.%ld", dir, i);
	if (mkdir(path, 0755))
		die("mkdir %s: %s", path, strerror(errno));
	cg = open(path, O_RDONLY | O_DIRECTORY);
	if (cg < 0)
		die("%s: %s", path, strerror(errno));
	ca.cgroup = (uint64_t)cg;
	p = syscall(SYS_clone3, &ca, sizeof(ca));
	if (p < 0)
		die("clone3 into %s: %s", path, strerror(errno));
	if (p)
		close(cg);
	return p;
}

static void child(long i, off_t off, off_t len, volatile uint64_t *reads)
{
	char buf[65536];
	uint64_t x = 0x9e3779b97f4a7c15ULL * (uint64_t)(i + 1);
	long pages = len / PAGE, apages = anon_kib * 1024 / PAGE;
	char *anon = NULL;
	int fd;

	if (apages) {
		anon = mmap(NULL, apages * PAGE, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
		if (anon == MAP_FAILED)
			die("memcg %ld: mmap: %s", i, strerror(errno));
		for (long p = 0; p < apages; p++)
			anon[p * PAGE] = (char)(p + i + 1);
	}
	fd = open(file, O_RDONLY);
	if (fd < 0)
		die("%s: %s", file, strerror(errno));
	for (off_t o = 0; o < len; o += sizeof(buf))
		if (pread(fd, buf, sizeof(buf) < (size_t)(len - o) ? sizeof(buf) : (size_t)(len - o), off + o) < 0)
			die("memcg %ld: read: %s", i, strerror(errno));
	__atomic_add_fetch(&reads[memcgs], 1, __ATOMIC_RELEASE);
	/*
	 * Wait for all: a reader that ran on would take its share of the
	 * CPU from the parent still spawning, so that spawning N would cost
	 * O(N^2) under one vCPU.
	 */
	close(go[1]);
	while (read(go[0], buf, 1) < 0 && errno == EINTR)
		;
	if (idle(i))
		for (;;)
			pause();
	for (;;) {
		x ^= x << 13;
		x ^= x >> 7;
		x ^= x << 17;
		if (pread(fd, buf, PAGE, off + (off_t)(x % (uint64_t)pages) * PAGE) != PAGE)
			die("memcg %ld: short read", i);
		reads[i]++;
		if (anon && !(reads[i] & 15))
			anon[((x >> 32) % (uint64_t)apages) * PAGE]++;
	}
}

/* note WHAT: a progress line on stderr, with the guest's seconds so far */
static void note(const char *what)
{
	static struct timespec t0;
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	if (!t0.tv_sec)
		t0 = t;
	fprintf(stderr, "memcg-scale: %ld memcgs: %s at %.1f s\n", memcgs, what,
		(double)(t.tv_sec - t0.tv_sec) + (t.tv_nsec - t0.tv_nsec) / 1e9);
}

/*
 * progress: a note at each second of the window, with what it reclaimed so
 * far and the kernel's ticks, so that a boot too slow to close its window
 * in the host time it has still shows how far it got. One pass over
 * /proc/vmstat and /proc/stat a second: microseconds in a 20 s window.
 */
static void progress(long t, const struct snap *a)
{
	struct snap s;
	char what[128];

	take(&s);
	snprintf(what, sizeof(what), "window %ld/%ld s, %lld pages reclaimed, %lld kernel ticks", t,
		 window, s.vm[STEAL_K] + s.vm[STEAL_D] - a->vm[STEAL_K] - a->vm[STEAL_D],
		 s.kernel_ticks - a->kernel_ticks);
	note(what);
}

static void nap(long secs)
{
	struct timespec t = { .tv_sec = secs };

	while (nanosleep(&t, &t) && errno == EINTR)
		;
}

/* spread: "stddev/mean min/mean" of v[i] over the memcgs that sel() takes */
static void spread(const char *name, const double *v, int want_idle)
{
	double s = 0, s2 = 0, min = -1;
	long n = 0;

	for (long i = 0; i < memcgs; i++) {
		if (idle(i) != want_idle)
			continue;
		s += v[i];
		s2 += v[i] * v[i];
		if (min < 0 || v[i] < min)
			min = v[i];
		n++;
	}
	if (!n || s <= 0) {
		printf("%s_stddev_over_mean=nan\n%s_min_over_mean=nan\n", name, name);
		return;
	}
	printf("%s_stddev_over_mean=%.4f\n", name, sqrt(fmax(0, s2 / n - (s / n) * (s / n))) / (s / n));
	printf("%s_min_over_mean=%.4f\n", name, min / (s / n));
}

int main(int argc, char **argv)
{
	struct snap a, b;
	double *steal, *done;
	long long *steal0, reads_total = 0, asked = 0, refused = 0, ooms;
	uint64_t *reads0;
	volatile uint64_t *reads;
	pid_t *pid;
	struct stat st;
	off_t share;
	char path[512];

	for (int i = 1; i < argc; i++) {
		const char *o = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;

		if (!v)
			usage();
		if (!strcmp(o, "--cgroup"))
			dir = v;
		else if (!strcmp(o, "--file"))
			file = v;
		else if (!strcmp(o, "--memcgs"))
			memcgs = number(o, v, 1, 65536);
		else if (!strcmp(o, "--anon-kib"))
			anon_kib = number(o, v, 0, 1L << 30);
		else if (!strcmp(o, "--idle-pct"))
			idle_pct = number(o, v, 0, 99);
		else if (!strcmp(o, "--warm"))
			warm = number(o, v, 0, 86400);
		else if (!strcmp(o, "--window"))
			window = number(o, v, 1, 86400);
		else if (!strcmp(o, "--room-mib"))
			room_mib = number(o, v, 1, 1L << 20);
		else if (!strcmp(o, "--reclaim-mib"))
			reclaim_mib = number(o, v, 1, 1L << 20);
		else
			usage();
		i++;
	}
	if (!dir || !file || !memcgs || anon_kib < 0 || idle_pct < 0 || warm < 0 || !window ||
	    !room_mib == !reclaim_mib)
		usage();
	ooms = keyed("/proc/vmstat", "oom_kill");
	find_kswapds();
	parent = getpid();
	if (setpgid(0, 0))
		die("setpgid: %s", strerror(errno));
	/*
	 * The parent ends each phase: as a real-time task it runs as soon as
	 * it wakes, where among thousands of busy readers it woke seconds
	 * late. Its readers go back to SCHED_OTHER.
	 */
	{
		struct sched_param sp = { .sched_priority = 1 };

		if (sched_setscheduler(0, SCHED_FIFO | SCHED_RESET_ON_FORK, &sp))
			die("sched_setscheduler: %s", strerror(errno));
	}
	if (stat(file, &st))
		die("%s: %s", file, strerror(errno));
	share = st.st_size / memcgs / PAGE * PAGE;
	if (share < PAGE)
		die("%s: %lld bytes is less than a page for each of %ld memcgs", file,
		    (long long)st.st_size, memcgs);

	/* one counter a memcg, and the count of those ready */
	reads = mmap(NULL, (memcgs + 1) * sizeof(*reads), PROT_READ | PROT_WRITE,
		     MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	pid = calloc(memcgs, sizeof(*pid));
	steal = calloc(memcgs, sizeof(*steal));
	done = calloc(memcgs, sizeof(*done));
	steal0 = calloc(memcgs, sizeof(*steal0));
	reads0 = calloc(memcgs, sizeof(*reads0));
	if (reads == MAP_FAILED || !pid || !steal || !done || !steal0 || !reads0)
		die("out of memory");
	if (pipe(go))
		die("pipe: %s", strerror(errno));
	note("start");
	for (long i = 0; i < memcgs; i++) {
		pid[i] = spawn(i);
		if (!pid[i]) {
			child(i, (off_t)i * share, share, reads);
			_exit(0);
		}
	}
	for (long t = 0; __atomic_load_n(&reads[memcgs], __ATOMIC_ACQUIRE) < (uint64_t)memcgs; t++) {
		if (waitpid(-1, NULL, WNOHANG) > 0)
			die("a reader died before it was ready");
		usleep(100000);
	}
	note("every reader has read its share");
	if (room_mib) {
		long long room = room_now();

		if (room <= room_mib)
			die("only %lld MiB free or in the file cache, %ld to be left", room, room_mib);
		printf("pinned_mib=%lld\n", lock_room(0));
		note("locked");
	}
	close(go[1]);
	for (int phase = 0; phase < 2; phase++) {
		if (phase) {
			note("warm");
			/*
			 * The room is locked again as the window opens: while
			 * the readers warm up, the idle ones' anonymous memory
			 * goes to zram and frees what it held, and at 4,096
			 * memcgs that gave the file cache room for every busy
			 * reader's share, so the window reclaimed nothing.
			 */
			if (room_mib) {
				printf("window_room_mib=%lld\n", room_now());
				printf("relocked_mib=%lld\n", lock_room(1));
				note("locked again");
			}
			/* thousands of files: read before the window opens */
			for (long i = 0; i < memcgs; i++)
				steal0[i] = memcg_pgsteal(i);
			for (long i = 0; i < memcgs; i++)
				reads0[i] = reads[i];
			take(&a);
			note("window open");
		}
		for (long t = 0; t < (phase ? window : warm); t++) {
			if (reclaim_mib) {
				/* EAGAIN: less than asked came back; counted */
				if (root_reclaim(reclaim_mib) && phase)
					refused++;
				asked += phase ? reclaim_mib << 20 : 0;
			}
			nap(1);
			if (phase && !reclaim_mib)
				progress(t + 1, &a);
		}
	}
	take(&b);
	/* the readers' counters at the instant the window closed, then the files */
	for (long i = 0; i < memcgs; i++) {
		done[i] = (double)(reads[i] - reads0[i]);
		reads_total += (long long)done[i];
	}
	note("measured");
	for (long i = 0; i < memcgs; i++)
		steal[i] = (double)(memcg_pgsteal(i) - steal0[i]);
	note("each memcg's pgsteal read");
	for (long i = 0; i < memcgs; i++)
		kill(pid[i], SIGKILL);
	for (long i = 0; i < memcgs; i++)
		waitpid(pid[i], NULL, 0);
	for (int k = 0; k < 2; k++)
		if (pin[k])
			munmap(pin[k], pinned[k]);

	{
		long long d[12], reclaimed, scanned, stalls, ticks = b.kernel_ticks - a.kernel_ticks;
		double ns_tick = 1e9 / sysconf(_SC_CLK_TCK), idle_steal = 0, all_steal = 0;
		/* the window as it ran: a busy guest wakes the parent late */
		double secs = (b.at.tv_sec - a.at.tv_sec) + (b.at.tv_nsec - a.at.tv_nsec) / 1e9;

		for (int k = 0; k < 12; k++)
			d[k] = b.vm[k] - a.vm[k];
		reclaimed = d[STEAL_K] + d[STEAL_D];
		scanned = d[SCAN_K] + d[SCAN_D];
		if (reclaim_mib) {
			reclaimed = b.root_steal - a.root_steal;
			scanned = b.root_scan - a.root_scan;
		}
		stalls = d[STALL0] + d[STALL1] + d[STALL2];
		for (long i = 0; i < memcgs; i++) {
			all_steal += steal[i];
			if (idle(i))
				idle_steal += steal[i];
		}
		printf("idle_memcgs=%ld\n", memcgs * idle_pct / 100);
		printf("oom_kills=%lld\n", keyed("/proc/vmstat", "oom_kill") - ooms);
		printf("pages_reclaimed=%lld\n", reclaimed);
		/* sampled at the tick: a coarser figure than the one above */
		printf("kernel_ns_per_page_reclaimed=%.0f\n", reclaimed ? ticks * ns_tick / reclaimed : NAN);
		printf("kswapd_ns_per_page_reclaimed=%.0f\n", d[STEAL_K] && a.kswapd_ns >= 0 ?
		       (double)(b.kswapd_ns - a.kswapd_ns) / d[STEAL_K] : NAN);
		/*
		 * Under -icount the guest's clock counts instructions while the
		 * CPU is busy; with a reader always runnable it is never idle
		 * (idle_ticks shows it), so the window's nanoseconds are its
		 * instructions, readers' and kernel's alike.
		 */
		printf("window_seconds=%.3f\n", secs);
		printf("idle_ticks=%lld\n", b.idle_ticks - a.idle_ticks);
		printf("ns_per_page_reclaimed=%.0f\n", reclaimed ? secs * 1e9 / reclaimed : NAN);
		printf("ns_per_read=%.0f\n", reads_total ? secs * 1e9 / reads_total : NAN);
		printf("direct_reclaims=%lld\nkswapd_runs=%lld\n", stalls, d[OUTRUN]);
		printf("pgscan_per_pgsteal=%.3f\n",
		       reclaimed ? (double)scanned / reclaimed : NAN);
		printf("pswpout=%lld\n", d[SWPOUT]);
		printf("reads_total=%lld\n", reads_total);
		printf("refaults_per_read=%.4f\n", reads_total ? (double)d[REF_F] / reads_total : NAN);
		printf("activations_per_read=%.4f\n", reads_total ? (double)d[ACT_F] / reads_total : NAN);
		printf("idle_share_of_pgsteal=%.4f\n", all_steal > 0 ? idle_steal / all_steal : NAN);
		spread(idle_pct ? "pgsteal_busy" : "pgsteal", steal, 0);
		spread("reads", done, 0);
		if (reclaim_mib) {
			printf("pages_asked=%lld\nreclaim_writes_short=%lld\n", asked / PAGE, refused);
			printf("memcg_pgsteal_over_asked=%.4f\n", asked ? all_steal * PAGE / asked : NAN);
		}
	}
	for (long i = 0; i < memcgs; i++) {
		snprintf(path, sizeof(path), "%s/m.%ld", dir, i);
		/* a memcg whose cache is still charged goes offline, not away */
		if (rmdir(path) && errno != EBUSY)
			fprintf(stderr, "memcg-scale: rmdir %s: %s\n", path, strerror(errno));
	}
	return 0;
}
