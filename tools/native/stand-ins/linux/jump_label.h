/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Native shim for <linux/jump_label.h>: a static key is a plain bool, and
 * static_branch_likely()/unlikely() a load and a branch with the same
 * layout hint.  The kernel patches the branch instead; the core flips its
 * keys only before any cache exists, so no reader races with a flip.
 */
#ifndef _AVC_NATIVE_LINUX_JUMP_LABEL_H
#define _AVC_NATIVE_LINUX_JUMP_LABEL_H

#include <linux/compiler.h>
#include <linux/types.h>

struct static_key {
	bool enabled;
};

struct static_key_true {
	struct static_key key;
};

struct static_key_false {
	struct static_key key;
};

#define DEFINE_STATIC_KEY_TRUE(name) \
	struct static_key_true name = { .key = { .enabled = true } }
#define DEFINE_STATIC_KEY_FALSE(name) \
	struct static_key_false name = { .key = { .enabled = false } }
#define DECLARE_STATIC_KEY_TRUE(name)	extern struct static_key_true name
#define DECLARE_STATIC_KEY_FALSE(name)	extern struct static_key_false name

#define static_key_enabled(x)		((x)->key.enabled)
#define static_branch_likely(x)		likely((x)->key.enabled)
#define static_branch_unlikely(x)	unlikely((x)->key.enabled)
#define static_branch_enable(x)		((x)->key.enabled = true)
#define static_branch_disable(x)	((x)->key.enabled = false)

#endif /* _AVC_NATIVE_LINUX_JUMP_LABEL_H */
