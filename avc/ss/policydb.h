/* SPDX-License-Identifier: GPL-2.0 */
/*
 * avc_rcu security server: the in-memory policy.
 *
 * A policy is built from its text, which may come in pieces (struct
 * avc_policy_parser, declared in ss.h), published with
 * rcu_assign_pointer() and never changed after: a load replaces it.
 */
#ifndef _AVC_RCU_POLICYDB_H
#define _AVC_RCU_POLICYDB_H

#include <linux/rcupdate.h>
#include "ss.h"

/**
 * struct avc_rule_key - what a rule is for
 * @ssid: source security identifier
 * @tsid: target security identifier
 * @tclass: target security class
 */
struct avc_rule_key {
	u32 ssid;
	u32 tsid;
	u16 tclass;
};

/**
 * struct avc_rule - every rule for one key, OR-ed together
 * @key: the key the rules are for; sorted on, searched for
 * @allowed: OR of the allow rules' permissions
 * @auditallow: OR of the auditallow rules' permissions
 * @dontaudit: OR of the dontaudit rules' permissions
 */
struct avc_rule {
	struct avc_rule_key key;
	u32 allowed;
	u32 auditallow;
	u32 dontaudit;
};

/**
 * struct avc_policydb - one loaded policy
 * @seqno: its sequence number, set when it is published
 * @nrules: entries in @rules
 * @npermissive: entries in @permissive
 * @rules: sorted by key, one entry per key
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
struct avc_policydb *avc_policy_parser_finish(struct avc_policy_parser *p);
void avc_policydb_free(struct avc_policydb *db);
void avc_policydb_free_rcu(struct rcu_head *rcu);
const struct avc_rule *avc_policydb_rule(const struct avc_policydb *db,
					 const struct avc_rule_key *key);
bool avc_policydb_permissive(const struct avc_policydb *db, u32 ssid);

#endif /* _AVC_RCU_POLICYDB_H */
