/* SPDX-License-Identifier: GPL-2.0 */
/* Native shim for <linux/random.h>: get_random_u32() from getrandom(2). */
#ifndef _AVC_NATIVE_LINUX_RANDOM_H
#define _AVC_NATIVE_LINUX_RANDOM_H

#include <linux/types.h>
#include <avc_native/native.h>

static inline u32 get_random_u32(void)
{
	return avc_native_random_u32();
}

#endif /* _AVC_NATIVE_LINUX_RANDOM_H */
