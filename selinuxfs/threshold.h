/* SPDX-License-Identifier: GPL-2.0 */
/*
 * avc_rcu presentation layer: the text of avc/cache_threshold.
 *
 * Apart from avcrcufs.h, which needs the VFS, so that the parser builds
 * and is tested without it (threshold_kunit.c).
 */
#ifndef _AVC_RCU_THRESHOLD_H
#define _AVC_RCU_THRESHOLD_H

#include <linux/types.h>

int avcrcufs_parse_threshold(const char *buf, size_t len, unsigned int *val);

#endif /* _AVC_RCU_THRESHOLD_H */
