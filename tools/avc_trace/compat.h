/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The trace tools' modules: what differs between the kernels they probe,
 * in one place (as include/avc_rcu/compat.h is the module's).
 */
#ifndef _AVC_TRACE_COMPAT_H
#define _AVC_TRACE_COMPAT_H

#include <linux/version.h>

/*
 * SELINUX_ARG0: the first argument of SELinux's avc_lookup() and
 * avc_ss_reset() that is theirs.  Until 6.4 both took the struct
 * selinux_avc * first (6.4 made the AVC a global), so ssid, tsid and
 * tclass are arguments 1, 2 and 3; from 6.4 on, 0, 1 and 2.
 */
#if LINUX_VERSION_CODE < KERNEL_VERSION(6, 4, 0)
#define SELINUX_ARG0	1
#else
#define SELINUX_ARG0	0
#endif

#endif /* _AVC_TRACE_COMPAT_H */
