// SPDX-License-Identifier: GPL-2.0
/*
 * avc_rcu presentation layer: the policy's files, load and seqno.
 */

#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/bitops.h>
#include <linux/capability.h>
#include <linux/fs.h>
#include <linux/mm.h>
#include <linux/mutex.h>
#include <linux/seq_file.h>
#include <linux/slab.h>
#include <linux/uaccess.h>
#include "api.h"
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

const struct file_operations avcrcufs_load_fops = {
	.open = avcrcufs_load_open,
	.write = avcrcufs_load_write,
	.flush = avcrcufs_load_flush,
	.release = avcrcufs_load_release,
	.llseek = generic_file_llseek,
};

/* seqno: the sequence number of the policy in force. */
static int avcrcufs_seqno_show(struct seq_file *m, void *v)
{
	seq_printf(m, "%u\n", avc_rcu_policy_seqno());
	return 0;
}

static int avcrcufs_seqno_open(struct inode *inode, struct file *file)
{
	return single_open(file, avcrcufs_seqno_show, NULL);
}

const struct file_operations avcrcufs_seqno_fops = {
	.open = avcrcufs_seqno_open,
	.read = seq_read,
	.llseek = seq_lseek,
	.release = single_release,
};
