// SPDX-License-Identifier: GPL-2.0
/*
 * avc_native_stress: every operation of the core at once, on several
 * threads, with an oracle.
 *
 * For each sync mode and reclaim policy, for a bounded time:
 *
 *  - reader threads look keys up (avc_rcu_has_perm(): hits, and on misses
 *    inserts and the reclaims inserts trigger) and ask the policy directly
 *    (avc_rcu_compute_av());
 *  - a loader loads policy after policy (avc_rcu_load_policy(): parse,
 *    publish, reset the cache), the policy for seqno q being a pure
 *    function of q (selftests/lib/avc_oracle.h, the oracle the kselftests and
 *    the torture module use; the text comes from the test suite's own
 *    writer of it, selftests/lib/avc_model.c);
 *  - a flusher flushes, a tuner moves cache_threshold between 1 and 300
 *    (and, where the table follows the threshold, now and then to 2000 to
 *    9000, which resizes it) and reclaims on its own, and a reader of
 *    statistics sums the per-CPU counters and walks the table
 *    (hash_stats).
 *
 * The reclaim policies run each with another reclaimer and table: lru
 * with the background reclaimer and a table that follows the threshold,
 * fifo inline with 64 buckets, newest with the background reclaimer and
 * 64 buckets; --reclaimer and --slots choose one for all.
 *
 * Every decision must be what the policy of its seqno says, and its seqno
 * must be no older than the last load that had returned before the lookup
 * started, and no newer than the last load started after it.  Afterwards,
 * quiescent, the counters must add up (lookups = hits + misses, entries =
 * allocations - frees), every key must decide as the newest policy says,
 * and tearing the cache down must find no node left behind (a WARN).
 *
 * Built twice: with gcc on liburcu (a smoke test of the shim), and with
 * clang and ThreadSanitizer on the epoch RCU, where a run must end without
 * a single report (TSAN_OPTIONS=halt_on_error=1 makes one fatal).
 *
 *   avc_native_stress [--seconds S] [--sync MODE|all] [--reclaim POLICY|all]
 *		       [--readers N] [--seed N] [--reclaimer background|inline]
 *		       [--slots 64|follow]
 */
#include <errno.h>
#include <getopt.h>
#include <limits.h>
#include <stdarg.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <linux/kernel.h>
#include "api.h"
#include <avc_native/cli.h>
#include <avc_native/setup.h>
#include "avc_model.h"

#define SLOTS		64
#define MAX_READERS	8
#define MAX_THRESHOLD	300
/* Thresholds a table that follows may be resized for, now and then. */
#define RESIZE_MIN	2000
#define RESIZE_MAX	9000

/* The run's table: SLOTS buckets, or 0 (following the threshold). */
static unsigned int run_slots;
#define REPORT_MAX	10

static const struct tst_oracle oracle = TST_ORACLE_TORTURE;

/* One run's shared state; every field is accessed with __atomic builtins. */
static int stop;
static u32 loads_started;	/* seqno of the newest load begun */
static u32 loads_done;		/* seqno of the newest load returned */
static unsigned long failures;

struct worker {
	void *(*fn)(void *arg);
	u64 seed;
	unsigned long ops;
	unsigned long extra;
};

static __printf(1, 2) void fail(const char *fmt, ...)
{
	va_list ap;

	if (__atomic_fetch_add(&failures, 1, __ATOMIC_RELAXED) >= REPORT_MAX)
		return;
	va_start(ap, fmt);
	fprintf(stderr, "avc_native_stress: FAIL: ");
	vfprintf(stderr, fmt, ap);
	va_end(ap);
}

static bool stopping(void)
{
	return __atomic_load_n(&stop, __ATOMIC_ACQUIRE);
}

static void pause_us(long us)
{
	struct timespec ts = { .tv_sec = 0, .tv_nsec = us * 1000 };

	nanosleep(&ts, NULL);
}

static bool oracle_equal(const struct avc_rcu_decision *avd, u32 s, u32 t,
			 u32 c, struct tst_decision *d)
{
	tst_oracle_expected(&oracle, s, t, c, avd->seqno, d);
	return avd->allowed == d->allowed && avd->auditallow == d->auditallow &&
	       avd->auditdeny == d->auditdeny && avd->flags == d->flags;
}

static void *reader_fn(void *arg)
{
	struct worker *w = arg;
	struct avc_rcu_decision avd;
	struct tst_decision d;
	u32 s, t, c, req, floor, ceil;
	int ret, want, hot;

	while (!stopping()) {
		/* Three lookups in four on 48 hot keys: hits and misses. */
		hot = tst_splitmix64(&w->seed) % 4;
		s = tst_rand_range(&w->seed, hot ? 1 : 0, hot ? 4 : oracle.ns + 1);
		t = tst_rand_range(&w->seed, hot ? 1 : 0, hot ? 4 : oracle.nt + 1);
		c = tst_rand_range(&w->seed, hot ? 1 : 0, hot ? 3 : oracle.nc + 1);
		req = (u32)tst_splitmix64(&w->seed);
		if (req & 1)
			req &= 0xff;

		floor = __atomic_load_n(&loads_done, __ATOMIC_ACQUIRE);
		if (w->ops % 64 == 63) {
			avc_rcu_compute_av(s, t, c, &avd);
			ret = avc_decide(&avd, req);
			w->extra++;
		} else {
			ret = avc_rcu_has_perm(s, t, c, req, &avd);
		}
		ceil = __atomic_load_n(&loads_started, __ATOMIC_ACQUIRE);

		want = avc_decide(&avd, req);
		if (!oracle_equal(&avd, s, t, c, &d) || ret != want)
			fail("key %u %u %u seqno %u: %x %x %x %x ret %d; policy: %s\n",
			     s, t, c, avd.seqno, avd.allowed, avd.auditallow,
			     avd.auditdeny, avd.flags, ret,
			     tst_decision_str(&d));
		if (avc_seqno_before(avd.seqno, floor) ||
		    avc_seqno_before(ceil, avd.seqno))
			fail("key %u %u %u: seqno %u outside [%u, %u]\n", s, t,
			     c, avd.seqno, floor, ceil);
		if (++w->ops % 256 == 0)
			avc_native_quiescent_state();
	}
	return NULL;
}

static void *loader_fn(void *arg)
{
	struct worker *w = arg;
	struct tst_buf text = { 0 };
	u32 q;
	int err;

	while (!stopping()) {
		q = __atomic_load_n(&loads_started, __ATOMIC_RELAXED) + 1;
		tst_oracle_policy_text(&oracle, q, &text);
		__atomic_store_n(&loads_started, q, __ATOMIC_RELEASE);
		err = avc_rcu_load_policy(text.data, text.len);
		if (err)
			fail("load of policy %u: %d\n", q, err);
		else if (avc_rcu_policy_seqno() != q)
			fail("policy %u loaded, seqno %u\n", q,
			     avc_rcu_policy_seqno());
		__atomic_store_n(&loads_done, q, __ATOMIC_RELEASE);
		w->ops++;
		avc_native_quiescent_state();
		pause_us(tst_rand_range(&w->seed, 500, 3000));
	}
	tst_buf_free(&text);
	return NULL;
}

static void *flusher_fn(void *arg)
{
	struct worker *w = arg;

	while (!stopping()) {
		avc_rcu_flush();
		w->ops++;
		avc_native_quiescent_state();
		pause_us(tst_rand_range(&w->seed, 200, 2000));
	}
	return NULL;
}

static void *tuner_fn(void *arg)
{
	struct worker *w = arg;
	struct avc_cache *c = avc_rcu_cache();
	unsigned int v;

	while (!stopping()) {
		v = tst_rand_range(&w->seed, 1, MAX_THRESHOLD);
		if (!run_slots && w->ops % 16 == 15)
			v = tst_rand_range(&w->seed, RESIZE_MIN, RESIZE_MAX);
		avc_cache_set_threshold(c, v);
		if (avc_cache_threshold(c) < 1 ||
		    avc_cache_threshold(c) > RESIZE_MAX)
			fail("threshold %u\n", avc_cache_threshold(c));
		if (w->ops % 4 == 0)
			w->extra += avc_reclaim(c);
		w->ops++;
		avc_native_quiescent_state();
		pause_us(tst_rand_range(&w->seed, 50, 500));
	}
	return NULL;
}

static void *stats_fn(void *arg)
{
	struct worker *w = arg;
	struct avc_cache *c = avc_rcu_cache();
	struct avc_cache_stats sum, one;
	struct avc_hash_stats hs;
	int cpu;

	while (!stopping()) {
		avc_cache_stats_sum(c, &sum);
		for_each_possible_cpu(cpu)
			avc_cache_stats_read(c, cpu, &one);
		avc_cache_hash_stats(c, &hs);
		if ((run_slots ? hs.buckets != SLOTS :
		     hs.buckets < 512 || hs.buckets > 16384 ||
		     (hs.buckets & (hs.buckets - 1))) || hs.entries < 0 ||
		    hs.buckets_used > hs.buckets ||
		    hs.buckets_used > hs.entries ||
		    hs.longest_chain > hs.entries ||
		    (hs.entries && !hs.longest_chain))
			fail("hash_stats: entries %d buckets %d/%d longest %d\n",
			     hs.entries, hs.buckets_used, hs.buckets,
			     hs.longest_chain);
		w->ops++;
		avc_native_quiescent_state();
		pause_us(tst_rand_range(&w->seed, 100, 1000));
	}
	return NULL;
}

static void *worker_main(void *arg)
{
	struct worker *w = arg;

	if (avc_native_thread_enter() < 0) {
		fail("no CPU left for a thread\n");
		return NULL;
	}
	w->fn(w);
	avc_native_thread_exit();
	return NULL;
}

/* Quiescent: the counters add up and every key decides by the newest. */
static void check_quiescent(u32 q)
{
	struct avc_rcu_decision avd;
	struct avc_cache_stats st;
	struct avc_hash_stats hs;
	struct tst_decision d;
	u32 s, t, c;

	avc_cache_stats_sum(avc_rcu_cache(), &st);
	avc_cache_hash_stats(avc_rcu_cache(), &hs);
	if (st.lookups != st.hits + st.misses)
		fail("lookups %u != hits %u + misses %u\n", st.lookups,
		     st.hits, st.misses);
	if ((u32)hs.entries != st.allocations - st.frees)
		fail("entries %d != allocations %u - frees %u\n", hs.entries,
		     st.allocations, st.frees);
	for (s = 0; s <= oracle.ns + 1; s++)
		for (t = 0; t <= oracle.nt + 1; t++)
			for (c = 0; c <= oracle.nc + 1; c++) {
				avc_rcu_has_perm(s, t, c, 0, &avd);
				if (avd.seqno != q || !oracle_equal(&avd, s, t, c, &d))
					fail("quiescent: key %u %u %u seqno %u (newest %u)\n",
					     s, t, c, avd.seqno, q);
			}
}

static int run_one(enum avc_sync sync, enum avc_reclaim_policy reclaim,
		   enum avc_reclaimer where, unsigned int slots,
		   unsigned int seconds, unsigned int nreaders, u64 seed)
{
	struct avc_rcu_config cfg = {
		.slots = slots, .sync = sync, .reclaim = reclaim,
		.reclaimer = where,
		.hash_seed = (u32)seed | 1,
	};
	struct worker w[MAX_READERS + 4] = { 0 };
	pthread_t tids[ARRAY_SIZE(w)];
	unsigned long before = failures, lookups = 0, computes = 0;
	struct avc_cache_stats st;
	unsigned int i, n = 0;
	int err;

	run_slots = slots;
	err = avc_rcu_setup(&cfg);
	if (err) {
		fail("setup: %d\n", err);
		return 1;
	}
	avc_cache_set_threshold(avc_rcu_cache(), 32);
	__atomic_store_n(&stop, 0, __ATOMIC_RELAXED);
	__atomic_store_n(&loads_started, 0, __ATOMIC_RELAXED);
	__atomic_store_n(&loads_done, 0, __ATOMIC_RELAXED);

	for (i = 0; i < nreaders; i++)
		w[n++].fn = reader_fn;
	w[n++].fn = loader_fn;
	w[n++].fn = flusher_fn;
	w[n++].fn = tuner_fn;
	w[n++].fn = stats_fn;
	for (i = 0; i < n; i++)
		w[i].seed = seed + 0x1000 * (i + 1);
	cli_start_threads(tids, n, worker_main, w, sizeof(w[0]));
	sleep(seconds);
	__atomic_store_n(&stop, 1, __ATOMIC_RELEASE);
	cli_join_threads(tids, n);

	avc_cache_settle(avc_rcu_cache());
	check_quiescent(__atomic_load_n(&loads_done, __ATOMIC_RELAXED));
	avc_cache_stats_sum(avc_rcu_cache(), &st);
	for (i = 0; i < nreaders; i++) {
		lookups += w[i].ops;
		computes += w[i].extra;
	}
	avc_rcu_teardown();
	if (avc_native_slab_objects())
		fail("%ld nodes outlived the cache\n", avc_native_slab_objects());

	printf("%s/%s/%s/%s: %u s, %lu lookups (%u%% hits), %lu computes, ",
	       avc_sync_name(sync), avc_reclaim_name(reclaim),
	       avc_reclaimer_name(where), slots ? "64 slots" : "following",
	       seconds,
	       lookups - computes,
	       st.lookups ? (unsigned int)((u64)st.hits * 100 / st.lookups) : 0,
	       computes);
	printf("%lu loads, %lu flushes, %lu thresholds, %u reclaimed (%lu by hand): %s\n",
	       w[nreaders].ops, w[nreaders + 1].ops, w[nreaders + 2].ops,
	       st.reclaims, w[nreaders + 2].extra,
	       failures == before ? "ok" : "FAILED");
	fflush(stdout);
	return failures != before;
}

int main(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "seconds", required_argument, NULL, 't' },
		{ "sync", required_argument, NULL, 's' },
		{ "reclaim", required_argument, NULL, 'r' },
		{ "readers", required_argument, NULL, 'n' },
		{ "seed", required_argument, NULL, 'S' },
		{ "reclaimer", required_argument, NULL, 'R' },
		{ "slots", required_argument, NULL, 'N' },
		{ }
	};
	const char *sync_arg = "all", *reclaim_arg = "all", *where_arg = NULL;
	const char *slots_arg = NULL;
	enum avc_reclaimer where;
	unsigned int slots;
	unsigned int seconds = 2, nreaders = 3;
	enum avc_reclaim_policy reclaim;
	enum avc_sync sync;
	u64 seed = 0;
	int o, bad = 0;

	cli_init("avc_native_stress", 2);
	while ((o = getopt_long(argc, argv, "", opts, NULL)) != -1) {
		switch (o) {
		case 't':
			seconds = cli_number("--seconds", optarg, 0, 0,
					     UINT_MAX);
			break;
		case 's':
			sync_arg = optarg;
			break;
		case 'r':
			reclaim_arg = optarg;
			break;
		case 'n':
			nreaders = cli_number("--readers", optarg, 0, 1,
					      MAX_READERS);
			break;
		case 'S':
			seed = cli_number("--seed", optarg, 0, 0, ULLONG_MAX);
			break;
		case 'R':
			where_arg = optarg;
			break;
		case 'N':
			slots_arg = optarg;
			break;
		default:
			fprintf(stderr, "usage: %s [--seconds S] [--sync MODE|all]\n"
				"\t[--reclaim POLICY|all] [--readers N] [--seed N]\n"
				"\t[--reclaimer background|inline] [--slots 64|follow]\n",
				argv[0]);
			return 2;
		}
	}
	if (!seed)
		seed = avc_native_random_u32() | (u64)avc_native_random_u32() << 32;
	printf("avc_native_stress: seed %llu, %u readers\n",
	       (unsigned long long)seed, nreaders);
	if (avc_native_thread_enter() < 0)
		return 1;

	for (sync = AVC_SYNC_RCU; sync <= AVC_SYNC_RWLOCK; sync++) {
		if (strcmp(sync_arg, "all") &&
		    strcmp(sync_arg, avc_sync_name(sync)))
			continue;
		for (reclaim = AVC_RECLAIM_LRU; reclaim <= AVC_RECLAIM_NEWEST;
		     reclaim++) {
			if (strcmp(reclaim_arg, "all") &&
			    strcmp(reclaim_arg, avc_reclaim_name(reclaim)))
				continue;
			where = reclaim == AVC_RECLAIM_FIFO ?
				AVC_RECLAIMER_INLINE : AVC_RECLAIMER_BACKGROUND;
			if (where_arg && avc_reclaimer_parse(where_arg, &where)) {
				fprintf(stderr, "avc_native_stress: --reclaimer %s\n",
					where_arg);
				return 2;
			}
			slots = reclaim == AVC_RECLAIM_LRU ? 0 : SLOTS;
			if (slots_arg)
				slots = strcmp(slots_arg, "follow") ? SLOTS : 0;
			bad |= run_one(sync, reclaim, where, slots, seconds,
				       nreaders, seed);
		}
	}
	printf("avc_native_stress: %s\n", bad ? "FAILED" : "all runs ok");
	return bad;
}
