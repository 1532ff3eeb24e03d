// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit tests of the cache core: which entries each reclaim policy evicts
 * (the order the policies promise, entry by entry), the wrap-safe seqno
 * order and the has-perm verdict.
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

/* cache.c first: it sets pr_fmt before any header does. */
#include "cache.c"
#include "reclaim.c"
#include "stats.c"
#include "sync.c"

#include <kunit/test.h>

#define NKEYS 8

struct avc_kunit_ctx {
	struct avc_ss ss;
	struct avc_cache *c;
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
 * With reclaim @policy (chosen before the cache exists, as the module
 * does), a cache of one bucket, far from its threshold, holding the keys
 * 1 .. NKEYS inserted in that order: the bucket lists them newest first,
 * NKEYS .. 1, none referenced.
 */
static void fill(struct kunit *test, enum avc_reclaim_policy policy)
{
	struct avc_kunit_ctx *x = test->priv;
	struct avc_rcu_decision avd;
	unsigned int s;

	KUNIT_ASSERT_EQ(test, avc_reclaim_select(policy), 0);
	x->c = avc_cache_create(&x->ss, 1, 1000, 1);
	KUNIT_ASSERT_FALSE(test, IS_ERR(x->c));
	for (s = 1; s <= NKEYS; s++)
		KUNIT_ASSERT_EQ(test, avc_cache_has_perm(x->c, s, 2, 3, 1U << s,
							 &avd), 0);
	KUNIT_ASSERT_EQ(test, atomic_read(&x->c->active), NKEYS);
}

static void avc_kunit_exit(struct kunit *test)
{
	struct avc_kunit_ctx *x = test->priv;

	if (!x)
		return;
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
 * The bucket as a string, newest first: "8 7 6* 5", a star for a
 * referenced entry.
 */
static const char *bucket(struct kunit *test, char *buf, size_t size)
{
	struct avc_kunit_ctx *x = test->priv;
	struct avc_node *node;
	size_t len = 0;

	buf[0] = '\0';
	hlist_for_each_entry(node, &x->c->slots[0], list)
		len += scnprintf(buf + len, size - len, "%s%u%s",
				 len ? " " : "", node->ssid,
				 node->referenced ? "*" : "");
	return buf;
}

/* Evict @want from the bucket under its lock, as avc_reclaim_bucket(). */
static unsigned int evict(struct kunit *test, unsigned int want)
{
	struct avc_kunit_ctx *x = test->priv;
	unsigned long flags;
	unsigned int got;

	flags = avc_bucket_lock(&x->c->locks, 0);
	got = avc_evict(x->c, 0, want, avc_reclaim_policy);
	avc_bucket_unlock(&x->c->locks, 0, flags);
	return got;
}

/* The bucket must read @want (see bucket()). */
static void expect_bucket(struct kunit *test, const char *want)
{
	char b[128];

	KUNIT_EXPECT_STREQ(test, bucket(test, b, sizeof(b)), want);
}

/* CLOCK: the oldest unreferenced go; referenced ones get a second chance. */
static void evict_lru(struct kunit *test)
{
	fill(test, AVC_RECLAIM_LRU);
	expect_bucket(test, "8 7 6 5 4 3 2 1");
	hit(test, 1);
	hit(test, 3);
	hit(test, 5);
	hit(test, 5);	/* a second hit changes nothing */
	expect_bucket(test, "8 7 6 5* 4 3* 2 1*");
	/*
	 * Two of the five cold ones, the oldest: 4 and 2.  The hand passes
	 * 3 and 1 on its way (their bit cleared), not 5, which is newer
	 * than where it started.
	 */
	KUNIT_EXPECT_EQ(test, evict(test, 2), 2U);
	expect_bucket(test, "8 7 6 5* 3 1");
	/* Now 3 and 1, whose second chance is spent, go first. */
	KUNIT_EXPECT_EQ(test, evict(test, 2), 2U);
	expect_bucket(test, "8 7 6 5*");
	/* More than are cold: every cold one goes, 5 is passed over. */
	KUNIT_EXPECT_EQ(test, evict(test, 16), 3U);
	expect_bucket(test, "5");
	KUNIT_EXPECT_EQ(test, evict(test, 16), 1U);
	expect_bucket(test, "");
	KUNIT_EXPECT_EQ(test, atomic_read(&((struct avc_kunit_ctx *)
					     test->priv)->c->active), 0);
}

/* Everything referenced: a first sweep clears, evicting nothing. */
static void evict_lru_all_hot(struct kunit *test)
{
	unsigned int s;

	fill(test, AVC_RECLAIM_LRU);
	for (s = 1; s <= NKEYS; s++)
		hit(test, s);
	expect_bucket(test, "8* 7* 6* 5* 4* 3* 2* 1*");
	KUNIT_EXPECT_EQ(test, evict(test, 3), 0U);
	expect_bucket(test, "8 7 6 5 4 3 2 1");
	KUNIT_EXPECT_EQ(test, evict(test, 3), 3U);
	expect_bucket(test, "8 7 6 5 4");
}

/* fifo: the oldest by insertion, hits or not. */
static void evict_fifo(struct kunit *test)
{
	fill(test, AVC_RECLAIM_FIFO);
	hit(test, 1);
	KUNIT_EXPECT_EQ(test, evict(test, 3), 3U);
	expect_bucket(test, "8 7 6 5 4");
	KUNIT_EXPECT_EQ(test, evict(test, 16), 5U);
	expect_bucket(test, "");
}

/* newest: the head of the bucket, as upstream 6.1 evicts. */
static void evict_newest(struct kunit *test)
{
	fill(test, AVC_RECLAIM_NEWEST);
	hit(test, 8);
	KUNIT_EXPECT_EQ(test, evict(test, 3), 3U);
	expect_bucket(test, "5 4 3 2 1");
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

static struct kunit_case avc_evict_cases[] = {
	KUNIT_CASE(evict_lru),
	KUNIT_CASE(evict_lru_all_hot),
	KUNIT_CASE(evict_fifo),
	KUNIT_CASE(evict_newest),
	KUNIT_CASE(reclaim_chunk),
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

static struct kunit_case avc_order_cases[] = {
	KUNIT_CASE(seqno_order),
	KUNIT_CASE(verdict),
	{}
};

static struct kunit_suite avc_order_suite = {
	.name = "avc_rcu_order",
	.test_cases = avc_order_cases,
};

kunit_test_suites(&avc_evict_suite, &avc_order_suite);

MODULE_DESCRIPTION("KUnit tests of avc_rcu's cache core and security server");
MODULE_LICENSE("GPL");
