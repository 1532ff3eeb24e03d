// SPDX-License-Identifier: GPL-2.0
/*
 * avc_rcu eviction order: which entries a reclaim takes, under the reclaim
 * policy the module was loaded with (/sys/module/avc_rcu/parameters/
 * reclaim), checked entry by entry, not only counted.
 *
 * Every key of a scenario lands in one bucket: with the load's fixed
 * hash_seed the test computes each key's bucket itself, with its own
 * implementation of Bob Jenkins' lookup3 final mix (the hash the module
 * documents), and picks keys that collide.  Reclaim then has only that
 * bucket to take from, and the order within it is what each policy
 * promises (Documentation/design.rst, "Reclaim"):
 *
 *   lru     the oldest entries not hit since the hand last passed them;
 *           the ones hit get a second chance, their mark cleared, and the
 *           hand stops where the chunk is complete;
 *   fifo    the oldest entries;
 *   newest  the newest entries.
 *
 * Whether a key is cached is read off cache_stats: a query of a cached key
 * is a hit.  The checks query the expected survivors first (hits change
 * nothing but marks) and the evicted ones after, with the threshold raised
 * so that those misses reclaim nothing.  The seed in use reads from the
 * hash_seed parameter (root only), drawn at random or not.  The cases
 * order one miss's reclaim section: with reclaimer=background, where no
 * miss reclaims, they are skipped.
 *
 * Environment: AVC_RCU_MNT.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kselftest_harness.h"
#include "avc_test.h"

#define PARAMS		"/sys/module/avc_rcu/parameters/"
#define CHUNK		AVC_RECLAIM_CHUNK
#define T		24	/* threshold: a chunk and a bit */
#define NKEYS		41
#define TSID		77
#define TCLASS		9

enum policy { LRU, FIFO, NEWEST };

static __u32 rol32(__u32 w, unsigned int s)
{
	return (w << s) | (w >> (32 - s));
}

/*
 * jhash_3words(a, b, c, seed): lookup3's final() over the three words,
 * each offset by the seed plus the golden constant and the length in
 * bytes (12), as the kernel's <linux/jhash.h> documents it.
 */
static __u32 lookup3_3words(__u32 a, __u32 b, __u32 c, __u32 seed)
{
	__u32 init = seed + 0xdeadbeef + (3 << 2);

	a += init;
	b += init;
	c += init;
	c ^= b; c -= rol32(b, 14);
	a ^= c; a -= rol32(c, 11);
	b ^= a; b -= rol32(a, 25);
	c ^= b; c -= rol32(b, 16);
	a ^= c; a -= rol32(c, 4);
	b ^= a; b -= rol32(a, 14);
	c ^= b; c -= rol32(b, 24);
	return c;
}

/* A load parameter's value, without its newline: 0 or -errno. */
static int read_param(const char *name, char *buf, size_t size)
{
	char path[128], *text;
	ssize_t n;

	snprintf(path, sizeof(path), PARAMS "%s", name);
	n = tst_read_all(path, &text);
	if (n < 0)
		return (int)n;
	while (n && text[n - 1] == '\n')
		text[--n] = '\0';
	snprintf(buf, size, "%s", text);
	free(text);
	return 0;
}

FIXTURE(ev) {
	struct tst_saved_threshold thr;
	enum policy policy;
	__u32 k[NKEYS + 1];	/* k[1..NKEYS]: ssids, all in one bucket */
	unsigned long seed;
	__u32 mask;		/* slots - 1 */
	int skip;
};

FIXTURE_SETUP(ev)
{
	char text[64];
	struct tst_hash_stats_file hs;
	unsigned long seed;
	__u32 s, bucket;
	int n = 0;

	TST_ASSERT_MOUNTED();
	TST_SAVE_THRESHOLD(&self->thr);
	/*
	 * One miss's section is what these cases order; the background
	 * reclaimer runs the same sections, off the miss, down to its low
	 * watermark (avc_reclaim's and the KUnit suites' cases).
	 */
	if (tst_reclaimer_background() == 1) {
		self->skip = 2;
		return;
	}
	/*
	 * The scenario's threshold first: with slots=0 a write resizes the
	 * table, and a table drawn at random gets a seed of its own.
	 */
	TST_OK(tst_write_threshold(T));
	TST_OK(read_param("reclaim", text, sizeof(text)));
	if (!strcmp(text, "lru"))
		self->policy = LRU;
	else if (!strcmp(text, "fifo"))
		self->policy = FIFO;
	else if (!strcmp(text, "newest"))
		self->policy = NEWEST;
	else
		ASSERT_TRUE(0) TH_LOG("reclaim parameter '%s'", text);
	TST_OK(read_param("hash_seed", text, sizeof(text)));
	seed = strtoul(text, NULL, 10);
	if (!seed) {
		self->skip = 1;
		return;
	}
	TST_OK(tst_read_hash_stats(&hs));
	self->seed = seed;
	self->mask = (__u32)hs.slots - 1;
	/* The keys (s, TSID, TCLASS) of the first bucket that s = 1 hits. */
	bucket = lookup3_3words(1, TSID, TCLASS, seed) & (hs.slots - 1);
	for (s = 1; n < NKEYS; s++)
		if ((lookup3_3words(s, TSID, TCLASS, seed) &
		     (hs.slots - 1)) == bucket)
			self->k[++n] = s;
}

FIXTURE_TEARDOWN(ev)
{
	TST_RESTORE_THRESHOLD(&self->thr);
}

/*
 * The fixture's data, FIXTURE_DATA(ev) spelled out: checkpatch reads
 * "EV_SELF *self" as a multiplication.
 */
#define EV_SELF	struct _test_data_ev

/* Why the fixture cannot order one section's evictions, or NULL. */
static const char *ev_skip(int skip)
{
	if (skip == 2)
		return "reclaimer=background: no miss reclaims";
	if (skip)
		return "hash_seed reads 0: the buckets of keys are unknown";
	return NULL;
}

/* Query (ssid, tsid, TCLASS); return 1 for a hit, 0 for a miss. */
static int query_key(struct __test_metadata *_metadata, __u32 ssid,
		     __u32 tsid)
{
	struct tst_cache_stats_sum a, b;
	struct tst_reply r;

	TST_OK(tst_read_cache_stats(&a));
	TST_QUERY(ssid, tsid, TCLASS, 0, &r);
	TST_OK(tst_read_cache_stats(&b));
	EXPECT_EQ(1, tst_stat_delta(&a, &b, TST_LOOKUPS));
	return (int)tst_stat_delta(&a, &b, TST_HITS);
}

/* Query key i; return 1 for a hit, 0 for a miss. */
static int query(struct __test_metadata *_metadata, EV_SELF *self,
		 int i)
{
	return query_key(_metadata, self->k[i], TSID);
}

/* Keys lo..hi (indices) are new: each query must miss. */
static void insert(struct __test_metadata *_metadata, EV_SELF *self,
		   int lo, int hi)
{
	int i;

	for (i = lo; i <= hi; i++)
		ASSERT_EQ(0, query(_metadata, self, i))
			TH_LOG("key %d (ssid %u) was already cached", i,
			       self->k[i]);
}

static void hit(struct __test_metadata *_metadata, EV_SELF *self,
		int lo, int hi)
{
	int i;

	for (i = lo; i <= hi; i++)
		ASSERT_EQ(1, query(_metadata, self, i))
			TH_LOG("key %d (ssid %u) was not cached", i,
			       self->k[i]);
}

/* An empty cache and the scenario's threshold. */
static void start(struct __test_metadata *_metadata)
{
	static const char policy[] = "allow 1 1 1 1\n";
	struct tst_hash_stats_file hs;

	TST_OK(tst_load_policy(policy, sizeof(policy) - 1));
	TST_OK(tst_read_hash_stats(&hs));
	ASSERT_EQ(0, hs.entries);
	TST_OK(tst_write_threshold(T));
}

/*
 * The survivors must be exactly @want (a 0-terminated list of key
 * indices) among keys 1..@last; the cache holds nothing else.
 */
static void expect_survivors(struct __test_metadata *_metadata,
			     EV_SELF *self, int last,
			     const int *want)
{
	static const char *const names[] = { "lru", "fifo", "newest" };
	struct tst_hash_stats_file hs;
	char alive[NKEYS + 1] = { 0 };
	int i, n = 0;

	for (i = 0; want[i]; i++) {
		alive[want[i]] = 1;
		n++;
	}
	TST_OK(tst_read_hash_stats(&hs));
	EXPECT_EQ(n, hs.entries);
	TST_OK(tst_write_threshold(AVC_RCU_THRESHOLD_MAX));
	for (i = 1; i <= last; i++)
		if (alive[i])
			EXPECT_EQ(1, query(_metadata, self, i))
				TH_LOG("reclaim=%s: key %d should have survived",
				       names[self->policy], i);
	for (i = 1; i <= last; i++)
		if (!alive[i])
			EXPECT_EQ(0, query(_metadata, self, i))
				TH_LOG("reclaim=%s: key %d should have been evicted",
				       names[self->policy], i);
}

/*
 * Fill the bucket to the threshold with keys 1..24, hit 1-4 and 13-16,
 * insert key 25: one reclaim of a chunk out of 24.
 */
TEST_F(ev, one_reclaim)
{
	static const int lru[] = { 1, 2, 3, 4, 13, 14, 15, 16, 25, 0 };
	static const int fifo[] = { 17, 18, 19, 20, 21, 22, 23, 24, 25, 0 };
	static const int newest[] = { 1, 2, 3, 4, 5, 6, 7, 8, 25, 0 };
	const int *want[] = { lru, fifo, newest };

	if (ev_skip(self->skip))
		SKIP(return, "%s", ev_skip(self->skip));
	start(_metadata);
	insert(_metadata, self, 1, T);
	hit(_metadata, self, 1, 4);
	hit(_metadata, self, 13, 16);
	insert(_metadata, self, T + 1, T + 1);
	expect_survivors(_metadata, self, T + 1, want[self->policy]);
}

/*
 * As one_reclaim, then refill to the threshold with keys 26-40 and insert
 * key 41.  Under lru the first sweep cleared the marks of 1-4 and 13-16:
 * with no hit since, they are the oldest cold entries and go first.
 */
TEST_F(ev, second_chance_is_spent)
{
	static const int lru[] = { 33, 34, 35, 36, 37, 38, 39, 40, 41, 0 };
	static const int newest[] = { 1, 2, 3, 4, 5, 6, 7, 8, 41, 0 };
	const int *want[] = { lru, lru, newest };

	if (ev_skip(self->skip))
		SKIP(return, "%s", ev_skip(self->skip));
	start(_metadata);
	insert(_metadata, self, 1, T);
	hit(_metadata, self, 1, 4);
	hit(_metadata, self, 13, 16);
	insert(_metadata, self, T + 1, NKEYS);
	expect_survivors(_metadata, self, NKEYS, want[self->policy]);
}

/*
 * Hit the five newest (20-24), insert 25: under lru 19 entries are cold
 * and the chunk takes the 16 oldest (1-16); the hand stops there, so
 * 20-24, newer than where it stopped, keep their marks.  Refill with
 * 26-40 and insert 41: the hand now passes 17-19 (evicted), 20-24 (marks
 * cleared, kept) and takes 25-37.
 */
TEST_F(ev, hand_stops_where_the_chunk_is_complete)
{
	static const int lru[] = { 20, 21, 22, 23, 24, 38, 39, 40, 41, 0 };
	static const int fifo[] = { 33, 34, 35, 36, 37, 38, 39, 40, 41, 0 };
	static const int newest[] = { 1, 2, 3, 4, 5, 6, 7, 8, 41, 0 };
	const int *want[] = { lru, fifo, newest };

	if (ev_skip(self->skip))
		SKIP(return, "%s", ev_skip(self->skip));
	start(_metadata);
	insert(_metadata, self, 1, T);
	hit(_metadata, self, 20, 24);
	insert(_metadata, self, T + 1, NKEYS);
	expect_survivors(_metadata, self, NKEYS, want[self->policy]);
}

/* A key group: @n ssids whose (ssid, tsid, TCLASS) share one bucket. */
struct group {
	__u32 tsid, bucket, n, s[2 * CHUNK];
};

/* Fill @g with @n keys of target @tsid in the bucket ssid 1 hits. */
static void group_make(EV_SELF *self, struct group *g, __u32 tsid, __u32 n)
{
	__u32 s;

	g->tsid = tsid;
	g->n = 0;
	g->bucket = lookup3_3words(1, tsid, TCLASS, self->seed) & self->mask;
	for (s = 1; g->n < n; s++)
		if ((lookup3_3words(s, tsid, TCLASS, self->seed) &
		     self->mask) == g->bucket)
			g->s[g->n++] = s;
}

/* Query keys lo..hi - 1 of @g: each must miss (@hit 0) or hit (1). */
static void group_query(struct __test_metadata *_metadata, struct group *g,
			__u32 lo, __u32 hi, int hit)
{
	__u32 i;

	for (i = lo; i < hi; i++)
		ASSERT_EQ(hit, query_key(_metadata, g->s[i], g->tsid))
			TH_LOG("bucket %u, key %u (ssid %u): %s", g->bucket,
			       i, g->s[i], hit ? "not cached" : "cached");
}

/*
 * The hand moves on: a reclaim starts after the bucket where the one
 * before stopped.  Two full buckets X and Y of a chunk each, cold, fill the
 * cache to its threshold; a key in a third bucket reclaims, and empties
 * whichever of the two the hand meets first (whole buckets go under every
 * policy).  Refilled to the threshold with new keys in that same bucket X,
 * the cache reclaims again: the hand, now after X, must take from the
 * others (Y and the third bucket's key) and leave X's new keys alone.  A
 * hand that started where it started before would meet X first again.
 */
TEST_F(ev, the_hand_moves_on)
{
	struct group a, b, c, *x, *y;
	struct tst_hash_stats_file hs;
	__u32 t, refill;

	if (ev_skip(self->skip))
		SKIP(return, "%s", ev_skip(self->skip));
	ASSERT_LE(3, self->mask + 1);
	group_make(self, &a, TSID, 2 * CHUNK);
	for (t = TSID + 1, b.bucket = a.bucket; b.bucket == a.bucket; t++)
		group_make(self, &b, t, 2 * CHUNK);
	for (c.bucket = a.bucket; c.bucket == a.bucket ||
	     c.bucket == b.bucket; t++)
		group_make(self, &c, t, 2);

	start(_metadata);
	TST_OK(tst_write_threshold(2 * CHUNK));
	group_query(_metadata, &a, 0, CHUNK, 0);
	group_query(_metadata, &b, 0, CHUNK, 0);
	group_query(_metadata, &c, 0, 1, 0);	/* the first reclaim */
	TST_OK(tst_read_hash_stats(&hs));
	ASSERT_EQ(CHUNK + 1, hs.entries);

	/* Which bucket went: a's first key cached or not. */
	TST_OK(tst_write_threshold(AVC_RCU_THRESHOLD_MAX));
	x = query_key(_metadata, a.s[0], a.tsid) ? &b : &a;
	y = x == &a ? &b : &a;
	TST_OK(tst_write_threshold(2 * CHUNK));
	/*
	 * Refill X with new keys up to the threshold (a's first key, if it
	 * missed, is back in X already).
	 */
	TST_OK(tst_read_hash_stats(&hs));
	refill = 2 * CHUNK - (__u32)hs.entries;
	group_query(_metadata, x, CHUNK, CHUNK + refill, 0);
	TST_OK(tst_read_hash_stats(&hs));
	ASSERT_EQ(2 * CHUNK, hs.entries);
	group_query(_metadata, &c, 1, 2, 0);	/* the second reclaim */

	/* X's new keys all survived; the chunk came from Y and c. */
	TST_OK(tst_write_threshold(AVC_RCU_THRESHOLD_MAX));
	group_query(_metadata, x, CHUNK, CHUNK + refill, 1);
	TST_OK(tst_read_hash_stats(&hs));
	EXPECT_EQ(CHUNK + 1, hs.entries)
		TH_LOG("buckets %u (refilled), %u and %u", x->bucket,
		       y->bucket, c.bucket);
}

TEST_HARNESS_MAIN
