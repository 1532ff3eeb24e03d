// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit tests of the security-server stand-in: the number parser, the
 * policy parser and the decision function.
 *
 * Built into avc_rcu_kunit.ko (Kbuild, on a kernel with CONFIG_KUNIT), not
 * into avc_rcu.ko.  The module's functions are not exported and 6.1 has no
 * VISIBLE_IF_KUNIT, so this file includes the sources it tests, as
 * AppArmor's policy_unpack_test.c is included by the file it tests: the
 * test module carries its own copy of the security server, static
 * functions included, and shares nothing with a loaded avc_rcu.ko.
 */
/* policydb.c first: it sets pr_fmt before any header does. */
#include "policydb.c"
#include "number.c"
#include "services.c"

#include <kunit/test.h>

static void number_u32(struct kunit *test)
{
	static const struct {
		const char *s;
		int err;
		u32 val;
	} cases[] = {
		{ "0", 0, 0 },
		{ "7", 0, 7 },
		{ "010", 0, 10 },	/* a leading zero is not octal */
		{ "0008", 0, 8 },
		{ "4294967295", 0, U32_MAX },
		{ "4294967296", -ERANGE, 0 },
		{ "99999999999999999999", -ERANGE, 0 },
		{ "0x0", 0, 0 },
		{ "0xffffffff", 0, U32_MAX },
		{ "0XFFFFFFFF", 0, U32_MAX },	/* uppercase prefix */
		{ "0xAbC", 0, 0xabc },
		{ "0x100000000", -ERANGE, 0 },
		{ "0x", -EINVAL, 0 },
		{ "0X", -EINVAL, 0 },
		{ "x1", -EINVAL, 0 },
		{ "0x1g", -EINVAL, 0 },
		{ "12a", -EINVAL, 0 },
		{ "-1", -EINVAL, 0 },
		{ "+1", -EINVAL, 0 },
		{ " 1", -EINVAL, 0 },
		{ "1\n", -EINVAL, 0 },
		{ "", -EINVAL, 0 },
	};
	unsigned int i;
	u32 v, want;

	for (i = 0; i < ARRAY_SIZE(cases); i++) {
		v = 0xdeadbeef;
		KUNIT_EXPECT_EQ_MSG(test, avc_parse_u32(cases[i].s,
							strlen(cases[i].s), &v),
				    cases[i].err, "\"%s\"", cases[i].s);
		if (cases[i].err)
			want = 0xdeadbeef;	/* left alone */
		else
			want = cases[i].val;
		KUNIT_EXPECT_EQ_MSG(test, v, want, "\"%s\"", cases[i].s);
	}
	/* Only @len bytes are read: a number followed by more text. */
	KUNIT_EXPECT_EQ(test, avc_parse_u32("123456", 3, &v), 0);
	KUNIT_EXPECT_EQ(test, v, 123U);
}

static int fields(const char *s, u32 *f, unsigned int n)
{
	return avc_parse_fields(s, strlen(s), f, n);
}

static void number_fields(struct kunit *test)
{
	u32 f[4];

	KUNIT_EXPECT_EQ(test, fields("1 2 3 0x10", f, 4), 0);
	KUNIT_EXPECT_EQ(test, f[0], 1U);
	KUNIT_EXPECT_EQ(test, f[3], 16U);
	KUNIT_EXPECT_EQ(test, fields(" \t1\t2  3 4 \t", f, 4), 0);
	KUNIT_EXPECT_EQ(test, f[2], 3U);
	KUNIT_EXPECT_EQ(test, fields("1 2 3 4\n", f, 4), 0);
	KUNIT_EXPECT_EQ(test, fields("1 2 3", f, 4), -EINVAL);
	KUNIT_EXPECT_EQ(test, fields("1 2 3 4 5", f, 4), -EINVAL);
	KUNIT_EXPECT_EQ(test, fields("1 2 3 4\n\n", f, 4),
			-EINVAL);
	KUNIT_EXPECT_EQ(test, fields("1 2 3 4\r", f, 4), -EINVAL);
	KUNIT_EXPECT_EQ(test, fields("1,2 3 4", f, 3), -EINVAL);
	KUNIT_EXPECT_EQ(test, fields("1 2 3 4294967296", f, 4),
			-ERANGE);
	KUNIT_EXPECT_EQ(test, fields("", f, 1), -EINVAL);
	KUNIT_EXPECT_EQ(test, fields("", f, 0), 0);
}

static const struct avc_rule *rule(const struct avc_policydb *db, u32 s,
				   u32 t, u16 c)
{
	struct avc_rule_key k = { .ssid = s, .tsid = t, .tclass = c };

	return avc_policydb_rule(db, &k);
}

static void policy_parse(struct kunit *test)
{
	static const char text[] =
		"# a comment line\n"
		"allow 1 2 3 0x1\n"
		"\n"
		"allow 1 2 3 0x4   # merged with the rule above\n"
		"auditallow 1 2 3 0x4\r\n"
		"\tdontaudit 1 2 3 0x8\n"
		"allow 0XA 2 65535 010\n"
		"permissive 9\n"
		"permissive 9\n"
		"allow 5 6 7 0x20";	/* no newline at the end */
	struct avc_policydb *db = avc_policydb_parse(text, strlen(text));
	const struct avc_rule *r;

	KUNIT_ASSERT_FALSE(test, IS_ERR(db));
	KUNIT_EXPECT_EQ(test, db->nrules, 3U);
	KUNIT_EXPECT_EQ(test, db->npermissive, 1U);
	r = rule(db, 1, 2, 3);
	KUNIT_ASSERT_NOT_NULL(test, r);
	KUNIT_EXPECT_EQ(test, r->allowed, 0x5U);
	KUNIT_EXPECT_EQ(test, r->auditallow, 0x4U);
	KUNIT_EXPECT_EQ(test, r->dontaudit, 0x8U);
	r = rule(db, 10, 2, 65535);
	KUNIT_ASSERT_NOT_NULL(test, r);
	KUNIT_EXPECT_EQ(test, r->allowed, 10U);
	r = rule(db, 5, 6, 7);
	KUNIT_ASSERT_NOT_NULL(test, r);
	KUNIT_EXPECT_EQ(test, r->allowed, 0x20U);
	KUNIT_EXPECT_NULL(test, rule(db, 1, 2, 4));
	KUNIT_EXPECT_NULL(test, rule(db, 2, 2, 3));
	KUNIT_EXPECT_TRUE(test, avc_policydb_permissive(db, 9));
	KUNIT_EXPECT_FALSE(test, avc_policydb_permissive(db, 1));
	avc_policydb_free(db);
}

static void policy_bad_lines(struct kunit *test)
{
	static const char *const bad[] = {
		"allow 1 2 3\n",		/* a field short */
		"allow 1 2 3 4 5\n",		/* a field long */
		"allow 1 2 65536 1\n",		/* tclass is 16 bits */
		"allow 1 2 3 4294967296\n",
		"allow 1 2 3 -1\n",
		"deny 1 2 3 1\n",		/* no such rule */
		"Allow 1 2 3 1\n",		/* keywords are lowercase */
		"allow\n",
		"permissive\n",
		"permissive 1 2\n",
		"allow 1 2 3 1\nallow 1 2 3\n",	/* the second line */
		"allow 1 2 3 1\r\r\n",		/* one CR only */
		"allow 1 2 3 1\n\x01\n",
	};
	struct avc_policydb *db;
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(bad); i++) {
		db = avc_policydb_parse(bad[i], strlen(bad[i]));
		KUNIT_EXPECT_EQ_MSG(test, PTR_ERR_OR_ZERO(db), -EINVAL,
				    "case %u", i);
		if (!IS_ERR(db))
			avc_policydb_free(db);
	}
}

/* A text fed in pieces of every size gives the policy of the whole. */
static void policy_pieces(struct kunit *test)
{
	static const char text[] =
		"allow 1 2 3 0x1 # one\n"
		"allow 4 5 6 0x2\r\n"
		"# allow 7 8 9 0x4\n"
		"permissive 11\n"
		"allow 1 2 3 0x10";
	const size_t len = sizeof(text) - 1;
	struct avc_policy_parser *p;
	struct avc_policydb *db;
	const struct avc_rule *r;
	size_t piece, off, n;

	for (piece = 1; piece <= len; piece++) {
		p = avc_policy_parser_new();
		KUNIT_ASSERT_NOT_NULL(test, p);
		for (off = 0; off < len; off += n) {
			n = min(piece, len - off);
			KUNIT_EXPECT_EQ(test,
					avc_policy_parser_feed(p, text + off, n),
					0);
		}
		db = avc_policy_parser_finish(p);
		avc_policy_parser_free(p);
		KUNIT_ASSERT_FALSE_MSG(test, IS_ERR(db), "pieces of %zu",
				       piece);
		KUNIT_EXPECT_EQ_MSG(test, db->nrules, 2U, "pieces of %zu",
				    piece);
		r = rule(db, 1, 2, 3);
		KUNIT_EXPECT_TRUE(test, r && r->allowed == 0x11);
		r = rule(db, 4, 5, 6);
		KUNIT_EXPECT_TRUE(test, r && r->allowed == 0x2);
		KUNIT_EXPECT_NULL(test, rule(db, 7, 8, 9));
		KUNIT_EXPECT_TRUE(test, avc_policydb_permissive(db, 11));
		avc_policydb_free(db);
	}
}

/* Many rules, in reverse order and repeated: sorted, merged, found. */
static void policy_sorted_merged(struct kunit *test)
{
	const unsigned int n = 3000;
	struct avc_policy_parser *p;
	struct avc_policydb *db;
	const struct avc_rule *r;
	unsigned int i, bad = 0;
	char line[64];
	int len;

	p = avc_policy_parser_new();
	KUNIT_ASSERT_NOT_NULL(test, p);
	for (i = 2 * n; i > 0; i--) {
		len = scnprintf(line, sizeof(line), "allow %u 1 1 0x%x\n",
				(i - 1) % n, 1U << (i % 32));
		KUNIT_ASSERT_EQ(test, avc_policy_parser_feed(p, line, len), 0);
	}
	db = avc_policy_parser_finish(p);
	avc_policy_parser_free(p);
	KUNIT_ASSERT_FALSE(test, IS_ERR(db));
	KUNIT_EXPECT_EQ(test, db->nrules, n);
	for (i = 0; i < n; i++) {
		r = rule(db, i, 1, 1);
		if (!r || r->allowed != ((1U << ((i + 1) % 32)) |
					 (1U << ((i + 1 + n) % 32))))
			bad++;
		if (i && db->rules[i - 1].key.ssid >= db->rules[i].key.ssid)
			bad++;
	}
	KUNIT_EXPECT_EQ(test, bad, 0U);
	KUNIT_EXPECT_NULL(test, rule(db, n, 1, 1));
	avc_policydb_free(db);
}

static void decision(struct kunit *test)
{
	static const char text[] =
		"allow 1 2 3 0x7\n"
		"auditallow 1 2 3 0x2\n"
		"dontaudit 1 2 3 0x30\n"
		"permissive 4\n";
	u32 ssid = 1;
	struct avc_rcu_decision avd;
	struct avc_ss_loaded out;
	struct avc_ss ss;

	KUNIT_ASSERT_EQ(test, avc_ss_init(&ss), 0);
	avc_ss_compute(&ss, ssid, 2, 3, &avd);
	KUNIT_EXPECT_EQ(test, avd.allowed, 0U);	/* the empty policy */
	KUNIT_EXPECT_EQ(test, avd.auditdeny, ~0U);
	KUNIT_EXPECT_EQ(test, avd.seqno, 0U);
	KUNIT_EXPECT_EQ(test, avc_ss_load(&ss, text, strlen(text), &out), 0);
	KUNIT_EXPECT_EQ(test, out.seqno, 1U);
	KUNIT_EXPECT_EQ(test, out.rules, 1U);
	KUNIT_EXPECT_EQ(test, out.permissive, 1U);
	KUNIT_EXPECT_EQ(test, avc_ss_seqno(&ss), 1U);

	avc_ss_compute(&ss, ssid, 2, 3, &avd);
	KUNIT_EXPECT_EQ(test, avd.allowed, 0x7U);
	KUNIT_EXPECT_EQ(test, avd.auditallow, 0x2U);
	KUNIT_EXPECT_EQ(test, avd.auditdeny, ~0x30U);
	KUNIT_EXPECT_EQ(test, avd.seqno, 1U);
	KUNIT_EXPECT_EQ(test, avd.flags, 0U);

	ssid = 4;	/* permissive: nothing allowed, nothing refused */
	avc_ss_compute(&ss, ssid, 2, 3, &avd);
	KUNIT_EXPECT_EQ(test, avd.allowed, 0U);
	KUNIT_EXPECT_EQ(test, avd.flags, (u32)AVC_RCU_DECISION_PERMISSIVE);

	/* A bad load changes nothing. */
	KUNIT_EXPECT_EQ(test, avc_ss_load(&ss, "allow 1 2 3\n", 12, &out),
			-EINVAL);
	KUNIT_EXPECT_EQ(test, avc_ss_seqno(&ss), 1U);
	ssid = 1;
	avc_ss_compute(&ss, ssid, 2, 3, &avd);
	KUNIT_EXPECT_EQ(test, avd.allowed, 0x7U);
	avc_ss_destroy(&ss);
	rcu_barrier();	/* the replaced empty policy's RCU free */
}

static struct kunit_case avc_ss_cases[] = {
	KUNIT_CASE(number_u32),
	KUNIT_CASE(number_fields),
	KUNIT_CASE(policy_parse),
	KUNIT_CASE(policy_bad_lines),
	KUNIT_CASE(policy_pieces),
	KUNIT_CASE(policy_sorted_merged),
	KUNIT_CASE(decision),
	{}
};

static struct kunit_suite avc_ss_suite = {
	.name = "avc_rcu_ss",
	.test_cases = avc_ss_cases,
};

kunit_test_suite(avc_ss_suite);
