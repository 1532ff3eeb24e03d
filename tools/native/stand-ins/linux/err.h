/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Native shim for <linux/err.h>: an errno in a pointer, the top 4095
 * addresses, which no allocation returns here either.
 */
#ifndef _AVC_NATIVE_LINUX_ERR_H
#define _AVC_NATIVE_LINUX_ERR_H

#include <linux/compiler.h>
#include <linux/errno.h>
#include <linux/types.h>

#define MAX_ERRNO		4095
#define IS_ERR_VALUE(x)		unlikely((unsigned long)(x) >= (unsigned long)-MAX_ERRNO)

static inline void *ERR_PTR(long error)
{
	return (void *)error;
}

static inline long PTR_ERR(const void *ptr)
{
	return (long)ptr;
}

static inline bool IS_ERR(const void *ptr)
{
	return IS_ERR_VALUE(ptr);
}

static inline bool IS_ERR_OR_NULL(const void *ptr)
{
	return !ptr || IS_ERR_VALUE(ptr);
}

#endif /* _AVC_NATIVE_LINUX_ERR_H */
