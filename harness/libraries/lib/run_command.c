// SPDX-License-Identifier: MIT
/* run_command.c - another program run from an argv (run_command.h); it calls only lib/. */
#include "run_command.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "stop.h"
#include "util.h"

extern char **environ;

#define RUN_MAX_DEFAULT (16UL << 20)

static void close_fd(int *fd)
{
	if (*fd >= 0)
		close(*fd);
	*fd = -1;
}

int run_start(struct run_cmd *c, char *err, size_t errlen)
{
	/* p[0]: the stdout pipe (RUN_CAPTURE, RUN_PIPE), p[1]: the stderr pipe (RUN_CAPTURE) */
	int p[2][2] = {{-1, -1}, {-1, -1}}, rc = 0;
	posix_spawn_file_actions_t fa;

	c->pid = -1;
	c->out_fd = c->fds[0] = c->fds[1] = -1;
	c->status = 0;
	c->spawn_errno = c->too_much = c->timed_out = 0;
	memset(&c->out_text, 0, sizeof(c->out_text));
	memset(&c->err_text, 0, sizeof(c->err_text));
	/* close-on-exec: no other child (a later one, or this one's own) inherits them */
	if ((c->out != RUN_INHERIT && pipe2(p[0], O_CLOEXEC)) ||
	    (c->err == RUN_CAPTURE && pipe2(p[1], O_CLOEXEC))) {
		rc = errno;
		set_err(err, errlen, "%s: pipe: %s", c->argv[0], strerror(rc));
		goto fail;
	}
	posix_spawn_file_actions_init(&fa);
	if (p[0][1] >= 0)
		posix_spawn_file_actions_adddup2(&fa, p[0][1], 1);
	if (c->err == RUN_TO_OUT)
		posix_spawn_file_actions_adddup2(&fa, p[0][1] >= 0 ? p[0][1] : 1, 2);
	else if (p[1][1] >= 0)
		posix_spawn_file_actions_adddup2(&fa, p[1][1], 2);
	fflush(NULL); /* nothing buffered is written twice or out of order */
	rc = posix_spawnp(&c->pid, c->argv[0], &fa, NULL, c->argv, environ);
	posix_spawn_file_actions_destroy(&fa);
	if (rc) {
		c->pid = -1;
		set_err(err, errlen, "%s: %s", c->argv[0], strerror(rc));
		goto fail;
	}
	stop_child(c->pid, 1); /* a signal that ends pcbench ends the child too */
	close_fd(&p[0][1]);
	close_fd(&p[1][1]);
	if (c->out == RUN_PIPE)
		c->out_fd = p[0][0];
	else
		c->fds[0] = p[0][0];
	c->fds[1] = p[1][0];
	return 0;
fail:
	c->spawn_errno = rc;
	for (int i = 0; i < 2; i++) {
		close_fd(&p[i][0]);
		close_fd(&p[i][1]);
	}
	return -1;
}

/* take - one read of @fd into @b (kept up to @max bytes); 0 at its end or on an error. */
static int take(struct run_cmd *c, int fd, struct sb *b, size_t max)
{
	char tmp[65536];
	ssize_t got = read(fd, tmp, sizeof(tmp));

	if (got < 0)
		return errno == EINTR || errno == EAGAIN;
	if (got == 0)
		return 0;
	if (b->n + (size_t)got > max) {
		c->too_much = 1;
		got = b->n < max ? (ssize_t)(max - b->n) : 0;
	}
	if (got > 0)
		sb_add(b, tmp, (size_t)got);
	return 1;
}

/* overdue - past the deadline: SIGTERM the child, and 2 s later SIGKILL. */
static void overdue(struct run_cmd *c, double *deadline)
{
	kill(c->pid, c->timed_out ? SIGKILL : SIGTERM);
	c->timed_out = 1;
	*deadline = now_s() + 2;
}

/* wait_ms - milliseconds until @deadline for poll (-1: none). */
static int wait_ms(double deadline)
{
	double left = deadline - now_s();

	if (deadline <= 0)
		return -1;
	return left > 0 ? (int)(left * 1000) + 1 : 0;
}

int run_finish(struct run_cmd *c, char *err, size_t errlen)
{
	size_t max = c->max ? c->max : RUN_MAX_DEFAULT;
	double deadline = c->timeout_s > 0 ? now_s() + c->timeout_s : 0;
	struct sb *text[2] = {&c->out_text, &c->err_text};
	pid_t w;

	while (c->fds[0] >= 0 || c->fds[1] >= 0) {
		struct pollfd pf[2] = {{c->fds[0], POLLIN, 0}, {c->fds[1], POLLIN, 0}};
		int n = poll(pf, 2, wait_ms(deadline));

		if (n < 0 && errno != EINTR)
			break;
		if (n == 0)
			overdue(c, &deadline);
		for (int i = 0; n > 0 && i < 2; i++)
			if (c->fds[i] >= 0 && pf[i].revents && !take(c, c->fds[i], text[i], max))
				close_fd(&c->fds[i]);
	}
	close_fd(&c->fds[0]);
	close_fd(&c->fds[1]);
	for (;;) {
		w = waitpid(c->pid, &c->status, deadline > 0 ? WNOHANG : 0);
		if (w == c->pid || (w < 0 && errno != EINTR))
			break;
		if (w == 0) { /* still running, with a deadline: look again in 10 ms */
			struct timespec ts = {0, 10 * 1000 * 1000};

			if (wait_ms(deadline) == 0)
				overdue(c, &deadline);
			nanosleep(&ts, NULL);
		}
	}
	stop_child(c->pid, 0);
	if (w < 0) {
		set_err(err, errlen, "%s: waitpid: %s", c->argv[0], strerror(errno));
		return -1;
	}
	return 0;
}

int run_command(struct run_cmd *c, char *err, size_t errlen)
{
	if (run_start(c, err, errlen))
		return -1;
	return run_finish(c, err, errlen);
}

void run_cmd_free(struct run_cmd *c)
{
	free(c->out_text.p);
	free(c->err_text.p);
	memset(&c->out_text, 0, sizeof(c->out_text));
	memset(&c->err_text, 0, sizeof(c->err_text));
}

pid_t run_wait(pid_t pid, int *status)
{
	pid_t w;

	while ((w = waitpid(pid, status, 0)) < 0 && errno == EINTR)
		;
	stop_child(pid, 0);
	return w;
}

const char *run_status_text(int status, char *buf, size_t len)
{
	if (WIFEXITED(status))
		snprintf(buf, len, "exited %d", WEXITSTATUS(status));
	else if (WIFSIGNALED(status))
		snprintf(buf, len, "killed by signal %d", WTERMSIG(status));
	else
		snprintf(buf, len, "wait status 0x%x", (unsigned)status);
	return buf;
}

int run_exit_code(int status)
{
	return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}
