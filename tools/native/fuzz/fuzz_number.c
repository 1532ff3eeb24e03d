// SPDX-License-Identifier: GPL-2.0
/*
 * Fuzz target: the number parsers of the policy and the access file,
 * avc_parse_u32() and avc_parse_fields() (avc/ss/number.c), against the
 * reference parsers of fuzz.h.
 *
 * Input: one byte choosing how many fields avc_parse_fields() must find
 * (0 to 5), then the text.  The text goes to avc_parse_u32() whole and to
 * avc_parse_fields(), each in a buffer of its exact length.  Both must
 * accept exactly what the grammar accepts, with the same values; an error
 * must be the grammar's; and nothing past the @nvals values may be
 * written.
 */
#include "fuzz.h"

#define FUZZ_CANARY	0xa5a5a5a5U

int avc_fuzz_one_input(const u8 *data, size_t size)
{
	u32 vals[8], ref_vals[8], v = FUZZ_CANARY, ref_v;
	unsigned int nvals, i;
	bool range_possible;
	enum fuzz_ref ref;
	int err, ref_err;
	char *text;

	fuzz_setup();
	if (!size)
		return 0;
	nvals = data[0] % 6;
	text = fuzz_dup(data + 1, size - 1);
	size--;

	err = avc_parse_u32(text, size, &v);
	ref = fuzz_ref_u32(text, size, &ref_v);
	if (ref == FUZZ_REF_OK) {
		fuzz_assert(!err);
		fuzz_assert(v == ref_v);
	} else {
		fuzz_assert(fuzz_err_fits(err, ref));
		fuzz_assert(v == FUZZ_CANARY);
	}

	for (i = 0; i < ARRAY_SIZE(vals); i++)
		vals[i] = FUZZ_CANARY;
	err = avc_parse_fields(text, size, vals, nvals);
	ref_err = fuzz_ref_fields(text, size, ref_vals, nvals, &range_possible);
	if (!ref_err) {
		fuzz_assert(!err);
		for (i = 0; i < nvals; i++)
			fuzz_assert(vals[i] == ref_vals[i]);
	} else {
		fuzz_assert(err == -EINVAL || err == -ERANGE);
		fuzz_assert(err == ref_err || range_possible);
	}
	for (i = nvals; i < ARRAY_SIZE(vals); i++)
		fuzz_assert(vals[i] == FUZZ_CANARY);

	free(text);
	return 0;
}
