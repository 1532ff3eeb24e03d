/* SPDX-License-Identifier: GPL-2.0 */
/*
 * avc_rcu core: how a cache is serialised, in one place.
 *
 * The sync mode is chosen once, before the first cache exists, and is the
 * same for every cache.  Every lock the core takes is taken through the
 * helpers below, which pick the lock the mode calls for: in rcu mode the
 * read side is rcu_read_lock() and each bucket has its own update lock; in
 * the spinlock and rwlock modes one global lock (taken for reading by
 * lookups in rwlock mode) stands in for both; a reclaim lock serialises
 * the reclaims (avc_reclaim_lock()).  Every lock is taken with the
 * _irqsave forms: interrupts off, but on PREEMPT_RT, where they are
 * sleeping locks that leave interrupts on and keep the holder on its CPU.
 * Outside these helpers the core tests the mode (avc_sync_locked(), a
 * static branch) in four places only: the lookup, which keeps the locked
 * modes off the rcu hit path; the two frees of an unlinked node, at once
 * in the locked modes (readers hold the global lock the caller holds)
 * and after a grace period in rcu mode; and the reclaim's bucket visit,
 * which in the locked modes takes no bucket lock (the global lock, held
 * for the whole section, stands in for it).  What each lock protects is
 * stated once, at struct avc_cache in avc.h.
 */
#ifndef _AVC_RCU_SYNC_H
#define _AVC_RCU_SYNC_H

#include <linux/cache.h>
#include <linux/gfp.h>
#include <linux/jump_label.h>
#include <linux/lockdep.h>
#include <linux/rcupdate.h>
#include <linux/spinlock.h>
#include <linux/types.h>

/**
 * enum avc_sync - how lookups and updates are serialised
 * @AVC_SYNC_RCU: lockless RCU lookups, per-bucket update locks
 * @AVC_SYNC_SPINLOCK: one global irq-safe spinlock around everything,
 *	the design before 2004
 * @AVC_SYNC_RWLOCK: one global irq-safe reader/writer lock, the variant
 *	tried and rejected in 2004
 */
enum avc_sync {
	AVC_SYNC_RCU,
	AVC_SYNC_SPINLOCK,
	AVC_SYNC_RWLOCK,
};

/**
 * struct avc_locks - the cache-wide locks of one cache
 * @global: spinlock and rwlock modes: the one lock that stands in for
 *	every bucket lock, and that lookups take too; rcu mode: the lock
 *	that serialises reclaim sections (and nothing else)
 * @global.spin: spinlock mode; rcu mode's reclaim lock
 * @global.rw: rwlock mode: lookups read, updates write
 *
 * The bucket locks of rcu mode belong to the bucket table (struct
 * avc_table's @locks), which a resize replaces; every helper below takes
 * that array, which is NULL in the locked modes and then never read.
 *
 * The global lock has a cache line of its own: in the locked modes every
 * lookup on every CPU writes it, which is the point of those modes; in rcu
 * mode only reclaims write it, and no lookup reads that line.
 */
struct avc_locks {
	union {
		spinlock_t spin;	/* spinlock mode: everything; rcu: reclaims */
		rwlock_t rw;		/* rwlock mode: everything */
	} global ____cacheline_aligned_in_smp;
};

DECLARE_STATIC_KEY_FALSE(avc_sync_locked_key);
extern enum avc_sync avc_sync_mode;

int avc_sync_select(enum avc_sync mode);
int avc_sync_parse(const char *name, enum avc_sync *mode);
const char *avc_sync_name(enum avc_sync mode);
void avc_locks_init(struct avc_locks *l);
int avc_bucket_locks_alloc(spinlock_t **locks, unsigned int nbuckets,
			   gfp_t gfp);

/**
 * avc_sync_locked() - true unless lookups run lockless under RCU
 *
 * Return: true in the spinlock and rwlock modes.  The test is a static
 * branch: in rcu mode it is a patched-out no-op, so choosing the mode at
 * load time costs the RCU lookup path nothing.
 */
static __always_inline bool avc_sync_locked(void)
{
	return static_branch_unlikely(&avc_sync_locked_key);
}

/*
 * The read side, for walks that only look: rcu_read_lock() in rcu mode,
 * the global lock (for reading) in the locked modes.  The rcu lookup does
 * not come here: it calls rcu_read_lock() itself, behind the static
 * branch, so that its body never reads the mode.
 */
static inline unsigned long avc_read_lock(struct avc_locks *l)
	__acquires(avc_read)
{
	unsigned long flags = 0;

	if (!avc_sync_locked())
		rcu_read_lock();
	else if (avc_sync_mode == AVC_SYNC_SPINLOCK)
		spin_lock_irqsave(&l->global.spin, flags);
	else
		read_lock_irqsave(&l->global.rw, flags);
	return flags;
}

static inline void avc_read_unlock(struct avc_locks *l, unsigned long flags)
	__releases(avc_read)
{
	if (!avc_sync_locked())
		rcu_read_unlock();
	else if (avc_sync_mode == AVC_SYNC_SPINLOCK)
		spin_unlock_irqrestore(&l->global.spin, flags);
	else
		read_unlock_irqrestore(&l->global.rw, flags);
}

/*
 * The update side of bucket @idx of a table whose bucket locks are @bl:
 * its own lock, or the global one.
 */
static inline unsigned long avc_bucket_lock(struct avc_locks *l,
					    spinlock_t *bl, unsigned int idx)
	__acquires(avc_bucket)
{
	unsigned long flags;

	if (!avc_sync_locked())
		spin_lock_irqsave(&bl[idx], flags);
	else if (avc_sync_mode == AVC_SYNC_SPINLOCK)
		spin_lock_irqsave(&l->global.spin, flags);
	else
		write_lock_irqsave(&l->global.rw, flags);
	return flags;
}

static inline void avc_bucket_unlock(struct avc_locks *l, spinlock_t *bl,
				     unsigned int idx, unsigned long flags)
	__releases(avc_bucket)
{
	if (!avc_sync_locked())
		spin_unlock_irqrestore(&bl[idx], flags);
	else if (avc_sync_mode == AVC_SYNC_SPINLOCK)
		spin_unlock_irqrestore(&l->global.spin, flags);
	else
		write_unlock_irqrestore(&l->global.rw, flags);
}

/*
 * The nested update side of bucket @idx of a second table (@bl), taken by
 * a resize that holds a bucket lock of the table it empties: in rcu mode
 * the bucket's own lock, a nesting lockdep is told of (the old table's
 * locks are always taken before the new one's, and nothing else holds two
 * bucket locks); in the locked modes nothing, since the global lock the
 * caller holds stands in for every bucket's.  Interrupts are already off
 * (avc_bucket_lock()).
 */
static inline void avc_bucket_lock_nested(spinlock_t *bl, unsigned int idx)
	__acquires(avc_bucket_nested)
{
	if (!avc_sync_locked())
		spin_lock_nested(&bl[idx], SINGLE_DEPTH_NESTING);
	else
		__acquire(avc_bucket_nested);
}

static inline void avc_bucket_unlock_nested(spinlock_t *bl, unsigned int idx)
	__releases(avc_bucket_nested)
{
	if (!avc_sync_locked())
		spin_unlock(&bl[idx]);
	else
		__release(avc_bucket_nested);
}

/*
 * The lock of one reclaim section, waited for: in rcu mode a lock of its
 * own that only reclaims take, under which the section trylocks each
 * bucket it visits; in the locked modes the global lock for writing,
 * which stands in for every bucket's.  No other lock of the cache is held
 * when it is taken.  @any_context: a miss may reclaim (reclaimer=inline)
 * in any context, so interrupts go off; the background reclaimer, the
 * only one to take rcu mode's lock otherwise, leaves them on and turns
 * them off only for each bucket it locks.  The locked modes' global lock
 * is taken by lookups in any context: interrupts go off there always.
 */
static inline unsigned long avc_reclaim_lock(struct avc_locks *l,
					     bool any_context)
	__acquires(avc_reclaim)
{
	unsigned long flags = 0;

	if (avc_sync_mode == AVC_SYNC_RWLOCK)
		write_lock_irqsave(&l->global.rw, flags);
	else if (any_context || avc_sync_locked())
		spin_lock_irqsave(&l->global.spin, flags);
	else
		spin_lock(&l->global.spin);
	return flags;
}

static inline void avc_reclaim_unlock(struct avc_locks *l, bool any_context,
				      unsigned long flags)
	__releases(avc_reclaim)
{
	if (avc_sync_mode == AVC_SYNC_RWLOCK)
		write_unlock_irqrestore(&l->global.rw, flags);
	else if (any_context || avc_sync_locked())
		spin_unlock_irqrestore(&l->global.spin, flags);
	else
		spin_unlock(&l->global.spin);
}

/*
 * avc_bucket_trylock(): rcu mode only: take the update lock of bucket
 * @idx of a table whose bucket locks are @bl if it is free (true),
 * without waiting, interrupts off.  A macro, so that sparse sees each
 * conditional acquisition where it is tested.
 */
#define avc_bucket_trylock(bl, idx, flagsp)				\
	spin_trylock_irqsave(&(bl)[idx], *(flagsp))

/*
 * Whether this task holds the lock that protects bucket @idx of a table
 * whose bucket locks are @bl: the lockdep condition of every traversal
 * that may run without rcu_read_lock().  Only lockdep evaluates it.
 */
static inline bool avc_bucket_lockdep_held(struct avc_locks *l,
					   spinlock_t *bl, unsigned int idx)
{
	if (!avc_sync_locked())
		return lockdep_is_held(&bl[idx]);
	if (avc_sync_mode == AVC_SYNC_SPINLOCK)
		return lockdep_is_held(&l->global.spin);
	return lockdep_is_held(&l->global.rw);
}

/* Lockdep: the caller holds the update side of bucket @idx. */
static inline void avc_bucket_assert_held(struct avc_locks *l,
					  spinlock_t *bl, unsigned int idx)
{
	if (!avc_sync_locked())
		lockdep_assert_held(&bl[idx]);
	else if (avc_sync_mode == AVC_SYNC_SPINLOCK)
		lockdep_assert_held(&l->global.spin);
	else
		lockdep_assert_held_write(&l->global.rw);
}

#endif /* _AVC_RCU_SYNC_H */
