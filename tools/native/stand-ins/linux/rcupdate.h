/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Native shim for <linux/rcupdate.h>, on one of two RCUs:
 *
 *  - AVC_NATIVE_RCU_MEMB or AVC_NATIVE_RCU_QSBR: liburcu's memb flavour
 *    (sys_membarrier() on the update side) or its QSBR flavour, the read
 *    side inlined (_LGPL_SOURCE).  liburcu names its API as the kernel
 *    does: rcu_read_lock(), rcu_read_unlock(), synchronize_rcu(),
 *    call_rcu(), rcu_barrier(), struct rcu_head, rcu_dereference() and
 *    rcu_assign_pointer() come from there.  Reader threads register
 *    (avc_native_thread_enter()); under QSBR they also report quiescent
 *    states (avc_native_quiescent_state()).
 *  - otherwise: the epoch RCU of rcu_epoch.c, whose every ordering is an
 *    __atomic acquire, release or seq_cst operation that ThreadSanitizer
 *    sees; rcu_dereference() is an acquire load and rcu_assign_pointer() a
 *    release store.
 *
 * Either way, the lockdep conditions of rcu_dereference_protected() and
 * rcu_dereference_check() are not evaluated, as without CONFIG_PROVE_RCU.
 */
#ifndef _AVC_NATIVE_LINUX_RCUPDATE_H
#define _AVC_NATIVE_LINUX_RCUPDATE_H

#include <linux/compiler.h>
#include <linux/types.h>
#include <avc_native/native.h>

#ifdef AVC_NATIVE_URCU

#ifndef _LGPL_SOURCE
#define _LGPL_SOURCE
#endif
#ifdef AVC_NATIVE_RCU_QSBR
#include <urcu-qsbr.h>
#else
#include <urcu.h>
#endif

#define rcu_dereference_raw(p)		rcu_dereference(p)

#else /* the epoch RCU */

struct rcu_head {
	struct rcu_head *next;
	void (*func)(struct rcu_head *head);
};

#define rcu_read_lock()			avc_native_rcu_read_lock()
#define rcu_read_unlock()		avc_native_rcu_read_unlock()
#define synchronize_rcu()		avc_native_synchronize_rcu()
#define call_rcu(head, func)		avc_native_call_rcu(head, func)
#define rcu_barrier()			avc_native_rcu_barrier()

#define rcu_dereference(p)		__atomic_load_n(&(p), __ATOMIC_ACQUIRE)
#define rcu_dereference_raw(p)		rcu_dereference(p)
#define rcu_assign_pointer(p, v) \
	__atomic_store_n(&(p), (v), __ATOMIC_RELEASE)

#endif

#define rcu_dereference_check(p, c)	rcu_dereference(p)
#define rcu_dereference_protected(p, c)	READ_ONCE(p)
#define rcu_access_pointer(p)		READ_ONCE(p)
#define RCU_INIT_POINTER(p, v)		WRITE_ONCE(p, v)

#endif /* _AVC_NATIVE_LINUX_RCUPDATE_H */
