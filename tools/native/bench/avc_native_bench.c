// SPDX-License-Identifier: GPL-2.0
/*
 * avc_native_bench: the cost of a cache hit, natively.
 *
 * The core (avc/, avc/ss/) built unmodified in userspace on liburcu
 * (tools/native/stand-ins/), looked up as the guest benchmark does
 * (tools/avc_bench/avc_rcu_bench.c): keys ssid 1..64, tsid 2, tclass 3,
 * requested 1, every key cached by a warm-up, threads pinned one per CPU,
 * each calling avc_cache_has_perm() in a loop for a fixed time.  Every sync
 * mode and reclaim policy, at 1 and 2 threads, and in the same run the
 * plain loop (plain.c): the same table without RCU, counters or branches,
 * the limit of this design.  Medians of the repetitions, which are
 * interleaved so that a slow spell of the machine hits every row alike;
 * spread is (max - min) / median of a row's repetitions, the larger of its
 * two thread counts'.
 *
 * Every decision is checked: each thread sums what it got, which must be
 * what the policy says for the keys it asked, and the cache's statistics
 * must show the timed calls as hits.  A wrong decision fails the run
 * (exit 1); a missed performance goal does not, it is a measurement.
 *
 * Built twice: on liburcu's memb flavour, whose read side costs what the
 * kernel's preemptible RCU costs (a counter of the thread's own), and on
 * its QSBR flavour, whose read side is free, as the kernel's
 * non-preemptible RCU's.  The threads report a quiescent state after each
 * chunk of calls, where the kernel's bench calls cond_resched().
 *
 *   avc_native_bench [--ms MS] [--reps N] [--rcu-only]
 *   avc_native_bench --callgrind N     N hits (rcu, lru) for callgrind
 */
#include <errno.h>
#include <getopt.h>
#include <limits.h>
#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <linux/kernel.h>
#include "api.h"
#include <avc_native/cli.h>
#include <avc_native/setup.h>
#include "plain.h"

#define NKEYS		64
#define TSID		2
#define TCLASS		3
#define REQUESTED	1
#define SLOTS		512
#define SEED		0x5eed1234
#define CHUNK		1024
#define MAX_THREADS	2
#define MAX_REPS	32

/* The policy: one allow rule per key, perms a function of the ssid. */
static u32 bench_perms(u32 ssid)
{
	u32 h = ssid * 0x9e3779b1U;

	return (h ^ (h >> 15)) & ~1U;	/* bit 0 (requested) clear ... */
}

static bool bench_granted_bit(u32 ssid)
{
	return ssid % 3 != 0;		/* ... except where this sets it */
}

static bool bench_permissive(u32 ssid)
{
	return ssid % 9 == 4;
}

static struct avc_rcu_decision want[NKEYS];
static int want_ret[NKEYS];

static void bench_expected(void)
{
	u32 s;

	for (s = 1; s <= NKEYS; s++) {
		struct avc_rcu_decision *d = &want[s - 1];

		d->allowed = bench_perms(s) | bench_granted_bit(s);
		d->auditallow = 0;
		d->auditdeny = ~0U;
		d->seqno = 1;
		d->flags = bench_permissive(s) ? AVC_RCU_DECISION_PERMISSIVE : 0;
		want_ret[s - 1] = (d->allowed & REQUESTED) || d->flags ? 0 :
				  -EACCES;
	}
}

static char *bench_policy_text(size_t *len)
{
	static char text[NKEYS * 64];
	size_t n = 0;
	u32 s;

	for (s = 1; s <= NKEYS; s++) {
		n += snprintf(text + n, sizeof(text) - n,
			      "allow %u %u %u 0x%x\n", s, TSID, TCLASS,
			      bench_perms(s) | bench_granted_bit(s));
		if (bench_permissive(s))
			n += snprintf(text + n, sizeof(text) - n,
				      "permissive %u\n", s);
	}
	*len = n;
	return text;
}

enum bench_kind { KIND_PLAIN, KIND_CACHE };

struct bench_cfg {
	enum bench_kind kind;
	enum avc_sync sync;
	enum avc_reclaim_policy reclaim;
};

static const struct bench_cfg bench_cfgs[] = {
	{ KIND_PLAIN },
	{ KIND_CACHE, AVC_SYNC_RCU, AVC_RECLAIM_LRU },
	{ KIND_CACHE, AVC_SYNC_RCU, AVC_RECLAIM_FIFO },
	{ KIND_CACHE, AVC_SYNC_RCU, AVC_RECLAIM_NEWEST },
	{ KIND_CACHE, AVC_SYNC_SPINLOCK, AVC_RECLAIM_LRU },
	{ KIND_CACHE, AVC_SYNC_SPINLOCK, AVC_RECLAIM_FIFO },
	{ KIND_CACHE, AVC_SYNC_SPINLOCK, AVC_RECLAIM_NEWEST },
	{ KIND_CACHE, AVC_SYNC_RWLOCK, AVC_RECLAIM_LRU },
	{ KIND_CACHE, AVC_SYNC_RWLOCK, AVC_RECLAIM_FIFO },
	{ KIND_CACHE, AVC_SYNC_RWLOCK, AVC_RECLAIM_NEWEST },
};

#define NCFGS	ARRAY_SIZE(bench_cfgs)
/* The plain loop and the rcu rows come first. */
#define NCFGS_RCU	4

#ifdef AVC_NATIVE_RCU_QSBR
#define BENCH_FLAVOUR	"qsbr"
#else
#define BENCH_FLAVOUR	"memb"
#endif

/* One timed run. */
struct bench_run {
	const struct bench_cfg *cfg;
	struct avc_cache *cache;
	struct plain_table plain;
	unsigned int nthreads;
	unsigned int ms;
	int ready;
	int go;
};

struct bench_thread {
	struct bench_run *run;
	unsigned int cpu;
	u64 calls;
	u64 ns;
	u64 sum;
	int err;
};

static unsigned int online_cpus;
static unsigned long bench_failures;

static u64 now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (u64)ts.tv_sec * 1000000000ULL + ts.tv_nsec;
}

/*
 * The loop: CHUNK calls between clock reads, the keys in turn.  One copy
 * per lookup function, so that each makes a direct call.
 */
#define BENCH_LOOP(call) do {						\
	u64 calls = 0, sum = 0, t0, t1, end;				\
	unsigned int k = 0, i;						\
	struct avc_rcu_decision avd;					\
									\
	t0 = now_ns();							\
	end = t0 + (u64)run->ms * 1000000ULL;				\
	do {								\
		for (i = 0; i < CHUNK; i++) {				\
			int __ret = call;				\
									\
			sum += avd.allowed + (u32)__ret;		\
			if (++k == NKEYS)				\
				k = 0;					\
		}							\
		calls += CHUNK;						\
		avc_native_quiescent_state();				\
		t1 = now_ns();						\
	} while (t1 < end);						\
	t->calls = calls;						\
	t->ns = t1 - t0;						\
	t->sum = sum;							\
} while (0)

static void *bench_thread_fn(void *arg)
{
	struct bench_thread *t = arg;
	struct bench_run *run = t->run;
	cpu_set_t set;

	CPU_ZERO(&set);
	CPU_SET(t->cpu, &set);
	pthread_setaffinity_np(pthread_self(), sizeof(set), &set);
	t->err = avc_native_thread_enter();
	if (t->err < 0)
		return NULL;
	t->err = 0;

	__atomic_fetch_add(&run->ready, 1, __ATOMIC_SEQ_CST);
	while (!__atomic_load_n(&run->go, __ATOMIC_ACQUIRE))
		;
	if (run->cfg->kind == KIND_PLAIN)
		BENCH_LOOP(plain_has_perm(&run->plain, 1 + k, TSID, TCLASS,
					  REQUESTED, &avd));
	else
		BENCH_LOOP(avc_cache_has_perm(run->cache, 1 + k, TSID, TCLASS,
					      REQUESTED, &avd));
	avc_native_thread_exit();
	return NULL;
}

/* What the sum of a thread's decisions must be, over @calls calls. */
static u64 bench_expected_sum(u64 calls)
{
	u64 per_round = 0, sum;
	unsigned int k;

	for (k = 0; k < NKEYS; k++)
		per_round += want[k].allowed + (u32)want_ret[k];
	sum = calls / NKEYS * per_round;
	for (k = 0; k < calls % NKEYS; k++)
		sum += want[k].allowed + (u32)want_ret[k];
	return sum;
}

static bool decision_equal(const struct avc_rcu_decision *a,
			   const struct avc_rcu_decision *b)
{
	return a->allowed == b->allowed && a->auditallow == b->auditallow &&
	       a->auditdeny == b->auditdeny && a->seqno == b->seqno &&
	       a->flags == b->flags;
}

static void bench_fail(const char *what)
{
	fprintf(stderr, "avc_native_bench: FAIL: %s\n", what);
	bench_failures++;
}

static const char *cfg_name(const struct bench_cfg *cfg, char *buf,
			    size_t size)
{
	if (cfg->kind == KIND_PLAIN)
		snprintf(buf, size, "plain");
	else
		snprintf(buf, size, "%s/%s", avc_sync_name(cfg->sync),
			 avc_reclaim_name(cfg->reclaim));
	return buf;
}

/* Build the table, warm it up and check every key once. */
static int bench_setup(struct bench_run *run)
{
	const struct bench_cfg *cfg = run->cfg;
	struct avc_rcu_decision avd;
	struct avc_rcu_config rc = {
		.slots = SLOTS, .sync = cfg->sync, .reclaim = cfg->reclaim,
		.hash_seed = SEED, .reclaimer = AVC_RECLAIMER_INLINE,
	};
	size_t len;
	char *text;
	u32 s;
	int err;

	if (cfg->kind == KIND_PLAIN) {
		err = plain_table_init(&run->plain, SLOTS, SEED);
		for (s = 1; s <= NKEYS && !err; s++)
			err = plain_table_insert(&run->plain, s, TSID, TCLASS,
						 &want[s - 1]);
		return err;
	}
	err = avc_rcu_setup(&rc);
	if (err)
		return err;
	run->cache = avc_rcu_cache();
	text = bench_policy_text(&len);
	err = avc_rcu_load_policy(text, len);
	if (err)
		return err;
	for (s = 1; s <= NKEYS; s++) {
		int ret = avc_cache_has_perm(run->cache, s, TSID, TCLASS,
					     REQUESTED, &avd);

		if (ret != want_ret[s - 1] || !decision_equal(&avd, &want[s - 1]))
			bench_fail("a warm-up decision differs from the policy");
		avc_rcu_compute_av(s, TSID, TCLASS, &avd);
		if (!decision_equal(&avd, &want[s - 1]))
			bench_fail("avc_rcu_compute_av() differs from the policy");
	}
	return 0;
}

static void bench_teardown(struct bench_run *run, u64 timed_calls)
{
	struct avc_cache_stats st;

	if (run->cfg->kind == KIND_PLAIN) {
		plain_table_destroy(&run->plain);
		return;
	}
	avc_cache_stats_sum(run->cache, &st);
	if (st.misses != NKEYS || st.hits != (u32)timed_calls ||
	    st.lookups != (u32)(timed_calls + NKEYS))
		bench_fail("the timed calls were not all hits");
	avc_rcu_teardown();
}

/* One run: aggregate calls per second, 0 on failure. */
static double bench_one(const struct bench_cfg *cfg, unsigned int nthreads,
			unsigned int ms)
{
	struct bench_thread t[MAX_THREADS] = { 0 };
	pthread_t tids[MAX_THREADS];
	struct bench_run run = {
		.cfg = cfg, .nthreads = nthreads, .ms = ms,
	};
	double rate = 0;
	u64 total = 0;
	unsigned int i;
	char name[32];

	if (bench_setup(&run)) {
		bench_fail("setup");
		return 0;
	}
	for (i = 0; i < nthreads; i++) {
		t[i].run = &run;
		t[i].cpu = i % online_cpus;
	}
	cli_start_threads(tids, nthreads, bench_thread_fn, t, sizeof(t[0]));
	while (__atomic_load_n(&run.ready, __ATOMIC_SEQ_CST) < (int)nthreads)
		sched_yield();
	__atomic_store_n(&run.go, 1, __ATOMIC_RELEASE);
	cli_join_threads(tids, nthreads);
	for (i = 0; i < nthreads; i++) {
		if (t[i].err)
			bench_fail("avc_native_thread_enter");
		if (t[i].sum != bench_expected_sum(t[i].calls)) {
			fprintf(stderr, "%s, thread %u: sum %llu, policy says %llu\n",
				cfg_name(cfg, name, sizeof(name)), i,
				(unsigned long long)t[i].sum,
				(unsigned long long)bench_expected_sum(t[i].calls));
			bench_fail("wrong decisions");
		}
		total += t[i].calls;
		if (t[i].ns)
			rate += t[i].calls * 1e9 / t[i].ns;
	}
	bench_teardown(&run, total);
	return rate;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

static double median(double *v, unsigned int n)
{
	qsort(v, n, sizeof(*v), cmp_double);
	return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

/* (max - min) / median of sorted repetitions, in percent. */
static double spread(const double *v, unsigned int n, double med)
{
	return med ? 100 * (v[n - 1] - v[0]) / med : 0;
}

static void print_host(unsigned int ms, unsigned int reps)
{
	char line[256], model[128] = "unknown CPU";
	FILE *f = fopen("/proc/cpuinfo", "r");

	while (f && fgets(line, sizeof(line), f)) {
		char *colon = strchr(line, ':');

		if (!strncmp(line, "model name", 10) && colon) {
			snprintf(model, sizeof(model), "%s", colon + 2);
			model[strcspn(model, "\n")] = '\0';
			break;
		}
	}
	if (f)
		fclose(f);
	printf("avc_rcu native benchmark: keys ssid 1..%d, tsid %d, tclass %d\n",
	       NKEYS, TSID, TCLASS);
	printf("%d slots, requested %d, threads pinned to CPUs 0 and 1\n",
	       SLOTS, REQUESTED);
	printf("host: %s, %u online CPUs; gcc %d.%d -O2, liburcu %s\n",
	       model, online_cpus, __GNUC__, __GNUC_MINOR__, BENCH_FLAVOUR);
	printf("median of %u interleaved runs of %u ms each\n\n", reps, ms);
}

static void bench_table(unsigned int ms, unsigned int reps, unsigned int ncfgs)
{
	static double rates[NCFGS][MAX_THREADS + 1][MAX_REPS];
	double med[NCFGS][MAX_THREADS + 1], sp[NCFGS];
	unsigned int c, n, r;
	char name[32];
	bool met;

	print_host(ms, reps);
	for (r = 0; r < reps; r++)
		for (c = 0; c < ncfgs; c++)
			for (n = 1; n <= MAX_THREADS; n++)
				rates[c][n][r] = bench_one(&bench_cfgs[c], n,
							   ms);
	for (c = 0; c < ncfgs; c++) {
		sp[c] = 0;
		for (n = 1; n <= MAX_THREADS; n++) {
			med[c][n] = median(rates[c][n], reps);
			sp[c] = max(sp[c], spread(rates[c][n], reps, med[c][n]));
		}
	}

	printf("%-16s | %-28s | %-28s |\n", "", "1 thread", "2 threads");
	printf("%-16s | %8s %9s %9s | %8s %9s %9s | %s  %s\n", "sync/reclaim",
	       "ns/hit", "Mhits/s", "x plain", "ns/hit", "Mhits/s", "x plain",
	       "scaling", "spread");
	for (c = 0; c < ncfgs; c++) {
		printf("%-16s |", cfg_name(&bench_cfgs[c], name, sizeof(name)));
		for (n = 1; n <= MAX_THREADS; n++) {
			double ns = med[c][n] ? 1e9 * n / med[c][n] : 0;
			double plain_ns = 1e9 * n / med[0][n];

			printf(" %8.2f %9.1f %8.2fx |", ns, med[c][n] / 1e6,
			       ns / plain_ns);
		}
		printf(" %6.2fx  %5.1f%%\n", med[c][2] / med[c][1], sp[c]);
	}

	printf("\ngoals (timings are measurements: a missed goal does not fail the run):\n");
	for (c = 1; c <= 3; c++) {
		double x = med[0][1] / med[c][1];

		met = x <= 1.3;
		printf("  rcu hit <= 1.3x the plain loop, 1 thread, %-14s %.2fx  %s\n",
		       cfg_name(&bench_cfgs[c], name, sizeof(name)) + 4, x,
		       met ? "met" : "NOT met");
	}
	for (c = 1; c <= 3; c++) {
		double x = med[c][2] / med[c][1];

		met = x >= 1.9;
		printf("  rcu 2-thread scaling >= 1.9x, %-24s %.2fx  %s\n",
		       cfg_name(&bench_cfgs[c], name, sizeof(name)) + 4, x,
		       met ? "met" : "NOT met");
	}
	for (c = NCFGS_RCU; c < ncfgs && c < NCFGS_RCU + 3; c++) {
		double x = med[c][2] / med[c][1];

		met = x <= 0.5;
		printf("  spinlock at 2 threads <= 0.5x its 1-thread rate, %-5s %.2fx  %s\n",
		       cfg_name(&bench_cfgs[c], name, sizeof(name)) + 9, x,
		       met ? "met" : "NOT met");
	}
	printf("  (plain loop scaling: %.2fx)\n", med[0][2] / med[0][1]);
}

/*
 * N hits, one thread, rcu and lru, then N lookups of the plain loop: what
 * callgrind counts (--toggle-collect=avc_cache_has_perm or plain_has_perm).
 */
static int bench_callgrind(unsigned long hits)
{
	struct avc_rcu_decision avd;
	struct bench_run run = { .cfg = &bench_cfgs[1] };
	struct bench_run plain = { .cfg = &bench_cfgs[0] };
	unsigned long i;
	u64 sum = 0;
	int ret;

	if (bench_setup(&run) || bench_setup(&plain))
		return 1;
	for (i = 0; i < hits; i++) {
		ret = avc_cache_has_perm(run.cache, 1 + i % NKEYS, TSID,
					 TCLASS, REQUESTED, &avd);
		sum += avd.allowed + (u32)ret;
	}
	for (i = 0; i < hits; i++) {
		ret = plain_has_perm(&plain.plain, 1 + i % NKEYS, TSID, TCLASS,
				     REQUESTED, &avd);
		sum += avd.allowed + (u32)ret;
	}
	if (sum != 2 * bench_expected_sum(hits))
		bench_fail("wrong decisions");
	bench_teardown(&run, hits);
	bench_teardown(&plain, hits);
	return bench_failures ? 1 : 0;
}

int main(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "ms", required_argument, NULL, 'm' },
		{ "reps", required_argument, NULL, 'r' },
		{ "callgrind", required_argument, NULL, 'c' },
		{ "rcu-only", no_argument, NULL, 'o' },
		{ }
	};
	unsigned int ms = 500, reps = 5;
	unsigned int ncfgs = NCFGS;
	unsigned long callgrind = 0;
	int o;

	cli_init("avc_native_bench", 2);
	while ((o = getopt_long(argc, argv, "", opts, NULL)) != -1) {
		switch (o) {
		case 'm':
			ms = cli_number("--ms", optarg, 0, 1, UINT_MAX);
			break;
		case 'r':
			reps = cli_number("--reps", optarg, 0, 1, MAX_REPS);
			break;
		case 'c':
			callgrind = cli_number("--callgrind", optarg, 0, 0,
					       ULONG_MAX);
			break;
		case 'o':
			ncfgs = NCFGS_RCU;
			break;
		default:
			fprintf(stderr, "usage: %s [--ms MS] [--reps N] [--rcu-only]\n"
				"       %s --callgrind N\n", argv[0], argv[0]);
			return 2;
		}
	}
	online_cpus = sysconf(_SC_NPROCESSORS_ONLN);
	if (!online_cpus)
		online_cpus = 1;
	bench_expected();
	if (avc_native_thread_enter() < 0)
		return 1;
	if (callgrind)
		return bench_callgrind(callgrind);

	bench_table(ms, reps, ncfgs);
	if (bench_failures) {
		printf("\ndecisions: %lu FAILURES\n", bench_failures);
		return 1;
	}
	printf("\ndecisions: every timed call checked against the policy: OK\n");
	return 0;
}
