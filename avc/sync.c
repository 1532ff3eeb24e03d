// SPDX-License-Identifier: GPL-2.0
/*
 * avc_rcu core: choosing how caches are serialised, and their locks.
 *
 * The mode is chosen once, before the first cache exists, and is the same
 * for every cache.  Lookups test it through a static branch, so in the
 * default rcu mode the test is a no-op instruction and the lookup path
 * carries no indirect call and no data-dependent branch for the privilege
 * of having alternatives.  The lock helpers are in sync.h.
 */

#include <linux/errno.h>
#include <linux/kernel.h>
#include <linux/mm.h>
#include <linux/slab.h>
#include <linux/string.h>
#include "sync.h"

DEFINE_STATIC_KEY_FALSE(avc_sync_locked_key);
enum avc_sync avc_sync_mode = AVC_SYNC_RCU;

static const char *const avc_sync_names[] = {
	[AVC_SYNC_RCU] = "rcu",
	[AVC_SYNC_SPINLOCK] = "spinlock",
	[AVC_SYNC_RWLOCK] = "rwlock",
};

/**
 * avc_sync_parse() - mode from its name
 * @name: "rcu", "spinlock" or "rwlock", optionally followed by a newline
 * @mode: where to store the mode
 *
 * Return: 0, or -EINVAL for any other name.
 */
int avc_sync_parse(const char *name, enum avc_sync *mode)
{
	int i = sysfs_match_string(avc_sync_names, name);

	if (i < 0)
		return -EINVAL;
	*mode = i;
	return 0;
}

/**
 * avc_sync_name() - name of a mode
 * @mode: the mode
 *
 * Return: "rcu", "spinlock" or "rwlock".
 */
const char *avc_sync_name(enum avc_sync mode)
{
	return avc_sync_names[mode];
}

/**
 * avc_sync_select() - set the mode for every cache created from now on
 * @mode: the mode
 *
 * Must be called before any cache exists and not while one does.
 *
 * Return: 0, or -EINVAL for an unknown mode.
 */
int avc_sync_select(enum avc_sync mode)
{
	if (mode >= ARRAY_SIZE(avc_sync_names))
		return -EINVAL;
	avc_sync_mode = mode;
	if (mode == AVC_SYNC_RCU)
		static_branch_disable(&avc_sync_locked_key);
	else
		static_branch_enable(&avc_sync_locked_key);
	return 0;
}

/**
 * avc_locks_init() - set up the cache-wide lock of a new cache
 * @l: the locks
 *
 * In rcu mode the global lock serialises reclaim sections only; the
 * locked modes serialise everything on it.
 */
void avc_locks_init(struct avc_locks *l)
{
	if (avc_sync_mode == AVC_SYNC_RWLOCK)
		rwlock_init(&l->global.rw);
	else
		spin_lock_init(&l->global.spin);
}

/**
 * avc_bucket_locks_alloc() - the bucket locks of a new table
 * @locks: where to store them: an array of @nbuckets in rcu mode, NULL in
 *	the locked modes, whose global lock stands in for every bucket's
 * @nbuckets: the table's number of buckets
 * @gfp: allocation flags
 *
 * Return: 0 or -ENOMEM.  The caller frees the array with kvfree().
 */
int avc_bucket_locks_alloc(spinlock_t **locks, unsigned int nbuckets,
			   gfp_t gfp)
{
	spinlock_t *bl;		/* the new array */
	unsigned int i;

	*locks = NULL;
	if (avc_sync_mode != AVC_SYNC_RCU)
		return 0;
	bl = kvmalloc_array(nbuckets, sizeof(*bl), gfp);
	if (!bl)
		return -ENOMEM;
	for (i = 0; i < nbuckets; i++)
		spin_lock_init(&bl[i]);
	*locks = bl;
	return 0;
}
