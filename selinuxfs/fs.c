// SPDX-License-Identifier: GPL-2.0
/*
 * avc_rcu presentation layer: the avcrcufs filesystem.
 *
 * A libfs pseudo-filesystem laid out like the part of selinuxfs it mirrors:
 *
 *	load  access  seqno
 *	avc/cache_threshold  avc/hash_stats  avc/cache_stats
 *
 * Every mount shows the same single superblock.  The module makes the empty
 * directory /sys/fs/avc_rcu to mount it on, as SELinux has /sys/fs/selinux.
 */

#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/capability.h>
#include <linux/fs.h>
#include <linux/fs_context.h>
#include <linux/kobject.h>
#include <linux/module.h>
#include <linux/sysfs.h>
#include <avc_rcu/compat.h>
#include <uapi/linux/avc_rcu.h>
#include "avcrcufs.h"

/* The files at the top of the filesystem, as selinuxfs has load. */
static const struct avcrcufs_file avcrcufs_top_dir[] = {
	{ AVC_RCU_FILE_LOAD, &avcrcufs_load_fops, 0600 },
	{ AVC_RCU_FILE_ACCESS, &avcrcufs_access_fops, 0666 },
	{ AVC_RCU_FILE_SEQNO, &avcrcufs_seqno_fops, 0444 },
	{ }
};

static struct inode *avcrcufs_new_inode(struct super_block *sb,
					umode_t mode, unsigned long ino)
{
	struct inode *inode = new_inode(sb);

	if (inode) {
		inode->i_ino = ino;
		inode->i_mode = mode;
		simple_inode_init_ts(inode);
	}
	return inode;
}

/* Dentries stay pinned until the unmount, as in selinuxfs (compat.h). */
static struct dentry *avcrcufs_add(struct dentry *parent, const char *name,
				   umode_t mode, unsigned long ino,
				   const struct file_operations *fops)
{
	struct dentry *dentry = d_alloc_name(parent, name);
	struct inode *inode;

	if (!dentry)
		return ERR_PTR(-ENOMEM);
	inode = avcrcufs_new_inode(parent->d_sb, mode, ino);
	if (!inode) {
		dput(dentry);
		return ERR_PTR(-ENOMEM);
	}
	if (S_ISDIR(mode)) {
		inode->i_op = &simple_dir_inode_operations;
		inode->i_fop = &simple_dir_operations;
		set_nlink(inode, 2);
		inc_nlink(d_inode(parent));
	} else {
		inode->i_fop = fops;
	}
	return avc_rcu_d_pin(dentry, inode);
}

/* Add a table's files to @dir, numbering their inodes from *@ino on. */
static int avcrcufs_add_files(struct dentry *dir,
			      const struct avcrcufs_file *files,
			      unsigned long *ino)
{
	struct dentry *d;

	for (; files->name; files++) {
		d = avcrcufs_add(dir, files->name, S_IFREG | files->mode,
				 (*ino)++, files->fops);
		if (IS_ERR(d))
			return PTR_ERR(d);
	}
	return 0;
}

/*
 * The root is inode 1; load, access and seqno come next, then the avc
 * directory and its files, in the order of their tables.
 */
static int avcrcufs_fill_super(struct super_block *sb,
			       struct fs_context *fc)
{
	static const struct tree_descr no_files[] = { { "" } };
	unsigned long ino = 2;
	struct dentry *dir;
	int err;

	err = simple_fill_super(sb, AVC_RCU_FS_MAGIC, no_files);
	if (err)
		return err;
	err = avcrcufs_add_files(sb->s_root, avcrcufs_top_dir, &ino);
	if (err)
		return err;
	dir = avcrcufs_add(sb->s_root, "avc", S_IFDIR | 0555, ino++, NULL);
	if (IS_ERR(dir))
		return PTR_ERR(dir);
	return avcrcufs_add_files(dir, avcrcufs_avc_dir, &ino);
}

/**
 * avcrcufs_may_admin() - may this open file change the cache or the policy
 * @file: a file of avcrcufs, opened or being opened
 *
 * The credentials that opened the file must carry CAP_MAC_ADMIN in the
 * initial user namespace, so that a privileged program cannot be tricked
 * into writing through a descriptor an unprivileged one opened.
 *
 * Return: true if they do.
 */
bool avcrcufs_may_admin(const struct file *file)
{
	return file_ns_capable(file, &init_user_ns, CAP_MAC_ADMIN);
}

static int avcrcufs_get_tree(struct fs_context *fc)
{
	return get_tree_single(fc, avcrcufs_fill_super);
}

static const struct fs_context_operations avcrcufs_context_ops = {
	.get_tree = avcrcufs_get_tree,
};

static int avcrcufs_init_fs_context(struct fs_context *fc)
{
	fc->ops = &avcrcufs_context_ops;
	return 0;
}

static struct file_system_type avcrcufs_type = {
	.owner = THIS_MODULE,
	.name = AVC_RCU_FS_NAME,
	.init_fs_context = avcrcufs_init_fs_context,
	.kill_sb = avc_rcu_kill_sb,
};
MODULE_ALIAS_FS(AVC_RCU_FS_NAME);

/**
 * avcrcufs_init() - make the mount point and register the filesystem
 *
 * Return: 0 or a negative errno.
 */
int avcrcufs_init(void)
{
	int err;

	err = sysfs_create_mount_point(fs_kobj, "avc_rcu");
	if (err) {
		pr_err("cannot create %s: %d\n", AVC_RCU_MOUNT_POINT, err);
		return err;
	}
	err = register_filesystem(&avcrcufs_type);
	if (err)
		sysfs_remove_mount_point(fs_kobj, "avc_rcu");
	return err;
}

/**
 * avcrcufs_exit() - undo avcrcufs_init()
 *
 * The module cannot be unloaded while the filesystem is mounted: the
 * superblock holds a reference on it.
 */
void avcrcufs_exit(void)
{
	unregister_filesystem(&avcrcufs_type);
	sysfs_remove_mount_point(fs_kobj, "avc_rcu");
}
