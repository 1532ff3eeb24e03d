/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Native shim for the kernel's <linux/types.h>: the system's uapi header
 * (the __u32 family) plus the kernel's short names, bool and size_t.  The
 * list types are in the list shim, with their helpers.
 */
#ifndef _AVC_NATIVE_LINUX_TYPES_H
#define _AVC_NATIVE_LINUX_TYPES_H

#include_next <linux/types.h>
#include <stdbool.h>
#include <stddef.h>
#include <linux/compiler.h>

typedef __u8 u8;
typedef __u16 u16;
typedef __u32 u32;
typedef __u64 u64;
typedef __s8 s8;
typedef __s16 s16;
typedef __s32 s32;
typedef __s64 s64;

/* Allocation flags: accepted and ignored (malloc has no such choices). */
#define gfp_t			unsigned int

#endif /* _AVC_NATIVE_LINUX_TYPES_H */
