/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Native shim for <linux/jhash.h>: jhash_3words(), Bob Jenkins' lookup3
 * (2006, public domain) for three 32-bit words: the three state words
 * start at 0xdeadbeef + 12 (the key's length in bytes) + the seed, the
 * words are added in, and lookup3's final() mixes them; the result is c.
 * Written here from lookup3's description, so it returns what the
 * kernel's returns for the same words and seed.
 */
#ifndef _AVC_NATIVE_LINUX_JHASH_H
#define _AVC_NATIVE_LINUX_JHASH_H

#include <linux/types.h>

#define JHASH_INITVAL		0xdeadbeef

static inline u32 avc_native_rol32(u32 word, unsigned int shift)
{
	return (word << shift) | (word >> (32 - shift));
}

static inline u32 jhash_3words(u32 a, u32 b, u32 c, u32 initval)
{
	u32 init = JHASH_INITVAL + (3 << 2) + initval;

	a += init;
	b += init;
	c += init;
	/* lookup3's final(a, b, c) */
	c ^= b;
	c -= avc_native_rol32(b, 14);
	a ^= c;
	a -= avc_native_rol32(c, 11);
	b ^= a;
	b -= avc_native_rol32(a, 25);
	c ^= b;
	c -= avc_native_rol32(b, 16);
	a ^= c;
	a -= avc_native_rol32(c, 4);
	b ^= a;
	b -= avc_native_rol32(a, 14);
	c ^= b;
	c -= avc_native_rol32(b, 24);
	return c;
}

#endif /* _AVC_NATIVE_LINUX_JHASH_H */
