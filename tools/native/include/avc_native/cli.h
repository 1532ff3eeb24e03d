/* SPDX-License-Identifier: GPL-2.0 */
/*
 * avc_rcu native: what the native programs (bench/, replay/, stress/)
 * share besides the core: die(), strict numbers for their options, and
 * the start and join of a crew of threads (lib/cli.c).
 */
#ifndef _AVC_NATIVE_CLI_H
#define _AVC_NATIVE_CLI_H

#include <pthread.h>
#include <stddef.h>
#include <linux/compiler.h>

void cli_init(const char *prog, int bad_value_status);
__printf(1, 2) __noreturn void die(const char *fmt, ...);
unsigned long long cli_number(const char *opt, const char *arg, int base,
			      unsigned long long min, unsigned long long max);
double cli_real(const char *opt, const char *arg, double min, double max);
void cli_start_threads(pthread_t *tids, unsigned int n,
		       void *(*fn)(void *arg), void *args, size_t size);
void cli_join_threads(const pthread_t *tids, unsigned int n);

#endif /* _AVC_NATIVE_CLI_H */
