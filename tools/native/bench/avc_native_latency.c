// SPDX-License-Identifier: GPL-2.0
/*
 * avc_native_latency: what one miss costs, one that reclaims and one that
 * does not, natively.
 *
 * For each number of slots and cache_threshold, and each reclaim policy
 * of avc_rcu plus upstream Linux 6.1's insert and reclaim (upstream61.c):
 * one thread pinned to a CPU fills the cache to its threshold and on to a
 * steady state (three times the threshold in fresh keys), then times
 * --misses lookups of fresh keys one by one (clock_gettime() around each
 * call, its own cost measured and subtracted).  Each miss is sorted by
 * whether it reclaimed (avc_rcu: the avc_rcu_reclaim probe fired during
 * the call; 6.1: avc_reclaim_node() ran), and the table gives p50, p99,
 * p99.9 and the maximum of each kind in nanoseconds, the ratio of their
 * p99s (the goal: at most 2), the largest number of buckets one reclaim
 * visited, and the share of misses whose decision was not cached because
 * the reclaim found nothing in reach (avc_rcu's "full"; 6.1 caches
 * always).  The same security server (an empty policy) answers both, so
 * the difference is how a miss is cached.
 *
 *   avc_native_latency [--misses N] [--csv FILE] [--slots "S..."]
 *			[--thresholds "T..."]
 *
 * A measurement, not a test: the exit status is 0 unless something could
 * not be set up.
 */
#include <getopt.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <linux/kernel.h>
#include "glue.h"
#include "avc_rcu_trace.h"
#include "upstream61.h"

#define MODES		4	/* lru, fifo, newest, 6.1 */

static const char *const mode_names[MODES] = {
	"lru", "fifo", "newest", "6.1",
};

/* Set by the probes during the call being timed. */
static bool reclaimed;
static unsigned int visited_max;
static unsigned long full;

static void probe_reclaim(unsigned int evicted, unsigned int visited,
			  int policy, int active, unsigned int threshold,
			  u64 duration_ns)
{
	reclaimed = true;
	if (visited > visited_max)
		visited_max = visited;
}

static void probe_insert(u32 ssid, u32 tsid, u16 tclass, u32 seqno,
			 unsigned int bucket, int result, int active)
{
	if (result == AVC_INSERT_FULL)
		full++;
}

static u64 now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (u64)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

static int cmp_u32(const void *a, const void *b)
{
	u32 x = *(const u32 *)a, y = *(const u32 *)b;

	return x < y ? -1 : x > y;
}

struct dist {
	u32 *v;
	unsigned int n;
};

/* The q-quantile (0..1) of a sorted distribution, nearest rank. */
static u32 quantile(const struct dist *d, double q)
{
	unsigned int i;

	if (!d->n)
		return 0;
	i = (unsigned int)(q * d->n);
	return d->v[i < d->n ? i : d->n - 1];
}

/* The cost of the two clock_gettime() calls around a call: their median. */
static u32 timer_cost(void)
{
	static u32 v[4096];
	struct dist d = { v, ARRAY_SIZE(v) };
	unsigned int i;
	u64 t0;

	for (i = 0; i < ARRAY_SIZE(v); i++) {
		t0 = now_ns();
		v[i] = now_ns() - t0;
	}
	qsort(v, d.n, sizeof(u32), cmp_u32);
	return quantile(&d, 0.5);
}

static u32 key_next = 1;

/* One lookup of a fresh key, timed; *rec says whether it reclaimed. */
static u32 one_miss(int mode, struct up61_cache *up, u32 overhead,
		    bool *rec)
{
	struct avc_rcu_decision avd;
	u32 s = key_next++;
	u64 t0, t1;

	reclaimed = false;
	t0 = now_ns();
	if (mode < 3)
		avc_rcu_has_perm(s, 2, 3, 1, &avd);
	else
		up61_has_perm(up, s, 2, 3, 1, &avd, &reclaimed);
	t1 = now_ns();
	*rec = reclaimed;
	return t1 - t0 > overhead ? t1 - t0 - overhead : 0;
}

static void run(FILE *csv, unsigned int slots, unsigned int thr, int mode,
		unsigned int misses, u32 overhead, struct dist *plain,
		struct dist *recl)
{
	struct avc_rcu_config cfg = {
		.slots = slots, .sync = AVC_SYNC_RCU,
		.reclaim = mode < 3 ? (enum avc_reclaim_policy)mode :
			   AVC_RECLAIM_NEWEST,
		.hash_seed = 0x5eed,
	};
	static struct avc_ss ss;
	struct up61_cache *up = NULL;
	unsigned int i;
	bool rec;
	u32 ns;

	if (avc_rcu_setup(&cfg)) {
		fprintf(stderr, "avc_native_latency: setup failed\n");
		exit(1);
	}
	avc_cache_set_threshold(avc_rcu_cache(), thr);
	if (mode == 3) {
		if (!avc_ss_init(&ss))
			up = up61_create(&ss, slots, thr);
		if (!up) {
			fprintf(stderr, "avc_native_latency: 6.1 setup failed\n");
			exit(1);
		}
	}
	for (i = 0; i < 4 * thr; i++)
		one_miss(mode, up, overhead, &rec);
	plain->n = 0;
	recl->n = 0;
	visited_max = 0;
	full = 0;
	for (i = 0; i < misses; i++) {
		ns = one_miss(mode, up, overhead, &rec);
		if (rec)
			recl->v[recl->n++] = ns;
		else
			plain->v[plain->n++] = ns;
		if (i % 256 == 255)
			avc_native_quiescent_state();
	}
	if (up) {
		up61_destroy(up);
		avc_ss_destroy(&ss);
	}
	avc_rcu_teardown();

	qsort(plain->v, plain->n, sizeof(u32), cmp_u32);
	qsort(recl->v, recl->n, sizeof(u32), cmp_u32);
	printf("%6u %6u %-6s %6u %6u %6u %7u   %6u %6u %6u %7u  %5.2f %6u %6.1f%%\n",
	       slots, thr, mode_names[mode],
	       quantile(plain, 0.5), quantile(plain, 0.99),
	       quantile(plain, 0.999), quantile(plain, 1),
	       quantile(recl, 0.5), quantile(recl, 0.99),
	       quantile(recl, 0.999), quantile(recl, 1),
	       quantile(plain, 0.99) ?
	       (double)quantile(recl, 0.99) / quantile(plain, 0.99) : 0,
	       mode < 3 ? visited_max : 512, 100.0 * full / misses);
	if (csv)
		fprintf(csv, "%u,%u,%s,%u,%u,%u,%u,%u,%u,%u,%u,%u,%u,%u,%lu\n",
			slots, thr, mode_names[mode], plain->n,
			quantile(plain, 0.5), quantile(plain, 0.99),
			quantile(plain, 0.999), quantile(plain, 1), recl->n,
			quantile(recl, 0.5), quantile(recl, 0.99),
			quantile(recl, 0.999), quantile(recl, 1),
			mode < 3 ? visited_max : 512, full);
	fflush(stdout);
}

static unsigned int parse_list(const char *s, unsigned int *v,
			       unsigned int max)
{
	unsigned int n = 0;
	char *end;

	while (*s && n < max) {
		v[n++] = strtoul(s, &end, 0);
		if (end == s)
			break;
		s = end;
		while (*s == ' ' || *s == ',')
			s++;
	}
	return n;
}

int main(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "misses", required_argument, NULL, 'm' },
		{ "csv", required_argument, NULL, 'c' },
		{ "slots", required_argument, NULL, 's' },
		{ "thresholds", required_argument, NULL, 't' },
		{ }
	};
	unsigned int slots[8] = { 512, 4096, 65536 }, nslots = 3;
	unsigned int thrs[8] = { 16, 128, 512, 2048, 8192 }, nthrs = 5;
	unsigned int misses = 65536, i, j;
	struct dist plain, recl;
	const char *csv_path = NULL;
	FILE *csv = NULL;
	cpu_set_t set;
	u32 overhead;
	int o, mode;

	while ((o = getopt_long(argc, argv, "", opts, NULL)) != -1) {
		switch (o) {
		case 'm':
			misses = strtoul(optarg, NULL, 0);
			break;
		case 'c':
			csv_path = optarg;
			break;
		case 's':
			nslots = parse_list(optarg, slots, ARRAY_SIZE(slots));
			break;
		case 't':
			nthrs = parse_list(optarg, thrs, ARRAY_SIZE(thrs));
			break;
		default:
			fprintf(stderr, "usage: %s [--misses N] [--csv FILE]\n"
				"\t[--slots \"S...\"] [--thresholds \"T...\"]\n",
				argv[0]);
			return 2;
		}
	}
	if (!misses || !nslots || !nthrs)
		return 2;
	CPU_ZERO(&set);
	CPU_SET(0, &set);
	sched_setaffinity(0, sizeof(set), &set);
	if (avc_native_thread_enter() < 0)
		return 1;
	avc_native_set_probe(avc_rcu_reclaim, probe_reclaim);
	avc_native_set_probe(avc_rcu_insert, probe_insert);
	plain.v = calloc(misses, sizeof(u32));
	recl.v = calloc(misses, sizeof(u32));
	if (!plain.v || !recl.v)
		return 1;
	if (csv_path) {
		csv = fopen(csv_path, "w");
		if (!csv) {
			perror(csv_path);
			return 1;
		}
		fputs("slots,threshold,mode,misses,p50,p99,p999,max,", csv);
		fputs("reclaiming,r_p50,r_p99,r_p999,r_max,max_visited,full\n",
		      csv);
	}
	overhead = timer_cost();
	printf("avc_native_latency: %u misses of fresh keys per row, one thread, rcu mode;\n"
	       "ns, the timer's %u ns taken off\n", misses, overhead);
	printf("%-22s%-31s%-29s%s\n", "", "miss, no reclaim",
	       "miss that reclaims", "p99    max   not");
	printf(" slots    thr mode      p50    p99  p99.9     max");
	printf("      p50    p99  p99.9     max  ratio visits cached\n");
	for (i = 0; i < nslots; i++)
		for (j = 0; j < nthrs; j++)
			for (mode = 0; mode < MODES; mode++)
				run(csv, slots[i], thrs[j], mode, misses,
				    overhead, &plain, &recl);
	if (csv)
		fclose(csv);
	return 0;
}
