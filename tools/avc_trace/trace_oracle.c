// SPDX-License-Identifier: GPL-2.0
/*
 * The kernel's decisions as the oracle of a replay (trace_oracle.h says
 * what is built and checked).
 */
#include <endian.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../avcstat/avc_trace_format.h"
#include "trace_oracle.h"

#define AVD_FLAGS_PERMISSIVE	1

struct decision {
	uint32_t allowed, auditallow, auditdeny, flags, seqno;
};

/* A key of a stretch, or of the kernel's cache (stretch unused). */
struct entry {
	uint32_t ssid, tsid;
	uint16_t tclass;
	uint8_t used;
	uint8_t set;		/* d holds a decision */
	uint8_t computed;	/* the decision is a computed one */
	uint32_t stretch;
	struct decision d;
	uint32_t grants;	/* kernel cache: granted in place since */
};

struct table {
	struct entry *e;
	size_t cap, n;
};

struct trace_oracle {
	const struct avc_trace_record2 *rec;
	uint64_t nrec;
	struct table policy;	/* (stretch, key) -> decision */
	struct table kernel;	/* key -> the kernel's cached state */
	char **text;		/* per stretch */
	size_t *textlen;
	unsigned int nstretch;
	unsigned int stretch;	/* of the record being replayed */
	uint32_t *seqno;	/* per stretch: its decisions' seqno */
	int have_delta;
	uint32_t seqno_delta;	/* kernel seqno - avc_rcu's, this stretch */
	unsigned int reports;
	struct trace_oracle_stats st;
};

static uint64_t key_hash(uint32_t s, uint32_t t, uint16_t c, uint32_t k)
{
	uint64_t h = ((uint64_t)s << 32 | t) ^ ((uint64_t)c << 16 | k) *
		     0x9e3779b97f4a7c15ULL;

	h ^= h >> 31;
	h *= 0xbf58476d1ce4e5b9ULL;
	h ^= h >> 29;
	return h;
}

static struct entry *table_find(struct table *tb, uint32_t s, uint32_t t,
				uint16_t c, uint32_t k, int add);

static void table_grow(struct table *tb)
{
	struct table old = *tb;
	struct entry *e;
	size_t i;

	tb->cap = tb->cap ? tb->cap * 2 : 4096;
	tb->e = calloc(tb->cap, sizeof(*tb->e));
	tb->n = 0;
	if (!tb->e) {
		fprintf(stderr, "trace_oracle: out of memory\n");
		exit(1);
	}
	for (i = 0; i < old.cap; i++) {
		if (!old.e[i].used)
			continue;
		e = table_find(tb, old.e[i].ssid, old.e[i].tsid,
			       old.e[i].tclass, old.e[i].stretch, 1);
		*e = old.e[i];
	}
	free(old.e);
}

static struct entry *table_find(struct table *tb, uint32_t s, uint32_t t,
				uint16_t c, uint32_t k, int add)
{
	size_t i;

	if (add && (tb->n + 1) * 2 > tb->cap)
		table_grow(tb);
	if (!tb->cap)
		return NULL;
	for (i = key_hash(s, t, c, k) & (tb->cap - 1); tb->e[i].used;
	     i = (i + 1) & (tb->cap - 1))
		if (tb->e[i].ssid == s && tb->e[i].tsid == t &&
		    tb->e[i].tclass == c && tb->e[i].stretch == k)
			return &tb->e[i];
	if (!add)
		return NULL;
	tb->e[i].used = 1;
	tb->e[i].ssid = s;
	tb->e[i].tsid = t;
	tb->e[i].tclass = c;
	tb->e[i].stretch = k;
	tb->n++;
	return &tb->e[i];
}

static void decision_of(const struct avc_trace_record2 *r, struct decision *d)
{
	d->allowed = le32toh(r->allowed);
	d->auditallow = le32toh(r->auditallow);
	d->auditdeny = le32toh(r->auditdeny);
	d->flags = le32toh(r->avd_flags);
	d->seqno = le32toh(r->seqno);
}

static int same_decision(const struct decision *a, const struct decision *b)
{
	return a->allowed == b->allowed && a->auditallow == b->auditallow &&
	       a->auditdeny == b->auditdeny && a->flags == b->flags;
}

static void text_add(char **buf, size_t *len, size_t *cap, const char *fmt,
		     ...)
{
	va_list ap;
	int n;

	for (;;) {
		va_start(ap, fmt);
		n = vsnprintf(*buf + *len, *cap - *len, fmt, ap);
		va_end(ap);
		if (n >= 0 && (size_t)n < *cap - *len)
			break;
		*cap = *cap ? *cap * 2 : 65536;
		*buf = realloc(*buf, *cap);
		if (!*buf) {
			fprintf(stderr, "trace_oracle: out of memory\n");
			exit(1);
		}
	}
	*len += n;
}

/* The policy text of every stretch, from the table. */
static void make_texts(struct trace_oracle *o)
{
	size_t *cap = calloc(o->nstretch, sizeof(*cap));
	struct table perm = { 0 };
	const struct entry *e;
	size_t i;

	o->text = calloc(o->nstretch, sizeof(*o->text));
	o->textlen = calloc(o->nstretch, sizeof(*o->textlen));
	if (!cap || !o->text || !o->textlen) {
		fprintf(stderr, "trace_oracle: out of memory\n");
		exit(1);
	}
	for (i = 0; i < o->nstretch; i++)
		text_add(&o->text[i], &o->textlen[i], &cap[i],
			 "# stretch %zu of the trace, as the kernel decided\n",
			 i);
	for (i = 0; i < o->policy.cap; i++) {
		e = &o->policy.e[i];
		if (!e->used)
			continue;
		if (e->d.allowed)
			text_add(&o->text[e->stretch], &o->textlen[e->stretch],
				 &cap[e->stretch], "allow %u %u %u 0x%x\n",
				 e->ssid, e->tsid, e->tclass, e->d.allowed);
		if (e->d.auditallow)
			text_add(&o->text[e->stretch], &o->textlen[e->stretch],
				 &cap[e->stretch], "auditallow %u %u %u 0x%x\n",
				 e->ssid, e->tsid, e->tclass,
				 e->d.auditallow);
		if (~e->d.auditdeny)
			text_add(&o->text[e->stretch], &o->textlen[e->stretch],
				 &cap[e->stretch], "dontaudit %u %u %u 0x%x\n",
				 e->ssid, e->tsid, e->tclass,
				 ~e->d.auditdeny);
		/* Permissive is a source's: once a stretch. */
		if ((e->d.flags & AVD_FLAGS_PERMISSIVE) &&
		    !table_find(&perm, e->ssid, 0, 0, e->stretch, 0)) {
			table_find(&perm, e->ssid, 0, 0, e->stretch, 1);
			text_add(&o->text[e->stretch], &o->textlen[e->stretch],
				 &cap[e->stretch], "permissive %u\n", e->ssid);
		}
	}
	free(perm.e);
	free(cap);
}

/*
 * The seqno each stretch's decisions carry: the most frequent one among
 * its decided lookups (a majority vote, then checked).  A policy change
 * and the reset of the kernel's AVC it causes are not one instant: a
 * lookup on another CPU may be decided under the old policy and recorded
 * after the reset, or under the new one and recorded before it.  Such a
 * lookup carries the seqno of the stretch it was decided in, not of the
 * one it is recorded in.
 */
static uint32_t *stretch_seqnos(const struct avc_trace_record2 *rec,
				uint64_t n, unsigned int nstretch)
{
	uint32_t *seqno = calloc(nstretch, sizeof(*seqno));
	uint64_t *votes = calloc(nstretch, sizeof(*votes));
	uint64_t i;
	unsigned int k;
	uint32_t q;

	if (!seqno || !votes) {
		fprintf(stderr, "trace_oracle: out of memory\n");
		exit(1);
	}
	for (i = 0, k = 0; i < n; i++) {
		if (rec[i].kind == AVC_TRACE_RESET)
			k++;
		if (rec[i].kind != AVC_TRACE_LOOKUP ||
		    !(rec[i].flags & AVC_TRACE_F_DECIDED))
			continue;
		q = le32toh(rec[i].seqno);
		if (!votes[k])
			seqno[k] = q;
		if (seqno[k] == q)
			votes[k]++;
		else
			votes[k]--;
	}
	free(votes);
	return seqno;
}

struct trace_oracle *trace_oracle_new(const void *records, uint64_t nrecords,
				      char *why, size_t whylen)
{
	struct trace_oracle *o = calloc(1, sizeof(*o));
	const struct avc_trace_record2 *r;
	struct decision d;
	struct entry *e;
	uint64_t i, decided = 0;
	unsigned int k = 0;

	if (!o) {
		snprintf(why, whylen, "out of memory");
		return NULL;
	}
	o->rec = records;
	o->nrec = nrecords;
	for (i = 0; i < nrecords; i++)
		k += o->rec[i].kind == AVC_TRACE_RESET;
	o->nstretch = k + 1;
	o->seqno = stretch_seqnos(o->rec, nrecords, o->nstretch);
	for (i = 0, k = 0; i < nrecords; i++) {
		r = &o->rec[i];
		if (r->kind == AVC_TRACE_RESET) {
			k++;
			continue;
		}
		if (r->kind != AVC_TRACE_LOOKUP ||
		    !(r->flags & AVC_TRACE_F_DECIDED))
			continue;
		decided++;
		decision_of(r, &d);
		/* A lookup that raced a policy change: not this stretch's. */
		if (d.seqno != o->seqno[k])
			continue;
		e = table_find(&o->policy, le32toh(r->ssid), le32toh(r->tsid),
			       le16toh(r->tclass), k, 1);
		if (r->flags & AVC_TRACE_F_HIT) {
			/* A key cached before: its first answer, for now. */
			if (!e->set) {
				e->d = d;
				e->set = 1;
			}
			continue;
		}
		if (e->computed && !same_decision(&e->d, &d))
			o->st.inconsistent++;
		if (!e->computed) {
			e->d = d;
			e->computed = 1;
			e->set = 1;
		}
	}
	if (!decided) {
		snprintf(why, whylen,
			 "no lookup with the kernel's decision (a version 1 trace?)");
		trace_oracle_free(o);
		return NULL;
	}
	make_texts(o);
	return o;
}

void trace_oracle_free(struct trace_oracle *o)
{
	unsigned int i;

	if (!o)
		return;
	for (i = 0; o->text && i < o->nstretch; i++)
		free(o->text[i]);
	free(o->text);
	free(o->textlen);
	free(o->seqno);
	free(o->policy.e);
	free(o->kernel.e);
	free(o);
}

unsigned int trace_oracle_stretches(const struct trace_oracle *o)
{
	return o->nstretch;
}

const char *trace_oracle_policy(const struct trace_oracle *o, unsigned int k,
				size_t *len)
{
	*len = o->textlen[k];
	return o->text[k];
}

/*
 * A lookup decided in the stretch before or after the one it is recorded
 * in (stretch_seqnos()): avc_rcu, which replays the trace in order, has
 * the recorded stretch's policy and is not asked to agree.  The kernel's
 * answer must be that neighbouring stretch's decision for the key, where
 * the key was decided there (grants aside: the allowed permissions of the
 * policy must be among the answer's).  It changes nothing the oracle
 * follows: the kernel's AVC does not cache a decision older than its
 * latest policy.
 */
static int raced(struct trace_oracle *o, uint64_t i,
		 const struct decision *kd, char *why, size_t whylen)
{
	const struct avc_trace_record2 *r = &o->rec[i];
	const struct entry *pe = NULL;
	unsigned int k = o->stretch;

	if (k > 0 && o->seqno[k - 1] == kd->seqno)
		k--;
	else if (k + 1 < o->nstretch && o->seqno[k + 1] == kd->seqno)
		k++;
	else
		goto bad;
	o->st.raced++;
	pe = table_find(&o->policy, le32toh(r->ssid), le32toh(r->tsid),
			le16toh(r->tclass), k, 0);
	if (!pe || (pe->d.allowed & kd->allowed) == pe->d.allowed)
		return 0;
bad:
	o->st.mismatched++;
	if (o->reports++ < 10)
		snprintf(why, whylen,
			 "record %llu (stretch %u), key %u %u %u: the kernel answered %x seqno %u, of no neighbouring stretch's policy (%s)",
			 (unsigned long long)i, o->stretch, le32toh(r->ssid),
			 le32toh(r->tsid), le16toh(r->tclass), kd->allowed,
			 kd->seqno, pe ? "its allowed differs" : "seqno unknown");
	else
		why[0] = '\0';
	return -1;
}

int trace_oracle_step(struct trace_oracle *o, uint64_t i, uint32_t allowed,
		      uint32_t auditallow, uint32_t auditdeny, uint32_t flags,
		      uint32_t seqno, char *why, size_t whylen)
{
	const struct avc_trace_record2 *r = &o->rec[i];
	uint32_t ssid = le32toh(r->ssid), tsid = le32toh(r->tsid);
	uint16_t tclass = le16toh(r->tclass);
	struct decision kd, ad = { allowed, auditallow, auditdeny, flags, 0 };
	struct entry *ke, *pe;
	size_t j;
	int fresh;

	switch (r->kind) {
	case AVC_TRACE_RESET:
		/* The kernel's AVC is empty now. */
		for (j = 0; j < o->kernel.cap; j++)
			o->kernel.e[j].used = 0;
		o->kernel.n = 0;
		o->stretch++;
		o->have_delta = 0;
		return 0;
	case AVC_TRACE_UPDATE:
		/* Only a permissive denial grants; an enforcing one does not. */
		if (!(r->flags & AVC_TRACE_F_GRANTED)) {
			o->st.denials++;
			return 0;
		}
		ke = table_find(&o->kernel, ssid, tsid, tclass, 0, 0);
		if (ke)
			ke->grants |= le32toh(r->requested);
		return 0;
	case AVC_TRACE_LOOKUP:
		break;
	default:
		return 0;
	}
	if (!(r->flags & AVC_TRACE_F_DECIDED)) {
		o->st.undecided++;
		return 0;
	}
	decision_of(r, &kd);
	if (kd.seqno != o->seqno[o->stretch])
		return raced(o, i, &kd, why, whylen);
	fresh = !table_find(&o->kernel, ssid, tsid, tclass, 0, 0);
	ke = table_find(&o->kernel, ssid, tsid, tclass, 0, 1);
	if (!(r->flags & AVC_TRACE_F_HIT)) {
		/* Cached afresh, without grants. */
		ke->grants = 0;
	} else if (fresh) {
		/*
		 * A hit on what the kernel cached before the trace began:
		 * whatever it has beyond the policy it was granted then.
		 */
		pe = table_find(&o->policy, ssid, tsid, tclass, o->stretch, 0);
		if (pe && (kd.allowed & pe->d.allowed) == pe->d.allowed)
			ke->grants = kd.allowed & ~pe->d.allowed;
	}
	o->st.checked++;
	if (ke->grants)
		o->st.granted++;
	ad.allowed |= ke->grants;
	if (!o->have_delta) {
		o->seqno_delta = kd.seqno - seqno;
		o->have_delta = 1;
	}
	if (same_decision(&ad, &kd) && kd.seqno - seqno == o->seqno_delta) {
		o->st.matched++;
		return 0;
	}
	o->st.mismatched++;
	if (o->reports++ < 10)
		snprintf(why, whylen,
			 "record %llu (stretch %u), key %u %u %u: avc_rcu %x %x %x %x seqno %u (+ grants %x), kernel %x %x %x %x seqno %u (seqno offset %d)",
			 (unsigned long long)i, o->stretch, ssid, tsid, tclass,
			 allowed, auditallow, auditdeny, flags, seqno,
			 ke->grants, kd.allowed, kd.auditallow, kd.auditdeny,
			 kd.flags, kd.seqno, (int)o->seqno_delta);
	else
		why[0] = '\0';
	return -1;
}

void trace_oracle_stats(const struct trace_oracle *o,
			struct trace_oracle_stats *st)
{
	*st = o->st;
}

void trace_oracle_rewind(struct trace_oracle *o)
{
	uint64_t inconsistent = o->st.inconsistent;
	size_t j;

	for (j = 0; j < o->kernel.cap; j++)
		o->kernel.e[j].used = 0;
	o->kernel.n = 0;
	o->stretch = 0;
	o->have_delta = 0;
	o->reports = 0;
	memset(&o->st, 0, sizeof(o->st));
	o->st.inconsistent = inconsistent;
}
