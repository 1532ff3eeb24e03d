// SPDX-License-Identifier: GPL-2.0
/*
 * avc_rcu presentation layer: the access file, a query of the cache.
 */

#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/capability.h>
#include <linux/fs.h>
#include <linux/moduleparam.h>
#include <linux/mutex.h>
#include <linux/slab.h>
#include <linux/uaccess.h>
#include <linux/uidgid.h>
#include "api.h"
#include "avcrcufs.h"

/*
 * access: a transaction file.  A write "<ssid> <tsid> <tclass> <requested>"
 * asks the cache (it counts as a lookup) and a read returns the decision in
 * selinuxfs's format.  Unlike selinuxfs's simple_transaction files, one
 * open file may carry any number of transactions: each write replaces the
 * answer and rewinds the file, so a benchmark can loop write/read on one
 * descriptor without an open() per query.
 *
 * Who may ask.  Every query is a lookup in the cache every other user's
 * lookups go through: it fills and evicts entries, and it answers for any
 * SIDs.  selinuxfs's access file requires the security:compute_av
 * permission; here the opener must hold CAP_MAC_ADMIN, unless the
 * administrator opted in with access_unprivileged=1 (for test workloads
 * run as ordinary users).  Anyone else's open fails with EACCES, before
 * anything is allocated, asked or counted.  The file keeps mode 0666, as
 * selinuxfs's does, so that the opt-in needs no chmod; the check is made
 * at open(), on the opener's credentials.
 */
#define AVCRCUFS_ACCESS_REQUEST_MAX	128
#define AVCRCUFS_ACCESS_REPLY_MAX	64

static bool access_unprivileged;
module_param(access_unprivileged, bool, 0644);
MODULE_PARM_DESC(access_unprivileged,
		 "let openers without CAP_MAC_ADMIN query the cache through the access file (default 0: they get EACCES); for test workloads run as ordinary users");

struct avcrcufs_access_txn {
	struct mutex lock;	/* one transaction at a time per file */
	size_t len;
	char reply[AVCRCUFS_ACCESS_REPLY_MAX];
};

static int avcrcufs_access_open(struct inode *inode, struct file *file)
{
	struct avcrcufs_access_txn *txn;

	if (!READ_ONCE(access_unprivileged) && !avcrcufs_may_admin(file)) {
		pr_notice_ratelimited("access: open by uid %u refused: CAP_MAC_ADMIN required (module parameter access_unprivileged)\n",
				      from_kuid(&init_user_ns,
						file->f_cred->uid));
		return -EACCES;
	}
	txn = kzalloc(sizeof(*txn), GFP_KERNEL);
	if (!txn)
		return -ENOMEM;
	mutex_init(&txn->lock);
	file->private_data = txn;
	return 0;
}

static int avcrcufs_access_release(struct inode *inode, struct file *file)
{
	kfree(file->private_data);
	return 0;
}

static ssize_t avcrcufs_access_write(struct file *file,
				     const char __user *ubuf, size_t count,
				     loff_t *ppos)
{
	struct avcrcufs_access_txn *txn = file->private_data;
	struct avc_rcu_decision avd;
	char req[AVCRCUFS_ACCESS_REQUEST_MAX];
	u32 f[4];

	if (!count || count > sizeof(req))
		return -EINVAL;
	if (copy_from_user(req, ubuf, count))
		return -EFAULT;
	if (avc_parse_fields(req, count, f, ARRAY_SIZE(f)) || f[2] > U16_MAX)
		return -EINVAL;

	avc_rcu_has_perm(f[0], f[1], f[2], f[3], &avd);

	mutex_lock(&txn->lock);
	txn->len = scnprintf(txn->reply, sizeof(txn->reply),
			     AVC_RCU_ACCESS_REPLY_FMT, avd.allowed,
			     0xffffffffU, avd.auditallow, avd.auditdeny,
			     avd.seqno, avd.flags);
	/*
	 * Rewind for the next read(2).  write(2) stores *ppos back into
	 * f_pos, but pwrite(2) does not: without the second store a read
	 * after a pwrite would go on from the old reply's offset.
	 */
	*ppos = 0;
	file->f_pos = 0;
	mutex_unlock(&txn->lock);
	return count;
}

static ssize_t avcrcufs_access_read(struct file *file, char __user *ubuf,
				    size_t count, loff_t *ppos)
{
	struct avcrcufs_access_txn *txn = file->private_data;
	ssize_t ret;

	mutex_lock(&txn->lock);
	ret = simple_read_from_buffer(ubuf, count, ppos, txn->reply,
				      txn->len);
	mutex_unlock(&txn->lock);
	return ret;
}

const struct file_operations avcrcufs_access_fops = {
	.open = avcrcufs_access_open,
	.read = avcrcufs_access_read,
	.write = avcrcufs_access_write,
	.release = avcrcufs_access_release,
	.llseek = generic_file_llseek,
};
