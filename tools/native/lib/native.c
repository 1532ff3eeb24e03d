// SPDX-License-Identifier: GPL-2.0
/*
 * avc_rcu native: the runtime under the stand-ins (stand-ins/linux/):
 * thread "CPUs" and their per-CPU memory, the slab and kvmalloc families
 * on malloc, messages, WARN, random numbers and the one worker thread of
 * the workqueue shim.  See avc_native/native.h.
 */
#include <errno.h>
#include <pthread.h>
#include <sched.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/random.h>
#include <sys/syscall.h>

#include <linux/kernel.h>
#include <linux/mm.h>
#include <linux/percpu.h>
#include <linux/rcupdate.h>
#include <linux/slab.h>
#include <linux/workqueue.h>

__thread unsigned int avc_native_cpu __avc_native_tls;
__thread unsigned long avc_native_pcpu_off __avc_native_tls;
bool avc_native_quiet;

/*
 * CPUs in use, CPU 0 (the main thread's) always.  One lock for the CPU
 * map and the per-CPU allocator: neither is on any fast path.
 */
static pthread_mutex_t avc_native_lock = PTHREAD_MUTEX_INITIALIZER;
static bool avc_native_cpu_used[NR_CPUS] = { [0] = true };

/**
 * avc_native_thread_enter() - make the calling thread a CPU and a reader
 * The main thread is CPU 0; any other thread takes the lowest free CPU.
 *
 * Return: the CPU, or -EBUSY when NR_CPUS threads are already in.
 */
int avc_native_thread_enter(void)
{
	unsigned int cpu = 0;

	if (syscall(SYS_gettid) != getpid()) {
		pthread_mutex_lock(&avc_native_lock);
		for (cpu = 1; cpu < nr_cpu_ids; cpu++)
			if (!avc_native_cpu_used[cpu])
				break;
		if (cpu < nr_cpu_ids)
			avc_native_cpu_used[cpu] = true;
		pthread_mutex_unlock(&avc_native_lock);
		if (cpu == nr_cpu_ids)
			return -EBUSY;
	}
	avc_native_cpu = cpu;
	avc_native_pcpu_off = (unsigned long)cpu * AVC_NATIVE_PCPU_UNIT;
#ifdef AVC_NATIVE_URCU
	rcu_register_thread();
#endif
	return cpu;
}

/**
 * avc_native_thread_exit() - give the calling thread's CPU back
 *
 * The thread must not be in an RCU read-side critical section.
 */
void avc_native_thread_exit(void)
{
#ifdef AVC_NATIVE_URCU
	rcu_unregister_thread();
#endif
	if (avc_native_cpu) {
		pthread_mutex_lock(&avc_native_lock);
		avc_native_cpu_used[avc_native_cpu] = false;
		pthread_mutex_unlock(&avc_native_lock);
	}
	avc_native_cpu = 0;
	avc_native_pcpu_off = 0;
}

/**
 * avc_native_quiescent_state() - the calling thread holds no RCU reference
 *
 * Where the kernel would call cond_resched().  Required under QSBR, a
 * no-op otherwise.
 */
void avc_native_quiescent_state(void)
{
#ifdef AVC_NATIVE_RCU_QSBR
	rcu_quiescent_state();
#endif
}

/*
 * Per-CPU memory: NR_CPUS units of AVC_NATIVE_PCPU_UNIT bytes, CPU n's
 * copy of an object n units after CPU 0's.  Allocated in 64-byte granules
 * of the unit, first fit; an allocation records its length in granules.
 */
#define AVC_NATIVE_PCPU_GRANULE	64
#define AVC_NATIVE_PCPU_GRANULES (AVC_NATIVE_PCPU_UNIT / AVC_NATIVE_PCPU_GRANULE)

static char avc_native_pcpu_area[NR_CPUS][AVC_NATIVE_PCPU_UNIT]
	__aligned(4096);
static unsigned short avc_native_pcpu_len[AVC_NATIVE_PCPU_GRANULES];

/**
 * avc_native_pcpu_alloc() - zeroed per-CPU memory, as alloc_percpu()
 * @size: bytes of each CPU's copy
 * @align: alignment, at most 64
 *
 * Return: CPU 0's copy, or NULL when the units are full.
 */
void *avc_native_pcpu_alloc(size_t size, size_t align)
{
	size_t n = (size + AVC_NATIVE_PCPU_GRANULE - 1) / AVC_NATIVE_PCPU_GRANULE;
	size_t first, i, run = 0;
	unsigned int cpu;
	void *p = NULL;

	if (!n || align > AVC_NATIVE_PCPU_GRANULE)
		return NULL;
	pthread_mutex_lock(&avc_native_lock);
	for (i = 0; i < AVC_NATIVE_PCPU_GRANULES; i++) {
		if (avc_native_pcpu_len[i]) {
			i += avc_native_pcpu_len[i] - 1;
			run = 0;
			continue;
		}
		if (++run < n)
			continue;
		first = i + 1 - n;
		avc_native_pcpu_len[first] = n;
		p = avc_native_pcpu_area[0] + first * AVC_NATIVE_PCPU_GRANULE;
		for (cpu = 0; cpu < nr_cpu_ids; cpu++)
			memset(avc_native_pcpu_area[cpu] +
			       first * AVC_NATIVE_PCPU_GRANULE, 0,
			       n * AVC_NATIVE_PCPU_GRANULE);
		break;
	}
	pthread_mutex_unlock(&avc_native_lock);
	return p;
}

/**
 * avc_native_pcpu_free() - free what avc_native_pcpu_alloc() returned
 * @p: CPU 0's copy, or NULL
 */
void avc_native_pcpu_free(void *p)
{
	size_t first;

	if (!p)
		return;
	first = ((char *)p - avc_native_pcpu_area[0]) / AVC_NATIVE_PCPU_GRANULE;
	pthread_mutex_lock(&avc_native_lock);
	if (first >= AVC_NATIVE_PCPU_GRANULES || !avc_native_pcpu_len[first])
		avc_native_warn(__FILE__, __LINE__,
				"free_percpu(%p): not allocated\n", p);
	avc_native_pcpu_len[first] = 0;
	pthread_mutex_unlock(&avc_native_lock);
}

/*
 * The slab allocator.  In the sanitizer builds every object is its own
 * aligned_alloc(), so that ASan sees a use after kmem_cache_free().  In the
 * liburcu builds, which the benchmarks time, a cache keeps its freed
 * objects on a free list and takes new ones from slabs of 64 objects, as
 * SLUB does: glibc's memalign() and its arenas, fed frees from the RCU
 * callback thread, otherwise put microseconds of allocator and page-fault
 * time into the tail of the misses avc_native_latency measures, which the
 * kernel's allocator does not have.  Slabs go back to libc only when the
 * cache is destroyed.
 *
 * The callback thread frees in batches 10 ms apart, so a run of misses
 * shorter than that takes every node from a new slab, and every 64th
 * allocation grows one (heap and page faults: microseconds).  With a chunk
 * of 16 that is always the same miss of a chunk's cycle, the one that
 * reclaims.  avc_native_slab_prefill() gives each cache created afterwards
 * that many objects at creation, so that a benchmark's timed calls never
 * grow a slab, as a warm SLUB has pages at hand.
 */
#define AVC_NATIVE_SLAB_OBJECTS	64

struct avc_native_slab {
	struct avc_native_slab *next;
};

struct kmem_cache {
	const char *name;
	size_t size;
	size_t align;
	long objects;	/* allocated and not freed; atomic */
#ifdef AVC_NATIVE_URCU
	pthread_spinlock_t lock;	/* free and slabs */
	void *free;			/* freed objects, linked through their first word */
	struct avc_native_slab *slabs;
#endif
};

static long avc_native_slab_total;
static unsigned long avc_native_slab_prefilled;

#ifdef AVC_NATIVE_URCU
static bool avc_native_slab_fill(struct kmem_cache *s, unsigned long objects);
#endif

#ifdef AVC_NATIVE_PREEMPT_POINTS
unsigned int avc_native_preempt_one_in;
__thread unsigned int avc_native_preempt_count __avc_native_tls;
static __thread u64 avc_native_preempt_rng;

/**
 * avc_native_preempt() - the slow half of avc_native_preempt_point()
 *
 * Yields the CPU one time in avc_native_preempt_one_in, drawn from a
 * per-thread xorshift generator seeded from the thread's stack address.
 */
void avc_native_preempt(void)
{
	unsigned int n = __atomic_load_n(&avc_native_preempt_one_in,
					 __ATOMIC_RELAXED);
	u64 x = avc_native_preempt_rng;

	if (!x)
		x = (u64)(unsigned long)&x * 0x9e3779b97f4a7c15ULL | 1;
	x ^= x << 13;
	x ^= x >> 7;
	x ^= x << 17;
	avc_native_preempt_rng = x;
	if (n && (x >> 32) % n == 0)
		sched_yield();
}
#endif

/**
 * avc_native_slab_prefill() - objects each new kmem_cache starts with
 * @objects: objects on the free list of every cache created from now on,
 *	in slabs allocated and faulted in by kmem_cache_create(); 0 (the
 *	default) for none.  The sanitizer builds ignore it.
 */
void avc_native_slab_prefill(unsigned long objects)
{
	avc_native_slab_prefilled = objects;
}

struct kmem_cache *kmem_cache_create(const char *name, unsigned int size,
				     unsigned int align, slab_flags_t flags,
				     void (*ctor)(void *))
{
	struct kmem_cache *s;

	if (ctor)
		avc_native_warn(__FILE__, __LINE__, "%s: no constructors\n",
				name);
	s = calloc(1, sizeof(*s));
	if (!s)
		return NULL;
	s->name = name;
	s->align = align ?: sizeof(void *);
	if ((flags & SLAB_HWCACHE_ALIGN) && s->align < 64)
		s->align = 64;
	s->size = (size + s->align - 1) / s->align * s->align;
#ifdef AVC_NATIVE_URCU
	pthread_spin_init(&s->lock, PTHREAD_PROCESS_PRIVATE);
	if (!avc_native_slab_fill(s, avc_native_slab_prefilled)) {
		kmem_cache_destroy(s);
		return NULL;
	}
#endif
	return s;
}

void kmem_cache_destroy(struct kmem_cache *s)
{
	long left;

	if (!s)
		return;
	left = __atomic_load_n(&s->objects, __ATOMIC_RELAXED);
	WARN(left, "%s: %s: %ld objects remaining\n", __func__, s->name,
	     left);
#ifdef AVC_NATIVE_URCU
	while (s->slabs) {
		struct avc_native_slab *next = s->slabs->next;

		free(s->slabs);
		s->slabs = next;
	}
	pthread_spin_destroy(&s->lock);
#endif
	free(s);
}

#ifdef AVC_NATIVE_URCU
/* A new slab's objects on the free list; the caller holds s->lock. */
static bool avc_native_slab_grow(struct kmem_cache *s)
{
	size_t head = (sizeof(struct avc_native_slab) + s->align - 1) /
		      s->align * s->align;
	struct avc_native_slab *slab;
	char *p;
	int i;

	slab = aligned_alloc(s->align, (head + AVC_NATIVE_SLAB_OBJECTS *
					s->size + s->align - 1) /
				       s->align * s->align);
	if (!slab)
		return false;
	slab->next = s->slabs;
	s->slabs = slab;
	for (i = AVC_NATIVE_SLAB_OBJECTS - 1; i >= 0; i--) {
		p = (char *)slab + head + i * s->size;
		memset(p, 0, s->size);	/* fault the page in now */
		*(void **)p = s->free;
		s->free = p;
	}
	return true;
}

/* At least @objects objects on the free list of a new cache. */
static bool avc_native_slab_fill(struct kmem_cache *s, unsigned long objects)
{
	unsigned long n;

	for (n = 0; n < objects; n += AVC_NATIVE_SLAB_OBJECTS)
		if (!avc_native_slab_grow(s))
			return false;
	return true;
}
#endif

void *kmem_cache_alloc(struct kmem_cache *s, gfp_t flags)
{
	void *p;

#ifdef AVC_NATIVE_URCU
	pthread_spin_lock(&s->lock);
	p = s->free;
	if (!p && avc_native_slab_grow(s))
		p = s->free;
	if (p)
		s->free = *(void **)p;
	pthread_spin_unlock(&s->lock);
#else
	p = aligned_alloc(s->align, s->size);
#endif
	if (p) {
		__atomic_fetch_add(&s->objects, 1, __ATOMIC_RELAXED);
		__atomic_fetch_add(&avc_native_slab_total, 1, __ATOMIC_RELAXED);
	}
	return p;
}

void kmem_cache_free(struct kmem_cache *s, void *obj)
{
	if (!obj)
		return;
	__atomic_fetch_sub(&s->objects, 1, __ATOMIC_RELAXED);
	__atomic_fetch_sub(&avc_native_slab_total, 1, __ATOMIC_RELAXED);
#ifdef AVC_NATIVE_URCU
	pthread_spin_lock(&s->lock);
	*(void **)obj = s->free;
	s->free = obj;
	pthread_spin_unlock(&s->lock);
#else
	free(obj);
#endif
}

long avc_native_slab_objects(void)
{
	return __atomic_load_n(&avc_native_slab_total, __ATOMIC_RELAXED);
}

/*
 * kmalloc(0) returns a pointer that is not NULL in the kernel: so here,
 * which also keeps NULL for failures only.
 */
void *kmalloc(size_t size, gfp_t flags)
{
	return malloc(size ?: 1);
}

void *kzalloc(size_t size, gfp_t flags)
{
	return calloc(1, size ?: 1);
}

void *kmalloc_array(size_t n, size_t size, gfp_t flags)
{
	size_t bytes;

	if (__builtin_mul_overflow(n, size, &bytes))
		return NULL;
	return kmalloc(bytes, flags);
}

void *kcalloc(size_t n, size_t size, gfp_t flags)
{
	size_t bytes;

	if (__builtin_mul_overflow(n, size, &bytes))
		return NULL;
	return kzalloc(bytes, flags);
}

void kfree(const void *p)
{
	free((void *)p);
}

void *kvmalloc(size_t size, gfp_t flags)
{
	return kmalloc(size, flags);
}

void *kvzalloc(size_t size, gfp_t flags)
{
	return kzalloc(size, flags);
}

void *kvmalloc_array(size_t n, size_t size, gfp_t flags)
{
	return kmalloc_array(n, size, flags);
}

void *kvcalloc(size_t n, size_t size, gfp_t flags)
{
	return kcalloc(n, size, flags);
}

void *kvrealloc(const void *p, size_t oldsize, size_t newsize, gfp_t flags)
{
	return realloc((void *)p, newsize ?: 1);
}

void kvfree(const void *p)
{
	free((void *)p);
}

void avc_native_printk(const char *fmt, ...)
{
	va_list ap;

	if (avc_native_quiet)
		return;
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
}

void avc_native_warn(const char *file, int line, const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, "WARNING: at %s:%d: ", file, line);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	abort();
}

unsigned int avc_native_random_u32(void)
{
	unsigned int v;

	if (getrandom(&v, sizeof(v), 0) != sizeof(v))
		avc_native_warn(__FILE__, __LINE__, "getrandom failed\n");
	return v;
}

/*
 * The workqueue: one worker thread, started by the first queue_work(),
 * and a FIFO of pending work items, all under avc_native_wq_lock.  A
 * work item is pending from queue_work() until the worker takes it, then
 * running until its function returns; cancel_work_sync() and flush_work()
 * wait on avc_native_wq_done for that.
 */
struct workqueue_struct {
	int unused;
};

static struct workqueue_struct avc_native_wq;
struct workqueue_struct *system_unbound_wq = &avc_native_wq;
struct workqueue_struct *system_wq = &avc_native_wq;

static pthread_mutex_t avc_native_wq_lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t avc_native_wq_more = PTHREAD_COND_INITIALIZER;
static pthread_cond_t avc_native_wq_done = PTHREAD_COND_INITIALIZER;
static struct work_struct *avc_native_wq_head, **avc_native_wq_tail =
	&avc_native_wq_head;
static bool avc_native_wq_started;

static void *avc_native_worker(void *arg)
{
	struct work_struct *w;

	if (avc_native_thread_enter() < 0)
		avc_native_warn(__FILE__, __LINE__, "no CPU for the worker\n");
	pthread_mutex_lock(&avc_native_wq_lock);
	for (;;) {
		while (!avc_native_wq_head) {
			/* Under QSBR a sleeping reader must be offline. */
#ifdef AVC_NATIVE_RCU_QSBR
			rcu_thread_offline();
#endif
			pthread_cond_wait(&avc_native_wq_more,
					  &avc_native_wq_lock);
#ifdef AVC_NATIVE_RCU_QSBR
			rcu_thread_online();
#endif
		}
		w = avc_native_wq_head;
		avc_native_wq_head = w->next;
		if (!avc_native_wq_head)
			avc_native_wq_tail = &avc_native_wq_head;
		w->next = NULL;
		__atomic_store_n(&w->pending, false, __ATOMIC_RELEASE);
		w->running = true;
		pthread_mutex_unlock(&avc_native_wq_lock);
		w->func(w);
		avc_native_quiescent_state();
		pthread_mutex_lock(&avc_native_wq_lock);
		w->running = false;
		pthread_cond_broadcast(&avc_native_wq_done);
	}
	return NULL;
}

/**
 * queue_work() - queue a work item for the worker thread
 * @wq: ignored: there is one worker
 * @work: the work item
 *
 * Return: false if it was pending already.
 */
bool queue_work(struct workqueue_struct *wq, struct work_struct *work)
{
	pthread_t tid;
	bool queued = false;

	pthread_mutex_lock(&avc_native_wq_lock);
	if (!avc_native_wq_started) {
		if (pthread_create(&tid, NULL, avc_native_worker, NULL))
			avc_native_warn(__FILE__, __LINE__,
					"cannot start the worker\n");
		pthread_detach(tid);
		avc_native_wq_started = true;
	}
	if (!work->pending) {
		__atomic_store_n(&work->pending, true, __ATOMIC_RELEASE);
		*avc_native_wq_tail = work;
		avc_native_wq_tail = &work->next;
		queued = true;
		pthread_cond_signal(&avc_native_wq_more);
	}
	pthread_mutex_unlock(&avc_native_wq_lock);
	return queued;
}

/**
 * work_pending() - whether a work item is queued and not yet running
 * @work: the work item
 *
 * Return: true if it is.
 */
bool work_pending(struct work_struct *work)
{
	return __atomic_load_n(&work->pending, __ATOMIC_ACQUIRE);
}

/* Wait, with the lock held, until @work neither is pending nor runs. */
static void avc_native_wq_wait(struct work_struct *work)
{
	while (work->pending || work->running)
		pthread_cond_wait(&avc_native_wq_done, &avc_native_wq_lock);
}

/**
 * cancel_work_sync() - take a work item off the queue, wait for it to end
 * @work: the work item
 *
 * Return: true if it was pending.
 */
bool cancel_work_sync(struct work_struct *work)
{
	struct work_struct **p;
	bool was = false;

	pthread_mutex_lock(&avc_native_wq_lock);
	for (;;) {
		for (p = &avc_native_wq_head; *p; p = &(*p)->next) {
			if (*p != work)
				continue;
			*p = work->next;
			if (!*p)
				avc_native_wq_tail = p;
			work->next = NULL;
			__atomic_store_n(&work->pending, false,
					 __ATOMIC_RELEASE);
			was = true;
			break;
		}
		if (!work->running)
			break;
		pthread_cond_wait(&avc_native_wq_done, &avc_native_wq_lock);
	}
	pthread_mutex_unlock(&avc_native_wq_lock);
	return was;
}

/**
 * flush_work() - wait until a work item has run, if it is queued or runs
 * @work: the work item
 *
 * Return: true if it had to wait.
 */
bool flush_work(struct work_struct *work)
{
	bool waited;

	pthread_mutex_lock(&avc_native_wq_lock);
	waited = work->pending || work->running;
	avc_native_wq_wait(work);
	pthread_mutex_unlock(&avc_native_wq_lock);
	return waited;
}
