// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit tests of the cache core: which entries each reclaim policy evicts
 * (the order the policies promise, entry by entry), what one reclaim
 * section may examine and when it may evict at all (the node budget on a
 * hot table, the by-age fallback, the herd's re-check, the reach), the
 * full bucket's eviction, the background reclaimer's watermarks and
 * verdict, what becomes of an insert (linked, replaced, dropped as stale
 * or raced, not cached when full) and the places it takes, a replacement's
 * referenced bit, resets racing each other and inserts, replacements and
 * resizes under lockless readers, the resize's moves (stale, duplicate,
 * into a full bucket), a random seed never 0, the wrap-safe seqno order
 * and the has-perm verdict.
 *
 * Built into avc_rcu_kunit.ko with ss_kunit.c, never into avc_rcu.ko.  As
 * there, the sources under test are included (6.1 has no
 * VISIBLE_IF_KUNIT), so the eviction helpers, static in reclaim.c, are
 * called directly on a bucket whose contents the test chose.  The copy has
 * no tracepoints (NOTRACE: avc_rcu.ko defines the events, and one name may
 * not be registered twice) and a node cache of its own name, so that it
 * may run while avc_rcu.ko is loaded.
 */
#define NOTRACE
#define AVC_NODE_CACHE_NAME "avc_rcu_kunit_node"

/*
 * pr_fmt as cache.c sets it, before any header sets its own: the same
 * definition, which cache.c's then repeats, as it may.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt
#include <linux/random.h>

/*
 * The core's draws of a hash seed go through avc_kunit_random_u32(), which
 * a case may make return 0 (seed_never_zero); otherwise it is the kernel's
 * get_random_u32().
 */
static u32 avc_kunit_random_u32(void);
#define get_random_u32 avc_kunit_random_u32

#include "cache.c"
#include "reclaim.c"
#include "resize.c"
#include "stats.c"
#include "sync.c"

#include <kunit/test.h>
#include <linux/completion.h>
#include <linux/cpumask.h>
#include <linux/jiffies.h>
#include <linux/kthread.h>
#include <linux/wait.h>

#undef get_random_u32

/* Draws still to return 0 before the kernel's generator is asked again. */
static unsigned int avc_kunit_zero_draws;

static u32 avc_kunit_random_u32(void)
{
	if (avc_kunit_zero_draws) {
		avc_kunit_zero_draws--;
		return 0;
	}
	return get_random_u32();
}

#define NKEYS 8
/* The most kthreads a case starts beside the test's own thread. */
#define AVC_KUNIT_MAX_THREADS 8

struct avc_kunit_ctx {
	struct avc_ss ss;
	struct avc_cache *c;
	/* A case's kthreads, stopped by avc_kunit_exit() if the case is not. */
	struct task_struct *threads[AVC_KUNIT_MAX_THREADS];
	unsigned int nthreads;
};

/* The security server: keys (1, 2, 3) .. (NKEYS, 2, 3) allowed 1 << s. */
static int avc_kunit_init(struct kunit *test)
{
	struct avc_ss_loaded out;
	struct avc_kunit_ctx *x;
	char text[NKEYS * 24];
	size_t len = 0;
	unsigned int s;

	x = kunit_kzalloc(test, sizeof(*x), GFP_KERNEL);
	if (!x)
		return -ENOMEM;
	test->priv = x;
	if (avc_ss_init(&x->ss))
		return -ENOMEM;
	for (s = 1; s <= NKEYS; s++)
		len += scnprintf(text + len, sizeof(text) - len,
				 "allow %u 2 3 0x%x\n", s, 1U << s);
	return avc_ss_load(&x->ss, text, len, &out);
}

/*
 * The case's cache, with reclaim @policy (chosen before the cache exists,
 * as the module does): @slots buckets (0: following the threshold),
 * @threshold, hash seed 1, the @reclaimer.
 */
static void make_cache(struct kunit *test, enum avc_reclaim_policy policy,
		       unsigned int slots, unsigned int threshold,
		       enum avc_reclaimer reclaimer)
{
	struct avc_cache_params p = {
		.slots = slots, .threshold = threshold, .seed = 1,
		.reclaimer = reclaimer,
	};
	struct avc_kunit_ctx *x = test->priv;

	KUNIT_ASSERT_EQ(test, avc_reclaim_select(policy), 0);
	x->c = avc_cache_create(&x->ss, &p);
	KUNIT_ASSERT_FALSE(test, IS_ERR(x->c));
}

/* The cache's current table (the tests run no resize beside this). */
static struct avc_table *table(struct avc_cache *c)
{
	return rcu_dereference_protected(c->table, true);
}

/*
 * With reclaim @policy, a cache of one bucket, far from its threshold,
 * holding the keys 1 .. NKEYS inserted in that order: the bucket lists
 * them oldest first, 1 .. NKEYS, none referenced.
 */
static void fill(struct kunit *test, enum avc_reclaim_policy policy)
{
	struct avc_kunit_ctx *x = test->priv;
	struct avc_rcu_decision avd;
	unsigned int s;

	make_cache(test, policy, 1, 1000, AVC_RECLAIMER_INLINE);
	for (s = 1; s <= NKEYS; s++)
		KUNIT_ASSERT_EQ(test, avc_cache_has_perm(x->c, s, 2, 3, 1U << s,
							 &avd), 0);
	KUNIT_ASSERT_EQ(test, atomic_read(&x->c->active), NKEYS);
}

static void stop_kthreads(struct kunit *test);

static void avc_kunit_exit(struct kunit *test)
{
	struct avc_kunit_ctx *x = test->priv;

	if (!x)
		return;
	/* A failed assertion may have ended the case with its threads running. */
	stop_kthreads(test);
	if (!IS_ERR_OR_NULL(x->c))
		avc_cache_destroy(x->c);
	avc_ss_destroy(&x->ss);
	/* No cache exists now: back to the default policy. */
	avc_reclaim_select(AVC_RECLAIM_LRU);
}

/* Hit key @s: a lookup answered from the cache. */
static void hit(struct kunit *test, unsigned int s)
{
	struct avc_kunit_ctx *x = test->priv;
	struct avc_cache_stats before, after;
	struct avc_rcu_decision avd;

	avc_cache_stats_sum(x->c, &before);
	KUNIT_EXPECT_EQ(test, avc_cache_has_perm(x->c, s, 2, 3, 1U << s, &avd),
			0);
	avc_cache_stats_sum(x->c, &after);
	KUNIT_EXPECT_EQ_MSG(test, after.hits, before.hits + 1, "key %u", s);
}

/*
 * Bucket @idx as a string, oldest first: "1 2 3* 4", a star for a
 * referenced entry.
 */
static const char *bucket_at(struct kunit *test, unsigned int idx, char *buf,
			     size_t size)
{
	struct avc_kunit_ctx *x = test->priv;
	struct avc_node *node;
	size_t len = 0;

	buf[0] = '\0';
	hlist_for_each_entry(node, &table(x->c)->slots[idx], list)
		len += scnprintf(buf + len, size - len, "%s%u%s",
				 len ? " " : "", node->ssid,
				 node->referenced ? "*" : "");
	return buf;
}

/*
 * Free what the eviction helpers or a section chained (rcu mode), as a
 * section does once it is done.
 */
static void free_evicted(struct avc_cache *c)
{
	avc_node_free_evicted(c->evicted);
	c->evicted = NULL;
}

/*
 * One pass's eviction in bucket 0, under its lock as avc_reclaim_bucket()
 * takes it, for a section that still wants @want entries and may examine
 * @budget nodes: returns the entries evicted, and the nodes examined in
 * *@nodes.
 */
static unsigned int evict(struct kunit *test, enum avc_pass pass,
			  unsigned int want, unsigned int budget,
			  unsigned int *nodes)
{
	struct avc_kunit_ctx *x = test->priv;
	struct avc_section s = {
		.t = table(x->c), .got = AVC_RECLAIM_CHUNK - want,
	};
	unsigned long flags;

	flags = avc_bucket_lock(&x->c->locks, s.t->locks, 0);
	avc_evict(x->c, &s, 0, pass, budget);
	avc_bucket_unlock(&x->c->locks, s.t->locks, 0, flags);
	free_evicted(x->c);
	if (nodes)
		*nodes = s.nodes;
	return s.got - (AVC_RECLAIM_CHUNK - want);
}

/* Bucket 0 must read @want (see bucket_at()). */
static void expect_bucket(struct kunit *test, const char *want)
{
	char b[256];

	KUNIT_EXPECT_STREQ(test, bucket_at(test, 0, b, sizeof(b)), want);
}

/* CLOCK: the oldest unreferenced go; referenced ones get a second chance. */
static void evict_lru(struct kunit *test)
{
	unsigned int nodes;

	fill(test, AVC_RECLAIM_LRU);
	expect_bucket(test, "1 2 3 4 5 6 7 8");
	hit(test, 1);
	hit(test, 3);
	hit(test, 5);
	hit(test, 5);	/* a second hit changes nothing */
	expect_bucket(test, "1* 2 3* 4 5* 6 7 8");
	/*
	 * Two of the five cold ones, the oldest: 2 and 4.  The hand passes
	 * 1 and 3 on its way (their bit cleared), not 5, which is past
	 * where the chunk completed.
	 */
	KUNIT_EXPECT_EQ(test, evict(test, AVC_PASS_CLOCK, 2, AVC_NODE_BUDGET,
				    &nodes), 2U);
	KUNIT_EXPECT_EQ(test, nodes, 4U);
	expect_bucket(test, "1 3 5* 6 7 8");
	/* Now 1 and 3, whose second chance is spent, go first. */
	KUNIT_EXPECT_EQ(test, evict(test, AVC_PASS_CLOCK, 2, AVC_NODE_BUDGET,
				    NULL), 2U);
	expect_bucket(test, "5* 6 7 8");
	/* More than are cold: every cold one goes, 5 is passed over. */
	KUNIT_EXPECT_EQ(test, evict(test, AVC_PASS_CLOCK, 16, AVC_NODE_BUDGET,
				    &nodes), 3U);
	KUNIT_EXPECT_EQ(test, nodes, 4U);
	expect_bucket(test, "5");
	KUNIT_EXPECT_EQ(test, evict(test, AVC_PASS_CLOCK, 16, AVC_NODE_BUDGET,
				    NULL), 1U);
	expect_bucket(test, "");
	KUNIT_EXPECT_EQ(test, atomic_read(&((struct avc_kunit_ctx *)
					     test->priv)->c->active), 0);
}

/* Everything referenced: a first pass clears, evicting nothing. */
static void evict_lru_all_hot(struct kunit *test)
{
	unsigned int s, nodes;

	fill(test, AVC_RECLAIM_LRU);
	for (s = 1; s <= NKEYS; s++)
		hit(test, s);
	expect_bucket(test, "1* 2* 3* 4* 5* 6* 7* 8*");
	KUNIT_EXPECT_EQ(test, evict(test, AVC_PASS_CLOCK, 3, AVC_NODE_BUDGET,
				    &nodes), 0U);
	KUNIT_EXPECT_EQ(test, nodes, (unsigned int)NKEYS);
	expect_bucket(test, "1 2 3 4 5 6 7 8");
	KUNIT_EXPECT_EQ(test, evict(test, AVC_PASS_CLOCK, 3, AVC_NODE_BUDGET,
				    NULL), 3U);
	expect_bucket(test, "4 5 6 7 8");
}

/* The hand stops at the budget, whatever is left to evict. */
static void evict_budget(struct kunit *test)
{
	unsigned int nodes;

	fill(test, AVC_RECLAIM_LRU);
	hit(test, 2);
	KUNIT_EXPECT_EQ(test, evict(test, AVC_PASS_CLOCK, 16, 3, &nodes), 2U);
	KUNIT_EXPECT_EQ(test, nodes, 3U);
	expect_bucket(test, "2 4 5 6 7 8");
	KUNIT_EXPECT_EQ(test, evict(test, AVC_PASS_OLDEST, 16, 2, &nodes), 2U);
	KUNIT_EXPECT_EQ(test, nodes, 2U);
	expect_bucket(test, "5 6 7 8");
	/* newest walks to the tail first: too long a bucket is left whole. */
	KUNIT_EXPECT_EQ(test, evict(test, AVC_PASS_NEWEST, 16, 3, &nodes), 0U);
	KUNIT_EXPECT_EQ(test, nodes, 3U);
	expect_bucket(test, "5 6 7 8");
}

/* fifo: the oldest by insertion, hits or not. */
static void evict_fifo(struct kunit *test)
{
	unsigned int nodes;

	fill(test, AVC_RECLAIM_FIFO);
	hit(test, 1);
	KUNIT_EXPECT_EQ(test, evict(test, AVC_PASS_OLDEST, 3, AVC_NODE_BUDGET,
				    &nodes), 3U);
	KUNIT_EXPECT_EQ(test, nodes, 3U);
	expect_bucket(test, "4 5 6 7 8");
	KUNIT_EXPECT_EQ(test, evict(test, AVC_PASS_OLDEST, 16,
				    AVC_NODE_BUDGET, NULL), 5U);
	expect_bucket(test, "");
}

/* newest: the tail of the bucket, as upstream 6.1 evicts its head. */
static void evict_newest(struct kunit *test)
{
	unsigned int nodes;

	fill(test, AVC_RECLAIM_NEWEST);
	hit(test, 8);
	KUNIT_EXPECT_EQ(test, evict(test, AVC_PASS_NEWEST, 3, AVC_NODE_BUDGET,
				    &nodes), 3U);
	KUNIT_EXPECT_EQ(test, nodes, (unsigned int)NKEYS);
	expect_bucket(test, "1 2 3 4 5");
	KUNIT_EXPECT_EQ(test, evict(test, AVC_PASS_NEWEST, 16,
				    AVC_NODE_BUDGET, NULL), 5U);
	expect_bucket(test, "");
}

/*
 * The whole reclaim: past the threshold an insert evicts a chunk first;
 * reclaims counts the evicted entries, frees every unlinked node.
 */
static void reclaim_chunk(struct kunit *test)
{
	struct avc_kunit_ctx *x = test->priv;
	struct avc_cache_stats st;
	struct avc_rcu_decision avd;

	fill(test, AVC_RECLAIM_FIFO);
	avc_cache_set_threshold(x->c, NKEYS);
	avc_cache_settle(x->c);
	/* A key with no rule: denied, and cached all the same. */
	KUNIT_EXPECT_EQ(test, avc_cache_has_perm(x->c, 100, 2, 3, 1, &avd),
			-EACCES);
	avc_cache_stats_sum(x->c, &st);
	KUNIT_EXPECT_EQ(test, st.reclaims, (u32)NKEYS);
	KUNIT_EXPECT_EQ(test, st.allocations, (u32)NKEYS + 1);
	KUNIT_EXPECT_EQ(test, st.frees, (u32)NKEYS);
	expect_bucket(test, "100");
}

static void seqno_order(struct kunit *test)
{
	KUNIT_EXPECT_TRUE(test, avc_seqno_before(1, 2));
	KUNIT_EXPECT_FALSE(test, avc_seqno_before(2, 1));
	KUNIT_EXPECT_FALSE(test, avc_seqno_before(5, 5));
	KUNIT_EXPECT_TRUE(test, avc_seqno_before(U32_MAX, 0));
	KUNIT_EXPECT_FALSE(test, avc_seqno_before(0, U32_MAX));
	KUNIT_EXPECT_TRUE(test, avc_seqno_before(U32_MAX - 2, 1));
	KUNIT_EXPECT_TRUE(test, avc_seqno_before(0, 0x7fffffff));
	KUNIT_EXPECT_FALSE(test, avc_seqno_before(0x7fffffff, 0));
	KUNIT_EXPECT_TRUE(test, avc_seqno_before(0x80000001, 0));
}

static void verdict(struct kunit *test)
{
	struct avc_rcu_decision avd = { .allowed = 0x7 };

	KUNIT_EXPECT_EQ(test, avc_decide(&avd, 0), 0);
	KUNIT_EXPECT_EQ(test, avc_decide(&avd, 0x5), 0);
	KUNIT_EXPECT_EQ(test, avc_decide(&avd, 0x7), 0);
	KUNIT_EXPECT_EQ(test, avc_decide(&avd, 0x8), -EACCES);
	KUNIT_EXPECT_EQ(test, avc_decide(&avd, 0x9), -EACCES);
	KUNIT_EXPECT_EQ(test, avc_decide(&avd, ~0U), -EACCES);
	avd.flags = AVC_RCU_DECISION_PERMISSIVE;
	KUNIT_EXPECT_EQ(test, avc_decide(&avd, ~0U), 0);
	avd.allowed = 0;
	KUNIT_EXPECT_EQ(test, avc_decide(&avd, 0x1), 0);
}

/*
 * The background reclaimer's watermarks: below the threshold, a gap of
 * T / 64 (at least a chunk, at most T / 4, at least 1) to the high one and
 * as much again to the low one.
 */
static void watermarks(struct kunit *test)
{
	static const unsigned int t[] = {
		1, 2, 3, 4, 16, 63, 64, 100, 512, 1024, 8192, 65536, 1048576,
	};
	static const unsigned int high[] = {
		0, 1, 2, 3, 12, 48, 48, 84, 496, 1008, 8064, 64512, 1032192,
	};
	static const unsigned int low[] = {
		0, 0, 1, 2, 8, 33, 32, 68, 480, 992, 7936, 63488, 1015808,
	};
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(t); i++) {
		KUNIT_EXPECT_EQ_MSG(test, avc_watermark_high(t[i]), high[i],
				    "threshold %u", t[i]);
		KUNIT_EXPECT_EQ_MSG(test, avc_watermark_low(t[i]), low[i],
				    "threshold %u", t[i]);
	}
}

/* @linked entries linked, as many places taken, allocations - frees too. */
static void expect_places(struct kunit *test, int linked)
{
	struct avc_kunit_ctx *x = test->priv;
	struct avc_cache_stats st;
	struct avc_hash_stats hs;

	avc_cache_hash_stats(x->c, &hs);
	avc_cache_stats_sum(x->c, &st);
	KUNIT_EXPECT_EQ(test, hs.entries, linked);
	KUNIT_EXPECT_EQ_MSG(test, atomic_read(&x->c->active), linked,
			    "places taken, %d entries linked", hs.entries);
	KUNIT_EXPECT_EQ(test, st.allocations - st.frees, (u32)linked);
}

/* Look key (@s, 2, 3) up and expect a hit, whatever the verdict. */
static void touch(struct kunit *test, unsigned int s)
{
	struct avc_kunit_ctx *x = test->priv;
	struct avc_cache_stats before, after;
	struct avc_rcu_decision avd;

	avc_cache_stats_sum(x->c, &before);
	avc_cache_has_perm(x->c, s, 2, 3, 0, &avd);
	avc_cache_stats_sum(x->c, &after);
	KUNIT_EXPECT_EQ_MSG(test, after.hits, before.hits + 1, "key %u", s);
}

/*
 * A decision of policy @seqno for a key of source @ssid, every field but
 * the flags derived from the two: a reader can tell a whole one from a
 * torn or freed one.
 */
static void make_decision(struct avc_rcu_decision *avd, u32 ssid, u32 seqno)
{
	avd->allowed = ssid * 0x9e3779b1U ^ seqno * 0x85ebca6bU;
	avd->auditallow = ~avd->allowed;
	avd->auditdeny = ssid + seqno;
	avd->seqno = seqno;
	avd->flags = 0;
}

static bool decision_whole(const struct avc_rcu_decision *avd, u32 ssid)
{
	struct avc_rcu_decision want;

	make_decision(&want, ssid, avd->seqno);
	return !memcmp(avd, &want, sizeof(want));
}

/*
 * Insert a decision of policy @seqno for key (@ssid, @tsid, @tclass), as a
 * miss whose security server answered under that policy: the insert path
 * alone, with the seqno the test chooses.
 */
static void insert_decision(struct avc_cache *c, u32 ssid, u32 tsid,
			    u16 tclass, u32 seqno)
{
	struct avc_key k = { .ssid = ssid, .tsid = tsid, .tclass = tclass };
	struct avc_rcu_decision avd;

	make_decision(&avd, ssid, seqno);
	avc_insert(c, &k, &avd);
}

/*
 * The seqno of the decision cached for a key in *@seqno, and its node (to
 * compare, never to dereference); NULL if the key is not cached.  Every
 * table is searched, as a lookup that misses in the current one does.
 */
static const void *cached(struct avc_cache *c, u32 ssid, u32 tsid,
			  u16 tclass, u32 *seqno)
{
	struct avc_key k = { .ssid = ssid, .tsid = tsid, .tclass = tclass };
	struct avc_node *node;
	struct avc_table *t;

	rcu_read_lock();
	t = avc_table_current(c);
	node = avc_search(c, t, avc_hash(t, &k), &k);
	if (!node)
		node = avc_search_future(c, t, &k);
	if (node)
		*seqno = node->dec.seqno;
	rcu_read_unlock();
	return node;
}

/*
 * Every linked decision's policy is @seqno or newer; returns the entries
 * in every table, and the older ones in *@old.
 */
static int table_older_than(struct avc_cache *c, u32 seqno, int *old)
{
	struct avc_node *node;
	struct avc_table *t;
	unsigned int i;
	int n = 0;

	*old = 0;
	rcu_read_lock();
	for (t = avc_table_current(c); t; t = rcu_dereference(t->future))
		for (i = 0; i <= t->mask; i++)
			hlist_for_each_entry_rcu(node, &t->slots[i], list) {
				n++;
				*old += avc_seqno_before(node->dec.seqno,
							 seqno);
			}
	rcu_read_unlock();
	return n;
}

/* latest_seqno (a function: READ_ONCE() in an expectation floods its log). */
static u32 latest(const struct avc_cache *c)
{
	return READ_ONCE(c->latest_seqno);
}

/*
 * One section of the hand, under the reclaim lock as avc_reclaim() takes
 * it (whatever the count: the caller chose to run one): the section's
 * tallies in *@s.
 */
static unsigned int sweep(struct avc_cache *c, struct avc_section *s)
{
	unsigned long flags;

	memset(s, 0, sizeof(*s));
	rcu_read_lock();
	flags = avc_reclaim_lock(&c->locks, true);
	avc_reclaim_sweep(c, s);
	avc_reclaim_unlock(&c->locks, true, flags);
	rcu_read_unlock();
	free_evicted(c);
	return s->got;
}

/*
 * CLOCK on a bucket whose every entry is referenced: the hand's first pass
 * only clears bits, so a second goes over the bucket once more and evicts
 * by age, the oldest first (not the newest); the insert that took a place
 * past the threshold then links.  Without that second pass, hits could
 * keep a cache from reclaiming at all, and the insert would not be cached.
 */
static void reclaim_lru_all_referenced(struct kunit *test)
{
	enum { N = 24 };
	struct avc_kunit_ctx *x = test->priv;
	struct avc_cache_stats a, b;
	struct avc_rcu_decision avd;
	unsigned int s;

	make_cache(test, AVC_RECLAIM_LRU, 1, N, AVC_RECLAIMER_INLINE);
	for (s = 1; s <= N; s++)
		avc_cache_has_perm(x->c, s, 2, 3, 0, &avd);
	for (s = 1; s <= N; s++)
		touch(test, s);
	expect_bucket(test,
		      "1* 2* 3* 4* 5* 6* 7* 8* 9* 10* 11* 12* 13* 14* 15* 16* 17* 18* 19* 20* 21* 22* 23* 24*");
	expect_places(test, N);

	avc_cache_stats_sum(x->c, &a);
	avc_cache_has_perm(x->c, 100, 2, 3, 0, &avd);
	avc_cache_stats_sum(x->c, &b);
	/* 1 .. 16 went, by age; the bits of the rest were cleared. */
	expect_bucket(test, "17 18 19 20 21 22 23 24 100");
	KUNIT_EXPECT_EQ(test, b.misses - a.misses, 1U);
	KUNIT_EXPECT_EQ(test, b.reclaims - a.reclaims, (u32)AVC_RECLAIM_CHUNK);
	expect_places(test, N - AVC_RECLAIM_CHUNK + 1);
	touch(test, 100);
}

/*
 * The re-check under the reclaim lock.  Misses that arrive together at the
 * threshold each take a place and call avc_reclaim(), one after the other:
 * the first evicts a chunk, and the others, finding the cache within its
 * threshold again, must evict nothing: up to 16 misses at once evict one
 * chunk, not one each.  Played in sequence: sixteen misses in flight,
 * which a chunk brings back to the threshold exactly, where a section
 * must not start; then two.
 */
static void reclaim_herd_rechecks(struct kunit *test)
{
	enum { N = 40, HERD = 2 };
	struct avc_kunit_ctx *x = test->priv;
	struct avc_rcu_decision avd;
	unsigned int s;

	make_cache(test, AVC_RECLAIM_FIFO, 1, N, AVC_RECLAIMER_INLINE);
	for (s = 1; s <= N; s++)
		avc_cache_has_perm(x->c, s, 2, 3, 0, &avd);
	/* One bucket holds AVC_CHAIN_MAX: the first were evicted for it. */
	expect_places(test, AVC_CHAIN_MAX);
	avc_cache_set_threshold(x->c, AVC_CHAIN_MAX);
	avc_cache_settle(x->c);
	/* At the threshold, not past it: nothing to do. */
	KUNIT_EXPECT_EQ(test, avc_reclaim(x->c), 0U);

	/*
	 * Sixteen in flight: one chunk brings the places back to the
	 * threshold exactly, where no section may start.
	 */
	atomic_add(AVC_RECLAIM_CHUNK, &x->c->active);
	KUNIT_EXPECT_EQ(test, avc_reclaim(x->c), (u32)AVC_RECLAIM_CHUNK);
	KUNIT_EXPECT_EQ(test, avc_reclaim(x->c), 0U);
	atomic_sub(AVC_RECLAIM_CHUNK, &x->c->active);
	expect_places(test, AVC_CHAIN_MAX - AVC_RECLAIM_CHUNK);

	/* The places of two inserts in flight, as atomic_inc_return() took them. */
	avc_cache_set_threshold(x->c, AVC_CHAIN_MAX - AVC_RECLAIM_CHUNK);
	avc_cache_settle(x->c);
	atomic_add(HERD, &x->c->active);
	KUNIT_EXPECT_EQ(test, avc_reclaim(x->c), (u32)AVC_RECLAIM_CHUNK);
	KUNIT_EXPECT_EQ(test, avc_reclaim(x->c), 0U);
	atomic_sub(HERD, &x->c->active);
	expect_places(test, 0);
}

/*
 * A full bucket: an insert into a bucket of AVC_CHAIN_MAX entries evicts
 * one of them (lru: the oldest not referenced) before it links, so that a
 * chain never grows past what an insert's search may examine.
 */
static void chain_cap(struct kunit *test)
{
	struct avc_kunit_ctx *x = test->priv;
	struct avc_cache_stats st;
	struct avc_rcu_decision avd;
	char b[512];
	unsigned int s;

	make_cache(test, AVC_RECLAIM_LRU, 1, 1000, AVC_RECLAIMER_INLINE);
	for (s = 1; s <= AVC_CHAIN_MAX; s++)
		avc_cache_has_perm(x->c, s, 2, 3, 0, &avd);
	touch(test, 1);
	touch(test, 3);
	avc_cache_has_perm(x->c, 1000, 2, 3, 0, &avd);
	avc_cache_has_perm(x->c, 1001, 2, 3, 0, &avd);
	expect_places(test, AVC_CHAIN_MAX);
	avc_cache_stats_sum(x->c, &st);
	KUNIT_EXPECT_EQ(test, st.reclaims, 2U);
	/* 2 and 4 went, the oldest not referenced. */
	bucket_at(test, 0, b, sizeof(b));
	KUNIT_EXPECT_TRUE_MSG(test, !strncmp(b, "1* 3* 5 6 ", 10), "%s", b);
	touch(test, 1000);
	touch(test, 1001);

	/* Every entry referenced: the oldest goes, not the newest. */
	for (s = 5; s <= AVC_CHAIN_MAX; s++)
		touch(test, s);
	avc_cache_has_perm(x->c, 1002, 2, 3, 0, &avd);
	bucket_at(test, 0, b, sizeof(b));
	KUNIT_EXPECT_TRUE_MSG(test, !strncmp(b, "3* 5* ", 6), "%s", b);
	touch(test, 1001);
	touch(test, 1002);
}

static const enum avc_reclaim_policy reach_policies[] = {
	AVC_RECLAIM_LRU, AVC_RECLAIM_FIFO, AVC_RECLAIM_NEWEST,
};

static void reach_desc(const enum avc_reclaim_policy *p, char *desc)
{
	strscpy(desc, avc_reclaim_name(*p), KUNIT_PARAM_DESC_SIZE);
}

KUNIT_ARRAY_PARAM(reach, reach_policies, reach_desc);

/*
 * Link @n keys (@next on, @next advanced) whose buckets are in [@lo, @hi),
 * each a decision of the policy in force; hit each @hits times.
 */
static void place(struct kunit *test, u32 *next, unsigned int lo,
		  unsigned int hi, unsigned int n)
{
	struct avc_kunit_ctx *x = test->priv;
	struct avc_key k = { .tsid = 7, .tclass = 9 };
	unsigned int idx;

	while (n) {
		k.ssid = (*next)++;
		idx = avc_hash(table(x->c), &k);
		if (idx < lo || idx >= hi)
			continue;
		insert_decision(x->c, k.ssid, k.tsid, k.tclass,
				latest(x->c));
		n--;
	}
}

/* Set the referenced bit of every entry, as a hit on each would. */
static void hit_all(struct avc_cache *c)
{
	struct avc_table *t = table(c);
	struct avc_node *node;
	unsigned int i;

	for (i = 0; i <= t->mask; i++)
		hlist_for_each_entry(node, &t->slots[i], list)
			WRITE_ONCE(node->referenced, 1);
}

/*
 * One section's reach: in a table of 65536 buckets, sparse, a section
 * reads at most AVC_RECLAIM_BUCKETS bucket heads a pass (lru: two passes)
 * from the hand, and the hand moves on by as many; an inline insert whose
 * section finds nothing in reach is not cached, and gives its place back.
 */
static void reclaim_reach_cap(struct kunit *test)
{
	enum { SLOTS = 65536, NEAR = 4, FAR = 4 };
	const enum avc_reclaim_policy *policy = test->param_value;
	const unsigned int scan = AVC_RECLAIM_BUCKETS;
	unsigned int cap = scan * (*policy == AVC_RECLAIM_LRU ? 2 : 1);
	struct avc_kunit_ctx *x = test->priv;
	struct avc_cache_stats a, b;
	struct avc_section s;
	u32 next = 1, seqno;

	make_cache(test, *policy, SLOTS, 1000, AVC_RECLAIMER_INLINE);
	/*
	 * From a hand at bucket 0: NEAR entries beyond the first section's
	 * reach and within the second's, FAR beyond both and the third's.
	 */
	place(test, &next, scan + 88, 2 * scan, NEAR);
	place(test, &next, SLOTS / 2, SLOTS, FAR);
	expect_places(test, NEAR + FAR);

	x->c->reclaim_hint = 0;
	KUNIT_EXPECT_EQ(test, sweep(x->c, &s), 0U);
	KUNIT_EXPECT_EQ(test, s.buckets, cap);
	KUNIT_EXPECT_EQ(test, s.nodes, 0U);
	KUNIT_EXPECT_EQ(test, x->c->reclaim_hint, scan);

	KUNIT_EXPECT_EQ(test, sweep(x->c, &s), (u32)NEAR);
	KUNIT_EXPECT_EQ(test, s.buckets, cap);
	KUNIT_EXPECT_EQ(test, x->c->reclaim_hint, 2 * scan);
	expect_places(test, FAR);

	/* Past the threshold with nothing in reach: not cached. */
	avc_cache_set_threshold(x->c, FAR);
	avc_cache_settle(x->c);
	avc_cache_stats_sum(x->c, &a);
	insert_decision(x->c, 0xfffff, 7, 9, latest(x->c));
	avc_cache_stats_sum(x->c, &b);
	KUNIT_EXPECT_NULL(test, cached(x->c, 0xfffff, 7, 9, &seqno));
	KUNIT_EXPECT_EQ(test, b.reclaims, a.reclaims);
	KUNIT_EXPECT_EQ(test, x->c->reclaim_hint, 3 * scan);
	expect_places(test, FAR);
}

/*
 * Where lru's by-age pass starts: from where the CLOCK pass started, over
 * the buckets it passed, in a table larger than one section's reach.  A
 * hot table of two runs of buckets: the CLOCK pass clears the first run
 * and part of the second before its budget is spent; the by-age pass then
 * evicts the oldest of the first run, not of where the CLOCK pass stopped.
 */
static void reclaim_fallback_start(struct kunit *test)
{
	enum { SLOTS = 2048 };
	struct avc_kunit_ctx *x = test->priv;
	struct avc_table *t;
	struct avc_section s;
	struct avc_node *node;
	unsigned int i, first = 0, later = 0;
	u32 next = 1;

	make_cache(test, AVC_RECLAIM_LRU, SLOTS, 100000, AVC_RECLAIMER_INLINE);
	/* 40 entries in buckets 1..99, then 40 in 100..199. */
	place(test, &next, 1, 100, 40);
	place(test, &next, 100, 200, 40);
	hit_all(x->c);
	x->c->reclaim_hint = 0;
	KUNIT_EXPECT_EQ(test, sweep(x->c, &s), (u32)AVC_RECLAIM_CHUNK);
	KUNIT_EXPECT_EQ(test, s.nodes, (u32)AVC_NODE_BUDGET);
	t = table(x->c);
	for (i = 1; i < 200; i++)
		hlist_for_each_entry(node, &t->slots[i], list) {
			if (i < 100)
				first++;
			else
				later++;
		}
	KUNIT_EXPECT_EQ(test, first, 40U - AVC_RECLAIM_CHUNK);
	KUNIT_EXPECT_EQ(test, later, 40U);
}

/*
 * The node budget on a hot table: every entry referenced, chains of 16 on
 * average (8192 entries in 512 buckets) and of the most a bucket holds
 * (65536 asked of 512 buckets, 20000 keys): in each of 16 sections, every
 * entry referenced before it, none examines more than AVC_NODE_BUDGET
 * nodes and each still evicts a whole chunk.
 */
static void reclaim_budget_hot(struct kunit *test)
{
	static const unsigned int want[] = { 8192, 65536 };
	struct avc_kunit_ctx *x = test->priv;
	struct avc_rcu_decision avd;
	unsigned int i, n, keys, most;
	struct avc_section s;
	struct avc_hash_stats hs;

	for (i = 0; i < ARRAY_SIZE(want); i++) {
		make_cache(test, AVC_RECLAIM_LRU, 512, want[i],
			   AVC_RECLAIMER_INLINE);
		/* 512 buckets of 32 hold 16384: 20000 keys fill them. */
		keys = min(want[i], 20000U);
		for (n = 1; n <= keys; n++)
			avc_cache_has_perm(x->c, 0x10000 + n, 2, 3, 0, &avd);
		avc_cache_hash_stats(x->c, &hs);
		KUNIT_EXPECT_LE(test, hs.longest_chain, AVC_CHAIN_MAX);
		most = 0;
		for (n = 0; n < 16; n++) {
			hit_all(x->c);
			KUNIT_EXPECT_EQ(test, sweep(x->c, &s),
					(u32)AVC_RECLAIM_CHUNK);
			most = max(most, s.nodes);
			if (s.nodes > AVC_NODE_BUDGET)
				break;
		}
		kunit_info(test, "%u asked, %d entries, longest chain %d: at most %u nodes a section\n",
			   want[i], hs.entries, hs.longest_chain, most);
		KUNIT_EXPECT_LE(test, most, (u32)AVC_NODE_BUDGET);
		avc_cache_destroy(x->c);
		x->c = NULL;
	}
}

/*
 * The background reclaimer: no reclaim up to the high watermark; a place
 * past it wakes the reclaimer, which brings the cache down to the low one.
 */
static void background_watermarks(struct kunit *test)
{
	enum { T = 64 };
	struct avc_kunit_ctx *x = test->priv;
	unsigned int high = avc_watermark_high(T), low = avc_watermark_low(T);
	struct avc_rcu_decision avd;
	struct avc_cache_stats st;
	unsigned int s;
	int n;

	make_cache(test, AVC_RECLAIM_FIFO, 0, T, AVC_RECLAIMER_BACKGROUND);
	avc_cache_settle(x->c);
	for (s = 1; s <= high; s++)
		avc_cache_has_perm(x->c, s, 2, 3, 0, &avd);
	avc_cache_settle(x->c);
	avc_cache_stats_sum(x->c, &st);
	KUNIT_EXPECT_EQ(test, st.reclaims, 0U);
	expect_places(test, high);

	/* One more: woken, down to the low watermark, a chunk at a time. */
	avc_cache_has_perm(x->c, high + 1, 2, 3, 0, &avd);
	avc_cache_settle(x->c);
	n = atomic_read(&x->c->active);
	KUNIT_EXPECT_LE(test, n, (int)low);
	KUNIT_EXPECT_GT(test, n, (int)low - AVC_RECLAIM_CHUNK);
	avc_cache_stats_sum(x->c, &st);
	KUNIT_EXPECT_EQ(test, st.reclaims, high + 1 - n);
	expect_places(test, n);
}

static struct kunit_case avc_evict_cases[] = {
	KUNIT_CASE(evict_lru),
	KUNIT_CASE(evict_lru_all_hot),
	KUNIT_CASE(evict_budget),
	KUNIT_CASE(evict_fifo),
	KUNIT_CASE(evict_newest),
	KUNIT_CASE(reclaim_chunk),
	KUNIT_CASE(reclaim_lru_all_referenced),
	KUNIT_CASE(reclaim_herd_rechecks),
	KUNIT_CASE(chain_cap),
	KUNIT_CASE_PARAM(reclaim_reach_cap, reach_gen_params),
	KUNIT_CASE(reclaim_fallback_start),
	KUNIT_CASE(reclaim_budget_hot),
	KUNIT_CASE(background_watermarks),
	{}
};

static int avc_evict_suite_init(struct kunit_suite *suite)
{
	return avc_core_init();
}

static void avc_evict_suite_exit(struct kunit_suite *suite)
{
	avc_core_exit();
}

static struct kunit_suite avc_evict_suite = {
	.name = "avc_rcu_evict",
	.suite_init = avc_evict_suite_init,
	.suite_exit = avc_evict_suite_exit,
	.init = avc_kunit_init,
	.exit = avc_kunit_exit,
	.test_cases = avc_evict_cases,
};

/*
 * The @i-th online CPU but @skip (none if -1), round robin, for a kthread
 * to be bound to; -1 when @skip is the only one.
 */
static int other_cpu(unsigned int i, int skip)
{
	unsigned int n = num_online_cpus();
	int cpu;

	if (skip >= 0 && cpu_online(skip))
		n--;

	if (!n)
		return -1;
	i %= n;
	for_each_online_cpu(cpu)
		if (cpu != skip && !i--)
			return cpu;
	return -1;
}

/* Start a kthread running @fn(@data), on @cpu unless it is -1. */
static void start_kthread(struct kunit *test, int (*fn)(void *), void *data,
			  const char *name, int cpu)
{
	struct avc_kunit_ctx *x = test->priv;
	struct task_struct *t;

	KUNIT_ASSERT_LT(test, x->nthreads, (unsigned int)AVC_KUNIT_MAX_THREADS);
	t = kthread_create(fn, data, "avc_kunit_%s/%u", name, x->nthreads);
	KUNIT_ASSERT_FALSE_MSG(test, IS_ERR(t), "kthread_create: %ld",
			       PTR_ERR(t));
	if (cpu >= 0)
		kthread_bind(t, cpu);
	x->threads[x->nthreads++] = t;
	wake_up_process(t);
}

/* Stop every kthread the case started; each runs until told to stop. */
static void stop_kthreads(struct kunit *test)
{
	struct avc_kunit_ctx *x = test->priv;

	while (x->nthreads)
		kthread_stop(x->threads[--x->nthreads]);
}

/*
 * Two resets out of order: the older one, returning last, must not move
 * latest_seqno back, or a decision of the policy the newer one retired
 * could be inserted after both.  Across the wrap-around of the seqno too.
 * And what each insert becomes: stale, linked, raced, replaced.
 */
static void reset_out_of_order(struct kunit *test)
{
	struct avc_kunit_ctx *x = test->priv;
	u32 s, seqno;
	const void *n1;

	make_cache(test, AVC_RECLAIM_LRU, 64, 1000, AVC_RECLAIMER_INLINE);
	s = latest(x->c) + 1;
	avc_cache_reset(x->c, s + 1);
	avc_cache_reset(x->c, s);
	KUNIT_EXPECT_EQ(test, latest(x->c), s + 1);

	/* Stale: not linked, its place given back. */
	insert_decision(x->c, 1, 2, 3, s);
	KUNIT_EXPECT_NULL(test, cached(x->c, 1, 2, 3, &seqno));
	expect_places(test, 0);

	insert_decision(x->c, 1, 2, 3, s + 1);
	n1 = cached(x->c, 1, 2, 3, &seqno);
	KUNIT_EXPECT_NOT_NULL(test, n1);
	KUNIT_EXPECT_EQ(test, seqno, s + 1);
	expect_places(test, 1);
	/* Raced: the same decision, linked first by another miss. */
	insert_decision(x->c, 1, 2, 3, s + 1);
	KUNIT_EXPECT_PTR_EQ(test, cached(x->c, 1, 2, 3, &seqno), n1);
	expect_places(test, 1);
	/* Replaced: a newer decision, the old entry's place given back. */
	insert_decision(x->c, 1, 2, 3, s + 2);
	KUNIT_EXPECT_PTR_NE(test, cached(x->c, 1, 2, 3, &seqno), n1);
	KUNIT_EXPECT_EQ(test, seqno, s + 2);
	expect_places(test, 1);
	/* An older one than cached, if not retired, races: dropped. */
	insert_decision(x->c, 1, 2, 3, s + 1);
	cached(x->c, 1, 2, 3, &seqno);
	KUNIT_EXPECT_EQ(test, seqno, s + 2);
	expect_places(test, 1);

	/* Across 2^32: 1 is newer than U32_MAX. */
	WRITE_ONCE(x->c->latest_seqno, U32_MAX - 1);
	avc_cache_reset(x->c, 1);
	avc_cache_reset(x->c, U32_MAX);
	KUNIT_EXPECT_EQ(test, latest(x->c), 1U);
	expect_places(test, 0);
	insert_decision(x->c, 1, 2, 3, U32_MAX);
	KUNIT_EXPECT_NULL(test, cached(x->c, 1, 2, 3, &seqno));
	insert_decision(x->c, 1, 2, 3, 1);
	KUNIT_EXPECT_NOT_NULL(test, cached(x->c, 1, 2, 3, &seqno));
	expect_places(test, 1);
}

/* reset_race(): two resetters and two inserters, round after round. */
#define RACE_RESETTERS	2
#define RACE_INSERTERS	2
#define RACE_KEYS	8
#define RACE_ROUNDS	64

struct race {
	struct avc_cache *c;
	wait_queue_head_t start;
	struct completion done;
	u32 round;		/* published with smp_store_release() */
	u32 s;			/* the round's older seqno */
	atomic_t resets_done;
	atomic_t finished;
	unsigned int nthreads;
};

struct race_worker {
	struct race *r;
	unsigned int id;
	u32 round;
	unsigned long inserts;
};

/*
 * Insert decisions of seqno s and s + 1 in turn, for keys of our own,
 * until both resets have returned; then one of s for each key, which must
 * all be stale: inserts of the retired policy after both resets.
 */
static void race_insert(struct race_worker *w, u32 s)
{
	u32 key = 1000 * w->id;
	unsigned int i;

	for (i = 0; atomic_read(&w->r->resets_done) < RACE_RESETTERS; i++)
		insert_decision(w->r->c, key + i % RACE_KEYS, 5, 6,
				s + (i / RACE_KEYS + i) % 2);
	w->inserts += i + RACE_KEYS;
	for (i = 0; i < RACE_KEYS; i++)
		insert_decision(w->r->c, key + i, 5, 6, s);
}

/* A round this worker has not run was published, or it is to stop. */
static bool race_go(struct race_worker *w)
{
	if (kthread_should_stop())
		return true;
	/* Pairs with reset_race()'s release: the round's s is seen. */
	return smp_load_acquire(&w->r->round) != w->round;
}

static int race_thread(void *arg)
{
	struct race_worker *w = arg;
	struct race *r = w->r;
	u32 s;

	for (;;) {
		wait_event(r->start, race_go(w));
		if (kthread_should_stop())
			return 0;
		/* Pairs with reset_race()'s release, as in race_go(). */
		w->round = smp_load_acquire(&r->round);
		s = READ_ONCE(r->s);
		if (w->id < RACE_RESETTERS) {
			/* Resetter 0 for s, resetter 1 for s + 1. */
			avc_cache_reset(r->c, s + w->id);
			atomic_inc(&r->resets_done);
		} else {
			race_insert(w, s);
		}
		if (atomic_inc_return(&r->finished) == r->nthreads)
			complete(&r->done);
	}
}

/*
 * Two resets racing each other with inserts in flight, as two policy loads
 * whose resets run at once: resetters for s and s + 1 released together,
 * inserters inserting decisions of s and s + 1 meanwhile and after.  When
 * all have returned, latest_seqno must be s + 1, the newer, and no
 * decision of policy s may be linked.
 */
static void reset_race(struct kunit *test)
{
	enum { N = RACE_RESETTERS + RACE_INSERTERS };
	struct avc_kunit_ctx *x = test->priv;
	struct race_worker *w;
	unsigned long inserts = 0;
	unsigned int i, round;
	struct race *r;
	int old, entries;
	u32 s0, s;

	r = kunit_kzalloc(test, sizeof(*r), GFP_KERNEL);
	w = kunit_kcalloc(test, N, sizeof(*w), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, r);
	KUNIT_ASSERT_NOT_NULL(test, w);
	make_cache(test, AVC_RECLAIM_LRU, 16, 1000, AVC_RECLAIMER_INLINE);
	r->c = x->c;
	r->nthreads = N;
	init_waitqueue_head(&r->start);
	init_completion(&r->done);
	for (i = 0; i < N; i++) {
		w[i].r = r;
		w[i].id = i;
		/* Over every CPU: this thread sleeps while they run. */
		start_kthread(test, race_thread, &w[i], "race",
			      other_cpu(i, -1));
	}

	s0 = latest(x->c);
	for (round = 1; round <= RACE_ROUNDS; round++) {
		s = s0 + 2 * round;
		WRITE_ONCE(r->s, s);
		atomic_set(&r->resets_done, 0);
		atomic_set(&r->finished, 0);
		reinit_completion(&r->done);
		/* The round's s and counters first: race_go() acquires. */
		smp_store_release(&r->round, round);
		wake_up_all(&r->start);
		if (!wait_for_completion_timeout(&r->done, 30 * HZ)) {
			KUNIT_FAIL(test, "round %u: not done in 30 s", round);
			break;
		}
		entries = table_older_than(x->c, s + 1, &old);
		KUNIT_EXPECT_EQ_MSG(test, latest(x->c), s + 1,
				    "round %u: resets for %u and %u", round,
				    s, s + 1);
		KUNIT_EXPECT_EQ_MSG(test, old, 0,
				    "round %u: decisions of policy %u linked after its reset to %u",
				    round, s, s + 1);
		KUNIT_EXPECT_EQ_MSG(test, atomic_read(&x->c->active), entries,
				    "round %u: places taken", round);
		if (latest(x->c) != s + 1 || old ||
		    atomic_read(&x->c->active) != entries)
			break;
	}
	stop_kthreads(test);
	for (i = RACE_RESETTERS; i < N; i++)
		inserts += w[i].inserts;
	kunit_info(test, "%u rounds, %lu inserts\n", round - 1, inserts);
}

/* Whether the entry cached for key (@ssid, 2, 3) is referenced; false if none. */
static bool cached_referenced(struct avc_cache *c, u32 ssid)
{
	struct avc_key k = { .ssid = ssid, .tsid = 2, .tclass = 3 };
	struct avc_node *node;
	struct avc_table *t;
	bool ref = false;

	rcu_read_lock();
	t = avc_table_current(c);
	node = avc_search(c, t, avc_hash(t, &k), &k);
	if (node)
		ref = READ_ONCE(node->referenced);
	rcu_read_unlock();
	return ref;
}

/*
 * A replacement inherits the old entry's referenced bit (lru): the
 * replacements of a policy load must not make the entries just hit the
 * first a reclaim evicts.
 */
static void replace_keeps_referenced(struct kunit *test)
{
	struct avc_kunit_ctx *x = test->priv;
	u32 s, seqno;

	make_cache(test, AVC_RECLAIM_LRU, 64, 1000, AVC_RECLAIMER_INLINE);
	s = latest(x->c);
	insert_decision(x->c, 1, 2, 3, s);
	insert_decision(x->c, 2, 2, 3, s);
	touch(test, 1);
	KUNIT_EXPECT_TRUE(test, cached_referenced(x->c, 1));
	KUNIT_EXPECT_FALSE(test, cached_referenced(x->c, 2));
	insert_decision(x->c, 1, 2, 3, s + 1);
	insert_decision(x->c, 2, 2, 3, s + 1);
	KUNIT_EXPECT_NOT_NULL(test, cached(x->c, 1, 2, 3, &seqno));
	KUNIT_EXPECT_EQ(test, seqno, s + 1);
	KUNIT_EXPECT_NOT_NULL(test, cached(x->c, 2, 2, 3, &seqno));
	KUNIT_EXPECT_EQ(test, seqno, s + 1);
	KUNIT_EXPECT_TRUE(test, cached_referenced(x->c, 1));
	KUNIT_EXPECT_FALSE(test, cached_referenced(x->c, 2));
	expect_places(test, 2);
}

/* replace_under_readers(): the keys replaced, and each reader's tally. */
#define REPLACE_KEYS		4
#define REPLACE_SSID		0x7000
#define REPLACE_MIN		4000
#define REPLACE_MIN_LOOKUPS	4000

struct replacing {
	struct avc_cache *c;
	atomic_t running;
};

struct replace_reader {
	struct replacing *rp;
	unsigned long lookups;	/* WRITE_ONCE(): the test thread reads it */
	unsigned long before;	/* lookups when the replacing began */
	unsigned long torn;	/* a decision not whole, or not ours */
	unsigned long backwards;	/* older than one seen before */
	unsigned long changes;	/* a newer one than seen before */
	u32 last[REPLACE_KEYS];
};

/* Look the keys up without pause; their decisions only ever get newer. */
static int replace_reader_thread(void *arg)
{
	struct replace_reader *rd = arg;
	struct avc_rcu_decision avd;
	unsigned int j;

	atomic_inc(&rd->rp->running);
	while (!kthread_should_stop()) {
		for (j = 0; j < REPLACE_KEYS; j++) {
			avc_cache_has_perm(rd->rp->c, REPLACE_SSID + j, 2, 3, 0,
					   &avd);
			if (!decision_whole(&avd, REPLACE_SSID + j))
				rd->torn++;
			else if (avc_seqno_before(avd.seqno, rd->last[j]))
				rd->backwards++;
			else if (avd.seqno != rd->last[j])
				rd->changes++;
			rd->last[j] = avd.seqno;
		}
		WRITE_ONCE(rd->lookups, rd->lookups + REPLACE_KEYS);
		cond_resched();
	}
	return 0;
}

/*
 * The replace path under lockless readers: a kthread on every other CPU
 * looks the keys up in a loop while this thread replaces their entries
 * thousands of times, each time with a decision of a newer policy.  Every
 * insert must replace (the old node out, its place given back), every
 * reader must see whole decisions that never get older, and the old node
 * must outlive every reader that may hold it: freed before a grace period,
 * KASAN reports the readers' use after free.  The readers' lookups are
 * counted from the first replacement on: on one CPU (kunit.py's UML) a
 * reader runs only when the replacing thread yields, which it does until
 * each reader has made its share there.
 */
static void replace_under_readers(struct kunit *test)
{
	struct avc_kunit_ctx *x = test->priv;
	unsigned long deadline = jiffies + 20 * HZ;
	unsigned int i, j, n, replaced = 0;
	unsigned long least;
	struct replace_reader *rd;
	struct replacing *rp;
	const void *old;
	u32 seqno, got;

	n = clamp(num_online_cpus() - 1, 1U, AVC_KUNIT_MAX_THREADS);
	rp = kunit_kzalloc(test, sizeof(*rp), GFP_KERNEL);
	rd = kunit_kcalloc(test, n, sizeof(*rd), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, rp);
	KUNIT_ASSERT_NOT_NULL(test, rd);
	make_cache(test, AVC_RECLAIM_LRU, 1, 1000, AVC_RECLAIMER_INLINE);
	rp->c = x->c;
	atomic_set(&rp->running, 0);

	/* The keys, in one bucket: readers go through nodes being replaced. */
	seqno = latest(x->c);
	for (j = 0; j < REPLACE_KEYS; j++)
		insert_decision(x->c, REPLACE_SSID + j, 2, 3, seqno);
	expect_places(test, REPLACE_KEYS);
	for (i = 0; i < n; i++) {
		rd[i].rp = rp;
		for (j = 0; j < REPLACE_KEYS; j++)
			rd[i].last[j] = seqno;
		start_kthread(test, replace_reader_thread, &rd[i], "reader",
			      other_cpu(i, raw_smp_processor_id()));
	}
	while (atomic_read(&rp->running) < n && time_before(jiffies, deadline))
		cond_resched();
	KUNIT_ASSERT_EQ(test, atomic_read(&rp->running), n);
	for (j = 0; j < n; j++)
		rd[j].before = READ_ONCE(rd[j].lookups);

	for (i = 0;; i++) {
		least = ULONG_MAX;
		for (j = 0; j < n; j++)
			least = min(least,
				    READ_ONCE(rd[j].lookups) - rd[j].before);
		if ((i >= REPLACE_MIN && least >= REPLACE_MIN_LOOKUPS) ||
		    time_after(jiffies, deadline))
			break;
		/*
		 * A decision of the next policy: latest_seqno follows, as
		 * the reset after its load would raise it (without the
		 * flush, which would leave nothing to replace).
		 */
		WRITE_ONCE(x->c->latest_seqno, ++seqno);
		j = i % REPLACE_KEYS;
		old = cached(x->c, REPLACE_SSID + j, 2, 3, &got);
		insert_decision(x->c, REPLACE_SSID + j, 2, 3, seqno);
		if (cached(x->c, REPLACE_SSID + j, 2, 3, &got) != old &&
		    got == seqno &&
		    atomic_read(&x->c->active) == REPLACE_KEYS)
			replaced++;
		if (i % 64 == 63)
			cond_resched();
	}
	stop_kthreads(test);

	kunit_info(test, "%u replacements under %u readers, %lu lookups by the slowest\n",
		   replaced, n, least);
	KUNIT_EXPECT_GE(test, replaced, (unsigned int)REPLACE_MIN);
	KUNIT_EXPECT_EQ(test, replaced, i);
	KUNIT_EXPECT_GE(test, least, (unsigned long)REPLACE_MIN_LOOKUPS);
	for (j = 0; j < n; j++) {
		KUNIT_EXPECT_EQ_MSG(test, rd[j].torn, 0UL, "reader %u", j);
		KUNIT_EXPECT_EQ_MSG(test, rd[j].backwards, 0UL, "reader %u", j);
		KUNIT_EXPECT_GT_MSG(test, rd[j].changes, 0UL,
				    "reader %u saw no replacement", j);
	}
	expect_places(test, REPLACE_KEYS);
}

/*
 * The table follows the threshold: its buckets are the threshold's power
 * of two, at least 512; a resize keeps every entry (growing) and every
 * entry the threshold allows (shrinking), each still found.
 */
static void resize_follows(struct kunit *test)
{
	static const unsigned int thr[] = { 512, 4096, 3000, 100000, 600, 1 };
	static const unsigned int slots[] = { 512, 4096, 4096, 65536, 1024,
					      512 };
	struct avc_kunit_ctx *x = test->priv;
	struct avc_rcu_decision avd;
	struct avc_hash_stats hs;
	unsigned int i, k;

	make_cache(test, AVC_RECLAIM_LRU, 0, 512, AVC_RECLAIMER_INLINE);
	for (k = 1; k <= 300; k++)
		avc_cache_has_perm(x->c, 0x100 + k, 2, 3, 0, &avd);
	for (i = 0; i < ARRAY_SIZE(thr); i++) {
		avc_cache_set_threshold(x->c, thr[i]);
		avc_cache_settle(x->c);
		avc_cache_hash_stats(x->c, &hs);
		KUNIT_EXPECT_EQ_MSG(test, hs.buckets, (int)slots[i],
				    "threshold %u", thr[i]);
		KUNIT_EXPECT_EQ(test, avc_cache_slots(x->c), slots[i]);
		if (thr[i] < 300)
			break;
		expect_places(test, 300);
		for (k = 1; k <= 300; k++)
			touch(test, 0x100 + k);
	}
	KUNIT_EXPECT_NULL(test, rcu_access_pointer(table(x->c)->future));
}

/*
 * The moves of a resize, one at a time as avc_resize() makes them, with
 * the new table published as the old one's future: an insert meanwhile
 * goes to the new table; an entry of a policy a reset retired is dropped,
 * not moved; of two decisions of one key the newer stays; the rest moves
 * and is found through the old table until the new one is current.
 */
static void resize_moves(struct kunit *test)
{
	struct avc_kunit_ctx *x = test->priv;
	struct avc_table *old, *new;
	unsigned int i, moved = 0, dropped = 0;
	u32 s0, got;

	make_cache(test, AVC_RECLAIM_LRU, 0, 512, AVC_RECLAIMER_INLINE);
	s0 = latest(x->c);
	insert_decision(x->c, 1, 2, 3, s0);
	insert_decision(x->c, 2, 2, 3, s0);
	insert_decision(x->c, 3, 2, 3, s0);
	expect_places(test, 3);

	mutex_lock(&x->c->resize_lock);
	old = table(x->c);
	new = avc_table_alloc(x->c, 1024, GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, new);
	rcu_assign_pointer(old->future, new);
	/* Key 2 again, newer: into the new table, beside the old entry. */
	WRITE_ONCE(x->c->latest_seqno, s0 + 1);
	insert_decision(x->c, 2, 2, 3, s0 + 1);
	/* Key 4, new: into the new table. */
	insert_decision(x->c, 4, 2, 3, s0 + 1);
	KUNIT_EXPECT_EQ(test, atomic_read(&x->c->active), 5);
	/* A reset's raise of the seqno: keys 1 and 3 are of a retired policy. */
	for (i = 0; i <= old->mask; i++)
		while (avc_move_one(x->c, old, new, i, &moved, &dropped))
			;
	KUNIT_EXPECT_EQ(test, moved, 0U);
	KUNIT_EXPECT_EQ(test, dropped, 3U);
	rcu_assign_pointer(x->c->table, new);
	mutex_unlock(&x->c->resize_lock);
	synchronize_rcu();
	avc_table_free(old);

	KUNIT_EXPECT_NULL(test, cached(x->c, 1, 2, 3, &got));
	KUNIT_EXPECT_NULL(test, cached(x->c, 3, 2, 3, &got));
	KUNIT_EXPECT_NOT_NULL(test, cached(x->c, 2, 2, 3, &got));
	KUNIT_EXPECT_EQ(test, got, s0 + 1);
	KUNIT_EXPECT_NOT_NULL(test, cached(x->c, 4, 2, 3, &got));
	expect_places(test, 2);

	/* Now moves that keep: both entries are current. */
	mutex_lock(&x->c->resize_lock);
	old = table(x->c);
	new = avc_table_alloc(x->c, 512, GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, new);
	rcu_assign_pointer(old->future, new);
	moved = 0;
	dropped = 0;
	for (i = 0; i <= old->mask; i++)
		while (avc_move_one(x->c, old, new, i, &moved, &dropped))
			;
	KUNIT_EXPECT_EQ(test, moved, 2U);
	KUNIT_EXPECT_EQ(test, dropped, 0U);
	rcu_assign_pointer(x->c->table, new);
	mutex_unlock(&x->c->resize_lock);
	synchronize_rcu();
	avc_table_free(old);
	expect_places(test, 2);
	KUNIT_EXPECT_NOT_NULL(test, cached(x->c, 2, 2, 3, &got));
	KUNIT_EXPECT_EQ(test, got, s0 + 1);

	/*
	 * Duplicates, neither of a retired policy: key 5 linked (s0 + 2)
	 * before the resize; then, with the new table published, key 2
	 * (s0 + 1 in the old table) inserted newer, s0 + 2, and key 5
	 * inserted older, s0 + 1, each into the new table beside its entry
	 * in the old one.  Moving, the newer of each pair stays: key 2's
	 * moved entry is dropped, key 5's replaces the one inserted.
	 */
	insert_decision(x->c, 5, 2, 3, s0 + 2);
	expect_places(test, 3);
	mutex_lock(&x->c->resize_lock);
	old = table(x->c);
	new = avc_table_alloc(x->c, 1024, GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, new);
	rcu_assign_pointer(old->future, new);
	insert_decision(x->c, 2, 2, 3, s0 + 2);
	insert_decision(x->c, 5, 2, 3, s0 + 1);
	KUNIT_EXPECT_EQ(test, atomic_read(&x->c->active), 5);
	moved = 0;
	dropped = 0;
	for (i = 0; i <= old->mask; i++)
		while (avc_move_one(x->c, old, new, i, &moved, &dropped))
			;
	KUNIT_EXPECT_EQ(test, moved, 2U);
	KUNIT_EXPECT_EQ(test, dropped, 1U);
	rcu_assign_pointer(x->c->table, new);
	mutex_unlock(&x->c->resize_lock);
	synchronize_rcu();
	avc_table_free(old);
	expect_places(test, 3);
	KUNIT_EXPECT_NOT_NULL(test, cached(x->c, 2, 2, 3, &got));
	KUNIT_EXPECT_EQ(test, got, s0 + 2);
	KUNIT_EXPECT_NOT_NULL(test, cached(x->c, 4, 2, 3, &got));
	KUNIT_EXPECT_EQ(test, got, s0 + 1);
	KUNIT_EXPECT_NOT_NULL(test, cached(x->c, 5, 2, 3, &got));
	KUNIT_EXPECT_EQ(test, got, s0 + 2);
}

/*
 * A move into a full bucket: a table of one bucket takes AVC_CHAIN_MAX of
 * the old table's entries, the rest are dropped and give their places
 * back, and no chain grows past the cap.
 */
static void resize_move_full(struct kunit *test)
{
	enum { N = AVC_CHAIN_MAX + 8 };
	struct avc_kunit_ctx *x = test->priv;
	unsigned int i, moved = 0, dropped = 0;
	struct avc_table *old, *new;
	struct avc_hash_stats hs;
	u32 s0, k;

	make_cache(test, AVC_RECLAIM_LRU, 0, 512, AVC_RECLAIMER_INLINE);
	s0 = latest(x->c);
	for (k = 1; k <= N; k++)
		insert_decision(x->c, k, 2, 3, s0);
	expect_places(test, N);

	mutex_lock(&x->c->resize_lock);
	old = table(x->c);
	new = avc_table_alloc(x->c, 1, GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, new);
	rcu_assign_pointer(old->future, new);
	for (i = 0; i <= old->mask; i++)
		while (avc_move_one(x->c, old, new, i, &moved, &dropped))
			;
	rcu_assign_pointer(x->c->table, new);
	mutex_unlock(&x->c->resize_lock);
	synchronize_rcu();
	avc_table_free(old);

	KUNIT_EXPECT_EQ(test, moved, (unsigned int)AVC_CHAIN_MAX);
	KUNIT_EXPECT_EQ(test, dropped, N - AVC_CHAIN_MAX);
	avc_cache_hash_stats(x->c, &hs);
	KUNIT_EXPECT_EQ(test, hs.longest_chain, AVC_CHAIN_MAX);
	expect_places(test, AVC_CHAIN_MAX);
}

/*
 * A seed drawn at random is never 0, which stands for "draw one" and so
 * could not be given back as hash_seed: a draw of 0 is drawn again, for
 * the first table and for a resize's.
 */
static void seed_never_zero(struct kunit *test)
{
	struct avc_cache_params p = {
		.threshold = 512, .reclaimer = AVC_RECLAIMER_INLINE,
	};
	struct avc_kunit_ctx *x = test->priv;

	avc_kunit_zero_draws = 3;
	x->c = avc_cache_create(&x->ss, &p);
	KUNIT_ASSERT_FALSE(test, IS_ERR(x->c));
	KUNIT_EXPECT_EQ(test, avc_kunit_zero_draws, 0U);
	KUNIT_EXPECT_NE(test, avc_cache_seed(x->c), 0U);

	avc_kunit_zero_draws = 3;
	avc_cache_set_threshold(x->c, 4096);
	avc_cache_settle(x->c);
	KUNIT_EXPECT_EQ(test, avc_cache_slots(x->c), 4096U);
	KUNIT_EXPECT_EQ(test, avc_kunit_zero_draws, 0U);
	KUNIT_EXPECT_NE(test, avc_cache_seed(x->c), 0U);
	avc_kunit_zero_draws = 0;
}

/* resize_under_readers(): the keys, and each reader's tally. */
#define RESIZE_KEYS	600
#define RESIZE_ROUNDS	8

struct resize_reader {
	struct avc_cache *c;
	atomic_t *running;
	unsigned long lookups;	/* WRITE_ONCE(): the test thread reads it */
	unsigned long torn;	/* a decision not whole, or not ours */
	unsigned int id;
};

static int resize_reader_thread(void *arg)
{
	struct resize_reader *rd = arg;
	struct avc_rcu_decision avd;
	u32 k = rd->id * 7919;

	atomic_inc(rd->running);
	while (!kthread_should_stop()) {
		k = (k + 1) % RESIZE_KEYS;
		avc_cache_has_perm(rd->c, 0x2000 + k, 2, 3, 0, &avd);
		/* A miss computes from the policy, which has no such rule. */
		if (avd.allowed && !decision_whole(&avd, 0x2000 + k))
			rd->torn++;
		WRITE_ONCE(rd->lookups, rd->lookups + 1);
		if (!(k % 64))
			cond_resched();
	}
	return 0;
}

/*
 * Resizes under lockless readers: kthreads on the other CPUs look up keys
 * whose decisions the test inserted (whole, of the policy in force) while
 * this thread moves the table between 512 and 8192 buckets eight times,
 * inserting more meanwhile.  Every decision read is whole (a node freed or reused
 * under a reader shows torn, or as a use after free to KASAN); no entry
 * is lost from the count; the old tables are freed (kmemleak).
 */
static void resize_under_readers(struct kunit *test)
{
	struct avc_kunit_ctx *x = test->priv;
	struct resize_reader *rd;
	atomic_t running = ATOMIC_INIT(0);
	unsigned long deadline = jiffies + 20 * HZ;
	unsigned int i, n, k, rounds;
	struct avc_hash_stats hs;
	u32 seqno;

	n = clamp(num_online_cpus() - 1, 1U, AVC_KUNIT_MAX_THREADS);
	rd = kunit_kcalloc(test, n, sizeof(*rd), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, rd);
	make_cache(test, AVC_RECLAIM_LRU, 0, 100000, AVC_RECLAIMER_INLINE);
	seqno = latest(x->c);
	for (k = 0; k < RESIZE_KEYS / 2; k++)
		insert_decision(x->c, 0x2000 + k, 2, 3, seqno);
	for (i = 0; i < n; i++) {
		rd[i].c = x->c;
		rd[i].running = &running;
		rd[i].id = i;
		start_kthread(test, resize_reader_thread, &rd[i], "resize",
			      other_cpu(i, raw_smp_processor_id()));
	}
	while (atomic_read(&running) < n && time_before(jiffies, deadline))
		cond_resched();
	for (rounds = 0; rounds < RESIZE_ROUNDS; rounds++) {
		avc_cache_set_threshold(x->c, rounds % 2 ? 512 : 8192);
		for (k = RESIZE_KEYS / 2; k < RESIZE_KEYS; k++)
			insert_decision(x->c, 0x2000 + k, 2, 3, seqno);
		avc_cache_settle(x->c);
		if (time_after(jiffies, deadline))
			break;
	}
	stop_kthreads(test);
	avc_cache_hash_stats(x->c, &hs);
	kunit_info(test, "%u resizes under %u readers, %d entries in %d buckets\n",
		   rounds, n, hs.entries, hs.buckets);
	KUNIT_EXPECT_GE(test, rounds, 4U);
	for (i = 0; i < n; i++) {
		KUNIT_EXPECT_EQ_MSG(test, rd[i].torn, 0UL, "reader %u", i);
		KUNIT_EXPECT_GT_MSG(test, rd[i].lookups, 0UL, "reader %u", i);
	}
	KUNIT_EXPECT_EQ(test, atomic_read(&x->c->active), hs.entries);
}

/* reset_resize_race(): a resetter beside resizes and inserts. */
struct reset_resizer {
	struct avc_cache *c;
	atomic_t seqno;		/* the last reset that returned */
	atomic_t running;
};

static int reset_resizer_thread(void *arg)
{
	struct reset_resizer *r = arg;
	u32 s;

	atomic_inc(&r->running);
	while (!kthread_should_stop()) {
		s = READ_ONCE(r->c->latest_seqno) + 1;
		avc_cache_reset(r->c, s);
		atomic_set(&r->seqno, s);
		cond_resched();
	}
	return 0;
}

/*
 * Resets racing resizes: a kthread resets the cache for ever newer
 * policies while this thread resizes the table and inserts decisions of
 * whatever policy was newest when it computed them.  After each resize,
 * no entry in any table may be older than the last reset that returned
 * before it began; entries and places agree once all is quiet.
 */
static void reset_resize_race(struct kunit *test)
{
	struct avc_kunit_ctx *x = test->priv;
	unsigned long deadline = jiffies + 20 * HZ;
	struct reset_resizer *r;
	unsigned int rounds, k;
	int old, entries;
	u32 before;

	r = kunit_kzalloc(test, sizeof(*r), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, r);
	make_cache(test, AVC_RECLAIM_LRU, 0, 100000, AVC_RECLAIMER_INLINE);
	r->c = x->c;
	atomic_set(&r->seqno, latest(x->c));
	start_kthread(test, reset_resizer_thread, r, "reset",
		      other_cpu(0, raw_smp_processor_id()));
	while (!atomic_read(&r->running) && time_before(jiffies, deadline))
		cond_resched();
	for (rounds = 0; rounds < 12 && time_before(jiffies, deadline);
	     rounds++) {
		for (k = 0; k < 200; k++)
			insert_decision(x->c, 0x3000 + k, 2, 3, latest(x->c));
		before = atomic_read(&r->seqno);
		avc_cache_set_threshold(x->c, rounds % 2 ? 512 : 4096);
		avc_cache_settle(x->c);
		table_older_than(x->c, before, &old);
		KUNIT_EXPECT_EQ_MSG(test, old, 0,
				    "round %u: entries older than the reset to %u",
				    rounds, before);
		if (old)
			break;
	}
	stop_kthreads(test);
	entries = table_older_than(x->c, 0, &old);
	KUNIT_EXPECT_EQ(test, atomic_read(&x->c->active), entries);
	kunit_info(test, "%u resizes beside resets\n", rounds);
}

static struct kunit_case avc_resize_cases[] = {
	KUNIT_CASE(resize_follows),
	KUNIT_CASE(resize_moves),
	KUNIT_CASE(resize_move_full),
	KUNIT_CASE(seed_never_zero),
	KUNIT_CASE(resize_under_readers),
	KUNIT_CASE(reset_resize_race),
	{}
};

static struct kunit_suite avc_resize_suite = {
	.name = "avc_rcu_resize",
	.suite_init = avc_evict_suite_init,
	.suite_exit = avc_evict_suite_exit,
	.init = avc_kunit_init,
	.exit = avc_kunit_exit,
	.test_cases = avc_resize_cases,
};

static struct kunit_case avc_insert_cases[] = {
	KUNIT_CASE(reset_out_of_order),
	KUNIT_CASE(reset_race),
	KUNIT_CASE(replace_under_readers),
	KUNIT_CASE(replace_keeps_referenced),
	{}
};

static struct kunit_suite avc_insert_suite = {
	.name = "avc_rcu_insert",
	.suite_init = avc_evict_suite_init,
	.suite_exit = avc_evict_suite_exit,
	.init = avc_kunit_init,
	.exit = avc_kunit_exit,
	.test_cases = avc_insert_cases,
};

static struct kunit_case avc_order_cases[] = {
	KUNIT_CASE(seqno_order),
	KUNIT_CASE(verdict),
	KUNIT_CASE(watermarks),
	{}
};

static struct kunit_suite avc_order_suite = {
	.name = "avc_rcu_order",
	.test_cases = avc_order_cases,
};

kunit_test_suites(&avc_evict_suite, &avc_insert_suite, &avc_resize_suite,
		  &avc_order_suite);

MODULE_DESCRIPTION("KUnit tests of avc_rcu's cache core and security server");
MODULE_LICENSE("GPL");
