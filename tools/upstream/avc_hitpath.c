// SPDX-License-Identifier: GPL-2.0
/*
 * avc_hitpath - time the kernel AVC's hit path from userspace, with loops
 * that reach it, and Kaigai Kohei's 2004 write() loop, which no longer
 * does.
 *
 *   avc_hitpath [-t threads] [-n calls] [-r reps] [-d dir] write|stat|kill
 *   avc_hitpath -k hot -c cold [-r rounds] [-d dir] churn
 *
 * Each of the threads makes -n calls per repetition: write() of one byte
 * at offset 0 to a file of its own (pwrite(), so the file stays one byte),
 * stat() of one file every thread shares, or kill(getpid(), 0), the
 * existence test, on the threads' own process (selinux_task_kill():
 * process { signull }, one AVC lookup a call).  With two threads of stat
 * or kill both hit the same AVC entry: the case where a store on every hit
 * would make the CPUs fight over its cache line.  Threads start together
 * and each
 * repetition is timed from the first start to the last end.  One line per
 * repetition:
 *
 *   hitpath stat threads 2 rep 1: 400000 calls in 0.512 s, 781.3 Kcalls/s,
 *   AVC lookups 1.00 a call
 *
 * (one line), where the lookups are the delta of the kernel AVC's own
 * counter (/sys/fs/selinux/avc/cache_stats, summed over the CPUs) over the
 * repetition, divided by the calls: it shows whether the loop reaches the
 * AVC at all.  Since 2.6.x SELinux revalidates an open file's permission
 * only when the policy or the file's label changed (selinux_file_permission()),
 * so write() makes no AVC lookup; stat() makes one (selinux_inode_getattr(),
 * unless the task's domain is permissive and neveraudit, 6.17), and kill()
 * one (selinux_task_kill()).
 *
 * churn: a hot set and a stream of cold keys, for make upstream's reclaim
 * measurements.  It makes hot + cold files in dir, each labelled with the
 * directory's context and a category pair of its own (security.selinux),
 * so that stat() of each is an AVC key of its own; then, each of -r
 * rounds, it stat()s every hot file (hits once the set is in the cache,
 * which set their referenced bits) and then cold / rounds cold files never
 * asked for before (misses, each past cache_threshold a reclaim).  With
 * hot below cache_threshold a reclaim that evicts hot entries costs
 * misses later; one that spares them does not.  With -k 0 every entry
 * is asked for once: the table a reclaim meets is cold.  One line:
 *
 *   churn hot 6144 cold 16384 rounds 8: 65536 stats in 2.345 s
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/xattr.h>
#include <time.h>
#include <unistd.h>

#define PROG "avc_hitpath"
#define STATS "/sys/fs/selinux/avc/cache_stats"

static unsigned long calls = 200000;
enum mode { WRITE, STAT, KILL, CHURN };
static const char *const mode_names[] = { "write", "stat", "kill", "churn" };
static enum mode mode;
static char shared[4096];
static pthread_barrier_t start;
static pid_t self;

struct worker {
	pthread_t tid;
	int fd;
	int err;
	struct timespec t0, t1;
};

static void die(const char *what)
{
	fprintf(stderr, PROG ": %s: %s\n", what, strerror(errno));
	exit(1);
}

static double secs(const struct timespec *t)
{
	return t->tv_sec + t->tv_nsec / 1e9;
}

/* The kernel AVC's lookups, summed over the CPUs; 0 if unreadable. */
static unsigned long long avc_lookups(void)
{
	unsigned long long sum = 0, v;
	char line[256], *end;
	FILE *f = fopen(STATS, "r");

	if (!f)
		return 0;
	/* The first column of each CPU's row; the header has no number. */
	while (fgets(line, sizeof(line), f)) {
		v = strtoull(line, &end, 10);
		if (end != line)
			sum += v;
	}
	fclose(f);
	return sum;
}

static void *work(void *arg)
{
	struct worker *w = arg;
	struct stat st;
	unsigned long i;
	char c = 'x';

	pthread_barrier_wait(&start);
	clock_gettime(CLOCK_MONOTONIC, &w->t0);
	for (i = 0; i < calls; i++) {
		int bad;

		switch (mode) {
		case STAT:
			bad = stat(shared, &st) != 0;
			break;
		case KILL:
			bad = kill(self, 0) != 0;
			break;
		default:
			bad = pwrite(w->fd, &c, 1, 0) != 1;
			break;
		}
		if (bad) {
			w->err = errno ? errno : EIO;
			break;
		}
	}
	clock_gettime(CLOCK_MONOTONIC, &w->t1);
	return NULL;
}

/* File i of churn's set in dir, its path in path. */
static void churn_path(char *path, size_t n, const char *dir, unsigned long i)
{
	snprintf(path, n, "%s/churn.%lu", dir, i);
}

static int churn_run(const char *dir, unsigned long hot,
		     unsigned long cold, int rounds)
{
	unsigned long i, a = 0, b = 1, slice = cold / rounds, next = hot;
	char path[4096], ctx[512], label[600], *lvl;
	struct timespec t0, t1;
	struct stat st;
	ssize_t len;
	int fd, r;

	if (mkdir(dir, 0755) && errno != EEXIST)
		die(dir);
	len = getxattr(dir, "security.selinux", ctx, sizeof(ctx) - 1);
	if (len <= 0)
		die("getxattr security.selinux");
	ctx[len] = 0;
	/* user:role:type:sensitivity[:categories]: keep the first four. */
	lvl = ctx;
	for (r = 0; r < 4 && lvl; r++)
		lvl = strchr(lvl + 1, ':');
	if (lvl)
		*lvl = 0;
	for (i = 0; i < hot + cold; i++) {
		churn_path(path, sizeof(path), dir, i);
		fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
		if (fd < 0)
			die(path);
		close(fd);
		/* The next pair of categories c0.c1023, a < b. */
		snprintf(label, sizeof(label), "%s:c%lu,c%lu", ctx, a, b);
		if (++b == 1024) {
			a++;
			b = a + 1;
		}
		if (setxattr(path, "security.selinux", label, strlen(label) + 1,
			     0))
			die(label);
	}
	clock_gettime(CLOCK_MONOTONIC, &t0);
	for (r = 0; r < rounds; r++) {
		for (i = 0; i < hot; i++) {
			churn_path(path, sizeof(path), dir, i);
			if (stat(path, &st))
				die(path);
		}
		for (i = 0; i < slice; i++, next++) {
			churn_path(path, sizeof(path), dir, next);
			if (stat(path, &st))
				die(path);
		}
	}
	clock_gettime(CLOCK_MONOTONIC, &t1);
	printf("churn hot %lu cold %lu rounds %d: %lu stats in %.3f s\n", hot,
	       slice * rounds, rounds, (hot + slice) * rounds,
	       secs(&t1) - secs(&t0));
	for (i = 0; i < hot + cold; i++) {
		churn_path(path, sizeof(path), dir, i);
		unlink(path);
	}
	return 0;
}

int main(int argc, char **argv)
{
	const char *dir = "/tmp";
	unsigned long long l0, l1;
	int threads = 1, reps = 5, opt, i, r;
	unsigned long hot = 0, cold = 0;
	struct worker *w;
	char path[4096];
	double a, b;

	while ((opt = getopt(argc, argv, "t:n:r:d:k:c:")) != -1) {
		switch (opt) {
		case 'k':
			hot = strtoul(optarg, NULL, 10);
			break;
		case 'c':
			cold = strtoul(optarg, NULL, 10);
			break;
		case 't':
			threads = atoi(optarg);
			break;
		case 'n':
			calls = strtoul(optarg, NULL, 10);
			break;
		case 'r':
			reps = atoi(optarg);
			break;
		case 'd':
			dir = optarg;
			break;
		default:
			goto usage;
		}
	}
	if (optind != argc - 1 || threads < 1 || reps < 1 || !calls)
		goto usage;
	for (i = 0; i < 4 && strcmp(argv[optind], mode_names[i]); i++)
		;
	if (i == 4)
		goto usage;
	mode = i;
	self = getpid();
	if (mode == CHURN) {
		if (cold < (unsigned long)reps)
			goto usage;
		return churn_run(dir, hot, cold, reps);
	}

	w = calloc(threads, sizeof(*w));
	if (!w)
		die("calloc");
	snprintf(shared, sizeof(shared), "%s/avc_hitpath.stat", dir);
	i = open(shared, O_WRONLY | O_CREAT | O_TRUNC, 0644);
	if (i < 0)
		die(shared);
	close(i);
	for (i = 0; i < threads; i++) {
		snprintf(path, sizeof(path), "%s/avc_hitpath.%d", dir, i);
		w[i].fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
		if (w[i].fd < 0)
			die(path);
	}

	for (r = 1; r <= reps; r++) {
		pthread_barrier_init(&start, NULL, threads);
		l0 = avc_lookups();
		for (i = 0; i < threads; i++) {
			errno = pthread_create(&w[i].tid, NULL, work, &w[i]);
			if (errno)
				die("pthread_create");
		}
		for (i = 0; i < threads; i++)
			pthread_join(w[i].tid, NULL);
		l1 = avc_lookups();
		pthread_barrier_destroy(&start);
		a = secs(&w[0].t0);
		b = secs(&w[0].t1);
		for (i = 0; i < threads; i++) {
			if (w[i].err) {
				errno = w[i].err;
				die(mode_names[mode]);
			}
			if (secs(&w[i].t0) < a)
				a = secs(&w[i].t0);
			if (secs(&w[i].t1) > b)
				b = secs(&w[i].t1);
		}
		printf("hitpath %s threads %d rep %d: %lu calls in %.3f s, ",
		       mode_names[mode], threads, r,
		       calls * threads, b - a);
		printf("%.1f Kcalls/s, AVC lookups %.2f a call\n",
		       calls * threads / (b - a) / 1e3,
		       (double)(l1 - l0) / (calls * threads));
		fflush(stdout);
	}
	for (i = 0; i < threads; i++) {
		close(w[i].fd);
		snprintf(path, sizeof(path), "%s/avc_hitpath.%d", dir, i);
		unlink(path);
	}
	unlink(shared);
	free(w);
	return 0;
usage:
	fprintf(stderr, "usage: %s [-t threads] [-n calls] [-r reps] [-d dir] %s\n",
		PROG, "write|stat|kill");
	fprintf(stderr, "       %s -k hot -c cold [-r rounds] [-d dir] churn\n",
		PROG);
	return 2;
}
