/* SPDX-License-Identifier: GPL-2.0 */
/*
 * avc_rcu core: the access vector cache.
 *
 * This header is the boundary of the core.  Everything below it depends only
 * on lists, RCU, spinlocks, a slab cache and per-CPU counters; it knows
 * nothing of files, mounts or module parameters, and of the security
 * server only its interface (ss/ss.h).  The locking rules are stated at
 * struct avc_cache; Documentation/design.rst argues them and the memory
 * ordering they rely on.
 */
#ifndef _AVC_RCU_CORE_H
#define _AVC_RCU_CORE_H

#include <linux/atomic.h>
#include <linux/cache.h>
#include <linux/jump_label.h>
#include <linux/list.h>
#include <linux/percpu.h>
#include <linux/types.h>
#include <avc_rcu/avc_rcu.h>
#include "ss.h"
#include "sync.h"

/**
 * struct avc_key - what a decision is asked for, and cached under
 * @ssid: source security identifier
 * @tsid: target security identifier
 * @tclass: target security class
 */
struct avc_key {
	u32 ssid;
	u32 tsid;
	u16 tclass;
};

/**
 * struct avc_cache_stats - per-CPU event counters, wrapping at 2^32
 * @lookups: decisions asked of the cache
 * @hits: lookups answered from the cache
 * @misses: lookups answered by the security server
 * @allocations: cache nodes allocated
 * @reclaims: nodes evicted because the cache was over its threshold
 * @frees: nodes returned to the slab cache
 */
struct avc_cache_stats {
	u32 lookups;
	u32 hits;
	u32 misses;
	u32 allocations;
	u32 reclaims;
	u32 frees;
};

/**
 * struct avc_hash_stats - a walk of the hash table
 * @entries: nodes linked in the table
 * @buckets_used: buckets holding at least one node
 * @buckets: number of buckets
 * @longest_chain: length of the longest bucket
 */
struct avc_hash_stats {
	int entries;
	int buckets_used;
	int buckets;
	int longest_chain;
};

/**
 * struct avc_cache - one access vector cache
 * @slots: bucket heads
 * @mask: number of buckets minus one (the count is a power of two)
 * @seed: hash seed, random per cache
 * @stats: per-CPU event counters
 * @ss: the security server answering misses
 * @locks: the bucket locks or the global lock, by sync mode (sync.h)
 * @threshold: the most entries the cache may hold (cache_threshold)
 * @latest_seqno: newest policy seqno the cache was reset for; decisions
 *	computed under an older policy are not inserted
 * @active: places taken: linked entries, plus the inserts in flight that
 *	reserved a place and have not yet linked or given it back
 * @reclaim_hint: the bucket where the last reclaim's hand stopped
 * @evicted: the nodes the reclaim in progress evicted (rcu mode), to be
 *	freed together after one grace period
 *
 * The locking rules, stated once (Documentation/design.rst argues them):
 *
 *  - @slots: read under rcu_read_lock() in rcu mode, under the global lock
 *    in the locked modes; changed only under the bucket's update lock
 *    (avc_bucket_lock()), with interrupts off (on PREEMPT_RT: with
 *    migration off), holding no other lock of the cache but the reclaim
 *    lock (the reclaim trylocks buckets under it); a node is never written
 *    after it is linked, but for its referenced byte, and is freed only
 *    when no reader can hold it (call_rcu() in rcu mode, at once in the
 *    locked modes, whose readers hold the lock the unlinker holds);
 *  - @latest_seqno: only raised (cmpxchg()), before a reset locks each
 *    bucket; read by inserters under the bucket lock;
 *  - @threshold: xchg() and READ_ONCE(), no lock;
 *  - @active: atomic_t, no lock; an insert takes its place with
 *    atomic_inc_return() before it links, so the count never misses an
 *    insert in flight;
 *  - @reclaim_hint, @evicted: under the reclaim lock (avc_reclaim_lock());
 *  - @stats: each CPU writes only its own, with this_cpu_*().
 *
 * The first cache line holds only what the lookup path reads; the fields
 * written by updates live on later lines so that inserts and reclaims do
 * not bounce the line every lookup needs.
 */
struct avc_cache {
	struct hlist_head *slots;
	unsigned int mask;
	u32 seed;
	struct avc_cache_stats __percpu *stats;
	struct avc_ss *ss;

	struct avc_locks locks;

	unsigned int threshold ____cacheline_aligned_in_smp;
	u32 latest_seqno;
	atomic_t active;
	unsigned int reclaim_hint;
	struct avc_node *evicted;
};

/* cache.c */
int avc_core_init(void);
void avc_core_exit(void);
struct avc_cache *avc_cache_create(struct avc_ss *ss, unsigned int nslots,
				   unsigned int threshold, u32 seed);
void avc_cache_destroy(struct avc_cache *c);
int avc_cache_has_perm(struct avc_cache *c, u32 ssid, u32 tsid, u16 tclass,
		       u32 requested, struct avc_rcu_decision *avd);
void avc_cache_flush(struct avc_cache *c);
void avc_cache_reset(struct avc_cache *c, u32 seqno);
unsigned int avc_cache_threshold(const struct avc_cache *c);
void avc_cache_set_threshold(struct avc_cache *c, unsigned int threshold);
unsigned int avc_cache_slots(const struct avc_cache *c);
u32 avc_cache_seed(const struct avc_cache *c);

/**
 * enum avc_reclaim_policy - which entries a reclaim evicts
 * @AVC_RECLAIM_LRU: CLOCK, an approximation of least recently used: the
 *	oldest entries not hit since the reclaim hand last passed them
 * @AVC_RECLAIM_FIFO: the oldest entries of a bucket, by insertion
 * @AVC_RECLAIM_NEWEST: the newest entries of a bucket, as upstream 6.1's
 *	avc_reclaim_node() does
 */
enum avc_reclaim_policy {
	AVC_RECLAIM_LRU,
	AVC_RECLAIM_FIFO,
	AVC_RECLAIM_NEWEST,
};

/**
 * enum avc_insert_result - what became of a miss's decision (tracing only)
 * @AVC_INSERT_LINKED: linked as a new entry
 * @AVC_INSERT_REPLACED: replaced the entry of an older policy
 * @AVC_INSERT_RACED: dropped: a racing miss had linked it first
 * @AVC_INSERT_STALE: dropped: computed under a policy a reset retired
 * @AVC_INSERT_NOMEM: not cached: no node could be allocated
 * @AVC_INSERT_FULL: not cached: the cache was at its threshold and the
 *	reclaim found nothing it could evict in its reach
 *
 * The avc_rcu_insert event records the number; tracefs prints the name,
 * and bpftrace or perf scripts map one to the other as the event's format
 * file does (Documentation/admin-guide.rst, "Tracepoints").  Not an ABI,
 * but add a new result at the end rather than renumber the others; the
 * same goes for enum avc_reclaim_policy, the avc_rcu_reclaim event's.
 */
enum avc_insert_result {
	AVC_INSERT_LINKED,
	AVC_INSERT_REPLACED,
	AVC_INSERT_RACED,
	AVC_INSERT_STALE,
	AVC_INSERT_NOMEM,
	AVC_INSERT_FULL,
};

/* reclaim.c: the policy, chosen once before any cache exists */
DECLARE_STATIC_KEY_TRUE(avc_reclaim_lru_key);
int avc_reclaim_select(enum avc_reclaim_policy policy);
int avc_reclaim_parse(const char *name, enum avc_reclaim_policy *policy);
const char *avc_reclaim_name(enum avc_reclaim_policy policy);
unsigned int avc_reclaim(struct avc_cache *c);

/**
 * avc_reclaim_lru() - whether hits feed the LRU approximation
 *
 * Return: true with reclaim=lru.  A static branch: with the other policies
 * the hit path does not even test a referenced bit.
 */
static __always_inline bool avc_reclaim_lru(void)
{
	return static_branch_likely(&avc_reclaim_lru_key);
}

/* stats.c */
void avc_cache_stats_read(const struct avc_cache *c, int cpu,
			  struct avc_cache_stats *out);
void avc_cache_stats_sum(const struct avc_cache *c,
			 struct avc_cache_stats *sum);
void avc_cache_hash_stats(struct avc_cache *c, struct avc_hash_stats *hs);

/**
 * avc_decide() - the has-perm verdict for a decision
 * @avd: the decision
 * @requested: permissions asked for
 *
 * Return: 0 if every requested permission is allowed or the source is
 * permissive, -EACCES otherwise.
 */
static inline int avc_decide(const struct avc_rcu_decision *avd,
			     u32 requested)
{
	if (likely(!(requested & ~avd->allowed)))
		return 0;
	if (avd->flags & AVC_RCU_DECISION_PERMISSIVE)
		return 0;
	return -EACCES;
}

/**
 * avc_seqno_before() - wrap-safe "a is an older policy than b"
 * @a: a policy seqno
 * @b: a policy seqno
 *
 * Return: true if @a was published before @b, across wrap-around.
 */
static inline bool avc_seqno_before(u32 a, u32 b)
{
	return (s32)(a - b) < 0;
}

#endif /* _AVC_RCU_CORE_H */
