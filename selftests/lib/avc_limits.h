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

#endif /* _AVC_TEST_LIMITS_H */
