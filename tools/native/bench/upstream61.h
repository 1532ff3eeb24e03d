/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Upstream Linux 6.1's AVC (security/selinux/avc.c: avc_lookup(),
 * avc_insert(), avc_alloc_node(), avc_reclaim_node(), avc_update_node(),
 * avc_flush(), avc_ss_reset(), avc_latest_notif_update() and the
 * avc_cache_stats counters), rewritten on the native shim for
 * avc_native_latency to time beside avc_rcu's: the same security server
 * answers both, so what differs is only how a miss is cached.  The native
 * replay plays traces through it (--model up61) and make check holds its
 * counts to the sequential model's (tools/avcstat/upstream_avc.c, stock,
 * legacy hash, 512 slots), so what is timed is what is counted.  Faithful in
 * what costs time: a place taken with atomic_inc_return() and a reclaim
 * when it goes over the threshold, the node linked whatever the reclaim
 * found; the reclaim trying up to 512 buckets (AVC_CACHE_SLOTS), each
 * chosen by an atomic_inc_return() of the shared hint and trylocked even
 * when empty, evicting from the head of each (the newest) until 16
 * (AVC_CACHE_RECLAIM); a global spinlock taken by every insert to check
 * the policy seqno; call_rcu() per evicted node.  Not modelled: the
 * extended-permission nodes, auditing, the notifier callbacks; a free is
 * counted when its node is unlinked, not in the RCU callback.  6.1's
 * table has 512 slots; with more, the hash and the hint are masked to the
 * table's size (as 6.19 does with CONFIG_SECURITY_SELINUX_AVC_HASH_BITS)
 * and the reclaim still tries 512 buckets, as 6.1 does.
 */
#ifndef AVC_NATIVE_UPSTREAM61_H
#define AVC_NATIVE_UPSTREAM61_H

#include <linux/types.h>
#include <avc_rcu/avc_rcu.h>

struct avc_ss;
struct up61_cache;

/**
 * struct up61_stats - avc/cache_stats' counters (6.1's avc_cache_stats)
 * @lookups: avc_lookup() calls
 * @misses: of which found nothing
 * @allocations: nodes allocated, by inserts and updates
 * @reclaims: nodes evicted by avc_reclaim_node()
 * @frees: nodes unlinked or killed
 * @stale: inserts refused by avc_latest_notif_update() (not 6.1's
 *	counter: it logs them)
 */
struct up61_stats {
	u32 lookups, misses, allocations, reclaims, frees, stale;
};

struct up61_cache *up61_create(struct avc_ss *ss, unsigned int nslots,
			       unsigned int threshold);
void up61_destroy(struct up61_cache *c);
/* Returns 0 or -EACCES; *reclaimed is set if the lookup reclaimed. */
int up61_has_perm(struct up61_cache *c, u32 ssid, u32 tsid, u16 tclass,
		  u32 requested, struct avc_rcu_decision *avd,
		  bool *reclaimed);
/* Returns 0, -ENOENT (no node of the key at @seqno) or -ENOMEM. */
int up61_update(struct up61_cache *c, u32 ssid, u32 tsid, u16 tclass,
		u32 perms, u32 seqno);
void up61_ss_reset(struct up61_cache *c, u32 seqno);
void up61_stats(struct up61_cache *c, struct up61_stats *st);
void up61_hash_stats(struct up61_cache *c, unsigned int *entries,
		     unsigned int *buckets_used, unsigned int *longest_chain);
unsigned int up61_active(struct up61_cache *c);
unsigned int up61_max_tried(struct up61_cache *c);
unsigned int up61_keys(struct up61_cache *c, u32 *keys, unsigned int max);
/* If set, called after each reclaim: its time, buckets tried, evicted. */
extern void (*up61_reclaim_probe)(u64 duration_ns, unsigned int tried,
				  unsigned int evicted);

#endif /* AVC_NATIVE_UPSTREAM61_H */
