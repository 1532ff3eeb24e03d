// SPDX-License-Identifier: GPL-2.0
/*
 * The policy model of the avc_rcu selftests, its text rendering, the
 * oracle family's policy text and reply matching.  See avc_model.h.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "avc_model.h"

void tst_policy_add(struct tst_policy *p, enum tst_model_rule_kind kind,
		    __u32 ssid, __u32 tsid, __u32 tclass,
		    __u32 perms)
{
	if (p->nr == p->cap) {
		p->cap = p->cap ? p->cap * 2 : 256;
		p->rules = realloc(p->rules, p->cap * sizeof(*p->rules));
		if (!p->rules)
			abort();
	}
	p->rules[p->nr++] = (struct tst_model_rule){
		.kind = kind, .ssid = ssid, .tsid = tsid,
		.tclass = tclass, .perms = perms,
	};
}

void tst_policy_free(struct tst_policy *p)
{
	free(p->rules);
	memset(p, 0, sizeof(*p));
}

void tst_policy_decide(const struct tst_policy *p, __u32 ssid,
		       __u32 tsid, __u32 tclass, struct tst_decision *d)
{
	__u32 dontaudit = 0;
	size_t i;

	memset(d, 0, sizeof(*d));
	for (i = 0; i < p->nr; i++) {
		const struct tst_model_rule *r = &p->rules[i];

		if (r->kind == TST_MODEL_PERMISSIVE) {
			if (r->ssid == ssid)
				d->flags |= AVC_RCU_DECISION_PERMISSIVE;
			continue;
		}
		if (r->ssid != ssid || r->tsid != tsid || r->tclass != tclass)
			continue;
		if (r->kind == TST_MODEL_ALLOW)
			d->allowed |= r->perms;
		else if (r->kind == TST_MODEL_AUDITALLOW)
			d->auditallow |= r->perms;
		else
			dontaudit |= r->perms;
	}
	d->auditdeny = ~dontaudit;
}

static const char * const tst_keywords[] = {
	[TST_MODEL_ALLOW] = "allow",
	[TST_MODEL_AUDITALLOW] = "auditallow",
	[TST_MODEL_DONTAUDIT] = "dontaudit",
	[TST_MODEL_PERMISSIVE] = "permissive",
};

/* One number, in decimal or hex with either case of digits. */
static void render_num(struct tst_buf *out, __u64 *rng, __u32 v)
{
	switch (rng ? tst_rand(rng) % 4 : 0) {
	case 0:
	case 1:
		tst_buf_printf(out, "%u", v);
		break;
	case 2:
		tst_buf_printf(out, "0x%x", v);
		break;
	default:
		tst_buf_printf(out, "0x%X", v);
		break;
	}
}

static void render_sep(struct tst_buf *out, __u64 *rng)
{
	static const char * const seps[] = { " ", " ", "\t", "  ", " \t" };

	tst_buf_printf(out, "%s",
		       rng ? seps[tst_rand(rng) % ARRAY_LEN(seps)] : " ");
}

void tst_policy_render(const struct tst_policy *p, __u64 *rng,
		       struct tst_buf *out)
{
	size_t i;

	for (i = 0; i < p->nr; i++) {
		const struct tst_model_rule *r = &p->rules[i];
		__u64 dice = rng ? tst_rand(rng) % 16 : 15;

		if (dice == 0)
			tst_buf_printf(out, "\n");
		else if (dice == 1)
			tst_buf_printf(out, "# rule %zu follows\n", i);
		else if (dice == 2)
			/* A commented-out rule must have no effect. */
			tst_buf_printf(out, "#allow %u %u %u 0xffffffff\n",
				       r->ssid, r->tsid, r->tclass);
		tst_buf_printf(out, "%s", tst_keywords[r->kind]);
		render_sep(out, rng);
		render_num(out, rng, r->ssid);
		if (r->kind != TST_MODEL_PERMISSIVE) {
			render_sep(out, rng);
			render_num(out, rng, r->tsid);
			render_sep(out, rng);
			render_num(out, rng, r->tclass);
			render_sep(out, rng);
			render_num(out, rng, r->perms);
		}
		if (dice == 3)
			tst_buf_printf(out, " # trailing comment allow 1 2 3");
		else if (dice == 4)
			tst_buf_printf(out, "\t#");
		tst_buf_printf(out, "\n");
	}
}

/*
 * The rules of a key, from the description in avc_oracle.h.  The allow
 * perms are split into two rules that OR to them.
 */
static void oracle_key_text(__u32 q, __u32 s, __u32 t, __u32 c,
			    struct tst_buf *out)
{
	__u32 h = tst_mix(s, t, c, q), a, m;

	if (h & 3) {
		a = tst_mix(s, t, c, q ^ TST_ORACLE_SALT_ALLOW);
		m = tst_mix(s, t, c, TST_ORACLE_SALT_SPLIT);
		tst_buf_printf(out, "allow %u %u %u 0x%x\nallow %u %u %u %u\n",
			       s, t, c, a & m, s, t, c, a & ~m);
	}
	if (!(h & 0x30))
		tst_buf_printf(out, "auditallow %u %u %u 0x%x\n", s, t, c,
			       tst_mix(s, t, c, q ^ TST_ORACLE_SALT_AUDITALLOW));
	if (!(h & 0xc0))
		tst_buf_printf(out, "dontaudit %u %u %u 0x%x\n", s, t, c,
			       tst_mix(s, t, c, q ^ TST_ORACLE_SALT_DONTAUDIT));
}

void tst_oracle_policy_text(const struct tst_oracle *o, __u32 q,
			    struct tst_buf *out)
{
	__u32 s, t, c;

	out->len = 0;
	tst_buf_printf(out, "# policy for seqno %u\n", q);
	if (q == 0)
		return;
	for (s = 1; s <= o->ns; s++) {
		if (tst_mix(s, 0, 0, q) % 4 == 0)
			tst_buf_printf(out, "permissive %u\n", s);
		for (t = 1; t <= o->nt; t++)
			for (c = 1; c <= o->nc; c++)
				if (tst_mix(s, t, c, 0) % o->rule_mod == 0)
					oracle_key_text(q, s, t, c, out);
	}
}

int tst_reply_matches(const struct tst_reply *r, const struct tst_decision *d,
		      __u32 seqno)
{
	return !(r->allowed == d->allowed && r->decided == 0xffffffffU &&
		 r->auditallow == d->auditallow &&
		 r->auditdeny == d->auditdeny && r->seqno == seqno &&
		 r->flags == d->flags);
}

static char *str_slot(void)
{
	static __thread char bufs[4][160];
	static __thread unsigned int next;

	return bufs[next++ % 4];
}

const char *tst_reply_str(const struct tst_reply *r)
{
	char *s = str_slot();

	snprintf(s, 160,
		 "allowed=%x decided=%x auditallow=%x auditdeny=%x seqno=%u flags=%x",
		 r->allowed, r->decided, r->auditallow, r->auditdeny, r->seqno,
		 r->flags);
	return s;
}

const char *tst_decision_str(const struct tst_decision *d)
{
	char *s = str_slot();

	snprintf(s, 160, "allowed=%x auditallow=%x auditdeny=%x flags=%x",
		 d->allowed, d->auditallow, d->auditdeny, d->flags);
	return s;
}
