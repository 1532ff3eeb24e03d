/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Native shim for <linux/cpumask.h>: NR_CPUS thread slots, all possible
 * (avc_native/native.h).
 */
#ifndef _AVC_NATIVE_LINUX_CPUMASK_H
#define _AVC_NATIVE_LINUX_CPUMASK_H

#include <avc_native/native.h>

#define nr_cpu_ids		NR_CPUS
#define num_possible_cpus()	NR_CPUS
#define cpu_possible(cpu)	((unsigned int)(cpu) < NR_CPUS)
/* @cpu is named once in the macro: it goes round through a pointer. */
static inline int *avc_native_first_cpu(int *cpu)
{
	*cpu = 0;
	return cpu;
}

#define for_each_possible_cpu(cpu)					\
	for (int *__cpu = avc_native_first_cpu(&(cpu));			\
	     *__cpu < nr_cpu_ids; (*__cpu)++)

#endif /* _AVC_NATIVE_LINUX_CPUMASK_H */
