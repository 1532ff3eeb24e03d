// SPDX-License-Identifier: GPL-2.0
/*
 * avc_workload - drive access vector cache lookups from userspace
 *
 * Kaigai Kohei's 2004 measurement was parallel write() calls, each of which
 * made SELinux look up the AVC.  This does the same through avc_rcu's
 * access file: every thread keeps one descriptor open and loops
 * write("<ssid> <tsid> <tclass> <perms>") / read(decision), one cache
 * lookup per call pair, over a working set of keys.  It prints the total
 * and the rate in Kcalls/s (a call being one write, as in the 2004 table).
 *
 *   avc_workload [-t threads] [-d seconds | -n calls] [-k keys] [-T tsid]
 *		  [-f access_file] [-p]
 *
 * -p pins thread i to the i-th online CPU, one thread per CPU, as the
 * in-kernel bench binds its kthreads (make bench's CPU-count sweep).
 * -n stops after that many calls in all (shared out among the threads)
 * instead of after -d seconds; -T sets the target SID of every query
 * (default 2).  With one thread, -n N -k N asks for the keys (1..N, tsid,
 * 3) once each, every one a miss if tsid is new to the cache (make bench's
 * miss latency in the guest).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <linux/avc_rcu.h>

#define PROG "avc_workload"

struct worker {
	pthread_t tid;
	int fd;
	unsigned int first;
	int cpu;		/* pinned to this CPU, or -1 */
	unsigned long limit;	/* calls to make: its share of -n, or no limit */
	unsigned long calls;
	int err;
	int pin_err;
};

static const char usage[] =
	"usage: " PROG " [-t threads] [-d seconds | -n calls] [-k keys] [-T tsid]\n"
	"\t\t[-f access_file] [-p]\n";
static unsigned int nkeys = 256;
static unsigned long tsid = 2;
static atomic_int stop;

static void die(const char *fmt, const char *arg)
{
	fprintf(stderr, PROG ": ");
	fprintf(stderr, fmt, arg);
	fputc('\n', stderr);
	exit(1);
}

static unsigned long parse_num(const char *s, const char *what,
			       unsigned long max)
{
	unsigned long v;
	char *end;

	errno = 0;
	v = strtoul(s, &end, 10);
	if (errno || !*s || *end || *s == '-' || v == 0 || v > max)
		die("invalid %s", what);
	return v;
}

static void *work(void *arg)
{
	struct worker *w = arg;
	unsigned int i = w->first;
	char req[64], reply[64];
	int len;

	if (w->cpu >= 0) {
		cpu_set_t set;

		CPU_ZERO(&set);
		CPU_SET(w->cpu, &set);
		w->pin_err = pthread_setaffinity_np(pthread_self(),
						    sizeof(set), &set);
		if (w->pin_err)
			return NULL;
	}
	while (!atomic_load_explicit(&stop, memory_order_relaxed) &&
	       w->calls < w->limit) {
		/* ssid walks the working set; tsid and class are fixed. */
		len = snprintf(req, sizeof(req), "%u %lu 3 1", 1 + i % nkeys,
			       tsid);
		if (write(w->fd, req, len) != len ||
		    read(w->fd, reply, sizeof(reply)) <= 0) {
			w->err = errno ? errno : EIO;
			break;
		}
		w->calls++;
		i++;
	}
	return NULL;
}

int main(int argc, char **argv)
{
	const char *path = AVC_RCU_MOUNT_POINT "/" AVC_RCU_FILE_ACCESS;
	unsigned long threads = 0, seconds = 3, total = 0, ncalls = 0;
	struct timespec t0, t1, nap;
	struct worker *w;
	unsigned long i;
	double elapsed;
	int opt, pin = 0, cpu = -1;
	cpu_set_t online;

	while ((opt = getopt(argc, argv, "t:d:n:k:T:f:ph")) != -1) {
		switch (opt) {
		case 't':
			threads = parse_num(optarg, "thread count", 4096);
			break;
		case 'd':
			seconds = parse_num(optarg, "duration", 86400);
			break;
		case 'n':
			ncalls = parse_num(optarg, "call count", 1UL << 32);
			break;
		case 'k':
			nkeys = parse_num(optarg, "key count", 1U << 24);
			break;
		case 'T':
			tsid = parse_num(optarg, "target SID", UINT32_MAX);
			break;
		case 'f':
			path = optarg;
			break;
		case 'p':
			pin = 1;
			break;
		default:
			fputs(usage, opt == 'h' ? stdout : stderr);
			return opt == 'h' ? 0 : 1;
		}
	}
	if (optind != argc)
		die("unexpected argument %s", argv[optind]);
	if (!threads)
		threads = sysconf(_SC_NPROCESSORS_ONLN);
	if (pin) {
		if (sched_getaffinity(0, sizeof(online), &online))
			die("sched_getaffinity: %s", strerror(errno));
		if ((unsigned long)CPU_COUNT(&online) < threads)
			die("%s", "-p: more threads than CPUs to pin them to");
	}

	w = calloc(threads, sizeof(*w));
	if (!w)
		die("%s", strerror(errno));
	for (i = 0; i < threads; i++) {
		w[i].fd = open(path, O_RDWR);
		if (w[i].fd < 0)
			die("cannot open %s", path);
		w[i].first = i * (nkeys / threads + 1);
		w[i].limit = ncalls ? ncalls / threads + (i < ncalls % threads) :
				      ULONG_MAX;
		w[i].cpu = -1;
		if (pin) {
			do
				cpu++;
			while (!CPU_ISSET(cpu, &online));
			w[i].cpu = cpu;
		}
	}

	clock_gettime(CLOCK_MONOTONIC, &t0);
	for (i = 0; i < threads; i++)
		if (pthread_create(&w[i].tid, NULL, work, &w[i]))
			die("%s", "cannot create threads");
	if (!ncalls) {
		nap.tv_sec = seconds;
		nap.tv_nsec = 0;
		while (nanosleep(&nap, &nap) && errno == EINTR)
			;
		atomic_store(&stop, 1);
	}
	for (i = 0; i < threads; i++) {
		pthread_join(w[i].tid, NULL);
		if (w[i].pin_err)
			die("cannot pin a thread: %s", strerror(w[i].pin_err));
		if (w[i].err)
			die("access query failed: %s", strerror(w[i].err));
		total += w[i].calls;
		close(w[i].fd);
	}
	clock_gettime(CLOCK_MONOTONIC, &t1);
	elapsed = (t1.tv_sec - t0.tv_sec) + (t1.tv_nsec - t0.tv_nsec) / 1e9;

	printf("%lu threads, %u keys: %lu calls in %.2f s, %.1f Kcalls/s\n",
	       threads, nkeys, total, elapsed, total / elapsed / 1000.0);
	free(w);
	return 0;
}
