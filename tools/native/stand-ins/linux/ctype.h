/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Native shim for <linux/ctype.h>: isdigit() on a char of any sign, as the
 * kernel's; libc's would be undefined for a negative char.  A program that
 * uses this header does not include libc's <ctype.h>.
 */
#ifndef _AVC_NATIVE_LINUX_CTYPE_H
#define _AVC_NATIVE_LINUX_CTYPE_H

#include <linux/types.h>

static inline bool avc_native_isdigit(int c)
{
	return c >= '0' && c <= '9';
}

#define isdigit(c)		avc_native_isdigit(c)

#endif /* _AVC_NATIVE_LINUX_CTYPE_H */
