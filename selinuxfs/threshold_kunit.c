// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit tests of the avc/cache_threshold parser (threshold.c).
 *
 * Built into avc_rcu_kunit.ko with the core's tests, including the source
 * it tests as avc/ss/ss_kunit.c does (that file says why).
 */
#include "threshold.c"

#include <kunit/test.h>

static int threshold(const char *s, unsigned int *v)
{
	return avcrcufs_parse_threshold(s, strlen(s), v);
}

static void threshold_parse(struct kunit *test)
{
	unsigned int v = 77;

	KUNIT_EXPECT_EQ(test, threshold("1", &v), 0);
	KUNIT_EXPECT_EQ(test, v, 1U);
	KUNIT_EXPECT_EQ(test, threshold("1048576\n", &v), 0);
	KUNIT_EXPECT_EQ(test, v, 1048576U);
	KUNIT_EXPECT_EQ(test, threshold("0512", &v), 0);
	KUNIT_EXPECT_EQ(test, v, 512U);
	v = 77;
	KUNIT_EXPECT_EQ(test, threshold("0", &v), -EINVAL);
	KUNIT_EXPECT_EQ(test, threshold("1048577", &v), -EINVAL);
	KUNIT_EXPECT_EQ(test, threshold("99999999999", &v),
			-EINVAL);
	KUNIT_EXPECT_EQ(test, threshold("0x10", &v), -EINVAL);
	KUNIT_EXPECT_EQ(test, threshold("+5", &v), -EINVAL);
	KUNIT_EXPECT_EQ(test, threshold(" 5", &v), -EINVAL);
	KUNIT_EXPECT_EQ(test, threshold("5 ", &v), -EINVAL);
	KUNIT_EXPECT_EQ(test, threshold("5\n\n", &v), -EINVAL);
	KUNIT_EXPECT_EQ(test, threshold("\n", &v), -EINVAL);
	KUNIT_EXPECT_EQ(test, threshold("", &v), -EINVAL);
	KUNIT_EXPECT_EQ(test, v, 77U);	/* unchanged by every failure */
}

static struct kunit_case avcrcufs_threshold_cases[] = {
	KUNIT_CASE(threshold_parse),
	{}
};

static struct kunit_suite avcrcufs_threshold_suite = {
	.name = "avc_rcu_threshold",
	.test_cases = avcrcufs_threshold_cases,
};

kunit_test_suite(avcrcufs_threshold_suite);
