/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What the libFuzzer targets of tools/native/fuzz/ share: their entry
 * point, set-up, assertions, and reference parsers of the number syntax,
 * written here from the documented grammar (avc/ss/number.c's comment and
 * Documentation/admin-guide.rst), independently of the core's code.
 *
 * A target defines avc_fuzz_one_input(); the Makefile compiles it as
 * LLVMFuzzerTestOneInput(), the name libFuzzer calls.  A failed assertion
 * aborts, which libFuzzer reports as a crash and saves the input.
 */
#ifndef AVC_NATIVE_FUZZ_H
#define AVC_NATIVE_FUZZ_H

#include <stdlib.h>
#include <string.h>

#include <linux/kernel.h>
#include "ss.h"

int avc_fuzz_one_input(const u8 *data, size_t size);

#define fuzz_assert(cond) do {						\
	if (unlikely(!(cond)))						\
		avc_native_warn(__FILE__, __LINE__,			\
				"assertion failed: %s\n", #cond);	\
} while (0)

/* Once per process: this thread is CPU 0, and the parsers keep quiet. */
static inline void fuzz_setup(void)
{
	static bool done;

	if (done)
		return;
	avc_native_quiet = true;
	fuzz_assert(avc_native_thread_enter() == 0);
	done = true;
}

/*
 * @len bytes of @data in a buffer of exactly that size, so that ASan
 * reports a read one byte past the end.
 */
static inline char *fuzz_dup(const void *data, size_t len)
{
	char *p = malloc(len ?: 1);

	fuzz_assert(p);
	memcpy(p, data, len);
	return p;
}

/* Reference parser verdicts. */
enum fuzz_ref {
	FUZZ_REF_OK,
	FUZZ_REF_SYNTAX,	/* not a number at all */
	FUZZ_REF_RANGE,		/* a number above 2^32 - 1 */
	FUZZ_REF_BOTH,		/* above 2^32 - 1 before its first bad character */
};

static inline int fuzz_digit(char ch, unsigned int base)
{
	if (ch >= '0' && ch <= '9')
		return ch - '0';
	if (base == 16 && ch >= 'a' && ch <= 'f')
		return ch - 'a' + 10;
	if (base == 16 && ch >= 'A' && ch <= 'F')
		return ch - 'A' + 10;
	return -1;
}

/*
 * A number: decimal digits, or "0x"/"0X" and at least one hexadecimal
 * digit; a value at most 2^32 - 1.  For a token that is both malformed and
 * too big, the grammar does not say which error wins: FUZZ_REF_BOTH.
 */
static inline enum fuzz_ref fuzz_ref_u32(const char *s, size_t len, u32 *val)
{
	bool syntax = true, range = true, big = false;
	unsigned int base = 10;
	size_t i = 0;
	u64 v = 0;
	int d;

	if (len > 2 && s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) {
		base = 16;
		i = 2;
	}
	if (i == len)
		return FUZZ_REF_SYNTAX;
	for (; i < len; i++) {
		d = fuzz_digit(s[i], base);
		if (d < 0) {
			syntax = false;
			break;
		}
		v = v * base + d;
		if (v > U32_MAX) {
			big = true;
			range = false;
			v = U32_MAX + 1ULL;
		}
	}
	if (!syntax)
		return big ? FUZZ_REF_BOTH : FUZZ_REF_SYNTAX;
	if (!range)
		return FUZZ_REF_RANGE;
	*val = v;
	return FUZZ_REF_OK;
}

/* Whether the core's error for a rejected number fits the verdict. */
static inline bool fuzz_err_fits(int err, enum fuzz_ref ref)
{
	switch (ref) {
	case FUZZ_REF_SYNTAX:
		return err == -EINVAL;
	case FUZZ_REF_RANGE:
		return err == -ERANGE;
	case FUZZ_REF_BOTH:
		return err == -EINVAL || err == -ERANGE;
	default:
		return false;
	}
}

static inline bool fuzz_blank(char ch)
{
	return ch == ' ' || ch == '\t';
}

/*
 * Exactly @nvals blank-separated numbers, blanks allowed around them, one
 * trailing newline allowed.  Returns 0 with the values, else -EINVAL or
 * -ERANGE; *@range_possible says whether -ERANGE would fit too (a number
 * too big among the fields, before any reason to stop earlier).
 */
static inline int fuzz_ref_fields(const char *s, size_t len, u32 *vals,
				  unsigned int nvals, bool *range_possible)
{
	unsigned int n = 0;
	enum fuzz_ref ref;
	size_t i = 0, start;
	u32 v;

	*range_possible = false;
	if (len && s[len - 1] == '\n')
		len--;
	for (;;) {
		while (i < len && fuzz_blank(s[i]))
			i++;
		if (i == len)
			break;
		if (n == nvals)
			return -EINVAL;
		start = i;
		while (i < len && !fuzz_blank(s[i]))
			i++;
		ref = fuzz_ref_u32(s + start, i - start, &v);
		if (ref == FUZZ_REF_RANGE || ref == FUZZ_REF_BOTH)
			*range_possible = true;
		if (ref != FUZZ_REF_OK)
			return ref == FUZZ_REF_RANGE ? -ERANGE : -EINVAL;
		vals[n++] = v;
	}
	return n == nvals ? 0 : -EINVAL;
}

#endif /* AVC_NATIVE_FUZZ_H */
