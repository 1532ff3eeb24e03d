// SPDX-License-Identifier: GPL-2.0
/*
 * Upstream SELinux's AVC as a sequential model (upstream_avc.h), for
 * replaying traces: security/selinux/avc.c of Linux 6.1 and 6.19, one
 * event at a time.  The functions keep avc.c's names and order, prefixed
 * up_, so that each can be read beside its original.
 *
 * What is modelled, as avc.c does it:
 *
 *  - the table: AVC_CACHE_SLOTS buckets (6.1: 512; 6.19: 1 <<
 *    CONFIG_SECURITY_SELINUX_AVC_HASH_BITS, 9 to 14), avc_cache_threshold
 *    (6.1: 512; 6.19: AVC_CACHE_SLOTS), AVC_CACHE_RECLAIM 16;
 *  - avc_hash(): 6.1's ssid ^ (tsid << 2) ^ (tclass << 4), 6.19's
 *    av_hash() (MurmurHash3), or avc_rcu's seeded jhash_3words() (given
 *    by the program, up_avc_jhash), masked to the table;
 *  - avc_lookup(): lookups counted, the bucket searched, a miss counted;
 *  - a miss: the decision computed (the policy's seqno) and avc_insert():
 *    avc_latest_notif_update() refusing a stale seqno, avc_alloc_node()
 *    counting the allocation and reserving a place with
 *    atomic_inc_return(&active_nodes), reclaiming when that exceeds the
 *    threshold, before the node is linked; then the node replaces one of
 *    the same key in its bucket or is linked at the bucket's head;
 *  - avc_reclaim_node(): up to AVC_CACHE_SLOTS buckets, each chosen by
 *    atomic_inc_return(&lru_hint) masked to the table (so the hint's
 *    first bucket is 1), each emptied from its head (the newest) until 16
 *    nodes are evicted in all;
 *  - avc_update_node(), for the trace's update records (avc_denied() in
 *    permissive mode grants what was denied): a node allocated first,
 *    with its reservation and possible reclaim, then the bucket searched
 *    for the key and seqno; found, the copy replaces the node where it
 *    stands (hlist_replace_rcu(): the bucket's order is unchanged, so
 *    the update does not move the node nearer to a reclaim); not found
 *    (the reclaim just evicted it), the copy is freed, -ENOENT;
 *  - avc_ss_reset() for the trace's resets (a policy load): avc_flush()
 *    deletes every node (frees, not reclaims), then
 *    avc_latest_notif_update() with the new policy's seqno; lru_hint is
 *    not reset;
 *  - avc/cache_stats' counters and avc/hash_stats' entries, buckets used
 *    and longest chain.
 *
 * A bucket is a singly linked list in hlist's order (a new node at its
 * head, a replacement where the old node stood), walked as the kernel's
 * hlist_for_each_entry_rcu() walks it.
 *
 * Not modelled: concurrency (one CPU replays: a trylock always succeeds,
 * no two CPUs miss the same key at once, every reservation is seen at
 * once), RCU (a node is freed as it is unlinked: the kernel counts frees
 * in an RCU callback, a grace period later), the extended permissions
 * (their nodes, and avc_has_extended_perms()'s updates, which the trace
 * does not record), auditing, callbacks, allocation failures.
 *
 * 6.19's avc.c differs from 6.1's, for all of this, in AVC_CACHE_SLOTS,
 * the default threshold and avc_hash() (upstream's three patches of
 * October 2025, "selinux: Introduce a new config to make avc cache slot
 * size adjustable" and "selinux: improve bucket distribution uniformity
 * of avc_hash()" among them); the reclaim still tries AVC_CACHE_SLOTS
 * buckets and masks the hint to the table.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include "upstream_avc.h"

#define UP_AVC_CACHE_RECLAIM	16	/* AVC_CACHE_RECLAIM */
#define UP_ARRAY_SIZE(a)	(sizeof(a) / sizeof((a)[0]))

/* struct avc_node: the key, the decision's seqno, the bucket's link. */
struct up_avc_node {
	uint32_t ssid;
	uint32_t tsid;
	uint16_t tclass;
	uint32_t seqno;
	struct up_avc_node *next;
};

uint32_t (*up_avc_jhash)(uint32_t a, uint32_t b, uint32_t c,
			 uint32_t initval);

/**
 * struct up_avc - struct selinux_avc, one CPU's view
 * @slots: AVC_CACHE_SLOTS bucket heads
 * @nslots: AVC_CACHE_SLOTS
 * @threshold: avc_cache_threshold
 * @hash: avc_hash()'s function
 * @seed: its seed (jhash only)
 * @lru_hint: the reclaim's hint (atomic_t)
 * @active_nodes: nodes reserved (atomic_t)
 * @latest_notif: the latest policy seqno a reset announced
 * @seqno: the policy's seqno, which security_compute_av() stamps on a
 *	decision; a reset is a policy load, so it moves it on
 * @st: the counters
 */
struct up_avc {
	struct up_avc_node **slots;
	unsigned int nslots;
	unsigned int threshold;
	enum up_avc_hash hash;
	uint32_t seed;
	uint32_t lru_hint;
	uint32_t active_nodes;
	uint32_t latest_notif;
	uint32_t seqno;
	struct up_avc_stats st;
};

static const char *const up_avc_hash_names[] = {
	[UP_AVC_HASH_LEGACY] = "legacy",
	[UP_AVC_HASH_MURMUR3] = "murmur3",
	[UP_AVC_HASH_JHASH] = "jhash",
};

/**
 * up_avc_hash_parse() - a hash by its name
 * @s: legacy, murmur3 or jhash
 * @hash: set to it
 *
 * Return: 0, or -EINVAL for another name.
 */
int up_avc_hash_parse(const char *s, enum up_avc_hash *hash)
{
	unsigned int i;

	for (i = 0; i < UP_ARRAY_SIZE(up_avc_hash_names); i++) {
		if (!strcmp(s, up_avc_hash_names[i])) {
			*hash = i;
			return 0;
		}
	}
	return -EINVAL;
}

/**
 * up_avc_hash_name() - a hash's name
 * @hash: the hash
 *
 * Return: its name, as up_avc_hash_parse() takes it.
 */
const char *up_avc_hash_name(enum up_avc_hash hash)
{
	return up_avc_hash_names[hash];
}

static uint32_t up_rol32(uint32_t word, unsigned int shift)
{
	return (word << shift) | (word >> (32 - shift));
}

/* One 32-bit block into MurmurHash3_x86_32's state. */
static uint32_t up_murmur3_block(uint32_t h, uint32_t k)
{
	k *= 0xcc9e2d51;
	k = up_rol32(k, 15);
	k *= 0x1b873593;
	h ^= k;
	h = up_rol32(h, 13);
	return h * 5 + 0xe6546b64;
}

/* MurmurHash3's 32-bit finalizer (fmix32). */
static uint32_t up_murmur3_fmix(uint32_t h)
{
	h ^= h >> 16;
	h *= 0x85ebca6b;
	h ^= h >> 13;
	h *= 0xc2b2ae35;
	h ^= h >> 16;
	return h;
}

/**
 * up_avc_hash() - avc_hash(): a key's bucket
 * @hash: which function
 * @seed: jhash's seed (the others have none)
 * @ssid: source SID
 * @tsid: target SID
 * @tclass: target class
 * @mask: AVC_CACHE_SLOTS - 1
 *
 * legacy is 6.1's.  murmur3 is 6.19's av_hash(ssid, tsid, tclass, mask)
 * (security/selinux/include/hash.h, shared with the avtab since 6.19):
 * MurmurHash3_x86_32's body over the three words as three blocks, seed
 * 0, then its finalizer, without the length MurmurHash3 folds in before
 * it.  jhash is avc_rcu's avc_hash() (avc/node.h), through up_avc_jhash,
 * which must be set for it.
 *
 * Return: the bucket, at most @mask.
 */
uint32_t up_avc_hash(enum up_avc_hash hash, uint32_t seed, uint32_t ssid,
		     uint32_t tsid, uint16_t tclass, uint32_t mask)
{
	uint32_t h;

	switch (hash) {
	case UP_AVC_HASH_LEGACY:
		return (ssid ^ (tsid << 2) ^ (tclass << 4)) & mask;
	case UP_AVC_HASH_MURMUR3:
		h = up_murmur3_block(0, ssid);
		h = up_murmur3_block(h, tsid);
		h = up_murmur3_block(h, tclass);
		return up_murmur3_fmix(h) & mask;
	default:
		return up_avc_jhash(ssid, tsid, tclass, seed) & mask;
	}
}

/*
 * av_hash() of a few keys, unmasked: MurmurHash3_x86_32 (the reference
 * implementation) of each key's three words as 12 little-endian bytes,
 * seed 0, with the length's fold undone (its finalizer is invertible).
 */
static const struct {
	uint32_t ssid, tsid;
	uint16_t tclass;
	uint32_t hash;
} up_murmur3_vectors[] = {
	{ 1, 1, 5, 1713088692 },
	{ 276, 312, 7, 2260260200 },
	{ 0, 0, 0, 4235135213 },
	{ 0xffffffff, 0xffffffff, 0xffff, 4235449918 },
};

/**
 * up_avc_hash_selftest() - av_hash() against the reference's values
 *
 * Return: 0, or -EINVAL if a key hashes otherwise.
 */
int up_avc_hash_selftest(void)
{
	unsigned int i;

	for (i = 0; i < UP_ARRAY_SIZE(up_murmur3_vectors); i++)
		if (up_avc_hash(UP_AVC_HASH_MURMUR3, 0,
				up_murmur3_vectors[i].ssid,
				up_murmur3_vectors[i].tsid,
				up_murmur3_vectors[i].tclass, 0xffffffff) !=
		    up_murmur3_vectors[i].hash)
			return -EINVAL;
	return 0;
}

static unsigned int up_hash(struct up_avc *c, uint32_t ssid, uint32_t tsid,
			    uint16_t tclass)
{
	return up_avc_hash(c->hash, c->seed, ssid, tsid, tclass,
			   c->nslots - 1);
}

/*
 * avc_node_delete(), avc_node_kill() and avc_node_free() in one: the
 * node *@link points to, unlinked and freed.
 */
static void up_node_delete(struct up_avc *c, struct up_avc_node **link)
{
	struct up_avc_node *node = *link;

	*link = node->next;
	free(node);
	c->st.frees++;
	c->active_nodes--;
}

static void up_reclaim_node(struct up_avc *c)
{
	unsigned int hvalue, try, ecx;

	for (try = 0, ecx = 0; try < c->nslots; try++) {
		hvalue = ++c->lru_hint & (c->nslots - 1);
		/* From the head (the newest), as the kernel's walk goes. */
		while (c->slots[hvalue]) {
			up_node_delete(c, &c->slots[hvalue]);
			c->st.reclaims++;
			if (++ecx >= UP_AVC_CACHE_RECLAIM)
				return;
		}
	}
}

/* Counted and reserved, unlinked: the caller links or frees it. */
static struct up_avc_node *up_alloc_node(struct up_avc *c)
{
	struct up_avc_node *node = calloc(1, sizeof(*node));

	if (!node)
		abort();
	c->st.allocations++;
	if (++c->active_nodes > c->threshold)
		up_reclaim_node(c);
	return node;
}

/* The link to the node of the key in bucket @h, or NULL. */
static struct up_avc_node **up_search_node(struct up_avc *c, unsigned int h,
					   uint32_t ssid, uint32_t tsid,
					   uint16_t tclass)
{
	struct up_avc_node **link;

	for (link = &c->slots[h]; *link; link = &(*link)->next)
		if ((*link)->ssid == ssid && (*link)->tclass == tclass &&
		    (*link)->tsid == tsid)
			return link;
	return NULL;
}

/* hlist_replace_rcu(): @node where the node *@link points to stood. */
static void up_replace(struct up_avc_node **link, struct up_avc_node *node)
{
	struct up_avc_node *old = *link;

	node->next = old->next;
	*link = node;
	free(old);
}

static void up_insert(struct up_avc *c, uint32_t ssid, uint32_t tsid,
		      uint16_t tclass, uint32_t seqno)
{
	struct up_avc_node **pos, *node;
	unsigned int h;

	if (seqno < c->latest_notif) {	/* avc_latest_notif_update(, 1) */
		c->st.stale++;
		return;
	}
	node = up_alloc_node(c);
	node->ssid = ssid;
	node->tsid = tsid;
	node->tclass = tclass;
	node->seqno = seqno;
	h = up_hash(c, ssid, tsid, tclass);
	pos = up_search_node(c, h, ssid, tsid, tclass);
	if (pos) {			/* avc_node_replace() */
		up_replace(pos, node);
		c->st.frees++;
		c->active_nodes--;
		return;
	}
	node->next = c->slots[h];	/* hlist_add_head_rcu() */
	c->slots[h] = node;
}

/**
 * up_avc_lookup() - avc_has_perm_noaudit()'s use of the cache
 * @c: the cache
 * @ssid: source SID
 * @tsid: target SID
 * @tclass: target class
 *
 * avc_lookup(), and on a miss avc_compute_av()'s avc_insert() of a
 * decision of the current policy.
 *
 * Return: true on a hit.
 */
bool up_avc_lookup(struct up_avc *c, uint32_t ssid, uint32_t tsid,
		   uint16_t tclass)
{
	c->st.lookups++;
	if (up_search_node(c, up_hash(c, ssid, tsid, tclass), ssid, tsid,
			   tclass))
		return true;
	c->st.misses++;
	if (!c->st.resets)
		c->st.misses_first++;
	up_insert(c, ssid, tsid, tclass, c->seqno);
	return false;
}

/**
 * up_avc_update() - avc_update_node() of one key's current decision
 * @c: the cache
 * @ssid: source SID
 * @tsid: target SID
 * @tclass: target class
 *
 * As avc_denied() calls it in permissive mode: the decision's seqno is
 * the current policy's.  The new node takes the old one's place.
 */
void up_avc_update(struct up_avc *c, uint32_t ssid, uint32_t tsid,
		   uint16_t tclass)
{
	struct up_avc_node *node, **orig;

	c->st.updates++;
	node = up_alloc_node(c);
	orig = up_search_node(c, up_hash(c, ssid, tsid, tclass), ssid, tsid,
			      tclass);
	if (!orig || (*orig)->seqno != c->seqno) {
		free(node);		/* avc_node_kill() */
		c->st.frees++;
		c->active_nodes--;
		c->st.updates_lost++;
		return;
	}
	*node = **orig;
	up_replace(orig, node);
	c->st.frees++;
	c->active_nodes--;
}

/**
 * up_avc_reset() - a policy load's avc_ss_reset()
 * @c: the cache
 *
 * The new policy's seqno, avc_flush(), then avc_latest_notif_update().
 */
void up_avc_reset(struct up_avc *c)
{
	unsigned int i;

	c->st.resets++;
	c->seqno++;
	for (i = 0; i < c->nslots; i++)
		while (c->slots[i])
			up_node_delete(c, &c->slots[i]);
	if (c->seqno > c->latest_notif)
		c->latest_notif = c->seqno;
}

/**
 * up_avc_stats() - the counters, and avc/hash_stats now
 * @c: the cache
 * @st: filled in
 */
void up_avc_stats(struct up_avc *c, struct up_avc_stats *st)
{
	struct up_avc_node *node;
	unsigned int i, len;

	*st = c->st;
	st->entries = c->active_nodes;
	st->buckets_used = 0;
	st->longest_chain = 0;
	for (i = 0; i < c->nslots; i++) {
		len = 0;
		for (node = c->slots[i]; node; node = node->next)
			len++;
		if (len)
			st->buckets_used++;
		if (len > st->longest_chain)
			st->longest_chain = len;
	}
}

/**
 * up_avc_create() - an empty cache, as selinux_avc_init() leaves it
 * @slots: AVC_CACHE_SLOTS, a power of two
 * @threshold: avc_cache_threshold
 * @hash: avc_hash()'s function
 * @seed: jhash's seed
 *
 * Return: the cache, or NULL without memory or without up_avc_jhash for
 * UP_AVC_HASH_JHASH.
 */
struct up_avc *up_avc_create(unsigned int slots, unsigned int threshold,
			     enum up_avc_hash hash, uint32_t seed)
{
	struct up_avc *c;

	if (hash == UP_AVC_HASH_JHASH && !up_avc_jhash)
		return NULL;
	c = calloc(1, sizeof(*c));
	if (!c)
		return NULL;
	c->slots = calloc(slots, sizeof(*c->slots));
	if (!c->slots) {
		free(c);
		return NULL;
	}
	c->nslots = slots;
	c->threshold = threshold;
	c->hash = hash;
	c->seed = seed;
	return c;
}

/**
 * up_avc_destroy() - free a cache and its nodes
 * @c: the cache
 */
void up_avc_destroy(struct up_avc *c)
{
	struct up_avc_node *node, *next;
	unsigned int i;

	for (i = 0; i < c->nslots; i++)
		for (node = c->slots[i]; node; node = next) {
			next = node->next;
			free(node);
		}
	free(c->slots);
	free(c);
}
