/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Native shim for <linux/kernel.h> and what the kernel reaches through it:
 * limits, ARRAY_SIZE(), container_of(), min()/max(), BUILD_BUG_ON(),
 * WARN() (which aborts here: see avc_native/native.h), hex_to_bin(), the
 * pr_*() of printk, and the headers the kernel's brings in indirectly that
 * the core relies on: err.h and libc's string functions.
 */
#ifndef _AVC_NATIVE_LINUX_KERNEL_H
#define _AVC_NATIVE_LINUX_KERNEL_H

#include <assert.h>
#include <string.h>
#include <linux/compiler.h>
#include <linux/err.h>
#include <linux/log2.h>
#include <linux/printk.h>
#include <linux/types.h>
#include <avc_native/native.h>

#define U8_MAX			((u8)~0U)
#define U16_MAX			((u16)~0U)
#define U32_MAX			((u32)~0U)
#define S32_MAX			((s32)(U32_MAX >> 1))
#define U64_MAX			((u64)~0ULL)

#define ARRAY_SIZE(a)		(sizeof(a) / sizeof((a)[0]))

#define container_of(ptr, type, member) \
	((type *)((char *)(ptr) - offsetof(type, member)))

#define min(a, b) ({ __typeof__(a) __a = (a); __typeof__(b) __b = (b); \
		     __a < __b ? __a : __b; })
#define max(a, b) ({ __typeof__(a) __a = (a); __typeof__(b) __b = (b); \
		     __a > __b ? __a : __b; })

#define BUILD_BUG_ON(cond)	static_assert(!(cond), "BUILD_BUG_ON(" #cond ")")

/* The kernel's WARN() logs and returns the condition; this one aborts. */
#define WARN(cond, fmt...) ({						\
	bool __warn_on = !!(cond);					\
	if (unlikely(__warn_on))					\
		avc_native_warn(__FILE__, __LINE__, fmt);		\
	__warn_on;							\
})
#define WARN_ON(cond)		WARN(cond, "WARN_ON(%s)\n", #cond)

/**
 * hex_to_bin() - the value of a hexadecimal digit
 * @ch: the character
 *
 * Return: 0 to 15, or -1 if @ch is not a hexadecimal digit.
 */
static inline int hex_to_bin(unsigned char ch)
{
	if (ch >= '0' && ch <= '9')
		return ch - '0';
	if (ch >= 'a' && ch <= 'f')
		return ch - 'a' + 10;
	if (ch >= 'A' && ch <= 'F')
		return ch - 'A' + 10;
	return -1;
}

#endif /* _AVC_NATIVE_LINUX_KERNEL_H */
