// SPDX-License-Identifier: GPL-2.0
/*
 * avcstat - display access vector cache statistics
 *
 * Reads avc_rcu's avc/cache_stats (or SELinux's, which has the same
 * format), sums the per-CPU rows and prints the totals, then, every
 * interval, what changed since the previous read, in the columns and
 * widths of libselinux's avcstat.
 *
 * Beyond libselinux's tool: an optional row count, files of any size,
 * per-CPU deltas taken modulo 2^32 (the kernel's per-CPU counters are
 * 32-bit and wrap), a clean exit on SIGINT/SIGTERM and a header repeated
 * every screenful.
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

#define PROG			"avcstat"
#define NFIELDS			AVC_RCU_CACHE_STATS_FIELDS
#define SELINUX_CACHE_STATS	"/sys/fs/selinux/avc/cache_stats"
#define AVC_RCU_CACHE_STATS	AVC_RCU_MOUNT_POINT "/" AVC_RCU_FILE_CACHE_STATS
#define DEFAULT_SCREEN_ROWS	24
#define MAX_FILE_SIZE		(64UL << 20)
#define MAX_SHOWN_HEADER	64

#define U32_MAX			0xffffffffU
#define ARRAY_SIZE(a)		(sizeof(a) / sizeof((a)[0]))

static const char usage_text[] =
	"Usage: avcstat [-c] [-f status_file] [interval [count]]\n"
	"\n"
	"Display access vector cache statistics: avc_rcu's avc/cache_stats,\n"
	"or SELinux's when no avcrcufs is mounted.\n"
	"\n"
	"The per-CPU rows of the file are summed. The first row shows the\n"
	"totals; then, every interval seconds, a row shows what changed since\n"
	"the previous one (or, with -c, the totals again).\n"
	"\n"
	"Options:\n"
	"  -c              show cumulative totals on every row, not deltas\n"
	"  -f status_file  read status_file instead of the default\n"
	"  -h, --help      show this help and exit\n"
	"\n"
	"Arguments:\n"
	"  interval  seconds between rows, a whole number from 1 to\n"
	"            2147483647; without it, print one row and exit\n"
	"  count     rows to print, the first included, then exit (a whole\n"
	"            number >= 1); without it, run until SIGINT or SIGTERM\n"
	"\n"
	"Default status_file: avc/cache_stats under the first avcrcufs\n"
	"mount in /proc/self/mounts, else " AVC_RCU_CACHE_STATS "\n"
	"if it exists, else " SELINUX_CACHE_STATS ".\n"
	"\n"
	"Columns: lookups, hits, misses, allocs (allocations), reclaims,\n"
	"frees. Per-CPU counters are 32-bit and wrap: each CPU's delta is\n"
	"taken modulo 2^32 and the deltas are summed in 64 bits, so -c totals\n"
	"keep growing across wraps. The header is repeated every screenful\n"
	"(terminal rows - 2 data rows; 24 rows when stdout is no terminal).\n"
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
};

struct sample {
	size_t ncpus;
	size_t cap;		/* CPU rows v[] has room for */
	u32 *v;			/* ncpus * NFIELDS counters */
};

static atomic_int stop_requested;
static atomic_int winch_pending;

static noreturn void die(const char *fmt, ...)
{
	va_list ap;

	fflush(stdout);
	fputs(PROG ": ", stderr);
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

	fputs(PROG ": ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputs(" (see '" PROG " -h')\n", stderr);
	exit(EXIT_FAILURE);
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

static char *find_mounted_cache_stats(void)
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
		if (!mnt || !type || strcmp(type, AVC_RCU_FS_NAME))
			continue;
		unescape_mount_path(mnt);
		path = path_join(mnt, AVC_RCU_FILE_CACHE_STATS);
	}
	free(line);
	fclose(f);
	return path;
}

static const char *default_path(void)
{
	char *path = find_mounted_cache_stats();

	if (path)
		return path;
	if (!access(AVC_RCU_CACHE_STATS, F_OK))
		return AVC_RCU_CACHE_STATS;
	return SELINUX_CACHE_STATS;
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

/* Print a line from the file in quotes, readable and bounded. */
static void die_bad_header(const char *path, const char *s, size_t len)
{
	char shown[MAX_SHOWN_HEADER * 4 + 4];
	size_t i, o = 0;

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
	shown[o] = '\0';
	die("%s: invalid header \"%s\"", path, shown);
}

/*
 * One CPU row: exactly NFIELDS unsigned decimal numbers that fit in
 * 32 bits, separated by single spaces, nothing before or after.
 */
static bool parse_row(const char *s, size_t len, u32 *out)
{
	const char *end = s + len;
	unsigned int field;

	for (field = 0; field < NFIELDS; field++) {
		u32 v = 0;
		const char *start;

		if (field) {
			if (s == end || *s != ' ')
				return false;
			s++;
		}
		for (start = s; s < end && *s >= '0' && *s <= '9'; s++) {
			unsigned int d = *s - '0';

			if (v > (U32_MAX - d) / 10)
				return false;
			v = v * 10 + d;
		}
		if (s == start)
			return false;
		out[field] = v;
	}
	return s == end;
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
		if (!parse_row(p, eol - p, smp->v + rows * NFIELDS))
			die("%s: line %zu: expected %d unsigned 32-bit fields",
			    sf->path, lineno, NFIELDS);
		p = eol + (eol < end);
	}
	if (!rows)
		die("%s: no CPU rows", sf->path);
	smp->ncpus = rows;
}

static void print_header(void)
{
	printf("%10s %10s %10s %10s %10s %10s\n", "lookups", "hits",
	       "misses", "allocs", "reclaims", "frees");
}

static void print_row(const u64 *t)
{
	printf("%10llu %10llu %10llu %10llu %10llu %10llu\n",
	       (unsigned long long)t[0], (unsigned long long)t[1],
	       (unsigned long long)t[2], (unsigned long long)t[3],
	       (unsigned long long)t[4], (unsigned long long)t[5]);
	if (fflush(stdout) || ferror(stdout))
		die("write error: %s", strerror(errno));
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

static void now(struct timespec *ts)
{
	if (clock_gettime(CLOCK_MONOTONIC, ts))
		die("clock_gettime: %s", strerror(errno));
}

/* Wait until @deadline (CLOCK_MONOTONIC); false if asked to stop. */
static bool wait_until(const struct timespec *deadline,
		       const sigset_t *waitmask)
{
	for (;;) {
		struct timespec t, left;

		if (atomic_load(&stop_requested))
			return false;
		now(&t);
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
	struct stats_file sf = { .fd = -1 };
	struct sample a = { 0 }, b = { 0 }, *prev = &a, *cur = &b;
	unsigned long long interval = 0, count = 0, printed;
	u64 cum[NFIELDS] = { 0 }, delta[NFIELDS];
	unsigned int rows, shown;
	bool cumulative = false;
	struct timespec deadline;
	sigset_t waitmask;
	size_t i;
	int opt;

	opterr = 0;
	while ((opt = getopt_long(argc, argv, ":cf:h", longopts, NULL)) != -1) {
		switch (opt) {
		case 'c':
			cumulative = true;
			break;
		case 'f':
			sf.path = optarg;
			break;
		case 'h':
			fputs(usage_text, stdout);
			return fflush(stdout) ? EXIT_FAILURE : EXIT_SUCCESS;
		case ':':
			usage_error("option '%s' requires an argument",
				    argv[optind - 1]);
		default:
			if (optopt)
				usage_error("invalid option '-%c'", optopt);
			usage_error("invalid option '%s'", argv[optind - 1]);
		}
	}
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
		sf.path = default_path();
		sf.fd = open(sf.path, O_RDONLY | O_CLOEXEC);
		if (sf.fd < 0 && errno == ENOENT)
			die("%s: %s (no " AVC_RCU_FS_NAME " mounted? see -f)",
			    sf.path, strerror(errno));
	} else {
		sf.fd = open(sf.path, O_RDONLY | O_CLOEXEC);
	}
	if (sf.fd < 0)
		die("%s: %s", sf.path, strerror(errno));

	setup_signals(&waitmask);
	now(&deadline);

	read_sample(&sf, prev);
	for (i = 0; i < prev->ncpus * NFIELDS; i++)
		cum[i % NFIELDS] += prev->v[i];
	print_header();
	print_row(cum);
	printed = 1;
	rows = screen_rows();
	shown = 1;	/* data rows under the last header */

	while (interval && printed != count) {
		struct sample *tmp;
		struct timespec t;

		timespec_add_sec(&deadline, interval);
		now(&t);
		if (timespec_before(&deadline, &t)) {
			/* Fell behind (stopped, suspended): no burst. */
			deadline = t;
			timespec_add_sec(&deadline, interval);
		}
		if (!wait_until(&deadline, &waitmask))
			break;

		read_sample(&sf, cur);
		if (cur->ncpus != prev->ncpus)
			die("%s: number of CPU rows changed from %zu to %zu",
			    sf.path, prev->ncpus, cur->ncpus);
		memset(delta, 0, sizeof(delta));
		for (i = 0; i < cur->ncpus * NFIELDS; i++)
			delta[i % NFIELDS] += (u32)(cur->v[i] -
							 prev->v[i]);
		for (i = 0; i < NFIELDS; i++)
			cum[i] += delta[i];

		if (atomic_exchange(&winch_pending, 0))
			rows = screen_rows();
		if (shown >= rows - 2) {
			print_header();
			shown = 0;
		}
		print_row(cumulative ? cum : delta);
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
