// SPDX-License-Identifier: GPL-2.0
/*
 * Fuzz target: the kernel's policy parser and security server against the
 * test suite's independent model of the policy (selftests/lib/avc_model.c),
 * any disagreement a failure.
 *
 * The input is read as a list of rules: its first 8 bytes seed the
 * model's renderer, which varies the text's form (decimal or hex numbers
 * of either case, spaces or tabs, blank lines, comments, a commented-out
 * rule); a flags byte adds forms the renderer does not write (CRLF line
 * ends, blanks before the keyword, no newline after the last line); then
 * each rule is a kind byte, whose bits say how wide each of its numbers
 * is, and the numbers.  Narrow SIDs and classes (0 to 7) make rules share
 * keys and sources; wide ones reach 2^32 - 1, and a tclass above 65535,
 * which the policy refuses.
 *
 * The text goes through avc_ss_load() (the parser, then publication) of a
 * fresh security server.  If the model has a tclass above 65535 the load
 * must fail with -EINVAL and leave the empty policy (seqno 0); otherwise
 * it must succeed with seqno 1, and avc_ss_compute() must decide every
 * key of a rule, its neighbours and a few others as tst_policy_decide()
 * does: allowed, auditallow, auditdeny and the permissive flag.
 */
#include <linux/rcupdate.h>
#include "fuzz.h"
#include "ss.h"
#include "avc_model.h"

#define MAX_RULES	256

struct input {
	const u8 *data;
	size_t size;
	size_t pos;
};

/* The next @n bytes as a little-endian number; zeros past the end. */
static u64 take(struct input *in, unsigned int n)
{
	u64 v = 0;
	unsigned int i;

	for (i = 0; i < n; i++, in->pos++)
		if (in->pos < in->size)
			v |= (u64)in->data[in->pos] << (8 * i);
	return v;
}

enum {
	F_CRLF = 1 << 0,	/* "\r\n" line ends */
	F_INDENT = 1 << 1,	/* blanks before each line */
	F_NO_LAST_NL = 1 << 2,	/* the last line without its newline */
	F_PLAIN = 1 << 3,	/* the renderer's plain form */
};

enum {
	K_WIDE_SSID = 1 << 2,
	K_WIDE_TSID = 1 << 3,
	K_WIDE_TCLASS = 1 << 4,
	K_HUGE_TCLASS = 1 << 5,	/* 65536 and up: refused */
	K_WIDE_PERMS = 1 << 6,
};

static bool read_policy(struct input *in, struct tst_policy *p)
{
	bool refused = false;
	u32 s, t, c, perms;
	unsigned int k;

	while (in->pos < in->size && p->nr < MAX_RULES) {
		k = take(in, 1);
		s = k & K_WIDE_SSID ? take(in, 4) : take(in, 1) % 8;
		if ((k & 3) == TST_MODEL_PERMISSIVE) {
			tst_policy_add(p, TST_MODEL_PERMISSIVE, s, 0, 0, 0);
			continue;
		}
		t = k & K_WIDE_TSID ? take(in, 4) : take(in, 1) % 8;
		if (k & K_HUGE_TCLASS)
			c = 0x10000 + take(in, 2);
		else
			c = k & K_WIDE_TCLASS ? take(in, 2) : take(in, 1) % 8;
		perms = k & K_WIDE_PERMS ? take(in, 4) : 1U << (take(in, 1) % 32);
		refused |= c > U16_MAX;
		tst_policy_add(p, k & 3, s, t, c, perms);
	}
	return refused;
}

/* The renderer's text in the forms the flags ask for. */
static char *render(const struct tst_policy *p, u64 seed, unsigned int flags,
		    size_t *len)
{
	struct tst_buf plain = { 0 }, out = { 0 };
	size_t i;

	tst_policy_render(p, flags & F_PLAIN ? NULL : &seed, &plain);
	for (i = 0; i < plain.len; i++) {
		if ((flags & F_INDENT) && (!i || plain.data[i - 1] == '\n'))
			tst_buf_printf(&out, "%s", i % 2 ? "\t " : " ");
		if (plain.data[i] == '\n') {
			if ((flags & F_NO_LAST_NL) && i + 1 == plain.len)
				break;
			tst_buf_printf(&out, "%s", flags & F_CRLF ? "\r\n" : "\n");
		} else {
			tst_buf_printf(&out, "%c", plain.data[i]);
		}
	}
	tst_buf_free(&plain);
	*len = out.len;
	return out.data;
}

static void compare(struct avc_ss *ss, const struct tst_policy *p, u32 s,
		    u32 t, u32 c)
{
	struct avc_rcu_decision avd;
	struct tst_decision d;

	if (c > U16_MAX)
		return;
	avc_ss_compute(ss, s, t, c, &avd);
	tst_policy_decide(p, s, t, c, &d);
	if (avd.allowed != d.allowed || avd.auditallow != d.auditallow ||
	    avd.auditdeny != d.auditdeny || avd.flags != d.flags || avd.seqno != 1)
		avc_native_warn(__FILE__, __LINE__,
				"key %u %u %u: kernel allowed %x auditallow %x auditdeny %x flags %x seqno %u, model %s\n",
				s, t, c, avd.allowed, avd.auditallow,
				avd.auditdeny, avd.flags, avd.seqno,
				tst_decision_str(&d));
}

int avc_fuzz_one_input(const u8 *data, size_t size)
{
	struct input in = { .data = data, .size = size };
	struct tst_policy p = { 0 };
	struct avc_rcu_decision avd;
	unsigned int flags;
	struct avc_ss ss;
	bool refused;
	struct avc_ss_loaded ld = { 0 };
	size_t len, i;
	char *text;
	u64 seed;
	int err;

	fuzz_setup();
	seed = take(&in, 8);
	flags = take(&in, 1);
	refused = read_policy(&in, &p);
	text = render(&p, seed, flags, &len);

	fuzz_assert(!avc_ss_init(&ss));
	err = avc_ss_load(&ss, text ?: "", len, &ld);
	if (refused) {
		fuzz_assert(err == -EINVAL);
		fuzz_assert(avc_ss_seqno(&ss) == 0);
		avc_ss_compute(&ss, 0, 0, 0, &avd);
		fuzz_assert(!avd.allowed && avd.auditdeny == ~0U && !avd.flags);
	} else {
		fuzz_assert(!err && ld.seqno == 1 && avc_ss_seqno(&ss) == 1);
		compare(&ss, &p, 0, 0, 0);
		compare(&ss, &p, U32_MAX, U32_MAX, U16_MAX);
		for (i = 0; i < p.nr; i++) {
			const struct tst_model_rule *r = &p.rules[i];

			compare(&ss, &p, r->ssid, r->tsid, r->tclass);
			compare(&ss, &p, r->ssid, r->tsid, r->tclass + 1);
			compare(&ss, &p, r->ssid, r->tsid + 1, r->tclass);
			compare(&ss, &p, r->ssid + 1, r->tsid, r->tclass);
			compare(&ss, &p, r->ssid, r->tsid ^ 1, r->tclass ^ 1);
		}
	}
	avc_ss_destroy(&ss);
	rcu_barrier();
	free(text);
	tst_policy_free(&p);
	return 0;
}
