// SPDX-License-Identifier: GPL-2.0
/*
 * Fuzz target: the policy parser, avc_policydb_parse() (avc/ss/policydb.c),
 * on any bytes.
 *
 * A text is refused with -EINVAL (or -ENOMEM) or becomes a policy whose
 * invariants the searches rely on: rules sorted by key with each key once,
 * permissive SIDs sorted with each once, no more entries than the text has
 * lines, seqno 0; every rule and every permissive SID found by the
 * searches, at its own entry; a probe for a key found only if it is that
 * key.  Parsing the same text again gives the same policy.
 */
#include "fuzz.h"
#include "policydb.h"

static int key_cmp(const struct avc_rule_key *a,
		   const struct avc_rule_key *b)
{
	if (a->ssid != b->ssid)
		return a->ssid < b->ssid ? -1 : 1;
	if (a->tsid != b->tsid)
		return a->tsid < b->tsid ? -1 : 1;
	if (a->tclass != b->tclass)
		return a->tclass < b->tclass ? -1 : 1;
	return 0;
}

static void check_policy(const struct avc_policydb *db, const char *text,
			 size_t len, const u8 *data, size_t size)
{
	size_t lines = 1, i;
	struct avc_rule_key probe;
	const struct avc_rule *r;

	for (i = 0; i < len; i++)
		lines += text[i] == '\n';
	fuzz_assert(db->seqno == 0);
	fuzz_assert(db->nrules + db->npermissive <= lines);
	for (i = 0; i < db->nrules; i++) {
		if (i)
			fuzz_assert(key_cmp(&db->rules[i - 1].key,
					    &db->rules[i].key) < 0);
		fuzz_assert(avc_policydb_rule(db, &db->rules[i].key) ==
			    &db->rules[i]);
	}
	for (i = 0; i < db->npermissive; i++) {
		if (i)
			fuzz_assert(db->permissive[i - 1] < db->permissive[i]);
		fuzz_assert(avc_policydb_permissive(db, db->permissive[i]));
	}
	/* Probes made of the input's bytes. */
	for (i = 0; i + 10 <= size && i < 400; i += 10) {
		memcpy(&probe.ssid, data + i, 4);
		memcpy(&probe.tsid, data + i + 4, 4);
		memcpy(&probe.tclass, data + i + 8, 2);
		r = avc_policydb_rule(db, &probe);
		fuzz_assert(!r || !key_cmp(&r->key, &probe));
	}
}

int avc_fuzz_one_input(const u8 *data, size_t size)
{
	struct avc_policydb *db, *again;
	char *text;
	u32 i;

	fuzz_setup();
	text = fuzz_dup(data, size);
	db = avc_policydb_parse(text, size);
	if (IS_ERR(db)) {
		fuzz_assert(PTR_ERR(db) == -EINVAL || PTR_ERR(db) == -ENOMEM);
		free(text);
		return 0;
	}
	check_policy(db, text, size, data, size);

	again = avc_policydb_parse(text, size);
	fuzz_assert(!IS_ERR(again));
	fuzz_assert(again->nrules == db->nrules &&
		    again->npermissive == db->npermissive);
	/* Field by field: a key's tail padding is not part of the policy. */
	for (i = 0; i < db->nrules; i++) {
		const struct avc_rule *a = &again->rules[i], *r = &db->rules[i];

		fuzz_assert(!key_cmp(&a->key, &r->key) &&
			    a->allowed == r->allowed &&
			    a->auditallow == r->auditallow &&
			    a->dontaudit == r->dontaudit);
	}
	for (i = 0; i < db->npermissive; i++)
		fuzz_assert(again->permissive[i] == db->permissive[i]);
	avc_policydb_free(again);
	avc_policydb_free(db);
	free(text);
	return 0;
}
