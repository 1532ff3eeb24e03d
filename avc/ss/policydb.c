// SPDX-License-Identifier: GPL-2.0
/*
 * avc_rcu security server: policy text to policy database, and the
 * searches of a policy database.
 *
 * One rule a line; '#' starts a comment that runs to the end of the line;
 * blank lines are ignored; a carriage return just before the newline (or
 * the comment) is ignored, so CRLF text loads as LF text does:
 *
 *	allow      <ssid> <tsid> <tclass> <perms>
 *	auditallow <ssid> <tsid> <tclass> <perms>
 *	dontaudit  <ssid> <tsid> <tclass> <perms>
 *	permissive <ssid>
 *
 * The text may arrive in pieces (a policy written with several write(2)
 * calls): a parser (struct avc_policy_parser) takes the complete lines of
 * each piece as it comes and keeps the incomplete last line for the next
 * one, and avc_policy_parser_finish() builds the policy once the text is
 * whole.  Nothing is published here, so a bad line costs nothing but the
 * attempt: the error names the line in the kernel log and the policy in
 * force stays.
 *
 * Memory.  A rule costs memory only once its line has parsed, so a text of
 * bare keywords or junk fails at its first line having asked for almost
 * nothing.  Rules go into page-sized blocks that never move; a full block
 * is sorted and its duplicate keys folded, so a rule repeated a million
 * times takes one entry, not a million.  The finished policy is copied to
 * arrays of exactly its size.  Every allocation sized by the text is
 * charged to the writer's memory cgroup and fails with -ENOMEM rather than
 * wake the OOM killer.  The sorts reschedule every few thousand steps: a
 * policy of millions of rules takes seconds to sort.
 */

#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/bsearch.h>
#include <linux/mm.h>
#include <linux/sched.h>
#include <linux/slab.h>
#include <linux/string.h>
#include "policydb.h"

enum avc_rule_kind {
	AVC_RULE_ALLOW,
	AVC_RULE_AUDITALLOW,
	AVC_RULE_DONTAUDIT,
	AVC_RULE_PERMISSIVE,
};

static const struct {
	const char *word;
	unsigned int nfields;
} avc_rule_syntax[] = {
	[AVC_RULE_ALLOW] = { "allow", 4 },
	[AVC_RULE_AUDITALLOW] = { "auditallow", 4 },
	[AVC_RULE_DONTAUDIT] = { "dontaudit", 4 },
	[AVC_RULE_PERMISSIVE] = { "permissive", 1 },
};

/*
 * Allocations sized by the text, which comes from userspace: fail with
 * -ENOMEM rather than wake the OOM killer, and charge the writer's cgroup.
 */
#define AVC_POLICY_GFP	(GFP_KERNEL_ACCOUNT | __GFP_NOWARN | __GFP_RETRY_MAYFAIL)

/* Steps of a long loop between two reschedule points. */
#define AVC_RESCHED_EVERY	4096

/**
 * avc_policydb_free() - free a policy no reader can reach
 * @db: the policy, or NULL
 */
void avc_policydb_free(struct avc_policydb *db)
{
	if (!db)
		return;
	kvfree(db->permissive);
	kvfree(db->rules);
	kfree(db);
}

/**
 * avc_policydb_free_rcu() - RCU callback freeing a replaced policy
 * @rcu: the policy's rcu_head
 *
 * Runs in softirq context, where kvfree() defers the vmalloc'ed part.
 */
void avc_policydb_free_rcu(struct rcu_head *rcu)
{
	avc_policydb_free(container_of(rcu, struct avc_policydb, rcu));
}

/*
 * The one order of rules, for the sort and the binary search alike: by
 * ssid, then tsid, then tclass.
 */
static int avc_rule_cmp(const void *a, const void *b)
{
	const struct avc_rule_key *x = &((const struct avc_rule *)a)->key;
	const struct avc_rule_key *y = &((const struct avc_rule *)b)->key;

	if (x->ssid != y->ssid)
		return x->ssid < y->ssid ? -1 : 1;
	if (x->tsid != y->tsid)
		return x->tsid < y->tsid ? -1 : 1;
	if (x->tclass != y->tclass)
		return x->tclass < y->tclass ? -1 : 1;
	return 0;
}

/* The order of permissive SIDs, for the sort and the search alike. */
static int avc_sid_cmp(const void *a, const void *b)
{
	u32 x = *(const u32 *)a, y = *(const u32 *)b;

	return x < y ? -1 : x > y;
}

/**
 * avc_policydb_rule() - the merged rules of a key
 * @db: the policy
 * @key: the key
 *
 * Never sleeps.
 *
 * Return: the entry, or NULL if the policy has no rule for @key.
 */
const struct avc_rule *avc_policydb_rule(const struct avc_policydb *db,
					 const struct avc_rule_key *key)
{
	const struct avc_rule probe = { .key = *key };

	/* An empty policy has no array at all, not an empty one. */
	if (!db->nrules)
		return NULL;
	return bsearch(&probe, db->rules, db->nrules, sizeof(probe),
		       avc_rule_cmp);
}

/**
 * avc_policydb_permissive() - whether a source is permissive
 * @db: the policy
 * @ssid: the source SID
 *
 * Never sleeps.
 *
 * Return: true if the policy names @ssid permissive.
 */
bool avc_policydb_permissive(const struct avc_policydb *db, u32 ssid)
{
	if (!db->npermissive)
		return false;
	return bsearch(&ssid, db->permissive, db->npermissive, sizeof(ssid),
		       avc_sid_cmp);
}

/*
 * What the parser keeps of one kind of entry: an element type, its order,
 * and how a sorted array of them loses its duplicates.
 */
struct avc_elem_ops {
	size_t size;
	int (*cmp)(const void *a, const void *b);
	void (*exchange)(void *a, void *b);
	/* Fold equal neighbours of a sorted array; returns the new count. */
	u32 (*fold)(void *base, u32 n);
};

static void avc_rule_swap(void *a, void *b)
{
	struct avc_rule *x = a, *y = b, t = *x;

	*x = *y;
	*y = t;
}

static void avc_sid_swap(void *a, void *b)
{
	u32 *x = a, *y = b, t = *x;

	*x = *y;
	*y = t;
}

/* Every key's rules into one entry: their permissions OR-ed. */
static u32 avc_rules_fold(void *base, u32 n)
{
	struct avc_rule *r = base;
	u32 i, out = 0;

	for (i = 0; i < n; i++) {
		if (!(i % AVC_RESCHED_EVERY))
			cond_resched();
		if (out && !avc_rule_cmp(&r[out - 1], &r[i])) {
			r[out - 1].allowed |= r[i].allowed;
			r[out - 1].auditallow |= r[i].auditallow;
			r[out - 1].dontaudit |= r[i].dontaudit;
		} else {
			r[out++] = r[i];
		}
	}
	return out;
}

static u32 avc_sids_fold(void *base, u32 n)
{
	u32 *s = base, i, out = 0;

	for (i = 0; i < n; i++) {
		if (!(i % AVC_RESCHED_EVERY))
			cond_resched();
		if (!out || s[out - 1] != s[i])
			s[out++] = s[i];
	}
	return out;
}

static const struct avc_elem_ops avc_rule_ops = {
	.size = sizeof(struct avc_rule),
	.cmp = avc_rule_cmp,
	.exchange = avc_rule_swap,
	.fold = avc_rules_fold,
};

static const struct avc_elem_ops avc_sid_ops = {
	.size = sizeof(u32),
	.cmp = avc_sid_cmp,
	.exchange = avc_sid_swap,
	.fold = avc_sids_fold,
};

/* The largest element the sort moves: a rule. */
#define AVC_ELEM_MAX	sizeof(struct avc_rule)

/*
 * Move the root of the max-heap @base[@root..@n) down to where it belongs,
 * bottom-up: first down the path of larger children to a leaf (one
 * comparison a level), then back up that path to the first element larger
 * than the root's, which is seldom far from the leaf; the root goes there
 * and the path above moves up a level.  About half the comparisons of
 * testing the root against both children at every level.
 */
static __always_inline void avc_sift_down(char *base, size_t root, size_t n,
					  const struct avc_elem_ops *ops)
{
	size_t size = ops->size, i = root, c;
	u8 top[AVC_ELEM_MAX], carry[AVC_ELEM_MAX], tmp[AVC_ELEM_MAX];

	while ((c = 2 * i + 1) < n) {
		if (c + 1 < n &&
		    ops->cmp(base + c * size, base + (c + 1) * size) < 0)
			c++;
		i = c;
	}
	while (i != root && ops->cmp(base + i * size, base + root * size) <= 0)
		i = (i - 1) / 2;
	if (i == root)
		return;
	memcpy(top, base + root * size, size);
	memcpy(carry, base + i * size, size);
	memcpy(base + i * size, top, size);
	while (i != root) {
		i = (i - 1) / 2;
		memcpy(tmp, base + i * size, size);
		memcpy(base + i * size, carry, size);
		memcpy(carry, tmp, size);
	}
}

/*
 * Heapsort in place, with a reschedule point every AVC_RESCHED_EVERY
 * sifts: lib/sort.c has none, and millions of rules take seconds, which on
 * a kernel without preemption is a soft lockup.  Always inlined, for one
 * copy per element type with its comparison inlined too.
 */
static __always_inline void avc_heapsort(void *base, size_t n,
					 const struct avc_elem_ops *ops)
{
	char *b = base;
	size_t i;

	if (n < 2)
		return;
	for (i = n / 2; i-- > 0; ) {
		avc_sift_down(b, i, n, ops);
		if (!(i % AVC_RESCHED_EVERY))
			cond_resched();
	}
	for (i = n - 1; i > 0; i--) {
		ops->exchange(b, b + i * ops->size);
		avc_sift_down(b, 0, i, ops);
		if (!(i % AVC_RESCHED_EVERY))
			cond_resched();
	}
}

/* Sort and fold: the count of distinct entries left at the front. */
static u32 avc_sort_fold(void *base, u32 n, const struct avc_elem_ops *ops)
{
	if (ops == &avc_rule_ops)
		avc_heapsort(base, n, &avc_rule_ops);
	else
		avc_heapsort(base, n, &avc_sid_ops);
	return ops->fold(base, n);
}

/*
 * A growing list of entries in page-sized blocks that never move, so that
 * growing never copies what is already there.  Only the last block takes
 * new entries; when it fills it is sorted and folded, and if that freed a
 * quarter of it or more it keeps taking entries, else a new block starts
 * and the next AVC_FOLD_PAUSE full blocks are not even tried: a text of
 * distinct keys pays for one sort of a block in that many.
 */
#define AVC_FOLD_PAUSE	63

struct avc_block {
	u32 n;			/* entries in @elems */
	u32 pad;
	char elems[];
};

#define AVC_BLOCK_BYTES	4096	/* one order-0 kmalloc, whatever the page size */

struct avc_blocks {
	const struct avc_elem_ops *ops;
	struct avc_block **block;	/* @nblocks blocks, the last one filling */
	u32 nblocks;
	u32 cap;			/* slots in @block */
	u32 per_block;			/* entries a block holds */
	u32 pause;			/* full blocks left unfolded */
};

static void avc_blocks_init(struct avc_blocks *bl,
			    const struct avc_elem_ops *ops)
{
	memset(bl, 0, sizeof(*bl));
	bl->ops = ops;
	bl->per_block = (AVC_BLOCK_BYTES - sizeof(struct avc_block)) / ops->size;
}

static void avc_blocks_free(struct avc_blocks *bl)
{
	u32 i;

	for (i = 0; i < bl->nblocks; i++)
		kfree(bl->block[i]);
	kvfree(bl->block);
	bl->block = NULL;
	bl->nblocks = 0;
	bl->cap = 0;
}

/* Start a new last block: 0 or -ENOMEM. */
static int avc_blocks_grow(struct avc_blocks *bl)
{
	struct avc_block *blk, **dir;

	if (bl->nblocks == bl->cap) {
		u32 cap = bl->cap ? 2 * bl->cap : 16;

		dir = kvmalloc_array(cap, sizeof(*dir), AVC_POLICY_GFP);
		if (!dir)
			return -ENOMEM;
		if (bl->nblocks)
			memcpy(dir, bl->block, bl->nblocks * sizeof(*dir));
		kvfree(bl->block);
		bl->block = dir;
		bl->cap = cap;
	}
	blk = kmalloc(AVC_BLOCK_BYTES, AVC_POLICY_GFP);
	if (!blk)
		return -ENOMEM;
	blk->n = 0;
	bl->block[bl->nblocks++] = blk;
	return 0;
}

/* Append one entry: 0 or -ENOMEM. */
static int avc_blocks_add(struct avc_blocks *bl, const void *elem)
{
	const struct avc_elem_ops *ops = bl->ops;
	struct avc_block *last = bl->nblocks ? bl->block[bl->nblocks - 1] : NULL;
	int err;

	if (last && last->n == bl->per_block) {
		if (bl->pause) {
			bl->pause--;
			last = NULL;
		} else {
			last->n = avc_sort_fold(last->elems, last->n, ops);
			if (last->n > bl->per_block - bl->per_block / 4) {
				bl->pause = AVC_FOLD_PAUSE;
				last = NULL;	/* as good as full */
			}
		}
	}
	if (!last) {
		err = avc_blocks_grow(bl);
		if (err)
			return err;
		last = bl->block[bl->nblocks - 1];
	}
	memcpy(last->elems + last->n * ops->size, elem, ops->size);
	last->n++;
	return 0;
}

/*
 * Every entry, sorted, folded, in a vmalloc'able array of exactly their
 * number (NULL if there are none).  The blocks are freed as they are
 * copied; on -ENOMEM what is left of them is avc_blocks_free()'s.
 */
static int avc_blocks_finish(struct avc_blocks *bl, void **out, u32 *count)
{
	const struct avc_elem_ops *ops = bl->ops;
	size_t size = ops->size;
	u32 i, n, total = 0;
	char *all, *exact;

	*out = NULL;
	*count = 0;
	for (i = 0; i < bl->nblocks; i++)
		total += bl->block[i]->n;
	if (!total)
		return 0;
	all = kvmalloc_array(total, size, AVC_POLICY_GFP);
	if (!all)
		return -ENOMEM;
	for (i = 0, n = 0; i < bl->nblocks; i++) {
		memcpy(all + (size_t)n * size, bl->block[i]->elems,
		       bl->block[i]->n * size);
		n += bl->block[i]->n;
		kfree(bl->block[i]);
		bl->block[i] = NULL;
		if (!(i % 256))
			cond_resched();
	}
	avc_blocks_free(bl);

	n = avc_sort_fold(all, total, ops);
	if (n < total) {
		/*
		 * kvrealloc() never shrinks (nor does vrealloc()): copy, or
		 * the duplicates' memory stays until the next load.
		 */
		exact = kvmalloc_array(n, size, AVC_POLICY_GFP);
		if (!exact) {
			kvfree(all);
			return -ENOMEM;
		}
		memcpy(exact, all, (size_t)n * size);
		kvfree(all);
		all = exact;
	}
	*out = all;
	*count = n;
	return 0;
}

/**
 * struct avc_policy_parser - a policy text being parsed, piece by piece
 * @rules: the rules of the lines parsed so far
 * @sids: the permissive SIDs of the lines parsed so far
 * @line: the incomplete last line, up to its '#' if it has one
 * @line_len: bytes in @line
 * @line_cap: bytes @line can hold
 * @in_comment: the incomplete line has reached its '#': drop what follows
 * @lineno: lines parsed so far
 * @err: the first error; every later call returns it
 */
struct avc_policy_parser {
	struct avc_blocks rules;
	struct avc_blocks sids;
	char *line;
	size_t line_len;
	size_t line_cap;
	bool in_comment;
	u32 lineno;
	int err;
};

/**
 * avc_policy_parser_new() - start parsing a policy text
 *
 * Context: process context; may sleep.
 *
 * Return: the parser, or NULL without memory.
 */
struct avc_policy_parser *avc_policy_parser_new(void)
{
	struct avc_policy_parser *p = kzalloc(sizeof(*p), AVC_POLICY_GFP);

	if (!p)
		return NULL;
	avc_blocks_init(&p->rules, &avc_rule_ops);
	avc_blocks_init(&p->sids, &avc_sid_ops);
	return p;
}

/**
 * avc_policy_parser_free() - free a parser and what it holds
 * @p: the parser, or NULL
 */
void avc_policy_parser_free(struct avc_policy_parser *p)
{
	if (!p)
		return;
	avc_blocks_free(&p->rules);
	avc_blocks_free(&p->sids);
	kvfree(p->line);
	kfree(p);
}

/*
 * The keyword of a line whose comment is already cut off: its kind, -1 for
 * a blank line, -2 for an unknown word.  *@after is where the fields begin.
 */
static int avc_rule_kind(const char *s, size_t len, size_t *after)
{
	size_t i = 0, w;
	unsigned int k;

	while (i < len && avc_is_blank(s[i]))
		i++;
	if (i == len)
		return -1;
	for (w = i; w < len && !avc_is_blank(s[w]); w++)
		;
	*after = w;
	for (k = 0; k < ARRAY_SIZE(avc_rule_syntax); k++)
		if (strlen(avc_rule_syntax[k].word) == w - i &&
		    !memcmp(avc_rule_syntax[k].word, s + i, w - i))
			return k;
	return -2;
}

/*
 * Parse one line, comment already cut off, into @p: 0, -ENOMEM, or
 * -EINVAL with *@why saying what is wrong.
 */
static int avc_parse_rule(struct avc_policy_parser *p, const char *s,
			  size_t len, const char **why)
{
	size_t w = 0;
	int k = avc_rule_kind(s, len, &w);
	struct avc_rule rule;
	u32 f[4];
	int err;

	if (k == -1)
		return 0;
	if (k < 0) {
		*why = "unknown rule (allow, auditallow, dontaudit or permissive expected)";
		return -EINVAL;
	}

	err = avc_parse_fields(s + w, len - w, f, avc_rule_syntax[k].nfields);
	if (err == -ERANGE) {
		*why = "number above 4294967295";
		return -EINVAL;
	}
	if (err) {
		*why = k == AVC_RULE_PERMISSIVE ?
		       "expected: permissive <ssid>" :
		       "expected: <rule> <ssid> <tsid> <tclass> <perms>";
		return -EINVAL;
	}

	if (k == AVC_RULE_PERMISSIVE)
		return avc_blocks_add(&p->sids, &f[0]);
	if (f[2] > U16_MAX) {
		*why = "tclass above 65535";
		return -EINVAL;
	}
	rule = (struct avc_rule) {
		.key = { .ssid = f[0], .tsid = f[1], .tclass = f[2] },
		.allowed = k == AVC_RULE_ALLOW ? f[3] : 0,
		.auditallow = k == AVC_RULE_AUDITALLOW ? f[3] : 0,
		.dontaudit = k == AVC_RULE_DONTAUDIT ? f[3] : 0,
	};
	return avc_blocks_add(&p->rules, &rule);
}

/*
 * One whole line, without its newline: cut the comment and a carriage
 * return before it, parse, count.  A bad line is logged with its number.
 */
static int avc_parser_line(struct avc_policy_parser *p, const char *s,
			   size_t len)
{
	const char *hash = len ? memchr(s, '#', len) : NULL, *why = NULL;
	int err;

	if (hash)
		len = hash - s;
	if (len && s[len - 1] == '\r')
		len--;
	p->lineno++;
	err = avc_parse_rule(p, s, len, &why);
	if (err == -EINVAL)
		pr_err("policy line %u: %s; policy not loaded\n", p->lineno,
		       why);
	if (!(p->lineno % AVC_RESCHED_EVERY))
		cond_resched();
	return err;
}

/*
 * Keep @len bytes of an incomplete line for the next piece: only what
 * comes before its '#', which is all a comment leaves of a line.
 */
static int avc_parser_keep(struct avc_policy_parser *p, const char *s,
			   size_t len)
{
	const char *hash;
	size_t cap;
	char *buf;

	if (p->in_comment)
		return 0;
	hash = memchr(s, '#', len);
	if (hash) {
		len = hash - s;
		p->in_comment = true;
	}
	if (p->line_cap - p->line_len < len) {
		cap = p->line_cap ? 2 * p->line_cap : 128;
		if (cap < p->line_len + len)
			cap = p->line_len + len;
		buf = kvmalloc(cap, AVC_POLICY_GFP);
		if (!buf)
			return -ENOMEM;
		if (p->line_len)
			memcpy(buf, p->line, p->line_len);
		kvfree(p->line);
		p->line = buf;
		p->line_cap = cap;
	}
	if (len)
		memcpy(p->line + p->line_len, s, len);
	p->line_len += len;
	return 0;
}

/* Parse the kept incomplete line, now complete, and forget it. */
static int avc_parser_kept_line(struct avc_policy_parser *p)
{
	int err = avc_parser_line(p, p->line, p->line_len);

	p->line_len = 0;
	p->in_comment = false;
	return err;
}

/**
 * avc_policy_parser_feed() - parse the next piece of a policy text
 * @p: the parser
 * @text: the piece (not NUL-terminated); it may end in the middle of a line
 * @len: its length
 *
 * May sleep.  Parses every line the piece completes and keeps the
 * incomplete last line for the next piece or avc_policy_parser_finish().
 * A bad line is logged with its number in the whole text.  After an error
 * the parser is spent: every later call returns the same error.
 *
 * Return: 0, -EINVAL for a bad line, -ENOMEM.
 */
int avc_policy_parser_feed(struct avc_policy_parser *p, const char *text,
			   size_t len)
{
	const char *end = text + len, *eol;
	int err = 0;

	if (p->err)
		return p->err;
	while (text < end && !err) {
		eol = memchr(text, '\n', end - text);
		if (!eol) {
			err = avc_parser_keep(p, text, end - text);
			break;
		}
		if (p->line_len || p->in_comment) {
			err = avc_parser_keep(p, text, eol - text);
			if (!err)
				err = avc_parser_kept_line(p);
		} else {
			err = avc_parser_line(p, text, eol - text);
		}
		text = eol + 1;
	}
	p->err = err;
	return err;
}

/**
 * avc_policy_parser_finish() - the policy of a whole text
 * @p: the parser, fed the whole text; free it afterwards
 *
 * May sleep, for a while: a last line without a newline is parsed, then
 * the rules are sorted and merged into arrays of exactly their size.  The
 * policy is not published.
 *
 * Return: the policy (seqno 0), ERR_PTR(-EINVAL) for a bad line (logged),
 * ERR_PTR(-ENOMEM).
 */
struct avc_policydb *avc_policy_parser_finish(struct avc_policy_parser *p)
{
	struct avc_policydb *db;
	void *arr;
	int err;

	if (!p->err && (p->line_len || p->in_comment))
		p->err = avc_parser_kept_line(p);
	if (p->err)
		return ERR_PTR(p->err);

	db = kzalloc(sizeof(*db), AVC_POLICY_GFP);
	if (!db)
		return ERR_PTR(-ENOMEM);
	err = avc_blocks_finish(&p->rules, &arr, &db->nrules);
	db->rules = arr;
	if (!err) {
		err = avc_blocks_finish(&p->sids, &arr, &db->npermissive);
		db->permissive = arr;
	}
	if (err) {
		p->err = err;
		avc_policydb_free(db);
		return ERR_PTR(err);
	}
	return db;
}

/**
 * avc_policydb_parse() - build a policy from a whole text
 * @text: the text (not NUL-terminated)
 * @len: its length
 *
 * May sleep.  On a bad line, logs the line number and the reason.
 *
 * Return: the policy (seqno 0, not yet published), ERR_PTR(-EINVAL) for a
 * bad line, ERR_PTR(-ENOMEM).
 */
struct avc_policydb *avc_policydb_parse(const char *text, size_t len)
{
	struct avc_policy_parser *p = avc_policy_parser_new();
	struct avc_policydb *db;
	int err;

	if (!p)
		return ERR_PTR(-ENOMEM);
	err = avc_policy_parser_feed(p, text, len);
	db = err ? ERR_PTR(err) : avc_policy_parser_finish(p);
	avc_policy_parser_free(p);
	return db;
}
