// SPDX-License-Identifier: GPL-2.0
/*
 * Fuzz target: the avc/cache_threshold parser, avcrcufs_parse_threshold()
 * (selinuxfs/threshold.c), against its grammar: decimal digits only (leading
 * zeros allowed), one optional trailing newline, a value from
 * AVC_RCU_THRESHOLD_MIN to AVC_RCU_THRESHOLD_MAX; -EINVAL for anything
 * else, leaving the value untouched.  The text is the whole input, in a
 * buffer of its exact length and without a NUL after it.
 */
#include "fuzz.h"
#include "threshold.h"

#define FUZZ_CANARY	0xa5a5a5a5U

static bool ref_threshold(const char *s, size_t len, unsigned int *val)
{
	u64 v = 0;
	size_t i;

	if (len && s[len - 1] == '\n')
		len--;
	if (!len)
		return false;
	for (i = 0; i < len; i++) {
		if (s[i] < '0' || s[i] > '9')
			return false;
		v = v * 10 + (s[i] - '0');
		if (v > AVC_RCU_THRESHOLD_MAX)
			v = AVC_RCU_THRESHOLD_MAX + 1ULL;
	}
	if (v < AVC_RCU_THRESHOLD_MIN || v > AVC_RCU_THRESHOLD_MAX)
		return false;
	*val = v;
	return true;
}

int avc_fuzz_one_input(const u8 *data, size_t size)
{
	unsigned int v = FUZZ_CANARY, ref_v;
	char *text;
	int err;

	fuzz_setup();
	text = fuzz_dup(data, size);
	err = avcrcufs_parse_threshold(text, size, &v);
	if (ref_threshold(text, size, &ref_v)) {
		fuzz_assert(!err);
		fuzz_assert(v == ref_v);
	} else {
		fuzz_assert(err == -EINVAL);
		fuzz_assert(v == FUZZ_CANARY);
	}
	free(text);
	return 0;
}
