/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Native shim for <linux/tracepoint.h>: there is no tracefs, so each
 * TRACE_EVENT() of avc/avc_rcu_trace.h becomes an empty inline
 * trace_<event>() taking the event's TP_PROTO(), which type-checks every
 * call as the kernel would and compiles to nothing; the arguments are
 * still evaluated.  trace_<event>_enabled() is false.  The event's record
 * layout, assignments and format are dropped unread.
 */
#ifndef _AVC_NATIVE_LINUX_TRACEPOINT_H
#define _AVC_NATIVE_LINUX_TRACEPOINT_H

#include <linux/types.h>

#define PARAMS(args...) args
#define TP_PROTO(args...) args
#define TP_ARGS(args...) args
#define TP_STRUCT__entry(args...)
#define TP_fast_assign(args...)
#define TP_printk(fmt, args...)

#define TRACE_DEFINE_ENUM(a)

#define TRACE_EVENT(name, proto, args, tstruct, assign, print)		\
	static inline void trace_##name(proto)				\
	{								\
	}								\
	static inline bool trace_##name##_enabled(void)			\
	{								\
		return false;						\
	}

#endif /* _AVC_NATIVE_LINUX_TRACEPOINT_H */
