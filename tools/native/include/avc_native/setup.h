/* SPDX-License-Identifier: GPL-2.0 */
/*
 * avc_rcu native: the module's cache set up as the module's init would,
 * for programs that have no init (lib/setup.c).
 */
#ifndef _AVC_NATIVE_SETUP_H
#define _AVC_NATIVE_SETUP_H

#include <linux/types.h>

struct avc_rcu_config;

int avc_rcu_setup(const struct avc_rcu_config *cfg);
void avc_rcu_teardown(void);
int avc_rcu_load_policy(const char *text, size_t len);

#endif /* _AVC_NATIVE_SETUP_H */
