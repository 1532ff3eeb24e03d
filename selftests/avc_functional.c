// SPDX-License-Identifier: GPL-2.0
/*
 * avc_rcu functional tests: miss then hit, decisions equal to the policy
 * (checked against an independent model of a random policy), the counter
 * identities, and the access file's input checking (number syntax, size
 * limit), reply format and transactions (write or pwrite, then read).
 *
 * Environment: AVC_RCU_MNT (mount point), AVC_SEED (PRNG seed, printed).
 */
#include <errno.h>
#include <fcntl.h>
#include <linux/capability.h>
#include <sched.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "kselftest_harness.h"
#include "avc_test.h"

/* The threshold the tests run with; the previous value is restored. */
#define FUNC_THRESHOLD	4096

FIXTURE(avc) {
	struct tst_saved_threshold thr;
};

FIXTURE_SETUP(avc)
{
	TST_ASSERT_MOUNTED();
	TST_SAVE_THRESHOLD(&self->thr);
	TST_OK(tst_write_threshold(FUNC_THRESHOLD));
}

FIXTURE_TEARDOWN(avc)
{
	TST_RESTORE_THRESHOLD(&self->thr);
}

/* The same for a string literal. */
#define LOADS(lit, seq_out)	TST_LOAD(lit, sizeof(lit) - 1, seq_out)

static const char small_policy[] =
	"# functional: a small policy\n"
	"allow 100 200 3 0x7\n"
	"auditallow 100 200 3 0x4\n"
	"dontaudit 100 200 3 0x10\n";

TEST_F_TIMEOUT(avc, miss_then_hit, 120)
{
	static const __u32 keys[][3] = {
		{ 100, 200, 3 },	/* has rules */
		{ 100, 201, 3 },	/* has none */
	};
	struct tst_hash_stats_file hs0, hs1, hs2;
	struct tst_cache_stats_sum cs0, cs1, cs2;
	struct tst_reply r1, r2;
	struct tst_decision d;
	struct tst_policy p = { 0 };
	__u32 seq;
	size_t i;

	tst_policy_add(&p, TST_MODEL_ALLOW, 100, 200, 3, 0x7);
	tst_policy_add(&p, TST_MODEL_AUDITALLOW, 100, 200, 3, 0x4);
	tst_policy_add(&p, TST_MODEL_DONTAUDIT, 100, 200, 3, 0x10);
	TST_LOAD(small_policy, sizeof(small_policy) - 1, &seq);

	for (i = 0; i < ARRAY_LEN(keys); i++) {
		const __u32 *k = keys[i];

		tst_policy_decide(&p, k[0], k[1], k[2], &d);
		TST_QUIESCE(TST_QUIESCE_MS, &hs0, &cs0);

		TST_QUERY(k[0], k[1], k[2], 1, &r1);
		ASSERT_EQ(0, tst_reply_matches(&r1, &d, seq))
			TH_LOG("miss: got %s, expected %s", tst_reply_str(&r1),
			       tst_decision_str(&d));
		TST_OK(tst_read_cache_stats(&cs1));
		TST_OK(tst_read_hash_stats(&hs1));
		EXPECT_EQ(1, tst_stat_delta(&cs0, &cs1, TST_LOOKUPS));
		EXPECT_EQ(1, tst_stat_delta(&cs0, &cs1, TST_MISSES));
		EXPECT_EQ(0, tst_stat_delta(&cs0, &cs1, TST_HITS));
		EXPECT_EQ(1, tst_stat_delta(&cs0, &cs1, TST_ALLOCATIONS));
		EXPECT_EQ(0, tst_stat_delta(&cs0, &cs1, TST_RECLAIMS));
		EXPECT_EQ(hs0.entries + 1, hs1.entries);

		TST_QUERY(k[0], k[1], k[2], 0xffffffff, &r2);
		ASSERT_EQ(0, tst_reply_matches(&r2, &d, seq))
			TH_LOG("hit: got %s, expected %s", tst_reply_str(&r2),
			       tst_decision_str(&d));
		TST_OK(tst_read_cache_stats(&cs2));
		TST_OK(tst_read_hash_stats(&hs2));
		EXPECT_EQ(1, tst_stat_delta(&cs1, &cs2, TST_LOOKUPS));
		EXPECT_EQ(1, tst_stat_delta(&cs1, &cs2, TST_HITS));
		EXPECT_EQ(0, tst_stat_delta(&cs1, &cs2, TST_MISSES));
		EXPECT_EQ(0, tst_stat_delta(&cs1, &cs2, TST_ALLOCATIONS));
		EXPECT_EQ(hs1.entries, hs2.entries);
	}
	tst_policy_free(&p);
}

/* The key space the random policy and queries draw from. */
#define NR_SID		48
#define NR_CLASS	12
#define NR_HOT		160
#define NR_RULES	400
#define NR_QUERIES	3000

struct key {
	__u32 ssid, tsid, tclass;
};

static void random_key(__u64 *rng, struct key *k)
{
	k->ssid = tst_rand_range(rng, 1, NR_SID);
	k->tsid = tst_rand_range(rng, 1, NR_SID);
	k->tclass = tst_rand_range(rng, 1, NR_CLASS);
}

static __u32 random_perms(__u64 *rng)
{
	switch (tst_rand(rng) % 8) {
	case 0:
		return 0;
	case 1:
		return 0xffffffff;
	case 2:
		return 1U << (tst_rand(rng) % 32);
	default:
		return (__u32)tst_rand(rng);
	}
}

/* A random policy over hot keys: several rules OR on most of them. */
static void random_policy(__u64 *rng, struct tst_policy *p,
			  struct key *hot)
{
	unsigned int i;

	for (i = 0; i < NR_HOT; i++)
		random_key(rng, &hot[i]);
	/* Extremes of every field. */
	hot[0] = (struct key){ 0xffffffff, 0xffffffff, 65535 };
	hot[1] = (struct key){ 0, 1, 1 };
	for (i = 0; i < NR_RULES; i++) {
		const struct key *k = &hot[i < NR_HOT ? i :
					   tst_rand(rng) % NR_HOT];
		__u64 dice = tst_rand(rng) % 10;
		enum tst_model_rule_kind kind;

		if (dice < 5)
			kind = TST_MODEL_ALLOW;
		else if (dice < 7)
			kind = TST_MODEL_AUDITALLOW;
		else if (dice < 9)
			kind = TST_MODEL_DONTAUDIT;
		else
			kind = TST_MODEL_PERMISSIVE;
		tst_policy_add(p, kind, k->ssid, k->tsid, k->tclass,
			       kind == TST_MODEL_PERMISSIVE ? 0 :
			       random_perms(rng));
	}
}

TEST_F_TIMEOUT(avc, decisions_match_policy, 300)
{
	struct tst_policy p = { 0 };
	struct tst_buf text = { 0 };
	struct key hot[NR_HOT];
	__u64 seed = tst_seed(), rng = seed;
	unsigned int i, with_rules = 0;
	__u32 seq;

	tst_diag("decisions_match_policy: AVC_SEED=%llu",
		 (unsigned long long)seed);
	random_policy(&rng, &p, hot);
	tst_policy_render(&p, &rng, &text);
	/* The last line ends without a newline. */
	if (text.len && text.data[text.len - 1] == '\n')
		text.len--;
	TST_LOAD(text.data, text.len, &seq);

	for (i = 0; i < NR_QUERIES; i++) {
		struct tst_decision d;
		struct tst_reply r;
		struct key k;

		if (tst_rand(&rng) % 2)
			k = hot[tst_rand(&rng) % NR_HOT];
		else
			random_key(&rng, &k);
		tst_policy_decide(&p, k.ssid, k.tsid, k.tclass, &d);
		if (d.allowed || d.auditallow || ~d.auditdeny)
			with_rules++;
		TST_QUERY(k.ssid, k.tsid, k.tclass, (__u32)tst_rand(&rng),
			  &r);
		ASSERT_EQ(0, tst_reply_matches(&r, &d, seq))
			TH_LOG("query #%u key %u %u %u: got %s, expected %s seqno=%u (seed %llu)",
			       i, k.ssid, k.tsid, k.tclass, tst_reply_str(&r),
			       tst_decision_str(&d), seq,
			       (unsigned long long)seed);
	}
	tst_diag("decisions_match_policy: %u answers checked, %u with rules",
		 NR_QUERIES, with_rules);
	EXPECT_LT(NR_QUERIES / 4, with_rules);
	tst_buf_free(&text);
	tst_policy_free(&p);
}

TEST_F_TIMEOUT(avc, lookups_hits_misses, 120)
{
	const unsigned int distinct = 300, total = 1000;
	struct tst_cache_stats_sum cs0, cs1;
	struct tst_hash_stats_file hs0, hs1;
	__u64 rng = tst_seed();
	struct tst_reply r;
	__u32 seq;
	unsigned int i;

	/* An empty policy flushes the cache: every key starts cold. */
	TST_LOAD("# empty\n", 8, &seq);
	TST_QUIESCE(TST_QUIESCE_MS, &hs0, &cs0);
	ASSERT_EQ(0, hs0.entries);
	/* Keys 1..distinct, each once, then random repeats. */
	for (i = 0; i < total; i++) {
		__u32 s = i < distinct ? i + 1 :
			     tst_rand_range(&rng, 1, distinct);

		TST_QUERY(s, 7, 7, 0, &r);
		ASSERT_EQ(seq, r.seqno);
	}
	TST_QUIESCE(TST_QUIESCE_MS, &hs1, &cs1);
	EXPECT_EQ(total, tst_stat_delta(&cs0, &cs1, TST_LOOKUPS));
	EXPECT_EQ(distinct, tst_stat_delta(&cs0, &cs1, TST_MISSES));
	EXPECT_EQ(total - distinct, tst_stat_delta(&cs0, &cs1, TST_HITS));
	EXPECT_EQ(distinct, tst_stat_delta(&cs0, &cs1, TST_ALLOCATIONS));
	EXPECT_EQ(0, tst_stat_delta(&cs0, &cs1, TST_RECLAIMS));
	EXPECT_EQ(0, tst_stat_delta(&cs0, &cs1, TST_FREES));
	EXPECT_EQ((long)distinct, hs1.entries);
	/* The identity holds for the totals since the module loaded. */
	EXPECT_EQ(cs1.sum[TST_LOOKUPS],
		  (__u32)(cs1.sum[TST_HITS] + cs1.sum[TST_MISSES]));
}

TEST_F_TIMEOUT(avc, allocations_frees_entries, 120)
{
	struct tst_cache_stats_sum cs0, cs1, cs2;
	struct tst_hash_stats_file hs0, hs1, hs2;
	__u32 seq, threshold;
	struct tst_reply r;
	unsigned int i;

	LOADS("allow 1 2 3 4\n", &seq);
	for (i = 0; i < 200; i++)
		TST_QUERY(i + 1, i % 5 + 1, i % 3 + 1, 0, &r);
	TST_QUIESCE(TST_QUIESCE_MS, &hs0, &cs0);
	TST_OK(tst_read_threshold(&threshold));
	EXPECT_EQ(200, hs0.entries);
	EXPECT_GE((long)threshold + AVC_RECLAIM_CHUNK, hs0.entries);
	EXPECT_EQ((__u32)hs0.entries,
		  cs0.sum[TST_ALLOCATIONS] - cs0.sum[TST_FREES]);

	/* A reload flushes: every entry is freed, none is "reclaimed". */
	LOADS("allow 1 2 3 5\n", &seq);
	TST_OK(tst_read_hash_stats(&hs1));
	EXPECT_EQ(0, hs1.entries);
	TST_QUIESCE(TST_QUIESCE_MS, &hs1, &cs1);
	EXPECT_EQ(0, hs1.entries);
	EXPECT_EQ((__u32)hs0.entries,
		  tst_stat_delta(&cs0, &cs1, TST_FREES));
	EXPECT_EQ(0, tst_stat_delta(&cs0, &cs1, TST_RECLAIMS));
	EXPECT_EQ(0, tst_stat_delta(&cs0, &cs1, TST_ALLOCATIONS));

	/* Fill above a small threshold: frees now come from reclaim. */
	TST_OK(tst_write_threshold(32));
	for (i = 0; i < 200; i++)
		TST_QUERY(i + 1, 9, 9, 0, &r);
	/*
	 * Every miss allocates, but with the background reclaimer those
	 * that find the cache at its threshold before it has made room.
	 * The worker may not run at all during the 200 misses (a guest's
	 * vCPUs share the host's cores): wait until it has made room,
	 * then miss 200 more, so that some of those are cached.
	 */
	if (tst_reclaimer_background() == 1) {
		__u64 deadline = tst_now_ms() + (__u64)TST_QUIESCE_MS;

		for (;;) {
			TST_OK(tst_read_hash_stats(&hs2));
			if (hs2.entries < 32)
				break;
			ASSERT_GE(deadline, tst_now_ms())
				TH_LOG("the reclaimer made no room: %ld entries",
				       hs2.entries);
			usleep(10000);
		}
		for (i = 200; i < 400; i++)
			TST_QUERY(i + 1, 9, 9, 0, &r);
	}
	TST_QUIESCE(TST_QUIESCE_MS, &hs2, &cs2);
	EXPECT_GE(32 + AVC_RECLAIM_CHUNK, hs2.entries);
	if (tst_reclaimer_background() == 1) {
		EXPECT_GE(400, tst_stat_delta(&cs1, &cs2, TST_ALLOCATIONS));
		EXPECT_LT(32, tst_stat_delta(&cs1, &cs2, TST_ALLOCATIONS));
	} else {
		EXPECT_EQ(200, tst_stat_delta(&cs1, &cs2, TST_ALLOCATIONS));
	}
	EXPECT_EQ(tst_stat_delta(&cs1, &cs2, TST_RECLAIMS),
		  tst_stat_delta(&cs1, &cs2, TST_FREES));
	EXPECT_EQ((__u32)hs2.entries,
		  cs2.sum[TST_ALLOCATIONS] - cs2.sum[TST_FREES]);
}

TEST_F_TIMEOUT(avc, access_bad_input, 120)
{
	static const char * const bad[] = {
		"",
		"\n",
		"1",
		"1 2",
		"1 2 3",
		"1 2 3\n",
		"1 2 3 4 5",
		"1 2 3 4 5\n",
		"a b c d",
		"1 2 3 x",
		"1 2 3 4x",
		"1x 2 3 4",
		"1 2 3 0x1g",
		"0x 2 3 4",
		"1,2,3,4",
		"1 2 65536 4",
		"1 2 0x10000 4",
		"1 2 4294967295 4",
		"-1 2 3 4",
		"1 -2 3 4",
		"1 2 -3 4",
		"1 2 3 -4",
		"4294967296 2 3 4",
		"1 4294967296 3 4",
		"1 2 3 4294967296",
		"0x100000000 2 3 4",
		"99999999999999999999 2 3 4",
		"1 2 3 99999999999999999999",
	};
	static const char * const good[] = {
		"1 2 3 4",
		"1 2 3 4\n",
		"0x1 0x2 0x3 0x4",
		"4294967295 4294967295 65535 4294967295",
		"0xffffffff 0xffffffff 0xffff 0xffffffff\n",
		"0 0 1 0",
	};
	struct tst_reply r;
	size_t i;

	for (i = 0; i < ARRAY_LEN(bad); i++) {
		int ret = tst_access_raw(bad[i], strlen(bad[i]), &r);

		EXPECT_EQ(-EINVAL, ret)
			TH_LOG("bad request #%zu: expected EINVAL, got %s",
			       i, ret ? strerror(-ret) : "success");
	}
	for (i = 0; i < ARRAY_LEN(good); i++) {
		int ret = tst_access_raw(good[i], strlen(good[i]), &r);

		EXPECT_EQ(0, ret)
			TH_LOG("good request #%zu: %s (reply '%s')", i,
			       strerror(-ret), tst_last_reply_text());
	}
}

/*
 * One meaning for every number, checked exactly: decimal unless it starts
 * with 0x or 0X (hexadecimal, either case of digits); a leading zero is a
 * decimal digit, never octal (010 is ten, 08 eight).
 */
TEST_F_TIMEOUT(avc, number_syntax, 120)
{
	static const char policy[] =
		"allow 10 1 1 0xa\n"
		"allow 8 1 1 0x8\n"
		"allow 16 1 1 0x10\n"
		"allow 77 1 1 0x4d\n"
		"allow 171 1 1 0xab\n";
	static const struct {
		const char *req;
		__u32 allowed;
	} q[] = {
		{ "010 1 1 1", 0xa },
		{ "0010 01 001 1", 0xa },
		{ "08 1 1 1", 0x8 },
		{ "0x10 1 1 1", 0x10 },
		{ "0X10 1 1 1", 0x10 },
		{ "0x010 1 1 1", 0x10 },
		{ "077 1 1 1", 0x4d },
		{ "0xAb 0X1 0X01 0X0", 0xab },
		{ "0XaB 1 1 1", 0xab },
	};
	struct tst_reply r;
	__u32 seq;
	size_t i;

	TST_LOAD(policy, sizeof(policy) - 1, &seq);
	for (i = 0; i < ARRAY_LEN(q); i++) {
		int ret = tst_access_raw(q[i].req, strlen(q[i].req), &r);

		ASSERT_EQ(0, ret) TH_LOG("'%s': %s", q[i].req, strerror(-ret));
		EXPECT_EQ(q[i].allowed, r.allowed)
			TH_LOG("'%s' answered for another key", q[i].req);
		EXPECT_EQ(seq, r.seqno);
	}
	/* 0X with nothing after it is no number, as 0x is not. */
	TST_FAILS(EINVAL, tst_access_raw("0X 1 1 1", 8, &r));
	TST_FAILS(EINVAL, tst_access_raw("1 1 1 0X", 8, &r));
}

/*
 * The request size limit at limit - 1, limit and limit + 1: a request of
 * up to 128 bytes is judged on its content (blanks before the numbers are
 * allowed), a longer one refused, whatever it holds.
 */
TEST_F_TIMEOUT(avc, access_request_length, 120)
{
	static const char policy[] = "allow 1 2 3 0x5\n";
	static const struct {
		size_t len;
		int nl;
		int err;
	} tc[] = {
		{ 127, 0, 0 }, { 127, 1, 0 }, { 128, 0, 0 }, { 128, 1, 0 },
		{ 129, 0, EINVAL }, { 129, 1, EINVAL }, { 4096, 1, EINVAL },
	};
	char buf[4096];
	struct tst_reply r;
	size_t i, text;
	__u32 seq;

	TST_LOAD(policy, sizeof(policy) - 1, &seq);
	for (i = 0; i < ARRAY_LEN(tc); i++) {
		int ret;

		/* "   ...   1 2 3 1[\n]" */
		text = tc[i].len - tc[i].nl;
		memset(buf, ' ', text - 7);
		memcpy(buf + text - 7, "1 2 3 1", 7);
		if (tc[i].nl)
			buf[text] = '\n';
		ret = tst_access_raw(buf, tc[i].len, &r);
		EXPECT_EQ(-tc[i].err, ret)
			TH_LOG("%zu bytes%s: expected %s, got %s",
			       tc[i].len, tc[i].nl ? " with a newline" : "",
			       tc[i].err ? strerror(tc[i].err) : "success",
			       ret ? strerror(-ret) : "success");
		if (!ret && !tc[i].err) {
			EXPECT_EQ(0x5, r.allowed);
			EXPECT_EQ(seq, r.seqno);
		}
	}
}

TEST_F_TIMEOUT(avc, access_reply_format, 120)
{
	static const char policy[] =
		"allow 5 6 7 0x1f\n"
		"auditallow 5 6 7 0xf0\n"
		"dontaudit 5 6 7 0x80000000\n"
		"permissive 5\n";
	char buf[256], expect[256];
	ssize_t n;
	__u32 seq;
	int fd;

	TST_LOAD(policy, sizeof(policy) - 1, &seq);
	snprintf(expect, sizeof(expect), "1f ffffffff f0 7fffffff %u 1", seq);
	fd = open(tst_path(AVC_RCU_FILE_ACCESS), O_RDWR);
	ASSERT_LE(0, fd);
	ASSERT_EQ(8, write(fd, "5 6 7 1\n", 8));
	n = read(fd, buf, sizeof(buf) - 1);
	ASSERT_LT(0, n);
	buf[n] = '\0';
	EXPECT_STREQ(expect, buf);
	/* Everything was in that one read: then end of file. */
	EXPECT_EQ(0, read(fd, buf, sizeof(buf)));
	close(fd);

	/* Same reply through the cache (a hit) and by 1-byte reads. */
	fd = open(tst_path(AVC_RCU_FILE_ACCESS), O_RDWR);
	ASSERT_LE(0, fd);
	ASSERT_EQ(7, write(fd, "5 6 7 1", 7));
	for (n = 0; n < (ssize_t)sizeof(buf) - 1; n++)
		if (read(fd, buf + n, 1) != 1)
			break;
	buf[n] = '\0';
	EXPECT_STREQ(expect, buf);
	close(fd);
}

/*
 * One open access file carries any number of transactions: each write
 * replaces the answer and rewinds the file, so a loop of write and read on
 * one descriptor (avc_workload's, a benchmark's) sees every answer whole.
 */
TEST_F_TIMEOUT(avc, access_transactions_on_one_fd, 120)
{
	struct tst_cache_stats_sum before, after;
	struct tst_buf pol = { 0 };
	struct tst_reply r;
	char req[64], buf[128];
	ssize_t n;
	__u32 seq, k, i;
	int fd;

	for (k = 1; k <= 50; k++)
		tst_buf_printf(&pol, "allow %u 2 3 0x%x\n", k, k * 3 + 1);
	TST_LOAD(pol.data, pol.len, &seq);
	tst_buf_free(&pol);

	fd = open(tst_path(AVC_RCU_FILE_ACCESS), O_RDWR);
	ASSERT_LE(0, fd);
	/* Nothing asked yet: nothing to read. */
	EXPECT_EQ(0, read(fd, buf, sizeof(buf)));

	TST_OK(tst_read_cache_stats(&before));
	for (i = 0; i < 200; i++) {
		k = 1 + i % 60;
		n = snprintf(req, sizeof(req), "%u 2 3 1", k);
		ASSERT_EQ(n, write(fd, req, n));
		n = read(fd, buf, sizeof(buf) - 1);
		ASSERT_LT(0, n);
		ASSERT_EQ(0, tst_parse_reply(buf, n, &r))
			TH_LOG("reply %u: '%.*s'", i, (int)n, buf);
		EXPECT_EQ(k <= 50 ? k * 3 + 1 : 0, r.allowed);
		EXPECT_EQ(0xffffffff, r.auditdeny);
		EXPECT_EQ(seq, r.seqno);
		EXPECT_EQ(0, read(fd, buf, sizeof(buf)));
	}
	TST_OK(tst_read_cache_stats(&after));
	EXPECT_EQ(200, tst_stat_delta(&before, &after, TST_LOOKUPS));

	/* A write after a partial read rewinds: the new answer whole. */
	ASSERT_EQ(7, write(fd, "1 2 3 1", 7));
	ASSERT_EQ(3, read(fd, buf, 3));
	ASSERT_EQ(7, write(fd, "7 2 3 1", 7));
	n = read(fd, buf, sizeof(buf) - 1);
	ASSERT_LT(0, n);
	ASSERT_EQ(0, tst_parse_reply(buf, n, &r));
	EXPECT_EQ(7 * 3 + 1, r.allowed);
	close(fd);
}

/*
 * After a pwrite(2) of a request a plain read(2) returns the new reply from
 * its start, wherever the previous read had left the file offset.
 */
TEST_F_TIMEOUT(avc, access_pwrite_then_read, 120)
{
	static const char policy[] =
		"allow 1 2 3 0x11\n"
		"allow 2 2 3 0x22\n"
		"allow 3 2 3 0x33\n";
	char buf[128], want[128];
	struct tst_reply r;
	ssize_t n;
	__u32 seq;
	int fd;

	TST_LOAD(policy, sizeof(policy) - 1, &seq);
	fd = open(tst_path(AVC_RCU_FILE_ACCESS), O_RDWR);
	ASSERT_LE(0, fd);
	ASSERT_EQ(7, write(fd, "1 2 3 1", 7));
	/* Part of the first reply: the offset is now 4. */
	ASSERT_EQ(4, read(fd, buf, 4));
	ASSERT_EQ(7, pwrite(fd, "2 2 3 1", 7, 0));
	n = read(fd, buf, sizeof(buf) - 1);
	ASSERT_LT(0, n) TH_LOG("nothing to read after a pwrite");
	buf[n] = '\0';
	snprintf(want, sizeof(want), "22 ffffffff 0 ffffffff %u 0", seq);
	EXPECT_STREQ(want, buf);
	ASSERT_EQ(0, tst_parse_reply(buf, n, &r));
	/* Whole replies read to their end, then a pwrite at another offset. */
	EXPECT_EQ(0, read(fd, buf, sizeof(buf)));
	ASSERT_EQ(7, pwrite(fd, "3 2 3 1", 7, 99));
	n = read(fd, buf, sizeof(buf) - 1);
	ASSERT_LT(0, n);
	buf[n] = '\0';
	snprintf(want, sizeof(want), "33 ffffffff 0 ffffffff %u 0", seq);
	EXPECT_STREQ(want, buf);
	/* pread of the reply at an offset still reads from there. */
	n = pread(fd, buf, sizeof(buf) - 1, 3);
	ASSERT_LT(0, n);
	buf[n] = '\0';
	EXPECT_STREQ(want + 3, buf);
	close(fd);
}

/* The module parameter that lets openers without CAP_MAC_ADMIN query. */
#define ACCESS_UNPRIVILEGED "/sys/module/avc_rcu/parameters/access_unprivileged"

static int set_access_unprivileged(const char *val)
{
	return tst_write_str(ACCESS_UNPRIVILEGED, val);
}

/*
 * In a child as uid 65534 with no capability, or as root without
 * CAP_MAC_ADMIN: the statistics and the seqno are readable, load and
 * cache_threshold refused; the access file refused with EACCES at open
 * (@allowed 0) or answering (@allowed 1).  Exits 0 if all holds.
 */
static void unprivileged_child(int as_nobody, int allowed, __u32 seq)
{
	struct tst_hash_stats_file hs;
	struct tst_cache_stats_sum cs;
	struct tst_reply r;
	int fd;
	__u32 v;

	if (as_nobody && (setgid(65534) || setuid(65534)))
		_exit(10);
	if (!as_nobody && tst_drop_effective_cap(CAP_MAC_ADMIN))
		_exit(10);
	fd = open(tst_path(AVC_RCU_FILE_ACCESS), O_RDWR);
	if (allowed) {
		if (fd < 0)
			_exit(11);
		close(fd);
		if (tst_access(11, 12, 13, 1, &r) || r.allowed != 0x3 ||
		    r.seqno != seq)
			_exit(12);
	} else if (fd >= 0 || errno != EACCES) {
		_exit(11);
	}
	if (tst_read_seqno(&v) || v != seq)
		_exit(13);
	if (tst_read_hash_stats(&hs) || tst_read_cache_stats(&cs))
		_exit(14);
	if (tst_read_threshold(&v))
		_exit(15);
	/* load needs CAP_MAC_ADMIN, and is 0600; cache_threshold 0644. */
	if (tst_load_policy("", 0) != (as_nobody ? -EACCES : -EPERM))
		_exit(16);
	if (tst_write_threshold(77) != (as_nobody ? -EACCES : -EPERM))
		_exit(17);
	_exit(0);
}

/*
 * The access file drives the cache every user's lookups go through: only
 * an opener with CAP_MAC_ADMIN may, unless access_unprivileged is set.  A
 * refused open asks, caches and counts nothing.
 */
TEST_F_TIMEOUT(avc, access_unprivileged, 120)
{
	static const char policy[] = "allow 11 12 13 0x3\n";
	struct tst_cache_stats_sum before, after;
	struct tst_reply r;
	char *old = NULL;
	int as_nobody;
	__u32 seq;
	pid_t pid;

	TST_LOAD(policy, sizeof(policy) - 1, &seq);
	ASSERT_LT(0, tst_read_all(ACCESS_UNPRIVILEGED, &old))
		TH_LOG("no %s", ACCESS_UNPRIVILEGED);
	EXPECT_EQ('N', old[0]) TH_LOG("access_unprivileged is %s by default",
				      old);
	TST_OK(set_access_unprivileged("0"));
	for (as_nobody = 1; as_nobody >= 0; as_nobody--) {
		TST_OK(tst_read_cache_stats(&before));
		pid = fork();
		ASSERT_LE(0, pid);
		if (pid == 0)
			unprivileged_child(as_nobody, 0, seq);
		TST_EXPECT_CHILD_OK(pid, as_nobody ?
				    "uid 65534: access refused" :
				    "root without CAP_MAC_ADMIN: access refused");
		TST_OK(tst_read_cache_stats(&after));
		EXPECT_EQ(before.sum[TST_LOOKUPS], after.sum[TST_LOOKUPS]);
		EXPECT_EQ(before.sum[TST_ALLOCATIONS], after.sum[TST_ALLOCATIONS]);
	}

	/* Opted in: uid 65534 asks, and its lookup is counted. */
	TST_OK(set_access_unprivileged("1"));
	TST_OK(tst_read_cache_stats(&before));
	pid = fork();
	ASSERT_LE(0, pid);
	if (pid == 0)
		unprivileged_child(1, 1, seq);
	TST_EXPECT_CHILD_OK(pid, "uid 65534 with access_unprivileged=1");
	TST_OK(set_access_unprivileged(old[0] == 'Y' ? "1" : "0"));
	free(old);
	TST_OK(tst_read_cache_stats(&after));
	EXPECT_EQ(before.sum[TST_LOOKUPS] + 1, after.sum[TST_LOOKUPS]);

	TST_OK(tst_read_seqno(&seq));
	TST_QUERY(11, 12, 13, 0, &r);
	EXPECT_EQ(seq, r.seqno);
	EXPECT_EQ(0x3, r.allowed);
}

/*
 * In a user namespace of its own a process holds every capability, but
 * only there: CAP_MAC_ADMIN in the namespace's root is not CAP_MAC_ADMIN
 * over the cache.  Root and nobody alike, unshared, are refused.
 */
static void userns_child(int as_nobody)
{
	int fd;

	if (as_nobody && (setgid(65534) || setuid(65534)))
		_exit(10);
	if (unshare(CLONE_NEWUSER))
		_exit(errno == EPERM || errno == EINVAL || errno == ENOSPC ?
		      4 : 11);
	fd = open(tst_path(AVC_RCU_FILE_ACCESS), O_RDWR);
	if (fd >= 0 || errno != EACCES)
		_exit(12);
	if (tst_write_threshold(77) == 0)
		_exit(13);
	_exit(0);
}

TEST_F_TIMEOUT(avc, access_user_namespace, 120)
{
	struct tst_cache_stats_sum before, after;
	int as_nobody, status;
	char *old = NULL;
	pid_t pid;

	ASSERT_LT(0, tst_read_all(ACCESS_UNPRIVILEGED, &old));
	TST_OK(set_access_unprivileged("0"));
	for (as_nobody = 1; as_nobody >= 0; as_nobody--) {
		TST_OK(tst_read_cache_stats(&before));
		pid = fork();
		ASSERT_LE(0, pid);
		if (pid == 0)
			userns_child(as_nobody);
		ASSERT_EQ(pid, waitpid(pid, &status, 0));
		ASSERT_TRUE(WIFEXITED(status));
		if (WEXITSTATUS(status) == 4) {
			tst_diag("no user namespace for %s: not tried",
				 as_nobody ? "uid 65534" : "root");
			continue;
		}
		EXPECT_EQ(0, WEXITSTATUS(status))
			TH_LOG("%s in a user namespace of its own: step %d",
			       as_nobody ? "uid 65534" : "root",
			       WEXITSTATUS(status));
		TST_OK(tst_read_cache_stats(&after));
		EXPECT_EQ(before.sum[TST_LOOKUPS], after.sum[TST_LOOKUPS]);
	}
	TST_OK(set_access_unprivileged(old[0] == 'Y' ? "1" : "0"));
	free(old);
}

/*
 * A refused open is logged, rate-limited: a user who opens in a loop
 * cannot flood the kernel log.  The kernel's default limit is 10 lines
 * in 5 s; 60 refusals in a row must give at least one line and at most
 * a few more than that.
 */
static void refuse_child(int times)
{
	int i, fd;

	if (setgid(65534) || setuid(65534))
		_exit(10);
	for (i = 0; i < times; i++) {
		fd = open(tst_path(AVC_RCU_FILE_ACCESS), O_RDWR);
		if (fd >= 0 || errno != EACCES)
			_exit(11);
	}
	_exit(0);
}

TEST_F_TIMEOUT(avc, access_refusal_ratelimited, 120)
{
	const char *needle = "access: open by uid 65534 refused";
	char *old = NULL;
	int kfd, lines;
	pid_t pid;

	ASSERT_LT(0, tst_read_all(ACCESS_UNPRIVILEGED, &old));
	TST_OK(set_access_unprivileged("0"));
	kfd = tst_kmsg_open();
	ASSERT_LE(0, kfd) TH_LOG("/dev/kmsg: %s", strerror(-kfd));
	pid = fork();
	ASSERT_LE(0, pid);
	if (pid == 0)
		refuse_child(60);
	TST_EXPECT_CHILD_OK(pid, "uid 65534: 60 refused opens");
	lines = tst_kmsg_count(kfd, needle);
	close(kfd);
	TST_OK(set_access_unprivileged(old[0] == 'Y' ? "1" : "0"));
	free(old);
	tst_diag("60 refused opens, %d lines '%s'", lines, needle);
	EXPECT_LE(1, lines);
	EXPECT_GE(15, lines) TH_LOG("the refusal is not rate-limited");
}

TEST_F_TIMEOUT(avc, seqno_file, 120)
{
	__u32 s0, s1, s2;
	struct tst_reply r;
	char *text;
	ssize_t len;

	len = tst_read_rel(AVC_RCU_FILE_SEQNO, &text);
	ASSERT_LT(0, len);
	TST_OK(tst_parse_u32_line(text, (size_t)len, &s0));
	free(text);
	TST_QUERY(1, 1, 1, 0, &r);
	EXPECT_EQ(s0, r.seqno);
	/* Writing nothing to load is no load: the seqno stays. */
	TST_OK(tst_load_policy("", 0));
	TST_OK(tst_read_seqno(&s1));
	EXPECT_EQ(s0, s1);
	TST_LOAD("\n", 1, &s1);
	EXPECT_EQ(s0 + 1, s1);
	LOADS("# only a comment\n\n", &s2);
	EXPECT_EQ(s1 + 1, s2);
	TST_QUERY(1, 1, 1, 0, &r);
	EXPECT_EQ(s2, r.seqno);
}

TEST_HARNESS_MAIN
