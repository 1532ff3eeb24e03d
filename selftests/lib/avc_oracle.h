/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The avc_rcu test oracle: a family of policies, one for every policy
 * seqno, as pure functions of the seqno.  A test that is the only one to
 * load policies loads policy(s + 1) over seqno s; then every decision the
 * module returns, whatever its age, can be checked against
 * tst_oracle_expected(key, decision's seqno).
 *
 * Shared by userspace (avc_concurrency, avc_tool torture-load; the PRNG
 * helpers by every test) and by the in-kernel torture module
 * (torture/avc_rcu_torture.c): no libc, only fixed-size types, integer
 * arithmetic and no division by a variable other than the rule_mod the
 * caller chose and the span of tst_rand_range().
 *
 * Seqno 0 is the empty policy the module starts with (deny all: allowed 0,
 * auditallow 0, auditdeny all ones, flags 0), so a decision of seqno 0 is
 * checked like any other.  After 2^32 loads the seqno wraps to 0 and the
 * family no longer describes the policy in force; no test loads that often.
 *
 * The policy for seqno q >= 1, over the key space ssid 1..ns, tsid 1..nt,
 * tclass 1..nc (every other key has no rules):
 *
 * - source s is permissive if tst_mix(s, 0, 0, q) % 4 == 0;
 * - key (s, t, c) has rules only if tst_mix(s, t, c, 0) % rule_mod == 0,
 *   the same keys for every q; then, with h = tst_mix(s, t, c, q):
 *   allow     tst_mix(s, t, c, q ^ TST_ORACLE_SALT_ALLOW) if h & 3,
 *   auditallow tst_mix(s, t, c, q ^ TST_ORACLE_SALT_AUDITALLOW) if !(h & 0x30),
 *   dontaudit tst_mix(s, t, c, q ^ TST_ORACLE_SALT_DONTAUDIT) if !(h & 0xc0).
 *
 * tst_oracle_expected() computes the decisions; the policy text is written
 * separately, from the same description (tst_oracle_policy_text() in
 * avc_model.c), so that a mistake in either shows up as a wrong answer.
 */
#ifndef AVC_ORACLE_H
#define AVC_ORACLE_H

#include <linux/types.h>
#ifdef __KERNEL__
#include <uapi/linux/avc_rcu.h>
#else
#include <linux/avc_rcu.h>
#endif

#define TST_ORACLE_SALT_ALLOW		0xa11
#define TST_ORACLE_SALT_AUDITALLOW	0xa0d
#define TST_ORACLE_SALT_DONTAUDIT	0xd0a
/* Splits the allow perms of a key into two rules that OR to them. */
#define TST_ORACLE_SALT_SPLIT		7

/* A family of policies: its key space and the density of its rules. */
struct tst_oracle {
	__u32 ns;		/* ssid 1..ns */
	__u32 nt;		/* tsid 1..nt */
	__u32 nc;		/* tclass 1..nc */
	__u32 rule_mod;		/* a key has rules if its hash % rule_mod == 0 */
};

/*
 * The family avc_tool torture-load loads and the torture module checks:
 * 2048 keys, rules on about one in four, so that a load is quick and the
 * key space still overflows small cache thresholds.
 */
#define TST_ORACLE_TORTURE {						\
	.ns = 16, .nt = 16, .nc = 8, .rule_mod = 4,			\
}

/* A decision as the policy defines it (the seqno is the caller's). */
struct tst_decision {
	__u32 allowed;
	__u32 auditallow;
	__u32 auditdeny;
	__u32 flags;
};

/* One step of splitmix64: a small PRNG with a 64-bit state. */
static inline __u64 tst_splitmix64(__u64 *state)
{
	__u64 z = (*state += 0x9e3779b97f4a7c15ULL);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

/*
 * A number in [lo, hi] (lo <= hi) from tst_splitmix64(), uniform but for
 * a bias below 2^-32.  The 64-bit modulo is one instruction on x86-64, the
 * only architecture the module is built for; a 32-bit kernel would need
 * div64_u64() here.
 */
static inline __u32 tst_rand_range(__u64 *state, __u32 lo, __u32 hi)
{
	__u64 span = (__u64)hi - lo + 1;

	return lo + (__u32)(tst_splitmix64(state) % span);
}

/* A well-mixed 32-bit function of its arguments. */
static inline __u32 tst_mix(__u32 a, __u32 b, __u32 c, __u32 d)
{
	__u64 s = (__u64)a << 32 | b;

	s ^= tst_splitmix64(&s);
	s += (__u64)c << 32 | d;
	return (__u32)(tst_splitmix64(&s) >> 16);
}

/* Whether key (s, t, c) has rules in the family (for every seqno). */
static inline int tst_oracle_has_rules(const struct tst_oracle *o, __u32 s,
				       __u32 t, __u32 c)
{
	if (s < 1 || s > o->ns || t < 1 || t > o->nt || c < 1 || c > o->nc)
		return 0;
	return tst_mix(s, t, c, 0) % o->rule_mod == 0;
}

/* Whether source s is permissive in the policy for seqno q >= 1. */
static inline int tst_oracle_permissive(const struct tst_oracle *o, __u32 s,
					__u32 q)
{
	return s >= 1 && s <= o->ns && tst_mix(s, 0, 0, q) % 4 == 0;
}

/* The decision of the policy for seqno q on key (s, t, c). */
static inline void tst_oracle_expected(const struct tst_oracle *o, __u32 s,
				       __u32 t, __u32 c, __u32 q,
				       struct tst_decision *d)
{
	__u32 h;

	d->allowed = 0;
	d->auditallow = 0;
	d->auditdeny = 0xffffffff;
	d->flags = 0;
	if (q == 0)
		return;
	if (tst_oracle_permissive(o, s, q))
		d->flags = AVC_RCU_DECISION_PERMISSIVE;
	if (!tst_oracle_has_rules(o, s, t, c))
		return;
	h = tst_mix(s, t, c, q);
	if (h & 3)
		d->allowed = tst_mix(s, t, c, q ^ TST_ORACLE_SALT_ALLOW);
	if (!(h & 0x30))
		d->auditallow = tst_mix(s, t, c, q ^ TST_ORACLE_SALT_AUDITALLOW);
	if (!(h & 0xc0))
		d->auditdeny = ~tst_mix(s, t, c, q ^ TST_ORACLE_SALT_DONTAUDIT);
}

#endif /* AVC_ORACLE_H */
