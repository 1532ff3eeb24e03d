/* SPDX-License-Identifier: GPL-2.0 */
/* Native shim for <linux/log2.h>: is_power_of_2(). */
#ifndef _AVC_NATIVE_LINUX_LOG2_H
#define _AVC_NATIVE_LINUX_LOG2_H

#include <linux/types.h>

static inline bool is_power_of_2(unsigned long n)
{
	return n && !(n & (n - 1));
}

#endif /* _AVC_NATIVE_LINUX_LOG2_H */
