// SPDX-License-Identifier: GPL-2.0
/*
 * avcstat - display access vector cache statistics
 *
 * Reads SELinux's avc/cache_stats or avc_rcu's (which has the same
 * format), sums the per-CPU rows and prints the totals, then, every
 * interval, what changed since the previous read, in the columns and
 * widths of libselinux's avcstat.  SELinux's file is the default whenever
 * selinuxfs is mounted, so that "avcstat" keeps meaning SELinux's cache
 * whatever name this one is installed under; -r reads avc_rcu's.
 *
 * Beyond libselinux's tool: an optional row count, files of any size,
 * per-CPU deltas taken modulo 2^32 (the kernel's per-CPU counters are
 * 32-bit and wrap), a clean exit on SIGINT/SIGTERM, a header repeated
 * every screenful on a terminal and printed once otherwise, timestamps
 * (-t) and a CSV recording with the cache_threshold beside each row
 * (-o csv).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <limits.h>
#include <poll.h>
#include <signal.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdnoreturn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <time.h>
#include <unistd.h>

#include <linux/avc_rcu.h>
#include <linux/types.h>

typedef __u32 u32;
typedef __u64 u64;

#define NFIELDS			AVC_RCU_CACHE_STATS_FIELDS
#define SELINUX_FS_NAME		"selinuxfs"
#define SELINUX_CACHE_STATS	"/sys/fs/selinux/avc/cache_stats"
#define AVC_RCU_CACHE_STATS	AVC_RCU_MOUNT_POINT "/" AVC_RCU_FILE_CACHE_STATS
/* SELinux's and avc_rcu's, beside cache_stats in avc/ */
#define THRESHOLD_FILE		"cache_threshold"
#define DEFAULT_SCREEN_ROWS	24
#define CSV_HEADER \
	"time,elapsed,interval,lookups,hits,misses,allocs,reclaims,frees," \
	"threshold"
#define MAX_FILE_SIZE		(64UL << 20)
#define MAX_SHOWN_HEADER	64

#define U32_MAX			0xffffffffU
#define ARRAY_SIZE(a)		(sizeof(a) / sizeof((a)[0]))

/* After "Usage: NAME", NAME the name this program was run as. */
static const char usage_text[] =
	" [-c] [-r] [-t] [-o format] [-f status_file] [interval [count]]\n"
	"\n"
	"Display access vector cache statistics: SELinux's avc/cache_stats\n"
	"when selinuxfs is mounted, else avc_rcu's; -r for avc_rcu's.\n"
	"\n"
	"The per-CPU rows of the file are summed. The first row shows the\n"
	"totals; then, every interval seconds, a row shows what changed since\n"
	"the previous one (or, with -c, the totals again).\n"
	"\n"
	"Options:\n"
	"  -c              show cumulative totals on every row, not deltas\n"
	"  -f status_file  read status_file instead of the default\n"
	"  -o format       table (the default: libselinux's columns) or csv:\n"
	"                  a header once, then one comma-separated row per\n"
	"                  read with its time and cache_threshold (below)\n"
	"  -r              read avc_rcu's file even when selinuxfs is mounted\n"
	"  -t              begin each table row with the local time, HH:MM:SS\n"
	"  -h, --help      show this help and exit\n"
	"\n"
	"Arguments:\n"
	"  interval  seconds between rows, a whole number from 1 to\n"
	"            2147483647; without it, print one row and exit\n"
	"  count     rows to print, the first included, then exit (a whole\n"
	"            number >= 1); without it, run until SIGINT or SIGTERM\n"
	"\n"
	"Default status_file: avc/cache_stats under the first selinuxfs mount\n"
	"in /proc/self/mounts; else (and with -r) under the first avcrcufs\n"
	"mount, else " AVC_RCU_CACHE_STATS " if it exists;\n"
	"else " SELINUX_CACHE_STATS ".\n"
	"\n"
	"Columns: lookups, hits, misses, allocs (allocations), reclaims,\n"
	"frees. Per-CPU counters are 32-bit and wrap: each CPU's delta is\n"
	"taken modulo 2^32 and the deltas are summed in 64 bits, so -c totals\n"
	"keep growing across wraps; a counter that goes back (by 2^31 or\n"
	"more: a reset) is an error. On a terminal the header is repeated\n"
	"every screenful (terminal rows - 2 data rows); into a pipe or a file\n"
	"it is printed once.\n"
	"\n"
	"-o csv columns, always these, in this order:\n"
	"  " CSV_HEADER "\n"
	"time: the read's local time, ISO 8601 with milliseconds and the UTC\n"
	"offset; elapsed: seconds since the first row's read; interval:\n"
	"seconds since the previous row's read (empty on the first row);\n"
	"lookups..frees: as in the table (the first row the totals, then the\n"
	"changes; -c is refused: the running sums of the rows are its\n"
	"totals); threshold: avc/cache_threshold read beside status_file\n"
	"right after it, empty if there is no such file.\n"
	"\n"
	"The file is the line \"" AVC_RCU_CACHE_STATS_HEADER "\"\n"
	"then at least one row of six unsigned 32-bit decimal numbers\n"
	"separated by single spaces, one row per CPU; the newline ending the\n"
	"last row may be missing. It is re-read whole (any size up to\n"
	"64 MiB) from offset 0 for every row.\n"
	"\n"
	"Exit status: 0 on success, after count rows, or on SIGINT/SIGTERM\n"
	"(the row being printed is completed first); 1 on any error (bad\n"
	"usage, a missing, unreadable or malformed file, a change in the\n"
	"number of CPU rows), reported in one line on standard error.\n";

struct stats_file {
	const char *path;
	int fd;
	unsigned long reads;
	char *buf;
	size_t cap;
	char *threshold_path;	/* -o csv: cache_threshold beside path */
	int threshold_fd;	/* -1: there is none */
};

struct sample {
	size_t ncpus;
	size_t cap;		/* CPU rows v[] has room for */
	u32 *v;			/* ncpus * NFIELDS counters */
	struct timespec mono;	/* when it was read */
	struct timespec real;
	long long threshold;	/* -o csv: cache_threshold, -1 if none */
};

enum format { FORMAT_TABLE, FORMAT_CSV };

struct options {
	bool cumulative;
	bool timestamps;
	bool avc_rcu;		/* -r: avc_rcu's file by default */
	enum format format;
};

static const char *prog = "avcstat";
static atomic_int stop_requested;
static atomic_int winch_pending;

static noreturn void die(const char *fmt, ...)
{
	va_list ap;

	fflush(stdout);
	fprintf(stderr, "%s: ", prog);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	exit(EXIT_FAILURE);
}

static void *xrealloc(void *p, size_t size)
{
	p = realloc(p, size);
	if (!p)
		die("out of memory");
	return p;
}

static noreturn void usage_error(const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, "%s: ", prog);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fprintf(stderr, " (see '%s -h')\n", prog);
	exit(EXIT_FAILURE);
}

/* The usage, under the name this program was run as. */
static int print_usage(void)
{
	printf("Usage: %s%s", prog, usage_text);
	return fflush(stdout) ? EXIT_FAILURE : EXIT_SUCCESS;
}

/*
 * A whole decimal number in [min, max]: digits only, no sign, no spaces,
 * no base prefix.
 */
static bool parse_number(const char *s, unsigned long long min,
			 unsigned long long max, unsigned long long *out)
{
	unsigned long long v = 0;

	if (!*s)
		return false;
	for (; *s; s++) {
		unsigned int d;

		if (*s < '0' || *s > '9')
			return false;
		d = *s - '0';
		if (v > (max - d) / 10)
			return false;
		v = v * 10 + d;
	}
	if (v < min)
		return false;
	*out = v;
	return true;
}

/* Undo the octal escapes (\040 and the like) of /proc/self/mounts. */
static void unescape_mount_path(char *s)
{
	char *out = s;

	while (*s) {
		if (s[0] == '\\' &&
		    s[1] >= '0' && s[1] <= '3' &&
		    s[2] >= '0' && s[2] <= '7' &&
		    s[3] >= '0' && s[3] <= '7') {
			*out++ = (char)((s[1] - '0') << 6 |
					(s[2] - '0') << 3 |
					(s[3] - '0'));
			s += 4;
		} else {
			*out++ = *s++;
		}
	}
	*out = '\0';
}

static char *path_join(const char *dir, const char *file)
{
	size_t dlen = strlen(dir);
	char *p;

	while (dlen && dir[dlen - 1] == '/')
		dlen--;
	p = xrealloc(NULL, dlen + 1 + strlen(file) + 1);
	memcpy(p, dir, dlen);
	p[dlen] = '/';
	strcpy(p + dlen + 1, file);
	return p;
}

/*
 * avc/cache_stats below the first mount of @fstype in /proc/self/mounts,
 * or NULL.
 */
static char *find_mounted_cache_stats(const char *fstype)
{
	char *line = NULL, *path = NULL;
	size_t len = 0;
	FILE *f;

	f = fopen("/proc/self/mounts", "re");
	if (!f)
		return NULL;
	while (!path && getline(&line, &len, f) > 0) {
		char *save, *mnt, *type;

		if (!strtok_r(line, " \t\n", &save))
			continue;
		mnt = strtok_r(NULL, " \t\n", &save);
		type = strtok_r(NULL, " \t\n", &save);
		if (!mnt || !type || strcmp(type, fstype))
			continue;
		unescape_mount_path(mnt);
		path = path_join(mnt, AVC_RCU_FILE_CACHE_STATS);
	}
	free(line);
	fclose(f);
	return path;
}

/*
 * SELinux's file whenever selinuxfs is mounted: on a system with SELinux,
 * "avcstat" means its cache, whatever name this one is installed under.
 * Then (first with -r) avc_rcu's.
 */
static const char *default_path(bool avc_rcu)
{
	char *path = NULL;

	if (!avc_rcu)
		path = find_mounted_cache_stats(SELINUX_FS_NAME);
	if (!path)
		path = find_mounted_cache_stats(AVC_RCU_FS_NAME);
	if (path)
		return path;
	if (avc_rcu || !access(AVC_RCU_CACHE_STATS, F_OK))
		return AVC_RCU_CACHE_STATS;
	return SELINUX_CACHE_STATS;
}

/*
 * -o csv: cache_threshold in the directory of the statistics file, as in
 * SELinux's avc/ and avc_rcu's.  None there is no error: a copied or
 * crafted file has none, and its column stays empty.
 */
static void open_threshold(struct stats_file *sf)
{
	const char *slash = strrchr(sf->path, '/');
	char *dir;

	if (slash)
		dir = strndup(sf->path, slash - sf->path + 1);
	else
		dir = strdup(".");
	if (!dir)
		die("out of memory");
	sf->threshold_path = path_join(dir, THRESHOLD_FILE);
	free(dir);
	sf->threshold_fd = open(sf->threshold_path, O_RDONLY | O_CLOEXEC);
	if (sf->threshold_fd < 0 && errno != ENOENT)
		die("%s: %s", sf->threshold_path, strerror(errno));
}

/* The threshold: a whole number and a newline; -1 if there is no file. */
static long long read_threshold(const struct stats_file *sf)
{
	unsigned long long v;
	char buf[32];
	ssize_t n;

	if (sf->threshold_fd < 0)
		return -1;
	do
		n = pread(sf->threshold_fd, buf, sizeof(buf) - 1, 0);
	while (n < 0 && errno == EINTR);
	if (n < 0)
		die("%s: %s", sf->threshold_path, strerror(errno));
	if (n && buf[n - 1] == '\n')
		n--;
	buf[n] = '\0';
	if (!parse_number(buf, 0, U32_MAX, &v))
		die("%s: expected a whole number", sf->threshold_path);
	return (long long)v;
}

/* Read the whole file from offset 0; returns its length. */
static size_t read_whole(struct stats_file *sf)
{
	size_t len = 0;

	/* The first read starts at 0 already: -f /dev/stdin works once. */
	if (sf->reads++ && lseek(sf->fd, 0, SEEK_SET) < 0)
		die("%s: cannot seek: %s", sf->path, strerror(errno));
	for (;;) {
		ssize_t n;

		if (len == sf->cap) {
			if (sf->cap > MAX_FILE_SIZE)
				die("%s: file larger than %lu MiB", sf->path,
				    MAX_FILE_SIZE >> 20);
			sf->cap = sf->cap ? sf->cap * 2 : 4096;
			if (sf->cap > MAX_FILE_SIZE)
				sf->cap = MAX_FILE_SIZE + 1;
			sf->buf = xrealloc(sf->buf, sf->cap);
		}
		n = read(sf->fd, sf->buf + len, sf->cap - len);
		if (n < 0) {
			if (errno == EINTR)
				continue;
			die("%s: %s", sf->path, strerror(errno));
		}
		if (!n)
			return len;
		len += n;
	}
}

/* @s, @len bytes, in @shown: quoted, readable and bounded. */
static void quote(char *shown, const char *s, size_t len)
{
	size_t i, o = 0;

	shown[o++] = '"';
	for (i = 0; i < len && i < MAX_SHOWN_HEADER; i++) {
		unsigned char c = s[i];

		if (c == '"' || c == '\\')
			o += sprintf(shown + o, "\\%c", c);
		else if (c < 0x20 || c >= 0x7f)
			o += sprintf(shown + o, "\\x%02x", c);
		else
			shown[o++] = c;
	}
	if (i < len)
		o += sprintf(shown + o, "...");
	shown[o++] = '"';
	shown[o] = '\0';
}

#define QUOTED_SIZE	(MAX_SHOWN_HEADER * 4 + 6)

static noreturn void die_bad_header(const char *path, const char *s,
				    size_t len)
{
	char shown[QUOTED_SIZE];

	quote(shown, s, len);
	die("%s: invalid header %s (expected \"%s\")", path, shown,
	    AVC_RCU_CACHE_STATS_HEADER);
}

/*
 * One CPU row: exactly NFIELDS unsigned decimal numbers that fit in
 * 32 bits, separated by single spaces, nothing before or after.  On a
 * bad row, dies naming line @lineno of @path and what is wrong with it.
 */
static void parse_row(const char *path, size_t lineno, const char *s,
		      size_t len, u32 *out)
{
	const char *end = s + len, *p, *tok;
	char shown[QUOTED_SIZE];
	unsigned int field, n;

	if (!len)
		die("%s: line %zu: empty, expected a CPU row of %d numbers",
		    path, lineno, NFIELDS);
	if (s[0] == ' ' || end[-1] == ' ' || memmem(s, len, "  ", 2))
		die("%s: line %zu: a space before, after or between two fields: %s",
		    path, lineno, "fields are separated by one space");
	for (n = 1, p = s; p < end; p++)
		n += *p == ' ';
	if (n != NFIELDS)
		die("%s: line %zu: %u fields, expected %d", path, lineno, n,
		    NFIELDS);
	for (field = 0, tok = s; field < NFIELDS; field++, tok = p + 1) {
		u32 v = 0;

		p = memchr(tok, ' ', end - tok);
		if (!p)
			p = end;
		quote(shown, tok, p - tok);
		for (const char *c = tok; c < p; c++) {
			unsigned int d = *c - '0';

			if (*c < '0' || *c > '9')
				die("%s: line %zu: field %u, %s, is not an unsigned decimal number",
				    path, lineno, field + 1, shown);
			if (v > (U32_MAX - d) / 10)
				die("%s: line %zu: field %u, %s, is larger than %u %s",
				    path, lineno, field + 1, shown, U32_MAX,
				    "(the counters are 32-bit)");
			v = v * 10 + d;
		}
		out[field] = v;
	}
}

static void read_sample(struct stats_file *sf, struct sample *smp)
{
	size_t len = read_whole(sf);
	const char *p = sf->buf, *end = sf->buf + len, *eol;
	size_t hlen, lineno, rows = 0;

	if (!len)
		die("%s: empty file", sf->path);

	eol = memchr(p, '\n', len);
	hlen = eol ? (size_t)(eol - p) : len;
	if (hlen != strlen(AVC_RCU_CACHE_STATS_HEADER) ||
	    memcmp(p, AVC_RCU_CACHE_STATS_HEADER, hlen))
		die_bad_header(sf->path, p, hlen);
	p = eol ? eol + 1 : end;

	for (lineno = 2; p < end; lineno++, rows++) {
		eol = memchr(p, '\n', end - p);
		if (!eol)
			eol = end;	/* last row without its newline */
		if (rows == smp->cap) {
			smp->cap = smp->cap ? smp->cap * 2 : 64;
			smp->v = xrealloc(smp->v, smp->cap * NFIELDS *
					  sizeof(*smp->v));
		}
		parse_row(sf->path, lineno, p, eol - p,
			  smp->v + rows * NFIELDS);
		p = eol + (eol < end);
	}
	if (!rows)
		die("%s: no CPU rows", sf->path);
	smp->ncpus = rows;
}

/*
 * How far counter @i (CPU i / NFIELDS, column i % NFIELDS) moved from
 * @a to @b, modulo 2^32: the per-CPU counters are 32-bit and wrap.  As
 * in serial number arithmetic (RFC 1982), a step of 2^31 or more is not
 * taken as a wrap: the counter went back (the counters were reset, the
 * module reloaded, or the file is another), which is an error.
 */
static u32 counter_step(const struct stats_file *sf, size_t i, u32 a, u32 b)
{
	static const char *const names[NFIELDS] = {
		"lookups", "hits", "misses", "allocs", "reclaims", "frees",
	};
	u32 d = b - a;

	if (d >= 0x80000000U)
		die("%s: CPU row %zu: %s went back from %u to %u %s",
		    sf->path, i / NFIELDS + 1, names[i % NFIELDS], a, b,
		    "(counters reset? a 32-bit wrap is a step of less than 2^31)");
	return d;
}

static void now(clockid_t clock, struct timespec *ts)
{
	if (clock_gettime(clock, ts))
		die("clock_gettime: %s", strerror(errno));
}

/* A sample, the times it was read at and, for -o csv, the threshold. */
static void take_sample(struct stats_file *sf, struct sample *smp,
			const struct options *o)
{
	read_sample(sf, smp);
	now(CLOCK_MONOTONIC, &smp->mono);
	now(CLOCK_REALTIME, &smp->real);
	smp->threshold = o->format == FORMAT_CSV ? read_threshold(sf) : -1;
}

static void check_stdout(void)
{
	if (fflush(stdout) || ferror(stdout))
		die("write error: %s", strerror(errno));
}

static void print_header(const struct options *o)
{
	if (o->format == FORMAT_CSV) {
		puts(CSV_HEADER);
		return;
	}
	if (o->timestamps)
		printf("%-8s ", "time");
	printf("%10s %10s %10s %10s %10s %10s\n", "lookups", "hits",
	       "misses", "allocs", "reclaims", "frees");
}

/* From @a to @b in milliseconds, rounded. */
static long long ms_between(const struct timespec *a,
			    const struct timespec *b)
{
	long long ns = (long long)(b->tv_sec - a->tv_sec) * 1000000000LL +
		       (b->tv_nsec - a->tv_nsec);

	return (ns + 500000) / 1000000;
}

static void print_seconds(long long ms)
{
	printf("%lld.%03lld", ms / 1000, ms % 1000);
}

/* 2026-11-23T14:03:07.123+01:00: ISO 8601, local time and its offset. */
static void print_iso_time(const struct timespec *real)
{
	char date[32], zone[8];
	struct tm tm;

	if (!localtime_r(&real->tv_sec, &tm) ||
	    !strftime(date, sizeof(date), "%Y-%m-%dT%H:%M:%S", &tm) ||
	    strftime(zone, sizeof(zone), "%z", &tm) != 5)
		die("cannot format the time");
	printf("%s.%03ld%.3s:%s", date, real->tv_nsec / 1000000, zone,
	       zone + 3);
}

static void print_time_of_day(const struct timespec *real)
{
	char hms[16];
	struct tm tm;

	if (!localtime_r(&real->tv_sec, &tm) ||
	    !strftime(hms, sizeof(hms), "%H:%M:%S", &tm))
		die("cannot format the time");
	printf("%-8s ", hms);
}

/*
 * One row: the counters @t of sample @s, read at @s's times; @start is
 * when the first row was read, @prev when the one before this (NULL for
 * the first row).
 */
static void print_row(const struct options *o, const struct sample *s,
		      const struct timespec *start,
		      const struct timespec *prev, const u64 *t)
{
	unsigned int i;

	if (o->format == FORMAT_CSV) {
		print_iso_time(&s->real);
		putchar(',');
		print_seconds(ms_between(start, &s->mono));
		putchar(',');
		if (prev)
			print_seconds(ms_between(prev, &s->mono));
		for (i = 0; i < NFIELDS; i++)
			printf(",%llu", (unsigned long long)t[i]);
		putchar(',');
		if (s->threshold >= 0)
			printf("%lld", s->threshold);
		putchar('\n');
	} else {
		if (o->timestamps)
			print_time_of_day(&s->real);
		printf("%10llu %10llu %10llu %10llu %10llu %10llu\n",
		       (unsigned long long)t[0], (unsigned long long)t[1],
		       (unsigned long long)t[2], (unsigned long long)t[3],
		       (unsigned long long)t[4], (unsigned long long)t[5]);
	}
	check_stdout();
}

static unsigned int screen_rows(void)
{
	struct winsize ws;

	if (ioctl(STDOUT_FILENO, TIOCGWINSZ, &ws) < 0 || ws.ws_row < 3)
		return DEFAULT_SCREEN_ROWS;
	return ws.ws_row;
}

static void on_stop(int sig)
{
	(void)sig;
	atomic_store(&stop_requested, 1);
}

static void on_winch(int sig)
{
	(void)sig;
	atomic_store(&winch_pending, 1);
}

/*
 * The signals stay blocked except while waiting for the next interval,
 * so reads and writes never see EINTR and a row is never cut short;
 * ppoll() unblocks them atomically, so none is missed either.  SIGINT is
 * caught even when inherited as ignored (a job started with "&" by a
 * script): stopping cleanly is what asking avcstat to stop means.
 */
static void setup_signals(sigset_t *waitmask)
{
	static const int sigs[] = { SIGINT, SIGTERM, SIGWINCH };
	struct sigaction sa;
	sigset_t block;
	unsigned int i;

	sigemptyset(&block);
	for (i = 0; i < ARRAY_SIZE(sigs); i++)
		sigaddset(&block, sigs[i]);
	if (sigprocmask(SIG_BLOCK, &block, waitmask))
		die("sigprocmask: %s", strerror(errno));
	for (i = 0; i < ARRAY_SIZE(sigs); i++)
		sigdelset(waitmask, sigs[i]);

	memset(&sa, 0, sizeof(sa));
	sigemptyset(&sa.sa_mask);
	sa.sa_flags = 0;	/* no SA_RESTART: the wait must return */
	for (i = 0; i < ARRAY_SIZE(sigs); i++) {
		sa.sa_handler = sigs[i] == SIGWINCH ? on_winch : on_stop;
		if (sigaction(sigs[i], &sa, NULL))
			die("sigaction: %s", strerror(errno));
	}
}

static void timespec_add_sec(struct timespec *ts, time_t sec)
{
	ts->tv_sec += sec;
}

static bool timespec_before(const struct timespec *a,
			    const struct timespec *b)
{
	return a->tv_sec < b->tv_sec ||
	       (a->tv_sec == b->tv_sec && a->tv_nsec < b->tv_nsec);
}

/* Wait until @deadline (CLOCK_MONOTONIC); false if asked to stop. */
static bool wait_until(const struct timespec *deadline,
		       const sigset_t *waitmask)
{
	for (;;) {
		struct timespec t, left;

		if (atomic_load(&stop_requested))
			return false;
		now(CLOCK_MONOTONIC, &t);
		if (!timespec_before(&t, deadline))
			return true;
		left.tv_sec = deadline->tv_sec - t.tv_sec;
		left.tv_nsec = deadline->tv_nsec - t.tv_nsec;
		if (left.tv_nsec < 0) {
			left.tv_nsec += 1000000000L;
			left.tv_sec--;
		}
		if (ppoll(NULL, 0, &left, waitmask) < 0 && errno != EINTR)
			die("ppoll: %s", strerror(errno));
	}
}

int main(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	struct stats_file sf = { .fd = -1, .threshold_fd = -1 };
	struct sample a = { 0 }, b = { 0 }, *prev = &a, *cur = &b;
	unsigned long long interval = 0, count = 0, printed;
	u64 cum[NFIELDS] = { 0 }, delta[NFIELDS];
	struct options o = { .format = FORMAT_TABLE };
	struct timespec deadline, start;
	unsigned int rows = 0, shown;
	bool repeat_header;
	sigset_t waitmask;
	size_t i;
	int opt;

	if (program_invocation_short_name && *program_invocation_short_name)
		prog = program_invocation_short_name;
	opterr = 0;
	while ((opt = getopt_long(argc, argv, ":cf:ho:rt", longopts,
				  NULL)) != -1) {
		switch (opt) {
		case 'c':
			o.cumulative = true;
			break;
		case 'f':
			sf.path = optarg;
			break;
		case 'o':
			if (!strcmp(optarg, "table"))
				o.format = FORMAT_TABLE;
			else if (!strcmp(optarg, "csv"))
				o.format = FORMAT_CSV;
			else
				usage_error("invalid format '%s': expected table or csv",
					    optarg);
			break;
		case 'r':
			o.avc_rcu = true;
			break;
		case 't':
			o.timestamps = true;
			break;
		case 'h':
			return print_usage();
		case ':':
			usage_error("option '%s' requires an argument",
				    argv[optind - 1]);
		default:
			if (optopt)
				usage_error("invalid option '-%c'", optopt);
			usage_error("invalid option '%s'", argv[optind - 1]);
		}
	}
	if (o.avc_rcu && sf.path)
		usage_error("-r and -f exclude each other");
	if (o.cumulative && o.format == FORMAT_CSV)
		usage_error("-c and -o csv exclude each other (%s)",
			    "the running sums of the csv rows are the totals");
	if (optind < argc &&
	    !parse_number(argv[optind++], 1, INT_MAX, &interval))
		usage_error("invalid interval '%s': expected seconds, 1 to %d",
			    argv[optind - 1], INT_MAX);
	if (optind < argc &&
	    !parse_number(argv[optind++], 1, ULLONG_MAX, &count))
		usage_error("invalid count '%s': expected a number >= 1",
			    argv[optind - 1]);
	if (optind < argc)
		usage_error("too many arguments");

	if (!sf.path) {
		sf.path = default_path(o.avc_rcu);
		sf.fd = open(sf.path, O_RDONLY | O_CLOEXEC);
		if (sf.fd < 0 && errno == ENOENT)
			die("%s: %s (%s mounted? see -f)", sf.path,
			    strerror(errno),
			    o.avc_rcu ? "no " AVC_RCU_FS_NAME :
			    "neither " SELINUX_FS_NAME " nor " AVC_RCU_FS_NAME);
	} else {
		sf.fd = open(sf.path, O_RDONLY | O_CLOEXEC);
	}
	if (sf.fd < 0)
		die("%s: %s", sf.path, strerror(errno));
	if (o.format == FORMAT_CSV)
		open_threshold(&sf);

	setup_signals(&waitmask);
	now(CLOCK_MONOTONIC, &deadline);

	take_sample(&sf, prev, &o);
	start = prev->mono;
	for (i = 0; i < prev->ncpus * NFIELDS; i++)
		cum[i % NFIELDS] += prev->v[i];
	print_header(&o);
	print_row(&o, prev, &start, NULL, cum);
	printed = 1;
	/* Into a pipe or a file, or as csv, the header is printed once. */
	repeat_header = o.format == FORMAT_TABLE && isatty(STDOUT_FILENO);
	if (repeat_header)
		rows = screen_rows();
	shown = 1;	/* data rows under the last header */

	while (interval && printed != count) {
		struct sample *tmp;
		struct timespec t;

		timespec_add_sec(&deadline, interval);
		now(CLOCK_MONOTONIC, &t);
		if (timespec_before(&deadline, &t)) {
			/* Fell behind (stopped, suspended): no burst. */
			deadline = t;
			timespec_add_sec(&deadline, interval);
		}
		if (!wait_until(&deadline, &waitmask))
			break;

		take_sample(&sf, cur, &o);
		if (cur->ncpus != prev->ncpus)
			die("%s: number of CPU rows changed from %zu to %zu",
			    sf.path, prev->ncpus, cur->ncpus);
		memset(delta, 0, sizeof(delta));
		for (i = 0; i < cur->ncpus * NFIELDS; i++)
			delta[i % NFIELDS] += counter_step(&sf, i, prev->v[i],
							   cur->v[i]);
		for (i = 0; i < NFIELDS; i++)
			cum[i] += delta[i];

		if (repeat_header) {
			if (atomic_exchange(&winch_pending, 0))
				rows = screen_rows();
			if (shown >= rows - 2) {
				print_header(&o);
				shown = 0;
			}
		}
		print_row(&o, cur, &start, &prev->mono,
			  o.cumulative ? cum : delta);
		shown++;
		printed++;

		tmp = prev;
		prev = cur;
		cur = tmp;
	}

	if (fflush(stdout))
		die("write error: %s", strerror(errno));
	return EXIT_SUCCESS;
}
