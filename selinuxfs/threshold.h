/* SPDX-License-Identifier: GPL-2.0 */
/*
 * avc_rcu presentation layer: the text of avc/cache_threshold.
 *
 * Apart from avcrcufs.h (which needs the VFS) so that a userspace build
 * of the parser (tools/native's fuzz target) can include it.
 */
#ifndef _AVC_RCU_THRESHOLD_H
#define _AVC_RCU_THRESHOLD_H

#include <linux/types.h>

int avcrcufs_parse_threshold(const char *buf, size_t len, unsigned int *val);

#endif /* _AVC_RCU_THRESHOLD_H */
