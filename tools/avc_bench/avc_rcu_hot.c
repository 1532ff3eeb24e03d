// SPDX-License-Identifier: GPL-2.0
/*
 * avc_rcu_hot: make bench's misses into a hot cache, in a guest.
 *
 * Not a module of its own: tools/avc_bench/bench links this file into a
 * copy of avc_rcu.ko (avc_rcu-hot.ko; tools/avc_bench/irqsoff into a copy
 * of the tree before the bounded reclaim too), because a hot cache needs
 * what no exported function gives, the entries linked.  It adds one
 * parameter, written as root:
 *
 *   echo "MISSES SSID TSID HOT" >/sys/module/avc_rcu/parameters/bench_hot
 *
 * looks up MISSES fresh keys (source SSID, SSID + 1, ..., target TSID,
 * class 3) one after the other with avc_rcu_has_perm(), in the writer's
 * context.  With HOT 1, first and after each miss it waits for the
 * cache's work item (avc_cache_settle(): the background reclaimer woken
 * by the miss, if any) and then sets the referenced bit of every entry
 * linked, as a hit does (avc_node_touch()), by a walk of the buckets
 * under RCU: before each miss every entry has been referenced since the
 * last reclaim section, the cache a working set as large as
 * cache_threshold keeps.
 * With HOT 0 the misses run back to back: the cache's entries are each
 * asked for once.  Reading the parameter gives the last run's counts:
 * misses, the nodes the walks found not referenced (those the sections
 * passed over, and the new entries) and the run's time.
 *
 * A benchmark's build, never one to use.
 */

#include <linux/kernel.h>
#include <linux/ktime.h>
#include <linux/moduleparam.h>
#include <linux/sched.h>
#include <linux/sysfs.h>
#include "api.h"
#include "node.h"

#define BENCH_HOT_TCLASS	3

static struct {
	unsigned int misses;
	unsigned long unreferenced;
	u64 ns;
} bench_hot_last;

/* Reference every entry of @slots; returns those that were not. */
static unsigned long bench_hot_touch_buckets(struct hlist_head *slots,
					     unsigned int mask)
{
	unsigned long cold = 0;
	struct avc_node *node;
	unsigned int i;

	for (i = 0; i <= mask; i++) {
		hlist_for_each_entry_rcu(node, &slots[i], list) {
			cold += !READ_ONCE(node->referenced);
			avc_node_touch(node);
		}
	}
	return cold;
}

/*
 * Reference every entry linked: in every table (during a resize, two),
 * or before the tables, in the cache's own buckets.
 */
static unsigned long bench_hot_touch(struct avc_cache *c)
{
	unsigned long cold = 0;
#ifdef AVC_NODE_BUDGET
	struct avc_table *t;

	rcu_read_lock();
	for (t = rcu_dereference(c->table); t; t = rcu_dereference(t->future))
		cold += bench_hot_touch_buckets(t->slots, t->mask);
	rcu_read_unlock();
#else
	rcu_read_lock();
	cold = bench_hot_touch_buckets(c->slots, c->mask);
	rcu_read_unlock();
#endif
	return cold;
}

static int bench_hot_set(const char *val, const struct kernel_param *kp)
{
	unsigned int misses, ssid, tsid, hot, i;
	struct avc_cache *c = avc_rcu_cache();
	struct avc_rcu_decision avd;
	unsigned long cold = 0;
	u64 start;

	if (!c)
		return -ENODEV;
	if (sscanf(val, "%u %u %u %u", &misses, &ssid, &tsid, &hot) != 4 ||
	    hot > 1 || !ssid || ssid + misses < ssid)
		return -EINVAL;
	start = ktime_get_ns();
	if (hot) {
#ifdef AVC_NODE_BUDGET
		avc_cache_settle(c);
#endif
		bench_hot_touch(c);
	}
	for (i = 0; i < misses; i++) {
		avc_rcu_has_perm(ssid + i, tsid, BENCH_HOT_TCLASS, 1, &avd);
		if (hot) {
#ifdef AVC_NODE_BUDGET
			avc_cache_settle(c);
#endif
			cold += bench_hot_touch(c);
		}
		cond_resched();
	}
	bench_hot_last.misses = misses;
	bench_hot_last.unreferenced = cold;
	bench_hot_last.ns = ktime_get_ns() - start;
	return 0;
}

static int bench_hot_get(char *buffer, const struct kernel_param *kp)
{
	return sysfs_emit(buffer, "misses=%u unreferenced=%lu ns=%llu\n",
			  bench_hot_last.misses, bench_hot_last.unreferenced,
			  bench_hot_last.ns);
}

static const struct kernel_param_ops bench_hot_ops = {
	.set = bench_hot_set,
	.get = bench_hot_get,
};
module_param_cb(bench_hot, &bench_hot_ops, NULL, 0600);
MODULE_PARM_DESC(bench_hot, "make bench: \"MISSES SSID TSID HOT\" fresh-key misses, HOT 1: every entry referenced before each");
