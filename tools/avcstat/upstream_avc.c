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
 *
 * All of that is UP_AVC_STOCK, which avc-curve and the native replay use.
 * For tools/upstream (make upstream: the reclaim series of
 * tools/upstream/series/ against 7.x's stock AVC), up_avc_create_kernel()
 * also gives:
 *
 *  - UP_AVC_PATCHED, the series: a hit sets the node's referenced bit;
 *    avc_update_node() allocates its copy (counted) without reserving a
 *    place or reclaiming, and the copy keeps the bit; avc_reclaim_node()
 *    reads an empty bucket's head without its lock and examines at most
 *    64 nodes (UP_AVC_BUDGET) from the heads of the buckets it tries: the
 *    first 48 (UP_AVC_CLOCK_BUDGET) with a second chance (an unreferenced
 *    node goes, a referenced one loses its bit), the rest by position as
 *    stock's, until 16 are evicted or AVC_CACHE_SLOTS heads were read;
 *    an insert that replaces a node keeps its bit;
 *  - UP_AVC_V1, the 6.12 series' third patch: each bucket tried gives up
 *    its unreferenced nodes oldest first (a walk to count them, a walk to
 *    evict, clearing the bits the hand passes once it is moving), then,
 *    if 16 were not evicted, the same buckets again by age; unbounded;
 *  - UP_AVC_SETREF: UP_AVC_PATCHED, with every new node born referenced;
 *  - UP_AVC_MODULE: avc_rcu's own cache as the native replay's lru runs it
 *    (reclaim=lru, reclaimer=inline, a pinned table): a bucket is kept
 *    oldest first and at most 32 long (a full one gives up its oldest
 *    unreferenced node, else its oldest); a miss past the threshold runs
 *    one reclaim section (a CLOCK pass over at most 512 buckets and 48
 *    nodes examined, then by age from the same start within 64), and is
 *    not cached if the cache is still past its threshold; an update does
 *    nothing.
 *
 * and, for every kernel, the work of each reclaim (up_avc_work()): the
 * nodes examined, the bucket heads read, the bucket locks taken.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include "upstream_avc.h"

#define UP_AVC_CACHE_RECLAIM	16	/* AVC_CACHE_RECLAIM */
/*
 * The series' bounds on one reclaim: nodes examined, and of them with the
 * second chance.
 */
#define UP_AVC_BUDGET		(4 * UP_AVC_CACHE_RECLAIM)
#define UP_AVC_CLOCK_BUDGET	(3 * UP_AVC_CACHE_RECLAIM)
/*
 * avc_rcu's (avc/avc.h): AVC_RECLAIM_CHUNK, AVC_NODE_BUDGET,
 * AVC_CLOCK_BUDGET, AVC_RECLAIM_BUCKETS, AVC_CHAIN_MAX.
 */
#define UP_MODULE_CHUNK		16
#define UP_MODULE_BUDGET	64
#define UP_MODULE_CLOCK		(UP_MODULE_BUDGET - UP_MODULE_CHUNK)
#define UP_MODULE_BUCKETS	512
#define UP_MODULE_CHAIN_MAX	32
#define UP_ARRAY_SIZE(a)	(sizeof(a) / sizeof((a)[0]))

/*
 * struct avc_node: the key, the decision's seqno, the series' referenced
 * bit (set by a hit whatever the kernel: only the series reads it), the
 * bucket's link.
 */
struct up_avc_node {
	uint32_t ssid;
	uint32_t tsid;
	uint16_t tclass;
	bool referenced;
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
 * @kernel: whose reclaim, update and insert
 * @lru_hint: the reclaim's hint (atomic_t)
 * @active_nodes: nodes reserved (atomic_t)
 * @latest_notif: the latest policy seqno a reset announced
 * @seqno: the policy's seqno, which security_compute_av() stamps on a
 *	decision; a reset is a policy load, so it moves it on
 * @st: the counters
 * @work: the reclaims' work
 */
struct up_avc {
	struct up_avc_node **slots;
	unsigned int nslots;
	unsigned int threshold;
	enum up_avc_hash hash;
	uint32_t seed;
	enum up_avc_kernel kernel;
	uint32_t lru_hint;
	uint32_t active_nodes;
	uint32_t latest_notif;
	uint32_t seqno;
	struct up_avc_stats st;
	struct up_avc_work work;
};

/* The index of @s in @names (@n of them), or -EINVAL. */
static int up_name_index(const char *const *names, unsigned int n,
			 const char *s)
{
	unsigned int i;

	for (i = 0; i < n; i++)
		if (!strcmp(s, names[i]))
			return i;
	return -EINVAL;
}

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
	int i = up_name_index(up_avc_hash_names,
			      UP_ARRAY_SIZE(up_avc_hash_names), s);

	if (i < 0)
		return i;
	*hash = i;
	return 0;
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

static const char *const up_avc_kernel_names[] = {
	[UP_AVC_STOCK] = "stock",
	[UP_AVC_PATCHED] = "patched",
	[UP_AVC_V1] = "v1",
	[UP_AVC_SETREF] = "setref",
	[UP_AVC_MODULE] = "module",
};

/**
 * up_avc_kernel_parse() - a kernel by its name
 * @s: stock, patched, v1, setref or module (upstream_model's --kernel)
 * @kernel: set to it
 *
 * Return: 0, or -EINVAL for another name.
 */
int up_avc_kernel_parse(const char *s, enum up_avc_kernel *kernel)
{
	int i = up_name_index(up_avc_kernel_names,
			      UP_ARRAY_SIZE(up_avc_kernel_names), s);

	if (i < 0)
		return i;
	*kernel = i;
	return 0;
}

/**
 * up_avc_kernel_name() - a kernel's name
 * @kernel: the kernel
 *
 * Return: its name, as up_avc_kernel_parse() takes it.
 */
const char *up_avc_kernel_name(enum up_avc_kernel kernel)
{
	return up_avc_kernel_names[kernel];
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

/* A node the reclaim chose, *@link pointing to it: gone, counted. */
static void up_evict(struct up_avc *c, struct up_avc_node **link)
{
	up_node_delete(c, link);
	c->st.reclaims++;
}

/* One reclaim's work, into the sums and maxima. */
static void up_work_add(struct up_avc *c, unsigned int examined,
			unsigned int heads, unsigned int locks)
{
	struct up_avc_work *w = &c->work;

	w->reclaims++;
	w->examined += examined;
	w->heads += heads;
	w->locks += locks;
	if (examined > w->examined_max)
		w->examined_max = examined;
	if (heads > w->heads_max)
		w->heads_max = heads;
	if (locks > w->locks_max)
		w->locks_max = locks;
}

/* Stock: every bucket tried is locked, every node examined goes. */
static void up_reclaim_stock(struct up_avc *c)
{
	unsigned int hvalue, try, ecx = 0, heads = 0;

	for (try = 0; try < c->nslots; try++) {
		hvalue = ++c->lru_hint & (c->nslots - 1);
		heads++;
		/* From the head (the newest), as the kernel's walk goes. */
		while (c->slots[hvalue]) {
			up_evict(c, &c->slots[hvalue]);
			if (++ecx >= UP_AVC_CACHE_RECLAIM)
				goto out;
		}
	}
out:
	up_work_add(c, ecx, heads, heads);
}

/*
 * The series: at most UP_AVC_BUDGET nodes examined, the first
 * UP_AVC_CLOCK_BUDGET with the second chance, from each bucket's head;
 * an empty head is read without the lock; at most AVC_CACHE_SLOTS heads.
 */
static void up_reclaim_budget(struct up_avc *c)
{
	unsigned int budget = UP_AVC_BUDGET, try, ecx = 0;
	unsigned int heads = 0, locks = 0, examined = 0;
	struct up_avc_node **link;
	bool clock = true;

	for (try = 0; try < c->nslots; try++) {
		if (ecx >= UP_AVC_CACHE_RECLAIM || !budget)
			break;
		if (clock && UP_AVC_BUDGET - budget >= UP_AVC_CLOCK_BUDGET)
			clock = false;
		link = &c->slots[++c->lru_hint & (c->nslots - 1)];
		heads++;
		if (!*link)
			continue;
		locks++;
		while (*link) {
			/* The first pass's share spent: the rest by position. */
			if (clock && UP_AVC_BUDGET - budget >= UP_AVC_CLOCK_BUDGET)
				clock = false;
			if (!budget)
				break;
			budget--;
			examined++;
			if (clock && (*link)->referenced) {
				(*link)->referenced = false;
				link = &(*link)->next;
				continue;
			}
			up_evict(c, link);
			if (++ecx == UP_AVC_CACHE_RECLAIM)
				break;
		}
	}
	up_work_add(c, examined, heads, locks);
}

/*
 * v1's one bucket: up to @want of its cold nodes (unreferenced, or any
 * node @by_age), the oldest; a walk to count them, a walk to evict, the
 * bits of the referenced nodes after the first eviction cleared (the hand
 * is moving).  Adds the nodes it examined to *@examined.
 */
static unsigned int up_bucket_v1(struct up_avc *c, struct up_avc_node **head,
				 unsigned int want, bool by_age,
				 unsigned int *examined)
{
	unsigned int cold = 0, keep, ecx = 0;
	struct up_avc_node **link, *node;
	bool hand;

	for (node = *head; node; node = node->next) {
		(*examined)++;
		if (by_age || !node->referenced)
			cold++;
	}
	keep = cold > want ? cold - want : 0;
	hand = !keep;
	link = head;
	while (*link) {
		node = *link;
		(*examined)++;
		if (!by_age && node->referenced) {
			if (hand)
				node->referenced = false;
		} else if (keep) {
			keep--;
		} else {
			hand = true;
			up_evict(c, link);
			ecx++;
			continue;
		}
		link = &node->next;
	}
	return ecx;
}

/* v1: the buckets tried, by the bit; then the same buckets by age. */
static void up_reclaim_v1(struct up_avc *c)
{
	unsigned int mask = c->nslots - 1, ecx = 0, tries = 0, examined = 0;
	unsigned int locks = 0, heads, start = 0, h, i;

	while (tries < c->nslots && ecx < UP_AVC_CACHE_RECLAIM) {
		h = ++c->lru_hint & mask;
		if (!tries)
			start = h;
		tries++;
		if (c->slots[h]) {
			locks++;
			ecx += up_bucket_v1(c, &c->slots[h],
					    UP_AVC_CACHE_RECLAIM - ecx, false,
					    &examined);
		}
	}
	heads = tries;
	if (ecx < UP_AVC_CACHE_RECLAIM) {
		h = start;
		for (i = 0; i < tries; i++) {
			if (ecx >= UP_AVC_CACHE_RECLAIM)
				break;
			h = (start + i) & mask;
			heads++;
			if (c->slots[h]) {
				locks++;
				ecx += up_bucket_v1(c, &c->slots[h],
						    UP_AVC_CACHE_RECLAIM - ecx,
						    true, &examined);
			}
		}
		c->lru_hint = h;
	}
	up_work_add(c, examined, heads, locks);
}

/**
 * struct up_section - one reclaim section of the module's
 * @examined: nodes examined
 * @evicted: nodes evicted
 * @heads: buckets entered
 */
struct up_section {
	unsigned int examined, evicted, heads;
};

/*
 * avc_reclaim_pass(): from the bucket after @start, at most @span
 * buckets, each from its head (its oldest), until the section has
 * evicted UP_MODULE_CHUNK or examined @budget; @clock, a referenced node
 * loses its bit instead.  Return: the buckets entered; *@last, the last.
 */
static unsigned int up_module_pass(struct up_avc *c, struct up_section *sec,
				   unsigned int start, unsigned int span,
				   bool clock, unsigned int budget,
				   unsigned int *last)
{
	unsigned int i = start, n;
	struct up_avc_node **link;

	for (n = 0; n < span; n++) {
		if (sec->evicted == UP_MODULE_CHUNK || sec->examined >= budget)
			break;
		i = (i + 1) & (c->nslots - 1);
		sec->heads++;
		link = &c->slots[i];
		while (*link) {
			if (sec->evicted == UP_MODULE_CHUNK ||
			    sec->examined == budget)
				break;
			sec->examined++;
			if (clock && (*link)->referenced) {
				(*link)->referenced = false;
				link = &(*link)->next;
			} else {
				up_evict(c, link);
				sec->evicted++;
			}
		}
	}
	*last = i;
	return n;
}

/* avc_reclaim_sweep(), lru: a CLOCK pass, then by age from its start. */
static void up_reclaim_module(struct up_avc *c)
{
	unsigned int start = c->lru_hint & (c->nslots - 1), span, passed;
	unsigned int stop, ignored;
	struct up_section sec = { 0 };

	span = c->nslots < UP_MODULE_BUCKETS ? c->nslots : UP_MODULE_BUCKETS;
	passed = up_module_pass(c, &sec, start, span, true, UP_MODULE_CLOCK,
				&stop);
	if (sec.evicted < UP_MODULE_CHUNK)
		up_module_pass(c, &sec, start, passed, false, UP_MODULE_BUDGET,
			       &ignored);
	c->lru_hint = stop;
	/* The module's buckets have no lock of their own to count. */
	up_work_add(c, sec.examined, sec.heads, sec.heads);
}

/* avc_reclaim_node(), the kernel's. */
static void up_reclaim_node(struct up_avc *c)
{
	switch (c->kernel) {
	case UP_AVC_STOCK:
		up_reclaim_stock(c);
		break;
	case UP_AVC_PATCHED:
	case UP_AVC_SETREF:
		up_reclaim_budget(c);
		break;
	case UP_AVC_V1:
		up_reclaim_v1(c);
		break;
	case UP_AVC_MODULE:
		up_reclaim_module(c);
		break;
	}
}

/*
 * Counted and, if @reserve, reserved (with the reclaim past the
 * threshold), unlinked: the caller links or frees it.
 */
static struct up_avc_node *up_alloc_node(struct up_avc *c, bool reserve)
{
	struct up_avc_node *node = calloc(1, sizeof(*node));

	if (!node)
		abort();
	c->st.allocations++;
	if (reserve && ++c->active_nodes > c->threshold)
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
	node = up_alloc_node(c, true);
	node->ssid = ssid;
	node->tsid = tsid;
	node->tclass = tclass;
	node->seqno = seqno;
	node->referenced = c->kernel == UP_AVC_SETREF;
	h = up_hash(c, ssid, tsid, tclass);
	pos = up_search_node(c, h, ssid, tsid, tclass);
	if (pos) {			/* avc_node_replace() */
		/* The series keeps the bit of the node replaced. */
		if (c->kernel == UP_AVC_PATCHED ||
		    c->kernel == UP_AVC_SETREF)
			node->referenced = (*pos)->referenced;
		up_replace(pos, node);
		c->st.frees++;
		c->active_nodes--;
		return;
	}
	node->next = c->slots[h];	/* hlist_add_head_rcu() */
	c->slots[h] = node;
}

/*
 * The module's avc_take_place() and avc_insert(), one CPU, a missed key:
 * past the threshold after one reclaim section, not cached; a full bucket
 * gives up its oldest unreferenced node, else its oldest; the new node
 * goes to the bucket's tail (the newest).
 */
static void up_insert_module(struct up_avc *c, uint32_t ssid, uint32_t tsid,
			     uint16_t tclass, uint32_t seqno)
{
	struct up_avc_node **link, **victim = NULL, *node;
	unsigned int len = 0;

	if (++c->active_nodes > c->threshold) {
		up_reclaim_node(c);
		if (c->active_nodes > c->threshold) {
			c->active_nodes--;
			return;
		}
	}
	node = up_alloc_node(c, false);
	node->ssid = ssid;
	node->tsid = tsid;
	node->tclass = tclass;
	node->seqno = seqno;
	link = &c->slots[up_hash(c, ssid, tsid, tclass)];
	for (; *link; link = &(*link)->next) {
		if (!victim && !(*link)->referenced)
			victim = link;
		len++;
	}
	if (len >= UP_MODULE_CHAIN_MAX) {
		if (!victim)
			victim = &c->slots[up_hash(c, ssid, tsid, tclass)];
		/* The tail's link moves if the victim is the last node. */
		if (!(*victim)->next)
			link = victim;
		up_evict(c, victim);
	}
	*link = node;
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
	struct up_avc_node **link;

	c->st.lookups++;
	link = up_search_node(c, up_hash(c, ssid, tsid, tclass), ssid, tsid,
			      tclass);
	if (link) {
		(*link)->referenced = true;
		return true;
	}
	c->st.misses++;
	if (!c->st.resets)
		c->st.misses_first++;
	if (c->kernel == UP_AVC_MODULE)
		up_insert_module(c, ssid, tsid, tclass, c->seqno);
	else
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
 * the current policy's.  The new node takes the old one's place, with
 * its referenced bit.  Stock reserves a place for the copy (and may
 * reclaim); the series' kernels do not; the module does nothing.
 */
void up_avc_update(struct up_avc *c, uint32_t ssid, uint32_t tsid,
		   uint16_t tclass)
{
	bool reserve = c->kernel == UP_AVC_STOCK;
	struct up_avc_node *node, **orig;

	c->st.updates++;
	if (c->kernel == UP_AVC_MODULE)
		return;
	node = up_alloc_node(c, reserve);
	orig = up_search_node(c, up_hash(c, ssid, tsid, tclass), ssid, tsid,
			      tclass);
	if (!orig || (*orig)->seqno != c->seqno) {
		free(node);		/* avc_node_kill() */
		c->st.frees++;
		c->active_nodes -= reserve;
		c->st.updates_lost++;
		return;
	}
	*node = **orig;
	up_replace(orig, node);
	c->st.frees++;
	c->active_nodes -= reserve;
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
 * up_avc_work() - the reclaims' work so far
 * @c: the cache
 * @w: filled in
 */
void up_avc_work(struct up_avc *c, struct up_avc_work *w)
{
	*w = c->work;
}

/**
 * up_avc_create() - an empty stock cache, as selinux_avc_init() leaves it
 * @slots: AVC_CACHE_SLOTS, a power of two
 * @threshold: avc_cache_threshold
 * @hash: avc_hash()'s function
 * @seed: jhash's seed
 *
 * up_avc_create_kernel() of UP_AVC_STOCK.
 *
 * Return: the cache, or NULL without memory or without up_avc_jhash for
 * UP_AVC_HASH_JHASH.
 */
struct up_avc *up_avc_create(unsigned int slots, unsigned int threshold,
			     enum up_avc_hash hash, uint32_t seed)
{
	return up_avc_create_kernel(slots, threshold, hash, seed,
				    UP_AVC_STOCK);
}

/**
 * up_avc_create_kernel() - an empty cache of one kernel's AVC
 * @slots: AVC_CACHE_SLOTS, a power of two
 * @threshold: avc_cache_threshold
 * @hash: avc_hash()'s function
 * @seed: jhash's seed
 * @kernel: whose reclaim, update and insert (enum up_avc_kernel)
 *
 * Return: the cache, or NULL without memory or without up_avc_jhash for
 * UP_AVC_HASH_JHASH.
 */
struct up_avc *up_avc_create_kernel(unsigned int slots,
				    unsigned int threshold,
				    enum up_avc_hash hash, uint32_t seed,
				    enum up_avc_kernel kernel)
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
	c->kernel = kernel;
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
