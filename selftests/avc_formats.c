// SPDX-License-Identifier: GPL-2.0
/*
 * avc_rcu file formats, checked by strict parsers (no regex, no sscanf):
 * hash_stats (slots as loaded), cache_stats (one row per possible CPU),
 * cache_threshold and seqno; modes, inode numbers and filesystem magic;
 * re-reads after lseek, 1-byte and odd-sized reads, pread at every offset.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/vfs.h>
#include <unistd.h>

#include "kselftest_harness.h"
#include "avc_test.h"

static const char * const readable[] = {
	AVC_RCU_FILE_HASH_STATS,
	AVC_RCU_FILE_CACHE_STATS,
	AVC_RCU_FILE_THRESHOLD,
	AVC_RCU_FILE_SEQNO,
};

FIXTURE(fmt) {
	int unused;
};

/* Some entries in the cache, then idle. */
FIXTURE_SETUP(fmt)
{
	static const char text[] = "allow 1 2 3 0x7\nallow 2 2 3 0x1\n";
	struct tst_cache_stats_sum cs;
	struct tst_hash_stats_file hs;
	struct tst_reply r;
	__u32 i;

	TST_ASSERT_MOUNTED();
	TST_OK(tst_load_policy(text, sizeof(text) - 1));
	for (i = 0; i < 100; i++)
		TST_QUERY(i % 50 + 1, 2, 3, 0, &r);
	TST_QUIESCE(TST_QUIESCE_MS, &hs, &cs);
}

FIXTURE_TEARDOWN(fmt)
{
}

TEST_F(fmt, modes_and_magic)
{
	static const struct {
		const char *name;
		mode_t mode;
	} files[] = {
		{ "avc", S_IFDIR | 0555 },
		{ AVC_RCU_FILE_THRESHOLD, S_IFREG | 0644 },
		{ AVC_RCU_FILE_HASH_STATS, S_IFREG | 0444 },
		{ AVC_RCU_FILE_CACHE_STATS, S_IFREG | 0444 },
		{ AVC_RCU_FILE_LOAD, S_IFREG | 0600 },
		{ AVC_RCU_FILE_ACCESS, S_IFREG | 0666 },
		{ AVC_RCU_FILE_SEQNO, S_IFREG | 0444 },
	};
	ino_t ino[ARRAY_LEN(files) + 1];
	struct statfs sfs;
	struct stat st;
	size_t i, j;

	ASSERT_EQ(0, statfs(tst_mnt(), &sfs));
	EXPECT_EQ(AVC_RCU_FS_MAGIC, (unsigned long)sfs.f_type);
	ASSERT_EQ(0, stat(tst_mnt(), &st));
	ino[ARRAY_LEN(files)] = st.st_ino;
	for (i = 0; i < ARRAY_LEN(files); i++) {
		ASSERT_EQ(0, stat(tst_path(files[i].name), &st))
			TH_LOG("%s: %s", files[i].name, strerror(errno));
		/*
		 * Each file its own inode number: tar, cp -a and du take
		 * files of one device and inode for hard links of each other.
		 */
		ino[i] = st.st_ino;
		for (j = 0; j < i; j++)
			EXPECT_NE(ino[j], st.st_ino)
				TH_LOG("%s has the inode number of %s (%lu)",
				       files[i].name, files[j].name,
				       (unsigned long)st.st_ino);
		EXPECT_NE(ino[ARRAY_LEN(files)], st.st_ino)
			TH_LOG("%s has the root's inode number", files[i].name);
		/* Directories: only that it is one. */
		if (S_ISDIR(files[i].mode)) {
			EXPECT_TRUE(S_ISDIR(st.st_mode));
			continue;
		}
		EXPECT_EQ(files[i].mode, st.st_mode)
			TH_LOG("%s: mode 0%o, expected 0%o", files[i].name,
			       st.st_mode, files[i].mode);
		EXPECT_EQ(0, st.st_uid);
	}
}

TEST_F(fmt, hash_stats)
{
	struct tst_hash_stats_file hs;
	char *text, slots[32];
	ssize_t len;
	__u32 thr;

	len = tst_read_rel(AVC_RCU_FILE_HASH_STATS, &text);
	ASSERT_LT(0, len);
	ASSERT_EQ(0, tst_parse_hash_stats(text, (size_t)len, &hs))
		TH_LOG("hash_stats does not match the format:\n%s", text);
	free(text);
	ASSERT_EQ(0, tst_module_param("slots", slots, sizeof(slots)));
	ASSERT_EQ(0, tst_read_threshold(&thr));
	EXPECT_EQ(tst_expected_slots(thr), hs.slots)
		TH_LOG("the module was loaded with slots=%s, threshold %u",
		       slots, thr);
	EXPECT_LE(AVC_RCU_SLOTS_MIN, hs.slots);
	EXPECT_GE(AVC_RCU_SLOTS_MAX, hs.slots);
	EXPECT_EQ(0, hs.slots & (hs.slots - 1));
	/* The 50 keys queried in setup are cached (threshold >= 50). */
	EXPECT_LE(50, hs.entries);
	EXPECT_LE(0, hs.used);
	EXPECT_LE(0, hs.longest);
	EXPECT_GE(hs.slots, hs.used);
	EXPECT_GE(hs.entries, hs.used);
	EXPECT_GE(hs.entries, hs.longest);
	EXPECT_EQ(hs.entries == 0, hs.used == 0);
	EXPECT_EQ(hs.entries == 0, hs.longest == 0);
	/* The longest chain is at least the average one. */
	EXPECT_LE(hs.entries, hs.longest * hs.used);
	/* The entries are in used buckets: at most longest per bucket. */
	EXPECT_GE(hs.entries, hs.used + hs.longest - 1);
}

TEST_F(fmt, cache_stats)
{
	struct tst_cache_stats_sum cs;
	unsigned int cpus;
	char *text, *row;
	ssize_t len;

	TST_OK(tst_possible_cpus(&cpus));
	len = tst_read_rel(AVC_RCU_FILE_CACHE_STATS, &text);
	ASSERT_LT(0, len);
	ASSERT_EQ(0, tst_parse_cache_stats(text, (size_t)len, &cs))
		TH_LOG("cache_stats does not match the format:\n%s", text);
	EXPECT_EQ(cpus, cs.rows);
	/* The header, as libselinux's avcstat expects it. */
	row = strchr(text, '\n');
	ASSERT_NE(NULL, row);
	*row = '\0';
	EXPECT_STREQ("lookups hits misses allocations reclaims frees", text);
	free(text);
	tst_diag("cache_stats: %u rows for %u possible CPUs, %zd bytes",
		 cs.rows, cpus, len);
	EXPECT_EQ(cs.sum[TST_LOOKUPS],
		  (__u32)(cs.sum[TST_HITS] + cs.sum[TST_MISSES]));
	EXPECT_LE(100, cs.sum[TST_LOOKUPS]);
}

TEST_F(fmt, threshold_and_seqno)
{
	static const char * const files[] = {
		AVC_RCU_FILE_THRESHOLD, AVC_RCU_FILE_SEQNO,
	};
	size_t i;

	for (i = 0; i < ARRAY_LEN(files); i++) {
		__u32 v;
		char *text;
		ssize_t len = tst_read_rel(files[i], &text);

		ASSERT_LT(0, len);
		EXPECT_EQ(0, tst_parse_u32_line(text, (size_t)len, &v))
			TH_LOG("%s reads '%s', not \"N\\n\"", files[i], text);
		free(text);
	}
}

/* Read an open fd to its end with reads of chunk bytes. */
static ssize_t read_chunks(int fd, char *buf, size_t size, size_t chunk)
{
	size_t got = 0;
	ssize_t n;

	for (;;) {
		size_t want = chunk < size - got ? chunk : size - got;

		if (!want)
			return -ENOSPC;
		n = read(fd, buf + got, want);
		if (n < 0)
			return -errno;
		if (n == 0)
			return (ssize_t)got;
		if ((size_t)n > want)
			return -EIO;
		got += (size_t)n;
	}
}

#define BIG	(1024 * 1024)

TEST_F(fmt, lseek_and_reread)
{
	char *a = malloc(BIG), *b = malloc(BIG);
	size_t i;

	ASSERT_NE(NULL, a);
	ASSERT_NE(NULL, b);
	for (i = 0; i < ARRAY_LEN(readable); i++) {
		int fd = open(tst_path(readable[i]), O_RDONLY);
		ssize_t la, lb;

		ASSERT_LE(0, fd);
		la = read_chunks(fd, a, BIG, BIG);
		ASSERT_LT(0, la);
		/* At the end: more reads return 0. */
		EXPECT_EQ(0, read(fd, b, BIG));
		ASSERT_EQ(0, lseek(fd, 0, SEEK_SET));
		lb = read_chunks(fd, b, BIG, BIG);
		EXPECT_EQ(la, lb);
		EXPECT_EQ(0, memcmp(a, b, (size_t)la))
			TH_LOG("%s differs after lseek(0)", readable[i]);
		/* And once more, after an lseek into the middle. */
		ASSERT_EQ(la / 2, lseek(fd, la / 2, SEEK_SET));
		lb = read_chunks(fd, b, BIG, BIG);
		EXPECT_EQ(la - la / 2, lb);
		EXPECT_EQ(0, memcmp(a + la / 2, b, (size_t)lb))
			TH_LOG("%s differs from its middle on", readable[i]);
		close(fd);
	}
	free(a);
	free(b);
}

TEST_F(fmt, short_reads)
{
	static const size_t chunks[] = { 1, 2, 3, 7, 13, 64 };
	char *a = malloc(BIG), *b = malloc(BIG);
	size_t i, j;

	ASSERT_NE(NULL, a);
	ASSERT_NE(NULL, b);
	for (i = 0; i < ARRAY_LEN(readable); i++) {
		ssize_t la, lb;
		int fd = open(tst_path(readable[i]), O_RDONLY);

		ASSERT_LE(0, fd);
		la = read_chunks(fd, a, BIG, BIG);
		close(fd);
		ASSERT_LT(0, la);
		for (j = 0; j < ARRAY_LEN(chunks); j++) {
			fd = open(tst_path(readable[i]), O_RDONLY);
			ASSERT_LE(0, fd);
			lb = read_chunks(fd, b, BIG, chunks[j]);
			close(fd);
			EXPECT_EQ(la, lb);
			EXPECT_EQ(0, memcmp(a, b, (size_t)la))
				TH_LOG("%s read by %zu bytes differs",
				       readable[i], chunks[j]);
		}
	}
	free(a);
	free(b);
}

TEST_F(fmt, pread_offsets)
{
	char *a = malloc(BIG), *b = malloc(BIG);
	size_t i;

	ASSERT_NE(NULL, a);
	ASSERT_NE(NULL, b);
	for (i = 0; i < ARRAY_LEN(readable); i++) {
		int fd = open(tst_path(readable[i]), O_RDONLY);
		ssize_t la, n, off;

		ASSERT_LE(0, fd);
		la = read_chunks(fd, a, BIG, BIG);
		ASSERT_LT(0, la);
		for (off = 0; off <= la; off++) {
			n = pread(fd, b, BIG, off);
			ASSERT_EQ(la - off, n)
				TH_LOG("%s: pread at %zd", readable[i], off);
			ASSERT_EQ(0, memcmp(a + off, b, (size_t)n))
				TH_LOG("%s: pread at %zd differs",
				       readable[i], off);
		}
		EXPECT_EQ(0, pread(fd, b, BIG, la + 100));
		/* pread moves nothing: a plain read starts at 0 again. */
		ASSERT_EQ(0, lseek(fd, 0, SEEK_SET));
		n = read_chunks(fd, b, BIG, 5);
		EXPECT_EQ(la, n);
		EXPECT_EQ(0, memcmp(a, b, (size_t)la));
		close(fd);
	}
	free(a);
	free(b);
}

TEST_HARNESS_MAIN
