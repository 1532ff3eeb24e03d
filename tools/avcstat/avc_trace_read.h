/* SPDX-License-Identifier: GPL-2.0 */
/*
 * avc_rcu: the one reader of AVC traces (avc_trace_format.h) for the
 * replay front-ends, avc-curve and avc_native_replay.  Plain C and libc;
 * built with AVC_TRACE_XZ defined (and linked with liblzma), it also reads
 * xz-compressed traces.
 *
 * A trace is checked as avc_rcu_replay.ko checks one: the header (magic,
 * version, record size, flags), then each record in order (its seq, its
 * kind), then the end (records missing, a partial one, records past the
 * header's count).  The first fault found is the reader's error, in the
 * module's words, without the trace's name: the caller prints it after
 * its own prefix.
 */
#ifndef AVC_TRACE_READ_H
#define AVC_TRACE_READ_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "avc_trace_format.h"

/**
 * struct avc_trace_event - one record, of either version, in host order
 * @ts_ns: version 2's ts_ns; 0 for version 1
 * @seq: the record's seq
 * @ssid: source SID
 * @tsid: target SID
 * @requested: the permissions asked for
 * @tclass: target class
 * @cpu: the CPU the event happened on (modulo 65536)
 * @kind: an enum avc_trace_kind
 * @flags: version 2's AVC_TRACE_F_* bits; for version 1, which was
 *	recorded permissive only, AVC_TRACE_F_GRANTED on updates
 */
struct avc_trace_event {
	uint64_t ts_ns;
	uint32_t seq, ssid, tsid, requested;
	uint16_t tclass, cpu;
	uint8_t kind, flags;
};

/**
 * struct avc_trace_reader - a trace being read
 * @xz_hint: set by the caller before opening, or NULL: without xz
 *	support, what to do with an xz-compressed trace, said after its
 *	"bad magic"
 * @version: the header's version, 1 or 2
 * @recsize: the records' size, sizeof(struct avc_trace_record) or
 *	sizeof(struct avc_trace_record2)
 * @nrecords: the records the header announces
 * @error: the first fault, once a call has failed
 *
 * The other members are the reader's own.
 */
struct avc_trace_reader {
	const char *xz_hint;
	unsigned int version;
	size_t recsize;
	unsigned long long nrecords;
	char error[256];
	/* private: */
	FILE *f;
	unsigned char *buf;
	size_t len, pos;
	unsigned long long next;
	bool loaded, ended;
};

int avc_trace_open(struct avc_trace_reader *r, const char *path);
int avc_trace_load(struct avc_trace_reader *r, const char *path);
const void *avc_trace_next(struct avc_trace_reader *r,
			   struct avc_trace_event *e);
const void *avc_trace_records(const struct avc_trace_reader *r);
void avc_trace_event(const struct avc_trace_reader *r, const void *rec,
		     struct avc_trace_event *e);
void avc_trace_close(struct avc_trace_reader *r);

#endif /* AVC_TRACE_READ_H */
