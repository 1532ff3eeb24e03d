/* SPDX-License-Identifier: GPL-2.0 */
/*
 * avc_rcu core: the access vector cache and the security-server stand-in.
 *
 * This header is the boundary of the core.  Everything below it depends only
 * on lists, RCU, spinlocks, a slab cache and per-CPU counters; it knows
 * nothing of files, mounts or module parameters.  See
 * Documentation/design.rst for the locking rules and memory ordering.
 */
#ifndef _AVC_RCU_CORE_H
#define _AVC_RCU_CORE_H

#include <linux/atomic.h>
#include <linux/cache.h>
#include <linux/jump_label.h>
#include <linux/list.h>
#include <linux/mutex.h>
#include <linux/percpu.h>
#include <linux/spinlock.h>
#include <linux/types.h>
#include <avc_rcu/avc_rcu.h>

/**
 * enum avc_sync - how lookups and updates are serialised
 * @AVC_SYNC_RCU: lockless RCU lookups, per-bucket update locks
 * @AVC_SYNC_SPINLOCK: one global irq-safe spinlock around everything,
 *	the design before 2004
 * @AVC_SYNC_RWLOCK: one global irq-safe reader/writer lock, the variant
 *	tried and rejected in 2004
 */
enum avc_sync {
	AVC_SYNC_RCU,
	AVC_SYNC_SPINLOCK,
	AVC_SYNC_RWLOCK,
};

/**
 * struct avc_key - what a decision is cached under
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

struct avc_policydb;

/**
 * struct avc_ss - the security-server stand-in: a policy published by RCU
 * @db: the policy in force; readers use rcu_dereference()
 * @load_lock: serialises loads (never taken by lookups)
 */
struct avc_ss {
	struct avc_policydb __rcu *db;
	struct mutex load_lock;	/* serialises loads; lookups never take it */
};

/**
 * struct avc_cache - one access vector cache
 * @slots: bucket heads
 * @mask: number of buckets minus one (the count is a power of two)
 * @seed: hash seed, random per cache
 * @stats: per-CPU event counters
 * @ss: the security server answering misses
 * @slot_locks: per-bucket update locks (rcu mode)
 * @big: the global lock of the spinlock and rwlock modes
 * @big.spin: the global spinlock (spinlock mode)
 * @big.rw: the global reader/writer lock (rwlock mode)
 * @threshold: live entries above which inserts reclaim
 * @latest_seqno: newest policy seqno the cache was reset for; decisions
 *	computed under an older policy are not inserted
 * @active: live (linked) entries
 * @reclaim_hint: rotating bucket index where the next reclaim starts
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
	spinlock_t *slot_locks;	/* per bucket, rcu mode updates */

	union {
		spinlock_t spin;	/* everything, spinlock mode */
		rwlock_t rw;		/* everything, rwlock mode */
	} big ____cacheline_aligned_in_smp;

	unsigned int threshold ____cacheline_aligned_in_smp;
	u32 latest_seqno;
	atomic_t active;
	atomic_t reclaim_hint;
};

/* sync.c: the synchronisation mode, chosen once before any cache exists */
DECLARE_STATIC_KEY_FALSE(avc_sync_locked_key);
extern enum avc_sync avc_sync_mode;
int avc_sync_select(enum avc_sync mode);
int avc_sync_parse(const char *name, enum avc_sync *mode);
const char *avc_sync_name(enum avc_sync mode);

/**
 * avc_sync_locked() - true unless lookups run lockless under RCU
 *
 * Return: true in the spinlock and rwlock modes.  The test is a static
 * branch: in rcu mode it is a patched-out no-op, so choosing the mode at
 * load time costs the RCU lookup path nothing.
 */
#ifdef AVC_RCU_BENCH_RCU_ONLY
/* make bench's control build: no choice of mode at all, only rcu. */
static __always_inline bool avc_sync_locked(void)
{
	return false;
}
#else
static __always_inline bool avc_sync_locked(void)
{
	return static_branch_unlikely(&avc_sync_locked_key);
}
#endif

/* cache.c */
int avc_core_init(void);
void avc_core_exit(void);
struct avc_cache *avc_cache_create(struct avc_ss *ss, unsigned int nslots,
				   unsigned int threshold);
void avc_cache_destroy(struct avc_cache *c);
int avc_cache_has_perm(struct avc_cache *c, u32 ssid, u32 tsid, u16 tclass,
		       u32 requested, struct avc_rcu_decision *avd);
void avc_cache_flush(struct avc_cache *c);
void avc_cache_reset(struct avc_cache *c, u32 seqno);
unsigned int avc_cache_threshold(const struct avc_cache *c);
void avc_cache_set_threshold(struct avc_cache *c, unsigned int threshold);

/* stats.c */
void avc_cache_stats_read(const struct avc_cache *c, int cpu,
			  struct avc_cache_stats *out);
void avc_cache_stats_sum(const struct avc_cache *c,
			 struct avc_cache_stats *sum);
void avc_cache_hash_stats(struct avc_cache *c, struct avc_hash_stats *hs);

/* policy.c */
int avc_ss_init(struct avc_ss *ss);
void avc_ss_destroy(struct avc_ss *ss);
void avc_ss_compute(struct avc_ss *ss, const struct avc_key *key,
		    struct avc_rcu_decision *avd);
int avc_ss_load(struct avc_ss *ss, const char *text, size_t len,
		u32 *seqno);
u32 avc_ss_seqno(struct avc_ss *ss);

/* parse.c */
int avc_parse_u32(const char *s, size_t len, u32 *val);
int avc_parse_fields(const char *s, size_t len, u32 *vals,
		     unsigned int nvals);

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
