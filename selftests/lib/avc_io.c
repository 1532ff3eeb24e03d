// SPDX-License-Identifier: GPL-2.0
/*
 * File access below the avcrcufs mount point and process helpers for the
 * avc_rcu selftests.  See avc_io.h.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <linux/capability.h>

#include "avc_io.h"

static __thread char tst_path_buf[PATH_MAX];

static pid_t tst_module_pid;
static char tst_module_cmd[PATH_MAX + 32];

/* "sh DIR/lib/module.sh VERB", DIR the program's: its exit status. */
static int tst_module_sh(const char *verb)
{
	char cmd[sizeof(tst_module_cmd) + 16];
	int status;

	snprintf(cmd, sizeof(cmd), "%s %s", tst_module_cmd, verb);
	fflush(stdout);
	fflush(stderr);
	status = system(cmd);
	return status != -1 && WIFEXITED(status) ? WEXITSTATUS(status) : 1;
}

/* Only the program's own exit: children the tests fork inherit this. */
static void tst_module_atexit(void)
{
	if (getpid() != tst_module_pid)
		return;
	if (tst_module_sh("unload")) {
		printf("# unloading avc_rcu failed\n");
		fflush(stdout);
		_exit(1);
	}
}

void tst_module_setup(void)
{
	char self[PATH_MAX];
	ssize_t n;
	int rc;

	n = readlink("/proc/self/exe", self, sizeof(self) - 1);
	if (n <= 0) {
		perror("avc_rcu selftest: /proc/self/exe");
		exit(1);
	}
	self[n] = '\0';
	*strrchr(self, '/') = '\0';
	snprintf(tst_module_cmd, sizeof(tst_module_cmd),
		 "sh '%s/lib/module.sh'", self);
	rc = tst_module_sh("load");
	if (rc)
		exit(rc);
	tst_module_pid = getpid();
	atexit(tst_module_atexit);
}

int tst_module_fresh(void)
{
	return tst_env_long("AVC_RCU_LOADED", 0) != 1;
}

int tst_module_param(const char *name, char *buf, size_t size)
{
	char path[128], *text;
	ssize_t len;

	snprintf(path, sizeof(path), "/sys/module/avc_rcu/parameters/%s",
		 name);
	len = tst_read_all(path, &text);
	if (len < 0)
		return (int)len;
	text[strcspn(text, "\n")] = '\0';
	snprintf(buf, size, "%s", text);
	free(text);
	return 0;
}

int tst_reclaimer_background(void)
{
	char v[32];
	int err = tst_module_param("reclaimer", v, sizeof(v));

	if (err)
		return err;
	return !strcmp(v, "background");
}

long tst_expected_slots(__u32 thr)
{
	char v[32];
	long slots, want = 512;
	int err = tst_module_param("slots", v, sizeof(v));

	if (err)
		return err;
	slots = strtol(v, NULL, 10);
	if (slots)
		return slots;
	while (want < thr && want < 65536)
		want *= 2;
	return want;
}

const char *tst_mnt(void)
{
	const char *m = getenv("AVC_RCU_MNT");

	return m && *m ? m : AVC_RCU_MOUNT_POINT;
}

const char *tst_path(const char *rel)
{
	snprintf(tst_path_buf, sizeof(tst_path_buf), "%s/%s", tst_mnt(), rel);
	return tst_path_buf;
}

int tst_check_mounted(void)
{
	const char *mnt = tst_mnt(), *fstype = getenv("AVC_RCU_FSTYPE");
	char *text, *line, *save = NULL;
	ssize_t len;
	int ret = -ENODEV;

	if (!fstype || !*fstype)
		fstype = AVC_RCU_FS_NAME;
	len = tst_read_all("/proc/self/mounts", &text);
	if (len < 0)
		return (int)len;
	for (line = strtok_r(text, "\n", &save); line;
	     line = strtok_r(NULL, "\n", &save)) {
		char *f_save = NULL, *dev, *dir, *type;

		dev = strtok_r(line, " ", &f_save);
		dir = dev ? strtok_r(NULL, " ", &f_save) : NULL;
		type = dir ? strtok_r(NULL, " ", &f_save) : NULL;
		if (type && !strcmp(dir, mnt) && !strcmp(type, fstype))
			ret = 0;
	}
	free(text);
	return ret;
}

const char *tst_mount_error(int err)
{
	static char msg[PATH_MAX + 200];

	snprintf(msg, sizeof(msg),
		 "avcrcufs not mounted at %s (%s): insmod avc_rcu.ko; mount -t %s %s %s",
		 tst_mnt(), strerror(-err), AVC_RCU_FS_NAME, AVC_RCU_FS_NAME,
		 tst_mnt());
	return msg;
}

ssize_t tst_read_all(const char *path, char **out)
{
	size_t cap = 4096, len = 0;
	char *buf, *nbuf;
	ssize_t n;
	int fd;

	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	buf = malloc(cap);
	if (!buf) {
		close(fd);
		return -ENOMEM;
	}
	for (;;) {
		if (cap - len < 2) {
			cap *= 2;
			nbuf = realloc(buf, cap);
			if (!nbuf) {
				n = -ENOMEM;
				goto err;
			}
			buf = nbuf;
		}
		n = read(fd, buf + len, cap - len - 1);
		if (n < 0) {
			n = -errno;
			goto err;
		}
		if (n == 0)
			break;
		len += (size_t)n;
	}
	close(fd);
	buf[len] = '\0';
	*out = buf;
	return (ssize_t)len;
err:
	close(fd);
	free(buf);
	return n;
}

ssize_t tst_read_rel(const char *rel, char **out)
{
	return tst_read_all(tst_path(rel), out);
}

ssize_t tst_read_once(const char *rel, char *buf, size_t size)
{
	ssize_t n;
	int fd;

	fd = open(tst_path(rel), O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	n = pread(fd, buf, size - 1, 0);
	if (n < 0)
		n = -errno;
	else
		buf[n] = '\0';
	close(fd);
	return n;
}

int tst_write_rel(const char *rel, const void *buf, size_t len, off_t off)
{
	ssize_t n;
	int fd, ret = 0;

	fd = open(tst_path(rel), O_WRONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	if (off >= 0)
		n = pwrite(fd, buf, len, off);
	else
		n = write(fd, buf, len);
	if (n < 0)
		ret = -errno;
	else if ((size_t)n != len)
		ret = -EIO;
	/* load publishes at the last close, which returns its outcome. */
	if (close(fd) && !ret)
		ret = -errno;
	return ret;
}

int tst_load_chunks(const char *text, size_t len, const size_t *chunks,
		    size_t nchunks, int *at)
{
	size_t done = 0, i = 0, n;
	ssize_t w;
	int fd, ret = 0;

	*at = -1;
	fd = open(tst_path(AVC_RCU_FILE_LOAD), O_WRONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	while (done < len) {
		n = len - done;
		if (nchunks && chunks[i % nchunks] < n)
			n = chunks[i % nchunks];
		i++;
		w = write(fd, text + done, n);
		if (w < 0 || (size_t)w != n) {
			ret = w < 0 ? -errno : -EIO;
			*at = (int)i;
			break;
		}
		done += n;
	}
	if (close(fd) && !ret) {
		ret = -errno;
		*at = 0;
	}
	return ret;
}

int tst_read_hash_stats(struct tst_hash_stats_file *hs)
{
	char *text;
	ssize_t len;
	int ret;

	len = tst_read_rel(AVC_RCU_FILE_HASH_STATS, &text);
	if (len < 0)
		return (int)len;
	ret = tst_parse_hash_stats(text, (size_t)len, hs);
	free(text);
	return ret;
}

int tst_read_cache_stats(struct tst_cache_stats_sum *cs)
{
	char *text;
	ssize_t len;
	int ret;

	len = tst_read_rel(AVC_RCU_FILE_CACHE_STATS, &text);
	if (len < 0)
		return (int)len;
	ret = tst_parse_cache_stats(text, (size_t)len, cs);
	free(text);
	return ret;
}

static int read_u32_file(const char *path, __u32 *val)
{
	char *text;
	ssize_t len;
	int ret;

	len = tst_read_all(path, &text);
	if (len < 0)
		return (int)len;
	ret = tst_parse_u32_line(text, (size_t)len, val);
	free(text);
	return ret;
}

int tst_read_seqno(__u32 *seqno)
{
	return read_u32_file(tst_path(AVC_RCU_FILE_SEQNO), seqno);
}

int tst_read_threshold(__u32 *val)
{
	return read_u32_file(tst_path(AVC_RCU_FILE_THRESHOLD), val);
}

int tst_write_threshold(__u32 val)
{
	char buf[16];
	int n = snprintf(buf, sizeof(buf), "%u\n", val);

	return tst_write_rel(AVC_RCU_FILE_THRESHOLD, buf, (size_t)n, -1);
}

int tst_possible_cpus(unsigned int *count)
{
	char *text;
	ssize_t len;
	int ret;

	len = tst_read_all("/sys/devices/system/cpu/possible", &text);
	if (len < 0)
		return (int)len;
	ret = tst_parse_cpu_list(text, (size_t)len, count);
	free(text);
	return ret;
}

static __thread char tst_last_reply[128];

const char *tst_last_reply_text(void)
{
	return tst_last_reply;
}

int tst_access_raw(const void *req, size_t len, struct tst_reply *r)
{
	char buf[128];
	size_t got = 0;
	ssize_t n;
	int fd, ret = 0;

	tst_last_reply[0] = '\0';
	fd = open(tst_path(AVC_RCU_FILE_ACCESS), O_RDWR | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	n = write(fd, req, len);
	if (n < 0) {
		ret = -errno;
		goto out;
	}
	if ((size_t)n != len) {
		ret = -EIO;
		goto out;
	}
	for (;;) {
		n = read(fd, buf + got, sizeof(buf) - 1 - got);
		if (n < 0) {
			ret = -errno;
			goto out;
		}
		if (n == 0 || got + (size_t)n == sizeof(buf) - 1) {
			got += (size_t)n;
			break;
		}
		got += (size_t)n;
	}
	buf[got] = '\0';
	memcpy(tst_last_reply, buf, got + 1);
	if (tst_parse_reply(buf, got, r))
		ret = -EBADMSG;
out:
	close(fd);
	return ret;
}

int tst_access(__u32 ssid, __u32 tsid, __u32 tclass,
	       __u32 requested, struct tst_reply *r)
{
	char req[64];
	int n;

	n = snprintf(req, sizeof(req), "%u %u %u %u", ssid, tsid, tclass,
		     requested);
	return tst_access_raw(req, (size_t)n, r);
}

int tst_load_policy(const char *text, size_t len)
{
	return tst_write_rel(AVC_RCU_FILE_LOAD, text, len, -1);
}

static void sleep_ms(unsigned int ms)
{
	struct timespec ts = {
		.tv_sec = ms / 1000,
		.tv_nsec = (long)(ms % 1000) * 1000000L,
	};

	nanosleep(&ts, NULL);
}

int tst_wait_quiescent(int timeout_ms, struct tst_hash_stats_file *hs,
		       struct tst_cache_stats_sum *cs)
{
	__u64 deadline = tst_now_ms() + (__u64)timeout_ms;
	long last = -1;
	int ret;

	for (;;) {
		ret = tst_read_hash_stats(hs);
		if (ret)
			return ret;
		ret = tst_read_cache_stats(cs);
		if (ret)
			return ret;
		if ((long)(__u32)(cs->sum[TST_ALLOCATIONS] -
				     cs->sum[TST_FREES]) == hs->entries) {
			if (last == hs->entries)
				return 0;
			last = hs->entries;
		} else {
			last = -1;
		}
		if (tst_now_ms() > deadline)
			return -ETIMEDOUT;
		sleep_ms(10);
	}
}

static int cap_effective(unsigned int cap, int on)
{
	struct __user_cap_header_struct hdr = {
		.version = _LINUX_CAPABILITY_VERSION_3,
		.pid = 0,
	};
	struct __user_cap_data_struct data[_LINUX_CAPABILITY_U32S_3];
	__u32 bit = 1U << (cap % 32);

	if (cap >= 32 * _LINUX_CAPABILITY_U32S_3)
		return -EINVAL;
	memset(data, 0, sizeof(data));
	if (syscall(SYS_capget, &hdr, data))
		return -errno;
	if (on)
		data[cap / 32].effective |= bit;
	else
		data[cap / 32].effective &= ~bit;
	if (syscall(SYS_capset, &hdr, data))
		return -errno;
	return 0;
}

int tst_drop_effective_cap(unsigned int cap)
{
	return cap_effective(cap, 0);
}

int tst_raise_effective_cap(unsigned int cap)
{
	return cap_effective(cap, 1);
}

int tst_kmsg_open(void)
{
	int fd = open("/dev/kmsg", O_RDONLY | O_NONBLOCK | O_CLOEXEC);

	if (fd < 0)
		return -errno;
	if (lseek(fd, 0, SEEK_END) < 0) {
		close(fd);
		return -errno;
	}
	return fd;
}

int tst_kmsg_grep(int fd, const char *needle, char *found, size_t size)
{
	char rec[8192];
	int ret = 0;
	ssize_t n;

	for (;;) {
		const char *msg;

		n = read(fd, rec, sizeof(rec) - 1);
		if (n < 0 && errno == EPIPE)
			continue;	/* overwritten records: go on */
		if (n < 0)
			return errno == EAGAIN ? ret : -errno;
		if (n == 0)
			return ret;
		rec[n] = '\0';
		/* "prio,seq,usec,flags;text\n" then " KEY=value" lines. */
		msg = strchr(rec, ';');
		msg = msg ? msg + 1 : rec;
		if (!ret && strstr(msg, needle)) {
			snprintf(found, size, "%.*s", (int)strcspn(msg, "\n"),
				 msg);
			ret = 1;
		}
	}
}

int tst_kmsg_count(int fd, const char *needle)
{
	char rec[8192];
	int count = 0;
	ssize_t n;

	for (;;) {
		const char *msg;

		n = read(fd, rec, sizeof(rec) - 1);
		if (n < 0 && errno == EPIPE)
			continue;
		if (n < 0)
			return errno == EAGAIN ? count : -errno;
		if (n == 0)
			return count;
		rec[n] = '\0';
		msg = strchr(rec, ';');
		msg = msg ? msg + 1 : rec;
		if (strstr(msg, needle))
			count++;
	}
}

#define TST_CGROUP_ROOT	"/sys/fs/cgroup"

int tst_read_line(const char *path, char *buf, size_t size)
{
	ssize_t n;
	int fd;

	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	n = read(fd, buf, size - 1);
	close(fd);
	if (n < 0)
		return -errno;
	buf[n] = '\0';
	buf[strcspn(buf, "\n")] = '\0';
	return 0;
}

int tst_write_str(const char *path, const char *s)
{
	size_t len = strlen(s);
	ssize_t n;
	int fd, ret = 0;

	fd = open(path, O_WRONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	n = write(fd, s, len);
	if (n < 0)
		ret = -errno;
	else if ((size_t)n != len)
		ret = -EIO;
	if (close(fd) && !ret)
		ret = -errno;
	return ret;
}

/* 1 if cgroup2 is mounted at the root, 0 if nothing is, else -errno. */
static int memcg_mounted(void)
{
	char *text, *line, *save = NULL;
	ssize_t len;
	int ret = 0;

	len = tst_read_all("/proc/self/mounts", &text);
	if (len < 0)
		return (int)len;
	for (line = strtok_r(text, "\n", &save); line;
	     line = strtok_r(NULL, "\n", &save)) {
		char *f_save = NULL, *dir, *type;

		if (!strtok_r(line, " ", &f_save))
			continue;
		dir = strtok_r(NULL, " ", &f_save);
		type = dir ? strtok_r(NULL, " ", &f_save) : NULL;
		if (type && !strcmp(dir, TST_CGROUP_ROOT))
			ret = strcmp(type, "cgroup2") ? -EOPNOTSUPP : 1;
	}
	free(text);
	return ret;
}

int tst_memcg_create(const char *name, long long max, char *path,
		     size_t size)
{
	char buf[4096], *w, *save = NULL;
	int ret, found = 0;

	ret = memcg_mounted();
	if (ret < 0)
		return ret;
	if (!ret) {
		mkdir(TST_CGROUP_ROOT, 0755);
		/* No cgroups in the kernel: no such filesystem, no directory. */
		if (mount("cgroup2", TST_CGROUP_ROOT, "cgroup2", 0, NULL))
			return errno == ENODEV || errno == ENOENT ?
			       -EOPNOTSUPP : -errno;
	}
	ret = tst_read_line(TST_CGROUP_ROOT "/cgroup.controllers", buf,
			    sizeof(buf));
	if (ret)
		return ret;
	for (w = strtok_r(buf, " ", &save); w; w = strtok_r(NULL, " ", &save))
		found |= !strcmp(w, "memory");
	if (!found)
		return -EOPNOTSUPP;
	ret = tst_write_str(TST_CGROUP_ROOT "/cgroup.subtree_control",
			    "+memory");
	if (ret)
		return ret;
	snprintf(path, size, "%s/%s", TST_CGROUP_ROOT, name);
	if (mkdir(path, 0755) && errno != EEXIST)
		return -errno;
	if (max > 0) {
		char file[PATH_MAX], val[32];

		snprintf(file, sizeof(file), "%s/memory.max", path);
		snprintf(val, sizeof(val), "%lld", max);
		ret = tst_write_str(file, val);
	}
	return ret;
}

int tst_memcg_enter(const char *path)
{
	char file[PATH_MAX];

	snprintf(file, sizeof(file), "%s/cgroup.procs", path);
	return tst_write_str(file, "0");
}

long long tst_memcg_read(const char *path, const char *file, const char *key)
{
	char name[PATH_MAX], *text, *line, *save = NULL;
	long long v = -ENOENT;
	size_t klen = key ? strlen(key) : 0;
	ssize_t len;

	snprintf(name, sizeof(name), "%s/%s", path, file);
	len = tst_read_all(name, &text);
	if (len < 0)
		return len;
	for (line = strtok_r(text, "\n", &save); line;
	     line = strtok_r(NULL, "\n", &save)) {
		if (!key) {
			v = strtoll(line, NULL, 10);
			break;
		}
		if (!strncmp(line, key, klen) && line[klen] == ' ') {
			v = strtoll(line + klen + 1, NULL, 10);
			break;
		}
	}
	free(text);
	return v;
}

int tst_memcg_remove(const char *path)
{
	return rmdir(path) ? -errno : 0;
}

long long tst_vmalloc_bytes(const char *module)
{
	char *text, *line, *save = NULL, tag[64];
	long long sum = 0;
	ssize_t len;

	snprintf(tag, sizeof(tag), "[%s]", module);
	len = tst_read_all("/proc/vmallocinfo", &text);
	if (len < 0)
		return len;
	/* "0xstart-0xend   size caller+off/len [module] pages=N vmalloc" */
	for (line = strtok_r(text, "\n", &save); line;
	     line = strtok_r(NULL, "\n", &save)) {
		const char *size = strchr(line, ' ');

		if (size && strstr(line, tag))
			sum += strtoll(size, NULL, 10);
	}
	free(text);
	return sum;
}

__u64 tst_now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (__u64)ts.tv_sec * 1000 + (__u64)ts.tv_nsec / 1000000;
}

void tst_diag(const char *fmt, ...)
{
	va_list ap;

	fflush(stderr);
	fputs("# ", stdout);
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	fputc('\n', stdout);
	fflush(stdout);
}

long tst_env_long(const char *name, long def)
{
	const char *s = getenv(name);
	char *end;
	long v;

	if (!s || !*s)
		return def;
	errno = 0;
	v = strtol(s, &end, 10);
	if (errno || *end || v <= 0)
		return def;
	return v;
}

__u64 tst_seed(void)
{
	const char *s = getenv("AVC_SEED");

	if (s && *s)
		return strtoull(s, NULL, 0);
	return tst_now_ms() * 0x9e3779b97f4a7c15ULL ^ (__u64)getpid();
}

__u64 tst_rand(__u64 *state)
{
	return tst_splitmix64(state);
}

void tst_buf_printf(struct tst_buf *b, const char *fmt, ...)
{
	va_list ap;
	int n;

	for (;;) {
		size_t room = b->cap - b->len;

		if (b->data) {
			va_start(ap, fmt);
			n = vsnprintf(b->data + b->len, room, fmt, ap);
			va_end(ap);
			if (n < 0)
				abort();
			if ((size_t)n < room) {
				b->len += (size_t)n;
				return;
			}
		}
		b->cap = b->cap ? b->cap * 2 : 4096;
		b->data = realloc(b->data, b->cap);
		if (!b->data)
			abort();
	}
}

void tst_buf_free(struct tst_buf *b)
{
	free(b->data);
	memset(b, 0, sizeof(*b));
}
