/* SPDX-License-Identifier: GPL-2.0 */
/*
 * avc_rcu native: the runtime under the shim headers of include/linux/.
 *
 * The core (avc/, avc/ss/) is compiled unmodified against the headers of
 * include/linux/, which map each kernel API it uses onto userspace: this
 * header declares what those maps call, and what a program built on the
 * core must do:
 *
 *  - every thread that uses the core calls avc_native_thread_enter() first
 *    and avc_native_thread_exit() last.  It gets a "CPU" of its own, a slot
 *    of every per-CPU variable (this_cpu_*() writes only its own slot, as
 *    on a CPU), and is registered as an RCU reader.  The main thread is
 *    CPU 0; the others get 1..NR_CPUS-1;
 *  - a thread that loops calls avc_native_quiescent_state() now and then,
 *    where the kernel would call cond_resched(): under liburcu's QSBR
 *    flavour, grace periods end only when every reader has passed one;
 *  - WARN() prints and aborts: a broken invariant of the core is a test
 *    failure, as the kernel test harness treats a WARN.
 *
 * The RCU under <linux/rcupdate.h> is chosen at build time:
 *
 *  AVC_NATIVE_RCU_MEMB  liburcu's memb flavour: a read-side critical
 *                       section costs a few loads and stores of the
 *                       thread's own counter, like the kernel's
 *                       preemptible RCU (Debian's kernels);
 *  AVC_NATIVE_RCU_QSBR  liburcu's QSBR flavour: rcu_read_lock() is
 *                       nothing, like the kernel's non-preemptible RCU;
 *  neither              the epoch RCU of rcu_epoch.c, whose every ordering
 *                       is an __atomic operation ThreadSanitizer sees: the
 *                       sanitizer builds.
 *
 * Built with AVC_NATIVE_PREEMPT_POINTS (the bound test's builds), the
 * shim's atomics and lock operations are preemption points: each may call
 * sched_yield(), one time in avc_native_preempt_one_in (0, the default:
 * never), as a fully preemptible kernel (preempt=full) may preempt a task
 * between any two instructions outside a spinlock.  A few instructions
 * between reading a count and acting on it then become a window other
 * threads run in, which a host's two CPUs would almost never open.  As in
 * such a kernel, a thread holding a lock of the shim is not preempted
 * (avc_native_preempt_count): a pthread spinlock's waiters would spin
 * through the holder's whole time slice.  Other builds have no such
 * points and pay nothing.
 *
 * The core is linked into programs, never into a shared library, so the
 * thread-local variables the per-CPU accessors read use the local-exec
 * model: one %fs-relative load, as the kernel's %gs-relative per-CPU
 * accesses.
 */
#ifndef _AVC_NATIVE_NATIVE_H
#define _AVC_NATIVE_NATIVE_H

#include <stdbool.h>
#include <stddef.h>
#include <linux/compiler.h>

#if defined(AVC_NATIVE_RCU_MEMB) || defined(AVC_NATIVE_RCU_QSBR)
#define AVC_NATIVE_URCU 1
#endif

/* "Possible CPUs": thread slots.  CPU 0 is the main thread. */
#define NR_CPUS				64
/* Bytes of per-CPU memory each CPU has; its copies are this far apart. */
#define AVC_NATIVE_PCPU_UNIT		16384

#define __avc_native_tls		AVC_NATIVE_ATTR(__tls_model__("local-exec"))

/* This thread's CPU, and its per-CPU offset (cpu * AVC_NATIVE_PCPU_UNIT). */
extern __thread unsigned int avc_native_cpu __avc_native_tls;
extern __thread unsigned long avc_native_pcpu_off __avc_native_tls;

int avc_native_thread_enter(void);
void avc_native_thread_exit(void);
void avc_native_quiescent_state(void);

void *avc_native_pcpu_alloc(size_t size, size_t align);
void avc_native_pcpu_free(void *p);

/* Messages of pr_*(): to stderr unless avc_native_quiet is set. */
extern bool avc_native_quiet;
__printf(1, 2) void avc_native_printk(const char *fmt, ...);
__printf(3, 4) __noreturn void avc_native_warn(const char *file, int line,
					       const char *fmt, ...);

unsigned int avc_native_random_u32(void);

#ifdef AVC_NATIVE_PREEMPT_POINTS
extern unsigned int avc_native_preempt_one_in;
/* Locks this thread holds: no preemption point counts while one is held. */
extern __thread unsigned int avc_native_preempt_count __avc_native_tls;
void avc_native_preempt(void);

/* A preemption point: sched_yield() one time in avc_native_preempt_one_in. */
static inline void avc_native_preempt_point(void)
{
	if (__atomic_load_n(&avc_native_preempt_one_in, __ATOMIC_RELAXED) &&
	    !avc_native_preempt_count)
		avc_native_preempt();
}

static inline void avc_native_preempt_disable(void)
{
	avc_native_preempt_count++;
}

static inline void avc_native_preempt_enable(void)
{
	avc_native_preempt_count--;
}
#else
static inline void avc_native_preempt_point(void)
{
}

static inline void avc_native_preempt_disable(void)
{
}

static inline void avc_native_preempt_enable(void)
{
}
#endif

/* Objects allocated by kmem_cache_alloc() and not yet freed, all caches. */
long avc_native_slab_objects(void);
void avc_native_slab_prefill(unsigned long objects);

#ifndef AVC_NATIVE_URCU
/* The epoch RCU (rcu_epoch.c). */
struct rcu_head;
void avc_native_rcu_read_lock(void);
void avc_native_rcu_read_unlock(void);
void avc_native_synchronize_rcu(void);
void avc_native_call_rcu(struct rcu_head *head,
			 void (*func)(struct rcu_head *head));
void avc_native_rcu_barrier(void);
#endif

#endif /* _AVC_NATIVE_NATIVE_H */
