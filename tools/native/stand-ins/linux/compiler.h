/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Native shim for <linux/compiler.h> and the attributes of
 * <linux/compiler_attributes.h> and <linux/compiler_types.h>.
 *
 * READ_ONCE() and WRITE_ONCE() are relaxed __atomic loads and stores: on
 * x86-64 the same single mov the kernel's volatile accesses compile to, and
 * accesses that ThreadSanitizer knows are intentionally racy, which is what
 * the kernel means by them (KCSAN treats them the same way).  Sparse's
 * annotations (__rcu, __percpu, __acquires() ...) are empty.
 */
#ifndef _AVC_NATIVE_LINUX_COMPILER_H
#define _AVC_NATIVE_LINUX_COMPILER_H

/* glibc's __always_inline is the kernel's. */
#include <sys/cdefs.h>

/*
 * Every attribute goes through this one spelling, so that each macro below
 * reads like the kernel's.
 */
#define AVC_NATIVE_ATTR(...)	__attribute__((__VA_ARGS__))

#define noinline		AVC_NATIVE_ATTR(__noinline__)
#define __aligned(x)		AVC_NATIVE_ATTR(__aligned__(x))
#define __printf(a, b)		AVC_NATIVE_ATTR(__format__(printf, a, b))
#define __noreturn		AVC_NATIVE_ATTR(__noreturn__)
#define __maybe_unused		AVC_NATIVE_ATTR(__unused__)

#define likely(x)		__builtin_expect(!!(x), 1)
#define unlikely(x)		__builtin_expect(!!(x), 0)

/* A compiler barrier: no instruction, no access moved across it. */
#define barrier()		__atomic_signal_fence(__ATOMIC_SEQ_CST)

#define READ_ONCE(x)		__atomic_load_n(&(x), __ATOMIC_RELAXED)
#define WRITE_ONCE(x, val)	__atomic_store_n(&(x), (val), __ATOMIC_RELAXED)

/* Sparse's address spaces and lock context: nothing to a compiler. */
#define __rcu
#define __percpu
#define __acquires(x)
#define __releases(x)
#define __acquire(x)		((void)0)
#define __release(x)		((void)0)
#define __must_hold(x)

#endif /* _AVC_NATIVE_LINUX_COMPILER_H */
