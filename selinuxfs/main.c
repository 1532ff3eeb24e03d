// SPDX-License-Identifier: GPL-2.0
/*
 * avc_rcu: an RCU access vector cache, after Kaigai Kohei's 2004 SELinux
 * patch, with James Morris's tunable threshold and statistics.
 *
 * This file is the module: its parameters, and the order in which the core
 * and the filesystem come up and go down.
 */

#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/log2.h>
#include <linux/module.h>
#include <linux/moduleparam.h>
#include <linux/sched.h>
#include "api.h"
#include "avcrcufs.h"

static unsigned int slots = AVC_RCU_SLOTS_DEFAULT;
module_param(slots, uint, 0444);
MODULE_PARM_DESC(slots,
		 "hash buckets, a power of two from 16 to 65536 (default 512)");

static char *sync = "rcu";
module_param(sync, charp, 0444);
MODULE_PARM_DESC(sync,
		 "lookup serialisation: rcu (lockless, default), spinlock (one global lock, the pre-2004 design) or rwlock (one global reader/writer lock)");

static char *reclaim = "lru";
module_param(reclaim, charp, 0444);
MODULE_PARM_DESC(reclaim,
		 "which entries a reclaim evicts: lru (CLOCK, an approximation of least recently used, default), fifo (oldest first) or newest (newest first, as upstream)");

static uint hash_seed;
module_param(hash_seed, uint, 0444);
MODULE_PARM_DESC(hash_seed,
		 "hash seed; 0 (default) for a random one; fixed, the buckets of keys and so reclaim are reproducible (tests, replays); reads as the seed in use, which the load's log line also gives");

static uint seqno_start;
module_param(seqno_start, uint, 0444);
MODULE_PARM_DESC(seqno_start,
		 "for tests only: the policy seqno to start from (default 0); near 4294967295, a few loads cross the wrap-around");

#ifdef CONFIG_FAULT_INJECTION
static uint init_fail_nth;
module_param(init_fail_nth, uint, 0444);
MODULE_PARM_DESC(init_fail_nth,
		 "for tests only, on a kernel with fault injection: fail the Nth fault-injectable allocation of the module's setup (its policy, cache and filesystem; not the loader's, nor the node cache's); the kernel log says whether it was reached (default 0: none)");

/*
 * The loader's own allocations come before the module's init, and many
 * of them, and kmem_cache_create()'s, report their failure with a stack
 * dump or a WARN: a sweep of /proc/<pid>/fail-nth over a whole insmod
 * would test the kernel's loader and trip every console check.  So the
 * module arms the same per-task counter (what writing N to fail-nth sets)
 * itself, around its own setup only, and says in the log whether the
 * injection was consumed.
 */
static void avc_rcu_fault_arm(void)
{
	if (init_fail_nth)
		WRITE_ONCE(current->fail_nth, init_fail_nth);
}

static void avc_rcu_fault_disarm(int err)
{
	unsigned int left;

	if (!init_fail_nth)
		return;
	left = READ_ONCE(current->fail_nth);
	WRITE_ONCE(current->fail_nth, 0);
	if (left)
		pr_info("init_fail_nth=%u: not reached, the setup made %u fault-injectable allocations (error %d)\n",
			init_fail_nth, init_fail_nth - left, err);
	else
		pr_info("init_fail_nth=%u: injected (error %d)\n",
			init_fail_nth, err);
}
#else
static void avc_rcu_fault_arm(void)
{
}

static void avc_rcu_fault_disarm(int err)
{
}
#endif

static int __init avc_rcu_init(void)
{
	struct avc_rcu_config cfg = { .slots = slots, .hash_seed = hash_seed,
				      .seqno_start = seqno_start };
	int err;

	if (slots < AVC_RCU_SLOTS_MIN || slots > AVC_RCU_SLOTS_MAX ||
	    !is_power_of_2(slots)) {
		pr_err("slots=%u: must be a power of two from %u to %u\n",
		       slots, AVC_RCU_SLOTS_MIN, AVC_RCU_SLOTS_MAX);
		return -EINVAL;
	}
	if (avc_sync_parse(sync, &cfg.sync)) {
		pr_err("sync=%s: must be rcu, spinlock or rwlock\n", sync);
		return -EINVAL;
	}
	if (avc_reclaim_parse(reclaim, &cfg.reclaim)) {
		pr_err("reclaim=%s: must be lru, fifo or newest\n", reclaim);
		return -EINVAL;
	}

	/* Outside the fault window: see avc_rcu_fault_arm(). */
	err = avc_core_init();
	if (err)
		return err;
	avc_rcu_fault_arm();
	err = avc_rcu_setup_cache(&cfg);
	if (!err) {
		err = avcrcufs_init();
		if (err)
			avc_rcu_teardown_cache();
	}
	avc_rcu_fault_disarm(err);
	if (err) {
		avc_core_exit();
		return err;
	}
	/*
	 * The seed in use, drawn or given, for the parameter to show: a run
	 * with a random seed can then be repeated with hash_seed=<it>.
	 */
	hash_seed = avc_cache_seed(avc_rcu_cache());
	pr_info("%u slots, sync=%s, reclaim=%s, hash_seed %u%s, cache_threshold %u\n",
		slots, avc_sync_name(cfg.sync), avc_reclaim_name(cfg.reclaim),
		hash_seed, cfg.hash_seed ? "" : " (drawn at random)",
		avc_cache_threshold(avc_rcu_cache()));
	if (seqno_start)
		pr_info("test mode: policy seqno starts at %u\n", seqno_start);
	return 0;
}

static void __exit avc_rcu_exit(void)
{
	avcrcufs_exit();
	avc_rcu_teardown_cache();
	avc_core_exit();
}

module_init(avc_rcu_init);
module_exit(avc_rcu_exit);

MODULE_LICENSE("GPL");
MODULE_AUTHOR("The avc_rcu maintainers, on the issue tracker where the tree is hosted");
MODULE_DESCRIPTION("RCU access vector cache with selinuxfs-style tuning and statistics");
MODULE_VERSION(AVC_RCU_VERSION);
