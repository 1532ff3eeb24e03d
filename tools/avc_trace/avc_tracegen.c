// SPDX-License-Identifier: GPL-2.0
/*
 * avc_tracegen - write a synthetic AVC trace (avc_trace_format.h) to stdout
 *
 *   avc_tracegen [-n LOOKUPS] [-s SEED] STREAM [ARGS...]
 *
 * Streams, each a pure function of its arguments and the seed:
 *
 *   uniform KEYS            every lookup a key drawn uniformly from KEYS
 *   zipf S KEYS             key of rank r with probability ~ 1 / r^S
 *                           (S a decimal, e.g. 0.8), KEYS keys
 *   hotscan HOT PHASE SCAN  PHASE lookups drawn uniformly from a hot set of
 *                           HOT keys, then a scan of SCAN keys never seen
 *                           before, over and over
 *   shift CORE WINDOW STEP PCT
 *                           PCT % of lookups from a fixed core of CORE
 *                           keys, the rest from a window of WINDOW keys
 *                           that slides one key every STEP lookups
 *
 * Key number i is (ssid i + 1, tsid 1, tclass 1): the cache hashes keys,
 * so their numbering does not matter to it.  Default: 200000 lookups,
 * seed 1.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <endian.h>

#include "../avcstat/avc_trace_format.h"

#define PROG	"avc_tracegen"
#define ARRAY_SIZE(a)	(sizeof(a) / sizeof((a)[0]))

static uint64_t rng_state;

/* splitmix64: small, fast, and the same on every machine. */
static uint64_t rnd(void)
{
	uint64_t z = (rng_state += 0x9e3779b97f4a7c15ULL);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

/* Uniform in [0, n). */
static uint64_t rnd_below(uint64_t n)
{
	return rnd() % n;
}

/* Uniform in [0, 1). */
static double rnd_unit(void)
{
	return (rnd() >> 11) * (1.0 / 9007199254740992.0);
}

static void die(const char *fmt, const char *arg)
{
	fprintf(stderr, PROG ": ");
	fprintf(stderr, fmt, arg);
	fputc('\n', stderr);
	exit(1);
}

static uint64_t num(const char *s, const char *what)
{
	char *end;
	unsigned long long v;

	errno = 0;
	v = strtoull(s, &end, 10);
	if (errno || end == s || *end || v == 0)
		die("invalid %s: expected a positive number", what);
	return v;
}

static struct avc_trace_record out[4096];
static size_t nout;
static uint64_t seq;

static void flush_out(void)
{
	if (nout && fwrite(out, sizeof(out[0]), nout, stdout) != nout)
		die("write: %s", strerror(errno));
	nout = 0;
}

static void emit(uint64_t key)
{
	struct avc_trace_record *r = &out[nout++];

	memset(r, 0, sizeof(*r));
	r->seq = htole32((uint32_t)seq++);
	r->ssid = htole32((uint32_t)(key + 1));
	r->tsid = htole32(1);
	r->tclass = htole16(1);
	r->kind = AVC_TRACE_LOOKUP;
	if (nout == ARRAY_SIZE(out))
		flush_out();
}

static void print_usage(void)
{
	fputs("usage: " PROG " [-n LOOKUPS] [-s SEED] uniform KEYS | zipf S KEYS |\n"
	      "       hotscan HOT PHASE SCAN | shift CORE WINDOW STEP PCT\n",
	      stderr);
	exit(2);
}

int main(int argc, char **argv)
{
	struct avc_trace_header h;
	uint64_t n = 200000, i, seed = 1;
	const char *stream;
	int opt;

	while ((opt = getopt(argc, argv, "n:s:")) != -1) {
		if (opt == 'n')
			n = num(optarg, "-n");
		else if (opt == 's')
			seed = num(optarg, "-s");
		else
			print_usage();
	}
	if (optind >= argc)
		print_usage();
	stream = argv[optind++];
	argc -= optind;
	argv += optind;
	rng_state = seed;

	memset(&h, 0, sizeof(h));
	memcpy(h.magic, AVC_TRACE_MAGIC, sizeof(h.magic));
	h.version = htole32(AVC_TRACE_VERSION_1);
	h.record_size = htole32(sizeof(struct avc_trace_record));
	h.nrecords = htole64(n);
	if (fwrite(&h, sizeof(h), 1, stdout) != 1)
		die("write: %s", strerror(errno));

	if (!strcmp(stream, "uniform") && argc == 1) {
		uint64_t keys = num(argv[0], "KEYS");

		for (i = 0; i < n; i++)
			emit(rnd_below(keys));
	} else if (!strcmp(stream, "zipf") && argc == 2) {
		uint64_t keys = num(argv[1], "KEYS"), lo, hi, mid;
		double s = strtod(argv[0], NULL), *cdf, total = 0, u;

		if (!(s > 0 && s < 4))
			die("invalid S '%s': expected 0 < S < 4", argv[0]);
		cdf = malloc(keys * sizeof(*cdf));
		if (!cdf)
			die("%s", "out of memory");
		for (i = 0; i < keys; i++)
			cdf[i] = total += 1.0 / pow((double)(i + 1), s);
		for (i = 0; i < n; i++) {
			u = rnd_unit() * total;
			for (lo = 0, hi = keys - 1; lo < hi; ) {
				mid = (lo + hi) / 2;
				if (cdf[mid] < u)
					lo = mid + 1;
				else
					hi = mid;
			}
			emit(lo);
		}
		free(cdf);
	} else if (!strcmp(stream, "hotscan") && argc == 3) {
		uint64_t hot = num(argv[0], "HOT"), phase = num(argv[1], "PHASE");
		uint64_t scan = num(argv[2], "SCAN"), next = hot, j;

		for (i = 0; i < n; ) {
			for (j = 0; j < phase && i < n; j++, i++)
				emit(rnd_below(hot));
			for (j = 0; j < scan && i < n; j++, i++)
				emit(next++);
		}
	} else if (!strcmp(stream, "shift") && argc == 4) {
		uint64_t core = num(argv[0], "CORE");
		uint64_t window = num(argv[1], "WINDOW");
		uint64_t step = num(argv[2], "STEP"), pct = num(argv[3], "PCT");
		uint64_t base = core;

		if (pct > 100)
			die("invalid PCT '%s': at most 100", argv[3]);
		for (i = 0; i < n; i++) {
			if (rnd_below(100) < pct)
				emit(rnd_below(core));
			else
				emit(base + rnd_below(window));
			if ((i + 1) % step == 0)
				base++;
		}
	} else {
		print_usage();
	}
	flush_out();
	if (fflush(stdout))
		die("write: %s", strerror(errno));
	return 0;
}
