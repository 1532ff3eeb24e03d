// SPDX-License-Identifier: GPL-2.0
/*
 * avc_rcu native: a small epoch-based RCU for the sanitizer builds.
 *
 * liburcu 0.13 orders its read side with compiler barriers and
 * sys_membarrier(), which ThreadSanitizer cannot see; it would report
 * every node freed after a grace period as a race with the readers that
 * used it.  This RCU orders everything with __atomic operations:
 *
 *  - a reader (one per registered thread, avc_native_cpu) announces the
 *    epoch it starts in: reader_epoch[cpu] = gp_epoch (acquire load, then
 *    seq_cst store and a seq_cst fence), and leaves with a release store of
 *    0.  Nesting is counted in a thread-local variable;
 *  - synchronize_rcu() advances gp_epoch (seq_cst) after a seq_cst fence,
 *    then waits until every CPU's reader_epoch is 0 or at least the new
 *    epoch, reading it with acquire loads.  The fences make the reader's
 *    announcement and the updater's unlink a store-buffering pair: either
 *    the updater sees the reader (and waits for it), or the reader sees
 *    the unlink.  The release store that ends a read-side critical section
 *    and the acquire load that sees it give ThreadSanitizer the
 *    happens-before edge from the reader's last access to the free;
 *  - call_rcu() queues the callback for a worker thread, which takes the
 *    whole queue, waits for one grace period and runs it; rcu_barrier()
 *    waits until every callback queued before it has run.
 *
 * Slow (a grace period scans NR_CPUS slots), but the benchmark does not
 * use it: it runs on liburcu.
 *
 * Built with AVC_NATIVE_RCU_BROKEN, a grace period waits for no reader:
 * the TSan stress test must then report the frees racing with readers,
 * which shows that it would see a real RCU bug (tools/native/run tsan).
 */
#include <pthread.h>
#include <sched.h>

#include <linux/cache.h>
#include <linux/cpumask.h>
#include <linux/kernel.h>
#include <linux/rcupdate.h>

struct avc_native_reader {
	unsigned long epoch;	/* 0: not in a read-side critical section */
} ____cacheline_aligned;

static struct avc_native_reader reader_epoch[NR_CPUS];
static unsigned long gp_epoch = 1;
static __thread unsigned int reader_nesting;

#ifdef AVC_NATIVE_RCU_BROKEN
static const bool rcu_broken = true;
#else
static const bool rcu_broken;
#endif

void avc_native_rcu_read_lock(void)
{
	unsigned long e;

	if (reader_nesting++)
		return;
	e = __atomic_load_n(&gp_epoch, __ATOMIC_ACQUIRE);
	__atomic_store_n(&reader_epoch[avc_native_cpu].epoch, e,
			 __ATOMIC_SEQ_CST);
	__atomic_thread_fence(__ATOMIC_SEQ_CST);
}

void avc_native_rcu_read_unlock(void)
{
	if (!reader_nesting)
		avc_native_warn(__FILE__, __LINE__,
				"rcu_read_unlock() without rcu_read_lock()\n");
	if (--reader_nesting)
		return;
	__atomic_store_n(&reader_epoch[avc_native_cpu].epoch, 0,
			 __ATOMIC_RELEASE);
}

void avc_native_synchronize_rcu(void)
{
	unsigned long e, seen;
	unsigned int cpu;

	if (reader_nesting)
		avc_native_warn(__FILE__, __LINE__,
				"synchronize_rcu() in a read-side critical section\n");
	__atomic_thread_fence(__ATOMIC_SEQ_CST);
	e = __atomic_add_fetch(&gp_epoch, 1, __ATOMIC_SEQ_CST);
	for (cpu = 0; cpu < nr_cpu_ids; cpu++) {
		for (;;) {
			seen = __atomic_load_n(&reader_epoch[cpu].epoch,
					       __ATOMIC_ACQUIRE);
			if (!seen || seen >= e ||
			    rcu_broken)
				break;
			sched_yield();
		}
	}
	__atomic_thread_fence(__ATOMIC_SEQ_CST);
}

/* Callbacks: a queue, a worker, and counts for rcu_barrier(). */
static pthread_mutex_t cb_lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t cb_queued_cond = PTHREAD_COND_INITIALIZER;
static pthread_cond_t cb_done_cond = PTHREAD_COND_INITIALIZER;
static struct rcu_head *cb_head;
static struct rcu_head **cb_tail = &cb_head;
static unsigned long cb_queued, cb_done;
static pthread_t cb_worker;
static bool cb_worker_started;

static void *avc_native_rcu_worker(void *arg)
{
	struct rcu_head *list, *next;
	unsigned long n;

	pthread_mutex_lock(&cb_lock);
	for (;;) {
		while (!cb_head)
			pthread_cond_wait(&cb_queued_cond, &cb_lock);
		list = cb_head;
		cb_head = NULL;
		cb_tail = &cb_head;
		pthread_mutex_unlock(&cb_lock);

		synchronize_rcu();
		for (n = 0; list; list = next, n++) {
			next = list->next;
			list->func(list);
		}

		pthread_mutex_lock(&cb_lock);
		cb_done += n;
		pthread_cond_broadcast(&cb_done_cond);
	}
	return NULL;
}

void avc_native_call_rcu(struct rcu_head *head,
			 void (*func)(struct rcu_head *head))
{
	head->next = NULL;
	head->func = func;
	pthread_mutex_lock(&cb_lock);
	if (!cb_worker_started) {
		if (pthread_create(&cb_worker, NULL, avc_native_rcu_worker,
				   NULL))
			avc_native_warn(__FILE__, __LINE__,
					"call_rcu(): no worker thread\n");
		pthread_detach(cb_worker);
		cb_worker_started = true;
	}
	*cb_tail = head;
	cb_tail = &head->next;
	cb_queued++;
	pthread_cond_signal(&cb_queued_cond);
	pthread_mutex_unlock(&cb_lock);
}

void avc_native_rcu_barrier(void)
{
	unsigned long target;

	pthread_mutex_lock(&cb_lock);
	target = cb_queued;
	while ((long)(cb_done - target) < 0)
		pthread_cond_wait(&cb_done_cond, &cb_lock);
	pthread_mutex_unlock(&cb_lock);
}
