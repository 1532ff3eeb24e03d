// SPDX-License-Identifier: GPL-2.0
/*
 * upstream_model: the kernel AVC of linux 7.x, stock and with the series,
 * as a model on one CPU in a trace's order, compared with the kernel's
 * counts one for one by make upstream (tools/upstream/run, report.py).
 * It is tools/avcstat/upstream_avc.c (up_avc_create_kernel()), the model
 * of upstream's AVC that avc-curve and the native replay use, with the
 * kernel's own bucket function.
 *
 *   upstream_model [--threshold N[,N...]] [--slots N] [--kernel K[,K...]]
 *             [--hash kernel|legacy|jhash:SEED] [--work | --answers]
 *             TRACE...
 *
 * K: stock, patched, v1, setref or module (upstream_avc.h, enum
 * up_avc_kernel); default stock,patched.  --slots
 * a power of two (default 512); --threshold default 512; --hash kernel
 * is 6.19's av_hash(), legacy 6.12's avc_hash(), jhash:SEED avc_rcu's
 * seeded jhash_3words() (the native replay's, tools/native/stand-ins).
 * Each trace (version 1 or 2, plain or xz-compressed) is played once per
 * kernel and threshold, in that order, into a new cache: a lookup is a
 * lookup (and on a miss an insert), a reset avc_ss_reset(), an update
 * avc_update_node() when the update was granted (a version 2 trace's
 * refused ones changed nothing).  Printed:
 *
 *   model NAME: kernel K threshold T: lookups L misses M reclaims R
 *   allocations A
 *   work NAME: kernel K threshold T slots S: reclaims N examined
 *   mean/max E/E heads H/H locks K/K
 *
 * (one line each; the work line with --work, when a reclaim ran).  NAME
 * is the trace's file name up to its first ".trace".  With --answers,
 * what a recorded trace says of the kernel's own answers instead
 * (answers_trace()), for tools/upstream/report.py.
 * tools/upstream/model-check holds the counts to data/model.expected.
 */
#include <errno.h>
#include <getopt.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <linux/jhash.h>
#include "../avcstat/avc_trace_read.h"
#include "../avcstat/upstream_avc.h"

#define PROG		"upstream_model"
#define MAX_LIST	64

static void die(const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, PROG ": ");
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	exit(1);
}

static u32 model_jhash(u32 a, u32 b, u32 c, u32 initval)
{
	return jhash_3words(a, b, c, initval);
}

/* A decimal number, digits only, below 2^32. */
static int parse_u32(const char *s, unsigned int *v)
{
	unsigned long n;
	char *end;

	if (*s < '0' || *s > '9')
		return -EINVAL;
	errno = 0;
	n = strtoul(s, &end, 10);
	if (errno || *end || n > 0xffffffffUL)
		return -EINVAL;
	*v = n;
	return 0;
}

/* Split @s at commas into @list, at most MAX_LIST items; @s is kept. */
static unsigned int split(char *s, char **list, const char *what)
{
	unsigned int n = 0;
	char *tok;

	for (tok = strtok(s, ","); tok; tok = strtok(NULL, ",")) {
		if (n == MAX_LIST)
			die("%s: at most %d", what, MAX_LIST);
		list[n++] = tok;
	}
	if (!n)
		die("%s: empty", what);
	return n;
}

/**
 * struct play - one play of a trace
 * @kernel: the kernel
 * @threshold: the threshold, as given (and printed)
 * @value: its value
 */
struct play {
	enum up_avc_kernel kernel;
	const char *threshold;
	unsigned int value;
};

/* A new cache for @p. */
static struct up_avc *play_cache(const struct play *p, unsigned int slots,
				 enum up_avc_hash hash, uint32_t seed)
{
	struct up_avc *c = up_avc_create_kernel(slots, p->value, hash, seed,
						p->kernel);

	if (!c)
		die("out of memory");
	return c;
}

/*
 * @e played into @c: a lookup (on a miss, an insert), a reset, an update
 * that was granted (a refused one changed nothing).  Returns whether a
 * lookup hit.
 */
static bool play_event(struct up_avc *c, const struct avc_trace_event *e)
{
	if (e->kind == AVC_TRACE_LOOKUP)
		return up_avc_lookup(c, e->ssid, e->tsid, e->tclass);
	if (e->kind == AVC_TRACE_RESET)
		up_avc_reset(c);
	else if (e->flags & AVC_TRACE_F_GRANTED)
		up_avc_update(c, e->ssid, e->tsid, e->tclass);
	return false;
}

static void print_work(const char *name, const struct play *p,
		       unsigned int slots, const struct up_avc_work *w)
{
	double n = w->reclaims;

	printf("work %s: kernel %s threshold %s slots %u: reclaims %llu ",
	       name, up_avc_kernel_name(p->kernel), p->threshold, slots,
	       (unsigned long long)w->reclaims);
	printf("examined mean/max %.1f/%u heads %.1f/%u locks %.1f/%u\n",
	       w->examined / n, w->examined_max, w->heads / n, w->heads_max,
	       w->locks / n, w->locks_max);
}

/* One trace, every kernel and threshold. */
static void model_trace(const char *path, const char *name,
			const struct play *plays, unsigned int nplays,
			unsigned int slots, enum up_avc_hash hash,
			uint32_t seed, bool work)
{
	struct avc_trace_reader r = { 0 };
	struct avc_trace_event e;
	const unsigned char *recs;
	struct up_avc_stats st;
	struct up_avc_work w;
	unsigned long long i;
	unsigned int j;
	struct up_avc *c;

	if (avc_trace_load(&r, path))
		die("%s: %s", path, r.error);
	recs = avc_trace_records(&r);
	for (j = 0; j < nplays; j++) {
		c = play_cache(&plays[j], slots, hash, seed);
		for (i = 0; i < r.nrecords; i++) {
			avc_trace_event(&r, recs + i * r.recsize, &e);
			play_event(c, &e);
		}
		up_avc_stats(c, &st);
		up_avc_work(c, &w);
		up_avc_destroy(c);
		printf("model %s: kernel %s threshold %s: lookups %u misses %u ",
		       name, up_avc_kernel_name(plays[j].kernel),
		       plays[j].threshold, st.lookups, st.misses);
		printf("reclaims %u allocations %u\n", st.reclaims,
		       st.allocations);
		if (work && w.reclaims)
			print_work(name, &plays[j], slots, &w);
	}
	avc_trace_close(&r);
}

/**
 * struct key_slot - a key's slot in a &struct key_map
 * @ssid: source SID
 * @tsid: target SID
 * @tclass: target class
 * @used: the slot holds a key
 * @missed: the key's last lookup was a miss of the kernel
 * @cpu: that lookup's CPU
 * @at: that lookup's record, counted from 1
 */
struct key_slot {
	uint32_t ssid, tsid;
	uint16_t tclass, cpu;
	bool used, missed;
	unsigned long long at;
};

/**
 * struct key_map - the keys of a trace, open addressing
 * @slots: the slots
 * @mask: their number less one (a power of two, at least twice the keys)
 * @n: the keys held
 */
struct key_map {
	struct key_slot *slots;
	unsigned long long mask, n;
};

static void key_map_init(struct key_map *m, unsigned long long records)
{
	unsigned long long size = 64;

	while (size < 2 * records)
		size *= 2;
	m->slots = calloc(size, sizeof(*m->slots));
	if (!m->slots)
		die("out of memory");
	m->mask = size - 1;
	m->n = 0;
}

/* The slot of @e's key, taken for it if it had none. */
static struct key_slot *key_map_get(struct key_map *m,
				    const struct avc_trace_event *e)
{
	unsigned long long i;
	struct key_slot *k;

	i = up_avc_hash(UP_AVC_HASH_MURMUR3, 0, e->ssid, e->tsid, e->tclass,
			0xffffffff);
	for (;; i++) {
		k = &m->slots[i & m->mask];
		if (!k->used)
			break;
		if (k->ssid == e->ssid && k->tsid == e->tsid &&
		    k->tclass == e->tclass)
			return k;
	}
	k->used = true;
	k->ssid = e->ssid;
	k->tsid = e->tsid;
	k->tclass = e->tclass;
	m->n++;
	return k;
}

static void key_map_clear(struct key_map *m)
{
	memset(m->slots, 0, (m->mask + 1) * sizeof(*m->slots));
	m->n = 0;
}

/*
 * --answers: what a version 2 trace says of the kernel's answers.  Before
 * the first reset (the policy load): the lookups, their distinct keys and
 * the kernel's misses (no AVC_TRACE_F_HIT), and whether there is a reset;
 * and the distinct keys looked up after the last reset (0 without one):
 *
 *   answers NAME: reset R lookups L keys K kernel_misses M keys_after A
 *
 * Then, for each kernel and threshold, from the first reset on (the whole
 * trace if it has none), the kernel's misses that a one-CPU cache could
 * not make: the kernel missed, the model (at that kernel, threshold,
 * slots and hash, in the trace's order) hit, the key's previous lookup
 * was a miss of the kernel on another CPU, and that CPU recorded nothing
 * since (its insert still in flight: avc_compute_av() and avc_insert()
 * make no lookup):
 *
 *   inflight NAME: kernel K threshold T: inflight I
 *
 * A version 1 trace does not say what the kernel hit: "answers NAME:
 * version 1", nothing more.
 */
static void answers_trace(const char *path, const char *name,
			  const struct play *plays, unsigned int nplays,
			  unsigned int slots, enum up_avc_hash hash,
			  uint32_t seed)
{
	static unsigned long long cpu_last[65536];
	unsigned long long i, first = 0, lookups = 0, misses = 0;
	struct avc_trace_reader r = { 0 };
	struct avc_trace_event e;
	const unsigned char *recs;
	unsigned long long inflight, keys_after = 0;
	struct key_slot *k;
	struct key_map m;
	struct up_avc *c;
	bool reset = false, hit;
	unsigned int j;

	if (avc_trace_load(&r, path))
		die("%s: %s", path, r.error);
	if (r.version != 2) {
		printf("answers %s: version %u\n", name, r.version);
		avc_trace_close(&r);
		return;
	}
	recs = avc_trace_records(&r);
	key_map_init(&m, r.nrecords);
	for (i = 0; i < r.nrecords; i++) {
		avc_trace_event(&r, recs + i * r.recsize, &e);
		if (e.kind == AVC_TRACE_RESET) {
			reset = true;
			first = i + 1;
			break;
		}
		if (e.kind == AVC_TRACE_LOOKUP) {
			lookups++;
			key_map_get(&m, &e);
			misses += !(e.flags & AVC_TRACE_F_HIT);
		}
	}
	printf("answers %s: reset %d lookups %llu keys %llu kernel_misses %llu ",
	       name, reset, reset ? lookups : 0, reset ? m.n : 0,
	       reset ? misses : 0);
	if (reset) {
		key_map_clear(&m);
		for (i = first; i < r.nrecords; i++) {
			avc_trace_event(&r, recs + i * r.recsize, &e);
			if (e.kind == AVC_TRACE_RESET)
				key_map_clear(&m);
			else if (e.kind == AVC_TRACE_LOOKUP)
				key_map_get(&m, &e);
		}
		keys_after = m.n;
	}
	printf("keys_after %llu\n", keys_after);
	for (j = 0; j < nplays; j++) {
		c = play_cache(&plays[j], slots, hash, seed);
		memset(cpu_last, 0, sizeof(cpu_last));
		key_map_clear(&m);
		inflight = 0;
		for (i = first; i < r.nrecords; i++) {
			avc_trace_event(&r, recs + i * r.recsize, &e);
			hit = play_event(c, &e);
			if (e.kind == AVC_TRACE_RESET) {
				key_map_clear(&m);
			} else if (e.kind == AVC_TRACE_LOOKUP) {
				k = key_map_get(&m, &e);
				if (!(e.flags & AVC_TRACE_F_HIT) && hit &&
				    k->at && k->missed && k->cpu != e.cpu &&
				    cpu_last[k->cpu] == k->at)
					inflight++;
				k->at = i + 1;
				k->cpu = e.cpu;
				k->missed = !(e.flags & AVC_TRACE_F_HIT);
			}
			cpu_last[e.cpu] = i + 1;
		}
		up_avc_destroy(c);
		printf("inflight %s: kernel %s threshold %s: inflight %llu\n",
		       name, up_avc_kernel_name(plays[j].kernel),
		       plays[j].threshold, inflight);
	}
	free(m.slots);
	avc_trace_close(&r);
}

static void help(FILE *f)
{
	fprintf(f, "usage: " PROG " [--threshold N[,N...]] [--slots N] ");
	fprintf(f, "[--kernel K[,K...]]\n");
	fprintf(f, "       [--hash kernel|legacy|jhash:SEED] ");
	fprintf(f, "[--work | --answers] TRACE...\n");
}

int main(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "threshold", required_argument, NULL, 't' },
		{ "slots", required_argument, NULL, 's' },
		{ "kernel", required_argument, NULL, 'k' },
		{ "hash", required_argument, NULL, 'H' },
		{ "work", no_argument, NULL, 'w' },
		{ "answers", no_argument, NULL, 'a' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	char thresholds_def[] = "512", kernels_def[] = "stock,patched";
	char *thresholds = thresholds_def, *kernels = kernels_def;
	char *tlist[MAX_LIST], *klist[MAX_LIST];
	static struct play plays[MAX_LIST * MAX_LIST];
	enum up_avc_hash hash = UP_AVC_HASH_MURMUR3;
	unsigned int slots = 512, seed = 0, nt, nk, i, j;
	enum up_avc_kernel k;
	bool work = false, answers = false;
	char *name;
	const char *s;
	int opt;

	while ((opt = getopt_long(argc, argv, "", opts, NULL)) != -1) {
		switch (opt) {
		case 't':
			thresholds = optarg;
			break;
		case 's':
			if (parse_u32(optarg, &slots) || !slots ||
			    (slots & (slots - 1)))
				die("--slots: a power of two, not %s", optarg);
			break;
		case 'k':
			kernels = optarg;
			break;
		case 'H':
			if (!strcmp(optarg, "kernel")) {
				hash = UP_AVC_HASH_MURMUR3;
			} else if (!strcmp(optarg, "legacy")) {
				hash = UP_AVC_HASH_LEGACY;
			} else if (!strncmp(optarg, "jhash:", 6) &&
				   !parse_u32(optarg + 6, &seed)) {
				hash = UP_AVC_HASH_JHASH;
			} else {
				die("--hash: kernel, legacy or jhash:SEED, not %s",
				    optarg);
			}
			break;
		case 'w':
			work = true;
			break;
		case 'a':
			answers = true;
			break;
		case 'h':
			help(stdout);
			return 0;
		default:
			help(stderr);
			return 2;
		}
	}
	if (optind == argc) {
		help(stderr);
		return 2;
	}
	if (up_avc_hash_selftest())
		die("av_hash() is not MurmurHash3's");
	up_avc_jhash = model_jhash;
	nt = split(thresholds, tlist, "--threshold");
	nk = split(kernels, klist, "--kernel");
	for (i = 0; i < nk; i++) {
		if (up_avc_kernel_parse(klist[i], &k))
			die("--kernel: one of stock, patched, v1, setref, module, not %s",
			    klist[i]);
		for (j = 0; j < nt; j++) {
			plays[i * nt + j].kernel = k;
			plays[i * nt + j].threshold = tlist[j];
			if (parse_u32(tlist[j], &plays[i * nt + j].value))
				die("--threshold: a number, not %s", tlist[j]);
		}
	}
	for (i = optind; i < (unsigned int)argc; i++) {
		/* The trace's file name up to its first ".trace". */
		s = strrchr(argv[i], '/');
		name = strdup(s ? s + 1 : argv[i]);
		if (!name)
			die("out of memory");
		s = strstr(name, ".trace");
		if (s)
			name[s - name] = '\0';
		if (answers)
			answers_trace(argv[i], name, plays, nk * nt, slots,
				      hash, seed);
		else
			model_trace(argv[i], name, plays, nk * nt, slots,
				    hash, seed, work);
		free(name);
	}
	return 0;
}
