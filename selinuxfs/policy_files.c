// SPDX-License-Identifier: GPL-2.0
/*
 * avc_rcu presentation layer: load, access and seqno.
 */

#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/capability.h>
#include <linux/fs.h>
#include <linux/mm.h>
#include <linux/mutex.h>
#include <linux/seq_file.h>
#include <linux/slab.h>
#include <linux/uaccess.h>
#include "glue.h"
#include "avcrcufs.h"

/*
 * load: the whole policy text in one write(2) at offset 0, as selinuxfs's
 * load takes the whole binary policy.  A successful write moves the file
 * offset past the text, so a writer that splits a policy over several
 * writes (cat of a large file) has its second write refused instead of
 * silently loading pieces.
 */
static ssize_t avcrcufs_load_write(struct file *file, const char __user *ubuf,
				   size_t count, loff_t *ppos)
{
	char *text;
	int err;

	if (!avcrcufs_may_admin(file))
		return -EPERM;
	/* Writing nothing changes nothing, as POSIX asks of write(2). */
	if (!count)
		return 0;
	if (*ppos != 0) {
		pr_err("load: write at offset %lld refused: a policy is loaded by one write(2) of the whole text\n",
		       *ppos);
		return -EINVAL;
	}
	if (count > AVC_RCU_POLICY_MAX_BYTES)
		return -EFBIG;

	text = kvmalloc(count, GFP_KERNEL_ACCOUNT | __GFP_NOWARN);
	if (!text)
		return -ENOMEM;
	if (copy_from_user(text, ubuf, count)) {
		kvfree(text);
		return -EFAULT;
	}
	err = avc_rcu_load_policy(text, count);
	kvfree(text);
	if (err)
		return err;
	*ppos += count;
	return count;
}

static const struct file_operations avcrcufs_load_fops = {
	.write = avcrcufs_load_write,
	.llseek = generic_file_llseek,
};

/*
 * access: a transaction file.  A write "<ssid> <tsid> <tclass> <requested>"
 * asks the cache (it counts as a lookup) and a read returns the decision in
 * selinuxfs's format.  Unlike selinuxfs's simple_transaction files, one
 * open file may carry any number of transactions: each write replaces the
 * answer and rewinds the file, so a benchmark can loop write/read on one
 * descriptor without an open() per query.
 */
#define AVCRCUFS_ACCESS_REQUEST_MAX	128
#define AVCRCUFS_ACCESS_REPLY_MAX	64

struct avcrcufs_access_txn {
	struct mutex lock;	/* one transaction at a time per file */
	size_t len;
	char reply[AVCRCUFS_ACCESS_REPLY_MAX];
};

static int avcrcufs_access_open(struct inode *inode, struct file *file)
{
	struct avcrcufs_access_txn *txn = kzalloc(sizeof(*txn), GFP_KERNEL);

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
	*ppos = 0;
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

static const struct file_operations avcrcufs_access_fops = {
	.open = avcrcufs_access_open,
	.read = avcrcufs_access_read,
	.write = avcrcufs_access_write,
	.release = avcrcufs_access_release,
	.llseek = generic_file_llseek,
};

static int avcrcufs_seqno_show(struct seq_file *m, void *v)
{
	seq_printf(m, "%u\n", avc_rcu_policy_seqno());
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(avcrcufs_seqno);

/* The files at the top of the filesystem, as selinuxfs has load. */
const struct avcrcufs_file avcrcufs_top_dir[] = {
	{ AVC_RCU_FILE_LOAD, &avcrcufs_load_fops, 0600 },
	{ AVC_RCU_FILE_ACCESS, &avcrcufs_access_fops, 0666 },
	{ AVC_RCU_FILE_SEQNO, &avcrcufs_seqno_fops, 0444 },
	{ }
};
