/* SPDX-License-Identifier: GPL-2.0 */
/*
 * avc_rcu presentation layer: the avcrcufs filesystem.
 */
#ifndef _AVC_RCU_AVCRCUFS_H
#define _AVC_RCU_AVCRCUFS_H

#include <linux/fs.h>

extern const struct file_operations avcrcufs_threshold_fops;
extern const struct file_operations avcrcufs_hash_stats_fops;
extern const struct file_operations avcrcufs_cache_stats_fops;
extern const struct file_operations avcrcufs_load_fops;
extern const struct file_operations avcrcufs_access_fops;
extern const struct file_operations avcrcufs_seqno_fops;

bool avcrcufs_may_admin(const struct file *file);
int avcrcufs_init(void);
void avcrcufs_exit(void);

#endif /* _AVC_RCU_AVCRCUFS_H */
