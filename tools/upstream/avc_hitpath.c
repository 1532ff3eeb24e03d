// SPDX-License-Identifier: GPL-2.0
/*
 * avc_hitpath - time the kernel AVC's hit path from userspace, as Kaigai
 * Kohei's 2004 write() loop did, and with a stat() loop that still reaches
 * it today.
 *
 *   avc_hitpath [-t threads] [-n calls] [-r reps] [-d dir] write|stat
 *
 * Each of the threads makes -n calls per repetition: write() of one byte
 * at offset 0 to a file of its own (pwrite(), so the file stays one byte),
 * or stat() of one file every thread shares (so that with two threads both
 * hit the same AVC entry: the case where a store on every hit would make
 * the CPUs fight over its cache line).  Threads start together and each
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
 * so write() makes no AVC lookup; stat() makes one
 * (selinux_inode_getattr()).  The loop is then a control: a change in the
 * AVC cannot move it.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#define PROG "avc_hitpath"
#define STATS "/sys/fs/selinux/avc/cache_stats"

static unsigned long calls = 200000;
static int use_stat;
static char shared[4096];
static pthread_barrier_t start;

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
		if (use_stat ? stat(shared, &st) :
		    pwrite(w->fd, &c, 1, 0) != 1) {
			w->err = errno ? errno : EIO;
			break;
		}
	}
	clock_gettime(CLOCK_MONOTONIC, &w->t1);
	return NULL;
}

int main(int argc, char **argv)
{
	const char *dir = "/tmp";
	unsigned long long l0, l1;
	int threads = 1, reps = 5, opt, i, r;
	struct worker *w;
	char path[4096];
	double a, b;

	while ((opt = getopt(argc, argv, "t:n:r:d:")) != -1) {
		switch (opt) {
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
	if (!strcmp(argv[optind], "stat"))
		use_stat = 1;
	else if (strcmp(argv[optind], "write"))
		goto usage;

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
				die(use_stat ? "stat" : "pwrite");
			}
			if (secs(&w[i].t0) < a)
				a = secs(&w[i].t0);
			if (secs(&w[i].t1) > b)
				b = secs(&w[i].t1);
		}
		printf("hitpath %s threads %d rep %d: %lu calls in %.3f s, ",
		       use_stat ? "stat" : "write", threads, r,
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
	fprintf(stderr, "usage: " PROG " [-t threads] [-n calls] [-r reps] [-d dir] write|stat\n");
	return 2;
}
