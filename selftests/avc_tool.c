// SPDX-License-Identifier: GPL-2.0
/*
 * avc_tool: the avc_rcu selftest helpers for shell scripts, which cannot
 * do a transaction (write then read on one fd) or a one-write load
 * portably with busybox.
 *
 *   avc_tool load FILE|-        load a policy with one write(2)
 *   avc_tool access S T C R     print the reply to one access query
 *   avc_tool fill N [TSID]      query keys (1..N, TSID, 7); print nothing
 *   avc_tool quiesce [MS]       wait for allocations - frees == entries
 *   avc_tool state              print shell assignments: seqno threshold
 *                               entries used slots longest lookups hits
 *                               misses allocations reclaims frees rows
 *   avc_tool mounted            exit 0 if avcrcufs is mounted
 *   avc_tool torture-load SECS  for SECS seconds, load policy(s + 1) over
 *                               seqno s of the torture family (avc_oracle.h)
 *                               in a loop, telling avc_rcu_torture.ko, if
 *                               loaded, each seqno whose load returned; print
 *                               loads=N ms=M seqno=A..B max_ms=L (the
 *                               slowest load)
 *   avc_tool bursts R THR K     R rounds of avc_rcu_torture.ko's K burst
 *                               tasks (one fresh key each): before each,
 *                               fill the cache to THR - K + 1 entries; after
 *                               it (nothing in flight), fail if hash_stats
 *                               counts more than THR; print rounds=R max=M
 *   avc_tool herds R THR        R herds of avc_rcu_torture.ko (burst_herd):
 *                               before each, fill the cache to THR entries;
 *                               fail if a herd of M misses evicted M +
 *                               AVC_RECLAIM_CHUNK entries or more (with
 *                               reclaimer=background, more than the
 *                               entries above the low watermark plus a
 *                               chunk less one); print
 *                               herds=R overlapped=O worst=W (O: herds with
 *                               two misses or more, W: most evicted)
 *
 * Exit status 0 on success, 1 with one line on stderr otherwise.
 * Environment: AVC_RCU_MNT.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "avc_io.h"
#include "avc_limits.h"
#include "avc_model.h"

static int die(const char *what, int err)
{
	fprintf(stderr, "avc_tool: %s: %s\n", what, strerror(err < 0 ? -err :
							       err));
	return 1;
}

static int parse_u32(const char *s, __u32 *v)
{
	unsigned long long x;
	char *end;

	errno = 0;
	x = strtoull(s, &end, 0);
	if (errno || !*s || *end || x > UINT32_MAX || *s == '-')
		return -EINVAL;
	*v = (__u32)x;
	return 0;
}

static int cmd_load(const char *file)
{
	struct tst_buf b = { 0 };
	char chunk[65536];
	FILE *f = strcmp(file, "-") ? fopen(file, "r") : stdin;
	size_t n;
	int ret;

	if (!f)
		return die(file, errno);
	tst_buf_printf(&b, "%s", "");
	while ((n = fread(chunk, 1, sizeof(chunk), f)) > 0)
		tst_buf_printf(&b, "%.*s", (int)n, chunk);
	if (ferror(f))
		return die(file, EIO);
	if (f != stdin)
		fclose(f);
	if (memchr(b.data, '\0', b.len))
		return die(file, EINVAL);
	ret = tst_load_policy(b.data, b.len);
	tst_buf_free(&b);
	return ret ? die("load", ret) : 0;
}

static int cmd_access(char **argv)
{
	__u32 v[4];
	struct tst_reply r;
	int i, ret;

	for (i = 0; i < 4; i++)
		if (parse_u32(argv[i], &v[i]))
			return die(argv[i], EINVAL);
	ret = tst_access(v[0], v[1], v[2], v[3], &r);
	if (ret)
		return die("access", ret);
	printf("%s\n", tst_last_reply_text());
	return 0;
}

static int cmd_fill(int argc, char **argv)
{
	__u32 n, tsid = 7, k;
	struct tst_reply r;
	int ret;

	if (parse_u32(argv[0], &n) || (argc > 1 && parse_u32(argv[1], &tsid)))
		return die("fill", EINVAL);
	for (k = 1; k <= n; k++) {
		ret = tst_access(k, tsid, 7, 0, &r);
		if (ret)
			return die("access", ret);
	}
	return 0;
}

static int cmd_state(void)
{
	struct tst_cache_stats_sum cs;
	struct tst_hash_stats_file hs;
	__u32 seqno, thr;
	int ret;

	ret = tst_read_seqno(&seqno);
	if (ret)
		return die(AVC_RCU_FILE_SEQNO, ret);
	ret = tst_read_threshold(&thr);
	if (ret)
		return die(AVC_RCU_FILE_THRESHOLD, ret);
	ret = tst_read_hash_stats(&hs);
	if (ret)
		return die(AVC_RCU_FILE_HASH_STATS, ret);
	ret = tst_read_cache_stats(&cs);
	if (ret)
		return die(AVC_RCU_FILE_CACHE_STATS, ret);
	printf("seqno=%u threshold=%u entries=%ld used=%ld slots=%ld longest=%ld\n",
	       seqno, thr, hs.entries, hs.used, hs.slots, hs.longest);
	printf("lookups=%u hits=%u misses=%u allocations=%u reclaims=%u frees=%u rows=%u\n",
	       cs.sum[TST_LOOKUPS], cs.sum[TST_HITS], cs.sum[TST_MISSES],
	       cs.sum[TST_ALLOCATIONS], cs.sum[TST_RECLAIMS],
	       cs.sum[TST_FREES], cs.rows);
	return 0;
}

static int cmd_quiesce(int argc, char **argv)
{
	__u32 ms = 15000;
	struct tst_cache_stats_sum cs;
	struct tst_hash_stats_file hs;
	int ret;

	if (argc > 0 && parse_u32(argv[0], &ms))
		return die("quiesce", EINVAL);
	ret = tst_wait_quiescent((int)ms, &hs, &cs);
	if (ret == -ETIMEDOUT) {
		fprintf(stderr,
			"avc_tool: not quiescent after %u ms: entries %ld, allocations - frees %u\n",
			ms, hs.entries,
			cs.sum[TST_ALLOCATIONS] - cs.sum[TST_FREES]);
		return 1;
	}
	return ret ? die("quiesce", ret) : 0;
}

#define TORTURE_COMPLETED "/sys/module/avc_rcu_torture/parameters/completed"

/*
 * Tell the torture module that the load of @seqno has returned: from now
 * on no older decision may be served.  0, or -errno; a module that is not
 * loaded is not an error.
 */
static int torture_completed(__u32 seqno)
{
	char text[16];
	int fd, len, ret = 0;

	fd = open(TORTURE_COMPLETED, O_WRONLY | O_CLOEXEC);
	if (fd < 0)
		return errno == ENOENT ? 0 : -errno;
	len = snprintf(text, sizeof(text), "%u\n", seqno);
	if (write(fd, text, (size_t)len) != len)
		ret = -errno;
	close(fd);
	return ret;
}

/*
 * The loader of the in-kernel torture test: the only one to load while it
 * runs, so that the policy in force for seqno q is always the torture
 * family's policy(q).
 */
static int cmd_torture_load(const char *arg)
{
	const struct tst_oracle oracle = TST_ORACLE_TORTURE;
	struct tst_buf b = { 0 };
	unsigned long loads = 0;
	__u32 secs, s, first = 0, after;
	__u64 t0, t, end, slowest = 0;
	int ret;

	if (parse_u32(arg, &secs) || secs > 86400)
		return die("torture-load", EINVAL);
	t0 = tst_now_ms();
	end = t0 + (__u64)secs * 1000;
	do {
		ret = tst_read_seqno(&s);
		if (ret)
			return die(AVC_RCU_FILE_SEQNO, ret);
		if (!loads)
			first = s + 1;
		tst_oracle_policy_text(&oracle, s + 1, &b);
		t = tst_now_ms();
		ret = tst_load_policy(b.data, b.len);
		if (ret)
			return die("load", ret);
		t = tst_now_ms() - t;
		if (t > slowest)
			slowest = t;
		ret = tst_read_seqno(&after);
		if (ret)
			return die(AVC_RCU_FILE_SEQNO, ret);
		if (after != s + 1) {
			fprintf(stderr,
				"avc_tool: seqno %u after loading over %u: another loader?\n",
				after, s);
			return 1;
		}
		ret = torture_completed(s + 1);
		if (ret)
			return die(TORTURE_COMPLETED, ret);
		loads++;
	} while (tst_now_ms() < end);
	tst_buf_free(&b);
	printf("loads=%lu ms=%llu seqno=%u..%u max_ms=%llu\n", loads,
	       (unsigned long long)(tst_now_ms() - t0), first, s + 1,
	       (unsigned long long)slowest);
	return 0;
}

#define TORTURE_BURST "/sys/module/avc_rcu_torture/parameters/burst"

/*
 * Fill the cache, quiescent, up to @want entries with fresh keys (tsid
 * *@tsid, moved on for the next call); *@hs is the state after.
 */
static int fill_to(long want, __u32 *tsid, struct tst_hash_stats_file *hs,
		   struct tst_cache_stats_sum *cs)
{
	struct tst_reply r;
	long k;
	int ret;

	ret = tst_wait_quiescent(5000, hs, cs);
	if (ret)
		return ret;
	for (k = 1; k <= want - hs->entries; k++) {
		ret = tst_access((__u32)k, *tsid, 7, 0, &r);
		if (ret)
			return ret;
	}
	++*tsid;
	return tst_wait_quiescent(5000, hs, cs);
}

static int cmd_bursts(char **argv)
{
	struct tst_cache_stats_sum cs;
	struct tst_hash_stats_file hs;
	__u32 rounds, thr, tasks, r, tsid = 60000;
	long max = 0;
	int ret;

	if (parse_u32(argv[0], &rounds) || parse_u32(argv[1], &thr) ||
	    parse_u32(argv[2], &tasks) || !tasks || tasks > thr)
		return die("bursts", EINVAL);
	for (r = 1; r <= rounds; r++) {
		ret = fill_to((long)thr - tasks + 1, &tsid, &hs, &cs);
		if (ret)
			return die("fill", ret);
		ret = tst_write_str(TORTURE_BURST, "1");
		if (ret)
			return die(TORTURE_BURST, ret);
		ret = tst_wait_quiescent(5000, &hs, &cs);
		if (ret)
			return die("quiesce", ret);
		if (hs.entries > max)
			max = hs.entries;
		if (hs.entries > (long)thr) {
			printf("rounds=%u max=%ld\n", r, max);
			fprintf(stderr, "avc_tool: round %u: %ld entries at threshold %u\n",
				r, hs.entries, thr);
			return 1;
		}
	}
	printf("rounds=%u max=%ld\n", rounds, max);
	return 0;
}

static int cmd_herds(char **argv)
{
	struct tst_cache_stats_sum cs0, cs1;
	struct tst_hash_stats_file hs;
	__u32 rounds, thr, r, tsid = 70000, overlapped = 0, worst = 0, ev, miss;
	int ret, bg = tst_reclaimer_background();

	if (parse_u32(argv[0], &rounds) || parse_u32(argv[1], &thr) || !thr)
		return die("herds", EINVAL);
	if (bg < 0)
		return die("reclaimer", -bg);
	for (r = 1; r <= rounds; r++) {
		/* At the threshold: the herd's first miss reclaims. */
		ret = fill_to(thr, &tsid, &hs, &cs0);
		if (ret)
			return die("fill", ret);
		ret = tst_write_str(TORTURE_BURST, "1");
		if (ret)
			return die(TORTURE_BURST, ret);
		/* The write returns once the background reclaimer is done. */
		if (bg)
			ret = tst_write_threshold(thr);
		ret = ret ?: tst_read_cache_stats(&cs1);
		if (ret)
			return die(AVC_RCU_FILE_CACHE_STATS, ret);
		ev = tst_stat_delta(&cs0, &cs1, TST_RECLAIMS);
		miss = tst_stat_delta(&cs0, &cs1, TST_MISSES);
		overlapped += miss > 1;
		if (ev > worst)
			worst = ev;
		/*
		 * In the background the herd wakes the reclaimer, which
		 * evicts from the count it found down to the low watermark,
		 * a chunk at a time: at most what the herd and the fill put
		 * above it, and less than a chunk more.
		 */
		if (bg) {
			if (ev > (__u32)hs.entries + miss - avc_test_low(thr) +
				 AVC_RECLAIM_CHUNK - 1) {
				printf("herds=%u overlapped=%u worst=%u\n", r,
				       overlapped, worst);
				fprintf(stderr, "avc_tool: herd %u: %u misses, %ld in, %u out\n",
					r, miss, hs.entries, ev);
				return 1;
			}
			continue;
		}
		/*
		 * A sweep starts only while the places taken reach the
		 * threshold, the sweeping miss holding none, the cache having
		 * been at it: while the other misses' places, at most one a
		 * miss, are at least the entries evicted so far.  So the last
		 * sweep starts with at most miss - 1 evicted and adds at most
		 * a chunk (Documentation/design.rst, "Reclaim"): one chunk for
		 * up to 16 misses when it is whole, two for 17 to 32, never
		 * one a miss.
		 */
		if (ev > miss - 1 + AVC_RECLAIM_CHUNK) {
			printf("herds=%u overlapped=%u worst=%u\n", r,
			       overlapped, worst);
			fprintf(stderr, "avc_tool: herd %u: %u misses evicted %u entries\n",
				r, miss, ev);
			return 1;
		}
	}
	printf("herds=%u overlapped=%u worst=%u\n", rounds, overlapped,
	       worst);
	return 0;
}

int main(int argc, char **argv)
{
	const char *cmd = argc > 1 ? argv[1] : "";

	if (!strcmp(cmd, "load") && argc == 3)
		return cmd_load(argv[2]);
	if (!strcmp(cmd, "access") && argc == 6)
		return cmd_access(argv + 2);
	if (!strcmp(cmd, "fill") && (argc == 3 || argc == 4))
		return cmd_fill(argc - 2, argv + 2);
	if (!strcmp(cmd, "quiesce") && argc <= 3)
		return cmd_quiesce(argc - 2, argv + 2);
	if (!strcmp(cmd, "state") && argc == 2)
		return cmd_state();
	if (!strcmp(cmd, "mounted") && argc == 2)
		return tst_check_mounted() ? 1 : 0;
	if (!strcmp(cmd, "torture-load") && argc == 3)
		return cmd_torture_load(argv[2]);
	if (!strcmp(cmd, "bursts") && argc == 5)
		return cmd_bursts(argv + 2);
	if (!strcmp(cmd, "herds") && argc == 4)
		return cmd_herds(argv + 2);
	fprintf(stderr,
		"usage: avc_tool load FILE|- | access S T C R | fill N [TSID] |\n"
		"       quiesce [MS] | state | mounted | torture-load SECONDS |\n"
		"       bursts ROUNDS THRESHOLD TASKS | herds ROUNDS THRESHOLD\n");
	return 2;
}
