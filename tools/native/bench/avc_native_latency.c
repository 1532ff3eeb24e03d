// SPDX-License-Identifier: GPL-2.0
/*
 * avc_native_latency: what one miss costs when it crosses the cache's
 * watermark and when it does not, what a reclaim section costs, and what a
 * hit costs as the cache grows, natively.
 *
 * The miss grid.  For each number of slots (0: the table follows
 * cache_threshold), cache_threshold, reclaimer and table temperature: one
 * thread pinned to CPU 0 (the background reclaimer's worker thread on the
 * other CPUs) makes a cache with that threshold at load time, fills it
 * with four times its threshold in fresh keys, then times misses of fresh
 * keys one by one (clock_gettime() around each avc_rcu_has_perm(), the
 * clock's own cost measured and subtracted).  The reclaimers:
 *
 *   inline      a miss that takes a place past cache_threshold runs one
 *               reclaim section; it *crosses* if a section ran in it (the
 *               avc_rcu_reclaim probe fired in the timed thread) or its
 *               decision was not cached (avc_rcu_insert result "full");
 *   background  a miss past the high watermark wakes the work item; it
 *               crosses if it queued the work (queue_work() returned true:
 *               the program wraps the shim's queue_work()) or its decision
 *               was not cached (the cache was at cache_threshold);
 *   6.1         upstream Linux 6.1's insert and reclaim (upstream61.c),
 *               whose miss crosses if its avc_reclaim_node() ran.
 *
 * The tables:
 *
 *   cold  fresh keys only: every entry was asked for once, so lru's first
 *         pass finds every node it examines unreferenced;
 *   hot   every entry linked in the cache has been hit since the last
 *         reclaim section before each timed miss: after each timed miss
 *         the program hits the key just inserted (if it was linked), and
 *         after each miss that ran a section (inline), woke the reclaimer
 *         (background: it then waits for the work item with
 *         avc_cache_settle() before it goes on) or reclaimed (6.1) it hits
 *         every entry of the table, the keys collected by a walk of the
 *         buckets.  The hits are untimed.  (6.1 has no referenced bit: its
 *         hot table differs from its cold one only in what the hits leave
 *         in the CPU's caches.)
 *
 * Each cell times enough misses for --crossings (default 1024) crossing
 * misses by the reclaimer's period (16 misses a section inline and 6.1; the
 * watermark gap, cache_threshold / 64, at least 16, a wake in the
 * background), at most --max-misses (default 131072); a hot cell above a
 * threshold of 8192, whose hits cost the most, proportionally fewer
 * crossings (at least 256: at 65536, 256), and a hot cell stops once it
 * has them (6.1 may reclaim in most misses where its table is sparse).  It reports p50,
 * p99, p99.9 and max of each kind of miss in nanoseconds, the ratio of
 * their p99s (the goal: at most 1.2), the share of misses whose decision
 * was not cached, the share that evicted one entry of a full bucket
 * (result "chain"), and the reclaim sections that ran during the timed
 * misses (avc_rcu_reclaim, in the timed thread or the worker): their count,
 * the p50, p99 and max of their duration_ns (time in the section, waiting
 * for the reclaim lock included, as a guest's trace reports it), and the
 * p50 and max of the nodes each examined (the goal: at most
 * AVC_NODE_BUDGET).  For 6.1 a section is one avc_reclaim_node(), timed
 * around it, its nodes those it evicted (every node it visits) and its
 * buckets those it tried.
 *
 * The hit grid (--hit-entries, default 512 8192 65536): a cache of
 * cache_threshold N, inline, on a table that follows it and on 512 pinned
 * slots, filled with N fresh keys; then hits of two working sets, timed in
 * batches of at least 4096 lookups, ns per hit: "hot64", 64 of the cached
 * keys picked across the table looked up round after round (the
 * avc_native_bench working set: what the chain walk costs), and "all",
 * every cached key in a shuffled order (what the table's size costs in
 * the CPU's caches as well).  Every lookup must be a hit (the cache's
 * statistics say so), or the program fails.
 *
 * The whole of each grid runs --reps times (default 3), the repetitions
 * interleaved, and each number printed is the median of the repetitions'
 * (nodes and buckets: their maximum), so that a spell of the machine's
 * other work moves none.
 *
 * The security server is the same for avc_rcu and 6.1, so the difference
 * is how a miss is cached.  Its policy (--rules R, default 131072): R
 * allow rules, one for each source SID 1..R with target SID 2 and class 3,
 * in the sorted array a computation binary-searches (17 steps at the
 * default).  A row's i-th fresh key is source 1 + (i * 2654435761 mod R)
 * (a permutation of 1..R, so that each search goes its own way and 6.1's
 * hash, which keeps the low bits, spreads them); past R keys, sources
 * beyond R, denied after the same search.
 *
 * The node allocator of the native shim is filled before each cache is
 * made (avc_native_slab_prefill()) with a node for every miss of a row,
 * so that no timed miss grows a slab.  liburcu's call_rcu() runs on a
 * callback thread of its own on CPU 1 that polls (URCU_CALL_RCU_RT), so
 * that a call_rcu() only queues, as the kernel's does: the default one
 * sleeps when idle, and the call_rcu() after that wakes it by a system
 * call, tens of microseconds in a virtual machine, all inside the section
 * timed.  avc_rcu's sections also pay for the
 * probe's two clock reads (duration_ns), which 6.1's do not.
 *
 *   avc_native_latency [--crossings N] [--max-misses N] [--reps N]
 *		[--slots "S..."] [--thresholds "T..."]
 *		[--reclaimers "inline background 6.1"] [--tables "hot cold"]
 *		[--policy lru|fifo|newest] [--rules R] [--csv FILE]
 *		[--hit-entries "N..."] [--hit-csv FILE]
 *
 * An empty list (--slots "" or --hit-entries "") leaves that grid out.  A
 * measurement, not a test: the exit status is 0 unless something could
 * not be set up or a hit of the hit grid missed.
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
#include <linux/workqueue.h>
#include "api.h"
#include "node.h"
#include <avc_native/cli.h>
#include <avc_native/setup.h>
#include "ss.h"
#include "avc_rcu_events.h"
#include "upstream61.h"

#define MAX_REPS	15
#define MAX_AXIS	8
#define TSID		2
#define TCLASS		3
/* A prime, so that i -> i * KEY_STEP mod R permutes 0..R-1 (key_ssid()). */
#define KEY_STEP	2654435761U
#define HOT_SET		64
#define HIT_BATCH	4096

enum reclaimer { R_INLINE, R_BACKGROUND, R_61, RECLAIMERS };
enum temp { T_HOT, T_COLD, TEMPS };

static const char *const reclaimer_names[RECLAIMERS] = {
	"inline", "background", "6.1",
};

static const char *const temp_names[TEMPS] = { "hot", "cold" };
static const char *const policy_names[] = { "lru", "fifo", "newest" };

/*
 * What the probes saw.  The timed thread's own events (a section run in
 * its miss, its insert's result, its wake of the worker) are flags it
 * reads after each call; the sections, which the worker runs too, go into
 * arrays under an atomic index, read once the worker has settled.
 */
static __thread bool timed_thread;
static bool reclaimed, woke;
static int insert_result;
static u32 *sec_ns, *sec_nodes;
static unsigned int sec_cap, sec_n, sec_buckets_max;
static bool sec_on;

static void probe_reclaim(unsigned int evicted, unsigned int nodes,
			  unsigned int buckets, int policy, int active,
			  unsigned int threshold, u64 duration_ns)
{
	unsigned int i;

	if (timed_thread)
		reclaimed = true;
	if (!__atomic_load_n(&sec_on, __ATOMIC_ACQUIRE))
		return;
	i = __atomic_fetch_add(&sec_n, 1, __ATOMIC_RELAXED);
	if (i < sec_cap) {
		sec_ns[i] = duration_ns;
		sec_nodes[i] = nodes;
	}
	if (buckets > __atomic_load_n(&sec_buckets_max, __ATOMIC_RELAXED))
		__atomic_store_n(&sec_buckets_max, buckets, __ATOMIC_RELAXED);
}

static void probe_insert(u32 ssid, u32 tsid, u16 tclass, u32 seqno,
			 unsigned int bucket, int result, int active)
{
	if (timed_thread)
		insert_result = result;
}

/* 6.1's reclaim, timed around avc_reclaim_node() (upstream61.c). */
static void probe_61(u64 duration_ns, unsigned int tried,
		     unsigned int evicted)
{
	probe_reclaim(evicted, evicted, tried, AVC_RECLAIM_NEWEST, 0, 0,
		      duration_ns);
}

/* The core's queue_work() calls land here (-Wl,--wrap=queue_work). */
bool __real_queue_work(struct workqueue_struct *wq, struct work_struct *work);
bool __wrap_queue_work(struct workqueue_struct *wq, struct work_struct *work)
{
	bool queued = __real_queue_work(wq, work);

	if (queued && timed_thread)
		woke = true;
	return queued;
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

/* The background reclaimer's gap between its watermarks (reclaim.c). */
static unsigned int watermark_gap(unsigned int thr)
{
	return thr - avc_watermark_high(thr);
}

/*
 * The keys (source SIDs) linked in the cache, by a walk of its buckets
 * under RCU; no resize may be in progress (the caller settled the work
 * item after the threshold was set).
 */
static unsigned int avc_keys(u32 *keys, unsigned int max)
{
	struct avc_cache *c = avc_rcu_cache();
	struct avc_node *node;
	struct avc_table *t;
	unsigned int i, n = 0;

	rcu_read_lock();
	t = rcu_dereference(c->table);
	if (rcu_access_pointer(t->future))
		die("the walk of a table being resized failed");
	for (i = 0; i <= t->mask; i++)
		hlist_for_each_entry_rcu(node, &t->slots[i], list)
			if (n < max)
				keys[n++] = node->ssid;
	rcu_read_unlock();
	return n;
}

/* One lookup, through avc_rcu or 6.1; *rec: 6.1's reclaim ran. */
static void lookup(int r, struct up61_cache *up, u32 ssid, bool *rec)
{
	struct avc_rcu_decision avd;
	bool dummy;

	if (r != R_61)
		avc_rcu_has_perm(ssid, TSID, TCLASS, 1, &avd);
	else
		up61_has_perm(up, ssid, TSID, TCLASS, 1, &avd,
			      rec ? rec : &dummy);
}

/* The hot pass: hit every entry of the table (untimed). */
static u32 *hot_keys;
static unsigned int hot_cap;

static void hot_pass(int r, struct up61_cache *up)
{
	unsigned int i, n;

	if (r == R_BACKGROUND)
		avc_cache_settle(avc_rcu_cache());
	n = r == R_61 ? up61_keys(up, hot_keys, hot_cap) :
	    avc_keys(hot_keys, hot_cap);
	for (i = 0; i < n; i++)
		lookup(r, up, hot_keys[i], NULL);
	/*
	 * A pass of 65536 hits takes milliseconds: on a busy machine the
	 * scheduler would take the CPU back in the next timed miss.  A short
	 * sleep gives the timed thread a fresh start (and liburcu's callback
	 * thread its turn).
	 */
	usleep(50);
}

/* A distribution as a row reports it: its count and quantiles. */
struct summary {
	unsigned int n;		/* values; none: the quantiles are not set */
	u32 q[4];		/* p50, p99, p99.9, max */
};

static const double quantiles[] = { 0.5, 0.99, 0.999, 1 };

/* One cell: slots, threshold, reclaimer, temperature. */
struct row {
	unsigned int misses;
	unsigned int table;	/* buckets of the table, at the end */
	struct summary plain;	/* misses that did not cross */
	struct summary cross;	/* misses that crossed */
	struct summary dur;	/* sections' duration_ns */
	struct summary nodes;	/* nodes each section examined */
	unsigned int wakes, full, chain, sections, buckets_max;
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
 * no median); none if none has.  @worst: the maximum instead.
 */
static void summary_median(const struct summary *reps, unsigned int nreps,
			   struct summary *med, bool worst)
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
		med->q[i] = worst ? v[0] : median(v, n);
		for (k = 1; worst && k < n; k++)
			med->q[i] = max(med->q[i], v[k]);
	}
}

#define MEDIAN_OF(field) ({						\
	u32 __v[MAX_REPS];						\
	unsigned int __k;						\
									\
	for (__k = 0; __k < nreps; __k++)				\
		__v[__k] = reps[__k].field;				\
	median(__v, nreps);						\
})

static void row_median(const struct row *reps, unsigned int nreps,
		       struct row *med)
{
	struct summary p[MAX_REPS], c[MAX_REPS], d[MAX_REPS], n[MAX_REPS];
	unsigned int k;

	memset(med, 0, sizeof(*med));
	for (k = 0; k < nreps; k++) {
		p[k] = reps[k].plain;
		c[k] = reps[k].cross;
		d[k] = reps[k].dur;
		n[k] = reps[k].nodes;
		med->buckets_max = max(med->buckets_max, reps[k].buckets_max);
	}
	summary_median(p, nreps, &med->plain, false);
	summary_median(c, nreps, &med->cross, false);
	summary_median(d, nreps, &med->dur, false);
	summary_median(n, nreps, &med->nodes, true);
	med->misses = MEDIAN_OF(misses);
	med->table = MEDIAN_OF(table);
	med->wakes = MEDIAN_OF(wakes);
	med->full = MEDIAN_OF(full);
	med->chain = MEDIAN_OF(chain);
	med->sections = MEDIAN_OF(sections);
}

/* The quantiles of @which (indices into quantiles[], -1 ending), or -. */
static void print_q(const struct summary *sum, const int *which, int width)
{
	char num[16];

	for (; *which >= 0; which++) {
		if (sum->n)
			snprintf(num, sizeof(num), "%u", sum->q[*which]);
		else
			snprintf(num, sizeof(num), "-");
		printf(" %*s", width, num);
	}
}

/*
 * A summary's CSV fields, each after a comma: its count if @count, then
 * the quantiles of @which, empty when it has no value.
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

static const int q_all[] = { 0, 1, 2, 3, -1 }, q_dur[] = { 0, 1, 3, -1 };
static const int q_nodes[] = { 0, 3, -1 };

static void print_row(FILE *csv, unsigned int slots, unsigned int thr,
		      int r, int temp, const char *pol, const struct row *w)
{
	char sl[16];

	if (slots)
		snprintf(sl, sizeof(sl), "%u", slots);
	else
		snprintf(sl, sizeof(sl), "f%u", w->table);
	printf("%6s %5u %-10s %-4s", sl, thr, reclaimer_names[r],
	       temp_names[temp]);
	print_q(&w->plain, q_all, 6);
	printf(" %5u", w->cross.n);
	print_q(&w->cross, q_all, 6);
	if (w->plain.n && w->cross.n)
		printf(" %5.2f", (double)w->cross.q[1] / max(w->plain.q[1], 1U));
	else
		printf(" %5s", "-");
	printf(" %5.1f %5.1f %5u", 100.0 * w->full / max(w->misses, 1U),
	       100.0 * w->chain / max(w->misses, 1U), w->sections);
	print_q(&w->dur, q_dur, 6);
	print_q(&w->nodes, q_nodes, 3);
	printf("\n");
	if (csv) {
		fprintf(csv, "%u,%u,%u,%s,%s,%s,%u", slots, w->table, thr,
			reclaimer_names[r], temp_names[temp], pol, w->misses);
		csv_summary(csv, &w->plain, true, q_all);
		csv_summary(csv, &w->cross, true, q_all);
		fprintf(csv, ",%u,%u,%u,%u", w->wakes, w->full, w->chain,
			w->sections);
		csv_summary(csv, &w->dur, false, q_dur);
		csv_summary(csv, &w->nodes, false, q_nodes);
		fprintf(csv, ",%u\n", w->buckets_max);
	}
}

/* How many misses a cell times (see the head comment). */
static unsigned int crossings = 1024, max_misses = 131072;

/*
 * A hot table hits every entry after each crossing: above a threshold of
 * 8192, proportionally fewer crossings (at least 256), so that a cell
 * hits at most about 8192 * --crossings entries.
 */
static unsigned int cell_crossings(unsigned int thr, int temp)
{
	u64 want = crossings;

	if (temp == T_HOT && thr > 8192)
		want = max(want * 8192 / thr, min(want, 256ULL));
	return want;
}

static unsigned int cell_misses(unsigned int thr, int r, int temp)
{
	u64 period = r == R_BACKGROUND ? watermark_gap(thr) :
		     AVC_RECLAIM_CHUNK;

	return min((u64)max_misses, period * cell_crossings(thr, temp));
}

static enum avc_reclaim_policy reclaim_policy = AVC_RECLAIM_LRU;

/* Time one cell's misses into @w, with @plain, @cross, @d as scratch. */
static void run(unsigned int slots, unsigned int thr, int r, int temp,
		u32 overhead, struct dist *plain, struct dist *cross,
		struct row *w)
{
	struct avc_rcu_config cfg = {
		.slots = slots, .threshold = thr, .sync = AVC_SYNC_RCU,
		.reclaim = r != R_61 ? reclaim_policy : AVC_RECLAIM_NEWEST,
		.hash_seed = 0x5eed,
		.reclaimer = r == R_BACKGROUND ? AVC_RECLAIMER_BACKGROUND :
			     AVC_RECLAIMER_INLINE,
	};
	unsigned int i, key = 0, misses = cell_misses(thr, r, temp);
	struct dist dd = { sec_ns }, dn = { sec_nodes };
	static struct avc_ss ss;
	struct up61_cache *up = NULL;
	struct avc_ss_loaded ld;
	bool rec, crossed;
	u64 t0, t1;
	u32 ns, s;

	if (avc_rcu_setup(&cfg))
		die("setup failed");
	if (policy && avc_rcu_load_policy(policy, policy_len))
		die("the policy's load failed");
	if (r == R_61) {
		if (avc_ss_init(&ss) ||
		    (policy && avc_ss_load(&ss, policy, policy_len, &ld)))
			die("6.1's policy failed");
		up = up61_create(&ss, slots, thr);
		if (!up)
			die("6.1's setup failed");
	}
	avc_cache_settle(avc_rcu_cache());
	for (i = 0; i < 4 * thr; i++)
		lookup(r, up, key_ssid(key++), NULL);
	if (r == R_BACKGROUND)
		avc_cache_settle(avc_rcu_cache());
	if (temp == T_HOT)
		hot_pass(r, up);
	plain->n = 0;
	cross->n = 0;
	memset(w, 0, sizeof(*w));
	w->misses = misses;
	sec_n = 0;
	sec_buckets_max = 0;
	__atomic_store_n(&sec_on, true, __ATOMIC_RELEASE);
	timed_thread = true;
	for (i = 0; i < misses; i++) {
		/* A hot cell ends at its crossings (6.1 may cross often). */
		if (temp == T_HOT && cross->n == cell_crossings(thr, temp))
			break;
		s = key_ssid(key++);
		reclaimed = false;
		woke = false;
		insert_result = -1;
		rec = false;
		t0 = now_ns();
		if (r != R_61) {
			struct avc_rcu_decision avd;

			avc_rcu_has_perm(s, TSID, TCLASS, 1, &avd);
		} else {
			struct avc_rcu_decision avd;

			up61_has_perm(up, s, TSID, TCLASS, 1, &avd, &rec);
		}
		t1 = now_ns();
		ns = t1 - t0 > overhead ? t1 - t0 - overhead : 0;
		if (r == R_61)
			crossed = rec;
		else if (r == R_BACKGROUND)
			crossed = woke || insert_result == AVC_INSERT_FULL;
		else
			crossed = reclaimed ||
				  insert_result == AVC_INSERT_FULL;
		if (crossed)
			cross->v[cross->n++] = ns;
		else
			plain->v[plain->n++] = ns;
		w->wakes += woke;
		w->full += insert_result == AVC_INSERT_FULL;
		w->chain += insert_result == AVC_INSERT_CHAIN;
		if (temp == T_HOT) {
			timed_thread = false;
			if (r == R_61 || insert_result == AVC_INSERT_LINKED ||
			    insert_result == AVC_INSERT_CHAIN ||
			    insert_result == AVC_INSERT_REPLACED)
				lookup(r, up, s, NULL);
			if (crossed)
				hot_pass(r, up);
			timed_thread = true;
		}
		if (i % 256 == 255)
			avc_native_quiescent_state();
	}
	timed_thread = false;
	w->misses = i;
	avc_cache_settle(avc_rcu_cache());
	__atomic_store_n(&sec_on, false, __ATOMIC_RELEASE);
	w->table = r == R_61 ? slots : avc_cache_slots(avc_rcu_cache());
	if (up) {
		up61_destroy(up);
		avc_ss_destroy(&ss);
	}
	avc_rcu_teardown();

	summarize(plain, &w->plain);
	summarize(cross, &w->cross);
	w->sections = sec_n;
	dd.n = min(sec_n, sec_cap);
	dn.n = dd.n;
	summarize(&dd, &w->dur);
	summarize(&dn, &w->nodes);
	w->buckets_max = sec_buckets_max;
}

/*
 * The hit grid: ns per hit of the hot set and of every key, the median
 * batch and the 99th percentile of the batches, in a cache of @n entries
 * on @slots (0: following the threshold).
 */
struct hit_row {
	unsigned int table, linked, longest;
	u32 hot_p50, hot_p99, all_p50, all_p99;
};

static u32 *hit_keys;
static unsigned int hit_cap;

/* @rounds of @n keys, timed as one batch: ns per lookup, in tenths. */
static u32 hit_batch(const u32 *keys, unsigned int n, unsigned int rounds,
		     unsigned int *sink)
{
	struct avc_rcu_decision avd;
	unsigned int i, k;
	u64 t0, t1;

	t0 = now_ns();
	for (k = 0; k < rounds; k++)
		for (i = 0; i < n; i++)
			*sink += avc_rcu_has_perm(keys[i], TSID, TCLASS, 1,
						  &avd);
	t1 = now_ns();
	return (t1 - t0) * 10 / ((u64)n * rounds);
}

static void hit_run(unsigned int n, unsigned int slots, struct hit_row *h)
{
	struct avc_rcu_config cfg = {
		.slots = slots, .threshold = n, .sync = AVC_SYNC_RCU,
		.reclaim = reclaim_policy, .hash_seed = 0x5eed,
		.reclaimer = AVC_RECLAIMER_INLINE,
	};
	static u32 hot[HOT_SET], v[256];
	struct avc_cache_stats s0, s1;
	struct avc_hash_stats hs;
	struct dist d = { v, ARRAY_SIZE(v) };
	unsigned int i, j, cnt, sink = 0, rounds;
	u32 x, x0;

	if (avc_rcu_setup(&cfg))
		die("setup failed");
	if (policy && avc_rcu_load_policy(policy, policy_len))
		die("the policy's load failed");
	avc_cache_settle(avc_rcu_cache());
	for (i = 0; i < n; i++)
		lookup(R_INLINE, NULL, key_ssid(i), NULL);
	cnt = avc_keys(hit_keys, hit_cap);
	avc_cache_hash_stats(avc_rcu_cache(), &hs);
	h->table = avc_cache_slots(avc_rcu_cache());
	h->linked = cnt;
	h->longest = hs.longest_chain;
	/* The hot set: 64 keys across the table, in no bucket's order. */
	for (i = 0; i < HOT_SET; i++)
		hot[i] = hit_keys[(u64)i * KEY_STEP % cnt];
	/* Every key, shuffled (a fixed xorshift: the same order each run). */
	for (i = cnt - 1, x = 2463534242U; i > 0; i--) {
		x ^= x << 13;
		x ^= x >> 17;
		x ^= x << 5;
		j = x % (i + 1);
		x0 = hit_keys[i];
		hit_keys[i] = hit_keys[j];
		hit_keys[j] = x0;
	}
	avc_cache_stats_sum(avc_rcu_cache(), &s0);
	for (i = 0; i < ARRAY_SIZE(v); i++)
		v[i] = hit_batch(hot, HOT_SET, HIT_BATCH / HOT_SET, &sink);
	qsort(v, d.n, sizeof(u32), cmp_u32);
	h->hot_p50 = quantile(&d, 0.5);
	h->hot_p99 = quantile(&d, 0.99);
	/* At most about 2^20 lookups of every key, at least 16 batches. */
	rounds = max(1U, HIT_BATCH / cnt);
	d.n = max((1U << 20) / (cnt * rounds), 16U);
	if (d.n > ARRAY_SIZE(v))
		d.n = ARRAY_SIZE(v);
	for (i = 0; i < d.n; i++)
		v[i] = hit_batch(hit_keys, cnt, rounds, &sink);
	qsort(v, d.n, sizeof(u32), cmp_u32);
	h->all_p50 = quantile(&d, 0.5);
	h->all_p99 = quantile(&d, 0.99);
	avc_cache_stats_sum(avc_rcu_cache(), &s1);
	if (s1.misses != s0.misses)
		die("%u of the hit grid's lookups missed", s1.misses - s0.misses);
	avc_rcu_teardown();
	/* Keep the lookups: their results are used. */
	if (sink == 0xdeadbeef)
		printf("\n");
}

static void hit_grid(const unsigned int *ents, unsigned int nents,
		     unsigned int reps, const char *csv_path)
{
	static const unsigned int hit_slots[] = { 0, 512 };
	struct hit_row *rows, med;
	unsigned int i, j, k, nrows = nents * ARRAY_SIZE(hit_slots);
	FILE *csv = NULL;
	u32 v[4][MAX_REPS];

	rows = calloc((size_t)nrows * reps, sizeof(*rows));
	if (!rows)
		die("allocation failed");
	/* A warm-up, not counted: the first cache the program's hits see. */
	hit_run(ents[0], hit_slots[0], &rows[0]);
	for (k = 0; k < reps; k++)
		for (i = 0; i < nents; i++)
			for (j = 0; j < ARRAY_SIZE(hit_slots); j++)
				hit_run(ents[i], hit_slots[j],
					&rows[(i * ARRAY_SIZE(hit_slots) + j) *
					      reps + k]);
	if (csv_path) {
		csv = fopen(csv_path, "w");
		if (!csv)
			die("%s: %s", csv_path, strerror(errno));
		fputs("entries,slots,table_slots,linked,longest_chain,", csv);
		fputs("hot64_p50,hot64_p99,all_p50,all_p99\n", csv);
	}
	printf("\nhits, ns per lookup, p50 and p99 of batches of %u or more,\n",
	       HIT_BATCH);
	printf("each the median of %u repetition%s:\n", reps,
	       reps > 1 ? "s" : "");
	printf("entries  slots  table linked chain  hot64 p50    p99    all p50    p99\n");
	for (i = 0; i < nents; i++)
		for (j = 0; j < ARRAY_SIZE(hit_slots); j++) {
			struct hit_row *r = &rows[(i * ARRAY_SIZE(hit_slots) +
						   j) * reps];

			for (k = 0; k < reps; k++) {
				v[0][k] = r[k].hot_p50;
				v[1][k] = r[k].hot_p99;
				v[2][k] = r[k].all_p50;
				v[3][k] = r[k].all_p99;
			}
			med = r[0];
			med.hot_p50 = median(v[0], reps);
			med.hot_p99 = median(v[1], reps);
			med.all_p50 = median(v[2], reps);
			med.all_p99 = median(v[3], reps);
			printf("%7u %6s %6u %6u %5u  %9.1f %6.1f %10.1f %6.1f\n",
			       ents[i], hit_slots[j] ? "512" : "follow",
			       med.table, med.linked, med.longest,
			       med.hot_p50 / 10.0, med.hot_p99 / 10.0,
			       med.all_p50 / 10.0, med.all_p99 / 10.0);
			if (csv)
				fprintf(csv, "%u,%u,%u,%u,%u,%.1f,%.1f,%.1f,%.1f\n",
					ents[i], hit_slots[j], med.table,
					med.linked, med.longest,
					med.hot_p50 / 10.0, med.hot_p99 / 10.0,
					med.all_p50 / 10.0, med.all_p99 / 10.0);
		}
	if (csv)
		fclose(csv);
	free(rows);
}

/*
 * A list of numbers, spaces or commas between, into @v: how many, more
 * than @max if there are more.
 */
static unsigned int parse_list(const char *opt, const char *s,
			       unsigned int *v, unsigned int max)
{
	char *copy = strdup(s), *tok, *save = NULL;
	unsigned int n = 0;

	if (!copy)
		die("out of memory");
	for (tok = strtok_r(copy, " ,", &save); tok;
	     tok = strtok_r(NULL, " ,", &save)) {
		if (n == max) {
			n = max + 1;
			break;
		}
		v[n++] = cli_number(opt, tok, 0, 0, UINT_MAX);
	}
	free(copy);
	return n;
}

/* A list of names out of @names: a bit for each, 0 if one is unknown. */
static unsigned int parse_names(const char *s, const char *const *names,
				unsigned int n)
{
	unsigned int bits = 0, i, len;

	while (*s) {
		len = strcspn(s, " ,");
		for (i = 0; i < n; i++)
			if (strlen(names[i]) == len && !strncmp(s, names[i], len))
				break;
		if (i == n)
			return 0;
		bits |= 1U << i;
		s += len;
		while (*s == ' ' || *s == ',')
			s++;
	}
	return bits;
}

static void work_nop(struct work_struct *work)
{
}

/*
 * What a wake of the idle worker costs the thread that queues the work:
 * the median of 64, each after the worker went back to sleep.
 */
static u32 wake_cost(void)
{
	struct work_struct w;
	static u32 v[64];
	struct dist d = { v, ARRAY_SIZE(v) };
	unsigned int i;
	u64 t0;

	INIT_WORK(&w, work_nop);
	for (i = 0; i < ARRAY_SIZE(v); i++) {
		usleep(1000);
		t0 = now_ns();
		queue_work(system_unbound_wq, &w);
		v[i] = now_ns() - t0;
		flush_work(&w);
	}
	qsort(v, d.n, sizeof(u32), cmp_u32);
	return quantile(&d, 0.5);
}

/*
 * liburcu's callback thread, of the kind that polls every 10 ms (RT): a
 * call_rcu() only queues, as the kernel's does, and never wakes a thread
 * with a system call; on CPU 1, off the timed thread's CPU 0, so that its
 * grace periods and frees do not preempt a timed miss.  Every thread that
 * frees (the timed one, the worker) uses it.
 */
static struct call_rcu_data *callback_thread;

/* The worker thread's: leave CPU 0 to the timed thread. */
static void pin_worker(struct work_struct *work)
{
	cpu_set_t set;
	long i, n = sysconf(_SC_NPROCESSORS_ONLN);

	CPU_ZERO(&set);
	for (i = 1; i < n && i < CPU_SETSIZE; i++)
		CPU_SET(i, &set);
	if (n > 1)
		sched_setaffinity(0, sizeof(set), &set);
	set_thread_call_rcu_data(callback_thread);
}

/*
 * The cells of the miss grid, one index each: slots, then threshold, then
 * reclaimer, then table, the last varying fastest.
 */
#define CELL_T(c)		((c) % TEMPS)
#define CELL_R(c)		((c) / TEMPS % RECLAIMERS)
#define CELL_THR(c, nthrs)	((c) / (TEMPS * RECLAIMERS) % (nthrs))
#define CELL_SLOTS(c, nthrs)	((c) / (TEMPS * RECLAIMERS * (nthrs)))

/* Whether cell @c is measured: chosen, and 6.1 only on pinned slots. */
static bool cell_on(unsigned int c, const unsigned int *slots,
		    unsigned int nthrs, unsigned int rbits, unsigned int tbits)
{
	return rbits & 1U << CELL_R(c) && tbits & 1U << CELL_T(c) &&
	       (CELL_R(c) != R_61 || slots[CELL_SLOTS(c, nthrs)]);
}

static void print_usage(const char *argv0)
{
	fprintf(stderr, "usage: %s [--crossings N] [--max-misses N] [--reps N]\n"
		"\t[--slots \"S...\"] [--thresholds \"T...\"]\n"
		"\t[--reclaimers \"inline background 6.1\"] [--tables \"hot cold\"]\n"
		"\t[--policy lru|fifo|newest] [--rules R] [--csv FILE]\n"
		"\t[--hit-entries \"N...\"] [--hit-csv FILE]\n", argv0);
	exit(2);
}

int main(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "crossings", required_argument, NULL, 'x' },
		{ "max-misses", required_argument, NULL, 'm' },
		{ "csv", required_argument, NULL, 'c' },
		{ "slots", required_argument, NULL, 's' },
		{ "thresholds", required_argument, NULL, 't' },
		{ "reclaimers", required_argument, NULL, 'R' },
		{ "tables", required_argument, NULL, 'T' },
		{ "policy", required_argument, NULL, 'p' },
		{ "rules", required_argument, NULL, 'r' },
		{ "reps", required_argument, NULL, 'n' },
		{ "hit-entries", required_argument, NULL, 'e' },
		{ "hit-csv", required_argument, NULL, 'h' },
		{ }
	};
	unsigned int slots[MAX_AXIS] = { 512, 8192, 65536, 0 }, nslots = 4;
	unsigned int thrs[MAX_AXIS] = { 512, 8192, 65536 }, nthrs = 3;
	unsigned int ents[MAX_AXIS] = { 512, 8192, 65536 }, nents = 3;
	unsigned int rbits = 7, tbits = 3, pbits;
	unsigned int reps = 3, i, j, k, c, nrows, thr_max = 0, misses_max = 0;
	const char *csv_path = NULL, *hit_csv = NULL;
	struct dist plain, cross;
	struct row *rows, med;
	struct work_struct pin;
	FILE *csv = NULL;
	cpu_set_t set;
	u32 overhead;
	int o, r;

	cli_init("avc_native_latency", 2);
	while ((o = getopt_long(argc, argv, "", opts, NULL)) != -1) {
		switch (o) {
		case 'x':
			crossings = cli_number("--crossings", optarg, 0, 1,
					       UINT_MAX);
			break;
		case 'm':
			max_misses = cli_number("--max-misses", optarg, 0, 1,
						UINT_MAX);
			break;
		case 'c':
			csv_path = optarg;
			break;
		case 's':
			nslots = parse_list("--slots", optarg, slots, MAX_AXIS);
			break;
		case 't':
			nthrs = parse_list("--thresholds", optarg, thrs,
					   MAX_AXIS);
			break;
		case 'R':
			rbits = parse_names(optarg, reclaimer_names,
					    RECLAIMERS);
			if (!rbits)
				print_usage(argv[0]);
			break;
		case 'T':
			tbits = parse_names(optarg, temp_names, TEMPS);
			if (!tbits)
				print_usage(argv[0]);
			break;
		case 'p':
			pbits = parse_names(optarg, policy_names, 3);
			if (!pbits || (pbits & (pbits - 1)))
				print_usage(argv[0]);
			reclaim_policy = __builtin_ctz(pbits);
			break;
		case 'r':
			rules = cli_number("--rules", optarg, 0, 0, MAX_RULES);
			break;
		case 'n':
			reps = cli_number("--reps", optarg, 0, 1, MAX_REPS);
			break;
		case 'e':
			nents = parse_list("--hit-entries", optarg, ents,
					   MAX_AXIS);
			break;
		case 'h':
			hit_csv = optarg;
			break;
		default:
			print_usage(argv[0]);
		}
	}
	if (optind != argc || nslots > MAX_AXIS || nthrs > MAX_AXIS ||
	    nents > MAX_AXIS)
		print_usage(argv[0]);
	for (i = 0; i < nslots; i++)
		if (slots[i] && (slots[i] & (slots[i] - 1) ||
				 slots[i] > AVC_RCU_SLOTS_MAX))
			print_usage(argv[0]);
	for (j = 0; j < nthrs; j++)
		if (!thrs[j] || thrs[j] > AVC_RCU_THRESHOLD_MAX)
			print_usage(argv[0]);
	for (j = 0; j < nents; j++)
		if (!ents[j] || ents[j] > AVC_RCU_THRESHOLD_MAX)
			print_usage(argv[0]);
	if (!nthrs)
		nslots = 0;
	for (j = 0; j < nthrs; j++) {
		thr_max = max(thr_max, thrs[j]);
		for (r = 0; r < RECLAIMERS; r++)
			misses_max = max(misses_max,
					 cell_misses(thrs[j], r, T_COLD));
	}
	for (j = 0; j < nents; j++)
		thr_max = max(thr_max, ents[j]);

	/* The worker thread first, off CPU 0; then this thread on CPU 0. */
	if (avc_native_thread_enter() < 0)
		return 1;
	callback_thread = create_call_rcu_data(URCU_CALL_RCU_RT,
					       sysconf(_SC_NPROCESSORS_ONLN) > 1 ?
					       1 : -1);
	if (!callback_thread)
		die("liburcu's callback thread failed");
	set_thread_call_rcu_data(callback_thread);
	INIT_WORK(&pin, pin_worker);
	queue_work(system_unbound_wq, &pin);
	flush_work(&pin);
	CPU_ZERO(&set);
	CPU_SET(0, &set);
	sched_setaffinity(0, sizeof(set), &set);
	avc_native_set_probe(avc_rcu_reclaim, probe_reclaim);
	avc_native_set_probe(avc_rcu_insert, probe_insert);
	up61_reclaim_probe = probe_61;
	/* A node for every miss of a row, the fill's included. */
	avc_native_slab_prefill(4UL * thr_max + misses_max);
	plain.v = calloc(misses_max, sizeof(u32));
	cross.v = calloc(misses_max, sizeof(u32));
	sec_cap = misses_max + 1024;
	sec_ns = calloc(sec_cap, sizeof(u32));
	sec_nodes = calloc(sec_cap, sizeof(u32));
	hot_cap = 4 * thr_max + misses_max;
	hot_keys = calloc(hot_cap, sizeof(u32));
	hit_cap = hot_cap;
	hit_keys = hot_keys;
	nrows = nslots * nthrs * RECLAIMERS * TEMPS;
	rows = calloc((size_t)nrows * reps, sizeof(*rows));
	if (!plain.v || !cross.v || !sec_ns || !sec_nodes || !hot_keys ||
	    !rows || policy_make())
		return 1;
	if (csv_path && nrows) {
		csv = fopen(csv_path, "w");
		if (!csv)
			die("%s: %s", csv_path, strerror(errno));
		fputs("slots,table_slots,threshold,reclaimer,table,policy,misses,", csv);
		fputs("plain,p50,p99,p999,max,crossing,c_p50,c_p99,c_p999,c_max,", csv);
		fputs("wakes,full,chain,sections,s_p50,s_p99,s_max,", csv);
		fputs("nodes_p50,nodes_max,buckets_max\n", csv);
	}
	overhead = timer_cost();
	printf("avc_native_latency: fresh-key misses, one timed thread on CPU 0, rcu mode,\n"
	       "reclaim=%s, a policy of %u rules; ns, the timer's %u ns taken off;\n"
	       "a wake of the idle worker %u ns; %u crossing misses a cell, at most\n"
	       "%u misses; node budget %u; each number the median of %u\n"
	       "repetition%s (nodes, buckets: the maximum)\n",
	       policy_names[reclaim_policy], rules, overhead, wake_cost(),
	       crossings, max_misses, AVC_NODE_BUDGET, reps,
	       reps > 1 ? "s, interleaved" : "");
	if (nrows) {
		printf("%-27s%-28s%-35s%-6s%-12s%s\n", "",
		       "miss, not crossing", "miss that crosses",
		       "p99", "% of misses", "reclaim sections");
		printf(" slots   thr reclaimer  tbl    p50    p99  p99.9    max");
		printf("     n    p50    p99  p99.9    max ratio  full chain");
		printf("     n ns p50    p99    max  nodes\n");
	}
	/* Rows in order, repetitions interleaved: a slow spell hits one. */
	for (k = 0; k < reps; k++)
		for (c = 0; c < nrows; c++)
			if (cell_on(c, slots, nthrs, rbits, tbits))
				run(slots[CELL_SLOTS(c, nthrs)],
				    thrs[CELL_THR(c, nthrs)], CELL_R(c),
				    CELL_T(c), overhead, &plain, &cross,
				    &rows[c * reps + k]);
	for (c = 0; c < nrows; c++) {
		if (!cell_on(c, slots, nthrs, rbits, tbits))
			continue;
		row_median(&rows[c * reps], reps, &med);
		print_row(csv, slots[CELL_SLOTS(c, nthrs)],
			  thrs[CELL_THR(c, nthrs)], CELL_R(c), CELL_T(c),
			  policy_names[reclaim_policy], &med);
	}
	if (csv)
		fclose(csv);
	if (nents)
		hit_grid(ents, nents, reps, hit_csv);
	return 0;
}
