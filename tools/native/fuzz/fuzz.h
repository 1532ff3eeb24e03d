/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What the libFuzzer targets of tools/native/fuzz/ share: their entry
 * point, set-up, assertions, and reference parsers of the number syntax,
 * written from the documented grammar (avc/ss/number.c's comment and
 * Documentation/admin-guide.rst) with libc's strspn(), strtoull() and
 * strtok_r() on a copy of the text: not the core's character loop, so
 * that a fault in that loop is not repeated here.
 *
 * A target defines avc_fuzz_one_input(); the Makefile compiles it as
 * LLVMFuzzerTestOneInput(), the name libFuzzer calls.  A failed assertion
 * aborts, which libFuzzer reports as a crash and saves the input.
 */
#ifndef AVC_NATIVE_FUZZ_H
#define AVC_NATIVE_FUZZ_H

#include <errno.h>
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

#define FUZZ_DEC	"0123456789"
#define FUZZ_HEX	"0123456789abcdefABCDEF"
#define FUZZ_BLANKS	" \t"

/*
 * @len bytes of @s as a C string in a new buffer.  A NUL among them, which
 * the grammar reads as any other character that is neither a digit nor a
 * blank, becomes '~', so that the string functions below see them all.
 */
static inline char *fuzz_cstr(const char *s, size_t len)
{
	char *p = malloc(len + 1);
	size_t i;

	fuzz_assert(p);
	for (i = 0; i < len; i++)
		p[i] = s[i] ? s[i] : '~';
	p[len] = '\0';
	return p;
}

/* Whether the first @n digits of @digits, in @base, exceed 2^32 - 1. */
static inline bool fuzz_above_u32(const char *digits, size_t n, int base)
{
	unsigned long long v;
	char *p;
	bool big;

	if (!n)
		return false;
	p = strndup(digits, n);
	fuzz_assert(p);
	errno = 0;
	v = strtoull(p, NULL, base);
	big = errno == ERANGE || v > U32_MAX;
	free(p);
	return big;
}

/*
 * One token (a C string) by the grammar: a number is "0x" or "0X" and one
 * or more hexadecimal digits, or one or more decimal digits, nothing else;
 * its value, strtoull()'s, at most 2^32 - 1.  A malformed token whose
 * digits before its first bad character (after a "0x") already exceed
 * 2^32 - 1 may be refused for either fault: FUZZ_REF_BOTH.
 */
static inline enum fuzz_ref fuzz_ref_token(const char *t, u32 *val)
{
	size_t len = strlen(t), run;
	bool hex = len > 2 && t[0] == '0' && (t[1] == 'x' || t[1] == 'X');
	const char *digits = hex ? t + 2 : t;
	int base = hex ? 16 : 10;
	bool big;

	run = strspn(digits, hex ? FUZZ_HEX : FUZZ_DEC);
	big = fuzz_above_u32(digits, run, base);
	if (!run || digits[run])
		return big ? FUZZ_REF_BOTH : FUZZ_REF_SYNTAX;
	if (big)
		return FUZZ_REF_RANGE;
	*val = strtoull(digits, NULL, base);
	return FUZZ_REF_OK;
}

/* A number spanning the whole of @s (@len bytes). */
static inline enum fuzz_ref fuzz_ref_u32(const char *s, size_t len, u32 *val)
{
	char *t = fuzz_cstr(s, len);
	enum fuzz_ref ref = fuzz_ref_token(t, val);

	free(t);
	return ref;
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

/*
 * Exactly @nvals numbers separated by blanks (spaces, tabs), blanks
 * allowed around them, one trailing newline allowed; the tokens are
 * strtok_r()'s, judged left to right.  Returns 0 with the values, else
 * -EINVAL or -ERANGE; *@range_possible says whether -ERANGE would fit too
 * (a number too big among the tokens judged, before any reason to stop
 * earlier).
 */
static inline int fuzz_ref_fields(const char *s, size_t len, u32 *vals,
				  unsigned int nvals, bool *range_possible)
{
	unsigned int n = 0;
	enum fuzz_ref ref;
	char *text, *t, *save;
	int ret = 0;
	u32 v;

	*range_possible = false;
	if (len && s[len - 1] == '\n')
		len--;
	text = fuzz_cstr(s, len);
	for (t = strtok_r(text, FUZZ_BLANKS, &save); t;
	     t = strtok_r(NULL, FUZZ_BLANKS, &save)) {
		if (n == nvals) {
			ret = -EINVAL;
			break;
		}
		ref = fuzz_ref_token(t, &v);
		if (ref == FUZZ_REF_RANGE || ref == FUZZ_REF_BOTH)
			*range_possible = true;
		if (ref != FUZZ_REF_OK) {
			ret = ref == FUZZ_REF_RANGE ? -ERANGE : -EINVAL;
			break;
		}
		vals[n++] = v;
	}
	if (!ret && n != nvals)
		ret = -EINVAL;
	free(text);
	return ret;
}

#endif /* AVC_NATIVE_FUZZ_H */
