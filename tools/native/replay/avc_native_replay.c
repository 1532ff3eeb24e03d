// SPDX-License-Identifier: GPL-2.0
/*
 * avc_native_replay: replay AVC traces (tools/avcstat/avc_trace_format.h)
 * through the core built natively, as tools/avc_trace/replay does through
 * the module in a guest, in a fraction of the time; or through a model of
 * upstream SELinux's AVC (tools/avcstat/upstream_avc.c, avc-advise's).
 *
 *   avc_native_replay [--model avc_rcu|upstream|up61] [--hash H]
 *                     [--slots N[,N...]] [--threshold N|slots[,...]]
 *                     [--reclaim P[,P...]] [--sync S] [--seed N] TRACE...
 *
 * TRACE is a trace, xz-compressed (as shipped) or plain, found by its
 * first bytes; its NAME.meta, if beside it, adds the validation line.
 * Each trace is read and checked whole first: a bad header, a record out
 * of sequence or of an unknown kind, a trace cut short or longer than its
 * header says is refused with one line naming the record, in the words of
 * avc_rcu_replay.ko, and nothing is replayed (exit 1).
 *
 * Then each trace is replayed once per number of slots, reclaim policy and
 * threshold of the lists, each time into a new cache, as the guest's
 * replay loads the module afresh.  "slots" in the threshold list is the
 * replay's number of slots.  Each record is read into an event once
 * (event_of()) and handed to the model:
 *
 * --model avc_rcu (the default): the core, as the module: the defaults
 * are upstream's settings and the guest replay's: slots 512, threshold
 * 512, reclaim=newest, sync=rcu, hash seed 2004 (--hash jhash only).
 * avc_rcu_setup_cache() with the slots, sync mode, policy and hash seed
 * (the module's parameters; for a version 1 trace no policy is loaded,
 * so every decision is the empty policy's; for a version 2 trace the
 * policy of its recorded decisions, see below),
 * avc_cache_set_threshold() (the guest's write to avc/cache_threshold),
 * then what avc_rcu_replay.ko does per record, through the same exported
 * API: a lookup is an avc_rcu_has_perm() of its key and requested
 * permissions, a reset an avc_rcu_flush() (version 2: the next stretch's
 * policy loaded), an update nothing.  The counts are the cache's own statistics, summed over
 * the CPUs as avc/cache_stats is.  One line per replay, as
 * tools/avc_trace/replay prints it:
 *
 *   replay NAME: slots S threshold T reclaim=P: lookups L hits H misses M
 *   reclaims R hit ratio X %
 *
 * (one line), and with a .meta, as there: at upstream's pair (slots 512,
 * threshold 512, newest) the validation line against the kernel AVC's hit
 * ratio over the trace's window; with a single pair of other settings, a
 * compare line.  --seed 0 draws a seed, as hash_seed=0 does, and says
 * which.
 *
 * --model upstream: Linux 6.1's and 6.19's security/selinux/avc.c, one
 * event at a time: a lookup is avc_lookup() and on a miss avc_insert(),
 * a reset avc_ss_reset(), an update avc_update_node().  --hash legacy
 * (the default: 6.1's), murmur3 (6.19's) or jhash (avc_rcu's, with
 * --seed); --slots 512 to 16384 (6.19's CONFIG_SECURITY_SELINUX_AVC_HASH_BITS
 * 9 to 14); the threshold defaults to the slots, as 6.19's does (6.1's
 * 512 at 512 slots).  Per replay:
 *
 *   replay NAME: upstream hash=H slots S threshold T: lookups L hits H
 *   misses M reclaims R hit ratio X %
 *   upstream NAME: hash=H slots S threshold T: allocations A frees F
 *   updates U (N found no node) stale S resets R (misses before the
 *   first M1); at the end entries E buckets used B/S longest chain C
 *
 * (one line each), and with a .meta at 6.1's settings (legacy, 512, 512)
 * each counter beside the kernel AVC's over the window:
 *
 *   kernel61 NAME: model/kernel lookups L/L hits H/H ... longest chain
 *   C/C: identical|differs
 *
 * --model up61: the latency benchmark's Linux 6.1 AVC (tools/native/bench/
 * upstream61.c: its spinlocks, RCU and per-CPU counters on the shim), one
 * CPU: a lookup is up61_has_perm(), a reset avc_ss_reset(), a permissive
 * grant avc_update_node(); 6.1's settings only (--hash legacy, --slots
 * 512).  Its lines are the upstream model's, "up61" for "upstream" (and
 * "up61/kernel" for "model/kernel"), and make check requires their
 * numbers to be equal.  Its decisions come
 * from its own security server, loaded and checked as avc_rcu's are.
 *
 * A replay whose lookups are not the trace's fails the run (exit 1).  The
 * time taken and the lookups per second go to stderr.
 */
#include <getopt.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <linux/err.h>
#include <linux/jhash.h>
#include <linux/log2.h>
#include "api.h"
#include <avc_native/cli.h>
#include <avc_native/setup.h>
#include "../../avcstat/avc_trace_read.h"
#include "../../avcstat/upstream_avc.h"
#include "../../avc_trace/trace_oracle.h"
#include "../bench/upstream61.h"
#include "ss.h"

#define PROG		"avc_native_replay"
#define MAX_LIST	64

/**
 * struct kernel_counts - the kernel AVC's counters over a trace's window
 * @lookups: kernel_lookups= of the trace's .meta
 * @hits: kernel_hits=
 * @misses: kernel_misses=
 * @allocations: kernel_allocations=
 * @reclaims: kernel_reclaims=
 * @frees: kernel_frees=
 * @entries: kernel_end_entries=, avc/hash_stats at the end
 * @buckets_used: kernel_end_buckets_used=
 * @slots: kernel_end_slots=
 * @longest_chain: kernel_end_longest_chain=
 */
struct kernel_counts {
	unsigned long long lookups, hits, misses, allocations, reclaims, frees;
	unsigned long long entries, buckets_used, slots, longest_chain;
};

/**
 * struct trace - one trace, read and checked
 * @path: as given
 * @name: the file's name without .xz and .trace
 * @reader: the trace, loaded (uncompressed) and checked: its recsize
 *	and nrecords
 * @recs: its records, after the header
 * @lookups: of which lookups
 * @meta: a NAME.meta was found
 * @meta_lookups: its lookups=
 * @kernel: its kernel AVC's counters
 */
struct trace {
	const char *path;
	char *name;
	struct avc_trace_reader reader;
	const unsigned char *recs;
	struct trace_oracle *oracle;	/* version 2: the kernel's decisions */
	unsigned long long lookups;
	bool meta;
	unsigned long long meta_lookups;
	struct kernel_counts kernel;
};

static void *xrealloc(void *p, size_t n)
{
	p = realloc(p, n);
	if (!p)
		die("out of memory");
	return p;
}

#define KERNEL_KEY(key, field) \
	{ key, offsetof(struct kernel_counts, field) }

/* The .meta's keys of the kernel AVC's counters. */
static const struct {
	const char *key;
	size_t off;
} meta_keys[] = {
	KERNEL_KEY("kernel_lookups", lookups),
	KERNEL_KEY("kernel_hits", hits),
	KERNEL_KEY("kernel_misses", misses),
	KERNEL_KEY("kernel_allocations", allocations),
	KERNEL_KEY("kernel_reclaims", reclaims),
	KERNEL_KEY("kernel_frees", frees),
	KERNEL_KEY("kernel_end_entries", entries),
	KERNEL_KEY("kernel_end_buckets_used", buckets_used),
	KERNEL_KEY("kernel_end_slots", slots),
	KERNEL_KEY("kernel_end_longest_chain", longest_chain),
};

/* NAME.meta beside the trace, if there: the keys the lines need. */
static void read_meta(struct trace *t)
{
	char *meta, *end, line[512];
	unsigned long long v;
	size_t n;
	FILE *f;

	n = strlen(t->path);
	meta = xrealloc(NULL, n + sizeof(".meta"));
	memcpy(meta, t->path, n + 1);
	end = meta + n;
	if (end - meta > 3 && !strcmp(end - 3, ".xz"))
		*(end -= 3) = '\0';
	if (end - meta > 6 && !strcmp(end - 6, ".trace"))
		end -= 6;
	strcpy(end, ".meta");
	f = fopen(meta, "r");
	free(meta);
	if (!f)
		return;
	t->meta = true;
	while (fgets(line, sizeof(line), f)) {
		char key[64];
		unsigned int i;

		if (sscanf(line, "%63[a-z_]=%llu", key, &v) != 2)
			continue;
		if (!strcmp(key, "lookups"))
			t->meta_lookups = v;
		for (i = 0; i < ARRAY_SIZE(meta_keys); i++)
			if (!strcmp(key, meta_keys[i].key))
				*(unsigned long long *)((char *)&t->kernel +
							meta_keys[i].off) = v;
	}
	fclose(f);
}

/* Record @i of @t as an event. */
static void event_of(const struct trace *t, unsigned long long i,
		     struct avc_trace_event *e)
{
	avc_trace_event(&t->reader, t->recs + i * t->reader.recsize, e);
}

/*
 * Read and check one trace.  A bad one is refused as avc_rcu_replay.ko
 * refuses it, with its words (avc_trace_read.c): the first bad record in
 * order, else what is missing or left over at the end.
 */
static void trace_load(struct trace *t, const char *path)
{
	struct avc_trace_event e;
	unsigned long long i;
	char *s;

	memset(t, 0, sizeof(*t));
	t->path = path;
	s = strrchr(path, '/');
	t->name = strdup(s ? s + 1 : path);
	if (!t->name)
		die("out of memory");
	s = t->name + strlen(t->name);
	if (s - t->name > 3 && !strcmp(s - 3, ".xz"))
		*(s -= 3) = '\0';
	if (s - t->name > 6 && !strcmp(s - 6, ".trace"))
		*(s - 6) = '\0';

	if (avc_trace_load(&t->reader, path))
		die("%s: %s", path, t->reader.error);
	t->recs = avc_trace_records(&t->reader);
	for (i = 0; i < t->reader.nrecords; i++) {
		event_of(t, i, &e);
		t->lookups += e.kind == AVC_TRACE_LOOKUP;
	}
	if (t->reader.recsize == sizeof(struct avc_trace_record2)) {
		char why[256];

		t->oracle = trace_oracle_new(t->recs, t->reader.nrecords, why,
					     sizeof(why));
		if (!t->oracle)
			die("%s: %s", path, why);
	}
	read_meta(t);
	if (t->meta && t->meta_lookups != t->lookups)
		die("%s: %llu lookups, its metadata says %llu", path,
		    t->lookups, t->meta_lookups);
}

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

/* One replay's settings. */
struct setting {
	unsigned int slots;
	unsigned int threshold;
	enum avc_reclaim_policy reclaim;	/* avc_rcu's */
};

/*
 * A cache's counters after one replay: avc/cache_stats summed over the
 * CPUs, and for the upstream model its other counts (upstream_avc.h).
 */
struct counts {
	u32 lookups, hits, misses, reclaims;
	struct up_avc_stats up;
};

/**
 * struct model - what a replay drives: one per --model
 * @name: its --model name
 * @start: a new cache for one replay
 * @lookup: a lookup record
 * @reset: a reset record
 * @update: an update record
 * @finish: the counters, and the cache freed
 * @decides: its decisions are the security server's, which a version 2
 *	trace's oracle checks
 */
struct model {
	const char *name;
	bool decides;
	void (*start)(const struct setting *s);
	void (*lookup)(const struct avc_trace_event *e);
	void (*reset)(void);
	void (*update)(const struct avc_trace_event *e);
	void (*finish)(struct counts *c);
};

/* The run's options beyond the lists. */
static struct avc_rcu_config opt_core = {
	.slots = 512, .sync = AVC_SYNC_RCU,
	.reclaimer = AVC_RECLAIMER_INLINE,
	.hash_seed = 2004,
};

static enum up_avc_hash opt_hash = UP_AVC_HASH_JHASH;

/*
 * avc_rcu, as the guest's replay runs it: the module loaded with the
 * settings (its cache: what every cache shares, avc_core_init(), is made
 * once for the run), cache_threshold written, then per record what
 * avc_rcu_replay.ko does through the exported API: avc_rcu_has_perm()
 * for a lookup, avc_rcu_flush() for a reset, nothing for an update.
 */
/*
 * The replay in progress: its trace's oracle (version 2 traces) and the
 * record being replayed.  With an oracle the policy of each stretch of
 * the trace (trace_oracle.c) is loaded at the start and at each reset,
 * in place of the flush, and every decision is checked against the
 * kernel's (the loads reset the cache as a flush does: the counts are
 * the same).
 */
static struct trace_oracle *cur_oracle;
static unsigned long long cur_record;
static unsigned int cur_stretch;

static void rcu_load_stretch(unsigned int k)
{
	const char *text;
	size_t len;
	int err;

	text = trace_oracle_policy(cur_oracle, k, &len);
	err = avc_rcu_load_policy(text, len);
	if (err)
		die("the policy of stretch %u: load error %d", k, err);
}

/* The oracle's step for the record being replayed; dies on a difference. */
static void oracle_check(const struct avc_rcu_decision *avd)
{
	char why[512];

	if (!cur_oracle)
		return;
	if (trace_oracle_step(cur_oracle, cur_record,
			      avd ? avd->allowed : 0,
			      avd ? avd->auditallow : 0,
			      avd ? avd->auditdeny : 0, avd ? avd->flags : 0,
			      avd ? avd->seqno : 0, why, sizeof(why)))
		die("the kernel decided otherwise: %s", why);
}

static void rcu_start(const struct setting *s)
{
	struct avc_rcu_config cfg = opt_core;
	int err;

	cfg.slots = s->slots;
	cfg.reclaim = s->reclaim;
	err = avc_rcu_setup_cache(&cfg);
	if (err)
		die("avc_rcu_setup_cache: error %d", err);
	avc_cache_set_threshold(avc_rcu_cache(), s->threshold);
	if (cur_oracle)
		rcu_load_stretch(0);
}

static void rcu_lookup(const struct avc_trace_event *e)
{
	struct avc_rcu_decision avd;

	avc_rcu_has_perm(e->ssid, e->tsid, e->tclass, e->requested, &avd);
	oracle_check(&avd);
}

static void rcu_reset(void)
{
	if (cur_oracle) {
		rcu_load_stretch(++cur_stretch);
		oracle_check(NULL);
	} else {
		avc_rcu_flush();
	}
}

static void rcu_update(const struct avc_trace_event *e)
{
	/* the entry stays cached: avc_rcu does not model the update */
	oracle_check(NULL);
}

static void rcu_finish(struct counts *c)
{
	struct avc_cache_stats st;

	avc_cache_stats_sum(avc_rcu_cache(), &st);
	avc_rcu_teardown_cache();
	memset(c, 0, sizeof(*c));
	c->lookups = st.lookups;
	c->hits = st.hits;
	c->misses = st.misses;
	c->reclaims = st.reclaims;
}

/* Upstream's AVC (upstream_avc.c): one cache per replay. */
static struct up_avc *up_cache;

/* The model's --hash jhash: the kernel's jhash_3words(), avc_rcu's. */
static u32 up_jhash(u32 a, u32 b, u32 c, u32 initval)
{
	return jhash_3words(a, b, c, initval);
}

static void up_start(const struct setting *s)
{
	up_avc_jhash = up_jhash;
	up_cache = up_avc_create(s->slots, s->threshold, opt_hash,
				 opt_core.hash_seed);
	if (!up_cache)
		die("out of memory");
}

static void up_lookup(const struct avc_trace_event *e)
{
	up_avc_lookup(up_cache, e->ssid, e->tsid, e->tclass);
}

static void up_reset(void)
{
	up_avc_reset(up_cache);
}

static void up_update(const struct avc_trace_event *e)
{
	/* A denial (enforcing) leaves the kernel's entry as it was. */
	if (e->flags & AVC_TRACE_F_GRANTED)
		up_avc_update(up_cache, e->ssid, e->tsid, e->tclass);
}

static void up_finish(struct counts *c)
{
	up_avc_stats(up_cache, &c->up);
	up_avc_destroy(up_cache);
	up_cache = NULL;
	c->lookups = c->up.lookups;
	c->misses = c->up.misses;
	c->hits = c->up.lookups - c->up.misses;
	c->reclaims = c->up.reclaims;
}

/*
 * 6.1's AVC as the latency benchmark times it (tools/native/bench/
 * upstream61.c): real locks, RCU and per-CPU counters on the shim, in
 * front of its own security server, loaded as avc_rcu's is: the policy of
 * each stretch with an oracle (every decision checked), none without.  A
 * lookup is up61_has_perm(), a reset avc_ss_reset() with the new policy's
 * seqno, an update (a permissive grant) avc_update_node().  Its counts
 * must be upstream_avc.c's, stock, at the legacy hash.
 */
static struct avc_ss up61_ss;
static struct up61_cache *up61;
static struct up_avc_stats up61_st;	/* what the replay counts itself */

static void up61_load_stretch(unsigned int k)
{
	struct avc_ss_loaded ld;
	const char *text;
	size_t len;
	int err;

	text = trace_oracle_policy(cur_oracle, k, &len);
	err = avc_ss_load(&up61_ss, text, len, &ld);
	if (err)
		die("6.1: the policy of stretch %u: load error %d", k, err);
}

static void up61_start(const struct setting *s)
{
	if (avc_ss_init(&up61_ss))
		die("6.1: avc_ss_init failed");
	memset(&up61_st, 0, sizeof(up61_st));
	if (cur_oracle)
		up61_load_stretch(0);
	up61 = up61_create(&up61_ss, s->slots, s->threshold);
	if (!up61)
		die("out of memory");
}

static void up61_lookup(const struct avc_trace_event *e)
{
	struct avc_rcu_decision avd;
	bool reclaimed;

	up61_has_perm(up61, e->ssid, e->tsid, e->tclass, e->requested, &avd,
		      &reclaimed);
	oracle_check(&avd);
}

static void up61_reset(void)
{
	struct up61_stats st;

	if (!up61_st.resets++) {
		up61_stats(up61, &st);
		up61_st.misses_first = st.misses;
	}
	if (cur_oracle)
		up61_load_stretch(++cur_stretch);
	up61_ss_reset(up61, avc_ss_seqno(&up61_ss));
	oracle_check(NULL);
}

/*
 * A denial (enforcing) leaves the kernel's entry as it was.  A permissive
 * grant replaces the node, granting nothing: the oracle adds the kernel's
 * grants to every decision itself, and a node this cache kept where the
 * kernel's was evicted would carry them past the kernel's.
 */
static void up61_update_event(const struct avc_trace_event *e)
{
	if (e->flags & AVC_TRACE_F_GRANTED) {
		up61_st.updates++;
		if (up61_update(up61, e->ssid, e->tsid, e->tclass, 0,
				avc_ss_seqno(&up61_ss)) == -ENOENT)
			up61_st.updates_lost++;
	}
	oracle_check(NULL);
}

static void up61_finish(struct counts *c)
{
	struct up_avc_stats *u = &c->up;
	struct up61_stats st;

	up61_stats(up61, &st);
	*u = up61_st;
	u->lookups = st.lookups;
	u->misses = st.misses;
	if (!u->resets)
		u->misses_first = st.misses;
	u->allocations = st.allocations;
	u->reclaims = st.reclaims;
	u->frees = st.frees;
	u->stale = st.stale;
	up61_hash_stats(up61, &u->entries, &u->buckets_used,
			&u->longest_chain);
	up61_destroy(up61);
	up61 = NULL;
	avc_ss_destroy(&up61_ss);
	c->lookups = u->lookups;
	c->misses = u->misses;
	c->hits = u->lookups - u->misses;
	c->reclaims = u->reclaims;
}

static const struct model models[] = {
	{ "avc_rcu", true, rcu_start, rcu_lookup, rcu_reset, rcu_update,
	  rcu_finish },
	{ "upstream", false, up_start, up_lookup, up_reset, up_update,
	  up_finish },
	{ "up61", true, up61_start, up61_lookup, up61_reset,
	  up61_update_event, up61_finish },
};

/* The oracle's counts, once a trace (every replay is checked). */
static void oracle_line(const struct trace *t)
{
	static const struct trace *said;
	struct trace_oracle_stats st;

	if (said == t)
		return;
	said = t;
	trace_oracle_stats(t->oracle, &st);
	printf("oracle %s: %llu decisions equal to the kernel's, %llu with its permissive grants, ",
	       t->name, (unsigned long long)st.matched,
	       (unsigned long long)st.granted);
	printf("%llu lookups without one, %llu enforcing denials, %u stretches, ",
	       (unsigned long long)st.undecided,
	       (unsigned long long)st.denials,
	       trace_oracle_stretches(t->oracle));
	printf("%llu computed decisions that changed in a stretch, ",
	       (unsigned long long)st.inconsistent);
	printf("%llu decided under a neighbouring stretch's policy\n",
	       (unsigned long long)st.raced);
}

/*
 * One replay of @t into a new cache of model @m.  Adds the time the
 * records took to *@busy.
 */
static void replay(const struct trace *t, const struct model *m,
		   const struct setting *s, struct counts *out, double *busy)
{
	unsigned long long i;
	struct avc_trace_event e;
	double t0;

	cur_oracle = m->decides ? t->oracle : NULL;
	if (cur_oracle) {
		trace_oracle_rewind(cur_oracle);
		cur_stretch = 0;
	}
	m->start(s);
	t0 = now();
	for (i = 0; i < t->reader.nrecords; i++) {
		cur_record = i;
		event_of(t, i, &e);
		switch (e.kind) {
		case AVC_TRACE_LOOKUP:
			m->lookup(&e);
			break;
		case AVC_TRACE_RESET:
			m->reset();
			break;
		default:
			m->update(&e);
			break;
		}
	}
	*busy += now() - t0;
	m->finish(out);
	if (cur_oracle)
		oracle_line(t);
}

/*
 * avc_rcu's replay line, and with the trace's metadata its validation
 * line (at upstream's pair) or, for a single pair, its compare line, in
 * tools/avc_trace/replay's words.
 */
static void report_rcu(const struct trace *t, const struct setting *s,
		       const struct counts *c, bool list)
{
	double ar, kr, gap;

	ar = 100.0 * c->hits / c->lookups;
	printf("replay %s: slots %u threshold %u reclaim=%s: ", t->name,
	       s->slots, s->threshold, avc_reclaim_name(s->reclaim));
	printf("lookups %u hits %u misses %u reclaims %u hit ratio %.3f %%\n",
	       c->lookups, c->hits, c->misses, c->reclaims, ar);
	if (!t->meta || !t->kernel.lookups)
		return;
	kr = 100.0 * t->kernel.hits / t->kernel.lookups;
	gap = ar - kr;
	if (s->slots == 512 && s->threshold == 512 &&
	    s->reclaim == AVC_RECLAIM_NEWEST) {
		printf("validation %s: avc_rcu %.3f %% vs kernel AVC %.3f %% ",
		       t->name, ar, kr);
		printf("(%llu of %llu lookups hit) over the window: ",
		       t->kernel.hits, t->kernel.lookups);
		printf("gap %+.3f points, %s\n", gap, gap < 1 && gap > -1 ?
		       "holds (within 1 point)" :
		       "DOES NOT HOLD (over 1 point)");
	} else if (!list) {
		printf("compare %s: avc_rcu %.3f %% at these settings, ",
		       t->name, ar);
		printf("the kernel AVC %.3f %% at upstream's ", kr);
		printf("(no validation: not upstream settings)\n");
	}
}

/*
 * The upstream model's replay line (its own form, which study.py's
 * reading of avc_rcu's lines passes over), its other counts and, at
 * 6.1's settings with the trace's metadata, each counter beside the
 * kernel AVC's over the window: the model's, a slash, the kernel's.
 */
static void report_upstream(const struct trace *t, const struct model *m,
			    const struct setting *s, const struct counts *c)
{
	const struct up_avc_stats *u = &c->up;
	const struct kernel_counts *k = &t->kernel;
	const char *hash = up_avc_hash_name(opt_hash);
	unsigned int ndiff;

	printf("replay %s: %s hash=%s slots %u threshold %u: ", t->name,
	       m->name, hash, s->slots, s->threshold);
	printf("lookups %u hits %u misses %u reclaims %u hit ratio %.3f %%\n",
	       c->lookups, c->hits, c->misses, c->reclaims,
	       100.0 * c->hits / c->lookups);
	printf("%s %s: hash=%s slots %u threshold %u: ", m->name, t->name,
	       hash, s->slots, s->threshold);
	printf("allocations %u frees %u updates %u (%u found no node) ",
	       u->allocations, u->frees, u->updates, u->updates_lost);
	printf("stale %u resets %u (misses before the first %u); ",
	       u->stale, u->resets, u->misses_first);
	printf("at the end entries %u buckets used %u/%u longest chain %u\n",
	       u->entries, u->buckets_used, s->slots,
	       u->longest_chain);
	if (!t->meta || !k->lookups || opt_hash != UP_AVC_HASH_LEGACY ||
	    s->slots != 512 || s->threshold != 512)
		return;
	ndiff = (u->lookups != k->lookups) + (c->hits != k->hits) +
		(u->misses != k->misses) + (u->allocations != k->allocations) +
		(u->reclaims != k->reclaims) + (u->frees != k->frees) +
		(u->entries != k->entries) +
		(u->buckets_used != k->buckets_used) +
		(u->longest_chain != k->longest_chain);
	printf("kernel61 %s: %s/kernel lookups %u/%llu hits %u/%llu ",
	       t->name, m == &models[1] ? "model" : m->name, u->lookups,
	       k->lookups, c->hits, k->hits);
	printf("misses %u/%llu allocations %u/%llu reclaims %u/%llu ",
	       u->misses, k->misses, u->allocations, k->allocations,
	       u->reclaims, k->reclaims);
	printf("frees %u/%llu entries %u/%llu buckets used %u/%llu ",
	       u->frees, k->frees, u->entries, k->entries, u->buckets_used,
	       k->buckets_used);
	printf("longest chain %u/%llu: %s\n", u->longest_chain,
	       k->longest_chain, ndiff ? "differs" : "identical");
}

/*
 * One replay's lines.  A replay that did not look up what the trace holds
 * fails the run.
 */
static void report(const struct trace *t, const struct model *m,
		   const struct setting *s, const struct counts *c, bool list)
{
	if (c->lookups != (u32)t->lookups)
		die("%s: replayed %u lookups, the trace has %llu", t->name,
		    c->lookups, t->lookups);
	if (m == &models[0])
		report_rcu(t, s, c, list);
	else
		report_upstream(t, m, s, c);
}

/*
 * Parse "N[,N...]" into @v; returns how many.  With @word, that word
 * stands for 0 in the list.
 */
static unsigned int parse_list(const char *opt, const char *arg,
			       unsigned int *v, unsigned long min,
			       unsigned long max, const char *word)
{
	char *copy = strdup(arg), *tok, *save = NULL;
	unsigned int n = 0;

	if (!copy)
		die("out of memory");
	for (tok = strtok_r(copy, ",", &save); tok;
	     tok = strtok_r(NULL, ",", &save)) {
		if (n == MAX_LIST)
			die("%s: more than %d values", opt, MAX_LIST);
		if (word && !strcmp(tok, word)) {
			v[n++] = 0;
			continue;
		}
		v[n++] = cli_number(opt, tok, 10, min, max);
	}
	free(copy);
	if (!n)
		die("%s: no value", opt);
	return n;
}

static unsigned int parse_policies(const char *arg,
				   enum avc_reclaim_policy *v)
{
	char *copy = strdup(arg), *tok, *save = NULL;
	unsigned int n = 0;

	if (!copy)
		die("out of memory");
	for (tok = strtok_r(copy, ",", &save); tok;
	     tok = strtok_r(NULL, ",", &save)) {
		if (n == MAX_LIST)
			die("--reclaim: more than %d values", MAX_LIST);
		if (avc_reclaim_parse(tok, &v[n++]))
			die("--reclaim: unknown policy %s", tok);
	}
	free(copy);
	if (!n)
		die("--reclaim: no value");
	return n;
}

static void help(FILE *f)
{
	fprintf(f, "usage: " PROG " [--model avc_rcu|upstream|up61] [--hash H]\n");
	fprintf(f, "       [--slots N[,N...]] [--threshold N|slots[,...]]\n");
	fprintf(f, "       [--reclaim P[,P...]] [--sync S] [--seed N] TRACE...\n");
}

int main(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "model", required_argument, NULL, 'm' },
		{ "hash", required_argument, NULL, 'H' },
		{ "slots", required_argument, NULL, 'n' },
		{ "threshold", required_argument, NULL, 't' },
		{ "reclaim", required_argument, NULL, 'r' },
		{ "sync", required_argument, NULL, 's' },
		{ "seed", required_argument, NULL, 'S' },
		{ "help", no_argument, NULL, 'h' },
		{ }
	};
	enum avc_reclaim_policy pols[MAX_LIST] = { AVC_RECLAIM_NEWEST };
	unsigned int thresholds[MAX_LIST] = { AVC_RCU_THRESHOLD_DEFAULT };
	unsigned int slots[MAX_LIST] = { 512 };
	unsigned int npols = 1, nthr = 0, nslots = 1, seed, i, n, p, k;
	unsigned long long total = 0, nreplays = 0;
	const struct model *m = &models[0];
	bool rcu_only = false, hash_set = false, list;
	struct trace *traces;
	double t0, busy = 0;
	int opt, ntraces;
	char slot_list[MAX_LIST * 8] = "";

	/* A bad value dies with status 1, as every refusal of the replay. */
	cli_init(PROG, 1);
	while ((opt = getopt_long(argc, argv, "h", opts, NULL)) != -1) {
		switch (opt) {
		case 'm':
			for (m = models; m < models + ARRAY_SIZE(models); m++)
				if (!strcmp(optarg, m->name))
					break;
			if (m == models + ARRAY_SIZE(models))
				die("--model: must be avc_rcu, upstream or up61");
			break;
		case 'H':
			if (up_avc_hash_parse(optarg, &opt_hash))
				die("--hash: must be legacy, murmur3 or jhash");
			hash_set = true;
			break;
		case 'n':
			nslots = parse_list("--slots", optarg, slots,
					    AVC_RCU_SLOTS_MIN,
					    AVC_RCU_SLOTS_MAX, NULL);
			for (i = 0; i < nslots; i++)
				if (!is_power_of_2(slots[i]))
					die("--slots: powers of two from %u to %u",
					    AVC_RCU_SLOTS_MIN,
					    AVC_RCU_SLOTS_MAX);
			break;
		case 't':
			nthr = parse_list("--threshold", optarg, thresholds,
					  AVC_RCU_THRESHOLD_MIN,
					  AVC_RCU_THRESHOLD_MAX, "slots");
			break;
		case 'r':
			npols = parse_policies(optarg, pols);
			rcu_only = true;
			break;
		case 's':
			if (avc_sync_parse(optarg, &opt_core.sync))
				die("--sync: must be rcu, spinlock or rwlock");
			rcu_only = true;
			break;
		case 'S':
			if (strchr(optarg, ','))
				die("--seed: one value");
			parse_list("--seed", optarg, &seed, 0, UINT32_MAX,
				   NULL);
			opt_core.hash_seed = seed;
			break;
		case 'h':
			help(stdout);
			return 0;
		default:
			help(stderr);
			return 2;
		}
	}
	ntraces = argc - optind;
	if (ntraces < 1) {
		help(stderr);
		return 2;
	}
	if (m == &models[0]) {
		if (opt_hash != UP_AVC_HASH_JHASH)
			die("--hash: avc_rcu hashes with jhash only");
		if (!nthr)	/* the module's default threshold */
			nthr = 1;
	} else {
		if (rcu_only)
			die("--reclaim, --sync: avc_rcu's, not upstream's");
		if (!hash_set)
			opt_hash = UP_AVC_HASH_LEGACY;
		for (i = 0; i < nslots; i++)
			if (slots[i] < UP_AVC_SLOTS_MIN ||
			    slots[i] > UP_AVC_SLOTS_MAX)
				die("--slots: upstream's are %u to %u",
				    UP_AVC_SLOTS_MIN, UP_AVC_SLOTS_MAX);
		npols = 1;
		if (up_avc_hash_selftest())
			die("av_hash() does not give MurmurHash3's values");
		if (!nthr)	/* 6.19's AVC_DEF_CACHE_THRESHOLD */
			thresholds[nthr++] = 0;
	}
	if (m == &models[2]) {
		if (opt_hash != UP_AVC_HASH_LEGACY)
			die("--hash: 6.1's is legacy");
		for (i = 0; i < nslots; i++)
			if (slots[i] != 512)
				die("--slots: 6.1's table is 512");
	}
	/* A drawn seed is drawn once, for every replay of the run. */
	if (!opt_core.hash_seed) {
		while (!opt_core.hash_seed)
			opt_core.hash_seed = avc_native_random_u32();
		fprintf(stderr, PROG ": hash seed %u (drawn at random)\n",
			opt_core.hash_seed);
	}

	traces = calloc(ntraces, sizeof(*traces));
	if (!traces)
		die("out of memory");
	for (i = 0; i < (unsigned int)ntraces; i++)
		trace_load(&traces[i], argv[optind + i]);

	if (avc_native_thread_enter() < 0)
		die("avc_native_thread_enter failed");
	if (avc_core_init())
		die("avc_core_init failed");
	list = nslots * npols * nthr > 1;
	t0 = now();
	for (i = 0; i < (unsigned int)ntraces; i++) {
		const struct trace *t = &traces[i];

		for (n = 0; n < nslots; n++) {
			for (p = 0; p < npols; p++) {
				for (k = 0; k < nthr; k++) {
					struct setting s = {
						.slots = slots[n],
						.threshold = thresholds[k] ?:
							     slots[n],
						.reclaim = pols[p],
					};
					struct counts c;

					replay(t, m, &s, &c, &busy);
					nreplays++;
					total += t->lookups;
					report(t, m, &s, &c, list);
				}
			}
		}
		fflush(stdout);
	}
	avc_core_exit();
	avc_native_thread_exit();
	for (n = 0; n < nslots; n++)
		snprintf(slot_list + strlen(slot_list),
			 sizeof(slot_list) - strlen(slot_list), "%s%u",
			 n ? "," : "", slots[n]);
	fprintf(stderr, PROG ": %llu replay%s (", nreplays,
		nreplays == 1 ? "" : "s");
	if (m == &models[0])
		fprintf(stderr, "slots %s, sync=%s, hash seed %u): ",
			slot_list, avc_sync_name(opt_core.sync),
			opt_core.hash_seed);
	else if (opt_hash == UP_AVC_HASH_JHASH)
		fprintf(stderr, "upstream, slots %s, hash=jhash, seed %u): ",
			slot_list, opt_core.hash_seed);
	else
		fprintf(stderr, "%s, slots %s, hash=%s): ", m->name,
			slot_list, up_avc_hash_name(opt_hash));
	fprintf(stderr, "%llu lookups in %.3f s, %.1f million a second; ",
		total, busy, busy > 0 ? total / busy / 1e6 : 0.0);
	fprintf(stderr, "%.3f s with each cache's set-up and teardown\n",
		now() - t0);
	for (i = 0; i < (unsigned int)ntraces; i++) {
		avc_trace_close(&traces[i].reader);
		free(traces[i].name);
	}
	free(traces);
	return 0;
}
