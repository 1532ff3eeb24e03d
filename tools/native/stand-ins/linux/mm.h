/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Native shim for <linux/mm.h>: what the core takes from it, the kvmalloc()
 * family (in the slab shim, as in 6.1's headers) and is_power_of_2().
 */
#ifndef _AVC_NATIVE_LINUX_MM_H
#define _AVC_NATIVE_LINUX_MM_H

#include <linux/gfp.h>
#include <linux/log2.h>
#include <linux/slab.h>

#endif /* _AVC_NATIVE_LINUX_MM_H */
