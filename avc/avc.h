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
#include <linux/mutex.h>
#include <linux/percpu.h>
#include <linux/types.h>
#include <linux/workqueue.h>
#include <avc_rcu/avc_rcu.h>
#include "ss.h"
#include "sync.h"

struct avc_node;
struct avc_table;

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
 * @entries: nodes linked in the table (in both tables, during a resize)
 * @buckets_used: buckets holding at least one node (of the newest table)
 * @buckets: number of buckets (of the newest table)
 * @longest_chain: length of the longest bucket (of either)
 */
struct avc_hash_stats {
	int entries;
	int buckets_used;
	int buckets;
	int longest_chain;
};

/*
 * The work of reclaim, in nodes examined under a lock (see
 * Documentation/design.rst, "Bounds"):
 *
 * AVC_RECLAIM_CHUNK	entries one reclaim section evicts, at most
 * AVC_NODE_BUDGET	nodes one section that holds a lock of the cache
 *			examines, at most, whatever slots, threshold, policy
 *			and hit density: four times upstream's 16 evictions
 *			(AVC_CACHE_RECLAIM), each of which examines a node
 * AVC_CLOCK_BUDGET	of which lru's first pass (CLOCK) may use; the rest,
 *			at least a chunk, evicts by age when the first pass
 *			found too few entries not referenced
 * AVC_RECLAIM_BUCKETS	bucket heads one section reads, at most (an empty
 *			bucket costs one load; upstream's reclaim tries
 *			AVC_CACHE_SLOTS buckets)
 * AVC_CHAIN_MAX	entries one bucket holds, at most: an insert into a
 *			full bucket evicts one of it first, so that an
 *			insert's search, under the bucket's lock, examines
 *			at most this many nodes however the table is sized
 * AVC_SLOTS_FOLLOW_MIN	the fewest buckets of a table that follows
 *			cache_threshold (upstream's AVC_CACHE_SLOTS)
 */
#define AVC_RECLAIM_CHUNK	16
#define AVC_NODE_BUDGET		64
#define AVC_CLOCK_BUDGET	(AVC_NODE_BUDGET - AVC_RECLAIM_CHUNK)
#define AVC_RECLAIM_BUCKETS	512
#define AVC_CHAIN_MAX		32
#define AVC_SLOTS_FOLLOW_MIN	512

/**
 * enum avc_reclaimer - where reclaim runs
 * @AVC_RECLAIMER_INLINE: the miss that takes a place past cache_threshold
 *	reclaims one section before it links, as upstream's does
 * @AVC_RECLAIMER_BACKGROUND: a work item, in process context with
 *	interrupts on, woken when the cache passes its high watermark and
 *	evicting down to its low one; a miss only wakes it, and at
 *	cache_threshold a miss's decision is not cached
 */
enum avc_reclaimer {
	AVC_RECLAIMER_INLINE,
	AVC_RECLAIMER_BACKGROUND,
};

/**
 * struct avc_cache_params - how a cache is made
 * @slots: buckets, a power of two, fixed for the cache's life; 0: the
 *	table follows cache_threshold (avc_slots_for())
 * @threshold: the initial cache_threshold
 * @seed: the hash seed of every table; 0: each table draws its own at
 *	random, never 0 (a fixed seed makes the buckets of keys, and so
 *	reclaim, reproducible)
 * @reclaimer: where reclaim runs
 */
struct avc_cache_params {
	unsigned int slots;
	unsigned int threshold;
	u32 seed;
	enum avc_reclaimer reclaimer;
};

/**
 * struct avc_cache - one access vector cache
 * @table: the buckets (struct avc_table in node.h), replaced by a resize
 * @stats: per-CPU event counters
 * @ss: the security server answering misses
 * @locks: the global lock: the locked modes' only lock, rcu mode's reclaim
 *	lock (sync.h)
 * @threshold: the most entries the cache may hold (cache_threshold)
 * @latest_seqno: newest policy seqno the cache was reset for; decisions
 *	computed under an older policy are not inserted
 * @active: places taken: linked entries, plus the inserts in flight that
 *	reserved a place and have not yet linked or given it back
 * @reclaim_hint: the bucket where the last reclaim section's hand stopped
 * @evicted: the nodes the reclaim section in progress evicted (rcu mode),
 *	to be freed together after one grace period
 * @reclaimer: where reclaim runs
 * @pinned_slots: the buckets the cache was made with, or 0 if its table
 *	follows cache_threshold
 * @seed: the seed every table is made with, or 0 for a random one each
 * @work: the background reclaimer, and the resize (both reclaimers)
 * @resize_lock: held by a resize and by what may not run beside one
 *
 * The locking rules, stated once (Documentation/design.rst argues them):
 *
 *  - @table and each table's @future: published with rcu_assign_pointer()
 *    under @resize_lock, read under RCU; a table is freed after a grace
 *    period once @table no longer points to it;
 *  - a table's buckets: read under rcu_read_lock() in rcu mode, under the
 *    global lock in the locked modes; changed only under the bucket's
 *    update lock (avc_bucket_lock()), with interrupts off (on PREEMPT_RT:
 *    with migration off), holding no other lock of the cache but the
 *    reclaim lock (the reclaim trylocks buckets under it) or, in a resize,
 *    the lock of the old table's bucket the entry leaves (the old table's
 *    lock first); a node is never written after it is linked, but for its
 *    referenced byte, and is freed only when no reader can hold it
 *    (call_rcu() in rcu mode, at once in the locked modes, whose readers
 *    hold the lock the unlinker holds);
 *  - @latest_seqno: only raised (cmpxchg()), before a reset locks each
 *    bucket; read by inserters and by a resize under the bucket lock;
 *  - @threshold: xchg() and READ_ONCE(), no lock;
 *  - @active: atomic_t, no lock; an insert takes its place with
 *    atomic_inc_return() before it links, so the count never misses an
 *    insert on its way to a link (an inline miss past the threshold
 *    holds none while it reclaims, then takes one again);
 *  - @reclaim_hint, @evicted: under the reclaim lock (avc_reclaim_lock());
 *  - @stats: each CPU writes only its own, with this_cpu_*().
 *
 * The first cache line holds only what the lookup path reads; the fields
 * written by updates live on later lines so that inserts and reclaims do
 * not bounce the line every lookup needs.
 */
struct avc_cache {
	struct avc_table __rcu *table;
	struct avc_cache_stats __percpu *stats;
	struct avc_ss *ss;

	struct avc_locks locks;

	unsigned int threshold ____cacheline_aligned_in_smp;
	u32 latest_seqno;
	atomic_t active;
	unsigned int reclaim_hint;
	struct avc_node *evicted;
	enum avc_reclaimer reclaimer;
	unsigned int pinned_slots;
	u32 seed;
	struct work_struct work;
	struct mutex resize_lock;	/* one resize; see above */
};

/* cache.c */
int avc_core_init(void);
void avc_core_exit(void);
struct avc_cache *avc_cache_create(struct avc_ss *ss,
				   const struct avc_cache_params *p);
void avc_cache_destroy(struct avc_cache *c);
int avc_cache_has_perm(struct avc_cache *c, u32 ssid, u32 tsid, u16 tclass,
		       u32 requested, struct avc_rcu_decision *avd);
void avc_cache_flush(struct avc_cache *c);
void avc_cache_reset(struct avc_cache *c, u32 seqno);
unsigned int avc_cache_threshold(const struct avc_cache *c);
void avc_cache_set_threshold(struct avc_cache *c, unsigned int threshold);
void avc_cache_settle(struct avc_cache *c);
unsigned int avc_cache_slots(struct avc_cache *c);
bool avc_cache_slots_pinned(const struct avc_cache *c);
u32 avc_cache_seed(struct avc_cache *c);
unsigned int avc_cache_entries(const struct avc_cache *c);

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
 * @AVC_INSERT_FULL: not cached: the cache was at its threshold, and
 *	either the background reclaimer had not yet made room or (inline)
 *	it was there again after the miss's reclaim section (nothing to
 *	evict in its reach, a lowered threshold the cache is still above,
 *	or the room made taken by other misses first)
 * @AVC_INSERT_CHAIN: linked, after evicting one entry of its bucket,
 *	which held AVC_CHAIN_MAX entries
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
	AVC_INSERT_CHAIN,
};

/* reclaim.c: the policy, chosen once before any cache exists */
DECLARE_STATIC_KEY_TRUE(avc_reclaim_lru_key);
int avc_reclaim_select(enum avc_reclaim_policy policy);
int avc_reclaim_parse(const char *name, enum avc_reclaim_policy *policy);
const char *avc_reclaim_name(enum avc_reclaim_policy policy);
int avc_reclaimer_parse(const char *name, enum avc_reclaimer *reclaimer);
const char *avc_reclaimer_name(enum avc_reclaimer reclaimer);
unsigned int avc_reclaim(struct avc_cache *c);
unsigned int avc_reclaim_room(struct avc_cache *c);
void avc_reclaim_wake(struct avc_cache *c);
void avc_reclaim_work(struct work_struct *work);
unsigned int avc_watermark_high(unsigned int threshold);
unsigned int avc_watermark_low(unsigned int threshold);

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
