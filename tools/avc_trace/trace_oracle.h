/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The kernel's decisions as the oracle of a replay: from a version 2
 * trace (tools/avcstat/avc_trace_format.h), the policy each stretch
 * between two resets (a policy load or a boolean change) answered with,
 * as avc_rcu's policy text, and the check of every lookup a replay makes
 * against the answer the kernel gave.  Userspace C, for the replays that
 * can load policies: avc_replay_access (through the load and access
 * files) and tools/native's replay (through the core).
 *
 * The policy of a stretch: for every key looked up in it, the decision
 * the kernel's security server computed for it there (the decision of a
 * lookup the kernel's AVC missed).  Within a stretch a key's computed
 * decision never changes; a trace where it does is reported.
 *
 * The check of a lookup: avc_rcu's decision (allowed, auditallow,
 * auditdeny, flags) must equal the kernel's, but for the permissions the
 * kernel's AVC granted in place since it cached the key (permissive
 * mode: avc_denied() updates the entry; the trace's update records with
 * AVC_TRACE_F_GRANTED; an enforcing denial grants nothing),
 * which the kernel's answer has and a decision of the policy has not: the
 * oracle follows the kernel's cache through the trace (a kernel miss
 * caches the computed decision, an update adds to it, a reset empties it)
 * and adds those grants to avc_rcu's allowed before comparing.  A key
 * the kernel's AVC held before the trace began and never missed on has no
 * computed decision: its policy is its first answer, grants included.
 * The seqnos: avc_rcu's and the kernel's must differ by the same amount
 * within a stretch.  A lookup the kernel decided under the policy of the
 * stretch before or after the one it is recorded in (a policy change and
 * its AVC reset are not one instant on other CPUs) is checked against
 * that stretch's policy instead, and counted apart (raced).
 */
#ifndef AVC_TRACE_ORACLE_H
#define AVC_TRACE_ORACLE_H

#include <stddef.h>
#include <stdint.h>

struct trace_oracle;

/* What the checks found. */
struct trace_oracle_stats {
	uint64_t checked;	/* lookups whose decision was compared */
	uint64_t matched;	/* of which equal to the kernel's */
	uint64_t mismatched;	/* of which not (a failure) */
	uint64_t undecided;	/* lookups the trace has no decision for */
	uint64_t granted;	/* lookups whose kernel answer had grants */
	uint64_t inconsistent;	/* computed decisions changed in a stretch */
	uint64_t denials;	/* update records that granted nothing */
	uint64_t raced;		/* lookups decided under a neighbouring
				 * stretch's policy (a policy change in
				 * flight): checked against that policy
				 */
};

/*
 * Scan @nrecords version 2 records at @records: the stretches and their
 * policies.  NULL, with a reason in @why (@whylen bytes), if the trace
 * cannot serve as an oracle (version 1: no decisions).
 */
struct trace_oracle *trace_oracle_new(const void *records, uint64_t nrecords,
				      char *why, size_t whylen);
void trace_oracle_free(struct trace_oracle *o);

/* Stretches: 1 + the resets. */
unsigned int trace_oracle_stretches(const struct trace_oracle *o);
/* The policy text of stretch @k, "allow ..." lines; *@len its length. */
const char *trace_oracle_policy(const struct trace_oracle *o, unsigned int k,
				size_t *len);

/*
 * Record @i was replayed (in order, every record): for a lookup, avc_rcu
 * answered @allowed .. @seqno.  Returns 0, or -1 if the answer differs
 * from the kernel's (a description of the first few differences goes to
 * @why).
 */
int trace_oracle_step(struct trace_oracle *o, uint64_t i, uint32_t allowed,
		      uint32_t auditallow, uint32_t auditdeny, uint32_t flags,
		      uint32_t seqno, char *why, size_t whylen);

void trace_oracle_stats(const struct trace_oracle *o,
			struct trace_oracle_stats *st);
/* Back to the first record, for another replay of the same trace. */
void trace_oracle_rewind(struct trace_oracle *o);

#endif /* AVC_TRACE_ORACLE_H */
