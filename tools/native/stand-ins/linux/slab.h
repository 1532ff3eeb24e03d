/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Native shim for <linux/slab.h>: kmalloc(), kvmalloc() and friends are
 * malloc(), since userspace has no kmalloc/vmalloc split; kvrealloc()
 * takes the old size as the kernel's does and really resizes (to the
 * byte, so that ASan sees an access past the new end).  kmalloc(0) is not
 * NULL, as in the kernel.
 *
 * A kmem_cache hands out objects of its size from aligned_alloc(), on
 * 64-byte boundaries with SLAB_HWCACHE_ALIGN, and counts them, so that
 * destroying a cache with objects still allocated is a WARN, as SLUB
 * reports it (native.c).
 */
#ifndef _AVC_NATIVE_LINUX_SLAB_H
#define _AVC_NATIVE_LINUX_SLAB_H

#include <linux/gfp.h>
#include <linux/types.h>

#define slab_flags_t		unsigned int
#define SLAB_HWCACHE_ALIGN	0x2000U

struct kmem_cache;

struct kmem_cache *kmem_cache_create(const char *name, unsigned int size,
				     unsigned int align, slab_flags_t flags,
				     void (*ctor)(void *));
void kmem_cache_destroy(struct kmem_cache *s);
void *kmem_cache_alloc(struct kmem_cache *s, gfp_t flags);
void kmem_cache_free(struct kmem_cache *s, void *obj);

void *kmalloc(size_t size, gfp_t flags);
void *kzalloc(size_t size, gfp_t flags);
void *kmalloc_array(size_t n, size_t size, gfp_t flags);
void *kcalloc(size_t n, size_t size, gfp_t flags);
void kfree(const void *p);

void *kvmalloc(size_t size, gfp_t flags);
void *kvzalloc(size_t size, gfp_t flags);
void *kvmalloc_array(size_t n, size_t size, gfp_t flags);
void *kvcalloc(size_t n, size_t size, gfp_t flags);
void *kvrealloc(const void *p, size_t oldsize, size_t newsize, gfp_t flags);
void kvfree(const void *p);

#endif /* _AVC_NATIVE_LINUX_SLAB_H */
