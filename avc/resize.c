// SPDX-License-Identifier: GPL-2.0
/*
 * avc_rcu core: the bucket table follows cache_threshold.
 *
 * Unless the cache was made with a number of slots (the slots parameter),
 * its table has as many buckets as cache_threshold rounded up to a power
 * of two, at least AVC_SLOTS_FOLLOW_MIN (upstream's 512) and at most
 * AVC_RCU_SLOTS_MAX: chains of one entry on average at the threshold, so
 * that a lookup at 8192 entries costs what it costs at 512.  A threshold
 * change queues the cache's work item, which resizes in process context,
 * as lib/rhashtable resizes from a work item:
 *
 *  1. a new table is allocated (GFP_KERNEL: the work item may sleep) and
 *     published as the current table's @future, before any entry moves;
 *     from then on inserts link into it (they read @future under the old
 *     bucket's lock, and go on to the new table when it is set), and a
 *     lookup that misses in the current table searches it too;
 *  2. each old bucket is emptied, one entry per locked section: the
 *     newest entry (the chain's tail, so that a reader on the chain loses
 *     none of the entries before it) is unlinked and, under the lock of
 *     its new bucket too, linked at that bucket's head, unless it is of a
 *     policy a reset retired, a newer entry of its key is there already
 *     (an insert made during the resize), or the new bucket is full, in
 *     which cases it is dropped;
 *  3. the new table becomes the current one, and the old one is freed
 *     after a grace period.
 *
 * A lockless reader on a moved entry follows its next pointer into the
 * new bucket: it may then miss a key it would have found, and searches
 * the new table, or computes the decision again; it never sees a freed
 * node or a table whose size and buckets disagree (both are read from one
 * table pointer).  See Documentation/design.rst, "Resize".
 */

#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/kernel.h>
#include <linux/ktime.h>
#include <linux/log2.h>
#include <linux/printk.h>
#include <linux/sched.h>
#include "node.h"
#include "avc_rcu_events.h"

/**
 * avc_slots_for() - the buckets a cache's table should have
 * @c: the cache
 * @threshold: a cache_threshold
 *
 * Return: the pinned number of slots, or @threshold rounded up to a power
 * of two, clamped to AVC_SLOTS_FOLLOW_MIN .. AVC_RCU_SLOTS_MAX.
 */
unsigned int avc_slots_for(const struct avc_cache *c, unsigned int threshold)
{
	if (c->pinned_slots)
		return c->pinned_slots;
	if (threshold >= AVC_RCU_SLOTS_MAX)
		return AVC_RCU_SLOTS_MAX;
	if (threshold <= AVC_SLOTS_FOLLOW_MIN)
		return AVC_SLOTS_FOLLOW_MIN;
	return roundup_pow_of_two(threshold);
}

/*
 * Link @n, just unlinked from its old bucket, at the head of @h.  Unlike
 * hlist_add_head_rcu(), whose node no reader has seen, a lockless reader
 * may still be on @n: its next pointer is published with a release, so
 * that the reader who follows it from @n into the new bucket sees that
 * bucket's nodes whole, as one who came through the head does.
 */
static void avc_node_relink(struct hlist_node *n, struct hlist_head *h)
{
	struct hlist_node *first = h->first;

	rcu_assign_pointer(hlist_next_rcu(n), first);
	WRITE_ONCE(n->pprev, &h->first);
	rcu_assign_pointer(hlist_first_rcu(h), n);
	if (first)
		WRITE_ONCE(first->pprev, &n->next);
}

/*
 * Move the newest entry of bucket @i of @old into @new, in one section
 * under the two buckets' locks (the old one's first).  Returns false once
 * the bucket is empty; counts the entries moved and dropped.
 */
static bool avc_move_one(struct avc_cache *c, struct avc_table *old,
			 struct avc_table *new, unsigned int i,
			 unsigned int *moved, unsigned int *dropped)
{
	struct avc_node *node, *pos, *dup = NULL, *victim = NULL;
	struct hlist_node *tail = NULL, *p;
	struct avc_key k;
	unsigned int j, len = 0;
	unsigned long flags;

	flags = avc_bucket_lock(&c->locks, old->locks, i);
	for (p = old->slots[i].first; p; p = p->next)
		tail = p;
	if (!tail) {
		avc_bucket_unlock(&c->locks, old->locks, i, flags);
		return false;
	}
	node = hlist_entry(tail, struct avc_node, list);
	k.ssid = node->ssid;
	k.tsid = node->tsid;
	k.tclass = node->tclass;
	j = avc_hash(new, &k);
	avc_bucket_lock_nested(new->locks, j);
	avc_hlist_del_rcu(&node->list);
	hlist_for_each_entry_rcu(pos, &new->slots[j], list,
				 avc_table_lockdep_held(c, new, j)) {
		if (avc_node_is(pos, &k))
			dup = pos;
		len++;
	}
	if (avc_insert_stale(c, node->dec.seqno)) {
		/* Of a policy a reset retired since it was linked. */
		victim = node;
	} else if (dup) {
		/* Inserted meanwhile: the newer decision of the two stays. */
		victim = node;
		if (avc_seqno_before(dup->dec.seqno, node->dec.seqno)) {
			hlist_replace_rcu(&dup->list, &node->list);
			victim = dup;
		}
	} else if (len >= AVC_CHAIN_MAX) {
		victim = node;
	} else {
		avc_node_relink(&node->list, &new->slots[j]);
	}
	if (victim) {
		/* Unlinked: freed once no reader can hold it. */
		atomic_dec(&c->active);
		avc_node_free_unlinked(c, victim);
	}
	if (victim == node)
		(*dropped)++;
	else
		(*moved)++;
	avc_bucket_unlock_nested(new->locks, j);
	avc_bucket_unlock(&c->locks, old->locks, i, flags);
	return true;
}

/**
 * avc_resize() - give the table the number of buckets it should have
 * @c: the cache
 *
 * Sleeps; the cache's work item runs it.  Nothing happens if the table has
 * the right size, or if no new table can be allocated (it is tried again
 * at the next threshold change; the kernel log says so, rate-limited).
 */
void avc_resize(struct avc_cache *c)
{
	unsigned int want, i, moved = 0, dropped = 0;
	struct avc_table *old, *new;
	u64 start;

	mutex_lock(&c->resize_lock);
	old = rcu_dereference_protected(c->table,
					lockdep_is_held(&c->resize_lock));
	want = avc_slots_for(c, READ_ONCE(c->threshold));
	if (want == old->mask + 1)
		goto out;
	start = ktime_get_ns();
	new = avc_table_alloc(c, want, GFP_KERNEL | __GFP_NOWARN);
	if (!new) {
		pr_warn_ratelimited("cannot allocate a table of %u buckets: keeping %u\n",
				    want, old->mask + 1);
		goto out;
	}
	rcu_assign_pointer(old->future, new);
	for (i = 0; i <= old->mask; i++) {
		while (avc_move_one(c, old, new, i, &moved, &dropped))
			;
		cond_resched();
	}
	rcu_assign_pointer(c->table, new);
	trace_avc_rcu_resize(old->mask + 1, want, moved, dropped,
			     ktime_get_ns() - start);
	synchronize_rcu();
	avc_table_free(old);
out:
	mutex_unlock(&c->resize_lock);
}
