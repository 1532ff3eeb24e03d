/* SPDX-License-Identifier: GPL-2.0 */
/*
 * avc_rcu: the in-kernel API exported to other modules.
 *
 * The module keeps one access vector cache in front of one policy, as
 * SELinux does.  Other modules ask it for decisions with
 * avc_rcu_has_perm(), drop every cached decision with avc_rcu_flush(), and
 * ask the policy directly, bypassing the cache, with avc_rcu_compute_av().
 * All three may be called from any context, hard interrupts included:
 * none of them sleeps.  On PREEMPT_RT kernels the spinlocks they take are
 * sleeping locks: there, any context that may take a spinlock_t (task,
 * softirq, threaded interrupt handlers, non-hard irq_work; not hard
 * interrupt context, nor with interrupts or preemption disabled by hand).
 * Documentation/design.rst, "Contexts and PREEMPT_RT".
 */
#ifndef _AVC_RCU_AVC_RCU_H
#define _AVC_RCU_AVC_RCU_H

#include <linux/types.h>
#include <uapi/linux/avc_rcu.h>

/**
 * struct avc_rcu_decision - an access vector decision
 * @allowed: permissions granted
 * @auditallow: granted permissions to audit
 * @auditdeny: denied permissions to audit (all bits unless dontaudit)
 * @seqno: sequence number of the policy that computed the decision
 * @flags: AVC_RCU_DECISION_* bits
 */
struct avc_rcu_decision {
	u32 allowed;
	u32 auditallow;
	u32 auditdeny;
	u32 seqno;
	u32 flags;
};

int avc_rcu_has_perm(u32 ssid, u32 tsid, u16 tclass, u32 requested,
		     struct avc_rcu_decision *avd);
void avc_rcu_flush(void);
void avc_rcu_compute_av(u32 ssid, u32 tsid, u16 tclass,
			struct avc_rcu_decision *avd);
u32 avc_rcu_policy_seqno(void);

#endif /* _AVC_RCU_AVC_RCU_H */
