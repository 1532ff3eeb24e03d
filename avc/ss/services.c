// SPDX-License-Identifier: GPL-2.0
/*
 * avc_rcu security server: computations and loads.
 *
 * The policy in force is one immutable struct avc_policydb, published with
 * rcu_assign_pointer().  A computation (the cache's slow path, which may
 * run in any context) reads it under rcu_read_lock() and never waits for a
 * load; a load parses outside every lock (the whole text at once, or piece
 * by piece as it is written), swaps the pointer under a mutex that only
 * loads take, and leaves the old policy to an RCU callback.
 * Neither side waits on the other for longer than a pointer store.
 */

#include <linux/err.h>
#include <linux/rcupdate.h>
#include <linux/slab.h>
#include "policydb.h"

/**
 * avc_ss_init_at() - start with the empty policy under a given seqno
 * @ss: the security server
 * @seqno: the empty policy's seqno; the first load gets @seqno + 1
 *
 * Any @seqno but 0 is for tests: a seqno just below 2^32 lets them load
 * across the wrap-around in a few loads.
 *
 * Return: 0 or -ENOMEM.
 */
int avc_ss_init_at(struct avc_ss *ss, u32 seqno)
{
	struct avc_policydb *db = avc_policydb_parse("", 0);

	if (IS_ERR(db))
		return PTR_ERR(db);
	db->seqno = seqno;
	mutex_init(&ss->load_lock);
	RCU_INIT_POINTER(ss->db, db);
	return 0;
}

/**
 * avc_ss_init() - start with the empty policy: deny everything, seqno 0
 * @ss: the security server
 *
 * Return: 0 or -ENOMEM.
 */
int avc_ss_init(struct avc_ss *ss)
{
	return avc_ss_init_at(ss, 0);
}

/**
 * avc_ss_destroy() - free the policy
 * @ss: the security server; no computation may be running or start
 *
 * Policies replaced by loads are freed by RCU callbacks, which
 * avc_core_exit() waits for.
 */
void avc_ss_destroy(struct avc_ss *ss)
{
	avc_policydb_free(rcu_dereference_protected(ss->db, true));
	RCU_INIT_POINTER(ss->db, NULL);
}

/**
 * avc_ss_compute() - compute a decision from the policy, bypassing caches
 * @ss: the security server
 * @ssid: source security identifier
 * @tsid: target security identifier
 * @tclass: target security class
 * @avd: where to store the decision
 *
 * Never sleeps.  Without rules for the key everything is denied, and every
 * denial is audited: auditdeny is all ones unless dontaudit clears bits.
 */
void avc_ss_compute(struct avc_ss *ss, u32 ssid, u32 tsid, u16 tclass,
		    struct avc_rcu_decision *avd)
{
	const struct avc_rule_key key = { ssid, tsid, tclass };
	const struct avc_policydb *db;
	const struct avc_rule *r;

	rcu_read_lock();
	db = rcu_dereference(ss->db);
	r = avc_policydb_rule(db, &key);
	avd->allowed = r ? r->allowed : 0;
	avd->auditallow = r ? r->auditallow : 0;
	avd->auditdeny = r ? ~r->dontaudit : ~0U;
	avd->seqno = db->seqno;
	avd->flags = avc_policydb_permissive(db, ssid) ?
		     AVC_RCU_DECISION_PERMISSIVE : 0;
	rcu_read_unlock();
}

/* Publish a parsed policy as the successor of the policy in force. */
static void avc_ss_publish(struct avc_ss *ss, struct avc_policydb *db,
			   struct avc_ss_loaded *out)
{
	struct avc_policydb *old;

	mutex_lock(&ss->load_lock);
	old = rcu_dereference_protected(ss->db,
					lockdep_is_held(&ss->load_lock));
	db->seqno = old->seqno + 1;	/* wraps after 2^32 - 1 */
	out->seqno = db->seqno;
	out->rules = db->nrules;
	out->permissive = db->npermissive;
	rcu_assign_pointer(ss->db, db);
	mutex_unlock(&ss->load_lock);

	/*
	 * Computations still reading the old policy finish with it; it is
	 * freed after them without the loader waiting for a grace period.
	 */
	call_rcu(&old->rcu, avc_policydb_free_rcu);
}

/**
 * avc_ss_load() - parse and publish a new policy
 * @ss: the security server
 * @text: the whole policy text (not NUL-terminated)
 * @len: its length
 * @out: where to store the new policy's seqno and sizes
 *
 * Sleeps.  All or nothing: on error the policy in force is untouched.  The
 * caller resets the caches in front of @ss with the new seqno.
 *
 * Return: 0, -EINVAL for a bad line (logged), -ENOMEM.
 */
int avc_ss_load(struct avc_ss *ss, const char *text, size_t len,
		struct avc_ss_loaded *out)
{
	struct avc_policydb *db = avc_policydb_parse(text, len);

	if (IS_ERR(db))
		return PTR_ERR(db);
	avc_ss_publish(ss, db, out);
	return 0;
}

/**
 * avc_ss_load_parsed() - finish parsing a policy and publish it
 * @ss: the security server
 * @p: a parser fed the whole text (avc_policy_parser_feed()); the caller
 *	still frees it
 * @out: where to store the new policy's seqno and sizes
 *
 * Sleeps, for as long as sorting the rules takes.  All or nothing, as
 * avc_ss_load().
 *
 * Return: 0, -EINVAL for a bad line (logged), -ENOMEM, or the error the
 * parser met earlier.
 */
int avc_ss_load_parsed(struct avc_ss *ss, struct avc_policy_parser *p,
		       struct avc_ss_loaded *out)
{
	struct avc_policydb *db = avc_policy_parser_finish(p);

	if (IS_ERR(db))
		return PTR_ERR(db);
	avc_ss_publish(ss, db, out);
	return 0;
}

/**
 * avc_ss_seqno() - seqno of the policy in force
 * @ss: the security server
 *
 * Return: the seqno, 0 before the first load.
 */
u32 avc_ss_seqno(struct avc_ss *ss)
{
	u32 seqno;

	rcu_read_lock();
	seqno = rcu_dereference(ss->db)->seqno;
	rcu_read_unlock();
	return seqno;
}
