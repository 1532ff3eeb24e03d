// SPDX-License-Identifier: GPL-2.0
/*
 * avc_rcu presentation layer: the value written to avc/cache_threshold.
 *
 * selinuxfs's format, not the security server's number syntax (that is
 * avc/ss/number.c): decimal digits only, as James Morris's file took them.
 */

#include <linux/ctype.h>
#include <linux/errno.h>
#include <linux/kernel.h>
#include <uapi/linux/avc_rcu.h>
#include "threshold.h"

/**
 * avcrcufs_parse_threshold() - parse a value written to avc/cache_threshold
 * @buf: the text (not NUL-terminated)
 * @len: its length
 * @val: where to store the value
 *
 * Strictly a decimal number from %AVC_RCU_THRESHOLD_MIN to
 * %AVC_RCU_THRESHOLD_MAX with at most one trailing newline: no sign, no
 * blanks, no base prefix (leading zeros are digits like any other).
 * Reads exactly @len bytes.
 *
 * Return: 0, or -EINVAL for anything else, leaving @val unchanged.
 */
int avcrcufs_parse_threshold(const char *buf, size_t len, unsigned int *val)
{
	unsigned int v = 0;
	size_t i;

	if (len && buf[len - 1] == '\n')
		len--;
	if (!len)
		return -EINVAL;
	for (i = 0; i < len; i++) {
		if (!isdigit(buf[i]))
			return -EINVAL;
		v = v * 10 + (buf[i] - '0');
		if (v > AVC_RCU_THRESHOLD_MAX)
			return -EINVAL;
	}
	if (v < AVC_RCU_THRESHOLD_MIN)
		return -EINVAL;
	*val = v;
	return 0;
}
