/* SPDX-License-Identifier: GPL-2.0 */
/*
 * avc_rcu core: cache nodes, the hash and the bucket search.
 *
 * Private to avc/.  A node is immutable once linked: a changed decision is
 * a new node that replaces the old one, so a lockless reader always sees a
 * whole decision.
 */
#ifndef _AVC_RCU_NODE_H
#define _AVC_RCU_NODE_H

#include <linux/compiler.h>
#include <linux/jhash.h>
#include <linux/rculist.h>
#include <linux/rcupdate.h>
#include "avc.h"

/**
 * struct avc_node - one cached decision, in one 64-byte cache line
 * @list: bucket linkage, traversed under RCU
 * @ssid: source SID of the key
 * @tsid: target SID of the key
 * @tclass: target class of the key
 * @referenced: CLOCK's referenced bit (reclaim=lru): set by a hit that
 *	finds it clear, cleared by a reclaim that passes the node over
 * @dec: the decision; never written after the node is linked
 * @rhead: deferred free
 *
 * Once unlinked, @list.next stays as it was, for readers still on the
 * node; @list.pprev, which no reader follows, chains a reclaim's evicted
 * nodes until they are freed (avc_node_evict()).
 *
 * Everything but @referenced is immutable once the node is linked: a
 * changed decision is a new node that replaces the old one, so a lockless
 * reader always copies a whole decision.  The key is spelled out rather
 * than a struct avc_key, whose tail padding would push the node past one
 * cache line.
 */
struct avc_node {
	struct hlist_node list;
	u32 ssid;
	u32 tsid;
	u16 tclass;
	u8 referenced;
	struct avc_rcu_decision dec;
	struct rcu_head rhead;
};

/**
 * avc_hash() - bucket index of a key
 * @c: the cache
 * @k: the key
 *
 * Bob Jenkins' lookup3 final mix over the whole triple, seeded per cache.
 * The old ssid ^ (tsid << 2) ^ (tclass << 4) leaves the high bits of the
 * SIDs out of small tables and lets nearby triples collide; this does not,
 * and the random seed keeps an unprivileged user of the access file from
 * choosing keys that pile into one bucket.
 *
 * Return: the bucket index, below the number of buckets.
 */
static __always_inline unsigned int avc_hash(const struct avc_cache *c,
					     const struct avc_key *k)
{
	return jhash_3words(k->ssid, k->tsid, k->tclass, c->seed) & c->mask;
}

static __always_inline bool avc_node_is(const struct avc_node *node,
					const struct avc_key *k)
{
	return node->ssid == k->ssid && node->tsid == k->tsid &&
	       node->tclass == k->tclass;
}

/**
 * avc_node_touch() - note a hit for the LRU approximation
 * @node: the node hit
 *
 * With reclaim=lru, sets the node's referenced bit if it is clear: a load
 * and a test, and a plain store only when the bit was clear, so a hot
 * node costs no store and no shared cache-line write after its first hit
 * following a sweep.  Never an atomic read-modify-write: two CPUs racing
 * here store the same value.  With the other policies it is a patched-out
 * static branch.
 */
static __always_inline void avc_node_touch(struct avc_node *node)
{
	if (avc_reclaim_lru() && !READ_ONCE(node->referenced))
		WRITE_ONCE(node->referenced, 1);
}

/**
 * avc_search() - find a key in its bucket
 * @c: the cache
 * @idx: the bucket, avc_hash() of @k
 * @k: the key
 *
 * The caller holds rcu_read_lock() (rcu mode), the global lock (locked
 * modes) or the bucket's update lock, which lockdep checks.  Holding either
 * lock is also an RCU read-side critical section: it disables interrupts,
 * or on PREEMPT_RT, where it does not, the sleeping lock takes
 * rcu_read_lock() itself (kernel/locking/spinlock_rt.c).
 *
 * Return: the node, or NULL.
 */
static __always_inline struct avc_node *avc_search(struct avc_cache *c,
						   unsigned int idx,
						   const struct avc_key *k)
{
	struct avc_node *node;

	hlist_for_each_entry_rcu(node, &c->slots[idx], list,
				 avc_bucket_lockdep_held(&c->locks, idx))
		if (avc_node_is(node, k))
			return node;
	return NULL;
}

/* cache.c: unlink under the bucket lock, free when no reader can hold it */
void avc_node_unlink(struct avc_cache *c, unsigned int idx,
		     struct avc_node *node);
/* the same for a reclaim, whose evictions share one grace period */
void avc_node_evict(struct avc_cache *c, unsigned int idx,
		    struct avc_node *node);
void avc_node_free_evicted(struct avc_node *chain);

#endif /* _AVC_RCU_NODE_H */
