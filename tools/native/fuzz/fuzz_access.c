// SPDX-License-Identifier: GPL-2.0
/*
 * Fuzz target: an access request, as the access file takes it
 * (selinuxfs/access.c, avcrcufs_access_write()): 1 to 128 bytes,
 * exactly four numbers for avc_parse_fields(), "<ssid> <tsid> <tclass>
 * <requested>", a tclass above 65535 refused.  Anything else is -EINVAL.
 *
 * The parse must agree with the reference parser of fuzz.h.  An accepted
 * request is then asked of a cache in front of a small policy (rcu mode,
 * threshold 16, so inserts reclaim), as the write handler asks the
 * module's: the decision must be the policy's (avc_ss_compute()), and the
 * reply, formatted as the handler formats it, must read back the same
 * through the test suite's strict parser of replies (tst_parse_reply()).
 */
#include <stdio.h>

#include "fuzz.h"
#include "api.h"
#include <avc_native/setup.h>
#include "avc_model.h"

#define REQUEST_MAX	128	/* AVCRCUFS_ACCESS_REQUEST_MAX */
#define REPLY_MAX	64	/* AVCRCUFS_ACCESS_REPLY_MAX */

/* Rules for small SIDs and classes, as the seed corpus asks them. */
static const char access_policy[] =
	"allow 1 2 3 0x7\n"
	"allow 1 2 3 0x100\n"
	"auditallow 1 2 3 0x1\n"
	"dontaudit 1 2 4 0xf0\n"
	"allow 2 2 3 0xffffffff\n"
	"allow 4294967295 4294967295 65535 0x80000000\n"
	"permissive 5\n"
	"allow 5 1 1 0x2\n";

static void access_setup(void)
{
	static bool done;
	struct avc_rcu_config cfg = {
		.slots = 16, .sync = AVC_SYNC_RCU, .reclaim = AVC_RECLAIM_LRU,
		.reclaimer = AVC_RECLAIMER_INLINE,
		.hash_seed = 1,
	};

	if (done)
		return;
	fuzz_setup();
	fuzz_assert(!avc_rcu_setup(&cfg));
	fuzz_assert(!avc_rcu_load_policy(access_policy,
					 sizeof(access_policy) - 1));
	avc_cache_set_threshold(avc_rcu_cache(), 16);
	done = true;
}

/* The write handler's checks, in its order. */
static int access_parse(const char *req, size_t count, u32 *f)
{
	if (!count || count > REQUEST_MAX)
		return -EINVAL;
	if (avc_parse_fields(req, count, f, 4) || f[2] > U16_MAX)
		return -EINVAL;
	return 0;
}

int avc_fuzz_one_input(const u8 *data, size_t size)
{
	struct avc_rcu_decision avd, want;
	struct tst_reply reply;
	char text[REPLY_MAX];
	u32 f[4], ref[4];
	bool range_possible;
	int ret, len;
	char *req;

	access_setup();
	req = fuzz_dup(data, size);
	ret = access_parse(req, size, f);
	if (!size || size > REQUEST_MAX ||
	    fuzz_ref_fields(req, size, ref, 4, &range_possible) ||
	    ref[2] > U16_MAX) {
		fuzz_assert(ret == -EINVAL);
		free(req);
		return 0;
	}
	fuzz_assert(!ret);
	fuzz_assert(!memcmp(f, ref, sizeof(f)));

	ret = avc_rcu_has_perm(f[0], f[1], f[2], f[3], &avd);
	avc_rcu_compute_av(f[0], f[1], f[2], &want);
	fuzz_assert(avd.allowed == want.allowed &&
		    avd.auditallow == want.auditallow &&
		    avd.auditdeny == want.auditdeny &&
		    avd.seqno == want.seqno && avd.flags == want.flags);
	fuzz_assert(ret == avc_decide(&want, f[3]));

	len = snprintf(text, sizeof(text), AVC_RCU_ACCESS_REPLY_FMT,
		       avd.allowed, 0xffffffffU, avd.auditallow, avd.auditdeny,
		       avd.seqno, avd.flags);
	fuzz_assert(len > 0 && len < (int)sizeof(text));
	fuzz_assert(!tst_parse_reply(text, len, &reply));
	fuzz_assert(reply.allowed == avd.allowed &&
		    reply.decided == 0xffffffffU &&
		    reply.auditallow == avd.auditallow &&
		    reply.auditdeny == avd.auditdeny &&
		    reply.seqno == avd.seqno && reply.flags == avd.flags);
	free(req);
	return 0;
}
