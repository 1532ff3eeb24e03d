// SPDX-License-Identifier: GPL-2.0
/*
 * The plain lookup loop of the native benchmark (plain.h).  A file of its
 * own, compiled like cache.c, so that plain_has_perm() is an out-of-line
 * call as avc_cache_has_perm() is.
 */
#include <errno.h>
#include <stdlib.h>

#include <linux/jhash.h>
#include <linux/list.h>
#include "node.h"
#include "plain.h"

int plain_table_init(struct plain_table *t, unsigned int nslots, u32 seed)
{
	unsigned int i;

	t->slots = calloc(nslots, sizeof(*t->slots));
	if (!t->slots)
		return -ENOMEM;
	for (i = 0; i < nslots; i++)
		INIT_HLIST_HEAD(&t->slots[i]);
	t->mask = nslots - 1;
	t->seed = seed;
	return 0;
}

/* At the head of the bucket, as the cache links a new node. */
int plain_table_insert(struct plain_table *t, u32 ssid, u32 tsid, u16 tclass,
		       const struct avc_rcu_decision *avd)
{
	struct hlist_head *h;
	struct avc_node *node;

	node = aligned_alloc(64, sizeof(*node));
	if (!node)
		return -ENOMEM;
	node->ssid = ssid;
	node->tsid = tsid;
	node->tclass = tclass;
	node->referenced = 0;
	node->dec = *avd;
	h = &t->slots[jhash_3words(ssid, tsid, tclass, t->seed) & t->mask];
	node->list.next = h->first;
	node->list.pprev = &h->first;
	if (h->first)
		h->first->pprev = &node->list.next;
	h->first = &node->list;
	return 0;
}

void plain_table_destroy(struct plain_table *t)
{
	struct hlist_node *tmp;
	struct avc_node *node;
	unsigned int i;

	for (i = 0; i <= t->mask; i++)
		hlist_for_each_entry_safe(node, tmp, &t->slots[i], list)
			free(node);
	free(t->slots);
}

int plain_has_perm(struct plain_table *t, u32 ssid, u32 tsid, u16 tclass,
		   u32 requested, struct avc_rcu_decision *avd)
{
	unsigned int idx = jhash_3words(ssid, tsid, tclass, t->seed) & t->mask;
	struct avc_node *node;

	hlist_for_each_entry(node, &t->slots[idx], list) {
		if (node->ssid == ssid && node->tsid == tsid &&
		    node->tclass == tclass) {
			*avd = node->dec;
			return avc_decide(avd, requested);
		}
	}
	return -ENOENT;
}
