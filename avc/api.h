/* SPDX-License-Identifier: GPL-2.0 */
/*
 * avc_rcu: the module's one cache in front of its one policy, as SELinux
 * has one, for the presentation layer (selinuxfs/); api.c exports the
 * in-kernel API (include/avc_rcu/avc_rcu.h) on top of them.
 */
#ifndef _AVC_RCU_API_H
#define _AVC_RCU_API_H

#include "avc.h"

/**
 * struct avc_rcu_config - how the module's cache is built, at load time
 * @slots: hash buckets, a power of two, or 0 for a table that follows
 *	cache_threshold
 * @threshold: the initial cache_threshold, or 0 for the default
 * @sync: how lookups and updates are serialised
 * @reclaim: which entries a reclaim evicts
 * @reclaimer: where reclaim runs
 * @hash_seed: the hash seed, or 0 for a random one
 * @seqno_start: the seqno of the empty policy the module starts with, 0
 *	but in tests of the seqno's wrap-around
 */
struct avc_rcu_config {
	unsigned int slots;
	unsigned int threshold;
	enum avc_sync sync;
	enum avc_reclaim_policy reclaim;
	enum avc_reclaimer reclaimer;
	u32 hash_seed;
	u32 seqno_start;
};

int avc_rcu_setup_cache(const struct avc_rcu_config *cfg);
void avc_rcu_teardown_cache(void);
struct avc_cache *avc_rcu_cache(void);
int avc_rcu_load_parsed(struct avc_policy_parser *p);

#endif /* _AVC_RCU_API_H */
