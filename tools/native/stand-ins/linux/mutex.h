/* SPDX-License-Identifier: GPL-2.0 */
/* Native shim for <linux/mutex.h>: struct mutex around a pthread mutex. */
#ifndef _AVC_NATIVE_LINUX_MUTEX_H
#define _AVC_NATIVE_LINUX_MUTEX_H

#include <pthread.h>

struct mutex {
	pthread_mutex_t lock;
};

static inline void mutex_init(struct mutex *m)
{
	pthread_mutex_init(&m->lock, NULL);
}

static inline void mutex_destroy(struct mutex *m)
{
	pthread_mutex_destroy(&m->lock);
}

static inline void mutex_lock(struct mutex *m)
{
	pthread_mutex_lock(&m->lock);
}

static inline void mutex_unlock(struct mutex *m)
{
	pthread_mutex_unlock(&m->lock);
}

#endif /* _AVC_NATIVE_LINUX_MUTEX_H */
