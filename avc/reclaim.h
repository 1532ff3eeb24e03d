/* SPDX-License-Identifier: GPL-2.0 */
/*
 * avc_rcu core: chunked reclaim of an over-full cache.
 */
#ifndef _AVC_RCU_RECLAIM_H
#define _AVC_RCU_RECLAIM_H

#include "avc.h"

unsigned int avc_reclaim(struct avc_cache *c);

#endif /* _AVC_RCU_RECLAIM_H */
