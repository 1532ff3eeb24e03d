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
 * visited (6.1: buckets tried), the share of misses whose decision was not
 * cached because the reclaim found nothing in reach (avc_rcu's "full"; 6.1
 * caches always), and for avc_rcu the p50 and p99 of the reclaim alone,
 * the tracepoint's duration_ns (time in avc_reclaim(), as a guest's trace
 * reports it).  The whole grid runs --reps times (default 3), the
 * repetitions interleaved, and each number printed is the median of the
 * repetitions' (visits: their maximum), so that a spell of the machine's
 * other work moves none.
 *
 * The security server is the same for both, so the difference is how a
 * miss is cached.  Its policy (--rules R, default 131072): R allow rules,
 * one for each source SID 1..R with target SID 2 and class 3, 24 bytes
 * each in the sorted array a computation binary-searches (3 MiB, 17 steps
 * at the default).  A row's i-th fresh key is source 1 + (i * 2654435761
 * mod R) (a permutation of 1..R, so that each search goes its own way
 * through the table rather than along the previous key's path, and the
 * low bits, which 6.1's hash keeps, vary); past R keys, sources beyond R,
 * denied after the same search.  --rules 0 is the empty policy, which
 * answers in a few nanoseconds.  A real SELinux miss costs more again:
 * security_compute_av() looks up the access-vector table for every pair
 * of the source's and target's type attributes and evaluates the class's
 * constraints.
 *
 * The node allocator of the native shim is filled before each cache is
 * made (avc_native_slab_prefill()) with a node for every miss of the row,
 * warm-up included: liburcu's callback thread frees every 10 ms, and
 * without it every 64th miss would grow a slab, always the one that
 * reclaims.  avc_rcu's reclaiming misses also pay for the probe's two
 * clock reads (the tracepoint's duration_ns), which 6.1's do not.
 *
 *   avc_native_latency [--misses N] [--reps N] [--csv FILE]
 *			[--slots "S..."] [--thresholds "T..."] [--rules R]
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
#include "api.h"
#include <avc_native/setup.h>
#include "ss.h"
#include "avc_rcu_events.h"
#include "upstream61.h"

#define MODES		4	/* lru, fifo, newest, 6.1 */
#define MODE_61		3
#define MAX_REPS	15
#define TSID		2
#define TCLASS		3
/* A prime, so that i -> i * KEY_STEP mod R permutes 0..R-1 (key_ssid()). */
#define KEY_STEP	2654435761U

static const char *const mode_names[MODES] = {
	"lru", "fifo", "newest", "6.1",
};

/* Set by the probes during the call being timed. */
static bool reclaimed;
static u64 reclaim_ns;
static unsigned int visited_max;
static unsigned long full;

static void probe_reclaim(unsigned int evicted, unsigned int nodes,
			  unsigned int visited, int policy, int active,
			  unsigned int threshold, u64 duration_ns)
{
	reclaimed = true;
	reclaim_ns = duration_ns;
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

static void call_rcu_nop(struct rcu_head *head)
{
}

/*
 * What one call_rcu() costs here, the median of 64 batches of 16 (a
 * chunk's worth) in a row, as a reclaim makes one for each entry it
 * evicts.  (The first after the callback thread went to sleep also wakes
 * it, a system call: the median leaves that batch out.)
 */
static u32 call_rcu_cost(void)
{
	static struct rcu_head heads[64][AVC_RECLAIM_CHUNK];
	static u32 v[ARRAY_SIZE(heads)];
	struct dist d = { v, ARRAY_SIZE(v) };
	unsigned int i, j;
	u64 t0;

	for (i = 0; i < ARRAY_SIZE(heads); i++) {
		t0 = now_ns();
		for (j = 0; j < ARRAY_SIZE(heads[i]); j++)
			call_rcu(&heads[i][j], call_rcu_nop);
		v[i] = (now_ns() - t0) / ARRAY_SIZE(heads[i]);
	}
	rcu_barrier();
	qsort(v, d.n, sizeof(u32), cmp_u32);
	return quantile(&d, 0.5);
}

/* The policy: an allow rule for each source 1..rules (target 2, class 3). */
#define MAX_RULES	16777216U	/* 2^24 */
static u32 rules = 131072;
static char *policy;
static size_t policy_len;

static int policy_make(void)
{
	size_t size = (size_t)rules * 32 + 1, n = 0;
	u32 s;

	if (!rules)
		return 0;
	policy = malloc(size);
	if (!policy)
		return -1;
	for (s = 1; s <= rules; s++)
		n += snprintf(policy + n, size - n, "allow %u %u %u 0x7\n", s,
			      TSID, TCLASS);
	policy_len = n;
	return 0;
}

/* The source SID of a row's @i-th fresh key (see the head comment). */
static u32 key_ssid(u32 i)
{
	if (!rules)
		return i + 1;
	return 1 + i / rules * rules + (u32)((u64)(i % rules) * KEY_STEP % rules);
}

/* One lookup of a fresh key, timed; *rec says whether it reclaimed. */
static u32 one_miss(int mode, struct up61_cache *up, u32 key, u32 overhead,
		    bool *rec)
{
	struct avc_rcu_decision avd;
	u32 s = key_ssid(key);
	u64 t0, t1;

	reclaimed = false;
	t0 = now_ns();
	if (mode != MODE_61)
		avc_rcu_has_perm(s, TSID, TCLASS, 1, &avd);
	else
		up61_has_perm(up, s, TSID, TCLASS, 1, &avd, &reclaimed);
	t1 = now_ns();
	*rec = reclaimed;
	return t1 - t0 > overhead ? t1 - t0 - overhead : 0;
}

static void fail(const char *what)
{
	fprintf(stderr, "avc_native_latency: %s failed\n", what);
	exit(1);
}

/* A distribution as a row reports it: its count and quantiles. */
struct summary {
	unsigned int n;		/* values; none: the quantiles are not set */
	u32 q[4];		/* p50, p99, p99.9, max */
};

static const double quantiles[] = { 0.5, 0.99, 0.999, 1 };

/* One row, that is one number of slots, threshold and mode. */
struct row {
	struct summary plain;	/* misses that did not reclaim */
	struct summary recl;	/* misses that reclaimed */
	struct summary dur;	/* avc_rcu's reclaims alone (duration_ns) */
	unsigned int visited_max;
	unsigned long full;
};

static void summarize(struct dist *d, struct summary *sum)
{
	unsigned int i;

	qsort(d->v, d->n, sizeof(u32), cmp_u32);
	sum->n = d->n;
	for (i = 0; i < ARRAY_SIZE(quantiles); i++)
		sum->q[i] = quantile(d, quantiles[i]);
}

/* The lower median of @n values. */
static u32 median(u32 *v, unsigned int n)
{
	qsort(v, n, sizeof(u32), cmp_u32);
	return v[(n - 1) / 2];
}

/*
 * Each count and quantile of @reps summaries, the median of those that
 * have values (a repetition slowed down by the machine's other work moves
 * no median); none if none has.
 */
static void summary_median(const struct summary *reps, unsigned int nreps,
			   struct summary *med)
{
	u32 v[MAX_REPS];
	unsigned int i, k, n = 0;

	for (k = 0; k < nreps; k++)
		if (reps[k].n)
			v[n++] = reps[k].n;
	med->n = n ? median(v, n) : 0;
	for (i = 0; n && i < ARRAY_SIZE(med->q); i++) {
		for (n = 0, k = 0; k < nreps; k++)
			if (reps[k].n)
				v[n++] = reps[k].q[i];
		med->q[i] = median(v, n);
	}
}

static void row_median(const struct row *reps, unsigned int nreps,
		       struct row *med)
{
	struct summary p[MAX_REPS], r[MAX_REPS], d[MAX_REPS];
	u32 full[MAX_REPS];
	unsigned int k;

	med->visited_max = 0;
	for (k = 0; k < nreps; k++) {
		p[k] = reps[k].plain;
		r[k] = reps[k].recl;
		d[k] = reps[k].dur;
		full[k] = reps[k].full;
		med->visited_max = max(med->visited_max, reps[k].visited_max);
	}
	summary_median(p, nreps, &med->plain);
	summary_median(r, nreps, &med->recl);
	summary_median(d, nreps, &med->dur);
	med->full = median(full, nreps);
}

/* p50, p99, p99.9 and max, or dashes. */
static void print_summary(const struct summary *sum)
{
	char num[16];
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(sum->q); i++) {
		if (sum->n)
			snprintf(num, sizeof(num), "%u", sum->q[i]);
		else
			snprintf(num, sizeof(num), "-");
		printf(i == ARRAY_SIZE(sum->q) - 1 ? " %7s" : " %6s", num);
	}
}

/*
 * A summary's CSV fields, each after a comma: its count if @count, then
 * the quantiles of @which (indices into quantiles[], -1 ending), empty
 * when it has no value.
 */
static void csv_summary(FILE *csv, const struct summary *sum, bool count,
			const int *which)
{
	if (count)
		fprintf(csv, ",%u", sum->n);
	for (; *which >= 0; which++) {
		fputc(',', csv);
		if (sum->n)
			fprintf(csv, "%u", sum->q[*which]);
	}
}

static void print_row(FILE *csv, unsigned int slots, unsigned int thr,
		      int mode, unsigned int misses, const struct row *r)
{
	static const int all[] = { 0, 1, 2, 3, -1 }, dur[] = { 0, 1, 3, -1 };

	printf("%6u %6u %-6s", slots, thr, mode_names[mode]);
	print_summary(&r->plain);
	printf("  ");
	print_summary(&r->recl);
	if (r->plain.n && r->recl.n)
		printf("  %5.2f", (double)r->recl.q[1] / max(r->plain.q[1], 1U));
	else
		printf("  %5s", "-");
	printf(" %6u %6.1f%%", r->visited_max, 100.0 * r->full / misses);
	if (r->dur.n)
		printf("  %6u %6u\n", r->dur.q[0], r->dur.q[1]);
	else
		printf("  %6s %6s\n", "-", "-");
	if (csv) {
		fprintf(csv, "%u,%u,%s", slots, thr, mode_names[mode]);
		csv_summary(csv, &r->plain, true, all);
		csv_summary(csv, &r->recl, true, all);
		fprintf(csv, ",%u,%lu", r->visited_max, r->full);
		csv_summary(csv, &r->dur, false, dur);
		fputc('\n', csv);
	}
}

/* Time one row's misses into @r, with @plain, @recl, @dur as scratch. */
static void run(unsigned int slots, unsigned int thr, int mode,
		unsigned int misses, u32 overhead, struct dist *plain,
		struct dist *recl, struct dist *dur, struct row *r)
{
	struct avc_rcu_config cfg = {
		.slots = slots, .sync = AVC_SYNC_RCU,
		.reclaim = mode != MODE_61 ? (enum avc_reclaim_policy)mode :
			   AVC_RECLAIM_NEWEST,
		.hash_seed = 0x5eed, .reclaimer = AVC_RECLAIMER_INLINE,
	};
	static struct avc_ss ss;
	struct up61_cache *up = NULL;
	struct avc_ss_loaded ld;
	unsigned int i, key = 0;
	bool rec;
	u32 ns;

	if (avc_rcu_setup(&cfg))
		fail("setup");
	if (policy && avc_rcu_load_policy(policy, policy_len))
		fail("the policy's load");
	avc_cache_set_threshold(avc_rcu_cache(), thr);
	if (mode == MODE_61) {
		if (avc_ss_init(&ss) ||
		    (policy && avc_ss_load(&ss, policy, policy_len, &ld)))
			fail("6.1's policy");
		up = up61_create(&ss, slots, thr);
		if (!up)
			fail("6.1's setup");
	}
	for (i = 0; i < 4 * thr; i++)
		one_miss(mode, up, key++, overhead, &rec);
	plain->n = 0;
	recl->n = 0;
	dur->n = 0;
	visited_max = 0;
	full = 0;
	for (i = 0; i < misses; i++) {
		ns = one_miss(mode, up, key++, overhead, &rec);
		if (rec) {
			recl->v[recl->n++] = ns;
			if (mode != MODE_61)
				dur->v[dur->n++] = reclaim_ns;
		} else {
			plain->v[plain->n++] = ns;
		}
		if (i % 256 == 255)
			avc_native_quiescent_state();
	}
	if (up) {
		visited_max = up61_max_tried(up);
		up61_destroy(up);
		avc_ss_destroy(&ss);
	}
	avc_rcu_teardown();

	summarize(plain, &r->plain);
	summarize(recl, &r->recl);
	summarize(dur, &r->dur);
	r->visited_max = visited_max;
	r->full = full;
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
		{ "rules", required_argument, NULL, 'r' },
		{ "reps", required_argument, NULL, 'n' },
		{ }
	};
	unsigned int slots[8] = { 512, 4096, 65536 }, nslots = 3;
	unsigned int thrs[8] = { 16, 128, 512, 2048, 8192 }, nthrs = 5;
	unsigned int misses = 65536, reps = 3, i, j, k, nrows, thr_max = 0;
	struct dist plain, recl, dur;
	struct row *rows, med;
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
		case 'r':
			rules = strtoul(optarg, NULL, 0);
			break;
		case 'n':
			reps = strtoul(optarg, NULL, 0);
			break;
		default:
			fprintf(stderr, "usage: %s [--misses N] [--reps N] [--csv FILE]\n"
				"\t[--slots \"S...\"] [--thresholds \"T...\"] [--rules R]\n",
				argv[0]);
			return 2;
		}
	}
	if (!misses || !nslots || !nthrs || rules > MAX_RULES || !reps ||
	    reps > MAX_REPS)
		return 2;
	nrows = nslots * nthrs * MODES;
	for (j = 0; j < nthrs; j++)
		thr_max = max(thr_max, thrs[j]);
	CPU_ZERO(&set);
	CPU_SET(0, &set);
	sched_setaffinity(0, sizeof(set), &set);
	if (avc_native_thread_enter() < 0)
		return 1;
	avc_native_set_probe(avc_rcu_reclaim, probe_reclaim);
	avc_native_set_probe(avc_rcu_insert, probe_insert);
	/* A node for every miss of a row, the warm-up's included. */
	avc_native_slab_prefill(4UL * thr_max + misses);
	plain.v = calloc(misses, sizeof(u32));
	recl.v = calloc(misses, sizeof(u32));
	dur.v = calloc(misses, sizeof(u32));
	rows = calloc(nrows * reps, sizeof(*rows));
	if (!plain.v || !recl.v || !dur.v || !rows || policy_make())
		return 1;
	if (csv_path) {
		csv = fopen(csv_path, "w");
		if (!csv) {
			perror(csv_path);
			return 1;
		}
		fputs("slots,threshold,mode,misses,p50,p99,p999,max,", csv);
		fputs("reclaiming,r_p50,r_p99,r_p999,r_max,max_visited,full,",
		      csv);
		fputs("reclaim_p50,reclaim_p99,reclaim_max\n", csv);
	}
	overhead = timer_cost();
	printf("avc_native_latency: %u misses of fresh keys per row, one thread, rcu mode,\n"
	       "a policy of %u rules; ns, the timer's %u ns taken off; call_rcu() %u ns;\n"
	       "each number the median of %u repetition%s\n",
	       misses, rules, overhead, call_rcu_cost(), reps,
	       reps > 1 ? "s, interleaved" : "");
	printf("%-22s%-31s%-29s%-20s%s\n", "", "miss, no reclaim",
	       "miss that reclaims", "p99    max   not", "reclaim alone");
	printf(" slots    thr mode      p50    p99  p99.9     max");
	printf("      p50    p99  p99.9     max  ratio visits cached");
	printf("     p50    p99\n");
	/* Rows in order, repetitions interleaved: a slow spell hits one. */
	for (k = 0; k < reps; k++)
		for (i = 0; i < nslots; i++)
			for (j = 0; j < nthrs; j++)
				for (mode = 0; mode < MODES; mode++)
					run(slots[i], thrs[j], mode, misses,
					    overhead, &plain, &recl, &dur,
					    &rows[((i * nthrs + j) * MODES +
						   mode) * reps + k]);
	for (i = 0; i < nslots; i++)
		for (j = 0; j < nthrs; j++)
			for (mode = 0; mode < MODES; mode++) {
				row_median(&rows[((i * nthrs + j) * MODES +
						  mode) * reps], reps, &med);
				print_row(csv, slots[i], thrs[j], mode, misses,
					  &med);
			}
	if (csv)
		fclose(csv);
	return 0;
}
