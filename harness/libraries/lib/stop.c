// SPDX-License-Identifier: MIT
#include "stop.h"

#include <string.h>
#include <unistd.h>

#include "outfile.h"

volatile sig_atomic_t stop_requested;
static volatile sig_atomic_t flag_mode;

/* The child processes running now (perf, pahole, gnuplot): ended with the command. */
#define MAX_CHILDREN 8
static volatile pid_t children[MAX_CHILDREN];

void stop_child(pid_t pid, int add)
{
	for (int i = 0; i < MAX_CHILDREN; i++)
		if (add ? !children[i] : children[i] == pid) {
			children[i] = add ? pid : 0;
			return;
		}
}

void stop_children(void)
{
	for (int i = 0; i < MAX_CHILDREN; i++)
		if (children[i] > 0)
			kill(children[i], SIGTERM);
}

static void on_stop(int sig)
{
	/* a reader gone: every later write to that pipe raises SIGPIPE again; not a second ask */
	if (flag_mode && stop_requested && sig == SIGPIPE)
		return;
	if (!flag_mode || stop_requested) {
		stop_children();
		outfile_cleanup();
		_exit(3);
	}
	stop_requested = sig;
}

void stop_install(enum stop_mode mode, int pipe)
{
	struct sigaction sa;
	sigset_t un;
	static const int sigs[] = {SIGINT, SIGTERM, SIGHUP, SIGPIPE};

	flag_mode = mode == STOP_FLAG;
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_stop;
	sigemptyset(&sa.sa_mask);
	/*
	 * The flag mode's handler returns, so calls it breaks off start again. The exit mode's
	 * never returns, but under TSan it is run only when the call it broke off returns: a
	 * restarted waitpid on a perf that never ends would hold it off for as long.
	 */
	sa.sa_flags = flag_mode ? SA_RESTART : 0;
	for (unsigned i = 0; i < sizeof(sigs) / sizeof(sigs[0]); i++) {
		if (sigs[i] != SIGPIPE || pipe)
			sigaction(sigs[i], &sa, NULL);
	}
	/*
	 * Blocked by the parent (the mask outlives exec): unblocked now that the handler is
	 * there, so a signal that came while pcbench started (exec, the dynamic loader: before
	 * any handler can exist) is delivered to it now, and it exits 3.
	 */
	stop_sigset(&un);
	sigprocmask(SIG_UNBLOCK, &un, NULL);
}
