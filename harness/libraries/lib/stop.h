/* SPDX-License-Identifier: MIT */
/*
 * stop.h - how every command ends on SIGINT, SIGTERM and SIGHUP (docs/measuring.md,
 * "Signals"): with exit status 3, finished output kept whole, no temp or header-only file
 * left (lib/outfile's registry).
 *
 * main() installs STOP_EXIT for every command: the handler removes the registered files
 * and ends the process at once. Long commands (measure, model, plot) switch to STOP_FLAG:
 * the handler only sets stop_requested, the command stops at its next check, keeps what it
 * has finished and returns 3; a second signal ends it at once (as STOP_EXIT). With @pipe,
 * SIGPIPE (stdout or stderr closed) asks to stop as well; the SIGPIPEs of later writes to
 * the same closed pipe are not a second signal. A command that finds its reader gone
 * without writing (poll) calls raise(SIGPIPE). A scenario's waits end too:
 * bench_window_over() is true once a stop was requested.
 *
 * SIGINT is handled even when it was inherited as ignored: a non-interactive shell starts
 * background jobs (`pcbench model ... &`) with SIGINT ignored, and a script that later
 * sends `kill -INT $!` means it (before, such a model run went on for 20 minutes).
 */
#ifndef PCBENCH_STOP_H
#define PCBENCH_STOP_H

#include <signal.h>
#include <sys/types.h>

/* The signal that asked the command to stop, or 0. */
extern volatile sig_atomic_t stop_requested;

enum stop_mode { STOP_EXIT, STOP_FLAG };

/*
 * stop_install - handle INT, TERM and HUP; with @pipe also PIPE (a closed stdout/stderr).
 * INT, TERM and HUP are unblocked too: a parent that starts pcbench with them blocked has
 * one sent before the handler existed (during exec and the dynamic loader, about 3 ms here
 * and far more under load) delivered to it, exit 3.
 */
void stop_install(enum stop_mode mode, int pipe);

/*
 * stop_child - (@add 1) child process @pid is running, (0) it was reaped. A signal that
 * ends the command sends SIGTERM to every registered child first: no perf, pahole or
 * gnuplot outlives pcbench. Async-signal-safe.
 */
void stop_child(pid_t pid, int add);
/* stop_children - SIGTERM to every registered child (the exit path of a signal). */
void stop_children(void);
/*
 * stop_sigset - @set holds the signals that stop a command: SIGINT, SIGTERM and SIGHUP.
 * Inline: lib/outfile holds them while it makes a tracked file, and stop.c calls outfile's
 * cleanup (a call from outfile.o into stop.o would close a loop).
 */
static inline void stop_sigset(sigset_t *set)
{
	sigemptyset(set);
	sigaddset(set, SIGINT);
	sigaddset(set, SIGTERM);
	sigaddset(set, SIGHUP);
}

#endif
