/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Native shim for <trace/define_trace.h>: the kernel's re-reads the trace
 * header to define each event's tracefs machinery (in the one file that
 * defines CREATE_TRACE_POINTS); natively there is nothing to define.
 * Deliberately without an include guard, as the kernel's.
 */
