/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Native shim for <linux/list.h>, the hlist part the core uses: the same
 * layout (a head is one pointer, a node two) and the same semantics,
 * written here.  The RCU variants are in the rculist shim.
 */
#ifndef _AVC_NATIVE_LINUX_LIST_H
#define _AVC_NATIVE_LINUX_LIST_H

#include <linux/compiler.h>
#include <linux/kernel.h>
#include <linux/types.h>

struct hlist_node {
	struct hlist_node *next;
	struct hlist_node **pprev;
};

struct hlist_head {
	struct hlist_node *first;
};

/* What an unlinked node's pprev holds, to fault on a second unlink. */
#define LIST_POISON2		((void *)0x122)

static inline void INIT_HLIST_HEAD(struct hlist_head *h)
{
	h->first = NULL;
}

static inline void INIT_HLIST_NODE(struct hlist_node *n)
{
	n->next = NULL;
	n->pprev = NULL;
}

/* May race with updates: a READ_ONCE(), as the kernel's. */
static inline bool hlist_empty(const struct hlist_head *h)
{
	return !READ_ONCE(h->first);
}

#define hlist_entry(ptr, type, member)	container_of(ptr, type, member)

/*
 * The iterators walk the hlist_node pointers and set @pos from each, so
 * that every argument is named once (checkpatch's rule for macros); as in
 * the kernel, @pos is NULL when a walk ends.  avc_native_entry() is
 * container_of() that passes NULL through, given where the member lies in
 * the type @pos points to.
 */
static inline void *avc_native_entry(const struct hlist_node *n, size_t off)
{
	return n ? (char *)n - off : NULL;
}

/* Walks that hold the list's update lock. */
#define hlist_for_each_entry(pos, head, member)				\
	for (struct hlist_node *__hn = (head)->first;			\
	     ((pos) = avc_native_entry(__hn,				\
			offsetof(__typeof__(*(__typeof__(pos))NULL),	\
				 member)));				\
	     __hn = __hn->next)

/* The same, allowing @pos to be unlinked: @n holds the next node. */
#define hlist_for_each_entry_safe(pos, n, head, member)			\
	for (struct hlist_node *__hn = (head)->first, *__hnext;		\
	     ((pos) = avc_native_entry(__hn,				\
			offsetof(__typeof__(*(__typeof__(pos))NULL),	\
				 member))) &&				\
	     (__hnext = ((n) = __hn->next), true);			\
	     __hn = __hnext)

#endif /* _AVC_NATIVE_LINUX_LIST_H */
