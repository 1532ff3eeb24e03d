// SPDX-License-Identifier: GPL-2.0
/*
 * Upstream Linux 6.1's AVC on the native shim, for timing beside
 * avc_rcu's and for replaying traces (upstream61.h says what is
 * modelled).  The functions keep upstream's names and structure, prefixed
 * up61_.
 */
#include <linux/atomic.h>
#include <linux/kernel.h>
#include <linux/ktime.h>
#include <linux/list.h>
#include <linux/percpu.h>
#include <linux/rculist.h>
#include <linux/rcupdate.h>
#include <linux/slab.h>
#include <linux/spinlock.h>
#include "ss.h"
#include "avc.h"
#include "upstream61.h"

#define UP61_CACHE_SLOTS	512	/* AVC_CACHE_SLOTS */
#define UP61_CACHE_RECLAIM	16	/* AVC_CACHE_RECLAIM */

struct up61_node {
	u32 ssid;
	u32 tsid;
	u16 tclass;
	struct avc_rcu_decision avd;
	void *xp_node;
	struct hlist_node list;
	struct rcu_head rhead;
};

struct up61_cache {
	struct hlist_head *slots;
	spinlock_t *slots_lock;		/* bucket i's updates */
	unsigned int mask;
	atomic_t lru_hint;
	atomic_t active_nodes;
	unsigned int threshold;
	spinlock_t notif_lock;		/* latest_notif */
	u32 latest_notif;
	struct avc_ss *ss;
	/* avc_cache_stats, this_cpu_inc() as avc_cache_stats_incr() */
	struct up61_stats __percpu *stats;
	bool reclaimed;		/* the current lookup reclaimed */
	int max_tried;		/* the most buckets one reclaim tried */
};

static struct kmem_cache *up61_cachep;

static void up61_node_free(struct rcu_head *rhead)
{
	kmem_cache_free(up61_cachep,
			container_of(rhead, struct up61_node, rhead));
}

/*
 * 6.1 counts a free in avc_node_free(), the RCU callback, a grace period
 * later; here it is counted when the node is unlinked, by the CPU that
 * unlinks it (the callback's thread is not one of the shim's CPUs).  The
 * sums agree once the callbacks have run.
 */
static void up61_node_delete(struct up61_cache *c, struct up61_node *node)
{
	hlist_del_rcu(&node->list);
	call_rcu(&node->rhead, up61_node_free);
	this_cpu_inc(c->stats->frees);
	atomic_dec(&c->active_nodes);
}

/* avc_node_kill(): a node never linked. */
static void up61_node_kill(struct up61_cache *c, struct up61_node *node)
{
	kmem_cache_free(up61_cachep, node);
	this_cpu_inc(c->stats->frees);
	atomic_dec(&c->active_nodes);
}

/* avc_node_replace() */
static void up61_node_replace(struct up61_cache *c, struct up61_node *new,
			      struct up61_node *old)
{
	hlist_replace_rcu(&old->list, &new->list);
	call_rcu(&old->rhead, up61_node_free);
	this_cpu_inc(c->stats->frees);
	atomic_dec(&c->active_nodes);
}

/* 6.1's avc_hash(), masked to the table. */
static unsigned int up61_hash(struct up61_cache *c, u32 ssid, u32 tsid,
			      u16 tclass)
{
	return (ssid ^ (tsid << 2) ^ (tclass << 4)) & c->mask;
}

void (*up61_reclaim_probe)(u64 duration_ns, unsigned int tried,
			   unsigned int evicted);

static int up61_reclaim_node(struct up61_cache *c)
{
	struct up61_node *node;
	int hvalue, try, ecx;
	unsigned long flags;
	struct hlist_head *head;
	spinlock_t *lock;		/* the bucket's */
	u64 t0 = up61_reclaim_probe ? ktime_get_ns() : 0;	/* the bench's */

	c->reclaimed = true;
	for (try = 0, ecx = 0; try < UP61_CACHE_SLOTS; try++) {
		if (try + 1 > c->max_tried)	/* not 6.1's: the bench's count */
			c->max_tried = try + 1;
		hvalue = atomic_inc_return(&c->lru_hint) & c->mask;
		head = &c->slots[hvalue];
		lock = &c->slots_lock[hvalue];

		if (!spin_trylock_irqsave(lock, flags))
			continue;

		rcu_read_lock();
		hlist_for_each_entry(node, head, list) {
			up61_node_delete(c, node);
			this_cpu_inc(c->stats->reclaims);
			ecx++;
			if (ecx >= UP61_CACHE_RECLAIM) {
				rcu_read_unlock();
				spin_unlock_irqrestore(lock, flags);
				goto out;
			}
		}
		rcu_read_unlock();
		spin_unlock_irqrestore(lock, flags);
	}
out:
	if (up61_reclaim_probe)	/* not 6.1's: the bench's */
		up61_reclaim_probe(ktime_get_ns() - t0,
				   try < UP61_CACHE_SLOTS ? try + 1 : try, ecx);
	return ecx;
}

static struct up61_node *up61_alloc_node(struct up61_cache *c)
{
	struct up61_node *node;

	node = kmem_cache_alloc(up61_cachep, GFP_NOWAIT | __GFP_NOWARN);
	if (!node)
		return NULL;
	this_cpu_inc(c->stats->allocations);
	memset(node, 0, sizeof(*node));
	INIT_HLIST_NODE(&node->list);

	if (atomic_inc_return(&c->active_nodes) > c->threshold)
		up61_reclaim_node(c);
	return node;
}

/*
 * avc_latest_notif_update(): an insert's stale decision refused (6.1
 * logs it; here it is counted), a reset's newer seqno recorded.
 */
static int up61_latest_notif_update(struct up61_cache *c, u32 seqno,
				    bool is_insert)
{
	unsigned long flag;
	int ret = 0;

	spin_lock_irqsave(&c->notif_lock, flag);
	if (is_insert) {
		if (seqno < c->latest_notif) {
			this_cpu_inc(c->stats->stale);
			ret = -EAGAIN;
		}
	} else if (seqno > c->latest_notif) {
		c->latest_notif = seqno;
	}
	spin_unlock_irqrestore(&c->notif_lock, flag);
	return ret;
}

static void up61_insert(struct up61_cache *c, u32 ssid, u32 tsid, u16 tclass,
			const struct avc_rcu_decision *avd)
{
	struct up61_node *pos, *node;
	struct hlist_head *head;
	unsigned long flag;
	spinlock_t *lock;		/* the bucket's */
	int hvalue;

	if (up61_latest_notif_update(c, avd->seqno, true))
		return;
	node = up61_alloc_node(c);
	if (!node)
		return;
	node->ssid = ssid;
	node->tsid = tsid;
	node->tclass = tclass;
	node->avd = *avd;

	hvalue = up61_hash(c, ssid, tsid, tclass);
	head = &c->slots[hvalue];
	lock = &c->slots_lock[hvalue];
	spin_lock_irqsave(lock, flag);
	hlist_for_each_entry(pos, head, list) {
		if (pos->ssid == ssid && pos->tsid == tsid &&
		    pos->tclass == tclass) {
			up61_node_replace(c, node, pos);
			goto found;
		}
	}
	hlist_add_head_rcu(&node->list, head);
found:
	spin_unlock_irqrestore(lock, flag);
}

/**
 * up61_has_perm() - a lookup through 6.1's cache
 * @c: the cache
 * @ssid: source SID
 * @tsid: target SID
 * @tclass: target class
 * @requested: permissions asked for
 * @avd: the decision
 * @reclaimed: set if the lookup reclaimed
 *
 * Return: 0 or -EACCES.
 */
int up61_has_perm(struct up61_cache *c, u32 ssid, u32 tsid, u16 tclass,
		  u32 requested, struct avc_rcu_decision *avd,
		  bool *reclaimed)
{
	struct up61_node *node;
	unsigned int h = up61_hash(c, ssid, tsid, tclass);

	c->reclaimed = false;
	this_cpu_inc(c->stats->lookups);
	rcu_read_lock();
	hlist_for_each_entry_rcu(node, &c->slots[h], list) {
		if (node->ssid == ssid && node->tsid == tsid &&
		    node->tclass == tclass) {
			*avd = node->avd;
			rcu_read_unlock();
			*reclaimed = false;
			return avc_decide(avd, requested);
		}
	}
	rcu_read_unlock();
	this_cpu_inc(c->stats->misses);
	avc_ss_compute(c->ss, ssid, tsid, tclass, avd);
	up61_insert(c, ssid, tsid, tclass, avd);
	*reclaimed = c->reclaimed;
	return avc_decide(avd, requested);
}

/**
 * up61_update() - 6.1's avc_update_node() for AVC_CALLBACK_GRANT
 * @c: the cache
 * @ssid: source SID
 * @tsid: target SID
 * @tclass: target class
 * @perms: permissions granted (avc_denied() in permissive mode)
 * @seqno: the policy seqno of the decision updated
 *
 * A node allocated first (its place reserved, a reclaim past the
 * threshold), then the bucket searched for the key at @seqno: found, the
 * copy with @perms allowed replaces it where it stands; not found, the
 * copy is killed.
 *
 * Return: 0, -ENOENT if no node of the key at @seqno, or -ENOMEM.
 */
int up61_update(struct up61_cache *c, u32 ssid, u32 tsid, u16 tclass,
		u32 perms, u32 seqno)
{
	struct up61_node *pos, *node, *orig = NULL;
	struct hlist_head *head;
	unsigned long flag;
	spinlock_t *lock;		/* the bucket's */
	int hvalue, rc = 0;

	c->reclaimed = false;
	node = up61_alloc_node(c);
	if (!node)
		return -ENOMEM;

	hvalue = up61_hash(c, ssid, tsid, tclass);
	head = &c->slots[hvalue];
	lock = &c->slots_lock[hvalue];
	spin_lock_irqsave(lock, flag);
	hlist_for_each_entry(pos, head, list) {
		if (ssid == pos->ssid && tsid == pos->tsid &&
		    tclass == pos->tclass && seqno == pos->avd.seqno) {
			orig = pos;
			break;
		}
	}
	if (!orig) {
		rc = -ENOENT;
		up61_node_kill(c, node);
		goto out_unlock;
	}
	node->ssid = ssid;
	node->tsid = tsid;
	node->tclass = tclass;
	node->avd = orig->avd;
	node->avd.allowed |= perms;
	up61_node_replace(c, node, orig);
out_unlock:
	spin_unlock_irqrestore(lock, flag);
	return rc;
}

/* avc_flush(): every node deleted, bucket by bucket under its lock. */
static void up61_flush(struct up61_cache *c)
{
	struct up61_node *node;
	struct hlist_head *head;
	unsigned long flag;
	spinlock_t *lock;		/* the bucket's */
	unsigned int i;

	for (i = 0; i <= c->mask; i++) {
		head = &c->slots[i];
		lock = &c->slots_lock[i];
		spin_lock_irqsave(lock, flag);
		rcu_read_lock();
		hlist_for_each_entry(node, head, list)
			up61_node_delete(c, node);
		rcu_read_unlock();
		spin_unlock_irqrestore(lock, flag);
	}
}

/**
 * up61_ss_reset() - 6.1's avc_ss_reset(): a policy load's flush
 * @c: the cache
 * @seqno: the new policy's seqno
 *
 * avc_flush(), then avc_latest_notif_update(@seqno, 0).  Not the
 * callbacks.
 */
void up61_ss_reset(struct up61_cache *c, u32 seqno)
{
	up61_flush(c);
	up61_latest_notif_update(c, seqno, false);
}

/**
 * up61_stats() - avc/cache_stats' counters, summed over the CPUs
 * @c: the cache
 * @st: filled in
 */
void up61_stats(struct up61_cache *c, struct up61_stats *st)
{
	const struct up61_stats *s;
	int cpu;

	memset(st, 0, sizeof(*st));
	for_each_possible_cpu(cpu) {
		s = per_cpu_ptr(c->stats, cpu);
		st->lookups += READ_ONCE(s->lookups);
		st->misses += READ_ONCE(s->misses);
		st->allocations += READ_ONCE(s->allocations);
		st->reclaims += READ_ONCE(s->reclaims);
		st->frees += READ_ONCE(s->frees);
		st->stale += READ_ONCE(s->stale);
	}
}

/**
 * up61_hash_stats() - avc_get_hash_stats(): avc/hash_stats' numbers
 * @c: the cache; no lookup may run
 * @entries: active_nodes
 * @buckets_used: non-empty buckets
 * @longest_chain: the longest bucket
 */
void up61_hash_stats(struct up61_cache *c, unsigned int *entries,
		     unsigned int *buckets_used, unsigned int *longest_chain)
{
	struct up61_node *node;
	unsigned int i, len;

	*entries = atomic_read(&c->active_nodes);
	*buckets_used = 0;
	*longest_chain = 0;
	for (i = 0; i <= c->mask; i++) {
		len = 0;
		hlist_for_each_entry(node, &c->slots[i], list)
			len++;
		if (len)
			(*buckets_used)++;
		if (len > *longest_chain)
			*longest_chain = len;
	}
}

/**
 * up61_create() - an empty 6.1 cache in front of @ss
 * @ss: the security server
 * @nslots: buckets, a power of two
 * @threshold: avc_cache_threshold
 *
 * Return: the cache, or NULL.
 */
struct up61_cache *up61_create(struct avc_ss *ss, unsigned int nslots,
			       unsigned int threshold)
{
	struct up61_cache *c = kzalloc(sizeof(*c), GFP_KERNEL);
	unsigned int i;

	if (!c)
		return NULL;
	if (!up61_cachep)
		up61_cachep = kmem_cache_create("up61_node",
						sizeof(struct up61_node), 0,
						0, NULL);
	c->slots = kvcalloc(nslots, sizeof(*c->slots), GFP_KERNEL);
	c->slots_lock = kvcalloc(nslots, sizeof(*c->slots_lock), GFP_KERNEL);
	c->stats = alloc_percpu(struct up61_stats);
	if (!up61_cachep || !c->slots || !c->slots_lock || !c->stats) {
		free_percpu(c->stats);
		kvfree(c->slots);
		kvfree(c->slots_lock);
		kfree(c);
		return NULL;
	}
	for (i = 0; i < nslots; i++) {
		INIT_HLIST_HEAD(&c->slots[i]);
		spin_lock_init(&c->slots_lock[i]);
	}
	spin_lock_init(&c->notif_lock);
	c->mask = nslots - 1;
	c->threshold = threshold;
	c->ss = ss;
	return c;
}

/**
 * up61_active() - nodes counted by 6.1's active_nodes
 * @c: the cache
 *
 * Return: the count.
 */
unsigned int up61_active(struct up61_cache *c)
{
	return atomic_read(&c->active_nodes);
}

/**
 * up61_max_tried() - the most buckets one reclaim of @c tried
 * @c: the cache
 *
 * Return: the count, at most 512.
 */
unsigned int up61_max_tried(struct up61_cache *c)
{
	return c->max_tried;
}

/**
 * up61_keys() - the source SIDs of the nodes in @c, by a walk of its buckets
 * @c: the cache; no lookup may run
 * @keys: where to store them
 * @max: room in @keys
 *
 * Return: the number stored.
 */
unsigned int up61_keys(struct up61_cache *c, u32 *keys, unsigned int max)
{
	struct up61_node *node;
	unsigned int i, n = 0;

	for (i = 0; i <= c->mask; i++)
		hlist_for_each_entry(node, &c->slots[i], list)
			if (n < max)
				keys[n++] = node->ssid;
	return n;
}

/**
 * up61_destroy() - free a cache and its nodes
 * @c: the cache; no lookup may run
 */
void up61_destroy(struct up61_cache *c)
{
	up61_flush(c);
	rcu_barrier();
	free_percpu(c->stats);
	kvfree(c->slots);
	kvfree(c->slots_lock);
	kfree(c);
}
