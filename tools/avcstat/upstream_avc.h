/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Upstream SELinux's AVC (security/selinux/avc.c) as a sequential model:
 * what Linux 6.1 and 6.19 cache, evict and count, one event at a time.
 * avc-curve (avc-advise's miss curves) and the native replay
 * (tools/native/replay) replay traces through it; upstream_avc.c says
 * what is modelled and what is not.  Plain C and libc: no kernel header.
 * The reclaim series of tools/upstream/series/ and its variants are
 * modelled too (enum up_avc_kernel), for tools/upstream's upstream_model.
 */
#ifndef UPSTREAM_AVC_H
#define UPSTREAM_AVC_H

#include <stdbool.h>
#include <stdint.h>

/* AVC_CACHE_SLOTS: 6.1's fixed 512, 6.19's 1 << 9..14 (Kconfig). */
#define UP_AVC_SLOTS_MIN	512
#define UP_AVC_SLOTS_MAX	16384

/**
 * enum up_avc_hash - the bucket function
 * @UP_AVC_HASH_LEGACY: 6.1's avc_hash(), ssid ^ (tsid << 2) ^ (tclass << 4)
 * @UP_AVC_HASH_MURMUR3: 6.19's av_hash(), MurmurHash3's mix of the three
 * @UP_AVC_HASH_JHASH: avc_rcu's, jhash_3words() of the three with a seed,
 *	through up_avc_jhash (the model has no jhash of its own)
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
	uint32_t lookups, misses, misses_first, allocations, reclaims, frees;
	uint32_t resets, updates, updates_lost, stale;
	uint32_t entries, buckets_used, longest_chain;
};

/**
 * enum up_avc_kernel - whose reclaim, update and insert
 * @UP_AVC_STOCK: upstream's, 6.1 to 7.3 (all that avc-curve and the
 *	native replay use)
 * @UP_AVC_PATCHED: the series (tools/upstream/series/): a hit sets the
 *	node's referenced bit; an update neither reserves nor reclaims;
 *	reclaim reads an empty bucket's head without its lock and examines
 *	at most 64 nodes, the first 48 with a second chance; a replacing
 *	insert keeps the bit
 * @UP_AVC_V1: the 6.12 series' third patch: per bucket its unreferenced
 *	nodes oldest first, then the same buckets again by age, unbounded
 * @UP_AVC_SETREF: @UP_AVC_PATCHED with every new node born referenced
 * @UP_AVC_MODULE: avc_rcu's own cache as the native replay's lru runs
 *	it: reclaim=lru, inline, on a pinned table, buckets oldest
 *	first and at most 32 long
 */
enum up_avc_kernel {
	UP_AVC_STOCK,
	UP_AVC_PATCHED,
	UP_AVC_V1,
	UP_AVC_SETREF,
	UP_AVC_MODULE,
};

/**
 * struct up_avc_work - what the reclaims did (one avc_reclaim_node() call
 *	each, whether it evicted anything or not)
 * @reclaims: the calls
 * @examined: nodes examined, over all calls
 * @heads: bucket heads read, over all calls
 * @locks: bucket locks taken, over all calls
 * @examined_max: the most nodes one call examined
 * @heads_max: the most bucket heads one call read
 * @locks_max: the most bucket locks one call took
 */
struct up_avc_work {
	uint64_t reclaims, examined, heads, locks;
	uint32_t examined_max, heads_max, locks_max;
};

struct up_avc;

/*
 * UP_AVC_HASH_JHASH's function, jhash_3words(a, b, c, initval): set by a
 * program that has the kernel's jhash (the native replay); NULL, that
 * hash is refused (up_avc_create() returns NULL).
 */
extern uint32_t (*up_avc_jhash)(uint32_t a, uint32_t b, uint32_t c,
				uint32_t initval);

int up_avc_hash_parse(const char *s, enum up_avc_hash *hash);
const char *up_avc_hash_name(enum up_avc_hash hash);
uint32_t up_avc_hash(enum up_avc_hash hash, uint32_t seed, uint32_t ssid,
		     uint32_t tsid, uint16_t tclass, uint32_t mask);
int up_avc_hash_selftest(void);

struct up_avc *up_avc_create(unsigned int slots, unsigned int threshold,
			     enum up_avc_hash hash, uint32_t seed);
struct up_avc *up_avc_create_kernel(unsigned int slots,
				    unsigned int threshold,
				    enum up_avc_hash hash, uint32_t seed,
				    enum up_avc_kernel kernel);
int up_avc_kernel_parse(const char *s, enum up_avc_kernel *kernel);
const char *up_avc_kernel_name(enum up_avc_kernel kernel);
void up_avc_destroy(struct up_avc *c);
bool up_avc_lookup(struct up_avc *c, uint32_t ssid, uint32_t tsid,
		   uint16_t tclass);
void up_avc_update(struct up_avc *c, uint32_t ssid, uint32_t tsid,
		   uint16_t tclass);
void up_avc_reset(struct up_avc *c);
void up_avc_stats(struct up_avc *c, struct up_avc_stats *st);
void up_avc_work(struct up_avc *c, struct up_avc_work *w);

#endif /* UPSTREAM_AVC_H */
