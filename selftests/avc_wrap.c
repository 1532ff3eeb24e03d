// SPDX-License-Identifier: GPL-2.0
/*
 * avc_rcu across the policy seqno's wrap-around at 2^32.  Run with the
 * test-only parameter seqno_start just below 2^32 in AVC_RCU_PARAMS (as
 * make check's lanes run avc_concurrency and the torture test too):
 * loads then cross the wrap within a few.  Each load must
 * give seqno + 1 modulo 2^32, an empty cache, the new policy's decisions
 * under the new seqno, and a cache that still caches: a comparison of
 * seqnos that is not wrap-safe takes every decision after the wrap for
 * one older than the last reset and never links it.
 *
 * A module the program loaded itself starts at seqno_start.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kselftest_harness.h"
#include "avc_test.h"

#define SEQNO_START	"/sys/module/avc_rcu/parameters/seqno_start"
/* How close below 2^32 the module must start for the loads to cross. */
#define NEAR		16
#define LOADS		(2 * NEAR)

FIXTURE(wrap) {
	struct tst_saved_threshold thr;
	__u32 start;
};

FIXTURE_SETUP(wrap)
{
	char line[32];

	TST_ASSERT_MOUNTED();
	TST_SAVE_THRESHOLD(&self->thr);
	ASSERT_EQ(0, tst_read_line(SEQNO_START, line, sizeof(line)))
		TH_LOG("no %s: a module without seqno_start", SEQNO_START);
	self->start = (__u32)strtoul(line, NULL, 10);
	ASSERT_LT(0xffffffffu - NEAR, self->start)
		TH_LOG("seqno_start=%u: load the module with seqno_start above %u",
		       self->start, 0xffffffffu - NEAR);
}

FIXTURE_TEARDOWN(wrap)
{
	TST_RESTORE_THRESHOLD(&self->thr);
}

TEST_F(wrap, starts_at_seqno_start)
{
	struct tst_decision deny = { 0, 0, 0xffffffff, 0 };
	__u32 seq;

	TST_OK(tst_read_seqno(&seq));
	if (!tst_module_fresh())
		SKIP(return, "not a fresh module: seqno %u", seq);
	EXPECT_EQ(self->start, seq);
	/* The empty policy, under its seqno, and cached like any other. */
	TST_EXPECT_DECISION(1, 2, 3, &deny, seq);
	TST_EXPECT_DECISION(1, 2, 3, &deny, seq);
}

/* The allow mask of key (k, 2, 3) in the policy loaded at seqno q. */
static __u32 perm_of(__u32 k, __u32 q)
{
	return tst_mix(k, 2, 3, q) | 1;
}

TEST_F(wrap, loads_across_the_wrap)
{
	struct tst_cache_stats_sum c0, c1, c2;
	struct tst_hash_stats_file hs;
	struct tst_buf t = { 0 };
	__u32 s, next, now, k;
	int i, crossed = 0;

	TST_OK(tst_write_threshold(512));
	TST_OK(tst_read_seqno(&s));
	ASSERT_TRUE(s > 0xffffffffu - NEAR || s < LOADS)
		TH_LOG("seqno %u is not near the wrap", s);
	for (i = 0; i < LOADS; i++) {
		next = s + 1;
		t.len = 0;
		for (k = 1; k <= 8; k++)
			tst_buf_printf(&t, "allow %u 2 3 0x%x\n", k,
				       perm_of(k, next));
		TST_LOAD(t.data, t.len, &now);
		ASSERT_EQ(next, now) TH_LOG("seqno %u after %u", now, s);
		crossed |= now == 0;
		TST_OK(tst_read_hash_stats(&hs));
		EXPECT_EQ(0, hs.entries)
			TH_LOG("seqno %u: %ld entries right after the load",
			       now, hs.entries);
		TST_OK(tst_read_cache_stats(&c0));
		for (k = 1; k <= 8; k++) {
			struct tst_decision d = { perm_of(k, now), 0,
						  0xffffffff, 0 };

			TST_EXPECT_DECISION(k, 2, 3, &d, now);
		}
		TST_OK(tst_read_cache_stats(&c1));
		EXPECT_EQ(8, tst_stat_delta(&c0, &c1, TST_MISSES));
		/* Cached under the new seqno: hits now. */
		for (k = 1; k <= 8; k++) {
			struct tst_decision d = { perm_of(k, now), 0,
						  0xffffffff, 0 };

			TST_EXPECT_DECISION(k, 2, 3, &d, now);
		}
		TST_OK(tst_read_cache_stats(&c2));
		EXPECT_EQ(8, tst_stat_delta(&c1, &c2, TST_HITS))
			TH_LOG("seqno %u: decisions not cached", now);
		TST_OK(tst_read_hash_stats(&hs));
		EXPECT_EQ(8, hs.entries);
		s = now;
	}
	EXPECT_TRUE(crossed) TH_LOG("%d loads from %u never reached seqno 0",
				    LOADS, s - LOADS);
	tst_buf_free(&t);
}

TEST_HARNESS_MAIN
