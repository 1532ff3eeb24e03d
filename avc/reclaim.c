// SPDX-License-Identifier: GPL-2.0
/*
 * avc_rcu core: chunked reclaim.
 *
 * When an insert takes a place past cache_threshold, the inserter evicts
 * one chunk of AVC_RCU_RECLAIM_CHUNK entries before it links its own.  The
 * sweep starts after the bucket where the previous one stopped, so that
 * successive reclaims go round the whole table like a clock hand instead of
 * emptying one corner of it.  Which entries of a visited bucket go is the
 * reclaim policy's choice, made once at load time:
 *
 *  - lru (CLOCK, "second chance"): a hit sets the node's referenced bit if
 *    it is clear (avc_node_touch()); the hand, going from a bucket's oldest
 *    entry to its newest, evicts the entries whose bit is clear and clears
 *    the bit of the others, which then survive until the hand comes round
 *    again.  Entries are born unreferenced, so keys asked for once go
 *    first.  If the hand's reach held fewer unreferenced entries than a
 *    chunk, it goes over the same buckets once more and evicts by age,
 *    oldest first, whatever their bits say: hits re-marking entries faster
 *    than the hand clears them cannot stop a reclaim from evicting.
 *  - fifo: the oldest entries of a bucket by insertion.
 *  - newest: the newest entries of a bucket, as upstream 6.1 does.  New
 *    entries are linked at a bucket's head, so these are the first ones.
 *
 * Work.  One reclaim examines at most AVC_RCU_RECLAIM_SCAN consecutive
 * buckets (with lru each at most twice) and evicts at most a chunk,
 * whatever the number of slots: its cost does not grow with the table.
 * Empty buckets cost a load of their head; their lock is not taken.  In
 * rcu mode the evicted nodes are chained and freed by one call_rcu() after
 * the reclaim lock is dropped (avc_node_evict()), not one a node: with 16
 * a chunk, that was about half of a reclaim's time natively.
 *
 * Locks.  One reclaim at a time holds the reclaim lock (avc_reclaim_lock()),
 * waited for, and first checks that the cache is still past its threshold:
 * k misses at the threshold at once evict at most k - 1 + a chunk between
 * them (one chunk for up to 16 when it is whole), not k chunks.  In rcu mode
 * each visited bucket is then trylocked and a busy one is skipped rather
 * than waited for (a busy bucket is one being used); so at most two locks
 * are held, the reclaim lock and one bucket's, and the bucket's is never
 * waited for.  In the locked modes the reclaim lock is the global lock,
 * for writing: a trylock per bucket there would fail whenever any CPU is
 * looking up.  Every holder of the global lock, and of the reclaim lock,
 * runs with interrupts off (without PREEMPT_RT) and waits for no other
 * lock of the cache while holding it, so waiting for either cannot
 * deadlock.
 */

#include <linux/kernel.h>
#include <linux/ktime.h>
#include <linux/string.h>
#include "node.h"
#include "avc_rcu_events.h"

DEFINE_STATIC_KEY_TRUE(avc_reclaim_lru_key);
static enum avc_reclaim_policy avc_reclaim_policy = AVC_RECLAIM_LRU;

static const char *const avc_reclaim_names[] = {
	[AVC_RECLAIM_LRU] = "lru",
	[AVC_RECLAIM_FIFO] = "fifo",
	[AVC_RECLAIM_NEWEST] = "newest",
};

/**
 * avc_reclaim_parse() - reclaim policy from its name
 * @name: "lru", "fifo" or "newest", optionally followed by a newline
 * @policy: where to store the policy
 *
 * Return: 0, or -EINVAL for any other name.
 */
int avc_reclaim_parse(const char *name, enum avc_reclaim_policy *policy)
{
	int i = sysfs_match_string(avc_reclaim_names, name);

	if (i < 0)
		return -EINVAL;
	*policy = i;
	return 0;
}

/**
 * avc_reclaim_name() - name of a reclaim policy
 * @policy: the policy
 *
 * Return: "lru", "fifo" or "newest".
 */
const char *avc_reclaim_name(enum avc_reclaim_policy policy)
{
	return avc_reclaim_names[policy];
}

/**
 * avc_reclaim_select() - set the reclaim policy of every cache
 * @policy: the policy
 *
 * Must be called before any cache exists and not while one does.
 *
 * Return: 0, or -EINVAL for an unknown policy.
 */
int avc_reclaim_select(enum avc_reclaim_policy policy)
{
	if (policy >= ARRAY_SIZE(avc_reclaim_names))
		return -EINVAL;
	avc_reclaim_policy = policy;
	if (policy == AVC_RECLAIM_LRU)
		static_branch_enable(&avc_reclaim_lru_key);
	else
		static_branch_disable(&avc_reclaim_lru_key);
	return 0;
}

/*
 * CLOCK in locked bucket @idx: the hand goes from the oldest entry (the
 * tail) to the newest and stops after the @want-th eviction.  The list only
 * runs newest first, so a first pass counts the cold entries; the hand then
 * stops at the cold entry that leaves (cold - @want) newer cold ones
 * behind, and every entry from there to the oldest is visited: evicted if
 * cold, given its second chance (bit cleared) if not.  Only the reclaimer,
 * under the bucket lock, clears bits; a hit racing with the sweep may set
 * one after it was counted, read or cleared.  The sweep then evicts fewer
 * (never more) than @want, or clears a fresh reference, which costs the
 * entry at worst one miss later; its reader already has its decision.
 */
static unsigned int avc_evict_clock(struct avc_cache *c, unsigned int idx,
				    unsigned int want)
{
	struct hlist_head *head = &c->slots[idx];
	unsigned int cold = 0, keep, evicted = 0;
	struct avc_node *node;
	struct hlist_node *tmp;
	bool hand;

	hlist_for_each_entry(node, head, list)
		cold += !READ_ONCE(node->referenced);
	keep = cold > want ? cold - want : 0;
	hand = !keep;

	hlist_for_each_entry_safe(node, tmp, head, list) {
		if (READ_ONCE(node->referenced)) {
			if (hand)
				WRITE_ONCE(node->referenced, 0);
		} else if (keep) {
			keep--;
		} else {
			hand = true;
			avc_node_evict(c, idx, node);
			evicted++;
		}
	}
	return evicted;
}

/*
 * By age in locked bucket @idx: the @want oldest entries if @oldest (fifo,
 * and lru's second visit), else the @want newest (newest).
 */
static unsigned int avc_evict_by_age(struct avc_cache *c, unsigned int idx,
				     unsigned int want, bool oldest)
{
	struct hlist_head *head = &c->slots[idx];
	unsigned int len = 0, skip = 0, evicted = 0;
	struct avc_node *node;
	struct hlist_node *tmp;

	if (oldest) {
		hlist_for_each_entry(node, head, list)
			len++;
		skip = len > want ? len - want : 0;
	}
	hlist_for_each_entry_safe(node, tmp, head, list) {
		if (skip) {
			skip--;
			continue;
		}
		avc_node_evict(c, idx, node);
		if (++evicted == want)
			break;
	}
	return evicted;
}

/*
 * Evict from locked bucket @idx what @policy chooses, at most @want.
 */
static unsigned int avc_evict(struct avc_cache *c, unsigned int idx,
			      unsigned int want, enum avc_reclaim_policy policy)
{
	if (policy == AVC_RECLAIM_LRU)
		return avc_evict_clock(c, idx, want);
	return avc_evict_by_age(c, idx, want, policy == AVC_RECLAIM_FIFO);
}

/*
 * Visit bucket @idx: in rcu mode under its own lock if that is free; in the
 * locked modes the caller holds the global lock.
 */
static unsigned int avc_reclaim_bucket(struct avc_cache *c, unsigned int idx,
				       unsigned int want,
				       enum avc_reclaim_policy policy)
{
	unsigned long flags;
	unsigned int got;

	if (avc_sync_locked())
		return avc_evict(c, idx, want, policy);
	if (!avc_bucket_trylock(&c->locks, idx, &flags))
		return 0;
	got = avc_evict(c, idx, want, policy);
	avc_bucket_unlock(&c->locks, idx, flags);
	return got;
}

/*
 * One pass of the hand over @span buckets after @start, until @got reaches
 * a chunk: returns the entries evicted in all, and the last bucket visited
 * and the number visited in *@idx and *@tried.
 */
static unsigned int avc_reclaim_pass(struct avc_cache *c, unsigned int start,
				     unsigned int span, unsigned int got,
				     enum avc_reclaim_policy policy,
				     unsigned int *idx, unsigned int *tried)
{
	unsigned int i = start, n;

	for (n = 0; n < span && got < AVC_RCU_RECLAIM_CHUNK; n++) {
		i = (i + 1) & c->mask;
		if (hlist_empty(&c->slots[i]))
			continue;
		got += avc_reclaim_bucket(c, i, AVC_RCU_RECLAIM_CHUNK - got,
					  policy);
	}
	*idx = i;
	*tried = n;
	return got;
}

/*
 * The hand's sweep, under the reclaim lock: from the bucket after the
 * hint, over at most AVC_RCU_RECLAIM_SCAN buckets (or the whole table, if
 * smaller), until a chunk is evicted.  With lru, if the chunk is not
 * complete, the hand goes over the buckets it passed once more and evicts
 * by age.  Empty buckets are passed over without taking their lock.
 * *@visited is set to the number of bucket visits, empty or not.
 */
static unsigned int avc_reclaim_sweep(struct avc_cache *c,
				      unsigned int *visited)
{
	unsigned int start = c->reclaim_hint, span, got, idx, tried, again;

	span = min(c->mask + 1, (unsigned int)AVC_RCU_RECLAIM_SCAN);
	got = avc_reclaim_pass(c, start, span, 0, avc_reclaim_policy, &idx,
			       &tried);
	*visited = tried;
	if (got < AVC_RCU_RECLAIM_CHUNK &&
	    avc_reclaim_policy == AVC_RECLAIM_LRU) {
		got = avc_reclaim_pass(c, start, tried, got, AVC_RECLAIM_FIFO,
				       &idx, &again);
		*visited += again;
	}
	c->reclaim_hint = idx;
	return got;
}

/**
 * avc_reclaim() - evict one chunk of entries, if the cache is over its
 *	threshold
 * @c: the cache; the caller holds none of its locks
 *
 * Never sleeps (on PREEMPT_RT: may block on the reclaim lock, a sleeping
 * lock there).  Waits for any reclaim in progress, then, if the cache still
 * holds more places than its threshold, evicts up to
 * %AVC_RCU_RECLAIM_CHUNK entries from at most %AVC_RCU_RECLAIM_SCAN
 * buckets (each visited at most twice), holding at most one bucket lock at
 * a time.  Fewer are evicted when the buckets in reach are empty or (rcu
 * mode) busy.
 *
 * Return: the number of entries evicted.
 */
unsigned int avc_reclaim(struct avc_cache *c)
{
	u64 start = trace_avc_rcu_reclaim_enabled() ? ktime_get_ns() : 0;
	unsigned int got = 0, visited = 0;
	struct avc_node *evicted;
	unsigned long flags;

	flags = avc_reclaim_lock(&c->locks);
	/* A reclaim that ran while this one waited may have made room. */
	if (atomic_read(&c->active) > READ_ONCE(c->threshold))
		got = avc_reclaim_sweep(c, &visited);
	evicted = c->evicted;
	c->evicted = NULL;
	avc_reclaim_unlock(&c->locks, flags);
	avc_node_free_evicted(evicted);

	this_cpu_add(c->stats->reclaims, got);
	trace_avc_rcu_reclaim(got, visited, avc_reclaim_policy,
			      atomic_read(&c->active), READ_ONCE(c->threshold),
			      start ? ktime_get_ns() - start : 0);
	return got;
}
