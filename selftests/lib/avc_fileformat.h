/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Strict parsers of the avcrcufs file formats, for the avc_rcu selftests:
 * hash_stats, cache_stats, an access reply, one-number files, and the CPU
 * list of /sys/devices/system/cpu/possible.  Pure functions on text: no
 * I/O (avc_io.h reads the files and calls these).
 *
 * The parsers are deliberately strict (no sscanf): every byte of a file
 * must match the documented format, numbers carry no leading zeros, signs
 * or spaces that printf would not have produced.
 */
#ifndef AVC_FILEFORMAT_H
#define AVC_FILEFORMAT_H

#include <stddef.h>
#include <linux/types.h>

#include <linux/avc_rcu.h>

/*
 * The types here describe the files as userspace reads them; the kernel
 * core's struct avc_hash_stats and struct avc_cache_stats (avc/avc.h) have
 * other layouts, hence other names.
 */

#define TST_NR_STATS	AVC_RCU_CACHE_STATS_FIELDS

/* Columns of avc/cache_stats, in file order. */
enum tst_stat {
	TST_LOOKUPS,
	TST_HITS,
	TST_MISSES,
	TST_ALLOCATIONS,
	TST_RECLAIMS,
	TST_FREES,
};

/* avc/hash_stats, field by field. */
struct tst_hash_stats_file {
	long entries;
	long used;
	long slots;
	long longest;
};

/*
 * avc/cache_stats summed over its rows.  The per-CPU counters are 32 bits
 * and wrap, so sums and differences are taken modulo 2^32.
 */
struct tst_cache_stats_sum {
	unsigned int rows;
	__u32 sum[TST_NR_STATS];
};

/* One reply of the access file. */
struct tst_reply {
	__u32 allowed;
	__u32 decided;
	__u32 auditallow;
	__u32 auditdeny;
	__u32 seqno;
	__u32 flags;
};

/* Strict parsers: 0 or -EINVAL.  @len is the length of @text. */
int tst_parse_hash_stats(const char *text, size_t len,
			 struct tst_hash_stats_file *hs);
int tst_parse_cache_stats(const char *text, size_t len,
			  struct tst_cache_stats_sum *cs);
int tst_parse_reply(const char *text, size_t len, struct tst_reply *r);
/* "N\n", N a decimal u32 without leading zeros. */
int tst_parse_u32_line(const char *text, size_t len, __u32 *val);
/* A CPU list as in /sys/devices/system/cpu/possible: number of CPUs. */
int tst_parse_cpu_list(const char *text, size_t len, unsigned int *count);

/* b - a per column, modulo 2^32. */
__u32 tst_stat_delta(const struct tst_cache_stats_sum *a,
		     const struct tst_cache_stats_sum *b, enum tst_stat col);

#endif /* AVC_FILEFORMAT_H */
