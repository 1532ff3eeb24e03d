// SPDX-License-Identifier: GPL-2.0
/*
 * avc_rcu load protocol: a policy written in several write(2) calls on one
 * open file of load is one text, parsed as it arrives and loaded whole,
 * atomically, at the last close, which returns the outcome:
 *
 * - every way to cut a text into writes loads the same policy, CRLF and a
 *   last line without a newline included; lines far longer than the
 *   kernel's copy chunk;
 * - cat of a multi-megabyte policy (busybox's, in the guests);
 * - a bad line fails the write that completes it (the third of five),
 *   names its line in the kernel log, sticks to every later write and to
 *   the close, and loads nothing; a bad last line without a newline fails
 *   the close; a write at the wrong offset likewise;
 * - one writer at a time: a second open for writing gets EBUSY, an opener
 *   without CAP_MAC_ADMIN holds nothing; the load happens at the last
 *   close of the open file (dup, fork), and open then close without a
 *   byte loads nothing;
 * - printf ... > load in a shell behaves as a single write always did.
 *
 * Environment: AVC_RCU_MNT, AVC_SEED.
 */
#include <errno.h>
#include <fcntl.h>
#include <linux/capability.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "kselftest_harness.h"
#include "avc_test.h"

FIXTURE(load) {
	struct tst_saved_threshold thr;
};

FIXTURE_SETUP(load)
{
	TST_ASSERT_MOUNTED();
	TST_SAVE_THRESHOLD(&self->thr);
	TST_OK(tst_write_threshold(4096));
}

FIXTURE_TEARDOWN(load)
{
	TST_RESTORE_THRESHOLD(&self->thr);
}

/* A load in pieces that must succeed and move the seqno by one. */
#define LOAD_CHUNKS(text, len, chunks, n, seq_out) do {			\
	__u32 __b, __a;							\
	int __at, __r;							\
	TST_OK(tst_read_seqno(&__b));					\
	__r = tst_load_chunks((text), (len), (chunks), (n), &__at);	\
	ASSERT_EQ(0, __r) TH_LOG("failed at call %d (0 is close): %s",	\
				 __at, strerror(-__r));			\
	TST_OK(tst_read_seqno(&__a));					\
	ASSERT_EQ(__b + 1, __a);					\
	*(seq_out) = __a;						\
} while (0)

/*
 * A policy with every shape of line: comments, blank lines, tabs, CRLF,
 * hex, duplicate keys that OR, a permissive source, and a last line without
 * its newline.  want[] is what it decides.
 */
static const char shapes[] =
	"# shapes\n"
	"allow 1 2 3 0x1\n"
	"\n"
	"allow\t1\t2\t3\t0x2   # ORs with the line above\n"
	"auditallow 1 2 3 0X10\r\n"
	"dontaudit 1 2 3 0x100\r\n"
	"\r\n"
	"#allow 1 2 3 0xffff\r\n"
	"permissive 9\n"
	"allow 4 5 6 077\n"
	"allow 0x7 0x8 0x9 4294967295 # the largest\n"
	"allow 10 11 12 0x40";

static const struct {
	__u32 s, t, c;
	struct tst_decision d;
} shapes_want[] = {
	{ 1, 2, 3, { 0x3, 0x10, ~0x100U, 0 } },
	{ 4, 5, 6, { 77, 0, 0xffffffff, 0 } },
	{ 7, 8, 9, { 0xffffffff, 0, 0xffffffff, 0 } },
	{ 9, 1, 1, { 0, 0, 0xffffffff, 1 } },
	{ 10, 11, 12, { 0x40, 0, 0xffffffff, 0 } },
	{ 2, 2, 3, { 0, 0, 0xffffffff, 0 } },
};

#define CHECK_SHAPES(seq) do {						\
	size_t __i;							\
	for (__i = 0; __i < ARRAY_LEN(shapes_want); __i++)		\
		TST_EXPECT_DECISION(shapes_want[__i].s, shapes_want[__i].t, \
				    shapes_want[__i].c,			\
				    &shapes_want[__i].d, (seq));	\
} while (0)

/* Cut in two at every byte, then one byte a write: always the same. */
TEST_F_TIMEOUT(load, every_split, 600)
{
	size_t len = sizeof(shapes) - 1, i, one = 1;
	__u32 seq;

	LOAD_CHUNKS(shapes, len, NULL, 0, &seq);
	CHECK_SHAPES(seq);
	for (i = 1; i < len; i++) {
		size_t cut[2] = { i, len };

		LOAD_CHUNKS(shapes, len, cut, 2, &seq);
		/* The whole check after a few cuts, the CRs' neighbours. */
		if (i % 16 == 0 || shapes[i] == '\r' || shapes[i - 1] == '\r')
			CHECK_SHAPES(seq);
	}
	LOAD_CHUNKS(shapes, len, &one, 1, &seq);
	CHECK_SHAPES(seq);
}

/* Random cuts of a random policy, and writes of zero bytes among them. */
TEST_F_TIMEOUT(load, random_splits, 600)
{
	struct tst_policy p = { 0 };
	struct tst_buf t = { 0 };
	__u64 seed = tst_seed(), rng = seed;
	__u32 k, seq;
	int round;

	tst_diag("random_splits: AVC_SEED=%llu", (unsigned long long)seed);
	for (k = 0; k < 300; k++)
		tst_policy_add(&p, (enum tst_model_rule_kind)(tst_rand(&rng) % 4),
			       tst_rand_range(&rng, 1, 40),
			       tst_rand_range(&rng, 1, 5),
			       tst_rand_range(&rng, 1, 3),
			       (__u32)tst_rand(&rng));
	tst_policy_render(&p, &rng, &t);
	for (round = 0; round < 20; round++) {
		size_t chunks[8], i;
		__u32 s;

		for (i = 0; i < ARRAY_LEN(chunks); i++)
			chunks[i] = tst_rand_range(&rng, 1, round < 10 ? 16 : 700);
		LOAD_CHUNKS(t.data, t.len, chunks, ARRAY_LEN(chunks), &seq);
		for (s = 1; s <= 40; s++) {
			struct tst_decision d;
			__u32 tt = 1 + s % 5, c = 1 + s % 3;

			tst_policy_decide(&p, s, tt, c, &d);
			TST_EXPECT_DECISION(s, tt, c, &d, seq);
		}
	}
	{
		/* Empty writes in the middle change nothing. */
		int fd = open(tst_path(AVC_RCU_FILE_LOAD), O_WRONLY);
		size_t half = t.len / 2;
		__u32 before, after;

		ASSERT_LE(0, fd);
		TST_OK(tst_read_seqno(&before));
		ASSERT_EQ((ssize_t)half, write(fd, t.data, half));
		ASSERT_EQ(0, write(fd, t.data, 0));
		ASSERT_EQ((ssize_t)(t.len - half),
			  write(fd, t.data + half, t.len - half));
		ASSERT_EQ(0, write(fd, t.data, 0));
		ASSERT_EQ(0, close(fd));
		TST_OK(tst_read_seqno(&after));
		EXPECT_EQ(before + 1, after);
	}
	tst_buf_free(&t);
	tst_policy_free(&p);
}

/*
 * Lines much longer than the kernel's copy chunk (16 KiB), in one write and
 * in pieces: a run of blanks, a number with 40000 leading zeros, a comment
 * of 100 KiB.
 */
TEST_F_TIMEOUT(load, long_lines, 300)
{
	struct tst_buf t = { 0 };
	size_t cuts[] = { 4096, 1, 20000, 7 };
	__u32 seq;
	int i;

	tst_buf_printf(&t, "allow");
	for (i = 0; i < 50000; i++)
		tst_buf_printf(&t, i % 2 ? " " : "\t");
	tst_buf_printf(&t, "21 22 23 0x5\nallow 24 25 26 ");
	for (i = 0; i < 40000; i++)
		tst_buf_printf(&t, "0");
	tst_buf_printf(&t, "9\n#");
	for (i = 0; i < 100000; i++)
		tst_buf_printf(&t, "c");
	tst_buf_printf(&t, "\nallow 27 28 29 0x3 #");
	for (i = 0; i < 100000; i++)
		tst_buf_printf(&t, "d");

	for (i = 0; i < 2; i++) {
		struct tst_decision a = { 0x5, 0, 0xffffffff, 0 };
		struct tst_decision b = { 9, 0, 0xffffffff, 0 };
		struct tst_decision c = { 0x3, 0, 0xffffffff, 0 };

		LOAD_CHUNKS(t.data, t.len, cuts, i ? ARRAY_LEN(cuts) : 0,
			    &seq);
		TST_EXPECT_DECISION(21, 22, 23, &a, seq);
		TST_EXPECT_DECISION(24, 25, 26, &b, seq);
		TST_EXPECT_DECISION(27, 28, 29, &c, seq);
	}
	tst_buf_free(&t);
}

/*
 * The rules of the big policy: key j is (200000 + j / 512, 1 + j % 512,
 * 1 + j % 3), and the allow mask a function of j.
 */
#define BIG_RULES	150000

static __u32 big_perm(__u32 j)
{
	return tst_mix(j, 0xca7, 0, 0);
}

/*
 * cat of a multi-megabyte policy: whatever size of writes cat makes, the
 * whole text is one policy.  Before, the first write loaded the first
 * chunk as a policy and cat failed on the second.
 */
TEST_F_TIMEOUT(load, cat_multi_megabyte, 600)
{
	char path[] = "/tmp/avc_load_policy.XXXXXX", cmd[512];
	struct tst_buf t = { 0 };
	__u64 rng = tst_seed();
	__u32 j, before, after;
	int fd, status, i;

	for (j = 0; j < BIG_RULES; j++)
		tst_buf_printf(&t, "allow %u %u %u 0x%x\n", 200000 + j / 512,
			       1 + j % 512, 1 + j % 3, big_perm(j));
	ASSERT_LT(4u << 20, t.len) TH_LOG("only %zu bytes", t.len);
	fd = mkstemp(path);
	ASSERT_LE(0, fd);
	ASSERT_EQ((ssize_t)t.len, write(fd, t.data, t.len));
	ASSERT_EQ(0, close(fd));
	tst_buf_free(&t);

	TST_OK(tst_read_seqno(&before));
	snprintf(cmd, sizeof(cmd), "cat %s > %s", path,
		 tst_path(AVC_RCU_FILE_LOAD));
	status = system(cmd);
	unlink(path);
	ASSERT_TRUE(WIFEXITED(status));
	ASSERT_EQ(0, WEXITSTATUS(status)) TH_LOG("%s failed", cmd);
	TST_OK(tst_read_seqno(&after));
	ASSERT_EQ(before + 1, after);
	for (i = 0; i < 400; i++) {
		struct tst_decision d = { 0, 0, 0xffffffff, 0 };

		j = i < 2 ? (i ? BIG_RULES - 1 : 0) :
		    tst_rand_range(&rng, 0, BIG_RULES - 1);
		d.allowed = big_perm(j);
		TST_EXPECT_DECISION(200000 + j / 512, 1 + j % 512, 1 + j % 3,
				    &d, after);
	}
}

/* The kernel log names line @line of a failed load. */
#define EXPECT_LOGGED_LINE(kfd, line) do {				\
	char __needle[64], __found[512];				\
	int __kfd = (kfd);						\
	if (__kfd < 0)							\
		break;							\
	snprintf(__needle, sizeof(__needle), "avc_rcu: policy line %u:",\
		 (line));						\
	EXPECT_EQ(1, tst_kmsg_grep(__kfd, __needle, __found,		\
				   sizeof(__found)))			\
		TH_LOG("no '%s' in the kernel log", __needle);		\
} while (0)

/*
 * A bad line in the third of five writes: writes one and two succeed, the
 * third fails with EINVAL and the log names the line's number in the
 * whole text, the fourth and fifth and the close fail too, and the policy
 * in force still answers.  Then the same with the bad line cut between the
 * second and the third write, and with a bad last line without a newline,
 * which only the close can judge.
 */
TEST_F_TIMEOUT(load, bad_line_in_third_write, 300)
{
	static const char good[] = "allow 31 32 33 0x1f\n";
	struct tst_decision d = { 0x1f, 0, 0xffffffff, 0 };
	struct tst_buf t = { 0 };
	size_t w[5], bad_at = 0, i;
	__u32 seq, now, line;
	int kfd, fd, round;
	ssize_t n;

	TST_LOAD(good, sizeof(good) - 1, &seq);
	kfd = tst_kmsg_open();
	if (kfd < 0)
		tst_diag("no /dev/kmsg (%s): line numbers not checked",
			 strerror(-kfd));
	for (round = 0; round < 2; round++) {
		/* 30 lines a write; the bad one is line 75 (third write). */
		t.len = 0;
		for (line = 1; line <= 150; line++) {
			if (line == 75)
				bad_at = t.len;
			tst_buf_printf(&t, line == 75 ? "allow 1 2 3 4 5\n" :
				       "allow %u 40 41 0x%x\n", line, line);
			if (line % 30 == 0)
				w[line / 30 - 1] = t.len;
		}
		/* Round 1: the bad line starts at the end of write two. */
		if (round)
			w[1] = bad_at + 3;
		fd = open(tst_path(AVC_RCU_FILE_LOAD), O_WRONLY);
		ASSERT_LE(0, fd);
		for (i = 0; i < 5; i++) {
			size_t from = i ? w[i - 1] : 0;

			n = write(fd, t.data + from, w[i] - from);
			if (i < 2) {
				ASSERT_EQ((ssize_t)(w[i] - from), n)
					TH_LOG("round %d write %zu: %s", round,
					       i + 1, strerror(errno));
			} else {
				EXPECT_EQ(-1, n);
				EXPECT_EQ(EINVAL, errno)
					TH_LOG("round %d write %zu", round,
					       i + 1);
			}
		}
		EXPECT_EQ(-1, close(fd));
		EXPECT_EQ(EINVAL, errno);
		EXPECT_LOGGED_LINE(kfd, 75);
		TST_OK(tst_read_seqno(&now));
		ASSERT_EQ(seq, now);
		TST_EXPECT_DECISION(31, 32, 33, &d, seq);
		{
			struct tst_decision none = { 0, 0, 0xffffffff, 0 };

			TST_EXPECT_DECISION(1, 40, 41, &none, seq);
		}
	}

	/* A bad last line without a newline: the close says so. */
	fd = open(tst_path(AVC_RCU_FILE_LOAD), O_WRONLY);
	ASSERT_LE(0, fd);
	ASSERT_EQ(20, write(fd, "allow 1 40 41 0x1\nal", 20));
	ASSERT_EQ(5, write(fd, "lwo 1", 5));
	EXPECT_EQ(-1, close(fd));
	EXPECT_EQ(EINVAL, errno);
	EXPECT_LOGGED_LINE(kfd, 2);
	TST_OK(tst_read_seqno(&now));
	EXPECT_EQ(seq, now);
	TST_EXPECT_DECISION(31, 32, 33, &d, seq);
	if (kfd >= 0)
		close(kfd);
	tst_buf_free(&t);
}

/*
 * The text is written in order: a write at another offset than where it
 * goes on is refused, and spoils the load (the close fails too).
 */
TEST_F(load, offsets)
{
	static const char text[] = "allow 1 2 3 4\n";
	__u32 before, after;
	int fd;

	TST_OK(tst_read_seqno(&before));
	fd = open(tst_path(AVC_RCU_FILE_LOAD), O_WRONLY);
	ASSERT_LE(0, fd);
	EXPECT_EQ(7, write(fd, text, 7));
	EXPECT_EQ(-1, pwrite(fd, text + 7, 7, 0));
	EXPECT_EQ(EINVAL, errno);
	EXPECT_EQ(-1, write(fd, text + 7, 7));
	EXPECT_EQ(EINVAL, errno);
	EXPECT_EQ(-1, close(fd));
	EXPECT_EQ(EINVAL, errno);
	TST_OK(tst_read_seqno(&after));
	EXPECT_EQ(before, after);

	/* pwrite at the right offsets is a plain write. */
	fd = open(tst_path(AVC_RCU_FILE_LOAD), O_WRONLY);
	ASSERT_LE(0, fd);
	EXPECT_EQ(7, pwrite(fd, text, 7, 0));
	EXPECT_EQ(7, pwrite(fd, text + 7, 7, 7));
	EXPECT_EQ(0, close(fd));
	TST_OK(tst_read_seqno(&after));
	EXPECT_EQ(before + 1, after);
}

/*
 * One writer at a time.  A second open for writing gets EBUSY until the
 * first is closed; an opener without CAP_MAC_ADMIN neither gets EBUSY nor
 * holds the file (its writes get EPERM).
 */
TEST_F(load, two_writers)
{
	static const char text[] = "allow 51 52 53 0x3\n";
	struct tst_decision d = { 0x3, 0, 0xffffffff, 0 };
	__u32 before, after;
	int fd, fd2;
	pid_t pid;

	TST_OK(tst_read_seqno(&before));
	fd = open(tst_path(AVC_RCU_FILE_LOAD), O_WRONLY);
	ASSERT_LE(0, fd);
	EXPECT_EQ(-1, open(tst_path(AVC_RCU_FILE_LOAD), O_WRONLY));
	EXPECT_EQ(EBUSY, errno);
	EXPECT_EQ(-1, open(tst_path(AVC_RCU_FILE_LOAD), O_RDWR));
	EXPECT_EQ(EBUSY, errno);
	/* The one-call helper meets the same. */
	TST_FAILS(EBUSY, tst_load_policy(text, sizeof(text) - 1));

	pid = fork();
	ASSERT_LE(0, pid);
	if (pid == 0) {
		int ufd;

		close(fd);
		if (tst_drop_effective_cap(CAP_MAC_ADMIN))
			_exit(10);
		ufd = open(tst_path(AVC_RCU_FILE_LOAD), O_WRONLY);
		if (ufd < 0)
			_exit(11);
		if (write(ufd, text, sizeof(text) - 1) != -1 ||
		    errno != EPERM)
			_exit(12);
		close(ufd);
		_exit(0);
	}
	TST_EXPECT_CHILD_OK(pid, "11: EBUSY for an unprivileged opener, 12: no EPERM");

	ASSERT_EQ((ssize_t)(sizeof(text) - 1), write(fd, text, sizeof(text) - 1));
	TST_OK(tst_read_seqno(&after));
	EXPECT_EQ(before, after);
	ASSERT_EQ(0, close(fd));
	TST_OK(tst_read_seqno(&after));
	EXPECT_EQ(before + 1, after);
	TST_EXPECT_DECISION(51, 52, 53, &d, after);

	/* Free again; and an unprivileged holder does not block us. */
	pid = fork();
	ASSERT_LE(0, pid);
	if (pid == 0) {
		int ufd;

		if (tst_drop_effective_cap(CAP_MAC_ADMIN))
			_exit(10);
		ufd = open(tst_path(AVC_RCU_FILE_LOAD), O_WRONLY);
		if (ufd < 0)
			_exit(11);
		sleep(2);
		_exit(0);
	}
	usleep(300000);
	fd2 = open(tst_path(AVC_RCU_FILE_LOAD), O_WRONLY);
	EXPECT_LE(0, fd2) TH_LOG("open after an unprivileged one: %s",
				 strerror(errno));
	if (fd2 >= 0)
		close(fd2);
	TST_EXPECT_CHILD_OK(pid, "11: unprivileged open");
}

/*
 * The load happens at the last close of the open file: not while a dup or
 * a child's copy of the descriptor is still open.  Opening and closing
 * without writing a byte loads nothing.
 */
TEST_F(load, last_close_loads)
{
	static const char text[] = "allow 61 62 63 0x6\n";
	struct tst_decision d = { 0x6, 0, 0xffffffff, 0 };
	__u32 before, now;
	int fd, fd2, go[2];
	pid_t pid;
	char c = 0;

	TST_OK(tst_read_seqno(&before));
	fd = open(tst_path(AVC_RCU_FILE_LOAD), O_WRONLY);
	ASSERT_LE(0, fd);
	ASSERT_EQ(0, close(fd));
	fd = open(tst_path(AVC_RCU_FILE_LOAD), O_WRONLY);
	ASSERT_LE(0, fd);
	ASSERT_EQ(0, write(fd, text, 0));
	ASSERT_EQ(0, close(fd));
	TST_OK(tst_read_seqno(&now));
	EXPECT_EQ(before, now);

	fd = open(tst_path(AVC_RCU_FILE_LOAD), O_WRONLY);
	ASSERT_LE(0, fd);
	ASSERT_EQ((ssize_t)(sizeof(text) - 1), write(fd, text, sizeof(text) - 1));
	fd2 = dup(fd);
	ASSERT_LE(0, fd2);
	ASSERT_EQ(0, close(fd));
	TST_OK(tst_read_seqno(&now));
	EXPECT_EQ(before, now) TH_LOG("loaded while a dup was open");

	ASSERT_EQ(0, pipe(go));
	pid = fork();
	ASSERT_LE(0, pid);
	if (pid == 0) {
		close(go[1]);
		/* Holds fd2 until the parent has closed its copy. */
		if (read(go[0], &c, 1) != 1)
			_exit(10);
		_exit(0);	/* exit closes the last descriptor */
	}
	close(go[0]);
	ASSERT_EQ(0, close(fd2));
	TST_OK(tst_read_seqno(&now));
	EXPECT_EQ(before, now) TH_LOG("loaded while a child held a copy");
	ASSERT_EQ(1, write(go[1], &c, 1));
	close(go[1]);
	TST_EXPECT_CHILD_OK(pid, "child");
	TST_OK(tst_read_seqno(&now));
	EXPECT_EQ(before + 1, now);
	TST_EXPECT_DECISION(61, 62, 63, &d, now);
}

/* Run a shell command line; its exit status, or -1. */
static int shell(const char *fmt, const char *arg)
{
	char cmd[512];
	int status;

	snprintf(cmd, sizeof(cmd), fmt, arg);
	status = system(cmd);
	return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

/*
 * printf ... > load in a shell, one write as always: a good policy loads
 * (with or without its last newline), a bad line fails printf and loads
 * nothing.
 */
TEST_F(load, printf_single_write)
{
	struct tst_decision a = { 0x7, 0, 0xffffffff, 0 };
	struct tst_decision b = { 0x9, 0, 0xffffffff, 0 };
	const char *load = tst_path(AVC_RCU_FILE_LOAD);
	char path[256];
	__u32 before, now;

	snprintf(path, sizeof(path), "%s", load);
	TST_OK(tst_read_seqno(&before));
	EXPECT_EQ(0, shell("printf 'allow 71 72 73 0x7\\n' > %s", path));
	TST_OK(tst_read_seqno(&now));
	ASSERT_EQ(before + 1, now);
	TST_EXPECT_DECISION(71, 72, 73, &a, now);

	EXPECT_EQ(0, shell("printf 'allow 71 72 73 0x9' > %s", path));
	TST_OK(tst_read_seqno(&now));
	ASSERT_EQ(before + 2, now);
	TST_EXPECT_DECISION(71, 72, 73, &b, now);

	EXPECT_NE(0, shell("printf 'allwo 71 72 73 0x1\\n' > %s 2>/dev/null",
			   path));
	TST_OK(tst_read_seqno(&now));
	EXPECT_EQ(before + 2, now);
	TST_EXPECT_DECISION(71, 72, 73, &b, now);
}

TEST_HARNESS_MAIN
