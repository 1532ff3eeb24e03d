// SPDX-License-Identifier: GPL-2.0
/*
 * avc_replay_access - replay an AVC trace (avc_rcu_trace.h) through
 * avc_rcu's access file, end to end: the same path a userspace query
 * takes, one write(2) and one read(2) per lookup, where avc_rcu_replay.ko
 * calls the exported API in the kernel.
 *
 *   avc_replay_access [-m MOUNT] [-p POLICY] TRACE
 *
 * A lookup is a transaction on one open access file: "ssid tsid tclass
 * requested" written at offset 0, the decision read back and parsed
 * (six fields in selinuxfs's format).  A reset is a policy load (POLICY's
 * text, default a policy with no rule, written to MOUNT/load and closed):
 * in avc_rcu, as in SELinux, that empties the cache.  The default text is
 * a blank line, not nothing: an open of load with nothing written to it
 * loads nothing.  An update changes
 * nothing (the kernel's entry stays cached).  On success it prints
 *
 *   records=N lookups=L resets=R updates=U
 *
 * and the cache's own counters (avc/cache_stats) give the hits, misses
 * and reclaims, to be compared with a replay through the module.  A trace
 * with a bad header, a record out of sequence or of an unknown kind, a
 * size that does not match its header, and any failed transaction end it
 * with one line on stderr and exit status 1.  MOUNT defaults to
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

#include <linux/avc_rcu_trace.h>

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
	char *policy = NULL, *trace, path[4096], q[128], ans[128];
	const struct avc_trace_record *rec;
	struct avc_trace_header hdr;
	size_t policy_len = 0, len;
	unsigned int f[6];
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

	trace = slurp(argv[optind], &len);
	if (len < sizeof(hdr))
		die("%s: bad header: %zu bytes, shorter than a header",
		    argv[optind], len);
	memcpy(&hdr, trace, sizeof(hdr));
	if (memcmp(hdr.magic, AVC_TRACE_MAGIC, sizeof(hdr.magic)) ||
	    le32toh(hdr.version) != AVC_TRACE_VERSION ||
	    le32toh(hdr.record_size) != sizeof(*rec) || hdr.flags ||
	    hdr.reserved)
		die("%s: bad header (magic, version %u, record size %u, flags)",
		    argv[optind], le32toh(hdr.version),
		    le32toh(hdr.record_size));
	n = le64toh(hdr.nrecords);
	if ((len - sizeof(hdr)) / sizeof(*rec) != n ||
	    (len - sizeof(hdr)) % sizeof(*rec))
		die("%s: trace truncated or too long: %zu bytes of records for %llu records",
		    argv[optind], len - sizeof(hdr), n);

	snprintf(path, sizeof(path), "%s/access", mnt);
	fd = open(path, O_RDWR);
	if (fd < 0)
		die("%s: %s", path, strerror(errno));
	rec = (const struct avc_trace_record *)(trace + sizeof(hdr));
	for (; records < n; records++, rec++) {
		if (le32toh(rec->seq) != (uint32_t)records)
			die("record %llu: seq %u, expected %u (events lost?)",
			    records, le32toh(rec->seq), (uint32_t)records);
		switch (rec->kind) {
		case AVC_TRACE_LOOKUP:
			qlen = snprintf(q, sizeof(q), "%u %u %u %u",
					le32toh(rec->ssid), le32toh(rec->tsid),
					le16toh(rec->tclass),
					le32toh(rec->requested));
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
			if (policy)
				load_policy(mnt, policy, policy_len);
			else
				load_policy(mnt, "\n", 1);
			resets++;
			break;
		case AVC_TRACE_UPDATE:
			updates++;
			break;
		default:
			die("record %llu: unknown kind %u", records,
			    rec->kind);
		}
	}
	if (close(fd))
		die("%s: close: %s", path, strerror(errno));
	printf("records=%llu lookups=%llu resets=%llu updates=%llu\n",
	       records, lookups, resets, updates);
	free(trace);
	free(policy);
	return 0;
}
