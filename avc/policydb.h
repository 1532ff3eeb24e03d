/* SPDX-License-Identifier: GPL-2.0 */
/*
 * avc_rcu core: the in-memory policy of the security-server stand-in.
 *
 * A policy is built whole from its text, published with
 * rcu_assign_pointer() and never changed after: a load replaces it.
 */
#ifndef _AVC_RCU_POLICYDB_H
#define _AVC_RCU_POLICYDB_H

#include <linux/rcupdate.h>
#include "avc.h"

/**
 * struct avc_rule - every rule for one key, OR-ed together
 * @ssid: source SID
 * @tsid: target SID
 * @allowed: OR of the allow rules' permissions
 * @auditallow: OR of the auditallow rules' permissions
 * @dontaudit: OR of the dontaudit rules' permissions
 * @tclass: target class
 */
struct avc_rule {
	u32 ssid;
	u32 tsid;
	u32 allowed;
	u32 auditallow;
	u32 dontaudit;
	u16 tclass;
};

/**
 * struct avc_policydb - one loaded policy
 * @seqno: its sequence number, set when it is published
 * @nrules: entries in @rules
 * @npermissive: entries in @permissive
 * @rules: sorted by (ssid, tsid, tclass), one entry per key
 * @permissive: sorted, distinct permissive source SIDs
 * @rcu: frees the policy once a newer one has replaced it
 */
struct avc_policydb {
	u32 seqno;
	u32 nrules;
	u32 npermissive;
	struct avc_rule *rules;
	u32 *permissive;
	struct rcu_head rcu;
};

struct avc_policydb *avc_policydb_parse(const char *text, size_t len);
void avc_policydb_free(struct avc_policydb *db);
void avc_policydb_free_rcu(struct rcu_head *rcu);

#endif /* _AVC_RCU_POLICYDB_H */
