// SPDX-License-Identifier: GPL-2.0
/*
 * avc_rcu policy loads at their limits and under memory pressure; heavy,
 * so make check's lanes run it once per guest, not once per sync mode:
 *
 * - the 64 MiB limit exactly: 64 MiB - 1 and 64 MiB load, in one write or
 *   in many, one byte more is EFBIG (on the write that crosses it, and at
 *   the close) and loads nothing;
 * - memory given back: after 16 MiB of one repeated rule, or of a thousand
 *   rules repeated, the policy in force holds its few rules' worth, not
 *   the text's (kvrealloc() never shrinks: it kept about 20 MiB here);
 *   measured in /proc/vmallocinfo and, given a memory cgroup, in the
 *   writer's memory.current after it exits;
 * - a text of bare keywords fails at line 1 with EINVAL in a cgroup whose
 *   limit is far below what counting those lines as rules reserved;
 * - a writer in a cgroup too small for its policy gets ENOMEM, is not
 *   OOM-killed, and the policy in force stays;
 * - the largest policy there is, millions of rules, on a 1-CPU guest with
 *   preemption off and a 2 s soft-lockup threshold: no soft lockup, no RCU
 *   stall (the sort once ran for seconds without a reschedule point).
 *   Skipped on more than one CPU unless AVC_LARGE_POLICY=1.
 *
 * The cgroup cases need cgroup2's memory controller (the stock kernel has
 * it; the debug kernel has no cgroups): without it they are skipped.
 *
 * Environment: AVC_RCU_MNT, AVC_LARGE_POLICY.
 */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>

#include "kselftest_harness.h"
#include "avc_test.h"

#define MAX_BYTES	((size_t)AVC_RCU_POLICY_MAX_BYTES)
#define MIB		(1024 * 1024)

FIXTURE(mem) {
	struct tst_saved_threshold thr;
	char cg[256];
};

FIXTURE_SETUP(mem)
{
	TST_ASSERT_MOUNTED();
	TST_SAVE_THRESHOLD(&self->thr);
}

FIXTURE_TEARDOWN(mem)
{
	TST_RESTORE_THRESHOLD(&self->thr);
	if (self->cg[0])
		tst_memcg_remove(self->cg);
}

/*
 * A valid policy of exactly @len bytes: two rules around one long comment
 * line.  @buf holds at least @len bytes.
 */
static void policy_of_len(char *buf, size_t len)
{
	static const char head[] = "allow 81 82 83 0x1\n";
	static const char tail[] = "allow 84 85 86 0x2\n";
	size_t h = sizeof(head) - 1, t = sizeof(tail) - 1;

	memcpy(buf, head, h);
	buf[h] = '#';
	memset(buf + h + 1, 'c', len - h - t - 2);
	buf[len - t - 1] = '\n';
	memcpy(buf + len - t, tail, t);
}

TEST_F_TIMEOUT(mem, limit_64mib_exactly, 600)
{
	struct tst_decision a = { 0x1, 0, 0xffffffff, 0 };
	struct tst_decision b = { 0x2, 0, 0xffffffff, 0 };
	size_t mib = MIB;
	__u32 before, now;
	char *buf;
	int at, ret;

	buf = malloc(MAX_BYTES + 1);
	ASSERT_NE(NULL, buf);

	/* 64 MiB - 1 in 1 MiB writes, 64 MiB in 1 MiB writes and in one. */
	policy_of_len(buf, MAX_BYTES - 1);
	TST_OK(tst_read_seqno(&before));
	TST_OK(tst_load_chunks(buf, MAX_BYTES - 1, &mib, 1, &at));
	policy_of_len(buf, MAX_BYTES);
	TST_OK(tst_load_chunks(buf, MAX_BYTES, &mib, 1, &at));
	TST_OK(tst_load_policy(buf, MAX_BYTES));
	TST_OK(tst_read_seqno(&now));
	ASSERT_EQ(before + 3, now);
	TST_EXPECT_DECISION(81, 82, 83, &a, now);
	TST_EXPECT_DECISION(84, 85, 86, &b, now);

	/* One byte more: the 65th write of 1 MiB crosses the limit. */
	TST_OK(tst_load_policy("allow 84 85 86 0x4\n", 19));
	TST_OK(tst_read_seqno(&before));
	policy_of_len(buf, MAX_BYTES + 1);
	ret = tst_load_chunks(buf, MAX_BYTES + 1, &mib, 1, &at);
	EXPECT_EQ(-EFBIG, ret) TH_LOG("got %s", strerror(-ret));
	EXPECT_EQ(65, at) TH_LOG("failed at call %d (0 is close)", at);
	ret = tst_load_policy(buf, MAX_BYTES + 1);
	EXPECT_EQ(-EFBIG, ret);
	/* 64 MiB, then one byte more in a write of its own. */
	{
		size_t cut[2] = { MAX_BYTES, 1 };

		policy_of_len(buf, MAX_BYTES);
		buf[MAX_BYTES] = '\n';
		ret = tst_load_chunks(buf, MAX_BYTES + 1, cut, 2, &at);
		EXPECT_EQ(-EFBIG, ret);
		EXPECT_EQ(2, at);
	}
	TST_OK(tst_read_seqno(&now));
	EXPECT_EQ(before, now);
	b.allowed = 0x4;
	TST_EXPECT_DECISION(84, 85, 86, &b, now);
	free(buf);
}

/* Sum of the module's vmalloc'ed memory once RCU has freed the old policy. */
static long long settled_vmalloc(long long below)
{
	long long v = 0;
	int i;

	/* The old policy goes by call_rcu(), its vmalloc'ed part by a worker. */
	for (i = 0; i < 50; i++) {
		v = tst_vmalloc_bytes("avc_rcu");
		if (v < 0 || v <= below)
			break;
		usleep(100000);
	}
	return v;
}

/*
 * Load @text (@len bytes) from a child in memory cgroup @cg (if any):
 * the child's exit status is 0 or the errno of the load; -1 - signal if
 * it was killed.
 */
static int load_in_child(const char *cg, const char *text, size_t len)
{
	int status, ret;
	pid_t pid;

	pid = fork();
	if (pid < 0)
		return -1000;
	if (pid == 0) {
		if (cg && tst_memcg_enter(cg))
			_exit(200);
		ret = tst_load_policy(text, len);
		_exit(ret < 0 ? -ret : 0);
	}
	if (waitpid(pid, &status, 0) != pid)
		return -1000;
	if (WIFSIGNALED(status))
		return -1 - WTERMSIG(status);
	return WEXITSTATUS(status);
}

/* Text shared with a child without being charged to the child's cgroup. */
static char *shared_text(size_t len)
{
	char *p = mmap(NULL, len, PROT_READ | PROT_WRITE,
		       MAP_SHARED | MAP_ANONYMOUS, -1, 0);

	return p == MAP_FAILED ? NULL : p;
}

#define REPEAT_BYTES	(16 * MIB)

/*
 * Duplicate keys merge into one rule, and the memory of the rest goes back
 * when the load returns: the policy in force holds its distinct rules, not
 * the text's lines.  Before, the array kept its first size: kvrealloc()
 * does not shrink.
 */
TEST_F_TIMEOUT(mem, repeated_rules_give_memory_back, 600)
{
	static const char small[] = "allow 1 1 1 0x1\n";
	long long v0, v1, cur;
	int round, cg, ret;
	char *text;
	size_t len;

	text = shared_text(REPEAT_BYTES);
	ASSERT_NE(NULL, text);
	ret = tst_memcg_create("avc_memory_repeat", 0, self->cg,
			       sizeof(self->cg));
	cg = !ret;
	if (!cg) {
		tst_diag("no memory cgroup (%s): vmallocinfo only",
			 strerror(-ret));
		self->cg[0] = '\0';
	}
	for (round = 0; round < 2; round++) {
		struct tst_decision d = { 0, 0, 0xffffffff, 0 };
		__u32 seq, k;

		/* One rule 16 MiB long, or a thousand rules in turn. */
		for (len = 0, k = 0;; k++) {
			char line[64];
			int n = round ?
				snprintf(line, sizeof(line), "allow %u 2 3 0x%x\n",
					 k % 1000, 1u << (k % 3)) :
				snprintf(line, sizeof(line), "allow 1 2 3 0x%x\n",
					 1u << (k % 3));

			if (len + n > REPEAT_BYTES)
				break;
			memcpy(text + len, line, n);
			len += n;
		}
		TST_OK(tst_load_policy(small, sizeof(small) - 1));
		v0 = settled_vmalloc(0);
		ASSERT_LE(0, v0);
		ret = load_in_child(cg ? self->cg : NULL, text, len);
		ASSERT_EQ(0, ret) TH_LOG("load in a child: %d", ret);
		TST_OK(tst_read_seqno(&seq));
		d.allowed = 0x7;
		TST_EXPECT_DECISION(round ? 999 : 1, 2, 3, &d, seq);
		v1 = settled_vmalloc(v0 + MIB);
		tst_diag("%s: %zu bytes, %u lines: vmalloc'ed by avc_rcu %lld -> %lld bytes",
			 round ? "1000 rules repeated" : "one rule repeated",
			 len, k, v0, v1);
		EXPECT_GE(v0 + MIB, v1)
			TH_LOG("the policy of %s keeps %lld bytes of vmalloc",
			       round ? "1000 rules" : "one rule", v1 - v0);
		if (!cg)
			continue;
		/* What the writer's cgroup is still charged for: the policy. */
		cur = tst_memcg_read(self->cg, "memory.current", NULL);
		tst_diag("writer's cgroup: memory.current %lld, memory.peak %lld",
			 cur, tst_memcg_read(self->cg, "memory.peak", NULL));
		EXPECT_GE(2 * MIB, cur)
			TH_LOG("the writer's cgroup holds %lld bytes after the load",
			       cur);
	}
	munmap(text, REPEAT_BYTES);
}

#define KEYWORD_BYTES	(16 * MIB)
#define KEYWORD_LIMIT	(48LL * MIB)

/*
 * 16 MiB of lines that are only "allow": 2.8 million lines a first pass
 * once counted as rules and reserved about 67 MB for, before the first one
 * failed.  In a cgroup limited to 48 MiB the load must fail as the text
 * deserves, with EINVAL at line 1, not ENOMEM.
 */
TEST_F_TIMEOUT(mem, bare_keywords_fail_at_line_1, 300)
{
	char found[512];
	size_t i;
	__u32 before, now;
	char *text;
	int ret, kfd;

	ret = tst_memcg_create("avc_memory_keywords", KEYWORD_LIMIT, self->cg,
			       sizeof(self->cg));
	if (ret) {
		self->cg[0] = '\0';
		SKIP(return, "no memory cgroup: %s", strerror(-ret));
	}
	text = shared_text(KEYWORD_BYTES);
	ASSERT_NE(NULL, text);
	for (i = 0; i + 6 <= KEYWORD_BYTES; i += 6)
		memcpy(text + i, "allow\n", 6);
	TST_OK(tst_read_seqno(&before));
	kfd = tst_kmsg_open();
	ret = load_in_child(self->cg, text, i);
	EXPECT_EQ(EINVAL, ret)
		TH_LOG("load of %zu bytes of bare keywords: %s", i,
		       ret > 0 ? strerror(ret) : ret < -1 ?
		       "killed by a signal" : "success");
	tst_diag("writer's cgroup: memory.peak %lld (limit %lld)",
		 tst_memcg_read(self->cg, "memory.peak", NULL),
		 KEYWORD_LIMIT);
	if (kfd >= 0) {
		EXPECT_EQ(1, tst_kmsg_grep(kfd, "avc_rcu: policy line 1:",
					   found, sizeof(found)));
		close(kfd);
	}
	TST_OK(tst_read_seqno(&now));
	EXPECT_EQ(before, now);
	munmap(text, KEYWORD_BYTES);
}

#define ENOMEM_BYTES	(32 * MIB)
#define ENOMEM_LIMIT	(16LL * MIB)

/*
 * A writer whose cgroup cannot hold the policy gets ENOMEM, from the write
 * or the close, and lives; the policy in force stays.  Before, the copy of
 * the text was allocated without __GFP_RETRY_MAYFAIL and the memory
 * cgroup's OOM killer killed the writer.
 */
TEST_F_TIMEOUT(mem, enomem_not_oom_kill, 300)
{
	static const char small[] = "allow 91 92 93 0x9\n";
	struct tst_decision d = { 0x9, 0, 0xffffffff, 0 };
	__u32 before, now, j;
	size_t len = 0;
	char *text;
	int ret;

	ret = tst_memcg_create("avc_memory_enomem", ENOMEM_LIMIT, self->cg,
			       sizeof(self->cg));
	if (ret) {
		self->cg[0] = '\0';
		SKIP(return, "no memory cgroup: %s", strerror(-ret));
	}
	text = shared_text(ENOMEM_BYTES);
	ASSERT_NE(NULL, text);
	for (j = 0;; j++) {
		char line[64];
		int n = snprintf(line, sizeof(line), "allow %u %u 3 0x%x\n",
				 1 + j / 4096, 1 + j % 4096, j);

		if (len + n > ENOMEM_BYTES)
			break;
		memcpy(text + len, line, n);
		len += n;
	}
	TST_LOAD(small, sizeof(small) - 1, &before);
	ret = load_in_child(self->cg, text, len);
	EXPECT_EQ(ENOMEM, ret)
		TH_LOG("%u rules (%zu bytes) in a %lld-byte cgroup: %s%s", j,
		       len, ENOMEM_LIMIT,
		       ret > 0 ? strerror(ret) : ret < -1 ?
		       "killed by signal " : "success",
		       ret < -1 ? strsignal(-1 - ret) : "");
	tst_diag("writer's cgroup: oom_kill %lld, max %lld",
		 tst_memcg_read(self->cg, "memory.events", "oom_kill"),
		 tst_memcg_read(self->cg, "memory.events", "max"));
	EXPECT_EQ(0, tst_memcg_read(self->cg, "memory.events", "oom_kill"));
	TST_OK(tst_read_seqno(&now));
	EXPECT_EQ(before, now);
	TST_EXPECT_DECISION(91, 92, 93, &d, now);
	munmap(text, ENOMEM_BYTES);
}

#define WATCHDOG_THRESH	"/proc/sys/kernel/watchdog_thresh"
#define SOFT_WATCHDOG	"/proc/sys/kernel/soft_watchdog"
#define PREEMPT_MODE	"/sys/kernel/debug/sched/preempt"

/* The current mode of "none (voluntary) full": the word in brackets. */
static int preempt_mode(char *mode, size_t size)
{
	char line[128], *open, *close;
	int ret = tst_read_line(PREEMPT_MODE, line, sizeof(line));

	if (ret)
		return ret;
	open = strchr(line, '(');
	close = open ? strchr(open, ')') : NULL;
	if (!close)
		return -EINVAL;
	*close = '\0';
	snprintf(mode, size, "%s", open + 1);
	return 0;
}

/*
 * The largest policy there is: 64 MiB of distinct rules in descending
 * order, about 3.5 million, loaded on one CPU without preemption (a
 * kernel with PREEMPT_DYNAMIC is switched to "none") and with the soft
 * lockup detector's threshold at 2 s.  Every step of the load must come
 * to a reschedule point within that: the kernel log must show no soft
 * lockup and no RCU stall.
 */
TEST_F_TIMEOUT(mem, largest_policy_no_soft_lockup, 900)
{
	char thresh[32], mode[32] = "", found[512];
	int kfd2;
	long cpus = sysconf(_SC_NPROCESSORS_ONLN);
	__u64 t0, ms;
	size_t len = 0;
	__u32 j, n, seq;
	char *text;
	int kfd, ret;

	if (cpus != 1 && tst_env_long("AVC_LARGE_POLICY", 0) != 1)
		SKIP(return, "%ld CPUs: runs on the 1-CPU guest (AVC_LARGE_POLICY=1 to force)",
		     cpus);
	ret = tst_read_line(SOFT_WATCHDOG, thresh, sizeof(thresh));
	if (ret || strcmp(thresh, "1"))
		SKIP(return, "no soft lockup detector (%s)",
		     ret ? strerror(-ret) : "soft_watchdog is 0");
	TST_OK(tst_read_line(WATCHDOG_THRESH, thresh, sizeof(thresh)));

	text = malloc(MAX_BYTES);
	ASSERT_NE(NULL, text);
	/* Key j is (1 + j / 4096, 1 + j % 4096, 1), j descending. */
	for (n = 0; n < 2; n++) {
		for (j = 3600000, len = 0; j-- > 0; ) {
			char line[64];
			int l = snprintf(line, sizeof(line), "allow %u %u 1 %u\n",
					 1 + j / 4096, 1 + j % 4096, j % 10);

			if (len + l > MAX_BYTES)
				break;
			if (n)
				memcpy(text + len, line, l);
			len += l;
		}
	}
	tst_diag("%zu bytes, rules for j = %u .. 3599999", len, j + 1);

	if (!preempt_mode(mode, sizeof(mode)) && strcmp(mode, "none")) {
		if (tst_write_str(PREEMPT_MODE, "none"))
			mode[0] = '\0';
	}
	TST_OK(tst_write_str(WATCHDOG_THRESH, "1"));
	kfd = tst_kmsg_open();
	kfd2 = tst_kmsg_open();
	TST_OK(tst_read_seqno(&seq));
	t0 = tst_now_ms();
	ret = tst_load_policy(text, len);
	ms = tst_now_ms() - t0;
	/* Let the detector look once more at the last stretch. */
	sleep(3);
	tst_write_str(WATCHDOG_THRESH, thresh);
	if (mode[0] && strcmp(mode, "none"))
		tst_write_str(PREEMPT_MODE, mode);
	free(text);
	tst_diag("loaded in %llu ms (preemption %s during the load)",
		 (unsigned long long)ms, mode[0] ? "none" : "as booted");
	ASSERT_EQ(0, ret) TH_LOG("load: %s", strerror(-ret));
	if (kfd >= 0 && kfd2 >= 0) {
		EXPECT_EQ(0, tst_kmsg_grep(kfd, "soft lockup", found,
					   sizeof(found)))
			TH_LOG("%s", found);
		EXPECT_EQ(0, tst_kmsg_grep(kfd2, "stall", found,
					   sizeof(found)))
			TH_LOG("%s", found);
	} else {
		tst_diag("no /dev/kmsg: the console scan alone judges");
	}
	{
		struct tst_decision d = { 0, 0, 0xffffffff, 0 };
		__u32 k[] = { j + 1, 3599999, 1234567, 2000003 };
		size_t i;

		for (i = 0; i < ARRAY_LEN(k); i++) {
			d.allowed = k[i] % 10;
			TST_EXPECT_DECISION(1 + k[i] / 4096, 1 + k[i] % 4096, 1,
					    &d, seq + 1);
		}
	}
	if (kfd >= 0)
		close(kfd);
	if (kfd2 >= 0)
		close(kfd2);
}

TEST_HARNESS_MAIN
