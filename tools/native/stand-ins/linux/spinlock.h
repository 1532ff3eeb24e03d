/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Native shim for <linux/spinlock.h>: spinlock_t is a pthread spinlock (in
 * a struct: glibc's type is a volatile int) and rwlock_t a pthread rwlock.
 * Userspace has no interrupts to disable: the _irqsave variants set flags
 * to 0 and take the lock.  The rwlock prefers writers, as the kernel's
 * queued rwlock does for process-context readers; glibc's default lets a
 * stream of readers starve a writer forever.  (The kernel's type names are
 * macros here, not typedefs: checkpatch forbids new typedefs.)
 *
 * Taking a lock (or trying to) and releasing one are preemption points of
 * the builds that have them (avc_native/native.h): before the one, after
 * the other; while a lock is held, none is, as in a kernel where spinlocks
 * disable preemption.
 */
#ifndef _AVC_NATIVE_LINUX_SPINLOCK_H
#define _AVC_NATIVE_LINUX_SPINLOCK_H

#include <pthread.h>
#include <linux/compiler.h>
#include <linux/types.h>
#include <avc_native/native.h>

struct avc_native_spinlock {
	pthread_spinlock_t lock;
};

#define spinlock_t		struct avc_native_spinlock
#define rwlock_t		pthread_rwlock_t

static inline void spin_lock_init(spinlock_t *l)
{
	pthread_spin_init(&l->lock, PTHREAD_PROCESS_PRIVATE);
}

static inline void spin_lock(spinlock_t *l)
{
	avc_native_preempt_point();
	pthread_spin_lock(&l->lock);
	avc_native_preempt_disable();
}

static inline bool spin_trylock(spinlock_t *l)
{
	avc_native_preempt_point();
	if (pthread_spin_trylock(&l->lock))
		return false;
	avc_native_preempt_disable();
	return true;
}

static inline void spin_unlock(spinlock_t *l)
{
	avc_native_preempt_enable();
	pthread_spin_unlock(&l->lock);
	avc_native_preempt_point();
}

/* Lockdep's nesting classes, which only lockdep reads. */
#define SINGLE_DEPTH_NESTING		1
#define spin_lock_nested(l, subclass)	spin_lock(l)

#define spin_lock_irqsave(l, flags)	\
	do { (flags) = 0; spin_lock(l); } while (0)
#define spin_trylock_irqsave(l, flags)	({ (flags) = 0; spin_trylock(l); })
#define spin_unlock_irqrestore(l, flags) \
	do { (void)(flags); spin_unlock(l); } while (0)

static inline void rwlock_init(rwlock_t *l)
{
	pthread_rwlockattr_t attr;

	pthread_rwlockattr_init(&attr);
	pthread_rwlockattr_setkind_np(&attr,
				      PTHREAD_RWLOCK_PREFER_WRITER_NONRECURSIVE_NP);
	pthread_rwlock_init(l, &attr);
	pthread_rwlockattr_destroy(&attr);
}

static inline void avc_native_rw_lock(rwlock_t *l, bool write)
{
	avc_native_preempt_point();
	if (write)
		pthread_rwlock_wrlock(l);
	else
		pthread_rwlock_rdlock(l);
	avc_native_preempt_disable();
}

static inline bool avc_native_rw_trylock(rwlock_t *l)
{
	avc_native_preempt_point();
	if (pthread_rwlock_trywrlock(l))
		return false;
	avc_native_preempt_disable();
	return true;
}

static inline void avc_native_rw_unlock(rwlock_t *l)
{
	avc_native_preempt_enable();
	pthread_rwlock_unlock(l);
	avc_native_preempt_point();
}

#define read_lock_irqsave(l, flags)	\
	do { (flags) = 0; avc_native_rw_lock(l, false); } while (0)
#define read_unlock_irqrestore(l, flags) \
	do { (void)(flags); avc_native_rw_unlock(l); } while (0)
#define write_lock_irqsave(l, flags)	\
	do { (flags) = 0; avc_native_rw_lock(l, true); } while (0)
#define write_trylock_irqsave(l, flags)	\
	({ (flags) = 0; avc_native_rw_trylock(l); })
#define write_unlock_irqrestore(l, flags) \
	do { (void)(flags); avc_native_rw_unlock(l); } while (0)

#endif /* _AVC_NATIVE_LINUX_SPINLOCK_H */
