// SPDX-License-Identifier: GPL-2.0
/*
 * avc_rcu: the in-kernel API exported to other modules
 * (include/avc_rcu/avc_rcu.h), and the module's one cache and policy it
 * works on.
 *
 * Like SELinux, the module keeps a single cache in front of a single
 * policy.  The core underneath is written for any number of caches; this
 * file picks one and gives it a name.
 */

#include <linux/err.h>
#include <linux/export.h>
#include <linux/ktime.h>
#include "api.h"
#include "avc_rcu_events.h"

static struct avc_ss avc_rcu_ss;
static struct avc_cache *avc_rcu_the_cache;

/**
 * avc_rcu_setup_cache() - create the module's policy and cache
 * @cfg: the load-time choices
 *
 * What every cache shares must exist: avc_core_init() first.  The module
 * calls the two apart, so that a test can fail this part's allocations
 * one by one (selinuxfs/main.c, init_fail_nth).
 *
 * Return: 0 or a negative errno.
 */
int avc_rcu_setup_cache(const struct avc_rcu_config *cfg)
{
	struct avc_cache_params p = {
		.slots = cfg->slots,
		.threshold = cfg->threshold ?: AVC_RCU_THRESHOLD_DEFAULT,
		.seed = cfg->hash_seed,
		.reclaimer = cfg->reclaimer,
	};
	struct avc_cache *c;
	int err;

	err = avc_sync_select(cfg->sync);
	if (!err)
		err = avc_reclaim_select(cfg->reclaim);
	if (err)
		return err;
	err = avc_ss_init_at(&avc_rcu_ss, cfg->seqno_start);
	if (err)
		return err;
	c = avc_cache_create(&avc_rcu_ss, &p);
	if (IS_ERR(c)) {
		avc_ss_destroy(&avc_rcu_ss);
		return PTR_ERR(c);
	}
	avc_rcu_the_cache = c;
	return 0;
}

/**
 * avc_rcu_teardown_cache() - free what avc_rcu_setup_cache() made
 *
 * No lookup may be running or start.
 */
void avc_rcu_teardown_cache(void)
{
	avc_cache_destroy(avc_rcu_the_cache);
	avc_rcu_the_cache = NULL;
	avc_ss_destroy(&avc_rcu_ss);
}

/**
 * avc_rcu_cache() - the module's cache
 *
 * Return: the cache avc_rcu_setup_cache() made.
 */
struct avc_cache *avc_rcu_cache(void)
{
	return avc_rcu_the_cache;
}

/*
 * After a load, successful or not: reset the cache for the new policy, and
 * trace the load, from @start (ktime_get_ns()) to the end of the reset.  A
 * failed load is traced with the seqno still in force and no rules.
 */
static int avc_rcu_loaded(int err, struct avc_ss_loaded *ld, u64 start)
{
	if (err) {
		ld->seqno = avc_ss_seqno(&avc_rcu_ss);
		ld->rules = 0;
		ld->permissive = 0;
	} else {
		avc_cache_reset(avc_rcu_the_cache, ld->seqno);
	}
	trace_avc_rcu_policy_load(err, ld->seqno, ld->rules, ld->permissive,
				  ktime_get_ns() - start);
	return err;
}

/**
 * avc_rcu_load_parsed() - replace the policy by a parsed text, reset the
 *	cache
 * @p: a parser fed the whole text; the caller still frees it
 *
 * Sleeps.  When it returns 0, no lookup that starts afterwards returns a
 * decision of an older policy.
 *
 * Return: 0, -EINVAL for a bad line (logged), -ENOMEM, or the error the
 * parser met earlier.
 */
int avc_rcu_load_parsed(struct avc_policy_parser *p)
{
	u64 start = ktime_get_ns();
	struct avc_ss_loaded ld;

	return avc_rcu_loaded(avc_ss_load_parsed(&avc_rcu_ss, p, &ld), &ld,
			      start);
}

/**
 * avc_rcu_has_perm() - check permissions, through the cache
 * @ssid: source security identifier
 * @tsid: target security identifier
 * @tclass: target security class
 * @requested: permissions asked for
 * @avd: where to store the decision
 *
 * Never sleeps; callable from any context (on PREEMPT_RT, whose spinlocks
 * sleep: any context that may take a spinlock_t; see avc_rcu.h).  Counts
 * as one lookup in avc/cache_stats.  A source made permissive by the policy is granted what
 * it asks for, and @avd has %AVC_RCU_DECISION_PERMISSIVE set.
 *
 * Return: 0 if every requested permission is granted, -EACCES otherwise.
 */
int avc_rcu_has_perm(u32 ssid, u32 tsid, u16 tclass, u32 requested,
		     struct avc_rcu_decision *avd)
{
	return avc_cache_has_perm(avc_rcu_the_cache, ssid, tsid, tclass,
				  requested, avd);
}
EXPORT_SYMBOL_GPL(avc_rcu_has_perm);

/**
 * avc_rcu_flush() - drop every cached decision
 *
 * Never sleeps (on PREEMPT_RT: may block on the bucket locks, which are
 * sleeping locks there).  The policy and its seqno are unchanged; later
 * lookups miss and are answered by the policy.
 */
void avc_rcu_flush(void)
{
	avc_cache_flush(avc_rcu_the_cache);
}
EXPORT_SYMBOL_GPL(avc_rcu_flush);

/**
 * avc_rcu_compute_av() - compute a decision from the policy, bypassing the
 *	cache
 * @ssid: source security identifier
 * @tsid: target security identifier
 * @tclass: target security class
 * @avd: where to store the decision
 *
 * Never sleeps.  Neither reads nor fills the cache, nor counts in its
 * statistics: the reference a cached answer can be checked against.
 */
void avc_rcu_compute_av(u32 ssid, u32 tsid, u16 tclass,
			struct avc_rcu_decision *avd)
{
	avc_ss_compute(&avc_rcu_ss, ssid, tsid, tclass, avd);
}
EXPORT_SYMBOL_GPL(avc_rcu_compute_av);

/**
 * avc_rcu_policy_seqno() - sequence number of the policy in force
 *
 * Return: zero until the first load; each successful load adds one.
 */
u32 avc_rcu_policy_seqno(void)
{
	return avc_ss_seqno(&avc_rcu_ss);
}
EXPORT_SYMBOL_GPL(avc_rcu_policy_seqno);
