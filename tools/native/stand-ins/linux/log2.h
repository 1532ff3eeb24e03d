/* SPDX-License-Identifier: GPL-2.0 */
/* Native shim for <linux/log2.h>: is_power_of_2(), roundup_pow_of_two(). */
#ifndef _AVC_NATIVE_LINUX_LOG2_H
#define _AVC_NATIVE_LINUX_LOG2_H

#include <linux/types.h>

static inline bool is_power_of_2(unsigned long n)
{
	return n && !(n & (n - 1));
}

/* The smallest power of two at or above @n (1 for 0), as the kernel's. */
static inline unsigned long roundup_pow_of_two(unsigned long n)
{
	return n <= 1 ? 1 : 1UL << (64 - __builtin_clzl(n - 1));
}

#endif /* _AVC_NATIVE_LINUX_LOG2_H */
