// SPDX-License-Identifier: GPL-2.0
/*
 * avc_rcu under allocation failures, on a kernel with fault injection
 * (the debug kernel: CONFIG_FAULT_INJECTION, FAILSLAB, FAIL_PAGE_ALLOC,
 * FAULT_INJECTION_DEBUG_FS).  Skips elsewhere.
 *
 * The per-task fail-nth (/proc/thread-self/fail-nth) makes the Nth
 * injectable slab or page allocation of this thread fail.  For N = 1, 2,
 * ... an operation runs with its Nth allocation failing, until the
 * injection is no longer consumed (the operation made fewer than N
 * allocations; not until it succeeds: a failed kmalloc may fall back to
 * vmalloc and succeed).  Each attempt must either fail with ENOMEM and
 * leave seqno, policy answers, cache_threshold, hash_stats and
 * cache_stats exactly as they were, or succeed completely:
 *
 * - policy_load: a policy of 600 rules written to load and closed;
 * - access: an access transaction (open, write, read, close) of a key
 *   not cached; a failed node allocation must still answer correctly,
 *   uncached (allocations and entries unchanged, lookups and misses +1);
 *   access_node_fails makes exactly that allocation fail, as the sweep
 *   may step over it (which allocation is the Nth moves between tries);
 * - threshold: a write of avc/cache_threshold;
 * - mount: avcrcufs mounted afresh (its superblock filled) at the mount
 *   point, after an umount; it is left mounted.
 *
 * node_cache_fraction: the torture test (avc_torture.sh) with failslab
 * failing 10 % of the avc_rcu_node cache's allocations: it must pass (its
 * decisions are checked against compute_av), some inserts must have
 * failed (misses > allocations), and at quiescence allocations - frees ==
 * hash_stats entries.
 *
 * The injectors are set quiet (verbose 0) and their probability stays 0:
 * only fail-nth injects, except in node_cache_fraction, which puts back
 * what it changed.  The console scan of the harness stays as it is: no
 * warning may be printed.
 *
 * Environment: AVC_RCU_MNT, AVC_FAULTS_MAX_N (default 400), the cap on N;
 * AVC_FAULTS_TORTURE_SECONDS (default 5); AVC_FAULTS_MIN_ORDER (default
 * 0), fail_page_alloc's min-order: the smallest page allocation injected.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <unistd.h>

#include "kselftest_harness.h"
#include "avc_test.h"

#define FAIL_NTH	"/proc/thread-self/fail-nth"
#define FAILSLAB	"/sys/kernel/debug/failslab/"
#define FAIL_PAGE	"/sys/kernel/debug/fail_page_alloc/"
#define NODE_SLAB	"/sys/kernel/slab/avc_rcu_node/failslab"
#define NRULES		600
#define POLICY_MAX	(NRULES * 40)

/* The permissions policy @k grants ssid @s on (s, 2, 3): never 0. */
static __u32 perm_of(unsigned int k, __u32 s)
{
	return ((s * 2654435761u) ^ (k * 0x9e3779b9u)) | 1;
}

static size_t policy_text(unsigned int k, char *buf, size_t size)
{
	size_t len = 0;
	__u32 s;

	for (s = 1; s <= NRULES && len < size; s++)
		len += snprintf(buf + len, size - len, "allow %u 2 3 0x%x\n",
				s, perm_of(k, s));
	return len;
}

/*
 * Memory this thread touches while an injection is armed must be there
 * already: a page fault's page table allocation could take the injection
 * (user pages are highmem, which fail_page_alloc ignores).
 */
static void prefault(void)
{
	char pad[256 * 1024];

	memset(pad, 0, sizeof(pad));
	asm volatile("" : : "r"(pad) : "memory");
	mlockall(MCL_CURRENT | MCL_FUTURE);
}

/* Arm: the @n-th injectable allocation of this thread from now fails. */
static int nth_arm(int fd, unsigned int n)
{
	char buf[16];
	int len = snprintf(buf, sizeof(buf), "%u", n);

	return pwrite(fd, buf, len, 0) == len ? 0 : -errno;
}

/* Disarm; 1 if the injection was consumed, 0 if not, -errno. */
static int nth_consumed(int fd)
{
	char buf[16] = "";
	ssize_t len = pread(fd, buf, sizeof(buf) - 1, 0);

	if (len <= 0 || pwrite(fd, "0", 1, 0) != 1)
		return len < 0 ? -errno : -EIO;
	return strtoul(buf, NULL, 10) == 0;
}

/* The operations: 0 or -errno, with no allocation in this process. */
static int op_load(const char *text, size_t len)
{
	int fd = open(tst_path(AVC_RCU_FILE_LOAD), O_WRONLY);
	ssize_t w;

	if (fd < 0)
		return -errno;
	w = write(fd, text, len);
	if (w < 0) {
		w = -errno;
		close(fd);
		return w;
	}
	if (close(fd))
		return -errno;
	return w == (ssize_t)len ? 0 : -EIO;
}

static int op_access(const char *req, size_t len, char *reply, size_t size)
{
	int fd = open(tst_path(AVC_RCU_FILE_ACCESS), O_RDWR);
	ssize_t r = 0;

	if (fd < 0)
		return -errno;
	if (write(fd, req, len) != (ssize_t)len) {
		r = -errno;
	} else {
		r = read(fd, reply, size - 1);
		if (r < 0)
			r = -errno;
		else
			reply[r] = '\0';
	}
	if (close(fd) && r >= 0)
		r = -errno;
	return r < 0 ? (int)r : 0;
}

static int op_threshold(const char *val, size_t len)
{
	int fd = open(tst_path("avc/cache_threshold"), O_WRONLY);
	ssize_t w;

	if (fd < 0)
		return -errno;
	w = write(fd, val, len);
	if (w < 0)
		w = -errno;
	if (close(fd) && w >= 0)
		w = -errno;
	return w < 0 ? (int)w : 0;
}

/* Everything a failed operation must leave as it was. */
struct state {
	__u32 seqno;
	__u32 threshold;
	struct tst_hash_stats_file hs;
	struct tst_cache_stats_sum cs;
};

static int read_state(struct state *s)
{
	int r;

	r = tst_read_seqno(&s->seqno);
	if (!r)
		r = tst_read_threshold(&s->threshold);
	if (!r)
		r = tst_read_hash_stats(&s->hs);
	if (!r)
		r = tst_read_cache_stats(&s->cs);
	return r;
}

#define ASSERT_SAME_STATE(a, b) do {					\
	const struct state *__a = (a), *__b = (b);			\
	int __i;							\
	ASSERT_EQ(__a->seqno, __b->seqno);				\
	ASSERT_EQ(__a->threshold, __b->threshold);			\
	ASSERT_EQ(__a->hs.entries, __b->hs.entries);			\
	for (__i = 0; __i < TST_NR_STATS; __i++)			\
		ASSERT_EQ(__a->cs.sum[__i], __b->cs.sum[__i])		\
			TH_LOG("cache_stats column %d", __i);		\
} while (0)

/* What policy @k answers for (@s, 2, 3), through the cache. */
#define ASSERT_ANSWERS(k, s) do {					\
	unsigned int __k = (k), __s = (s);				\
	struct tst_reply __rep;						\
	TST_OK(tst_access(__s, 2, 3, 0xffffffff, &__rep));		\
	ASSERT_EQ(perm_of(__k, __s), __rep.allowed)			\
		TH_LOG("ssid %u: policy %u's answer expected", __s, __k); \
} while (0)

static int knob(const char *path, const char *val)
{
	return tst_write_str(path, val);
}

/* Quiet injectors that inject only through fail-nth: 0 or -errno. */
static int injectors_quiet(void)
{
	static const char *const set[][2] = {
		{ FAILSLAB "verbose", "0" },
		{ FAILSLAB "probability", "0" },
		{ FAILSLAB "ignore-gfp-wait", "N" },
		{ FAILSLAB "cache-filter", "N" },
		{ FAIL_PAGE "verbose", "0" },
		{ FAIL_PAGE "probability", "0" },
		{ FAIL_PAGE "ignore-gfp-wait", "N" },
	};
	char order[16];
	unsigned int i;
	int r;

	for (i = 0; i < ARRAY_LEN(set); i++) {
		r = knob(set[i][0], set[i][1]);
		if (r)
			return r;
	}
	/* 0: order-0 pages too (vmalloc's); the kernel's default is 1. */
	snprintf(order, sizeof(order), "%ld",
		 tst_env_long("AVC_FAULTS_MIN_ORDER", 0));
	return knob(FAIL_PAGE "min-order", order);
}

FIXTURE(faults) {
	struct tst_saved_threshold thr;
	int nth;
	unsigned int max_n;
	char *text_a, *text_b;
	size_t len_a, len_b;
};

FIXTURE_SETUP(faults)
{
	struct tst_hash_stats_file hs;
	struct tst_cache_stats_sum cs;

	self->nth = -1;
	if (access(FAIL_NTH, W_OK) || access(FAILSLAB "verbose", W_OK) ||
	    access(FAIL_PAGE "verbose", W_OK))
		SKIP(return, "no fault injection (%s, debugfs %s, %s)",
		     FAIL_NTH, FAILSLAB, FAIL_PAGE);
	TST_ASSERT_MOUNTED();
	TST_OK(injectors_quiet());
	TST_SAVE_THRESHOLD(&self->thr);
	TST_OK(tst_write_threshold(4096));
	self->max_n = tst_env_long("AVC_FAULTS_MAX_N", 400);
	self->text_a = malloc(POLICY_MAX);
	self->text_b = malloc(POLICY_MAX);
	ASSERT_TRUE(self->text_a && self->text_b);
	self->len_a = policy_text(1, self->text_a, POLICY_MAX);
	self->len_b = policy_text(2, self->text_b, POLICY_MAX);
	ASSERT_LT(self->len_b, POLICY_MAX);
	TST_OK(tst_load_policy(self->text_a, self->len_a));
	/* The old entries' frees (RCU callbacks) done: frees stays put. */
	TST_OK(tst_wait_quiescent(10000, &hs, &cs));
	prefault();
	self->nth = open(FAIL_NTH, O_RDWR);
	ASSERT_LE(0, self->nth);
}

FIXTURE_TEARDOWN(faults)
{
	if (self->nth >= 0)
		close(self->nth);
	/* A mount test that stopped early leaves the filesystem unmounted. */
	if (self->nth >= 0 && tst_check_mounted())
		mount(AVC_RCU_FS_NAME, tst_mnt(), AVC_RCU_FS_NAME, 0, NULL);
	if (tst_check_mounted() == 0)
		TST_RESTORE_THRESHOLD(&self->thr);
	free(self->text_a);
	free(self->text_b);
}

TEST_F_TIMEOUT(faults, policy_load, 600)
{
	struct tst_hash_stats_file hs;
	struct tst_cache_stats_sum cs;
	unsigned int n, failed = 0;
	struct state s0, s1;
	int r, consumed;

	/* The setup skipped: so does the test (the harness runs it). */
	if (self->nth < 0)
		SKIP(return, "no fault injection");
	for (n = 1;; n++) {
		ASSERT_LE(n, self->max_n)
			TH_LOG("still consumed at N = %u", self->max_n);
		TST_OK(read_state(&s0));
		TST_OK(nth_arm(self->nth, n));
		r = op_load(self->text_b, self->len_b);
		consumed = nth_consumed(self->nth);
		ASSERT_LE(0, consumed);
		TST_OK(read_state(&s1));
		if (r) {
			ASSERT_EQ(-ENOMEM, r) TH_LOG("N = %u: %s", n,
						     strerror(-r));
			ASSERT_TRUE(consumed);
			ASSERT_SAME_STATE(&s0, &s1);
			ASSERT_ANSWERS(1, n % NRULES + 1);
			failed++;
		} else {
			ASSERT_EQ(s0.seqno + 1, s1.seqno) TH_LOG("N = %u", n);
			ASSERT_ANSWERS(2, n % NRULES + 1);
			TST_OK(tst_load_policy(self->text_a, self->len_a));
			TST_OK(tst_wait_quiescent(10000, &hs, &cs));
		}
		if (!consumed)
			break;
	}
	tst_diag("policy_load: %u allocations, %u of them failed the load",
		 n - 1, failed);
	ASSERT_LT(0, failed);
}

TEST_F_TIMEOUT(faults, access, 600)
{
	unsigned int n, failed = 0, uncached = 0;
	char req[64], reply[128], trail[256] = "";
	size_t tl = 0;
	struct tst_reply rep;
	struct state s0, s1;
	int r, consumed, len;
	__u32 ssid;

	/* The setup skipped: so does the test (the harness runs it). */
	if (self->nth < 0)
		SKIP(return, "no fault injection");
	for (n = 1;; n++) {
		ASSERT_LE(n, self->max_n)
			TH_LOG("still consumed at N = %u", self->max_n);
		ASSERT_LE(n, NRULES);
		ssid = n;	/* not cached yet: the policy was just loaded */
		len = snprintf(req, sizeof(req), "%u 2 3 0xffffffff", ssid);
		TST_OK(read_state(&s0));
		TST_OK(nth_arm(self->nth, n));
		r = op_access(req, len, reply, sizeof(reply));
		consumed = nth_consumed(self->nth);
		ASSERT_LE(0, consumed);
		TST_OK(read_state(&s1));
		if (r) {
			ASSERT_EQ(-ENOMEM, r) TH_LOG("N = %u: %s", n,
						     strerror(-r));
			ASSERT_TRUE(consumed);
			ASSERT_SAME_STATE(&s0, &s1);
			failed++;
			if (tl < sizeof(trail))
				tl += snprintf(trail + tl, sizeof(trail) - tl,
					       " %u:ENOMEM", n);
			continue;
		}
		TST_OK(tst_parse_reply(reply, strlen(reply), &rep));
		ASSERT_EQ(perm_of(1, ssid), rep.allowed) TH_LOG("N = %u", n);
		ASSERT_EQ(s0.seqno, rep.seqno);
		ASSERT_EQ(s0.cs.sum[TST_LOOKUPS] + 1, s1.cs.sum[TST_LOOKUPS]);
		ASSERT_EQ(s0.cs.sum[TST_MISSES] + 1, s1.cs.sum[TST_MISSES]);
		ASSERT_EQ(s0.cs.sum[TST_FREES], s1.cs.sum[TST_FREES]);
		/* Cached, or (the node's allocation failed) not at all. */
		ASSERT_EQ(s1.cs.sum[TST_ALLOCATIONS] -
			  s0.cs.sum[TST_ALLOCATIONS],
			  (__u32)(s1.hs.entries - s0.hs.entries));
		if (s1.hs.entries == s0.hs.entries) {
			ASSERT_TRUE(consumed) TH_LOG("N = %u", n);
			uncached++;
		} else {
			ASSERT_EQ(s0.hs.entries + 1, s1.hs.entries);
		}
		if (tl < sizeof(trail))
			tl += snprintf(trail + tl, sizeof(trail) - tl, " %u:%s",
				       n, s1.hs.entries == s0.hs.entries ?
				       "uncached" : consumed ? "cached" :
				       "untouched");
		/* Asked again: the same answer, a hit iff it was cached. */
		ASSERT_ANSWERS(1, ssid);
		if (!consumed)
			break;
	}
	tst_diag("access: %u allocations, %u failed the transaction, %u left the decision uncached",
		 n - 1, failed, uncached);
	tst_diag("access: N by N:%s", trail);
	ASSERT_LT(0, failed);
	/*
	 * Not asserted here that the node's allocation was ever the one to
	 * fail: which allocation is the Nth moves between attempts (a slab
	 * needs a new page, kmemleak refills its pool), so a sweep may step
	 * over it.  access_node_fails below fails it on purpose.
	 */
}

/*
 * The node's allocation itself failing, targeted: only the marked node
 * cache is injectable (cache-filter) and no page allocation is (min-order
 * above any order), so fail-nth 1 is the node's kmem_cache_alloc.  The
 * decision must come back right and uncached; asked again, it is cached.
 */
TEST_F_TIMEOUT(faults, access_node_fails, 600)
{
	char req[64], reply[128], line[64], order[16];
	struct tst_reply rep;
	struct state s0, s1, s2;
	int r, r2 = 0, consumed = 0;
	const __u32 ssid = 7;

	/* The setup skipped: so does the test (the harness runs it). */
	if (self->nth < 0)
		SKIP(return, "no fault injection");
	if (tst_read_line(NODE_SLAB, line, sizeof(line)) || strcmp(line, "1"))
		SKIP(return, "%s: not 1 (boot with slub_debug=A,%s)",
		     NODE_SLAB, "avc_rcu_node");
	snprintf(req, sizeof(req), "%u 2 3 0xffffffff", ssid);
	snprintf(order, sizeof(order), "%ld",
		 tst_env_long("AVC_FAULTS_MIN_ORDER", 0));
	TST_OK(read_state(&s0));
	TST_OK(knob(FAILSLAB "cache-filter", "Y"));
	r = knob(FAIL_PAGE "min-order", "64");
	if (!r)
		r = nth_arm(self->nth, 1);
	if (!r) {
		r2 = op_access(req, strlen(req), reply, sizeof(reply));
		consumed = nth_consumed(self->nth);
	}
	/* Put the injectors back before any assertion can return. */
	if (knob(FAIL_PAGE "min-order", order) && !r)
		r = -EIO;
	if (knob(FAILSLAB "cache-filter", "N") && !r)
		r = -EIO;
	TST_OK(r);
	TST_OK(r2);
	ASSERT_EQ(1, consumed) TH_LOG("the node allocation was not attempted");
	TST_OK(read_state(&s1));
	TST_OK(tst_parse_reply(reply, strlen(reply), &rep));
	ASSERT_EQ(perm_of(1, ssid), rep.allowed);
	ASSERT_EQ(s0.seqno, rep.seqno);
	ASSERT_EQ(s0.hs.entries, s1.hs.entries) TH_LOG("cached all the same");
	ASSERT_EQ(s0.cs.sum[TST_ALLOCATIONS], s1.cs.sum[TST_ALLOCATIONS]);
	ASSERT_EQ(s0.cs.sum[TST_LOOKUPS] + 1, s1.cs.sum[TST_LOOKUPS]);
	ASSERT_EQ(s0.cs.sum[TST_MISSES] + 1, s1.cs.sum[TST_MISSES]);
	/* Asked again, with nothing failing: a miss that caches it. */
	ASSERT_ANSWERS(1, ssid);
	TST_OK(read_state(&s2));
	ASSERT_EQ(s1.hs.entries + 1, s2.hs.entries);
	ASSERT_EQ(s1.cs.sum[TST_ALLOCATIONS] + 1, s2.cs.sum[TST_ALLOCATIONS]);
	tst_diag("access_node_fails: answered uncached, then cached");
}

TEST_F_TIMEOUT(faults, threshold, 600)
{
	unsigned int n, failed = 0;
	struct state s0, s1;
	int r, consumed, len;
	char val[16];

	/* The setup skipped: so does the test (the harness runs it). */
	if (self->nth < 0)
		SKIP(return, "no fault injection");
	for (n = 1;; n++) {
		ASSERT_LE(n, self->max_n)
			TH_LOG("still consumed at N = %u", self->max_n);
		len = snprintf(val, sizeof(val), "%u\n", 5000 + n);
		TST_OK(read_state(&s0));
		TST_OK(nth_arm(self->nth, n));
		r = op_threshold(val, len);
		consumed = nth_consumed(self->nth);
		ASSERT_LE(0, consumed);
		TST_OK(read_state(&s1));
		if (r) {
			ASSERT_EQ(-ENOMEM, r) TH_LOG("N = %u: %s", n,
						     strerror(-r));
			ASSERT_TRUE(consumed);
			ASSERT_SAME_STATE(&s0, &s1);
			failed++;
		} else {
			ASSERT_EQ(5000 + n, s1.threshold);
			s1.threshold = s0.threshold;
			ASSERT_SAME_STATE(&s0, &s1);
		}
		if (!consumed)
			break;
	}
	tst_diag("threshold: %u allocations, %u of them failed the write",
		 n - 1, failed);
	ASSERT_LT(0, failed);
}

/*
 * The torture test with 10 % of the node cache's allocations failing.  The
 * cache filter also passes kernfs_node_cache (marked at boot for
 * avc_unload.sh), whose allocations sleep: ignore-gfp-wait keeps them out,
 * the nodes' are GFP_NOWAIT.
 */
TEST_F_TIMEOUT(faults, node_cache_fraction, 900)
{
	static const char *const arm[][2] = {
		{ FAILSLAB "cache-filter", "Y" },
		{ FAILSLAB "ignore-gfp-wait", "Y" },
		{ FAILSLAB "interval", "1" },
		{ FAILSLAB "times", "-1" },
		{ FAILSLAB "space", "0" },
		{ FAILSLAB "probability", "10" },
	};
	struct tst_hash_stats_file hs;
	struct tst_cache_stats_sum c0, c1;
	__u32 misses, allocs;
	char cmd[PATH_MAX + 128], line[512], here[PATH_MAX];
	unsigned int i;
	ssize_t len;
	int r, status;
	FILE *out;

	/* The setup skipped: so does the test (the harness runs it). */
	if (self->nth < 0)
		SKIP(return, "no fault injection");
	/*
	 * 6.1's failslab attribute is read-only: the cache is marked at boot
	 * (slub_debug=A,avc_rcu_node, which tools/testing/vm/run passes).
	 */
	if (tst_read_line(NODE_SLAB, line, sizeof(line)) || strcmp(line, "1"))
		SKIP(return, "%s: not 1 (boot with slub_debug=A,%s)",
		     NODE_SLAB, "avc_rcu_node");
	len = readlink("/proc/self/exe", here, sizeof(here) - 1);
	ASSERT_LT(0, len);
	here[len] = '\0';
	*strrchr(here, '/') = '\0';
	TST_OK(tst_read_cache_stats(&c0));
	for (i = 0; i < ARRAY_LEN(arm); i++)
		TST_OK(knob(arm[i][0], arm[i][1]));
	snprintf(cmd, sizeof(cmd),
		 "AVC_RCU_LOADED=1 AVC_TORTURE_SECONDS=%ld sh %s/avc_torture.sh 2>&1",
		 tst_env_long("AVC_FAULTS_TORTURE_SECONDS", 5),
		 here);
	out = popen(cmd, "r");
	ASSERT_NE(NULL, out);
	while (fgets(line, sizeof(line), out))
		tst_diag("  %s", strtok(line, "\n") ?: "");
	status = pclose(out);
	/* Put the injector back before any assertion can return. */
	r = knob(FAILSLAB "probability", "0");
	if (!r)
		r = knob(FAILSLAB "cache-filter", "N");
	if (!r)
		r = knob(FAILSLAB "ignore-gfp-wait", "N");
	TST_OK(r);
	ASSERT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0)
		TH_LOG("avc_torture.sh failed under node allocation failures");
	TST_OK(tst_wait_quiescent(10000, &hs, &c1));
	misses = c1.sum[TST_MISSES] - c0.sum[TST_MISSES];
	allocs = c1.sum[TST_ALLOCATIONS] - c0.sum[TST_ALLOCATIONS];
	tst_diag("node_cache_fraction: %u misses, %u node allocations, %u failed",
		 misses, allocs, misses - allocs);
	ASSERT_LT(allocs, misses) TH_LOG("no node allocation failed");
	ASSERT_EQ((__u32)hs.entries,
		  c1.sum[TST_ALLOCATIONS] - c1.sum[TST_FREES]);
}

/* Last: it unmounts and mounts again. */
TEST_F_TIMEOUT(faults, mount, 600)
{
	const char *mnt = tst_mnt();
	unsigned int n, failed = 0;
	struct state s0, s1;
	int r, consumed;

	/* The setup skipped: so does the test (the harness runs it). */
	if (self->nth < 0)
		SKIP(return, "no fault injection");
	TST_OK(read_state(&s0));
	r = umount(mnt);
	ASSERT_EQ(0, r) TH_LOG("umount %s: %s", mnt, strerror(errno));
	for (n = 1;; n++) {
		ASSERT_LE(n, self->max_n)
			TH_LOG("still consumed at N = %u", self->max_n);
		TST_OK(nth_arm(self->nth, n));
		r = mount(AVC_RCU_FS_NAME, mnt, AVC_RCU_FS_NAME, 0, NULL) ?
			-errno : 0;
		consumed = nth_consumed(self->nth);
		ASSERT_LE(0, consumed);
		if (r) {
			ASSERT_EQ(-ENOMEM, r) TH_LOG("N = %u: %s", n,
						     strerror(-r));
			ASSERT_TRUE(consumed);
			ASSERT_NE(0, tst_check_mounted());
			failed++;
			continue;
		}
		TST_OK(tst_check_mounted());
		TST_OK(read_state(&s1));
		ASSERT_SAME_STATE(&s0, &s1);
		ASSERT_ANSWERS(1, 1);
		TST_OK(read_state(&s0));	/* that lookup counted */
		if (!consumed)
			break;
		r = umount(mnt);
		ASSERT_EQ(0, r) TH_LOG("umount %s: %s", mnt, strerror(errno));
	}
	tst_diag("mount: %u allocations, %u of them failed the mount",
		 n - 1, failed);
	ASSERT_LT(0, failed);
}

TEST_HARNESS_MAIN
