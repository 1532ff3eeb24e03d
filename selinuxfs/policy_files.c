// SPDX-License-Identifier: GPL-2.0
/*
 * avc_rcu presentation layer: load, access and seqno.
 */

#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/bitops.h>
#include <linux/capability.h>
#include <linux/fs.h>
#include <linux/mm.h>
#include <linux/moduleparam.h>
#include <linux/mutex.h>
#include <linux/seq_file.h>
#include <linux/slab.h>
#include <linux/uaccess.h>
#include <linux/uidgid.h>
#include "glue.h"
#include "avcrcufs.h"

/*
 * load: the policy text, written in one or more write(2) calls on one open
 * file, in order, and loaded as one policy when the last descriptor of
 * that open file is closed.  Each write is parsed as it comes (its
 * complete lines; an incomplete last line waits for the next write), so a
 * bad line fails the write that completes it, with the line named in the
 * kernel log.  Nothing is published until the last close: there, in
 * .flush, so that close(2) returns the outcome (a bad last line without a
 * newline, ENOMEM), the rules are sorted and the policy replaces the old
 * one, or, if any write failed, nothing happens.  One writer at a time:
 * a second open for writing gets EBUSY until the first is closed, as
 * IMA's policy file does.
 */
#define AVCRCUFS_LOAD_CHUNK	(4 * PAGE_SIZE)	/* copied from userspace at once */
#define AVCRCUFS_LOAD_GFP	(GFP_KERNEL_ACCOUNT | __GFP_NOWARN | \
				 __GFP_RETRY_MAYFAIL)

/**
 * struct avcrcufs_load - a policy being written to load
 * @lock: serialises the writes and the commit of this open file
 * @parser: the text parsed so far; NULL until the first byte
 * @size: bytes written so far, where the next write must start
 * @err: the first error of a write or of the commit: every later write
 *	and the last close return it, and nothing is loaded
 * @done: committed (or abandoned): the last close has been handled
 */
struct avcrcufs_load {
	struct mutex lock;	/* the writes and the commit */
	struct avc_policy_parser *parser;
	loff_t size;
	int err;
	bool done;
};

/* Bit 0: an open file may write to load (one at a time). */
static unsigned long avcrcufs_load_busy;

/*
 * Only an opener with CAP_MAC_ADMIN holds the file: anyone else's writes
 * fail with EPERM, and must not lock the administrator out with EBUSY.
 */
static int avcrcufs_load_open(struct inode *inode, struct file *file)
{
	struct avcrcufs_load *ld;

	if (!(file->f_mode & FMODE_WRITE) || !avcrcufs_may_admin(file))
		return 0;
	ld = kzalloc(sizeof(*ld), GFP_KERNEL_ACCOUNT);
	if (!ld)
		return -ENOMEM;
	if (test_and_set_bit(0, &avcrcufs_load_busy)) {
		kfree(ld);
		return -EBUSY;
	}
	mutex_init(&ld->lock);
	file->private_data = ld;
	return 0;
}

/* Parse @count bytes at @ubuf, a chunk at a time: 0 or -errno. */
static int avcrcufs_load_feed(struct avcrcufs_load *ld,
			      const char __user *ubuf, size_t count)
{
	size_t done, n;
	char *buf;
	int err = 0;

	if (!ld->parser) {
		ld->parser = avc_policy_parser_new();
		if (!ld->parser)
			return -ENOMEM;
	}
	buf = kmalloc(min_t(size_t, count, AVCRCUFS_LOAD_CHUNK),
		      AVCRCUFS_LOAD_GFP);
	if (!buf)
		return -ENOMEM;
	for (done = 0; done < count && !err; done += n) {
		n = min_t(size_t, count - done, AVCRCUFS_LOAD_CHUNK);
		if (copy_from_user(buf, ubuf + done, n))
			err = -EFAULT;
		else
			err = avc_policy_parser_feed(ld->parser, buf, n);
		cond_resched();
	}
	kfree(buf);
	return err;
}

static ssize_t avcrcufs_load_write(struct file *file, const char __user *ubuf,
				   size_t count, loff_t *ppos)
{
	struct avcrcufs_load *ld = file->private_data;
	int err;

	if (!ld)
		return -EPERM;
	/* Writing nothing changes nothing, as POSIX asks of write(2). */
	if (!count)
		return 0;
	mutex_lock(&ld->lock);
	err = ld->err;
	if (err)
		goto out;
	if (ld->done) {
		err = -EINVAL;
		goto out;
	}
	if (*ppos != ld->size) {
		pr_err("load: write at offset %lld refused: the text goes on at %lld; policy not loaded\n",
		       *ppos, ld->size);
		err = -EINVAL;
	} else if (count > AVC_RCU_POLICY_MAX_BYTES - ld->size) {
		pr_err("load: text longer than %u bytes; policy not loaded\n",
		       AVC_RCU_POLICY_MAX_BYTES);
		err = -EFBIG;
	} else {
		err = avcrcufs_load_feed(ld, ubuf, count);
	}
	if (err) {
		ld->err = err;
		goto out;
	}
	ld->size += count;
	*ppos += count;
out:
	mutex_unlock(&ld->lock);
	return err ?: count;
}

/* Load what was written, once: 0 or the error the load failed with. */
static int avcrcufs_load_commit(struct avcrcufs_load *ld)
{
	int err;

	mutex_lock(&ld->lock);
	if (!ld->done) {
		ld->done = true;
		if (!ld->err && ld->parser)
			ld->err = avc_rcu_load_parsed(ld->parser);
		avc_policy_parser_free(ld->parser);
		ld->parser = NULL;
	}
	err = ld->err;
	mutex_unlock(&ld->lock);
	return err;
}

/*
 * Every close(2) of a descriptor calls .flush; the last one of the open
 * file (no other descriptor, no fork's copy, no call in flight on it)
 * loads the policy, so that close(2) returns the outcome.
 */
static int avcrcufs_load_flush(struct file *file, fl_owner_t id)
{
	struct avcrcufs_load *ld = file->private_data;

	if (!ld || file_count(file) > 1)
		return 0;
	return avcrcufs_load_commit(ld);
}

/*
 * A last reference dropped elsewhere than in close(2) (a call in flight
 * on another thread when the last descriptor was closed) loads here;
 * nobody is left to tell but the kernel log, which names a bad line.
 */
static int avcrcufs_load_release(struct inode *inode, struct file *file)
{
	struct avcrcufs_load *ld = file->private_data;

	if (!ld)
		return 0;
	avcrcufs_load_commit(ld);
	kfree(ld);
	clear_bit(0, &avcrcufs_load_busy);
	return 0;
}

static const struct file_operations avcrcufs_load_fops = {
	.open = avcrcufs_load_open,
	.write = avcrcufs_load_write,
	.flush = avcrcufs_load_flush,
	.release = avcrcufs_load_release,
	.llseek = generic_file_llseek,
};

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
