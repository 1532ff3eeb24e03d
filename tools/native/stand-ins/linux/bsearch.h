/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Native shim for <linux/bsearch.h>: libc's bsearch() has the kernel's
 * arguments and result.
 */
#ifndef _AVC_NATIVE_LINUX_BSEARCH_H
#define _AVC_NATIVE_LINUX_BSEARCH_H

#include <stdlib.h>

#endif /* _AVC_NATIVE_LINUX_BSEARCH_H */
