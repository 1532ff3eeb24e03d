/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Upstream SELinux's AVC (security/selinux/avc.c) as a sequential model,
 * for avc_native_replay to replay traces through: what Linux 6.1 and 6.19
 * cache, evict and count, one event at a time.  upstream_avc.c says what
 * is modelled and what is not.
 */
#ifndef AVC_NATIVE_UPSTREAM_AVC_H
#define AVC_NATIVE_UPSTREAM_AVC_H

#include <linux/types.h>

/* AVC_CACHE_SLOTS: 6.1's fixed 512, 6.19's 1 << 9..14 (Kconfig). */
#define UP_AVC_SLOTS_MIN	512
#define UP_AVC_SLOTS_MAX	16384

/**
 * enum up_avc_hash - the bucket function
 * @UP_AVC_HASH_LEGACY: 6.1's avc_hash(), ssid ^ (tsid << 2) ^ (tclass << 4)
 * @UP_AVC_HASH_MURMUR3: 6.19's av_hash(), MurmurHash3's mix of the three
 * @UP_AVC_HASH_JHASH: avc_rcu's, jhash_3words() of the three with a seed
 */
enum up_avc_hash {
	UP_AVC_HASH_LEGACY,
	UP_AVC_HASH_MURMUR3,
	UP_AVC_HASH_JHASH,
};

/**
 * struct up_avc_stats - what the model counted
 * @lookups: avc_lookup() calls (avc/cache_stats' lookups)
 * @misses: of which found nothing (misses; hits = lookups - misses)
 * @misses_first: of which before the first reset (all, without one)
 * @allocations: nodes allocated, by inserts and updates (allocations)
 * @reclaims: nodes evicted by avc_reclaim_node() (reclaims)
 * @frees: nodes freed: evicted, flushed, replaced or dropped (frees;
 *	the kernel counts these in an RCU callback, so later)
 * @resets: avc_ss_reset() calls
 * @updates: avc_update_node() calls
 * @updates_lost: of which found no node to update (-ENOENT)
 * @stale: inserts refused by avc_latest_notif_update()
 * @entries: active_nodes at the end (avc/hash_stats' entries)
 * @buckets_used: non-empty buckets at the end (buckets used)
 * @longest_chain: the longest bucket at the end (longest chain)
 */
struct up_avc_stats {
	u32 lookups, misses, misses_first, allocations, reclaims, frees;
	u32 resets, updates, updates_lost, stale;
	u32 entries, buckets_used, longest_chain;
};

struct up_avc;

int up_avc_hash_parse(const char *s, enum up_avc_hash *hash);
const char *up_avc_hash_name(enum up_avc_hash hash);
u32 up_avc_hash(enum up_avc_hash hash, u32 seed, u32 ssid, u32 tsid,
		u16 tclass, u32 mask);
int up_avc_hash_selftest(void);

struct up_avc *up_avc_create(unsigned int slots, unsigned int threshold,
			     enum up_avc_hash hash, u32 seed);
void up_avc_destroy(struct up_avc *c);
bool up_avc_lookup(struct up_avc *c, u32 ssid, u32 tsid, u16 tclass);
void up_avc_update(struct up_avc *c, u32 ssid, u32 tsid, u16 tclass);
void up_avc_reset(struct up_avc *c);
void up_avc_stats(struct up_avc *c, struct up_avc_stats *st);

#endif /* AVC_NATIVE_UPSTREAM_AVC_H */
