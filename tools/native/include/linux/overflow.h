/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Native shim for <linux/overflow.h>: struct_size(), without the
 * kernel's saturation (the core's sizes are bounded far below it).
 */
#ifndef _AVC_NATIVE_LINUX_OVERFLOW_H
#define _AVC_NATIVE_LINUX_OVERFLOW_H

#include <stddef.h>

#define struct_size(p, member, count)					\
	(sizeof(*(p)) + sizeof(*(p)->member) * (size_t)(count))

#endif /* _AVC_NATIVE_LINUX_OVERFLOW_H */
