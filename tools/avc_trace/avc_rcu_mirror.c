// SPDX-License-Identifier: GPL-2.0
/*
 * avc_rcu_mirror: feed the running kernel's own AVC lookups into avc_rcu
 * as they happen, in its shadow (Documentation/traces.rst, "The live
 * mirror (shadow mode)").
 *
 * Two kprobes, on SELinux's avc_lookup() (the one place the kernel's AVC
 * counts a lookup) and avc_ss_reset() (a policy load or boolean change
 * empties the kernel's cache).  Every lookup of the kernel is looked up in
 * avc_rcu with avc_rcu_has_perm(), its key read from the probed call's
 * arguments, requested 0 (avc_lookup() has none); every reset is an
 * avc_rcu_flush().  avc_rcu answers its misses from its own policy (none
 * loaded: everything denied, as the replay does); its decision is thrown
 * away.  The kernel's decision is never touched: the handlers only read
 * the registers and return 0.  So avc_rcu's avc/cache_stats count the
 * live traffic beside /sys/fs/selinux/avc/cache_stats, and avcstat runs
 * on both.
 *
 * The handlers run in the caller's context, with preemption disabled,
 * and must not sleep: avc_rcu_has_perm() and avc_rcu_flush() never do.
 * They also allocate (GFP_NOWAIT), take bucket spinlocks and call
 * call_rcu(), which is safe in an ftrace callback but not in an int3
 * kprobe's handler, which runs like an NMI.  So both probes must be
 * ftrace-based (KPROBES_ON_FTRACE: the probe sits on the function's
 * fentry call, listed as [FTRACE] in /sys/kernel/debug/kprobes/list):
 * they are registered disabled, and the module refuses to load, with a
 * log line, if either is not.  It refuses PREEMPT_RT kernels too, whose
 * spinlocks sleep.
 *
 * /sys/kernel/debug/avc_rcu_mirror (root only) reads
 *
 *	lookups=L resets=R missed=M
 *
 * the lookups and resets mirrored so far and the kprobes' missed hits (a
 * hit while another kprobe runs on the CPU, e.g. a lookup in a softirq
 * that interrupted the handler).  Unloading unregisters both probes, which
 * waits for running handlers, and logs the same counts.
 */

#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/atomic.h>
#include <linux/debugfs.h>
#include <linux/kernel.h>
#include <linux/kprobes.h>
#include <linux/module.h>
#include <linux/percpu.h>
#include <linux/ptrace.h>
#include <linux/seq_file.h>
#include <avc_rcu/avc_rcu.h>
#include "compat.h"

static bool resets = true;
module_param(resets, bool, 0444);
MODULE_PARM_DESC(resets,
		 "Mirror the kernel AVC's resets (policy loads, boolean changes) as avc_rcu_flush() (default Y)");

static DEFINE_PER_CPU(u64, mirror_lookups);
static atomic_t mirror_resets = ATOMIC_INIT(0);
static struct dentry *mirror_file;

/* avc_lookup(ssid, tsid, tclass), after the AVC pointer before 6.4. */
static int mirror_lookup(struct kprobe *p, struct pt_regs *regs)
{
	struct avc_rcu_decision avd;
	unsigned int a = SELINUX_ARG0;

	avc_rcu_has_perm((u32)regs_get_kernel_argument(regs, a),
			 (u32)regs_get_kernel_argument(regs, a + 1),
			 (u16)regs_get_kernel_argument(regs, a + 2), 0, &avd);
	this_cpu_inc(mirror_lookups);
	return 0;
}

static int mirror_reset(struct kprobe *p, struct pt_regs *regs)
{
	avc_rcu_flush();
	atomic_inc(&mirror_resets);
	return 0;
}

static struct kprobe mirror_lookup_kp = {
	.symbol_name = "avc_lookup",
	.pre_handler = mirror_lookup,
	.flags = KPROBE_FLAG_DISABLED,
};

static struct kprobe mirror_reset_kp = {
	.symbol_name = "avc_ss_reset",
	.pre_handler = mirror_reset,
	.flags = KPROBE_FLAG_DISABLED,
};

static u64 mirror_lookups_sum(void)
{
	u64 sum = 0;
	int cpu;

	for_each_possible_cpu(cpu)
		sum += per_cpu(mirror_lookups, cpu);
	return sum;
}

static unsigned long mirror_missed(void)
{
	return mirror_lookup_kp.nmissed +
	       (resets ? mirror_reset_kp.nmissed : 0);
}

static int mirror_show(struct seq_file *m, void *v)
{
	seq_printf(m, "lookups=%llu resets=%d missed=%lu\n",
		   mirror_lookups_sum(), atomic_read(&mirror_resets),
		   mirror_missed());
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(mirror);

/* Register @kp disabled; keep it only if it is ftrace-based. */
static int mirror_register(struct kprobe *kp)
{
	int err = register_kprobe(kp);

	if (err) {
		pr_err("cannot probe %s: %d\n", kp->symbol_name, err);
		return err;
	}
	if (!kprobe_ftrace(kp)) {
		pr_err("%s (%pS) is not an ftrace site: an int3 kprobe's handler may not allocate, lock or call_rcu(); refusing\n",
		       kp->symbol_name, kp->addr);
		unregister_kprobe(kp);
		return -EOPNOTSUPP;
	}
	return 0;
}

static int __init mirror_init(void)
{
	int err;

	if (IS_ENABLED(CONFIG_PREEMPT_RT)) {
		pr_err("PREEMPT_RT: avc_rcu's spinlocks sleep, and a kprobe handler runs with preemption disabled; refusing\n");
		return -EOPNOTSUPP;
	}
	err = mirror_register(&mirror_lookup_kp);
	if (err)
		return err;
	if (resets) {
		err = mirror_register(&mirror_reset_kp);
		if (err)
			goto out_lookup;
		err = enable_kprobe(&mirror_reset_kp);
		if (err)
			goto out_reset;
	}
	err = enable_kprobe(&mirror_lookup_kp);
	if (err)
		goto out_reset;
	mirror_file = debugfs_create_file("avc_rcu_mirror", 0400, NULL, NULL,
					  &mirror_fops);
	pr_info("mirroring %s (%pS)%s through ftrace-based kprobes\n",
		mirror_lookup_kp.symbol_name, mirror_lookup_kp.addr,
		resets ? " and avc_ss_reset" : "");
	return 0;

out_reset:
	if (resets)
		unregister_kprobe(&mirror_reset_kp);
out_lookup:
	unregister_kprobe(&mirror_lookup_kp);
	return err;
}

static void __exit mirror_exit(void)
{
	debugfs_remove(mirror_file);
	/* Each waits until no handler of its probe runs any more. */
	unregister_kprobe(&mirror_lookup_kp);
	if (resets)
		unregister_kprobe(&mirror_reset_kp);
	pr_info("unloaded: mirrored %llu lookups, %d resets; kprobes missed %lu\n",
		mirror_lookups_sum(), atomic_read(&mirror_resets),
		mirror_missed());
}

module_init(mirror_init);
module_exit(mirror_exit);

MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("Mirror the kernel's own AVC lookups into avc_rcu's cache");
