/* SPDX-License-Identifier: GPL-2.0 */
/*
 * avc_rcu core: cache nodes, the bucket table, the hash and the bucket
 * search.
 *
 * Private to avc/.  A node is immutable once linked, but for its
 * referenced byte: a changed decision is a new node that replaces the old
 * one, so a lockless reader always sees a whole decision.
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
 * @list: bucket linkage, traversed under RCU; a bucket lists its entries
 *	oldest first (an insert links at the tail)
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
 * struct avc_table - the buckets of a cache, replaced whole by a resize
 * @mask: number of buckets minus one (the count is a power of two)
 * @seed: the hash seed of this table
 * @locks: rcu mode: one update lock per bucket; NULL in the locked modes,
 *	whose global lock stands in for every bucket's
 * @future: the table a resize in progress moves this one's entries to,
 *	or NULL; set once, before the first entry moves, and never cleared
 * @rcu: frees the table once no reader can hold it
 * @slots: bucket heads, on a cache line of their own: a lookup reads the
 *	header, inserts write heads
 *
 * Lookups, inserts and reclaims find the table through the cache's
 * @table pointer (struct avc_cache), under RCU.  A table is immutable but
 * for its buckets and @future.
 */
struct avc_table {
	unsigned int mask;
	u32 seed;
	spinlock_t *locks;		/* rcu mode: bucket i's updates */
	struct avc_table __rcu *future;
	struct rcu_head rcu;
	struct hlist_head slots[] ____cacheline_aligned_in_smp;
};

/**
 * avc_hash() - bucket index of a key in a table
 * @t: the table
 * @k: the key
 *
 * Bob Jenkins' lookup3 final mix over the whole triple, seeded per table.
 * The old ssid ^ (tsid << 2) ^ (tclass << 4) leaves the high bits of the
 * SIDs out of small tables and lets nearby triples collide; this does not,
 * and a seed no unprivileged user can read keeps a user of the access
 * file from choosing keys that pile into one bucket.
 *
 * Return: the bucket index, below the number of buckets.
 */
static __always_inline unsigned int avc_hash(const struct avc_table *t,
					     const struct avc_key *k)
{
	return jhash_3words(k->ssid, k->tsid, k->tclass, t->seed) & t->mask;
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

/*
 * Whether this task holds the lock that protects bucket @idx of @t: the
 * lockdep condition of every traversal that may run without
 * rcu_read_lock().  Only lockdep evaluates it.
 */
#define avc_table_lockdep_held(c, t, idx)				\
	avc_bucket_lockdep_held(&(c)->locks, (t)->locks, (idx))

/**
 * avc_search() - find a key in its bucket
 * @c: the cache
 * @t: the table, read under RCU or the bucket's lock
 * @idx: the bucket, avc_hash() of @k in @t
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
						   struct avc_table *t,
						   unsigned int idx,
						   const struct avc_key *k)
{
	struct avc_node *node;

	hlist_for_each_entry_rcu(node, &t->slots[idx], list,
				 avc_table_lockdep_held(c, t, idx))
		if (avc_node_is(node, k))
			return node;
	return NULL;
}

/* The cache's current table; the caller is in an RCU read-side section. */
static __always_inline struct avc_table *avc_table_current(struct avc_cache *c)
{
	return rcu_dereference_check(c->table,
				     lockdep_is_held(&c->resize_lock));
}

/*
 * The newest table: the current one, or the one a resize in progress
 * moves entries to, where inserts link and reclaims evict.  The caller is
 * in an RCU read-side section.
 */
static inline struct avc_table *avc_table_newest(struct avc_cache *c)
{
	struct avc_table *t = avc_table_current(c), *f;

	while ((f = rcu_dereference_check(t->future,
					  lockdep_is_held(&c->resize_lock))))
		t = f;
	return t;
}

/**
 * avc_hlist_del_rcu() - hlist_del_rcu(), the successor republished with a
 *	release
 * @n: the node to unlink; the caller holds its bucket's update lock
 *
 * Unlinking a node makes its predecessor point to its successor.  The
 * kernel's hlist_del_rcu() stores that pointer with WRITE_ONCE(), which is
 * enough where the successor was published long before; here buckets grow
 * at the tail, so the successor of an evicted node is often one linked a
 * moment ago, and a reader who reaches it through the new pointer must
 * see it initialised: rcu_assign_pointer() orders the store after every
 * write the unlinker has seen (its bucket lock was released by the
 * successor's inserter), as the C11 model, which ThreadSanitizer checks,
 * requires.  On x86 a release store is a plain store.  @n->next is left
 * for the readers still on @n.
 */
static inline void avc_hlist_del_rcu(struct hlist_node *n)
{
	struct hlist_node *next = n->next;
	struct hlist_node **pprev = n->pprev;

	rcu_assign_pointer(*(struct hlist_node __rcu **)pprev, next);
	if (next)
		WRITE_ONCE(next->pprev, pprev);
	WRITE_ONCE(n->pprev, LIST_POISON2);
}

/* cache.c: unlink under the bucket lock, free when no reader can hold it */
void avc_node_unlink(struct avc_cache *c, struct avc_table *t,
		     unsigned int idx, struct avc_node *node);
/* the same for a reclaim, whose evictions share one grace period */
void avc_node_evict(struct avc_cache *c, struct avc_table *t,
		    unsigned int idx, struct avc_node *node);
void avc_node_free_evicted(struct avc_node *chain);
void avc_node_link(struct avc_cache *c, struct avc_table *t,
		   unsigned int idx, struct avc_node *node,
		   struct avc_node *tail);
struct avc_table *avc_table_alloc(struct avc_cache *c, unsigned int nslots,
				  gfp_t gfp);
void avc_table_free(struct avc_table *t);
bool avc_insert_stale(struct avc_cache *c, u32 seqno);
void avc_node_free_unlinked(struct avc_cache *c, struct avc_node *node);

/* reclaim.c: what a full chain gives up for a new entry */
struct avc_node *avc_chain_victim(struct avc_node *first_cold,
				  struct avc_node *oldest,
				  struct avc_node *newest);

/* resize.c */
unsigned int avc_slots_for(const struct avc_cache *c, unsigned int threshold);
void avc_resize(struct avc_cache *c);

#endif /* _AVC_RCU_NODE_H */
