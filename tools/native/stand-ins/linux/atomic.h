/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Native shim for <linux/atomic.h>: atomic_t on __atomic builtins.  As in
 * the kernel, atomic_read()/atomic_set() are plain (relaxed) accesses and
 * the void atomic_inc()/atomic_dec() are unordered; atomic_inc_return(),
 * cmpxchg() and xchg() are fully ordered, the first returning the new value
 * and the others the value they found.
 *
 * Each is also a preemption point of the builds that have them
 * (avc_native_preempt_point(), avc_native/native.h): after a read, so that
 * the value read may be stale by the time it is used; before and after a
 * read-modify-write.
 */
#ifndef _AVC_NATIVE_LINUX_ATOMIC_H
#define _AVC_NATIVE_LINUX_ATOMIC_H

#include <linux/compiler.h>
#include <linux/types.h>
#include <avc_native/native.h>

typedef struct { int counter; } atomic_t;

#define ATOMIC_INIT(i)		{ (i) }

static inline int atomic_read(const atomic_t *v)
{
	int i = __atomic_load_n(&v->counter, __ATOMIC_RELAXED);

	avc_native_preempt_point();
	return i;
}

static inline void atomic_set(atomic_t *v, int i)
{
	__atomic_store_n(&v->counter, i, __ATOMIC_RELAXED);
}

static inline void atomic_inc(atomic_t *v)
{
	avc_native_preempt_point();
	__atomic_fetch_add(&v->counter, 1, __ATOMIC_RELAXED);
	avc_native_preempt_point();
}

static inline void atomic_dec(atomic_t *v)
{
	avc_native_preempt_point();
	__atomic_fetch_sub(&v->counter, 1, __ATOMIC_RELAXED);
	avc_native_preempt_point();
}

static inline int atomic_inc_return(atomic_t *v)
{
	int i;

	avc_native_preempt_point();
	i = __atomic_add_fetch(&v->counter, 1, __ATOMIC_SEQ_CST);
	avc_native_preempt_point();
	return i;
}

#define cmpxchg(ptr, old, new) ({					\
	__typeof__(ptr) __cmpxchg_p = (ptr);				\
	__typeof__(*__cmpxchg_p) __cmpxchg_old = (old);			\
	avc_native_preempt_point();					\
	__atomic_compare_exchange_n(__cmpxchg_p, &__cmpxchg_old, (new),	\
				    false, __ATOMIC_SEQ_CST,		\
				    __ATOMIC_SEQ_CST);			\
	__cmpxchg_old;							\
})

#define xchg(ptr, new) ({						\
	avc_native_preempt_point();					\
	__atomic_exchange_n((ptr), (new), __ATOMIC_SEQ_CST);		\
})

#endif /* _AVC_NATIVE_LINUX_ATOMIC_H */
