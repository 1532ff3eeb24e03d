// SPDX-License-Identifier: GPL-2.0
/*
 * avc-curve - the miss curves of an AVC trace, avc-advise's engine
 *
 *   avc-curve [--sizes N[,N...]] [--model legacy|murmur3|none]
 *             [--slots N] [--sample RATE] [--max-exact N]
 *             [--oracle-general DIR] TRACE|-
 *
 * TRACE is an AVC trace (avc_trace_format.h), version 1 or 2, not
 * compressed (avc-advise decompresses the shipped .xz ones); - reads it
 * from standard input.  It is read once, in order, and checked as the
 * native replay checks one: a bad header, a record out of sequence or of
 * an unknown kind, a trace cut short or longer than its header says is
 * refused with one line on standard error naming the record (exit 1).
 *
 * For each cache size of --sizes (default 128 to 65536, the powers of
 * two) it prints the misses of
 *
 *  - an exact LRU cache of that many entries: Mattson's stack distances,
 *    every size from one pass.  A lookup's distance is the number of
 *    distinct keys asked for since its key's previous lookup, counted by
 *    a Fenwick tree over the lookups' positions in which each key marks
 *    only its last lookup: O(log n) a lookup.  It misses in a cache of C
 *    entries if its distance is C or more, or if it is its key's first
 *    lookup since the trace began or since a reset (a cold miss);
 *  - a FIFO cache of that size (a miss inserts, the oldest insert goes);
 *  - Belady's MIN of that size (demand fetch: a miss inserts, and when
 *    the cache is full the entry asked for again furthest in the future,
 *    or never, goes first);
 *  - with --model, upstream's AVC (upstream_avc.c) at that
 *    cache_threshold: 6.1's (legacy, --slots 512) or 6.19's hash
 *    (murmur3, --slots 512 to 16384, 1 << CONFIG_SECURITY_SELINUX_
 *    AVC_HASH_BITS), its reclaim, its updates; replayed record by record
 *    as the trace is read.
 *
 * Every cache starts empty and is emptied at each reset of the trace (a
 * policy load); the in-place updates of version 2 (permissive grants)
 * count for the model only, as in the kernel; the other caches ignore
 * them.  The cold misses, the distinct keys of each stretch between
 * resets, are the floor of any cache.
 *
 * --sample RATE (0 < RATE <= 1) samples the keys as SHARDS does
 * (Waldspurger et al., FAST '15): a key is kept if a hash of it falls
 * below RATE; the kept keys' lookups, every lookup of each, are the
 * sample.  Its stack distances, divided by RATE, estimate the whole
 * trace's; its misses, divided by RATE, the whole trace's misses (with
 * the whole trace's lookups as the denominator, as SHARDS-adj corrects
 * the sample's size).  FIFO and MIN run on the sample as miniature
 * caches of RATE times the size.  The model never samples: it sees
 * every record.  Without --sample, a trace of more than --max-exact
 * records (default 67108864, about 800 MiB of arrays) is sampled at
 * --max-exact / records.  What it costs: 12 bytes a lookup of the
 * sample, and the model's nodes.
 *
 * --oracle-general DIR writes the sample's lookups, one file a stretch
 * between resets (DIR/0.bin, 1.bin...), in libCacheSim's oracleGeneral
 * format (24 bytes a lookup: the time, the key's number as obj_id, size
 * 1, the index in the file of the key's next lookup or -1), so that its
 * policies can be run on them, each file into an empty cache.
 *
 * Output, lines of words and NAME=VALUE pairs:
 *
 *   trace version=V records=R lookups=L resets=S updates=U granted=G
 *     keys=K cold=C first_ns=T0 last_ns=T1 kernel_hits=H decided=D
 *   sample rate=X lookups=N keys=M exact=0|1
 *   size C lru=M fifo=M min=M [model=M reclaims=R allocations=A]
 *   dist D N
 *
 * one trace line, one sample line, one size line per size, and one dist
 * line per stack distance that occurs (sampled: scaled), N the lookups
 * at that distance (sampled: scaled, with three decimals); the misses of
 * a sampled run are estimates with three decimals.
 */
#define _GNU_SOURCE
#include <endian.h>
#include <errno.h>
#include <getopt.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <stdnoreturn.h>
#include <string.h>

#include "avc_trace_read.h"
#include "upstream_avc.h"

#define PROG		"avc-curve"
#define MAX_SIZES	64
#define NONE		UINT32_MAX	/* no position: never, or not cached */
#define SAMPLE_BITS	24

static noreturn void die(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	fprintf(stderr, PROG ": ");
	vfprintf(stderr, fmt, ap);
	fputc('\n', stderr);
	va_end(ap);
	exit(1);
}

static void *xrealloc(void *p, size_t n)
{
	p = realloc(p, n ? n : 1);
	if (!p)
		die("out of memory");
	return p;
}

static void *xcalloc(size_t n, size_t size)
{
	void *p = calloc(n ? n : 1, size);

	if (!p)
		die("out of memory");
	return p;
}

/* A growing array of u32. */
struct vec {
	uint32_t *v;
	size_t n, cap;
};

static void vec_push(struct vec *a, uint32_t x)
{
	if (a->n == a->cap) {
		a->cap = a->cap ? 2 * a->cap : 4096;
		a->v = xrealloc(a->v, a->cap * sizeof(*a->v));
	}
	a->v[a->n++] = x;
}

/* A 64-bit mix (splitmix64's finalizer). */
static uint64_t mix64(uint64_t x)
{
	x ^= x >> 30;
	x *= 0xbf58476d1ce4e5b9ULL;
	x ^= x >> 27;
	x *= 0x94d049bb133111ebULL;
	return x ^ (x >> 31);
}

static uint64_t key_hash(uint32_t ssid, uint32_t tsid, uint16_t tclass)
{
	return mix64(((uint64_t)ssid << 32 | tsid) ^
		     mix64((uint64_t)tclass + 0x9e3779b97f4a7c15ULL));
}

/* The keys seen: (ssid, tsid, tclass) to a number, in order of arrival. */
struct key {
	uint32_t ssid, tsid;
	uint32_t tclass;	/* 0x10000 | tclass; 0: empty */
	uint32_t id;
};

static struct key *keytab;
static size_t nkeys, keycap;

static uint32_t key_id(uint32_t ssid, uint32_t tsid, uint16_t tclass);

static void keys_grow(void)
{
	struct key *old = keytab;
	size_t i, oldcap = keycap, n = nkeys;

	keycap = keycap ? 2 * keycap : 1024;
	keytab = xcalloc(keycap, sizeof(*keytab));
	for (i = 0; i < oldcap; i++) {
		struct key *k = &old[i], *slot;
		size_t j;

		if (!k->tclass)
			continue;
		j = key_hash(k->ssid, k->tsid, (uint16_t)k->tclass) &
		    (keycap - 1);
		for (slot = &keytab[j]; slot->tclass;
		     j = (j + 1) & (keycap - 1), slot = &keytab[j])
			;
		*slot = *k;
	}
	nkeys = n;
	free(old);
}

static uint32_t key_id(uint32_t ssid, uint32_t tsid, uint16_t tclass)
{
	uint32_t want = 0x10000u | tclass;
	struct key *k;
	size_t j;

	if ((nkeys + 1) * 2 > keycap)
		keys_grow();
	j = key_hash(ssid, tsid, tclass) & (keycap - 1);
	for (k = &keytab[j]; k->tclass; j = (j + 1) & (keycap - 1),
	     k = &keytab[j])
		if (k->ssid == ssid && k->tsid == tsid && k->tclass == want)
			return k->id;
	if (nkeys >= NONE - 1)
		die("more than %u distinct keys", NONE - 1);
	k->ssid = ssid;
	k->tsid = tsid;
	k->tclass = want;
	k->id = (uint32_t)nkeys++;
	return k->id;
}

/* The options. */
static unsigned int sizes[MAX_SIZES];
static unsigned int nsizes;
static const char *model_name = "none";
static enum up_avc_hash model_hash;
static bool model_on;
static unsigned int model_slots = 512;
static double sample_rate;		/* 0: not given */
static const char *oracle_dir;
static unsigned long long max_exact = 1ULL << 26;

/* What the read gathers. */
static struct vec lookups;	/* the sample's key numbers, in order */
static struct vec resets;	/* the sample's lookups before each reset */
static unsigned long long n_lookups, n_resets, n_updates, n_granted;
static unsigned long long kernel_hits, decided;
static uint64_t first_ns, last_ns;
static bool any_ts;
static uint32_t sample_below;	/* a key is kept if its hash's low bits are */
static bool sampling;
static unsigned char *key_kept;	/* by key number: 1 kept, 2 not, 0 unseen */
static size_t key_kept_cap;
static struct up_avc *models[MAX_SIZES];

static bool kept(uint32_t id, uint32_t ssid, uint32_t tsid, uint16_t tclass)
{
	if (!sampling)
		return true;
	if (id >= key_kept_cap) {
		size_t cap = key_kept_cap ? 2 * key_kept_cap : 4096;

		while (cap <= id)
			cap *= 2;
		key_kept = xrealloc(key_kept, cap);
		memset(key_kept + key_kept_cap, 0, cap - key_kept_cap);
		key_kept_cap = cap;
	}
	if (!key_kept[id])
		key_kept[id] = (key_hash(ssid, tsid, tclass) &
				((1u << SAMPLE_BITS) - 1)) < sample_below ? 1 : 2;
	return key_kept[id] == 1;
}

static void take(const struct avc_trace_event *e, unsigned int version)
{
	unsigned int i;
	uint32_t id;

	switch (e->kind) {
	case AVC_TRACE_LOOKUP:
		n_lookups++;
		if (version == 2) {
			if (!any_ts)
				first_ns = e->ts_ns;
			last_ns = e->ts_ns;
			any_ts = true;
			kernel_hits += !!(e->flags & AVC_TRACE_F_HIT);
			decided += !!(e->flags & AVC_TRACE_F_DECIDED);
		}
		id = key_id(e->ssid, e->tsid, e->tclass);
		if (kept(id, e->ssid, e->tsid, e->tclass))
			vec_push(&lookups, id);
		for (i = 0; model_on && i < nsizes; i++)
			up_avc_lookup(models[i], e->ssid, e->tsid, e->tclass);
		break;
	case AVC_TRACE_RESET:
		n_resets++;
		vec_push(&resets, (uint32_t)lookups.n);
		for (i = 0; model_on && i < nsizes; i++)
			up_avc_reset(models[i]);
		break;
	case AVC_TRACE_UPDATE:
		n_updates++;
		/* A denial (enforcing) leaves the kernel's entry as it was. */
		if (!(e->flags & AVC_TRACE_F_GRANTED))
			break;
		n_granted++;
		for (i = 0; model_on && i < nsizes; i++)
			up_avc_update(models[i], e->ssid, e->tsid, e->tclass);
		break;
	}
}

/* Read and check the trace, handing each record to take(). */
static unsigned int read_trace(const char *path)
{
	struct avc_trace_reader r = {
		.xz_hint = "decompress it, or give it to avc-advise",
	};
	struct avc_trace_event e;
	unsigned long long n;
	unsigned int version;
	size_t j;
	int err;

	err = avc_trace_open(&r, path);
	if (!strcmp(path, "-"))
		path = "standard input";
	if (err)
		die("%s: %s", path, r.error);
	version = r.version;
	n = r.nrecords;

	if (!sample_rate && n > max_exact)
		sample_rate = (double)max_exact / (double)n;
	if (sample_rate && sample_rate < 1) {
		sampling = true;
		sample_below = (uint32_t)(sample_rate * (1u << SAMPLE_BITS));
		if (!sample_below)
			sample_below = 1;
	}
	if (model_on) {
		for (j = 0; j < nsizes; j++) {
			models[j] = up_avc_create(model_slots, sizes[j],
						  model_hash, 0);
			if (!models[j])
				die("out of memory");
		}
	}

	while (avc_trace_next(&r, &e))
		take(&e, version);
	if (r.error[0])
		die("%s: %s", path, r.error);
	avc_trace_close(&r);
	return version;
}

/* A Fenwick tree of counts over positions 0..n-1. */
static uint32_t *fen;
static size_t fen_n;

static void fen_add(size_t pos, int d)
{
	for (pos++; pos <= fen_n; pos += pos & -pos)
		fen[pos] += d;
}

/* The count at positions 0..pos - 1. */
static uint32_t fen_below(size_t pos)
{
	uint32_t s = 0;

	for (; pos; pos -= pos & -pos)
		s += fen[pos];
	return s;
}

/*
 * The stack distances of the sample, each lookup's; the cold misses in
 * *@cold.  Distance of a lookup at i whose key was last asked at p (in
 * the same stretch): the keys whose last lookup lies between, the marks
 * in (p, i).
 */
static uint32_t *stack_distances(unsigned long long *cold)
{
	size_t n = lookups.n, i, r = 0, start = 0;
	uint32_t *last = xcalloc(nkeys, sizeof(*last));	/* position + 1 */
	uint32_t *dist = xcalloc(n, sizeof(*dist));

	fen_n = n;
	fen = xcalloc(n + 1, sizeof(*fen));
	*cold = 0;
	for (i = 0; i < n; i++) {
		uint32_t k = lookups.v[i], p = last[k];

		while (r < resets.n && resets.v[r] <= i)
			start = resets.v[r++];
		if (!p || p - 1 < start) {
			dist[i] = NONE;
			(*cold)++;
		} else {
			dist[i] = fen_below(i) - fen_below(p);
		}
		if (p)
			fen_add(p - 1, -1);
		fen_add(i, 1);
		last[k] = (uint32_t)i + 1;
	}
	free(fen);
	free(last);
	return dist;
}

/* FIFO of @cap entries over the sample: its misses. */
static unsigned long long fifo_misses(unsigned int cap)
{
	unsigned char *in = xcalloc(nkeys, 1);
	uint32_t *ring = xcalloc(cap, sizeof(*ring));
	unsigned long long misses = 0;
	size_t i, r = 0, head = 0, used = 0;

	for (i = 0; i < lookups.n; i++) {
		uint32_t k = lookups.v[i];

		while (r < resets.n && resets.v[r] <= i) {
			for (; used; used--, head = (head + 1) % cap)
				in[ring[head]] = 0;
			r++;
		}
		if (in[k])
			continue;
		misses++;
		if (used == cap) {
			in[ring[head]] = 0;
			head = (head + 1) % cap;
			used--;
		}
		ring[(head + used++) % cap] = k;
		in[k] = 1;
	}
	free(ring);
	free(in);
	return misses;
}

/* A max-heap of (next use, key), stale entries skipped when popped. */
struct use {
	uint32_t next, key;
};

static void heap_push(struct use *h, size_t *n, struct use u)
{
	size_t i = (*n)++;

	while (i && h[(i - 1) / 2].next < u.next) {
		h[i] = h[(i - 1) / 2];
		i = (i - 1) / 2;
	}
	h[i] = u;
}

static struct use heap_pop(struct use *h, size_t *n)
{
	struct use top = h[0], last = h[--*n];
	size_t i = 0, c;

	for (;;) {
		c = 2 * i + 1;
		if (c >= *n)
			break;
		if (c + 1 < *n && h[c + 1].next > h[c].next)
			c++;
		if (h[c].next <= last.next)
			break;
		h[i] = h[c];
		i = c;
	}
	if (*n)
		h[i] = last;
	return top;
}

/* Each lookup's next lookup of its key in the same stretch, or NONE. */
static uint32_t *next_uses(void)
{
	size_t n = lookups.n, i, r = resets.n;
	uint32_t *nxt = xcalloc(n, sizeof(*nxt));
	uint32_t *seen = xcalloc(nkeys, sizeof(*seen));	/* position + 1 */
	size_t end = n;

	for (i = n; i-- > 0;) {
		uint32_t k = lookups.v[i];

		while (r > 0 && resets.v[r - 1] > i)
			end = resets.v[--r];
		nxt[i] = seen[k] && seen[k] - 1 < end ? seen[k] - 1 : NONE;
		seen[k] = (uint32_t)i + 1;
	}
	free(seen);
	return nxt;
}

/* A next use as kept by min_misses(): + 1 (NONE stays), never 0. */
static uint32_t at_of(uint32_t next)
{
	return next == NONE ? NONE : next + 1;
}

/* Belady's MIN of @cap entries over the sample: its misses. */
static unsigned long long min_misses(unsigned int cap, const uint32_t *nxt)
{
	uint32_t *at = xcalloc(nkeys, sizeof(*at));	/* at_of(), 0: out */
	struct use *heap = xcalloc(lookups.n + 1, sizeof(*heap));
	unsigned long long misses = 0;
	size_t i, r = 0, nheap = 0, used = 0;

	for (i = 0; i < lookups.n; i++) {
		uint32_t k = lookups.v[i];

		while (r < resets.n && resets.v[r] <= i) {
			while (nheap)
				at[heap_pop(heap, &nheap).key] = 0;
			used = 0;
			r++;
		}
		if (!at[k]) {
			misses++;
			if (used == cap) {
				/* Stale entries (asked again since) skipped. */
				for (;;) {
					struct use u = heap_pop(heap, &nheap);

					if (at[u.key] == at_of(u.next)) {
						at[u.key] = 0;
						break;
					}
				}
				used--;
			}
			used++;
		}
		at[k] = at_of(nxt[i]);
		heap_push(heap, &nheap, (struct use){ nxt[i], k });
	}
	free(heap);
	free(at);
	return misses;
}

/* --oracle-general: one file a stretch, each lookup's next in it. */
static void write_oracle(const uint32_t *nxt)
{
	size_t i, r = 0, start = 0, file = 0;
	char path[4096];
	FILE *f = NULL;

	for (i = 0; i <= lookups.n; i++) {
		unsigned char rec[24];
		uint32_t t32;
		uint64_t id;
		int64_t next;

		while (!f || (r < resets.n && resets.v[r] <= i)) {
			if (f && fclose(f))
				die("%s: %s", path, strerror(errno));
			if (f) {
				start = resets.v[r++];
				if (start > i)
					start = i;
			}
			snprintf(path, sizeof(path), "%s/%zu.bin", oracle_dir,
				 file++);
			f = fopen(path, "wb");
			if (!f)
				die("%s: %s", path, strerror(errno));
		}
		if (i == lookups.n)
			break;
		t32 = htole32((uint32_t)(i - start));
		id = htole64((uint64_t)lookups.v[i] + 1);
		next = nxt[i] == NONE ? -1 : (int64_t)(nxt[i] - start);
		next = (int64_t)htole64((uint64_t)next);
		memcpy(rec, &t32, 4);
		memcpy(rec + 4, &id, 8);
		t32 = htole32(1);
		memcpy(rec + 12, &t32, 4);
		memcpy(rec + 16, &next, 8);
		if (fwrite(rec, sizeof(rec), 1, f) != 1)
			die("%s: %s", path, strerror(errno));
	}
	if (fclose(f))
		die("%s: %s", path, strerror(errno));
}

static void parse_sizes(const char *arg)
{
	char *copy = strdup(arg), *tok, *save = NULL, *end;
	unsigned long x;

	if (!copy)
		die("out of memory");
	nsizes = 0;
	for (tok = strtok_r(copy, ",", &save); tok;
	     tok = strtok_r(NULL, ",", &save)) {
		if (nsizes == MAX_SIZES)
			die("--sizes: more than %d sizes", MAX_SIZES);
		errno = 0;
		x = strtoul(tok, &end, 10);
		if (*tok < '0' || *tok > '9' || *end || errno || !x ||
		    x > (1UL << 30))
			die("--sizes: not a number from 1 to %lu: %s",
			    1UL << 30, tok);
		sizes[nsizes++] = (unsigned int)x;
	}
	free(copy);
	if (!nsizes)
		die("--sizes: no size");
}

static void help(FILE *f)
{
	fprintf(f, "usage: " PROG " [--sizes N[,N...]] [--model legacy|murmur3|none]\n"
		"       [--slots N] [--sample RATE] [--max-exact N]\n"
		"       [--oracle-general DIR] TRACE|-\n");
}

/* A count, or an estimate from the sample. */
static void print_count(const char *name, unsigned long long n, double rate)
{
	if (rate < 1)
		printf(" %s=%.3f", name, n / rate);
	else
		printf(" %s=%llu", name, n);
}

int main(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "sizes", required_argument, NULL, 'z' },
		{ "model", required_argument, NULL, 'm' },
		{ "slots", required_argument, NULL, 'n' },
		{ "sample", required_argument, NULL, 's' },
		{ "max-exact", required_argument, NULL, 'x' },
		{ "oracle-general", required_argument, NULL, 'o' },
		{ "help", no_argument, NULL, 'h' },
		{ }
	};
	unsigned long long cold, *hist, nd;
	uint32_t *dist, *nxt, maxd = 0;
	unsigned int version, i;
	size_t nkept;
	double rate;
	char *end;
	size_t j;
	int opt;

	for (i = 0; i < 10; i++)
		sizes[i] = 128u << i;
	nsizes = 10;
	while ((opt = getopt_long(argc, argv, "h", opts, NULL)) != -1) {
		switch (opt) {
		case 'z':
			parse_sizes(optarg);
			break;
		case 'm':
			model_name = optarg;
			if (!strcmp(optarg, "none"))
				model_on = false;
			else if (!strcmp(optarg, "legacy") ||
				 !strcmp(optarg, "murmur3"))
				model_on = !up_avc_hash_parse(optarg, &model_hash);
			else
				die("--model: legacy (6.1), murmur3 (6.19) or none, not %s",
				    optarg);
			break;
		case 'n':
			model_slots = strtoul(optarg, &end, 10);
			if (*end || model_slots < UP_AVC_SLOTS_MIN ||
			    model_slots > UP_AVC_SLOTS_MAX ||
			    (model_slots & (model_slots - 1)))
				die("--slots: a power of two from %u to %u, not %s",
				    UP_AVC_SLOTS_MIN, UP_AVC_SLOTS_MAX, optarg);
			break;
		case 's':
			sample_rate = strtod(optarg, &end);
			if (*end || end == optarg || !(sample_rate > 0) ||
			    sample_rate > 1)
				die("--sample: a rate above 0, at most 1, not %s",
				    optarg);
			break;
		case 'x':
			max_exact = strtoull(optarg, &end, 10);
			if (*end || end == optarg || !max_exact)
				die("--max-exact: a number of records, not %s",
				    optarg);
			break;
		case 'o':
			oracle_dir = optarg;
			break;
		case 'h':
			help(stdout);
			return 0;
		default:
			help(stderr);
			return 2;
		}
	}
	if (optind != argc - 1) {
		help(stderr);
		return 2;
	}
	if (model_on && up_avc_hash_selftest())
		die("av_hash() does not give MurmurHash3's values");

	version = read_trace(argv[optind]);
	rate = sampling ? (double)sample_below / (1u << SAMPLE_BITS) : 1;

	dist = stack_distances(&cold);
	for (j = 0; j < lookups.n; j++)
		if (dist[j] != NONE && dist[j] > maxd)
			maxd = dist[j];
	/* By distance, scaled to the whole trace when sampled. */
	nd = (unsigned long long)(maxd / rate) + 1;
	hist = xcalloc(nd, sizeof(*hist));
	for (j = 0; j < lookups.n; j++)
		if (dist[j] != NONE)
			hist[(unsigned long long)(dist[j] / rate)]++;
	free(dist);

	printf("trace version=%u records=%llu lookups=%llu resets=%llu ",
	       version, n_lookups + n_resets + n_updates, n_lookups, n_resets);
	printf("updates=%llu granted=%llu keys=%zu", n_updates, n_granted,
	       nkeys);
	print_count("cold", cold, rate);
	printf(" first_ns=%llu last_ns=%llu kernel_hits=%llu decided=%llu\n",
	       (unsigned long long)first_ns, (unsigned long long)last_ns,
	       kernel_hits, decided);
	for (nkept = 0, j = 0; j < key_kept_cap; j++)
		nkept += key_kept[j] == 1;
	printf("sample rate=%.6f lookups=%zu keys=%zu exact=%d model=%s slots=%u\n",
	       rate, lookups.n, sampling ? nkept : nkeys, !sampling,
	       model_on ? model_name : "none", model_slots);

	nxt = next_uses();
	if (oracle_dir)
		write_oracle(nxt);
	for (i = 0; i < nsizes; i++) {
		unsigned long long lru = cold, d;
		unsigned int cap = sizes[i];

		for (d = cap; d < nd; d++)
			lru += hist[d];
		if (sampling) {
			cap = (unsigned int)(cap * rate + 0.5);
			if (!cap)
				cap = 1;
		}
		printf("size %u", sizes[i]);
		print_count("lru", lru, rate);
		print_count("fifo", fifo_misses(cap), rate);
		print_count("min", min_misses(cap, nxt), rate);
		if (model_on) {
			struct up_avc_stats st;

			up_avc_stats(models[i], &st);
			if (st.lookups != (uint32_t)n_lookups)
				die("the model looked up %u keys, the trace has %llu",
				    st.lookups, n_lookups);
			printf(" model=%u reclaims=%u allocations=%u", st.misses,
			       st.reclaims, st.allocations);
			up_avc_destroy(models[i]);
		}
		putchar('\n');
	}
	for (nd = 0, j = 0; j < (size_t)((maxd / rate) + 1); j++) {
		if (!hist[j])
			continue;
		if (sampling)
			printf("dist %zu %.3f\n", j, hist[j] / rate);
		else
			printf("dist %zu %llu\n", j, hist[j]);
	}
	free(hist);
	free(nxt);
	if (fflush(stdout) || ferror(stdout))
		die("write error: %s", strerror(errno));
	return 0;
}
