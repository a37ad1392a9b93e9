// SPDX-License-Identifier: MIT
/* cgroup.c - --cgroup DIR: pcbench's own three-level memory cgroup hierarchy (cgroup.h). */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/statfs.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "cgroup.h"
#include "run_command.h"
#include "stop.h"
#include "util.h"

#ifndef CGROUP2_SUPER_MAGIC
#define CGROUP2_SUPER_MAGIC 0x63677270
#endif

/* has_word - @word is one of the blank-separated words of the first line of @path. */
static int has_word(const char *path, const char *word, int *readable)
{
	char line[1024], *save = NULL;
	FILE *f = fopen(path, "r");
	int found = 0;

	*readable = f != NULL;
	if (!f)
		return 0;
	if (fgets(line, sizeof(line), f))
		for (char *w = strtok_r(line, " \n", &save); w && !found;
		     w = strtok_r(NULL, " \n", &save))
			found = !strcmp(w, word);
	fclose(f);
	return found;
}

int cg_check(struct cg_run *c, const char *dir, char *err, size_t len)
{
	char path[600];
	struct statfs fs;
	struct stat st;
	int readable;

	memset(c, 0, sizeof(*c));
	snprintf(c->dir, sizeof(c->dir), "%s", dir);
	c->fake = getenv("PCBENCH_FAKE_CGROUPFS") && !strcmp(getenv("PCBENCH_FAKE_CGROUPFS"), "1");
	if (stat(dir, &st)) {
		set_err(err, len, "%s", strerror(errno));
		return -1;
	}
	if (!S_ISDIR(st.st_mode)) {
		set_err(err, len, "not a directory");
		return -1;
	}
	if (!c->fake && (statfs(dir, &fs) || fs.f_type != CGROUP2_SUPER_MAGIC)) {
		set_err(err, len, "not a cgroup v2 directory (its file system is not cgroup2)");
		return -1;
	}
	snprintf(path, sizeof(path), "%s/cgroup.controllers", dir);
	if (!has_word(path, "memory", &readable)) {
		set_err(err, len,
			readable ? "the memory controller is not available here (%s)"
				 : "not a cgroup v2 directory (no %s)",
			path);
		return -1;
	}
	snprintf(path, sizeof(path), "%s/cgroup.subtree_control", dir);
	if (!has_word(path, "memory", &readable)) {
		set_err(err, len,
			"the memory controller is not enabled for its children (%s lacks memory: "
			"echo +memory > it, as its owner)",
			path);
		return -1;
	}
	if (access(dir, W_OK | X_OK)) {
		set_err(err, len, "not writable: %s (delegate it to this user)", strerror(errno));
		return -1;
	}
	return 0;
}

/* cg_write - @value into @dir/@file, recorded; 0 or -1 with errno. */
static int cg_write(struct cg_run *c, const char *dir, const char *file, const char *value)
{
	char path[720];
	int fd, e = 0;
	ssize_t n;

	snprintf(path, sizeof(path), "%s/%s", dir, file);
	/* O_CREAT: a fake cgroupfs (tests) has no interface files; cgroupfs has them all */
	fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	if (fd < 0)
		return -1;
	n = write(fd, value, strlen(value));
	if (n != (ssize_t)strlen(value))
		e = n < 0 ? errno : EIO;
	if (close(fd) && !e)
		e = errno;
	if (c->nwrites < CG_MAX_WRITES)
		snprintf(c->writes[c->nwrites++], sizeof(c->writes[0]), "%s: %s", path, value);
	errno = e;
	return e ? -1 : 0;
}

/* rm_level - remove level @dir: the files written there (a fake cgroupfs), then the dir. */
static void rm_level(const struct cg_run *c, const char *dir)
{
	size_t n = strlen(dir);

	for (int i = 0; i < c->nwrites; i++) {
		const char *w = c->writes[i];

		if (!strncmp(w, dir, n) && w[n] == '/' && !strchr(w + n + 1, '/')) {
			char path[800];

			snprintf(path, sizeof(path), "%.*s", (int)strcspn(w, ":"), w);
			unlink(path); /* EPERM on cgroupfs: its files go with the directory */
		}
	}
	for (int tries = 0; rmdir(dir) && errno == EBUSY && tries < 100; tries++) {
		struct timespec ts = {0, 10 * 1000 * 1000}; /* a leaf emptied a moment ago */

		nanosleep(&ts, NULL);
	}
}

static void cg_remove(struct cg_run *c)
{
	if (c->made >= 3)
		rm_level(c, c->leaf);
	if (c->made >= 2)
		rm_level(c, c->mid);
	if (c->made >= 1)
		rm_level(c, c->top);
	c->made = 0;
}

static volatile pid_t child_pid;

static void pass_on(int sig)
{
	if (child_pid > 0)
		kill(child_pid, sig);
}

/* build - the three levels, memory.min/low on the top one, memory enabled down to the leaf. */
static int build(struct cg_run *c, char *err, size_t len)
{
	char v[32];
	struct stat st;

	/* seed 000: memory.min the size of the benchmark's binary, memory.low twice that */
	c->min = stat("/proc/self/exe", &st) ? 1 << 20 : (unsigned long long)st.st_size;
	c->low = 2 * c->min;
	snprintf(c->top, sizeof(c->top), "%s/pcbench-%ld", c->dir, (long)getpid());
	snprintf(c->mid, sizeof(c->mid), "%s/mid", c->top);
	snprintf(c->leaf, sizeof(c->leaf), "%s/leaf", c->mid);
	if (mkdir(c->top, 0755)) {
		set_err(err, len, "mkdir %s: %s", c->top, strerror(errno));
		return -1;
	}
	c->made = 1;
	snprintf(v, sizeof(v), "%llu", c->min);
	if (cg_write(c, c->top, "memory.min", v))
		goto fail;
	snprintf(v, sizeof(v), "%llu", c->low);
	if (cg_write(c, c->top, "memory.low", v) ||
	    cg_write(c, c->top, "cgroup.subtree_control", "+memory"))
		goto fail;
	if (mkdir(c->mid, 0755)) {
		set_err(err, len, "mkdir %s: %s", c->mid, strerror(errno));
		return -1;
	}
	c->made = 2;
	if (cg_write(c, c->mid, "cgroup.subtree_control", "+memory"))
		goto fail;
	if (mkdir(c->leaf, 0755)) {
		set_err(err, len, "mkdir %s: %s", c->leaf, strerror(errno));
		return -1;
	}
	c->made = 3;
	return 0;
fail:
	set_err(err, len, "%s", c->writes[c->nwrites - 1]);
	snprintf(err + strlen(err), len - strlen(err), ": %s", strerror(errno));
	return -1;
}

int cg_enter(struct cg_run *c)
{
	struct sigaction sa;
	char err[900], pid[24];
	int status;
	pid_t p;

	if (build(c, err, sizeof(err))) {
		cg_remove(c);
		usage_error("--cgroup", c->dir, "%s (nothing left behind)", err);
	}
	fflush(NULL);
	p = fork();
	if (p < 0) {
		cg_remove(c);
		die("--cgroup", c->dir, "fork: %s", strerror(errno));
	}
	if (p == 0) {
		snprintf(pid, sizeof(pid), "%ld", (long)getpid());
		if (cg_write(c, c->leaf, "cgroup.procs", pid)) {
			warn_msg("--cgroup: %s: %s", c->writes[c->nwrites - 1], strerror(errno));
			_exit(2);
		}
		return 0;
	}
	child_pid = p;
	stop_child(p, 1); /* until pass_on is in place, a signal that ends us ends it too */
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = pass_on;
	sigemptyset(&sa.sa_mask);
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGHUP, &sa, NULL);
	signal(SIGPIPE, SIG_IGN);
	run_wait(p, &status); /* EINTR retried; stop_child(p, 0) */
	/* the measuring process's writes (cgroup.procs) are its own: record them for removal */
	snprintf(pid, sizeof(pid), "%ld", (long)p);
	if (c->nwrites < CG_MAX_WRITES)
		snprintf(c->writes[c->nwrites++], sizeof(c->writes[0]), "%s/cgroup.procs: %s",
			 c->leaf, pid);
	cg_remove(c);
	exit(run_exit_code(status));
}

json_t *cg_json(const struct cg_run *c)
{
	json_t *w = json_array();

	for (int i = 0; i < c->nwrites; i++)
		json_array_append_new(w, json_string(c->writes[i]));
	return json_pack("{s:s, s:s, s:s, s:s, s:I, s:I, s:b, s:o, s:s}", "dir", c->dir, "top",
			 c->top, "mid", c->mid, "leaf", c->leaf, "memory_min", (json_int_t)c->min,
			 "memory_low", (json_int_t)c->low, "fake_cgroupfs", c->fake, "writes", w,
			 "removed",
			 "at the end of the run, also when interrupted (by the parent "
			 "process that forked the measuring one)");
}
