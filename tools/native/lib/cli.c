// SPDX-License-Identifier: GPL-2.0
/*
 * avc_rcu native: the native programs' die(), their options' numbers and
 * their threads' start-up, once for all five (avc_native/cli.h).  A bad
 * option value is an error, never a number strtoul() made of it.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <avc_native/cli.h>

static const char *cli_prog = "avc_native";
static int cli_bad_value_status = 2;

/**
 * cli_init() - name the program and its exit status for a bad option value
 * @prog: the prefix of every message of die() and of the option parsers
 * @bad_value_status: the exit status when cli_number() or cli_real()
 *	refuses a value: the program's status for a usage error
 */
void cli_init(const char *prog, int bad_value_status)
{
	cli_prog = prog;
	cli_bad_value_status = bad_value_status;
}

static __printf(2, 0) __noreturn void vdie(int status, const char *fmt,
					   va_list ap)
{
	fprintf(stderr, "%s: ", cli_prog);
	vfprintf(stderr, fmt, ap);
	fputc('\n', stderr);
	exit(status);
}

static __printf(1, 2) __noreturn void die_bad_value(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vdie(cli_bad_value_status, fmt, ap);
}

/**
 * die() - print "PROG: " and the message with a newline, exit with status 1
 * @fmt: printf() format, without the newline
 */
void die(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vdie(1, fmt, ap);
}

/**
 * cli_number() - an option's value as a number from @min to @max, or die
 * @opt: the option, for the message ("--reps")
 * @arg: its value: all of it a number in @base (strtoull()'s: 0 takes
 *	0x and 0 prefixes), starting with a digit (no sign, no space)
 * @base: as strtoull()'s
 * @min: the least value taken
 * @max: the largest value taken (no more than the caller's variable holds)
 *
 * Anything else, an overflow too, dies with "OPT: not a number from MIN to
 * MAX: ARG" and the status cli_init() gave.
 *
 * Return: the number.
 */
unsigned long long cli_number(const char *opt, const char *arg, int base,
			      unsigned long long min, unsigned long long max)
{
	unsigned long long x;
	char *end;

	errno = 0;
	x = strtoull(arg, &end, base);
	if (*arg < '0' || *arg > '9' || *end || errno || x < min || x > max)
		die_bad_value("%s: not a number from %llu to %llu: %s", opt,
			      min, max, arg);
	return x;
}

/**
 * cli_real() - an option's value as a real number from @min to @max, or die
 * @opt: the option, for the message ("--seconds")
 * @arg: its value: all of it a number strtod() reads, starting with a
 *	digit or a point (no sign, no space, no inf or nan)
 * @min: the least value taken
 * @max: the largest value taken
 *
 * Anything else dies as cli_number() does.
 *
 * Return: the number.
 */
double cli_real(const char *opt, const char *arg, double min, double max)
{
	double x;
	char *end;

	errno = 0;
	x = strtod(arg, &end);
	if (((*arg < '0' || *arg > '9') && *arg != '.') || *end || errno ||
	    !(x >= min && x <= max))
		die_bad_value("%s: not a number from %g to %g: %s", opt, min,
			      max, arg);
	return x;
}

/**
 * cli_start_threads() - start @n threads on @fn, or die
 * @tids: the threads' ids, @n of them, for cli_join_threads()
 * @n: how many
 * @fn: what each runs
 * @args: the threads' arguments, an array of @n elements: thread i gets
 *	the address of element i
 * @size: the size of an element
 *
 * A thread that cannot be created is the end of the program: die().
 */
void cli_start_threads(pthread_t *tids, unsigned int n,
		       void *(*fn)(void *arg), void *args, size_t size)
{
	unsigned int i;
	int err;

	for (i = 0; i < n; i++) {
		err = pthread_create(&tids[i], NULL, fn, (char *)args + i * size);
		if (err)
			die("thread %u of %u: pthread_create: %s", i + 1, n,
			    strerror(err));
	}
}

/**
 * cli_join_threads() - join the @n threads cli_start_threads() started
 * @tids: their ids
 * @n: how many
 */
void cli_join_threads(const pthread_t *tids, unsigned int n)
{
	unsigned int i;

	for (i = 0; i < n; i++)
		pthread_join(tids[i], NULL);
}
