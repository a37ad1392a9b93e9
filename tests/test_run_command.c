// SPDX-License-Identifier: MIT
/*
 * test_run_command.c - lib/run_command.h: exit statuses decoded ("exited 3", "killed by
 * signal 9"), stdout and stderr captured apart and as one stream, a program that does not
 * exist, output longer than the cap, reads and waits broken off by a signal every
 * millisecond (EINTR), and a child ended by stop_children (a signal to pcbench) and by the
 * timeout. The children are /bin/sh given an argv (the API itself never runs a shell).
 */
#include <errno.h>
#include <signal.h>
#include <string.h>
#include <sys/time.h>
#include <sys/wait.h>
#include <unistd.h>

#include "check.h"
#include "run_command.h"
#include "stop.h"

static volatile sig_atomic_t ticks;

static void on_alarm(int sig)
{
	(void)sig;
	ticks++;
}

/* sh - run "sh -c SCRIPT" with @out and @err; the status text into @st. */
static int sh(struct run_cmd *c, const char *script, enum run_stream out, enum run_stream err,
	      char *st, size_t len)
{
	static char *argv[4];
	char why[256];
	int rc;

	argv[0] = "sh";
	argv[1] = "-c";
	argv[2] = (char *)script;
	argv[3] = NULL;
	c->argv = argv;
	c->out = out;
	c->err = err;
	rc = run_command(c, why, sizeof(why));
	if (rc)
		fail("sh -c '%s': %s", script, why);
	run_status_text(c->status, st, len);
	return rc;
}

int main(void)
{
	struct run_cmd c = {0};
	char st[64], why[256];

	/* exit statuses */
	sh(&c, "exit 3", RUN_INHERIT, RUN_INHERIT, st, sizeof(st));
	CHECK(!strcmp(st, "exited 3"), "exit 3: \"%s\"", st);
	CHECK(run_exit_code(c.status) == 3, "exit 3: code %d", run_exit_code(c.status));
	sh(&c, "kill -9 $$", RUN_INHERIT, RUN_INHERIT, st, sizeof(st));
	CHECK(!strcmp(st, "killed by signal 9"), "kill -9: \"%s\"", st);
	CHECK(run_exit_code(c.status) == 137, "kill -9: code %d", run_exit_code(c.status));
	sh(&c, "true", RUN_INHERIT, RUN_INHERIT, st, sizeof(st));
	CHECK(!strcmp(st, "exited 0"), "true: \"%s\"", st);

	/* captured apart, and as one stream */
	sh(&c, "echo out; echo err >&2; exit 1", RUN_CAPTURE, RUN_CAPTURE, st, sizeof(st));
	CHECK(!strcmp(sb_str(&c.out_text), "out\n"), "stdout: \"%s\"", sb_str(&c.out_text));
	CHECK(!strcmp(sb_str(&c.err_text), "err\n"), "stderr: \"%s\"", sb_str(&c.err_text));
	CHECK(!strcmp(st, "exited 1"), "exit 1: \"%s\"", st);
	run_cmd_free(&c);
	sh(&c, "echo out; echo err >&2", RUN_CAPTURE, RUN_TO_OUT, st, sizeof(st));
	CHECK(!strcmp(sb_str(&c.out_text), "out\nerr\n"), "2>&1: \"%s\"", sb_str(&c.out_text));
	CHECK(!c.err_text.n, "2>&1: stderr captured apart too");
	run_cmd_free(&c);

	/* longer than the cap: the first bytes kept, the rest read (the child does not block) */
	c.max = 1000;
	sh(&c, "i=0; while [ $i -lt 2000 ]; do echo 0123456789; i=$((i + 1)); done", RUN_CAPTURE,
	   RUN_INHERIT, st, sizeof(st));
	CHECK(c.out_text.n == 1000 && c.too_much, "cap: %zu bytes kept, too_much %d", c.out_text.n,
	      c.too_much);
	CHECK(!strcmp(st, "exited 0"), "cap: \"%s\"", st);
	run_cmd_free(&c);
	c.max = 0;

	/* a program that does not exist: not started, ENOENT, its name in the message */
	{
		char *argv[] = {"pcbench-no-such-program", NULL};
		struct run_cmd n = {.argv = argv, .out = RUN_CAPTURE, .err = RUN_CAPTURE};

		CHECK(run_command(&n, why, sizeof(why)) == -1, "no such program: started");
		CHECK(n.spawn_errno == ENOENT, "no such program: errno %d", n.spawn_errno);
		CHECK(strstr(why, "pcbench-no-such-program: "), "no such program: \"%s\"", why);
	}

	/* EINTR: a signal without SA_RESTART every millisecond breaks off every read and wait */
	{
		struct sigaction sa = {0};
		struct itimerval it = {{0, 1000}, {0, 1000}};

		sa.sa_handler = on_alarm;
		sigemptyset(&sa.sa_mask);
		sigaction(SIGALRM, &sa, NULL);
		setitimer(ITIMER_REAL, &it, NULL);
		sh(&c, "sleep 0.2; echo one; sleep 0.2; echo two", RUN_CAPTURE, RUN_INHERIT, st,
		   sizeof(st));
		it = (struct itimerval){{0, 0}, {0, 0}};
		setitimer(ITIMER_REAL, &it, NULL);
		CHECK(!strcmp(sb_str(&c.out_text), "one\ntwo\n"), "EINTR: \"%s\"",
		      sb_str(&c.out_text));
		CHECK(!strcmp(st, "exited 0"), "EINTR: \"%s\"", st);
		CHECK(ticks > 0, "EINTR: no signal came");
		run_cmd_free(&c);
	}

	/* stop_children (what a signal to pcbench runs): the child gets SIGTERM */
	{
		char *argv[] = {"sh", "-c", "echo started; exec sleep 600", NULL};
		struct run_cmd s = {.argv = argv, .out = RUN_PIPE, .err = RUN_INHERIT};
		char line[32] = "";
		ssize_t k;

		CHECK(!run_start(&s, why, sizeof(why)), "sleep: %s", why);
		/* it runs: "started" comes through the pipe */
		k = read(s.out_fd, line, sizeof(line) - 1);
		CHECK(k > 0 && !strncmp(line, "started", 7), "sleep: read %zd", k);
		stop_children();
		close(s.out_fd);
		CHECK(!run_finish(&s, why, sizeof(why)), "sleep: %s", why);
		run_status_text(s.status, st, sizeof(st));
		CHECK(!strcmp(st, "killed by signal 15"), "stop_children: \"%s\"", st);
		/* reaped: no longer registered, so a later stop_children sends it nothing */
	}

	/* the timeout: SIGTERM (the child ignores it: then SIGKILL) */
	{
		char *argv[] = {"sh", "-c", "trap '' TERM; while :; do sleep 0.05; done", NULL};
		struct run_cmd s = {.argv = argv, .out = RUN_INHERIT, .err = RUN_INHERIT};

		s.timeout_s = 0.2;
		CHECK(!run_command(&s, why, sizeof(why)), "timeout: %s", why);
		run_status_text(s.status, st, sizeof(st));
		CHECK(s.timed_out, "timeout: not timed out");
		CHECK(!strcmp(st, "killed by signal 9"), "timeout: \"%s\"", st);
	}
	return failures != 0;
}
