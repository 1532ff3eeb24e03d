// SPDX-License-Identifier: GPL-2.0
/*
 * avc_rcu security server: the number syntax shared by the policy and the
 * access file.
 *
 * A number is decimal or 0x-prefixed hexadecimal, unsigned and at most
 * 2^32 - 1.  Unlike kstrtou32(base 0) a leading zero does not mean octal:
 * "010" is ten, as a policy writer expects.  Fields are separated by spaces
 * or tabs; nothing else is skipped.  A cache_threshold value is stricter:
 * decimal digits only (avc_parse_threshold()).
 */

#include <linux/ctype.h>
#include <linux/errno.h>
#include <linux/kernel.h>
#include "ss.h"

/**
 * avc_parse_u32() - parse one number that spans a whole token
 * @s: the token (not NUL-terminated)
 * @len: its length
 * @val: where to store the value
 *
 * Return: 0, -EINVAL for anything that is not a number, -ERANGE above
 * 2^32 - 1.
 */
int avc_parse_u32(const char *s, size_t len, u32 *val)
{
	unsigned int base = 10;
	u64 v = 0;
	size_t i = 0;
	int d;

	if (len > 2 && s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) {
		base = 16;
		i = 2;
	}
	if (i == len)
		return -EINVAL;
	for (; i < len; i++) {
		d = base == 16 ? hex_to_bin(s[i]) :
		    (isdigit(s[i]) ? s[i] - '0' : -1);
		if (d < 0)
			return -EINVAL;
		v = v * base + d;
		if (v > U32_MAX)
			return -ERANGE;
	}
	*val = v;
	return 0;
}

/**
 * avc_parse_fields() - parse exactly @nvals blank-separated numbers
 * @s: the text (not NUL-terminated); a single trailing newline is allowed
 * @len: its length
 * @vals: where to store the values
 * @nvals: how many numbers the text must hold
 *
 * Leading and trailing blanks are allowed.
 *
 * Return: 0, -EINVAL for a missing, extra or malformed field, -ERANGE for a
 * number above 2^32 - 1.
 */
int avc_parse_fields(const char *s, size_t len, u32 *vals,
		     unsigned int nvals)
{
	unsigned int n = 0;
	size_t i = 0, start;
	int err;

	if (len && s[len - 1] == '\n')
		len--;
	for (;;) {
		while (i < len && avc_is_blank(s[i]))
			i++;
		if (i == len)
			break;
		if (n == nvals)
			return -EINVAL;
		start = i;
		while (i < len && !avc_is_blank(s[i]))
			i++;
		err = avc_parse_u32(s + start, i - start, &vals[n++]);
		if (err)
			return err;
	}
	return n == nvals ? 0 : -EINVAL;
}

/**
 * avc_parse_threshold() - parse a value written to avc/cache_threshold
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
int avc_parse_threshold(const char *buf, size_t len, unsigned int *val)
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
