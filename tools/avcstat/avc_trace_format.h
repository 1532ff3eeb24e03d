/* SPDX-License-Identifier: GPL-2.0 */
/*
 * avc_rcu: the AVC trace format (recorded lookups, not the tracepoints),
 * shared by the recorder, the synthetic stream generator, the replay
 * module and the replay tools.  The module itself never reads it, so it
 * lives with those tools, not in the module's uapi.
 *
 * A trace is a header and then fixed-size records, every field
 * little-endian, nothing between them and nothing after the last:
 *
 *	struct avc_trace_header      (32 bytes)
 *	struct avc_trace_record2     (56 bytes) x header.nrecords  (version 2)
 *	struct avc_trace_record      (24 bytes) x header.nrecords  (version 1)
 *
 * A record is an event the cache must see: a lookup of a key, or a reset
 * of the whole cache (a policy load or a boolean change, after which the
 * kernel's AVC is empty), or an in-place update of one entry.  seq numbers
 * the events of the capture, from 0, without gaps: a gap means events were
 * lost, and a reader refuses such a trace.
 *
 * Version 2 (what avc_record writes) adds to each record the time, and to
 * each lookup the kernel's answer: its decision and whether its own AVC
 * hit.  Version 1 records carry the key, the CPU and (for updates) the
 * permissions only; readers read both.
 */
#ifndef AVC_TRACE_FORMAT_H
#define AVC_TRACE_FORMAT_H

#include <linux/types.h>

#define AVC_TRACE_MAGIC		"AVCTRACE"	/* 8 bytes, no NUL */
#define AVC_TRACE_VERSION	2	/* what the recorder writes */
#define AVC_TRACE_VERSION_1	1	/* still read */

/**
 * struct avc_trace_header - the start of a trace
 * @magic: AVC_TRACE_MAGIC
 * @version: AVC_TRACE_VERSION
 * @record_size: 56 (version 2: struct avc_trace_record2) or 24
 *	(version 1: struct avc_trace_record)
 * @nrecords: records that follow
 * @flags: 0; readers refuse other values
 * @reserved: 0
 */
struct avc_trace_header {
	char magic[8];
	__le32 version;
	__le32 record_size;
	__le64 nrecords;
	__le32 flags;
	__le32 reserved;
};

enum avc_trace_kind {
	AVC_TRACE_LOOKUP = 0,	/* a decision asked for (ssid, tsid, tclass) */
	AVC_TRACE_RESET = 1,	/* the whole cache emptied (policy load...) */
	AVC_TRACE_UPDATE = 2,	/* one entry's decision changed in place */
};

/**
 * struct avc_trace_record - one event
 * @seq: the event's number in the capture, from 0, without gaps
 * @ssid: source SID (lookups and updates)
 * @tsid: target SID (lookups and updates)
 * @requested: permissions asked for, where the probe site has them, else 0
 * @tclass: target class (lookups and updates)
 * @cpu: the CPU the event happened on (modulo 65536)
 * @kind: an enum avc_trace_kind
 * @reserved: 0
 */
struct avc_trace_record {
	__le32 seq;
	__le32 ssid;
	__le32 tsid;
	__le32 requested;
	__le16 tclass;
	__le16 cpu;
	__u8 kind;
	__u8 reserved[3];
};

/* Bits of struct avc_trace_record2's flags. */
#define AVC_TRACE_F_HIT		0x01	/* the kernel's AVC answered it */
#define AVC_TRACE_F_DECIDED	0x02	/* allowed .. avd_flags are known */
#define AVC_TRACE_F_REQUESTED	0x04	/* requested is known */
#define AVC_TRACE_F_GRANTED	0x08	/* updates: requested was granted */

/**
 * struct avc_trace_record2 - one event, version 2
 * @ts_ns: CLOCK_MONOTONIC of the event, in nanoseconds (the recorder's
 *	tracefs clock gives microseconds: the last three digits are 0)
 * @seq: the event's number in the capture, from 0, without gaps
 * @ssid: source SID (lookups and updates)
 * @tsid: target SID (lookups and updates)
 * @requested: lookups: the permissions the check asked for, if
 *	AVC_TRACE_F_REQUESTED; updates: the permissions the check asked
 *	for, some of them denied
 * @tclass: target class (lookups and updates)
 * @cpu: the CPU the event happened on (modulo 65536)
 * @kind: an enum avc_trace_kind
 * @flags: AVC_TRACE_F_* bits: lookups, HIT, DECIDED and REQUESTED;
 *	updates, GRANTED if the kernel granted what was denied (permissive)
 *	and updated its entry, none if it refused (enforcing)
 * @reserved: 0
 * @allowed: lookups: the kernel's decision, if AVC_TRACE_F_DECIDED:
 *	allowed permissions ...
 * @auditallow: ... audited grants ...
 * @auditdeny: ... audited denials ...
 * @seqno: ... and the policy seqno it was computed under; resets: the
 *	seqno the cache was reset for
 * @avd_flags: the decision's flags (SELinux's AVD_FLAGS_PERMISSIVE: 1)
 * @reserved2: 0
 */
struct avc_trace_record2 {
	__le64 ts_ns;
	__le32 seq;
	__le32 ssid;
	__le32 tsid;
	__le32 requested;
	__le16 tclass;
	__le16 cpu;
	__u8 kind;
	__u8 flags;
	__le16 reserved;
	__le32 allowed;
	__le32 auditallow;
	__le32 auditdeny;
	__le32 seqno;
	__le32 avd_flags;
	__le32 reserved2;
};

#ifdef __KERNEL__
#define avc_trace_le32(x)	le32_to_cpu(x)
#else
#include <endian.h>
#include <stddef.h>
#define avc_trace_le32(x)	le32toh(x)
#endif

/**
 * avc_trace_record_size() - the size of the records a header announces
 * @h: the header as read (little-endian), its magic already checked
 *
 * The one rule every reader applies: version 2 with 56-byte records or
 * version 1 with 24-byte records, flags and reserved 0.
 *
 * Return: sizeof(struct avc_trace_record2) or sizeof(struct
 * avc_trace_record), or 0 for a header no reader accepts.
 */
static inline size_t avc_trace_record_size(const struct avc_trace_header *h)
{
	if (h->flags || h->reserved)
		return 0;
	if (avc_trace_le32(h->version) == AVC_TRACE_VERSION &&
	    avc_trace_le32(h->record_size) == sizeof(struct avc_trace_record2))
		return sizeof(struct avc_trace_record2);
	if (avc_trace_le32(h->version) == AVC_TRACE_VERSION_1 &&
	    avc_trace_le32(h->record_size) == sizeof(struct avc_trace_record))
		return sizeof(struct avc_trace_record);
	return 0;
}

#endif /* AVC_TRACE_FORMAT_H */
