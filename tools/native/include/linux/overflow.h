/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Native shim for <linux/overflow.h>: struct_size(), without the
 * kernel's saturation (the core's sizes are bounded far below it).
 */
#ifndef _AVC_NATIVE_LINUX_OVERFLOW_H
#define _AVC_NATIVE_LINUX_OVERFLOW_H

#include <stddef.h>

static inline size_t avc_native_struct_size(size_t head, size_t elem,
					    size_t count)
{
	return head + elem * count;
}

#define struct_size(p, member, count) ({				\
	__typeof__(p) __p = NULL;					\
									\
	avc_native_struct_size(sizeof(*__p), sizeof(__p->member[0]),	\
			       (count));				\
})

#endif /* _AVC_NATIVE_LINUX_OVERFLOW_H */
