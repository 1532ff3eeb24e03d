/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The physical limit of the cache's design, for the native benchmark: a
 * lookup in a table of the same shape (struct avc_node, the same buckets,
 * seed and hash, the same chains in the same order) with no RCU read
 * side, no statistics, no static branches and no referenced bit.
 */
#ifndef AVC_NATIVE_PLAIN_H
#define AVC_NATIVE_PLAIN_H

#include <linux/list.h>
#include <linux/types.h>
#include <avc_rcu/avc_rcu.h>

struct plain_table {
	struct hlist_head *slots;
	unsigned int mask;
	u32 seed;
};

int plain_table_init(struct plain_table *t, unsigned int nslots, u32 seed);
int plain_table_insert(struct plain_table *t, u32 ssid, u32 tsid, u16 tclass,
		       const struct avc_rcu_decision *avd);
void plain_table_destroy(struct plain_table *t);
int plain_has_perm(struct plain_table *t, u32 ssid, u32 tsid, u16 tclass,
		   u32 requested, struct avc_rcu_decision *avd);

#endif /* AVC_NATIVE_PLAIN_H */
