// SPDX-License-Identifier: GPL-2.0
/*
 * avc_rcu reclaim, in both reclaimers' terms.  Inline: the cache holds
 * exactly cache_threshold entries without reclaiming and reclaims a chunk
 * on the next insert; a lowered threshold takes effect on the next
 * insert, which evicts a chunk and is not cached while the cache is still
 * above the threshold.  Background: the cache holds up to its high
 * watermark without reclaiming; the next insert wakes the reclaimer,
 * which brings it down to the low watermark; a lowered threshold has the
 * cache at its new low watermark when the write returns.  Both: a working
 * set far above cache_threshold never makes the cache hold more than
 * cache_threshold, counts reclaims (and nothing else frees), still answers
 * right; a raised threshold lets the cache grow with no reclaim; and the
 * bound holds while every other CPU is hitting: in the locked modes a
 * reclaim that only trylocked the global lock, which every lookup takes,
 * would evict nothing and let the cache grow without limit.
 *
 * Environment: AVC_RCU_MNT, AVC_SEED, AVC_STRESS_SECONDS (default 3, the
 * bound test's duration).
 */
#include <errno.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "kselftest_harness.h"
#include "avc_test.h"

#define CHUNK		AVC_RECLAIM_CHUNK
#define WS		4000	/* working set: ssid 1..WS */
#define SMALL		64
#define LARGE		8192
#define BATCH		100
#define TSID		500
#define TCLASS		5

FIXTURE(rec) {
	struct tst_saved_threshold thr;
	__u32 seq;
	int bg;		/* reclaimer=background */
};

#define high_of(t)	avc_test_high(t)
#define low_of(t)	avc_test_low(t)

static __u32 perms_of(__u32 ssid)
{
	return tst_mix(ssid, TSID, TCLASS, 0);
}

/*
 * allow s TSID TCLASS perms_of(s) for every s of the working set; the
 * load empties the cache.
 */
static int load_working_set(__u32 *seq)
{
	struct tst_buf text = { 0 };
	__u32 s;
	int ret;

	for (s = 1; s <= WS; s++)
		tst_buf_printf(&text, "allow %u %u %u 0x%x\n", s, TSID,
			       TCLASS, perms_of(s));
	ret = tst_load_policy(text.data, text.len);
	tst_buf_free(&text);
	return ret ?: tst_read_seqno(seq);
}

FIXTURE_SETUP(rec)
{
	TST_ASSERT_MOUNTED();
	TST_SAVE_THRESHOLD(&self->thr);
	self->bg = tst_reclaimer_background();
	ASSERT_LE(0, self->bg);
	TST_OK(load_working_set(&self->seq));
}

FIXTURE_TEARDOWN(rec)
{
	TST_RESTORE_THRESHOLD(&self->thr);
}

/* Query ssid s (tsid t) and check the answer. */
#define CHECKED_QUERY(s, t) do {					\
	__u32 __st[2] = { (s), (t) };					\
	struct tst_decision __want = { 0, 0, 0xffffffff, 0 };		\
	if (__st[1] == TSID)						\
		__want.allowed = perms_of(__st[0]);			\
	TST_EXPECT_DECISION(__st[0], __st[1], TCLASS, &__want, self->seq); \
} while (0)

TEST_F_TIMEOUT(rec, working_set_above_threshold, 600)
{
	struct tst_cache_stats_sum cs0, cs1;
	struct tst_hash_stats_file hs;
	__u64 seed = tst_seed(), rng = seed;
	__u32 *order, alloc_d, free_d, recl_d;
	long max_entries = 0;
	unsigned int i, pass;

	tst_diag("working_set_above_threshold: AVC_SEED=%llu",
		 (unsigned long long)seed);
	TST_OK(tst_write_threshold(SMALL));
	TST_QUIESCE(TST_QUIESCE_MS, &hs, &cs0);
	order = malloc(WS * sizeof(*order));
	ASSERT_NE(NULL, order);
	for (pass = 0; pass < 2; pass++) {
		for (i = 0; i < WS; i++)
			order[i] = i + 1;
		for (i = WS - 1; i > 0; i--) {
			__u32 j = (__u32)(tst_rand(&rng) % (i + 1));
			__u32 tmp = order[i];

			order[i] = order[j];
			order[j] = tmp;
		}
		for (i = 0; i < WS; i++) {
			CHECKED_QUERY(order[i], TSID);
			if ((i + 1) % BATCH)
				continue;
			TST_OK(tst_read_hash_stats(&hs));
			ASSERT_GE(SMALL, hs.entries)
				TH_LOG("pass %u, after %u queries", pass, i + 1);
			if (hs.entries > max_entries)
				max_entries = hs.entries;
		}
	}
	free(order);
	TST_QUIESCE(TST_QUIESCE_MS, &hs, &cs1);
	alloc_d = tst_stat_delta(&cs0, &cs1, TST_ALLOCATIONS);
	free_d = tst_stat_delta(&cs0, &cs1, TST_FREES);
	recl_d = tst_stat_delta(&cs0, &cs1, TST_RECLAIMS);
	tst_diag("%u queries: %u allocations, %u reclaims, %u frees, at most %ld entries",
		 2 * WS, alloc_d, recl_d, free_d, max_entries);
	EXPECT_EQ(2 * WS, tst_stat_delta(&cs0, &cs1, TST_LOOKUPS));
	EXPECT_EQ(2 * WS, tst_stat_delta(&cs0, &cs1, TST_HITS) +
			  tst_stat_delta(&cs0, &cs1, TST_MISSES));
	/*
	 * Every miss inserts (one thread, one policy), but in the background
	 * those that find the cache full, which allocate nothing.
	 */
	EXPECT_TRUE(self->bg ? tst_stat_delta(&cs0, &cs1, TST_MISSES) >= alloc_d :
		    tst_stat_delta(&cs0, &cs1, TST_MISSES) == alloc_d)
		TH_LOG("%u misses, %u allocations",
		       tst_stat_delta(&cs0, &cs1, TST_MISSES), alloc_d);
	/*
	 * Far more inserts than the cache holds (in the background, fewer
	 * than the misses: those that found the cache full allocate none).
	 */
	EXPECT_LT(self->bg ? 4 * SMALL : WS, alloc_d);
	/* Only reclaim freed entries, and it kept the cache small. */
	EXPECT_EQ(recl_d, free_d);
	EXPECT_LE(alloc_d - SMALL, recl_d);
	EXPECT_GE(SMALL, hs.entries);
	EXPECT_EQ((__u32)hs.entries,
		  cs1.sum[TST_ALLOCATIONS] - cs1.sum[TST_FREES]);
}

TEST_F_TIMEOUT(rec, raise_then_lower, 600)
{
	struct tst_cache_stats_sum cs0, cs1, cs2, cs3;
	struct tst_hash_stats_file hs0, hs1, hs2;
	__u32 s, grow = 2000;
	long slots;

	/*
	 * A bucket holds at most 32 entries: in a small fixed table, grow
	 * only to chains of 8 on average, which never reach that.
	 */
	slots = tst_expected_slots(LARGE);
	ASSERT_LT(0, slots);
	if (slots * 8 - SMALL < grow)
		grow = slots * 8 - SMALL;

	/* Fill up to the small threshold first. */
	TST_OK(tst_write_threshold(SMALL));
	for (s = 1; s <= 4 * SMALL; s++)
		CHECKED_QUERY(s, TSID);
	TST_QUIESCE(TST_QUIESCE_MS, &hs0, &cs0);
	ASSERT_GE(SMALL, hs0.entries);

	/* Raised: new keys stay, nothing is reclaimed. */
	TST_OK(tst_write_threshold(LARGE));
	for (s = 1; s <= grow; s++)
		CHECKED_QUERY(s, TSID + 1);
	TST_QUIESCE(TST_QUIESCE_MS, &hs1, &cs1);
	EXPECT_EQ(hs0.entries + (long)grow, hs1.entries);
	EXPECT_EQ(grow, tst_stat_delta(&cs0, &cs1, TST_MISSES));
	EXPECT_EQ(grow, tst_stat_delta(&cs0, &cs1, TST_ALLOCATIONS));
	EXPECT_EQ(0, tst_stat_delta(&cs0, &cs1, TST_RECLAIMS));
	EXPECT_EQ(0, tst_stat_delta(&cs0, &cs1, TST_FREES));
	/* And they are hits now. */
	for (s = 1; s <= grow; s++)
		CHECKED_QUERY(s, TSID + 1);
	TST_OK(tst_read_cache_stats(&cs2));
	EXPECT_EQ(grow, tst_stat_delta(&cs1, &cs2, TST_HITS));
	EXPECT_EQ(0, tst_stat_delta(&cs1, &cs2, TST_MISSES));

	if (self->bg) {
		/*
		 * Lowered below the live count: the write returns with the
		 * reclaimer done, the cache at its new low watermark; from
		 * there inserts are cached.
		 */
		TST_OK(tst_write_threshold(SMALL));
		TST_QUIESCE(TST_QUIESCE_MS, &hs2, &cs3);
		EXPECT_GE((long)low_of(SMALL), hs2.entries);
		EXPECT_LT((long)low_of(SMALL) - CHUNK, hs2.entries);
		EXPECT_EQ(hs1.entries - hs2.entries,
			  (long)tst_stat_delta(&cs2, &cs3, TST_RECLAIMS));
		CHECKED_QUERY(WS + 1, TSID + 2);
		CHECKED_QUERY(WS + 1, TSID + 2);
		TST_OK(tst_read_cache_stats(&cs2));
		EXPECT_EQ(1, tst_stat_delta(&cs3, &cs2, TST_HITS));
		EXPECT_EQ(1, tst_stat_delta(&cs3, &cs2, TST_MISSES));
		return;
	}
	/* Lowered below the live count: nothing happens until an insert. */
	TST_OK(tst_write_threshold(SMALL));
	TST_OK(tst_read_hash_stats(&hs2));
	EXPECT_EQ(hs1.entries, hs2.entries);
	/*
	 * One insert over the threshold reclaims one chunk; the cache still
	 * above the threshold, its own decision is not cached: a miss again.
	 */
	CHECKED_QUERY(WS + 1, TSID + 2);
	TST_QUIESCE(TST_QUIESCE_MS, &hs2, &cs3);
	EXPECT_EQ(CHUNK, tst_stat_delta(&cs2, &cs3, TST_RECLAIMS));
	EXPECT_EQ(CHUNK, tst_stat_delta(&cs2, &cs3, TST_FREES));
	EXPECT_EQ(hs1.entries - CHUNK, hs2.entries);
	CHECKED_QUERY(WS + 1, TSID + 2);
	TST_OK(tst_read_cache_stats(&cs2));
	EXPECT_EQ(1, tst_stat_delta(&cs3, &cs2, TST_MISSES));
	/*
	 * Each insert evicts a chunk until the cache is back within the
	 * threshold; from there inserts are cached again.
	 */
	for (s = 0; s <= (hs2.entries - SMALL) / CHUNK + 4; s++)
		CHECKED_QUERY(WS + 2 + s, TSID + 2);
	TST_OK(tst_read_hash_stats(&hs2));
	EXPECT_GE(SMALL, hs2.entries);
	EXPECT_LT(0, hs2.entries);
	CHECKED_QUERY(WS + 2 + s - 1, TSID + 2);
	TST_OK(tst_read_cache_stats(&cs3));
	EXPECT_EQ(1, tst_stat_delta(&cs2, &cs3, TST_HITS))
		TH_LOG("the last insert, within the threshold, was not cached");
}

/*
 * The limit pinned exactly.  Inline: from an empty cache, cache_threshold
 * inserts leave exactly cache_threshold entries and reclaim nothing; the
 * next insert reclaims one chunk (or all there is) before it links its
 * entry.  Background: inserts up to the high watermark leave them all and
 * reclaim nothing; the next wakes the reclaimer, which leaves the cache at
 * its low watermark or a chunk's worth less.
 */
TEST_F_TIMEOUT(rec, exactly_threshold, 300)
{
	static const __u32 thr[] = { 1, 2, CHUNK - 1, CHUNK, CHUNK + 1, 100,
				     1000 };
	struct tst_cache_stats_sum cs0, cs1, cs2;
	struct tst_hash_stats_file hs;
	__u32 t, s, gone, fill;
	size_t i;

	for (i = 0; i < ARRAY_LEN(thr); i++) {
		t = thr[i];
		/* A bucket holds 32: a small fixed table takes a few only. */
		if (tst_expected_slots(t) * 8 < (long)t)
			continue;
		fill = self->bg ? high_of(t) : t;
		TST_OK(tst_write_threshold(t));
		TST_OK(load_working_set(&self->seq));
		TST_QUIESCE(TST_QUIESCE_MS, &hs, &cs0);
		ASSERT_EQ(0, hs.entries);
		for (s = 1; s <= fill; s++)
			CHECKED_QUERY(s, TSID);
		TST_QUIESCE(TST_QUIESCE_MS, &hs, &cs1);
		EXPECT_EQ(fill, hs.entries)
			TH_LOG("threshold %u: %u inserts into an empty cache",
			       t, fill);
		EXPECT_EQ(fill, tst_stat_delta(&cs0, &cs1, TST_ALLOCATIONS));
		EXPECT_EQ(0, tst_stat_delta(&cs0, &cs1, TST_RECLAIMS))
			TH_LOG("threshold %u: reclaimed at %ld entries", t,
			       hs.entries);

		CHECKED_QUERY(fill + 1, TSID);
		if (self->bg) {
			/* The write waits for the reclaimer's work. */
			TST_OK(tst_write_threshold(t));
			TST_QUIESCE(TST_QUIESCE_MS, &hs, &cs2);
			EXPECT_GE((long)low_of(t), hs.entries)
				TH_LOG("threshold %u: %ld entries after the wake",
				       t, hs.entries);
			EXPECT_LT((long)low_of(t) - CHUNK, hs.entries);
			EXPECT_EQ(fill + 1 - hs.entries,
				  tst_stat_delta(&cs1, &cs2, TST_RECLAIMS));
			continue;
		}
		TST_QUIESCE(TST_QUIESCE_MS, &hs, &cs2);
		gone = t < CHUNK ? t : CHUNK;
		EXPECT_EQ(gone, tst_stat_delta(&cs1, &cs2, TST_RECLAIMS))
			TH_LOG("threshold %u: insert number %u", t, t + 1);
		EXPECT_EQ((long)(t + 1 - gone), hs.entries);
		/* The new entry stayed: a hit now. */
		CHECKED_QUERY(t + 1, TSID);
		TST_OK(tst_read_cache_stats(&cs1));
		EXPECT_EQ(1, tst_stat_delta(&cs2, &cs1, TST_HITS));
	}
}

TEST_F_TIMEOUT(rec, threshold_one, 300)
{
	struct tst_hash_stats_file hs;
	__u32 s;

	TST_OK(tst_write_threshold(1));
	for (s = 1; s <= 300; s++) {
		CHECKED_QUERY(s, TSID);
		CHECKED_QUERY(s, TSID);
		TST_OK(tst_read_hash_stats(&hs));
		ASSERT_GE(1, hs.entries);
	}
}

struct hitter {
	atomic_int *stop;
	__u32 seq;
	long hits;
	int err;
};

/* Hit one cached key (ssid 1) until told to stop. */
static void *hitter(void *arg)
{
	struct hitter *h = arg;
	struct tst_reply r;

	while (!atomic_load(h->stop)) {
		h->err = tst_access(1, TSID, TCLASS, 0, &r);
		if (h->err || r.allowed != perms_of(1) || r.seqno != h->seq) {
			h->err = h->err ?: -EBADMSG;
			break;
		}
		h->hits++;
	}
	return NULL;
}

/*
 * At threshold 16, every CPU but one hits one cached key while the last
 * inserts fresh keys: the cache never holds more than the threshold, and
 * reclaims keep rising, in every sync mode.  The walk of hash_stats runs
 * while the hitters may be inserting their key again (a reclaim evicted
 * it), so it may count that key once beside the threshold's entries.
 */
TEST_F_TIMEOUT(rec, bound_while_others_hit, 300)
{
	const long bound_thr = 16;
	long cpus = sysconf(_SC_NPROCESSORS_ONLN), i, max_entries = 0;
	long secs = tst_env_long("AVC_STRESS_SECONDS", 3), bound;
	struct tst_cache_stats_sum cs0, cs1, cs_prev;
	struct tst_hash_stats_file hs;
	atomic_int stop = 0;
	struct hitter *h;
	pthread_t *t;
	__u64 end;
	__u32 key = WS + 1000, rounds = 0;

	ASSERT_LT(0, cpus);
	bound = bound_thr + 1;
	TST_OK(tst_write_threshold(bound_thr));
	CHECKED_QUERY(1, TSID);
	h = calloc(cpus, sizeof(*h));
	t = calloc(cpus, sizeof(*t));
	ASSERT_NE(NULL, h);
	ASSERT_NE(NULL, t);
	for (i = 0; i < cpus - 1; i++) {
		h[i].stop = &stop;
		h[i].seq = self->seq;
		ASSERT_EQ(0, pthread_create(&t[i], NULL, hitter, &h[i]));
	}
	TST_OK(tst_read_cache_stats(&cs0));
	cs_prev = cs0;
	end = tst_now_ms() + 1000 * secs;
	while (tst_now_ms() < end) {
		struct tst_reply r;

		for (i = 0; i < 64; i++)
			TST_QUERY(key++, TSID, TCLASS, 0, &r);
		TST_OK(tst_read_hash_stats(&hs));
		if (hs.entries > max_entries)
			max_entries = hs.entries;
		EXPECT_GE(bound, hs.entries)
			TH_LOG("%ld entries at threshold %ld with %ld CPUs",
			       hs.entries, bound_thr, cpus);
		TST_OK(tst_read_cache_stats(&cs1));
		/*
		 * 64 fresh keys into a cache at its threshold: inline, each
		 * round reclaims; the background reclaimer may run later.
		 */
		if (!self->bg) {
			EXPECT_LT(0, tst_stat_delta(&cs_prev, &cs1,
						    TST_RECLAIMS))
				TH_LOG("64 fresh keys, nothing reclaimed");
		}
		cs_prev = cs1;
		rounds++;
	}
	atomic_store(&stop, 1);
	for (i = 0; i < cpus - 1; i++) {
		pthread_join(t[i], NULL);
		EXPECT_EQ(0, h[i].err) TH_LOG("hitter %ld: %s", i,
					      strerror(-h[i].err));
	}
	tst_diag("%u rounds of 64 inserts, %ld hitters, %u reclaims, %s %ld entries (bound %ld)",
		 rounds, cpus - 1, tst_stat_delta(&cs0, &cs_prev, TST_RECLAIMS),
		 "at most", max_entries, bound);
	EXPECT_LT(0, rounds);
	EXPECT_LT(0, tst_stat_delta(&cs0, &cs_prev, TST_RECLAIMS));
	free(h);
	free(t);
}

TEST_HARNESS_MAIN
