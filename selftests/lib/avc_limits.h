/* SPDX-License-Identifier: GPL-2.0 */
/*
 * avc_rcu tests: the core's reclaim bounds, which the tests assert.
 *
 * The module keeps them private to its core (avc/avc.h), as upstream
 * keeps AVC_CACHE_RECLAIM private to avc.c: they are not an interface.
 * The tests pin a copy here.  The copy cannot drift: tools/native builds
 * the core with this header included after avc/avc.h (lib/setup.c), and
 * a macro redefined with another value is a compiler error there, which
 * make check's native build reports.  Documentation/design.rst, "Bounds",
 * says what each means.
 */
#ifndef _AVC_TEST_LIMITS_H
#define _AVC_TEST_LIMITS_H

#define AVC_RECLAIM_CHUNK	16
#define AVC_NODE_BUDGET		64
#define AVC_CLOCK_BUDGET	(AVC_NODE_BUDGET - AVC_RECLAIM_CHUNK)
#define AVC_RECLAIM_BUCKETS	512
#define AVC_CHAIN_MAX		32
#define AVC_SLOTS_FOLLOW_MIN	512

/*
 * The background reclaimer's watermarks below threshold t, as
 * avc/reclaim.c sets them: a gap of t / 64, at least a chunk, at most
 * t / 4, at least 1, from t to the high one and again to the low one.
 * (The KUnit case avc_rcu_order.watermarks holds the module to a table of
 * values, which these must give too.)
 */
static inline unsigned int avc_test_gap(unsigned int t)
{
	unsigned int gap = t / 64 > AVC_RECLAIM_CHUNK ? t / 64 :
			   AVC_RECLAIM_CHUNK;

	gap = gap < t / 4 ? gap : t / 4;
	return gap ? gap : 1;
}

static inline unsigned int avc_test_high(unsigned int t)
{
	return t > avc_test_gap(t) ? t - avc_test_gap(t) : 0;
}

static inline unsigned int avc_test_low(unsigned int t)
{
	unsigned int h = avc_test_high(t), g = avc_test_gap(t);

	return h - (g < h ? g : h);
}

#endif /* _AVC_TEST_LIMITS_H */
