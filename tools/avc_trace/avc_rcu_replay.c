// SPDX-License-Identifier: GPL-2.0
/*
 * avc_rcu_replay: replay an AVC trace through avc_rcu's exported API at
 * full speed, with no system call per lookup.
 *
 * The module makes one file, /sys/kernel/debug/avc_rcu_replay (root only).
 * Write a whole trace to it (tools/avcstat/avc_trace_format.h) on one
 * open file, in writes of any size:
 *
 *	dd if=boot.trace of=/sys/kernel/debug/avc_rcu_replay bs=1M
 *
 * Each record is replayed as it arrives, in the writer's context: a lookup
 * is an avc_rcu_has_perm() of its key and requested permissions, a reset
 * an avc_rcu_flush() (what a policy load or boolean change does to the
 * kernel's AVC), an update nothing (the kernel's entry stays cached; only
 * its decision changes).  Reading the file gives what was replayed so far
 * on that open file:
 *
 *	records=N lookups=L resets=R updates=U
 *
 * The hits and misses are the cache's own, in avc/cache_stats.  A bad
 * header, a record out of sequence, an unknown kind or a trace that ends
 * early (found at the last close, and only logged: debugfs's proxy
 * forwards no .flush, so close(2) cannot fail) is refused with one line
 * in the kernel log naming the record; what was replayed before
 * it stays replayed.
 */

#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/debugfs.h>
#include <linux/fs.h>
#include <linux/kernel.h>
#include <linux/module.h>
#include <linux/mutex.h>
#include <linux/sched.h>
#include <linux/slab.h>
#include <linux/uaccess.h>
#include <avc_rcu/avc_rcu.h>
#include "../avcstat/avc_trace_format.h"

#define REPLAY_CHUNK	(64 * 1024)

/* What a record of either version says that the replay uses. */
struct replay_event {
	u32 seq;
	u32 ssid;
	u32 tsid;
	u32 requested;
	u16 tclass;
	u8 kind;
};

/**
 * struct replay - one open file's replay
 * @lock: one write, read or close at a time
 * @hdr: the header, once whole
 * @partial: bytes of the header or of a record not yet whole
 * @record_size: the size of one record in this trace's version
 * @npartial: how many
 * @buf: a chunk copied from userspace
 * @records: records replayed
 * @lookups: of which lookups
 * @resets: of which resets
 * @updates: of which updates
 * @failed: a bad header or record was seen; later writes are refused
 */
struct replay {
	struct mutex lock;	/* one write, read or close at a time */
	struct avc_trace_header hdr;
	u8 partial[sizeof(struct avc_trace_record2)];
	size_t record_size;
	size_t npartial;
	u8 *buf;
	u64 records;
	u64 lookups;
	u64 resets;
	u64 updates;
	bool failed;
};

static struct dentry *replay_file;

static int replay_header(struct replay *r, const struct avc_trace_header *h)
{
	if (memcmp(h->magic, AVC_TRACE_MAGIC, sizeof(h->magic))) {
		pr_err("not an AVC trace: bad magic\n");
		return -EINVAL;
	}
	r->record_size = avc_trace_record_size(h);
	if (!r->record_size) {
		pr_err("bad header: version %u, record size %u, flags %#x (want version %u, record size %zu, or version %u, record size %zu; flags 0)\n",
		       le32_to_cpu(h->version), le32_to_cpu(h->record_size),
		       le32_to_cpu(h->flags), AVC_TRACE_VERSION,
		       sizeof(struct avc_trace_record2), AVC_TRACE_VERSION_1,
		       sizeof(struct avc_trace_record));
		return -EINVAL;
	}
	r->hdr = *h;
	return 0;
}

/* A record of the header's version, decoded. */
static void replay_decode(const struct replay *r, const void *p,
			  struct replay_event *e)
{
	const struct avc_trace_record2 *v2 = p;
	const struct avc_trace_record *v1 = p;

	if (r->record_size == sizeof(*v2)) {
		e->seq = le32_to_cpu(v2->seq);
		e->ssid = le32_to_cpu(v2->ssid);
		e->tsid = le32_to_cpu(v2->tsid);
		e->requested = le32_to_cpu(v2->requested);
		e->tclass = le16_to_cpu(v2->tclass);
		e->kind = v2->kind;
	} else {
		e->seq = le32_to_cpu(v1->seq);
		e->ssid = le32_to_cpu(v1->ssid);
		e->tsid = le32_to_cpu(v1->tsid);
		e->requested = le32_to_cpu(v1->requested);
		e->tclass = le16_to_cpu(v1->tclass);
		e->kind = v1->kind;
	}
}

static int replay_record(struct replay *r, const void *p)
{
	struct avc_rcu_decision avd;
	struct replay_event ev, *rec = &ev;
	u32 seq;

	replay_decode(r, p, &ev);
	seq = rec->seq;

	if (r->records >= le64_to_cpu(r->hdr.nrecords)) {
		pr_err("record %llu: past the %llu records the header announces\n",
		       r->records, le64_to_cpu(r->hdr.nrecords));
		return -EINVAL;
	}
	if (seq != (u32)r->records) {
		pr_err("record %llu: seq %u, expected %u (events lost?)\n",
		       r->records, seq, (u32)r->records);
		return -EINVAL;
	}
	switch (rec->kind) {
	case AVC_TRACE_LOOKUP:
		avc_rcu_has_perm(rec->ssid, rec->tsid, rec->tclass,
				 rec->requested, &avd);
		r->lookups++;
		break;
	case AVC_TRACE_RESET:
		avc_rcu_flush();
		r->resets++;
		break;
	case AVC_TRACE_UPDATE:
		r->updates++;
		break;
	default:
		pr_err("record %llu: unknown kind %u\n", r->records, rec->kind);
		return -EINVAL;
	}
	r->records++;
	return 0;
}

/* Feed @len bytes of the trace; 0 or -EINVAL. */
static int replay_bytes(struct replay *r, const u8 *p, size_t len)
{
	size_t need, take;
	int err;

	while (len) {
		need = r->records == 0 && !r->hdr.magic[0] ?
		       sizeof(r->hdr) : r->record_size;
		if (r->npartial || len < need) {
			take = min(need - r->npartial, len);
			memcpy(r->partial + r->npartial, p, take);
			r->npartial += take;
			p += take;
			len -= take;
			if (r->npartial < need)
				return 0;
			r->npartial = 0;
			err = need == sizeof(r->hdr) ?
			      replay_header(r, (void *)r->partial) :
			      replay_record(r, (void *)r->partial);
		} else {
			err = need == sizeof(r->hdr) ?
			      replay_header(r, (const void *)p) :
			      replay_record(r, (const void *)p);
			p += need;
			len -= need;
		}
		if (err)
			return err;
	}
	return 0;
}

static ssize_t replay_write(struct file *file, const char __user *ubuf,
			    size_t count, loff_t *ppos)
{
	struct replay *r = file->private_data;
	size_t done = 0, n;
	int err = 0;

	mutex_lock(&r->lock);
	if (r->failed)
		err = -EINVAL;
	while (!err && done < count) {
		n = min_t(size_t, count - done, REPLAY_CHUNK);
		if (copy_from_user(r->buf, ubuf + done, n)) {
			err = -EFAULT;
			break;
		}
		err = replay_bytes(r, r->buf, n);
		if (err)
			r->failed = true;
		else
			done += n;
		cond_resched();
	}
	mutex_unlock(&r->lock);
	return err ?: done;
}

static ssize_t replay_read(struct file *file, char __user *ubuf,
			   size_t count, loff_t *ppos)
{
	struct replay *r = file->private_data;
	char text[128];
	int len;

	mutex_lock(&r->lock);
	len = scnprintf(text, sizeof(text),
			"records=%llu lookups=%llu resets=%llu updates=%llu\n",
			r->records, r->lookups, r->resets, r->updates);
	mutex_unlock(&r->lock);
	return simple_read_from_buffer(ubuf, count, ppos, text, len);
}

static int replay_open(struct inode *inode, struct file *file)
{
	struct replay *r = kzalloc(sizeof(*r), GFP_KERNEL);

	if (!r)
		return -ENOMEM;
	r->buf = kvmalloc(REPLAY_CHUNK, GFP_KERNEL);
	if (!r->buf) {
		kfree(r);
		return -ENOMEM;
	}
	mutex_init(&r->lock);
	file->private_data = r;
	return 0;
}

static int replay_release(struct inode *inode, struct file *file)
{
	struct replay *r = file->private_data;

	/*
	 * debugfs's proxy forwards no .flush, so an early end can only be
	 * logged here, at the last close, not returned by close(2).
	 */
	if ((file->f_mode & FMODE_WRITE) && !r->failed &&
	    (!r->hdr.magic[0] || r->npartial ||
	     r->records != le64_to_cpu(r->hdr.nrecords)))
		pr_err("trace truncated: %llu of %llu records, %zu bytes of a partial one\n",
		       r->records, le64_to_cpu(r->hdr.nrecords), r->npartial);
	else if ((file->f_mode & FMODE_WRITE) && !r->failed)
		pr_info("replayed %llu records: %llu lookups, %llu resets, %llu updates\n",
			r->records, r->lookups, r->resets, r->updates);
	kvfree(r->buf);
	kfree(r);
	return 0;
}

/*
 * No .llseek: a NULL one makes lseek(2) fail with -ESPIPE, as no_llseek
 * did (6.12 removed no_llseek, NULL having meant the same since 2.6).
 */
static const struct file_operations replay_fops = {
	.owner = THIS_MODULE,
	.open = replay_open,
	.read = replay_read,
	.write = replay_write,
	.release = replay_release,
};

static int __init replay_init(void)
{
	replay_file = debugfs_create_file("avc_rcu_replay", 0600, NULL, NULL,
					  &replay_fops);
	return PTR_ERR_OR_ZERO(replay_file);
}

static void __exit replay_exit(void)
{
	debugfs_remove(replay_file);
}

module_init(replay_init);
module_exit(replay_exit);

MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("Replay AVC traces through avc_rcu's exported API");
