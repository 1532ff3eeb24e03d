/* SPDX-License-Identifier: GPL-2.0 */
/*
 * avc_rcu core: tracepoints, system "avc_rcu" in tracefs.
 *
 * Every event is on a slow path: a miss and the insert after it, a
 * reclaim section, a resize, a flush, a reset, a policy load, a threshold
 * change.  None is on the hit path (avc_cache_has_perm()'s lockless
 * lookup), as a test of the built module checks: a tracepoint is a static
 * branch and, when enabled, a call through the tracepoint's function
 * pointers, neither of which a hit may pay for.
 * The events and their fields are listed in
 * Documentation/admin-guide.rst, "Tracepoints".
 *
 * avc/events.c defines CREATE_TRACE_POINTS and includes this header once;
 * every other file only declares the trace_avc_rcu_*() calls.  The kernel's
 * define_trace.h then re-reads this header as
 * TRACE_INCLUDE_PATH/TRACE_INCLUDE_FILE.h, which the -I of avc/ in Kbuild
 * finds, since it is not in the kernel's include/trace/events/.  A
 * userspace build of the core gives stand-ins for <linux/tracepoint.h>
 * and <trace/define_trace.h> that make every event an empty function.
 */
#undef TRACE_SYSTEM
#define TRACE_SYSTEM avc_rcu

#if !defined(_AVC_RCU_EVENTS_H) || defined(TRACE_HEADER_MULTI_READ)
#define _AVC_RCU_EVENTS_H

#include <linux/tracepoint.h>
#include "avc.h"

TRACE_DEFINE_ENUM(AVC_RECLAIM_LRU);
TRACE_DEFINE_ENUM(AVC_RECLAIM_FIFO);
TRACE_DEFINE_ENUM(AVC_RECLAIM_NEWEST);

TRACE_DEFINE_ENUM(AVC_INSERT_LINKED);
TRACE_DEFINE_ENUM(AVC_INSERT_REPLACED);
TRACE_DEFINE_ENUM(AVC_INSERT_RACED);
TRACE_DEFINE_ENUM(AVC_INSERT_STALE);
TRACE_DEFINE_ENUM(AVC_INSERT_NOMEM);
TRACE_DEFINE_ENUM(AVC_INSERT_FULL);
TRACE_DEFINE_ENUM(AVC_INSERT_CHAIN);

#define avc_trace_policy_name(p)					\
	__print_symbolic(p,						\
			 { AVC_RECLAIM_LRU, "lru" },			\
			 { AVC_RECLAIM_FIFO, "fifo" },			\
			 { AVC_RECLAIM_NEWEST, "newest" })

#define avc_trace_insert_name(r)					\
	__print_symbolic(r,						\
			 { AVC_INSERT_LINKED, "linked" },		\
			 { AVC_INSERT_REPLACED, "replaced" },		\
			 { AVC_INSERT_RACED, "raced" },			\
			 { AVC_INSERT_STALE, "stale" },			\
			 { AVC_INSERT_NOMEM, "nomem" },		\
			 { AVC_INSERT_FULL, "full" },			\
			 { AVC_INSERT_CHAIN, "chain" })

/*
 * avc_rcu_miss - a lookup the security server answered
 * @ssid: source SID asked for
 * @tsid: target SID asked for
 * @tclass: target class asked for
 * @requested: permissions asked for
 * @avd: the decision the security server computed
 */
TRACE_EVENT(avc_rcu_miss,
	    TP_PROTO(u32 ssid, u32 tsid, u16 tclass, u32 requested,
		     const struct avc_rcu_decision *avd),
	    TP_ARGS(ssid, tsid, tclass, requested, avd),
	    TP_STRUCT__entry(__field(u32, ssid)
			     __field(u32, tsid)
			     __field(u16, tclass)
			     __field(u32, requested)
			     __field(u32, allowed)
			     __field(u32, seqno)
			     __field(u32, flags)),
	    TP_fast_assign(__entry->ssid = ssid;
			   __entry->tsid = tsid;
			   __entry->tclass = tclass;
			   __entry->requested = requested;
			   __entry->allowed = avd->allowed;
			   __entry->seqno = avd->seqno;
			   __entry->flags = avd->flags;),
	    TP_printk("ssid=%u tsid=%u tclass=%u requested=0x%x allowed=0x%x seqno=%u flags=0x%x",
		      __entry->ssid, __entry->tsid, __entry->tclass,
		      __entry->requested, __entry->allowed, __entry->seqno,
		      __entry->flags)
);

/*
 * avc_rcu_insert - what became of a miss's decision
 * @ssid: source SID
 * @tsid: target SID
 * @tclass: target class
 * @seqno: seqno of the policy the decision was computed under
 * @bucket: the key's bucket
 * @result: enum avc_insert_result
 * @active: places taken afterwards (linked entries and inserts in flight)
 */
TRACE_EVENT(avc_rcu_insert,
	    TP_PROTO(u32 ssid, u32 tsid, u16 tclass, u32 seqno,
		     unsigned int bucket, int result, int active),
	    TP_ARGS(ssid, tsid, tclass, seqno, bucket, result, active),
	    TP_STRUCT__entry(__field(u32, ssid)
			     __field(u32, tsid)
			     __field(u16, tclass)
			     __field(u32, seqno)
			     __field(unsigned int, bucket)
			     __field(int, result)
			     __field(int, active)),
	    TP_fast_assign(__entry->ssid = ssid;
			   __entry->tsid = tsid;
			   __entry->tclass = tclass;
			   __entry->seqno = seqno;
			   __entry->bucket = bucket;
			   __entry->result = result;
			   __entry->active = active;),
	    TP_printk("ssid=%u tsid=%u tclass=%u seqno=%u bucket=%u result=%s active=%d",
		      __entry->ssid, __entry->tsid, __entry->tclass,
		      __entry->seqno, __entry->bucket,
		      avc_trace_insert_name(__entry->result), __entry->active)
);

/*
 * avc_rcu_reclaim - one reclaim section
 * @evicted: entries evicted
 * @nodes: nodes examined under the section's locks, at most
 *	AVC_NODE_BUDGET (0: another section had made room)
 * @buckets: bucket heads read, empty or not, in both passes
 * @policy: enum avc_reclaim_policy
 * @active: places taken afterwards (linked entries and inserts in flight)
 * @threshold: cache_threshold
 * @duration_ns: time in the section, waiting for the reclaim lock
 *	included
 */
TRACE_EVENT(avc_rcu_reclaim,
	    TP_PROTO(unsigned int evicted, unsigned int nodes,
		     unsigned int buckets, int policy, int active,
		     unsigned int threshold, u64 duration_ns),
	    TP_ARGS(evicted, nodes, buckets, policy, active, threshold,
		    duration_ns),
	    TP_STRUCT__entry(__field(unsigned int, evicted)
			     __field(unsigned int, nodes)
			     __field(unsigned int, buckets)
			     __field(int, policy)
			     __field(int, active)
			     __field(unsigned int, threshold)
			     __field(u64, duration_ns)),
	    TP_fast_assign(__entry->evicted = evicted;
			   __entry->nodes = nodes;
			   __entry->buckets = buckets;
			   __entry->policy = policy;
			   __entry->active = active;
			   __entry->threshold = threshold;
			   __entry->duration_ns = duration_ns;),
	    TP_printk("evicted=%u nodes=%u buckets=%u policy=%s active=%d threshold=%u duration_ns=%llu",
		      __entry->evicted, __entry->nodes, __entry->buckets,
		      avc_trace_policy_name(__entry->policy), __entry->active,
		      __entry->threshold, __entry->duration_ns)
);

/*
 * avc_rcu_resize - the bucket table replaced by one of another size
 * @old_slots: buckets before
 * @slots: buckets after
 * @moved: entries moved into the new table
 * @dropped: entries dropped instead (of a retired policy, a key inserted
 *	again meanwhile, or a full bucket)
 * @duration_ns: from the new table's allocation to its publication
 */
TRACE_EVENT(avc_rcu_resize,
	    TP_PROTO(unsigned int old_slots, unsigned int slots,
		     unsigned int moved, unsigned int dropped, u64 duration_ns),
	    TP_ARGS(old_slots, slots, moved, dropped, duration_ns),
	    TP_STRUCT__entry(__field(unsigned int, old_slots)
			     __field(unsigned int, slots)
			     __field(unsigned int, moved)
			     __field(unsigned int, dropped)
			     __field(u64, duration_ns)),
	    TP_fast_assign(__entry->old_slots = old_slots;
			   __entry->slots = slots;
			   __entry->moved = moved;
			   __entry->dropped = dropped;
			   __entry->duration_ns = duration_ns;),
	    TP_printk("old_slots=%u slots=%u moved=%u dropped=%u duration_ns=%llu",
		      __entry->old_slots, __entry->slots, __entry->moved,
		      __entry->dropped, __entry->duration_ns)
);

/*
 * avc_rcu_flush - every cached decision dropped, the policy unchanged
 * @seqno: the newest seqno the cache was reset for
 * @entries: entries removed
 */
TRACE_EVENT(avc_rcu_flush,
	    TP_PROTO(u32 seqno, unsigned int entries),
	    TP_ARGS(seqno, entries),
	    TP_STRUCT__entry(__field(u32, seqno)
			     __field(unsigned int, entries)),
	    TP_fast_assign(__entry->seqno = seqno;
			   __entry->entries = entries;),
	    TP_printk("seqno=%u entries=%u", __entry->seqno, __entry->entries)
);

/*
 * avc_rcu_reset - the cache reset for a newly published policy
 * @old_seqno: the newest seqno the cache had been reset for before
 * @seqno: the new policy's seqno
 * @entries: entries removed
 */
TRACE_EVENT(avc_rcu_reset,
	    TP_PROTO(u32 old_seqno, u32 seqno, unsigned int entries),
	    TP_ARGS(old_seqno, seqno, entries),
	    TP_STRUCT__entry(__field(u32, old_seqno)
			     __field(u32, seqno)
			     __field(unsigned int, entries)),
	    TP_fast_assign(__entry->old_seqno = old_seqno;
			   __entry->seqno = seqno;
			   __entry->entries = entries;),
	    TP_printk("old_seqno=%u seqno=%u entries=%u", __entry->old_seqno,
		      __entry->seqno, __entry->entries)
);

/*
 * avc_rcu_policy_load - a policy load, done or failed
 * @err: 0, or the negative errno the load failed with
 * @seqno: the seqno of the policy in force afterwards
 * @rules: distinct rule keys of the new policy (0 if it failed)
 * @permissive: permissive source SIDs of the new policy
 * @duration_ns: from the start of the last parse step to the end of the
 *	cache's reset
 */
TRACE_EVENT(avc_rcu_policy_load,
	    TP_PROTO(int err, u32 seqno, u32 rules, u32 permissive,
		     u64 duration_ns),
	    TP_ARGS(err, seqno, rules, permissive, duration_ns),
	    TP_STRUCT__entry(__field(int, err)
			     __field(u32, seqno)
			     __field(u32, rules)
			     __field(u32, permissive)
			     __field(u64, duration_ns)),
	    TP_fast_assign(__entry->err = err;
			   __entry->seqno = seqno;
			   __entry->rules = rules;
			   __entry->permissive = permissive;
			   __entry->duration_ns = duration_ns;),
	    TP_printk("err=%d seqno=%u rules=%u permissive=%u duration_ns=%llu",
		      __entry->err, __entry->seqno, __entry->rules,
		      __entry->permissive,
		      (unsigned long long)__entry->duration_ns)
);

/*
 * avc_rcu_threshold - cache_threshold changed
 * @old: the value before
 * @new: the value set
 */
TRACE_EVENT(avc_rcu_threshold,
	    TP_PROTO(unsigned int old, unsigned int new),
	    TP_ARGS(old, new),
	    TP_STRUCT__entry(__field(unsigned int, old)
			     __field(unsigned int, new)),
	    TP_fast_assign(__entry->old = old;
			   __entry->new = new;),
	    TP_printk("old=%u new=%u", __entry->old, __entry->new)
);

#endif /* _AVC_RCU_EVENTS_H */

/* Outside the guard: define_trace.h re-reads this file, by this name. */
#undef TRACE_INCLUDE_PATH
#define TRACE_INCLUDE_PATH .
#undef TRACE_INCLUDE_FILE
#define TRACE_INCLUDE_FILE avc_rcu_events
#include <trace/define_trace.h>
