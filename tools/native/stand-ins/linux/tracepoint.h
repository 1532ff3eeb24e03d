/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Native shim for <linux/tracepoint.h>: there is no tracefs, so each
 * TRACE_EVENT() of avc/avc_rcu_events.h becomes an inline trace_<event>()
 * taking the event's TP_PROTO(), which type-checks every call as the
 * kernel would, and calls the event's probe if a program set one with
 *
 *	avc_native_set_probe(<event>, fn);
 *
 * (fn must have the type of trace_<event>(), which the macro checks).  No
 * probe (the default) makes the call a load and a branch; the arguments
 * are still evaluated.  trace_<event>_enabled() says whether a probe is
 * set, as the kernel's says whether the event is on.  The probe pointers
 * are defined once, where the kernel defines its events (avc/events.c,
 * CREATE_TRACE_POINTS); the tests and benchmarks of tools/native set them
 * before they start their threads.  The event's record layout,
 * assignments and format are dropped unread.
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

#endif /* _AVC_NATIVE_LINUX_TRACEPOINT_H */

/*
 * Outside the include guard: avc/events.c includes the trace header a
 * second time with CREATE_TRACE_POINTS defined, as the kernel's
 * define_trace.h re-reads it, and then gets the definitions.
 */
#undef TRACE_EVENT
#ifdef CREATE_TRACE_POINTS
#define TRACE_EVENT(name, proto, args, tstruct, assign, print)		\
	void *avc_native_probe_##name
#else
#define TRACE_EVENT(name, proto, args, tstruct, assign, print)		\
	extern void *avc_native_probe_##name;				\
	static inline void trace_##name(proto)				\
	{								\
		__typeof__(trace_##name) *probe =			\
			__atomic_load_n(&avc_native_probe_##name,	\
					__ATOMIC_RELAXED);		\
									\
		if (probe)						\
			probe(args);					\
	}								\
	static inline bool trace_##name##_enabled(void)			\
	{								\
		return __atomic_load_n(&avc_native_probe_##name,	\
				       __ATOMIC_RELAXED);		\
	}
#endif

#ifndef avc_native_set_probe
#define avc_native_set_probe(name, fn) do {				\
	__typeof__(trace_##name) *__probe = (fn);			\
									\
	__atomic_store_n(&avc_native_probe_##name, (void *)__probe,	\
			 __ATOMIC_RELAXED);				\
} while (0)
#endif
