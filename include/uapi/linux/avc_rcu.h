/* SPDX-License-Identifier: GPL-2.0 WITH Linux-syscall-note */
/*
 * avc_rcu: layouts shared between the kernel module and userspace.
 *
 * Everything a program needs to find and parse the avcrcufs files lives
 * here: names, the exact formats and the limits the kernel enforces.  The
 * formats of avc/hash_stats, avc/cache_stats and access are selinuxfs's,
 * so tools written for /sys/fs/selinux/avc/ (libselinux's avcstat among
 * them) read those unchanged; avc/cache_threshold reads with a newline and
 * parses strictly, and load takes avc_rcu's own text policy
 * (Documentation/ABI/testing/avcrcufs says how each differs).
 */
#ifndef _UAPI_LINUX_AVC_RCU_H
#define _UAPI_LINUX_AVC_RCU_H

#define AVC_RCU_VERSION			"0.1.0"

/* The filesystem type and where the module makes room to mount it. */
#define AVC_RCU_FS_NAME			"avcrcufs"
#define AVC_RCU_FS_MAGIC		0x61766372	/* "avcr" */
#define AVC_RCU_MOUNT_POINT		"/sys/fs/avc_rcu"

/* File names, relative to the mount point. */
#define AVC_RCU_FILE_THRESHOLD		"avc/cache_threshold"
#define AVC_RCU_FILE_HASH_STATS		"avc/hash_stats"
#define AVC_RCU_FILE_CACHE_STATS	"avc/cache_stats"
#define AVC_RCU_FILE_LOAD		"load"
#define AVC_RCU_FILE_ACCESS		"access"
#define AVC_RCU_FILE_SEQNO		"seqno"

/*
 * avc/cache_stats: this header line, then one row per possible CPU.
 * Every counter is an unsigned 32-bit per-CPU value that wraps.
 */
#define AVC_RCU_CACHE_STATS_HEADER \
	"lookups hits misses allocations reclaims frees"
#define AVC_RCU_CACHE_STATS_ROW		"%u %u %u %u %u %u\n"
#define AVC_RCU_CACHE_STATS_FIELDS	6

/* avc/hash_stats, exactly. */
#define AVC_RCU_HASH_STATS_FMT \
	"entries: %d\nbuckets used: %d/%d\nlongest chain: %d\n"

/*
 * access: write "<ssid> <tsid> <tclass> <requested>", read back
 * "<allowed> <decided> <auditallow> <auditdeny> <seqno> <flags>".
 */
#define AVC_RCU_ACCESS_REPLY_FMT	"%x %x %x %x %u %x"

/*
 * avc/cache_threshold accepts 1..AVC_RCU_THRESHOLD_MAX: the most entries
 * the cache holds.
 */
#define AVC_RCU_THRESHOLD_DEFAULT	512
#define AVC_RCU_THRESHOLD_MIN		1
#define AVC_RCU_THRESHOLD_MAX		1048576

/*
 * The slots load parameter: 0 (the default: the table follows
 * cache_threshold, from 512 buckets to AVC_RCU_SLOTS_MAX) or a power of
 * two in this range.
 */
#define AVC_RCU_SLOTS_MIN		16
#define AVC_RCU_SLOTS_MAX		65536

/*
 * The largest policy text one open file of "load" may carry, all its
 * writes together.
 */
#define AVC_RCU_POLICY_MAX_BYTES	(64U << 20)

/* Bits of the decision's flags word. */
#define AVC_RCU_DECISION_PERMISSIVE	0x0001	/* as SELinux's AVD_FLAGS_PERMISSIVE */

#endif /* _UAPI_LINUX_AVC_RCU_H */
