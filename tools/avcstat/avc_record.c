// SPDX-License-Identifier: GPL-2.0
/*
 * avc_record - record every AVC lookup the running kernel makes, for a
 * time, while a command runs or until interrupted, as an AVC trace
 * (tools/avcstat/avc_trace_format.h)
 *
 *   avc_record -o TRACE [-m META] [-b KB] [-w NAME] [-s SECONDS] [-l]
 *              [-i PIDFILE] [-- CMD [ARGS...]]
 *   avc_record --cleanup
 *
 * It places kprobe events (tracefs) on the kernel's static avc_lookup(),
 * the one place the AVC counts its lookups, entry and return, and on the
 * functions that change the cache without a lookup: avc_ss_reset() (a
 * policy load or a boolean change flushes the cache) and avc_denied(),
 * entry and return (in permissive mode it updates one entry in place,
 * granting what was denied, and returns 0; enforcing, it returns -EACCES:
 * the update record says which, AVC_TRACE_F_GRANTED).  Each lookup is
 * recorded (trace format version 2) with:
 *
 *  - the time (tracefs's mono clock: CLOCK_MONOTONIC, to the microsecond)
 *    and the CPU; read while the CPUs write, trace_pipe may give an
 *    event after a later one of another CPU, which then takes that
 *    one's time (the metadata's times_raised counts them and says by
 *    how much at most), so that times never go back;
 *  - the permissions asked for, from the entry of the function that
 *    looked up: avc_has_perm() (into which avc_has_perm_noaudit() is
 *    inlined), the out-of-line avc_has_perm_noaudit() the hooks call, or
 *    avc_has_extended_perms(); joined to the lookup that follows in the
 *    same task (or, for the idle task, on the same CPU);
 *  - whether the kernel's AVC hit, from avc_lookup()'s return value (the
 *    node, or NULL), and its decision: on a hit the node's (struct
 *    avc_node begins with struct avc_entry: ssid, tsid, tclass, then the
 *    struct av_decision at offset 12), on a miss the one the security
 *    server computed, from the avc_node_populate() call that inserts it.
 *    A miss whose decision was not inserted (a stale seqno, no memory)
 *    has no decision (no AVC_TRACE_F_DECIDED).  The time from a miss to
 *    that insertion, averaged, is the metadata's miss_cost_us.
 *
 * Lookups nest (an interrupt's inside a task's): the joins keep a stack
 * per task.
 *
 * -l (lean, avc-advise's): only what a miss curve needs, the lookups'
 * keys and times, the resets, the updates, and the misses' decisions
 * (avc_node_populate(), joined to the newest lookup of its key in the
 * task): no return probe and no requested permissions, so a lookup is
 * one event, not two or three.  Its records carry no HIT flag (the
 * kernel's hits over the window are the metadata's, from cache_stats).
 *
 * On a live host it touches nothing of anyone else's.  Before anything,
 * it checks that SELinux is enabled (selinuxfs's avc/cache_stats) and
 * that the kernel has kprobe events (tracefs's kprobe_events), and says
 * in one line which is missing.  Its probes are a group of their own,
 * avc_record_PID, added to kprobe_events one by one and removed one by
 * one at the end; its events are enabled only in a tracefs instance of
 * its own, instances/avc_record_PID, with its own clock, its own ring
 * buffer (-b, by default sized to the host: a 64th of the memory
 * available, shared by the CPUs, from 1 to 64 MiB a CPU) that drops new
 * events when full rather than overwrite (the losses counted and
 * reported), and its own tracing_on; the instance is removed at the end.
 * The global buffer, its clock, its size, tracing_on and every other
 * probe are left as they are.  SIGINT, SIGTERM and SIGHUP end the
 * recording cleanly: the window closes, the trace so far is written
 * whole (a valid trace, its metadata saying interrupted=1), and the
 * probes and the instance are removed.  Only SIGKILL, which no program
 * can catch, leaves them: avc_record --cleanup removes the groups and
 * instances of recorders that are no longer running.
 *
 * The ring buffer is read while the window is open (trace_pipe), and
 * the records written as they complete: the recorder's memory is bounded
 * (a window of 65536 records being completed, the tasks in flight and
 * the distinct keys), whatever the recording's length.
 *
 * The window: the files it needs (selinuxfs's avc/cache_stats, the
 * instance's tracing_on and trace_pipe, the output files) are opened
 * before it starts, so its own bookkeeping asks the AVC nothing inside
 * the window (SELinux does not consult the AVC again on reads and writes
 * of an already-open file, until the next policy load).  It reads
 * cache_stats, turns tracing on, runs CMD, reads until CMD exits (or -s
 * SECONDS pass, or a signal comes), turns tracing off, reads cache_stats
 * again and what the buffer still holds.  Every lookup of the system in
 * that window, CMD's and everyone else's, is recorded and counted.
 * Without CMD, the window lasts -s SECONDS, or until a signal.
 *
 * With -i PIDFILE, CMD is an init (systemd) that must be the first
 * process: avc_record, run as that process, forks a recorder child that
 * opens the window, then execs CMD; the child writes its pid to PIDFILE
 * and closes the window when it gets SIGUSR1 (a unit ordered after
 * multi-user.target sends it), so the window is the boot.
 *
 * Then it prints the completeness line: the lookups recorded beside the
 * delta of the kernel's own lookups counter (summed over the CPUs), and
 * says INCOMPLETE if they differ by more than 0.1 %.  META gets the
 * metadata (key=value lines): kernel, workload, duration, lookups,
 * distinct keys, the kernel AVC's counters over the window and its
 * hash_stats at the end, the events lost.
 *
 * Exit status: 0, a complete recording; 3, a recording written whole but
 * incomplete (events lost, or interrupted); 1, an error (one line on
 * standard error; nothing is left behind).
 *
 * Probe definitions depend on the kernel: up to 6.3 the AVC functions take
 * a struct selinux_state * (6.1: struct selinux_avc *) first, so ssid,
 * tsid and tclass are in the second to fourth argument registers (x86-64:
 * %si, %dx, %cx); from 6.4 on in the first three.  Only x86-64.
 *
 * AVC_RECORD_ROOT, if set, is prepended to every path of /sys and /proc
 * it reads (the tests' crafted hosts).
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <endian.h>
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <sched.h>
#include <signal.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/utsname.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "avc_trace_format.h"

#define PROG		"avc_record"
#define SELINUXFS	"/sys/fs/selinux"
#define ARRAY_SIZE(a)	(sizeof(a) / sizeof((a)[0]))
/* A probe's key fields, from the registers given. */
#define KEY_ARGS(s, t, c)	"ssid=" s ":u32 tsid=" t ":u32 tclass=" c ":u16"
#define MAX_PROBES	16

/* The kernel AVC's counters, summed over the CPUs. */
struct avc_stats {
	uint64_t lookups, hits, misses, allocations, reclaims, frees;
};

static char root[256];		/* AVC_RECORD_ROOT */
static char tracefs[512];	/* root + the tracefs mount */
static char instance[1024];	/* tracefs + instances/GROUP, once made */
static char group[64];		/* avc_record_PID */
static char cache_stats[512], hash_stats[512];
static char probes[MAX_PROBES][128];	/* the events added, GROUP/NAME */
static int nprobes;
static pid_t owner;		/* the process that cleans up */
static int pipe_fd = -1, on_fd = -1;	/* the instance's files in use */
static atomic_int stop_sig;	/* the signal that ends the window */
static int lean;		/* -l: only what a miss curve needs */

static void cleanup(void);

static void die(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	fflush(stdout);
	fprintf(stderr, PROG ": ");
	vfprintf(stderr, fmt, ap);
	fputc('\n', stderr);
	va_end(ap);
	exit(1);
}

/* Write STR to the file PATH; 0, or -errno. */
static int write_file(const char *path, const char *str, int flags)
{
	ssize_t n;
	int fd, err = 0;

	fd = open(path, O_WRONLY | O_CLOEXEC | flags);
	if (fd < 0)
		return -errno;
	n = write(fd, str, strlen(str));
	if (n < 0)
		err = -errno;
	close(fd);
	return err;
}

/* Write STR to NAME below DIR (tracefs or the instance); 0, or -errno. */
static int tracefs_write(const char *dir, const char *name, const char *str,
			 int flags)
{
	char path[1024];

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	return write_file(path, str, flags);
}

static void tracefs_must(const char *dir, const char *name, const char *str,
			 int flags)
{
	int err = tracefs_write(dir, name, str, flags);

	if (err)
		die("writing '%s' to %s/%s: %s", str, dir, name,
		    strerror(-err));
}

/* Read NAME below DIR into BUF (at most SIZE - 1 bytes); -1 if not. */
static ssize_t read_file(const char *dir, const char *name, char *buf,
			 size_t size)
{
	char path[1024];
	ssize_t n, len = 0;
	int fd;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -1;
	while (len < (ssize_t)size - 1 &&
	       (n = read(fd, buf + len, size - 1 - len)) > 0)
		len += n;
	close(fd);
	buf[len] = '\0';
	return len;
}

/*
 * The end, whatever ends it (the last step, an error, a signal): the
 * instance's events disabled and the instance removed, then each probe
 * of the group removed, in the process that made them.
 */
static void cleanup(void)
{
	char def[128];
	int i, err;

	if (getpid() != owner)
		return;
	owner = 0;
	/* An instance with a file open cannot be removed (EBUSY). */
	if (pipe_fd >= 0)
		close(pipe_fd);
	if (on_fd >= 0)
		close(on_fd);
	pipe_fd = -1;
	on_fd = -1;
	if (instance[0]) {
		snprintf(def, sizeof(def), "events/%s/enable", group);
		tracefs_write(instance, def, "0", O_TRUNC);
		tracefs_write(instance, "tracing_on", "0", O_TRUNC);
		if (rmdir(instance) && errno != ENOENT)
			fprintf(stderr, PROG ": cannot remove %s: %s\n",
				instance, strerror(errno));
		instance[0] = '\0';
	}
	for (i = nprobes - 1; i >= 0; i--) {
		snprintf(def, sizeof(def), "-:%s", probes[i]);
		err = tracefs_write(tracefs, "kprobe_events", def, O_APPEND);
		if (err)
			fprintf(stderr, PROG ": cannot remove the probe %s: %s\n",
				probes[i], strerror(-err));
	}
	nprobes = 0;
}

static void on_stop(int sig)
{
	stop_sig = sig;
}

static void on_child(int sig)
{
	(void)sig;
}

static void catch_stops(int usr1)
{
	static const int sigs[] = { SIGINT, SIGTERM, SIGHUP, SIGQUIT };
	struct sigaction sa;
	unsigned int i;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_stop;
	sigemptyset(&sa.sa_mask);
	for (i = 0; i < ARRAY_SIZE(sigs); i++)
		sigaction(sigs[i], &sa, NULL);
	if (usr1)
		sigaction(SIGUSR1, &sa, NULL);
	/* The command's end interrupts the wait between two reads. */
	sa.sa_handler = on_child;
	sa.sa_flags = SA_NOCLDSTOP;
	sigaction(SIGCHLD, &sa, NULL);
	signal(SIGPIPE, SIG_IGN);
}

/*
 * One probe of the group: "p:" or "r64:" HEAD, GROUP/NAME, then BODY.
 * 0, or -errno (the probe point cannot be probed).
 */
static int add_probe(const char *kind, const char *name, const char *body)
{
	char def[1024];
	int err;

	if (nprobes == MAX_PROBES)
		die("more than %d probes", MAX_PROBES);
	snprintf(def, sizeof(def), "%s:%s/%s %s", kind, group, name, body);
	err = tracefs_write(tracefs, "kprobe_events", def, O_APPEND);
	if (!err)
		snprintf(probes[nprobes++], sizeof(probes[0]), "%s/%s", group,
			 name);
	return err;
}

static void add_probe_must(const char *kind, const char *name,
			   const char *body)
{
	int err = add_probe(kind, name, body);

	if (err)
		die("adding the kprobe event %s/%s (%s %s) to %s/kprobe_events: %s",
		    group, name, kind, body, tracefs, strerror(-err));
}

/* The kernel functions it may probe, and whether the kernel has them. */
static const char *const symbols[] = {
	"avc_node_populate", "avc_has_perm", "avc_has_perm_noaudit",
	"avc_has_extended_perms", "avc_denied",
};

static unsigned int have_symbols;	/* a bit a symbols[] entry */

/* kallsyms read once (it is long, and slow to read under emulation). */
static void find_symbols(void)
{
	char line[512], name[256], path[512];
	unsigned int i;
	FILE *f;

	snprintf(path, sizeof(path), "%s/proc/kallsyms", root);
	f = fopen(path, "re");
	if (!f)
		die("%s: %s", path, strerror(errno));
	while (fgets(line, sizeof(line), f)) {
		if (sscanf(line, "%*s %*s %255s", name) != 1 ||
		    strncmp(name, "avc_", 4))
			continue;
		for (i = 0; i < ARRAY_SIZE(symbols); i++)
			if (!strcmp(name, symbols[i]))
				have_symbols |= 1u << i;
	}
	fclose(f);
}

/* Is SYM a function of the running kernel, under that exact name? */
static int have_symbol(const char *sym)
{
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(symbols); i++)
		if (!strcmp(sym, symbols[i]))
			return !!(have_symbols & 1u << i);
	die("%s is not one of the symbols looked for", sym);
	return 0;
}

/* Parse cache_stats (read from FD at offset 0) into S. */
static void read_stats(int fd, struct avc_stats *s)
{
	char buf[16384], *p, *nl;
	ssize_t n, len = 0;
	unsigned long long v[6];

	if (lseek(fd, 0, SEEK_SET) < 0)
		die("%s: lseek: %s", cache_stats, strerror(errno));
	while ((n = read(fd, buf + len, sizeof(buf) - 1 - len)) > 0)
		len += n;
	if (n < 0)
		die("%s: %s", cache_stats, strerror(errno));
	buf[len] = 0;
	memset(s, 0, sizeof(*s));
	for (p = buf; *p; p = nl + 1) {
		nl = strchr(p, '\n');
		if (!nl)
			break;
		*nl = 0;
		/* The header line names the fields; the others are CPUs. */
		if (sscanf(p, "%llu %llu %llu %llu %llu %llu", &v[0], &v[1],
			   &v[2], &v[3], &v[4], &v[5]) != 6)
			continue;
		s->lookups += v[0];
		s->hits += v[1];
		s->misses += v[2];
		s->allocations += v[3];
		s->reclaims += v[4];
		s->frees += v[5];
	}
}

/*
 * A set of keys (ssid, tsid, tclass), to count the distinct ones: open
 * addressing, grown at half full.
 */
struct key {
	uint32_t ssid, tsid;
	uint32_t tclass;	/* 0x10000 | tclass when used, 0 when empty */
};

static struct key *keys;
static size_t nkeys, keycap;

static size_t key_hash(const struct key *k)
{
	uint64_t h = ((uint64_t)k->ssid << 32 | k->tsid) ^
		     ((uint64_t)k->tclass * 0x9e3779b97f4a7c15ULL);

	h ^= h >> 33;
	h *= 0xff51afd7ed558ccdULL;
	h ^= h >> 33;
	return (size_t)h;
}

static void key_add(uint32_t ssid, uint32_t tsid, uint16_t tclass);

static void keys_grow(void)
{
	struct key *old = keys;
	size_t i, oldcap = keycap;

	keycap = keycap ? keycap * 2 : 4096;
	keys = calloc(keycap, sizeof(*keys));
	if (!keys)
		die("out of memory");
	nkeys = 0;
	for (i = 0; i < oldcap; i++)
		if (old[i].tclass)
			key_add(old[i].ssid, old[i].tsid,
				(uint16_t)old[i].tclass);
	free(old);
}

static void key_add(uint32_t ssid, uint32_t tsid, uint16_t tclass)
{
	struct key k = { ssid, tsid, 0x10000u | tclass };
	size_t i;

	if ((nkeys + 1) * 2 > keycap)
		keys_grow();
	for (i = key_hash(&k) & (keycap - 1); keys[i].tclass;
	     i = (i + 1) & (keycap - 1))
		if (keys[i].ssid == ssid && keys[i].tsid == tsid &&
		    keys[i].tclass == k.tclass)
			return;
	keys[i] = k;
	nkeys++;
}

/* The value of " NAME=" in LINE, or -1 if absent. */
static long long field(const char *line, const char *name)
{
	char pat[32];
	const char *p;

	snprintf(pat, sizeof(pat), " %s=", name);
	p = strstr(line, pat);
	if (!p)
		return -1;
	return strtoll(p + strlen(pat), NULL, 0);
}

static uint64_t mono_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + ts.tv_nsec;
}

/*
 * The lookups other processes make between a read of cache_stats and the
 * switch of tracing_on are counted but not recorded (at the start) or
 * recorded but not counted (at the end).  Run as a real-time task, so the
 * recorder is not preempted between the two and the gap stays a few
 * system calls long; its children (the workload) start as normal tasks.
 */
static void edges_realtime(void)
{
	struct sched_param sp = { .sched_priority = 99 };
	static int said;

	if (sched_setscheduler(0, SCHED_FIFO | SCHED_RESET_ON_FORK, &sp) &&
	    !said++)
		fprintf(stderr, PROG ": SCHED_FIFO: %s (going on without)\n",
			strerror(errno));
}

/* Back to a normal task once the window is closed. */
static void edges_done(void)
{
	struct sched_param sp = { .sched_priority = 0 };

	sched_setscheduler(0, SCHED_OTHER, &sp);
}

/*
 * A probe definition: @head, then the five fields of the struct
 * av_decision at @off bytes from the address in @base.
 */
static void probe_with_decision(char *def, size_t size, const char *head,
				const char *base, int off)
{
	static const char *const names[] = {
		"allowed", "auditallow", "auditdeny", "seqno", "avd_flags",
	};
	size_t len = snprintf(def, size, "%s", head);
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(names) && len < size; i++)
		len += snprintf(def + len, size - len, " %s=+%d(%s):u32",
				names[i], off + 4 * (int)i, base);
}

/* The functions whose entry gives a lookup's requested permissions. */
static const char *const req_funcs[] = {
	"avc_has_perm", "avc_has_perm_noaudit", "avc_has_extended_perms",
};

/*
 * The records being completed: a window of the last RECS_WINDOW made,
 * by number; those before it are written out.  A return that comes for
 * a record already written (RECS_WINDOW events later: lost returns) is
 * counted as unmatched.
 */
#define RECS_WINDOW	65536

static struct avc_trace_record2 rec_ring[RECS_WINDOW];
static uint64_t nrec, flushed;
static FILE *out;
static const char *out_path;
/* What the parse of the lines counts. */
static uint64_t nhit, nmiss, nundecided, nrequested, nunmatched;
static uint64_t ngranted, ndenied, nlookup, nreset, nupdate, nlost_lines;
static uint64_t miss_cost_ns, miss_cost_n;
static uint64_t last_ts, ts_adjusted, ts_adjust_max;
static int have_update;

static void flush_one(void)
{
	const struct avc_trace_record2 *r = &rec_ring[flushed % RECS_WINDOW];

	if (r->kind == AVC_TRACE_LOOKUP && !(r->flags & AVC_TRACE_F_DECIDED))
		nundecided++;
	if (fwrite(&rec_ring[flushed % RECS_WINDOW], sizeof(rec_ring[0]), 1,
		   out) != 1)
		die("%s: %s", out_path, strerror(errno));
	flushed++;
}

static uint64_t records_add(const struct avc_trace_record2 *r)
{
	if (nrec - flushed == RECS_WINDOW)
		flush_one();
	rec_ring[nrec % RECS_WINDOW] = *r;
	return nrec++;
}

/* Record number @i, or NULL if it is written out already. */
static struct avc_trace_record2 *rec_at(uint64_t i)
{
	return i >= flushed && i < nrec ? &rec_ring[i % RECS_WINDOW] : NULL;
}

/*
 * What each task has in flight: requests not yet looked up, lookups not
 * yet returned, misses not yet inserted; stacks, since an interrupt's
 * lookup nests in the task it interrupted.  The idle task (pid 0) is one
 * per CPU.  Tasks with nothing in flight are forgotten when the table
 * fills (pids come and go on a host that runs for long).
 */
#define TASK_DEPTH	8
#define TASKS		16384

struct req {
	uint32_t ssid, tsid, requested;
	uint16_t tclass;
};

struct miss {
	uint64_t rec, ts;	/* the record, its lookup's return time */
};

struct task {
	int pid, cpu, used;
	int nreq, nlookup, nmiss, nupdate;
	struct req req[TASK_DEPTH];
	uint64_t lookup[TASK_DEPTH];	/* record numbers */
	struct miss miss[TASK_DEPTH];
	uint64_t update[TASK_DEPTH];
};

static struct task tasks[TASKS];
static unsigned int ntasks;
static uint64_t tasks_forgotten;

static unsigned int task_slot(int pid, int cpu)
{
	unsigned int h = (unsigned int)pid * 2654435761u;

	return (h ^ (unsigned int)(cpu + 1) * 40503u) % TASKS;
}

static struct task *task_find(int pid, int cpu, int make);

/* The table three quarters full: only the tasks with work in flight kept. */
static void tasks_compact(void)
{
	static struct task keep[TASKS];
	unsigned int i, n = 0;

	for (i = 0; i < TASKS; i++)
		if (tasks[i].used && (tasks[i].nlookup || tasks[i].nmiss ||
				      tasks[i].nupdate))
			keep[n++] = tasks[i];
	tasks_forgotten += ntasks - n;
	memset(tasks, 0, sizeof(tasks));
	ntasks = 0;
	if (n > TASKS / 2) {	/* everything in flight: start over */
		tasks_forgotten += n;
		return;
	}
	for (i = 0; i < n; i++)
		*task_find(keep[i].pid, keep[i].cpu, 1) = keep[i];
}

static struct task *task_find(int pid, int cpu, int make)
{
	unsigned int i, n;
	struct task *t;

	for (n = 0, i = task_slot(pid, cpu); n < TASKS;
	     n++, i = (i + 1) % TASKS) {
		t = &tasks[i];
		if (!t->used) {
			if (!make)
				return NULL;
			memset(t, 0, sizeof(*t));
			t->used = 1;
			t->pid = pid;
			t->cpu = cpu;
			ntasks++;
			return t;
		}
		if (t->pid == pid && t->cpu == cpu)
			return t;
	}
	return NULL;
}

static struct task *task_of(int pid, int cpu)
{
	struct task *t;

	if (pid)
		cpu = -1;
	t = task_find(pid, cpu, 0);
	if (t)
		return t;
	if (ntasks >= TASKS * 3 / 4)
		tasks_compact();
	return task_find(pid, cpu, 1);
}

/* The part of a trace line after "comm-pid [cpu] flags ts:", parsed. */
static int parse_context(const char *line, int *pid, int *cpu, uint64_t *ts,
			 const char **rest)
{
	const char *b = strstr(line, " ["), *d, *p;
	unsigned long long sec, usec;

	if (!b)
		return -1;
	for (d = b; d > line && d[-1] != '-'; d--)
		;
	if (d == line)
		return -1;
	*pid = atoi(d);
	*cpu = atoi(b + 2);
	p = strchr(b, ']');
	if (!p)
		return -1;
	/* Past the flags, the "secs.usecs:" timestamp. */
	p = strchr(p + 1, '.');
	while (p && !(p[1] >= '0' && p[1] <= '9' && p[-1] >= '0' &&
		      p[-1] <= '9'))
		p = strchr(p + 1, '.');
	if (!p)
		return -1;
	for (d = p; d > line && d[-1] >= '0' && d[-1] <= '9'; d--)
		;
	if (sscanf(d, "%llu.%llu:", &sec, &usec) != 2)
		return -1;
	*ts = sec * 1000000000ull + usec * 1000ull;
	*rest = strchr(p, ':');
	return *rest ? 0 : -1;
}

/* The text of " NAME=" in LINE, or "" if absent. */
static const char *field_str(const char *line, const char *name)
{
	char pat[32];
	const char *p;

	snprintf(pat, sizeof(pat), " %s=", name);
	p = strstr(line, pat);
	return p ? p + strlen(pat) : "";
}

static void set_decision(struct avc_trace_record2 *r, const char *p)
{
	r->allowed = htole32((uint32_t)strtoull(field_str(p, "allowed"), NULL, 0));
	r->auditallow = htole32((uint32_t)strtoull(field_str(p, "auditallow"),
						   NULL, 0));
	r->auditdeny = htole32((uint32_t)strtoull(field_str(p, "auditdeny"),
						  NULL, 0));
	r->seqno = htole32((uint32_t)strtoull(field_str(p, "seqno"), NULL, 0));
	r->avd_flags = htole32((uint32_t)strtoull(field_str(p, "avd_flags"),
						  NULL, 0));
}

static void task_push_req(struct task *t, const char *p)
{
	struct req *q;

	if (t->nreq == TASK_DEPTH) {
		memmove(t->req, t->req + 1, sizeof(t->req[0]) * (TASK_DEPTH - 1));
		t->nreq--;
	}
	q = &t->req[t->nreq++];
	q->ssid = (uint32_t)field(p, "ssid");
	q->tsid = (uint32_t)field(p, "tsid");
	q->tclass = (uint16_t)field(p, "tclass");
	q->requested = (uint32_t)strtoull(field_str(p, "requested"), NULL, 0);
}

/* The request on top, if it is for this lookup's key: 1 if so. */
static int task_pop_req(struct task *t, struct avc_trace_record2 *r)
{
	struct req *q;

	if (!t->nreq)
		return 0;
	q = &t->req[t->nreq - 1];
	if (q->ssid != le32toh(r->ssid) || q->tsid != le32toh(r->tsid) ||
	    q->tclass != le16toh(r->tclass))
		return 0;
	r->requested = htole32(q->requested);
	r->flags |= AVC_TRACE_F_REQUESTED;
	t->nreq--;
	return 1;
}

static void task_push_lookup(struct task *t, uint64_t idx)
{
	if (t->nlookup == TASK_DEPTH) {
		memmove(t->lookup, t->lookup + 1,
			sizeof(t->lookup[0]) * (TASK_DEPTH - 1));
		t->nlookup--;
	}
	t->lookup[t->nlookup++] = idx;
}

/*
 * The lookup a return is for, its number in *@idx; NULL if none, or
 * written out already.
 */
static struct avc_trace_record2 *task_pop_lookup(struct task *t,
						 uint64_t *idx)
{
	if (!t->nlookup)
		return NULL;
	*idx = t->lookup[--t->nlookup];
	return rec_at(*idx);
}

/* An avc_denied() entered: its record, until its return says more. */
static void task_push_update(struct task *t, uint64_t idx)
{
	if (t->nupdate == TASK_DEPTH) {
		memmove(t->update, t->update + 1,
			sizeof(t->update[0]) * (TASK_DEPTH - 1));
		t->nupdate--;
	}
	t->update[t->nupdate++] = idx;
}

static struct avc_trace_record2 *task_pop_update(struct task *t)
{
	if (!t->nupdate)
		return NULL;
	return rec_at(t->update[--t->nupdate]);
}

static void task_push_miss(struct task *t, uint64_t idx, uint64_t ts)
{
	if (t->nmiss == TASK_DEPTH) {
		memmove(t->miss, t->miss + 1, sizeof(t->miss[0]) * (TASK_DEPTH - 1));
		t->nmiss--;
	}
	t->miss[t->nmiss].rec = idx;
	t->miss[t->nmiss++].ts = ts;
}

/*
 * -l: no returns; the lookup a populate inserts the decision of, the
 * newest of this task's with that key, taken off its stack; its time in
 * *@ts.  The others are left to fall off the stack's bottom.
 */
static struct avc_trace_record2 *task_take_lookup(struct task *t,
						  const char *p, uint64_t *ts)
{
	uint32_t ssid = (uint32_t)field(p, "ssid");
	uint32_t tsid = (uint32_t)field(p, "tsid");
	uint16_t tclass = (uint16_t)field(p, "tclass");
	struct avc_trace_record2 *r;
	int i;

	for (i = t->nlookup - 1; i >= 0; i--) {
		r = rec_at(t->lookup[i]);
		if (r && le32toh(r->ssid) == ssid && le32toh(r->tsid) == tsid &&
		    le16toh(r->tclass) == tclass) {
			*ts = le64toh(r->ts_ns);
			memmove(t->lookup + i, t->lookup + i + 1,
				sizeof(t->lookup[0]) * (t->nlookup - i - 1));
			t->nlookup--;
			return r;
		}
	}
	return NULL;
}

/*
 * The miss a populate inserts: the newest of this task's, by key; its
 * lookup's return time in *@ts.
 */
static struct avc_trace_record2 *task_pop_miss(struct task *t, const char *p,
					       uint64_t *ts)
{
	uint32_t ssid = (uint32_t)field(p, "ssid");
	uint32_t tsid = (uint32_t)field(p, "tsid");
	uint16_t tclass = (uint16_t)field(p, "tclass");
	struct avc_trace_record2 *r;
	int i;

	for (i = t->nmiss - 1; i >= 0; i--) {
		r = rec_at(t->miss[i].rec);
		if (r && le32toh(r->ssid) == ssid && le32toh(r->tsid) == tsid &&
		    le16toh(r->tclass) == tclass) {
			*ts = t->miss[i].ts;
			memmove(t->miss + i, t->miss + i + 1,
				sizeof(t->miss[0]) * (t->nmiss - i - 1));
			t->nmiss--;
			return r;
		}
	}
	return NULL;
}

static void print_usage(FILE *f)
{
	fprintf(f, "usage: %s -o TRACE [-m META] [-b KB] [-w NAME] [-s SECONDS]\n"
		"           [-l] [-i PIDFILE] [-- CMD [ARGS...]]\n"
		"       %s --cleanup\n"
		"  -o TRACE    the recorded trace (avc_trace_format.h format)\n"
		"  -m META     its metadata, key=value lines\n"
		"  -b KB       the ring buffer per CPU (default: sized to the host)\n"
		"  -w NAME     the workload's name, for META (default: CMD)\n"
		"  -s SECONDS  record at most SECONDS (without CMD: exactly)\n"
		"  -l          lean: only the lookups' keys and times, the resets,\n"
		"              the updates and the misses' decisions (no returns,\n"
		"              no requested permissions): half the events or less\n"
		"  -i PIDFILE  CMD is an init: exec it in this process once the\n"
		"              window is open; a child records until SIGUSR1\n"
		"  --cleanup   remove the probes and instances of recorders\n"
		"              that are no longer running (after a SIGKILL)\n"
		"Without CMD and -s, it records until SIGINT or SIGTERM.\n",
		PROG, PROG);
}

/* One line of trace_pipe. */
static void process_line(const char *line)
{
	struct avc_trace_record2 r, *x;
	long long ssid, tsid, tclass;
	unsigned long long lost;
	const char *p;
	struct task *t;
	uint64_t ts, idx, t0;
	int pid, cpu;

	if (line[0] == '#')
		return;
	if (sscanf(line, "CPU:%d [LOST %llu EVENTS]", &cpu, &lost) == 2) {
		nlost_lines += lost;
		return;
	}
	if (parse_context(line, &pid, &cpu, &ts, &p))
		return;
	t = task_of(pid, cpu);
	if (!t) {
		nunmatched++;
		return;
	}
	if (strstr(p, " lookup_ret: ")) {
		x = task_pop_lookup(t, &idx);
		if (!x) {
			nunmatched++;
			return;
		}
		if (strtoull(field_str(p, "node"), NULL, 0)) {
			x->flags |= AVC_TRACE_F_HIT | AVC_TRACE_F_DECIDED;
			set_decision(x, p);
			nhit++;
		} else {
			task_push_miss(t, idx, ts);
			nmiss++;
		}
		return;
	}
	if (strstr(p, " update_ret: ")) {
		x = task_pop_update(t);
		if (!x) {
			nunmatched++;
			return;
		}
		if (!strtoll(field_str(p, "ret"), NULL, 0)) {
			x->flags |= AVC_TRACE_F_GRANTED;
			ngranted++;
		} else {
			ndenied++;
		}
		return;
	}
	if (strstr(p, " populate: ")) {
		x = lean ? task_take_lookup(t, p, &t0) : task_pop_miss(t, p, &t0);
		if (x) {
			x->flags |= AVC_TRACE_F_DECIDED;
			set_decision(x, p);
			if (ts >= t0) {
				miss_cost_ns += ts - t0;
				miss_cost_n++;
			}
		}
		return;
	}
	if (strstr(p, " req")) {
		const char *q = strstr(p, " req");

		if (q[4] >= '0' && q[4] <= '9' && q[5] == ':') {
			task_push_req(t, p);
			return;
		}
	}
	memset(&r, 0, sizeof(r));
	if (strstr(p, " lookup: ")) {
		r.kind = AVC_TRACE_LOOKUP;
		nlookup++;
	} else if (strstr(p, " reset: ")) {
		r.kind = AVC_TRACE_RESET;
		r.seqno = htole32((uint32_t)field(p, "seqno"));
		nreset++;
	} else if (strstr(p, " update: ")) {
		r.kind = AVC_TRACE_UPDATE;
		nupdate++;
	} else {
		return;
	}
	if (r.kind != AVC_TRACE_RESET) {
		ssid = field(p, "ssid");
		tsid = field(p, "tsid");
		tclass = field(p, "tclass");
		if (ssid < 0 || tsid < 0 || tclass < 0)
			die("cannot parse the trace line: %s", line);
		r.ssid = htole32((uint32_t)ssid);
		r.tsid = htole32((uint32_t)tsid);
		r.tclass = htole16((uint16_t)tclass);
		if (r.kind == AVC_TRACE_UPDATE)
			r.requested = htole32((uint32_t)field(p, "requested"));
		if (r.kind == AVC_TRACE_LOOKUP)
			key_add((uint32_t)ssid, (uint32_t)tsid,
				(uint16_t)tclass);
	}
	/*
	 * Read while the CPUs write, trace_pipe can give an event after a
	 * later one of another CPU's (committed late): records keep the
	 * order they are read in, with times made non-decreasing (counted).
	 */
	if (ts < last_ts) {
		ts_adjusted++;
		if (last_ts - ts > ts_adjust_max)
			ts_adjust_max = last_ts - ts;
		ts = last_ts;
	}
	last_ts = ts;
	r.ts_ns = htole64(ts);
	r.seq = htole32((uint32_t)nrec);
	r.cpu = htole16((uint16_t)cpu);
	if (r.kind == AVC_TRACE_LOOKUP && task_pop_req(t, &r))
		nrequested++;
	idx = records_add(&r);
	if (r.kind == AVC_TRACE_LOOKUP)
		task_push_lookup(t, idx);
	if (r.kind == AVC_TRACE_UPDATE)
		task_push_update(t, idx);
}

/* trace_pipe, read without blocking, cut into lines. */
static char lbuf[1 << 16];
static size_t llen;

/* What the pipe holds now, processed; the bytes read, 0 if none. */
static ssize_t pump(void)
{
	char *nl, *start;
	ssize_t n;

	n = read(pipe_fd, lbuf + llen, sizeof(lbuf) - 1 - llen);
	if (n < 0) {
		if (errno == EAGAIN || errno == EINTR)
			return 0;
		die("%s/trace_pipe: %s", instance, strerror(errno));
	}
	llen += n;
	lbuf[llen] = '\0';
	for (start = lbuf; (nl = memchr(start, '\n', lbuf + llen - start));
	     start = nl + 1) {
		*nl = '\0';
		process_line(start);
	}
	llen -= start - lbuf;
	memmove(lbuf, start, llen);
	if (llen == sizeof(lbuf) - 1) {		/* a line longer than that */
		lbuf[llen] = '\0';
		process_line(lbuf);
		llen = 0;
	}
	return n;
}

/*
 * All the pipe holds (-1: no limit), or at most @reads reads of it;
 * returns 1 if it stopped at the limit, the pipe not empty.
 */
static int drain(int reads)
{
	while (reads && pump() > 0)
		reads--;
	return !reads;
}

/* The ring buffer's size per CPU: -b, else a 64th of the memory free. */
static unsigned long buffer_kb(unsigned long given)
{
	char buf[4096], *p;
	unsigned long long avail = 0;
	long ncpus = sysconf(_SC_NPROCESSORS_CONF);
	char path[512];
	unsigned long kb;
	int fd;
	ssize_t n;

	if (given)
		return given;
	snprintf(path, sizeof(path), "%s/proc/meminfo", root);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd >= 0) {
		n = read(fd, buf, sizeof(buf) - 1);
		close(fd);
		buf[n > 0 ? n : 0] = '\0';
		p = strstr(buf, "MemAvailable:");
		if (p)
			avail = strtoull(p + strlen("MemAvailable:"), NULL, 10);
	}
	if (ncpus < 1)
		ncpus = 1;
	kb = (unsigned long)(avail / 64 / (unsigned long)ncpus);
	if (kb < 1024)
		kb = 1024;
	if (kb > 65536)
		kb = 65536;
	return kb;
}

/* The events the instance's ring buffer dropped or overwrote. */
static uint64_t buffer_losses(void)
{
	char path[64], buf[4096], *p;
	uint64_t lost = 0;
	long cpu, ncpus = sysconf(_SC_NPROCESSORS_CONF);

	for (cpu = 0; cpu < ncpus; cpu++) {
		snprintf(path, sizeof(path), "per_cpu/cpu%ld/stats", cpu);
		if (read_file(instance, path, buf, sizeof(buf)) < 0)
			continue;
		p = strstr(buf, "overrun:");
		if (p)
			lost += strtoull(p + strlen("overrun:"), NULL, 10);
		p = strstr(buf, "dropped events:");
		if (p)
			lost += strtoull(p + strlen("dropped events:"), NULL, 10);
	}
	return lost;
}

/*
 * Hits the group's kprobes could not handle (one already running...).
 * kprobe_profile names each event without its group: an event of the
 * same name in another group (another recorder's, at the same time) is
 * counted too.
 */
static uint64_t kprobe_misses(void)
{
	char path[1024], line[512], name[128];
	unsigned long long hits, missed;
	uint64_t n = 0;
	int i;
	FILE *f;

	snprintf(path, sizeof(path), "%s/kprobe_profile", tracefs);
	f = fopen(path, "re");
	if (!f)
		return 0;
	while (fgets(line, sizeof(line), f)) {
		if (sscanf(line, "%127s %llu %llu", name, &hits, &missed) != 3)
			continue;
		for (i = 0; i < nprobes; i++)
			if (!strcmp(name, strchr(probes[i], '/') + 1))
				n += missed;
	}
	fclose(f);
	return n;
}

/*
 * Where tracefs is, with kprobe events; else says in one line why not
 * and exits.  tracefs is not mounted here if it is not already.
 */
static void find_tracefs(void)
{
	static const char *const dirs[] = {
		"/sys/kernel/tracing", "/sys/kernel/debug/tracing",
	};
	char path[1024];
	unsigned int i;
	int mounted = 0;

	for (i = 0; i < ARRAY_SIZE(dirs); i++) {
		snprintf(tracefs, sizeof(tracefs), "%s%s", root, dirs[i]);
		snprintf(path, sizeof(path), "%s/kprobe_events", tracefs);
		if (!access(path, F_OK))
			return;
		snprintf(path, sizeof(path), "%s/trace", tracefs);
		if (!access(path, F_OK))
			mounted = 1;
	}
	if (mounted)
		die("this kernel has no kprobe events (no kprobe_events in tracefs: %s): %s",
		    "CONFIG_KPROBE_EVENTS", "there is no way to record its AVC's lookups");
	die("no kprobe events: tracefs is not mounted at %s%s (mount -t tracefs nodev %s), %s",
	    root, dirs[0], dirs[0], "or this kernel has no tracefs or kprobe events");
}

/*
 * --cleanup: the probe groups and instances avc_record_PID of recorders
 * no longer running (killed by SIGKILL), removed.
 */
static int cleanup_stale(void)
{
	char path[2048], line[1024], name[512], comm[64];
	int removed = 0, pid;
	struct dirent *de;
	FILE *f;
	DIR *d;

	snprintf(path, sizeof(path), "%s/instances", tracefs);
	d = opendir(path);
	while (d && (de = readdir(d))) {
		if (sscanf(de->d_name, PROG "_%d%63s", &pid, comm) != 1)
			continue;
		snprintf(path, sizeof(path), "%s/proc/%d", root, pid);
		if (read_file(path, "comm", comm, sizeof(comm)) > 0 &&
		    !strncmp(comm, PROG, strlen(PROG)))
			continue;	/* still recording */
		snprintf(instance, sizeof(instance), "%s/instances/%s",
			 tracefs, de->d_name);
		snprintf(name, sizeof(name), "events/%s/enable", de->d_name);
		tracefs_write(instance, name, "0", O_TRUNC);
		if (!rmdir(instance)) {
			printf(PROG ": removed the instance %s\n", de->d_name);
			removed++;
		}
	}
	if (d)
		closedir(d);
	instance[0] = '\0';
	snprintf(path, sizeof(path), "%s/kprobe_events", tracefs);
	f = fopen(path, "re");
	if (!f)
		die("%s: %s", path, strerror(errno));
	while (fgets(line, sizeof(line), f)) {
		char ev[256];

		if (sscanf(line, "%*[pr0-9]:%255s", ev) != 1 ||
		    sscanf(ev, PROG "_%d/", &pid) != 1)
			continue;
		snprintf(path, sizeof(path), "%s/proc/%d", root, pid);
		if (read_file(path, "comm", comm, sizeof(comm)) > 0 &&
		    !strncmp(comm, PROG, strlen(PROG)))
			continue;
		snprintf(name, sizeof(name), "-:%s", ev);
		if (!tracefs_write(tracefs, "kprobe_events", name, O_APPEND)) {
			printf(PROG ": removed the probe %s\n", ev);
			removed++;
		}
	}
	fclose(f);
	printf(PROG ": %d stale probes and instances removed\n", removed);
	return 0;
}

/* The window's edges at real-time priority (edges_realtime()). */
static void window_open(int stats_fd, int on_fd, struct avc_stats *s0,
			uint64_t *t0)
{
	edges_realtime();
	read_stats(stats_fd, s0);
	*t0 = mono_ns();
	if (write(on_fd, "1", 1) != 1)
		die("%s/tracing_on: %s", instance, strerror(errno));
}

static void window_close(int stats_fd, int on_fd, struct avc_stats *s1,
			 uint64_t *t1)
{
	edges_realtime();
	if (write(on_fd, "0", 1) != 1)
		die("%s/tracing_on: %s", instance, strerror(errno));
	*t1 = mono_ns();
	read_stats(stats_fd, s1);
	edges_done();
	drain(-1);
}

/*
 * The window's inside, at normal priority: trace_pipe read as it fills,
 * until the command @pid exits (*@status), @deadline (CLOCK_MONOTONIC,
 * 0: none) passes or a signal asks to stop.  Returns 1 if the command
 * exited.
 */
static int window_run(pid_t pid, int *status, uint64_t deadline)
{
	/*
	 * Read in batches, every 100 ms (a signal or the command's end
	 * cuts the wait short): the kernel formats the events as they are
	 * read, and many small reads cost more than a few large ones.
	 */
	struct timespec nap = { 0, 100 * 1000 * 1000 };

	int behind = 0;

	edges_done();
	for (;;) {
		if (!behind)
			nanosleep(&nap, NULL);
		/*
		 * A reader behind the events must still see the command's
		 * end: at most 4 MiB of text between two looks.
		 */
		behind = drain(64);
		if (stop_sig)
			return 0;
		if (pid > 0 && waitpid(pid, status, WNOHANG) == pid)
			return 1;
		if (deadline && mono_ns() >= deadline)
			return 0;
	}
}

int main(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "cleanup", no_argument, NULL, 'C' },
		{ "help", no_argument, NULL, 'h' },
		{ }
	};
	const char *meta_path = NULL, *workload = NULL, *pid_path = NULL;
	const char *a1, *a2, *a3, *a4, *env;
	unsigned long bufkb = 0;
	double seconds = 0;
	struct avc_stats s0, s1, d;
	struct avc_trace_header h;
	struct utsname uts;
	struct rusage ru = { 0 };
	char def[1024], line[1024], path[1024], thr[32] = "";
	int opt, stats_fd, status = 0, major = 0, minor = 0, new_args;
	int init_mode = 0, cmd_done = 0, do_cleanup = 0, nreq_probes = 0;
	int h_entries = -1, h_used = -1, h_slots = -1, h_chain = -1;
	uint64_t t0, t1, overrun, kmissed, diff, deadline = 0;
	unsigned int i;
	int complete;
	FILE *meta = NULL, *tr;
	pid_t pid = 0;
	char *end;

	while ((opt = getopt_long(argc, argv, "+o:m:b:w:i:s:lh", longopts,
				  NULL)) != -1) {
		switch (opt) {
		case 'o':
			out_path = optarg;
			break;
		case 'm':
			meta_path = optarg;
			break;
		case 'b':
			bufkb = strtoul(optarg, &end, 0);
			if (*end || !bufkb)
				die("-b %s: a size in KiB", optarg);
			break;
		case 'w':
			workload = optarg;
			break;
		case 'i':
			init_mode = 1;
			pid_path = optarg;
			break;
		case 's':
			seconds = strtod(optarg, &end);
			if (*end || end == optarg || !(seconds > 0))
				die("-s %s: a number of seconds", optarg);
			break;
		case 'C':
			do_cleanup = 1;
			break;
		case 'l':
			lean = 1;
			break;
		case 'h':
			print_usage(stdout);
			return 0;
		default:
			print_usage(stderr);
			return 2;
		}
	}
	if (!do_cleanup && (!out_path || (init_mode && optind >= argc))) {
		print_usage(stderr);
		return 2;
	}
	if (!workload)
		workload = optind < argc ? argv[optind] : "host";

	/* What it needs, checked before anything is touched. */
	env = getenv("AVC_RECORD_ROOT");
	if (env)
		snprintf(root, sizeof(root), "%s", env);
	snprintf(cache_stats, sizeof(cache_stats), "%s" SELINUXFS
		 "/avc/cache_stats", root);
	snprintf(hash_stats, sizeof(hash_stats), "%s" SELINUXFS
		 "/avc/hash_stats", root);
	if (!do_cleanup && access(cache_stats, F_OK))
		die("SELinux is not enabled on this kernel (no selinuxfs: %s): %s",
		    cache_stats, "there is no AVC to record");
	find_tracefs();
	if (do_cleanup)
		return cleanup_stale();
	uname(&uts);
	if (sscanf(uts.release, "%d.%d", &major, &minor) != 2)
		die("cannot read the kernel release %s", uts.release);
	if (strcmp(uts.machine, "x86_64"))
		die("probe definitions are for x86-64 only, not %s",
		    uts.machine);
	if (geteuid())
		die("needs root: tracefs and kprobe events are root's");
	new_args = major > 6 || (major == 6 && minor >= 4);
	find_symbols();

	/* From here on, whatever ends the run removes what it made. */
	owner = getpid();
	atexit(cleanup);
	catch_stops(init_mode);
	snprintf(group, sizeof(group), PROG "_%d", (int)getpid());
	snprintf(path, sizeof(path), "%s/instances/%s", tracefs, group);
	if (mkdir(path, 0700))
		die("cannot make the tracefs instance %s: %s%s", path,
		    strerror(errno), errno == EEXIST ?
		    " (a recorder killed by SIGKILL? avc_record --cleanup)" : "");
	snprintf(instance, sizeof(instance), "%s", path);
	/* A new instance traces at once: not until the window opens. */
	tracefs_must(instance, "tracing_on", "0", O_TRUNC);
	tracefs_must(instance, "trace_clock", "mono", O_TRUNC);
	bufkb = buffer_kb(bufkb);
	snprintf(def, sizeof(def), "%lu", bufkb);
	tracefs_must(instance, "buffer_size_kb", def, O_TRUNC);
	/* Full: drop the new events (counted) rather than overwrite. */
	tracefs_must(instance, "options/overwrite", "0", O_TRUNC);

	/* The key in the argument registers after the optional state. */
	a1 = new_args ? "%di" : "%si";
	a2 = new_args ? "%si" : "%dx";
	a3 = new_args ? "%dx" : "%cx";
	a4 = new_args ? "%cx" : "%r8";
	snprintf(def, sizeof(def), "avc_lookup " KEY_ARGS("%s", "%s", "%s"),
		 a1, a2, a3);
	add_probe_must("p", "lookup", def);
	/*
	 * The return: the node (NULL on a miss) and, on a hit, its
	 * decision; on a miss the dereferences fault and their fields are
	 * not read.  64 instances in flight, so that nested and concurrent
	 * lookups are not missed (kprobe_profile's misses are counted).
	 */
	if (!lean) {
		probe_with_decision(def, sizeof(def),
				    "avc_lookup node=$retval:x64", "$retval", 12);
		add_probe_must("r64", "lookup_ret", def);
	}
	/*
	 * A miss's decision, as avc_insert() puts it in the new node.  A
	 * kernel that inlines avc_node_populate() (make upstream's, built
	 * allnoconfig) has no symbol to probe: its misses then go without
	 * their decisions.
	 */
	if (have_symbol("avc_node_populate")) {
		probe_with_decision(def, sizeof(def), "avc_node_populate "
				    KEY_ARGS("%si", "%dx", "%cx"), "%r8", 0);
		add_probe_must("p", "populate", def);
	} else {
		printf(PROG ": avc_node_populate is inlined: %s\n",
		       "misses carry no decision");
	}
	/* What was asked for, where the lookups come from. */
	for (i = 0; !lean && i < ARRAY_SIZE(req_funcs); i++) {
		char name[8];

		if (!have_symbol(req_funcs[i]))
			continue;
		snprintf(def, sizeof(def), "%s " KEY_ARGS("%s", "%s", "%s")
			 " requested=%s:u32", req_funcs[i], a1, a2, a3, a4);
		snprintf(name, sizeof(name), "req%u", i);
		/*
		 * avc_has_perm_noaudit() is inline, so notrace, and
		 * trace_kprobe refuses notrace functions unless built with
		 * KPROBE_EVENTS_ON_NOTRACE: its direct callers' lookups
		 * then go without their permissions (counted).
		 */
		if (add_probe("p", name, def)) {
			printf(PROG ": %s cannot be probed: %s\n", req_funcs[i],
			       "lookups through it carry no requested permissions");
			continue;
		}
		nreq_probes++;
	}
	snprintf(def, sizeof(def), "avc_ss_reset seqno=%s:u32", a1);
	add_probe_must("p", "reset", def);
	/*
	 * avc_update_node() is static and cloned by the compiler (6.1:
	 * avc_update_node.isra.0, its arguments rearranged), so the update
	 * is caught at its caller: avc_denied(), which in permissive mode
	 * (the guest's) grants the denied permissions by updating the
	 * entry of (ssid, tsid, tclass) in place, and has requested.
	 * Not caught: avc_has_extended_perms()'s updates adding an ioctl's
	 * extended permissions to an entry.
	 */
	have_update = have_symbol("avc_denied");
	if (have_update) {
		snprintf(def, sizeof(def), "avc_denied " KEY_ARGS("%s", "%s", "%s")
			 " requested=%s:u32", a1, a2, a3, a4);
		add_probe_must("p", "update", def);
		/*
		 * Whether it granted: 0 if it did (permissive, the system's
		 * or the domain's), -EACCES if it denied (enforcing, or
		 * AVC_STRICT).
		 */
		add_probe_must("r64", "update_ret", "avc_denied ret=$retval:s32");
	}
	snprintf(def, sizeof(def), "events/%s/enable", group);
	tracefs_must(instance, def, "1", O_TRUNC);

	/* Everything the window needs, opened before it. */
	stats_fd = open(cache_stats, O_RDONLY | O_CLOEXEC);
	if (stats_fd < 0)
		die("%s: %s", cache_stats, strerror(errno));
	snprintf(path, sizeof(path), "%s/tracing_on", instance);
	on_fd = open(path, O_WRONLY | O_CLOEXEC);
	if (on_fd < 0)
		die("%s: %s", path, strerror(errno));
	snprintf(path, sizeof(path), "%s/trace_pipe", instance);
	pipe_fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
	if (pipe_fd < 0)
		die("%s: %s", path, strerror(errno));
	snprintf(path, sizeof(path), "%s" SELINUXFS "/avc", root);
	read_file(path, "cache_threshold", thr, sizeof(thr));
	thr[strcspn(thr, "\n")] = '\0';
	out = fopen(out_path, "we");
	if (!out)
		die("%s: %s", out_path, strerror(errno));
	/* No magic until the end: a trace cut short is never taken whole. */
	memset(&h, 0, sizeof(h));
	if (fwrite(&h, sizeof(h), 1, out) != 1)
		die("%s: %s", out_path, strerror(errno));
	if (meta_path) {
		meta = fopen(meta_path, "we");
		if (!meta)
			die("%s: %s", meta_path, strerror(errno));
	}
	/* A signal before this: the window closes as soon as it opens. */
	fflush(stdout);

	/* The window. */
	if (init_mode) {
		int go[2];
		FILE *pf;
		char c;

		if (pipe(go))
			die("pipe: %s", strerror(errno));
		pid = fork();
		if (pid < 0)
			die("fork: %s", strerror(errno));
		if (pid) {
			/* The first process: CMD, once the window is open. */
			owner = 0;
			close(go[1]);
			if (read(go[0], &c, 1) != 1)
				die("the recorder did not open the window");
			close(go[0]);
			signal(SIGUSR1, SIG_DFL);
			signal(SIGPIPE, SIG_DFL);	/* ignored is inherited */
			execv(argv[optind], argv + optind);
			die("%s: %s", argv[optind], strerror(errno));
		}
		owner = getpid();
		close(go[0]);
		setsid();
		pf = fopen(pid_path, "w");
		if (!pf || fprintf(pf, "%d\n", (int)getpid()) < 0 || fclose(pf))
			die("%s: %s", pid_path, strerror(errno));
		window_open(stats_fd, on_fd, &s0, &t0);
		if (write(go[1], "x", 1) != 1)
			die("pipe: %s", strerror(errno));
		close(go[1]);
		pid = 0;
		window_run(0, &status, 0);
		stop_sig = 0;	/* SIGUSR1 is this window's end */
	} else {
		window_open(stats_fd, on_fd, &s0, &t0);
		printf(PROG ": recording%s%s\n", optind < argc ? " " : "",
		       optind < argc ? argv[optind] : "");
		fflush(stdout);
		if (optind < argc) {
			pid = fork();
			if (pid < 0)
				die("fork: %s", strerror(errno));
			if (!pid) {
				signal(SIGPIPE, SIG_DFL);
				execvp(argv[optind], argv + optind);
				fprintf(stderr, PROG ": %s: %s\n", argv[optind],
					strerror(errno));
				_exit(127);
			}
		}
		if (seconds)
			deadline = t0 + (uint64_t)(seconds * 1e9);
		cmd_done = window_run(pid, &status, deadline);
	}
	window_close(stats_fd, on_fd, &s1, &t1);
	/* The window is closed: from here on, anything goes. */

	overrun = buffer_losses() + nlost_lines;
	kmissed = kprobe_misses();

	/* The kernel cache's shape at the end (read after the window). */
	tr = fopen(hash_stats, "re");
	if (tr) {
		while (fgets(line, sizeof(line), tr)) {
			if (sscanf(line, "entries: %d", &h_entries) == 1 ||
			    sscanf(line, "buckets used: %d/%d", &h_used,
				   &h_slots) == 2 ||
			    sscanf(line, "longest chain: %d", &h_chain) == 1)
				continue;
		}
		fclose(tr);
	}
	cleanup();

	while (flushed < nrec)
		flush_one();
	memcpy(h.magic, AVC_TRACE_MAGIC, sizeof(h.magic));
	h.version = htole32(AVC_TRACE_VERSION);
	h.record_size = htole32(sizeof(struct avc_trace_record2));
	h.nrecords = htole64(nrec);
	if (fseek(out, 0, SEEK_SET) || fwrite(&h, sizeof(h), 1, out) != 1 ||
	    fclose(out))
		die("%s: %s", out_path, strerror(errno));

	d.lookups = s1.lookups - s0.lookups;
	d.hits = s1.hits - s0.hits;
	d.misses = s1.misses - s0.misses;
	d.allocations = s1.allocations - s0.allocations;
	d.reclaims = s1.reclaims - s0.reclaims;
	d.frees = s1.frees - s0.frees;
	diff = nlookup > d.lookups ? nlookup - d.lookups : d.lookups - nlookup;
	complete = diff * 1000 <= d.lookups && d.lookups && !overrun;

	if (init_mode)
		printf(PROG ": workload %s (an init) ended by SIGUSR1 after %.3f s\n",
		       workload, (t1 - t0) / 1e9);
	else if (cmd_done)
		printf(PROG ": workload %s exited %d after %.3f s\n", workload,
		       WIFEXITED(status) ? WEXITSTATUS(status) :
					   128 + WTERMSIG(status),
		       (t1 - t0) / 1e9);
	else if (stop_sig)
		printf(PROG ": interrupted (signal %d) after %.3f s%s\n",
		       (int)stop_sig, (t1 - t0) / 1e9,
		       pid > 0 ? "; the command goes on, unrecorded" : "");
	else
		printf(PROG ": %.3f s recorded%s\n", (t1 - t0) / 1e9,
		       pid > 0 ? "; the command goes on, unrecorded" : "");
	printf(PROG
	       ": kernel AVC over the window: lookups %llu hits %llu misses %llu allocations %llu reclaims %llu frees %llu (hit ratio %.2f %%)\n",
	       (unsigned long long)d.lookups, (unsigned long long)d.hits,
	       (unsigned long long)d.misses,
	       (unsigned long long)d.allocations,
	       (unsigned long long)d.reclaims, (unsigned long long)d.frees,
	       d.lookups ? 100.0 * d.hits / d.lookups : 0.0);
	printf(PROG
	       ": recorded %llu events: %llu lookups, %llu resets, %llu updates%s; %zu distinct keys; ring buffer %lu KiB a CPU, events lost %llu, kprobe misses %llu\n",
	       (unsigned long long)nrec, (unsigned long long)nlookup,
	       (unsigned long long)nreset, (unsigned long long)nupdate,
	       have_update ? "" : " (avc_denied not probed)", nkeys, bufkb,
	       (unsigned long long)overrun, (unsigned long long)kmissed);
	printf(PROG
	       ": checks that found permissions denied: %llu granted anyway (permissive), %llu denied\n",
	       (unsigned long long)ngranted, (unsigned long long)ndenied);
	printf(PROG
	       ": kernel AVC at the end: entries %d, buckets used %d/%d, longest chain %d\n",
	       h_entries, h_used, h_slots, h_chain);
	printf(PROG
	       ": the kernel's answers: %llu hits, %llu misses (kernel counted %llu and %llu); %llu lookups without a decision, %llu without their permissions (%u probes), %llu returns unmatched\n",
	       (unsigned long long)nhit, (unsigned long long)nmiss,
	       (unsigned long long)d.hits, (unsigned long long)d.misses,
	       (unsigned long long)nundecided,
	       (unsigned long long)(nlookup - nrequested), nreq_probes,
	       (unsigned long long)nunmatched);
	if (miss_cost_n)
		printf(PROG ": a miss to its insertion: %.1f µs on average over %llu misses %s\n",
		       miss_cost_ns / 1e3 / miss_cost_n,
		       (unsigned long long)miss_cost_n, "(kprobes included)");
	if (!getrusage(RUSAGE_SELF, &ru))
		printf(PROG ": at most %ld KiB of memory, %.2f s of CPU\n",
		       ru.ru_maxrss, ru.ru_utime.tv_sec + ru.ru_stime.tv_sec +
		       (ru.ru_utime.tv_usec + ru.ru_stime.tv_usec) / 1e6);
	printf(PROG
	       ": completeness: recorded lookups %llu, kernel lookups delta %llu, difference %llu (%.4f %%)%s: %s\n",
	       (unsigned long long)nlookup, (unsigned long long)d.lookups,
	       (unsigned long long)diff,
	       d.lookups ? 100.0 * diff / d.lookups : 0.0,
	       overrun ? ", events lost (a larger -b)" : "",
	       complete ? "COMPLETE" : "INCOMPLETE");

	if (meta) {
		fprintf(meta,
			"kernel=%s\nworkload=%s\nduration_s=%.3f\nrecords=%llu\n"
			"lookups=%llu\nresets=%llu\nupdates=%llu\n"
			"updates_probed=%s\ndistinct_keys=%zu\n"
			"kernel_lookups=%llu\nkernel_hits=%llu\n"
			"kernel_misses=%llu\nkernel_allocations=%llu\n"
			"kernel_reclaims=%llu\nkernel_frees=%llu\n"
			"ring_buffer_overruns=%llu\nkprobe_missed=%llu\n"
			"kernel_end_entries=%d\nkernel_end_buckets_used=%d\n"
			"kernel_end_slots=%d\nkernel_end_longest_chain=%d\n"
			"trace_version=%d\nrecorded_hits=%llu\n"
			"recorded_misses=%llu\nundecided_lookups=%llu\n"
			"unrequested_lookups=%llu\nunmatched_returns=%llu\n"
			"updates_granted=%llu\nupdates_denied=%llu\n",
			uts.release, workload, (t1 - t0) / 1e9,
			(unsigned long long)nrec, (unsigned long long)nlookup,
			(unsigned long long)nreset,
			(unsigned long long)nupdate, have_update ? "yes" : "no",
			nkeys, (unsigned long long)d.lookups,
			(unsigned long long)d.hits,
			(unsigned long long)d.misses,
			(unsigned long long)d.allocations,
			(unsigned long long)d.reclaims,
			(unsigned long long)d.frees,
			(unsigned long long)overrun,
			(unsigned long long)kmissed, h_entries, h_used,
			h_slots, h_chain, AVC_TRACE_VERSION,
			(unsigned long long)nhit, (unsigned long long)nmiss,
			(unsigned long long)nundecided,
			(unsigned long long)(nlookup - nrequested),
			(unsigned long long)nunmatched,
			(unsigned long long)ngranted,
			(unsigned long long)ndenied);
		fprintf(meta, "buffer_kb=%lu\ninterrupted=%d\nlean=%d\n", bufkb,
			stop_sig ? 1 : 0, lean);
		fprintf(meta, "times_raised=%llu\ntimes_raised_max_us=%.3f\n",
			(unsigned long long)ts_adjusted, ts_adjust_max / 1e3);
		fprintf(meta, "recorder_maxrss_kb=%ld\nrecorder_cpu_s=%.2f\n",
			ru.ru_maxrss, ru.ru_utime.tv_sec + ru.ru_stime.tv_sec +
			(ru.ru_utime.tv_usec + ru.ru_stime.tv_usec) / 1e6);
		if (thr[0])
			fprintf(meta, "kernel_cache_threshold=%s\n", thr);
		if (miss_cost_n)
			fprintf(meta, "miss_cost_us=%.3f\nmiss_cost_n=%llu\n",
				miss_cost_ns / 1e3 / miss_cost_n,
				(unsigned long long)miss_cost_n);
		if (fclose(meta))
			die("%s: %s", meta_path, strerror(errno));
	}
	return complete ? 0 : 3;
}
