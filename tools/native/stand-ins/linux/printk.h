/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Native shim for <linux/printk.h>: pr_err(), pr_warn() and pr_info() print
 * a line to stderr with the file's pr_fmt() prefix (unless avc_native_quiet
 * is set, as the fuzz targets do); pr_debug() prints nothing.
 */
#ifndef _AVC_NATIVE_LINUX_PRINTK_H
#define _AVC_NATIVE_LINUX_PRINTK_H

#include <avc_native/native.h>

#ifndef pr_fmt
#define pr_fmt(fmt)		fmt
#endif

#define pr_err(fmt, ...)	avc_native_printk(pr_fmt(fmt), ##__VA_ARGS__)
#define pr_warn(fmt, ...)	avc_native_printk(pr_fmt(fmt), ##__VA_ARGS__)
#define pr_info(fmt, ...)	avc_native_printk(pr_fmt(fmt), ##__VA_ARGS__)
#define pr_warn_ratelimited(fmt, ...) \
	avc_native_printk(pr_fmt(fmt), ##__VA_ARGS__)
#define pr_debug(fmt, ...)	do { } while (0)

#endif /* _AVC_NATIVE_LINUX_PRINTK_H */
