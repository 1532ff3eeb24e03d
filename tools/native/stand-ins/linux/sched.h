/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Native shim for <linux/sched.h>: cond_resched() does not schedule (the
 * system's scheduler preempts threads), but it is a quiescent state, as in
 * the kernel: under liburcu's QSBR flavour it reports one.
 */
#ifndef _AVC_NATIVE_LINUX_SCHED_H
#define _AVC_NATIVE_LINUX_SCHED_H

#include <avc_native/native.h>

static inline void cond_resched(void)
{
	avc_native_quiescent_state();
}

#endif /* _AVC_NATIVE_LINUX_SCHED_H */
