/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The policy model of the avc_rcu selftests: a list of rules and the
 * decision they define, computed by a linear scan, independently of the
 * kernel's code; the rules rendered as policy text; the text of an oracle
 * family's policy (avc_oracle.h); replies compared with decisions.
 */
#ifndef AVC_MODEL_H
#define AVC_MODEL_H

#include <stddef.h>
#include <linux/types.h>

#include "avc_fileformat.h"
#include "avc_io.h"
#include "avc_oracle.h"

/* struct avc_decision, a decision without its seqno: avc_oracle.h. */

/*
 * One rule of the model, as written in the policy text.  Not the kernel's
 * struct avc_rule (avc/policydb.h: every rule of one key, OR-ed together).
 */
enum avc_model_rule_kind {
	AVC_MODEL_ALLOW,
	AVC_MODEL_AUDITALLOW,
	AVC_MODEL_DONTAUDIT,
	AVC_MODEL_PERMISSIVE,
};

struct avc_model_rule {
	enum avc_model_rule_kind kind;
	__u32 ssid;
	__u32 tsid;
	__u32 tclass;
	__u32 perms;
};

struct avc_policy {
	struct avc_model_rule *rules;
	size_t nr;
	size_t cap;
};

void avc_policy_add(struct avc_policy *p, enum avc_model_rule_kind kind,
		    __u32 ssid, __u32 tsid, __u32 tclass,
		    __u32 perms);
void avc_policy_free(struct avc_policy *p);
void avc_policy_decide(const struct avc_policy *p, __u32 ssid,
		       __u32 tsid, __u32 tclass,
		       struct avc_decision *d);
/*
 * Render the rules as policy text.  With a PRNG state, the text varies
 * its form (decimal or hex numbers, spaces or tabs, comments, blank
 * lines); with NULL it is plain.
 */
void avc_policy_render(const struct avc_policy *p, __u64 *rng,
		       struct avc_buf *out);

/*
 * The text of the policy for seqno q of an oracle's family (avc_oracle.h),
 * written from the family's description independently of
 * avc_oracle_expected(): replaces the contents of @out.
 */
void avc_oracle_policy_text(const struct avc_oracle *o, __u32 q,
			    struct avc_buf *out);

/* Compare a reply with an expected decision and seqno; 0 if equal. */
int avc_reply_matches(const struct avc_reply *r, const struct avc_decision *d,
		      __u32 seqno);
/* "allowed=.. decided=.. ..." for failure messages (static buffer). */
const char *avc_reply_str(const struct avc_reply *r);
const char *avc_decision_str(const struct avc_decision *d);

#endif /* AVC_MODEL_H */
