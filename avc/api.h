/* SPDX-License-Identifier: GPL-2.0 */
/*
 * avc_rcu core: the module's one cache and policy, for the presentation
 * layer (selinuxfs/) and for the exported API.
 */
#ifndef _AVC_RCU_API_H
#define _AVC_RCU_API_H

#include "avc.h"

int avc_rcu_setup(unsigned int nslots, enum avc_sync mode);
void avc_rcu_teardown(void);
struct avc_cache *avc_rcu_cache(void);
int avc_rcu_load_policy(const char *text, size_t len);

#endif /* _AVC_RCU_API_H */
