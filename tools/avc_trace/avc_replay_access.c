// SPDX-License-Identifier: GPL-2.0
/*
 * avc_replay_access - replay an AVC trace (avc_trace_format.h) through
 * avc_rcu's access file, end to end: the same path a userspace query
 * takes, one write(2) and one read(2) per lookup, where avc_rcu_replay.ko
 * calls the exported API in the kernel.
 *
 *   avc_replay_access [-m MOUNT] [-p POLICY] TRACE
 *
 * A lookup is a transaction on one open access file: "ssid tsid tclass
 * requested" written at offset 0, the decision read back and parsed
 * (six fields in selinuxfs's format).  A reset is a policy load, which in
 * avc_rcu, as in SELinux, empties the cache.  An update changes nothing
 * (the kernel's entry stays cached).
 *
 * The policy.  A version 2 trace carries the kernel's decisions: then
 * the policy of each stretch between resets is built from them
 * (trace_oracle.c), loaded before the first record and at each reset,
 * and every answer is checked against the kernel's, which must agree on
 * every lookup.  With -p, or a version 1 trace, POLICY's text (default a
 * policy with no rule: a blank line, since an open of load with nothing
 * written to it loads nothing) is loaded at each reset and the answers
 * are not checked.  On success it prints
 *
 *   records=N lookups=L resets=R updates=U
 *   oracle: checked C, matched M, mismatched X, without a decision U,
 *           with the kernel's grants G, enforcing denials D, stretches S,
 *           computed decisions that changed in a stretch I,
 *           decided under a neighbouring stretch's policy R
 *
 * and the cache's own counters (avc/cache_stats) give the hits, misses
 * and reclaims, to be compared with a replay through the module.  The
 * trace is read by tools/avcstat/avc_trace_read.c, as the native replay
 * and avc-advise read it: a bad header, a record out of sequence or of an
 * unknown kind, or a size that does not match its header is refused
 * before anything is loaded.  That, and any failed transaction, end the
 * replay with one line on stderr and exit status 1.  MOUNT defaults to
 * /sys/fs/avc_rcu.
 */
#define _GNU_SOURCE
#include <endian.h>
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "../avcstat/avc_trace_format.h"
#include "../avcstat/avc_trace_read.h"
#include "trace_oracle.h"

#define PROG	"avc_replay_access"

static void die(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	fprintf(stderr, PROG ": ");
	vfprintf(stderr, fmt, ap);
	fputc('\n', stderr);
	va_end(ap);
	exit(1);
}

/* The whole of @path, NUL-terminated; *len its length. */
static char *slurp(const char *path, size_t *len)
{
	FILE *f = fopen(path, "rb");
	char *buf = NULL;
	size_t cap = 0, n = 0, got;

	if (!f)
		die("%s: %s", path, strerror(errno));
	do {
		if (cap - n < 65536) {
			cap = cap ? 2 * cap : 1 << 20;
			buf = realloc(buf, cap + 1);
			if (!buf)
				die("%s: out of memory", path);
		}
		got = fread(buf + n, 1, cap - n, f);
		n += got;
	} while (got);
	if (ferror(f))
		die("%s: read error", path);
	fclose(f);
	buf[n] = '\0';
	*len = n;
	return buf;
}

/* Load @policy (@len bytes) through MOUNT/load: the cache is reset. */
static void load_policy(const char *mnt, const char *policy, size_t len)
{
	char path[4096];
	int fd;

	snprintf(path, sizeof(path), "%s/load", mnt);
	fd = open(path, O_WRONLY | O_TRUNC);
	if (fd < 0)
		die("%s: %s", path, strerror(errno));
	if (write(fd, policy, len) != (ssize_t)len)
		die("%s: write: %s", path, strerror(errno));
	if (close(fd))
		die("%s: the load failed: %s", path, strerror(errno));
}

int main(int argc, char **argv)
{
	const char *mnt = "/sys/fs/avc_rcu", *policy_file = NULL;
	unsigned long long records = 0, lookups = 0, resets = 0, updates = 0, n;
	char *policy = NULL, path[4096], q[128], ans[128], why[512];
	struct avc_trace_reader r = { .xz_hint = "decompress it first" };
	struct trace_oracle *oracle = NULL;
	struct trace_oracle_stats st;
	size_t policy_len = 0, size, plen;
	unsigned int f[6], stretch = 0;
	const unsigned char *recs;
	struct avc_trace_event ev;
	const char *ptext;
	int opt, fd, qlen;
	ssize_t got;

	while ((opt = getopt(argc, argv, "m:p:")) != -1) {
		switch (opt) {
		case 'm':
			mnt = optarg;
			break;
		case 'p':
			policy_file = optarg;
			break;
		default:
			fprintf(stderr,
				"usage: " PROG " [-m MOUNT] [-p POLICY] TRACE\n");
			return 2;
		}
	}
	if (optind != argc - 1) {
		fprintf(stderr, "usage: " PROG " [-m MOUNT] [-p POLICY] TRACE\n");
		return 2;
	}
	if (policy_file)
		policy = slurp(policy_file, &policy_len);

	/*
	 * The header, the size and every record's sequence and kind are
	 * checked (avc_trace_read.c) before anything is loaded.
	 */
	if (avc_trace_load(&r, argv[optind]))
		die("%s: %s", argv[optind], r.error);
	n = r.nrecords;
	size = r.recsize;
	recs = avc_trace_records(&r);

	if (!policy && r.version == AVC_TRACE_VERSION) {
		oracle = trace_oracle_new(recs, n, why, sizeof(why));
		if (!oracle)
			die("%s: no oracle: %s", argv[optind], why);
		ptext = trace_oracle_policy(oracle, 0, &plen);
		load_policy(mnt, ptext, plen);
	}

	snprintf(path, sizeof(path), "%s/access", mnt);
	fd = open(path, O_RDWR);
	if (fd < 0)
		die("%s: %s", path, strerror(errno));
	for (records = 0; records < n; records++) {
		avc_trace_event(&r, recs + records * size, &ev);
		memset(f, 0, sizeof(f));
		switch (ev.kind) {
		case AVC_TRACE_LOOKUP:
			qlen = snprintf(q, sizeof(q), "%u %u %u %u", ev.ssid,
					ev.tsid, ev.tclass, ev.requested);
			if (pwrite(fd, q, qlen, 0) != qlen)
				die("record %llu: write \"%s\": %s",
				    records, q, strerror(errno));
			got = pread(fd, ans, sizeof(ans) - 1, 0);
			if (got <= 0)
				die("record %llu: read: %s", records,
				    got ? strerror(errno) : "no answer");
			ans[got] = '\0';
			if (sscanf(ans, "%x %x %x %x %u %x", &f[0], &f[1],
				   &f[2], &f[3], &f[4], &f[5]) != 6)
				die("record %llu: answer \"%s\" is not a decision",
				    records, ans);
			lookups++;
			break;
		case AVC_TRACE_RESET:
			if (oracle) {
				ptext = trace_oracle_policy(oracle, ++stretch,
							    &plen);
				load_policy(mnt, ptext, plen);
			} else if (policy) {
				load_policy(mnt, policy, policy_len);
			} else {
				load_policy(mnt, "\n", 1);
			}
			resets++;
			break;
		default:
			updates++;
			break;
		}
		if (oracle &&
		    trace_oracle_step(oracle, records, f[0], f[2], f[3], f[5],
				      f[4], why, sizeof(why)) && why[0])
			fprintf(stderr, PROG ": mismatch: %s\n", why);
	}
	if (close(fd))
		die("%s: close: %s", path, strerror(errno));
	printf("records=%llu lookups=%llu resets=%llu updates=%llu\n",
	       records, lookups, resets, updates);
	if (oracle) {
		trace_oracle_stats(oracle, &st);
		printf("oracle: checked %llu, matched %llu, mismatched %llu, ",
		       (unsigned long long)st.checked,
		       (unsigned long long)st.matched,
		       (unsigned long long)st.mismatched);
		printf("without a decision %llu, with the kernel's grants %llu, ",
		       (unsigned long long)st.undecided,
		       (unsigned long long)st.granted);
		printf("enforcing denials %llu, stretches %u, ",
		       (unsigned long long)st.denials,
		       trace_oracle_stretches(oracle));
		printf("computed decisions that changed in a stretch %llu, ",
		       (unsigned long long)st.inconsistent);
		printf("decided under a neighbouring stretch's policy %llu\n",
		       (unsigned long long)st.raced);
		trace_oracle_free(oracle);
		if (st.mismatched)
			die("%llu answers differ from the kernel's",
			    (unsigned long long)st.mismatched);
	}
	avc_trace_close(&r);
	free(policy);
	return 0;
}
