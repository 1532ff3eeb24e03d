// SPDX-License-Identifier: GPL-2.0
/*
 * avc_rcu security server: the number syntax shared by the policy and the
 * access file.
 *
 * A number is decimal or 0x-prefixed hexadecimal, unsigned and at most
 * 2^32 - 1.  Unlike kstrtou32(base 0) a leading zero does not mean octal:
 * "010" is ten, as a policy writer expects.  Fields are separated by spaces
 * or tabs; nothing else is skipped.  (A cache_threshold value is a
 * selinuxfs format, stricter: selinuxfs/threshold.c.)
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
