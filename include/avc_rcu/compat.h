/* SPDX-License-Identifier: GPL-2.0 */
/*
 * avc_rcu: the kernel API differences between the kernels it builds for,
 * in one place.
 *
 * avc_rcu builds against Debian 12's 6.1 and 6.12 kernels, 6.12 PREEMPT_RT
 * included (see dkms.conf), and against 7.x built from Debian's newest
 * source.  The code is written against the newer API; where an older
 * kernel lacks a helper, it is defined here in terms of what that kernel
 * has, so that no version test appears anywhere else in the module.
 * Internal to this tree's modules: not part of the exported API in
 * avc_rcu.h.
 */
#ifndef _AVC_RCU_COMPAT_H
#define _AVC_RCU_COMPAT_H

#include <linux/dcache.h>
#include <linux/fs.h>
#include <linux/version.h>

#if LINUX_VERSION_CODE < KERNEL_VERSION(6, 7, 0)
/*
 * simple_inode_init_ts() (6.7): set a new inode's access, modification
 * and change times to now.  Before 6.6 the three are plain fields; 6.6
 * made the change time private (inode_set_ctime_to_ts()).
 */
static inline struct timespec64 simple_inode_init_ts(struct inode *inode)
{
	struct timespec64 ts = current_time(inode);

	inode->i_atime = ts;
	inode->i_mtime = ts;
#if LINUX_VERSION_CODE < KERNEL_VERSION(6, 6, 0)
	inode->i_ctime = ts;
#else
	inode_set_ctime_to_ts(inode, ts);
#endif
	return ts;
}
#endif

/*
 * avc_rcu_d_pin(), avc_rcu_kill_sb: a pseudo filesystem's dentries, pinned
 * for the life of the superblock.  Until 6.x, d_add() keeps the dentry's
 * reference and kill_litter_super() drops them all at unmount; 7.x removed
 * kill_litter_super(): d_make_persistent() takes a reference of its own
 * (the caller's is dropped), and kill_anon_super() drops the persistent
 * ones.  Returns @dentry, still valid (pinned).
 */
#if LINUX_VERSION_CODE >= KERNEL_VERSION(7, 0, 0)
static inline struct dentry *avc_rcu_d_pin(struct dentry *dentry,
					   struct inode *inode)
{
	d_make_persistent(dentry, inode);
	dput(dentry);
	return dentry;
}

#define avc_rcu_kill_sb	kill_anon_super
#else
static inline struct dentry *avc_rcu_d_pin(struct dentry *dentry,
					   struct inode *inode)
{
	d_add(dentry, inode);
	return dentry;
}

#define avc_rcu_kill_sb	kill_litter_super
#endif

#endif /* _AVC_RCU_COMPAT_H */
