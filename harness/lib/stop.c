// SPDX-License-Identifier: MIT
#include "stop.h"

#include <string.h>
#include <unistd.h>

#include "outfile.h"

volatile sig_atomic_t stop_requested;
static volatile sig_atomic_t flag_mode;

static void on_stop(int sig)
{
	/* a reader gone: every later write to that pipe raises SIGPIPE again; not a second ask */
	if (flag_mode && stop_requested && sig == SIGPIPE)
		return;
	if (!flag_mode || stop_requested) {
		outfile_cleanup();
		_exit(3);
	}
	stop_requested = sig;
}

void stop_install(enum stop_mode mode, int pipe)
{
	struct sigaction sa;
	static const int sigs[] = {SIGINT, SIGTERM, SIGHUP, SIGPIPE};

	flag_mode = mode == STOP_FLAG;
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_stop;
	sigemptyset(&sa.sa_mask);
	sa.sa_flags = SA_RESTART;
	for (unsigned i = 0; i < sizeof(sigs) / sizeof(sigs[0]); i++) {
		if (sigs[i] != SIGPIPE || pipe)
			sigaction(sigs[i], &sa, NULL);
	}
}
