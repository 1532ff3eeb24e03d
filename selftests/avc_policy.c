// SPDX-License-Identifier: GPL-2.0
/*
 * avc_rcu policy loads: a reload bumps the seqno and flushes the cache so
 * no old decision is returned once the load returns; a bad policy fails
 * with EINVAL, is named in the kernel log by line, and leaves the old one
 * in force; offset, capability and size checks; a 100k-rule policy
 * (timed); the empty policy; syntax corner cases.
 *
 * Environment: AVC_RCU_MNT, AVC_SEED.
 */
#include <errno.h>
#include <fcntl.h>
#include <linux/capability.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>

#include "kselftest_harness.h"
#include "avc_test.h"

#define NKEYS		200
#define THRESHOLD	4096

FIXTURE(pol) {
	struct tst_saved_threshold thr;
};

FIXTURE_SETUP(pol)
{
	TST_ASSERT_MOUNTED();
	TST_SAVE_THRESHOLD(&self->thr);
	TST_OK(tst_write_threshold(THRESHOLD));
}

FIXTURE_TEARDOWN(pol)
{
	TST_RESTORE_THRESHOLD(&self->thr);
}

#define LOAD_BUF(buf, seq_out) do {					\
	const struct tst_buf *__b = (buf);				\
	TST_LOAD(__b->data, __b->len, seq_out);				\
} while (0)

/*
 * Policy "version" v over keys (k, 1000 + k % 7, 1 + k % 5), k < NKEYS:
 * allow and auditallow perms and dontaudit bits that depend on v, and
 * ssid 3 permissive in odd versions only.
 */
static void versioned_policy(__u32 v, struct tst_policy *p)
{
	__u32 k;

	for (k = 0; k < NKEYS; k++) {
		__u32 s = k + 1, t = 1000 + k % 7, c = 1 + k % 5;

		if (tst_mix(k, v, 0, 0) % 5 == 0)
			continue;	/* no rules for this key */
		tst_policy_add(p, TST_MODEL_ALLOW, s, t, c,
			       tst_mix(k, v, 1, 0));
		if (k % 3 == 0)
			tst_policy_add(p, TST_MODEL_AUDITALLOW, s, t, c,
				       tst_mix(k, v, 2, 0));
		if (k % 4 == 0)
			tst_policy_add(p, TST_MODEL_DONTAUDIT, s, t, c,
				       tst_mix(k, v, 3, 0));
	}
	if (v % 2)
		tst_policy_add(p, TST_MODEL_PERMISSIVE, 3, 0, 0, 0);
}

/* Every key of versioned_policy() must answer as p says, under seq. */
#define CHECK_ALL_KEYS(p, seq) do {					\
	__u32 __k;							\
	for (__k = 0; __k < NKEYS; __k++) {				\
		struct tst_decision __d;				\
		tst_policy_decide((p), __k + 1, 1000 + __k % 7,		\
				  1 + __k % 5, &__d);			\
		TST_EXPECT_DECISION(__k + 1, 1000 + __k % 7,		\
				    1 + __k % 5, &__d, (seq));		\
	}								\
} while (0)

TEST_F_TIMEOUT(pol, reload_flushes, 300)
{
	struct tst_policy a = { 0 }, b = { 0 };
	struct tst_buf ta = { 0 }, tb = { 0 };
	struct tst_cache_stats_sum cs0, cs1;
	struct tst_hash_stats_file hs;
	__u32 sa, sb;
	__u64 rng = tst_seed();

	versioned_policy(1, &a);
	versioned_policy(2, &b);
	tst_policy_render(&a, &rng, &ta);
	tst_policy_render(&b, &rng, &tb);

	LOAD_BUF(&ta, &sa);
	TST_OK(tst_read_hash_stats(&hs));
	EXPECT_EQ(0, hs.entries);
	CHECK_ALL_KEYS(&a, sa);
	/* Cached now: the second round is all hits. */
	TST_OK(tst_read_cache_stats(&cs0));
	CHECK_ALL_KEYS(&a, sa);
	TST_OK(tst_read_cache_stats(&cs1));
	EXPECT_EQ(NKEYS, tst_stat_delta(&cs0, &cs1, TST_HITS));
	TST_OK(tst_read_hash_stats(&hs));
	EXPECT_EQ(NKEYS, hs.entries);

	LOAD_BUF(&tb, &sb);
	EXPECT_EQ(sa + 1, sb);
	/* Flushed by the time the write returned. */
	TST_OK(tst_read_hash_stats(&hs));
	EXPECT_EQ(0, hs.entries);
	TST_OK(tst_read_cache_stats(&cs0));
	CHECK_ALL_KEYS(&b, sb);
	TST_OK(tst_read_cache_stats(&cs1));
	EXPECT_EQ(NKEYS, tst_stat_delta(&cs0, &cs1, TST_MISSES));
	EXPECT_EQ(0, tst_stat_delta(&cs0, &cs1, TST_RECLAIMS));

	/* And back: a, again, under a third seqno. */
	LOAD_BUF(&ta, &sa);
	CHECK_ALL_KEYS(&a, sa);

	tst_buf_free(&ta);
	tst_buf_free(&tb);
	tst_policy_free(&a);
	tst_policy_free(&b);
}

/* Bad lines, each named by the kernel log with its line number. */
static const char * const bad_lines[] = {
	"allwo 1 2 3 4",
	"allow1 2 3 4",
	"ALLOW 1 2 3 4",
	"allow",
	"allow 1 2 3",
	"allow 1 2 3 4 5",
	"permissive",
	"permissive 1 2",
	"allow 4294967296 2 3 4",
	"allow 1 2 3 99999999999999999999",
	"allow 1 0x100000000 3 4",
	"allow 1 2 65536 4",
	"allow 1 2 0x10000 4",
	"allow 1 2 3 4x",
	"allow 1 2 3 0x",
	"allow 1 2 3 0xg",
	"allow 1x 2 3 4",
	"allow -1 2 3 4",
	"allow 1 2 3 -4",
	"dontaudit 1 2 3 four",
	"auditallow 1,2,3,4",
};

TEST_F_TIMEOUT(pol, bad_policy_keeps_old, 300)
{
	struct tst_policy good = { 0 };
	struct tst_buf tg = { 0 };
	__u64 rng = tst_seed();
	__u32 seq, now;
	size_t i;
	int kfd;

	versioned_policy(5, &good);
	tst_policy_render(&good, &rng, &tg);
	LOAD_BUF(&tg, &seq);
	CHECK_ALL_KEYS(&good, seq);

	kfd = tst_kmsg_open();
	if (kfd < 0)
		tst_diag("no /dev/kmsg (%s): line numbers not checked",
			 strerror(-kfd));
	for (i = 0; i < ARRAY_LEN(bad_lines); i++) {
		/* The bad line at line 1, 3, or after 1000 good lines. */
		unsigned int where = i % 3 == 0 ? 1 : i % 3 == 1 ? 3 : 1001;
		struct tst_buf t = { 0 };
		char needle[64], found[512];
		unsigned int l;
		int ret;

		for (l = 1; l < where; l++)
			tst_buf_printf(&t, l == 2 ? "# comment\n" :
				       "allow %u 9 9 0x%x\n", l, l);
		tst_buf_printf(&t, "%s\n", bad_lines[i]);
		tst_buf_printf(&t, "allow 1 1 1 1\n");
		ret = tst_load_policy(t.data, t.len);
		tst_buf_free(&t);
		EXPECT_EQ(-EINVAL, ret)
			TH_LOG("bad line '%s' at line %u: expected EINVAL, got %s",
			       bad_lines[i], where,
			       ret ? strerror(-ret) : "success");
		TST_OK(tst_read_seqno(&now));
		ASSERT_EQ(seq, now)
			TH_LOG("bad line '%s' changed the seqno",
			       bad_lines[i]);
		if (kfd < 0)
			continue;
		snprintf(needle, sizeof(needle), "avc_rcu: policy line %u:",
			 where);
		EXPECT_EQ(1, tst_kmsg_grep(kfd, needle, found, sizeof(found)))
			TH_LOG("no '%s' in the kernel log for bad line '%s'",
			       needle, bad_lines[i]);
	}
	if (kfd >= 0)
		close(kfd);
	/* The old policy is in force. */
	CHECK_ALL_KEYS(&good, seq);
	tst_buf_free(&tg);
	tst_policy_free(&good);
}

TEST_F(pol, load_at_offset)
{
	static const char text[] = "allow 1 2 3 4\n";
	__u32 before, after;

	TST_OK(tst_read_seqno(&before));
	TST_FAILS(EINVAL, tst_write_rel(AVC_RCU_FILE_LOAD, text,
					sizeof(text) - 1, 1));
	TST_FAILS(EINVAL, tst_write_rel(AVC_RCU_FILE_LOAD, text,
					sizeof(text) - 1, 4096));
	TST_OK(tst_read_seqno(&after));
	EXPECT_EQ(before, after);
}

TEST_F(pol, eperm_without_cap_mac_admin)
{
	static const char text[] = "allow 21 22 23 0x24\n";
	struct tst_reply r;
	__u32 before, after;
	pid_t pid;

	TST_OK(tst_read_seqno(&before));
	pid = fork();
	ASSERT_LE(0, pid);
	if (pid == 0) {
		__u32 s;

		if (tst_drop_effective_cap(CAP_MAC_ADMIN))
			_exit(10);
		if (tst_load_policy(text, sizeof(text) - 1) != -EPERM)
			_exit(11);
		if (tst_load_policy("", 0) != -EPERM)
			_exit(12);
		if (tst_read_seqno(&s) || s != before)
			_exit(13);
		/* Control: with the capability back, it loads. */
		if (tst_raise_effective_cap(CAP_MAC_ADMIN))
			_exit(14);
		if (tst_load_policy(text, sizeof(text) - 1))
			_exit(15);
		_exit(0);
	}
	TST_EXPECT_CHILD_OK(pid, "11, 12: no EPERM without CAP_MAC_ADMIN");
	TST_OK(tst_read_seqno(&after));
	EXPECT_EQ(before + 1, after);
	TST_QUERY(21, 22, 23, 0, &r);
	EXPECT_EQ(0x24, r.allowed);
	EXPECT_EQ(after, r.seqno);
}

/*
 * The capability is that of the credentials which opened the file, not of
 * whoever writes through the descriptor later: a privileged program handed
 * an unprivileged descriptor cannot be made to load a policy or change the
 * threshold through it.
 */
TEST_F(pol, cap_checked_on_opener)
{
	static const char text[] = "allow 51 52 53 0x6\n";
	__u32 before, after, th0, th1;
	struct tst_reply r;
	pid_t pid;

	TST_OK(tst_read_seqno(&before));
	TST_OK(tst_read_threshold(&th0));
	pid = fork();
	ASSERT_LE(0, pid);
	if (pid == 0) {
		int lfd, tfd;

		if (tst_drop_effective_cap(CAP_MAC_ADMIN))
			_exit(10);
		lfd = open(tst_path(AVC_RCU_FILE_LOAD), O_WRONLY | O_CLOEXEC);
		tfd = open(tst_path(AVC_RCU_FILE_THRESHOLD),
			   O_WRONLY | O_CLOEXEC);
		if (lfd < 0 || tfd < 0)
			_exit(11);
		if (tst_raise_effective_cap(CAP_MAC_ADMIN))
			_exit(12);
		if (write(lfd, text, sizeof(text) - 1) != -1 || errno != EPERM)
			_exit(13);
		if (write(tfd, "777\n", 4) != -1 || errno != EPERM)
			_exit(14);
		close(lfd);
		close(tfd);

		/* Opened with it, written without it: allowed. */
		lfd = open(tst_path(AVC_RCU_FILE_LOAD), O_WRONLY | O_CLOEXEC);
		if (lfd < 0)
			_exit(15);
		if (tst_drop_effective_cap(CAP_MAC_ADMIN))
			_exit(16);
		if (write(lfd, text, sizeof(text) - 1) !=
		    (ssize_t)(sizeof(text) - 1))
			_exit(17);
		close(lfd);
		_exit(0);
	}
	TST_EXPECT_CHILD_OK(pid, "13, 14: unprivileged descriptor wrote");
	TST_OK(tst_read_threshold(&th1));
	EXPECT_EQ(th0, th1);
	TST_OK(tst_read_seqno(&after));
	EXPECT_EQ(before + 1, after);
	TST_QUERY(51, 52, 53, 0, &r);
	EXPECT_EQ(0x6, r.allowed);
}

TEST_F(pol, too_big)
{
	size_t len = (size_t)AVC_RCU_POLICY_MAX_BYTES + 1;
	__u32 before, after;
	void *buf;

	TST_OK(tst_read_seqno(&before));
	/* Untouched anonymous memory: costs nothing, reads as zeros. */
	buf = mmap(NULL, len, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	ASSERT_NE(MAP_FAILED, buf);
	TST_FAILS(EFBIG, tst_load_policy(buf, len));
	munmap(buf, len);
	TST_OK(tst_read_seqno(&after));
	EXPECT_EQ(before, after);
}

/*
 * The largest text allowed, all junk: refused at its first line, with
 * nothing allocated for it beyond the copy.  Memory for rules is sized by
 * the lines that name a rule, so two-byte lines cannot make the kernel ask
 * for gigabytes (they once woke the OOM killer in a 1 GiB guest).
 */
TEST_F_TIMEOUT(pol, biggest_junk_refused, 120)
{
	static const char text[] = "allow 41 42 43 0x5\n";
	size_t len = AVC_RCU_POLICY_MAX_BYTES, i;
	__u32 before, after;
	struct tst_reply r;
	char *buf;

	TST_LOAD(text, sizeof(text) - 1, &before);
	buf = malloc(len);
	ASSERT_NE(NULL, buf);
	for (i = 0; i < len; i += 2) {
		buf[i] = 'a';
		buf[i + 1] = '\n';
	}
	TST_FAILS(EINVAL, tst_load_policy(buf, len));
	free(buf);
	TST_OK(tst_read_seqno(&after));
	EXPECT_EQ(before, after);
	TST_QUERY(41, 42, 43, 0, &r);
	EXPECT_EQ(0x5, r.allowed);
	EXPECT_EQ(before, r.seqno);
}

#define BIG_RULES	100000
#define BIG_ALLOW	80000
#define BIG_EXTRA	10000

/* Key j of the big policy: all distinct. */
static void big_key(__u32 j, __u32 *s, __u32 *t, __u32 *c)
{
	*s = 100000 + j / 1000;
	*t = 1 + j % 1000;
	*c = 1 + j % 7;
}

static __u32 big_perms(__u32 i)
{
	return tst_mix(i, 0xb16, 0, 0);
}

TEST_F_TIMEOUT(pol, load_100k_rules, 600)
{
	struct tst_buf t = { 0 };
	__u64 rng = tst_seed(), t0, ms;
	__u32 i, j, s, tt, c, seq;
	static const char * const kw[] = { "allow", "auditallow",
					   "dontaudit" };

	/* 80k allow, then auditallow and dontaudit on 10k of those keys. */
	for (i = 0; i < BIG_RULES; i++) {
		unsigned int kind = i < BIG_ALLOW ? 0 :
				    i < BIG_ALLOW + BIG_EXTRA ? 1 : 2;

		j = i < BIG_ALLOW ? i : (i - BIG_ALLOW) % BIG_EXTRA;
		big_key(j, &s, &tt, &c);
		tst_buf_printf(&t, "%s %u %u %u 0x%x\n", kw[kind], s, tt, c,
			       big_perms(i));
	}
	TST_OK(tst_read_seqno(&seq));
	t0 = tst_now_ms();
	TST_OK(tst_load_policy(t.data, t.len));
	ms = tst_now_ms() - t0;
	tst_diag("loaded %u rules in %llu ms (%zu bytes)", BIG_RULES,
		 (unsigned long long)ms, t.len);
	EXPECT_GE(10000, ms) TH_LOG("a 100k-rule load took %llu ms",
				    (unsigned long long)ms);
	seq++;
	tst_buf_free(&t);

	for (i = 0; i < 500; i++) {
		struct tst_decision d = { 0, 0, 0xffffffff, 0 };

		j = i < 50 ? i : tst_rand_range(&rng, 0, BIG_ALLOW - 1);
		big_key(j, &s, &tt, &c);
		d.allowed = big_perms(j);
		if (j < BIG_EXTRA) {
			d.auditallow = big_perms(BIG_ALLOW + j);
			d.auditdeny = ~big_perms(BIG_ALLOW + BIG_EXTRA + j);
		}
		TST_EXPECT_DECISION(s, tt, c, &d, seq);
	}
	/* A key next to them has no rule. */
	{
		struct tst_decision d = { 0, 0, 0xffffffff, 0 };

		TST_EXPECT_DECISION(100000, 1001, 1, &d, seq);
	}
}

TEST_F(pol, empty_policy_denies_all)
{
	static const char text[] =
		"allow 31 32 33 0xff\n"
		"auditallow 31 32 33 0x1\n"
		"dontaudit 31 32 33 0x2\n"
		"permissive 31\n";
	static const char comments[] = "# nothing\n\n#allow 31 32 33 0xff\n";
	struct tst_decision deny = { 0, 0, 0xffffffff, 0 };
	struct tst_decision d = { 0xff, 0x1, ~0x2U, 1 };
	struct tst_hash_stats_file hs;
	__u32 seq, after;

	TST_LOAD(text, sizeof(text) - 1, &seq);
	TST_EXPECT_DECISION(31, 32, 33, &d, seq);
	/*
	 * Zero bytes: write(2) of nothing does nothing.  The policy, its
	 * seqno and the cached decision all stay.
	 */
	TST_OK(tst_read_hash_stats(&hs));
	EXPECT_EQ(1, hs.entries);
	TST_OK(tst_load_policy("", 0));
	TST_OK(tst_read_seqno(&after));
	EXPECT_EQ(seq, after);
	TST_OK(tst_read_hash_stats(&hs));
	EXPECT_EQ(1, hs.entries);
	TST_EXPECT_DECISION(31, 32, 33, &d, seq);

	/* Only comments and blank lines: a valid, empty policy. */
	TST_LOAD(comments, sizeof(comments) - 1, &seq);
	TST_OK(tst_read_hash_stats(&hs));
	EXPECT_EQ(0, hs.entries);
	TST_EXPECT_DECISION(31, 32, 33, &deny, seq);
	TST_EXPECT_DECISION(1, 1, 1, &deny, seq);
}

TEST_F(pol, syntax_corners)
{
	/* Each line's effect is a distinct key (ssid = its purpose). */
	static const char text[] =
		"allow 1 1 1 0x1\n"			/* plain */
		"allow\t2\t1\t1\t0x2\n"			/* tabs */
		"allow  3 \t 1   1  0x3\n"		/* runs of blanks */
		"allow 0xA 0xb 1 0xAbCd\n"		/* hex, any case */
		"allow 5 1 1 4294967295\n"		/* max, decimal */
		"allow 0xffffffff 0xffffffff 65535 0xffffffff\n"
		"allow 7 1 1 0x1 # comment after a rule\n"
		"allow 7 1 1 0x2\t# comment after a tab\n"
		"# allow 8 1 1 0xff (a comment)\n"
		"\n"
		"allow 9 1 1 0x10\n"
		"allow 9 1 1 0x01\n"			/* OR with the above */
		"dontaudit 10 1 1 0x80000001\n"
		"auditallow 11 1 1 0x42\n"
		"permissive 12\n"
		"allow 13 1 1 0\n"			/* explicit nothing */
		"allow 15 1 1 0x5";			/* no final newline */
	static const struct {
		__u32 s, t, c;
		struct tst_decision d;
	} want[] = {
		{ 1, 1, 1, { 0x1, 0, 0xffffffff, 0 } },
		{ 2, 1, 1, { 0x2, 0, 0xffffffff, 0 } },
		{ 3, 1, 1, { 0x3, 0, 0xffffffff, 0 } },
		{ 10, 11, 1, { 0xabcd, 0, 0xffffffff, 0 } },
		{ 5, 1, 1, { 0xffffffff, 0, 0xffffffff, 0 } },
		{ 0xffffffff, 0xffffffff, 65535,
		  { 0xffffffff, 0, 0xffffffff, 0 } },
		{ 7, 1, 1, { 0x3, 0, 0xffffffff, 0 } },
		{ 8, 1, 1, { 0, 0, 0xffffffff, 0 } },
		{ 9, 1, 1, { 0x11, 0, 0xffffffff, 0 } },
		{ 10, 1, 1, { 0, 0, 0x7ffffffe, 0 } },
		{ 11, 1, 1, { 0, 0x42, 0xffffffff, 0 } },
		{ 12, 1, 1, { 0, 0, 0xffffffff, 1 } },
		{ 12, 99, 3, { 0, 0, 0xffffffff, 1 } },
		{ 13, 1, 1, { 0, 0, 0xffffffff, 0 } },
		{ 15, 1, 1, { 0x5, 0, 0xffffffff, 0 } },
	};
	__u32 seq;
	size_t i;

	TST_LOAD(text, sizeof(text) - 1, &seq);
	for (i = 0; i < ARRAY_LEN(want); i++)
		TST_EXPECT_DECISION(want[i].s, want[i].t, want[i].c,
				    &want[i].d, seq);
}

TEST_F(pol, comment_without_blank)
{
	/* '#' starts a comment anywhere, even right after a number. */
	static const char text[] = "allow 41 1 1 0x7#comment\n";
	struct tst_decision d = { 0x7, 0, 0xffffffff, 0 };
	__u32 seq;

	TST_LOAD(text, sizeof(text) - 1, &seq);
	TST_EXPECT_DECISION(41, 1, 1, &d, seq);
}

/*
 * Numbers have one meaning, checked exactly: decimal, or hexadecimal after
 * 0x or 0X; a leading zero is a decimal digit, never octal.
 */
TEST_F(pol, number_syntax)
{
	static const char text[] =
		"allow 14 1 1 077\n"			/* 77, not 63 */
		"allow 15 1 1 010\n"			/* 10, not 8 */
		"allow 16 1 1 08\n"			/* 8, not refused */
		"allow 17 1 1 0009\n"
		"allow 18 1 1 0X1F\n"			/* upper-case X */
		"allow 19 1 1 0Xabc\n"
		"allow 20 1 1 0x0010\n"		/* hex with zeros */
		"allow 021 01 0X1 0\n"			/* key 21 1 1: nothing */
		"allow 021 01 0X1 0X80000000\n"
		"permissive 0X16\n"			/* 22 */
		"allow 0X17 1 1 0\n"
		"allow 0 0 0 00\n";
	static const struct {
		__u32 s, t, c;
		struct tst_decision d;
	} want[] = {
		{ 14, 1, 1, { 77, 0, 0xffffffff, 0 } },
		{ 15, 1, 1, { 10, 0, 0xffffffff, 0 } },
		{ 16, 1, 1, { 8, 0, 0xffffffff, 0 } },
		{ 17, 1, 1, { 9, 0, 0xffffffff, 0 } },
		{ 18, 1, 1, { 0x1f, 0, 0xffffffff, 0 } },
		{ 19, 1, 1, { 0xabc, 0, 0xffffffff, 0 } },
		{ 20, 1, 1, { 0x10, 0, 0xffffffff, 0 } },
		{ 21, 1, 1, { 0x80000000, 0, 0xffffffff, 0 } },
		{ 22, 5, 5, { 0, 0, 0xffffffff, 1 } },
		{ 23, 1, 1, { 0, 0, 0xffffffff, 0 } },
	};
	static const char * const bad[] = {
		"allow 1 1 1 0X\n",
		"allow 1 1 1 0XG\n",
		"allow 1 1 1 0X100000000\n",
		"allow 1 1 1 0o17\n",
		"allow 1 1 1 0b1\n",
		"allow 1 1 1 1e3\n",
	};
	__u32 seq, now;
	size_t i;

	TST_LOAD(text, sizeof(text) - 1, &seq);
	for (i = 0; i < ARRAY_LEN(want); i++)
		TST_EXPECT_DECISION(want[i].s, want[i].t, want[i].c,
				    &want[i].d, seq);
	for (i = 0; i < ARRAY_LEN(bad); i++) {
		TST_FAILS(EINVAL, tst_load_policy(bad[i], strlen(bad[i])));
		TST_OK(tst_read_seqno(&now));
		EXPECT_EQ(seq, now);
	}
}

/*
 * CRLF text loads as LF text does: a carriage return just before the
 * newline, or before the comment, is ignored.  Anywhere else it is junk.
 */
TEST_F(pol, crlf)
{
	struct tst_policy p = { 0 };
	struct tst_buf lf = { 0 }, crlf = { 0 };
	__u64 rng = tst_seed();
	__u32 seq;
	size_t i;

	versioned_policy(7, &p);
	tst_policy_render(&p, &rng, &lf);
	/* Some shapes the renderer may not produce. */
	tst_buf_printf(&lf, "\n# a comment line\n%s\nallow 3 1 1 0x1%s\n",
		       "   ", " \t");
	tst_buf_printf(&lf, "allow 3 1 1 0x2 # comment\nallow 3 1 1 0x4");
	tst_policy_add(&p, TST_MODEL_ALLOW, 3, 1, 1, 0x7);
	for (i = 0; i < lf.len; i++) {
		if (lf.data[i] == '\n')
			tst_buf_printf(&crlf, "\r\n");
		else
			tst_buf_printf(&crlf, "%c", lf.data[i]);
	}
	/* The last line has no newline: its CR is the end of the text. */
	tst_buf_printf(&crlf, "\r");
	LOAD_BUF(&crlf, &seq);
	CHECK_ALL_KEYS(&p, seq);
	{
		struct tst_decision d;

		tst_policy_decide(&p, 3, 1, 1, &d);
		ASSERT_EQ(0x7, d.allowed);
		TST_EXPECT_DECISION(3, 1, 1, &d, seq);
	}

	/* Elsewhere a CR is junk, and the line is named. */
	{
		static const char * const bad[] = {
			"allow 1 2 3 4\r\r\n",
			"allow 1\r2 3 4\r\n",
			"\rallow 1 2 3 4\r\n",
			"allow 1 2 3 4\r \r\n",
		};
		__u32 now;

		for (i = 0; i < ARRAY_LEN(bad); i++) {
			TST_FAILS(EINVAL, tst_load_policy(bad[i],
							  strlen(bad[i])));
			TST_OK(tst_read_seqno(&now));
			EXPECT_EQ(seq, now);
		}
	}
	tst_buf_free(&lf);
	tst_buf_free(&crlf);
	tst_policy_free(&p);
}

TEST_HARNESS_MAIN
