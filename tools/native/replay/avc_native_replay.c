// SPDX-License-Identifier: GPL-2.0
/*
 * avc_native_replay: replay AVC traces (include/uapi/linux/avc_rcu_trace.h)
 * through the core built natively, as tools/avc_trace/replay does through
 * the module in a guest, in a fraction of the time.
 *
 *   avc_native_replay [--slots N] [--threshold N[,N...]]
 *                     [--reclaim P[,P...]] [--sync S] [--seed N] TRACE...
 *
 * TRACE is a trace, xz-compressed (as shipped) or plain, found by its
 * first bytes; its NAME.meta, if beside it, adds the validation line.
 * Each trace is read and checked whole first: a bad header, a record out
 * of sequence or of an unknown kind, a trace cut short or longer than its
 * header says is refused with one line naming the record, in the words of
 * avc_rcu_replay.ko, and nothing is replayed (exit 1).
 *
 * Then each trace is replayed once per reclaim policy and threshold of the
 * lists, each time into a new cache, as the guest's replay loads the
 * module afresh: avc_rcu_setup_cache() with the slots, sync mode, policy
 * and hash seed (the module's parameters; no policy loaded, so every
 * decision is the empty policy's), avc_cache_set_threshold() (the guest's
 * write to avc/cache_threshold), then what avc_rcu_replay.ko does per
 * record, through the same exported API: a lookup is an
 * avc_rcu_has_perm() of its key and requested permissions, a reset an
 * avc_rcu_flush(), an update nothing.  The counts are the cache's own
 * statistics, summed over the CPUs as avc/cache_stats is.
 * One line per replay, as tools/avc_trace/replay prints it:
 *
 *   replay NAME: slots S threshold T reclaim=P: lookups L hits H misses M
 *   reclaims R hit ratio X %
 *
 * (one line), and with a .meta, as there: at upstream's pair (slots 512,
 * threshold 512, newest) the validation line against the kernel AVC's hit
 * ratio over the trace's window; with a single pair of other settings, a
 * compare line.  A replay whose lookups are not the trace's fails the run
 * (exit 1).  The time taken and the lookups per second go to stderr.
 *
 * The defaults are upstream's settings and the guest replay's: slots 512,
 * threshold 512, reclaim=newest, sync=rcu, hash seed 2004.  --seed 0
 * draws a seed, as hash_seed=0 does, and says which.
 */
#include <endian.h>
#include <errno.h>
#include <getopt.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <lzma.h>

#include <linux/err.h>
#include <linux/log2.h>
#include "glue.h"
#include <uapi/linux/avc_rcu_trace.h>

#define PROG		"avc_native_replay"
#define MAX_LIST	64

static const unsigned char xz_magic[6] = { 0xfd, '7', 'z', 'X', 'Z', 0 };

/**
 * struct trace - one trace, read and checked
 * @path: as given
 * @name: the file's name without .xz and .trace
 * @data: the uncompressed trace
 * @len: its bytes
 * @recs: its records, after the header
 * @nrecords: how many
 * @lookups: of which lookups
 * @meta: a NAME.meta was found
 * @meta_lookups: its lookups=
 * @kernel_lookups: its kernel_lookups=
 * @kernel_hits: its kernel_hits=
 */
struct trace {
	const char *path;
	char *name;
	unsigned char *data;
	size_t len;
	const struct avc_trace_record *recs;
	unsigned long long nrecords;
	unsigned long long lookups;
	bool meta;
	unsigned long long meta_lookups;
	unsigned long long kernel_lookups;
	unsigned long long kernel_hits;
};

static __printf(1, 2) __noreturn void die(const char *fmt, ...)
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
	p = realloc(p, n);
	if (!p)
		die("out of memory");
	return p;
}

/* The whole of @path into *@len bytes. */
static unsigned char *slurp(const char *path, size_t *len)
{
	FILE *f = fopen(path, "rb");
	unsigned char *buf = NULL;
	size_t cap = 0, n = 0, got;

	if (!f)
		die("%s: %s", path, strerror(errno));
	do {
		if (cap - n < 65536) {
			cap = cap ? 2 * cap : 1 << 20;
			buf = xrealloc(buf, cap);
		}
		got = fread(buf + n, 1, cap - n, f);
		n += got;
	} while (got);
	if (ferror(f))
		die("%s: read error", path);
	fclose(f);
	*len = n;
	return buf;
}

/* @in (@inlen bytes of xz) decompressed, into *@len bytes. */
static unsigned char *unxz(const char *path, const unsigned char *in,
			   size_t inlen, size_t *len)
{
	lzma_stream s = LZMA_STREAM_INIT;
	unsigned char *out = NULL;
	size_t cap = 0;
	lzma_ret ret;

	if (lzma_stream_decoder(&s, UINT64_MAX, LZMA_CONCATENATED) != LZMA_OK)
		die("%s: cannot start the xz decoder", path);
	s.next_in = in;
	s.avail_in = inlen;
	do {
		if (!s.avail_out) {
			cap = cap ? 2 * cap : 8 << 20;
			out = xrealloc(out, cap);
			s.next_out = out + s.total_out;
			s.avail_out = cap - s.total_out;
		}
		ret = lzma_code(&s, LZMA_FINISH);
	} while (ret == LZMA_OK);
	if (ret != LZMA_STREAM_END)
		die("%s: xz: %s", path, ret == LZMA_BUF_ERROR ?
		    "compressed data cut short" : "corrupt compressed data");
	*len = s.total_out;
	lzma_end(&s);
	return out;
}

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
		if (sscanf(line, "lookups=%llu", &v) == 1)
			t->meta_lookups = v;
		else if (sscanf(line, "kernel_lookups=%llu", &v) == 1)
			t->kernel_lookups = v;
		else if (sscanf(line, "kernel_hits=%llu", &v) == 1)
			t->kernel_hits = v;
	}
	fclose(f);
}

/*
 * Read and check one trace.  A bad one is refused as avc_rcu_replay.ko
 * refuses it, with its words: the first bad record in order, else what is
 * missing or left over at the end.
 */
static void trace_load(struct trace *t, const char *path)
{
	const struct avc_trace_header *h;
	unsigned long long i, whole, n;
	unsigned char *raw;
	size_t rawlen;
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

	raw = slurp(path, &rawlen);
	if (rawlen >= sizeof(xz_magic) &&
	    !memcmp(raw, xz_magic, sizeof(xz_magic))) {
		t->data = unxz(path, raw, rawlen, &t->len);
		free(raw);
	} else {
		t->data = raw;
		t->len = rawlen;
	}

	if (t->len < sizeof(*h))
		die("%s: trace truncated: %zu bytes, shorter than a header",
		    path, t->len);
	h = (const struct avc_trace_header *)t->data;
	if (memcmp(h->magic, AVC_TRACE_MAGIC, sizeof(h->magic)))
		die("%s: not an AVC trace: bad magic", path);
	if (le32toh(h->version) != AVC_TRACE_VERSION ||
	    le32toh(h->record_size) != sizeof(struct avc_trace_record) ||
	    h->flags || h->reserved)
		die("%s: bad header: version %u, record size %u, flags %#x (want %u, %zu, 0)",
		    path, le32toh(h->version), le32toh(h->record_size),
		    le32toh(h->flags), AVC_TRACE_VERSION,
		    sizeof(struct avc_trace_record));
	n = le64toh(h->nrecords);
	t->recs = (const struct avc_trace_record *)(t->data + sizeof(*h));
	whole = (t->len - sizeof(*h)) / sizeof(struct avc_trace_record);

	for (i = 0; i < whole && i < n; i++) {
		const struct avc_trace_record *r = &t->recs[i];

		if (le32toh(r->seq) != (u32)i)
			die("%s: record %llu: seq %u, expected %u (events lost?)",
			    path, i, le32toh(r->seq), (u32)i);
		switch (r->kind) {
		case AVC_TRACE_LOOKUP:
			t->lookups++;
			break;
		case AVC_TRACE_RESET:
		case AVC_TRACE_UPDATE:
			break;
		default:
			die("%s: record %llu: unknown kind %u", path, i,
			    r->kind);
		}
	}
	if (whole > n)
		die("%s: record %llu: past the %llu records the header announces",
		    path, n, n);
	if (whole < n || (t->len - sizeof(*h)) % sizeof(struct avc_trace_record))
		die("%s: trace truncated: %llu of %llu records, %zu bytes of a partial one",
		    path, whole, n,
		    (t->len - sizeof(*h)) % sizeof(struct avc_trace_record));
	t->nrecords = n;
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

/* The cache's counters over one replay (avc/cache_stats, summed). */
struct counts {
	u32 lookups, hits, misses, reclaims;
};

/*
 * One replay into a new cache, as the guest's: the module loaded with
 * @cfg (its cache: what every cache shares, avc_core_init(), is made once
 * for the run), cache_threshold written, the trace written to
 * avc_rcu_replay.  Adds the time the records took to *@busy.
 */
static void replay(const struct trace *t, const struct avc_rcu_config *cfg,
		   unsigned int threshold, struct counts *out, double *busy)
{
	struct avc_rcu_decision avd;
	struct avc_cache_stats st;
	unsigned long long i;
	double t0;
	int err;

	err = avc_rcu_setup_cache(cfg);
	if (err)
		die("avc_rcu_setup_cache: error %d", err);
	avc_cache_set_threshold(avc_rcu_cache(), threshold);
	t0 = now();
	for (i = 0; i < t->nrecords; i++) {
		const struct avc_trace_record *r = &t->recs[i];

		switch (r->kind) {
		case AVC_TRACE_LOOKUP:
			avc_rcu_has_perm(le32toh(r->ssid), le32toh(r->tsid),
					 le16toh(r->tclass),
					 le32toh(r->requested), &avd);
			break;
		case AVC_TRACE_RESET:
			avc_rcu_flush();
			break;
		default:	/* an update: the entry stays cached */
			break;
		}
	}
	*busy += now() - t0;
	avc_cache_stats_sum(avc_rcu_cache(), &st);
	avc_rcu_teardown_cache();
	out->lookups = st.lookups;
	out->hits = st.hits;
	out->misses = st.misses;
	out->reclaims = st.reclaims;
}

/*
 * One replay's line, and with the trace's metadata its validation line
 * (at upstream's pair) or, for a single pair, its compare line, in
 * tools/avc_trace/replay's words.  A replay that did not look up what the
 * trace holds fails the run.
 */
static void report(const struct trace *t, const struct avc_rcu_config *cfg,
		   unsigned int threshold, const struct counts *c, bool list)
{
	double ar, kr, gap;

	if (c->lookups != (u32)t->lookups)
		die("%s: replayed %u lookups, the trace has %llu", t->name,
		    c->lookups, t->lookups);
	ar = 100.0 * c->hits / c->lookups;
	printf("replay %s: slots %u threshold %u reclaim=%s: ", t->name,
	       cfg->slots, threshold, avc_reclaim_name(cfg->reclaim));
	printf("lookups %u hits %u misses %u reclaims %u hit ratio %.3f %%\n",
	       c->lookups, c->hits, c->misses, c->reclaims, ar);
	if (!t->meta || !t->kernel_lookups)
		return;
	kr = 100.0 * t->kernel_hits / t->kernel_lookups;
	gap = ar - kr;
	if (cfg->slots == 512 && threshold == 512 &&
	    cfg->reclaim == AVC_RECLAIM_NEWEST) {
		printf("validation %s: avc_rcu %.3f %% vs kernel AVC %.3f %% ",
		       t->name, ar, kr);
		printf("(%llu of %llu lookups hit) over the window: ",
		       t->kernel_hits, t->kernel_lookups);
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

/* Parse "N[,N...]" into @v; returns how many. */
static unsigned int parse_list(const char *opt, const char *arg,
			       unsigned int *v, unsigned long min,
			       unsigned long max)
{
	char *copy = strdup(arg), *tok, *save = NULL, *end;
	unsigned int n = 0;
	unsigned long x;

	if (!copy)
		die("out of memory");
	for (tok = strtok_r(copy, ",", &save); tok;
	     tok = strtok_r(NULL, ",", &save)) {
		errno = 0;
		x = strtoul(tok, &end, 10);
		if (*tok < '0' || *tok > '9' || *end || errno || x < min ||
		    x > max)
			die("%s: not a number from %lu to %lu: %s", opt, min,
			    max, tok);
		if (n == MAX_LIST)
			die("%s: more than %d values", opt, MAX_LIST);
		v[n++] = x;
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
	fprintf(f, "usage: " PROG " [--slots N] [--threshold N[,N...]]\n");
	fprintf(f, "       [--reclaim P[,P...]] [--sync S] [--seed N] TRACE...\n");
}

int main(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "slots", required_argument, NULL, 'n' },
		{ "threshold", required_argument, NULL, 't' },
		{ "reclaim", required_argument, NULL, 'r' },
		{ "sync", required_argument, NULL, 's' },
		{ "seed", required_argument, NULL, 'S' },
		{ "help", no_argument, NULL, 'h' },
		{ }
	};
	struct avc_rcu_config cfg = {
		.slots = AVC_RCU_SLOTS_DEFAULT, .sync = AVC_SYNC_RCU,
		.hash_seed = 2004,
	};
	enum avc_reclaim_policy pols[MAX_LIST] = { AVC_RECLAIM_NEWEST };
	unsigned int thresholds[MAX_LIST] = { AVC_RCU_THRESHOLD_DEFAULT };
	unsigned int npols = 1, nthr = 1, slots, seed, i, p, k;
	unsigned long long total = 0, nreplays = 0;
	struct trace *traces;
	double t0, busy = 0;
	int opt, ntraces;
	bool list;

	while ((opt = getopt_long(argc, argv, "h", opts, NULL)) != -1) {
		switch (opt) {
		case 'n':
			if (strchr(optarg, ','))
				die("--slots: one value");
			parse_list("--slots", optarg, &slots,
				   AVC_RCU_SLOTS_MIN, AVC_RCU_SLOTS_MAX);
			if (!is_power_of_2(slots))
				die("--slots: a power of two from %u to %u",
				    AVC_RCU_SLOTS_MIN, AVC_RCU_SLOTS_MAX);
			cfg.slots = slots;
			break;
		case 't':
			nthr = parse_list("--threshold", optarg, thresholds,
					  AVC_RCU_THRESHOLD_MIN,
					  AVC_RCU_THRESHOLD_MAX);
			break;
		case 'r':
			npols = parse_policies(optarg, pols);
			break;
		case 's':
			if (avc_sync_parse(optarg, &cfg.sync))
				die("--sync: must be rcu, spinlock or rwlock");
			break;
		case 'S':
			if (strchr(optarg, ','))
				die("--seed: one value");
			parse_list("--seed", optarg, &seed, 0, UINT32_MAX);
			cfg.hash_seed = seed;
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
	/* A drawn seed is drawn once, for every replay of the run. */
	if (!cfg.hash_seed) {
		while (!cfg.hash_seed)
			cfg.hash_seed = avc_native_random_u32();
		fprintf(stderr, PROG ": hash seed %u (drawn at random)\n",
			cfg.hash_seed);
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
	list = npols * nthr > 1;
	t0 = now();
	for (i = 0; i < (unsigned int)ntraces; i++) {
		const struct trace *t = &traces[i];

		for (p = 0; p < npols; p++) {
			cfg.reclaim = pols[p];
			for (k = 0; k < nthr; k++) {
				struct counts c;

				replay(t, &cfg, thresholds[k], &c, &busy);
				nreplays++;
				total += t->lookups;
				report(t, &cfg, thresholds[k], &c, list);
			}
		}
		fflush(stdout);
	}
	avc_core_exit();
	avc_native_thread_exit();
	fprintf(stderr, PROG ": %llu replay%s (slots %u, sync=%s, hash seed %u): ",
		nreplays, nreplays == 1 ? "" : "s", cfg.slots,
		avc_sync_name(cfg.sync), cfg.hash_seed);
	fprintf(stderr, "%llu lookups in %.3f s, %.1f million a second; ",
		total, busy, busy > 0 ? total / busy / 1e6 : 0.0);
	fprintf(stderr, "%.3f s with each cache's set-up and teardown\n",
		now() - t0);
	for (i = 0; i < (unsigned int)ntraces; i++) {
		free(traces[i].data);
		free(traces[i].name);
	}
	free(traces);
	return 0;
}
