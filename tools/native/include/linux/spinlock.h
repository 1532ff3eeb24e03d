/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Native shim for <linux/spinlock.h>: spinlock_t is a pthread spinlock (in
 * a struct: glibc's type is a volatile int) and rwlock_t a pthread rwlock.
 * Userspace has no interrupts to disable: the _irqsave variants set flags
 * to 0 and take the lock.  The rwlock prefers writers, as the kernel's
 * queued rwlock does for process-context readers; glibc's default lets a
 * stream of readers starve a writer forever.  (The kernel's type names are
 * macros here, not typedefs: checkpatch forbids new typedefs.)
 */
#ifndef _AVC_NATIVE_LINUX_SPINLOCK_H
#define _AVC_NATIVE_LINUX_SPINLOCK_H

#include <pthread.h>
#include <linux/compiler.h>
#include <linux/types.h>

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
	pthread_spin_lock(&l->lock);
}

static inline bool spin_trylock(spinlock_t *l)
{
	return !pthread_spin_trylock(&l->lock);
}

static inline void spin_unlock(spinlock_t *l)
{
	pthread_spin_unlock(&l->lock);
}

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

#define read_lock_irqsave(l, flags)	\
	do { (flags) = 0; pthread_rwlock_rdlock(l); } while (0)
#define read_unlock_irqrestore(l, flags) \
	do { (void)(flags); pthread_rwlock_unlock(l); } while (0)
#define write_lock_irqsave(l, flags)	\
	do { (flags) = 0; pthread_rwlock_wrlock(l); } while (0)
#define write_trylock_irqsave(l, flags)	\
	({ (flags) = 0; !pthread_rwlock_trywrlock(l); })
#define write_unlock_irqrestore(l, flags) \
	do { (void)(flags); pthread_rwlock_unlock(l); } while (0)

#endif /* _AVC_NATIVE_LINUX_SPINLOCK_H */
