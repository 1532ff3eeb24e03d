/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Native shim for <linux/export.h>: no module linker.  An export declares
 * an empty struct tag named after the symbol, which does nothing but keep
 * the semicolon after it valid at file scope.
 */
#ifndef _AVC_NATIVE_LINUX_EXPORT_H
#define _AVC_NATIVE_LINUX_EXPORT_H

/* The symbol is visible to every object of the program already. */
#define EXPORT_SYMBOL_GPL(sym)	struct avc_native_export_##sym

#endif /* _AVC_NATIVE_LINUX_EXPORT_H */
