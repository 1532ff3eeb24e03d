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
#include <linux/string.h>
#include <linux/sysfs.h>
#include "api.h"
#include "avcrcufs.h"
#include "threshold.h"

static unsigned int slots;
module_param(slots, uint, 0444);
MODULE_PARM_DESC(slots,
		 "hash buckets, a power of two from 16 to 65536, fixed for the module's life; 0 (default): the table follows cache_threshold, its power of two at or above it, from 512 to 65536 buckets");

/*
 * cache_threshold at load time, parsed and range-checked as a write to
 * avc/cache_threshold is (selinuxfs/threshold.c): a bad value fails the
 * load with EINVAL and a line in the kernel log.  Once loaded, it reads
 * as the threshold in force, which the file changes.
 */
static unsigned int cache_threshold = AVC_RCU_THRESHOLD_DEFAULT;

static int avc_rcu_threshold_param_set(const char *val,
				       const struct kernel_param *kp)
{
	unsigned int v;

	if (avcrcufs_parse_threshold(val, strlen(val), &v)) {
		pr_err("cache_threshold=%s: must be a decimal number from %u to %u\n",
		       val, AVC_RCU_THRESHOLD_MIN, AVC_RCU_THRESHOLD_MAX);
		return -EINVAL;
	}
	*(unsigned int *)kp->arg = v;
	return 0;
}

static int avc_rcu_threshold_param_get(char *buf,
				       const struct kernel_param *kp)
{
	struct avc_cache *c = avc_rcu_cache();

	return sysfs_emit(buf, "%u\n", c ? avc_cache_threshold(c) :
			  *(unsigned int *)kp->arg);
}

static const struct kernel_param_ops avc_rcu_threshold_param_ops = {
	.set = avc_rcu_threshold_param_set,
	.get = avc_rcu_threshold_param_get,
};
module_param_cb(cache_threshold, &avc_rcu_threshold_param_ops,
		&cache_threshold, 0444);
__MODULE_PARM_TYPE(cache_threshold, "uint");
MODULE_PARM_DESC(cache_threshold,
		 "the most entries the cache holds, from 1 to 1048576 (default 512), as avc/cache_threshold takes it; reads as the threshold in force");

static char *sync = "rcu";
module_param(sync, charp, 0444);
MODULE_PARM_DESC(sync,
		 "lookup serialisation: rcu (lockless, default), spinlock (one global lock, the pre-2004 design) or rwlock (one global reader/writer lock)");

static char *reclaim = "lru";
module_param(reclaim, charp, 0444);
MODULE_PARM_DESC(reclaim,
		 "which entries a reclaim evicts: lru (CLOCK, an approximation of least recently used, default), fifo (oldest first) or newest (newest first, as upstream)");

static char *reclaimer = "inline";
module_param(reclaimer, charp, 0444);
MODULE_PARM_DESC(reclaimer,
		 "where reclaim runs: inline (the miss that finds the cache full runs a bounded reclaim section, as upstream, default) or background (a work item between watermarks below cache_threshold; a miss only wakes it)");

/*
 * The hash seed is readable by root only: with it, anyone who may query
 * the cache (access_unprivileged=1) could choose keys that share a bucket.
 */
static uint hash_seed;

static int avc_rcu_seed_param_get(char *buf, const struct kernel_param *kp)
{
	struct avc_cache *c = avc_rcu_cache();

	return sysfs_emit(buf, "%u\n", c ? avc_cache_seed(c) :
			  *(uint *)kp->arg);
}

static const struct kernel_param_ops avc_rcu_seed_param_ops = {
	.set = param_set_uint,
	.get = avc_rcu_seed_param_get,
};
module_param_cb(hash_seed, &avc_rcu_seed_param_ops, &hash_seed, 0400);
__MODULE_PARM_TYPE(hash_seed, "uint");
MODULE_PARM_DESC(hash_seed,
		 "hash seed; 0 (default): each bucket table draws its own at random, never 0; fixed, the buckets of keys and so reclaim are reproducible (tests, replays); reads, as root only, as the seed of the table in use");

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

/* Teardown, out of the parameters' read callbacks' way. */
static void avc_rcu_teardown_locked(void)
{
	kernel_param_lock(THIS_MODULE);
	avc_rcu_teardown_cache();
	kernel_param_unlock(THIS_MODULE);
}

static int __init avc_rcu_init(void)
{
	struct avc_rcu_config cfg = { .slots = slots, .hash_seed = hash_seed,
				      .threshold = cache_threshold,
				      .seqno_start = seqno_start };
	int err;

	if (slots && (slots < AVC_RCU_SLOTS_MIN || slots > AVC_RCU_SLOTS_MAX ||
		      !is_power_of_2(slots))) {
		pr_err("slots=%u: must be 0 or a power of two from %u to %u\n",
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
	if (avc_reclaimer_parse(reclaimer, &cfg.reclaimer)) {
		pr_err("reclaimer=%s: must be inline or background\n",
		       reclaimer);
		return -EINVAL;
	}

	/* Outside the fault window: see avc_rcu_fault_arm(). */
	err = avc_core_init();
	if (err)
		return err;
	avc_rcu_fault_arm();
	/* The parameters' read callbacks see the cache whole, or none. */
	kernel_param_lock(THIS_MODULE);
	err = avc_rcu_setup_cache(&cfg);
	kernel_param_unlock(THIS_MODULE);
	if (!err) {
		err = avcrcufs_init();
		if (err)
			avc_rcu_teardown_locked();
	}
	avc_rcu_fault_disarm(err);
	if (err) {
		avc_core_exit();
		return err;
	}
	/*
	 * The seed is not logged: the kernel log may be readable by users
	 * the seed is kept from.  Root reads it from the parameter, and a
	 * run can be repeated with hash_seed=<it>.
	 */
	pr_info("%u slots (%s), sync=%s, reclaim=%s, reclaimer=%s, hash_seed %s, cache_threshold %u\n",
		avc_cache_slots(avc_rcu_cache()),
		slots ? "fixed" : "following cache_threshold",
		avc_sync_name(cfg.sync), avc_reclaim_name(cfg.reclaim),
		avc_reclaimer_name(cfg.reclaimer),
		cfg.hash_seed ? "fixed" : "random",
		avc_cache_threshold(avc_rcu_cache()));
	avcrcufs_sizing_notice(avc_cache_threshold(avc_rcu_cache()));
	if (seqno_start)
		pr_info("test mode: policy seqno starts at %u\n", seqno_start);
	return 0;
}

static void __exit avc_rcu_exit(void)
{
	avcrcufs_exit();
	avc_rcu_teardown_locked();
	avc_core_exit();
}

module_init(avc_rcu_init);
module_exit(avc_rcu_exit);

MODULE_LICENSE("GPL");
MODULE_AUTHOR("The avc_rcu maintainers, on the issue tracker where the tree is hosted");
MODULE_DESCRIPTION("RCU access vector cache with selinuxfs-style tuning and statistics");
MODULE_VERSION(AVC_RCU_VERSION);
