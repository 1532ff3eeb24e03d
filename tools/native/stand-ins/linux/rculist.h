/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Native shim for <linux/rculist.h>, the hlist part: publication by
 * rcu_assign_pointer(), traversal by rcu_dereference(), an unlinked node's
 * next pointer left intact for the readers still on it.  Written here from
 * the kernel's documented semantics.  The lockdep condition of
 * hlist_for_each_entry_rcu() is not evaluated.
 */
#ifndef _AVC_NATIVE_LINUX_RCULIST_H
#define _AVC_NATIVE_LINUX_RCULIST_H

#include <linux/list.h>
#include <linux/rcupdate.h>

#define hlist_first_rcu(head)	(*((struct hlist_node __rcu **)(&(head)->first)))
#define hlist_next_rcu(node)	(*((struct hlist_node __rcu **)(&(node)->next)))
#define hlist_pprev_rcu(node)	(*((struct hlist_node __rcu **)((node)->pprev)))

/* Link @n first in @h; the caller holds @h's update lock. */
static inline void hlist_add_head_rcu(struct hlist_node *n,
				      struct hlist_head *h)
{
	struct hlist_node *first = h->first;

	n->next = first;
	WRITE_ONCE(n->pprev, &h->first);
	rcu_assign_pointer(hlist_first_rcu(h), n);
	if (first)
		WRITE_ONCE(first->pprev, &n->next);
}

/* Link @n after @prev; the caller holds the list's update lock. */
static inline void hlist_add_behind_rcu(struct hlist_node *n,
					struct hlist_node *prev)
{
	n->next = prev->next;
	WRITE_ONCE(n->pprev, &prev->next);
	rcu_assign_pointer(hlist_next_rcu(prev), n);
	if (n->next)
		WRITE_ONCE(n->next->pprev, &n->next);
}

/*
 * Unlink @n, leaving @n->next for readers still on it; free @n only after
 * a grace period.  The caller holds the list's update lock.
 */
static inline void hlist_del_rcu(struct hlist_node *n)
{
	struct hlist_node *next = n->next;
	struct hlist_node **pprev = n->pprev;

	WRITE_ONCE(*pprev, next);
	if (next)
		WRITE_ONCE(next->pprev, pprev);
	WRITE_ONCE(n->pprev, LIST_POISON2);
}

/* Put @new where @old is; readers see one or the other, never neither. */
static inline void hlist_replace_rcu(struct hlist_node *old,
				     struct hlist_node *new)
{
	struct hlist_node *next = old->next;

	new->next = next;
	WRITE_ONCE(new->pprev, old->pprev);
	rcu_assign_pointer(hlist_pprev_rcu(new), new);
	if (next)
		WRITE_ONCE(new->next->pprev, &new->next);
	WRITE_ONCE(old->pprev, LIST_POISON2);
}

/* As hlist_for_each_entry() (list shim), loading each link with RCU. */
#define hlist_for_each_entry_rcu(pos, head, member, cond...)		\
	for (struct hlist_node *__hn =					\
		rcu_dereference_raw(hlist_first_rcu(head));		\
	     ((pos) = avc_native_entry(__hn,				\
			offsetof(__typeof__(*(__typeof__(pos))NULL),	\
				 member)));				\
	     __hn = rcu_dereference_raw(hlist_next_rcu(__hn)))

#endif /* _AVC_NATIVE_LINUX_RCULIST_H */
