// SPDX-License-Identifier: GPL-2.0
/*
 * avc_rcu core: statistics.
 *
 * Event counters are per CPU and only ever written by their own CPU, with
 * this_cpu_*() operations: a lookup never writes a cache line another CPU
 * writes.  Readers sum them without synchronisation, so a sum taken while
 * lookups run may be a few events behind; each counter is a 32-bit value
 * that wraps, as upstream's are and as avcstat expects.
 */

#include <linux/cpumask.h>
#include "node.h"

/**
 * avc_cache_stats_read() - one CPU's counters
 * @c: the cache
 * @cpu: a possible CPU
 * @out: where to store the counters
 */
void avc_cache_stats_read(const struct avc_cache *c, int cpu,
			  struct avc_cache_stats *out)
{
	const struct avc_cache_stats *s = per_cpu_ptr(c->stats, cpu);

	out->lookups = READ_ONCE(s->lookups);
	out->hits = READ_ONCE(s->hits);
	out->misses = READ_ONCE(s->misses);
	out->allocations = READ_ONCE(s->allocations);
	out->reclaims = READ_ONCE(s->reclaims);
	out->frees = READ_ONCE(s->frees);
}

/**
 * avc_cache_stats_sum() - counters summed over every possible CPU
 * @c: the cache
 * @sum: where to store the sums (each modulo 2^32)
 */
void avc_cache_stats_sum(const struct avc_cache *c,
			 struct avc_cache_stats *sum)
{
	struct avc_cache_stats one;
	int cpu;

	memset(sum, 0, sizeof(*sum));
	for_each_possible_cpu(cpu) {
		avc_cache_stats_read(c, cpu, &one);
		sum->lookups += one.lookups;
		sum->hits += one.hits;
		sum->misses += one.misses;
		sum->allocations += one.allocations;
		sum->reclaims += one.reclaims;
		sum->frees += one.frees;
	}
}

/*
 * Count the buckets of @t into @hs, each on the read side of its own;
 * the used buckets only if @used (the newest table's).
 */
static void avc_table_hash_stats(struct avc_cache *c, struct avc_table *t,
				 struct avc_hash_stats *hs, bool used)
{
	struct avc_node *node;
	unsigned long flags;
	unsigned int i;
	int len;

	for (i = 0; i <= t->mask; i++) {
		len = 0;
		flags = avc_read_lock(&c->locks);
		hlist_for_each_entry_rcu(node, &t->slots[i], list,
					 avc_table_lockdep_held(c, t, i))
			len++;
		avc_read_unlock(&c->locks, flags);
		if (len) {
			hs->buckets_used += used;
			hs->entries += len;
			hs->longest_chain = max(hs->longest_chain, len);
		}
	}
}

/**
 * avc_cache_hash_stats() - walk the table for avc/hash_stats
 * @c: the cache
 * @hs: where to store the result
 *
 * Each bucket is read on the read side (avc_read_lock()) taken for just
 * that bucket, so the walk never stalls lookups or updates for longer than
 * one chain takes to count.  During a resize both tables are walked: the
 * entries and the longest chain are both tables', the buckets and the
 * used ones the new table's, so that no more buckets are used than there
 * are.
 */
void avc_cache_hash_stats(struct avc_cache *c, struct avc_hash_stats *hs)
{
	struct avc_table *t;

	memset(hs, 0, sizeof(*hs));
	rcu_read_lock();
	t = avc_table_current(c);
	do {
		struct avc_table *f = rcu_dereference(t->future);

		avc_table_hash_stats(c, t, hs, !f);
		hs->buckets = t->mask + 1;
		t = f;
	} while (t);
	rcu_read_unlock();
}
