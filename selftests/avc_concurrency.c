// SPDX-License-Identifier: GPL-2.0
/*
 * avc_rcu concurrency: one reader thread per online CPU queries through
 * the access file while one thread reloads the policy in a loop, one moves
 * cache_threshold between tiny and huge values and one reads the
 * statistics files.  Every answer is checked by an oracle:
 *
 * - The loader is the only one to load.  Before each load it reads the
 *   seqno s and loads policy(s + 1), a pure function of the seqno
 *   (avc_oracle.h), so any reply can be checked against
 *   avc_oracle_expected(key, reply.seqno).
 * - Freshness: before a query a reader notes the last seqno whose load
 *   had returned; the reply's seqno may not be older (a stale decision
 *   served or inserted after a flush shows up here), nor newer than the
 *   load in flight when the reply came back.
 *
 * Environment: AVC_RCU_MNT, AVC_SEED, AVC_STRESS_SECONDS (default 3, per
 * variant; keep it well below the 600 s harness timeout).
 */
#include <errno.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "kselftest_harness.h"
#include "avc_test.h"

/* Key space: ssid 1..NS, tsid 1..NT, tclass 1..NC. */
#define NS	24
#define NT	24
#define NC	4
#define NHOT	64

struct shared {
	struct avc_oracle oracle;	/* the policies loaded */
	atomic_uint completed;		/* seqno of the last load returned */
	atomic_uint started;		/* seqno of the load in flight */
	atomic_int stop;
	atomic_int failed;
	char why[1024];
	atomic_ulong checked;
	atomic_ulong loads;
	atomic_ulong thr_moves;
	atomic_ulong stat_reads;
	__u32 hot[NHOT][3];
	__u64 seed;
};

static __printf(2, 3) void fail(struct shared *sh, const char *fmt, ...);

static void fail(struct shared *sh, const char *fmt, ...)
{
	va_list ap;

	if (atomic_exchange(&sh->failed, 1) == 0) {
		va_start(ap, fmt);
		vsnprintf(sh->why, sizeof(sh->why), fmt, ap);
		va_end(ap);
	}
	atomic_store(&sh->stop, 1);
}

/* Load policy(seqno + 1); returns 0 or -1 after fail(). */
static int load_next(struct shared *sh, struct avc_buf *buf)
{
	__u32 s, after;
	int ret;

	ret = avc_read_seqno(&s);
	if (ret) {
		fail(sh, "loader: reading seqno: %s", strerror(-ret));
		return -1;
	}
	avc_oracle_policy_text(&sh->oracle, s + 1, buf);
	atomic_store(&sh->started, s + 1);
	ret = avc_load_policy(buf->data, buf->len);
	if (ret) {
		fail(sh, "loader: loading policy for seqno %u: %s", s + 1,
		     strerror(-ret));
		return -1;
	}
	ret = avc_read_seqno(&after);
	if (ret || after != s + 1) {
		fail(sh, "loader: seqno %u after loading over %u (%s)", after,
		     s, strerror(-ret));
		return -1;
	}
	atomic_store(&sh->completed, s + 1);
	atomic_fetch_add(&sh->loads, 1);
	return 0;
}

static void *loader(void *arg)
{
	struct shared *sh = arg;
	struct avc_buf buf = { 0 };

	while (!atomic_load(&sh->stop))
		if (load_next(sh, &buf))
			break;
	avc_buf_free(&buf);
	return NULL;
}

static void *threshold_mover(void *arg)
{
	static const __u32 values[] = {
		1, 16, 1048576, 8, 64, 512, 2, 4096, 100, 1,
	};
	struct shared *sh = arg;
	struct timespec pause = { 0, 500000 };
	unsigned int i = 0;
	int ret;

	while (!atomic_load(&sh->stop)) {
		ret = avc_write_threshold(values[i++ % ARRAY_LEN(values)]);
		if (ret) {
			fail(sh, "threshold mover: %s", strerror(-ret));
			break;
		}
		atomic_fetch_add(&sh->thr_moves, 1);
		nanosleep(&pause, NULL);
	}
	return NULL;
}

/*
 * The statistics must parse at any time, whatever the cache does:
 * hash_stats from one read (a second read may legitimately meet a
 * re-rendered text, as in selinuxfs), cache_stats read to its end
 * (seq_file: every row is whole).
 */
static void *stats_reader(void *arg)
{
	struct timespec pause = { 0, 2000000 };
	struct shared *sh = arg;
	struct avc_cache_stats_sum cs;
	struct avc_hash_stats_file hs;
	char text[256];
	ssize_t len;
	int ret;

	while (!atomic_load(&sh->stop)) {
		len = avc_read_once(AVC_RCU_FILE_HASH_STATS, text,
				    sizeof(text));
		if (len < 0) {
			fail(sh, "hash_stats under load: %s",
			     strerror((int)-len));
			break;
		}
		if (avc_parse_hash_stats(text, (size_t)len, &hs)) {
			fail(sh, "hash_stats under load reads '%s'", text);
			break;
		}
		if (hs.entries < 0 || hs.used < 0 || hs.used > hs.slots ||
		    hs.longest < 0) {
			fail(sh, "hash_stats under load: entries %ld used %ld/%ld longest %ld",
			     hs.entries, hs.used, hs.slots, hs.longest);
			break;
		}
		ret = avc_read_cache_stats(&cs);
		if (ret) {
			fail(sh, "cache_stats under load: %s", strerror(-ret));
			break;
		}
		atomic_fetch_add(&sh->stat_reads, 1);
		nanosleep(&pause, NULL);
	}
	return NULL;
}

struct reader_arg {
	struct shared *sh;
	unsigned int id;
};

static void *reader_thread(void *arg)
{
	struct reader_arg *ra = arg;
	struct shared *sh = ra->sh;
	__u64 rng = sh->seed + 0x1000 * (ra->id + 1);
	unsigned long n = 0;

	while (!atomic_load(&sh->stop)) {
		__u32 s, t, c, lo, hi;
		struct avc_decision d;
		struct avc_reply r;
		int ret;

		if (avc_rand(&rng) % 4) {
			const __u32 *k = sh->hot[avc_rand(&rng) % NHOT];

			s = k[0];
			t = k[1];
			c = k[2];
		} else {
			s = avc_rand_range(&rng, 1, NS);
			t = avc_rand_range(&rng, 1, NT);
			c = avc_rand_range(&rng, 1, NC);
		}
		lo = atomic_load(&sh->completed);
		ret = avc_access(s, t, c, (__u32)avc_rand(&rng), &r);
		hi = atomic_load(&sh->started);
		if (ret) {
			fail(sh, "reader %u: access %u %u %u: %s (reply '%s')",
			     ra->id, s, t, c, strerror(-ret),
			     avc_last_reply_text());
			break;
		}
		if (r.seqno < lo || r.seqno > hi) {
			fail(sh,
			     "reader %u: access %u %u %u: seqno %u not in [%u, %u]: %s",
			     ra->id, s, t, c, r.seqno, lo, hi,
			     r.seqno < lo ? "stale decision after the load returned" :
			     "seqno from the future");
			break;
		}
		avc_oracle_expected(&sh->oracle, s, t, c, r.seqno, &d);
		if (avc_reply_matches(&r, &d, r.seqno)) {
			fail(sh,
			     "reader %u: access %u %u %u: got %s, expected %s (seqno %u)",
			     ra->id, s, t, c, avc_reply_str(&r),
			     avc_decision_str(&d), r.seqno);
			break;
		}
		n++;
	}
	atomic_fetch_add(&sh->checked, n);
	return NULL;
}

FIXTURE(conc) {
	struct avc_saved_threshold thr;
};

FIXTURE_VARIANT(conc) {
	unsigned int rule_mod;
};

/* Rules on every key: big policies, slower loads. */
FIXTURE_VARIANT_ADD(conc, dense) {
	.rule_mod = 1,
};

/* Rules on 1 key in 16: small policies, loads as fast as they go. */
FIXTURE_VARIANT_ADD(conc, sparse) {
	.rule_mod = 16,
};

FIXTURE_SETUP(conc)
{
	AVC_ASSERT_MOUNTED();
	AVC_SAVE_THRESHOLD(&self->thr);
}

FIXTURE_TEARDOWN(conc)
{
	AVC_RESTORE_THRESHOLD(&self->thr);
}

TEST_F_TIMEOUT(conc, readers_vs_reload_and_threshold, 600)
{
	long cpus = sysconf(_SC_NPROCESSORS_ONLN);
	long secs = avc_env_long("AVC_STRESS_SECONDS", 3);
	struct avc_cache_stats_sum cs;
	struct avc_hash_stats_file hs;
	struct reader_arg *ra;
	pthread_t *rt, lt, tt, st;
	struct shared *sh;
	struct avc_buf buf = { 0 };
	__u64 rng;
	long i;

	sh = calloc(1, sizeof(*sh));
	ASSERT_NE(NULL, sh);
	sh->oracle = (struct avc_oracle){
		.ns = NS, .nt = NT, .nc = NC, .rule_mod = variant->rule_mod,
	};
	sh->seed = avc_seed();
	rng = sh->seed;
	for (i = 0; i < NHOT; i++) {
		sh->hot[i][0] = avc_rand_range(&rng, 1, NS);
		sh->hot[i][1] = avc_rand_range(&rng, 1, NT);
		sh->hot[i][2] = avc_rand_range(&rng, 1, NC);
	}
	if (cpus < 1)
		cpus = 1;
	avc_diag("%ld readers, %ld s, rule_mod %u, AVC_SEED=%llu", cpus, secs,
		 sh->oracle.rule_mod, (unsigned long long)sh->seed);

	/* The first load: every reply from now on follows expected(). */
	ASSERT_EQ(0, load_next(sh, &buf)) TH_LOG("%s", sh->why);
	avc_buf_free(&buf);

	rt = calloc((size_t)cpus, sizeof(*rt));
	ra = calloc((size_t)cpus, sizeof(*ra));
	ASSERT_NE(NULL, rt);
	ASSERT_NE(NULL, ra);
	for (i = 0; i < cpus; i++) {
		ra[i].sh = sh;
		ra[i].id = (unsigned int)i;
		ASSERT_EQ(0, pthread_create(&rt[i], NULL, reader_thread, &ra[i]));
	}
	ASSERT_EQ(0, pthread_create(&lt, NULL, loader, sh));
	ASSERT_EQ(0, pthread_create(&tt, NULL, threshold_mover, sh));
	ASSERT_EQ(0, pthread_create(&st, NULL, stats_reader, sh));

	for (i = 0; i < secs * 10 && !atomic_load(&sh->stop); i++)
		usleep(100000);
	atomic_store(&sh->stop, 1);
	for (i = 0; i < cpus; i++)
		pthread_join(rt[i], NULL);
	pthread_join(lt, NULL);
	pthread_join(tt, NULL);
	pthread_join(st, NULL);

	avc_diag("checked %lu answers; %lu loads, %lu threshold writes, %lu statistics reads",
		 atomic_load(&sh->checked), atomic_load(&sh->loads),
		 atomic_load(&sh->thr_moves), atomic_load(&sh->stat_reads));
	ASSERT_EQ(0, atomic_load(&sh->failed)) TH_LOG("%s", sh->why);
	EXPECT_LT(0, atomic_load(&sh->checked));
	EXPECT_LE(2, atomic_load(&sh->loads));
	EXPECT_LT(0, atomic_load(&sh->thr_moves));

	/* Afterwards, idle: the counters agree again. */
	AVC_QUIESCE(AVC_QUIESCE_MS, &hs, &cs);
	EXPECT_EQ(cs.sum[AVC_LOOKUPS],
		  (__u32)(cs.sum[AVC_HITS] + cs.sum[AVC_MISSES]));
	free(rt);
	free(ra);
	free(sh);
}

TEST_HARNESS_MAIN
