/* SPDX-License-Identifier: GPL-2.0 */
/*
 * File access below the avcrcufs mount point and process helpers for the
 * avc_rcu selftests: whole-file reads and one-call writes, the statistics,
 * seqno and threshold files read and parsed (avc_fileformat.h), access
 * queries, policy loads, the kernel log, capabilities without libcap, time,
 * environment, PRNG seed and a growable text buffer.
 */
#ifndef AVC_IO_H
#define AVC_IO_H

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <linux/types.h>
#include <sys/types.h>

#include <linux/avc_rcu.h>

#include "avc_fileformat.h"
#include "avc_oracle.h"

#define ARRAY_LEN(a)	(sizeof(a) / sizeof((a)[0]))
#ifndef __printf
#define __printf(a, b)	__attribute((format(printf, a, b)))
#endif

/*
 * The module of this program: lib/module.sh, beside the program, loads it
 * (exits 4, a kselftest skip, when it cannot; 1 when loading fails), and
 * unloads it when the program exits (exit status 1 if that fails).
 */
void tst_module_setup(void);
/*
 * A parameter of the loaded module, /sys/module/avc_rcu/parameters/NAME,
 * into buf without its newline: 0 or -errno.
 */
int tst_module_param(const char *name, char *buf, size_t size);
/*
 * Whether the module reclaims in the background (reclaimer=background,
 * the default): 1, 0 (inline), or -errno.
 */
int tst_reclaimer_background(void);
/*
 * The buckets the table should have at threshold thr: the slots
 * parameter, or (slots=0) thr's power of two from 512 to 65536; -errno.
 */
long tst_expected_slots(__u32 thr);
/*
 * 1 if this program loaded the module itself (so it is as fresh as a
 * load leaves it), 0 under AVC_RCU_LOADED=1 (a module set up before).
 */
int tst_module_fresh(void);

/* The mount point: $AVC_RCU_MNT, else AVC_RCU_MOUNT_POINT. */
const char *tst_mnt(void);
/* Absolute path of a file below the mount point (per-thread buffer). */
const char *tst_path(const char *rel);
/*
 * 0 if an avcrcufs is mounted at tst_mnt(), else -errno (-ENODEV).
 * $AVC_RCU_FSTYPE overrides the type expected in /proc/self/mounts (for
 * a stand-in filesystem when developing the tests).
 */
int tst_check_mounted(void);
/* Text for a test log explaining why tst_check_mounted() failed. */
const char *tst_mount_error(int err);

/*
 * Read a whole file into a malloc'ed, NUL terminated buffer.  Returns the
 * length or -errno; *out is set only on success.
 */
ssize_t tst_read_all(const char *path, char **out);
/* Same for a file below the mount point. */
ssize_t tst_read_rel(const char *rel, char **out);
/*
 * One pread(2) at offset 0 of a file below the mount point, NUL
 * terminated: its length or -errno.  What one read of a reader such as
 * cat sees, with no second read that could meet a re-rendered text.
 */
ssize_t tst_read_once(const char *rel, char *buf, size_t size);
/*
 * One write(2) (pwrite(2) if off >= 0) of len bytes to a file below the
 * mount point, then close(2).  Returns 0 if all was written and the close
 * succeeded, -errno of the first that failed, -EIO on a short write.
 */
int tst_write_rel(const char *rel, const void *buf, size_t len, off_t off);

int tst_read_hash_stats(struct tst_hash_stats_file *hs);
int tst_read_cache_stats(struct tst_cache_stats_sum *cs);
int tst_read_seqno(__u32 *seqno);
int tst_read_threshold(__u32 *val);
/* Writes the decimal value with a trailing newline. */
int tst_write_threshold(__u32 val);
/* Number of possible CPUs, or -errno. */
int tst_possible_cpus(unsigned int *count);

/*
 * An access query: opens the access file, writes the request text, reads
 * the reply on the same fd, closes.  0 or -errno (of the failing call);
 * -EBADMSG if the reply does not parse.
 */
int tst_access(__u32 ssid, __u32 tsid, __u32 tclass,
	       __u32 requested, struct tst_reply *r);
int tst_access_raw(const void *req, size_t len, struct tst_reply *r);
/* The raw text of this thread's last access reply. */
const char *tst_last_reply_text(void);

/*
 * One write(2) of the whole policy text to load, then close(2), which
 * loads it: 0 or -errno of the write, else of the close.
 */
int tst_load_policy(const char *text, size_t len);
/*
 * The policy text written to load by several write(2) calls on one open
 * file, the i-th of chunks[i % nchunks] bytes (the rest if less; one write
 * if nchunks is 0), then closed.  0 or -errno of the first call that
 * failed; *at is then the number of the write (from 1), 0 for the close,
 * -1 for the open.
 */
int tst_load_chunks(const char *text, size_t len, const size_t *chunks,
		    size_t nchunks, int *at);

/*
 * Poll until allocations - frees == hash_stats entries, twice in a row,
 * or timeout_ms passes.  0 with the last stats, -ETIMEDOUT (stats still
 * filled in), or -errno.
 */
int tst_wait_quiescent(int timeout_ms, struct tst_hash_stats_file *hs,
		       struct tst_cache_stats_sum *cs);

/* Clear a capability from the effective set (raw capget/capset). */
int tst_drop_effective_cap(unsigned int cap);
/* Put it back (it must still be in the permitted set). */
int tst_raise_effective_cap(unsigned int cap);

/*
 * The kernel log: tst_kmsg_open() opens /dev/kmsg positioned after the
 * last record (-errno if it cannot); tst_kmsg_grep() reads the records
 * logged since and returns 1 if one contains @needle (copied to @found),
 * 0 if none, -errno on error.
 */
int tst_kmsg_open(void);
int tst_kmsg_grep(int fd, const char *needle, char *found, size_t size);
/* The records read from fd on, until none is left, that hold needle. */
int tst_kmsg_count(int fd, const char *needle);

/*
 * Memory cgroups (v2), for the tests of memory limits.  tst_memcg_create()
 * mounts cgroup2 at /sys/fs/cgroup if nothing is mounted there, enables
 * the memory controller for the root's children, makes the child @name
 * with memory.max @max bytes (0: no limit) and stores its path in @path:
 * 0, -EOPNOTSUPP without cgroup2 or its memory controller, or -errno.
 * tst_memcg_enter() moves the calling process into it; tst_memcg_read()
 * reads a one-number file of it (memory.current, memory.peak) or, with
 * @key, the value of @key in a flat-keyed one (memory.events): the value
 * or -errno; tst_memcg_remove() removes it (it must hold no process).
 */
int tst_memcg_create(const char *name, long long max, char *path,
		     size_t size);
int tst_memcg_enter(const char *path);
long long tst_memcg_read(const char *path, const char *file, const char *key);
int tst_memcg_remove(const char *path);

/*
 * Bytes of vmalloc'ed memory that /proc/vmallocinfo attributes to a caller
 * in module @module (the "[module]" after the caller), or -errno.
 */
long long tst_vmalloc_bytes(const char *module);

/* The first line of a file, without its newline: 0 or -errno. */
int tst_read_line(const char *path, char *buf, size_t size);
/* Write @s to a file (a sysctl, a debugfs knob) in one write: 0 or -errno. */
int tst_write_str(const char *path, const char *s);

/* Milliseconds on CLOCK_MONOTONIC. */
__u64 tst_now_ms(void);
/* A TAP diagnostic on stdout ("# ..."), flushed at once. */
__printf(1, 2) void tst_diag(const char *fmt, ...);
/* $name as a positive integer, else def. */
long tst_env_long(const char *name, long def);
/* Seed for the PRNGs: $AVC_SEED, else derived from the clock. */
__u64 tst_seed(void);

/* splitmix64, a small PRNG with a 64-bit state. */
__u64 tst_rand(__u64 *state);
/*
 * tst_rand_range(), a number in [lo, hi] from the same PRNG, and tst_mix(),
 * a well-mixed function for oracles: avc_oracle.h.
 */

/* A growable text buffer. */
struct tst_buf {
	char *data;
	size_t len;
	size_t cap;
};

__printf(2, 3) void tst_buf_printf(struct tst_buf *b, const char *fmt, ...);
void tst_buf_free(struct tst_buf *b);

#endif /* AVC_IO_H */
