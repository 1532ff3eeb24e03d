/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Assertion helpers for the avc_rcu selftests.  Include after
 * kselftest_harness.h: these expand to its ASSERT_* macros and need the
 * _metadata of the running test.
 */
#ifndef AVC_TEST_H
#define AVC_TEST_H

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "avc_io.h"
#include "avc_limits.h"
#include "avc_model.h"

/*
 * Each program loads the module it tests, as a kselftest does, and
 * unloads it when it ends: lib/module.sh loads avc_rcu.ko with
 * $AVC_RCU_PARAMS and mounts avcrcufs, or skips the program (exit 4)
 * when it cannot (not root, no module, avc_rcu loaded already).
 */
__attribute__((constructor))
static void tst_module_entry(void)
{
	tst_module_setup();
}

/* Fail (not skip) with a clear message when the module is not mounted. */
#define TST_ASSERT_MOUNTED() do {					\
	int __m = tst_check_mounted();					\
	ASSERT_EQ(0, __m) TH_LOG("%s", tst_mount_error(__m));		\
} while (0)

/*
 * Reap a child that reports the step it failed at as its exit status
 * (0: every step passed); @hint says what the interesting steps mean.
 */
#define TST_EXPECT_CHILD_OK(pid, hint) do {				\
	pid_t __pid = (pid);						\
	int __status;							\
	ASSERT_EQ(__pid, waitpid(__pid, &__status, 0));			\
	ASSERT_TRUE(WIFEXITED(__status));				\
	EXPECT_EQ(0, WEXITSTATUS(__status))				\
		TH_LOG("child failed at step %d (%s)",			\
		       WEXITSTATUS(__status), (hint));			\
} while (0)

/* expr returns 0 or -errno. */
#define TST_OK(expr) do {						\
	int __r = (expr);						\
	ASSERT_EQ(0, __r) TH_LOG("%s: %s", #expr, strerror(-__r));	\
} while (0)

/* expr must fail with exactly -err. */
#define TST_FAILS(err, expr) do {					\
	int __e = (err), __r = (expr);					\
	ASSERT_EQ(-__e, __r)						\
		TH_LOG("%s: expected %s, got %s", #expr,		\
		       strerror(__e), __r ? strerror(-__r) : "success"); \
} while (0)

/*
 * cache_threshold saved by a fixture's setup and put back by its teardown,
 * so that no test leaves its threshold to the next:
 *
 *	FIXTURE(x) {
 *		struct tst_saved_threshold thr;
 *	};
 *
 *	FIXTURE_SETUP(x)
 *	{
 *		TST_ASSERT_MOUNTED();
 *		TST_SAVE_THRESHOLD(&self->thr);
 *		(then, if the tests want one, TST_OK(tst_write_threshold(N)))
 *	}
 *
 *	FIXTURE_TEARDOWN(x)
 *	{
 *		TST_RESTORE_THRESHOLD(&self->thr);
 *	}
 *
 * The harness zeroes the fixture before its setup and 0 is no valid
 * threshold, so a setup that failed before saving restores nothing.
 */
struct tst_saved_threshold {
	__u32 value;		/* 0: not saved */
};

#define TST_SAVE_THRESHOLD(st)	TST_OK(tst_read_threshold(&(st)->value))

#define TST_RESTORE_THRESHOLD(st) do {					\
	const struct tst_saved_threshold *__st = (st);			\
	if (__st->value)						\
		EXPECT_EQ(0, tst_write_threshold(__st->value));		\
} while (0)

/* One access query that must succeed and parse; the reply lands in *r. */
#define TST_QUERY(s, t, c, req, r) do {					\
	__u32 __k[4] = { (s), (t), (c), (req) };			\
	int __q = tst_access(__k[0], __k[1], __k[2], __k[3], (r));	\
	ASSERT_EQ(0, __q)						\
		TH_LOG("access %u %u %u %u: %s (reply '%s')",		\
		       __k[0], __k[1], __k[2], __k[3], strerror(-__q),	\
		       tst_last_reply_text());				\
} while (0)

/* A query whose reply must equal decision *d under policy seqno seq. */
#define TST_EXPECT_DECISION(s, t, c, d, seq) do {			\
	__u32 __x[4] = { (s), (t), (c), (seq) };			\
	const struct tst_decision *__dp = (d);				\
	struct tst_reply __rep;						\
	TST_QUERY(__x[0], __x[1], __x[2], 0, &__rep);			\
	ASSERT_EQ(0, tst_reply_matches(&__rep, __dp, __x[3]))		\
		TH_LOG("access %u %u %u: got %s, expected %s seqno=%u", \
		       __x[0], __x[1], __x[2], tst_reply_str(&__rep),	\
		       tst_decision_str(__dp), __x[3]);			\
} while (0)

/* Wait for allocations - frees == entries; fail after timeout_ms. */
#define TST_QUIESCE(timeout_ms, hs, cs) do {				\
	int __ms = (timeout_ms);					\
	struct tst_hash_stats_file *__hs = (hs);			\
	struct tst_cache_stats_sum *__cs = (cs);			\
	int __w = tst_wait_quiescent(__ms, __hs, __cs);			\
	ASSERT_EQ(0, __w)						\
		TH_LOG("not quiescent after %d ms: %s; entries %ld, "	\
		       "allocations %u - frees %u = %u",		\
		       __ms, strerror(-__w), __hs->entries,		\
		       __cs->sum[TST_ALLOCATIONS], __cs->sum[TST_FREES],	\
		       __cs->sum[TST_ALLOCATIONS] - __cs->sum[TST_FREES]); \
} while (0)

/* Load a policy; the seqno must go up by exactly one; store the new one. */
#define TST_LOAD(text, len, seq_out) do {				\
	__u32 __before, __after;					\
	TST_OK(tst_read_seqno(&__before));				\
	TST_OK(tst_load_policy((text), (len)));				\
	TST_OK(tst_read_seqno(&__after));				\
	ASSERT_EQ(__before + 1, __after);				\
	*(seq_out) = __after;						\
} while (0)

/* Quiescence timeout: TCG guests with many CPUs are slow. */
#define TST_QUIESCE_MS	((int)tst_env_long("AVC_QUIESCE_MS", 15000))

#endif /* AVC_TEST_H */
