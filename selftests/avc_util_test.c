// SPDX-License-Identifier: GPL-2.0
/*
 * Unit tests of the selftest helpers themselves (libavc_util.a): the
 * strict parsers (avc_fileformat.c) on crafted good and bad text, the
 * policy model and the policy text generator (avc_model.c, re-parsed by a
 * reference parser written here), the PRNG.  Needs no module: it runs on
 * any host and first in the guest suite.
 */
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "avc_fileformat.h"
#include "avc_io.h"
#include "avc_model.h"
#include "kselftest_harness.h"

/* The parsers on NUL terminated text. */
static int p_hash(const char *t, struct tst_hash_stats_file *hs)
{
	return tst_parse_hash_stats(t, strlen(t), hs);
}

static int p_cache(const char *t, struct tst_cache_stats_sum *cs)
{
	return tst_parse_cache_stats(t, strlen(t), cs);
}

static int p_reply(const char *t, struct tst_reply *r)
{
	return tst_parse_reply(t, strlen(t), r);
}

static int p_u32(const char *t, __u32 *v)
{
	return tst_parse_u32_line(t, strlen(t), v);
}

static int p_cpus(const char *t, unsigned int *n)
{
	return tst_parse_cpu_list(t, strlen(t), n);
}

TEST(hash_stats_good)
{
	struct tst_hash_stats_file hs;

	const char *t;

	t = "entries: 3\nbuckets used: 2/512\nlongest chain: 2\n";
	ASSERT_EQ(0, p_hash(t, &hs));
	EXPECT_EQ(3, hs.entries);
	EXPECT_EQ(2, hs.used);
	EXPECT_EQ(512, hs.slots);
	EXPECT_EQ(2, hs.longest);
	t = "entries: 0\nbuckets used: 0/16\nlongest chain: 0\n";
	ASSERT_EQ(0, p_hash(t, &hs));
	EXPECT_EQ(0, hs.entries);
	EXPECT_EQ(16, hs.slots);
	/* %d may print a sign: the parser reads it, the tests judge it. */
	t = "entries: -1\nbuckets used: 0/16\nlongest chain: 0\n";
	ASSERT_EQ(0, p_hash(t, &hs));
	EXPECT_EQ(-1, hs.entries);
}

TEST(hash_stats_bad)
{
	static const char * const bad[] = {
		"",
		"entries: 3\nbuckets used: 2/512\nlongest chain: 2",
		"entries: 3\nbuckets used: 2/512\nlongest chain: 2\n\n",
		"entries: 3\nbuckets used: 2/512\nlongest chain: 2\nx",
		"entries:  3\nbuckets used: 2/512\nlongest chain: 2\n",
		"entries: 03\nbuckets used: 2/512\nlongest chain: 2\n",
		"entries: +3\nbuckets used: 2/512\nlongest chain: 2\n",
		"entries: -0\nbuckets used: 2/512\nlongest chain: 2\n",
		"entries: 3\x20\nbuckets used: 2/512\nlongest chain: 2\n",
		"entries: 3\nbuckets used: 2 /512\nlongest chain: 2\n",
		"entries: 3\nbuckets used: 2/\nlongest chain: 2\n",
		"entries: 3\nbuckets used: 512\nlongest chain: 2\n",
		"entries: 3\nbuckets  used: 2/512\nlongest chain: 2\n",
		"Entries: 3\nbuckets used: 2/512\nlongest chain: 2\n",
		"entries: 3\nlongest chain: 2\nbuckets used: 2/512\n",
		"entries: 3\r\nbuckets used: 2/512\r\nlongest chain: 2\r\n",
		"entries: 2147483648\nbuckets used: 2/512\nlongest chain: 2\n",
		"entries: x\nbuckets used: 2/512\nlongest chain: 2\n",
	};
	struct tst_hash_stats_file hs;
	size_t i;

	for (i = 0; i < ARRAY_LEN(bad); i++)
		EXPECT_EQ(-EINVAL, p_hash(bad[i], &hs))
			TH_LOG("accepted bad text #%zu", i);
}

#define HDR AVC_RCU_CACHE_STATS_HEADER "\n"

TEST(cache_stats_good)
{
	struct tst_cache_stats_sum cs, a, b;

	ASSERT_EQ(0, p_cache(HDR "10 7 3 3 0 1\n5 1 4 4 2 2\n", &cs));
	EXPECT_EQ(2, cs.rows);
	EXPECT_EQ(15, cs.sum[TST_LOOKUPS]);
	EXPECT_EQ(8, cs.sum[TST_HITS]);
	EXPECT_EQ(7, cs.sum[TST_MISSES]);
	EXPECT_EQ(7, cs.sum[TST_ALLOCATIONS]);
	EXPECT_EQ(2, cs.sum[TST_RECLAIMS]);
	EXPECT_EQ(3, cs.sum[TST_FREES]);

	/* Sums wrap modulo 2^32, as the per-CPU counters do. */
	ASSERT_EQ(0, p_cache(HDR "4294967295 4294967295 0 0 0 0\n"
			     "1 1 0 0 0 0\n", &a));
	EXPECT_EQ(0, a.sum[TST_LOOKUPS]);
	ASSERT_EQ(0, p_cache(HDR "3 3 0 0 0 0\n1 1 0 0 0 0\n", &b));
	EXPECT_EQ(4, tst_stat_delta(&a, &b, TST_LOOKUPS));
	EXPECT_EQ(4, tst_stat_delta(&a, &b, TST_HITS));
	EXPECT_EQ(0, tst_stat_delta(&a, &b, TST_MISSES));
}

TEST(cache_stats_bad)
{
	static const char * const bad[] = {
		"",
		HDR,
		"lookups hits misses allocations reclaims frees",
		"lookups hits misses allocs reclaims frees\n1 1 0 0 0 0\n",
		"lookups  hits misses allocations reclaims frees\n1 1 0 0 0 0\n",
		" " HDR "1 1 0 0 0 0\n",
		HDR "1 1 0 0 0\n",
		HDR "1 1 0 0 0 0 0\n",
		HDR "1 1 0 0 0 0",
		HDR "1  1 0 0 0 0\n",
		HDR "1 1 0 0 0 0\x20\n",
		HDR " 1 1 0 0 0 0\n",
		HDR "1 1 0 0 0 -1\n",
		HDR "1 1 0 0 0 4294967296\n",
		HDR "01 1 0 0 0 0\n",
		HDR "1 1 0 0 0 0\n\n",
		HDR "1\t1 0 0 0 0\n",
		HDR "1 1 0 0 0 0\n" HDR "1 1 0 0 0 0\n",
	};
	struct tst_cache_stats_sum cs;
	size_t i;

	for (i = 0; i < ARRAY_LEN(bad); i++)
		EXPECT_EQ(-EINVAL, p_cache(bad[i], &cs))
			TH_LOG("accepted bad text #%zu", i);
}

TEST(reply_good)
{
	struct tst_reply r;

	ASSERT_EQ(0, p_reply("f ffffffff a0 fffffffe 7 1", &r));
	EXPECT_EQ(0xf, r.allowed);
	EXPECT_EQ(0xffffffffU, r.decided);
	EXPECT_EQ(0xa0, r.auditallow);
	EXPECT_EQ(0xfffffffeU, r.auditdeny);
	EXPECT_EQ(7, r.seqno);
	EXPECT_EQ(1, r.flags);
	ASSERT_EQ(0, p_reply("0 ffffffff 0 ffffffff 4294967295 0", &r));
	EXPECT_EQ(4294967295U, r.seqno);
}

TEST(reply_bad)
{
	static const char * const bad[] = {
		"",
		"f ffffffff a0 fffffffe 7 1\n",
		"F ffffffff a0 fffffffe 7 1",
		"0xf ffffffff a0 fffffffe 7 1",
		"0f ffffffff a0 fffffffe 7 1",
		"f 1ffffffff a0 fffffffe 7 1",
		"f ffffffff a0 fffffffe 4294967296 1",
		"f ffffffff a0 fffffffe a 1",
		"f ffffffff a0 fffffffe 7",
		"f ffffffff a0 fffffffe 7 1 0",
		"f  ffffffff a0 fffffffe 7 1",
		" f ffffffff a0 fffffffe 7 1",
		"f ffffffff a0 fffffffe 7 1 ",
		"f ffffffff a0 fffffffe -7 1",
	};
	struct tst_reply r;
	size_t i;

	for (i = 0; i < ARRAY_LEN(bad); i++)
		EXPECT_EQ(-EINVAL, p_reply(bad[i], &r))
			TH_LOG("accepted bad reply #%zu", i);
}

TEST(u32_line)
{
	static const char * const bad[] = {
		"", "512", "0512\n", " 512\n", "512\x20\n", "512\n\n", "+512\n",
		"-1\n", "4294967296\n", "0x10\n", "\n",
	};
	__u32 v;
	size_t i;

	ASSERT_EQ(0, p_u32("512\n", &v));
	EXPECT_EQ(512, v);
	ASSERT_EQ(0, p_u32("0\n", &v));
	EXPECT_EQ(0, v);
	ASSERT_EQ(0, p_u32("4294967295\n", &v));
	EXPECT_EQ(4294967295U, v);
	for (i = 0; i < ARRAY_LEN(bad); i++)
		EXPECT_EQ(-EINVAL, p_u32(bad[i], &v))
			TH_LOG("accepted bad line #%zu", i);
}

TEST(cpu_list)
{
	unsigned int n;

	ASSERT_EQ(0, p_cpus("0\n", &n));
	EXPECT_EQ(1, n);
	ASSERT_EQ(0, p_cpus("0-1\n", &n));
	EXPECT_EQ(2, n);
	ASSERT_EQ(0, p_cpus("0-31\n", &n));
	EXPECT_EQ(32, n);
	ASSERT_EQ(0, p_cpus("0-3,8-11,16\n", &n));
	EXPECT_EQ(9, n);
	EXPECT_EQ(-EINVAL, p_cpus("\n", &n));
	EXPECT_EQ(-EINVAL, p_cpus("3-1\n", &n));
	EXPECT_EQ(-EINVAL, p_cpus("a\n", &n));
	EXPECT_EQ(-EINVAL, p_cpus("0-\n", &n));
}

TEST(policy_model)
{
	struct tst_policy p = { 0 };
	struct tst_decision d;

	tst_policy_add(&p, TST_MODEL_ALLOW, 1, 2, 3, 0x1);
	tst_policy_add(&p, TST_MODEL_ALLOW, 1, 2, 3, 0x6);
	tst_policy_add(&p, TST_MODEL_AUDITALLOW, 1, 2, 3, 0x4);
	tst_policy_add(&p, TST_MODEL_DONTAUDIT, 1, 2, 3, 0x10);
	tst_policy_add(&p, TST_MODEL_DONTAUDIT, 1, 2, 3, 0x20);
	tst_policy_add(&p, TST_MODEL_ALLOW, 1, 2, 4, 0x100);
	tst_policy_add(&p, TST_MODEL_PERMISSIVE, 9, 0, 0, 0);

	tst_policy_decide(&p, 1, 2, 3, &d);
	EXPECT_EQ(0x7, d.allowed);
	EXPECT_EQ(0x4, d.auditallow);
	EXPECT_EQ(~0x30U, d.auditdeny);
	EXPECT_EQ(0, d.flags);
	tst_policy_decide(&p, 1, 2, 4, &d);
	EXPECT_EQ(0x100, d.allowed);
	EXPECT_EQ(0xffffffffU, d.auditdeny);
	tst_policy_decide(&p, 2, 1, 3, &d);
	EXPECT_EQ(0, d.allowed);
	EXPECT_EQ(0, d.auditallow);
	EXPECT_EQ(0xffffffffU, d.auditdeny);
	EXPECT_EQ(0, d.flags);
	tst_policy_decide(&p, 9, 1, 1, &d);
	EXPECT_EQ(0, d.allowed);
	EXPECT_EQ(0xffffffffU, d.auditdeny);
	EXPECT_EQ(AVC_RCU_DECISION_PERMISSIVE, d.flags);
	tst_policy_free(&p);
}

/* A reference parser for the policy text, to check the generator. */
static int ref_num(const char *tok, __u32 max, __u32 *val)
{
	unsigned long long v;
	char *end;

	if (!tok || !*tok || *tok == '-' || *tok == '+')
		return -1;
	if (tok[0] == '0' && tok[1] == 'x') {
		if (!tok[2])
			return -1;
		errno = 0;
		v = strtoull(tok + 2, &end, 16);
	} else {
		if (tok[0] == '0' && tok[1])
			return -1;
		errno = 0;
		v = strtoull(tok, &end, 10);
	}
	if (errno || *end || v > max)
		return -1;
	*val = (__u32)v;
	return 0;
}

static int ref_parse(char *text, struct tst_policy *p)
{
	static const char * const kw[] = {
		"allow", "auditallow", "dontaudit", "permissive",
	};
	char *line, *save = NULL;

	for (line = strtok_r(text, "\n", &save); line;
	     line = strtok_r(NULL, "\n", &save)) {
		char *hash = strchr(line, '#'), *tsave = NULL, *tok;
		__u32 v[4] = { 0 };
		unsigned int k, n, want;

		if (hash)
			*hash = '\0';
		tok = strtok_r(line, " \t", &tsave);
		if (!tok)
			continue;
		for (k = 0; k < ARRAY_LEN(kw); k++)
			if (!strcmp(tok, kw[k]))
				break;
		if (k == ARRAY_LEN(kw))
			return -1;
		want = k == TST_MODEL_PERMISSIVE ? 1 : 4;
		for (n = 0; (tok = strtok_r(NULL, " \t", &tsave)); n++)
			if (n >= want ||
			    ref_num(tok, n == 2 ? 65535 : UINT32_MAX, &v[n]))
				return -1;
		if (n != want)
			return -1;
		tst_policy_add(p, (enum tst_model_rule_kind)k, v[0], v[1], v[2],
			       v[3]);
	}
	return 0;
}

TEST(policy_render_roundtrip)
{
	struct tst_policy p = { 0 }, q = { 0 };
	struct tst_decision d1, d2;
	struct tst_buf text = { 0 };
	__u64 rng = tst_seed(), seed = rng;
	int i;

	for (i = 0; i < 2000; i++) {
		__u32 k = tst_rand_range(&rng, 0, 3);

		tst_policy_add(&p, (enum tst_model_rule_kind)k,
			       tst_rand_range(&rng, 1, 20),
			       tst_rand_range(&rng, 1, 20),
			       tst_rand_range(&rng, 1, 65535),
			       (__u32)tst_rand(&rng));
	}
	tst_policy_render(&p, &rng, &text);
	ASSERT_EQ(0, ref_parse(text.data, &q)) TH_LOG("seed %llu",
						      (unsigned long long)seed);
	ASSERT_EQ(p.nr, q.nr);
	for (i = 0; i < (int)p.nr; i++) {
		const struct tst_model_rule *r = &p.rules[i];

		tst_policy_decide(&p, r->ssid, r->tsid, r->tclass, &d1);
		tst_policy_decide(&q, r->ssid, r->tsid, r->tclass, &d2);
		ASSERT_EQ(0, memcmp(&d1, &d2, sizeof(d1)));
	}
	tst_buf_free(&text);
	tst_policy_free(&p);
	tst_policy_free(&q);
}

/*
 * The oracle's policy text (tst_oracle_policy_text()), re-parsed by the
 * reference parser and decided by the model, gives the decisions
 * tst_oracle_expected() predicts, for keys in and out of the key space,
 * for seqno 0 (the empty policy) and for the families the tests load.
 * Returns the first key that differs, as s << 16 | t << 8 | c, else -1.
 */
static long oracle_diff(const struct tst_oracle *o, __u32 q,
			const struct tst_policy *p)
{
	struct tst_decision d1, d2;
	__u32 s, t, c;

	for (s = 0; s <= o->ns + 1; s++)
		for (t = 0; t <= o->nt + 1; t++)
			for (c = 0; c <= o->nc + 1; c++) {
				tst_policy_decide(p, s, t, c, &d1);
				tst_oracle_expected(o, s, t, c, q, &d2);
				if (memcmp(&d1, &d2, sizeof(d1)))
					return (long)(s << 16 | t << 8 | c);
			}
	return -1;
}

TEST(oracle_text_matches_expected)
{
	static const struct tst_oracle families[] = {
		TST_ORACLE_TORTURE,
		{ .ns = 24, .nt = 24, .nc = 4, .rule_mod = 1 },
		{ .ns = 24, .nt = 24, .nc = 4, .rule_mod = 16 },
	};
	struct tst_buf text = { 0 };
	unsigned int f, rules = 0;
	__u32 q;

	for (f = 0; f < ARRAY_LEN(families); f++) {
		for (q = 0; q < 12; q++) {
			struct tst_policy p = { 0 };

			tst_oracle_policy_text(&families[f], q, &text);
			ASSERT_EQ(0, ref_parse(text.data, &p));
			if (q == 0)
				ASSERT_EQ(0, p.nr);
			rules += p.nr;
			EXPECT_EQ(-1, oracle_diff(&families[f], q, &p))
				TH_LOG("family %u, seqno %u", f, q);
			tst_policy_free(&p);
		}
	}
	EXPECT_LT(0, rules);
	tst_buf_free(&text);
}

TEST(prng_and_mix)
{
	__u64 a = 42, b = 42;
	int i;

	for (i = 0; i < 1000; i++) {
		__u32 v = tst_rand_range(&a, 5, 9);

		ASSERT_EQ(tst_rand(&b) % 5 + 5, v);
		ASSERT_LE(5, v);
		ASSERT_GE(9, v);
	}
	EXPECT_EQ(tst_mix(1, 2, 3, 4), tst_mix(1, 2, 3, 4));
	EXPECT_NE(tst_mix(1, 2, 3, 4), tst_mix(1, 2, 3, 5));
	EXPECT_NE(tst_mix(1, 2, 3, 4), tst_mix(2, 1, 3, 4));
}

TEST_HARNESS_MAIN
