// SPDX-License-Identifier: GPL-2.0
/*
 * avc_native_bound: the cache's promises under pressure, where a QEMU guest
 * cannot put it: hits as dense as the host makes them, more inserting
 * threads than CPUs, misses of one key released at once.
 *
 * For each sync mode and reclaim policy, on the core built unmodified
 * (avc/, on liburcu or, in the ThreadSanitizer build, the epoch RCU):
 *
 *  dense     the issue CLOCK can have: threshold 48, 512 slots; N - 1
 *            threads, N the host's online CPUs but at least 4 (at most
 *            MAX_THREADS), look up a hot set of four times the threshold
 *            without pause (their hits set referenced bits as fast as the
 *            sweep clears them; their misses insert and reclaim) while one
 *            more inserts fresh keys;
 *  inflight  32 threads, many more than the host's CPUs, each inserting
 *            fresh keys: a thread preempted between taking its place and
 *            linking is still counted;
 *  herd      the cache at its threshold, four threads look up the same
 *            fresh key, 2000 times or more: each is held after its miss
 *            until all four have missed (the avc_rcu_miss event's probe),
 *            then they insert at once; fewer than 4 + a chunk entries are
 *            evicted per herd (in practice one chunk; one a miss would be
 *            64), the key is linked once and the three raced inserts give
 *            their places back; some herds must have had two reclaims
 *            waiting on each other;
 *            (inline); and four distinct fresh keys missed at once at the
 *            threshold are all cached: the first's section makes room for
 *            the others, whose verdict is the cache's count, not their
 *            own evictions; and (rcu mode) four such misses kept waiting
 *            on the reclaim lock at threshold 2 hold no place while they
 *            wait, and one of them at least is cached after;
 *  scan      65536 slots, threshold 16, 3000 fresh keys one by one: every
 *            section, seen by the avc_rcu_reclaim event's probe, reads at
 *            most AVC_RECLAIM_BUCKETS bucket heads a pass (two with lru),
 *            examines at most AVC_NODE_BUDGET nodes and evicts at most a
 *            chunk;
 *  allhot    every entry referenced and nothing else running: an insert at
 *            the threshold still evicts and links (inline), the reclaimer
 *            still evicts (background);
 *  hot       512 slots at thresholds 8192 and 65536 (where a bucket's cap
 *            of AVC_CHAIN_MAX binds): every entry hit between rounds of
 *            fresh keys; every section examines at most AVC_NODE_BUDGET
 *            nodes, and with lru one over a hot table reports exactly the
 *            budget (its CLOCK pass and its by-age pass, both counted) and
 *            a chunk evicted; no chain past the cap.
 *
 * Each runs with --reclaimer inline and background (all, by default); in
 * the background the reclaimer's work item runs on a thread of its own
 * (the workqueue shim), and herd's reclaim counts are not its to check:
 * there the herd is skipped.
 *
 * dense and inflight stop every thread at a barrier every millisecond and
 * walk the table there, where nothing is in flight: the entries must be
 * at most cache_threshold, equal to the places taken (atomic active: no
 * reservation left behind) and to allocations - frees.  scan and allhot
 * check it after each insert.  Any failure is printed and the exit status
 * is 1.
 *
 * The core here is built with preemption points (avc_native/native.h):
 * while dense and inflight run, one atomic or lock operation of the core
 * in --preempt N (default 64; 0: none) yields the CPU, as a task is
 * preempted on a kernel with preempt=full.  A host's two CPUs alone almost
 * never run another insert between one insert's reading of the count and
 * its next instruction; with the yields, such windows are open thousands
 * of times a second.  (An insert that read the count, then took its place
 * with a second atomic operation, passed this test without them and fails
 * it at once with them.)
 *
 *   avc_native_bound [--seconds S] [--sync MODE|all] [--reclaim POLICY|all]
 *		      [--test NAME|all] [--seed N] [--preempt N]
 *		      [--reclaimer background|inline|all]
 *
 * S, the time dense and inflight run for each mode and policy, may be a
 * fraction (0.2): tools/testing/mutate runs every mutant of avc/ through
 * it.
 */
#include <getopt.h>
#include <limits.h>
#include <pthread.h>
#include <sched.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <linux/kernel.h>
#include "api.h"
#include "node.h"
#include <avc_native/cli.h>
#include <avc_native/setup.h>
#include "avc_oracle.h"
#include "avc_rcu_events.h"

#define MAX_THREADS	32
#define PREEMPT_ONE_IN	64
#define REPORT_MAX	10

static unsigned long failures;
static const char *current_run = "";
static unsigned int preempt_one_in = PREEMPT_ONE_IN;

static __printf(1, 2) void fail(const char *fmt, ...)
{
	va_list ap;

	if (__atomic_fetch_add(&failures, 1, __ATOMIC_RELAXED) >= REPORT_MAX)
		return;
	va_start(ap, fmt);
	fprintf(stderr, "avc_native_bound: FAIL: %s: ", current_run);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
}

static u64 now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (u64)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

/* What the avc_rcu_reclaim and avc_rcu_insert probes saw. */
static unsigned int max_visited, max_evicted, max_nodes, reclaims_seen;
/* hot: sections whose every examined node was referenced, and their work. */
static unsigned int full_budget, full_chunk, full_sections;
static unsigned long full_inserts, linked_inserts;

static void atomic_max(unsigned int *p, unsigned int v)
{
	unsigned int old = __atomic_load_n(p, __ATOMIC_RELAXED);

	while (v > old &&
	       !__atomic_compare_exchange_n(p, &old, v, false,
					    __ATOMIC_RELAXED, __ATOMIC_RELAXED))
		;
}

static void probe_reclaim(unsigned int evicted, unsigned int nodes,
			  unsigned int visited, int policy, int active,
			  unsigned int threshold, u64 duration_ns)
{
	atomic_max(&max_visited, visited);
	atomic_max(&max_evicted, evicted);
	atomic_max(&max_nodes, nodes);
	if (nodes == AVC_NODE_BUDGET)
		__atomic_fetch_add(&full_budget, 1, __ATOMIC_RELAXED);
	if (evicted == AVC_RECLAIM_CHUNK)
		__atomic_fetch_add(&full_chunk, 1, __ATOMIC_RELAXED);
	if (nodes)
		__atomic_fetch_add(&full_sections, 1, __ATOMIC_RELAXED);
	__atomic_fetch_add(&reclaims_seen, 1, __ATOMIC_RELAXED);
}

static void probe_insert(u32 ssid, u32 tsid, u16 tclass, u32 seqno,
			 unsigned int bucket, int result, int active)
{
	if (result == AVC_INSERT_FULL)
		__atomic_fetch_add(&full_inserts, 1, __ATOMIC_RELAXED);
	else if (result == AVC_INSERT_LINKED)
		__atomic_fetch_add(&linked_inserts, 1, __ATOMIC_RELAXED);
}

static void probes_reset(void)
{
	max_visited = 0;
	max_evicted = 0;
	max_nodes = 0;
	full_budget = 0;
	full_chunk = 0;
	full_sections = 0;
	reclaims_seen = 0;
	full_inserts = 0;
	linked_inserts = 0;
}

/*
 * Nothing is in flight: the table holds at most the threshold, as many
 * entries as places are taken, and allocations - frees of them.  Returns
 * the entries.
 */
static int check_quiet(const char *when)
{
	struct avc_cache *c = avc_rcu_cache();
	unsigned int thr = avc_cache_threshold(c);
	struct avc_cache_stats st;
	struct avc_hash_stats hs;

	/*
	 * The bound first, while the background reclaimer may still run:
	 * it only evicts, so a walk meanwhile can only count fewer.  Then
	 * the reclaimer's work done, the exact accounts.
	 */
	avc_cache_hash_stats(c, &hs);
	if ((unsigned int)hs.entries > thr)
		fail("%s: %d entries, threshold %u\n", when, hs.entries, thr);
	avc_cache_settle(c);
	avc_cache_hash_stats(c, &hs);
	avc_cache_stats_sum(c, &st);
	if (hs.entries != atomic_read(&c->active))
		fail("%s: %d entries, %d places taken\n", when, hs.entries,
		     atomic_read(&c->active));
	if ((u32)hs.entries != st.allocations - st.frees)
		fail("%s: %d entries, allocations %u - frees %u\n", when,
		     hs.entries, st.allocations, st.frees);
	return hs.entries;
}

/* Threads stopped at a barrier while the main thread checks. */
struct crew {
	pthread_barrier_t arrive, leave;
	int pause;		/* the main thread wants a barrier */
	int stop;
	unsigned int nthreads;
};

struct worker {
	struct crew *crew;
	void (*step)(struct worker *w);
	unsigned int id;
	u64 seed;
	u32 next;		/* next fresh key */
	unsigned long ops;
};

static void lookup(u32 s, u32 t, u16 c)
{
	struct avc_rcu_decision avd;

	avc_rcu_has_perm(s, t, c, 1, &avd);
}

/* The hot set: 4 * threshold keys. */
static unsigned int hot_keys;

static void step_hot(struct worker *w)
{
	lookup(1 + tst_rand_range(&w->seed, 0, hot_keys - 1), 7, 3);
}

/* A key no one asked for before: a miss and an insert. */
static void step_fresh(struct worker *w)
{
	lookup(0x10000000 + w->id * 0x100000 + w->next++, 9, 5);
}

static void *worker_main(void *arg)
{
	struct worker *w = arg;
	struct crew *cr = w->crew;

	if (avc_native_thread_enter() < 0) {
		fail("no CPU left for a thread\n");
		return NULL;
	}
	for (;;) {
		if (__atomic_load_n(&cr->pause, __ATOMIC_ACQUIRE)) {
			pthread_barrier_wait(&cr->arrive);
			pthread_barrier_wait(&cr->leave);
			if (__atomic_load_n(&cr->stop, __ATOMIC_ACQUIRE))
				break;
		}
		w->step(w);
		if (++w->ops % 64 == 0)
			avc_native_quiescent_state();
	}
	avc_native_thread_exit();
	return NULL;
}

/*
 * Run the workers for @ns nanoseconds, stopping them every millisecond to check
 * the bound.  Returns the most entries seen.
 */
static int run_crew(struct worker *w, unsigned int n, u64 ns)
{
	struct crew cr = { .nthreads = n };
	u64 end = now_ns() + ns;
	pthread_t tids[MAX_THREADS];
	unsigned int i, checks = 0;
	int max = 0, e;

	pthread_barrier_init(&cr.arrive, NULL, n + 1);
	pthread_barrier_init(&cr.leave, NULL, n + 1);
	__atomic_store_n(&avc_native_preempt_one_in, preempt_one_in,
			 __ATOMIC_RELAXED);
	for (i = 0; i < n; i++)
		w[i].crew = &cr;
	cli_start_threads(tids, n, worker_main, w, sizeof(w[0]));
	do {
		usleep(1000);
		__atomic_store_n(&cr.pause, 1, __ATOMIC_RELEASE);
		pthread_barrier_wait(&cr.arrive);
		__atomic_store_n(&cr.pause, 0, __ATOMIC_RELAXED);
		e = check_quiet("at a barrier");
		if (e > max)
			max = e;
		checks++;
		if (now_ns() >= end)
			__atomic_store_n(&cr.stop, 1, __ATOMIC_RELEASE);
		pthread_barrier_wait(&cr.leave);
	} while (!__atomic_load_n(&cr.stop, __ATOMIC_RELAXED));
	cli_join_threads(tids, n);
	__atomic_store_n(&avc_native_preempt_one_in, 0, __ATOMIC_RELAXED);
	pthread_barrier_destroy(&cr.arrive);
	pthread_barrier_destroy(&cr.leave);
	printf("  %u checks, at most %d entries", checks, max);
	return max;
}

static void stats(struct avc_cache_stats *st)
{
	avc_cache_stats_sum(avc_rcu_cache(), st);
}

static void test_dense(u64 ns, u64 seed)
{
	struct worker w[MAX_THREADS] = { 0 };
	long cpus = sysconf(_SC_NPROCESSORS_ONLN);
	struct avc_cache_stats a, b;
	unsigned int i, n;

	/* One inserter, and a hitter on every other CPU (three at least). */
	n = cpus < 4 ? 4 : cpus > MAX_THREADS ? MAX_THREADS : cpus;
	avc_cache_set_threshold(avc_rcu_cache(), 48);
	hot_keys = 4 * 48;
	for (i = 0; i < n; i++) {
		w[i].id = i;
		w[i].seed = seed + i;
		w[i].step = i ? step_hot : step_fresh;
	}
	stats(&a);
	run_crew(w, n, ns);
	stats(&b);
	printf(", %u hitting threads and one inserting", n - 1);
	printf(", %u lookups (%u%% hits), %u reclaimed, %lu not cached (full)\n",
	       b.lookups - a.lookups,
	       (unsigned int)((u64)(b.hits - a.hits) * 100 /
			      (b.lookups - a.lookups ?: 1)),
	       b.reclaims - a.reclaims, full_inserts);
	if (b.reclaims == a.reclaims)
		fail("no reclaim\n");
}

static void test_inflight(u64 ns, u64 seed)
{
	struct worker w[MAX_THREADS] = { 0 };
	struct avc_cache_stats a, b;
	unsigned int i;

	avc_cache_set_threshold(avc_rcu_cache(), 48);
	for (i = 0; i < MAX_THREADS; i++) {
		w[i].id = i;
		w[i].seed = seed + i;
		w[i].step = step_fresh;
	}
	stats(&a);
	run_crew(w, MAX_THREADS, ns);
	stats(&b);
	printf(", %u inserts by %d threads, %u reclaimed, %lu not cached (full)\n",
	       b.misses - a.misses, MAX_THREADS, b.reclaims - a.reclaims,
	       full_inserts);
}

/*
 * The herd: each worker looks up herd_key once per round, and the miss
 * probe holds it there until every worker has missed: no insert starts
 * before all have looked up, so each round is a herd of HERD misses
 * whatever the host's load, and the inserts start together.
 */
enum { HERD = 4 };
static u32 herd_key;
static pthread_barrier_t herd_go, herd_done;
static pthread_t herd_tids[HERD];
static __thread bool herd_member;
static unsigned int herd_missed;

static void probe_miss(u32 ssid, u32 tsid, u16 tclass, u32 requested,
		       const struct avc_rcu_decision *avd)
{
	unsigned int spins = 0;

	if (!herd_member)
		return;
	__atomic_add_fetch(&herd_missed, 1, __ATOMIC_ACQ_REL);
	/* Spin, so that the members on a CPU leave at once; yield now and then. */
	while (__atomic_load_n(&herd_missed, __ATOMIC_ACQUIRE) < HERD)
		if (++spins % 1024 == 0)
			sched_yield();
}

/*
 * Pin the calling thread to the @i-th CPU it may run on, round robin: the
 * scheduler of a loaded host may otherwise keep the whole herd on one
 * CPU, where its inserts never run at once.
 */
static void pin_to_nth_cpu(unsigned int i)
{
	cpu_set_t allowed, one;
	unsigned int n;
	int cpu;

	if (sched_getaffinity(0, sizeof(allowed), &allowed))
		return;
	n = CPU_COUNT(&allowed);
	if (n < 2)
		return;
	i %= n;
	for (cpu = 0; cpu < CPU_SETSIZE; cpu++) {
		if (!CPU_ISSET(cpu, &allowed) || i--)
			continue;
		CPU_ZERO(&one);
		CPU_SET(cpu, &one);
		sched_setaffinity(0, sizeof(one), &one);
		return;
	}
}

/* Each member misses a key of its own: herd_key + its id (distinct). */
static bool herd_distinct;

static void *herd_main(void *arg)
{
	struct worker *w = arg;
	u32 k;

	if (avc_native_thread_enter() < 0) {
		fail("no CPU left for a thread\n");
		return NULL;
	}
	herd_member = true;
	pin_to_nth_cpu(w->id);
	for (;;) {
		pthread_barrier_wait(&herd_go);
		k = __atomic_load_n(&herd_key, __ATOMIC_ACQUIRE);
		if (!k)
			break;
		lookup(herd_distinct ? k + 0x1000000 * (w->id + 1) : k, 11, 13);
		avc_native_quiescent_state();
		pthread_barrier_wait(&herd_done);
	}
	avc_native_thread_exit();
	return NULL;
}

/* The herd's members started, each waiting at herd_go for a key. */
static void herd_start(struct worker *w)
{
	unsigned int i;

	pthread_barrier_init(&herd_go, NULL, HERD + 1);
	pthread_barrier_init(&herd_done, NULL, HERD + 1);
	for (i = 0; i < HERD; i++)
		w[i].id = i;
	cli_start_threads(herd_tids, HERD, herd_main, w, sizeof(w[0]));
}

/* Key 0 sends the members home; joined. */
static void herd_stop(void)
{
	__atomic_store_n(&herd_key, 0, __ATOMIC_RELEASE);
	pthread_barrier_wait(&herd_go);
	cli_join_threads(herd_tids, HERD);
	pthread_barrier_destroy(&herd_go);
	pthread_barrier_destroy(&herd_done);
}

/*
 * At least @rounds herds, and more (up to ten times as many) until ten of
 * them had two reclaims at once: the second waiting for the first, then
 * finding the cache within its threshold.
 */
static void test_herd(unsigned int rounds)
{
	enum { THR = 64 };
	struct worker w[HERD] = { 0 };
	struct avc_cache_stats a, b;
	unsigned int r, contended = 0, worst = 0, seen;
	u32 fill = 0x20000000;

	avc_cache_set_threshold(avc_rcu_cache(), THR);
	herd_start(w);
	for (r = 0; r < rounds || (contended < 10 && r < 10 * rounds); r++) {
		/* Up to the threshold: the herd's misses must reclaim. */
		while (atomic_read(&avc_rcu_cache()->active) < THR)
			lookup(fill++, 11, 13);
		stats(&a);
		seen = __atomic_load_n(&reclaims_seen, __ATOMIC_RELAXED);
		__atomic_store_n(&herd_missed, 0, __ATOMIC_RELAXED);
		__atomic_store_n(&herd_key, 0x30000000 + r, __ATOMIC_RELEASE);
		pthread_barrier_wait(&herd_go);
		pthread_barrier_wait(&herd_done);
		stats(&b);
		if (b.misses - a.misses != HERD)
			fail("round %u: %u misses of one key, not %d\n", r,
			     b.misses - a.misses, HERD);
		/*
		 * Distinct keys: a chunk makes room for all four, so none may
		 * be refused, whatever order their sections ran in.
		 */
		if (herd_distinct &&
		    __atomic_load_n(&full_inserts, __ATOMIC_RELAXED))
			fail("round %u: %lu of %d misses at once not cached\n",
			     r, full_inserts, HERD);
		if (__atomic_load_n(&reclaims_seen, __ATOMIC_RELAXED) - seen > 1)
			contended++;
		if (b.reclaims - a.reclaims > worst)
			worst = b.reclaims - a.reclaims;
		/*
		 * The exact bound (Documentation/design.rst, "Reclaim"): a
		 * sweep starts only while the herd's places outnumber the
		 * entries evicted, so the last starts with at most HERD - 1
		 * evicted and adds at most a chunk.
		 */
		if (b.reclaims - a.reclaims > HERD - 1 + AVC_RECLAIM_CHUNK)
			fail("round %u: %u misses of one key evicted %u entries\n",
			     r, b.misses - a.misses, b.reclaims - a.reclaims);
		check_quiet("after a herd");
	}
	herd_stop();
	printf("  %u herds of %d%s, %u with two reclaims at once, at most %u evicted by one\n",
	       r, HERD, herd_distinct ? " distinct keys" : "", contended,
	       worst);
	/* A herd whose reclaims never met did not test the re-check. */
	if (!contended)
		fail("no herd had two reclaims at once\n");
}

static void test_scan(enum avc_reclaim_policy reclaim)
{
	unsigned int cap = AVC_RECLAIM_BUCKETS *
			   (reclaim == AVC_RECLAIM_LRU ? 2 : 1);
	unsigned int i;

	avc_cache_set_threshold(avc_rcu_cache(), 16);
	for (i = 0; i < 3000; i++) {
		lookup(0x40000000 + i, 17, 19);
		if (i % 100 == 99)
			check_quiet("after an insert");
	}
	avc_cache_settle(avc_rcu_cache());
	printf("  %u sections, at most %u buckets read (cap %u), %u nodes, %u evicted,\n"
	       "  %lu of 3000 not cached (full)\n", reclaims_seen, max_visited,
	       cap, max_nodes, max_evicted, full_inserts);
	if (max_visited > cap)
		fail("a section read %u bucket heads, cap %u\n", max_visited,
		     cap);
	if (max_nodes > AVC_NODE_BUDGET)
		fail("a section examined %u nodes\n", max_nodes);
	if (max_evicted > AVC_RECLAIM_CHUNK)
		fail("a reclaim evicted %u\n", max_evicted);
	if (!reclaims_seen)
		fail("no reclaim\n");
}

static void test_allhot(bool background)
{
	enum { THR = 32 };
	struct avc_cache_stats a, b;
	unsigned int i;

	avc_cache_set_threshold(avc_rcu_cache(), THR);
	avc_cache_settle(avc_rcu_cache());
	if (background) {
		/* Up to the high watermark, all referenced, then one more. */
		for (i = 0; i < avc_watermark_high(THR); i++)
			lookup(0x50000000 + i, 23, 29);
		for (i = 0; i < avc_watermark_high(THR); i++)
			lookup(0x50000000 + i, 23, 29);
		stats(&a);
		lookup(0x60000000, 23, 29);
		avc_cache_settle(avc_rcu_cache());
		stats(&b);
		check_quiet("after the reclaimer");
		printf("  every entry referenced: the reclaimer evicted %u\n",
		       b.reclaims - a.reclaims);
		if (b.reclaims == a.reclaims)
			fail("a table of referenced entries: nothing evicted\n");
		if (atomic_read(&avc_rcu_cache()->active) >
		    (int)avc_watermark_low(THR))
			fail("%d entries, low watermark %u\n",
			     atomic_read(&avc_rcu_cache()->active),
			     avc_watermark_low(THR));
		return;
	}
	for (i = 0; i < THR; i++)
		lookup(0x50000000 + i, 23, 29);
	for (i = 0; i < THR; i++)
		lookup(0x50000000 + i, 23, 29);		/* all referenced */
	stats(&a);
	lookup(0x60000000, 23, 29);
	stats(&b);
	check_quiet("after the insert");
	printf("  every entry referenced: the insert evicted %u, %lu linked\n",
	       b.reclaims - a.reclaims, linked_inserts);
	if (b.hits - a.hits || b.misses - a.misses != 1)
		fail("the %d keys were not all cached\n", THR);
	if (b.reclaims == a.reclaims)
		fail("a table of referenced entries: nothing evicted\n");
	if (!linked_inserts)
		fail("the new key was not linked\n");
}

/*
 * Every entry of the table referenced, as hits on all of them since the
 * hand last passed would leave it; nothing else runs.
 */
static void hit_all(struct avc_cache *c)
{
	struct avc_table *t;
	struct avc_node *node;
	unsigned int i;

	rcu_read_lock();
	t = avc_table_newest(c);
	for (i = 0; i <= t->mask; i++)
		hlist_for_each_entry_rcu(node, &t->slots[i], list)
			WRITE_ONCE(node->referenced, 1);
	rcu_read_unlock();
}

/*
 * The node budget on hot tables of 512 buckets: every entry referenced
 * before each round of fresh keys, every section's work seen by the
 * probe.
 */
static void test_hot(enum avc_reclaim_policy reclaim)
{
	static const unsigned int thr[] = { 8192, 65536 };
	struct avc_cache *c = avc_rcu_cache();
	unsigned int i, k, r, n, fresh = 0;
	struct avc_hash_stats hs;

	for (i = 0; i < ARRAY_SIZE(thr); i++) {
		probes_reset();
		n = thr[i] < 20000 ? thr[i] : 20000;
		avc_cache_set_threshold(c, thr[i]);
		avc_cache_settle(c);
		for (k = 0; k < n; k++)
			lookup(0x70000000 + k, 31, 37);
		for (r = 0; r < 8; r++) {
			avc_cache_settle(c);
			hit_all(c);
			for (k = 0; k < 64; k++)
				lookup(0x7f000000 + fresh++, 31, 37);
		}
		/* Lowered: sections over whatever is left, every entry hot. */
		avc_cache_settle(c);
		hit_all(c);
		avc_cache_set_threshold(c, 2048);
		for (k = 0; k < 64; k++)
			lookup(0x7f000000 + fresh++, 31, 37);
		avc_cache_settle(c);
		/*
		 * Inline, a lowered threshold takes effect a section per
		 * insert: the bound is the one before it.
		 */
		if (c->reclaimer == AVC_RECLAIMER_INLINE)
			avc_cache_set_threshold(c, thr[i]);
		avc_cache_hash_stats(c, &hs);
		check_quiet("after the hot rounds");
		printf("  threshold %u: %u sections, at most %u nodes,",
		       thr[i], full_sections, max_nodes);
		printf(" %u at the budget, %u evicting a chunk; longest chain %d\n",
		       full_budget, full_chunk, hs.longest_chain);
		if (!full_sections)
			fail("threshold %u: no section\n", thr[i]);
		if (max_nodes > AVC_NODE_BUDGET)
			fail("threshold %u: a section examined %u nodes, budget %d\n",
			     thr[i], max_nodes, AVC_NODE_BUDGET);
		if (hs.longest_chain > AVC_CHAIN_MAX)
			fail("threshold %u: a chain of %d\n", thr[i],
			     hs.longest_chain);
		/*
		 * A hot table: lru's sections spend the budget, both passes
		 * counted, and evict their chunk.
		 */
		if (reclaim == AVC_RECLAIM_LRU &&
		    (!full_budget || !full_chunk))
			fail("threshold %u: no lru section at the budget (%u), a chunk (%u)\n",
			     thr[i], full_budget, full_chunk);
		avc_cache_flush(c);
	}
}

/*
 * The convoy (rcu mode, inline): misses waiting for the reclaim lock hold
 * no place.  The cache at a threshold of 2, the test holds the reclaim
 * lock, and a herd of four distinct fresh keys misses: each member finds
 * the cache full, so it waits for the lock (20 ms is ample for all four
 * to reach it).  While they wait, the places taken must be the
 * threshold's and no more: waiters that kept their places would count as
 * entries, and this convoy, longer than the threshold, would then hold
 * every place once the first section had evicted the two entries, so
 * that none of its keys is cached (a 32-CPU guest at threshold 16 formed
 * such a convoy).  Released, the first section makes room and at least
 * one member's key must be linked; the others may find the room taken.
 */
static void test_convoy(unsigned int rounds)
{
	enum { THR = 2 };
	struct avc_cache *c = avc_rcu_cache();
	struct worker w[HERD] = { 0 };
	unsigned int r, held, worst = 0;
	unsigned long flags, linked;
	u32 fill = 0x50000000;

	avc_cache_set_threshold(c, THR);
	avc_cache_settle(c);
	avc_cache_flush(c);
	herd_distinct = true;
	herd_start(w);
	for (r = 0; r < rounds; r++) {
		while (atomic_read(&c->active) < THR)
			lookup(fill++, 11, 13);
		__atomic_store_n(&herd_missed, 0, __ATOMIC_RELAXED);
		flags = avc_reclaim_lock(&c->locks, true);
		linked = __atomic_load_n(&linked_inserts, __ATOMIC_RELAXED);
		__atomic_store_n(&herd_key, 0x60000000 + 16 * r, __ATOMIC_RELEASE);
		pthread_barrier_wait(&herd_go);
		while (__atomic_load_n(&herd_missed, __ATOMIC_ACQUIRE) < HERD)
			sched_yield();
		usleep(20000);
		held = atomic_read(&c->active);
		avc_reclaim_unlock(&c->locks, true, flags);
		pthread_barrier_wait(&herd_done);
		linked = __atomic_load_n(&linked_inserts, __ATOMIC_RELAXED) - linked;
		if (held > worst)
			worst = held;
		if (held > THR)
			fail("round %u: %u places taken while %d misses waited, threshold %d\n",
			     r, held, HERD, THR);
		if (!linked)
			fail("round %u: none of %d misses cached after the convoy\n",
			     r, HERD);
		check_quiet("after a convoy");
	}
	herd_stop();
	printf("  %u convoys of %d at threshold %d, at most %u places taken while they waited\n",
	       r, HERD, THR, worst);
}

static const char *const tests[] = {
	"dense", "inflight", "herd", "scan", "allhot", "hot",
};

static int run_one(const char *test, enum avc_sync sync,
		   enum avc_reclaim_policy reclaim, enum avc_reclaimer where,
		   u64 ns, u64 seed)
{
	struct avc_rcu_config cfg = {
		.slots = strcmp(test, "scan") ? 512 : 65536,
		.sync = sync, .reclaim = reclaim, .hash_seed = (u32)seed | 1,
		.reclaimer = where,
	};
	static char name[64];
	unsigned long before = failures;
	int err;

	if (!strcmp(test, "herd") && where == AVC_RECLAIMER_BACKGROUND)
		return 0;
	snprintf(name, sizeof(name), "%s %s/%s/%s", test, avc_sync_name(sync),
		 avc_reclaim_name(reclaim), avc_reclaimer_name(where));
	current_run = name;
	printf("%s:\n", name);
	err = avc_rcu_setup(&cfg);
	if (err) {
		fail("setup: %d\n", err);
		return 1;
	}
	probes_reset();
	if (!strcmp(test, "dense")) {
		test_dense(ns, seed);
	} else if (!strcmp(test, "inflight")) {
		test_inflight(ns, seed);
	} else if (!strcmp(test, "herd")) {
		herd_distinct = false;
		test_herd(2000);
		probes_reset();
		herd_distinct = true;
		test_herd(500);
		if (sync == AVC_SYNC_RCU) {
			probes_reset();
			test_convoy(20);
		}
	} else if (!strcmp(test, "scan")) {
		test_scan(reclaim);
	} else if (!strcmp(test, "hot")) {
		test_hot(reclaim);
	} else {
		test_allhot(where == AVC_RECLAIMER_BACKGROUND);
	}
	avc_rcu_teardown();
	if (avc_native_slab_objects())
		fail("%ld nodes outlived the cache\n",
		     avc_native_slab_objects());
	fflush(stdout);
	return failures != before;
}

int main(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "seconds", required_argument, NULL, 't' },
		{ "sync", required_argument, NULL, 's' },
		{ "reclaim", required_argument, NULL, 'r' },
		{ "test", required_argument, NULL, 'T' },
		{ "seed", required_argument, NULL, 'S' },
		{ "preempt", required_argument, NULL, 'p' },
		{ "reclaimer", required_argument, NULL, 'R' },
		{ }
	};
	const char *sync_arg = "all", *reclaim_arg = "all", *test_arg = "all";
	const char *where_arg = "all";
	enum avc_reclaimer where;
	enum avc_reclaim_policy reclaim;
	double seconds = 1;
	unsigned int i;
	enum avc_sync sync;
	u64 seed = 0;
	int o, bad = 0;

	cli_init("avc_native_bound", 2);
	while ((o = getopt_long(argc, argv, "", opts, NULL)) != -1) {
		switch (o) {
		case 't':
			seconds = cli_real("--seconds", optarg, 0, 86400);
			break;
		case 's':
			sync_arg = optarg;
			break;
		case 'r':
			reclaim_arg = optarg;
			break;
		case 'T':
			test_arg = optarg;
			break;
		case 'S':
			seed = cli_number("--seed", optarg, 0, 0, ULLONG_MAX);
			break;
		case 'p':
			preempt_one_in = cli_number("--preempt", optarg, 0, 0,
						    UINT_MAX);
			break;
		case 'R':
			where_arg = optarg;
			break;
		default:
			fprintf(stderr, "usage: %s [--seconds S] [--sync MODE|all]\n"
				"\t[--reclaim POLICY|all] [--test NAME|all] [--seed N]\n"
				"\t[--preempt N] [--reclaimer background|inline|all]\n",
				argv[0]);
			return 2;
		}
	}
	if (!seed)
		seed = avc_native_random_u32() | (u64)avc_native_random_u32() << 32;
	printf("avc_native_bound: seed %llu, %ld host CPUs, preempt 1 in %u\n",
	       (unsigned long long)seed, sysconf(_SC_NPROCESSORS_ONLN),
	       preempt_one_in);
	if (avc_native_thread_enter() < 0)
		return 1;
	avc_native_set_probe(avc_rcu_reclaim, probe_reclaim);
	avc_native_set_probe(avc_rcu_insert, probe_insert);
	avc_native_set_probe(avc_rcu_miss, probe_miss);

	for (i = 0; i < ARRAY_SIZE(tests); i++) {
		if (strcmp(test_arg, "all") && strcmp(test_arg, tests[i]))
			continue;
		for (sync = AVC_SYNC_RCU; sync <= AVC_SYNC_RWLOCK; sync++) {
			if (strcmp(sync_arg, "all") &&
			    strcmp(sync_arg, avc_sync_name(sync)))
				continue;
			for (reclaim = AVC_RECLAIM_LRU;
			     reclaim <= AVC_RECLAIM_NEWEST; reclaim++) {
				if (strcmp(reclaim_arg, "all") &&
				    strcmp(reclaim_arg,
					   avc_reclaim_name(reclaim)))
					continue;
				for (where = AVC_RECLAIMER_INLINE;
				     where <= AVC_RECLAIMER_BACKGROUND; where++) {
					if (strcmp(where_arg, "all") &&
					    strcmp(where_arg,
						   avc_reclaimer_name(where)))
						continue;
					bad |= run_one(tests[i], sync, reclaim,
						       where,
						       (u64)(seconds * 1e9),
						       seed);
				}
			}
		}
	}
	printf("avc_native_bound: %s\n", bad ? "FAILED" : "all runs ok");
	return bad;
}
