// SPDX-License-Identifier: GPL-2.0
/*
 * avc_rcu core: reclaim, in sections bounded by the nodes they examine.
 *
 * Where it runs (the reclaimer, chosen when the cache is made):
 *
 *  - inline (default): the insert that takes a place past cache_threshold
 *    runs one section before it links its own node, as upstream's
 *    avc_alloc_node() reclaims in the miss;
 *  - background: a work item, in process context with
 *    interrupts on, woken by the insert that takes a place past the high
 *    watermark and evicting down to the low one (avc_watermark_high(),
 *    avc_watermark_low()), a section at a time with cond_resched() between
 *    sections, as kswapd reclaims between its watermarks off the
 *    allocation path.  A miss only wakes it; at cache_threshold a miss's
 *    decision is returned uncached.
 *
 * Documentation/design.rst, "Trade-offs", says why inline is the default:
 * a section is bounded and costs less than waking the worker.
 *
 * A section.  It holds the reclaim lock (avc_reclaim_lock()) and, in rcu
 * mode, trylocks one bucket at a time under it, skipping a busy one rather
 * than waiting; in the locked modes the reclaim lock is the global lock.
 * It starts after the bucket where the previous section's hand stopped,
 * so that successive sections go round the table like a clock hand.  It
 * examines at most AVC_NODE_BUDGET nodes and reads at most
 * AVC_RECLAIM_BUCKETS bucket heads in each of its passes, and evicts at
 * most AVC_RECLAIM_CHUNK entries, whatever the slots, the threshold, the
 * policy and the hit density: a bucket lists its entries oldest first and
 * holds at most AVC_CHAIN_MAX of them, so that none of the policies needs
 * to walk a chain more than once.  Which entries go is the reclaim
 * policy's choice, made once at load time:
 *
 *  - lru (CLOCK, "second chance"): a hit sets the node's referenced bit if
 *    it is clear (avc_node_touch()); the hand, going from a bucket's
 *    oldest entry to its newest, evicts the entries whose bit is clear and
 *    clears the bit of the others, which then survive until the hand comes
 *    round again.  Entries are born unreferenced, so keys asked for once
 *    go first.  The hand may stop inside a bucket, whose newer entries
 *    keep their bits, and the next section starts there.  If the first
 *    pass examined AVC_CLOCK_BUDGET nodes without completing a chunk, a
 *    second pass goes over the buckets the first passed, from where it
 *    started, and evicts by age, oldest first, whatever the bits say: a
 *    table whose every entry was hit since the hand last passed (a hot
 *    working set as large as the threshold) costs one section as a cold
 *    one does, not a trip round the table.
 *  - fifo: the oldest entries of a bucket, by insertion.
 *  - newest: the newest entries of a bucket, as upstream 6.1 does (its
 *    buckets list the newest first; here that is the tail).
 *
 * In rcu mode the evicted nodes are chained and freed by one call_rcu()
 * after the reclaim lock is dropped (avc_node_evict()), not one a node.
 * One section at a time holds the reclaim lock, and first checks that the
 * cache is still above the section's limit: k inline misses at the
 * threshold at once evict at most k - 1 + a chunk between them, not k
 * chunks.
 */

#include <linux/kernel.h>
#include <linux/ktime.h>
#include <linux/sched.h>
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

static const char *const avc_reclaimer_names[] = {
	[AVC_RECLAIMER_INLINE] = "inline",
	[AVC_RECLAIMER_BACKGROUND] = "background",
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
 * avc_reclaimer_parse() - where reclaim runs, from its name
 * @name: "background" or "inline", optionally followed by a newline
 * @reclaimer: where to store it
 *
 * Return: 0, or -EINVAL for any other name.
 */
int avc_reclaimer_parse(const char *name, enum avc_reclaimer *reclaimer)
{
	int i = sysfs_match_string(avc_reclaimer_names, name);

	if (i < 0)
		return -EINVAL;
	*reclaimer = i;
	return 0;
}

/**
 * avc_reclaimer_name() - name of where reclaim runs
 * @reclaimer: the reclaimer
 *
 * Return: "background" or "inline".
 */
const char *avc_reclaimer_name(enum avc_reclaimer reclaimer)
{
	return avc_reclaimer_names[reclaimer];
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
 * The watermarks of the background reclaimer, from cache_threshold T: the
 * gap from T to the high watermark, and from the high to the low one, is
 * T / 64, at least a chunk (16) and at most T / 4, at least 1.  The gap
 * above the high watermark is the misses the reclaimer may take to wake
 * before one finds the cache full (16 at the default 512: 16 misses within
 * a kworker's wake-up, some tens of microseconds on an idle CPU); the gap
 * below it is what one wake evicts, so that a steady stream of misses
 * wakes it once per T / 64 of them, not once a miss.
 */
static unsigned int avc_watermark_gap(unsigned int threshold)
{
	unsigned int gap = max(threshold / 64, (unsigned int)AVC_RECLAIM_CHUNK);

	return max(min(gap, threshold / 4), 1U);
}

/**
 * avc_watermark_high() - the count past which a miss wakes the reclaimer
 * @threshold: cache_threshold
 *
 * Return: the high watermark, below @threshold (0 if it is 1).
 */
unsigned int avc_watermark_high(unsigned int threshold)
{
	unsigned int gap = avc_watermark_gap(threshold);

	return threshold > gap ? threshold - gap : 0;
}

/**
 * avc_watermark_low() - the count the reclaimer evicts down to
 * @threshold: cache_threshold
 *
 * Return: the low watermark, below the high one unless both are 0.
 */
unsigned int avc_watermark_low(unsigned int threshold)
{
	unsigned int high = avc_watermark_high(threshold);

	return high - min(avc_watermark_gap(threshold), high);
}

/**
 * avc_chain_victim() - the entry a full bucket gives up for a new one
 * @first_cold: the bucket's oldest entry whose referenced bit is clear,
 *	or NULL
 * @oldest: its oldest entry
 * @newest: its newest entry
 *
 * Return: by the reclaim policy: lru the oldest not referenced, else the
 * oldest; fifo the oldest; newest the newest.
 */
struct avc_node *avc_chain_victim(struct avc_node *first_cold,
				  struct avc_node *oldest,
				  struct avc_node *newest)
{
	switch (avc_reclaim_policy) {
	case AVC_RECLAIM_LRU:
		return first_cold ?: oldest;
	case AVC_RECLAIM_FIFO:
		return oldest;
	default:
		return newest;
	}
}

/**
 * struct avc_section - one reclaim section under way
 * @t: the table it reclaims from (the newest)
 * @nodes: nodes examined so far, at most AVC_NODE_BUDGET
 * @buckets: bucket heads read so far
 * @got: entries evicted so far, at most AVC_RECLAIM_CHUNK
 */
struct avc_section {
	struct avc_table *t;
	unsigned int nodes;
	unsigned int buckets;
	unsigned int got;
};

/*
 * How a pass treats a bucket: CLOCK (lru's first pass), by age from the
 * oldest (fifo, and lru's second pass), or from the newest (newest).
 */
enum avc_pass {
	AVC_PASS_CLOCK,
	AVC_PASS_OLDEST,
	AVC_PASS_NEWEST,
};

/*
 * CLOCK in locked bucket @idx, from its oldest entry: a referenced entry
 * is given its second chance (bit cleared), one not referenced is
 * evicted.  Only the reclaimer, under the bucket lock, clears bits; a hit
 * racing with the section may set one after it was read or cleared: the
 * section then evicts an entry just used (its reader already has its
 * decision) or clears a fresh reference, which costs the entry at worst
 * one miss later.  Stops once the section has a chunk or has examined
 * @budget nodes.
 */
static void avc_evict_clock(struct avc_cache *c, struct avc_section *s,
			    unsigned int idx, unsigned int budget)
{
	struct avc_node *node;
	struct hlist_node *tmp;

	hlist_for_each_entry_safe(node, tmp, &s->t->slots[idx], list) {
		if (s->got == AVC_RECLAIM_CHUNK || s->nodes == budget)
			return;
		s->nodes++;
		if (READ_ONCE(node->referenced)) {
			WRITE_ONCE(node->referenced, 0);
		} else {
			avc_node_evict(c, s->t, idx, node);
			s->got++;
		}
	}
}

/* By age in locked bucket @idx: the oldest first, whatever their bits. */
static void avc_evict_oldest(struct avc_cache *c, struct avc_section *s,
			     unsigned int idx, unsigned int budget)
{
	struct avc_node *node;
	struct hlist_node *tmp;

	hlist_for_each_entry_safe(node, tmp, &s->t->slots[idx], list) {
		if (s->got == AVC_RECLAIM_CHUNK || s->nodes == budget)
			return;
		s->nodes++;
		avc_node_evict(c, s->t, idx, node);
		s->got++;
	}
}

/*
 * The newest first in locked bucket @idx: the hand goes to the tail,
 * examining each node once, then evicts back towards the head through the
 * nodes' pprev, which the bucket lock keeps exact.  A bucket too long for
 * what is left of the budget is left whole.
 */
static void avc_evict_newest(struct avc_cache *c, struct avc_section *s,
			     unsigned int idx, unsigned int budget)
{
	struct hlist_head *head = &s->t->slots[idx];
	struct hlist_node *pos, *tail = NULL, *prev;

	for (pos = head->first; pos; pos = pos->next) {
		if (s->nodes == budget)
			return;
		s->nodes++;
		tail = pos;
	}
	while (tail && s->got < AVC_RECLAIM_CHUNK) {
		prev = tail->pprev == &head->first ? NULL :
			container_of(tail->pprev, struct hlist_node, next);
		avc_node_evict(c, s->t, idx,
			       hlist_entry(tail, struct avc_node, list));
		s->got++;
		tail = prev;
	}
}

static void avc_evict(struct avc_cache *c, struct avc_section *s,
		      unsigned int idx, enum avc_pass pass,
		      unsigned int budget)
{
	if (pass == AVC_PASS_CLOCK)
		avc_evict_clock(c, s, idx, budget);
	else if (pass == AVC_PASS_OLDEST)
		avc_evict_oldest(c, s, idx, budget);
	else
		avc_evict_newest(c, s, idx, budget);
}

/*
 * Visit bucket @idx: in rcu mode under its own lock if that is free (a
 * busy bucket is one being used, and is passed over as done); in the
 * locked modes the section holds the global lock.
 */
static void avc_reclaim_bucket(struct avc_cache *c, struct avc_section *s,
			       unsigned int idx, enum avc_pass pass,
			       unsigned int budget)
{
	unsigned long flags;

	if (avc_sync_locked()) {
		avc_evict(c, s, idx, pass, budget);
		return;
	}
	if (!avc_bucket_trylock(s->t->locks, idx, &flags))
		return;
	avc_evict(c, s, idx, pass, budget);
	avc_bucket_unlock(&c->locks, s->t->locks, idx, flags);
}

/*
 * One pass of the hand over at most @span buckets after @start, until the
 * section has a chunk or has examined @budget nodes: returns the number
 * of buckets it went into, and in *@stop the last of them, after which
 * the next section starts (as upstream's hand moves on after the bucket
 * where its chunk completed).
 */
static unsigned int avc_reclaim_pass(struct avc_cache *c,
				     struct avc_section *s,
				     unsigned int start, unsigned int span,
				     enum avc_pass pass, unsigned int budget,
				     unsigned int *stop)
{
	unsigned int mask = s->t->mask, i = start, n;

	for (n = 0; n < span; n++) {
		if (s->got == AVC_RECLAIM_CHUNK || s->nodes >= budget)
			break;
		i = (i + 1) & mask;
		s->buckets++;
		if (!hlist_empty(&s->t->slots[i]))
			avc_reclaim_bucket(c, s, i, pass, budget);
	}
	*stop = i;
	return n;
}

/*
 * The section proper, under the reclaim lock and in an RCU read-side
 * section (for the table pointer).
 */
static void avc_reclaim_sweep(struct avc_cache *c, struct avc_section *s)
{
	enum avc_reclaim_policy policy = avc_reclaim_policy;
	unsigned int start, span, passed, stop, unused;
	enum avc_pass pass;

	s->t = avc_table_newest(c);
	start = c->reclaim_hint & s->t->mask;
	span = min(s->t->mask + 1, (unsigned int)AVC_RECLAIM_BUCKETS);
	if (policy == AVC_RECLAIM_LRU)
		pass = AVC_PASS_CLOCK;
	else if (policy == AVC_RECLAIM_FIFO)
		pass = AVC_PASS_OLDEST;
	else
		pass = AVC_PASS_NEWEST;
	passed = avc_reclaim_pass(c, s, start, span, pass,
				  pass == AVC_PASS_CLOCK ? AVC_CLOCK_BUDGET :
				  AVC_NODE_BUDGET, &stop);
	if (pass == AVC_PASS_CLOCK && s->got < AVC_RECLAIM_CHUNK)
		avc_reclaim_pass(c, s, start, passed, AVC_PASS_OLDEST,
				 AVC_NODE_BUDGET, &unused);
	c->reclaim_hint = stop;
}

/*
 * One section, if the cache holds more places than @limit when it has the
 * reclaim lock.  @any_context: the caller may be in any context (a miss),
 * not the background reclaimer's work item.  Returns the entries evicted.
 */
static unsigned int avc_reclaim_section(struct avc_cache *c,
					unsigned int limit, bool any_context)
{
	u64 start = trace_avc_rcu_reclaim_enabled() ? ktime_get_ns() : 0;
	struct avc_section s = { };
	struct avc_node *evicted;
	unsigned long flags;

	rcu_read_lock();
	flags = avc_reclaim_lock(&c->locks, any_context);
	/* A section that ran while this one waited may have made room. */
	if (atomic_read(&c->active) > limit)
		avc_reclaim_sweep(c, &s);
	evicted = c->evicted;
	c->evicted = NULL;
	avc_reclaim_unlock(&c->locks, any_context, flags);
	rcu_read_unlock();
	avc_node_free_evicted(evicted);

	this_cpu_add(c->stats->reclaims, s.got);
	trace_avc_rcu_reclaim(s.got, s.nodes, s.buckets, avc_reclaim_policy,
			      atomic_read(&c->active), READ_ONCE(c->threshold),
			      start ? ktime_get_ns() - start : 0);
	return s.got;
}

/**
 * avc_reclaim() - evict one chunk of entries, if the cache is over its
 *	threshold
 * @c: the cache; the caller holds none of its locks
 *
 * One section of the inline reclaimer's kind, for a caller that counts
 * its own place among those taken (a miss gives its place back first and
 * calls avc_reclaim_room()).  Never sleeps (on PREEMPT_RT: may block on
 * the reclaim lock, a sleeping lock there).
 * Waits for any section in progress, then, if the cache still holds more
 * places than its threshold, evicts up to %AVC_RECLAIM_CHUNK entries,
 * examining at most %AVC_NODE_BUDGET nodes and holding at most one bucket
 * lock at a time.  Fewer are evicted when the buckets in reach are empty
 * or (rcu mode) busy.
 *
 * Return: the number of entries evicted.
 */
unsigned int avc_reclaim(struct avc_cache *c)
{
	return avc_reclaim_section(c, READ_ONCE(c->threshold), true);
}

/**
 * avc_reclaim_room() - evict one chunk of entries, if the cache has no room
 *	for one more
 * @c: the cache; the caller holds none of its locks, and no place
 *
 * As avc_reclaim(), for a miss that found the cache full and gave its
 * place back before waiting for the reclaim lock: the section runs if the
 * places taken are at least the threshold, that is, if the caller's would
 * be past it.  The threshold is the one read before waiting.
 *
 * Return: the number of entries evicted.
 */
unsigned int avc_reclaim_room(struct avc_cache *c)
{
	unsigned int thr = READ_ONCE(c->threshold);

	return avc_reclaim_section(c, thr ? thr - 1 : 0, true);
}

/**
 * avc_reclaim_wake() - wake the background reclaimer
 * @c: the cache
 *
 * Callable in any context.  A wake while the work is already queued costs
 * a load.
 */
void avc_reclaim_wake(struct avc_cache *c)
{
	if (!work_pending(&c->work))
		queue_work(system_unbound_wq, &c->work);
}

/*
 * Sections one run of the work item makes at most before it queues itself
 * again and lets the worker go: 1024 chunks, 16384 entries.
 */
#define AVC_RECLAIM_RUN_SECTIONS	1024

/*
 * The background reclaimer's run: sections down to the low watermark,
 * rescheduling between them.  Sections that evict nothing (the buckets in
 * reach empty, or busy) move the hand on; once they have gone round the
 * whole table without evicting, it stops until the next wake.
 */
static void avc_reclaim_background(struct avc_cache *c)
{
	unsigned int sections = 0, idle = 0, idle_max;

	for (;;) {
		unsigned int low = avc_watermark_low(READ_ONCE(c->threshold));

		if (atomic_read(&c->active) <= low)
			return;
		if (avc_reclaim_section(c, low, false)) {
			idle = 0;
		} else {
			idle_max = avc_cache_slots(c) / AVC_RECLAIM_BUCKETS + 2;
			if (++idle >= idle_max)
				return;
		}
		if (++sections == AVC_RECLAIM_RUN_SECTIONS) {
			queue_work(system_unbound_wq, &c->work);
			return;
		}
		cond_resched();
	}
}

/**
 * avc_reclaim_work() - the cache's work item
 * @work: the cache's @work
 *
 * Process context.  With the background reclaimer, evicts down to the low
 * watermark; then, if the table follows cache_threshold and no longer
 * matches it, resizes it.
 */
void avc_reclaim_work(struct work_struct *work)
{
	struct avc_cache *c = container_of(work, struct avc_cache, work);

	if (c->reclaimer == AVC_RECLAIMER_BACKGROUND)
		avc_reclaim_background(c);
	avc_resize(c);
}
