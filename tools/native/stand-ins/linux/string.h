/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Native shim for <linux/string.h>: libc's string functions, and
 * sysfs_streq() and sysfs_match_string() written here.
 */
#ifndef _AVC_NATIVE_LINUX_STRING_H
#define _AVC_NATIVE_LINUX_STRING_H

#include <string.h>
#include <linux/errno.h>
#include <linux/kernel.h>

/**
 * sysfs_streq() - equal strings, but for one trailing newline on either
 * @s1: a string
 * @s2: another
 *
 * Return: true if they are equal, or one is the other plus "\n".
 */
static inline bool sysfs_streq(const char *s1, const char *s2)
{
	while (*s1 && *s1 == *s2) {
		s1++;
		s2++;
	}
	if (*s1 == *s2)
		return true;
	if (!*s1 && *s2 == '\n' && !s2[1])
		return true;
	return *s1 == '\n' && !s1[1] && !*s2;
}

/**
 * __sysfs_match_string() - index of a string in an array, by sysfs_streq()
 * @array: the strings; a NULL entry ends the array early
 * @n: entries in @array
 * @str: the string to find
 *
 * Return: the index, or -EINVAL.
 */
static inline int __sysfs_match_string(const char * const *array, size_t n,
				       const char *str)
{
	size_t i;

	for (i = 0; i < n && array[i]; i++)
		if (sysfs_streq(array[i], str))
			return i;
	return -EINVAL;
}

/* The array's size from its type: @a is evaluated once. */
#define sysfs_match_string(a, s)					\
	__sysfs_match_string(a, sizeof(__typeof__(a)) /		\
			     sizeof(__typeof__(a[0])), s)

#endif /* _AVC_NATIVE_LINUX_STRING_H */
