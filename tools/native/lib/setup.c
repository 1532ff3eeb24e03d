// SPDX-License-Identifier: GPL-2.0
/*
 * avc_rcu native: what the module's init and policy file do, for the
 * native programs (benchmarks, stress, fuzzers, replay), which have
 * neither.  Only the core's own entry points (avc/api.h, avc/ss/ss.h).
 */
#include <linux/err.h>
#include "api.h"
#include "ss.h"
#include <avc_native/setup.h>
/* The tests' copy of the core's bounds: a differing value fails here. */
#include <avc_limits.h>

/**
 * avc_rcu_setup() - avc_core_init(), then avc_rcu_setup_cache()
 * @cfg: the load-time choices
 *
 * Return: 0 or a negative errno.
 */
int avc_rcu_setup(const struct avc_rcu_config *cfg)
{
	int err;

	err = avc_core_init();
	if (err)
		return err;
	err = avc_rcu_setup_cache(cfg);
	if (err)
		avc_core_exit();
	return err;
}

/**
 * avc_rcu_teardown() - free everything avc_rcu_setup() made
 *
 * No lookup may be running or start.
 */
void avc_rcu_teardown(void)
{
	avc_rcu_teardown_cache();
	avc_core_exit();
}

/**
 * avc_rcu_load_policy() - replace the policy by a whole text, reset the
 *	cache
 * @text: policy text (not NUL-terminated)
 * @len: its length
 *
 * As a write of the whole text to the load file: one parser fed it all,
 * then avc_rcu_load_parsed(), which returns a bad line's error too.
 *
 * Return: 0, -EINVAL for a bad line (logged), -ENOMEM.
 */
int avc_rcu_load_policy(const char *text, size_t len)
{
	struct avc_policy_parser *p = avc_policy_parser_new();
	int err;

	if (!p)
		return -ENOMEM;
	/* A bad line spends the parser; avc_rcu_load_parsed() returns it. */
	avc_policy_parser_feed(p, text, len);
	err = avc_rcu_load_parsed(p);
	avc_policy_parser_free(p);
	return err;
}
