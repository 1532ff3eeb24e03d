// SPDX-License-Identifier: GPL-2.0
/*
 * avc_rcu core: chunked reclaim.
 *
 * When an insert leaves more live entries than cache_threshold, the inserter
 * evicts one chunk of AVC_RCU_RECLAIM_CHUNK entries.  It starts after the
 * bucket where the previous reclaim stopped, so successive reclaims sweep
 * the whole table instead of emptying one corner of it.  Buckets whose lock
 * is busy are skipped rather than waited for (the inserter may be in
 * interrupt context, and a busy bucket is being used), and the inserter's
 * own bucket lock was dropped before it got here: at most one bucket lock
 * is ever held.
 *
 * Within a bucket the oldest entries go first.  New entries are linked at
 * the head, so the oldest are at the tail.  Upstream evicts from the head,
 * that is the newest entries, which are the ones most likely to be used
 * again; eviction by insertion age is not LRU, but it is not the reverse of
 * it either, and it needs no write on the lookup path.
 */

#include "node.h"

/* Evict up to @want of the oldest entries of locked bucket @idx. */
static unsigned int avc_evict_oldest(struct avc_cache *c, unsigned int idx,
				     unsigned int want)
{
	struct hlist_head *head = &c->slots[idx];
	struct avc_node *node;
	struct hlist_node *tmp;
	unsigned int len = 0, skip, evicted = 0;

	hlist_for_each_entry(node, head, list)
		len++;
	skip = len > want ? len - want : 0;

	hlist_for_each_entry_safe(node, tmp, head, list) {
		if (skip) {
			skip--;
			continue;
		}
		avc_node_unlink(c, idx, node);
		evicted++;
	}
	return evicted;
}

/* Evict from one bucket unless its lock is busy. */
static unsigned int avc_reclaim_bucket(struct avc_cache *c, unsigned int idx,
				       unsigned int want)
{
	unsigned int got;
	unsigned long flags;

	if (!avc_bucket_trylock(&c->locks, idx, &flags))
		return 0;
	got = avc_evict_oldest(c, idx, want);
	avc_bucket_unlock(&c->locks, idx, flags);
	return got;
}

/**
 * avc_reclaim() - evict one chunk of entries
 * @c: the cache; the caller holds no bucket lock
 *
 * Never sleeps.  Visits each bucket at most once, so a table of busy or
 * empty buckets ends the pass early with fewer entries evicted.  Empty
 * buckets are passed over without taking their lock, and the shared hint is
 * read once and written once per pass rather than bumped per bucket: on a
 * sparse table most visits find nothing.  Two reclaims racing on the hint
 * may start at the same bucket; the loser of its trylock moves on.
 *
 * Return: the number of entries evicted.
 */
unsigned int avc_reclaim(struct avc_cache *c)
{
	unsigned int got = 0, tried, idx;

	idx = (unsigned int)atomic_read(&c->reclaim_hint);
	for (tried = 0; tried <= c->mask && got < AVC_RCU_RECLAIM_CHUNK;
	     tried++) {
		idx = (idx + 1) & c->mask;
		if (hlist_empty(&c->slots[idx]))
			continue;
		got += avc_reclaim_bucket(c, idx, AVC_RCU_RECLAIM_CHUNK - got);
	}
	atomic_set(&c->reclaim_hint, idx);
	this_cpu_add(c->stats->reclaims, got);
	return got;
}
