/* SPDX-License-Identifier: GPL-2.0 */
/* Native shim for <linux/ktime.h>: ktime_get_ns() on CLOCK_MONOTONIC. */
#ifndef _AVC_NATIVE_LINUX_KTIME_H
#define _AVC_NATIVE_LINUX_KTIME_H

#include <time.h>
#include <linux/types.h>

static inline u64 ktime_get_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (u64)ts.tv_sec * 1000000000ULL + ts.tv_nsec;
}

#endif /* _AVC_NATIVE_LINUX_KTIME_H */
