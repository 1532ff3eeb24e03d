/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Native shim for <linux/errno.h>: the system's (uapi) one.  glibc's
 * <errno.h> includes it too, so it must stay exactly the system's.
 */
#include_next <linux/errno.h>
