/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Helpers shared by the avc_rcu selftests: file access below the mount
 * point, strict parsers for every avcrcufs file format, access queries,
 * policy loads, an independent model of the policy semantics, a PRNG and
 * capability handling without libcap.
 *
 * The parsers are deliberately strict (no sscanf): every byte of a file
 * must match the documented format, numbers carry no leading zeros, signs
 * or spaces that printf would not have produced.
 */
#ifndef AVC_UTIL_H
#define AVC_UTIL_H

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <linux/types.h>
#include <sys/types.h>

#include <linux/avc_rcu.h>

#include "avc_oracle.h"

#define AVC_NR_STATS	AVC_RCU_CACHE_STATS_FIELDS
#define ARRAY_LEN(a)	(sizeof(a) / sizeof((a)[0]))
#ifndef __printf
#define __printf(a, b)	__attribute((format(printf, a, b)))
#endif

/* Columns of avc/cache_stats, in file order. */
enum avc_stat {
	AVC_LOOKUPS,
	AVC_HITS,
	AVC_MISSES,
	AVC_ALLOCATIONS,
	AVC_RECLAIMS,
	AVC_FREES,
};

struct avc_hash_stats {
	long entries;
	long used;
	long slots;
	long longest;
};

/*
 * avc/cache_stats summed over its rows.  The per-CPU counters are 32 bits
 * and wrap, so sums and differences are taken modulo 2^32.
 */
struct avc_cache_stats {
	unsigned int rows;
	__u32 sum[AVC_NR_STATS];
};

/* One reply of the access file. */
struct avc_reply {
	__u32 allowed;
	__u32 decided;
	__u32 auditallow;
	__u32 auditdeny;
	__u32 seqno;
	__u32 flags;
};

/* struct avc_decision, a decision without its seqno: avc_oracle.h. */

/* The mount point: $AVC_RCU_MNT, else AVC_RCU_MOUNT_POINT. */
const char *avc_mnt(void);
/* Absolute path of a file below the mount point (per-thread buffer). */
const char *avc_path(const char *rel);
/*
 * 0 if an avcrcufs is mounted at avc_mnt(), else -errno (-ENODEV).
 * $AVC_RCU_FSTYPE overrides the type expected in /proc/self/mounts (for
 * a stand-in filesystem when developing the tests).
 */
int avc_check_mounted(void);
/* Text for a test log explaining why avc_check_mounted() failed. */
const char *avc_mount_error(int err);

/*
 * Read a whole file into a malloc'ed, NUL terminated buffer.  Returns the
 * length or -errno; *out is set only on success.
 */
ssize_t avc_read_all(const char *path, char **out);
/* Same for a file below the mount point. */
ssize_t avc_read_rel(const char *rel, char **out);
/*
 * One pread(2) at offset 0 of a file below the mount point, NUL
 * terminated: its length or -errno.  What one read of a reader such as
 * cat sees, with no second read that could meet a re-rendered text.
 */
ssize_t avc_read_once(const char *rel, char *buf, size_t size);
/*
 * One write(2) (pwrite(2) if off >= 0) of len bytes to a file below the
 * mount point.  Returns 0 if all was written, -errno on error, -EIO on a
 * short write.
 */
int avc_write_rel(const char *rel, const void *buf, size_t len, off_t off);

/* Strict parsers: 0 or -EINVAL.  @len is the length of @text. */
int avc_parse_hash_stats(const char *text, size_t len,
			 struct avc_hash_stats *hs);
int avc_parse_cache_stats(const char *text, size_t len,
			  struct avc_cache_stats *cs);
int avc_parse_reply(const char *text, size_t len, struct avc_reply *r);
/* "N\n", N a decimal u32 without leading zeros. */
int avc_parse_u32_line(const char *text, size_t len, __u32 *val);
/* A CPU list as in /sys/devices/system/cpu/possible: number of CPUs. */
int avc_parse_cpu_list(const char *text, size_t len, unsigned int *count);

int avc_read_hash_stats(struct avc_hash_stats *hs);
int avc_read_cache_stats(struct avc_cache_stats *cs);
int avc_read_seqno(__u32 *seqno);
int avc_read_threshold(__u32 *val);
/* Writes the decimal value with a trailing newline. */
int avc_write_threshold(__u32 val);
/* Number of possible CPUs, or -errno. */
int avc_possible_cpus(unsigned int *count);

/* b - a per column, modulo 2^32. */
__u32 avc_stat_delta(const struct avc_cache_stats *a,
		     const struct avc_cache_stats *b, enum avc_stat col);

/*
 * An access query: opens the access file, writes the request text, reads
 * the reply on the same fd, closes.  0 or -errno (of the failing call);
 * -EBADMSG if the reply does not parse.
 */
int avc_access(__u32 ssid, __u32 tsid, __u32 tclass,
	       __u32 requested, struct avc_reply *r);
int avc_access_raw(const void *req, size_t len, struct avc_reply *r);
/* The raw text of this thread's last access reply. */
const char *avc_last_reply_text(void);

/* One write(2) of the whole policy text to load: 0 or -errno. */
int avc_load_policy(const char *text, size_t len);

/*
 * Poll until allocations - frees == hash_stats entries, twice in a row,
 * or timeout_ms passes.  0 with the last stats, -ETIMEDOUT (stats still
 * filled in), or -errno.
 */
int avc_wait_quiescent(int timeout_ms, struct avc_hash_stats *hs,
		       struct avc_cache_stats *cs);

/* Clear a capability from the effective set (raw capget/capset). */
int avc_drop_effective_cap(unsigned int cap);
/* Put it back (it must still be in the permitted set). */
int avc_raise_effective_cap(unsigned int cap);

/*
 * The kernel log: avc_kmsg_open() opens /dev/kmsg positioned after the
 * last record (-errno if it cannot); avc_kmsg_grep() reads the records
 * logged since and returns 1 if one contains @needle (copied to @found),
 * 0 if none, -errno on error.
 */
int avc_kmsg_open(void);
int avc_kmsg_grep(int fd, const char *needle, char *found, size_t size);

/* Milliseconds on CLOCK_MONOTONIC. */
__u64 avc_now_ms(void);
/* A TAP diagnostic on stdout ("# ..."), flushed at once. */
__printf(1, 2) void avc_diag(const char *fmt, ...);
/* $name as a positive integer, else def. */
long avc_env_long(const char *name, long def);
/* Seed for the PRNGs: $AVC_SEED, else derived from the clock. */
__u64 avc_seed(void);

/* splitmix64, a small PRNG with a 64-bit state. */
__u64 avc_rand(__u64 *state);
/* Uniform in [lo, hi]. */
__u32 avc_rand_range(__u64 *state, __u32 lo, __u32 hi);
/* avc_mix(), a well-mixed function for oracles: avc_oracle.h. */

/* A growable text buffer. */
struct avc_buf {
	char *data;
	size_t len;
	size_t cap;
};

__printf(2, 3) void avc_buf_printf(struct avc_buf *b, const char *fmt, ...);
void avc_buf_free(struct avc_buf *b);

/*
 * The policy model: a list of rules and the decision they define,
 * computed by a linear scan, independently of the kernel's code.
 */
enum avc_rule_kind {
	AVC_RULE_ALLOW,
	AVC_RULE_AUDITALLOW,
	AVC_RULE_DONTAUDIT,
	AVC_RULE_PERMISSIVE,
};

struct avc_rule {
	enum avc_rule_kind kind;
	__u32 ssid;
	__u32 tsid;
	__u32 tclass;
	__u32 perms;
};

struct avc_policy {
	struct avc_rule *rules;
	size_t nr;
	size_t cap;
};

void avc_policy_add(struct avc_policy *p, enum avc_rule_kind kind,
		    __u32 ssid, __u32 tsid, __u32 tclass,
		    __u32 perms);
void avc_policy_free(struct avc_policy *p);
void avc_policy_decide(const struct avc_policy *p, __u32 ssid,
		       __u32 tsid, __u32 tclass,
		       struct avc_decision *d);
/*
 * Render the rules as policy text.  With a PRNG state, the text varies
 * its form (decimal or hex numbers, spaces or tabs, comments, blank
 * lines); with NULL it is plain.
 */
void avc_policy_render(const struct avc_policy *p, __u64 *rng,
		       struct avc_buf *out);

/*
 * The text of the policy for seqno q of an oracle's family (avc_oracle.h),
 * written from the family's description independently of
 * avc_oracle_expected(): replaces the contents of @out.
 */
void avc_oracle_policy_text(const struct avc_oracle *o, __u32 q,
			    struct avc_buf *out);

/* Compare a reply with an expected decision and seqno; 0 if equal. */
int avc_reply_matches(const struct avc_reply *r, const struct avc_decision *d,
		      __u32 seqno);
/* "allowed=.. decided=.. ..." for failure messages (static buffer). */
const char *avc_reply_str(const struct avc_reply *r);
const char *avc_decision_str(const struct avc_decision *d);

#endif /* AVC_UTIL_H */
