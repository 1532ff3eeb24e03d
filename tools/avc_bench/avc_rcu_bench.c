// SPDX-License-Identifier: GPL-2.0
/*
 * avc_rcu_bench: lookups per second through avc_rcu's exported API, with
 * no system call in the way.
 *
 * On load, one kthread per CPU (the first @threads online CPUs, each bound
 * to its own) waits at a common start line, then calls the chosen function
 * over a small working set of keys for @ms milliseconds.  The load returns
 * when every thread is done and the module prints one line:
 *
 *   avc_rcu_bench: op=hit threads=2 ms=1000 calls=N rate=R/s per-thread=...
 *
 * op=hit      avc_rcu_has_perm() on keys already cached (after a warm-up):
 *             the lookup path the 2004 patch made lockless;
 * op=compute  avc_rcu_compute_av(): the policy, bypassing the cache;
 * op=null     an empty out-of-line call: the loop's own cost.
 *
 * The bench only measures; it loads no policy and changes no setting.
 */

#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/completion.h>
#include <linux/cpumask.h>
#include <linux/kthread.h>
#include <linux/module.h>
#include <linux/moduleparam.h>
#include <linux/sched.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <linux/timekeeping.h>
#include <avc_rcu/avc_rcu.h>

static unsigned int threads;
module_param(threads, uint, 0444);
MODULE_PARM_DESC(threads, "threads, one per CPU (default: every online CPU)");

static unsigned int ms = 1000;
module_param(ms, uint, 0444);
MODULE_PARM_DESC(ms, "milliseconds each thread runs (default 1000)");

static unsigned int keys = 64;
module_param(keys, uint, 0444);
MODULE_PARM_DESC(keys, "working set: ssid 1..keys, tsid 2, tclass 3 (default 64)");

static char *op = "hit";
module_param(op, charp, 0444);
MODULE_PARM_DESC(op, "hit (avc_rcu_has_perm), compute (avc_rcu_compute_av) or null (empty call)");

enum bench_op { BENCH_HIT, BENCH_COMPUTE, BENCH_NULL };

struct bench_thread {
	struct task_struct *task;
	struct completion done;
	u64 calls;
};

static enum bench_op bench_op;
static atomic_t bench_ready;
static bool bench_go;

static noinline void bench_null(u32 ssid, struct avc_rcu_decision *avd)
{
	/* Keep the call: the loop must not be optimised away. */
	barrier();
}

static __always_inline void bench_one(u32 ssid, struct avc_rcu_decision *avd)
{
	switch (bench_op) {
	case BENCH_HIT:
		avc_rcu_has_perm(ssid, 2, 3, 1, avd);
		break;
	case BENCH_COMPUTE:
		avc_rcu_compute_av(ssid, 2, 3, avd);
		break;
	case BENCH_NULL:
		bench_null(ssid, avd);
		break;
	}
}

static int bench_fn(void *arg)
{
	struct bench_thread *t = arg;
	struct avc_rcu_decision avd;
	u64 calls = 0, end;
	u32 k = 0;

	/* The start line; cond_resched() lets the starter run on this CPU. */
	atomic_inc(&bench_ready);
	while (!READ_ONCE(bench_go))
		cond_resched();

	end = ktime_get_ns() + (u64)ms * NSEC_PER_MSEC;
	do {
		unsigned int i;

		for (i = 0; i < 1024; i++) {
			bench_one(1 + k, &avd);
			if (++k == keys)
				k = 0;
		}
		calls += 1024;
		cond_resched();
	} while (ktime_get_ns() < end);

	t->calls = calls;
	complete(&t->done);
	while (!kthread_should_stop())
		schedule_timeout_interruptible(HZ);
	return 0;
}

static int __init bench_init(void)
{
	struct avc_rcu_decision avd;
	struct bench_thread *t;
	unsigned int i, n = 0;
	u64 total = 0;
	char *per;
	int cpu, len = 0;

	if (!strcmp(op, "hit"))
		bench_op = BENCH_HIT;
	else if (!strcmp(op, "compute"))
		bench_op = BENCH_COMPUTE;
	else if (!strcmp(op, "null"))
		bench_op = BENCH_NULL;
	else
		return -EINVAL;
	if (!threads || threads > num_online_cpus())
		threads = num_online_cpus();
	if (!keys || !ms)
		return -EINVAL;

	/* Warm-up: every key of the working set is cached before timing. */
	for (i = 0; i < keys; i++)
		avc_rcu_has_perm(1 + i, 2, 3, 1, &avd);

	t = kcalloc(threads, sizeof(*t), GFP_KERNEL);
	per = kzalloc(16 * threads + 1, GFP_KERNEL);
	if (!t || !per) {
		kfree(per);
		kfree(t);
		return -ENOMEM;
	}
	atomic_set(&bench_ready, 0);
	WRITE_ONCE(bench_go, false);
	for_each_online_cpu(cpu) {
		if (n == threads)
			break;
		init_completion(&t[n].done);
		t[n].task = kthread_create_on_cpu(bench_fn, &t[n], cpu,
						  "avc_bench/%u");
		if (IS_ERR(t[n].task))
			break;
		wake_up_process(t[n].task);
		n++;
	}
	while (atomic_read(&bench_ready) < n)
		schedule_timeout_uninterruptible(1);
	WRITE_ONCE(bench_go, true);

	for (i = 0; i < n; i++) {
		wait_for_completion(&t[i].done);
		kthread_stop(t[i].task);
		total += t[i].calls;
		len += scnprintf(per + len, 16 * threads + 1 - len, "%s%llu",
				 i ? "," : "", t[i].calls);
	}
	pr_info("op=%s threads=%u ms=%u keys=%u calls=%llu rate=%llu/s per-thread=%s\n",
		op, n, ms, keys, total, div_u64(total * MSEC_PER_SEC, ms), per);
	kfree(per);
	kfree(t);
	return 0;
}

static void __exit bench_exit(void)
{
}

module_init(bench_init);
module_exit(bench_exit);

MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("avc_rcu lookup benchmark");
