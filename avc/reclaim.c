// SPDX-License-Identifier: GPL-2.0
/*
 * avc_rcu core: chunked reclaim.
 *
 * When an insert finds the cache at cache_threshold, the inserter evicts one
 * chunk of AVC_RCU_RECLAIM_CHUNK entries before it links its own.  The
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
 *    first.  One reclaim goes round the table at most twice: the first
 *    round may only clear bits, the second then finds those entries cold.
 *  - fifo: the oldest entries of a bucket by insertion.
 *  - newest: the newest entries of a bucket, as upstream 6.1 does.  New
 *    entries are linked at a bucket's head, so these are the first ones.
 *
 * Locks.  In rcu mode each visited bucket is trylocked and a busy one is
 * skipped rather than waited for: the inserter may be in interrupt context,
 * and a busy bucket is one being used.  The inserter's own bucket lock is
 * not held here, so at most one bucket lock is ever held.  In the locked
 * modes the global lock is taken once, waited for, and the whole sweep runs
 * under it: a trylock per bucket there fails whenever any CPU is looking
 * up (write_trylock() fails whenever one reader holds the rwlock), and a
 * reclaim that evicts nothing lets the cache grow without bound.  Every
 * holder of the global lock runs with interrupts off and holds no other
 * lock of the cache, so waiting for it cannot deadlock.
 */

#include <linux/kernel.h>
#include <linux/string.h>
#include "node.h"
#include "avc_rcu_trace.h"

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
			avc_node_unlink(c, idx, node);
			evicted++;
		}
	}
	return evicted;
}

/* fifo and newest in locked bucket @idx: the oldest or newest @want. */
static unsigned int avc_evict_by_age(struct avc_cache *c, unsigned int idx,
				     unsigned int want)
{
	struct hlist_head *head = &c->slots[idx];
	unsigned int len = 0, skip = 0, evicted = 0;
	struct avc_node *node;
	struct hlist_node *tmp;

	if (avc_reclaim_policy == AVC_RECLAIM_FIFO) {
		hlist_for_each_entry(node, head, list)
			len++;
		skip = len > want ? len - want : 0;
	}
	hlist_for_each_entry_safe(node, tmp, head, list) {
		if (skip) {
			skip--;
			continue;
		}
		avc_node_unlink(c, idx, node);
		if (++evicted == want)
			break;
	}
	return evicted;
}

/*
 * Visit bucket @idx: in rcu mode under its own lock if that is free; in the
 * locked modes the caller holds the global lock.
 */
static unsigned int avc_reclaim_bucket(struct avc_cache *c, unsigned int idx,
				       unsigned int want)
{
	unsigned long flags;
	unsigned int got;

	if (avc_sync_locked())
		return avc_reclaim_policy == AVC_RECLAIM_LRU ?
		       avc_evict_clock(c, idx, want) :
		       avc_evict_by_age(c, idx, want);
	if (!avc_bucket_trylock(&c->locks, idx, &flags))
		return 0;
	got = avc_reclaim_policy == AVC_RECLAIM_LRU ?
	      avc_evict_clock(c, idx, want) : avc_evict_by_age(c, idx, want);
	avc_bucket_unlock(&c->locks, idx, flags);
	return got;
}

/*
 * The hand's sweep: from the bucket after the hint, at most twice round the
 * table, until a chunk is evicted.  Empty buckets are passed over without
 * taking their lock, and the shared hint is read once and written once per
 * sweep rather than bumped per bucket: on a sparse table most visits find
 * nothing.  Two reclaims racing on the hint may start at the same bucket;
 * in rcu mode the loser of its trylock moves on.  *@visited is set to the
 * number of buckets the hand passed, empty or not.
 */
static unsigned int avc_reclaim_sweep(struct avc_cache *c,
				      unsigned int *visited)
{
	unsigned int got = 0, tried, idx, rounds = 2 * (c->mask + 1);

	idx = (unsigned int)atomic_read(&c->reclaim_hint);
	for (tried = 0; tried < rounds && got < AVC_RCU_RECLAIM_CHUNK;
	     tried++) {
		idx = (idx + 1) & c->mask;
		if (hlist_empty(&c->slots[idx]))
			continue;
		got += avc_reclaim_bucket(c, idx, AVC_RCU_RECLAIM_CHUNK - got);
	}
	atomic_set(&c->reclaim_hint, idx);
	*visited = tried;
	return got;
}

/**
 * avc_reclaim() - evict one chunk of entries
 * @c: the cache; the caller holds none of its locks
 *
 * Never sleeps.  Visits each bucket at most twice and holds at most one of
 * the cache's locks at a time, so a table of busy (rcu mode) or empty
 * buckets ends the sweep with fewer entries evicted.
 *
 * Return: the number of entries evicted.
 */
unsigned int avc_reclaim(struct avc_cache *c)
{
	unsigned int got, visited;
	unsigned long flags;

	if (avc_sync_locked()) {
		flags = avc_table_lock(&c->locks);
		got = avc_reclaim_sweep(c, &visited);
		avc_table_unlock(&c->locks, flags);
	} else {
		got = avc_reclaim_sweep(c, &visited);
	}
	this_cpu_add(c->stats->reclaims, got);
	trace_avc_rcu_reclaim(got, visited, avc_reclaim_policy,
			      atomic_read(&c->active), READ_ONCE(c->threshold));
	return got;
}
