// SPDX-License-Identifier: MIT
/*
 * kernel.c - the running kernel's own charge paths, driven the way the seeds' benchmarks
 * drive them. Nothing is modelled (BENCH_KERNEL): a row says what the kernel on this
 * machine spends per operation, and compare sets it beside the emulated scenario it stands
 * for (emulates()).
 *
 *  - page_fault1/2/3 (will-it-scale): a `map_mib` mapping (128 MiB), one write per page,
 *    munmap, again. page_fault1 maps anonymous memory (MAP_PRIVATE|MAP_ANONYMOUS);
 *    page_fault2 maps a per-thread file (mkstemp in `dir`, ftruncate'd, unlinked)
 *    MAP_PRIVATE, so every write is a copy-on-write fault that charges a new page;
 *    page_fault3 maps it MAP_SHARED: after the first pass the pages are in the page cache
 *    and nothing new is charged (that is the benchmark's meaning). One op = one page.
 *  - fallocate1 (will-it-scale): a per-thread file in `dir`, fallocate(fd, 0, place,
 *    `call_kib` 8 KiB) up to `file_kib` 1 MiB, then ftruncate(fd, 0); no hole punch.
 *    One op = one call.
 *  - tcp (netperf -6 -t TCP_SENDFILE -m 10K): threads 2k and 2k+1 are a sender and its
 *    receiver over loopback TCP (IPv6 ::1, or -D proto=ipv4); the sender sendfile()s
 *    `msg` bytes (10 KiB) at offsets k * msg of a `file_kib` file in `dir` (or send()s the
 *    same bytes, -D send=send). One op = one message sent (sender) or received (receiver).
 *    1 thread: the one thread sends a message and receives it, in turn, on its one PU;
 *    an odd count leaves the last PU idle (its thread does nothing).
 *  - hackbench: threads 2g and 2g+1 are group g: the sender thread plays hackbench's
 *    senders, writing `msg` bytes (100) to each of the group's `fds` receivers (20) in
 *    turn over AF_UNIX SOCK_STREAM socketpairs (-D ipc=pipe: pipes), the receiver thread
 *    reads them in the same order. So T threads run T/2 groups (hackbench's default is 10
 *    groups of 20 senders and 20 receivers, 40 tasks each: here 2 PUs per group). Needs 2
 *    threads (skipped at 1). One op = one message written or read.
 * Every file and socket is made in setup/thread_setup and closed in thread_teardown/teardown.
 * Each thread's state (struct kthread, a receiver's buffer) is its own BENCH_PAD block from
 * bench_alloc, freed in thread_teardown, which keeps the thread's first failure in the
 * shared state (s->fail) for window_end(). window_end() drains the messages still in
 * flight and checks that every one sent was received.
 */
#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <netinet/in.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/sendfile.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <unistd.h>

#include "bench.h"
#include "kfacts.h"

enum kwl { W_PF1, W_PF2, W_PF3, W_FA1, W_TCP, W_HACK };
enum krole { R_MEM, R_SEND, R_RECV, R_BOTH, R_IDLE };

#define RBUF (64 * 1024) /* a receiver's buffer */
#define DRAIN_S 5	 /* window_end waits at most this long for messages in flight */

/* A sender and its receiver: tcp's connection, or a hackbench group's `fds` channels. */
struct kpair {
	int nfd;
	int *wfd, *rfd;	      /* message k goes over wfd[k % nfd] and comes out of rfd[k % nfd] */
	uint64_t sent, recvd; /* whole messages, each written only by its own thread */
	size_t spart, rpart;  /* bytes of the message in progress */
};

/* A thread's own state: one BENCH_PAD block each (thread_setup), freed in thread_teardown. */
struct kthread {
	int role, idx;
	int fd;	    /* page_fault2/3, fallocate1: the thread's file */
	char *map;  /* page_fault: the current mapping, or NULL */
	size_t pos; /* page_fault: next page; fallocate1: next offset */
	struct kpair *pair;
	char *buf; /* receivers: RBUF bytes */
	int err;   /* the first failure: errno of call @what */
	const char *what;
};

/* A thread's first failure, kept by thread_teardown for window_end (which runs after it). */
struct kfail {
	int err;
	const char *what;
};

struct kshared {
	int wl, threads, npairs, map_flags, fds;
	size_t page, map_bytes, file_bytes, call_bytes, msg, nmsg_file;
	int v6, use_send, pipes;
	int file_fd;   /* tcp: the file sent */
	char *content; /* tcp send, hackbench: the bytes written */
	char dir[PATH_MAX], fs[48];
	struct kf_memcg memcg;
	long long tcp_before;
	struct kfail *fail; /* per thread, written only in thread_teardown */
	struct kpair *pairs;
};

static const char *const wl_names[] = {"page_fault1", "page_fault2", "page_fault3",
				       "fallocate1",  "tcp",	     "hackbench"};

static int wl_index(const char *name)
{
	for (int i = 0; i < (int)(sizeof(wl_names) / sizeof(wl_names[0])); i++)
		if (!strcmp(name, wl_names[i]))
			return i;
	return -1;
}

/* uses_dir - the workload makes files in `dir`. */
static int uses_dir(int wl)
{
	return wl == W_PF2 || wl == W_PF3 || wl == W_FA1 || wl == W_TCP;
}

static int check(const struct bench_cfg *cfg, char *err, size_t errlen)
{
	int wl = wl_index(bench_workload_name(cfg));
	const char *dir = bench_str(cfg, "dir");
	struct stat st;

	errno = 0;
	if (uses_dir(wl) && (stat(dir, &st) || !S_ISDIR(st.st_mode) || access(dir, W_OK | X_OK))) {
		bench_error(err, errlen, "dir: %s: %s", dir,
			    errno ? strerror(errno) : "not a writable directory");
		return -1;
	}
	if (wl == W_TCP && bench_long(cfg, "msg") > bench_long(cfg, "file_kib") * 1024) {
		bench_error(err, errlen, "msg: %ld: larger than the file (file_kib %ld)",
			    bench_long(cfg, "msg"), bench_long(cfg, "file_kib"));
		return -1;
	}
	if (wl == W_TCP && !strcmp(bench_str(cfg, "proto"), "ipv6")) {
		struct sockaddr_in6 a = {.sin6_family = AF_INET6,
					 .sin6_addr = IN6ADDR_LOOPBACK_INIT};
		int fd = socket(AF_INET6, SOCK_STREAM | SOCK_CLOEXEC, 0);
		int bad = fd < 0 || bind(fd, (struct sockaddr *)&a, sizeof(a));

		if (bad)
			bench_error(err, errlen,
				    "proto: ipv6: no IPv6 loopback here (%s): use -D "
				    "proto=ipv4",
				    strerror(errno));
		if (fd >= 0)
			close(fd);
		if (bad)
			return -1;
	}
	return 0;
}

static int skip(const struct bench_cfg *cfg, char *why, size_t len)
{
	if (strcmp(bench_workload_name(cfg), "hackbench") || bench_threads(cfg) >= 2)
		return 0;
	snprintf(why, len, "hackbench needs 2 threads: a group is a sender and a receiver thread");
	return 1;
}

/* set_err - remember the first failure of a thread: @what failed with errno. */
static void set_fail(struct kthread *t, const char *what)
{
	if (!t->err) {
		t->err = errno ? errno : EIO;
		t->what = what;
	}
}

static int nonblock(int fd)
{
	int fl = fcntl(fd, F_GETFL);

	return fl < 0 ? -1 : fcntl(fd, F_SETFL, fl | O_NONBLOCK);
}

/* tcp_pair - a connected loopback TCP pair: *@w the sender's end, *@r the receiver's. */
static int tcp_pair(int v6, int *w, int *r)
{
	struct sockaddr_storage ss = {0};
	socklen_t len;
	int l, ok = 0;

	if (v6) {
		struct sockaddr_in6 *a = (struct sockaddr_in6 *)&ss;

		a->sin6_family = AF_INET6;
		a->sin6_addr = in6addr_loopback;
		len = sizeof(*a);
	} else {
		struct sockaddr_in *a = (struct sockaddr_in *)&ss;

		a->sin_family = AF_INET;
		a->sin_addr.s_addr = htonl(INADDR_LOOPBACK);
		len = sizeof(*a);
	}
	*w = *r = -1;
	l = socket(ss.ss_family, SOCK_STREAM | SOCK_CLOEXEC, 0);
	if (l < 0)
		return -1;
	if (!bind(l, (struct sockaddr *)&ss, len) && !listen(l, 1) &&
	    !getsockname(l, (struct sockaddr *)&ss, &len)) {
		*w = socket(ss.ss_family, SOCK_STREAM | SOCK_CLOEXEC, 0);
		ok = *w >= 0 && !connect(*w, (struct sockaddr *)&ss, len) &&
		     (*r = accept4(l, NULL, NULL, SOCK_CLOEXEC)) >= 0;
	}
	close(l);
	return ok ? 0 : -1;
}

/* make_file - an unlinked file of @size bytes in @dir (mkstemp), or -1. */
static int make_file(const char *dir, size_t size)
{
	char path[PATH_MAX + 32];
	int fd;

	snprintf(path, sizeof(path), "%s/pcbench-kernel.XXXXXX", dir);
	fd = mkostemp(path, O_CLOEXEC);
	if (fd < 0)
		return -1;
	unlink(path);
	if (size && ftruncate(fd, (off_t)size)) {
		close(fd);
		return -1;
	}
	return fd;
}

static void teardown(void *shared);

/* channels - every pair's sockets or pipes, non-blocking; -1 with @err on failure. */
static int channels(struct kshared *s, char *err, size_t errlen)
{
	for (int p = 0; p < s->npairs; p++) {
		struct kpair *k = &s->pairs[p];

		k->nfd = s->fds;
		k->wfd = bench_alloc((size_t)k->nfd * sizeof(int), 64);
		k->rfd = bench_alloc((size_t)k->nfd * sizeof(int), 64);
		for (int i = 0; i < k->nfd; i++)
			k->wfd[i] = k->rfd[i] = -1;
		for (int i = 0; i < k->nfd; i++) {
			int fds[2], rc;

			if (s->wl == W_TCP)
				rc = tcp_pair(s->v6, &k->wfd[i], &k->rfd[i]);
			else if (s->pipes)
				rc = pipe2(fds, O_CLOEXEC);
			else
				rc = socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, fds);
			if (!rc && s->wl == W_HACK) /* hackbench: the receiver reads fds[0] */
				k->rfd[i] = fds[0], k->wfd[i] = fds[1];
			if (rc || nonblock(k->wfd[i]) || nonblock(k->rfd[i])) {
				bench_error(err, errlen, "%s: %s",
					    s->wl == W_TCP ? "loopback connection"
					    : s->pipes	   ? "pipe"
							   : "socketpair",
					    strerror(errno));
				return -1;
			}
		}
	}
	return 0;
}

/* content - the bytes messages carry: the tcp file (sendfile reads it itself) or a buffer. */
static int content(struct kshared *s, char *err, size_t errlen)
{
	size_t size = s->wl == W_TCP ? s->file_bytes : s->msg;

	s->content = bench_alloc(size, 64);
	for (size_t i = 0; i < size; i++)
		s->content[i] = (char)('a' + i % 26);
	if (s->wl != W_TCP)
		return 0;
	s->file_fd = make_file(s->dir, 0);
	if (s->file_fd < 0 || pwrite(s->file_fd, s->content, size, 0) != (ssize_t)size) {
		bench_error(err, errlen, "%s: the file to send: %s", s->dir, strerror(errno));
		return -1;
	}
	return 0;
}

static void *setup(const struct bench_cfg *cfg, char *err, size_t errlen)
{
	struct kshared *s = bench_alloc(sizeof(*s), BENCH_PAD);

	s->wl = wl_index(bench_workload_name(cfg));
	s->threads = bench_threads(cfg);
	s->page = (size_t)sysconf(_SC_PAGESIZE);
	s->map_bytes = (size_t)bench_long(cfg, "map_mib") << 20;
	s->file_bytes = (size_t)bench_long(cfg, "file_kib") << 10;
	s->call_bytes = (size_t)bench_long(cfg, "call_kib") << 10;
	s->msg = (size_t)bench_long(cfg, "msg");
	s->nmsg_file = s->file_bytes / s->msg;
	s->fds = s->wl == W_HACK ? (int)bench_long(cfg, "fds") : 1;
	s->v6 = !strcmp(bench_str(cfg, "proto"), "ipv6");
	s->use_send = !strcmp(bench_str(cfg, "send"), "send");
	s->pipes = !strcmp(bench_str(cfg, "ipc"), "pipe");
	s->map_flags = s->wl == W_PF1	? MAP_PRIVATE | MAP_ANONYMOUS
		       : s->wl == W_PF3 ? MAP_SHARED
					: MAP_PRIVATE;
	s->file_fd = -1;
	snprintf(s->dir, sizeof(s->dir), "%s", bench_str(cfg, "dir"));
	kf_fs_name(s->dir, s->fs, sizeof(s->fs));
	s->fail = bench_alloc((size_t)s->threads * sizeof(*s->fail), BENCH_PAD);
	s->npairs = s->wl == W_TCP && s->threads == 1	? 1
		    : s->wl == W_TCP || s->wl == W_HACK ? s->threads / 2
							: 0;
	s->pairs = bench_alloc((size_t)(s->npairs + 1) * sizeof(*s->pairs), BENCH_PAD);
	kf_memcg_self(&s->memcg);
	s->tcp_before = s->wl == W_TCP ? kf_v1_tcp_usage(&s->memcg) : -1;
	if (s->wl == W_TCP && s->threads == 1)
		bench_note("kernel tcp at 1 thread: the one thread is sender and receiver in turn, "
			   "on its one PU");
	if ((s->wl == W_TCP || s->wl == W_HACK) && s->threads % 2 && s->threads > 1)
		bench_note("kernel %s at %d threads: thread %d has no partner; its PU stays idle "
			   "(ns_per_op still counts it)",
			   wl_names[s->wl], s->threads, s->threads - 1);
	if ((s->npairs && (content(s, err, errlen) || channels(s, err, errlen)))) {
		teardown(s);
		return NULL;
	}
	return s;
}

static void teardown(void *shared)
{
	struct kshared *s = shared;

	for (int p = 0; p < s->npairs; p++) {
		struct kpair *k = &s->pairs[p];

		for (int i = 0; k->wfd && i < k->nfd; i++) {
			if (k->wfd[i] >= 0)
				close(k->wfd[i]);
			if (k->rfd[i] >= 0)
				close(k->rfd[i]);
		}
		bench_free(k->wfd);
		bench_free(k->rfd);
	}
	if (s->file_fd >= 0)
		close(s->file_fd);
	bench_free(s->content);
	bench_free(s->pairs);
	bench_free(s->fail);
	bench_free(s);
}

static void *thread_setup(void *shared, int thread)
{
	struct kshared *s = shared;
	struct kthread *t = bench_alloc(sizeof(*t), BENCH_PAD);

	t->idx = thread;
	t->fd = -1;
	t->role = R_MEM;
	if (s->wl == W_PF2 || s->wl == W_PF3 || s->wl == W_FA1) {
		t->fd = make_file(s->dir, s->wl == W_FA1 ? 0 : s->map_bytes);
		if (t->fd < 0) {
			bench_free(t);
			return NULL;
		}
	} else if (s->npairs) {
		t->role = s->threads == 1	    ? R_BOTH
			  : thread / 2 >= s->npairs ? R_IDLE
			  : thread % 2		    ? R_RECV
						    : R_SEND;
		t->pair = t->role == R_IDLE ? NULL : &s->pairs[thread / 2];
		t->buf = bench_alloc(RBUF, BENCH_PAD);
	}
	return t;
}

static void thread_teardown(void *shared, void *tstate)
{
	struct kthread *t = tstate;
	struct kshared *s = shared;

	if (t->map)
		munmap(t->map, s->map_bytes);
	if (t->fd >= 0)
		close(t->fd);
	s->fail[t->idx] = (struct kfail){t->err, t->what};
	bench_free(t->buf);
	bench_free(t);
}

/* run_fault - @n pages written, mapping and unmapping `map_mib` at a time. */
static uint64_t run_fault(struct kshared *s, struct kthread *t, uint64_t n)
{
	size_t pages = s->map_bytes / s->page;

	for (uint64_t i = 0; i < n; i++) {
		if (!t->map) {
			t->map = mmap(NULL, s->map_bytes, PROT_READ | PROT_WRITE, s->map_flags,
				      s->wl == W_PF1 ? -1 : t->fd, 0);
			if (t->map == MAP_FAILED) {
				t->map = NULL;
				set_fail(t, "mmap");
				return i;
			}
		}
		((volatile char *)t->map)[t->pos * s->page] = 0;
		if (++t->pos == pages) {
			munmap(t->map, s->map_bytes);
			t->map = NULL;
			t->pos = 0;
		}
	}
	return n;
}

/* run_fallocate - @n calls of `call_kib`, the file truncated to 0 at `file_kib`. */
static uint64_t run_fallocate(struct kshared *s, struct kthread *t, uint64_t n)
{
	for (uint64_t i = 0; i < n; i++) {
		while (fallocate(t->fd, 0, (off_t)t->pos, (off_t)s->call_bytes))
			if (errno != EINTR) {
				set_fail(t, "fallocate");
				return i;
			}
		t->pos += s->call_bytes;
		if (t->pos >= s->file_bytes) {
			if (ftruncate(t->fd, 0)) {
				set_fail(t, "ftruncate");
				return i;
			}
			t->pos = 0;
		}
	}
	return n;
}

/* wait_fds - poll until @w (POLLOUT) or @r (POLLIN) is ready; 1 once the window is over. */
static int wait_fds(int w, int r)
{
	struct pollfd p[2] = {{.fd = w, .events = POLLOUT}, {.fd = r, .events = POLLIN}};

	while (!bench_window_over())
		if (poll(p, 2, 10) != 0)
			return 0; /* ready, or an error the next call reports */
	return 1;
}

/* msg_send - the rest of message k->sent: 1 when it is whole, -2 would block, -1 failed. */
static int msg_send(struct kshared *s, struct kthread *t, struct kpair *k)
{
	int fd = k->wfd[k->sent % (uint64_t)k->nfd];

	for (;;) {
		size_t left = s->msg - k->spart;
		off_t off = s->wl == W_TCP ? (off_t)((k->sent % s->nmsg_file) * s->msg + k->spart)
					   : (off_t)k->spart;
		ssize_t got = s->wl == W_TCP && !s->use_send ? sendfile(fd, s->file_fd, &off, left)
							     : write(fd, s->content + off, left);

		if (got > 0) {
			k->spart += (size_t)got;
			if (k->spart < s->msg)
				continue;
			k->spart = 0;
			k->sent++;
			return 1;
		}
		if (got < 0 && errno == EINTR)
			continue;
		if (got < 0 && errno == EAGAIN)
			return -2;
		set_fail(t, s->wl == W_TCP && !s->use_send ? "sendfile" : "write");
		return -1;
	}
}

/*
 * msg_recv - read what is there of the messages k->recvd.. (at most @max whole ones, and
 * within one channel at a time); returns the messages completed, -2 would block, -1 failed.
 */
static int64_t msg_recv(struct kshared *s, struct kthread *t, struct kpair *k, uint64_t max)
{
	size_t want = s->msg - k->rpart;
	ssize_t got;
	int64_t done = 0;

	if (k->nfd == 1 && max > 1)
		want += (max - 1 > RBUF / s->msg ? RBUF / s->msg : max - 1) * s->msg;
	if (want > RBUF)
		want = RBUF;
	got = read(k->rfd[k->recvd % (uint64_t)k->nfd], t->buf, want);
	if (got > 0) {
		k->rpart += (size_t)got;
		for (; k->rpart >= s->msg; done++) {
			k->rpart -= s->msg;
			k->recvd++;
		}
		return done;
	}
	if (got < 0 && (errno == EINTR || errno == EAGAIN))
		return -2;
	if (!got)
		errno = EPIPE;
	set_fail(t, "read");
	return -1;
}

/* run_side - a sender's (@recv 0) or a receiver's @n messages, waiting on a full or empty channel.
 */
static uint64_t run_side(struct kshared *s, struct kthread *t, uint64_t n, int recv)
{
	struct kpair *k = t->pair;
	uint64_t i = 0;

	while (i < n) {
		int64_t r = recv ? msg_recv(s, t, k, n - i) : msg_send(s, t, k);

		if (r >= 0)
			i += (uint64_t)r;
		else if (r == -1 || wait_fds(recv ? -1 : k->wfd[k->sent % (uint64_t)k->nfd],
					     recv ? k->rfd[k->recvd % (uint64_t)k->nfd] : -1))
			break;
	}
	return i;
}

/* run_both - tcp at 1 thread: send a message, then receive it, on the one PU. */
static uint64_t run_both(struct kshared *s, struct kthread *t, uint64_t n)
{
	struct kpair *k = t->pair;
	uint64_t i = 0;

	while (i < n) {
		int64_t r = 0;
		int blocked = 0;

		if (k->spart || k->sent == k->recvd) {
			r = msg_send(s, t, k);
			if (r == -1)
				break;
			if (r == 1) {
				i++;
				continue;
			}
			blocked = 1;
		}
		r = k->sent > k->recvd || k->spart > k->rpart ? msg_recv(s, t, k, 1) : -2;
		if (r >= 0)
			i += (uint64_t)r;
		else if (r == -1 || wait_fds(blocked ? k->wfd[0] : -1, k->rfd[0]))
			break;
	}
	return i;
}

static uint64_t run(void *shared, void *tstate, uint64_t n)
{
	struct kshared *s = shared;
	struct kthread *t = tstate;

	if (t->err || t->role == R_IDLE) { /* nothing to do: do not spin on it */
		usleep(1000);
		return 0;
	}
	switch (t->role) {
	case R_SEND:
	case R_RECV:
		return run_side(s, t, n, t->role == R_RECV);
	case R_BOTH:
		return run_both(s, t, n);
	}
	return s->wl == W_FA1 ? run_fallocate(s, t, n) : run_fault(s, t, n);
}

/* drain - receive what pair @k still has in flight; 0 once received = sent. */
static int drain(struct kshared *s, struct kthread *t, struct kpair *k)
{
	int waited = 0;

	while (k->recvd < k->sent || k->rpart < k->spart) {
		struct pollfd p = {.fd = k->rfd[k->recvd % (uint64_t)k->nfd], .events = POLLIN};
		int64_t r = msg_recv(s, t, k, k->sent - k->recvd + 1);

		if (r == -1)
			return -1;
		if (r == -2 && (waited++ > DRAIN_S * 100 || poll(&p, 1, 10) < 0))
			return -1;
	}
	return k->recvd == k->sent && k->rpart == k->spart ? 0 : -1;
}

/* msgs_end - tcp, hackbench: drain, check, and count the window's messages into @note. */
static int msgs_end(struct kshared *s, char *note, size_t len)
{
	struct kthread scratch = {.buf = bench_alloc(RBUF, 64)};
	unsigned long long sent = 0, recvd = 0, inflight = 0;
	long long after = s->wl == W_TCP ? kf_v1_tcp_usage(&s->memcg) : -1;
	char extra[200] = "";
	size_t used;

	for (int p = 0; p < s->npairs; p++) {
		struct kpair *k = &s->pairs[p];

		inflight += k->sent - k->recvd;
		if (drain(s, &scratch, k)) {
			snprintf(note, len, "pair %d: received %llu of %llu messages sent%s%s", p,
				 (unsigned long long)k->recvd, (unsigned long long)k->sent,
				 scratch.err ? ": " : "", scratch.err ? strerror(scratch.err) : "");
			bench_free(scratch.buf);
			return -1;
		}
		sent += k->sent;
		recvd += k->recvd;
	}
	bench_free(scratch.buf);
	if (s->wl == W_TCP && after >= 0)
		snprintf(extra, sizeof(extra), "; v1 memory.kmem.tcp.usage_in_bytes %lld -> %lld%s",
			 s->tcp_before, after,
			 !s->tcp_before && !after ? ": sockets not accounted in this memcg" : "");
	used = (size_t)snprintf(note, len,
				"%llu messages sent, %llu received (%llu in flight at the "
				"window's end)%s",
				sent, recvd, inflight, extra);
	if (used < len && s->wl == W_TCP)
		snprintf(note + used, len - used, "; %s loopback, %s of %zu B from %s (%s)",
			 s->v6 ? "ipv6" : "ipv4", s->use_send ? "send" : "sendfile", s->msg, s->dir,
			 s->fs);
	else if (used < len)
		snprintf(note + used, len - used, "; %d group(s) of %zu %s, %zu B", s->npairs,
			 (size_t)s->fds, s->pipes ? "pipes" : "AF_UNIX SOCK_STREAM socketpairs",
			 s->msg);
	return 0;
}

static int window_end(void *shared, char *note, size_t len)
{
	struct kshared *s = shared;

	for (int i = 0; i < s->threads; i++)
		if (s->fail[i].err) {
			snprintf(note, len, "thread %d: %s: %s", i, s->fail[i].what,
				 strerror(s->fail[i].err));
			return -1;
		}
	if (s->npairs)
		return msgs_end(s, note, len);
	if (s->wl == W_FA1)
		snprintf(note, len,
			 "fallocate %zu KiB up to %zu KiB, then ftruncate 0; files in %s (%s)",
			 s->call_bytes >> 10, s->file_bytes >> 10, s->dir, s->fs);
	else if (s->wl == W_PF1)
		snprintf(note, len, "%zu pages of %zu B per anonymous private mapping",
			 s->map_bytes / s->page, s->page);
	else
		snprintf(note, len, "%zu pages of %zu B per %s file mapping; files in %s (%s)",
			 s->map_bytes / s->page, s->page, s->wl == W_PF2 ? "private" : "shared",
			 s->dir, s->fs);
	return 0;
}

static const char *emulates(const char *wl)
{
	switch (wl_index(wl)) {
	case W_PF1:
	case W_PF2:
	case W_FA1:
		return "per_node:shared page_counter:stocked";
	case W_TCP:
		return "page_counter:socket";
	case W_HACK:
		return "kmem:split";
	}
	return NULL; /* page_fault3: nothing is charged after the first pass */
}

static void describe(const struct bench_cfg *cfg, void (*out)(void *arg, const char *line),
		     void *arg)
{
	char fs[48], line[PATH_MAX + 96];

	kf_fs_name(bench_str(cfg, "dir"), fs, sizeof(fs));
	snprintf(line, sizeof(line), "files (page_fault2/3, fallocate1, tcp) in %s: %s",
		 bench_str(cfg, "dir"), fs);
	out(arg, line);
	out(arg, "one op: a page written (page_fault*), a fallocate call (fallocate1), a message "
		 "sent or received (tcp, hackbench)");
	out(arg, "tcp, hackbench: threads 2k, 2k+1 are a sender and its receiver; tcp at 1 "
		 "thread does both in turn; an odd count leaves one PU idle");
}

static const struct bench_param params[] = {
    {"dir", "/dev/shm",
     "directory of the files: page_fault2/3's, fallocate1's, tcp's sendfile source", BENCH_FILE, 0,
     0},
    {"map_mib", "128", "page_fault*: MiB per mapping (will-it-scale's MEMSIZE)", NULL, 1, 1 << 16},
    {"file_kib", "1024", "fallocate1: file size before the truncate; tcp: the file sent", NULL, 1,
     1 << 20},
    {"call_kib", "8", "fallocate1: KiB per fallocate call", NULL, 1, 1 << 20},
    {"msg", "10240", "tcp, hackbench: bytes per message", NULL, 1, 1 << 20},
    {"proto", "ipv6", "tcp: loopback over IPv6 (::1) or IPv4 (127.0.0.1)", "ipv6|ipv4", 0, 0},
    {"send", "sendfile", "tcp: sendfile from the file, or send() of the same bytes",
     "sendfile|send", 0, 0},
    {"ipc", "socket", "hackbench: AF_UNIX SOCK_STREAM socketpairs or pipes", "socket|pipe", 0, 0},
    {"fds", "20", "hackbench: receivers (channels) per group", NULL, 1, 1024},
    {0},
};

static const struct bench_preset presets[] = {
    {"running", "the kernel this machine runs (context.json: release, build id, BTF layout)", ""},
    {0},
};

static const struct bench_workload workloads[] = {
    {"page_fault1", "will-it-scale: anonymous private mapping, one write per page, munmap", "",
     BENCH_SYMMETRIC},
    {"page_fault2", "will-it-scale: private file mapping (copy-on-write), one write per page", "",
     BENCH_SYMMETRIC},
    {"page_fault3", "will-it-scale: shared file mapping; charged once, then page-cache hits", "",
     BENCH_SYMMETRIC},
    {"fallocate1", "will-it-scale: fallocate 8 KiB steps to 1 MiB, ftruncate 0", "",
     BENCH_SYMMETRIC},
    {"tcp", "netperf -t TCP_SENDFILE -m 10K over loopback: sender/receiver pairs", "", 0},
    {"hackbench", "hackbench: groups of a sender and a receiver thread over socketpairs", "msg=100",
     0},
    {0},
};

const struct scenario kernel_scenario = {
    .name = "kernel",
    .desc = "the running kernel's charge paths: will-it-scale, netperf, hackbench (real, not "
	    "emulated)",
    .flags = BENCH_KERNEL,
    .params = params,
    .presets = presets,
    .workloads = workloads,
    .check = check,
    .setup = setup,
    .teardown = teardown,
    .thread_setup = thread_setup,
    .thread_teardown = thread_teardown,
    .run = run,
    .describe = describe,
    .skip = skip,
    .window_end = window_end,
    .emulates = emulates,
};
