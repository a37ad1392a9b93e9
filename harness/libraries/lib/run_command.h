/* SPDX-License-Identifier: MIT */
/*
 * run_command.h - the one way pcbench runs another program (perf, pahole, gnuplot,
 * hwloc-calc): an argv, never a shell. The child is registered with stop_child (stop.h), so
 * a signal that ends pcbench ends it too; its output can be captured (stdout, stderr, or both
 * as one stream) or read by the caller through a pipe; every wait and read is retried on
 * EINTR; a timeout ends it (SIGTERM, then SIGKILL); and its exit status is decoded into a
 * message ("exited 3", "killed by signal 9").
 *
 *	char *argv[] = {"hwloc-calc", "--po", "-I", "pu", "core:0", NULL};
 *	struct run_cmd c = {.argv = argv, .out = RUN_CAPTURE, .err = RUN_TO_OUT};
 *
 *	if (run_command(&c, err, sizeof(err)))
 *		... not started: err says why (c.spawn_errno: ENOENT when not found)
 *	... sb_str(&c.out_text), run_status_text(c.status, buf, sizeof(buf))
 *	run_cmd_free(&c);
 */
#ifndef PCBENCH_RUN_COMMAND_H
#define PCBENCH_RUN_COMMAND_H

#include <stddef.h>
#include <sys/types.h>

#include "strbuf.h"

/* Where one of the child's output streams goes. */
enum run_stream {
	RUN_INHERIT, /* pcbench's own stdout or stderr */
	RUN_CAPTURE, /* into ->out_text or ->err_text (at most ->max bytes; the rest is read
			and dropped, and ->too_much says so) */
	RUN_PIPE,    /* stdout only: the caller reads ->out_fd (run_start), then run_finish */
	RUN_TO_OUT,  /* stderr only: into the same place as stdout (2>&1) */
};

struct run_cmd {
	/* set by the caller */
	char *const *argv;   /* argv[0]: a path, or a name looked up in $PATH */
	enum run_stream out; /* the child's stdout */
	enum run_stream err; /* the child's stderr */
	size_t max;	     /* bytes kept of each captured stream; 0: 16 MiB */
	double timeout_s;    /* > 0: SIGTERM after that many seconds, SIGKILL 2 s later */
	/* set by run_start, run_finish, run_command */
	pid_t pid;
	int out_fd; /* RUN_PIPE: the read end of the child's stdout (run_finish closes it) */
	struct sb out_text, err_text;
	int status;	 /* waitpid's status of the child */
	int spawn_errno; /* not started: why (ENOENT: no such program) */
	int too_much;	 /* a captured stream was longer than ->max */
	int timed_out;	 /* the timeout ended it */
	int fds[2];	 /* the parent's ends of the capture pipes (internal) */
};

/*
 * run_start - start @c's program. Returns 0, or -1 with "ARGV0: why" in @err (@c->spawn_errno
 * set). Every started child must be finished with run_finish (or run_command).
 */
int run_start(struct run_cmd *c, char *err, size_t errlen);
/*
 * run_finish - read the captured output to its end (honouring the timeout), then wait for
 * the child: ->status. Returns 0, or -1 with why in @err when the wait failed.
 */
int run_finish(struct run_cmd *c, char *err, size_t errlen);
/* run_command - run_start, then run_finish. */
int run_command(struct run_cmd *c, char *err, size_t errlen);
/* run_cmd_free - the captured text. */
void run_cmd_free(struct run_cmd *c);

/*
 * run_wait - waitpid(@pid) retried on EINTR, then stop_child(@pid, 0): for a child of a
 * fork without exec (the measuring process under --cgroup). Returns waitpid's result.
 */
pid_t run_wait(pid_t pid, int *status);
/* run_status_text - @status as "exited 3" or "killed by signal 9" into @buf; returns @buf. */
const char *run_status_text(int status, char *buf, size_t len);
/* run_exit_code - @status as a shell has it: the exit status, or 128 + the signal. */
int run_exit_code(int status);

#endif
