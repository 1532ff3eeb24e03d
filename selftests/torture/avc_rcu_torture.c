// SPDX-License-Identifier: GPL-2.0
/*
 * avc_rcu_torture: an rcutorture-style test of avc_rcu's exported API
 * (include/avc_rcu/avc_rcu.h), from another module.
 *
 * insmod starts one reader kthread bound to each online CPU and a flusher,
 * and returns; rmmod stops them and logs one line,
 *
 *	avc_rcu_torture: PASS checked=N verified=N flushes=N seqnos=A..B cpus=C
 *
 * (C: the CPUs that made checked lookups, which must be every reader's)
 * or "avc_rcu_torture: FAIL ..." after the details of the first wrong
 * answers.  Meanwhile userspace loads policies with `avc_tool
 * torture-load SECONDS` (the only loader) and may move cache_threshold.
 *
 * Readers call avc_rcu_has_perm() on random keys, in and out of the
 * policies' key space, from task context, holding a spinlock_t taken
 * with spin_lock_irqsave(), and from an irq_work; every so often they also
 * call avc_rcu_compute_av().  Those are the most constrained contexts the
 * API promises on each kernel (Documentation/design.rst, "Contexts"):
 * without PREEMPT_RT the lock disables interrupts and the irq_work runs
 * in hard interrupt context; on PREEMPT_RT the lock is a sleeping lock
 * that leaves interrupts on, and the irq_work runs in the per-CPU
 * irq_work thread, as every irq_work not marked IRQ_WORK_HARD_IRQ does
 * there.  (Hard interrupt context proper is no context for the API on
 * PREEMPT_RT: a miss takes spinlock_t and allocates.)  The summary line
 * counts each: hardirq=, irq-thread=, lock-held=.  They run at nice 19, each on its own CPU, all at
 * once by default; busy_readers=N makes them pause between bursts so that
 * about N run at once (then the loader gets more host time when many
 * vCPUs are emulated on few cores).  The flusher calls
 * avc_rcu_flush() every flush_ms, every other time holding a spinlock_t
 * taken with spin_lock_irqsave() (interrupts off but on PREEMPT_RT), in
 * phases of 16 flushes separated by pauses as long.
 *
 * The oracle (selftests/lib/avc_oracle.h): the policy of seqno q is the torture
 * family's policy(q), a pure function of q, so every answer d is checked
 * against it.  For each answer, with s0 = avc_rcu_policy_seqno() read before
 * the call and s1 read after it:
 *
 * - freshness: s0 - 1 <= d.seqno <= s1 for avc_rcu_has_perm() (a load
 *   publishes s0 before it resets the cache, so decisions of s0 - 1 may be
 *   served until the reset; the single loader's previous reset had completed
 *   before s0 was published, so nothing older is cached), and
 *   s0 <= d.seqno <= s1 for avc_rcu_compute_av(), which reads the policy;
 *   moreover d.seqno >= c, where c is the parameter "completed" read before
 *   the call: torture-load writes the seqno of each load to
 *   /sys/module/avc_rcu_torture/parameters/completed once the load has
 *   returned, after which no older decision may be served (this catches a
 *   reset that leaves old decisions behind, which s0 - 1 alone would allow
 *   until the next load); until it does, c is the seqno at insmod;
 * - the return value of avc_rcu_has_perm() is 0 if every requested
 *   permission is in d.allowed or d.flags has AVC_RCU_DECISION_PERMISSIVE,
 *   else -EACCES;
 * - if d.seqno >= verify_from, d (allowed, auditallow, auditdeny, flags)
 *   equals the oracle's decision for seqno d.seqno exactly ("verified").
 *
 * Every answer is "checked" (the first two rules).  Seqno 0 is the empty
 * policy of a fresh avc_rcu, which the oracle describes; any other policy
 * in force at insmod was loaded by someone else and cannot be verified, so
 * by default verify_from is the seqno at insmod plus one (0 if it is 0).
 * A run that verified nothing fails: no policy was loaded; so does one in
 * which a reader made no lookup.  Seqnos are compared wrap-safely
 * throughout, so the test holds across 2^32 (avc_rcu's seqno_start).
 *
 * With readers=0 and probe=N, insmod only checks N avc_rcu_compute_av()
 * answers: userspace can then check that the cache statistics did not
 * move (avc_rcu_compute_av() bypasses the cache).
 *
 * Bursts: with burst_tasks=N, N more kthreads wait for rounds, which a
 * write of R to the burst parameter starts (R rounds, one after the
 * other; the write returns when the last has ended, so userspace reads
 * the cache with no insert in flight).  In a round every burst task looks
 * up burst_keys keys no one asked for before (each a miss and an insert),
 * unbound, released together once all are awake, so that with N much
 * larger than the CPUs many inserts are in flight at once, preempted
 * anywhere on a preemptible kernel; or, with
 * burst_herd=1, one task bound to each online CPU, all released together
 * once all are awake, look up the same fresh key: a herd of misses.  Each
 * answer is checked as the readers' are.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/atomic.h>
#include <linux/completion.h>
#include <linux/cpumask.h>
#include <linux/errno.h>
#include <linux/irq_work.h>
#include <linux/irqflags.h>
#include <linux/hrtimer.h>
#include <linux/jhash.h>
#include <linux/jiffies.h>
#include <linux/ktime.h>
#include <linux/kernel.h>
#include <linux/kthread.h>
#include <linux/log2.h>
#include <linux/module.h>
#include <linux/moduleparam.h>
#include <linux/mutex.h>
#include <linux/preempt.h>
#include <linux/random.h>
#include <linux/sched.h>
#include <linux/slab.h>
#include <linux/spinlock.h>
#include <linux/sysfs.h>
#include <linux/wait.h>

#include <avc_rcu/avc_rcu.h>
#include "../lib/avc_oracle.h"

static int readers = -1;
module_param(readers, int, 0444);
MODULE_PARM_DESC(readers,
		 "reader kthreads (default -1: one bound to each online CPU; 0: none; N: N, bound to the online CPUs in turn)");

static unsigned int flush_ms = 20;
module_param(flush_ms, uint, 0444);
MODULE_PARM_DESC(flush_ms,
		 "call avc_rcu_flush() every this many ms, 16 times in a row, then pause as long (default 20; 0: never)");

static unsigned int busy_readers;
module_param(busy_readers, uint, 0444);
MODULE_PARM_DESC(busy_readers,
		 "readers pause between bursts so that about this many run at once (default 0: never pause, every reader busy)");

static unsigned int compute_every = 8;
module_param(compute_every, uint, 0444);
MODULE_PARM_DESC(compute_every,
		 "readers also check avc_rcu_compute_av() every Nth lookup (default 8; 0: never)");

static unsigned int irqoff_every = 256;
module_param(irqoff_every, uint, 0444);
MODULE_PARM_DESC(irqoff_every,
		 "readers do a batch of lookups holding a spinlock_t taken with spin_lock_irqsave() (interrupts off, but on PREEMPT_RT) every Nth lookup (default 256; 0: never)");

static unsigned int irq_every = 1024;
module_param(irq_every, uint, 0444);
MODULE_PARM_DESC(irq_every,
		 "readers queue a batch of lookups in an irq_work (hard interrupt context; its thread on PREEMPT_RT) every Nth lookup (default 1024; 0: never)");

static long verify_from = -1;
module_param(verify_from, long, 0444);
MODULE_PARM_DESC(verify_from,
		 "first seqno whose policy torture-load loaded (default -1: the seqno at insmod + 1, or 0 on a fresh avc_rcu)");

static unsigned int probe;
module_param(probe, uint, 0444);
MODULE_PARM_DESC(probe,
		 "check this many avc_rcu_compute_av() answers at insmod, before any reader starts (default 0)");

static unsigned int hot_keys;
module_param(hot_keys, uint, 0444);
MODULE_PARM_DESC(hot_keys,
		 "readers look up only the first N of the 256 hot keys, hits once cached (default 0: the usual mix over the first 64; 1: one key, the load a reclaim must make progress under; four times cache_threshold: a working set the cache cannot hold, looked up without pause)");

static unsigned int churn;
module_param(churn, uint, 0444);
MODULE_PARM_DESC(churn,
		 "with hot_keys: one lookup in N, at random, is of a random key of the policy's key space instead, mostly a miss that inserts (default 0: never); at a small cache_threshold, the reclaims this causes sweep the hot keys' entries while other CPUs hit them");

static unsigned int torture_completed;
static bool torture_completed_given;

static int torture_completed_set(const char *val, const struct kernel_param *kp)
{
	unsigned int v;
	int err;

	err = kstrtouint(val, 0, &v);
	if (err)
		return err;
	/* Pairs with the smp_load_acquire() in torture_lookup(). */
	smp_store_release(&torture_completed, v);
	WRITE_ONCE(torture_completed_given, true);
	return 0;
}

static int torture_completed_get(char *buf, const struct kernel_param *kp)
{
	return sysfs_emit(buf, "%u\n", READ_ONCE(torture_completed));
}

static const struct kernel_param_ops torture_completed_ops = {
	.set = torture_completed_set,
	.get = torture_completed_get,
};
module_param_cb(completed, &torture_completed_ops, NULL, 0644);
MODULE_PARM_DESC(completed,
		 "seqno of the last load that has returned: no answer may be older (written by avc_tool torture-load; default: the seqno at insmod)");

static ulong seed;
module_param(seed, ulong, 0444);
MODULE_PARM_DESC(seed, "PRNG seed (default 0: random)");

static unsigned int burst_tasks;
module_param(burst_tasks, uint, 0444);
MODULE_PARM_DESC(burst_tasks,
		 "kthreads that insert fresh keys in the rounds a write to burst starts (default 0: none)");

static unsigned int burst_keys = 4;
module_param(burst_keys, uint, 0444);
MODULE_PARM_DESC(burst_keys,
		 "fresh keys each burst task looks up in a round (default 4)");

static bool burst_herd;
module_param(burst_herd, bool, 0444);
MODULE_PARM_DESC(burst_herd,
		 "burst tasks, one bound to each online CPU (burst_tasks is then their number), all look up one fresh key per round, released together (default 0)");

static uint collide_seed;
module_param(collide_seed, uint, 0444);
MODULE_PARM_DESC(collide_seed,
		 "with collide_slots: avc_rcu's hash_seed; the burst tasks' fresh keys are then chosen to fall in one bucket, whose lock they all take (default 0: keys not placed; needs a table of at most a few thousand slots)");

static uint collide_slots;
module_param(collide_slots, uint, 0444);
MODULE_PARM_DESC(collide_slots,
		 "with collide_seed: avc_rcu's slots (default 0)");

static int torture_burst_set(const char *val, const struct kernel_param *kp);
static int torture_burst_get(char *buf, const struct kernel_param *kp);

static const struct kernel_param_ops torture_burst_ops = {
	.set = torture_burst_set,
	.get = torture_burst_get,
};
module_param_cb(burst, &torture_burst_ops, NULL, 0644);
MODULE_PARM_DESC(burst,
		 "write R: run R rounds of the burst tasks, returning when the last has ended; read: the rounds run so far");

#define TORTURE_BATCH		8	/* lookups per lock-held or irq batch */
#define TORTURE_RESCHED		32	/* lookups between cond_resched() */
#define TORTURE_BURST		256	/* lookups between pauses */
#define TORTURE_MAX_PAUSE_NS	NSEC_PER_SEC
#define TORTURE_HOT		256	/* hot keys; the usual mix uses 64 */
#define TORTURE_FLUSH_PHASE	16	/* flushes in a row, then a pause */
#define TORTURE_MAX_REPORTS	4	/* wrong answers logged in full */

/* Tallies of one context: a reader's task, or its irq_work. */
struct torture_count {
	unsigned long checked;
	unsigned long verified;
	unsigned long computed;
	unsigned long granted;
	unsigned long permissive;
	u32 seq_min;
	u32 seq_max;
	bool seen;
};

struct torture_reader {
	struct task_struct *task;
	int cpu;			/* the CPU it is bound to */
	struct irq_work iw;
	spinlock_t lock;		/* held around the lock-held batches */
	u64 rng;
	u64 irq_rng;
	struct torture_count task_count;
	struct torture_count irq_count;
	unsigned long locked;		/* lookups made holding @lock */
	unsigned long irq_thread;	/* of irq_count.checked, in a thread */
	unsigned long pauses;
} ____cacheline_aligned_in_smp;

/* One answer and what was asked: the arguments of torture_check(). */
struct torture_answer {
	const char *ctx;
	u32 ssid;
	u32 tsid;
	u16 tclass;
	u32 requested;
	int ret;
	bool compute;
	struct avc_rcu_decision d;
	u32 completed;
	u32 s0;
	u32 s1;
};

/* A wrong answer, kept for the report at rmmod. */
struct torture_report {
	const char *what;
	struct torture_answer a;
	bool have_expected;
	struct tst_decision expected;
};

static const struct tst_oracle torture_oracle = TST_ORACLE_TORTURE;
static u32 torture_hot[TORTURE_HOT][3];
static u32 torture_verify_from;
static u32 torture_base_seqno;

static struct torture_reader *torture_readers;
static int torture_nreaders;
static struct task_struct *torture_flusher;
static unsigned long torture_flushes;

static atomic_t torture_nwrong = ATOMIC_INIT(0);
static struct cpumask torture_cpus_seen;	/* CPUs that ran checked lookups */
static struct torture_report torture_reports[TORTURE_MAX_REPORTS];
static struct torture_count torture_probe_count;

/* The burst tasks and their rounds. */
#define TORTURE_BURST_SSID	0x1000		/* fresh keys: ssid from here */
#define TORTURE_HERD_SSID	0x80000000	/* a herd's key: from here */
/* And a tsid of this load's own, outside the policies' key space. */
#define TORTURE_BURST_WAIT	(30 * HZ)	/* the longest round */

struct torture_burster {
	struct task_struct *task;
	unsigned int id;
	struct torture_count count;
};

static struct torture_burster *torture_bursters;
static unsigned int torture_nbursters;
static DECLARE_WAIT_QUEUE_HEAD(torture_burst_wq);
static DEFINE_MUTEX(torture_burst_mutex);	/* one writer of burst at a time */
static unsigned int torture_burst_round;	/* the round the tasks run */
static atomic_t torture_burst_arrived;		/* tasks awake this round */
static DECLARE_WAIT_QUEUE_HEAD(torture_burst_go_wq);
static unsigned int torture_burst_go;		/* the round released */
static atomic_t torture_burst_left;		/* tasks still in the round */
static struct completion torture_burst_done;
static unsigned int torture_burst_rounds;	/* rounds completed */
static u32 torture_burst_tsid;

/* Wrap-safe "a is an older seqno than b". */
static bool torture_before(u32 a, u32 b)
{
	return (s32)(a - b) < 0;
}

/*
 * A key: half of the lookups go to a hot set (cache hits), most of the rest
 * anywhere in the key space, some outside it (no rules), tclass 0 and the
 * largest tclass included.  With hot_keys, every lookup goes to the first
 * hot_keys of the hot set but, with churn, one in churn to the key space.
 */
static void torture_key(u64 *rng, u32 *s, u32 *t, u16 *c)
{
	const struct tst_oracle *o = &torture_oracle;
	u32 dice = (u32)tst_splitmix64(rng) % 16;
	const u32 *k;

	if (hot_keys) {
		/* Another draw: dice is not uniform over 0..churn - 1. */
		if (churn && !((u32)tst_splitmix64(rng) % churn))
			dice = 8;
		else
			dice = 0;
	}
	if (dice < 8) {
		k = torture_hot[hot_keys ?
				(u32)tst_splitmix64(rng) % hot_keys :
				dice * 8 + (u32)(tst_splitmix64(rng) % 8)];
		*s = k[0];
		*t = k[1];
		*c = (u16)k[2];
	} else if (dice < 14) {
		*s = tst_rand_range(rng, 1, o->ns);
		*t = tst_rand_range(rng, 1, o->nt);
		*c = (u16)tst_rand_range(rng, 1, o->nc);
	} else {
		*s = tst_rand_range(rng, 0, o->ns + 2);
		*t = dice == 14 ? (u32)tst_splitmix64(rng) :
				  tst_rand_range(rng, 0, o->nt + 2);
		*c = dice == 14 ? (u16)tst_splitmix64(rng) :
				  (u16)tst_rand_range(rng, 0, o->nc + 2);
	}
}

/*
 * What to ask for: nothing, everything, random bits, or a subset of what
 * policy(@s0) allows, so that both verdicts happen without permissive.
 */
static u32 torture_requested(u64 *rng, u32 s, u32 t, u16 c, u32 s0)
{
	struct tst_decision d;
	u32 r = (u32)tst_splitmix64(rng);

	switch (r % 8) {
	case 0:
		return 0;
	case 1:
		return ~0U;
	case 2:
	case 3:
		return (u32)tst_splitmix64(rng);
	default:
		tst_oracle_expected(&torture_oracle, s, t, c, s0, &d);
		return d.allowed & (u32)tst_splitmix64(rng);
	}
}

static noinline void torture_wrong(const struct torture_answer *a,
				   const char *what,
				   const struct tst_decision *expected)
{
	int n = atomic_inc_return(&torture_nwrong);
	struct torture_report *r;

	if (n > TORTURE_MAX_REPORTS)
		return;
	r = &torture_reports[n - 1];
	r->what = what;
	r->a = *a;
	r->have_expected = expected;
	if (expected)
		r->expected = *expected;
}

/* Check one answer of avc_rcu_has_perm() or avc_rcu_compute_av(). */
static void torture_check(struct torture_count *cnt,
			  const struct torture_answer *a)
{
	const struct avc_rcu_decision *d = &a->d;
	u32 lo = a->compute ? a->s0 : a->s0 - 1;
	struct tst_decision exp;
	int want;

	if (torture_before(lo, a->completed))
		lo = a->completed;

	cnt->checked++;
	if (a->compute)
		cnt->computed++;
	if (!cnt->seen || torture_before(d->seqno, cnt->seq_min))
		cnt->seq_min = d->seqno;
	if (!cnt->seen || torture_before(cnt->seq_max, d->seqno))
		cnt->seq_max = d->seqno;
	cnt->seen = true;

	if (torture_before(d->seqno, lo)) {
		torture_wrong(a, lo == a->completed ?
			      "seqno older than the last load that had returned before the call" :
			      a->compute ?
			      "seqno older than the policy in force before the call" :
			      "seqno older than the policy before the one in force before the call",
			      NULL);
		return;
	}
	if (torture_before(a->s1, d->seqno)) {
		torture_wrong(a, "seqno newer than the policy in force after the call",
			      NULL);
		return;
	}
	if (!a->compute) {
		want = !(a->requested & ~d->allowed) ||
		       (d->flags & AVC_RCU_DECISION_PERMISSIVE) ? 0 : -EACCES;
		if (a->ret != want) {
			torture_wrong(a, "return value disagrees with the decision",
				      NULL);
			return;
		}
		if (!a->ret)
			cnt->granted++;
		if (!a->ret && (a->requested & ~d->allowed))
			cnt->permissive++;
	}
	if (torture_before(d->seqno, torture_verify_from))
		return;
	tst_oracle_expected(&torture_oracle, a->ssid, a->tsid, a->tclass,
			    d->seqno, &exp);
	if (d->allowed != exp.allowed || d->auditallow != exp.auditallow ||
	    d->auditdeny != exp.auditdeny || d->flags != exp.flags) {
		torture_wrong(a, "decision differs from the policy of its seqno",
			      &exp);
		return;
	}
	cnt->verified++;
}

/* One avc_rcu_has_perm() on a random key, checked. */
static void torture_lookup(struct torture_count *cnt, u64 *rng,
			   const char *ctx)
{
	struct torture_answer a = { .ctx = ctx };

	torture_key(rng, &a.ssid, &a.tsid, &a.tclass);
	/*
	 * Pairs with torture_completed_set(): the reset of a load reported
	 * as returned is visible to the lookup below.
	 */
	a.completed = smp_load_acquire(&torture_completed);
	a.s0 = avc_rcu_policy_seqno();
	a.requested = torture_requested(rng, a.ssid, a.tsid, a.tclass, a.s0);
	a.ret = avc_rcu_has_perm(a.ssid, a.tsid, a.tclass, a.requested, &a.d);
	a.s1 = avc_rcu_policy_seqno();
	torture_check(cnt, &a);
}

/* One avc_rcu_has_perm() on a given key, checked. */
static void torture_lookup_key(struct torture_count *cnt, u64 *rng, u32 s,
			       u32 t, u16 c, const char *ctx)
{
	struct torture_answer a = {
		.ctx = ctx, .ssid = s, .tsid = t, .tclass = c,
	};

	/* Pairs with torture_completed_set(), as in torture_lookup(). */
	a.completed = smp_load_acquire(&torture_completed);
	a.s0 = avc_rcu_policy_seqno();
	a.requested = torture_requested(rng, s, t, c, a.s0);
	a.ret = avc_rcu_has_perm(s, t, c, a.requested, &a.d);
	a.s1 = avc_rcu_policy_seqno();
	torture_check(cnt, &a);
}

/* One avc_rcu_compute_av() on a random key, checked. */
static void torture_compute(struct torture_count *cnt, u64 *rng,
			    const char *ctx)
{
	struct torture_answer a = { .ctx = ctx, .compute = true };

	torture_key(rng, &a.ssid, &a.tsid, &a.tclass);
	/* Pairs with torture_completed_set(), as in torture_lookup(). */
	a.completed = smp_load_acquire(&torture_completed);
	a.s0 = avc_rcu_policy_seqno();
	avc_rcu_compute_av(a.ssid, a.tsid, a.tclass, &a.d);
	a.s1 = avc_rcu_policy_seqno();
	torture_check(cnt, &a);
}

/*
 * On the CPU that queued it: in hard interrupt context, or in that CPU's
 * irq_work thread on PREEMPT_RT.  Which one is counted, so that the
 * summary says what was tested.
 */
static void torture_irq_work(struct irq_work *iw)
{
	struct torture_reader *r = container_of(iw, struct torture_reader, iw);
	bool hard = in_hardirq();
	const char *ctx = hard ? "hardirq" : "irq-thread";
	unsigned long before = r->irq_count.checked;
	int i;

	for (i = 0; i < TORTURE_BATCH; i++)
		torture_lookup(&r->irq_count, &r->irq_rng, ctx);
	torture_compute(&r->irq_count, &r->irq_rng, ctx);
	if (!hard)
		r->irq_thread += r->irq_count.checked - before;
}

/*
 * Under TCG, 32 vCPUs share a couple of host cores: readers spinning on
 * every vCPU would leave the loader's vCPU a sliver of host time and the
 * test would see a load every few seconds.  So after each burst a reader
 * sleeps for a random 0.5 to 1.5 times (readers / busy_readers - 1) the
 * burst's duration: about busy_readers run at any time, on changing CPUs.
 */
static void torture_pause(struct torture_reader *r, ktime_t burst)
{
	u64 ns, scale;
	ktime_t t;

	if (!busy_readers || (unsigned int)torture_nreaders <= busy_readers)
		return;
	scale = (u64)(torture_nreaders - busy_readers) * 1024 / busy_readers;
	ns = (u64)ktime_to_ns(burst) * scale / 1024;
	ns = ns / 2 + tst_splitmix64(&r->rng) % (ns + 1);
	t = ns_to_ktime(min_t(u64, ns, TORTURE_MAX_PAUSE_NS));
	set_current_state(TASK_INTERRUPTIBLE);
	if (!kthread_should_stop())
		schedule_hrtimeout_range(&t, NSEC_PER_USEC * 100,
					 HRTIMER_MODE_REL);
	__set_current_state(TASK_RUNNING);
	r->pauses++;
}

static int torture_reader_fn(void *arg)
{
	struct torture_reader *r = arg;
	unsigned long flags, n = 0;
	ktime_t burst = ktime_get();
	int i;

	/* As rcutorture's readers: let the loader and the flusher run. */
	set_user_nice(current, MAX_NICE);
	while (!kthread_should_stop()) {
		n++;
		torture_lookup(&r->task_count, &r->rng, "task");
		if (n == 1 || !(n % TORTURE_BURST))
			cpumask_set_cpu(raw_smp_processor_id(),
					&torture_cpus_seen);
		if (compute_every && !(n % compute_every))
			torture_compute(&r->task_count, &r->rng, "task");
		if (irqoff_every && !(n % irqoff_every)) {
			spin_lock_irqsave(&r->lock, flags);
			for (i = 0; i < TORTURE_BATCH; i++)
				torture_lookup(&r->task_count, &r->rng,
					       "lock-held");
			spin_unlock_irqrestore(&r->lock, flags);
			r->locked += TORTURE_BATCH;
		}
		/* Only this thread queues r->iw: it never runs twice at once. */
		if (irq_every && !(n % irq_every) && !irq_work_is_busy(&r->iw))
			irq_work_queue(&r->iw);
		if (!(n % TORTURE_BURST)) {
			torture_pause(r, ktime_sub(ktime_get(), burst));
			burst = ktime_get();
		}
		if (!(n % TORTURE_RESCHED))
			cond_resched();
	}
	return 0;
}

/*
 * Flushes come in phases of TORTURE_FLUSH_PHASE, flush_ms apart, separated
 * by as long without any: flushes race with lookups, and the quiet phases
 * let the freshness checks see old decisions that a broken reset or insert
 * left behind, which a flush would otherwise sweep away unseen.
 */
static DEFINE_SPINLOCK(torture_flush_lock);

static int torture_flusher_fn(void *arg)
{
	unsigned long flags, ms;

	while (!kthread_should_stop()) {
		if (torture_flushes & 1) {
			spin_lock_irqsave(&torture_flush_lock, flags);
			avc_rcu_flush();
			spin_unlock_irqrestore(&torture_flush_lock, flags);
		} else {
			avc_rcu_flush();
		}
		torture_flushes++;
		ms = flush_ms;
		if (!(torture_flushes % TORTURE_FLUSH_PHASE))
			ms *= TORTURE_FLUSH_PHASE;
		schedule_timeout_interruptible(msecs_to_jiffies(ms));
	}
	return 0;
}

/*
 * The @k-th fresh ssid of the bursts.  With collide_seed and
 * collide_slots, the first ssid of the @k-th range of TORTURE_COLLIDE
 * whose key (ssid, @tsid, 1) falls in the bucket of (0, @tsid, 1), by
 * avc_rcu's hash (avc/node.h) recomputed; if the range has none (a table
 * too large for it), its first.
 */
#define TORTURE_COLLIDE		8192

static u32 torture_fresh_ssid(u32 k, u32 tsid)
{
	u32 mask = collide_slots - 1, want, from, s;

	if (!collide_seed || !is_power_of_2(collide_slots))
		return TORTURE_BURST_SSID + k;
	want = jhash_3words(0, tsid, 1, collide_seed) & mask;
	from = TORTURE_BURST_SSID + k * TORTURE_COLLIDE;
	for (s = from; s - from < TORTURE_COLLIDE; s++)
		if ((jhash_3words(s, tsid, 1, collide_seed) & mask) == want)
			return s;
	return from;
}

/*
 * A burst task: wait for a round, run it, say it is done.  A herd's tasks
 * wait for one another first, spinning (each is alone on its CPU), so
 * that their misses of the one key start together.
 */
static int torture_burster_fn(void *arg)
{
	struct torture_burster *b = arg;
	unsigned int round = 0, i, base;
	unsigned long until;
	u64 rng = seed ^ ((u64)b->id << 32);

	while (!kthread_should_stop()) {
		wait_event_interruptible(torture_burst_wq,
					 READ_ONCE(torture_burst_round) != round ||
					 kthread_should_stop());
		if (kthread_should_stop())
			break;
		round = READ_ONCE(torture_burst_round);
		if (burst_herd) {
			struct torture_answer a = {
				.ctx = "herd", .ssid = TORTURE_HERD_SSID + round,
				.tsid = torture_burst_tsid, .tclass = 1,
			};

			/* Everything but the lookup before the barrier. */
			a.completed = smp_load_acquire(&torture_completed);
			a.s0 = avc_rcu_policy_seqno();
			a.requested = torture_requested(&rng, a.ssid, a.tsid,
							a.tclass, a.s0);
			atomic_inc(&torture_burst_arrived);
			until = jiffies + HZ;
			while (atomic_read(&torture_burst_arrived) <
			       torture_nbursters && time_before(jiffies, until))
				cpu_relax();
			a.ret = avc_rcu_has_perm(a.ssid, a.tsid, a.tclass,
						 a.requested, &a.d);
			a.s1 = avc_rcu_policy_seqno();
			torture_check(&b->count, &a);
		} else {
			/*
			 * The last to wake releases the others, all made
			 * runnable at once.
			 */
			if (atomic_inc_return(&torture_burst_arrived) ==
			    torture_nbursters) {
				WRITE_ONCE(torture_burst_go, round);
				wake_up_all(&torture_burst_go_wq);
			} else {
				wait_event_timeout(torture_burst_go_wq,
						   READ_ONCE(torture_burst_go) ==
						   round, HZ);
			}
			base = (round * torture_nbursters + b->id) * burst_keys;
			for (i = 0; i < burst_keys; i++)
				torture_lookup_key(&b->count, &rng,
						   torture_fresh_ssid(base + i,
								      torture_burst_tsid),
						   torture_burst_tsid, 1, "burst");
		}
		if (atomic_dec_and_test(&torture_burst_left))
			complete(&torture_burst_done);
	}
	return 0;
}

static int torture_burst_set(const char *val, const struct kernel_param *kp)
{
	unsigned int n, r;
	int err;

	err = kstrtouint(val, 0, &n);
	if (err)
		return err;
	if (!torture_nbursters)
		return -ENODEV;
	mutex_lock(&torture_burst_mutex);
	for (r = 0; r < n && !err; r++) {
		reinit_completion(&torture_burst_done);
		atomic_set(&torture_burst_arrived, 0);
		atomic_set(&torture_burst_left, torture_nbursters);
		WRITE_ONCE(torture_burst_round, torture_burst_round + 1);
		wake_up_all(&torture_burst_wq);
		if (!wait_for_completion_timeout(&torture_burst_done,
						 TORTURE_BURST_WAIT))
			err = -ETIMEDOUT;
		else
			torture_burst_rounds++;
	}
	mutex_unlock(&torture_burst_mutex);
	return err;
}

static int torture_burst_get(char *buf, const struct kernel_param *kp)
{
	return sysfs_emit(buf, "%u\n", READ_ONCE(torture_burst_rounds));
}

static void torture_merge(struct torture_count *sum,
			  const struct torture_count *c)
{
	sum->checked += c->checked;
	sum->verified += c->verified;
	sum->computed += c->computed;
	sum->granted += c->granted;
	sum->permissive += c->permissive;
	if (!c->seen)
		return;
	if (!sum->seen || torture_before(c->seq_min, sum->seq_min))
		sum->seq_min = c->seq_min;
	if (!sum->seen || torture_before(sum->seq_max, c->seq_max))
		sum->seq_max = c->seq_max;
	sum->seen = true;
}

static void torture_stop(void)
{
	int i;

	if (torture_flusher) {
		kthread_stop(torture_flusher);
		torture_flusher = NULL;
	}
	for (i = 0; i < torture_nreaders; i++) {
		if (torture_readers[i].task)
			kthread_stop(torture_readers[i].task);
		irq_work_sync(&torture_readers[i].iw);
	}
	for (i = 0; i < torture_nbursters; i++)
		if (torture_bursters[i].task)
			kthread_stop(torture_bursters[i].task);
}

static void torture_print_report(const struct torture_report *r)
{
	const struct torture_answer *a = &r->a;

	pr_err("wrong answer (%s, %s): %s\n", a->ctx,
	       a->compute ? "avc_rcu_compute_av" : "avc_rcu_has_perm", r->what);
	pr_err("  key ssid=%u tsid=%u tclass=%u requested=%#x returned %d\n",
	       a->ssid, a->tsid, a->tclass, a->requested, a->ret);
	pr_err("  got allowed=%#x auditallow=%#x auditdeny=%#x flags=%#x seqno=%u\n",
	       a->d.allowed, a->d.auditallow, a->d.auditdeny, a->d.flags,
	       a->d.seqno);
	if (r->have_expected)
		pr_err("  expected allowed=%#x auditallow=%#x auditdeny=%#x flags=%#x\n",
		       r->expected.allowed, r->expected.auditallow,
		       r->expected.auditdeny, r->expected.flags);
	pr_err("  policy seqno %u before the call, %u after; last load returned %u; verify_from %u\n",
	       a->s0, a->s1, a->completed, torture_verify_from);
}

static void torture_summary(void)
{
	struct torture_count sum = torture_probe_count;
	unsigned long irq = 0, irq_thread = 0, locked = 0, pauses = 0;
	int i, idle = 0, nwrong = atomic_read(&torture_nwrong);

	for (i = 0; i < torture_nbursters; i++)
		torture_merge(&sum, &torture_bursters[i].count);
	if (torture_nbursters)
		pr_info("bursts: %u tasks (%s), %u rounds\n", torture_nbursters,
			burst_herd ? "a herd of one key" : "fresh keys",
			torture_burst_rounds);
	for (i = 0; i < torture_nreaders; i++) {
		if (!torture_readers[i].task_count.checked) {
			pr_err("reader %d on CPU %d made no lookup\n", i,
			       torture_readers[i].cpu);
			idle++;
		}
		torture_merge(&sum, &torture_readers[i].task_count);
		torture_merge(&sum, &torture_readers[i].irq_count);
		irq += torture_readers[i].irq_count.checked;
		irq_thread += torture_readers[i].irq_thread;
		locked += torture_readers[i].locked;
		pauses += torture_readers[i].pauses;
	}
	pr_info("readers=%d computed=%lu hardirq=%lu irq-thread=%lu lock-held=%lu%s granted=%lu permissive=%lu pauses=%lu base_seqno=%u verify_from=%u seed=%lu\n",
		torture_nreaders, sum.computed, irq - irq_thread, irq_thread,
		locked, IS_ENABLED(CONFIG_PREEMPT_RT) ? " (PREEMPT_RT)" : "",
		sum.granted,
		sum.permissive, pauses, torture_base_seqno,
		torture_verify_from, seed);
	for (i = 0; i < nwrong && i < TORTURE_MAX_REPORTS; i++)
		torture_print_report(&torture_reports[i]);
	if (nwrong || idle)
		pr_err("FAIL wrong=%d idle=%d checked=%lu verified=%lu flushes=%lu seqnos=%u..%u cpus=%u\n",
		       nwrong, idle, sum.checked, sum.verified,
		       torture_flushes, sum.seq_min, sum.seq_max,
		       cpumask_weight(&torture_cpus_seen));
	else if (!sum.verified)
		pr_err("FAIL nothing verified (no policy loaded since insmod?) checked=%lu flushes=%lu seqnos=%u..%u\n",
		       sum.checked, torture_flushes, sum.seq_min, sum.seq_max);
	else
		pr_info("PASS checked=%lu verified=%lu flushes=%lu seqnos=%u..%u cpus=%u\n",
			sum.checked, sum.verified, torture_flushes,
			sum.seq_min, sum.seq_max,
			cpumask_weight(&torture_cpus_seen));
}

static int __init torture_init(void)
{
	unsigned int n;
	u64 rng;
	int i, err, cpu;

	if (!seed)
		seed = (ulong)get_random_u64() | 1;
	rng = seed;
	for (i = 0; i < TORTURE_HOT; i++) {
		torture_hot[i][0] = tst_rand_range(&rng, 1, torture_oracle.ns);
		torture_hot[i][1] = tst_rand_range(&rng, 1, torture_oracle.nt);
		torture_hot[i][2] = tst_rand_range(&rng, 1, torture_oracle.nc);
	}

	if (hot_keys > TORTURE_HOT) {
		pr_err("hot_keys=%u: at most %u\n", hot_keys, TORTURE_HOT);
		return -EINVAL;
	}
	if (churn && !hot_keys) {
		pr_err("churn=%u needs hot_keys\n", churn);
		return -EINVAL;
	}
	if (burst_herd && burst_tasks > num_online_cpus()) {
		pr_err("burst_herd: at most one task per online CPU (%u)\n",
		       num_online_cpus());
		return -EINVAL;
	}
	torture_base_seqno = avc_rcu_policy_seqno();
	/*
	 * The policy in force was loaded before insmod: no answer may be
	 * older, from the start.  (Not 0, which is no floor at all just
	 * below 2^32, where 0 is newer than everything.)
	 */
	if (!READ_ONCE(torture_completed_given))
		/* No reader runs yet: the release is for form's sake. */
		smp_store_release(&torture_completed, torture_base_seqno);
	if (verify_from >= 0)
		torture_verify_from = (u32)verify_from;
	else if (torture_base_seqno)
		torture_verify_from = torture_base_seqno + 1;
	else
		torture_verify_from = 0;

	for (n = 0; n < probe; n++)
		torture_compute(&torture_probe_count, &rng, "probe");

	torture_nreaders = readers < 0 ? num_online_cpus() : readers;
	if (torture_nreaders) {
		torture_readers = kcalloc(torture_nreaders,
					  sizeof(*torture_readers), GFP_KERNEL);
		if (!torture_readers)
			return -ENOMEM;
	}
	for (i = 0; i < torture_nreaders; i++) {
		struct torture_reader *r = &torture_readers[i];

		r->rng = tst_splitmix64(&rng);
		r->irq_rng = tst_splitmix64(&rng);
		init_irq_work(&r->iw, torture_irq_work);
		spin_lock_init(&r->lock);
	}
	cpu = -1;
	for (i = 0; i < torture_nreaders; i++) {
		struct task_struct *t;

		cpu = cpumask_next(cpu, cpu_online_mask);
		if (cpu >= nr_cpu_ids)
			cpu = cpumask_first(cpu_online_mask);
		torture_readers[i].cpu = cpu;
		t = kthread_create(torture_reader_fn, &torture_readers[i],
				   "avc_torture_r/%d", cpu);
		if (IS_ERR(t)) {
			err = PTR_ERR(t);
			goto fail;
		}
		kthread_bind(t, cpu);
		torture_readers[i].task = t;
		wake_up_process(t);
	}
	init_completion(&torture_burst_done);
	torture_burst_tsid = get_random_u32() | 0x80000000;
	if (burst_tasks) {
		torture_bursters = kcalloc(burst_tasks,
					   sizeof(*torture_bursters),
					   GFP_KERNEL);
		if (!torture_bursters) {
			err = -ENOMEM;
			goto fail;
		}
	}
	cpu = -1;
	for (i = 0; i < burst_tasks; i++) {
		struct task_struct *t;

		torture_bursters[i].id = i;
		t = kthread_create(torture_burster_fn, &torture_bursters[i],
				   "avc_torture_b/%d", i);
		if (IS_ERR(t)) {
			err = PTR_ERR(t);
			goto fail;
		}
		if (burst_herd) {
			cpu = cpumask_next(cpu, cpu_online_mask);
			kthread_bind(t, cpu);
		}
		torture_bursters[i].task = t;
		torture_nbursters = i + 1;
		wake_up_process(t);
	}
	if (flush_ms) {
		struct task_struct *t;

		t = kthread_run(torture_flusher_fn, NULL, "avc_torture_f");
		if (IS_ERR(t)) {
			err = PTR_ERR(t);
			goto fail;
		}
		torture_flusher = t;
	}
	pr_info("started: %d readers (about %u busy), flush every %u ms, base seqno %u, verify from %u, seed %lu\n",
		torture_nreaders, busy_readers, flush_ms, torture_base_seqno,
		torture_verify_from, seed);
	return 0;

fail:
	torture_stop();
	kfree(torture_bursters);
	kfree(torture_readers);
	return err;
}

static void __exit torture_exit(void)
{
	torture_stop();
	torture_summary();
	kfree(torture_bursters);
	kfree(torture_readers);
}

module_init(torture_init);
module_exit(torture_exit);

MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("rcutorture-style test of avc_rcu's exported API");
