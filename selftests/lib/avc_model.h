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

/* struct tst_decision, a decision without its seqno: avc_oracle.h. */

/*
 * One rule of the model, as written in the policy text.  Not the kernel's
 * struct avc_rule (avc/policydb.h: every rule of one key, OR-ed together).
 */
enum tst_model_rule_kind {
	TST_MODEL_ALLOW,
	TST_MODEL_AUDITALLOW,
	TST_MODEL_DONTAUDIT,
	TST_MODEL_PERMISSIVE,
};

struct tst_model_rule {
	enum tst_model_rule_kind kind;
	__u32 ssid;
	__u32 tsid;
	__u32 tclass;
	__u32 perms;
};

struct tst_policy {
	struct tst_model_rule *rules;
	size_t nr;
	size_t cap;
};

void tst_policy_add(struct tst_policy *p, enum tst_model_rule_kind kind,
		    __u32 ssid, __u32 tsid, __u32 tclass,
		    __u32 perms);
void tst_policy_free(struct tst_policy *p);
void tst_policy_decide(const struct tst_policy *p, __u32 ssid,
		       __u32 tsid, __u32 tclass,
		       struct tst_decision *d);
/*
 * Render the rules as policy text.  With a PRNG state, the text varies
 * its form (decimal or hex numbers, spaces or tabs, comments, blank
 * lines); with NULL it is plain.
 */
void tst_policy_render(const struct tst_policy *p, __u64 *rng,
		       struct tst_buf *out);

/*
 * The text of the policy for seqno q of an oracle's family (avc_oracle.h),
 * written from the family's description independently of
 * tst_oracle_expected(): replaces the contents of @out.
 */
void tst_oracle_policy_text(const struct tst_oracle *o, __u32 q,
			    struct tst_buf *out);

/* Compare a reply with an expected decision and seqno; 0 if equal. */
int tst_reply_matches(const struct tst_reply *r, const struct tst_decision *d,
		      __u32 seqno);
/* "allowed=.. decided=.. ..." for failure messages (static buffer). */
const char *tst_reply_str(const struct tst_reply *r);
const char *tst_decision_str(const struct tst_decision *d);

#endif /* AVC_MODEL_H */
