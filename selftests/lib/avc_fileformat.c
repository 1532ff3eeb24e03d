// SPDX-License-Identifier: GPL-2.0
/*
 * Strict parsers of the avcrcufs file formats.  See avc_fileformat.h.
 */
#include <errno.h>
#include <limits.h>
#include <stdint.h>
#include <string.h>

#include "avc_fileformat.h"

/*
 * Strict scanning.  A cursor walks [*p, end); every helper returns 0 and
 * advances it, or returns -EINVAL.
 */
static int scan_lit(const char **p, const char *end, const char *lit)
{
	size_t n = strlen(lit);

	if ((size_t)(end - *p) < n || memcmp(*p, lit, n))
		return -EINVAL;
	*p += n;
	return 0;
}

/* Decimal as printf("%u") prints it: no sign, no leading zero. */
static int scan_dec(const char **p, const char *end, __u64 max,
		    __u64 *val)
{
	const char *s = *p;
	__u64 v = 0;

	if (s >= end || *s < '0' || *s > '9')
		return -EINVAL;
	if (*s == '0' && s + 1 < end && s[1] >= '0' && s[1] <= '9')
		return -EINVAL;
	for (; s < end && *s >= '0' && *s <= '9'; s++) {
		v = v * 10 + (__u64)(*s - '0');
		if (v > max)
			return -EINVAL;
	}
	*p = s;
	*val = v;
	return 0;
}

/* As printf("%d") prints it. */
static int scan_int(const char **p, const char *end, long *val)
{
	int neg = 0;
	__u64 v;

	if (*p < end && **p == '-') {
		neg = 1;
		(*p)++;
	}
	if (scan_dec(p, end, neg ? (__u64)INT_MAX + 1 : INT_MAX, &v))
		return -EINVAL;
	if (neg && v == 0)
		return -EINVAL;
	*val = neg ? -(long)v : (long)v;
	return 0;
}

/* As printf("%x") prints it: lower case, no prefix, no leading zero. */
static int scan_hex(const char **p, const char *end, __u32 *val)
{
	const char *s = *p;
	__u32 v = 0;
	int digits = 0, d;

	for (; s < end; s++, digits++) {
		if (*s >= '0' && *s <= '9')
			d = *s - '0';
		else if (*s >= 'a' && *s <= 'f')
			d = *s - 'a' + 10;
		else
			break;
		if (digits == 8)
			return -EINVAL;
		if (digits == 1 && v == 0)
			return -EINVAL;
		v = v << 4 | (__u32)d;
	}
	if (!digits)
		return -EINVAL;
	*p = s;
	*val = v;
	return 0;
}

int tst_parse_hash_stats(const char *text, size_t len,
			 struct tst_hash_stats_file *hs)
{
	const char *p = text, *end = text + len;

	if (scan_lit(&p, end, "entries: ") ||
	    scan_int(&p, end, &hs->entries) ||
	    scan_lit(&p, end, "\nbuckets used: ") ||
	    scan_int(&p, end, &hs->used) ||
	    scan_lit(&p, end, "/") ||
	    scan_int(&p, end, &hs->slots) ||
	    scan_lit(&p, end, "\nlongest chain: ") ||
	    scan_int(&p, end, &hs->longest) ||
	    scan_lit(&p, end, "\n") || p != end)
		return -EINVAL;
	return 0;
}

int tst_parse_cache_stats(const char *text, size_t len,
			  struct tst_cache_stats_sum *cs)
{
	const char *p = text, *end = text + len;
	__u64 v;
	int i;

	memset(cs, 0, sizeof(*cs));
	if (scan_lit(&p, end, AVC_RCU_CACHE_STATS_HEADER "\n"))
		return -EINVAL;
	while (p < end) {
		for (i = 0; i < TST_NR_STATS; i++) {
			if (i && scan_lit(&p, end, " "))
				return -EINVAL;
			if (scan_dec(&p, end, UINT32_MAX, &v))
				return -EINVAL;
			cs->sum[i] += (__u32)v;
		}
		if (scan_lit(&p, end, "\n"))
			return -EINVAL;
		cs->rows++;
	}
	return cs->rows ? 0 : -EINVAL;
}

int tst_parse_reply(const char *text, size_t len, struct tst_reply *r)
{
	const char *p = text, *end = text + len;
	__u64 seqno;

	if (scan_hex(&p, end, &r->allowed) || scan_lit(&p, end, " ") ||
	    scan_hex(&p, end, &r->decided) || scan_lit(&p, end, " ") ||
	    scan_hex(&p, end, &r->auditallow) || scan_lit(&p, end, " ") ||
	    scan_hex(&p, end, &r->auditdeny) || scan_lit(&p, end, " ") ||
	    scan_dec(&p, end, UINT32_MAX, &seqno) || scan_lit(&p, end, " ") ||
	    scan_hex(&p, end, &r->flags) || p != end)
		return -EINVAL;
	r->seqno = (__u32)seqno;
	return 0;
}

int tst_parse_u32_line(const char *text, size_t len, __u32 *val)
{
	const char *p = text, *end = text + len;
	__u64 v;

	if (scan_dec(&p, end, UINT32_MAX, &v) || scan_lit(&p, end, "\n") ||
	    p != end)
		return -EINVAL;
	*val = (__u32)v;
	return 0;
}

int tst_parse_cpu_list(const char *text, size_t len, unsigned int *count)
{
	const char *p = text, *end = text + len;
	__u64 lo, hi;
	unsigned int n = 0;

	if (len && text[len - 1] == '\n')
		end--;
	while (p < end) {
		if (scan_dec(&p, end, 1U << 20, &lo))
			return -EINVAL;
		hi = lo;
		if (p < end && *p == '-') {
			p++;
			if (scan_dec(&p, end, 1U << 20, &hi) || hi < lo)
				return -EINVAL;
		}
		n += (unsigned int)(hi - lo + 1);
		if (p < end && scan_lit(&p, end, ","))
			return -EINVAL;
	}
	if (!n)
		return -EINVAL;
	*count = n;
	return 0;
}

__u32 tst_stat_delta(const struct tst_cache_stats_sum *a,
		     const struct tst_cache_stats_sum *b, enum tst_stat col)
{
	return b->sum[col] - a->sum[col];
}
