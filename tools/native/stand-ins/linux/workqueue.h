/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Native shim for <linux/workqueue.h>: one worker thread (lib/native.c),
 * started by the first queue_work(), runs the queued work items one at a
 * time in the order they were queued, as an ordered workqueue would; it is
 * a CPU and an RCU reader of its own (avc_native_thread_enter()).  A work
 * item is never queued twice: queue_work() of a pending one returns false,
 * as in the kernel; one that is running may be queued again, and runs
 * again after.  Every workqueue names the same worker.
 */
#ifndef _AVC_NATIVE_LINUX_WORKQUEUE_H
#define _AVC_NATIVE_LINUX_WORKQUEUE_H

#include <linux/types.h>

struct work_struct;
typedef void (*work_func_t)(struct work_struct *work);

struct work_struct {
	work_func_t func;
	bool pending;
	bool running;
	struct work_struct *next;
};

struct workqueue_struct;
extern struct workqueue_struct *system_unbound_wq;
extern struct workqueue_struct *system_wq;

static inline void avc_native_init_work(struct work_struct *w,
					work_func_t f)
{
	w->func = f;
	w->pending = false;
	w->running = false;
	w->next = NULL;
}

#define INIT_WORK(w, f)		avc_native_init_work((w), (f))

bool queue_work(struct workqueue_struct *wq, struct work_struct *work);
bool work_pending(struct work_struct *work);
bool cancel_work_sync(struct work_struct *work);
bool flush_work(struct work_struct *work);

#endif /* _AVC_NATIVE_LINUX_WORKQUEUE_H */
