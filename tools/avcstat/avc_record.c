// SPDX-License-Identifier: GPL-2.0
/*
 * avc_record - record every AVC lookup the running kernel makes while a
 * command runs, as an AVC trace (tools/avcstat/avc_trace_format.h)
 *
 *   avc_record -o TRACE [-m META] [-b KB] [-w NAME] [-i PIDFILE]
 *              -- CMD [ARGS...]
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
 *    and the CPU;
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
 *    has no decision (no AVC_TRACE_F_DECIDED).
 *
 * Lookups nest (an interrupt's inside a task's): the joins keep a stack
 * per task.
 *
 * The window: the files it needs (selinuxfs's avc/cache_stats, tracefs's
 * tracing_on, the output files) are opened before it starts, so its own
 * bookkeeping asks the AVC nothing inside the window (SELinux does not
 * consult the AVC again on reads and writes of an already-open file).
 * It reads cache_stats, turns tracing on, runs CMD, waits for it, turns
 * tracing off and reads cache_stats again.  Every lookup of the system in
 * that window, CMD's and everyone else's, is recorded and counted.
 *
 * With -i PIDFILE, CMD is an init (systemd) that must be the first
 * process: avc_record, run as that process, forks a recorder child that
 * opens the window, then execs CMD; the child writes its pid to PIDFILE
 * and closes the window when it gets SIGUSR1 (a unit ordered after
 * multi-user.target sends it), so the window is the boot.
 *
 * Then it prints the completeness line: the lookups recorded beside the
 * delta of the kernel's own lookups counter (summed over the CPUs), and
 * fails if they differ by more than 0.1 %.  META gets the metadata
 * (key=value lines): kernel, workload, duration, lookups, distinct keys,
 * the kernel AVC's counters over the window and its hash_stats at the end.
 *
 * Probe definitions depend on the kernel: up to 6.3 the AVC functions take
 * a struct selinux_state * (6.1: struct selinux_avc *) first, so ssid,
 * tsid and tclass are in the second to fourth argument registers (x86-64:
 * %si, %dx, %cx); from 6.4 on in the first three.  Only x86-64.
 */
#define _GNU_SOURCE
#include <endian.h>
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sched.h>
#include <signal.h>
#include <sys/utsname.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "avc_trace_format.h"

#define PROG		"avc_record"
#define TRACEFS		"/sys/kernel/tracing"
#define CACHE_STATS	"/sys/fs/selinux/avc/cache_stats"
#define HASH_STATS	"/sys/fs/selinux/avc/hash_stats"
#define GROUP		"avc_record"
#define ARRAY_SIZE(a)	(sizeof(a) / sizeof((a)[0]))
/* A probe's key fields, from the registers given. */
#define KEY_ARGS(s, t, c)	"ssid=" s ":u32 tsid=" t ":u32 tclass=" c ":u16"

/* The kernel AVC's counters, summed over the CPUs. */
struct avc_stats {
	uint64_t lookups, hits, misses, allocations, reclaims, frees;
};

static void die(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	fprintf(stderr, PROG ": ");
	vfprintf(stderr, fmt, ap);
	fputc('\n', stderr);
	va_end(ap);
	exit(1);
}

/* Write STR to the tracefs file NAME; 0, or -errno. */
static int tracefs_write(const char *name, const char *str, int flags)
{
	char path[256];
	ssize_t n;
	int fd, err = 0;

	snprintf(path, sizeof(path), TRACEFS "/%s", name);
	fd = open(path, O_WRONLY | flags);
	if (fd < 0)
		return -errno;
	n = write(fd, str, strlen(str));
	if (n < 0)
		err = -errno;
	close(fd);
	return err;
}

static void tracefs_must(const char *name, const char *str, int flags)
{
	int err = tracefs_write(name, str, flags);

	if (err)
		die("writing '%s' to " TRACEFS "/%s: %s", str, name,
		    strerror(-err));
}

/* Is SYM a function of the running kernel, under that exact name? */
static int have_symbol(const char *sym)
{
	char line[512], name[256];
	FILE *f = fopen("/proc/kallsyms", "r");
	int found = 0;

	if (!f)
		die("/proc/kallsyms: %s", strerror(errno));
	while (fgets(line, sizeof(line), f)) {
		if (sscanf(line, "%*s %*s %255s", name) == 1 &&
		    !strcmp(name, sym)) {
			found = 1;
			break;
		}
	}
	fclose(f);
	return found;
}

/* Parse cache_stats (read from FD at offset 0) into S. */
static void read_stats(int fd, struct avc_stats *s)
{
	char buf[16384], *p, *nl;
	ssize_t n, len = 0;
	unsigned long long v[6];

	if (lseek(fd, 0, SEEK_SET) < 0)
		die(CACHE_STATS ": lseek: %s", strerror(errno));
	while ((n = read(fd, buf + len, sizeof(buf) - 1 - len)) > 0)
		len += n;
	if (n < 0)
		die(CACHE_STATS ": %s", strerror(errno));
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

	if (sched_setscheduler(0, SCHED_FIFO | SCHED_RESET_ON_FORK, &sp))
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
 * -i: the window of a boot.  CMD (an init) must stay this process, the
 * first one, so the recording goes on in a child.  The child opens the
 * window, then lets this process exec CMD, and closes the window when it
 * gets SIGUSR1 (the workload's end, e.g. a unit ordered after
 * multi-user.target); its pid is in PIDFILE, written before the window.
 * Returns in the child only, with the window closed.
 */
static void window_init_mode(char **cmd, int stats_fd, int on_fd,
			     const char *pid_path, struct avc_stats *s0,
			     struct avc_stats *s1, uint64_t *t0, uint64_t *t1)
{
	sigset_t usr1;
	int go[2], sig;
	FILE *pf;
	pid_t pid;
	char c;

	sigemptyset(&usr1);
	sigaddset(&usr1, SIGUSR1);
	if (pipe(go))
		die("pipe: %s", strerror(errno));
	pid = fork();
	if (pid < 0)
		die("fork: %s", strerror(errno));
	if (pid) {
		/* The first process: CMD, once the window is open. */
		close(go[1]);
		if (read(go[0], &c, 1) != 1)
			die("the recorder did not open the window");
		close(go[0]);
		execv(cmd[0], cmd);
		die("%s: %s", cmd[0], strerror(errno));
	}
	close(go[0]);
	if (sigprocmask(SIG_BLOCK, &usr1, NULL))
		die("sigprocmask: %s", strerror(errno));
	setsid();
	edges_realtime();
	pf = fopen(pid_path, "w");
	if (!pf || fprintf(pf, "%d\n", (int)getpid()) < 0 || fclose(pf))
		die("%s: %s", pid_path, strerror(errno));

	read_stats(stats_fd, s0);
	*t0 = mono_ns();
	if (write(on_fd, "1", 1) != 1)
		die("tracing_on: %s", strerror(errno));
	if (write(go[1], "x", 1) != 1)
		die("pipe: %s", strerror(errno));
	close(go[1]);
	while (sigwait(&usr1, &sig))
		;
	if (write(on_fd, "0", 1) != 1)
		die("tracing_on: %s", strerror(errno));
	*t1 = mono_ns();
	read_stats(stats_fd, s1);
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

/* The records, kept until the trace is read whole: returns patch them. */
static struct avc_trace_record2 *records;
static size_t nrecords_cap;

static void records_add(const struct avc_trace_record2 *r)
{
	size_t n = le32toh(r->seq);

	if (n == nrecords_cap) {
		nrecords_cap = nrecords_cap ? nrecords_cap * 2 : 65536;
		records = realloc(records, nrecords_cap * sizeof(*records));
		if (!records)
			die("out of memory");
	}
	records[n] = *r;
}

/*
 * What each task has in flight: requests not yet looked up, lookups not
 * yet returned, misses not yet inserted; stacks, since an interrupt's
 * lookup nests in the task it interrupted.  The idle task (pid 0) is one
 * per CPU.
 */
#define TASK_DEPTH	8
#define TASKS		65536

struct req {
	uint32_t ssid, tsid, requested;
	uint16_t tclass;
};

struct task {
	int pid, cpu, used;
	int nreq, nlookup, nmiss, nupdate;
	struct req req[TASK_DEPTH];
	uint64_t lookup[TASK_DEPTH];	/* record indexes */
	uint64_t miss[TASK_DEPTH];
	uint64_t update[TASK_DEPTH];
};

static struct task tasks[TASKS];

static struct task *task_of(int pid, int cpu)
{
	unsigned int h = (unsigned int)pid * 2654435761u;
	struct task *t;
	int n;

	if (pid)
		cpu = -1;
	h ^= (unsigned int)(cpu + 1) * 40503u;
	for (n = 0; n < TASKS; n++) {
		t = &tasks[(h + n) % TASKS];
		if (!t->used) {
			t->used = 1;
			t->pid = pid;
			t->cpu = cpu;
			return t;
		}
		if (t->pid == pid && t->cpu == cpu)
			return t;
	}
	die("more than %d tasks", TASKS);
	return NULL;
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

static struct avc_trace_record2 *task_pop_lookup(struct task *t)
{
	if (!t->nlookup)
		return NULL;
	return &records[t->lookup[--t->nlookup]];
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
	return &records[t->update[--t->nupdate]];
}

static void task_push_miss(struct task *t, struct avc_trace_record2 *r)
{
	if (t->nmiss == TASK_DEPTH) {
		memmove(t->miss, t->miss + 1, sizeof(t->miss[0]) * (TASK_DEPTH - 1));
		t->nmiss--;
	}
	t->miss[t->nmiss++] = le32toh(r->seq);
}

/* The miss a populate inserts: the newest of this task's, by key. */
static struct avc_trace_record2 *task_pop_miss(struct task *t, const char *p)
{
	uint32_t ssid = (uint32_t)field(p, "ssid");
	uint32_t tsid = (uint32_t)field(p, "tsid");
	uint16_t tclass = (uint16_t)field(p, "tclass");
	struct avc_trace_record2 *r;
	int i;

	for (i = t->nmiss - 1; i >= 0; i--) {
		r = &records[t->miss[i]];
		if (le32toh(r->ssid) == ssid && le32toh(r->tsid) == tsid &&
		    le16toh(r->tclass) == tclass) {
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
	fprintf(f, "usage: %s -o TRACE [-m META] [-b KB] [-w NAME] [-i PIDFILE]\n"
		"           -- CMD [ARGS...]\n"
		"  -o TRACE  the recorded trace (avc_trace_format.h format)\n"
		"  -m META   its metadata, key=value lines\n"
		"  -b KB     tracefs ring buffer per CPU (default 262144)\n"
		"  -w NAME   the workload's name, for META (default: CMD)\n"
		"  -i PIDFILE  CMD is an init: exec it in this process once the\n"
		"            window is open; a child records until SIGUSR1\n",
		PROG);
}

int main(int argc, char **argv)
{
	const char *out_path = NULL, *meta_path = NULL, *workload = NULL;
	const char *pid_path = NULL;
	int init_mode = 0;
	unsigned long bufkb = 262144;
	struct avc_stats s0, s1, d;
	struct avc_trace_header h;
	struct avc_trace_record2 r;
	struct utsname uts;
	char def[512], line[1024], path[128];
	int opt, stats_fd, on_fd, status, major = 0, minor = 0, new_args;
	int have_update, cpu, ncpus, nreq_probes = 0;
	const char *a1, *a2, *a3, *a4;
	unsigned int i;
	uint64_t nhit = 0, nmiss = 0, nundecided = 0, nrequested = 0;
	uint64_t nunmatched = 0, ngranted = 0, ndenied = 0;
	int h_entries = -1, h_used = -1, h_slots = -1, h_chain = -1;
	uint64_t t0, t1, nrec = 0, nlookup = 0, nreset = 0, nupdate = 0;
	uint64_t overrun = 0, kmissed = 0, diff;
	FILE *out, *meta = NULL, *tr;
	pid_t pid;

	while ((opt = getopt(argc, argv, "o:m:b:w:i:h")) != -1) {
		switch (opt) {
		case 'o':
			out_path = optarg;
			break;
		case 'm':
			meta_path = optarg;
			break;
		case 'b':
			bufkb = strtoul(optarg, NULL, 0);
			break;
		case 'w':
			workload = optarg;
			break;
		case 'i':
			init_mode = 1;
			pid_path = optarg;
			break;
		case 'h':
			print_usage(stdout);
			return 0;
		default:
			print_usage(stderr);
			return 2;
		}
	}
	if (!out_path || optind >= argc) {
		print_usage(stderr);
		return 2;
	}
	if (!workload)
		workload = argv[optind];

	uname(&uts);
	if (sscanf(uts.release, "%d.%d", &major, &minor) != 2)
		die("cannot read the kernel release %s", uts.release);
	if (strcmp(uts.machine, "x86_64"))
		die("probe definitions are for x86-64 only, not %s",
		    uts.machine);
	new_args = major > 6 || (major == 6 && minor >= 4);

	/* The probes, on a quiet tracefs. */
	tracefs_must("tracing_on", "0", O_TRUNC);
	tracefs_write("events/" GROUP "/enable", "0", O_TRUNC);
	tracefs_must("kprobe_events", "", O_TRUNC);
	tracefs_must("trace", "", O_TRUNC);
	tracefs_must("trace_clock", "mono", O_TRUNC);
	snprintf(def, sizeof(def), "%lu", bufkb);
	tracefs_must("buffer_size_kb", def, O_TRUNC);
	/* The key in the argument registers after the optional state. */
	a1 = new_args ? "%di" : "%si";
	a2 = new_args ? "%si" : "%dx";
	a3 = new_args ? "%dx" : "%cx";
	a4 = new_args ? "%cx" : "%r8";
	snprintf(def, sizeof(def),
		 "p:" GROUP "/lookup avc_lookup ssid=%s:u32 tsid=%s:u32 tclass=%s:u16",
		 a1, a2, a3);
	tracefs_must("kprobe_events", def, O_APPEND);
	/*
	 * The return: the node (NULL on a miss) and, on a hit, its
	 * decision; on a miss the dereferences fault and their fields are
	 * not read.  64 instances in flight, so that nested and concurrent
	 * lookups are not missed (kprobe_profile's misses are counted).
	 */
	probe_with_decision(def, sizeof(def),
			    "r64:" GROUP "/lookup_ret avc_lookup node=$retval:x64",
			    "$retval", 12);
	tracefs_must("kprobe_events", def, O_APPEND);
	/*
	 * A miss's decision, as avc_insert() puts it in the new node.  A
	 * kernel that inlines avc_node_populate() (make upstream's, built
	 * allnoconfig) has no symbol to probe: its misses then go without
	 * their decisions.
	 */
	if (have_symbol("avc_node_populate")) {
		probe_with_decision(def, sizeof(def),
				    "p:" GROUP "/populate avc_node_populate "
				    KEY_ARGS("%si", "%dx", "%cx"),
				    "%r8", 0);
		tracefs_must("kprobe_events", def, O_APPEND);
	} else {
		printf(PROG ": avc_node_populate is inlined: %s\n",
		       "misses carry no decision");
	}
	/* What was asked for, where the lookups come from. */
	for (i = 0; i < ARRAY_SIZE(req_funcs); i++) {
		if (!have_symbol(req_funcs[i]))
			continue;
		snprintf(def, sizeof(def),
			 "p:" GROUP "/req%u %s " KEY_ARGS("%s", "%s", "%s")
			 " requested=%s:u32", i, req_funcs[i], a1, a2, a3, a4);
		/*
		 * avc_has_perm_noaudit() is inline, so notrace, and
		 * trace_kprobe refuses notrace functions unless built with
		 * KPROBE_EVENTS_ON_NOTRACE: its direct callers' lookups
		 * then go without their permissions (counted).
		 */
		if (tracefs_write("kprobe_events", def, O_APPEND)) {
			printf(PROG ": %s cannot be probed: %s\n", req_funcs[i],
			       "lookups through it carry no requested permissions");
			continue;
		}
		nreq_probes++;
	}
	snprintf(def, sizeof(def), "p:" GROUP "/reset avc_ss_reset seqno=%s:u32",
		 a1);
	tracefs_must("kprobe_events", def, O_APPEND);
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
		snprintf(def, sizeof(def),
			 "%s ssid=%s:u32 tsid=%s:u32 tclass=%s:u16 requested=%s:u32",
			 "p:" GROUP "/update avc_denied", a1, a2, a3, a4);
		tracefs_must("kprobe_events", def, O_APPEND);
		/*
		 * Whether it granted: 0 if it did (permissive, the system's
		 * or the domain's), -EACCES if it denied (enforcing, or
		 * AVC_STRICT).
		 */
		tracefs_must("kprobe_events",
			     "r64:" GROUP "/update_ret avc_denied ret=$retval:s32",
			     O_APPEND);
	}
	tracefs_must("events/" GROUP "/enable", "1", O_TRUNC);

	/* Everything the window needs, opened before it. */
	stats_fd = open(CACHE_STATS, O_RDONLY);
	if (stats_fd < 0)
		die(CACHE_STATS ": %s (SELinux not enabled?)", strerror(errno));
	on_fd = open(TRACEFS "/tracing_on", O_WRONLY);
	if (on_fd < 0)
		die(TRACEFS "/tracing_on: %s", strerror(errno));
	out = fopen(out_path, "w");
	if (!out)
		die("%s: %s", out_path, strerror(errno));
	if (meta_path) {
		meta = fopen(meta_path, "w");
		if (!meta)
			die("%s: %s", meta_path, strerror(errno));
	}
	fflush(stdout);

	/* The window. */
	if (init_mode) {
		window_init_mode(argv + optind, stats_fd, on_fd, pid_path,
				 &s0, &s1, &t0, &t1);
		status = 0;
	} else {
		edges_realtime();
		read_stats(stats_fd, &s0);
		t0 = mono_ns();
		if (write(on_fd, "1", 1) != 1)
			die("tracing_on: %s", strerror(errno));
		pid = fork();
		if (pid < 0)
			die("fork: %s", strerror(errno));
		if (!pid) {
			execvp(argv[optind], argv + optind);
			fprintf(stderr, PROG ": %s: %s\n", argv[optind],
				strerror(errno));
			_exit(127);
		}
		while (waitpid(pid, &status, 0) < 0)
			if (errno != EINTR)
				die("waitpid: %s", strerror(errno));
		if (write(on_fd, "0", 1) != 1)
			die("tracing_on: %s", strerror(errno));
		t1 = mono_ns();
		read_stats(stats_fd, &s1);
	}
	/* The window is closed: from here on, anything goes. */
	edges_done();

	tracefs_must("events/" GROUP "/enable", "0", O_TRUNC);
	ncpus = (int)sysconf(_SC_NPROCESSORS_CONF);
	for (cpu = 0; cpu < ncpus; cpu++) {
		FILE *f;

		snprintf(path, sizeof(path), TRACEFS "/per_cpu/cpu%d/stats",
			 cpu);
		f = fopen(path, "r");
		if (!f)
			continue;
		while (fgets(line, sizeof(line), f)) {
			unsigned long long v;

			if (sscanf(line, "overrun: %llu", &v) == 1 ||
			    sscanf(line, "dropped events: %llu", &v) == 1)
				overrun += v;
		}
		fclose(f);
	}

	/* The kernel cache's shape at the end (read after the window). */
	tr = fopen(HASH_STATS, "r");
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

	/* Hits the kprobes could not handle (one already running...). */
	tr = fopen(TRACEFS "/kprobe_profile", "r");
	if (tr) {
		while (fgets(line, sizeof(line), tr)) {
			unsigned long long hits, missed;
			char name[128];

			if (sscanf(line, "%127s %llu %llu", name, &hits,
				   &missed) == 3 &&
			    !strncmp(name, GROUP "/", strlen(GROUP "/")))
				kmissed += missed;
		}
		fclose(tr);
	}

	/* The records, in the merged order of the ring buffers. */
	memset(&h, 0, sizeof(h));
	if (fwrite(&h, sizeof(h), 1, out) != 1)
		die("%s: %s", out_path, strerror(errno));
	tr = fopen(TRACEFS "/trace", "r");
	if (!tr)
		die(TRACEFS "/trace: %s", strerror(errno));
	while (fgets(line, sizeof(line), tr)) {
		struct task *t;
		const char *p;
		long long ssid, tsid, tclass;
		uint64_t ts;
		int pid;

		if (line[0] == '#')
			continue;
		if (parse_context(line, &pid, &cpu, &ts, &p))
			continue;
		t = task_of(pid, cpu);
		if (strstr(p, " lookup_ret: ")) {
			struct avc_trace_record2 *lr = task_pop_lookup(t);

			if (!lr) {
				nunmatched++;
				continue;
			}
			if (strtoull(field_str(p, "node"), NULL, 0)) {
				lr->flags |= AVC_TRACE_F_HIT | AVC_TRACE_F_DECIDED;
				set_decision(lr, p);
				nhit++;
			} else {
				task_push_miss(t, lr);
				nmiss++;
			}
			continue;
		}
		if (strstr(p, " update_ret: ")) {
			struct avc_trace_record2 *ur = task_pop_update(t);

			if (!ur) {
				nunmatched++;
				continue;
			}
			if (!strtoll(field_str(p, "ret"), NULL, 0)) {
				ur->flags |= AVC_TRACE_F_GRANTED;
				ngranted++;
			} else {
				ndenied++;
			}
			continue;
		}
		if (strstr(p, " populate: ")) {
			struct avc_trace_record2 *mr = task_pop_miss(t, p);

			if (mr) {
				mr->flags |= AVC_TRACE_F_DECIDED;
				set_decision(mr, p);
			}
			continue;
		}
		if (strstr(p, " req")) {
			const char *q = strstr(p, " req");

			if (q[4] >= '0' && q[4] <= '9' && q[5] == ':') {
				task_push_req(t, p);
				continue;
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
			continue;
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
		r.ts_ns = htole64(ts);
		r.seq = htole32((uint32_t)nrec);
		r.cpu = htole16((uint16_t)cpu);
		if (r.kind == AVC_TRACE_LOOKUP &&
		    task_pop_req(t, &r))
			nrequested++;
		records_add(&r);
		if (r.kind == AVC_TRACE_LOOKUP)
			task_push_lookup(t, nrec);
		if (r.kind == AVC_TRACE_UPDATE)
			task_push_update(t, nrec);
		nrec++;
	}
	fclose(tr);
	tracefs_must("trace", "", O_TRUNC);
	tracefs_must("kprobe_events", "", O_TRUNC);
	for (i = 0; i < nrec; i++) {
		if (records[i].kind == AVC_TRACE_LOOKUP &&
		    !(records[i].flags & AVC_TRACE_F_DECIDED))
			nundecided++;
	}
	if (fwrite(records, sizeof(*records), nrec, out) != nrec)
		die("%s: %s", out_path, strerror(errno));

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

	if (init_mode)
		printf(PROG ": workload %s (an init) ended by SIGUSR1 after %.3f s\n",
		       workload, (t1 - t0) / 1e9);
	else
		printf(PROG ": workload %s exited %d after %.3f s\n", workload,
		       WIFEXITED(status) ? WEXITSTATUS(status) :
					   128 + WTERMSIG(status),
		       (t1 - t0) / 1e9);
	printf(PROG
	       ": kernel AVC over the window: lookups %llu hits %llu misses %llu allocations %llu reclaims %llu frees %llu (hit ratio %.2f %%)\n",
	       (unsigned long long)d.lookups, (unsigned long long)d.hits,
	       (unsigned long long)d.misses,
	       (unsigned long long)d.allocations,
	       (unsigned long long)d.reclaims, (unsigned long long)d.frees,
	       d.lookups ? 100.0 * d.hits / d.lookups : 0.0);
	printf(PROG
	       ": recorded %llu events: %llu lookups, %llu resets, %llu updates%s; %zu distinct keys; ring buffer overruns %llu, kprobe misses %llu\n",
	       (unsigned long long)nrec, (unsigned long long)nlookup,
	       (unsigned long long)nreset, (unsigned long long)nupdate,
	       have_update ? "" : " (avc_denied not probed)", nkeys,
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
	printf(PROG
	       ": completeness: recorded lookups %llu, kernel lookups delta %llu, difference %llu (%.4f %%): %s\n",
	       (unsigned long long)nlookup, (unsigned long long)d.lookups,
	       (unsigned long long)diff,
	       d.lookups ? 100.0 * diff / d.lookups : 0.0,
	       diff * 1000 <= d.lookups && d.lookups ? "COMPLETE" :
							"INCOMPLETE");

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
		if (fclose(meta))
			die("%s: %s", meta_path, strerror(errno));
	}
	return diff * 1000 <= d.lookups && d.lookups ? 0 : 1;
}
