// SPDX-License-Identifier: GPL-2.0
/*
 * avc_rcu avc/cache_threshold: read, write, every bad input, every size
 * limit at limit - 1, limit and limit + 1, EPERM without CAP_MAC_ADMIN;
 * the table's buckets after each write (following the threshold, or
 * pinned by slots=), and the kernel log's notice when a threshold does
 * not fit a pinned table, and only then.  The value in force before the
 * test is restored.
 *
 * A module the program loaded itself must read the default.
 */
#include <errno.h>
#include <fcntl.h>
#include <linux/capability.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "kselftest_harness.h"
#include "avc_test.h"

/* A value no test writes by accident, to see that it stays. */
#define MARK	333

FIXTURE(thr) {
	struct tst_saved_threshold thr;
};

FIXTURE_SETUP(thr)
{
	TST_ASSERT_MOUNTED();
	TST_SAVE_THRESHOLD(&self->thr);
}

FIXTURE_TEARDOWN(thr)
{
	TST_RESTORE_THRESHOLD(&self->thr);
}

static int write_thr(const char *buf, size_t len, off_t off)
{
	return tst_write_rel(AVC_RCU_FILE_THRESHOLD, buf, len, off);
}

/* The exact text of the file. */
#define EXPECT_THRESHOLD_TEXT(want) do {				\
	char *__t;							\
	ssize_t __n = tst_read_rel(AVC_RCU_FILE_THRESHOLD, &__t);	\
	ASSERT_LT(0, __n);						\
	EXPECT_STREQ((want), __t);					\
	free(__t);							\
} while (0)

/* Notices of the two misfits, as selinuxfs/avc_files.c words them. */
#define SPARSE_NOTICE	"a reclaim reaches 512 buckets"
#define CHAINS_NOTICE	"chains of"

/* Write @val, and count the kernel log's notices it caused. */
static int notices(__u32 val, const char *needle)
{
	int fd = tst_kmsg_open(), n, err;

	if (fd < 0)
		return fd;
	err = tst_write_threshold(val);
	n = err ? err : tst_kmsg_count(fd, needle);
	close(fd);
	return n;
}

/*
 * First of the cases: each test program loads the module afresh, and the
 * notices are rate-limited (10 in 5 s), which later writes of misfits
 * would spend.
 */
TEST_F(thr, sizing_notice)
{
	char v[32];
	long slots;

	ASSERT_EQ(0, tst_module_param("slots", v, sizeof(v)));
	slots = strtol(v, NULL, 10);
	/* A fit, whatever the table: no notice. */
	EXPECT_EQ(0, notices(slots ? (__u32)slots : 512, CHAINS_NOTICE));
	EXPECT_EQ(0, notices(slots ? (__u32)slots : 600, SPARSE_NOTICE));
	if (!slots) {
		/* Following the threshold, the table always fits. */
		EXPECT_EQ(0, notices(1, SPARSE_NOTICE));
		EXPECT_EQ(0, notices(1048576, CHAINS_NOTICE));
		return;
	}
	/* Chains of 16 on average: a notice; chains of 8: none. */
	EXPECT_EQ(1, notices((__u32)slots * 16, CHAINS_NOTICE))
		TH_LOG("threshold %ld over %ld slots", slots * 16, slots);
	EXPECT_EQ(0, notices((__u32)slots * 8, CHAINS_NOTICE));
	/* Less than one entry in a section's reach: a notice if it can be. */
	if (slots > 512) {
		EXPECT_EQ(1, notices((__u32)slots / 1024, SPARSE_NOTICE))
			TH_LOG("threshold %ld over %ld slots", slots / 1024,
			       slots);
	}
	if (slots >= 512)
		EXPECT_EQ(0, notices((__u32)slots / 512, SPARSE_NOTICE));
}

TEST_F(thr, read_format)
{
	char want[32];
	char *text;
	ssize_t len;
	__u32 v;

	len = tst_read_rel(AVC_RCU_FILE_THRESHOLD, &text);
	ASSERT_LT(0, len);
	ASSERT_EQ(0, tst_parse_u32_line(text, (size_t)len, &v))
		TH_LOG("cache_threshold reads '%s', not \"N\\n\"", text);
	free(text);
	EXPECT_LE(AVC_RCU_THRESHOLD_MIN, v);
	EXPECT_GE(AVC_RCU_THRESHOLD_MAX, v);
	if (tst_module_fresh()) {
		snprintf(want, sizeof(want), "%u\n",
			 AVC_RCU_THRESHOLD_DEFAULT);
		EXPECT_THRESHOLD_TEXT(want);
	} else {
		tst_diag("cache_threshold is %u (AVC_RCU_LOADED=1: %s)",
			 v, "default not checked");
	}
}

TEST_F(thr, write_valid)
{
	static const struct {
		const char *in;
		const char *out;
	} ok[] = {
		{ "1", "1\n" },
		{ "1\n", "1\n" },
		{ "1024", "1024\n" },
		{ "1024\n", "1024\n" },
		{ "1048576", "1048576\n" },
		{ "1048576\n", "1048576\n" },
		{ "77\n", "77\n" },
		/* Leading zeros: still decimal, not octal. */
		{ "0010\n", "10\n" },
		{ "0000000000000000000000000000099", "99\n" },
		{ "512", "512\n" },
	};
	size_t i;

	for (i = 0; i < ARRAY_LEN(ok); i++) {
		TST_OK(write_thr(ok[i].in, strlen(ok[i].in), -1));
		EXPECT_THRESHOLD_TEXT(ok[i].out);
	}
	/* pwrite at offset 0 is a plain write. */
	TST_OK(write_thr("4321", 4, 0));
	EXPECT_THRESHOLD_TEXT("4321\n");
}

TEST_F(thr, write_invalid)
{
	static const char * const bad[] = {
		"0", "0\n", "-1", "-1\n", "1048577", "1048577\n",
		"4294967296", "4294967297", "18446744073709551616",
		"99999999999999999999", "abc", "12abc", "12 ", " 12",
		"12\t", "\t12", "1 2", "", "\n", "0x10", "0x10\n", "1\n\n",
		"12\n3", "\n12", "12\r\n", "+", "-", "-0", "0X10", "0x",
	};
	char mark[16];
	size_t i;

	snprintf(mark, sizeof(mark), "%u\n", MARK);
	TST_OK(tst_write_threshold(MARK));
	for (i = 0; i < ARRAY_LEN(bad); i++) {
		int ret = write_thr(bad[i], strlen(bad[i]), -1);

		EXPECT_EQ(-EINVAL, ret)
			TH_LOG("bad value #%zu: expected EINVAL, got %s", i,
			       ret ? strerror(-ret) : "success");
		EXPECT_THRESHOLD_TEXT(mark);
	}
}

TEST_F(thr, write_at_offset)
{
	char mark[16];

	snprintf(mark, sizeof(mark), "%u\n", MARK);
	TST_OK(tst_write_threshold(MARK));
	TST_FAILS(EINVAL, write_thr("12", 2, 1));
	TST_FAILS(EINVAL, write_thr("12\n", 3, 4096));
	EXPECT_THRESHOLD_TEXT(mark);

	/* A second write on one fd is at offset 0 too, or is refused. */
	{
		int fd = open(tst_path(AVC_RCU_FILE_THRESHOLD), O_WRONLY);
		ssize_t n;

		ASSERT_LE(0, fd);
		ASSERT_EQ(3, write(fd, "44\n", 3));
		n = write(fd, "55\n", 3);
		close(fd);
		if (n == 3)
			EXPECT_THRESHOLD_TEXT("55\n");
		else
			EXPECT_THRESHOLD_TEXT("44\n");
	}
}

TEST_F(thr, write_too_big)
{
	long page = sysconf(_SC_PAGESIZE);
	size_t sizes[] = { (size_t)page, (size_t)page + 1,
			   (size_t)page * 4 };
	char mark[16];
	char *buf;
	size_t i;

	snprintf(mark, sizeof(mark), "%u\n", MARK);
	TST_OK(tst_write_threshold(MARK));
	buf = malloc((size_t)page * 4);
	ASSERT_NE(NULL, buf);
	/* Digits all the way: only the size makes it wrong. */
	memset(buf, '1', (size_t)page * 4);
	for (i = 0; i < ARRAY_LEN(sizes); i++) {
		int ret = write_thr(buf, sizes[i], -1);

		EXPECT_EQ(-ENOMEM, ret)
			TH_LOG("%zu bytes: expected ENOMEM, got %s", sizes[i],
			       ret ? strerror(-ret) : "success");
	}
	/* One byte less than a page is judged on its content. */
	memset(buf, 'x', (size_t)page);
	TST_FAILS(EINVAL, write_thr(buf, (size_t)page - 1, -1));
	EXPECT_THRESHOLD_TEXT(mark);
	free(buf);
}

/*
 * Every size limit at limit - 1, limit and limit + 1, with text that is
 * valid but for its length (leading zeros are digits): up to 31 bytes the
 * value is judged, from 32 bytes to a page less one EINVAL, from a page on
 * ENOMEM, as selinuxfs answers.
 */
TEST_F(thr, write_length_limits)
{
	long page = sysconf(_SC_PAGESIZE);
	struct {
		size_t len;
		int nl;		/* the last byte a newline */
		int err;	/* 0: accepted */
	} tc[] = {
		{ 30, 0, 0 }, { 31, 0, 0 }, { 31, 1, 0 },
		{ 32, 0, EINVAL }, { 32, 1, EINVAL }, { 33, 0, EINVAL },
		{ 33, 1, EINVAL }, { 64, 0, EINVAL },
		{ (size_t)page - 1, 0, EINVAL }, { (size_t)page - 1, 1, EINVAL },
		{ (size_t)page, 0, ENOMEM }, { (size_t)page, 1, ENOMEM },
		{ (size_t)page + 1, 0, ENOMEM },
	};
	char mark[16], *buf;
	size_t i, digits;
	int ret;

	snprintf(mark, sizeof(mark), "%u\n", MARK);
	buf = malloc((size_t)page + 2);
	ASSERT_NE(NULL, buf);
	for (i = 0; i < ARRAY_LEN(tc); i++) {
		/* "000...0777[\n]": 777 whatever the length. */
		digits = tc[i].len - tc[i].nl;
		memset(buf, '0', digits - 3);
		memcpy(buf + digits - 3, "777", 3);
		if (tc[i].nl)
			buf[digits] = '\n';
		TST_OK(tst_write_threshold(MARK));
		ret = write_thr(buf, tc[i].len, -1);
		EXPECT_EQ(-tc[i].err, ret)
			TH_LOG("%zu bytes%s: expected %s, got %s", tc[i].len,
			       tc[i].nl ? " with a newline" : "",
			       tc[i].err ? strerror(tc[i].err) : "success",
			       ret ? strerror(-ret) : "success");
		if (tc[i].err)
			EXPECT_THRESHOLD_TEXT(mark);
		else
			EXPECT_THRESHOLD_TEXT("777\n");
	}
	free(buf);
}

TEST_F(thr, eperm_without_cap_mac_admin)
{
	char mark[16];
	pid_t pid;

	snprintf(mark, sizeof(mark), "%u\n", MARK);
	TST_OK(tst_write_threshold(MARK));
	pid = fork();
	ASSERT_LE(0, pid);
	if (pid == 0) {
		if (tst_drop_effective_cap(CAP_MAC_ADMIN))
			_exit(10);
		if (write_thr("100\n", 4, -1) != -EPERM)
			_exit(11);
		if (write_thr("abc", 3, -1) == 0)
			_exit(12);
		/* Reading needs no capability. */
		{
			__u32 v;

			if (tst_read_threshold(&v) || v != MARK)
				_exit(13);
		}
		/* Control: with the capability back, the write works. */
		if (tst_raise_effective_cap(CAP_MAC_ADMIN))
			_exit(14);
		if (write_thr("101\n", 4, -1))
			_exit(15);
		_exit(0);
	}
	TST_EXPECT_CHILD_OK(pid, "11: no EPERM without CAP_MAC_ADMIN");
	EXPECT_THRESHOLD_TEXT("101\n");
}

/*
 * With slots=0 the table follows: after each write (which returns once
 * the resize is done) hash_stats shows the threshold's power of two, at
 * least 512; with slots pinned, always the same.
 */
TEST_F(thr, buckets_follow)
{
	static const __u32 thr[] = { 1, 512, 513, 4096, 100000, 1048576, 600 };
	struct tst_hash_stats_file hs;
	size_t i;

	for (i = 0; i < ARRAY_LEN(thr); i++) {
		TST_OK(tst_write_threshold(thr[i]));
		TST_OK(tst_read_hash_stats(&hs));
		EXPECT_EQ(tst_expected_slots(thr[i]), hs.slots)
			TH_LOG("threshold %u", thr[i]);
	}
}

TEST_HARNESS_MAIN
