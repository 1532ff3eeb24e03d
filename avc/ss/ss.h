/* SPDX-License-Identifier: GPL-2.0 */
/*
 * avc_rcu security server: the stand-in that answers the cache's misses.
 *
 * SELinux keeps its security server in security/selinux/ss/, behind a
 * narrow interface the AVC calls; this is that interface for avc_rcu.  The
 * cache core knows the server only through these declarations: a query
 * (source, target, class) and a decision in, a policy load and its seqno
 * out.
 * The policy in force is published by RCU, so a computation never waits
 * for a load (services.c); the policy's layout and text format are
 * policydb.h's and policydb.c's; number.c parses the numbers of the policy
 * text and of the access file.
 */
#ifndef _AVC_RCU_SS_H
#define _AVC_RCU_SS_H

#include <linux/mutex.h>
#include <linux/rcupdate.h>
#include <linux/types.h>
#include <avc_rcu/avc_rcu.h>

struct avc_policydb;

/**
 * struct avc_ss_loaded - what a load published
 * @seqno: the new policy's seqno
 * @rules: its distinct rule keys
 * @permissive: its permissive source SIDs
 */
struct avc_ss_loaded {
	u32 seqno;
	u32 rules;
	u32 permissive;
};

/**
 * struct avc_ss - the security-server stand-in: a policy published by RCU
 * @db: the policy in force; readers use rcu_dereference()
 * @load_lock: serialises loads (never taken by computations)
 */
struct avc_ss {
	struct avc_policydb __rcu *db;
	struct mutex load_lock;	/* loads only; computations never take it */
};

/*
 * policydb.c: a policy text parsed piece by piece, as it is written, for
 * avc_ss_load_parsed().
 */
struct avc_policy_parser;
struct avc_policy_parser *avc_policy_parser_new(void);
int avc_policy_parser_feed(struct avc_policy_parser *p, const char *text,
			   size_t len);
void avc_policy_parser_free(struct avc_policy_parser *p);

/* services.c */
int avc_ss_init(struct avc_ss *ss);
int avc_ss_init_at(struct avc_ss *ss, u32 seqno);
void avc_ss_destroy(struct avc_ss *ss);
void avc_ss_compute(struct avc_ss *ss, u32 ssid, u32 tsid, u16 tclass,
		    struct avc_rcu_decision *avd);
int avc_ss_load(struct avc_ss *ss, const char *text, size_t len,
		struct avc_ss_loaded *out);
int avc_ss_load_parsed(struct avc_ss *ss, struct avc_policy_parser *p,
		       struct avc_ss_loaded *out);
u32 avc_ss_seqno(struct avc_ss *ss);

/* number.c */
int avc_parse_u32(const char *s, size_t len, u32 *val);
int avc_parse_fields(const char *s, size_t len, u32 *vals,
		     unsigned int nvals);

/* What separates fields, in the policy text and in access requests. */
static inline bool avc_is_blank(char ch)
{
	return ch == ' ' || ch == '\t';
}

#endif /* _AVC_RCU_SS_H */
