/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Native shim for <linux/lockdep.h>: no lock validator, as in a kernel
 * without CONFIG_LOCKDEP.  The conditions are not evaluated; the
 * assertions only type-check their argument.
 */
#ifndef _AVC_NATIVE_LINUX_LOCKDEP_H
#define _AVC_NATIVE_LINUX_LOCKDEP_H

#define lockdep_is_held(l)		((void)(l), 1)
#define lockdep_assert_held(l)		((void)(l))
#define lockdep_assert_held_write(l)	((void)(l))

#endif /* _AVC_NATIVE_LINUX_LOCKDEP_H */
