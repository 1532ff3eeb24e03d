// SPDX-License-Identifier: GPL-2.0
/*
 * avc_rcu security server: policy text to policy database, and the
 * searches of a policy database.
 *
 * One rule a line; '#' starts a comment that runs to the end of the line;
 * blank lines are ignored; a trailing carriage return is ignored:
 *
 *	allow      <ssid> <tsid> <tclass> <perms>
 *	auditallow <ssid> <tsid> <tclass> <perms>
 *	dontaudit  <ssid> <tsid> <tclass> <perms>
 *	permissive <ssid>
 *
 * The whole text is parsed before anything is published, so a bad line
 * costs nothing but the attempt: the error names the line in the kernel log
 * and the policy in force stays.
 */

#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/bsearch.h>
#include <linux/sched.h>
#include <linux/slab.h>
#include <linux/sort.h>
#include <linux/string.h>
#include "policydb.h"

enum avc_rule_kind {
	AVC_RULE_ALLOW,
	AVC_RULE_AUDITALLOW,
	AVC_RULE_DONTAUDIT,
	AVC_RULE_PERMISSIVE,
};

static const struct {
	const char *word;
	unsigned int nfields;
} avc_rule_syntax[] = {
	[AVC_RULE_ALLOW] = { "allow", 4 },
	[AVC_RULE_AUDITALLOW] = { "auditallow", 4 },
	[AVC_RULE_DONTAUDIT] = { "dontaudit", 4 },
	[AVC_RULE_PERMISSIVE] = { "permissive", 1 },
};

/**
 * avc_policydb_free() - free a policy no reader can reach
 * @db: the policy, or NULL
 */
void avc_policydb_free(struct avc_policydb *db)
{
	if (!db)
		return;
	kvfree(db->permissive);
	kvfree(db->rules);
	kfree(db);
}

/**
 * avc_policydb_free_rcu() - RCU callback freeing a replaced policy
 * @rcu: the policy's rcu_head
 *
 * Runs in softirq context, where kvfree() defers the vmalloc'ed part.
 */
void avc_policydb_free_rcu(struct rcu_head *rcu)
{
	avc_policydb_free(container_of(rcu, struct avc_policydb, rcu));
}

/*
 * The one order of rules, for the sort and the binary search alike: by
 * ssid, then tsid, then tclass.
 */
static int avc_rule_cmp(const void *a, const void *b)
{
	const struct avc_key *x = &((const struct avc_rule *)a)->key;
	const struct avc_key *y = &((const struct avc_rule *)b)->key;

	if (x->ssid != y->ssid)
		return x->ssid < y->ssid ? -1 : 1;
	if (x->tsid != y->tsid)
		return x->tsid < y->tsid ? -1 : 1;
	if (x->tclass != y->tclass)
		return x->tclass < y->tclass ? -1 : 1;
	return 0;
}

/* The order of permissive SIDs, for the sort and the search alike. */
static int avc_sid_cmp(const void *a, const void *b)
{
	u32 x = *(const u32 *)a, y = *(const u32 *)b;

	return x < y ? -1 : x > y;
}

/**
 * avc_policydb_rule() - the merged rules of a key
 * @db: the policy
 * @key: the key
 *
 * Never sleeps.
 *
 * Return: the entry, or NULL if the policy has no rule for @key.
 */
const struct avc_rule *avc_policydb_rule(const struct avc_policydb *db,
					 const struct avc_key *key)
{
	const struct avc_rule probe = { .key = *key };

	return bsearch(&probe, db->rules, db->nrules, sizeof(probe),
		       avc_rule_cmp);
}

/**
 * avc_policydb_permissive() - whether a source is permissive
 * @db: the policy
 * @ssid: the source SID
 *
 * Never sleeps.
 *
 * Return: true if the policy names @ssid permissive.
 */
bool avc_policydb_permissive(const struct avc_policydb *db, u32 ssid)
{
	return bsearch(&ssid, db->permissive, db->npermissive, sizeof(ssid),
		       avc_sid_cmp);
}

/* Sort the rules and fold every key's rules into one entry. */
static u32 avc_rules_merge(struct avc_rule *r, u32 n)
{
	u32 i, out = 0;

	sort(r, n, sizeof(*r), avc_rule_cmp, NULL);
	for (i = 0; i < n; i++) {
		if (out && !avc_rule_cmp(&r[out - 1], &r[i])) {
			r[out - 1].allowed |= r[i].allowed;
			r[out - 1].auditallow |= r[i].auditallow;
			r[out - 1].dontaudit |= r[i].dontaudit;
		} else {
			r[out++] = r[i];
		}
	}
	return out;
}

static u32 avc_sids_unique(u32 *s, u32 n)
{
	u32 i, out = 0;

	sort(s, n, sizeof(*s), avc_sid_cmp, NULL);
	for (i = 0; i < n; i++)
		if (!out || s[out - 1] != s[i])
			s[out++] = s[i];
	return out;
}

/*
 * The keyword of a line whose comment is already cut off: its kind, -1 for
 * a blank line, -2 for an unknown word.  *@after is where the fields begin.
 */
static int avc_rule_kind(const char *s, size_t len, size_t *after)
{
	size_t i = 0, w;
	unsigned int k;

	while (i < len && avc_is_blank(s[i]))
		i++;
	if (i == len)
		return -1;
	for (w = i; w < len && !avc_is_blank(s[w]); w++)
		;
	*after = w;
	for (k = 0; k < ARRAY_SIZE(avc_rule_syntax); k++)
		if (strlen(avc_rule_syntax[k].word) == w - i &&
		    !memcmp(avc_rule_syntax[k].word, s + i, w - i))
			return k;
	return -2;
}

/* Parse one line, comment already cut off, into @db.  0 or a reason. */
static const char *avc_parse_line(struct avc_policydb *db, const char *s,
				  size_t len)
{
	size_t w = 0;
	int k = avc_rule_kind(s, len, &w);
	u32 f[4];
	int err;

	if (k == -1)
		return NULL;
	if (k < 0)
		return "unknown rule (allow, auditallow, dontaudit or permissive expected)";

	err = avc_parse_fields(s + w, len - w, f, avc_rule_syntax[k].nfields);
	if (err == -ERANGE)
		return "number above 4294967295";
	if (err)
		return k == AVC_RULE_PERMISSIVE ?
		       "expected: permissive <ssid>" :
		       "expected: <rule> <ssid> <tsid> <tclass> <perms>";

	if (k == AVC_RULE_PERMISSIVE) {
		db->permissive[db->npermissive++] = f[0];
		return NULL;
	}
	if (f[2] > U16_MAX)
		return "tclass above 65535";

	db->rules[db->nrules] = (struct avc_rule) {
		.key = { .ssid = f[0], .tsid = f[1], .tclass = f[2] },
		.allowed = k == AVC_RULE_ALLOW ? f[3] : 0,
		.auditallow = k == AVC_RULE_AUDITALLOW ? f[3] : 0,
		.dontaudit = k == AVC_RULE_DONTAUDIT ? f[3] : 0,
	};
	db->nrules++;
	return NULL;
}

/*
 * Step through the lines of a text: returns the length of the next line
 * without its comment and trailing carriage return, and moves *@pos past
 * the line's newline.
 */
static size_t avc_next_line(const char **pos, const char *end)
{
	const char *line = *pos, *eol, *hash;
	size_t n;

	eol = memchr(line, '\n', end - line);
	if (!eol)
		eol = end;
	hash = memchr(line, '#', eol - line);
	n = (hash ? hash : eol) - line;
	if (n && line[n - 1] == '\r')
		n--;
	*pos = eol < end ? eol + 1 : end;
	return n;
}

/*
 * Allocations sized by the text, which comes from userspace: fail with
 * -ENOMEM rather than wake the OOM killer, and charge the writer's cgroup.
 */
#define AVC_POLICY_GFP	(GFP_KERNEL_ACCOUNT | __GFP_NOWARN | __GFP_RETRY_MAYFAIL)

/* Give back what merging duplicate keys freed of an array. */
static void *avc_shrink(void *p, size_t had, size_t has, size_t size)
{
	void *q;

	if (has == had)
		return p;
	q = kvrealloc(p, had * size, has * size, AVC_POLICY_GFP);
	return q ?: p;
}

/**
 * avc_policydb_parse() - build a policy from its text
 * @text: the text (not NUL-terminated)
 * @len: its length
 *
 * May sleep.  On a bad line, logs the line number and the reason.  A first
 * pass counts the rule lines by their keyword so that memory is sized by
 * what the text asks for, exactly; a text of junk asks for nothing.
 *
 * Return: the policy (seqno 0, not yet published), ERR_PTR(-EINVAL) for a
 * bad line, ERR_PTR(-ENOMEM).
 */
struct avc_policydb *avc_policydb_parse(const char *text, size_t len)
{
	const char *pos = text, *line, *end = text + len;
	size_t n, nrules = 0, npermissive = 0, after;
	struct avc_policydb *db;
	const char *why;
	u32 lineno = 0;
	int k;

	while (pos < end) {
		line = pos;
		n = avc_next_line(&pos, end);
		k = avc_rule_kind(line, n, &after);
		if (k == AVC_RULE_PERMISSIVE)
			npermissive++;
		else if (k >= 0)
			nrules++;
	}

	db = kzalloc(sizeof(*db), GFP_KERNEL);
	if (!db)
		return ERR_PTR(-ENOMEM);
	db->rules = kvmalloc_array(nrules, sizeof(*db->rules), AVC_POLICY_GFP);
	db->permissive = kvmalloc_array(npermissive, sizeof(*db->permissive),
					AVC_POLICY_GFP);
	if (!db->rules || !db->permissive) {
		avc_policydb_free(db);
		return ERR_PTR(-ENOMEM);
	}

	for (pos = text; pos < end; ) {
		lineno++;
		line = pos;
		n = avc_next_line(&pos, end);
		why = avc_parse_line(db, line, n);
		if (why) {
			pr_err("policy line %u: %s; policy not loaded\n",
			       lineno, why);
			avc_policydb_free(db);
			return ERR_PTR(-EINVAL);
		}
		if ((lineno & 4095) == 0)
			cond_resched();
	}

	db->nrules = avc_rules_merge(db->rules, db->nrules);
	db->rules = avc_shrink(db->rules, nrules, db->nrules,
			       sizeof(*db->rules));
	db->npermissive = avc_sids_unique(db->permissive, db->npermissive);
	db->permissive = avc_shrink(db->permissive, npermissive,
				    db->npermissive, sizeof(*db->permissive));
	return db;
}
