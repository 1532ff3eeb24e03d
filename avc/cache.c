// SPDX-License-Identifier: GPL-2.0
/*
 * avc_rcu core: the access vector cache.
 *
 * A hash table of decisions keyed by (ssid, tsid, tclass).  In the default
 * rcu mode lookups take no lock and write nothing but this CPU's counters;
 * inserts, reclaims and flushes take the lock of the one bucket they change
 * and free nodes only after a grace period.  The spinlock and rwlock modes
 * rebuild the designs of 2004 for comparison: see avc_locked_has_perm().
 *
 * The locking rules are stated at struct avc_cache (avc.h), the lock
 * helpers are in sync.h, and Documentation/design.rst argues both.
 */

#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/gfp.h>
#include <linux/mm.h>
#include <linux/random.h>
#include <linux/slab.h>
#include "node.h"
#include "avc_rcu_events.h"

/* The KUnit module's copy of the core names its node cache apart. */
#ifndef AVC_NODE_CACHE_NAME
#define AVC_NODE_CACHE_NAME "avc_rcu_node"
#endif

/*
 * The node cache is not merged with another cache of 64-byte objects, so
 * that its nodes show in /proc/slabinfo under its own name and SLUB
 * reports any left when it is destroyed.  SLAB_NO_MERGE came in 6.6: on
 * 6.1, a kernel that merges caches by default (CONFIG_SLAB_MERGE_DEFAULT,
 * Debian's) may merge it unless booted with slab_nomerge.
 */
#ifdef SLAB_NO_MERGE
#define AVC_NODE_SLAB_FLAGS	(SLAB_HWCACHE_ALIGN | SLAB_NO_MERGE)
#else
#define AVC_NODE_SLAB_FLAGS	SLAB_HWCACHE_ALIGN
#endif

static struct kmem_cache *avc_node_cachep;

/**
 * avc_core_init() - set up what every cache shares
 *
 * Return: 0 or -ENOMEM.
 */
int avc_core_init(void)
{
	/*
	 * Cache-line aligned: a node is one 64-byte line, so a lookup that
	 * finds its key touches one line, and no two nodes share one.
	 */
	BUILD_BUG_ON(sizeof(struct avc_node) > 64);
	avc_node_cachep = kmem_cache_create(AVC_NODE_CACHE_NAME,
					    sizeof(struct avc_node), 0,
					    AVC_NODE_SLAB_FLAGS, NULL);
	if (!avc_node_cachep)
		return -ENOMEM;
	return 0;
}

/**
 * avc_core_exit() - release what every cache shares
 *
 * Every cache must have been destroyed.
 */
void avc_core_exit(void)
{
	/* Callbacks queued by the last caches must not outlive the slab. */
	rcu_barrier();
	kmem_cache_destroy(avc_node_cachep);
}

static void avc_node_free_rcu(struct rcu_head *rhead)
{
	kmem_cache_free(avc_node_cachep,
			container_of(rhead, struct avc_node, rhead));
}

/*
 * Free a node no reader can reach any more, or, just unlinked, once no
 * reader can hold it: in rcu mode after a grace period; in the locked modes
 * at once, since readers hold the global lock, which the caller holds too.
 * "frees" counts the node here, where its free is decided, so that the
 * RCU callback needs no way back to the cache.
 */
static void avc_node_free(struct avc_cache *c, struct avc_node *node,
			  bool unlinked)
{
	this_cpu_inc(c->stats->frees);
	if (unlinked && !avc_sync_locked())
		call_rcu(&node->rhead, avc_node_free_rcu);
	else
		kmem_cache_free(avc_node_cachep, node);
}

/**
 * avc_node_unlink() - remove a linked node and free it when safe
 * @c: the cache
 * @idx: the node's bucket, whose update lock the caller holds
 * @node: the node
 */
void avc_node_unlink(struct avc_cache *c, unsigned int idx,
		     struct avc_node *node)
{
	avc_bucket_assert_held(&c->locks, idx);
	hlist_del_rcu(&node->list);
	atomic_dec(&c->active);
	avc_node_free(c, node, true);
}

/*
 * The nodes one reclaim evicted, freed together after one grace period:
 * one call_rcu() a chunk, not one a node.  They are chained through
 * list.pprev, which hlist_del_rcu() poisoned and no reader follows (a
 * lockless reader still on an evicted node goes on by list.next, left
 * intact); the first node's rhead carries the chain through the grace
 * period, and its callback frees every node of it.
 */
static void avc_node_free_chain_rcu(struct rcu_head *rhead)
{
	struct avc_node *node = container_of(rhead, struct avc_node, rhead);
	struct hlist_node **next;

	for (;;) {
		next = node->list.pprev;
		kmem_cache_free(avc_node_cachep, node);
		if (!next)
			break;
		node = container_of(next, struct avc_node, list.next);
	}
}

/**
 * avc_node_evict() - remove a linked node for the reclaim in progress
 * @c: the cache; the caller holds its reclaim lock
 * @idx: the node's bucket, whose update lock the caller holds
 * @node: the node
 *
 * As avc_node_unlink(), but in rcu mode the node joins the reclaim's chain
 * (@c->evicted), which avc_node_free_evicted() frees after one grace
 * period once the reclaim is done.  In the locked modes it is freed at
 * once, as avc_node_unlink() frees it.
 */
void avc_node_evict(struct avc_cache *c, unsigned int idx,
		    struct avc_node *node)
{
	avc_bucket_assert_held(&c->locks, idx);
	hlist_del_rcu(&node->list);
	atomic_dec(&c->active);
	this_cpu_inc(c->stats->frees);
	if (avc_sync_locked()) {
		kmem_cache_free(avc_node_cachep, node);
		return;
	}
	node->list.pprev = c->evicted ? &c->evicted->list.next : NULL;
	c->evicted = node;
}

/**
 * avc_node_free_evicted() - free a reclaim's chain of evicted nodes
 * @chain: the chain avc_node_evict() built (@c->evicted, taken under the
 *	reclaim lock), or NULL
 *
 * One call_rcu() for the whole chain; callable in any context.
 */
void avc_node_free_evicted(struct avc_node *chain)
{
	if (chain)
		call_rcu(&chain->rhead, avc_node_free_chain_rcu);
}

/**
 * avc_cache_create() - make an empty cache in front of a security server
 * @ss: the security server that answers misses
 * @nslots: number of buckets, a power of two
 * @threshold: initial cache_threshold
 * @seed: hash seed, or 0 for a random one (a fixed seed makes the buckets
 *	of keys, and so reclaim, reproducible)
 *
 * Return: the cache, or an ERR_PTR().
 */
struct avc_cache *avc_cache_create(struct avc_ss *ss, unsigned int nslots,
				   unsigned int threshold, u32 seed)
{
	struct avc_cache *c;
	unsigned int i;

	if (!is_power_of_2(nslots))
		return ERR_PTR(-EINVAL);

	/*
	 * A failure is handled (the module does not load): no allocation
	 * warning, whose stack trace would read as a bug on the console.
	 */
	c = kzalloc(sizeof(*c), GFP_KERNEL | __GFP_NOWARN);
	if (!c)
		return ERR_PTR(-ENOMEM);
	c->slots = kvcalloc(nslots, sizeof(*c->slots),
			    GFP_KERNEL | __GFP_NOWARN);
	c->stats = alloc_percpu_gfp(struct avc_cache_stats,
				    GFP_KERNEL | __GFP_NOWARN);
	if (!c->slots || !c->stats || avc_locks_init(&c->locks, nslots)) {
		free_percpu(c->stats);
		kvfree(c->slots);
		kfree(c);
		return ERR_PTR(-ENOMEM);
	}

	for (i = 0; i < nslots; i++)
		INIT_HLIST_HEAD(&c->slots[i]);
	c->mask = nslots - 1;
	c->seed = seed ?: get_random_u32();
	c->ss = ss;
	c->threshold = threshold;
	c->latest_seqno = avc_ss_seqno(ss);
	atomic_set(&c->active, 0);
	c->reclaim_hint = 0;
	c->evicted = NULL;
	return c;
}

/**
 * avc_cache_destroy() - free a cache and everything in it
 * @c: the cache; no lookup may be running or start
 */
void avc_cache_destroy(struct avc_cache *c)
{
	struct avc_cache_stats sum;

	avc_cache_flush(c);
	rcu_barrier();

	avc_cache_stats_sum(c, &sum);
	WARN(atomic_read(&c->active) || sum.allocations != sum.frees,
	     "avc_rcu: %d entries still linked, %u allocated, %u freed\n",
	     atomic_read(&c->active), sum.allocations, sum.frees);

	avc_locks_destroy(&c->locks);
	free_percpu(c->stats);
	kvfree(c->slots);
	kfree(c);
}

/*
 * Give back the place avc_insert() reserved for a node it does not link,
 * and free the node, which no reader has seen.
 */
static void avc_node_drop(struct avc_cache *c, struct avc_node *node)
{
	atomic_dec(&c->active);
	avc_node_free(c, node, false);
}

/*
 * Link a freshly computed decision.  Runs in the caller's context, which may
 * be atomic: the node comes from GFP_NOWAIT and a failed allocation only
 * means the decision is not cached.
 *
 * The insert first takes a place (atomic_inc_return() of @active, which
 * therefore counts the inserts in flight too).  A place past the threshold
 * makes it reclaim a chunk, with no bucket lock held, before its own node
 * is linked, so that the node is never among its own chunk (which would
 * make reclaim=newest evict what was just asked for); if the cache is
 * still past the threshold then (the reclaim found nothing to evict in its
 * reach), the decision is not cached.  So a node is linked only when the
 * places taken, its own included, were within the threshold after it took
 * its own, and the cache never holds more than cache_threshold entries
 * (Documentation/design.rst, "The size bound").  Every way out that does
 * not link the node gives its place back; a replacement gives back the
 * place of the entry it replaces.
 */
static void avc_insert(struct avc_cache *c, const struct avc_key *k,
		       const struct avc_rcu_decision *avd)
{
	unsigned int idx = avc_hash(c, k);
	struct avc_node *node, *old;
	enum avc_insert_result res;
	unsigned long flags;

	node = kmem_cache_alloc(avc_node_cachep, GFP_NOWAIT | __GFP_NOWARN);
	if (!node) {
		trace_avc_rcu_insert(k->ssid, k->tsid, k->tclass, avd->seqno,
				     idx, AVC_INSERT_NOMEM,
				     atomic_read(&c->active));
		return;
	}
	this_cpu_inc(c->stats->allocations);
	node->ssid = k->ssid;
	node->tsid = k->tsid;
	node->tclass = k->tclass;
	node->referenced = 0;
	node->dec = *avd;

	if (atomic_inc_return(&c->active) > READ_ONCE(c->threshold)) {
		avc_reclaim(c);
		if (atomic_read(&c->active) > READ_ONCE(c->threshold)) {
			avc_node_drop(c, node);
			res = AVC_INSERT_FULL;
			goto out;
		}
	}

	flags = avc_bucket_lock(&c->locks, idx);
	if (avc_seqno_before(avd->seqno, READ_ONCE(c->latest_seqno))) {
		/* Computed under a policy that a reset has already retired. */
		res = AVC_INSERT_STALE;
	} else {
		old = avc_search(c, idx, k);
		if (!old) {
			hlist_add_head_rcu(&node->list, &c->slots[idx]);
			res = AVC_INSERT_LINKED;
		} else if (avc_seqno_before(old->dec.seqno, avd->seqno)) {
			/* The new node takes the old one's place: one back. */
			hlist_replace_rcu(&old->list, &node->list);
			atomic_dec(&c->active);
			avc_node_free(c, old, true);
			res = AVC_INSERT_REPLACED;
		} else {
			/* A racing miss linked the same decision first. */
			res = AVC_INSERT_RACED;
		}
	}
	avc_bucket_unlock(&c->locks, idx, flags);

	if (res != AVC_INSERT_LINKED && res != AVC_INSERT_REPLACED)
		avc_node_drop(c, node);
out:
	trace_avc_rcu_insert(k->ssid, k->tsid, k->tclass, avd->seqno, idx,
			     res, atomic_read(&c->active));
}

/*
 * The slow path: ask the security server, cache the answer.  Kept out of
 * line so that the hit path stays small and free of locked instructions,
 * and of the tracepoints, which are all here and below.
 */
static noinline int avc_miss(struct avc_cache *c, const struct avc_key *k,
			     u32 requested, struct avc_rcu_decision *avd)
{
	avc_ss_compute(c->ss, k->ssid, k->tsid, k->tclass, avd);
	trace_avc_rcu_miss(k->ssid, k->tsid, k->tclass, requested, avd);
	avc_insert(c, k, avd);

	this_cpu_inc(c->stats->lookups);
	this_cpu_inc(c->stats->misses);
	return avc_decide(avd, requested);
}

/*
 * The locked modes' lookup: the same search under the global lock, which is
 * what made every lookup on every CPU write the lock's cache line in 2004.
 * Out of line, so that the rcu path pays nothing for its existence.
 */
static noinline int avc_locked_has_perm(struct avc_cache *c,
					const struct avc_key *k,
					u32 requested,
					struct avc_rcu_decision *avd)
{
	unsigned int idx = avc_hash(c, k);
	struct avc_node *node;
	unsigned long flags;

	flags = avc_read_lock(&c->locks);
	node = avc_search(c, idx, k);
	if (node) {
		*avd = node->dec;
		avc_node_touch(node);
	}
	avc_read_unlock(&c->locks, flags);

	if (!node)
		return avc_miss(c, k, requested, avd);
	this_cpu_inc(c->stats->lookups);
	this_cpu_inc(c->stats->hits);
	return avc_decide(avd, requested);
}

/**
 * avc_cache_has_perm() - decide an access, from the cache when possible
 * @c: the cache
 * @ssid: source SID
 * @tsid: target SID
 * @tclass: target class
 * @requested: permissions asked for
 * @avd: where to store the decision
 *
 * Never sleeps; callable in any context (on PREEMPT_RT: any context that
 * may take a spinlock_t, which sleeps there).  A hit (rcu mode) takes no
 * lock, performs no atomic read-modify-write and stores only to @avd and
 * this CPU's counters.
 *
 * Return: 0 if granted, -EACCES if not.
 */
int avc_cache_has_perm(struct avc_cache *c, u32 ssid, u32 tsid, u16 tclass,
		       u32 requested, struct avc_rcu_decision *avd)
{
	struct avc_key k = { .ssid = ssid, .tsid = tsid, .tclass = tclass };
	struct avc_node *node;

	if (avc_sync_locked())
		return avc_locked_has_perm(c, &k, requested, avd);

	rcu_read_lock();
	node = avc_search(c, avc_hash(c, &k), &k);
	if (likely(node)) {
		*avd = node->dec;
		avc_node_touch(node);
		rcu_read_unlock();
		this_cpu_inc(c->stats->lookups);
		this_cpu_inc(c->stats->hits);
		return avc_decide(avd, requested);
	}
	rcu_read_unlock();
	return avc_miss(c, &k, requested, avd);
}

/*
 * Empty every bucket, each under its own lock, so lookups continue
 * throughout.  Returns the number of entries it unlinked.
 */
static unsigned int avc_cache_empty(struct avc_cache *c)
{
	struct avc_node *node;
	struct hlist_node *tmp;
	unsigned int i, n = 0;
	unsigned long flags;

	for (i = 0; i <= c->mask; i++) {
		/* Lock even empty buckets: avc_cache_reset() relies on it. */
		flags = avc_bucket_lock(&c->locks, i);
		hlist_for_each_entry_safe(node, tmp, &c->slots[i], list) {
			avc_node_unlink(c, i, node);
			n++;
		}
		avc_bucket_unlock(&c->locks, i, flags);
	}
	return n;
}

/**
 * avc_cache_flush() - drop every cached decision
 * @c: the cache
 *
 * Never sleeps.  Each bucket is emptied under its own lock, so lookups
 * continue throughout; a lookup that starts after the flush returns misses.
 */
void avc_cache_flush(struct avc_cache *c)
{
	unsigned int n = avc_cache_empty(c);

	trace_avc_rcu_flush(READ_ONCE(c->latest_seqno), n);
}

/**
 * avc_cache_reset() - retire every decision older than a new policy
 * @c: the cache
 * @seqno: seqno of the policy just published
 *
 * Called after the security server published the policy @seqno, as SELinux
 * calls avc_ss_reset().  When it returns, no decision computed under an
 * older policy is in the cache, and none will be inserted.
 */
void avc_cache_reset(struct avc_cache *c, u32 seqno)
{
	u32 old = READ_ONCE(c->latest_seqno);
	unsigned int n;

	/* Only ever move forward, whatever order two resets run in. */
	while (avc_seqno_before(old, seqno)) {
		u32 prev = cmpxchg(&c->latest_seqno, old, seqno);

		if (prev == old)
			break;
		old = prev;
	}
	n = avc_cache_empty(c);
	trace_avc_rcu_reset(old, seqno, n);
}

/**
 * avc_cache_threshold() - current cache_threshold
 * @c: the cache
 *
 * Return: the most entries the cache may hold; an insert that takes a
 * place beyond it reclaims first.
 */
unsigned int avc_cache_threshold(const struct avc_cache *c)
{
	return READ_ONCE(c->threshold);
}

/**
 * avc_cache_seed() - the hash seed in use
 * @c: the cache
 *
 * Return: the seed avc_cache_create() was given, or the one it drew.
 */
u32 avc_cache_seed(const struct avc_cache *c)
{
	return c->seed;
}

/**
 * avc_cache_slots() - number of buckets
 * @c: the cache
 *
 * Return: the number of buckets, fixed when the cache was created.
 */
unsigned int avc_cache_slots(const struct avc_cache *c)
{
	return c->mask + 1;
}

/**
 * avc_cache_set_threshold() - set cache_threshold
 * @c: the cache
 * @threshold: the new value; range checks are the caller's
 *
 * Takes effect on later inserts: a cache above the new value shrinks by a
 * reclaim chunk per insert, as upstream's does.  An exchange rather than a
 * store, so that the tracepoint's old value is the one this call replaced,
 * however many writers race.
 */
void avc_cache_set_threshold(struct avc_cache *c, unsigned int threshold)
{
	unsigned int old = xchg(&c->threshold, threshold);

	trace_avc_rcu_threshold(old, threshold);
}
