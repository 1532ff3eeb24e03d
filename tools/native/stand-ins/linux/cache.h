/* SPDX-License-Identifier: GPL-2.0 */
/* Native shim for <linux/cache.h>: 64-byte lines, as on x86-64. */
#ifndef _AVC_NATIVE_LINUX_CACHE_H
#define _AVC_NATIVE_LINUX_CACHE_H

#include <linux/compiler.h>

#define L1_CACHE_BYTES			64
#define SMP_CACHE_BYTES			L1_CACHE_BYTES
#define ____cacheline_aligned		__aligned(SMP_CACHE_BYTES)
#define ____cacheline_aligned_in_smp	____cacheline_aligned

#endif /* _AVC_NATIVE_LINUX_CACHE_H */
