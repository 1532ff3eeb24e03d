// SPDX-License-Identifier: GPL-2.0
/*
 * avc_rcu core: the access vector cache.
 *
 * A hash table of decisions keyed by (ssid, tsid, tclass).  In the default
 * rcu mode lookups take no lock and write nothing but this CPU's counters;
 * inserts, reclaims and flushes take the lock of the one bucket they change
 * and free nodes only after a grace period.  The spinlock and rwlock modes
 * rebuild the designs of 2004 for comparison: see avc_locked_has_perm().
 * Reclaim is in reclaim.c, the resize of the bucket table in resize.c.
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
 * @t: the node's table
 * @idx: the node's bucket, whose update lock the caller holds
 * @node: the node
 */
void avc_node_unlink(struct avc_cache *c, struct avc_table *t,
		     unsigned int idx, struct avc_node *node)
{
	avc_bucket_assert_held(&c->locks, t->locks, idx);
	avc_hlist_del_rcu(&node->list);
	atomic_dec(&c->active);
	avc_node_free(c, node, true);
}

/**
 * avc_node_link() - link a node at the tail of its bucket
 * @c: the cache
 * @t: the table
 * @idx: the bucket, whose update lock the caller holds
 * @node: the node, not linked
 * @tail: the bucket's last node, or NULL if it is empty
 *
 * A bucket lists its entries oldest first, so that a reclaim finds the
 * oldest where it starts, at the head.  The caller found @tail with the
 * search it made for the key anyway.
 */
void avc_node_link(struct avc_cache *c, struct avc_table *t,
		   unsigned int idx, struct avc_node *node,
		   struct avc_node *tail)
{
	avc_bucket_assert_held(&c->locks, t->locks, idx);
	if (tail)
		hlist_add_behind_rcu(&node->list, &tail->list);
	else
		hlist_add_head_rcu(&node->list, &t->slots[idx]);
}

/*
 * The nodes one reclaim section evicted, freed together after one grace
 * period: one call_rcu() a chunk, not one a node.  They are chained
 * through list.pprev, which hlist_del_rcu() poisoned and no reader follows
 * (a lockless reader still on an evicted node goes on by list.next, left
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
 * @t: the node's table
 * @idx: the node's bucket, whose update lock the caller holds
 * @node: the node
 *
 * As avc_node_unlink(), but in rcu mode the node joins the section's
 * chain (@c->evicted), which avc_node_free_evicted() frees after one grace
 * period once the section is done.  In the locked modes it is freed at
 * once, as avc_node_unlink() frees it.
 */
void avc_node_evict(struct avc_cache *c, struct avc_table *t,
		    unsigned int idx, struct avc_node *node)
{
	avc_bucket_assert_held(&c->locks, t->locks, idx);
	avc_hlist_del_rcu(&node->list);
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

/* A seed drawn at random is never 0, which stands for "draw one". */
static u32 avc_seed_draw(void)
{
	u32 seed;

	do {
		seed = get_random_u32();
	} while (!seed);
	return seed;
}

/**
 * avc_table_alloc() - an empty bucket table
 * @c: the cache it is for (its seed, fixed or not)
 * @nslots: number of buckets, a power of two
 * @gfp: allocation flags
 *
 * Return: the table, or NULL.
 */
struct avc_table *avc_table_alloc(struct avc_cache *c, unsigned int nslots,
				  gfp_t gfp)
{
	struct avc_table *t;
	unsigned int i;

	/* nslots <= AVC_RCU_SLOTS_MAX: the product cannot overflow. */
	t = kvzalloc(sizeof(*t) + (size_t)nslots * sizeof(t->slots[0]), gfp);
	if (!t)
		return NULL;
	if (avc_bucket_locks_alloc(&t->locks, nslots, gfp)) {
		kvfree(t);
		return NULL;
	}
	for (i = 0; i < nslots; i++)
		INIT_HLIST_HEAD(&t->slots[i]);
	t->mask = nslots - 1;
	t->seed = c->seed ?: avc_seed_draw();
	RCU_INIT_POINTER(t->future, NULL);
	return t;
}

/**
 * avc_table_free() - free a table no reader can hold
 * @t: the table, every bucket empty
 */
void avc_table_free(struct avc_table *t)
{
	kvfree(t->locks);
	kvfree(t);
}

/**
 * avc_cache_create() - make an empty cache in front of a security server
 * @ss: the security server that answers misses
 * @p: the cache's parameters
 *
 * Sleeps.
 *
 * Return: the cache, or an ERR_PTR().
 */
struct avc_cache *avc_cache_create(struct avc_ss *ss,
				   const struct avc_cache_params *p)
{
	struct avc_table *t;
	struct avc_cache *c;

	if (p->slots && !is_power_of_2(p->slots))
		return ERR_PTR(-EINVAL);

	/*
	 * A failure is handled (the module does not load): no allocation
	 * warning, whose stack trace would read as a bug on the console.
	 */
	c = kzalloc(sizeof(*c), GFP_KERNEL | __GFP_NOWARN);
	if (!c)
		return ERR_PTR(-ENOMEM);
	c->ss = ss;
	c->threshold = p->threshold;
	c->pinned_slots = p->slots;
	c->seed = p->seed;
	c->reclaimer = p->reclaimer;
	c->latest_seqno = avc_ss_seqno(ss);
	atomic_set(&c->active, 0);
	c->reclaim_hint = 0;
	c->evicted = NULL;
	avc_locks_init(&c->locks);
	mutex_init(&c->resize_lock);
	INIT_WORK(&c->work, avc_reclaim_work);

	c->stats = alloc_percpu_gfp(struct avc_cache_stats,
				    GFP_KERNEL | __GFP_NOWARN);
	t = avc_table_alloc(c, p->slots ?: avc_slots_for(c, p->threshold),
			    GFP_KERNEL | __GFP_NOWARN);
	if (!c->stats || !t) {
		if (t)
			avc_table_free(t);
		free_percpu(c->stats);
		mutex_destroy(&c->resize_lock);
		kfree(c);
		return ERR_PTR(-ENOMEM);
	}
	RCU_INIT_POINTER(c->table, t);
	return c;
}

/**
 * avc_cache_destroy() - free a cache and everything in it
 * @c: the cache; no lookup, flush, reset or threshold change may be running
 *	or start
 */
void avc_cache_destroy(struct avc_cache *c)
{
	struct avc_cache_stats sum;
	struct avc_table *t;

	/* The reclaimer and a resize in progress finish; nothing requeues. */
	cancel_work_sync(&c->work);
	avc_cache_flush(c);
	rcu_barrier();

	avc_cache_stats_sum(c, &sum);
	WARN(atomic_read(&c->active) || sum.allocations != sum.frees,
	     "avc_rcu: %d entries still linked, %u allocated, %u freed\n",
	     atomic_read(&c->active), sum.allocations, sum.frees);

	t = rcu_dereference_protected(c->table, true);
	WARN_ON(rcu_access_pointer(t->future));
	avc_table_free(t);
	mutex_destroy(&c->resize_lock);
	free_percpu(c->stats);
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

/**
 * avc_node_free_unlinked() - free a node just unlinked, once no reader can
 *	hold it; its place is the caller's to give back
 * @c: the cache
 * @node: the node
 */
void avc_node_free_unlinked(struct avc_cache *c, struct avc_node *node)
{
	avc_node_free(c, node, true);
}

/**
 * avc_insert_stale() - whether a decision is of a policy a reset retired
 * @c: the cache
 * @seqno: the seqno of the policy the decision was computed under
 *
 * The caller holds the lock of the bucket the decision would go into:
 * Documentation/design.rst, "Policy and its seqno", argues why that makes
 * the answer exact against every reset.
 *
 * Return: true if the decision must not be linked.
 */
bool avc_insert_stale(struct avc_cache *c, u32 seqno)
{
	return avc_seqno_before(seqno, READ_ONCE(c->latest_seqno));
}

/*
 * Take a place for a new entry: true if the insert may go on, false if the
 * cache is at its threshold (no place is then held).  With the background
 * reclaimer, a place past the high watermark wakes it, and a place past
 * the threshold is refused at once: the miss never reclaims.  Inline, a
 * place past the threshold is given back, and the inserter runs one
 * section, with no bucket lock held, before its own node is linked, so
 * that the node is never among its own chunk (which would make
 * reclaim=newest evict what was just asked for); then it takes a place
 * again, and gives it back if that one is past the threshold too.  A miss
 * holds no place while it waits for the reclaim lock: a convoy of misses
 * waiting there would otherwise count as entries, and one longer than the
 * threshold would hold every place with nothing linked, so that no miss
 * is cached until the convoy ends.  Either way a node is linked only when
 * the places taken, its own included, were within the threshold after it
 * took its own, and the cache never holds more than cache_threshold
 * entries (Documentation/design.rst, "The size bound").
 */
static bool avc_take_place(struct avc_cache *c)
{
	unsigned int thr = READ_ONCE(c->threshold);
	unsigned int n = atomic_inc_return(&c->active);

	if (c->reclaimer == AVC_RECLAIMER_BACKGROUND) {
		if (n > avc_watermark_high(thr))
			avc_reclaim_wake(c);
		if (n <= thr)
			return true;
	} else if (n > thr) {
		atomic_dec(&c->active);
		avc_reclaim_room(c);
		n = atomic_inc_return(&c->active);
		if (n <= READ_ONCE(c->threshold))
			return true;
	} else {
		return true;
	}
	atomic_dec(&c->active);
	return false;
}

/*
 * Link a freshly computed decision.  Runs in the caller's context, which may
 * be atomic: the node comes from GFP_NOWAIT and a failed allocation only
 * means the decision is not cached.  The place comes first, so that a
 * decision the cache has no room for costs no allocation.  The node goes
 * into the newest table
 * (a resize in progress moves the others' entries there): a table whose
 * @future is set, read under the bucket's lock, is left for it.  Every
 * way out that does not link the node gives its place back; a replacement
 * gives back the place of the entry it replaces, and an insert into a
 * bucket of AVC_CHAIN_MAX entries evicts one of them first.
 */
static void avc_insert(struct avc_cache *c, const struct avc_key *k,
		       const struct avc_rcu_decision *avd)
{
	struct avc_node *node, *pos, *old = NULL, *tail = NULL, *head = NULL;
	struct avc_node *cold = NULL, *victim = NULL, *before_tail = NULL;
	enum avc_insert_result res;
	struct avc_table *t, *f;
	unsigned int idx, len = 0;
	unsigned long flags;

	if (!avc_take_place(c)) {
		res = AVC_INSERT_FULL;
		idx = 0;
		goto trace;
	}
	node = kmem_cache_alloc(avc_node_cachep, GFP_NOWAIT | __GFP_NOWARN);
	if (!node) {
		atomic_dec(&c->active);
		res = AVC_INSERT_NOMEM;
		idx = 0;
		goto trace;
	}
	this_cpu_inc(c->stats->allocations);
	node->ssid = k->ssid;
	node->tsid = k->tsid;
	node->tclass = k->tclass;
	node->referenced = 0;
	node->dec = *avd;

	rcu_read_lock();
	t = avc_table_newest(c);
	for (;;) {
		idx = avc_hash(t, k);
		flags = avc_bucket_lock(&c->locks, t->locks, idx);
		/*
		 * Under the bucket's lock, so that a resize either sees this
		 * insert's node when it empties the bucket or is seen here
		 * (resize.c); with rcu_dereference(), not _protected(): the
		 * new table was published before the resize took any lock
		 * this insert could have synchronised with.
		 */
		f = rcu_dereference(t->future);
		if (!f)
			break;
		avc_bucket_unlock(&c->locks, t->locks, idx, flags);
		t = f;
	}
	if (avc_insert_stale(c, avd->seqno)) {
		/* Computed under a policy that a reset has already retired. */
		res = AVC_INSERT_STALE;
		goto unlock;
	}
	hlist_for_each_entry_rcu(pos, &t->slots[idx], list,
				 avc_table_lockdep_held(c, t, idx)) {
		if (avc_node_is(pos, k)) {
			old = pos;
			break;
		}
		if (!head)
			head = pos;
		if (!cold && !READ_ONCE(pos->referenced))
			cold = pos;
		before_tail = tail;
		tail = pos;
		len++;
	}
	if (old) {
		if (avc_seqno_before(old->dec.seqno, avd->seqno)) {
			/*
			 * The new node takes the old one's place, and its
			 * referenced bit: one place back.
			 */
			node->referenced = READ_ONCE(old->referenced);
			hlist_replace_rcu(&old->list, &node->list);
			atomic_dec(&c->active);
			avc_node_free(c, old, true);
			res = AVC_INSERT_REPLACED;
		} else {
			/* A racing miss linked the same decision first. */
			res = AVC_INSERT_RACED;
		}
		goto unlock;
	}
	res = AVC_INSERT_LINKED;
	if (len >= AVC_CHAIN_MAX) {
		/*
		 * Evict first, then link: unlinking a node behind the new one
		 * would make its predecessor point to the new node with a
		 * plain store, publishing it without the release that orders
		 * its initialisation before it.
		 */
		victim = avc_chain_victim(cold, head, tail);
		if (victim == tail)
			tail = before_tail;
		avc_node_unlink(c, t, idx, victim);
		this_cpu_inc(c->stats->reclaims);
		res = AVC_INSERT_CHAIN;
	}
	avc_node_link(c, t, idx, node, tail);
unlock:
	avc_bucket_unlock(&c->locks, t->locks, idx, flags);
	rcu_read_unlock();

	if (res != AVC_INSERT_LINKED && res != AVC_INSERT_REPLACED &&
	    res != AVC_INSERT_CHAIN)
		avc_node_drop(c, node);
trace:
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
 * A key not found in the current table may be in the table a resize in
 * progress is moving entries to.  The caller is on the read side (RCU, or
 * the global lock in the locked modes).
 */
static struct avc_node *avc_search_future(struct avc_cache *c,
					  struct avc_table *t,
					  const struct avc_key *k)
{
	struct avc_node *node;

	while ((t = rcu_dereference(t->future))) {
		node = avc_search(c, t, avc_hash(t, k), k);
		if (node)
			return node;
	}
	return NULL;
}

/* Copy a hit's decision out, on the read side. */
static void avc_hit(struct avc_node *node, struct avc_rcu_decision *avd)
{
	*avd = node->dec;
	avc_node_touch(node);
}

/*
 * The rcu mode's miss in the current table: out of line, the other
 * tables' search of a resize in progress, then the miss proper.
 */
static noinline int avc_rcu_miss(struct avc_cache *c, const struct avc_key *k,
				 u32 requested, struct avc_rcu_decision *avd)
{
	struct avc_node *node;

	rcu_read_lock();
	node = avc_search_future(c, avc_table_current(c), k);
	if (node)
		avc_hit(node, avd);
	rcu_read_unlock();
	if (!node)
		return avc_miss(c, k, requested, avd);
	this_cpu_inc(c->stats->lookups);
	this_cpu_inc(c->stats->hits);
	return avc_decide(avd, requested);
}

/*
 * The locked modes' lookup: the same search under the global lock, which is
 * what made every lookup on every CPU write the lock's cache line in 2004.
 * Out of line, so that the rcu path pays nothing for its existence.  The
 * table pointer is read in an RCU read-side section as in rcu mode (the
 * global lock is one too in the kernel, but not in the native build).
 */
static noinline int avc_locked_has_perm(struct avc_cache *c,
					const struct avc_key *k,
					u32 requested,
					struct avc_rcu_decision *avd)
{
	struct avc_node *node;
	struct avc_table *t;
	unsigned long flags;

	rcu_read_lock();
	flags = avc_read_lock(&c->locks);
	t = avc_table_current(c);
	node = avc_search(c, t, avc_hash(t, k), k);
	if (!node)
		node = avc_search_future(c, t, k);
	if (node)
		avc_hit(node, avd);
	avc_read_unlock(&c->locks, flags);
	rcu_read_unlock();

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
	struct avc_table *t;

	if (avc_sync_locked())
		return avc_locked_has_perm(c, &k, requested, avd);

	rcu_read_lock();
	t = rcu_dereference(c->table);
	node = avc_search(c, t, avc_hash(t, &k), &k);
	if (likely(node)) {
		*avd = node->dec;
		avc_node_touch(node);
		rcu_read_unlock();
		this_cpu_inc(c->stats->lookups);
		this_cpu_inc(c->stats->hits);
		return avc_decide(avd, requested);
	}
	rcu_read_unlock();
	return avc_rcu_miss(c, &k, requested, avd);
}

/*
 * Empty every bucket of @t, each under its own lock, so lookups continue
 * throughout.  Returns the number of entries it unlinked.
 */
static unsigned int avc_table_empty(struct avc_cache *c, struct avc_table *t)
{
	struct avc_node *node;
	struct hlist_node *tmp;
	unsigned int i, n = 0;
	unsigned long flags;

	for (i = 0; i <= t->mask; i++) {
		/* Lock even empty buckets: avc_cache_reset() relies on it. */
		flags = avc_bucket_lock(&c->locks, t->locks, i);
		hlist_for_each_entry_safe(node, tmp, &t->slots[i], list) {
			avc_node_unlink(c, t, i, node);
			n++;
		}
		avc_bucket_unlock(&c->locks, t->locks, i, flags);
	}
	return n;
}

/*
 * Empty every table: the current one, then the one a resize in progress
 * moves its entries to, read only once the current one is empty (see
 * Documentation/design.rst, "Resize", for why that order catches every
 * entry a resize moves).  Returns the number of entries unlinked.
 */
static unsigned int avc_cache_empty(struct avc_cache *c)
{
	struct avc_table *t;
	unsigned int n = 0;

	rcu_read_lock();
	t = avc_table_current(c);
	do {
		n += avc_table_empty(c, t);
		t = rcu_dereference(t->future);
	} while (t);
	rcu_read_unlock();
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
 * Return: the most entries the cache may hold.
 */
unsigned int avc_cache_threshold(const struct avc_cache *c)
{
	return READ_ONCE(c->threshold);
}

/**
 * avc_cache_entries() - places taken
 * @c: the cache
 *
 * Return: the entries linked, plus the inserts in flight that hold a place.
 */
unsigned int avc_cache_entries(const struct avc_cache *c)
{
	return atomic_read(&c->active);
}

/**
 * avc_cache_seed() - the hash seed of the current table
 * @c: the cache
 *
 * Return: the seed the cache was made with, or the one the current table
 *	drew.
 */
u32 avc_cache_seed(struct avc_cache *c)
{
	u32 seed;

	rcu_read_lock();
	seed = avc_table_newest(c)->seed;
	rcu_read_unlock();
	return seed;
}

/**
 * avc_cache_slots() - number of buckets
 * @c: the cache
 *
 * Return: the number of buckets of the newest table.
 */
unsigned int avc_cache_slots(struct avc_cache *c)
{
	unsigned int n;

	rcu_read_lock();
	n = avc_table_newest(c)->mask + 1;
	rcu_read_unlock();
	return n;
}

/**
 * avc_cache_slots_pinned() - whether the number of buckets is fixed
 * @c: the cache
 *
 * Return: true if the cache was made with a number of slots, false if its
 * table follows cache_threshold.
 */
bool avc_cache_slots_pinned(const struct avc_cache *c)
{
	return c->pinned_slots;
}

/**
 * avc_cache_set_threshold() - set cache_threshold
 * @c: the cache
 * @threshold: the new value; range checks are the caller's
 *
 * Never sleeps.  Takes effect on later inserts.  With the background
 * reclaimer, a cache above the new value is reclaimed down to its low
 * watermark in process context; inline, it shrinks by a reclaim section
 * per insert, and an insert is cached only once the cache is back within
 * the threshold.  A table that follows the threshold is resized by the
 * reclaimer's work item (avc_cache_settle() waits for it).  An exchange
 * rather than a store, so that the tracepoint's old value is the one this
 * call replaced, however many writers race.
 */
void avc_cache_set_threshold(struct avc_cache *c, unsigned int threshold)
{
	unsigned int old = xchg(&c->threshold, threshold);

	trace_avc_rcu_threshold(old, threshold);
	queue_work(system_unbound_wq, &c->work);
}

/**
 * avc_cache_settle() - wait for the work a threshold change queued
 * @c: the cache
 *
 * Sleeps.  When it returns, the resize and (background reclaimer) the
 * reclaim that the last avc_cache_set_threshold() before it asked for
 * have run.
 */
void avc_cache_settle(struct avc_cache *c)
{
	flush_work(&c->work);
}
