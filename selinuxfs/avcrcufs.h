/* SPDX-License-Identifier: GPL-2.0 */
/*
 * avc_rcu presentation layer: the avcrcufs filesystem.
 */
#ifndef _AVC_RCU_AVCRCUFS_H
#define _AVC_RCU_AVCRCUFS_H

#include <linux/fs.h>

/**
 * struct avcrcufs_file - one file of a directory, as a table entry
 * @name: its name
 * @fops: its operations
 * @mode: its permission bits
 *
 * A table ends with an entry whose @name is NULL.
 */
struct avcrcufs_file {
	const char *name;
	const struct file_operations *fops;
	umode_t mode;
};

/* load.c: load and seqno; access.c: access (the top directory's files) */
extern const struct file_operations avcrcufs_load_fops;
extern const struct file_operations avcrcufs_seqno_fops;
extern const struct file_operations avcrcufs_access_fops;
/* avc_files.c: avc/cache_threshold, avc/hash_stats, avc/cache_stats */
extern const struct avcrcufs_file avcrcufs_avc_dir[];

bool avcrcufs_may_admin(const struct file *file);
void avcrcufs_sizing_notice(unsigned int val);
int avcrcufs_init(void);
void avcrcufs_exit(void);

#endif /* _AVC_RCU_AVCRCUFS_H */
