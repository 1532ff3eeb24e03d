/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Native shim for <linux/percpu.h>.  A "CPU" is a registered thread
 * (avc_native_thread_enter()).  As in the kernel, every per-CPU object has
 * one copy per possible CPU at a fixed distance from CPU 0's copy, here
 * AVC_NATIVE_PCPU_UNIT bytes, so per_cpu_ptr() is an addition and
 * this_cpu_ptr() adds this thread's offset, kept in a thread-local
 * variable.  this_cpu_add() is a relaxed load and store of this thread's
 * copy, not an atomic read-modify-write: only its own thread writes it,
 * and readers summing the copies use READ_ONCE().
 */
#ifndef _AVC_NATIVE_LINUX_PERCPU_H
#define _AVC_NATIVE_LINUX_PERCPU_H

#include <linux/compiler.h>
#include <linux/cpumask.h>
#include <linux/types.h>
#include <avc_native/native.h>

#define alloc_percpu(type) \
	((type __percpu *)avc_native_pcpu_alloc(sizeof(type), __alignof__(type)))
/* The gfp flags (__GFP_NOWARN) mean nothing to malloc. */
#define alloc_percpu_gfp(type, gfp)	((void)(gfp), alloc_percpu(type))
#define free_percpu(p)		avc_native_pcpu_free(p)

#define per_cpu_ptr(p, cpu) \
	((__typeof__(p))((char *)(p) + (size_t)(cpu) * AVC_NATIVE_PCPU_UNIT))
#define this_cpu_ptr(p) \
	((__typeof__(p))((char *)(p) + avc_native_pcpu_off))

#define this_cpu_add(pcp, val) do {					\
	__typeof__(pcp) *__pcp = this_cpu_ptr(&(pcp));			\
	WRITE_ONCE(*__pcp, READ_ONCE(*__pcp) + (val));			\
} while (0)
#define this_cpu_inc(pcp)	this_cpu_add(pcp, 1)

#define smp_processor_id()	avc_native_cpu

#endif /* _AVC_NATIVE_LINUX_PERCPU_H */
