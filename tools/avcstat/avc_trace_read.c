// SPDX-License-Identifier: GPL-2.0
/*
 * avc_rcu: the one reader of AVC traces for the replay front-ends
 * (avc_trace_read.h).  Two ways in: avc_trace_open() streams a plain
 * trace from a file or standard input, a chunk at a time, as avc-curve
 * reads traces of any length; avc_trace_load() reads and checks a whole
 * trace into memory, xz-compressed or plain when built with AVC_TRACE_XZ,
 * as the native replay, which replays each trace several times, needs it.
 * Either way the checks are the same, in the same order.
 */
#include <endian.h>
#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#ifdef AVC_TRACE_XZ
#include <lzma.h>
#endif

#include "avc_trace_read.h"

#define CHUNK		4096		/* records read at a time */

static const unsigned char xz_magic[6] = { 0xfd, '7', 'z', 'X', 'Z', 0 };

static void fail(struct avc_trace_reader *r, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(r->error, sizeof(r->error), fmt, ap);
	va_end(ap);
}

/* The header at the start of @r->buf (@r->len bytes) checked. */
static int check_header(struct avc_trace_reader *r)
{
	struct avc_trace_header h;
	bool xz;

	if (r->len < sizeof(h)) {
		fail(r, "trace truncated: %zu bytes, shorter than a header",
		     r->len);
		return -1;
	}
	memcpy(&h, r->buf, sizeof(h));
	if (memcmp(h.magic, AVC_TRACE_MAGIC, sizeof(h.magic))) {
		xz = !memcmp(h.magic, xz_magic, sizeof(xz_magic));
		fail(r, "not an AVC trace: bad magic%s%s%s",
		     xz && r->xz_hint ? " (xz-compressed: " : "",
		     xz && r->xz_hint ? r->xz_hint : "",
		     xz && r->xz_hint ? ")" : "");
		return -1;
	}
	r->recsize = avc_trace_record_size(&h);
	if (!r->recsize) {
		fail(r, "bad header: version %u, record size %u, flags %#x %s",
		     le32toh(h.version), le32toh(h.record_size),
		     le32toh(h.flags),
		     "(want version 2, size 56 or version 1, size 24; flags 0)");
		return -1;
	}
	r->version = le32toh(h.version);
	r->nrecords = le64toh(h.nrecords);
	r->pos = sizeof(h);
	return 0;
}

/*
 * Streaming: up to @want more bytes after those not yet taken, which move
 * to the start of the buffer.  Returns the bytes now buffered, or -1 on a
 * read error.
 */
static long fill(struct avc_trace_reader *r, size_t want)
{
	size_t left = r->len - r->pos;

	if (r->loaded)
		return left;
	memmove(r->buf, r->buf + r->pos, left);
	r->pos = 0;
	r->len = left + fread(r->buf + left, 1, want - left, r->f);
	if (ferror(r->f)) {
		fail(r, "%s", strerror(errno));
		return -1;
	}
	return r->len;
}

static FILE *open_file(struct avc_trace_reader *r, const char *path,
		       bool dash)
{
	FILE *f = dash && !strcmp(path, "-") ? stdin : fopen(path, "rb");

	if (!f)
		fail(r, "%s", strerror(errno));
	return f;
}

/**
 * avc_trace_open() - start reading a plain trace, a chunk at a time
 * @r: the reader; its @xz_hint as the caller wants it, the rest any
 * @path: the trace's file, or "-" for standard input
 *
 * Reads and checks the header; avc_trace_next() then gives the records.
 * xz-compressed traces are not read this way (see avc_trace_load()).
 *
 * Return: 0, or -1 with @r->error set (then avc_trace_close() @r still).
 */
int avc_trace_open(struct avc_trace_reader *r, const char *path)
{
	const char *hint = r->xz_hint;

	memset(r, 0, sizeof(*r));
	r->xz_hint = hint;
	r->f = open_file(r, path, true);
	if (!r->f)
		return -1;
	r->buf = malloc(CHUNK * sizeof(struct avc_trace_record2));
	if (!r->buf) {
		fail(r, "out of memory");
		return -1;
	}
	if (fill(r, sizeof(struct avc_trace_header)) < 0)
		return -1;
	return check_header(r);
}

/* The whole of @r->f into @r->buf. */
static int slurp(struct avc_trace_reader *r)
{
	size_t cap = 0, got;
	unsigned char *p;

	do {
		if (cap - r->len < 65536) {
			cap = cap ? 2 * cap : 1 << 20;
			p = realloc(r->buf, cap);
			if (!p) {
				fail(r, "out of memory");
				return -1;
			}
			r->buf = p;
		}
		got = fread(r->buf + r->len, 1, cap - r->len, r->f);
		r->len += got;
	} while (got);
	if (ferror(r->f)) {
		fail(r, "%s", strerror(errno));
		return -1;
	}
	return 0;
}

#ifdef AVC_TRACE_XZ
/* @r->buf, if xz-compressed, decompressed in its place. */
static int unxz(struct avc_trace_reader *r)
{
	lzma_stream s = LZMA_STREAM_INIT;
	unsigned char *out = NULL, *p;
	size_t cap = 0;
	lzma_ret ret;

	if (r->len < sizeof(xz_magic) ||
	    memcmp(r->buf, xz_magic, sizeof(xz_magic)))
		return 0;
	if (lzma_stream_decoder(&s, UINT64_MAX, LZMA_CONCATENATED) != LZMA_OK) {
		fail(r, "cannot start the xz decoder");
		return -1;
	}
	s.next_in = r->buf;
	s.avail_in = r->len;
	do {
		if (!s.avail_out) {
			cap = cap ? 2 * cap : 8 << 20;
			p = realloc(out, cap);
			if (!p) {
				free(out);
				lzma_end(&s);
				fail(r, "out of memory");
				return -1;
			}
			out = p;
			s.next_out = out + s.total_out;
			s.avail_out = cap - s.total_out;
		}
		ret = lzma_code(&s, LZMA_FINISH);
	} while (ret == LZMA_OK);
	lzma_end(&s);
	if (ret != LZMA_STREAM_END) {
		free(out);
		fail(r, "xz: %s", ret == LZMA_BUF_ERROR ?
		     "compressed data cut short" : "corrupt compressed data");
		return -1;
	}
	free(r->buf);
	r->buf = out;
	r->len = s.total_out;
	return 0;
}
#else
static int unxz(struct avc_trace_reader *r)
{
	(void)r;
	return 0;
}
#endif

/**
 * avc_trace_load() - read and check a whole trace into memory
 * @r: the reader; its @xz_hint as the caller wants it, the rest any
 * @path: the trace's file
 *
 * Reads the file, decompresses it if it is xz-compressed and the reader
 * was built with AVC_TRACE_XZ, and checks the header, every record and
 * the end.  avc_trace_records() then gives the records.
 *
 * Return: 0, or -1 with @r->error set (then avc_trace_close() @r still).
 */
int avc_trace_load(struct avc_trace_reader *r, const char *path)
{
	const char *hint = r->xz_hint;
	struct avc_trace_event e;

	memset(r, 0, sizeof(*r));
	r->xz_hint = hint;
	r->loaded = true;
	r->f = open_file(r, path, false);
	if (!r->f || slurp(r) || unxz(r) || check_header(r))
		return -1;
	while (avc_trace_next(r, &e))
		;
	if (r->error[0])
		return -1;
	r->pos = sizeof(struct avc_trace_header);
	return 0;
}

/* After the last record: nothing may follow, whole or partial. */
static void check_end(struct avc_trace_reader *r)
{
	long got;

	r->ended = true;
	got = fill(r, r->recsize);
	if (got < 0)
		return;
	if ((size_t)got >= r->recsize)
		fail(r, "record %llu: past the %llu records the header announces",
		     r->nrecords, r->nrecords);
	else if (got)
		fail(r, "trace truncated: %llu of %llu records, %zu bytes of a partial one",
		     r->next, r->nrecords, (size_t)got);
}

/**
 * avc_trace_next() - the next record, checked and decoded
 * @r: a reader avc_trace_open() or avc_trace_load() opened
 * @e: the record's fields, in host order (avc_trace_event()'s)
 *
 * Gives the records in order, each checked (its seq, its kind); after the
 * last, checks that the trace ends there.
 *
 * Return: the record (struct avc_trace_record2 or struct avc_trace_record,
 * @r->recsize bytes, as read), valid until the next call, with @e its
 * fields; NULL at the end, or with @r->error set on a fault.
 */
const void *avc_trace_next(struct avc_trace_reader *r,
			   struct avc_trace_event *e)
{
	unsigned long long left = r->nrecords - r->next;
	const void *p;
	long got;

	if (r->error[0] || r->ended)
		return NULL;
	if (!left) {
		check_end(r);
		return NULL;
	}
	if (r->len - r->pos < r->recsize) {
		got = fill(r, (left < CHUNK ? left : CHUNK) * r->recsize);
		if (got < 0)
			return NULL;
		if ((size_t)got < r->recsize) {
			fail(r, "trace truncated: %llu of %llu records, %zu bytes of a partial one",
			     r->next, r->nrecords, (size_t)got);
			return NULL;
		}
	}
	p = r->buf + r->pos;
	avc_trace_event(r, p, e);
	if (e->seq != (uint32_t)r->next) {
		fail(r, "record %llu: seq %u, expected %u (events lost?)",
		     r->next, e->seq, (uint32_t)r->next);
		return NULL;
	}
	if (e->kind > AVC_TRACE_UPDATE) {
		fail(r, "record %llu: unknown kind %u", r->next, e->kind);
		return NULL;
	}
	r->pos += r->recsize;
	r->next++;
	return p;
}

/**
 * avc_trace_records() - a loaded trace's records
 * @r: a reader avc_trace_load() loaded
 *
 * Return: the @r->nrecords records, @r->recsize bytes each, as read.
 */
const void *avc_trace_records(const struct avc_trace_reader *r)
{
	return r->buf + sizeof(struct avc_trace_header);
}

/**
 * avc_trace_event() - a record decoded
 * @r: the reader it came from (its version)
 * @rec: the record, as avc_trace_next() or avc_trace_records() gave it
 * @e: its fields, in host order
 */
void avc_trace_event(const struct avc_trace_reader *r, const void *rec,
		     struct avc_trace_event *e)
{
	const struct avc_trace_record2 *v2 = rec;
	const struct avc_trace_record *v1 = rec;

	if (r->recsize == sizeof(*v2)) {
		e->ts_ns = le64toh(v2->ts_ns);
		e->kind = v2->kind;
		e->flags = v2->flags;
		e->seq = le32toh(v2->seq);
		e->ssid = le32toh(v2->ssid);
		e->tsid = le32toh(v2->tsid);
		e->requested = le32toh(v2->requested);
		e->tclass = le16toh(v2->tclass);
		e->cpu = le16toh(v2->cpu);
	} else {
		e->ts_ns = 0;
		e->kind = v1->kind;
		/* Version 1 was recorded permissive only: updates granted. */
		e->flags = e->kind == AVC_TRACE_UPDATE ? AVC_TRACE_F_GRANTED : 0;
		e->seq = le32toh(v1->seq);
		e->ssid = le32toh(v1->ssid);
		e->tsid = le32toh(v1->tsid);
		e->requested = le32toh(v1->requested);
		e->tclass = le16toh(v1->tclass);
		e->cpu = le16toh(v1->cpu);
	}
}

/**
 * avc_trace_close() - the end of reading
 * @r: a reader, opened or loaded, whether that succeeded or not
 *
 * Closes its file (not standard input) and frees its buffer, the records
 * avc_trace_records() gave with it.
 */
void avc_trace_close(struct avc_trace_reader *r)
{
	if (r->f && r->f != stdin)
		fclose(r->f);
	free(r->buf);
	r->f = NULL;
	r->buf = NULL;
}
