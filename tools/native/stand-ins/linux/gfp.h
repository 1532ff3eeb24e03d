/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Native shim for <linux/gfp.h>: the flags exist, malloc ignores them.
 * An allocation never sleeps and may fail in any context.
 */
#ifndef _AVC_NATIVE_LINUX_GFP_H
#define _AVC_NATIVE_LINUX_GFP_H

#include <linux/types.h>

#define __GFP_NOWARN		0x1U
#define __GFP_RETRY_MAYFAIL	0x2U
#define __GFP_ACCOUNT		0x4U
#define __GFP_ZERO		0x8U
#define GFP_KERNEL		0x10U
#define GFP_NOWAIT		0x20U
#define GFP_ATOMIC		0x40U
#define GFP_KERNEL_ACCOUNT	(GFP_KERNEL | __GFP_ACCOUNT)

#endif /* _AVC_NATIVE_LINUX_GFP_H */
