// SPDX-License-Identifier: GPL-2.0
/*
 * avc_rcu core: the tracepoints' definitions, made once here
 * (CREATE_TRACE_POINTS) from avc_rcu_events.h, which the other files
 * include for the trace_avc_rcu_*() calls alone.
 */

#define CREATE_TRACE_POINTS
#include "avc_rcu_events.h"
