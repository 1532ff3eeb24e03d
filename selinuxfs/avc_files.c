// SPDX-License-Identifier: GPL-2.0
/*
 * avc_rcu presentation layer: avc/cache_threshold, avc/hash_stats and
 * avc/cache_stats, in selinuxfs's formats.
 */

#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/capability.h>
#include <linux/cpumask.h>
#include <linux/fs.h>
#include <linux/printk.h>
#include <linux/seq_file.h>
#include <linux/slab.h>
#include <linux/uaccess.h>
#include "api.h"
#include "avcrcufs.h"
#include "threshold.h"

/* Enough for "1048576\n" and then some, so a 20-digit value is seen whole. */
#define AVCRCUFS_THRESHOLD_BUF	32

static ssize_t avcrcufs_threshold_read(struct file *file, char __user *ubuf,
				       size_t count, loff_t *ppos)
{
	char buf[AVCRCUFS_THRESHOLD_BUF];
	int len;

	len = scnprintf(buf, sizeof(buf), "%u\n",
			avc_cache_threshold(avc_rcu_cache()));
	return simple_read_from_buffer(ubuf, count, ppos, buf, len);
}

/* Chains longer than this on average at the threshold earn a notice. */
#define AVCRCUFS_CHAIN_NOTICE	8

/**
 * avcrcufs_sizing_notice() - say when a threshold does not fit the table
 * @val: the threshold just set
 *
 * Only a table of fixed size (the slots parameter) can be a poor fit; one
 * that follows cache_threshold always fits.  Two ways (the admin guide,
 * "Sizing the table"): many more buckets than entries, where a reclaim
 * section's reach of AVC_RECLAIM_BUCKETS buckets holds less than one
 * entry on average, so that inline reclaims find nothing and most misses
 * are not cached; or many more entries than buckets, chains every lookup
 * walks, which a bucket's cap of AVC_CHAIN_MAX entries also keeps the
 * cache from filling.  Rate-limited: a script writing thresholds in a
 * loop gets a few lines.
 */
void avcrcufs_sizing_notice(unsigned int val)
{
	struct avc_cache *c = avc_rcu_cache();
	unsigned int slots = avc_cache_slots(c);

	if (!avc_cache_slots_pinned(c))
		return;
	if ((u64)val * AVC_RECLAIM_BUCKETS < slots)
		pr_notice_ratelimited("cache_threshold %u with %u slots: a reclaim reaches %u buckets, which hold less than one entry on average; with reclaimer=inline most misses will not be cached (raise cache_threshold, or load with fewer slots, or slots=0 to follow cache_threshold)\n",
				      val, slots, AVC_RECLAIM_BUCKETS);
	else if ((u64)val > (u64)slots * AVCRCUFS_CHAIN_NOTICE)
		pr_notice_ratelimited("cache_threshold %u with %u slots: chains of %u entries on average, which every lookup walks, and a bucket holds at most %u (load with slots=0 to follow cache_threshold, or with more slots)\n",
				      val, slots, val / slots, AVC_CHAIN_MAX);
}

static ssize_t avcrcufs_threshold_write(struct file *file,
					const char __user *ubuf, size_t count,
					loff_t *ppos)
{
	char buf[AVCRCUFS_THRESHOLD_BUF];
	unsigned int val;

	if (!avcrcufs_may_admin(file))
		return -EPERM;
	/* selinuxfs's answers: no partial writes, nothing near a page. */
	if (count >= PAGE_SIZE)
		return -ENOMEM;
	if (*ppos != 0 || count >= sizeof(buf))
		return -EINVAL;
	if (copy_from_user(buf, ubuf, count))
		return -EFAULT;
	if (avcrcufs_parse_threshold(buf, count, &val))
		return -EINVAL;
	avc_cache_set_threshold(avc_rcu_cache(), val);
	/*
	 * The write returns once the table has the size the threshold asks
	 * for (and, with the background reclaimer, the cache is back under
	 * it), so that hash_stats read next shows the table in use.
	 */
	avc_cache_settle(avc_rcu_cache());
	avcrcufs_sizing_notice(val);
	return count;
}

static const struct file_operations avcrcufs_threshold_fops = {
	.read = avcrcufs_threshold_read,
	.write = avcrcufs_threshold_write,
	.llseek = generic_file_llseek,
};

static int avcrcufs_hash_stats_show(struct seq_file *m, void *v)
{
	struct avc_hash_stats hs;

	avc_cache_hash_stats(avc_rcu_cache(), &hs);
	seq_printf(m, AVC_RCU_HASH_STATS_FMT, hs.entries, hs.buckets_used,
		   hs.buckets, hs.longest_chain);
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(avcrcufs_hash_stats);

/*
 * avc/cache_stats: position 0 is the header, position n >= 1 the row of
 * possible CPU n - 1.  Gaps in the possible mask are skipped by moving the
 * position past them, so lseek and re-reads land on the same rows.
 */
static void *avcrcufs_cache_stats_cpu(loff_t *pos)
{
	int cpu;

	for (cpu = *pos - 1; cpu < nr_cpu_ids; cpu++) {
		if (cpu_possible(cpu)) {
			*pos = cpu + 1;
			return pos;
		}
	}
	return NULL;
}

static void *avcrcufs_cache_stats_start(struct seq_file *m, loff_t *pos)
{
	if (*pos == 0)
		return SEQ_START_TOKEN;
	return avcrcufs_cache_stats_cpu(pos);
}

static void *avcrcufs_cache_stats_next(struct seq_file *m, void *v, loff_t *pos)
{
	++*pos;
	return avcrcufs_cache_stats_cpu(pos);
}

static void avcrcufs_cache_stats_stop(struct seq_file *m, void *v)
{
}

static int avcrcufs_cache_stats_show(struct seq_file *m, void *v)
{
	struct avc_cache_stats s;

	if (v == SEQ_START_TOKEN) {
		seq_puts(m, AVC_RCU_CACHE_STATS_HEADER "\n");
		return 0;
	}
	avc_cache_stats_read(avc_rcu_cache(), *(loff_t *)v - 1, &s);
	seq_printf(m, AVC_RCU_CACHE_STATS_ROW, s.lookups, s.hits, s.misses,
		   s.allocations, s.reclaims, s.frees);
	return 0;
}

static const struct seq_operations avcrcufs_cache_stats_seq_ops = {
	.start = avcrcufs_cache_stats_start,
	.next = avcrcufs_cache_stats_next,
	.stop = avcrcufs_cache_stats_stop,
	.show = avcrcufs_cache_stats_show,
};

static int avcrcufs_cache_stats_open(struct inode *inode, struct file *file)
{
	return seq_open(file, &avcrcufs_cache_stats_seq_ops);
}

static const struct file_operations avcrcufs_cache_stats_fops = {
	.open = avcrcufs_cache_stats_open,
	.read = seq_read,
	.llseek = seq_lseek,
	.release = seq_release,
};

/* The files of the avc/ directory, in selinuxfs's names and modes. */
const struct avcrcufs_file avcrcufs_avc_dir[] = {
	{ "cache_threshold", &avcrcufs_threshold_fops, 0644 },
	{ "hash_stats", &avcrcufs_hash_stats_fops, 0444 },
	{ "cache_stats", &avcrcufs_cache_stats_fops, 0444 },
	{ }
};
