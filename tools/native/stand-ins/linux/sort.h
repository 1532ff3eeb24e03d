/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Native shim for <linux/sort.h>: sort() is libc's qsort().  Neither is
 * stable; a custom swap function is not supported (the core passes none).
 */
#ifndef _AVC_NATIVE_LINUX_SORT_H
#define _AVC_NATIVE_LINUX_SORT_H

#include <stdlib.h>
#include <linux/kernel.h>

static inline void sort(void *base, size_t num, size_t size,
			int (*cmp)(const void *, const void *),
			void (*swap)(void *, void *, int))
{
	if (swap)
		avc_native_warn(__FILE__, __LINE__, "sort(): no swap function\n");
	if (num > 1)
		qsort(base, num, size, cmp);
}

#endif /* _AVC_NATIVE_LINUX_SORT_H */
